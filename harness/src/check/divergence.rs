//! What a failed check reports: a [`Divergence`], its [`DivergenceKind`] and the stable
//! [signature](Divergence::signature) the minimizer holds fixed.

use std::fmt;

use pdtree::{Ino, InvariantViolation, Stats, View};

use crate::check::panic::Caught;
use crate::lang::runner::Outcome;

/// Which implementation something happened on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The implementation under test.
    A,
    /// The reference (normally the oracle).
    B,
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::A => "A",
            Side::B => "B",
        })
    }
}

/// Which rule of the SPEC §5 readdir guarantee broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ReaddirRule {
    /// A page returned an inode not above everything the scan returned before.
    Ascending,
    /// An inode came back a second time in one scan.
    Twice,
    /// An entry was returned after its removal, or was never a child.
    Removed,
    /// The scan ended without an entry that was present for the whole scan.
    Missing,
}

impl fmt::Display for ReaddirRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ReaddirRule::Ascending => "ascending",
            ReaddirRule::Twice => "twice",
            ReaddirRule::Removed => "removed",
            ReaddirRule::Missing => "missing",
        })
    }
}

/// What kind of disagreement a [`Divergence`] is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DivergenceKind {
    /// A and B returned different outcomes for the op.
    Outcome,
    /// The op panicked on one side.
    Panic {
        /// Where it panicked.
        side: Side,
        /// The panic message.
        message: String,
        /// `file:line` of the panic, when known.
        location: String,
    },
    /// `check_invariants()` (or a `check` op) reported a broken invariant after the op.
    Invariant {
        /// Whose invariant broke.
        side: Side,
    },
    /// The outcomes agreed but `stats()` differed after the op.
    Stats {
        /// A's counters.
        a: Stats,
        /// B's counters.
        b: Stats,
    },
    /// A failed op changed the state (dump or counters) on one side.
    Atomicity {
        /// Where.
        side: Side,
        /// What changed: a unified diff of the dumps, or the counters before and after.
        what: String,
    },
    /// The SPEC §5 readdir ordering guarantee broke (on A; its outcome agreed with B's).
    Readdir {
        /// Which rule.
        rule: ReaddirRule,
        /// The entries concerned.
        detail: String,
    },
    /// Every op agreed, but the final dumps differ.
    FinalDump,
    /// A directory's `stat`, asked through the API at the end of the input, differs
    /// ([`dirs`](crate::check::dirs)).
    DirectoryStat {
        /// The directory's path.
        path: Vec<u8>,
        /// The view it was asked in.
        view: View,
        /// Its parent's inode, in which it was looked up by name; `None`: it was asked by
        /// path (the root).
        parent: Option<Ino>,
        /// A's answer, as the op's outcome would print it (boxed, as B's: an `Outcome` is
        /// large, and every failure carries the kind).
        a: Box<Outcome>,
        /// B's answer.
        b: Box<Outcome>,
    },
}

impl DivergenceKind {
    fn describe(&self) -> String {
        match self {
            DivergenceKind::Outcome => "the outcomes differ".into(),
            DivergenceKind::Panic { side, .. } => format!("{side} panicked"),
            DivergenceKind::Invariant { side } => format!("an invariant broke on {side}"),
            DivergenceKind::Stats { .. } => "the stats() counters differ".into(),
            DivergenceKind::Atomicity { side, .. } => {
                format!("a failed op changed the state of {side} (atomicity)")
            }
            DivergenceKind::Readdir { rule, .. } => {
                format!("the readdir ordering guarantee broke ({rule})")
            }
            DivergenceKind::FinalDump => "the final dumps differ".into(),
            DivergenceKind::DirectoryStat { .. } => {
                "a directory's stat differs, asked at the end of the input".into()
            }
        }
    }

    /// The part of the signature after the op keyword (outcome divergences carry their own).
    fn signature_detail(&self, invariant: Option<&InvariantViolation>) -> String {
        match self {
            DivergenceKind::Outcome => String::new(),
            DivergenceKind::Panic { side, location, .. } => format!("panic {side} at {location}"),
            DivergenceKind::Invariant { side } => {
                format!(
                    "invariant {} on {side}",
                    invariant.map_or(0, |v| v.invariant)
                )
            }
            DivergenceKind::Stats { a, b } => format!("stats {}", stats_fields(a, b)),
            DivergenceKind::Atomicity { side, .. } => format!("atomicity {side}"),
            DivergenceKind::Readdir { rule, .. } => format!("readdir guarantee {rule}"),
            DivergenceKind::FinalDump => "final dump".into(),
            DivergenceKind::DirectoryStat { a, b, .. } => {
                format!("directory {}", outcome_difference(a, b))
            }
        }
    }
}

/// A failed check, before it is dressed as a [`Divergence`] with the op and the dumps.
#[derive(Clone, Debug)]
pub(crate) struct Failure {
    pub(crate) kind: DivergenceKind,
    pub(crate) invariant: Option<InvariantViolation>,
    /// Found by the check of the whole tree that runs at an interval and at the end of an
    /// input, not by a check of what the op changed: its signature's keyword is `check` (as
    /// if a `check` op had found it), whichever op the interval fell on.
    pub(crate) by_full_check: bool,
}

