//! Per-op simplification: each field of an op made simpler by its [`Role`]: shorter paths
//! (fewer components, one-byte names), fewer table rows, shorter contents, smaller numbers,
//! slot 0.

use pdtree::{PseudoFs, Row, RowKind};

#[cfg(doc)]
use crate::lang::op::Role;
use crate::lang::op::{Field, FieldMut, Op};
use crate::shrink::Trial;

pub(crate) fn simpler_bytes(b: &[u8]) -> Vec<Vec<u8>> {
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

pub(crate) fn simpler_name(b: &[u8]) -> Vec<Vec<u8>> {
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

pub(crate) fn simpler_path(p: &[u8]) -> Vec<Vec<u8>> {
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

pub(crate) fn simpler_num(n: u64) -> Vec<u64> {
    let mut v = Vec::new();
    for c in [0, 1, n / 2, n.saturating_sub(1)] {
        if c < n && !v.contains(&c) {
            v.push(c);
        }
    }
    v
}

/// Smaller counts for a `bulk`, `chain` or `cycle_*` op: 0, 1, half, then ever closer
/// below `n` (`n` less a quarter, an eighth, … one). A bug that needs 2^16 files in a bulk
/// of 96,007 then takes O(log² n) trials to reach 65,536, where stepping down by one from
/// `n - 1` took one trial per file, each rebuilding the directory.
/// The counts come out in increasing order, so the minimizer tries the smallest first.
pub(crate) fn simpler_count(n: u64) -> Vec<u64> {
    let mut v: Vec<u64> = [0, 1, n / 2].into_iter().filter(|&c| c < n).collect();
    // n − d for d = n/4, n/8, …, 1: every gap halves, down to n − 1.
    let gaps = std::iter::successors(Some(n / 4), |&d| Some(d / 2)).take_while(|&d| d >= 1);
    v.extend(gaps.map(|d| n - d));
    if n >= 1 {
        v.push(n - 1);
    }
    v.dedup();
    v
}

/// Simpler variants of one op, simplest first: for each field in script order, the op with
/// that field replaced by each simpler value of its role.
pub fn simpler_variants(op: &Op) -> Vec<Op> {
    let mut out = Vec::new();
    for (i, field) in op.fields().into_iter().enumerate() {
        for value in simpler_values(field) {
            let mut cand = op.clone();
            if let Some(slot) = cand.fields_mut().into_iter().nth(i) {
                value.store(slot);
            }
            out.push(cand);
        }
    }
    out
}

/// The op as a simpler kind, simplest first: a creation or table as `mkdir` (a file as
/// `create` first), a table of several rows also as a `bulk` of as many files (whose files,
/// unlike a table's rows, a later `remove` can take), `remove_subtree` as `remove`,
/// `read_at` as `read`.
pub(crate) fn simpler_kinds(op: &Op) -> Vec<Op> {
    let mkdir = |path: &[u8]| Op::Mkdir {
        path: path.to_vec(),
    };
    let create = |path: &[u8], content: &[u8]| Op::Create {
        path: path.to_vec(),
        content: content.to_vec(),
    };
    match op {
        Op::Create { path, .. } => vec![mkdir(path)],
        Op::Symlink { path, target } => vec![mkdir(path), create(path, target)],
        Op::Listing { path } | Op::Generated { path, .. } => vec![mkdir(path), create(path, b"")],
        Op::ReadAt { slot, .. } => vec![Op::Read { slot: *slot }],
        Op::Register { dir, rows } if rows.len() > 1 => vec![
            mkdir(dir),
            Op::Bulk {
                dir: dir.clone(),
                prefix: b"a".to_vec(),
                count: rows.len(),
            },
        ],
        Op::Register { dir, .. } => vec![mkdir(dir)],
        Op::RemoveSubtree { path } => vec![Op::Remove { path: path.clone() }],
        _ => Vec::new(),
    }
}

/// A simpler value for one field.
enum Value {
    Bytes(Vec<u8>),
    Rows(Vec<Row>),
    Num(u64),
}

impl Value {
    fn store(self, field: FieldMut<'_>) {
        match (self, field) {
            (
                Value::Bytes(v),
                FieldMut::Path(b)
                | FieldMut::NewPath(b)
                | FieldMut::Name(b)
                | FieldMut::Data(b)
                | FieldMut::Source(b),
            ) => *b = v,
            (Value::Rows(v), FieldMut::Rows(r)) => *r = v,
            (Value::Num(n), FieldMut::Ino(x) | FieldMut::Pos(x) | FieldMut::Header(x)) => *x = n,
            (
                Value::Num(n),
                FieldMut::Offset(x) | FieldMut::Len(x) | FieldMut::Ns(x) | FieldMut::View(x),
            ) => *x = n,
            (Value::Num(n), FieldMut::Mode(x) | FieldMut::Id(x)) => *x = n as u32,
            (Value::Num(n), FieldMut::PageSize(x) | FieldMut::Count(x)) => *x = n as usize,
            (Value::Num(n), FieldMut::Slot(x)) => *x = n as u8,
            _ => {}
        }
    }
}

fn simpler_values(field: Field<'_>) -> Vec<Value> {
    let bytes = |v: Vec<Vec<u8>>| v.into_iter().map(Value::Bytes).collect();
    let nums = |v: Vec<u64>| v.into_iter().map(Value::Num).collect();
    match field {
        Field::Path(p) | Field::NewPath(p) => bytes(simpler_path(p)),
        Field::Name(n) | Field::Source(n) => bytes(simpler_name(n)),
        Field::Data(d) => bytes(simpler_bytes(d)),
        Field::Rows(rows) => simpler_rows(rows).into_iter().map(Value::Rows).collect(),
        Field::Ino(n) | Field::Pos(n) | Field::Header(n) => nums(simpler_num(n)),
        Field::PageSize(n) => nums(simpler_num(n as u64)),
        Field::Count(n) => nums(simpler_count(n as u64)),
        Field::Offset(n) | Field::Len(n) => nums(simpler_num(n)),
        Field::Mode(n) | Field::Id(n) => nums(simpler_num(u64::from(n))),
        Field::Ns(n) | Field::View(n) => nums(simpler_num(n)),
        Field::Slot(s) if s != 0 => vec![Value::Num(0)],
        Field::Slot(_) => Vec::new(),
    }
}

/// Smaller tables: halves and all-but-the-last, each row removed (small tables only: a
/// 1025-row `E2BIG` table shrinks by halves), then each row's name and content simpler.
fn simpler_rows(rows: &[Row]) -> Vec<Vec<Row>> {
    let n = rows.len();
    let mut out = Vec::new();
    if n > 1 {
        out.extend([&rows[..n / 2], &rows[n / 2..], &rows[..n - 1]].map(<[Row]>::to_vec));
    }
    let each = if n <= 16 { n } else { 0 };
    for i in 0..each {
        let mut r = rows.to_vec();
        r.remove(i);
        out.push(r);
    }
    for i in 0..each {
        for row in simpler_row(&rows[i]) {
            let mut r = rows.to_vec();
            r[i] = row;
            out.push(r);
        }
    }
    out
}

/// Simpler rows: no mode, then a simpler name, then simpler content or source.
fn simpler_row(row: &Row) -> Vec<Row> {
    let mut out: Vec<Row> = Vec::new();
    if row.mode.is_some() {
        out.push(Row {
            mode: None,
            ..row.clone()
        });
    }
    out.extend(simpler_name(&row.name).into_iter().map(|name| Row {
        name,
        ..row.clone()
    }));
    let kinds: Vec<RowKind> = match &row.kind {
        RowKind::File(c) => simpler_bytes(c).into_iter().map(RowKind::File).collect(),
        RowKind::Gen(src) => simpler_name(src).into_iter().map(RowKind::Gen).collect(),
        RowKind::Dir => Vec::new(),
    };
    out.extend(kinds.into_iter().map(|kind| Row {
        kind,
        ..row.clone()
    }));
    out
}

pub(crate) fn simplify_ops<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
    for _round in 0..8 {
        let mut changed = false;
        for i in 0..ops.len() {
            'again: loop {
                let kinds = simpler_kinds(&ops[i]);
                for c in kinds.into_iter().chain(simpler_variants(&ops[i])) {
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
        assert_eq!(simpler_count(0), Vec::<u64>::new());
        assert_eq!(simpler_count(1), vec![0]);
        assert_eq!(simpler_count(2), vec![0, 1]);
        assert_eq!(simpler_count(10), vec![0, 1, 5, 8, 9]);
        assert_eq!(simpler_count(100), vec![0, 1, 50, 75, 88, 94, 97, 99]);
        let big = simpler_count(96_007);
        assert!(
            big.len() < 24 && big.windows(2).all(|w| w[0] < w[1]),
            "{big:?}"
        );
    }

    #[test]
    fn candidates_change_one_field_by_its_role() {
        let op = Op::Open {
            view: 0,
            slot: 3,
            path: b"/a/b".to_vec(),
        };
        let c = simpler_variants(&op);
        assert_eq!(
            c[0],
            Op::Open {
                view: 0,
                slot: 0,
                path: b"/a/b".to_vec()
            }
        );
        assert!(c.contains(&Op::Open {
            view: 0,
            slot: 3,
            path: b"/b".to_vec()
        }));
        assert!(c.iter().all(|o| o != &op));
        assert!(simpler_variants(&Op::Stats).is_empty());
    }

    #[test]
    fn a_table_of_several_rows_may_become_a_bulk_of_as_many_files() {
        let row = |name: &[u8]| Row {
            name: name.to_vec(),
            kind: RowKind::Dir,
            mode: None,
        };
        let table = |rows| Op::Register {
            dir: b"/net".to_vec(),
            rows,
        };
        let mkdir = Op::Mkdir {
            path: b"/net".to_vec(),
        };
        let bulk = Op::Bulk {
            dir: b"/net".to_vec(),
            prefix: b"a".to_vec(),
            count: 3,
        };
        let three = table(vec![row(b"x"), row(b"y"), row(b"z")]);
        assert_eq!(simpler_kinds(&three), vec![mkdir.clone(), bulk]);
        assert_eq!(simpler_kinds(&table(vec![row(b"x")])), vec![mkdir]);
    }
}
