//! Shrinking a diverging op sequence while keeping the same [`Divergence::signature`].
//!
//! 1. Cut everything after the diverging op.
//! 2. Op-level delta debugging (ddmin, Zeller & Hildebrandt 2002): remove chunks of ops,
//!    halving the chunk size down to single ops, while the signature stays the same.
//! 3. Paths ([`paths`]): a path an op acts on replaced by one an earlier op named, and a
//!    directory dropped from every path below it with the `mkdir` that made it, each followed
//!    by ddmin, so the ops that only built a path go.
//! 4. Per-op simplification: shorter paths (fewer components, one-byte names), fewer register
//!    rows, shorter contents, smaller numbers and slot 0 — each candidate kept only if the
//!    signature stays the same; repeated to a fixpoint, then ddmin once more.
//!
//! [`minimize_case`] also tries putting each limit back to its default. Every step is a pure
//! function of its inputs: minimizing twice gives the same result. What a minimization may
//! spend is bounded in trials and in work units ([`Budget`]), never in time, so a case with
//! a 2^16-file `bulk`, whose every trial rebuilds the directory, still ends at the same step
//! on every machine; [`minimize_case_within`] says whether the budget stopped it and reports
//! its progress after every trial.
//!
//! ```
//! use pdtree::{Limits, PseudoFs, Tree};
//! use pdtree_harness::{check::faults::{Fault, Faulty}, run_ops, shrink::minimize, Op};
//! let make = |l| Faulty::new(Tree::with_limits(l), Fault::RemoveNonEmptyDetaches);
//! let ops = vec![
//!     Op::Mkdir { path: b"/net".to_vec() },
//!     Op::Stats,
//!     Op::Mkdir { path: b"/net/conf".to_vec() },
//!     Op::Create { path: b"/x".to_vec(), content: b"hello".to_vec() },
//!     Op::Remove { path: b"/net".to_vec() },
//!     Op::Stats,
//! ];
//! let d = run_ops(Limits::default(), &ops, &make).unwrap_err();
//! let small = minimize(Limits::default(), &ops, &d, &make);
//! assert_eq!(small, vec![
//!     Op::Mkdir { path: b"/a".to_vec() },
//!     Op::Mkdir { path: b"/a/a".to_vec() },
//!     Op::Remove { path: b"/a".to_vec() },
//! ]);
//! ```

mod budget;
mod ddmin;
mod limits;
mod paths;
mod rename;
mod renumber;
mod simplify;

pub use budget::{trial_work, Budget, Spent, DEFAULT_WORK, MAX_TRIALS};
pub use simplify::simpler_variants;

use pdtree::{Limits, PseudoFs};

use crate::check::diff::{only_an_op_gives, run_ops_for_signature};
use crate::check::divergence::Divergence;
use crate::lang::op::Op;
use ddmin::ddmin;
use paths::shrink_paths;
use rename::rename_pass;
use simplify::simplify_ops;

pub(crate) struct Trial<'a, A> {
    limits: Limits,
    signature: String,
    /// Whether a trial must run the end of the run: only when the signature can come from it.
    finish: bool,
    make_a: &'a dyn Fn(Limits) -> A,
    budget: Budget,
    spent: Spent,
    progress: &'a dyn Fn(&Spent),
}

impl<'a, A: PseudoFs> Trial<'a, A> {
    fn new(
        limits: Limits,
        d: &Divergence,
        make_a: &'a dyn Fn(Limits) -> A,
        budget: Budget,
        progress: &'a dyn Fn(&Spent),
    ) -> Self {
        let signature = d.signature();
        Trial {
            limits,
            finish: !only_an_op_gives(&signature),
            signature,
            make_a,
            budget,
            spent: Spent::default(),
            progress,
        }
    }

    /// Whether `ops` fail with the signature; false, without running them, once the budget
    /// would be exceeded (the minimization then ends at what it has).
    pub(crate) fn fails(&mut self, ops: &[Op]) -> bool {
        let work = trial_work(ops);
        let over = self.spent.work.saturating_add(work) > self.budget.work;
        if self.spent.trials >= self.budget.trials || over {
            self.spent.exhausted = true;
            return false;
        }
        self.spent.trials += 1;
        self.spent.work += work;
        let fails = run_ops_for_signature(self.limits, ops, self.make_a, self.finish)
            .is_some_and(|s| s == self.signature);
        if fails && (self.spent.shortest == 0 || ops.len() < self.spent.shortest) {
            self.spent.shortest = ops.len();
        }
        (self.progress)(&self.spent);
        fails
    }
}

