//! Replays every `corpus/regressions/*.ops` differentially (core vs the oracle) and fails on any
//! divergence. To add a case, copy a report's `repro.ops` there (see docs/FUZZING.md).

use std::path::PathBuf;

use pdtree::Limits;
use pdtree_harness::campaign::replay::{load, trace};
use pdtree_harness::check::faults::{Fault, Faulty};

fn corpus() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/regressions");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ops"))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "{} holds no .ops scripts: the regression corpus must not be empty",
        dir.display()
    );
    files
}

#[test]
fn every_regression_script_agrees_with_the_oracle() {
    let mut failures = Vec::new();
    for f in corpus() {
        let case = load(&f).unwrap_or_else(|e| panic!("{e}"));
        assert!(!case.ops.is_empty(), "{}: no ops", f.display());
        let (text, result) = trace(case.limits, &case.ops, &pdtree_harness::core_tree);
        if let Err(d) = result {
            failures.push(format!("{}: `{}`\n{text}", f.display(), d.signature()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The corpus is not vacuous: each planted bug makes at least one script diverge.
#[test]
fn every_planted_bug_is_caught_by_some_regression_script() {
    let files = corpus();
    for fault in Fault::ALL {
        let make = move |l: Limits| Faulty::new(pdtree_harness::core_tree(l), fault);
        let caught = files.iter().any(|f| {
            let case = load(f).unwrap_or_else(|e| panic!("{e}"));
            trace(case.limits, &case.ops, &make).1.is_err()
        });
        assert!(caught, "no regression script catches {fault:?}");
    }
}

/// The committed seeds of the `paths` fuzz target replay cleanly on stable Rust too (the
/// `diff` seeds are replayed by `ci/replay-corpus`), and core's own API agrees with `PseudoFs`
/// on the trees they build, as the target checks.
#[test]
fn every_paths_seed_agrees_with_the_oracle() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/paths");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    files.sort();
    assert!(files.len() >= 10, "{} has too few seeds", dir.display());
    for f in files {
        let data = std::fs::read(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let (limits, ops) = pdtree_harness::gen::paths::ops_from_path_bytes(&data);
        if let Err(d) =
            pdtree_harness::check::diff::run_ops(limits, &ops, &pdtree_harness::core_tree)
        {
            panic!("{}: {d}", f.display());
        }
        if let Err(e) = pdtree_harness::check::core_api::check_tree_api(limits, &ops) {
            panic!("{}: {e}", f.display());
        }
    }
}
