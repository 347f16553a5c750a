//! The FUSE requests, each answered by the tree's operation of the same meaning.
//!
//! Every handler takes the one lock around [`State`], does its tree calls and replies. The
//! kernel addresses entries by inode; the tree's mutating operations take paths, so a
//! handler turns `(parent inode, name)` into a path with [`Tree::path_of`] (O(depth)).

use std::collections::{BTreeSet, HashMap};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime};

use fuser::{
    FileAttr, FileHandle, Filesystem, FopenFlags, Generation, INodeNo, InitFlags, KernelConfig,
    OpenAccMode, OpenFlags, ReplyAttr, ReplyCreate, ReplyData, ReplyDirectory, ReplyDirectoryPlus,
    ReplyEmpty, ReplyEntry, ReplyOpen, ReplyStatfs, ReplyWrite, Request, TimeOrNow,
};
use pdtree::{Errno, HandleId, Ino, Kind, PseudoFs, Stat, Tree, MAX_NAME};

use crate::attr::{file_attr, file_type};
use crate::errno::to_fuse;

/// Children asked of the tree per `readdir_each` call while filling one reply.
const READDIR_BATCH: usize = 256;

/// Why a request is refused: a tree error, mapped one to one, or the adapter's own answer for
/// what the tree does not have (EPERM for rename and device nodes).
#[derive(Clone, Copy, Debug)]
struct Refused(fuser::Errno);

impl From<Errno> for Refused {
    fn from(e: Errno) -> Refused {
        Refused(to_fuse(e))
    }
}

/// Everything behind the lock.
pub(crate) struct State {
    pub(crate) tree: Tree,
    /// Directories held open (opendir without releasedir yet): how many times, and their stat
    /// at the first opendir, so fstat of a directory removed while open still answers (the
    /// tree has no directory handles).
    open_dirs: HashMap<Ino, (u64, Stat)>,
    /// The tree handles open on each inode, so fstat of a file removed while open answers
    /// through one of them (the kernel's GETATTR names the inode, not the handle).
    open_files: HashMap<Ino, BTreeSet<HandleId>>,
}

/// What the mount was asked for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub(crate) ttl: Duration,
    pub(crate) read_only: bool,
}

/// The state and settings shared by the request handlers and the [`Mounted`](crate::Mounted)
/// handle.
pub(crate) struct Shared {
    state: Mutex<State>,
    settings: Settings,
    /// Every timestamp the kernel is shown: the tree keeps no times.
    started: SystemTime,
}

impl Shared {
    pub(crate) fn new(tree: Tree, settings: Settings) -> Shared {
        Shared {
            state: Mutex::new(State {
                tree,
                open_dirs: HashMap::new(),
                open_files: HashMap::new(),
            }),
            settings,
            started: SystemTime::now(),
        }
    }

    /// The state, even if a handler panicked while holding it (the tree itself never
    /// panics on bad input, and its operations change nothing when they fail).
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Attribute lifetime: a listing's size changes with its directory, so the kernel asks
    /// again every time; everything else is cached for the configured TTL.
    fn attr_ttl(&self, kind: Kind) -> Duration {
        match kind {
            Kind::Listing => Duration::ZERO,
            _ => self.settings.ttl,
        }
    }

    fn attr(&self, st: &Stat) -> FileAttr {
        file_attr(st, self.started)
    }

    fn reply_entry(&self, st: Stat, r: ReplyEntry) {
        let attr = self.attr(&st);
        r.entry_with_ttls(
            &self.attr_ttl(st.kind),
            &self.settings.ttl,
            &attr,
            Generation(0),
        );
    }

    fn writable(&self) -> Result<(), Refused> {
        if self.settings.read_only {
            Err(Errno::EROFS.into())
        } else {
            Ok(())
        }
    }
}

