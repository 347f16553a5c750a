//! The `pdtree` command's subcommands (`fuzz`, `replay`, `minimize`, `print`), each a clap
//! `Args` struct with a `run` method, so `main.rs` stays a small dispatcher.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use pdtree::Limits;

use pdtree_harness::campaign::replay::{load_in, trace};
use pdtree_harness::campaign::report::{repro_script, write_report, Commands, Report};
use pdtree_harness::campaign::{self, CampaignConfig};
use pdtree_harness::check::faults::{Fault, Faulty};
use pdtree_harness::gen::Profile;
use pdtree_harness::shrink::{self, minimize_case_within, Budget};
use pdtree_harness::target::{set_op_timeout, watch, RealDir, Watched, GONE_EXIT_CODE};
use pdtree_harness::{print_script, run_ops, Script, Stmt};

use crate::progress::{CampaignBar, MinimizeBar};

/// Where reports go unless `--report-dir` says otherwise.
pub const DEFAULT_REPORT_DIR: &str = "target/pdtree-reports";

/// Which implementation is A (under test).
#[derive(Args, Clone, Debug, Default)]
pub struct Target {
    /// Test core with one planted bug instead of core itself (for checking the harness).
    #[arg(long, value_parser = fault_parser(), conflicts_with = "target")]
    pub fault: Option<Fault>,
    /// Test a real directory instead of core: each input runs in a fresh subdirectory of DIR
    /// (any mounted filesystem: tmpfs, ext4, a FUSE mount), through syscalls, under the
    /// posix-linux profile (docs/FUZZING.md, "Real filesystems").
    #[arg(long, value_name = "DIR")]
    pub target: Option<PathBuf>,
    /// What the --target is: posix-linux (default: a kernel filesystem) or pseudo-linux (a
    /// pseudo-filesystem such as pdtree-fuse: files created empty, no write(2), and a read of
    /// a removed open file may be ENOENT).
    #[arg(long, requires = "target", value_parser = profile_parser())]
    pub profile: Option<Profile>,
    /// Seconds one op on the --target may take; past it the run stops with exit status 3 and
    /// names the op (a hung target, e.g. a stopped FUSE server, is a finding).
    #[arg(
        long,
        requires = "target",
        default_value_t = 10.0,
        value_name = "SECONDS"
    )]
    pub op_timeout: f64,
}

/// `--profile NAME`: the real-directory profiles.
fn profile_parser() -> impl TypedValueParser<Value = Profile> {
    let names = [Profile::POSIX.name, Profile::PSEUDO.name];
    PossibleValuesParser::new(names.map(PossibleValue::new))
        .try_map(|name| Profile::by_name(&name).ok_or("unknown profile"))
}

impl Target {
    /// The commands that fuzz and replay this target, for reports.
    pub fn commands(&self) -> Commands {
        let args = self.args();
        Commands {
            fuzz: format!("pdtree fuzz{args}"),
            replay: format!("cargo run --release -p pdtree-cli -- replay{args}"),
        }
    }

    /// The arguments that select this target again.
    fn args(&self) -> String {
        match (&self.target, self.fault) {
            (Some(dir), _) => match self.profile {
                Some(p) => format!(" --target {} --profile {}", dir.display(), p.name),
                None => format!(" --target {}", dir.display()),
            },
            (None, Some(f)) => format!(" --fault {}", f.name()),
            (None, None) => String::new(),
        }
    }

    /// What the target supports.
    pub fn profile(&self) -> Profile {
        match (&self.target, self.profile) {
            (Some(_), Some(p)) => p,
            (Some(_), None) => Profile::POSIX,
            (None, _) => Profile::FULL,
        }
    }
}

/// `--fault NAME`: the names of [`Fault::ALL`], listed by `--help`.
fn fault_parser() -> impl TypedValueParser<Value = Fault> {
    PossibleValuesParser::new(Fault::ALL.map(|f| PossibleValue::new(f.name())))
        .try_map(|name| Fault::from_name(&name).ok_or("unknown fault"))
}

/// A --target that cannot take a new sandbox any more (a FUSE server that died answers
/// ENOTCONN): a finding that no op can be minimized on, so the run stops here with exit
/// status [`GONE_EXIT_CODE`].
fn target_gone(dir: &str, e: &std::io::Error) -> ! {
    eprintln!("pdtree: the target is gone: cannot make a sandbox in {dir}: {e}; stopping");
    std::process::exit(GONE_EXIT_CODE)
}

