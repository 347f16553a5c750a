//! `pdtree bench`: benchmarks of core ([`pdtree::Tree`]) against the naive oracle and bare
//! `HashMap` baselines, printed as Markdown tables and plotted as an SVG
//! (docs/PERFORMANCE.md says what each case measures).
//!
//! Everything runs in one process, so ratios between series are measured in the same run
//! (the machine is shared; absolute numbers are noisy, same-run ratios much less so).

mod alloc;
mod cases;
mod concurrency;
mod hostile;
mod ns;
mod peers;
mod plot;
mod table;

use std::path::PathBuf;
use std::time::Duration;

pub use alloc::{live_bytes, set_counting};

/// One group of measurements that can be selected with `--cases`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum BenchCase {
    /// N creates in one directory (the /proc/net/dev_snmp6 case), with a bare HashMap baseline.
    Create,
    /// N sysctl-style tables of 20 rows under net/ipv4/conf/<dev>, then unregistering them.
    Register,
    /// Removing N entries of one directory one by one, and remove_subtree of N entries.
    Remove,
    /// Random lookups of existing names, with a bare HashMap baseline.
    Lookup,
    /// Full readdir in pages of 128, and resuming from random positions.
    Readdir,
    /// Listing reads: cached (unchanged directory) against right after an invalidation.
    Listing,
    /// Bytes per entry counted by the counting global allocator.
    Memory,
    /// Throughput of the built-in differential fuzz runner (core against the oracle).
    Runner,
    /// SPEC Part II: register_ns over 10 namespaces, a readdir merged in a view, and a
    /// source-backed read cached against a fresh render.
    Namespaces,
    /// Names crafted to collide under an unkeyed hash against random names, at 10^5 (or
    /// --max-n if smaller): create, lookup_at, stat, remove.
    Hostile,
    /// Threads sharing one SharedTree: open+read+close of a permanent cached file and stat
    /// with 1 and 2 threads, a reader beside a registering writer.
    Concurrency,
    /// One directory of N files against a per-directory BTreeMap tree, the vfs crate's
    /// MemoryFS and a bare hashbrown map: create, lookup, stat, readdir, remove, bytes.
    Peers,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// The largest N (sizes are 10^3, 10^3.5, ... up to this).
    pub max_n: u64,
    /// Fewer repetitions and a 1-s oracle budget: a smoke run.
    pub quick: bool,
    /// The cases to run (empty: all).
    pub cases: Vec<BenchCase>,
    /// Skip an oracle point whose predicted time passes this.
    pub oracle_budget: Duration,
    /// Registrations stop at this N (each is 21 entries; the default entry limit is 2^24).
    pub max_register_n: u64,
    /// Listing case: children of the listed directory.
    pub listing_children: u64,
    /// Print progress to stderr.
    pub progress: bool,
}

impl Default for BenchOptions {
    fn default() -> Self {
        BenchOptions {
            max_n: 1_000_000,
            quick: false,
            cases: Vec::new(),
            oracle_budget: Duration::from_secs(30),
            max_register_n: 100_000,
            listing_children: 1_000,
            progress: false,
        }
    }
}

impl BenchOptions {
    fn wants(&self, c: BenchCase) -> bool {
        self.cases.is_empty() || self.cases.contains(&c)
    }

    /// The N grid: 10^3, 10^3.5, 10^4, ... (half decades, rounded) up to `max_n`.
    pub fn sizes(&self) -> Vec<u64> {
        let mut out = Vec::new();
        let mut k = 6; // 10^(k/2)
        loop {
            let n = 10f64.powf(k as f64 / 2.0).round() as u64;
            if n > self.max_n {
                break;
            }
            out.push(n);
            k += 1;
        }
        if out.last() != Some(&self.max_n) && self.max_n >= 1 {
            out.push(self.max_n);
        }
        out
    }
}

/// One measured (or skipped) point of a series.
#[derive(Clone, Debug)]
pub struct Point {
    /// Short case id, e.g. `create`.
    pub case: &'static str,
    /// Which implementation: `core`, `oracle`, `HashMap` ...
    pub series: &'static str,
    /// The size parameter.
    pub n: u64,
    /// Operations timed (per-op cost is `secs / ops`).
    pub ops: u64,
    /// Wall time of the timed part.
    pub secs: f64,
    /// Why it was skipped (then `ops` and `secs` are the prediction's).
    pub skipped: Option<String>,
}

