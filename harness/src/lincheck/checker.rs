//! The linearizability check: is there one sequential order of a concurrent history's
//! operations, consistent with real time, in which the oracle gives every operation the
//! outcome it had?
//!
//! Wing and Gong's search with Lowe's memoization, as Porcupine and Lincheck do it: extend a
//! prefix of the order by any operation that is *minimal* (called before every unplaced
//! operation returned), run it on a copy of the oracle, keep it if the outcome matches; a
//! (placed set, oracle state) pair that failed once is never searched again. The state is
//! the oracle's canonical dump and the runner's slot tables, so two prefixes that reach the
//! same tree by different orders are searched once.

use std::collections::HashSet;

use pdtree::{Limits, PseudoFs};
use pdtree_oracle::Oracle;

use crate::lang::op::{Op, SLOTS};
use crate::lang::runner::{Outcome, Runner};

/// One operation of a history: who ran it, when it was called and when it returned (ticks
/// of one shared counter), and what it answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The thread that ran it, from 0.
    pub thread: usize,
    /// The op.
    pub op: Op,
    /// The counter's value just before the call.
    pub call: u64,
    /// The counter's value just after the return; `call < ret`.
    pub ret: u64,
    /// What the tree under test answered.
    pub outcome: Outcome,
}

/// The most operations one history may hold: the placed set is a `u128`.
pub const MAX_EVENTS: usize = 128;

/// The states the search may visit before it gives up (a limit on every search; a history
/// of this checker's sizes needs far fewer).
pub const MAX_STATES: usize = 2_000_000;

/// What the search concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An order the oracle accepts: indexes into the history, first to last.
    Linearizable(Vec<usize>),
    /// No order is accepted.
    NotLinearizable,
    /// The search visited [`MAX_STATES`] states without an answer.
    GaveUp,
}

struct Search<'h> {
    events: &'h [Event],
    /// (placed set, state) pairs that do not extend; the whole state text, not a hash of
    /// it, so a hash collision cannot prune a good order.
    failed: HashSet<(u128, String)>,
    visited: usize,
    order: Vec<usize>,
}

/// Checks `events` after `setup` (run sequentially first, on a fresh oracle with `limits`).
/// Panics if the history holds more than [`MAX_EVENTS`] operations.
///
/// ```
/// use pdtree::Errno;
/// use pdtree_harness::lincheck::{linearizable, Event, Verdict};
/// use pdtree_harness::{Op, Outcome};
/// let create = Op::Create { path: b"/a".to_vec(), content: vec![] };
/// // Two overlapping creates of one name cannot both succeed.
/// let both_ok = [
///     Event { thread: 0, op: create.clone(), call: 0, ret: 3, outcome: Outcome::Ino(2) },
///     Event { thread: 1, op: create.clone(), call: 1, ret: 2, outcome: Outcome::Ino(2) },
/// ];
/// assert_eq!(linearizable(Default::default(), &[], &both_ok), Verdict::NotLinearizable);
/// let one_ok = [both_ok[0].clone(), Event { outcome: Outcome::Err(Errno::EEXIST), ..both_ok[1].clone() }];
/// assert_eq!(linearizable(Default::default(), &[], &one_ok), Verdict::Linearizable(vec![0, 1]));
/// ```
pub fn linearizable(limits: Limits, setup: &[Op], events: &[Event]) -> Verdict {
    assert!(
        events.len() <= MAX_EVENTS,
        "{} events > {MAX_EVENTS}",
        events.len()
    );
    let mut start: Runner<Oracle> = Runner::from_tree(Oracle::with_limits(limits));
    for op in setup {
        start.apply(op);
    }
    let mut s = Search {
        events,
        failed: HashSet::new(),
        visited: 0,
        order: Vec::with_capacity(events.len()),
    };
    match s.extend(&start, 0) {
        Some(true) => Verdict::Linearizable(s.order),
        Some(false) => Verdict::NotLinearizable,
        None => Verdict::GaveUp,
    }
}

impl Search<'_> {
    /// Whether the order placed so far (`placed`, reaching `state`) extends to a whole one;
    /// `None` when the state limit is hit.
    fn extend(&mut self, state: &Runner<Oracle>, placed: u128) -> Option<bool> {
        let all = if self.events.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.events.len()) - 1
        };
        if placed == all {
            return Some(true);
        }
        let key = (placed, state_text(state));
        if self.failed.contains(&key) {
            return Some(false);
        }
        self.visited += 1;
        if self.visited > MAX_STATES {
            return None;
        }
        for i in self.minimal(placed) {
            let mut next = state.clone();
            if next.apply(&self.events[i].op) != self.events[i].outcome {
                continue;
            }
            self.order.push(i);
            if self.extend(&next, placed | (1 << i))? {
                return Some(true);
            }
            self.order.pop();
        }
        self.failed.insert(key);
        Some(false)
    }

    /// The unplaced events that may come next: called before every unplaced event returned.
    fn minimal(&self, placed: u128) -> Vec<usize> {
        let unplaced = || (0..self.events.len()).filter(|&i| placed & (1 << i) == 0);
        let first_ret = unplaced().map(|i| self.events[i].ret).min().unwrap_or(0);
        unplaced()
            .filter(|&i| self.events[i].call < first_ret)
            .collect()
    }
}

fn state_text(r: &Runner<Oracle>) -> String {
    let mut text = r.tree().dump();
    for slot in 0..SLOTS as u8 {
        let c = r.cursor(slot);
        text.push_str(&format!(" {}:{}:{}", r.handle(slot), c.ino, c.pos));
    }
    text
}
