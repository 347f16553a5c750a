//! The built-in deterministic swarm fuzzer (stable Rust, no libFuzzer).
//!
//! Iteration `i` of a campaign with master seed `s` runs the input [`iteration_input`]`(s, i)`:
//! a byte buffer (1..=[`CampaignConfig::max_len`] bytes, or a long history of about 10^4 ops
//! every [`LONG_EVERY`]-th iteration) from a ChaCha8 stream seeded by `s` and `i` alone, fed to the same generator as the libFuzzer targets and run differentially
//! ([`diff_bytes`](crate::diff_bytes)). So any iteration reproduces on its own, and `--jobs` changes only how
//! fast inputs run, never which.
//!
//! The `jobs` threads each take the next iteration not yet taken, up to a window ahead of
//! the merge; results are merged in iteration order and the campaign stops at the first
//! divergence in that order, counting only the iterations before it. So for a fixed seed and
//! iteration count the result and its [`summary`](CampaignResult::summary) text are identical
//! run to run and for any `jobs` (timings are kept out of it: see
//! [`CampaignResult::timing_line`]).
//!
//! ```
//! use pdtree_harness::campaign::{run, CampaignConfig};
//! use pdtree_harness::core_tree; // core with a fixed hash seed: the same run, byte for byte
//! let cfg = CampaignConfig { seed: 7, iterations: Some(20), ..CampaignConfig::default() };
//! let r = run(&cfg, &core_tree);
//! assert_eq!(r.iterations, 20);
//! assert!(r.found.is_none());
//! assert_eq!(r.summary(), run(&CampaignConfig { jobs: 2, ..cfg.clone() }, &core_tree).summary());
//! ```

pub mod replay;
pub mod report;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use pdtree::{Limits, PseudoFs};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::check::diff::{diff_bytes_unless, run_ops};
use crate::check::divergence::Divergence;
use crate::gen::{ops_from_bytes_in, GenStats, Profile};
use crate::lang::op::Op;
use crate::shrink::{minimize_case_within, Budget, Spent};
use report::{write_report, Commands, Report};

/// Iterations run when neither a count nor a time is given.
pub const DEFAULT_ITERATIONS: u64 = 20_000;

/// How a campaign runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignConfig {
    /// The master seed.
    pub seed: u64,
    /// Stop after this many iterations.
    pub iterations: Option<u64>,
    /// Stop after this long: no iteration is started after it, and those running are given
    /// up between two ops; the count is of the iterations that ran to their end, in order.
    /// (Once one diverged, the iterations before it still run to their end.)
    pub time: Option<Duration>,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// Where to write a report directory on divergence (none: no report written).
    pub report_dir: Option<PathBuf>,
    /// The longest input, in bytes.
    pub max_len: usize,
    /// Minimize a divergence before reporting it.
    pub minimize: bool,
    /// What that minimization may spend.
    pub minimize_budget: Budget,
    /// What the target supports: the generator makes only those ops.
    pub profile: Profile,
    /// How the target's cases are fuzzed and replayed, for reports and the summary.
    pub commands: Commands,
}

impl Default for CampaignConfig {
    /// Seed 0, [`DEFAULT_ITERATIONS`], one job, no report, 4096-byte inputs, minimization on
    /// within the default [`Budget`].
    fn default() -> Self {
        CampaignConfig {
            seed: 0,
            iterations: None,
            time: None,
            jobs: 1,
            report_dir: None,
            max_len: 4096,
            minimize: true,
            minimize_budget: Budget::default(),
            profile: Profile::FULL,
            commands: Commands::default(),
        }
    }
}

/// A divergence a campaign found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The iteration whose input diverged.
    pub seed_or_iteration: u64,
    /// That input's bytes.
    pub input: Vec<u8>,
    /// How many ops the input generated.
    pub original_ops: usize,
    /// The minimized ops.
    pub minimized: Vec<Op>,
    /// The limits of the minimized case.
    pub limits: Limits,
    /// The divergence of the full input.
    pub divergence: Divergence,
    /// The divergence of the minimized case (same signature).
    pub minimized_divergence: Divergence,
    /// What the minimization spent (all zero when it was turned off).
    pub minimization: Spent,
    /// The budget it had.
    pub minimize_budget: Budget,
    /// The report directory, if one was asked for: where it was written, or why it could not
    /// be.
    pub report: Option<Result<PathBuf, String>>,
    /// How the target's cases are replayed (see [`CampaignConfig::commands`]).
    pub commands: Commands,
}

