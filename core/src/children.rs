//! A directory's children, ordered by inode number.
//!
//! Inode numbers only grow, so a new child is always the largest: appending keeps the order
//! for free. Removal leaves a tombstone (the inode stays, so binary search still works) and
//! the vectors are compacted once tombstones are the majority, which keeps removal amortised
//! O(log n) and a full scan O(live children).

/// A tombstone in `slots`.
pub(crate) const DEAD: u32 = u32::MAX;

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
        self.inos.push(ino);
        self.slots.push(slot);
    }

    /// Removes the child with inode `ino`; returns false if it is not a live child.
    pub(crate) fn remove(&mut self, ino: u64) -> bool {
        let Ok(i) = self.inos.binary_search(&ino) else {
            return false;
        };
        if self.slots[i] == DEAD {
            return false;
        }
        self.slots[i] = DEAD;
        self.dead += 1;
        while self.slots.last() == Some(&DEAD) {
            self.slots.pop();
            self.inos.pop();
            self.dead -= 1;
        }
        if self.dead * 2 > self.slots.len() {
            self.compact();
        }
        true
    }

    fn compact(&mut self) {
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
        }
    }

    /// Live children with inode >= `pos`, ascending, as `(ino, slot)`.
    pub(crate) fn iter_from(&self, pos: u64) -> impl Iterator<Item = (u64, u32)> + '_ {
        let start = self.inos.partition_point(|&i| i < pos);
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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
