//! The differential runner: the same ops on an implementation under test (A) and a reference
//! (B, normally the oracle), compared after every op.
//!
//! For each op [`DiffRunner::step`]:
//!
//! 1. applies it to B and then to A through a [`Runner`] each, catching a panic on either
//!    side (a panic is a divergence, never a harness crash);
//! 2. compares the two [`Outcome`]s exactly;
//! 3. checks the invariants on A and on B and compares their `stats()`: after an op that
//!    may change the state, `check_invariants_near` on the directories the op could have
//!    changed ([`near`](crate::check::near) says which); every
//!    [`FULL_CHECK_INTERVAL`] ops, and at the end of the input, `check_invariants` on the
//!    whole tree;
//! 4. if the op failed, proves it changed nothing (SPEC §8.8, atomicity), on both sides:
//!    `stats()` before == after for every op; for every op whose [`PseudoFs`] method takes
//!    `&mut self` ([`OpKind::may_mutate`]), A's [`fingerprint`](PseudoFs::fingerprint) (a
//!    hash of its whole canonical state) before == after — and at every
//!    [`FULL_CHECK_INTERVAL`]-th op A's full dump before == after, with the fingerprint
//!    agreeing with it — and B (which must be `Clone + PartialEq`, as the oracle is)
//!    structurally equal to a copy taken before: every field, a stronger proof than its dump
//!    and much cheaper than the oracle's naive dump. The `&self` methods cannot change the
//!    state (only interior mutability could, and that is still caught by the `stats()`
//!    comparison and the final dump comparison). B runs first, so A's "before" is taken only
//!    when B's outcome is a failure (if A then succeeds, the outcomes differ: that is the
//!    divergence), and A's fingerprint after a failed op is the proven-equal "before" of the
//!    next one;
//! 5. checks the SPEC §5 ordering guarantee for every open readdir cursor
//!    ([`scan`](crate::check::scan)).
//!
//! [`DiffRunner::finish`] compares the full dumps of A and B, then every directory's `stat`
//! asked of both through the API ([`dirs`](crate::check::dirs)). On any divergence the two dumps
//! are taken and their unified diff is part of the [`Divergence`].
//!
//! ```
//! use pdtree::{Limits, Tree};
//! use pdtree_harness::{run_ops, parse_script, Op, Stmt};
//! let script = parse_script(b"mkdir \"/a\"\nopendir 0 \"/\"\nreadpage 0 8\nremove \"/a\"\n").unwrap();
//! let ops: Vec<Op> = script.stmts.iter().map(|s| match s { Stmt::Op(o) => o.clone(), _ => unreachable!() }).collect();
//! let summary = run_ops(Limits::default(), &ops, &|l| <Tree as pdtree::PseudoFs>::with_limits(l)).unwrap();
//! assert_eq!(summary.stats.ops, 4);
//! ```

// A divergence is rare and ends a run; returning it by value keeps the API plain.
#![allow(clippy::result_large_err)]

use std::collections::BTreeSet;

use pdtree::{Ino, Limits, PseudoFs, Stats, View};
use pdtree_oracle::Oracle;

use crate::check::dirs;
use crate::check::divergence::{unified_diff, At, Divergence, DivergenceKind, Failure, Side};
use crate::check::near::{self, Places, Scope, FULL_CHECK_INTERVAL};
use crate::check::panic::{catch, install_panic_hook, Caught};
use crate::check::scan::Scans;
use crate::gen::{GenStats, Generator, Profile};
use crate::lang::op::{Op, OpKind};
use crate::lang::runner::{Outcome, Runner};

/// What a run that found no divergence did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct RunSummary {
    /// Ops per kind, outcomes per error (counted on B's outcomes, which equal A's).
    pub stats: GenStats,
    /// FNV-1a hash of the final dump (equal on both sides).
    pub dump_hash: u64,
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
    index: usize,
    /// A's fingerprint, known to describe its current state (after a proven no-op).
    clean_fingerprint_a: Option<u64>,
    /// B as it was before the current state-changing op (stale after any other op).
    b_before: B,
    scans: Scans,
    /// Where handles were opened and headers registered, for the scope of later ops.
    places: Places,
    summary: RunSummary,
    broken: bool,
    /// Whether a divergence carries the diff of the two dumps (off for the minimizer's
    /// trials, which need only the signature; on a 65,536-file case the dumps and their
    /// diff were a tenth of a trial).
    dump_diff: bool,
}

