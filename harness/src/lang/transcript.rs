//! Golden transcripts: a script whose every statement is followed by its expected outcome.
//!
//! ## Format
//!
//! A transcript is a [script](crate::lang::script) with two more kinds of line:
//!
//! * `=> TEXT` — right after a statement (comments and blank lines may come between): the
//!   expected [`Outcome`](crate::Outcome) text of that statement, exactly. Every statement
//!   has exactly one. `limits` has none.
//! * `| TEXT` (or a bare `|` for an empty line) — right after a `=>` line or another `|`
//!   line: a further line of the same expected outcome (how a `dump` is written).
//!
//! A `repeat` has one `=>` line, its summary `repeat ok=N err=M[; first err #I: …][; last: …]`,
//! so 5,000 iterations take one line. Expected texts are written by hand from
//! `docs/SEMANTICS.md`; nothing regenerates them.
//!
//! ```text
//! # SEMANTICS §4: the name is taken -> EEXIST
//! mkdir "/a"
//! => ok 2
//! mkdir "/a"
//! => err EEXIST
//! dump
//! => dump
//! | entry / dir ino=1 nlink=3 size=1 owner=explicit hrefs=0 perm=1 open=0
//! ```
//!
//! ```
//! use pdtree_harness::lang::transcript::parse_transcript;
//! let t = parse_transcript(b"limits max_readdir=4\nstats # how many\n=> ok stats live=1 allocated=1 headers=0 handles=0\n").unwrap();
//! assert_eq!(t.limits.unwrap().max_readdir, 4);
//! assert_eq!(t.steps[0].line, 2);
//! assert_eq!(t.steps[0].expected, "ok stats live=1 allocated=1 headers=0 handles=0");
//! ```

use std::fmt;

use pdtree::{Limits, PseudoFs};

use crate::lang::runner::Runner;
use crate::lang::script::{lines, parse_line, Line, ParseError, Stmt};

/// One statement of a transcript with its expected outcome.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The 1-based line of the statement.
    pub line: usize,
    /// The statement.
    pub stmt: Stmt,
    /// The expected outcome text: the `=> ` line's text, then each `|` line verbatim (`|`
    /// included), joined with `\n`, no trailing newline — exactly the outcome's `Display`.
    pub expected: String,
}

/// A parsed transcript.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Transcript {
    /// The `limits` directive, if any.
    pub limits: Option<Limits>,
    /// The statements with their expected outcomes.
    pub steps: Vec<Step>,
}

/// Parses a transcript. Never panics, whatever the bytes.
///
/// ```
/// use pdtree_harness::lang::transcript::parse_transcript;
/// let e = parse_transcript(b"mkdir \"/a\"\nmkdir \"/b\"\n=> ok 3\n").unwrap_err();
/// assert_eq!(e.to_string(), "line 2, column 1: expected `=> ` with the outcome of line 1, found `mkdir`");
/// ```
pub fn parse_transcript(input: &[u8]) -> Result<Transcript, ParseError> {
    let mut t = Transcript::default();
    // The step still waiting for its `=>` line, and whether the last step may take `|` lines.
    let mut pending: Option<(usize, Stmt)> = None;
    let mut continuing = false;
    let perr = |line, message: String| ParseError {
        line,
        column: 1,
        message,
    };
    for (n, raw) in lines(input) {
        if let Some(rest) = raw.strip_prefix(b"=>") {
            let Some((line, stmt)) = pending.take() else {
                return Err(perr(n, "found `=>` with no statement before it".into()));
            };
            let text = rest.strip_prefix(b" ").unwrap_or(rest);
            t.steps.push(Step {
                line,
                stmt,
                expected: String::from_utf8_lossy(text).into_owned(),
            });
            continuing = true;
            continue;
        }
        if raw.starts_with(b"|") {
            if !continuing {
                return Err(perr(n, "found `|` not following a `=>` line".into()));
            }
            let Some(step) = t.steps.last_mut() else {
                return Err(perr(n, "found `|` not following a `=>` line".into()));
            };
            step.expected.push('\n');
            step.expected.push_str(&String::from_utf8_lossy(raw));
            continue;
        }
        continuing = false;
        let item = parse_line(raw, n)?;
        match (item, &pending) {
            (None, _) => {}
            (Some(_), Some((line, _))) => {
                let found =
                    String::from_utf8_lossy(raw.split(|&b| b == b' ').next().unwrap_or(b""))
                        .chars()
                        .take(40)
                        .collect::<String>();
                return Err(perr(
                    n,
                    format!("expected `=> ` with the outcome of line {line}, found `{found}`"),
                ));
            }
            (Some(Line::Limits(l)), None) => {
                if t.limits.is_some() || !t.steps.is_empty() {
                    return Err(perr(
                        n,
                        "`limits` must be the first statement and appear once".into(),
                    ));
                }
                t.limits = Some(l);
            }
            (Some(Line::Stmt(s)), None) => pending = Some((n, s)),
        }
    }
    if let Some((line, _)) = pending {
        return Err(perr(
            line,
            "this statement has no `=> ` outcome line after it".into(),
        ));
    }
    Ok(t)
}

