//! A proptest state machine (`proptest-state-machine`): the oracle is the reference machine,
//! and the system under test is a [`DiffRunner`] over core and its own oracle, so every
//! transition gets the differential runner's full check (outcomes, invariants and counters of
//! both sides, atomicity of failed ops, the readdir guarantee for open cursors, final dumps)
//! and shrinking keeps that check.
//!
//! Transitions are generated from the reference state: paths the oracle holds, inode numbers
//! it handed out, headers it registered, plus new paths under known directories and a few
//! malformed ones, with small limits so `ENOSPC`, `EFBIG`, `E2BIG` and readdir paging are
//! reached. This engine draws its ops independently of the harness's byte generator.
//!
//! Failing cases are persisted to `harness/proptest-regressions/proptest_model.txt` and
//! replayed first on every later run. Run alone with
//! `cargo test -p pdtree-harness --test proptest_model`; `PROPTEST_CASES=5000` runs more.

use std::cell::Cell;
use std::marker::PhantomData;

use pdtree::{read_all, Ino, Kind, Limits, PseudoFs, Row, RowKind, Tree, ROOT_INO};
use pdtree_harness::check::faults::{Fault, Faulty};
use pdtree_harness::{DiffRunner, Op, Outcome, Runner};
use pdtree_oracle::Oracle;
use proptest::prelude::*;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngAlgorithm, RngSeed, TestError, TestRng, TestRunner,
};
use proptest_state_machine::{prop_state_machine, ReferenceStateMachine, StateMachineTest};

/// The longest transition sequence generated.
const MAX_OPS: usize = 60;

/// Known paths and inodes kept for generation (a bound, so generation stays cheap).
const MAX_KNOWN: usize = 48;

/// The reference: the oracle, and what the next transitions are drawn from.
#[derive(Clone, Debug)]
struct Reference {
    limits: Limits,
    oracle: Runner<Oracle>,
    /// The outcome of the last transition (the system under test must agree).
    last: Option<Outcome>,
    /// Paths of directories and of other entries the oracle holds now.
    dirs: Vec<Vec<u8>>,
    files: Vec<Vec<u8>>,
    /// Inode numbers the oracle holds now.
    inos: Vec<Ino>,
    /// Every header id it returned.
    headers: Vec<u64>,
    /// Every namespace id it returned.
    namespaces: Vec<u64>,
    /// Where the open handles' last reads ended (from the dump), so reads can continue.
    positions: Vec<u64>,
}

impl Reference {
    fn new(limits: Limits) -> Reference {
        let mut r = Reference {
            limits,
            oracle: Runner::new(limits),
            last: None,
            dirs: Vec::new(),
            files: Vec::new(),
            inos: Vec::new(),
            headers: Vec::new(),
            namespaces: Vec::new(),
            positions: Vec::new(),
        };
        r.learn();
        r
    }

    /// Re-reads the paths and inodes from the oracle, breadth first, up to [`MAX_KNOWN`].
    fn learn(&mut self) {
        let tree = self.oracle.tree();
        let (mut dirs, mut files) = (vec![(b"/".to_vec(), ROOT_INO)], Vec::new());
        let mut next = 0;
        while next < dirs.len() && dirs.len() + files.len() < MAX_KNOWN {
            let (path, ino) = dirs[next].clone();
            next += 1;
            for e in read_all(tree, ino, self.limits.max_readdir.max(1)).unwrap_or_default() {
                let mut p = if path == b"/" {
                    Vec::new()
                } else {
                    path.clone()
                };
                p.push(b'/');
                p.extend_from_slice(&e.name);
                let list = if e.kind == Kind::Dir {
                    &mut dirs
                } else {
                    &mut files
                };
                list.push((p, e.ino));
            }
        }
        self.inos = dirs.iter().chain(&files).map(|d| d.1).collect();
        self.positions = tree
            .dump()
            .lines()
            .filter(|l| l.starts_with("handle "))
            .filter_map(|l| l.split(' ').find_map(|w| w.strip_prefix("pos=")))
            .filter_map(|p| p.parse().ok())
            .collect();
        self.dirs = dirs.into_iter().map(|d| d.0).collect();
        self.files = files.into_iter().map(|f| f.0).collect();
    }
}