impl State {
    /// getattr's answer: the reachable entry; else, for an inode still open after its
    /// removal, its stat through an open handle (a file: nlink 0) or as it was at opendir (a
    /// directory: nlink 0, no children). POSIX has fstat answer for both.
    fn stat_for_getattr(&self, ino: Ino) -> Result<Stat, Errno> {
        match self.tree.stat_ino(ino) {
            Err(Errno::ENOENT) => {
                if let Some(&h) = self.open_files.get(&ino).and_then(|hs| hs.first()) {
                    return self.tree.stat_handle(h);
                }
                match self.open_dirs.get(&ino) {
                    Some((_, st)) => Ok(Stat {
                        nlink: 0,
                        size: 0,
                        ..*st
                    }),
                    None => Err(Errno::ENOENT),
                }
            }
            other => other,
        }
    }

    /// A tree handle was opened on `ino`.
    fn opened(&mut self, ino: Ino, h: HandleId) {
        self.open_files.entry(ino).or_default().insert(h);
    }

    /// Tree handle `h` is being released.
    fn releasing(&mut self, h: HandleId) {
        if let Ok(st) = self.tree.stat_handle(h) {
            if let Some(hs) = self.open_files.get_mut(&st.ino) {
                hs.remove(&h);
                if hs.is_empty() {
                    self.open_files.remove(&st.ino);
                }
            }
        }
    }
}

/// The path of child `name` of directory `parent`.
fn child_path(tree: &Tree, parent: Ino, name: &[u8]) -> Result<Vec<u8>, Errno> {
    let mut path = tree.path_of(parent)?;
    if path != b"/" {
        path.push(b'/');
    }
    path.extend_from_slice(name);
    Ok(path)
}

/// Creates `name` in `parent` with `make` and returns the new entry's stat.
fn make_child(
    tree: &mut Tree,
    parent: Ino,
    name: &[u8],
    make: impl FnOnce(&mut Tree, &[u8]) -> Result<Ino, Errno>,
) -> Result<Stat, Errno> {
    let path = child_path(tree, parent, name)?;
    let ino = make(tree, &path)?;
    tree.stat_ino(ino)
}

/// Removes `name` from `parent` if its kind agrees with the call (unlink: not a directory;
/// rmdir: a directory).
fn remove_child(tree: &mut Tree, parent: Ino, name: &[u8], dir: bool) -> Result<(), Errno> {
    let st = tree.lookup_at(parent, name)?;
    match (st.kind == Kind::Dir, dir) {
        (true, false) => return Err(Errno::EISDIR),
        (false, true) => return Err(Errno::ENOTDIR),
        _ => {}
    }
    let path = child_path(tree, parent, name)?;
    tree.remove(&path)
}

/// Offers `.`, `..` and the children of `dir` from `offset` to `add(ino, d_off, kind, name)`
/// until it reports a full buffer. Positions: `.` is 0, `..` is 1, a child is its inode
/// (≥ 2); each entry's `d_off` is its position + 1, the position to resume from.
fn fill_dir(
    tree: &Tree,
    dir: Ino,
    offset: u64,
    mut add: impl FnMut(Ino, u64, Kind, &[u8]) -> bool,
) -> Result<(), Errno> {
    if tree.stat_ino(dir)?.kind != Kind::Dir {
        return Err(Errno::ENOTDIR);
    }
    if offset == 0 && add(dir, 1, Kind::Dir, b".") {
        return Ok(());
    }
    if offset <= 1 && add(tree.parent_ino(dir)?, 2, Kind::Dir, b"..") {
        return Ok(());
    }
    let mut pos = offset.max(2);
    loop {
        let (mut seen, mut full) = (0, false);
        let next = tree.readdir_each(dir, pos, READDIR_BATCH, |name, ino, kind| {
            seen += 1;
            full = full || add(ino, ino + 1, kind, name);
        })?;
        if full || seen < READDIR_BATCH {
            return Ok(());
        }
        pos = next;
    }
}

/// The FUSE filesystem: a thin mapping from requests to [`Shared`].
pub(crate) struct TreeFs(pub(crate) Arc<Shared>);

