//! Shrinking a diverging op sequence while keeping the same [`Divergence::signature`].
//!
//! 1. Cut everything after the diverging op.
//! 2. Op-level delta debugging (ddmin, Zeller & Hildebrandt 2002): remove chunks of ops,
//!    halving the chunk size down to single ops, while the signature stays the same.
//! 3. Per-op simplification: shorter paths (fewer components, one-byte names), fewer register
//!    rows, shorter contents, smaller numbers and slot 0 — each candidate kept only if the
//!    signature stays the same; repeated to a fixpoint, then ddmin once more.
//!
//! [`minimize_case`] also tries putting each limit back to its default. Every step is a pure
//! function of its inputs: minimizing twice gives the same result. The number of trial runs is
//! capped ([`MAX_TRIALS`]) so a pathological case still ends.
//!
//! ```
//! use pdtree::{Limits, PseudoFs, Tree};
//! use pdtree_harness::{diff::run_ops, faults::{Fault, Faulty}, minimize::minimize, Op};
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

use pdtree::{Limits, PseudoFs, Row, RowKind};

use crate::diff::{run_ops, Divergence};
use crate::op::Op;

/// The most differential runs one minimization may spend.
pub const MAX_TRIALS: usize = 20_000;

struct Trial<'a, A> {
    limits: Limits,
    signature: String,
    make_a: &'a dyn Fn(Limits) -> A,
    trials: usize,
}

impl<A: PseudoFs> Trial<'_, A> {
    fn fails(&mut self, ops: &[Op]) -> bool {
        if self.trials >= MAX_TRIALS {
            return false;
        }
        self.trials += 1;
        run_ops(self.limits, ops, self.make_a)
            .err()
            .is_some_and(|d| d.signature() == self.signature)
    }
}

fn ddmin<A: PseudoFs>(t: &mut Trial<'_, A>, mut cur: Vec<Op>) -> Vec<Op> {
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

fn simpler_bytes(b: &[u8]) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    if !b.is_empty() {
        v.push(Vec::new());
    }
    if b.len() > 1 {
        v.push(b[..1].to_vec());
        v.push(b[..b.len() / 2].to_vec());
        v.push(b[..b.len() - 1].to_vec());
    }
    v
}

fn simpler_name(b: &[u8]) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    if b != b"a" {
        v.push(b"a".to_vec());
    }
    if b.len() > 2 {
        v.push(b[..b.len() / 2].to_vec());
        v.push(b[..b.len() - 1].to_vec());
    }
    v
}

fn simpler_path(p: &[u8]) -> Vec<Vec<u8>> {
    let lead = p.first() == Some(&b'/');
    let body = if lead { &p[1..] } else { p };
    let comps: Vec<&[u8]> = body.split(|&b| b == b'/').collect();
    let build = |cs: &[Vec<u8>]| {
        let mut out = if lead { b"/".to_vec() } else { Vec::new() };
        out.extend_from_slice(&cs.join(&b'/'));
        out
    };
    let owned: Vec<Vec<u8>> = comps.iter().map(|c| c.to_vec()).collect();
    let mut v = Vec::new();
    if owned.len() > 1 {
        v.push(build(&owned[1..]));
        v.push(build(&owned[..owned.len() - 1]));
    }
    for i in 0..owned.len() {
        for s in simpler_name(&owned[i]) {
            let mut cs = owned.clone();
            cs[i] = s;
            v.push(build(&cs));
        }
    }
    v
}

fn simpler_num(n: u64) -> Vec<u64> {
    let mut v = Vec::new();
    for c in [0, 1, n / 2, n.saturating_sub(1)] {
        if c < n && !v.contains(&c) {
            v.push(c);
        }
    }
    v
}

