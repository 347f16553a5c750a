//! Renumbering: when the minimizer drops ops, the header ids and inode numbers later ops
//! name shift (ids count up from 1 in creation order). A later `unregister 3` whose
//! `register` is now the second one must say `unregister 2`, or dropping the first
//! `register` could never keep the divergence.
//!
//! The numbers are traced to the op whose outcome produced them by running the sequence on
//! the reference (the oracle, which agrees with the tree under test up to the divergence),
//! and rewritten to what that op produces in the shorter sequence. A number no kept op
//! produced (the root's inode, a made-up id) stays as it is.

use std::collections::BTreeMap;

use pdtree::{Limits, PseudoFs};
use pdtree_oracle::Oracle;

use crate::check::panic::catch;
use crate::lang::op::{FieldMut, Op};
use crate::lang::runner::{Outcome, Runner};

/// Which op produced each header id and inode number: `(is_header, value) → op index`.
pub(crate) type Producers = BTreeMap<(bool, u64), usize>;

/// The ops at the indices where `keep` is true, with header ids and inode numbers that came
/// from a kept op's outcome (per `producers`, of `ops`) rewritten to that op's outcome in the
/// kept sequence.
///
/// ```ignore
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
        for field in op.fields_mut() {
            let (is_header, n) = match field {
                FieldMut::Header(n) => (true, n),
                FieldMut::Ino(n) => (false, n),
                _ => continue,
            };
            let new = producers.get(&(is_header, *n)).and_then(|p| now.get(p));
            if let Some(&v) = new {
                *n = v;
            }
        }
        match catch(|| runner.apply(&op)) {
            Ok(Outcome::Header(v) | Outcome::Ino(v)) => {
                now.insert(i, v);
            }
            Ok(_) => {}
            Err(_) => break,
        }
        out.push(op);
    }
    out
}

/// Runs `ops` on the reference and records which op first returned each id and inode.
pub(crate) fn producers(limits: Limits, ops: &[Op]) -> Producers {
    let mut runner: Runner<Oracle> = Runner::from_tree(Oracle::with_limits(limits));
    let mut producers = Producers::new();
    for (i, op) in ops.iter().enumerate() {
        match catch(|| runner.apply(op)) {
            Ok(Outcome::Header(h)) => {
                producers.entry((true, h)).or_insert(i);
            }
            Ok(Outcome::Ino(n)) => {
                producers.entry((false, n)).or_insert(i);
            }
            Ok(_) => {}
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
