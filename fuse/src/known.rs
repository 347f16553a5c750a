//! The inodes the kernel holds (it was told about them by a LOOKUP-like reply and has not
//! forgotten them), with the name and attributes it was told, so that a change made to the
//! tree outside the kernel ([`Mounted::edit`](crate::Mounted::edit)) can be pushed to the
//! kernel's caches as invalidations.

use std::collections::HashMap;

use pdtree::{Ino, Stat, Tree, ROOT_INO};

#[derive(Debug)]
struct Known {
    parent: Ino,
    name: Box<[u8]>,
    /// The kernel's lookup count: +1 per entry reply, −n per forget. At 0 the record goes.
    nlookup: u64,
    /// What the kernel was last told; a difference means its attributes are stale.
    size: u64,
    nlink: u64,
}

/// A cache entry the kernel must drop.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Stale {
    /// `name` in `parent` no longer leads to the inode the kernel has.
    Entry { parent: Ino, name: Box<[u8]> },
    /// The inode's size or link count changed.
    Attr(Ino),
}

/// Invariant: every record's `nlookup` is > 0; the root is always present.
#[derive(Debug)]
pub(crate) struct KnownInodes {
    map: HashMap<Ino, Known>,
}

impl KnownInodes {
    pub(crate) fn new(root: &Stat) -> KnownInodes {
        let mut k = KnownInodes {
            map: HashMap::new(),
        };
        // The kernel holds the root from the mount on and never forgets it.
        k.looked_up(ROOT_INO, b"", root);
        k
    }

    /// The kernel was given an entry for `st` as `name` in `parent`.
    pub(crate) fn looked_up(&mut self, parent: Ino, name: &[u8], st: &Stat) {
        let k = self.map.entry(st.ino).or_insert_with(|| Known {
            parent,
            name: name.into(),
            nlookup: 0,
            size: st.size,
            nlink: st.nlink,
        });
        k.nlookup += 1;
        (k.size, k.nlink) = (st.size, st.nlink);
    }

    /// The kernel was given the attributes `st`.
    pub(crate) fn attr_sent(&mut self, st: &Stat) {
        if let Some(k) = self.map.get_mut(&st.ino) {
            (k.size, k.nlink) = (st.size, st.nlink);
        }
    }

    /// The kernel dropped `n` of its references to `ino`.
    pub(crate) fn forget(&mut self, ino: Ino, n: u64) {
        if ino == ROOT_INO {
            return;
        }
        if let Some(k) = self.map.get_mut(&ino) {
            k.nlookup = k.nlookup.saturating_sub(n);
            if k.nlookup == 0 {
                self.map.remove(&ino);
            }
        }
    }

    /// The kernel removed `ino` itself (unlink, rmdir): its dentry is already gone.
    pub(crate) fn unlinked(&mut self, ino: Ino) {
        self.map.remove(&ino);
    }

    /// What the kernel holds that `tree` no longer agrees with, oldest inode first (so the
    /// order is deterministic). Records of removed inodes are dropped: once invalidated, the
    /// kernel cannot reach them by name again.
    ///
    /// Cost: O(k log k) for the k inodes the kernel holds, plus one stat each.
    pub(crate) fn stale(&mut self, tree: &Tree) -> Vec<Stale> {
        let mut inos: Vec<Ino> = self.map.keys().copied().collect();
        inos.sort_unstable();
        let mut out = Vec::new();
        for ino in inos {
            let k = self.map.get_mut(&ino).expect("key just listed");
            match tree.stat_ino(ino) {
                Ok(st) if (st.size, st.nlink) != (k.size, k.nlink) => {
                    (k.size, k.nlink) = (st.size, st.nlink);
                    out.push(Stale::Attr(ino));
                }
                Ok(_) => {}
                Err(_) => {
                    let k = self.map.remove(&ino).expect("key just listed");
                    out.push(Stale::Entry {
                        parent: k.parent,
                        name: k.name,
                    });
                }
            }
        }
        out
    }

    /// How many inodes the kernel holds (the root included).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdtree::PseudoFs;

    #[test]
    fn removed_and_changed_entries_are_stale_and_forgotten_ones_are_not() {
        let mut t = Tree::new();
        let d = t.mkdir(b"/d").unwrap();
        let f = t.create(b"/d/f", b"x").unwrap();
        let g = t.create(b"/d/g", b"y").unwrap();
        let mut k = KnownInodes::new(&t.stat_ino(ROOT_INO).unwrap());
        k.looked_up(ROOT_INO, b"d", &t.stat_ino(d).unwrap());
        k.looked_up(d, b"f", &t.stat_ino(f).unwrap());
        k.looked_up(d, b"g", &t.stat_ino(g).unwrap());
        k.forget(g, 1);
        assert_eq!(k.len(), 3);
        assert_eq!(k.stale(&t), []);
        t.remove(b"/d/f").unwrap();
        t.remove(b"/d/g").unwrap();
        let gone = Stale::Entry {
            parent: d,
            name: b"f"[..].into(),
        };
        assert_eq!(k.stale(&t), [Stale::Attr(d), gone]);
        assert_eq!(k.stale(&t), [], "each change is reported once");
        assert_eq!(k.len(), 2);
    }

    #[test]
    fn the_root_is_never_forgotten() {
        let t = Tree::new();
        let mut k = KnownInodes::new(&t.stat_ino(ROOT_INO).unwrap());
        k.forget(ROOT_INO, 100);
        assert_eq!(k.len(), 1);
    }
}
