//! `diff`: bytes → (limits, ops) by the harness generator → core and the oracle side by side.
//! A divergence panics with its report so libFuzzer records the input as a crash.
#![no_main]

mod asan_defaults;

use libfuzzer_sys::fuzz_target;
use pdtree::{PseudoFs, Tree};
use pdtree_harness::check::diff::diff_bytes;

fuzz_target!(|data: &[u8]| {
    if let Err(d) = diff_bytes(data, &pdtree_harness::core_tree) {
        panic!("divergence:\n{d}");
    }
});
