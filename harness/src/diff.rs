//! The differential runner: the same ops on an implementation under test (A) and a reference
//! (B, normally the oracle), compared after every op.
//!
//! For each op [`DiffRunner::step`]:
//!
//! 1. applies it to B and then to A through a [`Runner`] each, catching a panic on either
//!    side (a panic is a divergence, never a harness crash);
//! 2. compares the two [`Outcome`]s exactly;
//! 3. runs `check_invariants()` on A and on B and compares their `stats()`;
//! 4. if the op failed, proves it changed nothing (SPEC §8.8, atomicity), on both sides:
//!    `stats()` before == after for every op; for every op whose [`PseudoFs`] method takes
//!    `&mut self` ([`OpKind::may_mutate`]), A's full canonical dump before == after, and B
//!    (which must be `Clone + PartialEq`, as the oracle is) structurally equal to a copy taken
//!    before — every field, a stronger proof than its dump and much cheaper than the oracle's
//!    naive dump. The `&self` methods cannot change the state (only interior mutability
//!    could, and that is still caught by the `stats()` comparison and the final dump
//!    comparison). B runs first, so A's "before" dump is taken only when B's outcome is a
//!    failure (if A then succeeds, the outcomes differ: that is the divergence), and the dump
//!    of A taken after a failed op is the proven-equal "before" of the next one: a
//!    successful op dumps A not at all, a run of failing ones once per op;
//! 5. checks the SPEC §5 ordering guarantee for every open readdir cursor (see below).
//!
//! [`DiffRunner::finish`] compares the full dumps of A and B. On any divergence the two dumps
//! are taken and their unified diff is part of the [`Divergence`].
//!
//! ## The readdir guarantee
//!
//! A cursor slot's *scan* starts at `opendir`, `rewind` or `seek … 0` (a `seek` elsewhere
//! stops tracking the slot until the next start). During a scan the runner keeps, from B's
//! state after every state-changing op, the children present since the scan started and the
//! current children. Every `readpage` of A must return entries strictly above everything the
//! scan returned before (ascending, never twice), each a current child (never after its
//! removal); the first empty page ends the scan, and then every child present for the whole
//! scan must have been returned.
//!
//! ```
//! use pdtree::{Limits, Tree};
//! use pdtree_harness::{diff::run_ops, parse_script, Op, Stmt};
//! let script = parse_script(b"mkdir \"/a\"\nopendir 0 \"/\"\nreadpage 0 8\nremove \"/a\"\n").unwrap();
//! let ops: Vec<Op> = script.stmts.iter().map(|s| match s { Stmt::Op(o) => o.clone(), _ => unreachable!() }).collect();
//! let summary = run_ops(Limits::default(), &ops, &|l| <Tree as pdtree::PseudoFs>::with_limits(l)).unwrap();
//! assert_eq!(summary.stats.ops, 4);
//! ```

// A divergence is rare and ends a run; returning it by value keeps the API plain.
#![allow(clippy::result_large_err)]

use std::cell::Cell;
use std::collections::BTreeSet;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

use pdtree::{Ino, InvariantViolation, Limits, PseudoFs, Stats};
use pdtree_oracle::Oracle;

use crate::gen::{GenStats, Generator, OpKind};
use crate::op::{Op, SLOTS};
use crate::runner::{Outcome, Runner};

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
        /// Which rule: `ascending`, `twice`, `removed` or `missing`.
        rule: &'static str,
        /// The entries concerned.
        detail: String,
    },
    /// Every op agreed, but the final dumps differ.
    FinalDump,
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
        }
    }
}

/// One disagreement between A and B, with everything needed to understand it.
///
/// Its [`Display`](fmt::Display) is a Markdown report section.
///
/// ```
/// use pdtree::{Limits, PseudoFs, Tree};
/// use pdtree_harness::{diff::run_ops, faults::{Fault, Faulty}, DivergenceKind, Op};
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

impl Divergence {
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

/// What a run that found no divergence did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RunSummary {
    /// Ops per kind, outcomes per error (counted on B's outcomes, which equal A's).
    pub stats: GenStats,
    /// FNV-1a hash of the final dump (equal on both sides).
    pub dump_hash: u64,
}

/// FNV-1a, 64 bits: a stable hash for summaries and report names.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

// ---- panics: caught, located, and kept off stderr while the harness catches them ----

thread_local! {
    static CATCHING: Cell<bool> = const { Cell::new(false) };
    static LOCATION: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CATCHING.with(Cell::get) {
                let loc = info
                    .location()
                    .map(|l| format!("{}:{}", l.file(), l.line()))
                    .unwrap_or_else(|| "unknown".into());
                LOCATION.with(|l| *l.borrow_mut() = loc);
            } else {
                previous(info);
            }
        }));
    });
}

