//! The `pdtree` command-line tool.

use clap::{Parser, Subcommand};
use pdtree_harness::bench;

// Counts allocations so `pdtree bench` can report bytes per entry (off unless measuring).
pdtree_harness::counting_global_allocator!();

#[derive(Parser)]
#[command(name = "pdtree", version, about = "pdtree tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Benchmarks core against the oracle and bare hash maps; prints Markdown tables and
    /// writes an SVG plot (issue 4).
    Bench(bench::BenchArgs),
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Bench(args) => bench::main(args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pdtree: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
