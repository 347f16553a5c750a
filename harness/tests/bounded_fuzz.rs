//! A bounded run of the built-in differential fuzzer (core vs the oracle) that must find
//! nothing. It is part of the mutation-testing command (`.cargo/mutants.toml`): most mutants
//! of the tree's logic make core diverge from the oracle within these iterations.
//!
//! `PDTREE_FUZZ_ITERATIONS` overrides the iteration count (default below).

use pdtree_harness::campaign::{run, CampaignConfig};

const DEFAULT_ITERATIONS: u64 = 400;

#[test]
fn bounded_campaign_finds_nothing() {
    let iterations = std::env::var("PDTREE_FUZZ_ITERATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_ITERATIONS);
    let cfg = CampaignConfig {
        seed: 6,
        iterations: Some(iterations),
        jobs: 1,
        report_dir: None,
        minimize: false,
        ..CampaignConfig::default()
    };
    let r = run(&cfg, &pdtree_harness::core_tree);
    if let Some(f) = &r.found {
        panic!(
            "iteration {} diverged: {}\n{}",
            f.seed_or_iteration,
            f.divergence.signature(),
            r.summary()
        );
    }
    assert_eq!(r.iterations, iterations);
}
