//! Counts of generated and executed ops, per kind and per error: the campaign summary's table.

use std::fmt;

use pdtree::thresholds::Thresholds;
use pdtree::Errno;

use crate::gen::reach::{Reach, ReachFeatures};
use crate::lang::op::{Op, OpKind};
use crate::lang::runner::Outcome;

/// Counts of generated and executed ops: per kind (succeeded / failed), per error, in total.
///
/// Every field is a plain count (merged by addition) or, in [`Reach`], a maximum (merged by
/// taking the larger), so the [`Display`](fmt::Display) table is identical for identical
/// runs, whatever the order they were merged in.
///
/// ```
/// use pdtree_harness::{GenStats, Op, Outcome};
/// let mut s = GenStats::default();
/// s.record(&Op::Stats, &Outcome::Stats(Default::default()));
/// s.record(&Op::Read { slot: 0 }, &Outcome::Err(pdtree::Errno::EBADF));
/// assert_eq!((s.ops, s.ok), (2, 1));
/// assert_eq!(s.errors[8], 1); // EBADF is Errno::ALL[8]
/// assert!(s.missing_errors().contains(&pdtree::Errno::ENOENT));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GenStats {
    /// Inputs run.
    pub inputs: u64,
    /// Ops run.
    pub ops: u64,
    /// Ops that succeeded (not `err …` nor `violation …`).
    pub ok: u64,
    /// Per [`OpKind::ALL`] index: `[succeeded, failed]` (always [`OpKind::COUNT`] long).
    pub per_kind: Vec<[u64; 2]>,
    /// Per [`Errno::ALL`] index: how many ops failed with that error.
    pub errors: [u64; Errno::ALL.len()],
    /// How deep the runs went (maxima, not counts).
    pub reach: Reach,
    /// How often core's internal thresholds were crossed while the inputs ran on it (zero
    /// for a target that is not core).
    pub thresholds: Thresholds,
    /// Which power-of-two buckets of the reach figures and threshold counts the inputs hit
    /// (merged by union).
    pub features: ReachFeatures,
}

impl Default for GenStats {
    fn default() -> Self {
        GenStats {
            inputs: 0,
            ops: 0,
            ok: 0,
            per_kind: vec![[0, 0]; OpKind::COUNT],
            errors: [0; Errno::ALL.len()],
            reach: Reach::default(),
            thresholds: Thresholds::default(),
            features: ReachFeatures::default(),
        }
    }
}

impl GenStats {
    /// Counts one executed op and its outcome.
    pub fn record(&mut self, op: &Op, outcome: &Outcome) {
        let k = op.kind() as usize;
        self.ops += 1;
        if outcome.is_failure() {
            self.per_kind[k][1] += 1;
            if let Outcome::Err(e) = outcome {
                if let Some(i) = Errno::ALL.iter().position(|x| x == e) {
                    self.errors[i] += 1;
                }
            }
        } else {
            self.ok += 1;
            self.per_kind[k][0] += 1;
        }
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &GenStats) {
        self.inputs += other.inputs;
        self.ops += other.ops;
        self.ok += other.ok;
        for (a, b) in self.per_kind.iter_mut().zip(&other.per_kind) {
            a[0] += b[0];
            a[1] += b[1];
        }
        for (a, b) in self.errors.iter_mut().zip(&other.errors) {
            *a += b;
        }
        self.reach.merge(&other.reach);
        self.thresholds += other.thresholds;
        self.features.merge(&other.features);
    }

    /// The share of ops that succeeded, in per mille (integer, so it prints identically).
    pub fn ok_permille(&self) -> u64 {
        (self.ok * 1000).checked_div(self.ops).unwrap_or(0)
    }

    /// Op kinds never run.
    pub fn missing_kinds(&self) -> Vec<OpKind> {
        OpKind::ALL
            .into_iter()
            .filter(|k| self.per_kind[*k as usize] == [0, 0])
            .collect()
    }

    /// Errors never returned.
    pub fn missing_errors(&self) -> Vec<Errno> {
        Errno::ALL
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.errors[*i] == 0)
            .map(|(_, e)| e)
            .collect()
    }
}

/// A Markdown table of ops per kind and of errors, then the totals, the reach and the
/// thresholds.
impl fmt::Display for GenStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pm = |n: u64, d: u64| {
            let x = (n * 1000).checked_div(d).unwrap_or(0);
            format!("{}.{}%", x / 10, x % 10)
        };
        writeln!(f, "| op | runs | ok | err | ok share |")?;
        writeln!(f, "|---|---:|---:|---:|---:|")?;
        for k in OpKind::ALL {
            let [ok, err] = self.per_kind[k as usize];
            writeln!(
                f,
                "| {} | {} | {} | {} | {} |",
                k.keyword(),
                ok + err,
                ok,
                err,
                pm(ok, ok + err)
            )?;
        }
        writeln!(f)?;
        writeln!(f, "| error | count | share of ops |")?;
        writeln!(f, "|---|---:|---:|")?;
        for (i, e) in Errno::ALL.iter().enumerate() {
            writeln!(
                f,
                "| {e} | {} | {} |",
                self.errors[i],
                pm(self.errors[i], self.ops)
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "inputs {}, ops {}, succeeded {} ({})",
            self.inputs,
            self.ops,
            self.ok,
            pm(self.ok, self.ops)
        )?;
        writeln!(f, "{}", self.reach)?;
        writeln!(f, "{}", self.thresholds)?;
        writeln!(
            f,
            "reach buckets: {} of {} hit",
            self.features.count(),
            ReachFeatures::USED
        )
    }
}
