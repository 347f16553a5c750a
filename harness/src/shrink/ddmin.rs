//! Op-level delta debugging (ddmin, Zeller & Hildebrandt 2002): remove chunks of ops, halving
//! the chunk size down to single ops, while the signature stays the same.

use pdtree::PseudoFs;

use crate::lang::op::Op;
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
        while start < len {
            let end = (start + chunk).min(len);
            let mut cand = cur[..start].to_vec();
            cand.extend_from_slice(&cur[end..]);
            if t.fails(&cand) {
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
