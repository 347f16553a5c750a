//! A directory's children, ordered by inode number.
//!
//! Inode numbers only grow, so a new child is always the largest: appending keeps the order
//! for free. Removal leaves a tombstone (the inode stays, so binary search still works) and
//! the vectors are compacted once tombstones are the majority, which keeps removal amortised
//! O(log n) and a full scan O(live children).

/// A tombstone in `slots`.
pub(crate) const DEAD: u32 = u32::MAX;

/// Every `BLOCK`-th inode is copied into `sample`, a small array (1/32 of the size) that
/// stays in cache, so a search at 10^6 children costs a few cache misses instead of one
/// per halving step.
const BLOCK: usize = 32;

#[derive(Clone, Debug, Default)]
pub(crate) struct Children {
    /// Strictly ascending. Live and dead children alike (a dead one keeps its inode).
    inos: Vec<u64>,
    /// `slots[i]` is the arena slot of the child with inode `inos[i]`, or `DEAD`.
    /// Invariant: the last element, if any, is live (trailing tombstones are popped).
    slots: Vec<u32>,
    /// Number of `DEAD` entries in `slots`. Invariant: `2 * dead <= slots.len()` after
    /// every public call.
    dead: usize,
    /// `sample[k] == inos[BLOCK * k]` for every `k` with `BLOCK * k < inos.len()`.
    sample: Vec<u64>,
}

impl Children {
    /// Live children.
    pub(crate) fn len(&self) -> usize {
        self.slots.len() - self.dead
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends a child whose inode is larger than every inode seen in this directory.
    pub(crate) fn push(&mut self, ino: u64, slot: u32) {
        debug_assert!(self.inos.last().is_none_or(|&last| last < ino));
        debug_assert_ne!(slot, DEAD);
        if self.inos.len() % BLOCK == 0 {
            self.sample.push(ino);
            #[cfg(feature = "thresholds")]
            crate::thresholds::bump(|t| &mut t.sampled_blocks);
        }
        self.inos.push(ino);
        self.slots.push(slot);
    }

    /// The index of the first inode `>= pos` (`inos.len()` if none): a binary search of the
    /// sample, then of one block.
    fn lower_bound(&self, pos: u64) -> usize {
        let k = self.sample.partition_point(|&s| s < pos);
        if k == 0 {
            return 0;
        }
        let lo = (k - 1) * BLOCK;
        let hi = (k * BLOCK).min(self.inos.len());
        lo + self.inos[lo..hi].partition_point(|&i| i < pos)
    }

    /// The index of inode `ino`, live or dead: where the inodes' spread puts it if it is
    /// there, else by [`Children::lower_bound`].
    fn position(&self, ino: u64) -> Option<usize> {
        if let Some(i) = self.guess(ino).filter(|&i| self.inos[i] == ino) {
            return Some(i);
        }
        let i = self.lower_bound(ino);
        (self.inos.get(i) == Some(&ino)).then_some(i)
    }

    /// Where `ino` would be if the inodes were evenly spread between the first and the
    /// last: exact for a directory whose children were created in a row, whatever was
    /// removed since (tombstones keep their inodes), and one read where the search costs a
    /// dozen dependent ones at 10^6 children.
    fn guess(&self, ino: u64) -> Option<usize> {
        let (&first, &last) = (self.inos.first()?, self.inos.last()?);
        if ino < first || ino > last {
            return None;
        }
        let (span, off, top) = (last - first, ino - first, self.inos.len() as u64 - 1);
        if span == 0 {
            return Some(0);
        }
        // The product fits in a u64 for every real directory, and a u64 division is several
        // times cheaper than a u128 one.
        let at = match off.checked_mul(top) {
            Some(p) => p / span,
            None => (u128::from(off) * u128::from(top) / u128::from(span)) as u64,
        };
        Some(at as usize)
    }

    /// Removes the child with inode `ino`; returns false if it is not a live child. The
    /// tree always knows, and calls [`Children::remove_live`]; the tests check both answers.
    #[cfg(test)]
    pub(crate) fn remove(&mut self, ino: u64) -> bool {
        let Some(i) = self.position(ino) else {
            return false;
        };
        if self.slots[i] == DEAD {
            return false;
        }
        self.kill(i);
        true
    }

    /// Removes live child `ino`, which the caller knows is one (its entry names this list
    /// as its parent's). Unlike [`Children::remove`] it does not read the child's slot
    /// first: at 10^6 children that read is a cache miss the store does not wait for.
    pub(crate) fn remove_live(&mut self, ino: u64) {
        let i = self
            .position(ino)
            .expect("a live child's inode is in the list");
        debug_assert_ne!(self.slots[i], DEAD, "removing a dead child");
        self.kill(i);
    }

    /// Tombstones index `i` (live), then keeps the invariants: no trailing tombstone, at
    /// most half of the list dead.
    fn kill(&mut self, i: usize) {
        self.slots[i] = DEAD;
        self.dead += 1;
        while self.slots.last() == Some(&DEAD) {
            self.slots.pop();
            self.inos.pop();
            self.dead -= 1;
        }
        self.sample.truncate(self.inos.len().div_ceil(BLOCK));
        if self.dead * 2 > self.slots.len() {
            self.compact();
        }
    }

    /// The slot of live child `ino`, by binary search.
    pub(crate) fn get(&self, ino: u64) -> Option<u32> {
        let i = self.position(ino)?;
        Some(self.slots[i]).filter(|&s| s != DEAD)
    }

    /// Removes many live children at once, in one merge pass; `inos` must be ascending.
    /// O(n + inos.len()), so callers use it for a batch (remove_subtree's files, the file
    /// index's batched removals). Returns how many were removed.
    pub(crate) fn remove_sorted(&mut self, inos: &[u64]) -> usize {
        debug_assert!(inos.windows(2).all(|w| w[0] < w[1]));
        #[cfg(feature = "thresholds")]
        crate::thresholds::bump(|t| &mut t.bulk_removals);
        let (mut j, mut removed) = (0, 0);
        for (i, slot) in self.inos.iter().zip(self.slots.iter_mut()) {
            while j < inos.len() && inos[j] < *i {
                j += 1;
            }
            if j == inos.len() {
                break;
            }
            if inos[j] == *i && *slot != DEAD {
                *slot = DEAD;
                removed += 1;
            }
        }
        self.dead += removed;
        self.compact();
        removed
    }

    fn compact(&mut self) {
        #[cfg(feature = "thresholds")]
        crate::thresholds::bump(|t| &mut t.compactions);
        let mut w = 0;
        for r in 0..self.slots.len() {
            if self.slots[r] != DEAD {
                self.slots[w] = self.slots[r];
                self.inos[w] = self.inos[r];
                w += 1;
            }
        }
        self.slots.truncate(w);
        self.inos.truncate(w);
        self.dead = 0;
        // Give memory back after mass removal (rmmod of 10^5 interfaces).
        if self.slots.capacity() > 4 * w.max(4) {
            self.slots.shrink_to(2 * w);
            self.inos.shrink_to(2 * w);
            self.sample.shrink_to(2 * w / BLOCK);
        }
        self.sample.clear();
        self.sample.extend(self.inos.iter().step_by(BLOCK).copied());
    }

    /// Live children with inode >= `pos`, ascending, as `(ino, slot)`.
    pub(crate) fn iter_from(&self, pos: u64) -> impl Iterator<Item = (u64, u32)> + '_ {
        let start = self.lower_bound(pos);
        self.inos[start..]
            .iter()
            .zip(&self.slots[start..])
            .filter(|(_, &s)| s != DEAD)
            .map(|(&i, &s)| (i, s))
    }