/// A step whose outcome differed from the transcript.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Mismatch {
    /// The statement's line.
    pub line: usize,
    /// The statement, printed canonically.
    pub stmt: String,
    /// The expected outcome text.
    pub expected: String,
    /// What the implementation produced.
    pub got: String,
}

/// A long statement (a 4,000-byte path) shortened for reports.
fn shorten(s: &str) -> String {
    const MAX: usize = 160;
    match s.char_indices().nth(MAX) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes)", &s[..cut], s.len()),
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let indent = |s: &str| s.replace('\n', "\n              ");
        write!(
            f,
            "line {}: {}\n    expected: {}\n    got:      {}",
            self.line,
            shorten(&self.stmt),
            indent(&self.expected),
            indent(&self.got)
        )?;
        if self.expected.contains('\n') || self.got.contains('\n') {
            let (mut e, mut g) = (self.expected.lines(), self.got.lines());
            for k in 1.. {
                match (e.next(), g.next()) {
                    (None, None) => break,
                    (a, b) if a == b => {}
                    (a, b) => {
                        write!(
                            f,
                            "\n    first difference, outcome line {k}:\n      expected: {}\n      got:      {}",
                            a.unwrap_or("(nothing)"),
                            b.unwrap_or("(nothing)")
                        )?;
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Options for [`run_transcript`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RunOptions {
    /// Run `check_invariants` after every statement; a violation is reported as a mismatch
    /// (expected `ok` from the implicit check, got `violation …`).
    pub check_invariants: bool,
    /// After every failed single op (not `repeat`), compare the dump before and after
    /// (SEMANTICS §8.8, atomicity); a difference is reported as a mismatch.
    pub check_atomicity: bool,
    /// Stop at the first mismatch (later steps usually only cascade).
    pub stop_at_first: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            check_invariants: true,
            check_atomicity: true,
            stop_at_first: true,
        }
    }
}

/// Runs a transcript on a fresh `T` and returns every mismatch (empty when it conforms).
pub fn run_transcript<T: PseudoFs>(t: &Transcript, opts: RunOptions) -> Vec<Mismatch> {
    let mut r: Runner<T> = Runner::new(t.limits.unwrap_or_default());
    let mut out = Vec::new();
    for step in &t.steps {
        let atomic = opts.check_atomicity && matches!(step.stmt, Stmt::Op(_));
        let before = atomic.then(|| r.tree().dump());
        let got = r.run_stmt(&step.stmt);
        let got_text = got.to_string();
        let mut bad = false;
        if got_text != step.expected {
            bad = true;
            out.push(Mismatch {
                line: step.line,
                stmt: step.stmt.to_string(),
                expected: step.expected.clone(),
                got: got_text,
            });
        }
        if let (Some(before), true) = (before, got.is_failure()) {
            let after = r.tree().dump();
            if before != after {
                bad = true;
                out.push(Mismatch {
                    line: step.line,
                    stmt: format!(
                        "{} (atomicity: dump before vs after the failure)",
                        step.stmt
                    ),
                    expected: before,
                    got: after,
                });
            }
        }
        if opts.check_invariants {
            if let Err(v) = r.tree().check_invariants() {
                bad = true;
                out.push(Mismatch {
                    line: step.line,
                    stmt: format!("{} (then check_invariants)", step.stmt),
                    expected: "ok".into(),
                    got: v.to_string(),
                });
            }
        }
        if bad && opts.stop_at_first {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors() {
        let e = |s: &str| parse_transcript(s.as_bytes()).unwrap_err().to_string();
        assert_eq!(
            e("=> ok"),
            "line 1, column 1: found `=>` with no statement before it"
        );
        assert_eq!(
            e("| x"),
            "line 1, column 1: found `|` not following a `=>` line"
        );
        assert_eq!(
            e("stats\n=> ok\n\n| x"),
            "line 4, column 1: found `|` not following a `=>` line"
        );
        assert_eq!(
            e("# c\nstats\n"),
            "line 2, column 1: this statement has no `=> ` outcome line after it"
        );
        assert_eq!(
            e("stats x\n=> ok"),
            "line 1, column 7: expected end of line, found `x`"
        );
    }

    #[test]
    fn multi_line_expectations() {
        let t = parse_transcript(b"dump\n# between\n=> dump\n| a b\n|\n| c\nstats\n=> ok stats")
            .unwrap();
        assert_eq!(t.steps.len(), 2);
        assert_eq!(t.steps[0].expected, "dump\n| a b\n|\n| c");
        assert_eq!(t.steps[1].line, 7);
    }
}
