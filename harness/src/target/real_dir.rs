//! [`RealDir`]: a real directory (tmpfs, ext4, a FUSE mount) driven through syscalls as a
//! [`PseudoFs`], so the differential runner can diff any mounted filesystem against the
//! oracle under the `posix-linux` profile.
//!
//! Every answer comes from the kernel; the adapter keeps only what POSIX has no call for. Each
//! mask below is what the profile compares instead, and why (`corpus/targets/masks-*.txt`
//! show the kernel's real answers behind each):
//!
//! - **Inode numbers** are mapped: an entry gets the next number of the adapter's own counter
//!   when the adapter creates it (root 1), so they compare with the tree's. A real inode
//!   number the adapter never made is a finding.
//! - **Directory size** is the number of children counted with getdents (`st_size` of a
//!   directory is filesystem-specific). `nlink`, file and symlink sizes are the kernel's.
//! - **Readdir order**: pages are the directory's real entries ordered by mapped inode (the
//!   tree's order; POSIX gives none). The real getdents stream is checked on its own: a scan
//!   that starts at position 0 is mirrored by a real directory stream read with 512-byte
//!   buffers, one getdents call per page after an lseek to the last `d_off`, interleaved
//!   with the ops that come between pages; at its end every entry present for the whole
//!   scan must have come exactly once and no entry twice (entries made or removed during the
//!   scan may come or not, as POSIX allows; see `scan.rs`). A violation panics, which the
//!   runner reports as a divergence.
//! - **unlink or rmdir**: the tree's one `remove` is `unlinkat` or `unlinkat(AT_REMOVEDIR)` by
//!   the entry's kind; `EEXIST` from rmdir of a non-empty directory (POSIX allows either)
//!   is `ENOTEMPTY`.
//! - **Read after removal**: POSIX keeps reading an unlinked open file; the tree answers
//!   `ENOENT`. The adapter reads the real file (it must still give its content, or that is a
//!   finding; under the `pseudo-linux` profile `ENOENT` is accepted too, the tree's own rule)
//!   and fstat of it must answer with nlink 0; then the adapter answers `ENOENT`.
//! - **Path syntax and limits the tree forbids** (`.`/`..` components, empty components,
//!   paths over 4096 bytes, names over 255, contents over `max_content`, more than
//!   `max_entries` entries, page sizes out of range, an empty symlink target) are refused by
//!   the adapter itself with the tree's error, before the kernel sees them.
//! - **Symlinks** are never followed: paths are resolved with `openat2(RESOLVE_BENEATH |
//!   RESOLVE_NO_SYMLINKS)`, so nothing escapes the sandbox, and a symlink in the middle of a
//!   path is `ENOTDIR` (the tree's answer: it is not a directory). The walk starts from the
//!   deepest of the last 16 directories resolved that the path passes through
//!   (`dir_cache.rs`), which a removal at or above them drops. `open` of a symlink reads
//!   its target with readlinkat.
//! - **Owners and handles**: every entry is `explicit`, only the root (the sandbox) is
//!   permanent, and `open=` counts the adapter's own open handles. A handle's `pos` and
//!   `snap` are those of its last whole-file `read` (the bytes it returned).
//! - **Modes and owners**: stat reports the SPEC's default mode for the kind and 0/0: the
//!   real ones are the umask's and the fuzzing user's, and no profile generates chmod/chown.
//!
//! Not supported (the profile never generates them): listings, tables, permanent entries,
//! sources and generated files, `read_at`, `write`, `chmod`, `chown`.
//! `check_invariants` has nothing to check on its own: the state is compared through
//! `dump`, a walk of the real tree.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use pdtree::{
    DirEntry, Errno, HandleId, HeaderId, Ino, InvariantViolation, Kind, Limits, Owner, PseudoFs,
    ReadDirPage, Row, Stat, Stats, ROOT_INO,
};
use rustix::fs::{
    fstat, mkdirat, openat, openat2, readlinkat, statat, symlinkat, unlinkat, AtFlags, FileType,
    Mode, OFlags, RawDir, ResolveFlags,
};
use rustix::io::Errno as Sys;

