//! The harness catches bugs: the built-in campaign, run against each planted bug of
//! [`Faulty`], must find a divergence within a bounded number of iterations and minimize it
//! to a short reproducer; the same campaign against the unmodified tree must find nothing.
//!
//! Everything here is deterministic: a fixed seed, an iteration bound, one job.

use pdtree::PseudoFs;
use pdtree_harness::campaign::report::{report_markdown, Report};
use pdtree_harness::campaign::{self, CampaignConfig, CampaignResult};
use pdtree_harness::check::faults::{Fault, Faulty};
use pdtree_harness::Op;

/// The campaign's master seed (any fixed value; this one is not tuned to the faults).
const SEED: u64 = 1;
/// The most iterations a planted bug may take to be found.
const MAX_ITERATIONS: u64 = 20_000;
/// The longest acceptable minimized reproducer.
const MAX_MINIMIZED: usize = 10;
/// Iterations of the clean run in a normal `cargo test`: every planted bug must be found well
/// within it, so a clean run this long means something. (About 2.7 ms per iteration with the
/// workspace's opt-level 1 test profile, so ~16 s. The clean run at the full [`MAX_ITERATIONS`]
/// is `.ci/run`'s campaign step, `pdtree fuzz --seed 1` in release: the same campaign.)
const CLEAN_ITERATIONS: u64 = 6_000;

fn config() -> CampaignConfig {
    CampaignConfig {
        seed: SEED,
        iterations: Some(MAX_ITERATIONS),
        jobs: 1,
        report_dir: None,
        ..CampaignConfig::default()
    }
}

fn against(cfg: &CampaignConfig, fault: Fault) -> CampaignResult {
    campaign::run(cfg, &|l| Faulty::new(pdtree_harness::core_tree(l), fault))
}

fn script(ops: &[Op]) -> String {
    ops.iter().map(|op| format!("  {op}\n")).collect()
}

/// Runs a hand-written script (with its `limits` line, if any) against the fault: its op
/// count and its divergence's signature, if any.
fn signature_of(fault: Fault, script: &str) -> (usize, Option<String>) {
    let parsed = pdtree_harness::parse_script(script.as_bytes()).expect("hand-minimal parses");
    let limits = parsed.limits.unwrap_or_default();
    let ops: Vec<Op> = parsed
        .stmts
        .into_iter()
        .map(|s| match s {
            pdtree_harness::Stmt::Op(op) => op,
            other => panic!("no repeat in a hand-minimal script: {other}"),
        })
        .collect();
    let make = |l| Faulty::new(pdtree_harness::core_tree(l), fault);
    let signature = pdtree_harness::run_ops(limits, &ops, &make)
        .err()
        .map(|d| d.signature());
    (ops.len(), signature)
}

/// The campaign finds `fault` and minimizes it to within one op of `hand_minimal`, the
/// shortest reproducer of the same signature written by hand.
fn finds(fault: Fault, hand_minimal: &str) {
    let r = against(&config(), fault);
    let Some(found) = &r.found else {
        panic!(
            "{fault:?}: no divergence in {} iterations (seed {SEED})\n{}",
            r.iterations,
            r.summary()
        );
    };
    eprintln!(
        "{fault:?}: found at iteration {} ({} iterations run), {} ops minimized to {}: {}\n  {:?}\n{}",
        found.seed_or_iteration,
        r.iterations,
        found.original_ops,
        found.minimized.len(),
        found.minimized_divergence.signature(),
        found.limits,
        script(&found.minimized)
    );
    assert!(
        found.seed_or_iteration < CLEAN_ITERATIONS,
        "{fault:?}: found only at iteration {}, past the clean run's {CLEAN_ITERATIONS}",
        found.seed_or_iteration
    );
    assert!(
        found.minimized.len() <= MAX_MINIMIZED,
        "{fault:?}: minimized reproducer has {} ops (max {MAX_MINIMIZED}):\n{}",
        found.minimized.len(),
        script(&found.minimized)
    );
    let (hand_ops, hand_signature) = signature_of(fault, hand_minimal);
    assert_eq!(
        hand_signature.as_deref(),
        Some(found.minimized_divergence.signature().as_str()),
        "{fault:?}: the hand-minimal reproducer shows another divergence"
    );
    assert!(
        found.minimized.len() <= hand_ops + 1,
        "{fault:?}: minimized to {} ops, the hand-minimal has {hand_ops}:\n{}",
        found.minimized.len(),
        script(&found.minimized)
    );
    // The minimized case still diverges, with the same signature.
    let again = pdtree_harness::check::diff::run_ops(found.limits, &found.minimized, &|l| {
        Faulty::new(pdtree_harness::core_tree(l), fault)
    })
    .expect_err("the minimized reproducer no longer diverges");
    assert_eq!(again.signature(), found.minimized_divergence.signature());
    // And it is a bug of the fault, not of the tree: the unmodified tree runs it cleanly.
    pdtree_harness::check::diff::run_ops(
        found.limits,
        &found.minimized,
        &pdtree_harness::core_tree,
    )
    .unwrap_or_else(|d| panic!("{fault:?}: the reproducer diverges on Tree too:\n{d}"));
}

