//! Core's API beyond [`PseudoFs`], checked against its `PseudoFs` counterpart on the trees the
//! `paths` fuzz target builds (the differential runner only sees `PseudoFs`, so it never calls
//! these; the unit tests run the check on the `diff` seeds' trees too):
//!
//! * [`Tree::readdir_each`], the allocation-free readdir, visits exactly the entries that
//!   [`PseudoFs::readdir`] returns for the same directory, position and page size, and gives the
//!   same resume position, or the same error: in every directory, from position 0, at each
//!   child's inode and just past it, from past the end, with pages of 1, 2 and `max_readdir`
//!   and the invalid 0 and `max_readdir + 1`; and on a file and a missing inode;
//! * [`PseudoFs::limits`] gives back the limits the tree was made with;
//! * [`Tree::new`] and [`Tree::default`] make the tree `with_limits(Limits::default())` makes
//!   (the same on every input: it is here so the fuzz corpus runs the constructors too).
//!
//! ```
//! let (limits, ops) = pdtree_harness::gen::ops_from_bytes(b"any bytes make a tree");
//! assert_eq!(pdtree_harness::check::core_api::check_tree_api(limits, &ops), Ok(()));
//! ```

use pdtree::{DirEntry, Errno, Ino, Kind, Limits, PseudoFs, ReadDirPage, Tree, ROOT_INO};

use crate::{Op, Runner};

/// In a directory with more children than this, only this many (evenly spread) are used as
/// positions, so the check stays linear in the size of the tree.
const MAX_POSITIONS: usize = 64;

/// Runs `ops` on a fresh [`Tree`] with `limits` (outcomes ignored: the differential run
/// judges those) and checks core's own API on the resulting tree (see the module docs).
/// `Err` describes the first disagreement.
pub fn check_tree_api(limits: Limits, ops: &[Op]) -> Result<(), String> {
    check_constructors()?;
    let mut r: Runner<Tree> = Runner::new(limits);
    for op in ops {
        r.apply(op);
    }
    let got = r.tree().limits();
    if got != limits {
        return Err(format!("made with {limits:?}, limits() says {got:?}"));
    }
    check_tree(r.tree())
}

/// `Tree::new()` and `Tree::default()` against `Tree::with_limits(Limits::default())`.
fn check_constructors() -> Result<(), String> {
    let want = Tree::with_limits(Limits::default());
    for (name, t) in [
        ("Tree::new()", Tree::new()),
        ("Tree::default()", Tree::default()),
    ] {
        if t.limits() != want.limits() || t.dump() != want.dump() {
            return Err(format!(
                "{name} is not Tree::with_limits(Limits::default())"
            ));
        }
    }
    Ok(())
}

/// The `readdir_each` checks of [`check_tree_api`] on an existing tree.
pub fn check_tree(t: &Tree) -> Result<(), String> {
    let limits = t.limits();
    let max = limits.max_readdir;
    let mut dirs = vec![ROOT_INO];
    let mut not_dirs = vec![0, Ino::MAX];
    while let Some(dir) = dirs.pop() {
        let children = pdtree::read_all(t, dir, max)
            .map_err(|e| format!("readdir of directory {dir} failed with {e}"))?;
        let step = children.len().div_ceil(MAX_POSITIONS).max(1);
        let mut positions = vec![0, Ino::MAX];
        for c in children.iter().step_by(step) {
            positions.extend([c.ino, c.ino + 1]);
        }
        for pos in positions {
            for page in [1, 2, max] {
                agrees(t, dir, pos, page)?;
            }
        }
        agrees(t, dir, 0, 0)?;
        agrees(t, dir, 0, max.saturating_add(1))?;
        for c in &children {
            match c.kind {
                Kind::Dir => dirs.push(c.ino),
                _ if not_dirs.len() < 8 => not_dirs.push(c.ino),
                _ => {}
            }
        }
    }
    for ino in not_dirs {
        agrees(t, ino, 0, 1)?;
    }
    Ok(())
}

/// `readdir_each(dir, pos, max)` against `readdir(dir, pos, max)`.
fn agrees(t: &Tree, dir: Ino, pos: u64, max: usize) -> Result<(), String> {
    let want = t.readdir(dir, pos, max);
    let mut entries = Vec::new();
    let got = t
        .readdir_each(dir, pos, max, |name, ino, kind| {
            entries.push(DirEntry {
                name: name.to_vec(),
                ino,
                kind,
            })
        })
        .map(|next_pos| ReadDirPage { entries, next_pos });
    if got == want {
        return Ok(());
    }
    let show = |r: &Result<ReadDirPage, Errno>| match r {
        Ok(p) => format!(
            "{} entries, next {}: {:?}",
            p.entries.len(),
            p.next_pos,
            p.entries
        ),
        Err(e) => format!("err {e}"),
    };
    Err(format!(
        "readdir_each({dir}, {pos}, {max}) disagrees with readdir:\n  readdir:      {}\n  readdir_each: {}",
        show(&want),
        show(&got)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agrees_on_a_tree_with_tombstones_and_a_mount_point() {
        let mut t = Tree::with_limits(Limits {
            max_readdir: 3,
            max_namespaces: 65_536,
            ..Limits::default()
        });
        t.mkdir(b"/d").unwrap();
        for n in 0..20 {
            t.create(format!("/d/f{n}").as_bytes(), b"x").unwrap();
        }
        for n in (0..20).step_by(3) {
            t.remove(format!("/d/f{n}").as_bytes()).unwrap();
        }
        t.register(b"/mnt", &[]).unwrap();
        t.symlink(b"/d/l", b"f1").unwrap();
        assert_eq!(check_tree(&t), Ok(()));
    }

    #[test]
    fn every_diff_seed_agrees() {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../corpus/diff");
        let mut n = 0;
        for f in std::fs::read_dir(&dir).unwrap() {
            let path = f.unwrap().path();
            let (limits, ops) = crate::gen::ops_from_bytes(&std::fs::read(&path).unwrap());
            if let Err(e) = check_tree_api(limits, &ops) {
                panic!("{}: {e}", path.display());
            }
            n += 1;
        }
        assert!(n > 0, "no seeds in {}", dir.display());
    }
}
