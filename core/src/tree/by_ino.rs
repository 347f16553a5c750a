//! Inode-addressed access for adapters (a FUSE server, a VFS) that hold inode numbers rather
//! than paths: stat, parent, path and symlink target of a reachable entry, and the directory
//! of a registered table.
//!
//! These are read-only conveniences beside the [`PseudoFs`](crate::PseudoFs) operations; they
//! follow the same rule as `lookup_at`: an inode that is not reachable (removed, or never
//! used) is `ENOENT`.

use super::entry::{content_len, content_shared, Body};
use super::{ArenaIndex, Tree, ROOT_SLOT};
use crate::types::{Errno, HandleId, HeaderId, Ino, Stat, MAX_PATH};

impl Tree {
    /// The stat of the reachable entry with inode `ino`.
    ///
    /// Cost: O(1) expected for a directory, O(log n) for any other entry (n = reachable
    /// non-directories).
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Tree, ROOT_INO};
    /// let mut t = Tree::new();
    /// let f = t.create(b"/f", b"abc").unwrap();
    /// assert_eq!(t.stat_ino(f).unwrap().size, 3);
    /// assert_eq!(t.stat_ino(ROOT_INO).unwrap().size, 1);
    /// t.remove(b"/f").unwrap();
    /// assert_eq!(t.stat_ino(f), Err(Errno::ENOENT));
    /// ```
    pub fn stat_ino(&self, ino: Ino) -> Result<Stat, Errno> {
        Ok(self.stat_slot(self.reachable_slot(ino)?, Some(0)))
    }

    /// The inode of the directory holding `ino`; the root's parent is the root.
    ///
    /// Cost: as [`Tree::stat_ino`].
    ///
    /// ```
    /// use pdtree::{PseudoFs, Tree, ROOT_INO};
    /// let mut t = Tree::new();
    /// let d = t.mkdir(b"/d").unwrap();
    /// let f = t.create(b"/d/f", b"").unwrap();
    /// assert_eq!(t.parent_ino(f), Ok(d));
    /// assert_eq!(t.parent_ino(ROOT_INO), Ok(ROOT_INO));
    /// ```
    pub fn parent_ino(&self, ino: Ino) -> Result<Ino, Errno> {
        let slot = self.reachable_slot(ino)?;
        Ok(self.entry(self.entry(slot).parent).ino)
    }

    /// The absolute path of the reachable entry `ino` (`/` for the root), usable with every
    /// path-taking operation.
    ///
    /// Cost: O(depth), one allocation.
    ///
    /// ```
    /// use pdtree::{PseudoFs, Tree, ROOT_INO};
    /// let mut t = Tree::new();
    /// t.register(b"net/ipv4/conf/eth0", &[pdtree::Row::file("forwarding", "0")]).unwrap();
    /// let ino = t.stat(b"/net/ipv4/conf/eth0/forwarding").unwrap().ino;
    /// assert_eq!(t.path_of(ino).unwrap(), b"/net/ipv4/conf/eth0/forwarding");
    /// assert_eq!(t.path_of(ROOT_INO).unwrap(), b"/");
    /// ```
    pub fn path_of(&self, ino: Ino) -> Result<Vec<u8>, Errno> {
        let mut slot = self.reachable_slot(ino)?;
        if slot == ROOT_SLOT {
            return Ok(b"/".to_vec());
        }
        let mut names = Vec::new();
        while slot != ROOT_SLOT {
            let e = self.entry(slot);
            names.push(&e.name[..]);
            slot = e.parent;
        }
        let mut path = Vec::with_capacity(names.iter().map(|n| n.len() + 1).sum());
        for name in names.iter().rev() {
            path.push(b'/');
            path.extend_from_slice(name);
        }
        // Paths deeper than MAX_PATH exist (entries are made by components), but no
        // path-taking operation would accept this one.
        if path.len() > MAX_PATH {
            return Err(Errno::ENAMETOOLONG);
        }
        Ok(path)
    }

    /// The target of the reachable symlink `ino` (`EINVAL` for any other kind, as
    /// readlink(2) answers).
    ///
    /// Cost: as [`Tree::stat_ino`]; the bytes are shared, not copied.
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Tree};
    /// let mut t = Tree::new();
    /// let l = t.symlink(b"/self", b"42").unwrap();
    /// assert_eq!(&*t.symlink_target(l).unwrap(), b"42");
    /// assert_eq!(t.symlink_target(pdtree::ROOT_INO), Err(Errno::EINVAL));
    /// ```
    pub fn symlink_target(&self, ino: Ino) -> Result<std::sync::Arc<[u8]>, Errno> {
        match &self.entry(self.reachable_slot(ino)?).body {
            Body::Symlink(c) => Ok(content_shared(c)),
            _ => Err(Errno::EINVAL),
        }
    }

    /// A reachable slot visible in view 0 (the view these inode-addressed reads serve).
    fn reachable_slot(&self, ino: Ino) -> Result<ArenaIndex, Errno> {
        self.slot_of_ino(ino)
            .filter(|&s| self.visible(s, 0))
            .ok_or(Errno::ENOENT)
    }
}

