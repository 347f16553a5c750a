//! A non-linearizable history as a report, and its minimization.

use std::fmt;

use pdtree::{InvariantViolation, Limits, PseudoFs};

use super::{find, Event, FailedRound, Program, MAX_STATES};
use crate::lang::op::Op;

/// A history no sequential order explains (or one that left the tree broken), with the
/// program that produced it.
#[derive(Clone, Debug)]
pub struct NotLinearizable {
    /// The seed the program was generated from.
    pub seed: u64,
    /// The round (from 1) that produced the history, in the last search for it.
    pub round: u64,
    /// The program (minimized, if minimization ran).
    pub program: Program,
    /// The history, ordered by call stamp.
    pub events: Vec<Event>,
    /// Ops and threads of the program as generated, before minimization.
    pub generated: (usize, usize),
    /// The search gave up on the history instead of proving that no order explains it.
    pub gave_up: bool,
    /// An order explains the history, but the tree's invariants did not hold afterwards.
    pub broken: Option<InvariantViolation>,
}

impl NotLinearizable {
    /// The report of a round of `program` (generated from `seed`) that the checker did not
    /// accept.
    pub fn new(seed: u64, program: Program, failed: FailedRound) -> Self {
        let generated = (ops_of(&program), program.threads.len());
        NotLinearizable {
            seed,
            round: failed.round,
            program,
            events: failed.events,
            generated,
            gave_up: failed.gave_up,
            broken: failed.broken,
        }
    }
}

fn ops_of(p: &Program) -> usize {
    p.threads.iter().map(Vec::len).sum()
}

/// Shrinks a failing program: drops or merges whole threads (down to two), then single ops,
/// keeping each cut only if the program still fails within `16 × rounds` rounds (a smaller
/// program often needs a luckier interleaving: with `4 × rounds`, a busy 2-core machine left
/// `remove-subtree-in-steps` at 5 to 9 ops in three test runs out of four, where
/// its hand-minimal is 2). A program that then fails no more keeps its last failing form.
pub(super) fn minimize<T, F>(found: NotLinearizable, rounds: u64, make: &F) -> NotLinearizable
where
    T: PseudoFs + Clone + Send + 'static,
    F: Fn(Limits) -> T,
{
    let mut best = found;
    loop {
        let before = (best.program.threads.len(), ops_of(&best.program));
        for candidate in cuts(&best.program) {
            if let Some(failed) = find(&candidate, rounds.saturating_mul(16), make) {
                best = NotLinearizable {
                    generated: best.generated,
                    ..NotLinearizable::new(best.seed, candidate, failed)
                };
                break;
            }
        }
        if (best.program.threads.len(), ops_of(&best.program)) == before {
            return best;
        }
    }
}

/// Every program one cut smaller: without one thread, or with one thread's ops appended to
/// another's (if more than two threads), or without one op of one thread (threads keep at
/// least one op). Slots follow the thread they end up in.
fn cuts(p: &Program) -> Vec<Program> {
    let mut out = Vec::new();
    if p.threads.len() > 2 {
        for t in 0..p.threads.len() {
            let mut threads = p.threads.clone();
            let moved = threads.remove(t);
            out.push(renumbered(&p.setup, threads.clone()));
            for into in 0..threads.len() {
                let mut merged = threads.clone();
                merged[into].extend(moved.iter().cloned());
                out.push(renumbered(&p.setup, merged));
            }
        }
    }
    for (t, ops) in p.threads.iter().enumerate() {
        for k in 0..ops.len() {
            if ops.len() > 1 {
                let mut threads = p.threads.clone();
                threads[t].remove(k);
                out.push(Program {
                    setup: p.setup.clone(),
                    threads,
                });
            }
        }
    }
    out
}

fn renumbered(setup: &[Op], mut threads: Vec<Vec<Op>>) -> Program {
    for (i, ops) in threads.iter_mut().enumerate() {
        for op in ops.iter_mut() {
            renumber_slot(op, i);
        }
    }
    Program {
        setup: setup.to_vec(),
        threads,
    }
}

/// Moves a slot op to the same slot of thread `thread`'s range.
fn renumber_slot(op: &mut Op, thread: usize) {
    use crate::lang::op::Slot;
    let per = super::SLOTS_PER_THREAD;
    let to = |s: &mut Slot| *s = (thread * per + usize::from(*s) % per) as Slot;
    match op {
        Op::Open { slot, .. } | Op::Read { slot } | Op::Close { slot } => to(slot),
        Op::ReadAt { slot, .. } | Op::Write { slot, .. } => to(slot),
        _ => {}
    }
}

impl fmt::Display for NotLinearizable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let threads = self.program.threads.len();
        let verdict = match (self.gave_up, &self.broken) {
            (true, _) => "undecided (the search gave up)",
            (false, Some(_)) => "tree left broken",
            (false, None) => "not linearizable",
        };
        writeln!(
            f,
            "{verdict}: program seed {}, {} ops on {} threads (generated: {} ops on {} \
             threads); this history came from round {}",
            self.seed,
            ops_of(&self.program),
            threads,
            self.generated.0,
            self.generated.1,
            self.round
        )?;
        writeln!(f, "setup:")?;
        for op in &self.program.setup {
            writeln!(f, "  {op}")?;
        }
        writeln!(
            f,
            "history, one column per thread ([call, return] on one shared counter):"
        )?;
        let cells: Vec<String> = self
            .events
            .iter()
            .map(|e| format!("{} => {}", e.op, e.outcome))
            .collect();
        let width = cells.iter().map(String::len).max().unwrap_or(0).max(8);
        write!(f, "  {:>9} ", "")?;
        for t in 0..threads {
            write!(f, "| {:<width$} ", format!("thread {t}"))?;
        }
        writeln!(f)?;
        for (e, cell) in self.events.iter().zip(&cells) {
            write!(f, "  {:>9} ", format!("[{}, {}]", e.call, e.ret))?;
            for t in 0..threads {
                let text = if t == e.thread { cell.as_str() } else { "" };
                write!(f, "| {text:<width$} ")?;
            }
            writeln!(f)?;
        }
        if let Some(broken) = &self.broken {
            writeln!(
                f,
                "an order of these ops gives every outcome above on the oracle, but after \
                 the round the tree's invariants do not hold: {broken}"
            )
        } else if self.gave_up {
            writeln!(
                f,
                "the search for an order the oracle accepts visited {MAX_STATES} states without \
                 an answer: neither proven nor refuted."
            )
        } else {
            writeln!(
                f,
                "no order of these ops that keeps each one inside its [call, return] gives \
                 every outcome above on the oracle."
            )
        }
    }
}
