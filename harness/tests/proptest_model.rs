//! Model-based state-machine test: random op sequences run on core (`pdtree::Tree`) and the
//! naive oracle side by side, with proptest shrinking any failure to a short sequence.
//!
//! This is an engine independent of the harness's own byte generator: its own [`Strategy`]
//! for [`Op`]s draws names from a tiny pool (`a`, `b`, `c`, with an occasional bad one) so
//! creations, lookups and removals collide all the time, and uses small limits so `ENOSPC`,
//! `EFBIG`, `E2BIG` and readdir paging are reached. After every op the two outcomes must be
//! equal and both trees must pass `check_invariants`; at the end the dumps must be equal.
//!
//! Failing cases are persisted to `harness/proptest-regressions/proptest_model.txt` and
//! replayed first on every later run. Run alone with
//! `cargo test -p pdtree-harness --test proptest_model`; `PROPTEST_CASES=5000` runs more.

use pdtree::{Limits, PseudoFs, Row, RowKind, Tree};
use pdtree_harness::check::faults::{Fault, Faulty};
use pdtree_harness::{Op, Runner};
use pdtree_oracle::Oracle;
use proptest::prelude::*;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner,
};

/// The longest op sequence generated.
const MAX_OPS: usize = 60;

fn name() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        24 => prop::sample::select(vec!["a", "b", "c"]).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::sample::select(vec!["", ".", "..", "x/y", "n\0", "\u{e9}"])
            .prop_map(|s| s.as_bytes().to_vec()),
        1 => Just(vec![b'z'; 256]),
    ]
}

fn path() -> impl Strategy<Value = Vec<u8>> {
    // Mostly one or two components, so the same few entries are hit again and again.
    let comps = prop_oneof![
        1 => prop::collection::vec(name(), 0..=0),
        5 => prop::collection::vec(name(), 1..=1),
        4 => prop::collection::vec(name(), 2..=2),
        1 => prop::collection::vec(name(), 3..=3),
    ];
    (any::<bool>(), comps, 0u8..30).prop_map(|(slash, comps, odd)| {
        let mut p = Vec::new();
        if slash {
            p.push(b'/');
        }
        p.extend(comps.join(&b'/'));
        if odd == 0 {
            p.push(b'/'); // a trailing slash: an empty last component
        }
        p
    })
}

fn content() -> impl Strategy<Value = Vec<u8>> {
    prop::sample::select(vec!["", "x", "1\n", "eth0\n", "0123456789abcdef"])
        .prop_map(|s| s.as_bytes().to_vec())
}

fn row() -> impl Strategy<Value = Row> {
    (name(), prop::option::weighted(0.7, content())).prop_map(|(name, c)| Row {
        name,
        kind: c.map_or(RowKind::Dir, RowKind::File),
    })
}

fn slot() -> impl Strategy<Value = u8> {
    0u8..2
}

/// One op; every variant is reachable, the common mutations weighted up.
fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => path().prop_map(|path| Op::Mkdir { path }),
        6 => (path(), content()).prop_map(|(path, content)| Op::Create { path, content }),
        2 => (path(), content()).prop_map(|(path, target)| Op::Symlink { path, target }),
        3 => path().prop_map(|path| Op::Listing { path }),
        5 => (path(), prop::collection::vec(row(), 0..=4))
            .prop_map(|(dir, rows)| Op::Register { dir, rows }),
        3 => (1u64..6).prop_map(|header| Op::Unregister { header }),
        2 => path().prop_map(|path| Op::Stat { path }),
        2 => (0u64..14, name()).prop_map(|(dir, name)| Op::LookupAt { dir, name }),
        2 => (0u64..14, 0u64..16, 0usize..6)
            .prop_map(|(dir, pos, max)| Op::Readdir { dir, pos, max }),
        5 => path().prop_map(|path| Op::Remove { path }),
        6 => path().prop_map(|path| Op::RemoveSubtree { path }),
        4 => path().prop_map(|path| Op::MarkPermanent { path }),
        4 => (slot(), path()).prop_map(|(slot, path)| Op::Open { slot, path }),
        6 => slot().prop_map(|slot| Op::Read { slot }),
        2 => slot().prop_map(|slot| Op::Close { slot }),
        1 => Just(Op::Stats),
        3 => (slot(), path()).prop_map(|(slot, path)| Op::OpenDir { slot, path }),
        6 => (slot(), prop_oneof![1 => Just(0usize), 8 => 1usize..3, 1 => 3usize..6])
            .prop_map(|(slot, max)| Op::ReadPage { slot, max }),
        1 => (slot(), 0u64..16).prop_map(|(slot, pos)| Op::Seek { slot, pos }),
        1 => slot().prop_map(|slot| Op::Rewind { slot }),
        1 => Just(Op::Dump),
    ]
}

