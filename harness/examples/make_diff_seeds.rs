//! Makes the seed corpus of the `diff` fuzz target, `corpus/diff/`, deterministically.
//!
//! ```sh
//! cargo run --release -p pdtree-harness --example make_diff_seeds [-- OUT_DIR]
//! ```
//!
//! Seeds are byte inputs to the harness generator (`gen::ops_from_bytes`), so they are made
//! by running it, not by hand:
//!
//! 1. **Coverage seeds.** Candidates are the campaign's own inputs (`campaign::iteration_input`,
//!    seed `0x5eed`, at most 768 bytes). Each is run differentially on `pdtree::Tree` (it must not
//!    diverge); its features are the (op, outcome) pairs it produced, an outcome being `ok`
//!    or the error name. Greedily, a candidate is kept when it adds a feature not yet
//!    covered.
//! 2. **Planted-bug seeds.** For each `Fault` but the deep ones (`Fault::DEEP`, whose
//!    discovery by `cargo fuzz` `ci/fuzz-faults` measures), the first campaign input
//!    (seed 1) on which `Faulty` diverges: on the correct tree these run cleanly, and they
//!    steer libFuzzer towards the op patterns that matter.
//! 3. **State seeds.** Campaign inputs (seed `0x5eed`, like the coverage seeds) listed by
//!    iteration in `STATE_SEEDS`, each for a state of core's internals that no (op, outcome)
//!    feature tells apart, found by scanning the candidates with that code path instrumented.
//!
//! Existing files in the output directory are left alone; seed files are named
//! `cov-NNN-ITERATION`, `fault-NAME` and `state-ITERATION`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use pdtree::Tree;
use pdtree_harness::campaign::{self, iteration_input, CampaignConfig};
use pdtree_harness::check::faults::{Fault, Faulty};
use pdtree_harness::gen::ops_from_bytes;
use pdtree_harness::{diff_bytes, Outcome, Runner};

const CANDIDATES: u64 = 4_000;
const MAX_LEN: usize = 768;
const MAX_COVERAGE_SEEDS: usize = 48;
/// The longest input libFuzzer makes when no seed is longer (its `-max_len` default); a
/// longer seed raises that limit for the whole run.
const LIBFUZZER_MAX_LEN: usize = 4096;

/// The state seeds: (campaign iteration, what it reaches).
const STATE_SEEDS: [(u64, &str); 1] = [(
    6260,
    "a creation fills the name index while most of the arena is held by removed-but-open \
     entries, so the index regrows through hashbrown's reserve (rehashing its entries)",
)];

fn main() {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "corpus/diff".into()),
    );
    std::fs::create_dir_all(&out).expect("create the output directory");
    coverage_seeds(&out);
    state_seeds(&out);
    fault_seeds(&out);
}

/// The (op keyword, "ok" or the error) pairs an input reaches, realized by replaying its ops.
fn features(input: &[u8]) -> BTreeSet<(&'static str, &'static str)> {
    let (limits, ops) = ops_from_bytes(input);
    let mut runner: Runner<Tree> = Runner::new(limits);
    let mut features = BTreeSet::new();
    for op in &ops {
        let class = match runner.apply(op) {
            Outcome::Err(e) => e.name(),
            Outcome::Violation(_) => "violation",
            _ => "ok",
        };
        features.insert((op.keyword(), class));
    }
    features
}

/// 1. Candidates kept while they add (op, outcome) pairs, up to [`MAX_COVERAGE_SEEDS`].
fn coverage_seeds(out: &Path) {
    let mut covered: BTreeSet<(&str, &str)> = BTreeSet::new();
    let mut kept = 0;
    for i in 0..CANDIDATES {
        let input = iteration_input(0x5eed, i, MAX_LEN);
        if input.len() > MAX_LEN {
            // A long history (the campaign's every `LONG_EVERY`-th input ignores the length
            // limit): a seed of 10^5 bytes would raise libFuzzer's input length limit to
            // its own size and take seconds to replay under the sanitizer.
            continue;
        }
        let summary = match diff_bytes(&input, &pdtree_harness::core_tree) {
            Ok(s) => s,
            Err(d) => panic!("Tree diverges from the oracle on candidate {i}:\n{d}"),
        };
        let features = features(&input);
        if features.is_subset(&covered) {
            continue;
        }
        let new = features.difference(&covered).count();
        covered.extend(features);
        std::fs::write(out.join(format!("cov-{kept:03}-{i}")), &input).expect("write a seed");
        println!(
            "cov-{kept:03}-{i}: {} bytes, {} ops, {new} new features",
            input.len(),
            summary.stats.ops
        );
        kept += 1;
        if kept == MAX_COVERAGE_SEEDS {
            break;
        }
    }
    println!(
        "{kept} coverage seeds covering {} (op, outcome) pairs",
        covered.len()
    );
}

/// 3. The inputs listed in [`STATE_SEEDS`].
fn state_seeds(out: &Path) {
    for (i, why) in STATE_SEEDS {
        let input = iteration_input(0x5eed, i, MAX_LEN);
        if let Err(d) = diff_bytes(&input, &pdtree_harness::core_tree) {
            panic!("Tree diverges from the oracle on state seed {i}:\n{d}");
        }
        std::fs::write(out.join(format!("state-{i}")), &input).expect("write a seed");
        println!("state-{i}: {} bytes: {why}", input.len());
    }
}

/// 2. For each planted bug but the deep ones, the first campaign input that finds it
///    (each input once).
fn fault_seeds(out: &Path) {
    let cfg = CampaignConfig {
        seed: 1,
        iterations: Some(20_000),
        minimize: false,
        ..CampaignConfig::default()
    };
    let mut fault_inputs: Vec<Vec<u8>> = Vec::new();
    for fault in Fault::ALL.into_iter().filter(|f| !Fault::DEEP.contains(f)) {
        let r = campaign::run(&cfg, &|l| Faulty::new(pdtree_harness::core_tree(l), fault));
        match r.found {
            Some(f) if f.input.len() > LIBFUZZER_MAX_LEN => println!(
                "{fault:?}: iteration {}, {} bytes: longer than libFuzzer's default length limit, not written",
                f.seed_or_iteration,
                f.input.len()
            ),
            Some(f) if !fault_inputs.contains(&f.input) => {
                let name = format!("fault-{fault:?}");
                std::fs::write(out.join(&name), &f.input).expect("write a seed");
                println!(
                    "{name}: iteration {}, {} bytes",
                    f.seed_or_iteration,
                    f.input.len()
                );
                fault_inputs.push(f.input);
            }
            Some(f) => println!(
                "{fault:?}: iteration {}, same input as above",
                f.seed_or_iteration
            ),
            None => println!("{fault:?}: not found in {} iterations", r.iterations),
        }
    }
}
