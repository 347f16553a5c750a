//! The one trait every tree implementation offers: the SPEC's operations.
//!
//! Core ([`Tree`](crate::Tree)) and the naive oracle implement it; the differential harness
//! drives anything that does, so a user's own tree plugs in the same way.

use crate::types::{
    DirEntry, Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Limits, Mode, NsId,
    ReadDirPage, Row, Stat, Stats, View,
};

/// The operations of a pseudo-filesystem tree, as defined in `docs/SEMANTICS.md`.
///
/// Every method either succeeds completely or returns one [`Errno`] and changes nothing.
/// Paths are byte strings: one optional leading `/`, components separated by single `/`.
///
/// ```
/// use pdtree::{Errno, Kind, PseudoFs, Tree};
///
/// let mut t = Tree::new();
/// assert_eq!(t.mkdir(b"/net"), Ok(2));
/// assert_eq!(t.create(b"/net/dev", b"eth0\n"), Ok(3));
/// assert_eq!(t.mkdir(b"/net"), Err(Errno::EEXIST));
/// assert_eq!(t.stat(b"/net").unwrap().size, 1);
/// assert_eq!(t.remove(b"/net"), Err(Errno::ENOTEMPTY));
/// assert_eq!(t.remove_subtree(b"/net"), Ok(2));
/// assert_eq!(t.stat(b"/net"), Err(Errno::ENOENT));
/// assert!(t.check_invariants().is_ok());
/// ```
pub trait PseudoFs {
    /// A new tree holding only the root, enforcing `limits`.
    fn with_limits(limits: Limits) -> Self
    where
        Self: Sized;

    /// The limits this tree enforces.
    fn limits(&self) -> Limits;

    /// Creates an empty directory; returns its inode number.
    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno>;

    /// Creates a file with static `content`; returns its inode number.
    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno>;

