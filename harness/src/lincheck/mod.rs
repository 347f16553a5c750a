//! Linearizability checking of a tree shared between threads.
//!
//! A [`Program`] is a sequential setup and one short op list per thread, generated from a
//! seed over a handful of paths so that the threads collide. Each *round* runs the program:
//! the setup on a fresh tree, then every thread's ops at once on clones of it (a clone of a
//! [`pdtree::SharedTree`] is the same tree), each op stamped with a shared counter before
//! its call and after its return. [`linearizable`] then looks for one order of the ops,
//! consistent with those stamps, that the oracle accepts with the same outcomes, and the
//! tree's own invariants must hold once the threads are done (for a `SharedTree`, its two
//! copies equal). A round with no such order, or that leaves the tree broken, is a
//! [`NotLinearizable`] report: the history as one column per thread, minimized to fewer ops
//! and fewer threads.
//!
//! Threads here are the operating system's, so which interleaving a round gets is up to the
//! scheduler: a failure found once is reproduced by running the same program again for up
//! to as many rounds, and the report says how many rounds that took. The program itself is
//! fixed by the seed. Built with `--cfg pdtree_shuttle` (`ci/schedules`), the threads and
//! `SharedTree`'s locks are shuttle's instead: [`run_round`] must then be called inside a
//! shuttle test, whose seeded scheduler picks every interleaving, so a failing schedule
//! replays exactly.
//!
//! ```
//! use pdtree::{PseudoFs, SharedTree};
//! use pdtree_harness::lincheck::{check, LinConfig};
//! let cfg = LinConfig { programs: 3, rounds: 20, ..LinConfig::default() };
//! let found = check(&cfg, &|l| SharedTree::new(pdtree_harness::core_tree(l)));
//! assert!(found.is_none(), "{}", found.unwrap());
//! ```

mod checker;
mod report;

use std::sync::Arc;

// The threads, clock and start barrier of a round: std's, or shuttle's when built with
// `--cfg pdtree_shuttle`, where a round must run inside `shuttle::check_*` (see
// tests/schedules.rs) and every interleaving follows the scheduler's seed.
#[cfg(pdtree_shuttle)]
use shuttle::{
    sync::atomic::{AtomicU64, Ordering},
    sync::Barrier,
    thread::spawn,
};
#[cfg(not(pdtree_shuttle))]
use std::{
    sync::atomic::{AtomicU64, Ordering},
    sync::Barrier,
    thread::spawn,
};

use pdtree::{InvariantViolation, Limits, PseudoFs};

use crate::campaign::splitmix64;
use crate::lang::op::{Op, Slot};
use crate::lang::runner::Runner;

pub use checker::{linearizable, Event, Verdict, MAX_EVENTS, MAX_STATES};
pub use report::NotLinearizable;

/// Handle slots each thread owns: thread `t` uses slots `4t..4t+4`, so threads never share
/// a slot and one oracle runner can replay them all.
pub const SLOTS_PER_THREAD: usize = 4;

/// The most threads a program may have (16 slots / 4 per thread).
pub const MAX_THREADS: usize = crate::lang::op::SLOTS / SLOTS_PER_THREAD;

/// What to check, and how hard.
#[derive(Clone, Debug)]
pub struct LinConfig {
    /// The first program's seed; program `i` uses `seed + i`.
    pub seed: u64,
    /// Programs to generate.
    pub programs: u64,
    /// Rounds (runs with fresh threads) per program.
    pub rounds: u64,
    /// Threads per program, 2..=[`MAX_THREADS`].
    pub threads: usize,
    /// Ops per thread; `threads * ops_per_thread` ≤ [`MAX_EVENTS`].
    pub ops_per_thread: usize,
    /// Minimize a failure before reporting it.
    pub minimize: bool,
}

impl Default for LinConfig {
    fn default() -> Self {
        LinConfig {
            seed: 1,
            programs: 50,
            rounds: 200,
            threads: 3,
            ops_per_thread: 5,
            minimize: true,
        }
    }
}

/// A setup and each thread's ops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Run on the fresh tree before the threads start.
    pub setup: Vec<Op>,
    /// One op list per thread.
    pub threads: Vec<Vec<Op>>,
}

/// The limits every program runs under.
pub fn limits() -> Limits {
    Limits::default()
}

