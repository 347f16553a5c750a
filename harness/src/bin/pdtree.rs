//! The `pdtree` command: differential fuzzing of pdtree against its oracle.
//!
//! `cargo run --release -p pdtree-harness -- fuzz` runs the default campaign; see
//! `docs/FUZZING.md`.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use pdtree_harness::cli::{FuzzArgs, MinimizeArgs, PrintArgs, ReplayArgs};

/// Differential fuzzing of pdtree (A) against its naive oracle (B).
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
}

fn main() -> ExitCode {
    match Cli::parse().cmd {
        Cmd::Fuzz(a) => a.run(),
        Cmd::Replay(a) => a.run(),
        Cmd::Minimize(a) => a.run(),
        Cmd::Print(a) => a.run(),
    }
}