impl Tree {
    /// The inode of the directory a registered table's rows are in (the table's path).
    ///
    /// Cost: O(log h) for h live headers.
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Row, Tree};
    /// let mut t = Tree::new();
    /// let h = t.register(b"net/eth0", &[Row::file("mtu", "1500")]).unwrap();
    /// assert_eq!(t.header_dir(h), Ok(t.stat(b"net/eth0").unwrap().ino));
    /// t.unregister(h).unwrap();
    /// assert_eq!(t.header_dir(h), Err(Errno::ENOENT));
    /// ```
    pub fn header_dir(&self, header: HeaderId) -> Result<Ino, Errno> {
        let h = self.headers.get(&header).ok_or(Errno::ENOENT)?;
        Ok(self.entry(h.target).ino)
    }
}

impl Tree {
    /// The stat of the entry behind an open handle, also after the entry was removed (it
    /// stays allocated until its last close): then `nlink` is 0, as fstat(2) of an unlinked
    /// file reports, and a removed listing's size is 0 (it has no directory to render).
    /// `EBADF` for an unknown or closed handle.
    ///
    /// Cost: O(log h) for h open handles.
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Tree};
    /// let mut t = Tree::new();
    /// t.create(b"/f", b"abc").unwrap();
    /// let h = t.open(b"/f").unwrap();
    /// t.remove(b"/f").unwrap();
    /// let st = t.stat_handle(h).unwrap();
    /// assert_eq!((st.size, st.nlink, st.open_refs), (3, 0, 1));
    /// t.close(h).unwrap();
    /// assert_eq!(t.stat_handle(h), Err(Errno::EBADF));
    /// ```
    pub fn stat_handle(&self, handle: HandleId) -> Result<Stat, Errno> {
        let slot = self.handles.slot_of(handle).ok_or(Errno::EBADF)?;
        let e = self.entry(slot);
        if e.reachable() {
            return Ok(self.stat_slot(slot, Some(0)));
        }
        let size = match &e.body {
            Body::File(c) | Body::Symlink(c) => content_len(c) as u64,
            Body::Generated(src) => self.sources.source(*src).len,
            _ => 0,
        };
        let a = self.attrs_of(slot);
        Ok(Stat {
            ino: e.ino,
            kind: e.body.kind(),
            ns: self.tag_of(slot),
            nlink: 0,
            size,
            mode: a.mode,
            uid: a.uid,
            gid: a.gid,
            owner: e.owner(),
            permanent: e.permanent(),
            open_refs: u64::from(e.open_refs),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::types::{Errno, ROOT_INO};
    use crate::{PseudoFs, Row, Tree};

    #[test]
    fn parent_and_header_dir_name_the_directory_above() {
        let mut t = Tree::new();
        let h = t
            .register(b"net/eth0", &[Row::file("mtu", "1500")])
            .unwrap();
        let dir = t.stat(b"/net/eth0").unwrap().ino;
        let mtu = t.stat(b"/net/eth0/mtu").unwrap().ino;
        assert_ne!(dir, ROOT_INO);
        assert_eq!(t.parent_ino(mtu), Ok(dir));
        assert_eq!(t.parent_ino(dir), Ok(t.stat(b"/net").unwrap().ino));
        assert_eq!(t.parent_ino(ROOT_INO), Ok(ROOT_INO));
        assert_eq!(t.header_dir(h), Ok(dir));
    }

    #[test]
    fn a_symlink_target_is_its_bytes_and_other_kinds_are_einval() {
        let mut t = Tree::new();
        let l = t.symlink(b"/self", b"42").unwrap();
        let f = t.create(b"/f", b"42").unwrap();
        assert_eq!(&*t.symlink_target(l).unwrap(), b"42");
        assert_eq!(t.symlink_target(f), Err(Errno::EINVAL));
        assert_eq!(t.symlink_target(999), Err(Errno::ENOENT));
    }

    #[test]
    fn a_handle_on_a_removed_entry_keeps_its_size() {
        let mut t = Tree::new();
        t.create(b"/f", b"abc").unwrap();
        t.symlink(b"/l", b"target").unwrap();
        t.source_add(b"mounts", b"proc /proc").unwrap();
        t.generated(b"/g", b"mounts").unwrap();
        for path in [&b"/f"[..], b"/l", b"/g"] {
            let size = t.stat(path).unwrap().size;
            assert!(size > 0, "{path:?}");
            let h = t.open(path).unwrap();
            t.remove(path).unwrap();
            let st = t.stat_handle(h).unwrap();
            assert_eq!((st.size, st.nlink), (size, 0), "{path:?}");
        }
    }
}
