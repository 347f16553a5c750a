//! Path passes: a path an op names replaced by one an earlier op named, so the ops that only
//! made the old path can go; and a directory dropped from every path below it at once,
//! together with the `mkdir` that made it.

use pdtree::PseudoFs;

use crate::lang::deep::bulk_sample;
use crate::lang::op::{Field, FieldMut, Op};
use crate::shrink::ddmin::{ddmin, without};
use crate::shrink::renumber::producers;
use crate::shrink::Trial;

/// The most earlier paths tried in place of one path (the latest ones): the passes run on
/// ops already shrunk by ddmin, where this is rarely reached.
const MAX_CANDIDATES: usize = 16;

/// Rounds of both passes, each followed by ddmin, while one of them changed something.
const ROUNDS: usize = 4;

/// Both passes, each followed by ddmin, to a fixpoint (at most [`ROUNDS`] rounds).
pub(crate) fn shrink_paths<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
    for _ in 0..ROUNDS {
        let before = ops.clone();
        ops = substitute_paths(t, ops);
        ops = ddmin(t, ops);
        ops = drop_directories(t, ops);
        ops = ddmin(t, ops);
        if ops == before {
            break;
        }
    }
    ops
}

/// Each `Path` field (an existing entry an op acts on) replaced by each other path an earlier
/// op named, latest first; the first that keeps the signature stays.
fn substitute_paths<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
    for i in 0..ops.len() {
        let fields = ops[i].fields();
        let at: Vec<(usize, Vec<u8>)> = fields
            .iter()
            .enumerate()
            .filter_map(|(k, f)| match f {
                Field::Path(p) => Some((k, p.to_vec())),
                _ => None,
            })
            .collect();
        for (k, own) in at {
            for path in earlier_paths(&ops[..i], &own) {
                let mut cand = ops.clone();
                if let Some(FieldMut::Path(p)) = cand[i].fields_mut().into_iter().nth(k) {
                    *p = path;
                }
                if t.fails(&cand) {
                    ops = cand;
                    break;
                }
            }
        }
    }
    ops
}

/// The distinct paths `ops` name, other than `own`, latest first, at most [`MAX_CANDIDATES`]:
/// the paths in their fields, and a `bulk`'s first two files and its last, so that an entry
/// made only to be acted on can give way to a file the bulk made.
fn earlier_paths(ops: &[Op], own: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for op in ops.iter().rev() {
        let named = op.fields().into_iter().filter_map(|f| match f {
            Field::Path(p) | Field::NewPath(p) => Some(p.to_vec()),
            _ => None,
        });
        for p in named.chain(bulk_files(op)) {
            if p != own && !out.contains(&p) && out.len() < MAX_CANDIDATES {
                out.push(p);
            }
        }
    }
    out
}

/// Some of the files a `bulk` op makes (if it makes them all): the first two and the last.
fn bulk_files(op: &Op) -> Vec<Vec<u8>> {
    match op {
        Op::Bulk { dir, prefix, count } => bulk_sample(dir, prefix, *count as u64, 2),
        _ => Vec::new(),
    }
}

/// For each `mkdir D`: the op removed (later inode and header numbers renumbered, as ddmin
/// does) and every path below `D` moved up one level into `D`'s parent; kept where the
/// signature survives.
fn drop_directories<A: PseudoFs>(t: &mut Trial<'_, A>, mut ops: Vec<Op>) -> Vec<Op> {
    let mut i = 0;
    while i < ops.len() {
        let Op::Mkdir { path } = &ops[i] else {
            i += 1;
            continue;
        };
        let dir = path.clone();
        let hoisted: Vec<Op> = ops.iter().map(|o| hoist(o, &dir)).collect();
        let made_by = producers(t.limits, &hoisted);
        match without(t, &hoisted, &made_by, i..i + 1) {
            Some(cand) => ops = cand,
            None => i += 1,
        }
    }
    ops
}

/// `op` with every path below directory `dir` moved into `dir`'s parent.
fn hoist(op: &Op, dir: &[u8]) -> Op {
    let path = |p: &[u8]| hoist_path(p, dir);
    op.map_strings(&path, &|n: &[u8]| n.to_vec(), &|d: &[u8]| d.to_vec())
}

/// `p` without `dir`'s last component, if `p` is below `dir`; else `p`.
fn hoist_path(p: &[u8], dir: &[u8]) -> Vec<u8> {
    let strip = |x: &[u8]| x.strip_prefix(b"/").unwrap_or(x).to_vec();
    let (body, dir) = (strip(p), strip(dir));
    let Some(rest) = body
        .strip_prefix(&dir[..])
        .and_then(|r| r.strip_prefix(b"/"))
    else {
        return p.to_vec();
    };
    let parent = match dir.iter().rposition(|&c| c == b'/') {
        Some(k) => [&dir[..k], b"/"].concat(),
        None => Vec::new(),
    };
    let lead: &[u8] = if p.first() == Some(&b'/') { b"/" } else { b"" };
    [lead, &parent, rest].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hoisting_drops_one_component_below_the_directory() {
        assert_eq!(hoist_path(b"/b/c/d", b"/b"), b"/c/d");
        assert_eq!(hoist_path(b"/b/c/d", b"/b/c"), b"/b/d");
        assert_eq!(hoist_path(b"b/c", b"/b"), b"c");
        assert_eq!(hoist_path(b"/bc/d", b"/b"), b"/bc/d", "not below /b");
        assert_eq!(
            hoist_path(b"/b", b"/b"),
            b"/b",
            "the directory itself stays"
        );
    }

    #[test]
    fn earlier_paths_are_distinct_and_latest_first() {
        let ops = [
            Op::Mkdir {
                path: b"/a".to_vec(),
            },
            Op::Create {
                path: b"/a/f".to_vec(),
                content: vec![],
            },
            Op::Remove {
                path: b"/a".to_vec(),
            },
        ];
        assert_eq!(earlier_paths(&ops, b"/a/f"), vec![b"/a".to_vec()]);
        assert_eq!(
            earlier_paths(&ops, b"/x"),
            vec![b"/a".to_vec(), b"/a/f".to_vec()]
        );
    }

    #[test]
    fn a_bulks_first_two_files_and_its_last_are_candidates() {
        let bulk = |count| Op::Bulk {
            dir: b"/d".to_vec(),
            prefix: b"n".to_vec(),
            count,
        };
        let paths = |ops: &[Op]| earlier_paths(ops, b"/x");
        let named = |names: &[&str]| -> Vec<Vec<u8>> {
            names.iter().map(|n| n.as_bytes().to_vec()).collect()
        };
        assert_eq!(
            paths(&[bulk(67)]),
            named(&["/d", "/d/n0", "/d/n1", "/d/n66"])
        );
        assert_eq!(paths(&[bulk(2)]), named(&["/d", "/d/n0", "/d/n1"]));
        assert_eq!(paths(&[bulk(1)]), named(&["/d", "/d/n0"]));
        assert_eq!(paths(&[bulk(0)]), named(&["/d"]));
        assert_eq!(earlier_paths(&[bulk(1)], b"/d/n0"), named(&["/d"]));
    }
}
