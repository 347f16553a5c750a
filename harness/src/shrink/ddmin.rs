//! Op-level delta debugging (ddmin, Zeller & Hildebrandt 2002): remove chunks of ops, halving
//! the chunk size down to single ops, while the signature stays the same.

use pdtree::PseudoFs;

use std::ops::Range;

use crate::lang::op::Op;
use crate::shrink::renumber::{producers, renumber, Producers};
use crate::shrink::Trial;

pub(crate) fn ddmin<A: PseudoFs>(t: &mut Trial<'_, A>, mut cur: Vec<Op>) -> Vec<Op> {
    if t.fails(&[]) {
        return Vec::new();
    }
    let mut n = 2usize;
    while cur.len() >= 2 {
        let len = cur.len();
        let chunk = len.div_ceil(n);
        let mut reduced = false;
        let mut start = 0;
        // Who produced each number in `cur`, traced once per version of `cur`.
        let made_by = producers(t.limits, &cur);
        while start < len {
            let end = (start + chunk).min(len);
            if let Some(cand) = without(t, &cur, &made_by, start..end) {
                cur = cand;
                n = (n - 1).max(2);
                reduced = true;
                break;
            }
            start = end;
        }
        if !reduced {
            if n >= len {
                break;
            }
            n = (2 * n).min(len);
        }
    }
    cur
}

/// `cur` without the ops in `drop`, if that still fails: first with the later ops' header ids
/// and inode numbers renumbered (see [`renumber`]), then, if renumbering changed anything,
/// as they are.
pub(crate) fn without<A: PseudoFs>(
    t: &mut Trial<'_, A>,
    cur: &[Op],
    made_by: &Producers,
    drop: Range<usize>,
) -> Option<Vec<Op>> {
    let keep: Vec<bool> = (0..cur.len()).map(|i| !drop.contains(&i)).collect();
    let renumbered = renumber(t.limits, cur, made_by, &keep);
    if t.fails(&renumbered) {
        return Some(renumbered);
    }
    let mut plain = cur[..drop.start].to_vec();
    plain.extend_from_slice(&cur[drop.end..]);
    (plain != renumbered && t.fails(&plain)).then_some(plain)
}
