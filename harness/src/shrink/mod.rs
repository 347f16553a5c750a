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
//! function of its inputs: minimizing twice gives the same result. The number of trial runs is
//! capped ([`MAX_TRIALS`]) so a pathological case still ends.
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

mod ddmin;
mod limits;
mod paths;
mod rename;
mod renumber;
mod simplify;

pub use simplify::simpler_variants;

use pdtree::{Limits, PseudoFs};

use crate::check::diff::run_ops_for_signature;
use crate::check::divergence::Divergence;
use crate::lang::op::Op;
use ddmin::ddmin;
use paths::shrink_paths;
use rename::rename_pass;
use simplify::simplify_ops;

/// The most differential runs one minimization may spend.
pub const MAX_TRIALS: usize = 20_000;

pub(crate) struct Trial<'a, A> {
    limits: Limits,
    signature: String,
    make_a: &'a dyn Fn(Limits) -> A,
    trials: usize,
}

impl<A: PseudoFs> Trial<'_, A> {
    pub(crate) fn fails(&mut self, ops: &[Op]) -> bool {
        if self.trials >= MAX_TRIALS {
            return false;
        }
        self.trials += 1;
        run_ops_for_signature(self.limits, ops, self.make_a).is_some_and(|s| s == self.signature)
    }
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
    let mut t = Trial {
        limits,
        signature: d.signature(),
        make_a,
        trials: 0,
    };
    shrink(&mut t, ops, d)
}

/// [`minimize`], then the limits made as plain as the case allows: each put back to its
/// default where the signature survives; tables over the row limit shrunk together with the
/// limit; then each limit lowered to the smallest value that keeps the signature, where that
/// lets the ops shrink further, and the ops shrunk once more under it. Returns the limits
/// and ops.
pub fn minimize_case<A: PseudoFs>(
    limits: Limits,
    ops: &[Op],
    d: &Divergence,
    make_a: &dyn Fn(Limits) -> A,
) -> (Limits, Vec<Op>) {
    let mut t = Trial {
        limits,
        signature: d.signature(),
        make_a,
        trials: 0,
    };
    let ops = shrink(&mut t, ops, d);
    let ops = if limits::restore_defaults(&mut t, &ops) {
        let ops = simplify_ops(&mut t, ops);
        ddmin(&mut t, ops)
    } else {
        ops
    };
    let ops = limits::shrink_oversized_tables(&mut t, ops);
    let ops = limits::lower(&mut t, ops);
    (t.limits, ops)
}