impl Failure {
    pub(crate) fn new(kind: DivergenceKind) -> Failure {
        Failure {
            kind,
            invariant: None,
            by_full_check: false,
        }
    }

    pub(crate) fn by_full_check(self) -> Failure {
        Failure {
            by_full_check: true,
            ..self
        }
    }

    pub(crate) fn panic(side: Side, c: Caught) -> Failure {
        Failure::new(DivergenceKind::Panic {
            side,
            message: c.message,
            location: c.location,
        })
    }

    pub(crate) fn invariant(side: Side, v: InvariantViolation) -> Failure {
        Failure {
            invariant: Some(v),
            ..Failure::new(DivergenceKind::Invariant { side })
        }
    }
}

/// One disagreement between A and B, with everything needed to understand it.
///
/// Its [`Display`](fmt::Display) is a Markdown report section.
///
/// ```
/// use pdtree::{Limits, PseudoFs, Tree};
/// use pdtree_harness::{check::faults::{Fault, Faulty}, run_ops, DivergenceKind, Op};
/// let ops = [
///     Op::Mkdir { path: b"/a".to_vec() },
///     Op::Create { path: b"/a/f".to_vec(), content: vec![] },
///     Op::Remove { path: b"/a".to_vec() },
/// ];
/// let d = run_ops(Limits::default(), &ops, &|l| Faulty::new(Tree::with_limits(l), Fault::RemoveNonEmptyDetaches))
///     .unwrap_err();
/// assert_eq!((d.index, d.kind.clone()), (2, DivergenceKind::Outcome));
/// assert_eq!(d.signature(), "remove outcome: ok vs err ENOTEMPTY");
/// assert!(d.to_string().contains("err ENOTEMPTY"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Divergence {
    /// The 0-based index of the op where it showed (the op count for [`DivergenceKind::FinalDump`]).
    pub index: usize,
    /// The op in script form (`(end of run)` for a final-dump divergence).
    pub op: String,
    /// A's outcome text (`panic: …` if it panicked).
    pub outcome_a: String,
    /// B's outcome text.
    pub outcome_b: String,
    /// The broken invariant, for [`DivergenceKind::Invariant`].
    pub invariant: Option<InvariantViolation>,
    /// What disagreed.
    pub kind: DivergenceKind,
    /// Unified diff from A's dump to B's dump at the moment of divergence (empty if equal).
    pub dump_diff: String,
    signature: String,
}

/// What a [`Divergence`] is built from: where it showed and what each side said.
pub(crate) struct At<'a> {
    pub(crate) index: usize,
    pub(crate) op: String,
    pub(crate) keyword: &'a str,
    pub(crate) outcome_a: String,
    pub(crate) outcome_b: String,
}

impl Divergence {
    /// A divergence of `failure` at `at`, with the dumps of both sides at that moment.
    pub(crate) fn new(at: At<'_>, failure: Failure, dump_a: &str, dump_b: &str) -> Divergence {
        let keyword = if failure.by_full_check {
            "check"
        } else {
            at.keyword
        };
        let signature = format!(
            "{} {}",
            keyword,
            failure.kind.signature_detail(failure.invariant.as_ref())
        );
        Divergence {
            index: at.index,
            op: at.op,
            outcome_a: at.outcome_a,
            outcome_b: at.outcome_b,
            invariant: failure.invariant,
            kind: failure.kind,
            dump_diff: unified_diff(dump_a, dump_b, "A", "B"),
            signature,
        }
    }

    /// Sets the signature of an outcome divergence: what differs, without the values.
    pub(crate) fn with_outcome_signature(
        mut self,
        keyword: &str,
        a: &Outcome,
        b: &Outcome,
    ) -> Self {
        self.signature = format!("{keyword} outcome: {}", outcome_difference(a, b));
        self
    }

    /// A short stable description: the op keyword and what differed, without numbers that
    /// change when the input shrinks. The minimizer keeps it fixed so it cannot slide to a
    /// different bug; reports are deduplicated by it.
    pub fn signature(&self) -> String {
        self.signature.clone()
    }
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "## Divergence at op #{}: `{}`", self.index, self.op)?;
        writeln!(f)?;
        writeln!(f, "* what: {}", self.kind.describe())?;
        writeln!(f, "* signature: `{}`", self.signature)?;
        writeln!(f, "* A (under test): `{}`", self.outcome_a)?;
        writeln!(f, "* B (reference):  `{}`", self.outcome_b)?;
        if let Some(v) = &self.invariant {
            writeln!(f, "* invariant: {v}")?;
        }
        match &self.kind {
            DivergenceKind::Panic {
                message, location, ..
            } => writeln!(f, "* panic at {location}: {message}")?,
            DivergenceKind::Stats { a, b } => writeln!(f, "* stats A: {a:?}\n* stats B: {b:?}")?,
            DivergenceKind::Readdir { detail, .. } => writeln!(f, "* detail: {detail}")?,
            DivergenceKind::DirectoryStat {
                path,
                view,
                parent,
                a,
                b,
            } => {
                let asked = match parent {
                    Some(ino) => format!(
                        "@{view} lookup_at {ino} {}",
                        crate::quote(crate::check::dirs::last_name(path))
                    ),
                    None => format!("@{view} stat {}", crate::quote(path)),
                };
                writeln!(
                    f,
                    "* directory: {}, asked as `{asked}`\n* A: `{a}`\n* B: `{b}`",
                    crate::quote(path)
                )?
            }
            DivergenceKind::Atomicity { what, .. } => {
                writeln!(f, "\nWhat the failed op changed:\n\n```diff\n{what}```")?
            }
            _ => {}
        }
        writeln!(f)?;
        if self.dump_diff.is_empty() {
            writeln!(f, "The dumps of A and B are identical at this point.")
        } else {
            writeln!(
                f,
                "Dump diff (`-` A, `+` B):\n\n```diff\n{}```",
                self.dump_diff
            )
        }
    }
}