/// The state before an op that the atomicity check compares against.
struct Before {
    stats_a: Result<Stats, Caught>,
    stats_b: Result<Stats, Caught>,
    /// A's fingerprint from the last proven no-op, taken for a state-changing op (a success
    /// makes it stale, so it is dropped then).
    clean_fingerprint_a: Option<u64>,
    /// A's state, when the op may mutate and B's outcome says it failed.
    state_a: Option<StateA>,
}

/// A's state before a failed state-changing op.
struct StateA {
    fingerprint: Result<u64, Caught>,
    /// A's dump too, at a full-check op (it verifies the fingerprint).
    dump: Option<String>,
}

impl Before {
    /// The counters before the op, or the panic that computing them raised.
    fn stats(&mut self) -> Result<(Stats, Stats), Failure> {
        let a = std::mem::replace(&mut self.stats_a, Ok(Stats::default()));
        let b = std::mem::replace(&mut self.stats_b, Ok(Stats::default()));
        let a = a.map_err(|c| Failure::panic(Side::A, c))?;
        let b = b.map_err(|c| Failure::panic(Side::B, c))?;
        Ok((a, b))
    }
}

/// B must be `Clone + PartialEq` so a failed op can be proven to have changed nothing by a
/// structural comparison (the oracle is both).
impl<A: PseudoFs, B: PseudoFs + Clone + PartialEq> DiffRunner<A, B> {
    /// A runner over `a` (under test) and `b` (reference), both fresh trees with `limits`.
    ///
    /// # Panics
    /// If `b` does not have `limits`: every outcome would be judged against other limits.
    pub fn new(limits: Limits, a: A, b: B) -> Self {
        assert_eq!(
            b.limits(),
            limits,
            "the reference must have the run's limits"
        );
        install_panic_hook();
        // Counts from here on are this run's (see `finish`).
        let _ = pdtree::thresholds::take();
        DiffRunner {
            a: Runner::from_tree(a),
            b_before: b.clone(),
            b: Runner::from_tree(b),
            index: 0,
            clean_fingerprint_a: None,
            scans: Scans::new(),
            places: Places::new(),
            summary: RunSummary::default(),
            broken: false,
            dump_diff: true,
        }
    }

    /// The runner whose divergences leave out the dump diff: their signature is the same.
    pub(crate) fn without_dump_diff(self) -> Self {
        DiffRunner {
            dump_diff: false,
            ..self
        }
    }

    /// A divergence of `failure` at `at`, with the diff of `dumps()` (A's, B's) unless it is
    /// left out; then the dumps are not taken.
    fn divergence(
        &self,
        at: At<'_>,
        failure: Failure,
        dumps: impl FnOnce() -> (String, String),
    ) -> Divergence {
        let (a, b) = if self.dump_diff {
            dumps()
        } else {
            Default::default()
        };
        Divergence::new(at, failure, &a, &b)
    }