/// Runs `cfg.programs` programs of `cfg.rounds` rounds each against trees from `make`, and
/// reports the first history no sequential order explains (or that the search could not
/// decide within [`MAX_STATES`]: that is reported too, never taken as a pass).
pub fn check<T, F>(cfg: &LinConfig, make: &F) -> Option<NotLinearizable>
where
    T: PseudoFs + Clone + Send + 'static,
    F: Fn(Limits) -> T,
{
    check_with_progress(cfg, make, &mut |_| {})
}

/// [`check`], calling `done(n)` after each of the first `n` programs passed.
pub fn check_with_progress<T, F>(
    cfg: &LinConfig,
    make: &F,
    done: &mut dyn FnMut(u64),
) -> Option<NotLinearizable>
where
    T: PseudoFs + Clone + Send + 'static,
    F: Fn(Limits) -> T,
{
    assert!(
        (2..=MAX_THREADS).contains(&cfg.threads),
        "threads {}",
        cfg.threads
    );
    assert!(cfg.threads * cfg.ops_per_thread <= MAX_EVENTS);
    for i in 0..cfg.programs {
        let seed = cfg.seed.wrapping_add(i);
        let program = generate(seed, cfg.threads, cfg.ops_per_thread);
        if let Some(failed) = find(&program, cfg.rounds, make) {
            let found = NotLinearizable::new(seed, program, failed);
            return Some(if cfg.minimize {
                report::minimize(found, cfg.rounds, make)
            } else {
                found
            });
        }
        done(i + 1);
    }
    None
}

/// A round the checker did not accept.
#[derive(Clone, Debug)]
pub struct FailedRound {
    /// Which round (from 1).
    pub round: u64,
    /// Its history, ordered by call stamp.
    pub events: Vec<Event>,
    /// The search gave up ([`Verdict::GaveUp`]) rather than proving no order exists.
    pub gave_up: bool,
    /// The history is linearizable, but the tree's invariants did not hold after the round.
    pub broken: Option<InvariantViolation>,
}

/// The first round (from 1) of up to `rounds` whose history is not linearizable, that the
/// search could not decide, or that left the tree broken.
pub fn find<T, F>(program: &Program, rounds: u64, make: &F) -> Option<FailedRound>
where
    T: PseudoFs + Clone + Send + 'static,
    F: Fn(Limits) -> T,
{
    (1..=rounds).find_map(|round| {
        let tree = make(limits());
        let events = run_round(program, tree.clone());
        judge(program, round, events, tree.check_invariants())
    })
}

/// Round `round` of `program` if the checker does not accept it: no order explains its
/// history, the search gave up, or `after` (the tree's invariant check once the threads
/// were done) failed.
pub fn judge(
    program: &Program,
    round: u64,
    events: Vec<Event>,
    after: Result<(), InvariantViolation>,
) -> Option<FailedRound> {
    let (gave_up, broken) = match linearizable(limits(), &program.setup, &events) {
        Verdict::Linearizable(_) => (false, Some(after.err()?)),
        Verdict::NotLinearizable => (false, None),
        Verdict::GaveUp => (true, None),
    };
    Some(FailedRound {
        round,
        events,
        gave_up,
        broken,
    })
}