impl Point {
    /// Nanoseconds per operation.
    pub fn ns_per_op(&self) -> f64 {
        self.secs * 1e9 / self.ops.max(1) as f64
    }
}

/// One goal from the issue, judged on this run's numbers.
#[derive(Clone, Debug)]
pub struct Goal {
    /// The goal as the issue states it.
    pub goal: String,
    /// What this run measured.
    pub measured: String,
    /// Met, missed, or not measured in this run (`None`).
    pub met: Option<bool>,
}

/// Everything a run measured.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    /// The options' sizes, for the tables.
    pub sizes: Vec<u64>,
    /// Every point, in measurement order.
    pub points: Vec<Point>,
    /// Bytes per entry: (case, series, n, bytes/entry).
    pub memory: Vec<(&'static str, &'static str, u64, f64)>,
    /// Listing case rows: (what, ns per read).
    pub listing: Vec<(String, f64)>,
    /// Harness throughput rows: (what, value).
    pub harness: Vec<(String, String)>,
    /// Namespace and source rows: (what, value).
    pub namespaces: Vec<(String, String)>,
    /// Hostile-name rows: (what, value).
    pub hostile: Vec<(String, String)>,
    /// Concurrency rows: (what, value).
    pub concurrency: Vec<(String, String)>,
    /// The peers case, one entry per size.
    pub peers: Vec<peers::PeerSize>,
    /// The goals, judged.
    pub goals: Vec<Goal>,
    /// Whether this was a `--quick` run.
    pub quick: bool,
}

impl BenchReport {
    /// The points of one case and series, ascending N.
    pub fn series(&self, case: &str, series: &str) -> Vec<&Point> {
        self.points
            .iter()
            .filter(|p| p.case == case && p.series == series)
            .collect()
    }

    /// The measured (not skipped) point of a case/series at `n`.
    pub fn at(&self, case: &str, series: &str, n: u64) -> Option<&Point> {
        self.points
            .iter()
            .find(|p| p.case == case && p.series == series && p.n == n && p.skipped.is_none())
    }

    /// The whole report as Markdown.
    pub fn markdown(&self) -> String {
        table::markdown(self)
    }

    /// The per-op cost plot as an SVG document.
    pub fn svg(&self) -> String {
        plot::svg(self)
    }
}

/// Runs the selected cases.
pub fn run(opts: &BenchOptions) -> BenchReport {
    let mut report = cases::run(opts);
    // Cases that judge their own goal pushed it already; the shared goals go first.
    let shared = cases::goals(&report, opts);
    report.goals.splice(0..0, shared);
    report
}

/// `pdtree bench`'s command-line arguments.
#[derive(Clone, Debug, clap::Args)]
pub struct BenchArgs {
    /// Largest N (sizes are half decades from 10^3).
    #[arg(long, default_value_t = 1_000_000)]
    pub max_n: u64,
    /// Write bench.svg and bench.md into this directory.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A fast smoke run: max N 10^4 unless --max-n is given, fewer repetitions, 1-s oracle budget.
    #[arg(long)]
    pub quick: bool,
    /// Cases to run (comma-separated; default all).
    #[arg(long, value_enum, value_delimiter = ',')]
    pub cases: Vec<BenchCase>,
    /// Skip oracle points predicted to take longer than this many seconds.
    #[arg(long)]
    pub oracle_budget: Option<f64>,
    /// Largest N for the register case.
    #[arg(long, default_value_t = 100_000)]
    pub max_register_n: u64,
}

/// Runs `pdtree bench`: prints the Markdown report to stdout, progress to stderr, and writes
/// `bench.svg` and `bench.md` into `--out` if given.
pub fn main(args: &BenchArgs) -> std::io::Result<()> {
    let max_n_given = std::env::args().any(|a| a.starts_with("--max-n"));
    let opts = BenchOptions {
        max_n: if args.quick && !max_n_given {
            10_000
        } else {
            args.max_n
        },
        quick: args.quick,
        cases: args.cases.clone(),
        oracle_budget: Duration::from_secs_f64(args.oracle_budget.unwrap_or(if args.quick {
            1.0
        } else {
            30.0
        })),
        max_register_n: args.max_register_n,
        progress: true,
        ..BenchOptions::default()
    };
    let report = run(&opts);
    let md = report.markdown();
    println!("{md}");
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir)?;
        std::fs::write(dir.join("bench.md"), &md)?;
        std::fs::write(dir.join("bench.svg"), report.svg())?;
        eprintln!("wrote {}/bench.md and bench.svg", dir.display());
    }
    Ok(())
}