#[test]
fn finds_readdir_resumes_by_index() {
    finds(
        Fault::ReaddirResumesByIndex,
        // A page at a position past every child remembers index 0 for it; a child made after
        // it is then handed out although its inode is below the position.
        "readdir 1 18446744073709551615 1\nmkdir \"/a\"\nreaddir 1 18446744073709551615 1\n",
    );
}

#[test]
fn finds_nlink_not_updated_by_remove_subtree() {
    finds(
        Fault::NlinkNotUpdatedByRemoveSubtree,
        // The end of the input asks every directory's stat (check::dirs).
        "mkdir \"/a\"\nmkdir \"/a/a\"\nremove_subtree \"/a/a\"\n",
    );
}

#[test]
fn finds_duplicate_row_accepted() {
    finds(
        Fault::DuplicateRowAccepted,
        // Deduplicated, the table passes the duplicate check and meets the entry limit.
        "limits max_entries=1\nregister \"/a\" [f \"g\" \"\", f \"g\" \"\"]\n",
    );
}

#[test]
fn finds_remove_non_empty_detaches() {
    finds(
        Fault::RemoveNonEmptyDetaches,
        "mkdir \"/a\"\nmkdir \"/a/a\"\nremove \"/a\"\n",
    );
}

#[test]
fn finds_remove_subtree_partial() {
    finds(
        Fault::RemoveSubtreePartial,
        "register \"/\" [d \"a\"]\nmkdir \"/a/a\"\nremove_subtree \"/a\"\n",
    );
}

#[test]
fn finds_listing_cache_kept_on_removal() {
    finds(
        Fault::ListingCacheKeptOnRemoval,
        "listing \"/a\"\nopen 0 \"/a\"\nmkdir \"/b\"\nread 0\nremove \"/b\"\nread 0\n",
    );
}

#[test]
fn finds_failed_create_replaces() {
    finds(
        Fault::FailedCreateReplaces,
        "create \"/a\" \"\"\ncreate \"/a\" \"\"\n",
    );
}

/// A deep bug: it needs a directory of 256 children, which only `bulk` or a full-size table
/// reaches.
#[test]
fn finds_dir_size_is_u8() {
    // The end of the input asks the root's stat (check::dirs).
    finds(Fault::DirSizeIsU8, "bulk \"/\" \"n\" 256\n");
}

/// A deep bug: a directory of 2^16 children, which only a large `bulk` reaches. Every
/// minimization trial that keeps the bulk builds the directory again.
#[test]
fn finds_dir_size_is_u16() {
    finds(Fault::DirSizeIsU16, "bulk \"/\" \"n\" 65536\nstat \"/\"\n");
}

/// A continued read must come from the snapshot: the listing changed in between.
#[test]
fn finds_read_at_rerenders() {
    finds(
        Fault::ReadAtRerenders,
        // The read that continues at the first rendering's end ("g\tb\n") must find nothing
        // more in it; a fresh rendering, one line longer, has a byte there.
        "listing \"/b\"\nopen 0 \"/b\"\nread 0\nmkdir \"/a\"\nread_at 0 4 1\n",
    );
}

#[test]
fn finds_read_at_zero_len_snapshots() {
    finds(
        Fault::ReadAtZeroLenSnapshots,
        "create \"/a\" \"\"\nopen 0 \"/a\"\nread_at 0 0 0\n",
    );
}

#[test]
fn finds_failed_source_add_reinserts() {
    finds(
        Fault::FailedSourceAddReinserts,
        "source_add \"s\" \"x\"\nsource_add \"s\" \"x\"\n",
    );
}

#[test]
fn finds_readdir_in_view_leaks() {
    finds(
        Fault::ReaddirInViewLeaks,
        "ns_create 0 0\nns_create 0 0\nregister_ns 1 \"\" [f \"a\" \"\"]\n@2 readdir 1 0 1\n",
    );
}

#[test]
fn finds_lookup_skips_namespace_set() {
    finds(
        Fault::LookupSkipsNamespaceSet,
        // The end-of-input check looks each directory up by name in its parent.
        "ns_create 0 0\nregister_ns 1 \"/a\" []\n",
    );
}