fn name() -> BoxedStrategy<Vec<u8>> {
    prop_oneof![
        24 => prop::sample::select(vec!["a", "b", "c"]).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::sample::select(vec!["", ".", "..", "x/y", "n\0", "\u{e9}"])
            .prop_map(|s| s.as_bytes().to_vec()),
        1 => Just(vec![b'z'; 256]),
    ]
    .boxed()
}

/// A path not drawn from the state: 0–3 pool names, optional leading and trailing `/`.
fn any_path() -> BoxedStrategy<Vec<u8>> {
    (any::<bool>(), prop::collection::vec(name(), 0..=3), 0u8..30)
        .prop_map(|(slash, comps, odd)| {
            let mut p = if slash { b"/".to_vec() } else { Vec::new() };
            p.extend(comps.join(&b'/'));
            if odd == 0 {
                p.push(b'/');
            }
            p
        })
        .boxed()
}

/// A path for a creation: mostly a known directory plus a pool name.
fn new_path(s: &Reference) -> BoxedStrategy<Vec<u8>> {
    let under = (prop::sample::select(s.dirs.clone()), name()).prop_map(|(d, n)| {
        let mut p = if d == b"/" { Vec::new() } else { d };
        p.push(b'/');
        p.extend(n);
        p
    });
    prop_oneof![6 => under, 1 => any_path()].boxed()
}

/// A path that probably exists.
fn existing_path(s: &Reference) -> BoxedStrategy<Vec<u8>> {
    let known: Vec<Vec<u8>> = s.files.iter().chain(&s.dirs).cloned().collect();
    prop_oneof![6 => prop::sample::select(known), 1 => new_path(s)].boxed()
}

fn ino(s: &Reference) -> BoxedStrategy<Ino> {
    prop_oneof![4 => prop::sample::select(s.inos.clone()), 1 => 0u64..14].boxed()
}

fn header(s: &Reference) -> BoxedStrategy<u64> {
    let mut known = s.headers.clone();
    known.push(0);
    prop_oneof![4 => prop::sample::select(known), 1 => 1u64..6].boxed()
}

/// A view: mostly 0, else a namespace the reference made (or a dead id, 9).
fn view(s: &Reference) -> BoxedStrategy<u64> {
    let mut known = s.namespaces.clone();
    known.push(9);
    prop_oneof![3 => Just(0u64), 2 => prop::sample::select(known)].boxed()
}

/// A namespace for `ns_destroy` and `register_ns`: one the reference made, 0, or a dead id.
fn ns(s: &Reference) -> BoxedStrategy<u64> {
    let mut known = s.namespaces.clone();
    known.extend([0, 9]);
    prop::sample::select(known).boxed()
}

/// A table's directory: a known one (so its rows land where lookups look), or a new path.
fn table_dir(s: &Reference) -> BoxedStrategy<Vec<u8>> {
    prop_oneof![1 => prop::sample::select(s.dirs.clone()), 1 => new_path(s)].boxed()
}

/// A read offset: 0, small, or where an open handle's last read ended.
fn offset(s: &Reference) -> BoxedStrategy<u64> {
    let mut known = s.positions.clone();
    known.push(1);
    prop_oneof![1 => Just(0u64), 1 => 0u64..12, 3 => prop::sample::select(known)].boxed()
}

fn content() -> BoxedStrategy<Vec<u8>> {
    prop::sample::select(vec!["", "x", "1\n", "eth0\n", "0123456789abcdef"])
        .prop_map(|s| s.as_bytes().to_vec())
        .boxed()
}

fn source() -> BoxedStrategy<Vec<u8>> {
    prop::sample::select(vec!["fs", "dev"])
        .prop_map(|s| s.as_bytes().to_vec())
        .boxed()
}

fn item() -> BoxedStrategy<Vec<u8>> {
    prop::sample::select(vec!["nodev\tsysfs", "\text4", "x", "", "a\nb"])
        .prop_map(|s| s.as_bytes().to_vec())
        .boxed()
}

fn mode() -> BoxedStrategy<u32> {
    prop::sample::select(vec![0o644, 0o444, 0o000, 0o1000]).boxed()
}