/// Calls `$body` with `$make` bound to the target's constructor (core, or core with a fault).
macro_rules! with_target {
    ($target:expr, |$make:ident| $body:expr) => {
        match (&$target.target, $target.fault) {
            (Some(dir), _) => {
                let (dir, profile) = (dir.clone(), $target.profile());
                set_op_timeout(Duration::from_secs_f64($target.op_timeout.max(0.001)));
                let $make = move |l: Limits| {
                    let label = dir.display().to_string();
                    let t = watch(&label, "making a sandbox", || {
                        RealDir::new_in(&dir, profile, l)
                    })
                    .unwrap_or_else(|e| target_gone(&label, &e));
                    let label = t.sandbox().display().to_string();
                    Watched::new(t, label)
                };
                $body
            }
            (None, None) => {
                let $make = |l: Limits| pdtree_harness::core_tree(l);
                $body
            }
            (None, Some(f)) => {
                let $make = move |l: Limits| Faulty::new(pdtree_harness::core_tree(l), f);
                $body
            }
        }
    };
}

/// `pdtree fuzz`: the built-in deterministic swarm campaign against the oracle.
#[derive(Args, Clone, Debug)]
pub struct FuzzArgs {
    /// The master seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Stop after this many iterations (default 20000 when --time is not given either).
    #[arg(long)]
    pub iterations: Option<u64>,
    /// Stop after this many seconds: inputs still running are given up (but those before
    /// a found divergence run to their end).
    #[arg(long)]
    pub time: Option<u64>,
    /// Worker threads (default: the number of cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The longest input in bytes.
    #[arg(long, default_value_t = 4096)]
    pub max_len: usize,
    /// Where to write the report directory of a divergence.
    #[arg(long, default_value = DEFAULT_REPORT_DIR)]
    pub report_dir: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Report the first divergence unminimized.
    #[arg(long)]
    pub no_minimize: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub budget: MinimizeBudget,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
}

/// What a minimization may spend (`pdtree fuzz` and `pdtree minimize`).
#[derive(Args, Clone, Copy, Debug)]
pub struct MinimizeBudget {
    /// The most work units one minimization may spend: a trial costs, for each op, its own
    /// size plus the entries made before it (a case with a 2^16-file bulk: about 2 million
    /// per trial). Counted, not timed, so a minimization ends at the same step everywhere;
    /// the summary says when it stopped it.
    #[arg(long, default_value_t = shrink::DEFAULT_WORK)]
    pub minimize_work: u64,
    /// The most trial runs one minimization may spend.
    #[arg(long, default_value_t = shrink::MAX_TRIALS)]
    pub minimize_trials: usize,
}

impl MinimizeBudget {
    fn budget(self) -> Budget {
        Budget {
            trials: self.minimize_trials,
            work: self.minimize_work,
        }
    }
}