/// Simpler variants of one op, simplest first.
fn candidates(op: &Op) -> Vec<Op> {
    let mut out = Vec::new();
    match op {
        Op::Mkdir { path } => out.extend(
            simpler_path(path)
                .into_iter()
                .map(|path| Op::Mkdir { path }),
        ),
        Op::Listing { path } => out.extend(
            simpler_path(path)
                .into_iter()
                .map(|path| Op::Listing { path }),
        ),
        Op::Stat { path } => {
            out.extend(simpler_path(path).into_iter().map(|path| Op::Stat { path }))
        }
        Op::Remove { path } => out.extend(
            simpler_path(path)
                .into_iter()
                .map(|path| Op::Remove { path }),
        ),
        Op::RemoveSubtree { path } => out.extend(
            simpler_path(path)
                .into_iter()
                .map(|path| Op::RemoveSubtree { path }),
        ),
        Op::MarkPermanent { path } => out.extend(
            simpler_path(path)
                .into_iter()
                .map(|path| Op::MarkPermanent { path }),
        ),
        Op::Create { path, content } => {
            for p in simpler_path(path) {
                out.push(Op::Create {
                    path: p,
                    content: content.clone(),
                });
            }
            for c in simpler_bytes(content) {
                out.push(Op::Create {
                    path: path.clone(),
                    content: c,
                });
            }
        }
        Op::Symlink { path, target } => {
            for p in simpler_path(path) {
                out.push(Op::Symlink {
                    path: p,
                    target: target.clone(),
                });
            }
            for c in simpler_bytes(target) {
                out.push(Op::Symlink {
                    path: path.clone(),
                    target: c,
                });
            }
        }
        Op::Register { dir, rows } => {
            let n = rows.len();
            if n > 1 {
                for part in [&rows[..n / 2], &rows[n / 2..], &rows[..n - 1]] {
                    out.push(Op::Register {
                        dir: dir.clone(),
                        rows: part.to_vec(),
                    });
                }
            }
            // Row by row only for small tables (a 1025-row E2BIG table shrinks by halves).
            let each = if n <= 16 { n } else { 0 };
            for i in 0..each {
                let mut r = rows.clone();
                r.remove(i);
                out.push(Op::Register {
                    dir: dir.clone(),
                    rows: r,
                });
            }
            for d in simpler_path(dir) {
                out.push(Op::Register {
                    dir: d,
                    rows: rows.clone(),
                });
            }
            for i in 0..each {
                let mut simpler: Vec<Row> = Vec::new();
                for nm in simpler_name(&rows[i].name) {
                    simpler.push(Row {
                        name: nm,
                        kind: rows[i].kind.clone(),
                    });
                }
                if let RowKind::File(c) = &rows[i].kind {
                    for c in simpler_bytes(c) {
                        simpler.push(Row {
                            name: rows[i].name.clone(),
                            kind: RowKind::File(c),
                        });
                    }
                }
                for s in simpler {
                    let mut r = rows.clone();
                    r[i] = s;
                    out.push(Op::Register {
                        dir: dir.clone(),
                        rows: r,
                    });
                }
            }
        }
        Op::Unregister { header } => out.extend(
            simpler_num(*header)
                .into_iter()
                .map(|header| Op::Unregister { header }),
        ),
        Op::LookupAt { dir, name } => {
            for d in simpler_num(*dir) {
                out.push(Op::LookupAt {
                    dir: d,
                    name: name.clone(),
                });
            }
            for n in simpler_name(name) {
                out.push(Op::LookupAt { dir: *dir, name: n });
            }
        }
        Op::Readdir { dir, pos, max } => {
            for d in simpler_num(*dir) {
                out.push(Op::Readdir {
                    dir: d,
                    pos: *pos,
                    max: *max,
                });
            }
            for p in simpler_num(*pos) {
                out.push(Op::Readdir {
                    dir: *dir,
                    pos: p,
                    max: *max,
                });
            }
            for m in simpler_num(*max as u64) {
                out.push(Op::Readdir {
                    dir: *dir,
                    pos: *pos,
                    max: m as usize,
                });
            }
        }
        Op::Open { slot, path } => {
            if *slot != 0 {
                out.push(Op::Open {
                    slot: 0,
                    path: path.clone(),
                });
            }
            for p in simpler_path(path) {
                out.push(Op::Open {
                    slot: *slot,
                    path: p,
                });
            }
        }
        Op::OpenDir { slot, path } => {
            if *slot != 0 {
                out.push(Op::OpenDir {
                    slot: 0,
                    path: path.clone(),
                });
            }
            for p in simpler_path(path) {
                out.push(Op::OpenDir {
                    slot: *slot,
                    path: p,
                });
            }
        }
        Op::Read { slot } if *slot != 0 => out.push(Op::Read { slot: 0 }),
        Op::Close { slot } if *slot != 0 => out.push(Op::Close { slot: 0 }),
        Op::Rewind { slot } if *slot != 0 => out.push(Op::Rewind { slot: 0 }),
        Op::ReadPage { slot, max } => {
            if *slot != 0 {
                out.push(Op::ReadPage { slot: 0, max: *max });
            }
            for m in simpler_num(*max as u64) {
                out.push(Op::ReadPage {
                    slot: *slot,
                    max: m as usize,
                });
            }
        }
        Op::Seek { slot, pos } => {
            if *slot != 0 {
                out.push(Op::Seek { slot: 0, pos: *pos });
            }
            for p in simpler_num(*pos) {
                out.push(Op::Seek {
                    slot: *slot,
                    pos: p,
                });
            }
        }
        _ => {}
    }
    out
}

