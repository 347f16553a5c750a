//! `paths`: any bytes as a path or a name, into every path-taking operation, on core and the
//! oracle from the same fixed tree (see `pdtree_harness::paths`). A divergence panics with its
//! report so libFuzzer records the input as a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pdtree::{PseudoFs, Tree};
use pdtree_harness::{diff::run_ops, paths::ops_from_path_bytes};

fuzz_target!(|data: &[u8]| {
    let (limits, ops) = ops_from_path_bytes(data);
    if let Err(d) = run_ops(limits, &ops, &|l| Tree::with_limits(l)) {
        panic!("divergence:\n{d}");
    }
});
