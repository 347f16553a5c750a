//! Renumbering: when the minimizer drops ops, the header ids, inode numbers and namespace
//! ids later ops name shift (ids count up from 1 in creation order). A later `unregister 3` whose
//! `register` is now the second one must say `unregister 2`, or dropping the first
//! `register` could never keep the divergence.
//!
//! The numbers are traced to the op whose outcome produced them by running the sequence on
//! the reference (the oracle, which agrees with the tree under test up to the divergence),
//! and rewritten to what that op produces in the shorter sequence. A number no kept op
//! produced (the root's inode, a made-up id) stays as it is.
//!
//! A `read_at` that continued where its handle's last read ended (SPEC §11: it reads the
//! snapshot) is kept continuing: its offset becomes the handle's position in the shorter
//! sequence, so dropping an op that changed a rendering's length does not turn it into a
//! fresh read.

use std::collections::{BTreeMap, BTreeSet};

use pdtree::{Limits, PseudoFs};
use pdtree_oracle::Oracle;

use crate::check::panic::catch;
use crate::lang::op::{FieldMut, Op};
use crate::lang::runner::{Outcome, Runner};

/// The counters whose numbers are renumbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Counter {
    Header,
    Ino,
    Ns,
}

/// Which op produced each header id, inode number and namespace id, and which `read_at`
/// ops continued a read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Producers {
    /// `(counter, value) → op index`.
    numbers: BTreeMap<(Counter, u64), usize>,
    /// Indices of `read_at` ops whose offset (not 0) was their handle's position.
    continuing: BTreeSet<usize>,
}

/// The position of handle `id` in the reference, from its dump (`handle <id> … pos=<n>`).
fn handle_pos(runner: &Runner<Oracle>, id: u64) -> Option<u64> {
    let prefix = format!("handle {id} ");
    let dump = runner.tree().dump();
    let line = dump.lines().find(|l| l.starts_with(&prefix))?;
    let pos = line.split(' ').find_map(|w| w.strip_prefix("pos="))?;
    pos.parse().ok()
}

/// Whether `op` is a `read_at` continuing where its handle's last read ended.
fn continues(runner: &Runner<Oracle>, op: &Op) -> bool {
    match op {
        Op::ReadAt { slot, offset, .. } if *offset != 0 => {
            handle_pos(runner, runner.handle(*slot % crate::SLOTS as u8)) == Some(*offset)
        }
        _ => false,
    }
}

/// The number an outcome hands out, with its counter.
fn produced(out: &Outcome) -> Option<(Counter, u64)> {
    match *out {
        Outcome::Header(h) => Some((Counter::Header, h)),
        Outcome::Ino(n) => Some((Counter::Ino, n)),
        Outcome::Ns(k) => Some((Counter::Ns, k)),
        _ => None,
    }
}

/// The ops at the indices where `keep` is true, with header ids and inode numbers that came
/// from a kept op's outcome (per `producers`, of `ops`) rewritten to that op's outcome in the
/// kept sequence.
///
/// ```text
/// mkdir "/a"; mkdir "/b"; lookup_at 3 "x"   --drop mkdir "/a"-->   mkdir "/b"; lookup_at 2 "x"
/// ```
pub(crate) fn renumber(
    limits: Limits,
    ops: &[Op],
    producers: &Producers,
    keep: &[bool],
) -> Vec<Op> {
    let mut runner: Runner<Oracle> = Runner::from_tree(Oracle::with_limits(limits));
    let mut now: BTreeMap<usize, u64> = BTreeMap::new();
    let mut out = Vec::new();
    for (i, op) in ops.iter().enumerate().filter(|(i, _)| keep[*i]) {
        let mut op = op.clone();
        if let (true, Op::ReadAt { slot, offset, .. }) =
            (producers.continuing.contains(&i), &mut op)
        {
            if let Some(pos) = handle_pos(&runner, runner.handle(*slot % crate::SLOTS as u8)) {
                if pos != 0 {
                    *offset = pos;
                }
            }
        }
        for field in op.fields_mut() {
            let (counter, n) = match field {
                FieldMut::Header(n) => (Counter::Header, n),
                FieldMut::Ino(n) => (Counter::Ino, n),
                FieldMut::Ns(n) | FieldMut::View(n) => (Counter::Ns, n),
                _ => continue,
            };
            let new = producers
                .numbers
                .get(&(counter, *n))
                .and_then(|p| now.get(p));
            if let Some(&v) = new {
                *n = v;
            }
        }
        match catch(|| runner.apply(&op)) {
            Ok(out) => {
                if let Some((_, v)) = produced(&out) {
                    now.insert(i, v);
                }
            }
            Err(_) => break,
        }
        out.push(op);
    }
    out
}

/// Runs `ops` on the reference and records which op first returned each id and inode.
pub(crate) fn producers(limits: Limits, ops: &[Op]) -> Producers {
    let mut runner: Runner<Oracle> = Runner::from_tree(Oracle::with_limits(limits));
    let mut producers = Producers::default();
    for (i, op) in ops.iter().enumerate() {
        if continues(&runner, op) {
            producers.continuing.insert(i);
        }
        match catch(|| runner.apply(op)) {
            Ok(out) => {
                if let Some(key) = produced(&out) {
                    producers.numbers.entry(key).or_insert(i);
                }
            }
            Err(_) => break,
        }
    }
    producers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_an_op_renumbers_what_it_shifted() {
        let ops = vec![
            Op::Register {
                dir: b"/a".to_vec(),
                rows: vec![],
            },
            Op::Register {
                dir: b"/b".to_vec(),
                rows: vec![],
            },
            Op::Mkdir {
                path: b"/c".to_vec(),
            },
            Op::Unregister { header: 2 },
            Op::LookupAt {
                view: 0,
                dir: 4,
                name: b"x".to_vec(),
            },
            Op::LookupAt {
                view: 0,
                dir: 1,
                name: b"c".to_vec(),
            },
        ];
        let keep = [false, true, true, true, true, true];
        let made_by = producers(Limits::default(), &ops);
        let got = renumber(Limits::default(), &ops, &made_by, &keep);
        assert_eq!(got[2], Op::Unregister { header: 1 });
        assert_eq!(
            got[3],
            Op::LookupAt {
                view: 0,
                dir: 3,
                name: b"x".to_vec()
            }
        );
        assert_eq!(
            got[4],
            Op::LookupAt {
                view: 0,
                dir: 1,
                name: b"c".to_vec()
            },
            "the root stays"
        );
    }
}