use super::dir_cache::DirCache;
use super::inodes::Inodes;
use super::scan::RealScans;
use super::syntax::{check_name, components, entry_line, only_view_0, tail_lines, Reads};
use crate::gen::Profile;

/// Bytes per getdents64 call: small, so one scan spans many calls.
pub(crate) const GETDENTS_BUFFER: usize = 512;

/// A real directory as a tree: each value is a fresh sandbox directory, removed on drop.
pub struct RealDir {
    root: OwnedFd,
    sandbox: PathBuf,
    profile: Profile,
    limits: Limits,
    /// Mapped inode of each reachable entry, by its path below the sandbox (root: empty).
    inodes: Inodes,
    /// Real inode number → mapped inode, for reachable entries and removed ones held open.
    mapped: BTreeMap<u64, Ino>,
    handles: BTreeMap<HandleId, Handle>,
    next_handle: HandleId,
    scans: RealScans,
    /// The directories resolved last, to walk paths from (see `dir_cache.rs`).
    dirs: RefCell<DirCache>,
}

struct Handle {
    ino: Ino,
    /// The open file; `None` for a symlink (read with readlinkat).
    file: Option<OwnedFd>,
    reads: Reads,
}

fn join(comps: &[&[u8]]) -> Vec<u8> {
    comps.join(&b'/')
}

/// The components of a path below the sandbox (empty: the root), the inverse of [`join`].
pub(crate) fn parts(rel: &[u8]) -> Vec<&[u8]> {
    if rel.is_empty() {
        return Vec::new();
    }
    rel.split(|&b| b == b'/').collect()
}

/// A kernel error as the tree's, or a finding: an error the tree never gives.
fn tree_errno(e: Sys, what: &str) -> Errno {
    match e {
        Sys::NOENT => Errno::ENOENT,
        // A symlink on the way (RESOLVE_NO_SYMLINKS): the tree's answer is "not a directory".
        Sys::NOTDIR | Sys::LOOP => Errno::ENOTDIR,
        Sys::ISDIR => Errno::EISDIR,
        Sys::EXIST => Errno::EEXIST,
        Sys::NOTEMPTY => Errno::ENOTEMPTY,
        Sys::BUSY => Errno::EBUSY,
        Sys::INVAL => Errno::EINVAL,
        Sys::NAMETOOLONG => Errno::ENAMETOOLONG,
        Sys::NOSPC => Errno::ENOSPC,
        Sys::FBIG => Errno::EFBIG,
        Sys::ROFS => Errno::EROFS,
        other => panic!("target: {what}: {other} (an error the tree never gives)"),
    }
}

/// The tree's kind of a real file type, or a finding.
fn kind_of(t: FileType, what: &str) -> Kind {
    match t {
        FileType::Directory => Kind::Dir,
        FileType::RegularFile => Kind::File,
        FileType::Symlink => Kind::Symlink,
        other => panic!("target: {what}: a {other:?}, which nothing here creates"),
    }
}

/// Every entry of an open directory but `.` and `..`, read with getdents64 in 512-byte
/// buffers: `(name, real inode, file type)`.
pub(crate) fn list_fd(dir: BorrowedFd<'_>, what: &str) -> Vec<(Vec<u8>, u64, FileType)> {
    let mut buf = [MaybeUninit::<u8>::uninit(); GETDENTS_BUFFER];
    let mut raw = RawDir::new(dir, &mut buf);
    let mut out = Vec::new();
    while let Some(e) = raw.next() {
        let e = e.unwrap_or_else(|err| panic!("target: getdents of {what}: {err}"));
        let name = e.file_name().to_bytes();
        if name != b"." && name != b".." {
            out.push((name.to_vec(), e.ino(), e.file_type()));
        }
    }
    out
}

