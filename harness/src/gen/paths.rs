//! Raw bytes as paths and names: the input of the `paths` fuzz target.
//!
//! Core and the oracle start from the same small fixed tree (directories, a file, a symlink,
//! a listing, a sysctl table, a mount point, a permanent directory, an open handle). The first
//! input byte picks a prefix (none, `/a/`, `/mnt/`, `/net/ipv4/`, `/a/f/`); the rest is used
//! as raw bytes, appended to that prefix, as the path of mkdir, create, symlink, listing,
//! register (as the directory and, unprefixed, as row names), stat, lookup_at (as a name),
//! remove, remove_subtree, mark_permanent, open and opendir. The ops then run through the
//! differential runner like any other input: bad input must get the same error on both sides
//! and change nothing. The target then checks core's own API beyond `PseudoFs` on the tree the
//! same ops build ([`core_api`](crate::check::core_api)).
//!
//! ```
//! use pdtree::{PseudoFs, Tree};
//! let (limits, ops) = pdtree_harness::gen::paths::ops_from_path_bytes(b"\x01bad\0name");
//! assert!(pdtree_harness::check::diff::run_ops(limits, &ops, &|l| Tree::with_limits(l)).is_ok());
//! ```

use pdtree::{Limits, Row, RowKind};

use crate::Op;

/// Small limits, so that ENOSPC, EFBIG and E2BIG are reachable from one input too.
pub const PATHS_LIMITS: Limits = Limits {
    max_entries: 64,
    max_content: 1024,
    max_table_rows: 8,
    max_readdir: 16,
    max_namespaces: 65_536,
};

/// The limits and ops for one `paths` input: the fixed setup, then every path-taking op
/// with the input as its path, name or row names.
pub fn ops_from_path_bytes(data: &[u8]) -> (Limits, Vec<Op>) {
    let (prefix, data) = match data.split_first() {
        Some((&b, rest)) => (PREFIXES[usize::from(b) % PREFIXES.len()], rest),
        None => (PREFIXES[0], data),
    };
    let mut ops = setup();
    ops.extend(ops_for(prefix, data));
    (PATHS_LIMITS, ops)
}

/// The fixed starting state (inode numbers: /a 2, /a/f 3, /a/l 4, /a/d 5, /a/g 6, ...).
fn setup() -> Vec<Op> {
    let p = |s: &str| s.as_bytes().to_vec();
    vec![
        Op::Mkdir { path: p("/a") },
        Op::Create {
            path: p("/a/f"),
            content: p("x\n"),
        },
        Op::Symlink {
            path: p("/a/l"),
            target: p("../a/f"),
        },
        Op::Mkdir { path: p("/a/d") },
        Op::Listing { path: p("/a/g") },
        Op::Register {
            dir: p("/net/ipv4"),
            rows: vec![Row::file("forwarding", "1\n"), Row::dir("neigh")],
        },
        Op::Register {
            dir: p("/mnt"),
            rows: vec![],
        },
        Op::Mkdir { path: p("/p") },
        Op::Create {
            path: p("/p/q"),
            content: p(""),
        },
        Op::MarkPermanent { path: p("/p") },
        Op::Open {
            view: 0,
            slot: 0,
            path: p("/a/f"),
        },
    ]
}

/// The prefixes the first input byte chooses from.
const PREFIXES: [&[u8]; 5] = [b"", b"/a/", b"/mnt/", b"/net/ipv4/", b"/a/f/"];

/// Every path-taking op with `data` as the path, name or row names.
fn ops_for(prefix: &[u8], data: &[u8]) -> Vec<Op> {
    let mut ops = name_ops(data);
    let mut path = prefix.to_vec();
    path.extend_from_slice(data);
    ops.extend(path_ops(path));
    ops
}

/// `data` as a name: looked up, and as table row names.
fn name_ops(data: &[u8]) -> Vec<Op> {
    let mut ops = Vec::new();
    // Names: lookup_at in the root, in /a (ino 2), and in a file (ino 3, ENOTDIR after the name).
    for dir in [1, 2, 3] {
        ops.push(Op::LookupAt {
            view: 0,
            dir,
            name: data.to_vec(),
        });
    }
    // Row names: the input as one name, and split on newlines into several (which may
    // repeat, be empty or be too long).
    ops.push(Op::Register {
        dir: b"/reg".to_vec(),
        rows: vec![Row::file(data, "v")],
    });
    ops.push(Op::Register {
        dir: b"/mnt".to_vec(),
        rows: vec![Row::dir(data)],
    });
    let rows: Vec<Row> = data
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, n)| Row {
            name: n.to_vec(),
            kind: if i % 2 == 0 {
                RowKind::File(b"1".to_vec())
            } else {
                RowKind::Dir
            },
            mode: None,
        })
        .collect();
    ops.push(Op::Register {
        dir: b"/reg2".to_vec(),
        rows,
    });
    ops
}

/// `path` through every path-taking op, reads and cursors in between.
fn path_ops(path: Vec<u8>) -> Vec<Op> {
    vec![
        Op::Stat {
            view: 0,
            path: path.clone(),
        },
        Op::OpenDir {
            view: 0,
            slot: 1,
            path: path.clone(),
        },
        Op::ReadPage {
            view: 0,
            slot: 1,
            max: 8,
        },
        Op::Open {
            view: 0,
            slot: 2,
            path: path.clone(),
        },
        Op::Read { slot: 2 },
        Op::Close { slot: 2 },
        Op::MarkPermanent { path: path.clone() },
        Op::Remove { path: path.clone() },
        Op::RemoveSubtree { path: path.clone() },
        Op::Mkdir { path: path.clone() },
        Op::Create {
            path: path.clone(),
            content: b"c".to_vec(),
        },
        Op::Symlink {
            path: path.clone(),
            target: path.clone(),
        },
        Op::Listing { path: path.clone() },
        Op::Register {
            dir: path.clone(),
            rows: vec![Row::file("r", "1")],
        },
        Op::Register {
            dir: path.clone(),
            rows: vec![],
        },
        Op::Stat {
            view: 0,
            path: path.clone(),
        },
        Op::Read { slot: 0 },
        Op::RemoveSubtree { path },
    ]
}
