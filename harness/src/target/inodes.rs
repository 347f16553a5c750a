//! The adapters' own inode numbers: a target with no numbers of its own, or numbers of its
//! own choosing, is compared with the tree's by giving each entry the next number when the
//! adapter makes it (the root is 1), as the tree does. Entries are keyed by path: the op
//! language has no rename, so a path names one entry for its whole life.

use std::collections::{BTreeMap, BTreeSet};

use pdtree::{Ino, Stats, ROOT_INO};

/// Invariant: `by_path` and `by_ino` are inverses; every number is below `next`.
#[derive(Debug)]
pub(crate) struct Inodes {
    by_path: BTreeMap<Vec<u8>, Ino>,
    by_ino: BTreeMap<Ino, Vec<u8>>,
    next: Ino,
}

impl Inodes {
    /// Only the root, at `root` (its path in the adapter's own form).
    pub(crate) fn new(root: Vec<u8>) -> Inodes {
        Inodes {
            by_path: BTreeMap::from([(root.clone(), ROOT_INO)]),
            by_ino: BTreeMap::from([(ROOT_INO, root)]),
            next: ROOT_INO + 1,
        }
    }

    /// Numbers the entry just made at `path`.
    pub(crate) fn assign(&mut self, path: Vec<u8>) -> Ino {
        let ino = self.next;
        self.next += 1;
        self.by_path.insert(path.clone(), ino);
        self.by_ino.insert(ino, path);
        ino
    }

    /// The entry at `path` was removed; returns its number.
    pub(crate) fn forget(&mut self, path: &[u8]) -> Option<Ino> {
        let ino = self.by_path.remove(path)?;
        self.by_ino.remove(&ino);
        Some(ino)
    }

    /// The number of the reachable entry at `path`.
    pub(crate) fn ino(&self, path: &[u8]) -> Option<Ino> {
        self.by_path.get(path).copied()
    }

    /// The path of reachable entry `ino`.
    pub(crate) fn path(&self, ino: Ino) -> Option<&[u8]> {
        self.by_ino.get(&ino).map(Vec::as_slice)
    }

    /// Whether `ino` is reachable.
    pub(crate) fn is_live(&self, ino: Ino) -> bool {
        self.by_ino.contains_key(&ino)
    }

    /// The number the next entry gets.
    pub(crate) fn next(&self) -> Ino {
        self.next
    }

    /// The counters, given the inode each open handle holds.
    pub(crate) fn stats(&self, held: impl Iterator<Item = Ino>) -> Stats {
        let mut handles = 0;
        let mut removed_held = BTreeSet::new();
        for ino in held {
            handles += 1;
            if !self.is_live(ino) {
                removed_held.insert(ino);
            }
        }
        let live = self.by_ino.len() as u64;
        Stats {
            live,
            allocated: live + removed_held.len() as u64,
            headers: 0,
            handles,
        }
    }
}