/// FNV-1a, 64 bits: a stable hash for summaries and report names.
///
/// ```
/// assert_eq!(pdtree_harness::check::divergence::fnv1a(b""), 0xcbf2_9ce4_8422_2325);
/// ```
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A unified diff of two texts (empty when equal).
///
/// ```
/// use pdtree_harness::check::divergence::unified_diff;
/// assert_eq!(unified_diff("a\n", "a\n", "A", "B"), "");
/// assert!(unified_diff("a\n", "b\n", "A", "B").contains("-a\n+b\n"));
/// ```
pub fn unified_diff(a: &str, b: &str, name_a: &str, name_b: &str) -> String {
    if a == b {
        return String::new();
    }
    similar::TextDiff::from_lines(a, b)
        .unified_diff()
        .context_radius(3)
        .header(name_a, name_b)
        .to_string()
}

/// The class of an outcome: its variant and, for failures, the error or invariant.
fn outcome_class(o: &Outcome) -> String {
    match o {
        Outcome::Err(e) => format!("err {e}"),
        Outcome::Violation(v) => format!("violation {}", v.invariant),
        Outcome::Ino(_) | Outcome::Unit | Outcome::Destroyed(_) => "ok".into(),
        Outcome::Ns(_) => "ok ns".into(),
        Outcome::Header(_) => "ok header".into(),
        Outcome::Handle(_) => "ok handle".into(),
        Outcome::Cursor(_) => "ok cursor".into(),
        Outcome::Stat(_) => "ok stat".into(),
        Outcome::Read(_) => "ok read".into(),
        Outcome::Page(_) => "ok page".into(),
        Outcome::Stats(_) => "ok stats".into(),
        Outcome::Removed(_) => "ok removed".into(),
        Outcome::Bulk { stopped: None, .. } => "ok bulk".into(),
        Outcome::Bulk {
            stopped: Some(e), ..
        } => format!("ok bulk then err {e}"),
        Outcome::Done { stopped: None, .. } => "ok done".into(),
        Outcome::Done {
            stopped: Some(e), ..
        } => format!("ok done then err {e}"),
        Outcome::Dump(_) => "dump".into(),
        Outcome::Repeat { .. } => "repeat".into(),
    }
}

/// The names of the counters that differ, comma-separated.
pub(crate) fn stats_fields(a: &Stats, b: &Stats) -> String {
    let differs = [
        ("live", a.live != b.live),
        ("allocated", a.allocated != b.allocated),
        ("headers", a.headers != b.headers),
        ("handles", a.handles != b.handles),
    ];
    let names: Vec<&str> = differs.iter().filter(|d| d.1).map(|d| d.0).collect();
    names.join(",")
}

/// What differs between two outcomes, without the values (for signatures).
fn outcome_difference(a: &Outcome, b: &Outcome) -> String {
    let (ca, cb) = (outcome_class(a), outcome_class(b));
    if ca != cb {
        return format!("{ca} vs {cb}");
    }
    match (a, b) {
        (Outcome::Stat(x), Outcome::Stat(y)) => {
            let differs = [
                ("ino", x.ino != y.ino),
                ("kind", x.kind != y.kind),
                ("nlink", x.nlink != y.nlink),
                ("size", x.size != y.size),
                ("owner", x.owner != y.owner),
                ("perm", x.permanent != y.permanent),
                ("open", x.open_refs != y.open_refs),
            ];
            let names: Vec<&str> = differs.iter().filter(|d| d.1).map(|d| d.0).collect();
            format!("stat {}", names.join(","))
        }
        (Outcome::Page(x), Outcome::Page(y)) => {
            if x.entries.len() != y.entries.len() {
                "page entry count".into()
            } else if x.entries != y.entries {
                "page entries".into()
            } else {
                "page next".into()
            }
        }
        (Outcome::Stats(x), Outcome::Stats(y)) => format!("stats {}", stats_fields(x, y)),
        (Outcome::Read(x), Outcome::Read(y)) if x.len() != y.len() => "read length".into(),
        _ => format!("{ca} value"),
    }
}