fn limits() -> impl Strategy<Value = Limits> {
    prop_oneof![
        Just(Limits {
            max_entries: 24,
            max_content: 8,
            max_table_rows: 3,
            max_readdir: 4
        }),
        // max_readdir stays >= 64 here: Faulty's RemoveSubtreePartial reads children in pages
        // of 64 and is inert (EINVAL swallowed) under a smaller max_readdir.
        Just(Limits {
            max_entries: 1_000,
            max_content: 64,
            max_table_rows: 16,
            max_readdir: 64
        }),
    ]
}

fn case() -> impl Strategy<Value = (Limits, Vec<Op>)> {
    (limits(), prop::collection::vec(op(), 1..=MAX_OPS))
}

/// Runs `ops` on `a` and the oracle; the first difference is the error.
fn diff<A: PseudoFs>(limits: Limits, ops: &[Op], a: A) -> Result<(), TestCaseError> {
    let mut a = Runner::from_tree(a);
    let mut b: Runner<Oracle> = Runner::new(limits);
    for (i, op) in ops.iter().enumerate() {
        let (x, y) = (a.apply(op), b.apply(op));
        prop_assert_eq!(&x, &y, "op #{} `{}`: outcomes differ", i, op);
        if let Err(v) = a.tree().check_invariants() {
            return Err(TestCaseError::fail(format!(
                "op #{i} `{op}`: tree invariant {v}"
            )));
        }
        if let Err(v) = b.tree().check_invariants() {
            return Err(TestCaseError::fail(format!(
                "op #{i} `{op}`: oracle invariant {v}"
            )));
        }
    }
    prop_assert_eq!(a.tree().dump(), b.tree().dump(), "final dumps differ");
    prop_assert_eq!(a.tree().stats(), b.tree().stats(), "final stats differ");
    Ok(())
}

/// 256 cases, or `PROPTEST_CASES` when set.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

proptest! {
    #![proptest_config(Config {
        cases: cases(),
        failure_persistence: Some(Box::new(
            FileFailurePersistence::Direct("proptest-regressions/proptest_model.txt"),
        )),
        ..Config::default()
    })]

    /// Core and the oracle agree on every op of every generated sequence.
    #[test]
    fn core_matches_oracle((limits, ops) in case()) {
        diff(limits, &ops, Tree::with_limits(limits))?;
    }
}

/// The same strategy and check catch every planted bug, and proptest shrinks the sequence to
/// a handful of ops. (So the property above can fail, and shrinking works.)
#[test]
fn strategy_finds_and_shrinks_planted_bugs() {
    for fault in Fault::ALL {
        // A fixed seed: the same cases every run, so this test is deterministic.
        let mut runner = TestRunner::new_with_rng(
            Config {
                cases: 4096,
                failure_persistence: None,
                ..Config::default()
            },
            TestRng::deterministic_rng(RngAlgorithm::ChaCha),
        );
        let result = runner.run(&case(), |(limits, ops)| {
            diff(limits, &ops, Faulty::new(Tree::with_limits(limits), fault))
        });
        match result {
            Err(TestError::Fail(reason, (_, ops))) => {
                let script: Vec<String> = ops.iter().map(Op::to_string).collect();
                eprintln!(
                    "{fault:?}: shrunk to {} ops: {reason}\n  {}",
                    ops.len(),
                    script.join("\n  ")
                );
                assert!(
                    ops.len() <= 10,
                    "{fault:?}: shrunk only to {} ops",
                    ops.len()
                );
            }
            other => panic!("{fault:?}: planted bug not found: {other:?}"),
        }
    }
}
