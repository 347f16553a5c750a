//! `diff`: bytes → (limits, ops) by the harness generator → core and the oracle side by side.
//! A divergence panics with its report so libFuzzer records the input as a crash.
//!
//! `PDTREE_FAULT=<name>` tests core with one planted bug instead (the names of `pdtree
//! fuzz --fault`), so `ci/fuzz-faults` can measure how soon `cargo fuzz` finds each.
#![no_main]

mod asan_defaults;

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pdtree_harness::check::diff::diff_bytes;
use pdtree_harness::check::faults::{Fault, Faulty};

fn fault() -> Option<Fault> {
    static FAULT: OnceLock<Option<Fault>> = OnceLock::new();
    *FAULT.get_or_init(|| {
        let name = std::env::var("PDTREE_FAULT").ok()?;
        Some(
            Fault::from_name(&name)
                .unwrap_or_else(|| panic!("PDTREE_FAULT={name}: no such planted bug")),
        )
    })
}

fuzz_target!(|data: &[u8]| {
    let run = match fault() {
        None => diff_bytes(data, &pdtree_harness::core_tree),
        Some(f) => diff_bytes(data, &|l| Faulty::new(pdtree_harness::core_tree(l), f)),
    };
    if let Err(d) = run {
        panic!("divergence:\n{d}");
    }
});