    /// Both trees' dumps now.
    fn dumps(&self) -> (String, String) {
        (dump_of(self.a.tree()), dump_of(self.b.tree()))
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

    /// Whether a divergence was reported.
    pub fn is_broken(&self) -> bool {
        self.broken
    }

    /// Runs one op on both sides and checks everything (see the module docs). Returns the
    /// (common) outcome, or the first divergence. After a divergence the runner must not be
    /// used again (further steps return the same kind of report but mean nothing).
    pub fn step(&mut self, op: &Op) -> Result<Outcome, Divergence> {
        let kind = op.kind();
        let mut before = self.before(kind);
        let outcome_b = match catch(|| self.b.apply(op)) {
            Ok(o) => o,
            Err(c) => {
                let text_b = format!("panic: {}", c.message);
                let failure = Failure::panic(Side::B, c);
                return Err(self.diverge(op, "(not run)".into(), text_b, failure));
            }
        };
        if kind.may_mutate() && outcome_b.is_failure() {
            let clean = before.clean_fingerprint_a.take();
            let a = self.a.tree();
            before.state_a = Some(StateA {
                fingerprint: clean.map_or_else(|| catch(|| a.fingerprint()), Ok),
                dump: self.at_full_check().then(|| dump_of(a)),
            });
        }
        let outcome_a = match catch(|| self.a.apply(op)) {
            Ok(o) => o,
            Err(c) => {
                let text_a = format!("panic: {}", c.message);
                let failure = Failure::panic(Side::A, c);
                return Err(self.diverge(op, text_a, outcome_b.to_string(), failure));
            }
        };
        if let Err(failure) = Self::check_outcomes(&outcome_a, &outcome_b) {
            let is_outcome = failure.kind == DivergenceKind::Outcome;
            let d = self.diverge(op, outcome_a.to_string(), outcome_b.to_string(), failure);
            return Err(if is_outcome {
                d.with_outcome_signature(kind.keyword(), &outcome_a, &outcome_b)
            } else {
                d
            });
        }
        self.summary.stats.record(op, &outcome_b);
        if let Err(failure) = self.check_after(op, &outcome_b, before) {
            let text = outcome_b.to_string();
            return Err(self.diverge(op, text.clone(), text, failure));
        }
        self.index += 1;
        Ok(outcome_b)
    }

    /// The counters of both sides and, for a state-changing op, B's structural copy.
    fn before(&mut self, kind: OpKind) -> Before {
        let mut clean_fingerprint_a = None;
        if kind.may_mutate() {
            self.b_before.clone_from(self.b.tree());
            clean_fingerprint_a = self.clean_fingerprint_a.take();
        }
        Before {
            stats_a: catch(|| self.a.tree().stats()),
            stats_b: catch(|| self.b.tree().stats()),
            clean_fingerprint_a,
            state_a: None,
        }
    }

    /// The checks after both sides agreed on the outcome, in order.
    fn check_after(
        &mut self,
        op: &Op,
        outcome: &Outcome,
        mut before: Before,
    ) -> Result<(), Failure> {
        let scope = self.scope(op);
        if !outcome.is_failure() {
            self.places.learn(op, outcome, self.b.tree());
        }
        let whole = scope == Scope::Whole;
        self.check_invariants(scope)?;
        if self.at_full_check() && !whole {
            self.check_invariants(Scope::Whole)
                .map_err(Failure::by_full_check)?;
        }
        let after = self.stats_after()?;
        let was = before.stats()?;
        if after.0 != after.1 {
            let (a, b) = after;
            return Err(Failure::new(DivergenceKind::Stats { a, b }));
        }
        if outcome.is_failure() {
            self.check_atomicity(op.kind(), was, after)?;
            if let Some(state) = before.state_a {
                self.check_atomicity_of_a(state)?;
            }
        }
        self.check_scans(op, outcome)
    }

    /// The outcomes are equal; a `violation` on either side is an invariant divergence.
    fn check_outcomes(a: &Outcome, b: &Outcome) -> Result<(), Failure> {
        match (a, b) {
            _ if a == b => Ok(()),
            (Outcome::Violation(v), _) => Err(Failure::invariant(Side::A, v.clone())),
            (_, Outcome::Violation(v)) => Err(Failure::invariant(Side::B, v.clone())),
            _ => Err(Failure::new(DivergenceKind::Outcome)),
        }
    }

    /// What the invariant check right after `op` covers: what the op could have changed.
    fn scope(&self, op: &Op) -> Scope {
        catch(|| near::scope(op, self.b.tree(), &self.places)).unwrap_or(Scope::Whole)
    }

    /// Whether the op at `self.index` is followed by the checks of the whole state.
    fn at_full_check(&self) -> bool {
        (self.index + 1) % FULL_CHECK_INTERVAL == 0
    }

    /// The invariants hold in `scope` on A, then on B.
    fn check_invariants(&self, scope: Scope) -> Result<(), Failure> {
        fn on<T: PseudoFs>(t: &T, side: Side, scope: &Scope) -> Result<(), Failure> {
            let checked = match scope {
                Scope::Nothing => return Ok(()),
                Scope::Dirs(dirs) => catch(|| t.check_invariants_near(dirs)),
                Scope::Whole => catch(|| t.check_invariants()),
            };
            match checked {
                Ok(Ok(())) => Ok(()),
                Ok(Err(v)) => Err(Failure::invariant(side, v)),
                Err(c) => Err(Failure::panic(side, c)),
            }
        }
        on(self.a.tree(), Side::A, &scope)?;
        on(self.b.tree(), Side::B, &scope)
    }

    /// Both sides' `stats()` after the op.
    fn stats_after(&self) -> Result<(Stats, Stats), Failure> {
        let a = catch(|| self.a.tree().stats()).map_err(|c| Failure::panic(Side::A, c))?;
        let b = catch(|| self.b.tree().stats()).map_err(|c| Failure::panic(Side::B, c))?;
        Ok((a, b))
    }

    /// A failed op changed nothing: the counters on both sides; for a state-changing op,
    /// B structurally equal to its copy from before (A: [`check_atomicity_of_a`]).
    fn check_atomicity(
        &mut self,
        kind: OpKind,
        (stats_a, stats_b): (Stats, Stats),
        (after_a, after_b): (Stats, Stats),
    ) -> Result<(), Failure> {
        for (side, was, now) in [(Side::A, stats_a, after_a), (Side::B, stats_b, after_b)] {
            if was != now {
                let what = format!("- stats {was:?}\n+ stats {now:?}\n");
                return Err(Failure::new(DivergenceKind::Atomicity { side, what }));
            }
        }
        if kind.may_mutate() && *self.b.tree() != self.b_before {
            let (was, now) = (dump_of(&self.b_before), dump_of(self.b.tree()));
            let what = unified_diff(&was, &now, "before", "after");
            return Err(Failure::new(DivergenceKind::Atomicity {
                side: Side::B,
                what,
            }));
        }
        Ok(())
    }

    /// A failed state-changing op left A's fingerprint as it was; at a full-check op, A's
    /// dump too, and the fingerprint agrees with it.
    fn check_atomicity_of_a(&mut self, was: StateA) -> Result<(), Failure> {
        let broken = |what: String| {
            Failure::new(DivergenceKind::Atomicity {
                side: Side::A,
                what,
            })
        };
        let a = self.a.tree();
        let was_fp = was.fingerprint.map_err(|c| Failure::panic(Side::A, c))?;
        let now_fp = catch(|| a.fingerprint()).map_err(|c| Failure::panic(Side::A, c))?;
        if let Some(was_dump) = was.dump {
            let now = dump_of(a);
            if was_dump != now {
                let mut what = unified_diff(&was_dump, &now, "before", "after");
                if was_fp == now_fp {
                    what.push_str("(the fingerprint did not change: it misses this difference)\n");
                }
                return Err(broken(what));
            }
            if was_fp != now_fp {
                return Err(broken(format!(
                    "the dump did not change, the fingerprint did ({was_fp:016x} to {now_fp:016x}): fingerprint() is not a function of the canonical state\n"
                )));
            }
        } else if was_fp != now_fp {
            // A's dump from before was not taken (that is what the fingerprint saves); the
            // reference's state, which this failed op left as it was, stands in for it.
            let mut what = format!(
                "the fingerprint of the state changed from {was_fp:016x} to {now_fp:016x}; A after the op against the reference's state, which the op left as it was:\n"
            );
            let reference = dump_of(self.b.tree());
            what.push_str(&unified_diff(&reference, &dump_of(a), "reference", "after"));
            return Err(broken(what));
        }
        self.clean_fingerprint_a = Some(now_fp);
        Ok(())
    }

    /// The readdir guarantee for every open cursor.
    fn check_scans(&mut self, op: &Op, outcome: &Outcome) -> Result<(), Failure> {
        let (a, b) = (&self.a, &self.b);
        let cursor_dir = |slot: usize| a.cursor(slot as u8).ino;
        let mut children = |view: View, dir: Ino| -> Result<BTreeSet<Ino>, Caught> {
            catch(|| {
                b.tree()
                    .children_in(view, dir)
                    .map(|v| v.into_iter().map(|e| e.ino).collect())
                    .unwrap_or_default()
            })
        };
        self.scans.track(op, outcome, cursor_dir, &mut children)
    }

    /// Builds a divergence at the current op, with the dump diff.
    fn diverge(&mut self, op: &Op, outcome_a: String, outcome_b: String, f: Failure) -> Divergence {
        let text = if f.by_full_check {
            format!("{op} (then the check of the whole tree)")
        } else {
            op.to_string()
        };
        let at = At {
            index: self.index,
            op: text,
            keyword: op.keyword(),
            outcome_a,
            outcome_b,
        };
        self.broken = true;
        self.divergence(at, f, || self.dumps())
    }

    /// Where a divergence found by `finish` is: after the last op.
    fn end_of_run(&self, outcome_a: &str, outcome_b: &str) -> At<'static> {
        At {
            index: self.index,
            op: "(end of run)".into(),
            keyword: "end",
            outcome_a: outcome_a.into(),
            outcome_b: outcome_b.into(),
        }
    }