#[test]
fn finds_chown_swaps_ids() {
    finds(
        Fault::ChownSwapsIds,
        "mkdir \"/a\"\nchown \"/a\" 0 1\ndump\n",
    );
}

/// A deep bug: a resume inside a directory of more than 128 children.
#[test]
fn finds_large_dir_resume_skips_one() {
    finds(
        Fault::LargeDirResumeSkipsOne,
        "bulk \"/\" \"n\" 129\nreaddir 1 3 1\n",
    );
}

/// A deep bug: a counter past 2^16, which only a `cycle_open` reaches in a short input. The
/// handle opened before the wrap loses its id to one opened after it. (The campaign's case
/// opens one file and cycles another, each in its own directory: the minimizer's path passes
/// make both the same file at the root.)
#[test]
fn finds_handle_id_is_u16() {
    finds(
        Fault::HandleIdIsU16,
        "create \"/a\" \"\"\nopen 0 \"/a\"\ncycle_open \"/a\" 65536\nclose 0\n",
    );
}

/// A deep bug: a path more than 1,024 components deep, which only `chain` reaches. (A chain
/// of 1,025 shows it too, with another outcome: the reference's chain then ends without an
/// error. The minimizer keeps the count that ends in `ENAMETOOLONG`, past 2,048 levels.)
#[test]
fn finds_path_walk_stops_at_1024() {
    finds(Fault::PathWalkStopsAt1024, "chain \"/\" \"a\" 2049\n");
}

/// A deep bug: one multi-entry op that takes a directory past 64 children.
#[test]
fn finds_register_growth_misses_count() {
    let rows: Vec<String> = (0..65).map(|i| format!("f \"r{i}\" \"\"")).collect();
    let hand_minimal = format!("register \"/d\" [{}]\n", rows.join(", "));
    finds(Fault::RegisterGrowthMissesCount, &hand_minimal);
}

/// A deep bug: removals in a directory of more than 64 children, then a resumed readdir.
/// (The campaign's case fills the directory with a table, whose rows cannot be removed, and
/// makes and removes two other entries; the minimizer turns the table into a `bulk` and
/// points the removals at its files.)
#[test]
fn finds_compaction_moves_cursor() {
    finds(
        Fault::CompactionMovesCursor,
        "bulk \"/\" \"n\" 67\nremove \"/n10\"\nremove \"/n11\"\nreaddir 1 67 2\n",
    );
}

/// A failed op that changes the tree without moving a counter is caught at that op by the
/// before/after proof, on either side: A by its fingerprint, B by its structural copy.
#[test]
fn failed_create_that_replaces_is_an_atomicity_divergence_on_either_side() {
    use pdtree_harness::{DiffRunner, DivergenceKind, Side};
    use pdtree_oracle::Oracle;
    let l = pdtree::Limits::default();
    let ops = [
        Op::Create {
            path: b"/a".to_vec(),
            content: Vec::new(),
        },
        Op::Create {
            path: b"/a".to_vec(),
            content: b"x".to_vec(),
        },
    ];
    let fault = Fault::FailedCreateReplaces;
    let mut on_a = DiffRunner::new(
        l,
        Faulty::new(pdtree_harness::core_tree(l), fault),
        Oracle::with_limits(l),
    );
    let mut on_b = DiffRunner::new(
        l,
        pdtree_harness::core_tree(l),
        Faulty::new(Oracle::with_limits(l), fault),
    );
    on_a.step(&ops[0]).expect("the first create agrees");
    on_b.step(&ops[0]).expect("the first create agrees");
    for (side, d) in [(Side::A, on_a.step(&ops[1])), (Side::B, on_b.step(&ops[1]))] {
        let d = d.expect_err("a replacing create must diverge");
        assert_eq!(d.index, 1, "{d}");
        match &d.kind {
            DivergenceKind::Atomicity { side: s, what } => {
                assert_eq!(*s, side, "{d}");
                let replaced = "-entry /a file ino=2 nlink=1 size=0 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0\n\
                                +entry /a file ino=3 nlink=1 size=1 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0\n\
                                \x20ns 0 uid=0 gid=0\n\
                                -next ino=3 header=1 handle=1 ns=1\n";
                assert!(what.contains(replaced), "{side}: {what}");
            }
            k => panic!("{side}: expected an atomicity divergence, got {k:?}\n{d}"),
        }
    }
}