/// What a campaign did.
#[derive(Clone, Debug)]
pub struct CampaignResult {
    /// The master seed.
    pub seed: u64,
    /// Iterations completed without divergence (plus the diverging one, if any).
    pub iterations: u64,
    /// The first divergence in iteration order.
    pub found: Option<Found>,
    /// Ops per kind and outcomes of every iteration before the divergence.
    pub stats: GenStats,
    /// Wall-clock time of the iterations, minimization excluded (not part of the summary).
    pub elapsed: Duration,
}

impl CampaignResult {
    /// The deterministic summary: seed, iterations, the generator table, the result.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "pdtree fuzz: seed {}, {} iterations",
            self.seed, self.iterations
        );
        let _ = writeln!(s);
        let _ = write!(s, "{}", self.stats);
        match &self.found {
            None => {
                let _ = writeln!(s, "result: no divergence");
            }
            Some(f) => {
                let _ = writeln!(
                    s,
                    "result: DIVERGENCE `{}` at iteration {} (op #{} of {}; minimized to {} ops)",
                    f.divergence.signature(),
                    f.seed_or_iteration,
                    f.divergence.index,
                    f.original_ops,
                    f.minimized.len()
                );
                if f.minimization.exhausted {
                    let _ = writeln!(
                        s,
                        "minimization: {}",
                        f.minimization.describe(f.minimize_budget)
                    );
                }
                match &f.report {
                    Some(Ok(r)) => {
                        let _ = writeln!(s, "report: {}", r.join("report.md").display());
                        let _ = writeln!(
                            s,
                            "replay: {} --verbose {}",
                            f.commands.replay,
                            r.join("repro.ops").display()
                        );
                    }
                    Some(Err(e)) => {
                        let _ = writeln!(s, "report: not written: {e}");
                    }
                    None => {}
                }
            }
        }
        s
    }

    /// Timings, kept apart from the deterministic summary.
    pub fn timing_line(&self) -> String {
        let secs = self.elapsed.as_secs_f64();
        format!(
            "time {:.1} s, {:.0} execs/s, {:.0} ops/s",
            secs,
            self.iterations as f64 / secs.max(1e-9),
            self.stats.ops as f64 / secs.max(1e-9)
        )
    }
}

/// splitmix64 (Steele et al.): a bijective mix of a 64-bit value, used to derive stream seeds
/// from a master seed and as a dependency-free generator (`x = splitmix64(x)` per draw).
///
/// ```
/// use pdtree_harness::campaign::splitmix64;
/// assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
/// ```
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Every this-many-th iteration (`i % LONG_EVERY == LONG_EVERY - 1`) is a long history.
pub const LONG_EVERY: u64 = 1024;

/// The length range of a long history's input: 192–320 KiB, which the generator makes into
/// about 10^4 ops (up to [`MAX_LONG_OPS`](crate::gen::MAX_LONG_OPS)).
pub const LONG_LEN: std::ops::Range<usize> = 192 << 10..320 << 10;

/// The input of iteration `i` of a campaign with master seed `seed`: 1..=`max_len` bytes,
/// or, every [`LONG_EVERY`]-th iteration, a long history of [`LONG_LEN`] bytes.
///
/// ```
/// use pdtree_harness::campaign::{iteration_input, LONG_EVERY, LONG_LEN};
/// assert_eq!(iteration_input(1, 5, 4096), iteration_input(1, 5, 4096));
/// assert_ne!(iteration_input(1, 5, 4096), iteration_input(1, 6, 4096));
/// assert!(iteration_input(1, 5, 4096).len() <= 4096);
/// assert!(LONG_LEN.contains(&iteration_input(1, LONG_EVERY - 1, 4096).len()));
/// ```
pub fn iteration_input(seed: u64, i: u64, max_len: usize) -> Vec<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix64(seed));
    rng.set_stream(i);
    let draw = rng.next_u64();
    let len = if i % LONG_EVERY == LONG_EVERY - 1 {
        LONG_LEN.start + (draw % (LONG_LEN.end - LONG_LEN.start) as u64) as usize
    } else {
        1 + (draw % max_len.max(1) as u64) as usize
    };
    let mut buf = vec![0; len];
    rng.fill_bytes(&mut buf);
    buf
}

