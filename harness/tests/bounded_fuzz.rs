//! A bounded run of the built-in differential fuzzer (core vs the oracle) that must find
//! nothing, for `Tree`, for `SharedTree` used from one thread, and for a `SharedTree` with
//! each planted race (which one thread must not see). It is part of the mutation-testing
//! command (`.cargo/mutants.toml`): most mutants of the tree's logic, and of the shared
//! tree's delegation, handle path and race code paths, make core diverge from the oracle
//! within these iterations.
//!
//! `PDTREE_FUZZ_ITERATIONS` overrides the iteration count (default below).

use pdtree::{PseudoFs, Race, SharedTree};
use pdtree_harness::campaign::{run, CampaignConfig};
use pdtree_harness::core_tree;

const DEFAULT_ITERATIONS: u64 = 400;

/// The iteration count: `PDTREE_FUZZ_ITERATIONS`, or the default.
fn iterations() -> u64 {
    std::env::var("PDTREE_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_ITERATIONS)
}

/// Runs the campaign of seed `seed` against the trees `make` builds; panics on a divergence.
fn campaign_finds_nothing<A: PseudoFs>(seed: u64, make: &(dyn Fn(pdtree::Limits) -> A + Sync)) {
    let iterations = iterations();
    let cfg = CampaignConfig {
        seed,
        iterations: Some(iterations),
        jobs: 1,
        report_dir: None,
        minimize: false,
        ..CampaignConfig::default()
    };
    let r = run(&cfg, make);
    if let Some(f) = &r.found {
        panic!(
            "seed {seed}, iteration {} diverged: {}\n{}\n{}",
            f.seed_or_iteration,
            f.divergence.signature(),
            f.divergence,
            r.summary()
        );
    }
    assert_eq!(r.iterations, iterations);
}

#[test]
fn bounded_campaign_finds_nothing() {
    campaign_finds_nothing(6, &core_tree);
}

/// Every op through the shared tree's locks, on one thread: its two copies, the catch-up of
/// the back copy from the handle path's notes, and its checks, which compare the copies.
#[test]
fn bounded_campaign_on_a_shared_tree_finds_nothing() {
    campaign_finds_nothing(7, &|l| SharedTree::new(core_tree(l)));
}

/// Each planted race's code path on one thread: a race shows only between threads, so a
/// sequential run must agree with the oracle op for op (what the race does to the answers is
/// the linearizability checker's to find, `tests/lincheck.rs`).
#[test]
fn bounded_campaigns_on_each_planted_race_find_nothing_on_one_thread() {
    for (i, race) in Race::ALL.into_iter().enumerate() {
        campaign_finds_nothing(8 + i as u64, &|l| SharedTree::with_race(core_tree(l), race));
    }
}
