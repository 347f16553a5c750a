//! What one minimization may spend, and where it is.
//!
//! A minimization is bounded in trials and in *work units*, never in time, so it stops at the
//! same step on every machine and its report is the same byte for byte. A trial's work is an
//! upper bound on what its differential run walks: for each op, the op's own size (1, plus
//! its count and its table rows) plus the entries the ops before it can have made, since
//! after a large `bulk` every later op checks a directory of that size on both sides.

use crate::lang::op::{Field, Op, OpKind};

/// The most differential runs one minimization may spend by default.
pub const MAX_TRIALS: usize = 20_000;

/// The most work units one minimization may spend by default: about 2 minutes of a release
/// build on a case with a 2^16-file `bulk` (every trial of it costs some 2 · 10^6 units),
/// far more than any case without a large `bulk` needs.
pub const DEFAULT_WORK: u64 = 250_000_000;

/// What one minimization may spend.
///
/// ```
/// use pdtree_harness::shrink::Budget;
/// let b = Budget::default();
/// assert_eq!((b.trials, b.work), (20_000, 250_000_000));
/// let small = Budget { work: 1_000_000, ..Budget::default() };
/// assert!(small.work < b.work);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget {
    /// The most differential runs.
    pub trials: usize,
    /// The most work units (see the module docs).
    pub work: u64,
}

impl Default for Budget {
    /// [`MAX_TRIALS`] trials and [`DEFAULT_WORK`] work units.
    fn default() -> Self {
        Budget {
            trials: MAX_TRIALS,
            work: DEFAULT_WORK,
        }
    }
}

/// What a minimization spent, and whether its budget stopped it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Spent {
    /// Differential runs made.
    pub trials: usize,
    /// Work units spent.
    pub work: u64,
    /// The ops of the shortest failing trial so far.
    pub shortest: usize,
    /// The budget ran out: a trial was refused, so the result may shrink further with a
    /// larger budget.
    pub exhausted: bool,
}

impl Spent {
    /// A human-readable account of `self` against `budget`, for summaries and reports.
    ///
    /// ```
    /// use pdtree_harness::shrink::{Budget, Spent};
    /// let s = Spent { trials: 3, work: 120, shortest: 2, exhausted: false };
    /// assert_eq!(s.describe(Budget::default()), "3 trials, 120 work units");
    /// ```
    pub fn describe(&self, budget: Budget) -> String {
        let mut s = format!("{} trials, {} work units", self.trials, self.work);
        if self.exhausted {
            let flag = if self.trials >= budget.trials {
                "--minimize-trials"
            } else {
                "--minimize-work"
            };
            s.push_str(&format!(
                "; stopped at its budget ({} trials, {} work units): it may shrink further \
                 with a larger {flag}",
                budget.trials, budget.work
            ));
        }
        s
    }
}

/// The work units of one trial running `ops` (see the module docs).
///
/// ```
/// use pdtree_harness::{parse_script, Stmt};
/// use pdtree_harness::shrink::trial_work;
/// let s = parse_script(b"bulk \"/\" \"n\" 1000\nstat \"/n1\"\n").unwrap();
/// let ops: Vec<_> = s.stmts.into_iter().map(|s| match s { Stmt::Op(o) => o, _ => unreachable!() }).collect();
/// assert_eq!(trial_work(&ops), 1001 + (1 + 1000));
/// ```
pub fn trial_work(ops: &[Op]) -> u64 {
    let mut made = 0u64;
    let mut work = 0u64;
    for op in ops {
        let (own, makes) = op_size(op);
        work = work.saturating_add(own).saturating_add(made);
        made = made.saturating_add(makes);
    }
    work
}

/// An op's own size (1, plus its count and rows) and how many entries it can make.
fn op_size(op: &Op) -> (u64, u64) {
    let mut own = 1u64;
    let mut makes = 0u64;
    for field in op.fields() {
        match field {
            Field::Count(n) => own += n as u64,
            Field::Rows(rows) => {
                own += rows.len() as u64;
                makes += rows.len() as u64;
            }
            Field::NewPath(_) => makes += 1,
            _ => {}
        }
    }
    match op.kind() {
        // Each of these makes its count of entries and keeps them.
        OpKind::Bulk | OpKind::Chain => makes += own - 1,
        // Each cycle removes what it made.
        OpKind::CycleCreate | OpKind::CycleRegister => makes = 0,
        _ => {}
    }
    (own, makes)
}