    /// Ends the run: checks the whole tree's invariants on both sides (unless the last op's
    /// check just did), compares the full dumps of A and B, then every directory's `stat`.
    pub fn finish(mut self) -> Result<RunSummary, Divergence> {
        if self.index == 0 || self.index % FULL_CHECK_INTERVAL != 0 {
            if let Err(failure) = self.check_invariants(Scope::Whole) {
                self.broken = true;
                let at = self.end_of_run("(end of run)", "(end of run)");
                return Err(self.divergence(at, failure.by_full_check(), || self.dumps()));
            }
        }
        let (da, db) = self.dumps();
        if da != db {
            self.broken = true;
            let at = self.end_of_run("(dump of A)", "(dump of B)");
            let failure = Failure::new(DivergenceKind::FinalDump);
            return Err(self.divergence(at, failure, || (da, db)));
        }
        if let Err(failure) = dirs::compare_directories(self.a.tree(), self.b.tree(), &db) {
            self.broken = true;
            let at = self.end_of_run("(end of run)", "(end of run)");
            return Err(self.divergence(at, failure, || (da, db)));
        }
        self.summary.dump_hash = crate::check::divergence::fnv1a(db.as_bytes());
        self.summary.stats.inputs = 1;
        self.summary.stats.thresholds = pdtree::thresholds::take();
        let reach = &mut self.summary.stats.reach;
        reach.longest_input = self.index as u64;
        reach.observe_dump(&db);
        reach.merge(&self.scans.reach);
        let stats = &mut self.summary.stats;
        stats.features.merge(&self.scans.features);
        stats.features.mark_reach(&stats.reach, &stats.thresholds);
        Ok(self.summary)
    }
}