/// A caught panic: message and location.
struct Caught {
    message: String,
    location: String,
}

fn catch<R>(f: impl FnOnce() -> R) -> Result<R, Caught> {
    let was = CATCHING.with(|c| c.replace(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    r.map_err(|p| {
        let message = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(non-string panic payload)".into());
        let location = LOCATION.with(|l| std::mem::take(&mut *l.borrow_mut()));
        Caught { message, location }
    })
}

/// A unified diff of two texts (empty when equal).
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
        Outcome::Ino(_) => "ok".into(),
        Outcome::Header(_) => "ok header".into(),
        Outcome::Handle(_) => "ok handle".into(),
        Outcome::Cursor(_) => "ok cursor".into(),
        Outcome::Unit => "ok".into(),
        Outcome::Stat(_) => "ok stat".into(),
        Outcome::Read(_) => "ok read".into(),
        Outcome::Page(_) => "ok page".into(),
        Outcome::Stats(_) => "ok stats".into(),
        Outcome::Removed(_) => "ok removed".into(),
        Outcome::Dump(_) => "dump".into(),
        Outcome::Repeat { .. } => "repeat".into(),
    }
}

fn stats_fields(a: &Stats, b: &Stats) -> String {
    let mut v = Vec::new();
    if a.live != b.live {
        v.push("live");
    }
    if a.allocated != b.allocated {
        v.push("allocated");
    }
    if a.headers != b.headers {
        v.push("headers");
    }
    if a.handles != b.handles {
        v.push("handles");
    }
    v.join(",")
}