fn rows() -> BoxedStrategy<Vec<Row>> {
    let kind = prop_oneof![
        7 => content().prop_map(RowKind::File),
        2 => Just(RowKind::Dir),
        1 => source().prop_map(RowKind::Gen),
    ];
    let row = (name(), kind, prop::option::weighted(0.2, mode()))
        .prop_map(|(name, kind, mode)| Row { name, kind, mode });
    prop::collection::vec(row, 0..=4).boxed()
}

fn page() -> BoxedStrategy<usize> {
    prop_oneof![1 => Just(0usize), 8 => 1usize..3, 1 => 3usize..6].boxed()
}

fn slot() -> BoxedStrategy<u8> {
    (0u8..2).boxed()
}

impl ReferenceStateMachine for Reference {
    type State = Reference;
    type Transition = Op;

    fn init_state() -> BoxedStrategy<Reference> {
        let tiny = Limits {
            max_entries: 24,
            max_content: 8,
            max_table_rows: 3,
            max_readdir: 4,
            max_namespaces: 65_536,
        };
        // max_readdir stays >= 64 here: Faulty's RemoveSubtreePartial reads children in pages
        // of 64 and is inert (EINVAL swallowed) under a smaller max_readdir.
        let roomy = Limits {
            max_entries: 1_000,
            max_content: 64,
            max_table_rows: 16,
            max_readdir: 64,
            max_namespaces: 65_536,
        };
        if DEEP.with(Cell::get) {
            // Deep states need room: 2^16 handles, 1,030 levels, 70-row tables.
            return prop_oneof![Just(roomy), Just(Limits::default())]
                .prop_map(Reference::new)
                .boxed();
        }
        prop_oneof![Just(tiny), Just(roomy)]
            .prop_map(Reference::new)
            .boxed()
    }

    /// Every op kind but `check` (the runner checks invariants after every op anyway), the
    /// common mutations weighted up; in the deep mix ([`DEEP`]) also 1 op in 21 from
    /// [`deep_transitions`].
    fn transitions(s: &Reference) -> BoxedStrategy<Op> {
        if DEEP.with(Cell::get) {
            return prop_oneof![20 => base_transitions(s), 1 => deep_transitions(s)].boxed();
        }
        base_transitions(s)
    }

    fn apply(mut s: Reference, op: &Op) -> Reference {
        let out = s.oracle.apply(op);
        match out {
            Outcome::Header(h) => s.headers.push(h),
            Outcome::Ns(k) => s.namespaces.push(k),
            _ => {}
        }
        s.last = Some(out);
        s.learn();
        s
    }
}

/// The ops that reach deep states: a chain past 1,024 levels, a handle counter past 2^16, a
/// table past 64 rows.
fn deep_transitions(s: &Reference) -> BoxedStrategy<Op> {
    prop_oneof![
        (
            existing_path(s),
            prop_oneof![2 => 1usize..8, 1 => 1025usize..1030]
        )
            .prop_map(|(dir, count)| Op::Chain {
                dir,
                name: b"a".to_vec(),
                count
            }),
        (
            existing_path(s),
            prop_oneof![2 => 1usize..8, 1 => 65535usize..65538]
        )
            .prop_map(|(path, count)| Op::CycleOpen { path, count }),
        (new_path(s), 60usize..70).prop_map(|(dir, n)| Op::Register {
            dir,
            rows: (0..n).map(|i| Row::file(format!("r{i}"), "")).collect(),
        }),
    ]
    .boxed()
}

