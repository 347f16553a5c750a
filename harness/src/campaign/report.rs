//! Report directories: one per unique divergence signature.
//!
//! `<root>/<slug>-<hash>/` holds
//!
//! * `report.md` — what diverged, the minimized script, both outcomes, the invariant, the dump
//!   diff, and the exact commands to reproduce it and to keep it as a regression test;
//! * `repro.ops` — the minimized script (with its `limits` line) that
//!   `cargo run --release -p pdtree-cli -- replay <dir>/repro.ops` runs differentially;
//! * `input.bin` — the raw fuzz input it came from, when there is one (`replay` and `print`
//!   accept it too).
//!
//! The directory name depends only on the signature, so the same bug found twice lands in the
//! same place.
//!
//! ```
//! use pdtree_harness::campaign::report::dir_name;
//! assert_eq!(dir_name("remove outcome: ok vs err ENOTEMPTY"), dir_name("remove outcome: ok vs err ENOTEMPTY"));
//! assert!(dir_name("remove outcome: ok vs err ENOTEMPTY").starts_with("remove-outcome-ok-vs-err-enotempty-"));
//! ```

use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

use pdtree::Limits;

use crate::check::divergence::{fnv1a, Divergence};
use crate::lang::op::Op;
use crate::lang::script::{print_script, Script, Stmt};

/// The directory name for a signature: a lowercase slug (at most 60 bytes) and 8 hex digits of
/// its hash.
pub fn dir_name(signature: &str) -> String {
    let mut slug = String::new();
    for c in signature.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
        if slug.len() >= 60 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    format!("{slug}-{:08x}", fnv1a(signature.as_bytes()) as u32)
}

/// The `repro.ops` text: a comment with the signature, the `limits` line, the ops.
///
/// ```
/// use pdtree_harness::{campaign::report::repro_script, Op};
/// let s = repro_script(pdtree::Limits::default(), &[Op::Stats], "stats outcome: x");
/// assert!(s.starts_with("# signature: stats outcome: x\nlimits max_entries="));
/// assert!(s.ends_with("\nstats\n"));
/// ```
pub fn repro_script(limits: Limits, ops: &[Op], signature: &str) -> String {
    let script = Script {
        limits: Some(limits),
        stmts: ops.iter().cloned().map(Stmt::Op).collect(),
    };
    let sig: String = signature.chars().filter(|c| *c != '\n').collect();
    format!("# signature: {sig}\n{}", print_script(&script))
}

/// Everything a report is made of.
pub struct Report<'a> {
    /// The limits of the (minimized) case.
    pub limits: Limits,
    /// The minimized ops.
    pub ops: &'a [Op],
    /// The divergence of the minimized ops.
    pub divergence: &'a Divergence,
    /// Where it came from, e.g. `campaign seed 1, iteration 42 (3 of 117 ops kept)`.
    pub origin: String,
    /// The raw fuzz input, if any.
    pub input: Option<&'a [u8]>,
    /// How this target's cases are fuzzed and replayed, for the commands the report shows.
    pub commands: Commands,
}

/// The commands that fuzz and replay cases of one target, shown in reports and summaries.
///
/// ```
/// let c = pdtree_harness::campaign::report::Commands::default();
/// assert_eq!(c.replay, "cargo run --release -p pdtree-cli -- replay");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Commands {
    /// The fuzzing command without its seed and length options (`pdtree fuzz`, `pdtree fuzz
    /// --target /x`).
    pub fuzz: String,
    /// The command that replays a case given after it.
    pub replay: String,
}

impl Default for Commands {
    /// Core, through the `pdtree` command.
    fn default() -> Self {
        Commands {
            fuzz: "pdtree fuzz".into(),
            replay: "cargo run --release -p pdtree-cli -- replay".into(),
        }
    }
}

/// The `report.md` text for `case`, whose directory is `dir`.
pub fn report_markdown(case: &Report<'_>, dir: &Path) -> String {
    let d = case.divergence;
    let repro = dir.join("repro.ops");
    let mut s = String::new();
    let _ = writeln!(s, "# pdtree divergence: `{}`\n", d.signature());
    let _ = writeln!(s, "Found by: {}.\n", case.origin);
    let _ = writeln!(
        s,
        "A is the implementation under test, B the reference (the oracle).\n"
    );
    let _ = writeln!(s, "{d}");
    let _ = writeln!(s, "## Minimized script ({} ops)\n", case.ops.len());
    let _ = writeln!(
        s,
        "```\n{}```\n",
        repro_script(case.limits, case.ops, &d.signature())
    );
    let _ = writeln!(s, "## Reproduce\n");
    let _ = writeln!(
        s,
        "```sh\n{} --verbose {}\n```\n",
        case.commands.replay,
        repro.display()
    );
    if case.input.is_some() {
        let _ = writeln!(
            s,
            "The raw fuzz input is `{0}`: `{1} {0}` re-runs it unminimized, and \
             `cargo run --release -p pdtree-cli -- print {0}` shows it as a script.\n",
            dir.join("input.bin").display(),
            case.commands.replay
        );
    }
    let _ = writeln!(s, "## Keep it as a regression test\n");
    let _ = writeln!(
        s,
        "Once the bug is fixed, copy the script into the regression corpus; \
         `cargo test -p pdtree-cli --test regressions` replays every script there \
         differentially and fails on any divergence:\n"
    );
    let _ = writeln!(
        s,
        "```sh\ncp {} corpus/regressions/{}.ops\n```",
        repro.display(),
        dir.file_name().and_then(|n| n.to_str()).unwrap_or("case")
    );
    s
}

/// Writes `report.md`, `repro.ops` (and `input.bin`) under `root/<dir_name>`; returns the
/// directory.
pub fn write_report(root: &Path, case: &Report<'_>) -> io::Result<PathBuf> {
    let dir = root.join(dir_name(&case.divergence.signature()));
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("repro.ops"),
        repro_script(case.limits, case.ops, &case.divergence.signature()),
    )?;
    std::fs::write(dir.join("report.md"), report_markdown(case, &dir))?;
    if let Some(input) = case.input {
        std::fs::write(dir.join("input.bin"), input)?;
    }
    Ok(dir)
}