/// Where a campaign is, for a progress display: passed each time more iterations are merged.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a> {
    /// Iterations done (in iteration order).
    pub done: u64,
    /// The iteration limit, if the campaign has one.
    pub limit: Option<u64>,
    /// Counts over the iterations done.
    pub stats: &'a GenStats,
    /// Time since the campaign started.
    pub elapsed: Duration,
    /// Whether a divergence was found.
    pub diverged: bool,
    /// Once a divergence is found: what its minimization has spent so far.
    pub minimizing: Option<Spent>,
}

/// Calls `progress` with where the campaign is: `(done, limit)` iterations (`u64::MAX`: no
/// limit), and the rest as [`Progress`] names it.
fn report(
    progress: &dyn Fn(Progress<'_>),
    (done, limit): (u64, u64),
    stats: &GenStats,
    start: Instant,
    diverged: bool,
    minimizing: Option<Spent>,
) {
    progress(Progress {
        done,
        limit: (limit != u64::MAX).then_some(limit),
        stats,
        elapsed: start.elapsed(),
        diverged,
        minimizing,
    });
}

/// Runs a campaign of A (made by `make_a`) against the oracle. See the module docs.
pub fn run<A: PseudoFs>(
    cfg: &CampaignConfig,
    make_a: &(dyn Fn(Limits) -> A + Sync),
) -> CampaignResult {
    run_with_progress(cfg, make_a, &|_| {})
}

/// [`run`], calling `progress` each time more iterations are merged (the `pdtree` command
/// draws its progress bar from it).
pub fn run_with_progress<A: PseudoFs>(
    cfg: &CampaignConfig,
    make_a: &(dyn Fn(Limits) -> A + Sync),
    progress: &dyn Fn(Progress<'_>),
) -> CampaignResult {
    let start = Instant::now();
    let limit = cfg.iterations.unwrap_or(if cfg.time.is_some() {
        u64::MAX
    } else {
        DEFAULT_ITERATIONS
    });
    let mut merge = Merge {
        next: 0,
        stats: GenStats::default(),
        hit: None,
    };
    let pipeline = Pipeline::new(limit, cfg.time.map(|t| start + t));
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..cfg.jobs.max(1))
            .map(|_| {
                let tx = tx.clone();
                let pipeline = &pipeline;
                s.spawn(move || pipeline.work(cfg, make_a, &tx))
            })
            .collect();
        drop(tx);
        merge_results(&pipeline, &rx, &mut merge, &|m: &Merge| {
            report(
                progress,
                (m.next, limit),
                &m.stats,
                start,
                m.hit.is_some(),
                None,
            );
        });
        for w in workers {
            // A worker's panic (a bug in make_a or in the harness) goes on as it was.
            w.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
    let elapsed = start.elapsed();
    let Merge { next, stats, hit } = merge;
    let found = hit.map(|(i, d)| {
        let minimizing = |spent: &Spent| {
            report(progress, (next, limit), &stats, start, true, Some(*spent));
        };
        found(cfg, make_a, i, d, &minimizing)
    });
    CampaignResult {
        seed: cfg.seed,
        iterations: next,
        found,
        stats,
        elapsed,
    }
}

/// How far the worker threads may run ahead of the first iteration not yet merged: a bound
/// on the results held out of order while one thread is on a slow input (a long history
/// takes 1–7 s, in which the other thread runs a few thousand typical inputs).
const WINDOW: u64 = 4096;

/// One iteration's outcome, as a worker sends it.
type Outcome = (u64, Result<GenStats, Divergence>);

/// The iterations merged so far, in iteration order.
struct Merge {
    /// Iterations merged: every one below it ran, and the diverging one is the last.
    next: u64,
    /// The merged iterations' counts (the diverging one's excluded).
    stats: GenStats,
    /// The first divergence in iteration order, once merged.
    hit: Option<(u64, Divergence)>,
}

/// Receives the workers' outcomes until every worker is done, merging them in iteration
/// order (later ones wait in `pending`, at most [`WINDOW`] of them), and stops the workers
/// at the first divergence. `merged` is called after each merge.
fn merge_results(
    pipeline: &Pipeline,
    rx: &mpsc::Receiver<Outcome>,
    m: &mut Merge,
    merged: &dyn Fn(&Merge),
) {
    let mut pending = BTreeMap::new();
    // Ends when every worker is done (each holds a sender).
    for (i, r) in rx {
        if m.hit.is_some() {
            continue;
        }
        pending.insert(i, r);
        if m.merge_ready(&mut pending) {
            pipeline.advance(m.next, m.hit.is_some());
            merged(m);
        }
    }
}

impl Merge {
    /// Merges every pending outcome that is next in iteration order; true if any was.
    fn merge_ready(&mut self, pending: &mut BTreeMap<u64, Result<GenStats, Divergence>>) -> bool {
        let from = self.next;
        while let Some(r) = pending.remove(&self.next) {
            self.next += 1;
            match r {
                Ok(st) => self.stats.merge(&st),
                Err(d) => {
                    self.hit = Some((self.next - 1, d));
                    pending.clear();
                    break;
                }
            }
        }
        self.next > from
    }
}

/// What the worker threads share: which iteration is next, how far the merge is, whether
/// to stop.
///
/// Each thread takes the next iteration not yet taken, so a slow input holds up only its own
/// thread while the others go on, up to [`WINDOW`] iterations past it. Which thread runs an
/// iteration changes nothing it computes, so the results are the same for any `jobs`.
/// Seed 1's 20,000 iterations on two jobs take 32.6–33.1 s this way (one job: 63.9 s); in
/// chunks of 16 iterations, each ending with its slowest input, they took 55.1 s.
struct Pipeline {
    /// The iteration limit (`u64::MAX`: none).
    limit: u64,
    /// No iteration is taken from this instant on (`--time`).
    deadline: Option<Instant>,
    /// The next iteration to take.
    taken: AtomicU64,
    /// Iterations merged (every one below ran). Stored by the merging thread, under `room`.
    merged: AtomicU64,
    /// The lowest iteration seen diverging: later ones need not run.
    first_divergence: AtomicU64,
    /// Set when no more iterations are to be taken: a divergence merged, or a worker
    /// panicked (its iteration would never be merged).
    stopped: AtomicBool,
    /// Where a worker that is [`WINDOW`] ahead of the merge waits for it.
    room: (Mutex<()>, Condvar),
}

impl Pipeline {
    fn new(limit: u64, deadline: Option<Instant>) -> Pipeline {
        Pipeline {
            limit,
            deadline,
            taken: AtomicU64::new(0),
            merged: AtomicU64::new(0),
            first_divergence: AtomicU64::new(u64::MAX),
            stopped: AtomicBool::new(false),
            room: (Mutex::new(()), Condvar::new()),
        }
    }

    /// One worker: takes iterations and sends their outcomes until there are none to take.
    fn work<A: PseudoFs>(
        &self,
        cfg: &CampaignConfig,
        make_a: &(dyn Fn(Limits) -> A + Sync),
        tx: &mpsc::Sender<Outcome>,
    ) {
        let _stop_on_panic = StopOnPanic(self);
        loop {
            if self.time_is_up() {
                return;
            }
            let i = self.taken.fetch_add(1, Ordering::Relaxed);
            if i >= self.limit || !self.wait_for_room(i) || self.not_needed(i) {
                return;
            }
            let input = iteration_input(cfg.seed, i, cfg.max_len);
            let stop = || self.time_is_up() || self.not_needed(i);
            let Some(r) = diff_bytes_unless(&input, cfg.profile, make_a, &stop) else {
                return;
            };
            let r = r.map(|r| r.stats);
            if r.is_err() {
                self.first_divergence.fetch_min(i, Ordering::Relaxed);
            }
            if tx.send((i, r)).is_err() {
                return;
            }
        }
    }

    /// Past the deadline, with no divergence found: an iteration running then is given up
    /// between two ops, and none is started. Once one diverged, every iteration before it
    /// still runs to its end, so the first in iteration order is the one reported.
    fn time_is_up(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            && self.first_divergence.load(Ordering::Relaxed) == u64::MAX
    }

    /// Iteration `i` comes after one that diverged: its outcome would not be merged.
    fn not_needed(&self, i: u64) -> bool {
        i > self.first_divergence.load(Ordering::Relaxed)
    }

    /// Waits until iteration `i` is within [`WINDOW`] of the merge; false if stopped.
    fn wait_for_room(&self, i: u64) -> bool {
        let room = || i < self.merged.load(Ordering::Acquire).saturating_add(WINDOW);
        if !room() {
            let (lock, cv) = &self.room;
            let mut guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
            while !room() && !self.stopped.load(Ordering::Acquire) {
                guard = cv.wait(guard).unwrap_or_else(PoisonError::into_inner);
            }
        }
        !self.stopped.load(Ordering::Acquire)
    }

    /// The merge reached `merged`; `stop` once it merged a divergence.
    fn advance(&self, merged: u64, stop: bool) {
        self.merged.store(merged, Ordering::Release);
        if stop {
            self.stopped.store(true, Ordering::Release);
        }
        // Taken after the stores, so a worker that saw the old values is already waiting.
        let _guard = self.room.0.lock().unwrap_or_else(PoisonError::into_inner);
        self.room.1.notify_all();
    }

    fn stop(&self) {
        self.advance(self.merged.load(Ordering::Acquire), true);
    }
}

/// Stops the pipeline when its worker unwinds, so the others do not wait for the merge of
/// an iteration that will never come; the panic itself goes on to the scope's join.
struct StopOnPanic<'p>(&'p Pipeline);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stop();
        }
    }
}