/// The base mix of ops (see [`ReferenceStateMachine::transitions`]).
fn base_transitions(s: &Reference) -> BoxedStrategy<Op> {
    prop_oneof![
            8 => new_path(s).prop_map(|path| Op::Mkdir { path }),
            6 => (new_path(s), content()).prop_map(|(path, content)| Op::Create { path, content }),
            2 => (new_path(s), content()).prop_map(|(path, target)| Op::Symlink { path, target }),
            3 => new_path(s).prop_map(|path| Op::Listing { path }),
            5 => (new_path(s), rows()).prop_map(|(dir, rows)| Op::Register { dir, rows }),
            3 => header(s).prop_map(|header| Op::Unregister { header }),
            2 => existing_path(s).prop_map(|path| Op::Stat { view: 0, path }),
            2 => (view(s), ino(s), name()).prop_map(|(view, dir, name)| Op::LookupAt { view, dir, name }),
            2 => (view(s), ino(s), 0u64..16, page()).prop_map(|(view, dir, pos, max)| Op::Readdir { view, dir, pos, max }),
            5 => existing_path(s).prop_map(|path| Op::Remove { path }),
            6 => existing_path(s).prop_map(|path| Op::RemoveSubtree { path }),
            4 => existing_path(s).prop_map(|path| Op::MarkPermanent { path }),
            4 => (slot(), existing_path(s)).prop_map(|(slot, path)| Op::Open { view: 0, slot, path }),
            6 => slot().prop_map(|slot| Op::Read { slot }),
            2 => slot().prop_map(|slot| Op::Close { slot }),
            1 => Just(Op::Stats),
            3 => (view(s), slot(), existing_path(s)).prop_map(|(view, slot, path)| Op::OpenDir { view, slot, path }),
            6 => (view(s), slot(), page()).prop_map(|(view, slot, max)| Op::ReadPage { view, slot, max }),
            1 => (slot(), 0u64..16).prop_map(|(slot, pos)| Op::Seek { slot, pos }),
            1 => slot().prop_map(|slot| Op::Rewind { slot }),
            1 => Just(Op::Dump),
            2 => (new_path(s), source()).prop_map(|(path, source)| Op::Generated { path, source }),
            3 => (source(), item()).prop_map(|(source, item)| Op::SourceAdd { source, item }),
            2 => (source(), item()).prop_map(|(source, item)| Op::SourceRemove { source, item }),
            // Offsets where handles' reads ended, so a read often continues one; small lengths.
            6 => (slot(), offset(s), prop_oneof![4 => 1u64..3, 1 => 0u64..6])
                .prop_map(|(slot, offset, len)| Op::ReadAt { slot, offset, len }),
            2 => (slot(), content()).prop_map(|(slot, content)| Op::Write { slot, content }),
            2 => (existing_path(s), mode()).prop_map(|(path, mode)| Op::Chmod { view: 0, path, mode }),
            1 => (existing_path(s), prop::sample::select(vec![0u32, 7, u32::MAX]))
                .prop_map(|(path, uid)| Op::Chown { view: 0, path, uid, gid: 7 }),
            2 => Just(Op::NsCreate { uid: 0, gid: 0 }),
            1 => ns(s).prop_map(|ns| Op::NsDestroy { ns }),
            3 => (ns(s), table_dir(s), rows()).prop_map(|(ns, dir, rows)| Op::RegisterNs { ns, dir, rows }),
            2 => (existing_path(s), prop_oneof![2 => 1usize..8, 1 => 250usize..300])
                .prop_map(|(dir, count)| Op::Bulk { dir, prefix: b"n".to_vec(), count }),
        ]
        .boxed()
}

thread_local! {
    /// Whether this thread's machine uses the deep mix: default limits besides the roomy
    /// ones, and [`deep_transitions`] among the ops.
    static DEEP: Cell<bool> = const { Cell::new(false) };
    /// The bug [`PlantedUnderTest`] plants (each test thread sets its own).
    static PLANTED: Cell<Fault> = const { Cell::new(Fault::ReaddirResumesByIndex) };
}

/// How to make the tree under test.
trait Subject {
    type Tree: PseudoFs;
    fn make(limits: Limits) -> Self::Tree;
}

/// Core itself.
struct Core;
impl Subject for Core {
    type Tree = Tree;
    fn make(limits: Limits) -> Tree {
        pdtree_harness::core_tree(limits)
    }
}

/// Core with the thread's planted bug.
struct Planted;
impl Subject for Planted {
    type Tree = Faulty<Tree>;
    fn make(limits: Limits) -> Faulty<Tree> {
        Faulty::new(pdtree_harness::core_tree(limits), PLANTED.with(Cell::get))
    }
}

/// The system under test: a differential runner over `S`'s tree and an oracle of its own.
struct UnderTest<S>(PhantomData<S>);

impl<S: Subject> StateMachineTest for UnderTest<S> {
    type SystemUnderTest = DiffRunner<S::Tree>;
    type Reference = Reference;

    fn init_test(s: &Reference) -> DiffRunner<S::Tree> {
        DiffRunner::new(s.limits, S::make(s.limits), Oracle::with_limits(s.limits))
    }