    /// All live children, ascending.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.iter_from(0)
    }

    /// Checks the structure's own invariants (ordering, tombstone count, no trailing dead).
    pub(crate) fn check(&self) -> Result<(), String> {
        if self.inos.len() != self.slots.len() {
            return Err(format!(
                "{} inodes but {} slots",
                self.inos.len(),
                self.slots.len()
            ));
        }
        if let Some(w) = self.inos.windows(2).find(|w| w[0] >= w[1]) {
            return Err(format!("inode {} before inode {}", w[0], w[1]));
        }
        let dead = self.slots.iter().filter(|&&s| s == DEAD).count();
        if dead != self.dead {
            return Err(format!("{dead} tombstones, counter says {}", self.dead));
        }
        if self.slots.last() == Some(&DEAD) {
            return Err("trailing tombstone".into());
        }
        if !self
            .sample
            .iter()
            .copied()
            .eq(self.inos.iter().step_by(BLOCK).copied())
        {
            return Err("search sample disagrees with the inodes".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each structural rule `check` states is one it enforces.
    #[test]
    fn check_reports_each_broken_rule() {
        let healthy = || {
            let mut c = Children::default();
            for i in 2..70u64 {
                c.push(i, i as u32);
            }
            c.remove(10);
            c.check().unwrap();
            c
        };
        let mut c = healthy();
        c.slots.pop();
        assert!(c.check().unwrap_err().contains("slots"));
        let mut c = healthy();
        c.inos.swap(3, 4);
        assert!(c.check().unwrap_err().contains("before inode"));
        let mut c = healthy();
        c.dead += 1;
        assert!(c.check().unwrap_err().contains("tombstones"));
        let mut c = healthy();
        *c.slots.last_mut().unwrap() = DEAD;
        c.dead += 1;
        assert!(c.check().unwrap_err().contains("trailing"));
        let mut c = healthy();
        c.sample[1] += 1;
        assert!(c.check().unwrap_err().contains("sample"));
    }

    #[test]
    fn push_remove_resume() {
        let mut c = Children::default();
        for i in 2..102u64 {
            c.push(i, i as u32);
        }
        assert_eq!(c.len(), 100);
        assert!(c.remove(50));
        assert!(!c.remove(50));
        assert!(!c.remove(1000));
        assert_eq!(
            c.iter_from(49).take(2).collect::<Vec<_>>(),
            [(49, 49), (51, 51)]
        );
        for i in 2..90u64 {
            c.remove(i);
        }
        c.check().unwrap();
        assert_eq!(c.len(), 12);
        assert_eq!(c.iter().next(), Some((90, 90)));
        assert!(c.remove(101));
        c.check().unwrap();
        assert_eq!(c.iter().last(), Some((100, 100)));
        for i in 90..101u64 {
            c.remove(i);
        }
        assert!(c.is_empty());
        c.check().unwrap();
    }

    #[test]
    fn sampled_search_matches_a_naive_model() {
        let mut c = Children::default();
        let mut model: Vec<(u64, u32)> = Vec::new();
        let mut x = 12345u64;
        let mut rnd = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let mut next = 2u64;
        for round in 0..4000 {
            if rnd(3) > 0 || model.is_empty() {
                next += 1 + rnd(3);
                c.push(next, round);
                model.push((next, round));
            } else {
                let (ino, _) = model.remove(rnd(model.len() as u64) as usize);
                assert!(c.remove(ino));
            }
            if round % 97 == 0 {
                c.check().unwrap();
                for _ in 0..20 {
                    let pos = rnd(next + 3);
                    let want: Vec<_> = model
                        .iter()
                        .copied()
                        .filter(|&(i, _)| i >= pos)
                        .take(3)
                        .collect();
                    assert_eq!(c.iter_from(pos).take(3).collect::<Vec<_>>(), want);
                    let got = model.iter().find(|&&(i, _)| i == pos).map(|&(_, s)| s);
                    assert_eq!(c.get(pos), got);
                }
            }
        }
        assert_eq!(c.len(), model.len());
    }

    /// The guess is exact for evenly spread inodes (children created in a row, or every
    /// k-th inode), in both of its arithmetic paths (spreads of 2^58 overflow a u64
    /// product), and it gives up outside the first and last inodes. A wrong guess would
    /// only cost a search, so nothing else would notice.
    #[test]
    fn the_guess_is_exact_for_evenly_spread_inodes() {
        for spacing in [1u64, 3, 1 << 58] {
            let mut c = Children::default();
            let ino = |k: u64| 2 + k * spacing;
            for k in 0..60 {
                c.push(ino(k), k as u32);
            }
            for k in 0..60 {
                assert_eq!(
                    c.guess(ino(k)),
                    Some(k as usize),
                    "spacing {spacing}, k {k}"
                );
            }
            assert_eq!(c.guess(1), None);
            assert_eq!(c.guess(ino(59) + 1), None);
        }
        let mut one = Children::default();
        one.push(7, 0);
        assert_eq!(one.guess(7), Some(0));
    }

    #[test]
    fn remove_sorted_takes_out_exactly_the_live_ones_named() {
        let mut c = Children::default();
        for i in 2..1002u64 {
            c.push(i, i as u32);
        }
        assert_eq!(c.remove_sorted(&[5, 7, 5000]), 2);
        assert_eq!(c.get(5), None);
        assert_eq!(c.get(6), Some(6));
        c.check().unwrap();
        // Including an already removed and an unknown inode.
        let many: Vec<u64> = (2..900).filter(|i| i % 3 != 0).chain([2000]).collect();
        let want = many
            .iter()
            .filter(|&&i| i != 5 && i != 7 && i < 1002)
            .count();
        assert_eq!(c.remove_sorted(&many), want);
        c.check().unwrap();
        assert_eq!(c.len(), 1000 - 2 - want);
        assert_eq!(c.get(3), Some(3));
        assert_eq!(c.get(4), None);
        assert_eq!(c.iter().last(), Some((1001, 1001)));
    }

    #[test]
    fn mass_removal_gives_memory_back() {
        // The rmmod case: after removing almost everything, the vectors shrink (the memory
        // goal in docs/PERFORMANCE.md), and the children left are intact.
        let mut c = Children::default();
        for i in 2..10_002u64 {
            c.push(i, i as u32);
        }
        let gone: Vec<u64> = (2..9_992u64).collect();
        assert_eq!(c.remove_sorted(&gone), gone.len());
        c.check().unwrap();
        assert_eq!(c.len(), 10);
        assert!(
            c.slots.capacity() <= 40,
            "slots keep {}",
            c.slots.capacity()
        );
        assert!(c.inos.capacity() <= 40, "inos keep {}", c.inos.capacity());
        assert_eq!(
            c.iter().map(|(i, _)| i).collect::<Vec<_>>(),
            (9_992..10_002).collect::<Vec<_>>()
        );
    }

    #[test]
    fn tombstones_never_outnumber_live_children() {
        // The invariant `2 * dead <= slots.len()` after every public call, which keeps a scan
        // O(live children) and removal amortised O(log n).
        let mut c = Children::default();
        for i in 2..2002u64 {
            c.push(i, i as u32);
        }
        // Remove every other child, then the rest from the front, checking after each call.
        for i in (2..2002u64).step_by(2).chain((3..2002u64).step_by(2)) {
            assert!(c.remove(i));
            assert!(
                2 * c.dead <= c.slots.len(),
                "{} dead of {}",
                c.dead,
                c.slots.len()
            );
        }
        assert!(c.is_empty());
    }
}
