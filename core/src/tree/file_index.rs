//! Reachable non-directories by inode, with removals taken out in batches.
//!
//! The index is a [`Children`] list (inode order, so a create is an append). Taking one
//! inode out of it is a binary search whose last steps miss the cache at 10^6 entries (not
//! doing it took 20–40 % off a remove there). So a removal is only noted in `gone`, and the
//! noted inodes leave the list together, sorted, in one merge pass over it, once they are a
//! quarter of it: a few sequential reads per removal instead of a search.
//!
//! Until then the list still answers a noted inode with its old slot. That slot may be free
//! or hold a newer entry, so [`FileIndex::candidate`]'s answer is only a candidate: the tree
//! accepts it when the slot's entry has that inode and is reachable (inodes are never
//! reused, so nothing else can match).

use crate::children::Children;

/// `gone` is flushed once it is this fraction of the list (1/4)...
const FLUSH_SHARE: usize = 4;
/// ...or this long, whichever is larger: a small index is cheap to search, and flushing it
/// on every removal would scan it every time.
const FLUSH_MIN: usize = 32;

#[derive(Clone, Debug, Default)]
pub(super) struct FileIndex {
    /// Every indexed inode, the noted ones included.
    list: Children,
    /// Inodes removed from the index and still in `list`. Invariant: distinct, each a live
    /// child of `list`, and fewer than `flush_at()` after every call.
    gone: Vec<u64>,
}

impl FileIndex {
    /// Indexed (not removed) entries.
    pub(super) fn len(&self) -> usize {
        self.list.len() - self.gone.len()
    }

    /// Files `ino` (larger than every inode filed before) at `slot`.
    pub(super) fn push(&mut self, ino: u64, slot: u32) {
        self.list.push(ino, slot);
    }

    /// The slot filed under `ino`, or the slot it had if it was removed since the last
    /// flush: the caller checks the slot's entry (see the module doc).
    pub(super) fn candidate(&self, ino: u64) -> Option<u32> {
        self.list.get(ino)
    }

    /// Removes `ino`, which must be indexed.
    pub(super) fn remove(&mut self, ino: u64) {
        self.remove_many(std::slice::from_ref(&ino));
    }

    /// Removes many indexed inodes at once (any order).
    pub(super) fn remove_many(&mut self, inos: &[u64]) {
        self.gone.extend_from_slice(inos);
        if self.gone.len() >= self.flush_at() {
            self.flush();
        }
    }

    /// How many noted removals make a flush (see [`FLUSH_SHARE`] and [`FLUSH_MIN`]).
    fn flush_at(&self) -> usize {
        (self.list.len() / FLUSH_SHARE).max(FLUSH_MIN)
    }

    /// Takes every noted inode out of the list, in one merge pass.
    fn flush(&mut self) {
        self.gone.sort_unstable();
        let removed = self.list.remove_sorted(&self.gone);
        debug_assert_eq!(
            removed,
            self.gone.len(),
            "a noted inode was not in the list"
        );
        self.gone.clear();
    }

    /// The indexed entries, ascending by inode, as `(ino, slot)`. O(n + g log g).
    pub(super) fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        let mut gone = self.gone.clone();
        gone.sort_unstable();
        let mut next = 0;
        self.list.iter().filter(move |&(ino, _)| {
            while next < gone.len() && gone[next] < ino {
                next += 1;
            }
            gone.get(next) != Some(&ino)
        })
    }

    /// An index of exactly these `(ino, slot)` pairs (ascending inodes), for tests that
    /// break the tree on purpose.
    #[cfg(test)]
    pub(super) fn from_pairs(pairs: impl IntoIterator<Item = (u64, u32)>) -> FileIndex {
        let mut f = FileIndex::default();
        pairs.into_iter().for_each(|(ino, slot)| f.push(ino, slot));
        f
    }

    /// The structure's own invariants: the list's, and `gone`'s (see the field).
    pub(super) fn check(&self) -> Result<(), String> {
        self.list.check()?;
        let mut gone = self.gone.clone();
        gone.sort_unstable();
        if let Some(w) = gone.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("inode {} removed twice", w[0]));
        }
        if let Some(ino) = gone.iter().find(|&&i| self.list.get(i).is_none()) {
            return Err(format!("removed inode {ino} was never indexed"));
        }
        if self.gone.len() >= self.flush_at() {
            return Err(format!("{} removals not taken out", self.gone.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a naive model: every indexed inode is found exactly, every removed one is
    /// not, through many flushes of both kinds.
    #[test]
    fn batched_removal_matches_a_naive_model() {
        let mut f = FileIndex::default();
        let mut model: Vec<(u64, u32)> = Vec::new();
        let mut x = 99u64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        for round in 0..20_000u32 {
            if rnd(5) > 1 || model.is_empty() {
                let ino = 2 + u64::from(round);
                f.push(ino, round);
                model.push((ino, round));
            } else if rnd(50) == 0 && model.len() > 10 {
                let many: Vec<u64> = model.drain(..model.len() / 2).map(|(i, _)| i).collect();
                f.remove_many(&many);
            } else {
                let (ino, _) = model.remove(rnd(model.len() as u64) as usize);
                f.remove(ino);
                assert!(f.iter().all(|(i, _)| i != ino));
            }
            if round % 211 == 0 {
                f.check().unwrap();
                assert_eq!(f.len(), model.len());
                assert!(f.iter().eq(model.iter().copied()));
            }
        }
    }

    /// A removed file's inode is not found while its candidate is still in the list:
    /// neither when its slot is free, nor held open, nor reused by a newer entry.
    #[test]
    fn the_tree_refuses_a_removed_files_candidate() {
        use crate::{Errno, PseudoFs, Tree};
        let mut t = Tree::new();
        let f = t.create(b"/f", b"").unwrap();
        let h = t.create(b"/held", b"").unwrap();
        let handle = t.open(b"/held").unwrap();
        t.remove(b"/f").unwrap();
        t.remove(b"/held").unwrap();
        assert!(
            t.files_by_ino.candidate(f).is_some(),
            "the removal is still batched"
        );
        assert_eq!(t.stat_ino(f), Err(Errno::ENOENT));
        assert_eq!(t.stat_ino(h), Err(Errno::ENOENT), "removed, held open");
        let g = t.create(b"/g", b"").unwrap();
        assert_eq!(
            t.files_by_ino.candidate(f),
            t.files_by_ino.candidate(g),
            "slot reused"
        );
        assert_eq!(t.stat_ino(f), Err(Errno::ENOENT));
        assert_eq!(t.lookup_at(f, b"x"), Err(Errno::ENOENT));
        assert_eq!(t.stat_ino(g).unwrap().ino, g);
        t.close(handle).unwrap();
        t.check_invariants().unwrap();
    }

    #[test]
    fn check_reports_each_broken_rule() {
        let healthy = || {
            let mut f = FileIndex::default();
            for i in 2..100u64 {
                f.push(i, i as u32);
            }
            f.remove(10);
            f.check().unwrap();
            f
        };
        let mut f = healthy();
        f.gone.push(10);
        assert!(f.check().unwrap_err().contains("twice"));
        let mut f = healthy();
        f.gone.push(1_000);
        assert!(f.check().unwrap_err().contains("never indexed"));
        let mut f = healthy();
        f.gone.extend(20..60);
        assert!(f.check().unwrap_err().contains("not taken out"));
    }
}
