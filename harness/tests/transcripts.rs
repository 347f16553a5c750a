//! Runs every golden transcript in `corpus/spec/*.t` against `pdtree::Tree`,
//! `pdtree::SharedTree` (on one thread) and `pdtree_oracle::Oracle`. The expected outcomes
//! are hand-written from `docs/SEMANTICS.md`; there is deliberately no mode that rewrites
//! them.

use std::fs;
use std::path::{Path, PathBuf};

use pdtree::{PseudoFs, SharedTree, Tree};
use pdtree_harness::lang::transcript::{parse_transcript, run_transcript, RunOptions};
use pdtree_oracle::Oracle;

/// The corpus must not silently shrink to nothing.
const MIN_TRANSCRIPTS: usize = 40;

fn corpus() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/spec");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "t"))
        .collect();
    files.sort();
    files
}

fn name(p: &Path) -> String {
    p.file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned()
}

#[test]
fn corpus_has_enough_transcripts() {
    let n = corpus().len();
    assert!(
        n >= MIN_TRANSCRIPTS,
        "corpus/spec has {n} transcripts, expected at least {MIN_TRANSCRIPTS}"
    );
}

/// Runs every transcript on a fresh `T`; reports file, line, op, expected and got.
fn check_all<T: PseudoFs>(label: &str) {
    let files = corpus();
    let mut failures = Vec::new();
    for file in &files {
        let bytes = fs::read(file).expect("readable transcript");
        match parse_transcript(&bytes) {
            Err(e) => failures.push(format!("{}: parse error: {e}", name(file))),
            Ok(t) => {
                for m in run_transcript::<T>(&t, RunOptions::default()) {
                    failures.push(format!("{} [{label}] {m}", name(file)));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{label}: {} mismatch(es) over {} transcripts:\n\n{}\n",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
}

#[test]
fn core_tree_conforms() {
    check_all::<Tree>("core");
}

/// The shared tree answers every transcript as the sequential one does: each of its ops
/// reaches the same `Tree` operation, and its handle path (open, read, close of permanent
/// entries) gives the same answers as the change path it stands in for.
#[test]
fn shared_tree_conforms() {
    check_all::<SharedTree>("shared");
}

#[test]
fn oracle_conforms() {
    check_all::<Oracle>("oracle");
}

/// Every corpus statement prints canonically and parses back to itself.
#[test]
fn corpus_statements_round_trip() {
    use pdtree_harness::{parse_script, print_script, Script};
    for file in corpus() {
        let t = parse_transcript(&fs::read(&file).expect("readable transcript"))
            .unwrap_or_else(|e| panic!("{}: {e}", name(&file)));
        let script = Script {
            limits: t.limits,
            stmts: t.steps.into_iter().map(|s| s.stmt).collect(),
        };
        let printed = print_script(&script);
        assert_eq!(
            parse_script(printed.as_bytes()).as_ref(),
            Ok(&script),
            "{}",
            name(&file)
        );
    }
}