fn simplify_ops<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
    for _round in 0..8 {
        let mut changed = false;
        for i in 0..ops.len() {
            'again: loop {
                for c in candidates(&ops[i]) {
                    let mut cand = ops.clone();
                    cand[i] = c;
                    if t.fails(&cand) {
                        ops = cand;
                        changed = true;
                        continue 'again;
                    }
                }
                break;
            }
        }
        if !changed {
            break;
        }
    }
    ops
}

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
    let mut path = |x: &[u8]| {
        for c in x.split(|&b| b == b'/') {
            if !c.is_empty() && !set.iter().any(|s| s == c) {
                set.push(c.to_vec());
            }
        }
    };
    for op in ops {
        match op {
            Op::Mkdir { path: x }
            | Op::Create { path: x, .. }
            | Op::Symlink { path: x, .. }
            | Op::Listing { path: x }
            | Op::Stat { path: x }
            | Op::Remove { path: x }
            | Op::RemoveSubtree { path: x }
            | Op::MarkPermanent { path: x }
            | Op::Open { path: x, .. }
            | Op::OpenDir { path: x, .. }
            | Op::LookupAt { name: x, .. } => path(x),
            Op::Register { dir, rows } => {
                path(dir);
                for r in rows {
                    path(&r.name);
                }
            }
            _ => {}
        }
    }
    set
}

/// Renames each name consistently across all ops to the first free one-letter name.
fn rename_pass<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
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

fn shrink<A: PseudoFs>(t: &mut Trial<'_, A>, ops: &[Op], d: &Divergence) -> Vec<Op> {
    let mut cur = ops[..(d.index + 1).min(ops.len())].to_vec();
    if !t.fails(&cur) {
        cur = ops.to_vec();
        if !t.fails(&cur) {
            return cur; // does not reproduce: leave it alone
        }
    }
    let cur = ddmin(t, cur);
    let cur = rename_pass(t, cur);
    let cur = simplify_ops(t, cur);
    ddmin(t, cur)
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

/// [`minimize`], then each limit put back to its default where the signature survives, and
/// the ops shrunk once more under those limits. Returns the limits and ops.
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
    let def = Limits::default();
    let tries: [fn(&mut Limits, &Limits); 4] = [
        |l, d| l.max_entries = d.max_entries,
        |l, d| l.max_content = d.max_content,
        |l, d| l.max_table_rows = d.max_table_rows,
        |l, d| l.max_readdir = d.max_readdir,
    ];
    let mut changed = false;
    for f in tries {
        let mut l = t.limits;
        f(&mut l, &def);
        if l != t.limits {
            let saved = t.limits;
            t.limits = l;
            if t.fails(&ops) {
                changed = true;
            } else {
                t.limits = saved;
            }
        }
    }
    if changed {
        let ops = simplify_ops(&mut t, ops);
        let ops = ddmin(&mut t, ops);
        (t.limits, ops)
    } else {
        (t.limits, ops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_candidates_are_simpler() {
        let c = simpler_path(b"/net/eth0");
        assert!(c.contains(&b"/eth0".to_vec()));
        assert!(c.contains(&b"/net".to_vec()));
        assert!(c.contains(&b"/a/eth0".to_vec()));
        assert!(simpler_path(b"/a").is_empty());
        assert_eq!(simpler_num(0), Vec::<u64>::new());
        assert_eq!(simpler_num(10), vec![0, 1, 5, 9]);
    }
}