    fn apply(mut d: DiffRunner<S::Tree>, s: &Reference, op: Op) -> DiffRunner<S::Tree> {
        match d.step(&op) {
            Ok(out) => assert_eq!(
                Some(&out),
                s.last.as_ref(),
                "`{op}`: the reference disagrees"
            ),
            Err(div) => panic!("{div}"),
        }
        d
    }

    fn teardown(d: DiffRunner<S::Tree>, _: Reference) {
        if let Err(div) = d.finish() {
            panic!("{div}");
        }
    }
}

/// 256 cases, or `PROPTEST_CASES` when set.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256)
}

prop_state_machine! {
    #![proptest_config(Config {
        cases: cases(),
        failure_persistence: Some(Box::new(
            FileFailurePersistence::Direct("proptest-regressions/proptest_model.txt"),
        )),
        ..Config::default()
    })]

    /// Core and the oracle agree on every transition of every generated sequence.
    #[test]
    fn core_matches_oracle(sequential 1..MAX_OPS => UnderTest<Core>);
}

/// The same machine catches every planted bug but those of [`BEYOND_THE_MACHINE`], and
/// proptest shrinks the sequence to a handful of ops. (So the property above can fail, and
/// shrinking keeps the full check.)
#[test]
fn state_machine_finds_and_shrinks_planted_bugs() {
    for fault in Fault::ALL {
        if BEYOND_THE_MACHINE.contains(&fault) {
            continue;
        }
        PLANTED.with(|p| p.set(fault));
        // Each seed with the base mix, then with the deep mix; the deep mix first for the
        // bugs the base mix has no op to reach (each failed search costs 4,096 cases).
        let order = if NEEDS_DEEP_MIX.contains(&fault) {
            [true, false]
        } else {
            [false, true]
        };
        let found = (0..SEEDS).find_map(|seed| {
            order.into_iter().find_map(|deep| {
                DEEP.with(|d| d.set(deep));
                search(fault, seed)
            })
        });
        DEEP.with(|d| d.set(false));
        let Some(ops) = found else {
            panic!("{fault:?}: planted bug not found in {SEEDS} runs of {CASES} cases");
        };
        assert!(
            ops.len() <= 10,
            "{fault:?}: shrunk only to {} ops",
            ops.len()
        );
    }
}

/// The planted bugs this machine does not look for: a directory of 2^16 children, which
/// every later op of a sequence checks whole and proptest's shrinking would build again on
/// each of its runs (seconds each in the test profile). `self_test.rs` finds it with the
/// campaign and `corpus/regressions/directory-size-past-2-16.ops` replays it.
const BEYOND_THE_MACHINE: [Fault; 1] = [Fault::DirSizeIsU16];

/// The planted bugs that need an op only the deep mix has: a 2^16-cycle `cycle_open`, a
/// chain past 1,024 levels, a table past 64 rows.
const NEEDS_DEEP_MIX: [Fault; 3] = [
    Fault::HandleIdIsU16,
    Fault::PathWalkStopsAt1024,
    Fault::RegisterGrowthMissesCount,
];

/// Cases per search, and searches (each from its own fixed seed, with the base mix and then
/// the deep one) before a planted bug counts as not found: 4 × 2 × 4,096 cases, tried in
/// order, so the result is the same every run.
const CASES: u32 = 4096;
const SEEDS: u8 = 4;

/// One deterministic search for the planted bug: the shrunk failing sequence, if any.
fn search(fault: Fault, seed: u8) -> Option<Vec<Op>> {
    let config = Config {
        cases: CASES,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(u64::from(seed)),
        ..Config::default()
    };
    let mut bytes = [0u8; 32];
    bytes[0] = seed;
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(config.clone(), rng);
    let strategy = Reference::sequential_strategy(1..MAX_OPS);
    let result = runner.run(&strategy, |(init, ops, seen)| {
        UnderTest::<Planted>::test_sequential(config.clone(), init, ops, seen);
        Ok(())
    });
    match result {
        Err(TestError::Fail(reason, (_, ops, _))) => {
            let script: Vec<String> = ops.iter().map(Op::to_string).collect();
            eprintln!(
                "{fault:?} (seed {seed}): shrunk to {} ops: {reason}\n  {}",
                ops.len(),
                script.join("\n  ")
            );
            Some(ops)
        }
        _ => None,
    }
}