/// What [`minimize_case_within`] made of a case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimized {
    /// The limits of the minimized case.
    pub limits: Limits,
    /// The minimized ops.
    pub ops: Vec<Op>,
    /// What the minimization spent, and whether its budget stopped it.
    pub spent: Spent,
}

fn shrink<A: PseudoFs>(t: &mut Trial<'_, A>, ops: &[Op], d: &Divergence) -> Vec<Op> {
    let mut cur = ops[..(d.index + 1).min(ops.len())].to_vec();
    if !t.fails(&cur) {
        cur = ops.to_vec();
        if !t.fails(&cur) {
            return cur; // does not reproduce: leave it alone
        }
    }
    let cur = ddmin(t, cur);
    let cur = shrink_paths(t, cur);
    let cur = rename_pass(t, cur);
    let cur = simplify_ops(t, cur);
    ddmin(t, cur)
}

/// ddmin, then per-op simplification, then ddmin again: the ops under new limits.
fn reshrink<A: PseudoFs>(t: &mut Trial<'_, A>, ops: Vec<Op>) -> Vec<Op> {
    let ops = ddmin(t, ops);
    let ops = shrink_paths(t, ops);
    let ops = simplify_ops(t, ops);
    ddmin(t, ops)
}

/// Shrinks `ops` (which diverge as `d` with `limits`) to a smaller sequence with the same
/// signature. Returns `ops` unchanged if they do not reproduce `d`'s signature.
pub fn minimize<A: PseudoFs>(
    limits: Limits,
    ops: &[Op],
    d: &Divergence,
    make_a: &dyn Fn(Limits) -> A,
) -> Vec<Op> {
    let mut t = Trial::new(limits, d, make_a, Budget::default(), &|_| {});
    shrink(&mut t, ops, d)
}

/// [`minimize`], then the limits made as plain as the case allows: each put back to its
/// default where the signature survives; tables over the row limit shrunk together with the
/// limit; then each limit lowered to the smallest value that keeps the signature, where that
/// lets the ops shrink further, and the ops shrunk once more under it. Returns the limits
/// and ops. The default [`Budget`]; [`minimize_case_within`] takes one.
pub fn minimize_case<A: PseudoFs>(
    limits: Limits,
    ops: &[Op],
    d: &Divergence,
    make_a: &dyn Fn(Limits) -> A,
) -> (Limits, Vec<Op>) {
    let m = minimize_case_within(limits, ops, d, make_a, Budget::default(), &|_| {});
    (m.limits, m.ops)
}

/// [`minimize_case`] within `budget`, calling `progress` after every trial. When the budget
/// runs out, every later trial counts as not failing, so the passes end at once with the
/// shortest case found so far, which still fails with `d`'s signature.
///
/// ```
/// use pdtree::{Limits, PseudoFs, Tree};
/// use pdtree_harness::{check::faults::{Fault, Faulty}, run_ops, Op};
/// use pdtree_harness::shrink::{minimize_case_within, Budget};
/// let make = |l| Faulty::new(Tree::with_limits(l), Fault::RemoveNonEmptyDetaches);
/// let ops = vec![
///     Op::Mkdir { path: b"/net".to_vec() },
///     Op::Mkdir { path: b"/net/conf".to_vec() },
///     Op::Remove { path: b"/net".to_vec() },
/// ];
/// let d = run_ops(Limits::default(), &ops, &make).unwrap_err();
/// let m = minimize_case_within(Limits::default(), &ops, &d, &make, Budget::default(), &|_| {});
/// assert_eq!(m.ops.len(), 3);
/// assert!(!m.spent.exhausted);
/// let tight = Budget { trials: 1, ..Budget::default() };
/// let m = minimize_case_within(Limits::default(), &ops, &d, &make, tight, &|_| {});
/// assert!(m.spent.exhausted);
/// assert_eq!(m.ops, ops); // nothing tried past the first trial
/// ```
pub fn minimize_case_within<A: PseudoFs>(
    limits: Limits,
    ops: &[Op],
    d: &Divergence,
    make_a: &dyn Fn(Limits) -> A,
    budget: Budget,
    progress: &dyn Fn(&Spent),
) -> Minimized {
    let mut t = Trial::new(limits, d, make_a, budget, progress);
    let ops = shrink(&mut t, ops, d);
    let ops = if limits::restore_defaults(&mut t, &ops) {
        let ops = simplify_ops(&mut t, ops);
        ddmin(&mut t, ops)
    } else {
        ops
    };
    let ops = limits::shrink_oversized_tables(&mut t, ops);
    let ops = limits::lower(&mut t, ops);
    Minimized {
        limits: t.limits,
        ops,
        spent: t.spent,
    }
}