/// What differs between two outcomes, without the values (for signatures).
fn outcome_difference(a: &Outcome, b: &Outcome) -> String {
    let (ca, cb) = (outcome_class(a), outcome_class(b));
    if ca != cb {
        return format!("{ca} vs {cb}");
    }
    match (a, b) {
        (Outcome::Stat(x), Outcome::Stat(y)) => {
            let mut v = Vec::new();
            for (name, d) in [
                ("ino", x.ino != y.ino),
                ("kind", x.kind != y.kind),
                ("nlink", x.nlink != y.nlink),
                ("size", x.size != y.size),
                ("owner", x.owner != y.owner),
                ("perm", x.permanent != y.permanent),
                ("open", x.open_refs != y.open_refs),
            ] {
                if d {
                    v.push(name);
                }
            }
            format!("stat {}", v.join(","))
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

/// The SPEC §5 state of one cursor slot's scan.
#[derive(Clone, Debug, Default)]
struct Scan {
    dir: Ino,
    /// The highest inode returned so far in this scan.
    last: Option<Ino>,
    returned: BTreeSet<Ino>,
    /// Children present since the scan started.
    whole: BTreeSet<Ino>,
    /// Children now.
    current: BTreeSet<Ino>,
    /// Every inode that was a child at some point during the scan.
    ever: BTreeSet<Ino>,
    done: bool,
}

/// The differential runner. See the module docs.
///
/// ```
/// use pdtree::{Limits, PseudoFs, Tree};
/// use pdtree_harness::{DiffRunner, Op, Outcome};
/// use pdtree_oracle::Oracle;
/// let l = Limits::default();
/// let mut d = DiffRunner::new(l, Tree::with_limits(l), Oracle::with_limits(l));
/// assert_eq!(d.step(&Op::Mkdir { path: b"/a".to_vec() }).unwrap(), Outcome::Ino(2));
/// assert_eq!(d.step(&Op::Remove { path: b"/".to_vec() }).unwrap(), Outcome::Err(pdtree::Errno::EBUSY));
/// assert_eq!(d.finish().unwrap().stats.ok, 1);
/// ```
pub struct DiffRunner<A: PseudoFs, B: PseudoFs = Oracle> {
    a: Runner<A>,
    b: Runner<B>,
    limits: Limits,
    index: usize,
    /// A dump of A known to describe its current state (after a proven no-op).
    clean: Option<String>,
    /// B as it was before the current state-changing op (stale after any other op). Kept
    /// between ops and refilled with `clone_from`, so the copy reuses its buffers instead of
    /// allocating new ones.
    b_before: B,
    scans: Vec<Option<Scan>>,
    summary: RunSummary,
    broken: bool,
}

/// B must be `Clone + PartialEq` so a failed op can be proven to have changed nothing by a
/// structural comparison (the oracle is both).
impl<A: PseudoFs, B: PseudoFs + Clone + PartialEq> DiffRunner<A, B> {
    /// A runner over `a` (under test) and `b` (reference), both fresh trees with `limits`.
    pub fn new(limits: Limits, a: A, b: B) -> Self {
        install_panic_hook();
        DiffRunner {
            a: Runner::from_tree(a),
            b_before: b.clone(),
            b: Runner::from_tree(b),
            limits,
            index: 0,
            clean: None,
            scans: vec![None; SLOTS],
            summary: RunSummary::default(),
            broken: false,
        }
    }

    /// The runner of A.
    pub fn a(&self) -> &Runner<A> {
        &self.a
    }

    /// The runner of B.
    pub fn b(&self) -> &Runner<B> {
        &self.b
    }

    /// How many ops ran.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The counts so far.
    pub fn summary(&self) -> &RunSummary {
        &self.summary
    }

    fn dump_of<T: PseudoFs>(r: &Runner<T>) -> String {
        Self::dump_of_tree(r.tree())
    }

    fn dump_of_tree<T: PseudoFs>(t: &T) -> String {
        match catch(|| t.dump()) {
            Ok(d) => d,
            Err(c) => format!("(dump panicked at {}: {})\n", c.location, c.message),
        }
    }

    /// Builds a divergence at the current op, with the dump diff.
    fn diverge(
        &mut self,
        op: &str,
        keyword: &str,
        outcome_a: String,
        outcome_b: String,
        kind: DivergenceKind,
        invariant: Option<InvariantViolation>,
    ) -> Divergence {
        self.broken = true;
        let (da, db) = (Self::dump_of(&self.a), Self::dump_of(&self.b));
        let detail = match &kind {
            DivergenceKind::Outcome => String::new(), // filled by the caller
            DivergenceKind::Panic { side, location, .. } => format!("panic {side} at {location}"),
            DivergenceKind::Invariant { side } => format!(
                "invariant {} on {side}",
                invariant.as_ref().map_or(0, |v| v.invariant)
            ),
            DivergenceKind::Stats { a, b } => format!("stats {}", stats_fields(a, b)),
            DivergenceKind::Atomicity { side, .. } => format!("atomicity {side}"),
            DivergenceKind::Readdir { rule, .. } => format!("readdir guarantee {rule}"),
            DivergenceKind::FinalDump => "final dump".into(),
        };
        Divergence {
            index: self.index,
            op: op.to_string(),
            outcome_a,
            outcome_b,
            invariant,
            kind,
            dump_diff: unified_diff(&da, &db, "A", "B"),
            signature: format!("{keyword} {detail}"),
        }
    }

    fn children_b(&self, dir: Ino) -> Result<BTreeSet<Ino>, Caught> {
        let max = self.limits.max_readdir.max(1);
        catch(|| {
            pdtree::read_all(self.b.tree(), dir, max)
                .map(|v| v.into_iter().map(|e| e.ino).collect())
                .unwrap_or_default()
        })
    }

    fn start_scan(&mut self, slot: usize) -> Result<(), Caught> {
        let dir = self.a.cursor(slot as u8).ino;
        let now = self.children_b(dir)?;
        self.scans[slot] = Some(Scan {
            dir,
            whole: now.clone(),
            ever: now.clone(),
            current: now,
            ..Scan::default()
        });
        Ok(())
    }

    /// Runs one op on both sides and checks everything (see the module docs). Returns the
    /// (common) outcome, or the first divergence. After a divergence the runner must not be
    /// used again (further steps return the same kind of report but mean nothing).
    pub fn step(&mut self, op: &Op) -> Result<Outcome, Divergence> {
        let kind = OpKind::of(op);
        let kw = kind.keyword();
        let text = || op.to_string();
        let pdiv = |side: Side, c: Caught| DivergenceKind::Panic {
            side,
            message: c.message,
            location: c.location,
        };

        // State before, for the atomicity proof. B runs first, on a structural copy kept
        // beforehand (cheaper than B's naive dump, and a stronger proof: every field, not just
        // what the dump shows). A's canonical dump (A is any tree; the dump is all it offers)
        // is only needed when the op fails, and B's outcome says so before A runs: if A then
        // succeeds where B failed, the outcomes differ and that is the report.
        let mutates = kind.may_mutate();
        let mut a_clean = None;
        if mutates {
            self.b_before.clone_from(self.b.tree());
            a_clean = self.clean.take();
        }
        let stats_before = (
            catch(|| self.a.tree().stats()),
            catch(|| self.b.tree().stats()),
        );

        let ob = match catch(|| self.b.apply(op)) {
            Ok(o) => o,
            Err(c) => {
                let msg = format!("panic: {}", c.message);
                return Err(self.diverge(
                    &text(),
                    kw,
                    "(not run)".into(),
                    msg,
                    pdiv(Side::B, c),
                    None,
                ));
            }
        };
        let a_before = if mutates && ob.is_failure() {
            Some(a_clean.take().unwrap_or_else(|| Self::dump_of(&self.a)))
        } else {
            None
        };
        let oa = match catch(|| self.a.apply(op)) {
            Ok(o) => o,
            Err(c) => {
                let msg = format!("panic: {}", c.message);
                return Err(self.diverge(&text(), kw, msg, ob.to_string(), pdiv(Side::A, c), None));
            }
        };
        if oa != ob {
            let (k, inv) = match (&oa, &ob) {
                (Outcome::Violation(v), _) => {
                    (DivergenceKind::Invariant { side: Side::A }, Some(v.clone()))
                }
                (_, Outcome::Violation(v)) => {
                    (DivergenceKind::Invariant { side: Side::B }, Some(v.clone()))
                }
                _ => (DivergenceKind::Outcome, None),
            };
            let is_outcome = k == DivergenceKind::Outcome;
            let mut d = self.diverge(&text(), kw, oa.to_string(), ob.to_string(), k, inv);
            if is_outcome {
                d.signature = format!("{kw} outcome: {}", outcome_difference(&oa, &ob));
            }
            return Err(d);
        }
        self.summary.stats.record(op, &ob);

        macro_rules! fail {
            ($kind:expr, $inv:expr) => {
                return Err(self.diverge(&text(), kw, oa.to_string(), ob.to_string(), $kind, $inv))
            };
        }

        // Invariants on both sides.
        for side in [Side::A, Side::B] {
            let r = match side {
                Side::A => catch(|| self.a.tree().check_invariants()),
                Side::B => catch(|| self.b.tree().check_invariants()),
            };
            match r {
                Ok(Ok(())) => {}
                Ok(Err(v)) => fail!(DivergenceKind::Invariant { side }, Some(v)),
                Err(c) => fail!(pdiv(side, c), None),
            }
        }

        // Counters of both sides, after and before.
        let sa = match catch(|| self.a.tree().stats()) {
            Ok(s) => s,
            Err(c) => fail!(pdiv(Side::A, c), None),
        };
        let sb = match catch(|| self.b.tree().stats()) {
            Ok(s) => s,
            Err(c) => fail!(pdiv(Side::B, c), None),
        };
        let (ba, bb) = match stats_before {
            (Ok(a), Ok(b)) => (a, b),
            (Err(c), _) => fail!(pdiv(Side::A, c), None),
            (_, Err(c)) => fail!(pdiv(Side::B, c), None),
        };
        if sa != sb {
            fail!(DivergenceKind::Stats { a: sa, b: sb }, None);
        }

        // Atomicity of a failed op: counters always, the full dump for `&mut self` ops.
        if ob.is_failure() {
            for (side, before_s, after_s) in [(Side::A, ba, sa), (Side::B, bb, sb)] {
                if before_s != after_s {
                    let what = format!("- stats {before_s:?}\n+ stats {after_s:?}\n");
                    fail!(DivergenceKind::Atomicity { side, what }, None);
                }
            }
            // `b_before` is this op's copy only when the op may mutate (else it is stale).
            if mutates && *self.b.tree() != self.b_before {
                let (db0, db1) = (Self::dump_of_tree(&self.b_before), Self::dump_of(&self.b));
                let what = unified_diff(&db0, &db1, "before", "after");
                fail!(
                    DivergenceKind::Atomicity {
                        side: Side::B,
                        what
                    },
                    None
                );
            }
            if let Some(da0) = a_before {
                let da1 = Self::dump_of(&self.a);
                if da0 != da1 {
                    let what = unified_diff(&da0, &da1, "before", "after");
                    fail!(
                        DivergenceKind::Atomicity {
                            side: Side::A,
                            what
                        },
                        None
                    );
                }
                self.clean = Some(da1);
            }
        }

        // Readdir scans.
        if let Err((rule, detail)) = self.track_scans(op, &ob) {
            let k = match rule {
                "panic" => DivergenceKind::Panic {
                    side: Side::B,
                    message: detail,
                    location: String::new(),
                },
                _ => DivergenceKind::Readdir { rule, detail },
            };
            return Err(self.diverge(&text(), kw, oa.to_string(), ob.to_string(), k, None));
        }

        self.index += 1;
        Ok(ob)
    }

    /// Updates the cursor scans after `op` (already applied, outcome `out` on both sides).
    fn track_scans(&mut self, op: &Op, out: &Outcome) -> Result<(), (&'static str, String)> {
        let panic = |c: Caught| ("panic", format!("{} at {}", c.message, c.location));
        let ok = !out.is_failure();
        match op {
            Op::OpenDir { slot, .. } | Op::Rewind { slot } if ok => {
                self.start_scan(usize::from(*slot) % SLOTS).map_err(panic)?;
            }
            Op::Seek { slot, pos } => {
                let s = usize::from(*slot) % SLOTS;
                if *pos == 0 {
                    self.start_scan(s).map_err(panic)?;
                } else {
                    self.scans[s] = None;
                }
            }
            Op::ReadPage { slot, .. } => {
                let s = usize::from(*slot) % SLOTS;
                if let (Some(scan), Outcome::Page(page)) = (self.scans[s].as_mut(), out) {
                    if scan.done {
                        return Ok(());
                    }
                    for e in &page.entries {
                        if scan.returned.contains(&e.ino) {
                            return Err(("twice", format!("inode {} returned again", e.ino)));
                        }
                        if let Some(l) = scan.last {
                            if e.ino <= l {
                                return Err((
                                    "ascending",
                                    format!("inode {} after inode {l}", e.ino),
                                ));
                            }
                        }
                        if !scan.current.contains(&e.ino) {
                            let why = if scan.ever.contains(&e.ino) {
                                "after its removal"
                            } else {
                                "though it is not a child"
                            };
                            return Err(("removed", format!("inode {} returned {why}", e.ino)));
                        }
                        scan.returned.insert(e.ino);
                        scan.last = Some(e.ino);
                    }
                    if page.entries.is_empty() {
                        scan.done = true;
                        let missing: Vec<_> = scan.whole.difference(&scan.returned).collect();
                        if !missing.is_empty() {
                            return Err((
                                "missing",
                                format!(
                                    "scan of inode {} ended without inodes {missing:?}, present for the whole scan",
                                    scan.dir
                                ),
                            ));
                        }
                    }
                }
            }
            _ if ok && OpKind::of(op).may_mutate() => {
                for s in 0..SLOTS {
                    let Some(dir) = self.scans[s].as_ref().filter(|x| !x.done).map(|x| x.dir)
                    else {
                        continue;
                    };
                    let now = self.children_b(dir).map_err(panic)?;
                    let scan = self.scans[s].as_mut().expect("checked above");
                    scan.whole = scan.whole.intersection(&now).copied().collect();
                    scan.ever.extend(now.iter().copied());
                    scan.current = now;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Ends the run: compares the full dumps of A and B.
    pub fn finish(mut self) -> Result<RunSummary, Divergence> {
        let (da, db) = (Self::dump_of(&self.a), Self::dump_of(&self.b));
        if da != db {
            return Err(self.diverge(
                "(end of run)",
                "end",
                "(dump of A)".into(),
                "(dump of B)".into(),
                DivergenceKind::FinalDump,
                None,
            ));
        }
        self.summary.dump_hash = fnv1a(db.as_bytes());
        self.summary.stats.inputs = 1;
        Ok(self.summary)
    }

    /// Whether a divergence was reported.
    pub fn is_broken(&self) -> bool {
        self.broken
    }
}

/// Runs `ops` on A (made by `make_a`) and the oracle, differentially, with `limits`.
pub fn run_ops<A: PseudoFs>(
    limits: Limits,
    ops: &[Op],
    make_a: &dyn Fn(Limits) -> A,
) -> Result<RunSummary, Divergence> {
    let mut d = DiffRunner::new(limits, make_a(limits), Oracle::with_limits(limits));
    for op in ops {
        d.step(op)?;
    }
    d.finish()
}

/// Bytes → (limits, ops) → a differential run against the oracle, generating each op from
/// the oracle's previous outcomes (the same ops [`ops_from_bytes`](crate::gen::ops_from_bytes)
/// gives). The cargo-fuzz `diff` target is
/// `if let Err(d) = diff_bytes(data, &|l| Tree::with_limits(l)) { panic!("{d}") }`.
pub fn diff_bytes<A: PseudoFs>(
    data: &[u8],
    make_a: &dyn Fn(Limits) -> A,
) -> Result<RunSummary, Divergence> {
    let mut g = Generator::new(data);
    let limits = g.limits();
    let mut d = DiffRunner::new(limits, make_a(limits), Oracle::with_limits(limits));
    while let Some(op) = g.next_op() {
        let out = d.step(&op)?;
        g.observe(&op, &out);
    }
    d.finish()
}