    /// Creates the empty files `paths`, in order, stopping at the first that fails; returns
    /// how many were made and the error that stopped it (`None`: all were made). It is
    /// `create(path, b"")` for each path, so it is not atomic: the files made before the
    /// failing one stay. The default is that loop; an implementation may do the same work
    /// faster, never differently. Cost in [`Tree`](crate::Tree): the creates'.
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Tree};
    /// let mut t = Tree::new();
    /// t.create(b"/eth2", b"").unwrap();
    /// let paths: [&[u8]; 4] = [b"/eth0", b"/eth1", b"/eth2", b"/eth3"];
    /// assert_eq!(t.create_files(&paths), (2, Some(Errno::EEXIST)));
    /// assert!(t.stat(b"/eth1").is_ok());
    /// assert_eq!(t.stat(b"/eth3"), Err(Errno::ENOENT));
    /// ```
    fn create_files(&mut self, paths: &[&[u8]]) -> (u64, Option<Errno>) {
        for (made, path) in paths.iter().enumerate() {
            if let Err(e) = self.create(path, b"") {
                return (made as u64, Some(e));
            }
        }
        (paths.len() as u64, None)
    }

    /// Creates a symlink to `target` (never followed); returns its inode number.
    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno>;

    /// Creates a generated file rendering its parent directory; returns its inode number.
    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno>;

    /// Creates a generated file rendering the named `source` (SPEC §11), which exists from
    /// then on; returns its inode number.
    fn generated(&mut self, path: &[u8], source: &[u8]) -> Result<Ino, Errno>;

    /// Appends `item` to `source` (creating the source): the generation + 1, the cache invalid.
    fn source_add(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno>;

    /// Removes `item` from `source`: the generation + 1, the cache invalid.
    fn source_remove(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno>;

    /// Registers a sysctl-style table under `dir`, creating missing directories on demand.
    /// An empty table makes `dir` a mount point. Returns the header id.
    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno>;

    /// Registers a table whose entries are tagged with namespace `ns` (SPEC §10), resolving
    /// `dir` in view `ns`. Returns the header id.
    fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno>;

    /// Removes a header's rows and releases its directories.
    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno>;

    /// A new network namespace owned by `uid`/`gid`; returns its id.
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Row, Tree};
    /// let mut t = Tree::new();
    /// let k = t.ns_create(100_000, 100_000).unwrap();
    /// t.register_ns(k, b"proc/sys/net/ipv4/conf/eth0", &[Row::file("forwarding", "0\n")]).unwrap();
    /// let st = t.stat_in(k, b"proc/sys/net/ipv4/conf/eth0/forwarding").unwrap();
    /// assert_eq!((st.ns, st.uid), (Some(k), 100_000));
    /// assert_eq!(t.stat(b"proc/sys"), Err(Errno::ENOENT)); // view 0 does not see it
    /// assert_eq!(t.ns_destroy(k), Ok(7));
    /// assert_eq!(t.stat_in(k, b"/"), Err(Errno::ENOENT));
    /// ```
    fn ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno>;

    /// Destroys namespace `ns`: its entries and headers go; returns the entries removed.
    fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno>;

    /// Describes the entry at `path` in view 0.
    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        self.stat_in(0, path)
    }

    /// Describes the entry at `path` as view `view` sees it.
    fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno>;

    /// Describes child `name` of directory `dir`, in view 0.
    fn lookup_at(&self, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        self.lookup_at_in(0, dir, name)
    }

    /// Describes child `name` of directory `dir` as view `view` sees it.
    fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno>;

    /// [`lookup_at_in`](PseudoFs::lookup_at_in) of each of `names` in one directory, in the
    /// order given: each answer is what that call would return (not a SPEC operation: the
    /// harness's end-of-input check asks the reference for every directory's `stat` with it).
    /// The default calls `lookup_at_in` once per name; a tree whose lookup scans the
    /// directory answers them all in one scan instead.
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Tree, ROOT_INO};
    /// let mut t = Tree::new();
    /// let a = t.mkdir(b"/a").unwrap();
    /// let got = t.lookups_in(0, ROOT_INO, &[b"a", b"b", b""]);
    /// assert_eq!(got[0].map(|s| s.ino), Ok(a));
    /// assert_eq!(got[1..], [Err(Errno::ENOENT), Err(Errno::EINVAL)]);
    /// ```
    fn lookups_in(&self, view: View, dir: Ino, names: &[&[u8]]) -> Vec<Result<Stat, Errno>> {
        names
            .iter()
            .map(|name| self.lookup_at_in(view, dir, name))
            .collect()
    }

    /// Up to `max` children of `dir` with inode number >= `pos`, ascending, in view 0.
    fn readdir(&self, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        self.readdir_in(0, dir, pos, max)
    }

    /// Up to `max` children of `dir` visible in `view` with inode number >= `pos`, ascending.
    fn readdir_in(&self, view: View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno>;

    /// Every child of `dir` visible in `view`, ascending: what `readdir_in` returns over a
    /// whole scan from position 0 with nothing changing, with no page limit (not a SPEC
    /// operation: the harness's readdir check reads the reference with it). The default reads
    /// page by page ([`read_all_in`] with pages of `limits().max_readdir`); a tree whose
    /// `readdir_in` costs O(directory) per page answers it in one pass instead.
    ///
    /// ```
    /// use pdtree::{PseudoFs, Tree, ROOT_INO};
    /// let mut t = Tree::new();
    /// for n in 0..10 { t.mkdir(format!("d{n}").as_bytes()).unwrap(); }
    /// assert_eq!(t.children_in(0, ROOT_INO).unwrap().len(), 10);
    /// ```
    fn children_in(&self, view: View, dir: Ino) -> Result<Vec<DirEntry>, Errno> {
        read_all_in(self, view, dir, self.limits().max_readdir.max(1))
    }

    /// Removes a non-directory or an empty directory.
    fn remove(&mut self, path: &[u8]) -> Result<(), Errno>;

    /// Removes an entry and all its descendants; returns how many were removed.
    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno>;

    /// Marks an explicit entry permanent: it can never be removed again.
    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno>;

    /// Opens a non-directory, resolving `path` in view 0; returns a handle id.
    fn open(&mut self, path: &[u8]) -> Result<HandleId, Errno> {
        self.open_in(0, path)
    }

    /// Opens a non-directory, resolving `path` in `view`; the handle keeps no view.
    fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno>;

    /// Reads the whole content behind a handle, from a fresh snapshot (a listing renders its
    /// directory now): `read_at(handle, 0, u64::MAX)`.
    fn read(&mut self, handle: HandleId) -> Result<Vec<u8>, Errno> {
        self.read_at(handle, 0, u64::MAX)
    }

    /// Up to `len` bytes at `offset`, as seq_file reads (SPEC §11): a read that continues
    /// where the handle's last one ended reads the snapshot that one took; a read at 0 or
    /// anywhere else takes a fresh snapshot of the whole content first.
    fn read_at(&mut self, handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno>;

    /// Replaces the whole content of the File behind `handle` (a sysctl write, SPEC §13).
    fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno>;

    /// Sets the permission bits of the entry at `path` (any kind but a symlink), in view 0.
    fn chmod(&mut self, path: &[u8], mode: Mode) -> Result<(), Errno> {
        self.chmod_in(0, path, mode)
    }

    /// Sets the permission bits of the entry at `path` resolved in `view`.
    fn chmod_in(&mut self, view: View, path: &[u8], mode: Mode) -> Result<(), Errno>;

    /// Sets the owner of the entry at `path` (any kind), in view 0.
    fn chown(&mut self, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno> {
        self.chown_in(0, path, uid, gid)
    }

    /// Sets the owner of the entry at `path` resolved in `view`.
    fn chown_in(&mut self, view: View, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno>;

    /// Closes a handle, freeing a removed entry on its last close.
    fn close(&mut self, handle: HandleId) -> Result<(), Errno>;

    /// Tree-wide counters.
    fn stats(&self) -> Stats;

    /// Checks every SPEC §8 invariant this implementation can check about itself.
    fn check_invariants(&self) -> Result<(), InvariantViolation>;

    /// Checks the SPEC §8 invariants about directories `dirs` (inode numbers; a number that
    /// is not a live directory is skipped) and their children, and may skip what needs a
    /// walk of the whole tree. The harness calls it after an op with the directories that op
    /// could have changed, and [`check_invariants`](Self::check_invariants) at a fixed
    /// interval and at the end of every input. The default checks everything; core's
    /// version costs the children of `dirs` plus the open handles plus one rendering of each
    /// source.
    ///
    /// ```
    /// use pdtree::{PseudoFs, Tree, ROOT_INO};
    /// let mut t = Tree::new();
    /// let net = t.mkdir(b"/net").unwrap();
    /// t.create(b"/net/dev", b"eth0\n").unwrap();
    /// assert!(t.check_invariants_near(&[ROOT_INO, net]).is_ok());
    /// ```
    fn check_invariants_near(&self, dirs: &[Ino]) -> Result<(), InvariantViolation> {
        let _ = dirs;
        self.check_invariants()
    }

    /// The canonical text of the whole state (see `docs/SEMANTICS.md`, "Canonical dump").
    fn dump(&self) -> String;

    /// A 64-bit hash of the canonical state: equal [`dump`](Self::dump)s give equal
    /// fingerprints, and a change of the dump changes the fingerprint unless the hash
    /// collides. The harness compares it before and after every failed op (SPEC §8.8) and
    /// checks it against the dump every 32 ops. The default hashes the dump; core's version
    /// hashes the values the dump prints without printing them (cost: the live entries plus
    /// the headers, handles and sources; 0.25–0.44 of the dump's time on a tree of 10^5
    /// files).
    ///
    /// ```
    /// use pdtree::{Errno, PseudoFs, Tree};
    /// let mut t = Tree::new();
    /// t.mkdir(b"/net").unwrap();
    /// let before = t.fingerprint();
    /// assert_eq!(t.mkdir(b"/net"), Err(Errno::EEXIST));
    /// assert_eq!(t.fingerprint(), before);
    /// t.create(b"/net/dev", b"").unwrap();
    /// assert_ne!(t.fingerprint(), before);
    /// ```
    fn fingerprint(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        self.dump().hash(&mut h);
        h.finish()
    }
}

/// Every child of `dir`, read page by page with `readdir` (a convenience for tests and tools).
///
/// ```
/// use pdtree::{PseudoFs, Tree, ROOT_INO};
/// let mut t = Tree::new();
/// for n in 0..10 { t.mkdir(format!("d{n}").as_bytes()).unwrap(); }
/// assert_eq!(pdtree::read_all(&t, ROOT_INO, 3).unwrap().len(), 10);
/// ```
pub fn read_all<T: PseudoFs + ?Sized>(
    tree: &T,
    dir: Ino,
    page: usize,
) -> Result<Vec<DirEntry>, Errno> {
    read_all_in(tree, 0, dir, page)
}

/// [`read_all`] in view `view`: every child of `dir` that view sees.
///
/// ```
/// use pdtree::{PseudoFs, Row, Tree, ROOT_INO};
/// let mut t = Tree::new();
/// let k = t.ns_create(0, 0).unwrap();
/// t.register_ns(k, b"", &[Row::dir("own")]).unwrap();
/// assert_eq!(pdtree::read_all_in(&t, k, ROOT_INO, 8).unwrap().len(), 1);
/// assert_eq!(pdtree::read_all(&t, ROOT_INO, 8).unwrap().len(), 0);
/// ```
pub fn read_all_in<T: PseudoFs + ?Sized>(
    tree: &T,
    view: View,
    dir: Ino,
    page: usize,
) -> Result<Vec<DirEntry>, Errno> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let p = tree.readdir_in(view, dir, pos, page)?;
        if p.entries.is_empty() {
            return Ok(out);
        }
        pos = p.next_pos;
        out.extend(p.entries);
    }
}
