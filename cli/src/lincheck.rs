//! `pdtree lincheck`: the linearizability checker against `SharedTree` (or one with a planted
//! race), with progress on stderr and the report of the first non-linearizable history.

use std::process::ExitCode;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::Args;
use pdtree::{Race, SharedTree};
use pdtree_harness::core_tree;
use pdtree_harness::lincheck::{check_with_progress, LinConfig, MAX_THREADS};

/// `pdtree lincheck`'s arguments.
#[derive(Args, Clone, Debug)]
pub struct LincheckArgs {
    /// The first program's seed (program i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Programs to generate.
    #[arg(long, default_value_t = 200)]
    pub programs: u64,
    /// Runs of each program with fresh threads.
    #[arg(long, default_value_t = 200)]
    pub rounds: u64,
    /// Threads per program (2 to 4).
    #[arg(long, default_value_t = 3)]
    pub threads: usize,
    /// Ops per thread.
    #[arg(long, default_value_t = 5)]
    pub ops: usize,
    /// Check a SharedTree with this planted race instead (for checking the checker).
    #[arg(long, value_parser = race_parser())]
    pub race: Option<Race>,
    /// Report the history as found, without minimizing it.
    #[arg(long)]
    pub no_minimize: bool,
}

fn race_parser() -> impl TypedValueParser<Value = Race> {
    PossibleValuesParser::new(Race::ALL.map(|r| PossibleValue::new(r.name()))).try_map(|name| {
        Race::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or("unknown race")
    })
}

impl LincheckArgs {
    /// Runs the check: exit 0 if every history was linearizable and every round left the
    /// tree's invariants whole, 1 with the report if one did not, 2 on bad arguments.
    pub fn run(&self) -> ExitCode {
        if !(2..=MAX_THREADS).contains(&self.threads) || self.threads * self.ops > 128 {
            eprintln!(
                "pdtree lincheck: --threads must be 2..={MAX_THREADS} and threads × ops ≤ 128"
            );
            return ExitCode::from(2);
        }
        let cfg = LinConfig {
            seed: self.seed,
            programs: self.programs,
            rounds: self.rounds,
            threads: self.threads,
            ops_per_thread: self.ops,
            minimize: !self.no_minimize,
        };
        let what = self.race.map_or("SharedTree".to_string(), |r| {
            format!("SharedTree with race {}", r.name())
        });
        eprintln!(
            "pdtree lincheck: {what}: {} programs from seed {} × {} rounds, {} threads × {} ops",
            cfg.programs, cfg.seed, cfg.rounds, cfg.threads, cfg.ops_per_thread
        );
        let started = std::time::Instant::now();
        let step = (cfg.programs / 10).max(1);
        let mut done = |n: u64| {
            if n % step == 0 {
                let secs = started.elapsed().as_secs_f64();
                eprintln!(
                    "pdtree lincheck: {n}/{} programs linearizable ({secs:.1} s)",
                    cfg.programs
                );
            }
        };
        let found = match self.race {
            Some(r) => {
                check_with_progress(&cfg, &|l| SharedTree::with_race(core_tree(l), r), &mut done)
            }
            None => check_with_progress(&cfg, &|l| SharedTree::new(core_tree(l)), &mut done),
        };
        let secs = started.elapsed().as_secs_f64();
        match found {
            Some(report) => {
                println!("{report}");
                eprintln!("pdtree lincheck: a history was not accepted ({secs:.1} s)");
                ExitCode::FAILURE
            }
            None => {
                eprintln!(
                    "pdtree lincheck: every history was linearizable and left the tree whole \
                     ({secs:.1} s)"
                );
                ExitCode::SUCCESS
            }
        }
    }
}