/// Every fault has a test above: adding a fault without a test here does not compile.
#[allow(dead_code)]
fn every_fault_has_a_test(f: Fault) -> fn() {
    match f {
        Fault::ReaddirResumesByIndex => finds_readdir_resumes_by_index,
        Fault::NlinkNotUpdatedByRemoveSubtree => finds_nlink_not_updated_by_remove_subtree,
        Fault::DuplicateRowAccepted => finds_duplicate_row_accepted,
        Fault::RemoveNonEmptyDetaches => finds_remove_non_empty_detaches,
        Fault::RemoveSubtreePartial => finds_remove_subtree_partial,
        Fault::ListingCacheKeptOnRemoval => finds_listing_cache_kept_on_removal,
        Fault::FailedCreateReplaces => finds_failed_create_replaces,
        Fault::DirSizeIsU8 => finds_dir_size_is_u8,
        Fault::DirSizeIsU16 => finds_dir_size_is_u16,
        Fault::LargeDirResumeSkipsOne => finds_large_dir_resume_skips_one,
        Fault::HandleIdIsU16 => finds_handle_id_is_u16,
        Fault::PathWalkStopsAt1024 => finds_path_walk_stops_at_1024,
        Fault::RegisterGrowthMissesCount => finds_register_growth_misses_count,
        Fault::CompactionMovesCursor => finds_compaction_moves_cursor,
        Fault::ReadAtRerenders => finds_read_at_rerenders,
        Fault::ReadAtZeroLenSnapshots => finds_read_at_zero_len_snapshots,
        Fault::FailedSourceAddReinserts => finds_failed_source_add_reinserts,
        Fault::ChownSwapsIds => finds_chown_swaps_ids,
        Fault::ReaddirInViewLeaks => finds_readdir_in_view_leaks,
        Fault::LookupSkipsNamespaceSet => finds_lookup_skips_namespace_set,
    }
}

fn clean(iterations: u64) {
    let cfg = CampaignConfig {
        iterations: Some(iterations),
        ..config()
    };
    let r = campaign::run(&cfg, &pdtree_harness::core_tree);
    if let Some(f) = &r.found {
        panic!(
            "divergence on the unmodified tree at iteration {}:\n{}\n{}",
            f.seed_or_iteration,
            f.minimized_divergence,
            script(&f.minimized)
        );
    }
    assert_eq!(r.iterations, iterations);
}

/// The same campaign on the unmodified tree finds nothing.
#[test]
fn unmodified_tree_is_clean() {
    clean(CLEAN_ITERATIONS);
}

/// A report for a planted bug holds the minimized script and a dump diff, in memory and on
/// disk.
#[test]
fn report_has_minimized_script_and_dump_diff() {
    let fault = Fault::RemoveNonEmptyDetaches;
    let dir = std::env::temp_dir().join(format!("pdtree-self-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cfg = CampaignConfig {
        report_dir: Some(dir.clone()),
        ..config()
    };
    let r = against(&cfg, fault);
    let found = r.found.expect("planted bug not found");
    let check = |text: &str, what: &str| {
        for op in &found.minimized {
            assert!(
                text.contains(&op.to_string()),
                "{what} lacks the op `{op}`:\n{text}"
            );
        }
        assert!(text.contains("```diff"), "{what} has no dump diff:\n{text}");
        assert!(
            text.contains(&found.minimized_divergence.signature()),
            "{what} lacks the signature:\n{text}"
        );
    };
    assert!(
        !found.minimized_divergence.dump_diff.is_empty(),
        "a detaching remove must show in the dumps"
    );
    let case = Report {
        commands: Default::default(),
        limits: found.limits,
        ops: &found.minimized,
        divergence: &found.minimized_divergence,
        origin: "self test".into(),
        input: Some(&found.input),
    };
    check(&report_markdown(&case, &dir), "report_markdown");
    let written = found
        .report
        .as_ref()
        .expect("no report directory asked for")
        .as_ref()
        .expect("report not written");
    let md = std::fs::read_to_string(written.join("report.md")).expect("report.md");
    check(&md, "report.md");
    let repro = std::fs::read_to_string(written.join("repro.ops")).expect("repro.ops");
    let parsed = pdtree_harness::parse_script(repro.as_bytes()).expect("repro.ops parses");
    assert_eq!(parsed.stmts.len(), found.minimized.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ci/fuzz-faults` measures `cargo fuzz` on exactly the deep planted bugs: its default list
/// is [`Fault::DEEP`], by name and in order.
#[test]
fn fuzz_faults_script_lists_the_deep_bugs() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/fuzz-faults");
    let text = std::fs::read_to_string(&script).expect("ci/fuzz-faults");
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("faults=\""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("a `faults=\"...\"` line in ci/fuzz-faults");
    let listed: Vec<&str> = line.split(',').collect();
    let deep: Vec<&str> = Fault::DEEP.iter().map(|f| f.name()).collect();
    assert_eq!(
        listed, deep,
        "ci/fuzz-faults' default list against Fault::DEEP"
    );
}
