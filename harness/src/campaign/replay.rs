//! Loading cases from files (scripts, transcripts, raw fuzz inputs) and replaying them
//! differentially with a trace.
//!
//! ```
//! use pdtree::{PseudoFs, Tree};
//! use pdtree_harness::campaign::replay::{load_bytes, trace};
//! let case = load_bytes("x.ops", b"limits max_entries=2\nmkdir \"/a\"\nmkdir \"/b\"\n").unwrap();
//! let (text, result) = trace(case.limits, &case.ops, &|l| Tree::with_limits(l));
//! assert!(result.is_ok());
//! assert!(text.contains("#1 mkdir \"/b\"\n   => err ENOSPC\n"));
//! ```

use std::fmt::Write as _;
use std::path::Path;

use pdtree::{Limits, PseudoFs};
use pdtree_oracle::Oracle;

use crate::check::diff::{DiffRunner, RunSummary};
use crate::check::divergence::Divergence;
use crate::gen::{ops_from_bytes_in, Profile};
use crate::lang::op::Op;
use crate::lang::script::{parse_script, Stmt};
use crate::lang::transcript::parse_transcript;

/// A case to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// Its limits.
    pub limits: Limits,
    /// Its ops, `repeat` statements expanded.
    pub ops: Vec<Op>,
    /// The raw fuzz input, when the file was one.
    pub input: Option<Vec<u8>>,
}

fn expand(stmts: impl IntoIterator<Item = Stmt>) -> Vec<Op> {
    let mut ops = Vec::new();
    for st in stmts {
        match st {
            Stmt::Op(op) => ops.push(op),
            Stmt::Repeat { count, op } => ops.extend((0..count).map(|i| op.expand(i))),
        }
    }
    ops
}

/// Interprets `bytes` by the file name: `*.ops` is a script, `*.t` a transcript (its expected
/// outcomes are ignored: the replay is differential), anything else a raw fuzz input.
/// Errors are `name:line:column: message`.
pub fn load_bytes(name: &str, bytes: &[u8]) -> Result<Loaded, String> {
    load_bytes_in(name, bytes, Profile::FULL)
}

/// [`load_bytes`], a raw fuzz input generated for a target with `profile`.
pub fn load_bytes_in(name: &str, bytes: &[u8], profile: Profile) -> Result<Loaded, String> {
    let at = |e: crate::lang::script::ParseError| {
        format!("{name}:{}:{}: {}", e.line, e.column, e.message)
    };
    if name.ends_with(".ops") {
        let s = parse_script(bytes).map_err(at)?;
        Ok(Loaded {
            limits: s.limits.unwrap_or_default(),
            ops: expand(s.stmts),
            input: None,
        })
    } else if name.ends_with(".t") {
        let t = parse_transcript(bytes).map_err(at)?;
        Ok(Loaded {
            limits: t.limits.unwrap_or_default(),
            ops: expand(t.steps.into_iter().map(|s| s.stmt)),
            input: None,
        })
    } else {
        let (limits, ops) = ops_from_bytes_in(bytes, profile);
        Ok(Loaded {
            limits,
            ops,
            input: Some(bytes.to_vec()),
        })
    }
}

/// Reads and interprets a file (see [`load_bytes`]).
pub fn load(path: &Path) -> Result<Loaded, String> {
    load_in(path, Profile::FULL)
}

/// [`load`] for a target with `profile`.
pub fn load_in(path: &Path, profile: Profile) -> Result<Loaded, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    load_bytes_in(&path.display().to_string(), &bytes, profile)
}

/// Runs `ops` differentially (A from `make_a`, B the oracle) and returns a trace — every op
/// and its common outcome, or the divergence — with the result.
pub fn trace<A: PseudoFs>(
    limits: Limits,
    ops: &[Op],
    make_a: &dyn Fn(Limits) -> A,
) -> (String, Result<RunSummary, Divergence>) {
    let mut out = String::new();
    let mut d = DiffRunner::new(limits, make_a(limits), Oracle::with_limits(limits));
    for (i, op) in ops.iter().enumerate() {
        let _ = writeln!(out, "#{i} {op}");
        match d.step(op) {
            Ok(o) => {
                let text = o.to_string().replace('\n', "\n   ");
                let _ = writeln!(out, "   => {text}");
            }
            Err(div) => {
                let _ = writeln!(
                    out,
                    "   => A: {}\n   => B: {}\n\n{div}",
                    div.outcome_a, div.outcome_b
                );
                return (out, Err(div));
            }
        }
    }
    let r = d.finish();
    match &r {
        Ok(s) => {
            let _ = writeln!(
                out,
                "end: dumps equal, {} ops, {} ok",
                s.stats.ops, s.stats.ok
            );
        }
        Err(div) => {
            let _ = writeln!(out, "end:\n\n{div}");
        }
    }
    (out, r)
}
