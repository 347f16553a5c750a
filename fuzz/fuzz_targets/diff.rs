//! `diff`: bytes → (limits, ops) by the harness generator → core and the oracle side by side.
//! A divergence panics with its report so libFuzzer records the input as a crash.
//!
//! `PDTREE_FAULT=<name>` tests core with one planted bug instead (the names of `pdtree
//! fuzz --fault`), so `ci/fuzz-faults` can measure how soon `cargo fuzz` finds each.
//!
//! An input's reach buckets (`pdtree_harness::gen::ReachFeatures`: its largest directory,
//! deepest path, counters and threshold crossings, each by power of two) are set in
//! libFuzzer's extra counters, which it treats as coverage: an input that takes a directory
//! or a counter into a new power of two is kept and mutated from, and `cmin` keeps it.
#![no_main]

mod asan_defaults;

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use pdtree_harness::check::diff::diff_bytes;
use pdtree_harness::check::faults::{Fault, Faulty};
use pdtree_harness::gen::ReachFeatures;

/// libFuzzer's extra counters: it finds them by the section's `__start_`/`__stop_`
/// symbols, clears them before each input and reads every nonzero byte as a feature. The
/// alignment lets it clear them a word at a time.
#[repr(C, align(64))]
struct ExtraCounters([AtomicU8; ReachFeatures::LEN]);

#[used]
#[unsafe(link_section = "__libfuzzer_extra_counters")]
static REACH: ExtraCounters = ExtraCounters([const { AtomicU8::new(0) }; ReachFeatures::LEN]);

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
    match run {
        Ok(summary) => {
            for bit in summary.stats.features.iter() {
                REACH.0[bit].store(1, Ordering::Relaxed);
            }
        }
        Err(d) => panic!("divergence:\n{d}"),
    }
});
