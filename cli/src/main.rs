//! The `pdtree` command: differential fuzzing of pdtree against its oracle, replay and
//! minimization of cases, benchmarks, and mounting a tree through FUSE.
//!
//! `cargo run --release -p pdtree-cli -- fuzz` runs the default campaign (docs/FUZZING.md);
//! `cargo run --release -p pdtree-cli -- bench --out docs` runs the benchmarks
//! (docs/PERFORMANCE.md).

mod bench;
mod bench_mount;
mod commands;
mod lincheck;
mod mount;
mod progress;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use commands::{FuzzArgs, MinimizeArgs, PrintArgs, ReplayArgs};

/// Differential fuzzing of pdtree (A) against its naive oracle (B), and benchmarks.
#[derive(Parser)]
#[command(name = "pdtree", version)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the built-in deterministic swarm fuzzing campaign.
    Fuzz(FuzzArgs),
    /// Replay scripts, transcripts or raw inputs differentially.
    Replay(ReplayArgs),
    /// Minimize a diverging case and write its report.
    Minimize(MinimizeArgs),
    /// Show a raw fuzz input as a script.
    Print(PrintArgs),
    /// Benchmark core against the oracle and bare hash maps; print Markdown tables and write
    /// an SVG plot (docs/PERFORMANCE.md).
    Bench(bench::BenchArgs),
    /// Check that SharedTree is linearizable: threads run generated programs, every
    /// history must have a sequential order the oracle accepts, and every round must leave
    /// the tree's invariants whole.
    Lincheck(lincheck::LincheckArgs),
    /// Mount a tree (empty, or a demo /proc) through FUSE and serve it until interrupted.
    Mount(mount::MountArgs),
    /// Benchmark real clients (`ls -f`, `ls -la`) through pdtree-fuse against tmpfs, and
    /// tables registered while mounted (needs root and /dev/fuse).
    BenchMount(bench_mount::BenchMountArgs),
}

fn main() -> ExitCode {
    match Cli::parse().cmd {
        Cmd::Fuzz(a) => a.run(),
        Cmd::Replay(a) => a.run(),
        Cmd::Minimize(a) => a.run(),
        Cmd::Print(a) => a.run(),
        Cmd::Lincheck(a) => a.run(),
        Cmd::Mount(a) => a.run(),
        Cmd::BenchMount(a) => a.run(),
        Cmd::Bench(a) => match bench::main(&a) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pdtree bench: {e}");
                ExitCode::FAILURE
            }
        },
    }
}