impl TreeFs {
    fn entry_op(
        &self,
        parent: INodeNo,
        name: &OsStr,
        reply: ReplyEntry,
        make: impl FnOnce(&mut Tree, &[u8]) -> Result<Ino, Errno>,
    ) {
        let s = &self.0;
        let mut state = s.lock();
        let name = name.as_bytes();
        let made = s.writable().and_then(|()| {
            make_child(&mut state.tree, parent.0, name, make).map_err(Refused::from)
        });
        match made {
            Ok(st) => s.reply_entry(st, reply),
            Err(e) => reply.error(e.0),
        }
    }

    fn remove_op(&self, parent: INodeNo, name: &OsStr, dir: bool, reply: ReplyEmpty) {
        let s = &self.0;
        let mut state = s.lock();
        let removed = s.writable().and_then(|()| {
            remove_child(&mut state.tree, parent.0, name.as_bytes(), dir).map_err(Refused::from)
        });
        match removed {
            Ok(()) => reply.ok(),
            Err(e) => reply.error(e.0),
        }
    }

    /// Opens `ino` in the tree: a new tree handle, read with direct I/O so that every read
    /// reaches the tree (a listing renders now; a removed file answers `ENOENT`).
    fn open_handle(&self, state: &mut State, ino: Ino) -> Result<HandleId, Errno> {
        let path = state.tree.path_of(ino)?;
        let h = state.tree.open(&path)?;
        state.opened(ino, h);
        Ok(h)
    }

    /// The tree's seq_file read (SPEC §11): a read continuing where the handle's last one
    /// ended reads that one's snapshot, so `cat` with a small buffer sees one rendering; a
    /// read at 0 or elsewhere renders afresh. Every read asks the tree, so a removed entry
    /// answers ENOENT even mid-file.
    fn read_at(&self, handle: HandleId, offset: u64, size: u32) -> Result<Vec<u8>, Errno> {
        self.0.lock().tree.read_at(handle, offset, u64::from(size))
    }

    /// chmod and chown through the tree (SPEC §12: a mode above 0o777, setuid bits included,
    /// is `EINVAL`; an id chown(2) leaves unchanged keeps the entry's); a size change is
    /// `EROFS` (content has no truncate here).
    fn setattr_checked(
        &self,
        ino: Ino,
        mode: Option<u32>,
        owner: (Option<u32>, Option<u32>),
        size: Option<u64>,
    ) -> Result<Stat, Refused> {
        let mut state = self.0.lock();
        let st = state.tree.stat_ino(ino)?;
        if size.is_some_and(|n| n != st.size) {
            return Err(Errno::EROFS.into());
        }
        if mode.is_none() && owner == (None, None) {
            return Ok(st);
        }
        self.0.writable()?;
        let path = state.tree.path_of(ino)?;
        if let Some(m) = mode {
            state.tree.chmod(&path, m & 0o7777)?;
        }
        if owner != (None, None) {
            let (uid, gid) = (owner.0.unwrap_or(st.uid), owner.1.unwrap_or(st.gid));
            state.tree.chown(&path, uid, gid)?;
        }
        Ok(state.tree.stat_ino(ino)?)
    }
}

#[allow(clippy::too_many_arguments)] // fuser's signatures
impl Filesystem for TreeFs {
    fn init(&mut self, _req: &Request, config: &mut KernelConfig) -> std::io::Result<()> {
        // READDIRPLUS answers `ls -l` with one request per buffer instead of one LOOKUP per
        // entry; AUTO lets the kernel use plain READDIR when nobody stats the entries.
        let plus = InitFlags::FUSE_DO_READDIRPLUS | InitFlags::FUSE_READDIRPLUS_AUTO;
        let _ = config.add_capabilities(plus);
        Ok(())
    }