#[cfg(test)]
mod tests {
    use pdtree::{Limits, PseudoFs, Tree};

    use super::*;
    use crate::check::diff::run_ops;
    use crate::check::faults::{Fault, Faulty};
    use crate::lang::script::ops_of;
    use crate::shrink::minimize_case_within;

    fn bulk_then(n: usize, rest: &[Op]) -> Vec<Op> {
        let mut ops = vec![Op::Bulk {
            dir: b"/".to_vec(),
            prefix: b"n".to_vec(),
            count: n,
        }];
        ops.extend_from_slice(rest);
        ops
    }

    #[test]
    fn work_counts_each_op_and_what_was_made_before_it() {
        let stat = Op::Stat {
            view: 0,
            path: b"/n1".to_vec(),
        };
        assert_eq!(trial_work(&[]), 0);
        assert_eq!(trial_work(std::slice::from_ref(&stat)), 1);
        // bulk: 1 + 300; each stat: 1 + the 300 files.
        assert_eq!(
            trial_work(&bulk_then(300, &[stat.clone(), stat])),
            301 + 2 * 301
        );
        let cycle = Op::CycleCreate {
            path: b"/c".to_vec(),
            count: 10,
        };
        let after = Op::Stats;
        // A cycle removes what it made: the op after it sees nothing new.
        assert_eq!(trial_work(&[cycle, after]), 11 + 1);
        // A table: 1 + its 2 rows; it makes its directory and the rows.
        let table = ops_of("register \"/t\" [f \"a\" \"\", f \"b\" \"\"]\nstats\n");
        assert_eq!(trial_work(&table), 3 + (1 + 3));
        // A new path makes one entry.
        assert_eq!(trial_work(&ops_of("mkdir \"/d\"\nstats\n")), 1 + (1 + 1));
    }

    /// A budget too small for the whole minimization stops it partway: the result says so,
    /// still fails with the same signature, and is what the same budget gives every time.
    #[test]
    fn a_spent_budget_ends_the_minimization_with_a_failing_case() {
        let make = |l| Faulty::new(Tree::with_limits(l), Fault::DirSizeIsU8);
        let noise: Vec<Op> = (0..12)
            .map(|i| Op::Mkdir {
                path: format!("/d{i}").into_bytes(),
            })
            .chain([Op::Stat {
                view: 0,
                path: b"/".to_vec(),
            }])
            .collect();
        let ops = bulk_then(300, &noise);
        let l = Limits::default();
        let d = run_ops(l, &ops, &make).expect_err("a directory of 313 children");
        let full = minimize_case_within(l, &ops, &d, &make, Budget::default(), &|_| {});
        assert!(!full.spent.exhausted, "{:?}", full.spent);
        let tight = Budget {
            work: 4 * trial_work(&ops),
            ..Budget::default()
        };
        let cut = minimize_case_within(l, &ops, &d, &make, tight, &|_| {});
        assert!(cut.spent.exhausted, "{:?}", cut.spent);
        assert!(cut.spent.work <= tight.work);
        assert_ne!(cut.ops, full.ops, "the tight budget left nothing undone");
        let again = run_ops(cut.limits, &cut.ops, &make).expect_err("still fails");
        assert_eq!(again.signature(), d.signature());
        let twice = minimize_case_within(l, &ops, &d, &make, tight, &|_| {});
        assert_eq!(twice, cut);
        assert!(cut
            .spent
            .describe(tight)
            .ends_with("a larger --minimize-work"));
        let few = Budget {
            trials: 2,
            ..Budget::default()
        };
        let m = minimize_case_within(l, &ops, &d, &make, few, &|_| {});
        assert_eq!(m.spent.trials, 2);
        assert!(m
            .spent
            .describe(few)
            .ends_with("a larger --minimize-trials"));
    }
}