impl RealDir {
    /// A fresh sandbox directory inside `base` (which must exist), enforcing `limits`,
    /// compared under `profile` ([`Profile::POSIX`] or [`Profile::PSEUDO`]).
    pub fn new_in(base: &Path, profile: Profile, limits: Limits) -> std::io::Result<RealDir> {
        static N: AtomicU64 = AtomicU64::new(0);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let sandbox = base.join(format!("pdtree-{}-{n}", std::process::id()));
        std::fs::create_dir(&sandbox)?;
        let root = openat(
            rustix::fs::CWD,
            &sandbox,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        let st = fstat(&root)?;
        Ok(RealDir {
            root,
            sandbox,
            profile,
            limits,
            inodes: Inodes::new(Vec::new()),
            mapped: BTreeMap::from([(st.st_ino, ROOT_INO)]),
            handles: BTreeMap::new(),
            next_handle: 1,
            scans: RealScans::default(),
            dirs: RefCell::new(DirCache::default()),
        })
    }

    /// The sandbox directory this value drives.
    pub fn sandbox(&self) -> &Path {
        &self.sandbox
    }

    /// A descriptor of the directory `comps` opened with `flags`, resolved beneath the
    /// sandbox without following any symlink: from the deepest cached directory on its way
    /// (`dir_cache.rs`). An `O_PATH` one is cached in turn.
    fn open_dir(&self, comps: &[&[u8]], flags: OFlags) -> Result<OwnedFd, Errno> {
        let rel = join(comps);
        let resolve = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS;
        let open = |base: BorrowedFd<'_>, rest: &[u8]| {
            let rest = if rest.is_empty() { &b"."[..] } else { rest };
            let flags = flags | OFlags::DIRECTORY | OFlags::CLOEXEC;
            openat2(base, rest, flags, Mode::empty(), resolve)
                .map_err(|e| tree_errno(e, "resolving a directory"))
        };
        let cache = self.dirs.borrow();
        let (fd, hit) = match cache.base(&rel) {
            Some((i, base, rest)) => (open(base, rest)?, rest.is_empty().then_some(i)),
            None => (open(self.root.as_fd(), &rel)?, None),
        };
        drop(cache);
        let mut cache = self.dirs.borrow_mut();
        match hit {
            Some(i) => cache.touch(i),
            None if flags.contains(OFlags::PATH) && !rel.is_empty() => {
                // A copy for the cache (one fcntl, no walk); without one the path is walked
                // again next time, which is all a failure costs.
                if let Ok(copy) = fd.try_clone() {
                    cache.insert(rel, copy);
                }
            }
            None => {}
        }
        Ok(fd)
    }

    /// [`open_dir`](Self::open_dir), `None` on any error.
    pub(crate) fn open_dir_fd(&self, comps: &[&[u8]], flags: OFlags) -> Option<OwnedFd> {
        self.open_dir(comps, flags).ok()
    }

    /// The path below the sandbox of reachable mapped inode `ino` (root: empty).
    pub(crate) fn rel_of(&self, ino: Ino) -> Option<&[u8]> {
        self.inodes.path(ino)
    }