    fn lookup(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEntry) {
        let s = &self.0;
        let state = s.lock();
        let name = name.as_bytes();
        match state.tree.lookup_at(parent.0, name) {
            Ok(st) => s.reply_entry(st, reply),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    /// fstat does not name a handle (the kernel sends none for it), so the inode decides;
    /// see `stat_for_getattr`.
    fn getattr(&self, _req: &Request, ino: INodeNo, _fh: Option<FileHandle>, reply: ReplyAttr) {
        let s = &self.0;
        match s.lock().stat_for_getattr(ino.0) {
            Ok(st) => reply.attr(&s.attr_ttl(st.kind), &s.attr(&st)),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn opendir(&self, _req: &Request, ino: INodeNo, _flags: OpenFlags, reply: ReplyOpen) {
        let mut state = self.0.lock();
        match state.tree.stat_ino(ino.0) {
            Ok(st) if st.kind == Kind::Dir => {
                state.open_dirs.entry(st.ino).or_insert((0, st)).0 += 1;
                reply.opened(FileHandle(0), FopenFlags::empty());
            }
            Ok(_) => reply.error(fuser::Errno::ENOTDIR),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn releasedir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        _flags: OpenFlags,
        reply: ReplyEmpty,
    ) {
        let mut state = self.0.lock();
        if let Some((n, _)) = state.open_dirs.get_mut(&ino.0) {
            *n -= 1;
            if *n == 0 {
                state.open_dirs.remove(&ino.0);
            }
        }
        reply.ok();
    }

    fn setattr(
        &self,
        _req: &Request,
        ino: INodeNo,
        mode: Option<u32>,
        uid: Option<u32>,
        gid: Option<u32>,
        size: Option<u64>,
        _atime: Option<TimeOrNow>,
        _mtime: Option<TimeOrNow>,
        _ctime: Option<SystemTime>,
        _fh: Option<FileHandle>,
        _crtime: Option<SystemTime>,
        _chgtime: Option<SystemTime>,
        _bkuptime: Option<SystemTime>,
        _flags: Option<fuser::BsdFileFlags>,
        reply: ReplyAttr,
    ) {
        match self.setattr_checked(ino.0, mode, (uid, gid), size) {
            Ok(st) => reply.attr(&self.0.attr_ttl(st.kind), &self.0.attr(&st)),
            Err(e) => reply.error(e.0),
        }
    }

    fn readlink(&self, _req: &Request, ino: INodeNo, reply: ReplyData) {
        match self.0.lock().tree.symlink_target(ino.0) {
            Ok(target) => reply.data(&target),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn mknod(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        mode: u32,
        _umask: u32,
        _rdev: u32,
        reply: ReplyEntry,
    ) {
        // Only regular files exist in the tree; devices, fifos and sockets do not.
        if mode & S_IFMT != S_IFREG {
            return reply.error(fuser::Errno::EPERM);
        }
        self.entry_op(parent, name, reply, |t, p| t.create(p, b""));
    }

    fn mkdir(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        reply: ReplyEntry,
    ) {
        self.entry_op(parent, name, reply, |t, p| t.mkdir(p));
    }

    fn unlink(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        self.remove_op(parent, name, false, reply);
    }

    fn rmdir(&self, _req: &Request, parent: INodeNo, name: &OsStr, reply: ReplyEmpty) {
        self.remove_op(parent, name, true, reply);
    }

    fn symlink(
        &self,
        _req: &Request,
        parent: INodeNo,
        link_name: &OsStr,
        target: &Path,
        reply: ReplyEntry,
    ) {
        let target = target.as_os_str().as_bytes();
        self.entry_op(parent, link_name, reply, |t, p| t.symlink(p, target));
    }

    fn rename(
        &self,
        _req: &Request,
        _parent: INodeNo,
        _name: &OsStr,
        _newparent: INodeNo,
        _newname: &OsStr,
        _flags: fuser::RenameFlags,
        reply: ReplyEmpty,
    ) {
        // The tree has no rename; the VFS answers EPERM for a filesystem without one.
        reply.error(fuser::Errno::EPERM);
    }

    fn open(&self, _req: &Request, ino: INodeNo, flags: OpenFlags, reply: ReplyOpen) {
        // Content is fixed at creation: the tree has no write yet.
        if flags.acc_mode() != OpenAccMode::O_RDONLY || flags.0 & O_TRUNC != 0 {
            return reply.error(fuser::Errno::EROFS);
        }
        let mut state = self.0.lock();
        match self.open_handle(&mut state, ino.0) {
            Ok(h) => reply.opened(FileHandle(h), FopenFlags::FOPEN_DIRECT_IO),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn read(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        offset: u64,
        size: u32,
        _flags: OpenFlags,
        _lock_owner: Option<fuser::LockOwner>,
        reply: ReplyData,
    ) {
        match self.read_at(fh.0, offset, size) {
            Ok(bytes) => reply.data(&bytes),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn write(
        &self,
        _req: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        _offset: u64,
        _data: &[u8],
        _write_flags: fuser::WriteFlags,
        _flags: OpenFlags,
        _lock_owner: Option<fuser::LockOwner>,
        reply: ReplyWrite,
    ) {
        reply.error(fuser::Errno::EROFS);
    }

    fn flush(
        &self,
        _req: &Request,
        _ino: INodeNo,
        _fh: FileHandle,
        _lock_owner: fuser::LockOwner,
        reply: ReplyEmpty,
    ) {
        reply.ok();
    }

    fn release(
        &self,
        _req: &Request,
        _ino: INodeNo,
        fh: FileHandle,
        _flags: OpenFlags,
        _lock_owner: Option<fuser::LockOwner>,
        _flush: bool,
        reply: ReplyEmpty,
    ) {
        let mut state = self.0.lock();
        state.releasing(fh.0);
        match state.tree.close(fh.0) {
            Ok(()) => reply.ok(),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn readdir(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectory,
    ) {
        let state = self.0.lock();
        let filled = fill_dir(&state.tree, ino.0, offset, |child, off, kind, name| {
            reply.add(
                INodeNo(child),
                off,
                file_type(kind),
                OsStr::from_bytes(name),
            )
        });
        match filled {
            Ok(()) => reply.ok(),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn readdirplus(
        &self,
        _req: &Request,
        ino: INodeNo,
        _fh: FileHandle,
        offset: u64,
        mut reply: ReplyDirectoryPlus,
    ) {
        let s = &self.0;
        let state = s.lock();
        let tree = &state.tree;
        let filled = fill_dir(tree, ino.0, offset, |child, off, kind, name| {
            let Ok(st) = tree.stat_ino(child) else {
                return false;
            };
            let ttl = s.attr_ttl(kind);
            let name = OsStr::from_bytes(name);
            reply.add(INodeNo(child), off, name, &ttl, &s.attr(&st), Generation(0))
        });
        match filled {
            Ok(()) => reply.ok(),
            Err(e) => reply.error(to_fuse(e)),
        }
    }

    fn statfs(&self, _req: &Request, _ino: INodeNo, reply: ReplyStatfs) {
        let state = self.0.lock();
        let files = state.tree.limits().max_entries;
        let free = files.saturating_sub(state.tree.stats().allocated);
        reply.statfs(0, 0, 0, files, free, 4096, MAX_NAME as u32, 4096);
    }

    fn create(
        &self,
        _req: &Request,
        parent: INodeNo,
        name: &OsStr,
        _mode: u32,
        _umask: u32,
        _flags: i32,
        reply: ReplyCreate,
    ) {
        let s = &self.0;
        let mut state = s.lock();
        let name = name.as_bytes();
        let made = s.writable().and_then(|()| {
            let st = make_child(&mut state.tree, parent.0, name, |t, p| t.create(p, b""))?;
            Ok((st, self.open_handle(&mut state, st.ino)?))
        });
        match made {
            Ok((st, h)) => {
                let (ttl, attr) = (s.settings.ttl, s.attr(&st));
                let flags = FopenFlags::FOPEN_DIRECT_IO;
                reply.created(&ttl, &attr, Generation(0), FileHandle(h), flags);
            }
            Err(e) => reply.error(e.0),
        }
    }
}

const S_IFMT: u32 = 0o170_000;
const S_IFREG: u32 = 0o100_000;
const O_TRUNC: i32 = 0o1000;