/// The found divergence of iteration `i`: minimized (unless turned off) and reported.
fn found<A: PseudoFs>(
    cfg: &CampaignConfig,
    make_a: &(dyn Fn(Limits) -> A + Sync),
    i: u64,
    d: Divergence,
    progress: &dyn Fn(&Spent),
) -> Found {
    let input = iteration_input(cfg.seed, i, cfg.max_len);
    let (limits, ops) = ops_from_bytes_in(&input, cfg.profile);
    let (mlimits, minimized, minimization) = if cfg.minimize {
        let m = minimize_case_within(limits, &ops, &d, make_a, cfg.minimize_budget, progress);
        (m.limits, m.ops, m.spent)
    } else {
        let cut = ops[..(d.index + 1).min(ops.len())].to_vec();
        (limits, cut, Spent::default())
    };
    let md = run_ops(mlimits, &minimized, make_a)
        .err()
        .unwrap_or_else(|| d.clone());
    let report = cfg.report_dir.as_ref().map(|root| {
        let case = Report {
            limits: mlimits,
            ops: &minimized,
            divergence: &md,
            origin: format!(
                "`{} --seed {} --max-len {}`, iteration {i} ({} of {} ops kept{})",
                cfg.commands.fuzz,
                cfg.seed,
                cfg.max_len,
                minimized.len(),
                ops.len(),
                if minimization.exhausted {
                    format!(
                        "; minimization: {}",
                        minimization.describe(cfg.minimize_budget)
                    )
                } else {
                    String::new()
                }
            ),
            input: Some(&input),
            commands: cfg.commands.clone(),
        };
        write_report(root, &case).map_err(|e| format!("{}: {e}", root.display()))
    });
    Found {
        commands: cfg.commands.clone(),
        seed_or_iteration: i,
        original_ops: ops.len(),
        input,
        minimized,
        limits: mlimits,
        divergence: d,
        minimized_divergence: md,
        minimization,
        minimize_budget: cfg.minimize_budget,
        report,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core_tree;

    fn cfg(jobs: usize) -> CampaignConfig {
        CampaignConfig {
            seed: 5,
            iterations: Some(40),
            jobs,
            ..CampaignConfig::default()
        }
    }

    #[test]
    fn a_worker_thread_that_panics_ends_the_campaign_with_its_panic() {
        let made = AtomicU64::new(0);
        let make = |l: Limits| {
            let n = made.fetch_add(1, Ordering::Relaxed);
            assert!(n != 7, "planted panic in make_a");
            core_tree(l)
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&cfg(3), &make)));
        let e = r.expect_err("the worker's panic reaches the caller");
        let message = e
            .downcast_ref::<&str>()
            .copied()
            .or(e.downcast_ref::<String>().map(String::as_str));
        assert_eq!(message, Some("planted panic in make_a"));
    }

    #[test]
    fn no_iteration_starts_once_the_time_is_up() {
        let c = CampaignConfig {
            iterations: None,
            time: Some(Duration::ZERO),
            ..cfg(2)
        };
        let r = run(&c, &core_tree);
        assert_eq!((r.iterations, r.stats.ops), (0, 0));
    }

    #[test]
    fn past_the_deadline_only_the_iterations_before_a_divergence_still_run() {
        let p = Pipeline::new(u64::MAX, Some(Instant::now()));
        assert!(p.time_is_up(), "no divergence: everything stops");
        p.first_divergence.store(10, Ordering::Relaxed);
        assert!(
            !p.time_is_up(),
            "the iterations before 10 decide which is first"
        );
        assert!(!p.not_needed(9) && !p.not_needed(10) && p.not_needed(11));
    }

    #[test]
    fn a_run_is_given_up_between_two_ops_once_told_to_stop() {
        let input = iteration_input(5, 3, 4096);
        let whole = crate::diff_bytes(&input, &core_tree).expect("clean");
        let never = diff_bytes_unless(&input, Profile::FULL, &core_tree, &|| false);
        assert_eq!(
            never.expect("ran to its end").expect("clean").stats,
            whole.stats
        );
        let asked = std::cell::Cell::new(0);
        let after_three = || {
            asked.set(asked.get() + 1);
            asked.get() > 3
        };
        let stopped = diff_bytes_unless(&input, Profile::FULL, &core_tree, &after_three);
        assert!(stopped.is_none());
        assert_eq!(
            asked.get(),
            4,
            "asked before each op, and it stopped at the fourth"
        );
    }

    #[test]
    fn the_same_iterations_are_merged_for_any_jobs() {
        let one = run(&cfg(1), &core_tree);
        assert_eq!(one.iterations, 40);
        for jobs in [2, 3, 5] {
            assert_eq!(
                one.summary(),
                run(&cfg(jobs), &core_tree).summary(),
                "{jobs} jobs"
            );
        }
    }

    #[test]
    fn a_worker_a_window_ahead_of_the_merge_waits_for_it() {
        // Long enough for a worker that does not wait to be done.
        let settle = || std::thread::sleep(Duration::from_millis(50));
        let p = Pipeline::new(u64::MAX, None);
        assert!(p.wait_for_room(WINDOW - 1), "inside the window: no wait");
        std::thread::scope(|s| {
            let waiter = s.spawn(|| p.wait_for_room(WINDOW));
            settle();
            assert!(
                !waiter.is_finished(),
                "a window ahead of the merge: it waits"
            );
            p.advance(1, false);
            assert!(waiter.join().unwrap(), "room once the merge moved on");
        });
        let stopped = Pipeline::new(u64::MAX, None);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| stopped.wait_for_room(WINDOW));
            settle();
            assert!(!waiter.is_finished(), "it waits until the stop");
            stopped.stop();
            assert!(!waiter.join().unwrap(), "a stopped pipeline takes no more");
        });
    }
}