    /// The parent directory of `comps` (non-empty) and the last name.
    fn parent<'p>(&self, comps: &[&'p [u8]]) -> Result<(OwnedFd, &'p [u8]), Errno> {
        let (name, dirs) = comps.split_last().expect("not the root");
        Ok((self.open_dir(dirs, OFlags::PATH)?, name))
    }

    /// `lstat` of `comps` (the root included).
    fn lstat(&self, comps: &[&[u8]]) -> Result<rustix::fs::Stat, Errno> {
        if comps.is_empty() {
            return fstat(&self.root).map_err(|e| tree_errno(e, "fstat of the root"));
        }
        let (dir, name) = self.parent(comps)?;
        statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW).map_err(|e| tree_errno(e, "lstat"))
    }

    fn map_real(&self, real: u64, what: &str) -> Ino {
        match self.mapped.get(&real) {
            Some(&ino) => ino,
            None => panic!("target: {what}: real inode {real}, which the adapter never made"),
        }
    }

    fn open_refs(&self, ino: Ino) -> u64 {
        self.handles.values().filter(|h| h.ino == ino).count() as u64
    }

    /// The kind of the entry at `comps` (one lstat; a directory is not listed).
    fn kind_at(&self, comps: &[&[u8]]) -> Result<Kind, Errno> {
        let st = self.lstat(comps)?;
        Ok(kind_of(
            FileType::from_raw_mode(st.st_mode),
            &String::from_utf8_lossy(&join(comps)),
        ))
    }

    /// The tree's stat of the entry at `comps`.
    fn stat_at(&self, comps: &[&[u8]]) -> Result<Stat, Errno> {
        let st = self.lstat(comps)?;
        let what = String::from_utf8_lossy(&join(comps)).into_owned();
        let kind = kind_of(FileType::from_raw_mode(st.st_mode), &what);
        let size = match kind {
            Kind::Dir => {
                let fd = self.open_dir(comps, OFlags::RDONLY)?;
                list_fd(fd.as_fd(), &what).len() as u64
            }
            _ => st.st_size as u64,
        };
        let ino = self.map_real(st.st_ino, &what);
        Ok(Stat {
            ino,
            kind,
            ns: None,
            nlink: st.st_nlink,
            size,
            // Mask: a real entry's mode is its creator's umask's and its owner the fuzzing
            // user; the profiles generate no chmod or chown, so the SPEC's defaults stand in.
            mode: kind.default_mode(),
            uid: 0,
            gid: 0,
            owner: Owner::Explicit,
            // The sandbox is the tree's root, which is permanent.
            permanent: ino == ROOT_INO,
            open_refs: self.open_refs(ino),
        })
    }

    fn allocated(&self) -> u64 {
        self.stats().allocated
    }

    /// Checks and makes one entry at `path` with `make(parent, name)`, then maps it.
    fn create_with(
        &mut self,
        path: &[u8],
        make: impl FnOnce(BorrowedFd<'_>, &[u8]) -> Result<(), Sys>,
    ) -> Result<Ino, Errno> {
        let comps = components(path)?;
        if comps.is_empty() {
            return Err(Errno::EEXIST);
        }
        let (dir, name) = self.parent(&comps)?;
        match statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(_) => return Err(Errno::EEXIST),
            Err(Sys::NOENT) => {}
            Err(e) => return Err(tree_errno(e, "lstat before a creation")),
        }
        if self.allocated() + 1 > self.limits.max_entries {
            return Err(Errno::ENOSPC);
        }
        make(dir.as_fd(), name).map_err(|e| tree_errno(e, "creating"))?;
        let st = statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW)
            .unwrap_or_else(|e| panic!("target: lstat of a just-made entry: {e}"));
        let ino = self.inodes.assign(join(&comps));
        self.mapped.insert(st.st_ino, ino);
        Ok(ino)
    }

    /// Forgets a removed entry's path; its inode mapping stays while a handle holds it.
    fn forget(&mut self, rel: &[u8], real: u64) {
        let (parent, name) = match rel.iter().rposition(|&b| b == b'/') {
            Some(i) => (&rel[..i], &rel[i + 1..]),
            None => (&b""[..], rel),
        };
        if let Some(dir) = self.inodes.ino(parent) {
            self.scans.removed(dir, name, real);
        }
        if let Some(ino) = self.inodes.forget(rel) {
            if self.open_refs(ino) == 0 {
                self.mapped.remove(&real);
            }
        }
    }

    /// Removes one entry by kind (unlink or rmdir).
    fn remove_one(&mut self, comps: &[&[u8]]) -> Result<(), Errno> {
        // Before the removal, so no walk starts from a directory that may be gone.
        let rel = join(comps);
        self.dirs.get_mut().forget_below(&rel);
        let (dir, name) = self.parent(comps)?;
        let st =
            statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW).map_err(|e| tree_errno(e, "lstat"))?;
        let is_dir = FileType::from_raw_mode(st.st_mode) == FileType::Directory;
        let flags = if is_dir {
            AtFlags::REMOVEDIR
        } else {
            AtFlags::empty()
        };
        match unlinkat(&dir, name, flags) {
            Ok(()) => {}
            // POSIX lets rmdir of a non-empty directory say either.
            Err(Sys::EXIST) if is_dir => return Err(Errno::ENOTEMPTY),
            Err(e) => return Err(tree_errno(e, "removing")),
        }
        self.forget(&rel, st.st_ino);
        Ok(())
    }

    /// Every path below `comps` (itself first), pre-order, read from the real tree.
    fn subtree(&self, comps: &[&[u8]]) -> Result<Vec<Vec<u8>>, Errno> {
        let mut out = vec![join(comps)];
        let mut i = 0;
        while i < out.len() {
            let rel = out[i].clone();
            let comps = parts(&rel);
            if self.kind_at(&comps)? == Kind::Dir {
                let fd = self.open_dir(&comps, OFlags::RDONLY)?;
                for (name, _, _) in list_fd(fd.as_fd(), "remove_subtree") {
                    out.push([&rel[..], b"/", &name].concat());
                }
            }
            i += 1;
        }
        Ok(out)
    }

    /// The real entries of directory `ino` as the tree's, ordered by mapped inode.
    fn entries_of(&self, ino: Ino) -> Result<Vec<DirEntry>, Errno> {
        let rel = self.inodes.path(ino).ok_or(Errno::ENOENT)?.to_vec();
        let comps = parts(&rel);
        if self.kind_at(&comps)? != Kind::Dir {
            return Err(Errno::ENOTDIR);
        }
        let what = String::from_utf8_lossy(&rel).into_owned();
        let fd = self.open_dir(&comps, OFlags::RDONLY)?;
        let mut out: Vec<DirEntry> = list_fd(fd.as_fd(), &what)
            .into_iter()
            .map(|(name, real, t)| DirEntry {
                ino: self.map_real(real, &what),
                kind: kind_of(t, &what),
                name,
            })
            .collect();
        out.sort_by_key(|e| e.ino);
        Ok(out)
    }

    /// The path of mapped inode `ino` as components.
    fn comps_of(&self, ino: Ino) -> Option<Vec<Vec<u8>>> {
        let rel = self.inodes.path(ino)?;
        Some(parts(rel).into_iter().map(<[u8]>::to_vec).collect())
    }

    fn dump_entries(&self, out: &mut String) {
        let root = self.stat_at(&[]).expect("the sandbox root is there");
        let mut stack: Vec<(Vec<u8>, Stat)> = vec![(Vec::new(), root)];
        while let Some((rel, st)) = stack.pop() {
            entry_line(out, &parts(&rel), &st);
            if st.kind != Kind::Dir {
                continue;
            }
            let mut children = self.entries_of(st.ino).expect("a listed directory");
            children.reverse();
            for c in children {
                let child = if rel.is_empty() {
                    c.name.clone()
                } else {
                    [&rel[..], b"/", &c.name].concat()
                };
                let st = self.stat_at(&parts(&child)).expect("a listed entry");
                stack.push((child, st));
            }
        }
    }
}