impl FuzzArgs {
    /// Runs the campaign; prints the deterministic summary on stdout and the timings on
    /// stderr. Exit code 1 on a divergence.
    pub fn run(self) -> ExitCode {
        let cfg = CampaignConfig {
            seed: self.seed,
            iterations: self.iterations,
            time: self.time.map(Duration::from_secs),
            jobs: self
                .jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
            report_dir: Some(self.report_dir.clone()),
            max_len: self.max_len,
            minimize: !self.no_minimize,
            minimize_budget: self.budget.budget(),
            profile: self.target.profile(),
            commands: self.target.commands(),
        };
        let bar_len = cfg
            .iterations
            .or(cfg.time.is_none().then_some(campaign::DEFAULT_ITERATIONS));
        let bar = CampaignBar::new(!self.no_progress, bar_len);
        let r = with_target!(self.target, |make| {
            campaign::run_with_progress(&cfg, &make, &|p| bar.update(p))
        });
        bar.finish();
        print!("{}", r.summary());
        eprintln!("{}", r.timing_line());
        if r.found.is_some() {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// `pdtree replay`: runs cases differentially.
#[derive(Args, Clone, Debug)]
pub struct ReplayArgs {
    /// Scripts (`*.ops`), transcripts (`*.t`, expected outcomes ignored) or raw fuzz inputs.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print every op and its outcome.
    #[arg(long, short)]
    pub verbose: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
}

impl ReplayArgs {
    /// Replays each file; exit code 1 if any diverged or could not be read.
    pub fn run(self) -> ExitCode {
        let mut bad = 0;
        for f in &self.files {
            let case = match load_in(f, self.target.profile()) {
                Ok(c) => c,
                Err(e) => {
                    eprintln!("error: {e}");
                    bad += 1;
                    continue;
                }
            };
            let (text, result) =
                with_target!(self.target, |make| trace(case.limits, &case.ops, &make));
            if self.verbose {
                println!("== {}", f.display());
                print!("{text}");
            }
            match result {
                Ok(s) => println!(
                    "{}: ok ({} ops, {} succeeded)",
                    f.display(),
                    s.stats.ops,
                    s.stats.ok
                ),
                Err(d) => {
                    bad += 1;
                    println!("{}: DIVERGENCE `{}`", f.display(), d.signature());
                    if !self.verbose {
                        println!("\n{d}");
                    }
                }
            }
        }
        if bad > 0 {
            ExitCode::FAILURE
        } else {
            ExitCode::SUCCESS
        }
    }
}

/// `pdtree minimize`: shrinks a diverging case and writes its report.
#[derive(Args, Clone, Debug)]
pub struct MinimizeArgs {
    /// A script, transcript or raw fuzz input that diverges.
    pub file: PathBuf,
    /// Where to write the report directory.
    #[arg(long, default_value = DEFAULT_REPORT_DIR)]
    pub report_dir: PathBuf,
    /// No progress line on stderr.
    #[arg(long)]
    pub no_progress: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub budget: MinimizeBudget,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub target: Target,
}

impl MinimizeArgs {
    /// Prints the minimized script on stdout and writes the report. Exit code 1 when the case
    /// does not diverge or cannot be read.
    pub fn run(self) -> ExitCode {
        let case = match load_in(&self.file, self.target.profile()) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        with_target!(self.target, |make| {
            let Err(d) = run_ops(case.limits, &case.ops, &make) else {
                eprintln!(
                    "{}: no divergence, nothing to minimize",
                    self.file.display()
                );
                return ExitCode::FAILURE;
            };
            let budget = self.budget.budget();
            let bar = MinimizeBar::new(!self.no_progress, budget);
            let m = minimize_case_within(case.limits, &case.ops, &d, &make, budget, &|s| {
                bar.update(s)
            });
            bar.finish();
            let (limits, ops) = (m.limits, m.ops);
            if m.spent.exhausted {
                eprintln!("minimization: {}", m.spent.describe(budget));
            }
            let md = run_ops(limits, &ops, &make).err().unwrap_or(d);
            print!("{}", repro_script(limits, &ops, &md.signature()));
            let c = Report {
                commands: self.target.commands(),
                limits,
                ops: &ops,
                divergence: &md,
                origin: format!(
                    "`pdtree minimize {}` ({} of {} ops kept; {})",
                    self.file.display(),
                    ops.len(),
                    case.ops.len(),
                    m.spent.describe(budget)
                ),
                input: case.input.as_deref(),
            };
            match write_report(&self.report_dir, &c) {
                Ok(dir) => eprintln!("report: {}", dir.join("report.md").display()),
                Err(e) => eprintln!("error: cannot write the report: {e}"),
            }
            ExitCode::SUCCESS
        })
    }
}

/// `pdtree print`: shows a raw fuzz input as a script (like `cargo fuzz fmt`).
#[derive(Args, Clone, Debug)]
pub struct PrintArgs {
    /// The raw fuzz input.
    pub input: PathBuf,
}

impl PrintArgs {
    /// Prints the script, `limits` line included.
    pub fn run(self) -> ExitCode {
        let bytes = match std::fs::read(&self.input) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", self.input.display());
                return ExitCode::FAILURE;
            }
        };
        let (limits, ops) = pdtree_harness::ops_from_bytes(&bytes);
        let script = Script {
            limits: Some(limits),
            stmts: ops.into_iter().map(Stmt::Op).collect(),
        };
        print!("{}", print_script(&script));
        ExitCode::SUCCESS
    }
}