/// A tree's canonical dump, or a line saying where dumping panicked.
fn dump_of<T: PseudoFs>(t: &T) -> String {
    match catch(|| t.dump()) {
        Ok(d) => d,
        Err(c) => format!("(dump panicked at {}: {})\n", c.location, c.message),
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

/// [`run_ops`] for a divergence's signature only: no dump diff (the minimizer's trials).
/// Without `finish`, a run whose ops all agree ends there, without the end-of-run check and
/// dumps: a trial looking for a signature that only an op can give (see
/// [`only_an_op_gives`]) need not pay for them, and after a 2^16-file `bulk` they are most of
/// a trial's cost.
pub(crate) fn run_ops_for_signature<A: PseudoFs>(
    limits: Limits,
    ops: &[Op],
    make_a: &dyn Fn(Limits) -> A,
    finish: bool,
) -> Option<String> {
    let a = make_a(limits);
    let mut d = DiffRunner::new(limits, a, Oracle::with_limits(limits)).without_dump_diff();
    for op in ops {
        if let Err(div) = d.step(op) {
            return Some(div.signature());
        }
    }
    if !finish {
        return None;
    }
    d.finish().err().map(|div| div.signature())
}

/// Whether a divergence with this signature can only come from an op, never from
/// [`DiffRunner::finish`]: the end of a run reports under the keywords `check` (its check of
/// the whole tree) and `end` (its comparison of the dumps), and nothing else.
pub(crate) fn only_an_op_gives(signature: &str) -> bool {
    let keyword = signature.split(' ').next().unwrap_or("");
    keyword != "check" && keyword != "end"
}

/// Bytes → (limits, ops) → a differential run against the oracle, generating each op from
/// the oracle's previous outcomes (the same ops [`ops_from_bytes`](crate::gen::ops_from_bytes)
/// gives). The cargo-fuzz `diff` target is
/// `if let Err(d) = diff_bytes(data, &|l| Tree::with_limits(l)) { panic!("{d}") }`.
pub fn diff_bytes<A: PseudoFs>(
    data: &[u8],
    make_a: &dyn Fn(Limits) -> A,
) -> Result<RunSummary, Divergence> {
    diff_bytes_in(data, Profile::FULL, make_a)
}

/// [`diff_bytes`] generating only what `profile` supports.
pub fn diff_bytes_in<A: PseudoFs>(
    data: &[u8],
    profile: Profile,
    make_a: &dyn Fn(Limits) -> A,
) -> Result<RunSummary, Divergence> {
    diff_bytes_unless(data, profile, make_a, &|| false).expect("a run that never stops ends")
}

/// [`diff_bytes_in`], given up between two ops once `stop()` says so (a campaign's time is
/// up): `None` then, a run that neither passed nor diverged.
pub(crate) fn diff_bytes_unless<A: PseudoFs>(
    data: &[u8],
    profile: Profile,
    make_a: &dyn Fn(Limits) -> A,
    stop: &dyn Fn() -> bool,
) -> Option<Result<RunSummary, Divergence>> {
    let mut g = Generator::with_profile(data, profile);
    let limits = g.limits();
    let mut d = DiffRunner::new(limits, make_a(limits), Oracle::with_limits(limits));
    while let Some(op) = g.next_op() {
        if stop() {
            return None;
        }
        match d.step(&op) {
            Ok(out) => g.observe(&op, &out),
            Err(divergence) => return Some(Err(divergence)),
        }
    }
    Some(d.finish())
}

#[cfg(test)]
mod tests {
    use pdtree::{Limits, PseudoFs, Tree};

    use super::*;
    use crate::check::faults::{Fault, Faulty};

    /// A trial that skips the end of the run misses exactly the signatures
    /// [`only_an_op_gives`] says the end gives.
    #[test]
    fn the_end_of_a_run_reports_only_as_check_or_end() {
        let l = Limits::default();
        let swapped = |l| Faulty::new(Tree::with_limits(l), Fault::ChownSwapsIds);
        let at_end = [
            Op::Mkdir {
                path: b"/a".to_vec(),
            },
            Op::Chown {
                view: 0,
                path: b"/a".to_vec(),
                uid: 0,
                gid: 1,
            },
        ];
        let sig = run_ops_for_signature(l, &at_end, &swapped, true).expect("the dumps differ");
        assert!(!only_an_op_gives(&sig), "{sig}");
        assert_eq!(run_ops_for_signature(l, &at_end, &swapped, false), None);
        let small = |l| Faulty::new(Tree::with_limits(l), Fault::DirSizeIsU8);
        let at_op = [
            Op::Bulk {
                dir: b"/".to_vec(),
                prefix: b"n".to_vec(),
                count: 256,
            },
            Op::Stat {
                view: 0,
                path: b"/".to_vec(),
            },
        ];
        let sig = run_ops_for_signature(l, &at_op, &small, false).expect("stat differs");
        assert!(only_an_op_gives(&sig), "{sig}");
        assert_eq!(run_ops_for_signature(l, &at_op, &small, true), Some(sig));
    }

    /// A scan that reads on after removals is counted in the reach and its grid cell is
    /// set; a scan that only read its first page is not.
    #[test]
    fn a_resumed_scan_is_counted_in_the_reach() {
        use crate::gen::ReachFeatures;
        let ops = crate::lang::script::ops_of(
            "bulk \"/\" \"n\" 100\nopendir 0 \"/\"\nreadpage 0 10\n\
            remove \"/n0\"\nremove \"/n50\"\nremove \"/n51\"\nreadpage 0 10\n\
            opendir 1 \"/\"\nreadpage 1 10\n",
        );
        let stats = run_ops(Limits::default(), &ops, &|l| Tree::with_limits(l))
            .unwrap()
            .stats;
        assert_eq!(stats.reach.largest_resumed_dir, 97);
        assert_eq!(stats.reach.most_removed_mid_scan, 3);
        let mut grid = ReachFeatures::default();
        grid.mark_resume(97, 3);
        let cell = grid.iter().next().unwrap();
        assert!(stats.features.iter().any(|b| b == cell));
        let mut without = ReachFeatures::default();
        without.mark_reach(&stats.reach, &stats.thresholds);
        assert_eq!(
            stats.features.count(),
            without.count() + 1,
            "one resumed page, one cell"
        );
    }
}