impl Drop for RealDir {
    fn drop(&mut self) {
        self.handles.clear();
        let _ = std::fs::remove_dir_all(&self.sandbox);
    }
}

impl PseudoFs for RealDir {
    /// A sandbox in the system's temporary directory; use [`RealDir::new_in`] to choose the
    /// filesystem.
    fn with_limits(limits: Limits) -> Self {
        RealDir::new_in(&std::env::temp_dir(), Profile::POSIX, limits)
            .unwrap_or_else(|e| panic!("making a sandbox directory: {e}"))
    }

    fn limits(&self) -> Limits {
        self.limits
    }

    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.create_with(path, |dir, name| {
            mkdirat(dir, name, Mode::from_raw_mode(0o755))
        })
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        components(path)?;
        if content.len() > self.limits.max_content {
            return Err(Errno::EFBIG);
        }
        self.create_with(path, |dir, name| {
            let flags =
                OFlags::CREATE | OFlags::EXCL | OFlags::WRONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            let fd = openat(dir, name, flags, Mode::from_raw_mode(0o644))?;
            let mut rest = content;
            while !rest.is_empty() {
                let n = rustix::io::write(&fd, rest)?;
                rest = &rest[n..];
            }
            Ok(())
        })
    }

    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        components(path)?;
        if target.len() > self.limits.max_content {
            return Err(Errno::EFBIG);
        }
        if target.is_empty() {
            return Err(Errno::EINVAL);
        }
        assert!(
            !target.contains(&0),
            "a symlink target with NUL: not in the posix-linux profile"
        );
        self.create_with(path, |dir, name| symlinkat(target, dir, name))
    }

    fn listing(&mut self, _path: &[u8]) -> Result<Ino, Errno> {
        unimplemented!("listings are not in the posix-linux profile")
    }

    fn register(&mut self, _dir: &[u8], _table: &[Row]) -> Result<HeaderId, Errno> {
        unimplemented!("tables are not in the posix-linux profile")
    }

    fn unregister(&mut self, _header: HeaderId) -> Result<(), Errno> {
        unimplemented!("tables are not in the posix-linux profile")
    }

    super::without_part_two!("the posix-linux profile");

    fn stat_in(&self, view: pdtree::View, path: &[u8]) -> Result<Stat, Errno> {
        let comps = components(path)?;
        only_view_0(view)?;
        self.stat_at(&comps)
    }

    fn lookup_at_in(&self, view: pdtree::View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        check_name(name)?;
        only_view_0(view)?;
        let comps = self.comps_of(dir).ok_or(Errno::ENOENT)?;
        let mut parts: Vec<&[u8]> = comps.iter().map(Vec::as_slice).collect();
        if self.stat_at(&parts)?.kind != Kind::Dir {
            return Err(Errno::ENOTDIR);
        }
        parts.push(name);
        self.stat_at(&parts)
    }

    fn readdir_in(
        &self,
        view: pdtree::View,
        dir: Ino,
        pos: u64,
        max: usize,
    ) -> Result<ReadDirPage, Errno> {
        if max == 0 || max > self.limits.max_readdir {
            return Err(Errno::EINVAL);
        }
        only_view_0(view)?;
        let all = self.entries_of(dir)?;
        let entries: Vec<DirEntry> = all.into_iter().filter(|e| e.ino >= pos).take(max).collect();
        let next_pos = entries.last().map_or(pos, |e| e.ino + 1);
        self.scans
            .page(self, dir, pos, next_pos, entries.is_empty());
        Ok(ReadDirPage { entries, next_pos })
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        let comps = components(path)?;
        if comps.is_empty() {
            return Err(Errno::EBUSY);
        }
        self.remove_one(&comps)
    }

    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        let comps = components(path)?;
        if comps.is_empty() {
            return Err(Errno::EBUSY);
        }
        let all = self.subtree(&comps)?;
        for rel in all.iter().rev() {
            self.remove_one(&parts(rel))?;
        }
        Ok(all.len() as u64)
    }

    fn mark_permanent(&mut self, _path: &[u8]) -> Result<(), Errno> {
        unimplemented!("permanent entries are not in the posix-linux profile")
    }

    fn open_in(&mut self, view: pdtree::View, path: &[u8]) -> Result<HandleId, Errno> {
        let comps = components(path)?;
        only_view_0(view)?;
        let st = self.stat_at(&comps)?;
        let file = match st.kind {
            Kind::Dir => return Err(Errno::EISDIR),
            Kind::Symlink => None,
            _ => {
                let (dir, name) = self.parent(&comps)?;
                let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
                Some(openat(&dir, name, flags, Mode::empty()).map_err(|e| tree_errno(e, "open"))?)
            }
        };
        let id = self.next_handle;
        self.next_handle = id.checked_add(1).ok_or(Errno::ENOSPC)?;
        let reads = Reads::default();
        self.handles.insert(
            id,
            Handle {
                ino: st.ino,
                file,
                reads,
            },
        );
        Ok(id)
    }

    fn read(&mut self, handle: HandleId) -> Result<Vec<u8>, Errno> {
        let h = self.handles.get(&handle).ok_or(Errno::EBADF)?;
        if !self.inodes.is_live(h.ino) {
            // Removed while open. POSIX: fstat answers with no links left, and the file
            // still reads; the tree: ENOENT.
            if let Some(fd) = &h.file {
                check_removed_open_file(fd.as_fd(), self.profile);
            }
            return Err(Errno::ENOENT);
        }
        let bytes = match &h.file {
            Some(fd) => {
                read_all(fd.as_fd()).unwrap_or_else(|e| panic!("target: reading an open file: {e}"))
            }
            None => {
                let comps = self.comps_of(h.ino).expect("reachable");
                let parts: Vec<&[u8]> = comps.iter().map(Vec::as_slice).collect();
                let (dir, name) = self.parent(&parts)?;
                let t =
                    readlinkat(&dir, name, Vec::new()).map_err(|e| tree_errno(e, "readlink"))?;
                t.into_bytes()
            }
        };
        let h = self.handles.get_mut(&handle).expect("checked handle");
        h.reads.whole(&bytes);
        Ok(bytes)
    }

    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        let h = self.handles.remove(&handle).ok_or(Errno::EBADF)?;
        if !self.inodes.is_live(h.ino) && self.open_refs(h.ino) == 0 {
            self.mapped.retain(|_, ino| *ino != h.ino);
        }
        Ok(())
    }

    fn stats(&self) -> Stats {
        self.inodes.stats(self.handles.values().map(|h| h.ino))
    }

    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        Ok(())
    }

    fn dump(&self) -> String {
        let mut out = String::new();
        self.dump_entries(&mut out);
        let handles = self
            .handles
            .iter()
            .map(|(&id, h)| (id, h.ino, !self.inodes.is_live(h.ino), &h.reads));
        tail_lines(
            &mut out,
            handles,
            self.inodes.next(),
            self.next_handle,
            &self.stats(),
        );
        out
    }
}

/// What POSIX promises of a file removed while open: fstat answers (nlink 0) and it still
/// reads, or under `pseudo-linux` answers `ENOENT` to a read. Anything else is a finding.
fn check_removed_open_file(fd: BorrowedFd<'_>, profile: Profile) {
    let what = "an open file after its removal";
    let st = fstat(fd).unwrap_or_else(|e| panic!("target: fstat of {what}: {e}"));
    assert_eq!(st.st_nlink, 0, "target: fstat of {what}: nlink");
    match read_all(fd) {
        Ok(_) => {}
        Err(Sys::NOENT) if profile.enoent_after_removal => {}
        Err(e) => panic!("target: reading {what}: {e}"),
    }
}

/// The whole content of an open file, from offset 0.
fn read_all(fd: BorrowedFd<'_>) -> Result<Vec<u8>, Sys> {
    let mut out = Vec::new();
    let mut buf = vec![0u8; 65_536];
    loop {
        let n = rustix::io::pread(fd, &mut buf[..], out.len() as u64)?;
        if n == 0 {
            return Ok(out);
        }
        out.extend_from_slice(&buf[..n]);
    }
}