/// Runs `program` once on `tree`: the setup, then every thread at once. The history comes
/// back ordered by call stamp.
pub fn run_round<T: PseudoFs + Clone + Send + 'static>(program: &Program, tree: T) -> Vec<Event> {
    let mut setup = Runner::from_tree(tree);
    for op in &program.setup {
        setup.apply(op);
    }
    let clock = Arc::new(AtomicU64::new(0));
    let start = Arc::new(Barrier::new(program.threads.len()));
    let workers: Vec<_> = program
        .threads
        .iter()
        .enumerate()
        .map(|(thread, ops)| {
            // A clone of the setup's runner: the same tree, and the handles the setup left
            // in this thread's slots.
            let (ops, mut r) = (ops.clone(), setup.clone());
            let (clock, start) = (Arc::clone(&clock), Arc::clone(&start));
            spawn(move || {
                start.wait();
                ops.into_iter()
                    .map(|op| {
                        let call = clock.fetch_add(1, Ordering::SeqCst);
                        let outcome = r.apply(&op);
                        let ret = clock.fetch_add(1, Ordering::SeqCst);
                        Event {
                            thread,
                            op,
                            call,
                            ret,
                            outcome,
                        }
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut events: Vec<Event> = workers
        .into_iter()
        .flat_map(|w| w.join().expect("a lincheck thread panicked"))
        .collect();
    events.sort_by_key(|e| e.call);
    events
}

/// The paths programs use: few, so that threads collide on them. `/g` is the permanent
/// generated file of the setup.
const FILES: [&[u8]; 6] = [b"/a/x", b"/a/y", b"/a/w", b"/b/z", b"/b/v", b"/g"];
/// The source `/g` renders, and the items programs add to it and remove from it (each
/// success makes its cached rendering invalid, so the next fresh read of `/g` builds it).
const SOURCE: &[u8] = b"fs";
const ITEMS: [&[u8]; 2] = [b"xfs", b"btrfs"];
/// The slot, within each thread's range, where the setup opens `/g` for that thread.
const HELD_SLOT: usize = 2;
const DIRS: [&[u8]; 3] = [b"/a", b"/b", b"/a/d"];
const NAMES: [&[u8]; 3] = [b"x", b"y", b"w"];
/// The inodes of `/a` and `/b` after the setup.
const DIR_INOS: [u64; 2] = [2, 5];

/// The program of `seed`: a fixed setup (`/a` with two files, one permanent; `/b` with one;
/// `/g`, a permanent generated file whose source holds one item, open in each thread's slot
/// 2) and `ops` ops per thread
/// drawn from creates, removes, queries, handle ops and changes of the source.
pub fn generate(seed: u64, threads: usize, ops: usize) -> Program {
    let path = |p: &[u8]| p.to_vec();
    let setup = vec![
        Op::Mkdir { path: path(b"/a") },
        Op::Create {
            path: path(b"/a/x"),
            content: b"1\n".to_vec(),
        },
        Op::Create {
            path: path(b"/a/y"),
            content: vec![],
        },
        Op::MarkPermanent {
            path: path(b"/a/x"),
        },
        Op::Mkdir { path: path(b"/b") },
        Op::Create {
            path: path(b"/b/z"),
            content: vec![],
        },
        Op::SourceAdd {
            source: SOURCE.to_vec(),
            item: b"ext4".to_vec(),
        },
        Op::Generated {
            path: path(b"/g"),
            source: SOURCE.to_vec(),
        },
        Op::MarkPermanent { path: path(b"/g") },
    ];
    // Each thread starts with `/g` open in its slot `HELD_SLOT`, not read yet.
    let setup = setup
        .into_iter()
        .chain((0..threads).map(|t| Op::Open {
            view: 0,
            slot: (t * SLOTS_PER_THREAD + HELD_SLOT) as Slot,
            path: path(b"/g"),
        }))
        .collect();
    let threads = (0..threads)
        .map(|t| {
            let mut state = splitmix64(seed ^ ((t as u64 + 1) << 32));
            (0..ops)
                .map(|_| {
                    state = splitmix64(state);
                    thread_op(state, t)
                })
                .collect()
        })
        .collect();
    Program { setup, threads }
}

/// One op of thread `t` from 64 random bits.
fn thread_op(bits: u64, t: usize) -> Op {
    let pick = |k: u32, n: usize| ((bits >> k) % n as u64) as usize;
    let file = FILES[pick(8, FILES.len())].to_vec();
    let dir = DIRS[pick(16, DIRS.len())].to_vec();
    // Opens fill the thread's first two slots; reads and closes also take the handle the
    // setup opened for it.
    let slot = (t * SLOTS_PER_THREAD + pick(24, 2)) as Slot;
    let held = (t * SLOTS_PER_THREAD + pick(24, HELD_SLOT + 1)) as Slot;
    let item = ITEMS[pick(56, ITEMS.len())].to_vec();
    match bits % 13 {
        0 | 1 => Op::Create {
            path: file,
            content: vec![],
        },
        2 => Op::Mkdir { path: dir },
        3 => Op::Remove { path: file },
        4 => Op::RemoveSubtree { path: dir },
        5 => Op::Stat {
            view: 0,
            path: file,
        },
        6 => Op::LookupAt {
            view: 0,
            dir: DIR_INOS[0],
            name: NAMES[pick(32, NAMES.len())].to_vec(),
        },
        7 => Op::Readdir {
            view: 0,
            dir: DIR_INOS[pick(48, 2)],
            pos: 0,
            max: 2 + pick(40, 3),
        },
        8 => Op::Open {
            view: 0,
            slot,
            path: file,
        },
        9 => Op::Read { slot: held },
        10 => Op::Close { slot: held },
        11 if (bits >> 60) & 1 == 0 => Op::SourceAdd {
            source: SOURCE.to_vec(),
            item,
        },
        11 => Op::SourceRemove {
            source: SOURCE.to_vec(),
            item,
        },
        _ => Op::Stats,
    }
}
