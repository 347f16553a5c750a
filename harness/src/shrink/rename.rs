//! Consistent renaming: each name used across the ops becomes the first free one-letter
//! name, when the signature survives.

use pdtree::PseudoFs;

use crate::lang::op::{Field, Op};
use crate::shrink::Trial;

fn rename_path(p: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let parts: Vec<&[u8]> = p.split(|&b| b == b'/').collect();
    let mapped: Vec<&[u8]> = parts
        .into_iter()
        .map(|c| if c == from { to } else { c })
        .collect();
    mapped.join(&b'/')
}

/// `op` with every path component and name equal to `from` replaced by `to`.
fn rename_op(op: &Op, from: &[u8], to: &[u8]) -> Op {
    let p = |x: &[u8]| rename_path(x, from, to);
    let n = |x: &[u8]| if x == from { to.to_vec() } else { x.to_vec() };
    op.map_strings(&p, &n, &|x: &[u8]| x.to_vec())
}

/// Every name used in `ops` (path components, row names, looked-up names), in order of first
/// appearance.
fn names_in(ops: &[Op]) -> Vec<Vec<u8>> {
    let mut set: Vec<Vec<u8>> = Vec::new();
    let mut add = |x: &[u8]| {
        for c in x.split(|&b| b == b'/') {
            if !c.is_empty() && !set.iter().any(|s| s == c) {
                set.push(c.to_vec());
            }
        }
    };
    for field in ops.iter().flat_map(Op::fields) {
        match field {
            Field::Path(x) | Field::NewPath(x) | Field::Name(x) => add(x),
            Field::Rows(rows) => rows.iter().for_each(|r| add(&r.name)),
            _ => {}
        }
    }
    set
}

/// Renames each name consistently across all ops to the first free one-letter name.
pub(crate) fn rename_pass<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
    for from in names_in(&ops) {
        if from.len() == 1 && from[0].is_ascii_lowercase() {
            continue;
        }
        let used = names_in(&ops);
        let Some(to) = (b'a'..=b'z').map(|c| vec![c]).find(|c| !used.contains(c)) else {
            break;
        };
        let cand: Vec<Op> = ops.iter().map(|o| rename_op(o, &from, &to)).collect();
        if t.fails(&cand) {
            ops = cand;
        }
    }
    ops
}
