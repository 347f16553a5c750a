//! The built-in deterministic swarm fuzzer (stable Rust, no libFuzzer).
//!
//! Iteration `i` of a campaign with master seed `s` runs the input [`iteration_input`]`(s, i)`:
//! a byte buffer (1..=[`CampaignConfig::max_len`] bytes, or a long history of about 10^4 ops
//! every [`LONG_EVERY`]-th iteration) from a ChaCha8 stream seeded by `s` and `i` alone, fed to the same generator as the libFuzzer targets and run differentially
//! ([`diff_bytes`](crate::diff_bytes)). So any iteration reproduces on its own, and `--jobs` changes only how
//! fast inputs run, never which.
//!
//! Iterations run in chunks; within a chunk the `jobs` threads take every `jobs`-th
//! iteration. Results are merged in iteration order and the campaign stops at the first
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

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use pdtree::{Limits, PseudoFs};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::check::diff::{diff_bytes_in, run_ops};
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
    /// Stop after this long (checked between chunks of iterations).
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

/// Where a campaign is, for a progress display: passed after every chunk of iterations.
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

/// [`run`], calling `progress` after every chunk of iterations (the `pdtree` command draws
/// its progress bar from it).
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
    let mut next = 0u64;
    let mut stats = GenStats::default();
    let mut hit: Option<(u64, Divergence)> = None;
    while next < limit && hit.is_none() {
        if cfg.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
        let end = next.saturating_add(8 * cfg.jobs.max(1) as u64).min(limit);
        for (i, r) in run_chunk(cfg, make_a, next, end) {
            match r {
                Ok(st) => stats.merge(&st),
                Err(d) => {
                    hit = Some((i, d));
                    break;
                }
            }
        }
        next = hit.as_ref().map_or(end, |h| h.0 + 1);
        report(progress, (next, limit), &stats, start, hit.is_some(), None);
    }
    let elapsed = start.elapsed();
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

/// Iterations `next..end` on `cfg.jobs` threads, returned in iteration order: every iteration
/// before the first that diverges, and that one (later ones may be missing).
///
/// Each thread takes the next iteration not yet taken, so a slow input (a long history, a
/// 10^5-file bulk: a thousand times a typical one) holds up only its own thread while the
/// others go on to the end of the chunk; with a fixed share per thread two jobs ran seed 1's
/// 20,000 iterations in 58.1 s, this way in 55.3 s (one job: 62.9 s). The chunk still ends
/// with its slowest input. Which thread runs an iteration changes nothing it computes, so
/// the results are the same for any `jobs`.
fn run_chunk<A: PseudoFs>(
    cfg: &CampaignConfig,
    make_a: &(dyn Fn(Limits) -> A + Sync),
    next: u64,
    end: u64,
) -> Vec<(u64, Result<GenStats, Divergence>)> {
    let jobs = cfg.jobs.max(1);
    let taken = AtomicU64::new(next);
    // The lowest iteration found diverging: later ones need not run.
    let first_divergence = AtomicU64::new(u64::MAX);
    let worker = || {
        let mut out = Vec::new();
        loop {
            let i = taken.fetch_add(1, Ordering::Relaxed);
            if i >= end || i > first_divergence.load(Ordering::Relaxed) {
                return out;
            }
            let input = iteration_input(cfg.seed, i, cfg.max_len);
            let r = diff_bytes_in(&input, cfg.profile, make_a).map(|r| r.stats);
            if r.is_err() {
                first_divergence.fetch_min(i, Ordering::Relaxed);
            }
            out.push((i, r));
        }
    };
    let mut results: Vec<_> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..jobs).map(|_| s.spawn(worker)).collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    results.sort_by_key(|r| r.0);
    results
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
