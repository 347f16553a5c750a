//! Limits made as plain as the case allows: back to the defaults where they do not matter,
//! and down to what the case needs where that lets the ops shrink (an `ENOSPC` report then
//! needs one entry past the limit, not sixteen).

use pdtree::{Limits, PseudoFs};

use crate::lang::op::Op;
use crate::shrink::{reshrink, Trial};

/// One limit: read it, and a copy of the limits with it set.
struct Knob {
    get: fn(&Limits) -> u64,
    set: fn(&mut Limits, u64),
    /// The smallest value worth trying (a page size of 0 makes every readdir `EINVAL`).
    floor: u64,
}

const KNOBS: [Knob; 4] = [
    Knob {
        get: |l| l.max_entries,
        set: |l, v| l.max_entries = v,
        floor: 1,
    },
    Knob {
        get: |l| l.max_content as u64,
        set: |l, v| l.max_content = v as usize,
        floor: 0,
    },
    Knob {
        get: |l| l.max_table_rows as u64,
        set: |l, v| l.max_table_rows = v as usize,
        floor: 0,
    },
    Knob {
        get: |l| l.max_readdir as u64,
        set: |l, v| l.max_readdir = v as usize,
        floor: 1,
    },
];

/// Puts each limit back to its default where the signature survives. Whether any changed.
pub(crate) fn restore_defaults<A: PseudoFs>(t: &mut Trial<'_, A>, ops: &[Op]) -> bool {
    let mut changed = false;
    for k in &KNOBS {
        let default = (k.get)(&Limits::default());
        if (k.get)(&t.limits) != default && fails_with(t, k, default, ops) {
            (k.set)(&mut t.limits, default);
            changed = true;
        }
    }
    changed
}

/// Lowers each limit to the smallest value (of the floor, the powers of two below the
/// current value, and one below it) that keeps the signature, then shrinks the ops under it;
/// keeps the lower limit only if the ops got shorter.
pub(crate) fn lower<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
    for k in &KNOBS {
        let current = (k.get)(&t.limits);
        let Some(v) = candidates(k.floor, current)
            .into_iter()
            .find(|&v| fails_with(t, k, v, &ops))
        else {
            continue;
        };
        let saved = t.limits;
        (k.set)(&mut t.limits, v);
        let shorter = reshrink(t, ops.clone());
        if shorter.len() < ops.len() {
            ops = shorter;
        } else {
            t.limits = saved;
        }
    }
    ops
}

/// Shrinks every table over the row limit together with the limit: removing a chunk of `k`
/// rows also lowers `max_table_rows` by `k`, so an `E2BIG` case keeps its one row too many
/// while its table goes from a thousand rows to the few that matter (chunks halve down to
/// single rows, as in ddmin).
pub(crate) fn shrink_oversized_tables<A: PseudoFs>(
    t: &mut Trial<'_, A>,
    mut ops: Vec<Op>,
) -> Vec<Op> {
    for i in 0..ops.len() {
        let mut chunk = table_rows(&ops[i]).saturating_sub(1).max(1);
        while chunk >= 1 && table_rows(&ops[i]) > t.limits.max_table_rows {
            if !drop_rows_in_chunks(t, &mut ops, i, chunk) {
                chunk /= 2;
            }
        }
    }
    ops
}

/// One pass over op `i`'s rows in chunks of `chunk`, keeping each removal (and the lowered
/// limit) that still fails. Whether any was kept.
fn drop_rows_in_chunks<A: PseudoFs>(
    t: &mut Trial<'_, A>,
    ops: &mut [Op],
    i: usize,
    chunk: usize,
) -> bool {
    let mut kept = false;
    let mut start = 0;
    while start < table_rows(&ops[i]) && chunk <= t.limits.max_table_rows {
        let Op::Register { dir, rows } = &ops[i] else {
            return kept;
        };
        let end = (start + chunk).min(rows.len());
        let mut fewer = rows.clone();
        fewer.drain(start..end);
        let cand_op = Op::Register {
            dir: dir.clone(),
            rows: fewer,
        };
        let saved = (t.limits, ops[i].clone());
        t.limits.max_table_rows -= end - start;
        ops[i] = cand_op;
        if t.fails(ops) {
            kept = true;
        } else {
            (t.limits, ops[i]) = saved;
            start = end;
        }
    }
    kept
}

fn table_rows(op: &Op) -> usize {
    match op {
        Op::Register { rows, .. } => rows.len(),
        _ => 0,
    }
}

/// The values to try below `current`, ascending, none below the floor: the floor, powers of
/// two, `current - 1`.
fn candidates(floor: u64, current: u64) -> Vec<u64> {
    let powers = (0..64).map(|p| 1u64 << p);
    let mut v: Vec<u64> = std::iter::once(floor)
        .chain(powers)
        .chain(std::iter::once(current.saturating_sub(1)))
        .filter(|&v| floor <= v && v < current)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn fails_with<A: PseudoFs>(t: &mut Trial<'_, A>, k: &Knob, v: u64, ops: &[Op]) -> bool {
    let saved = t.limits;
    (k.set)(&mut t.limits, v);
    let fails = t.fails(ops);
    t.limits = saved;
    fails
}

#[cfg(test)]
mod tests {
    use super::candidates;

    #[test]
    fn candidates_ascend_below_the_current_value() {
        assert_eq!(candidates(1, 20), vec![1, 2, 4, 8, 16, 19]);
        assert_eq!(candidates(0, 3), vec![0, 1, 2]);
        assert_eq!(candidates(1, 1), Vec::<u64>::new());
    }
}
