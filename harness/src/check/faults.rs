//! Planted bugs, for testing the harness itself.
//!
//! [`Faulty`] wraps a correct tree and re-introduces, one at a time, the bugs the kernel
//! threads behind this project were about. A harness that cannot find these within a bounded
//! number of iterations is not worth running; `harness/tests/self_test.rs` checks that it does.
//! Core itself carries no fault switches: nothing here can reach a release build of `pdtree`.
//!
//! ```
//! use pdtree::{PseudoFs, Tree, ROOT_INO};
//! use pdtree_harness::check::faults::{Fault, Faulty};
//!
//! let mut t: Faulty<Tree> = Faulty::new(Tree::new(), Fault::ReaddirResumesByIndex);
//! for name in ["a", "b", "c"] { t.mkdir(name.as_bytes()).unwrap(); }
//! let first = t.readdir(ROOT_INO, 0, 1).unwrap();          // "a", cursor after it
//! t.remove(b"a").unwrap();                                 // remove before the cursor
//! let next = t.readdir(ROOT_INO, first.next_pos, 1).unwrap();
//! assert_eq!(next.entries[0].name, b"c");                  // "b" was skipped: the old bug
//! ```

use std::cell::RefCell;
use std::collections::BTreeMap;

use pdtree::PseudoFs;
use pdtree::{
    read_all, Errno, HandleId, HeaderId, Ino, InvariantViolation, Kind, Limits, NsId, ReadDirPage,
    Row, Stat, Stats, View,
};

/// One planted bug.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    /// readdir resumes by skipping an index remembered from the previous page, as procfs did:
    /// a removal before the cursor makes the next page skip a live entry.
    ReaddirResumesByIndex,
    /// remove_subtree does not update the parent's count of child directories, so its nlink
    /// stays one too high after a directory subtree is removed.
    NlinkNotUpdatedByRemoveSubtree,
    /// register accepts a table that names a row twice (the later duplicate is dropped).
    DuplicateRowAccepted,
    /// remove of a non-empty directory succeeds and detaches its children, which stay
    /// allocated and unreachable (the WARN-and-leak the kernel had).
    RemoveNonEmptyDetaches,
    /// remove_subtree removes the entries it reaches before it finds a permanent (or
    /// otherwise busy) descendant, then fails: a partial removal.
    RemoveSubtreePartial,
    /// A listing's rendering is cached and only invalidated by creations, not removals.
    ListingCacheKeptOnRemoval,
    /// create of an existing file answers EEXIST, but only after replacing the file with a
    /// new one (new inode, the given content): a failed op that changed the tree, and that
    /// only the before/after dump shows (no counter moves).
    FailedCreateReplaces,
    /// A directory's size (its child count) is kept in 8 bits, the counter a kernel reviewer
    /// refused to see shrunk: `stat` of a directory of 256 children says 0. Only a large
    /// directory shows it.
    DirSizeIsU8,
    /// A directory's size is kept in 16 bits: `stat` of a directory of 65,536 children says
    /// 0. Only a directory of 2^16 children shows it, which one `bulk` makes and no ordinary
    /// input comes near.
    DirSizeIsU16,
    /// In a directory of more than 128 children, a readdir that resumes inside it (a position
    /// past the first child) starts one entry late: an off-by-one in a large-directory fast
    /// path. The entry it skips is never returned to that scan.
    LargeDirResumeSkipsOne,
    /// `read_at` never continues from the handle's snapshot: every read takes a fresh one,
    /// so `cat` with a small buffer can see two renderings (SPEC §11's torn read).
    ReadAtRerenders,
    /// `read_at` of 0 bytes takes a snapshot and moves the position anyway (seq_file returns
    /// before it touches the buffer).
    ReadAtZeroLenSnapshots,
    /// `source_add` of an item already there answers `EEXIST` after moving the item to the
    /// end and invalidating the cache: a failed op that changed the source.
    FailedSourceAddReinserts,
    /// `chown` stores the group as the user and the user as the group.
    ChownSwapsIds,
    /// A readdir in view v ≠ 0 also lists the children of another live namespace (the lowest
    /// other one): a merge that takes the wrong per-namespace set.
    ReaddirInViewLeaks,
    /// `lookup_at` in view v ≠ 0 probes the shared children only and misses v's own copy
    /// (the second probe of a per-namespace name index forgotten).
    LookupSkipsNamespaceSet,
    /// Handle ids are kept in 16 bits: from the 65,536th open on, `open` hands out the id
    /// modulo 2^16, which is not the one the tree counted (SPEC §7 ids never repeat). Only
    /// an input that opens 2^16 handles shows it.
    HandleIdIsU16,
    /// Path resolution keeps the components in a fixed 1,024-entry stack and drops the rest:
    /// a path deeper than 1,024 components resolves as its first 1,024. Only a chain more
    /// than 1,024 deep shows it (the SPEC allows 2,048).
    PathWalkStopsAt1024,
    /// A `register` whose rows take their directory past 64 children grows the name index in
    /// the middle of the op, and the child count cached before the growth misses the row
    /// that triggered it: the directory's size stays one short. Only a table (or a
    /// directory) of more than 64 entries shows it.
    RegisterGrowthMissesCount,
    /// In a directory of more than 64 children, two removals since the directory's last
    /// readdir compact its child list, and a readdir that resumes inside it (a position past
    /// the first child) starts from a stale index, one entry late.
    CompactionMovesCursor,
}

impl Fault {
    /// The planted bugs that only a deep state shows (a large directory, a long chain, a
    /// counter past a power of two, growth or compaction under an open cursor): the ones
    /// `ci/fuzz-faults` times `cargo fuzz` on, so no committed seed is made from their
    /// finding inputs.
    pub const DEEP: [Fault; 7] = [
        Fault::DirSizeIsU8,
        Fault::DirSizeIsU16,
        Fault::LargeDirResumeSkipsOne,
        Fault::HandleIdIsU16,
        Fault::PathWalkStopsAt1024,
        Fault::RegisterGrowthMissesCount,
        Fault::CompactionMovesCursor,
    ];

    /// Every planted bug.
    pub const ALL: [Fault; 20] = [
        Fault::ReaddirResumesByIndex,
        Fault::NlinkNotUpdatedByRemoveSubtree,
        Fault::DuplicateRowAccepted,
        Fault::RemoveNonEmptyDetaches,
        Fault::RemoveSubtreePartial,
        Fault::ListingCacheKeptOnRemoval,
        Fault::FailedCreateReplaces,
        Fault::DirSizeIsU8,
        Fault::DirSizeIsU16,
        Fault::LargeDirResumeSkipsOne,
        Fault::ReadAtRerenders,
        Fault::ReadAtZeroLenSnapshots,
        Fault::FailedSourceAddReinserts,
        Fault::ChownSwapsIds,
        Fault::ReaddirInViewLeaks,
        Fault::LookupSkipsNamespaceSet,
        Fault::HandleIdIsU16,
        Fault::PathWalkStopsAt1024,
        Fault::RegisterGrowthMissesCount,
        Fault::CompactionMovesCursor,
    ];

    /// The kebab-case name the `pdtree` command takes (`--fault NAME`).
    ///
    /// ```
    /// use pdtree_harness::check::faults::Fault;
    /// assert_eq!(Fault::ReaddirResumesByIndex.name(), "readdir-resumes-by-index");
    /// assert_eq!(Fault::from_name("failed-create-replaces"), Some(Fault::FailedCreateReplaces));
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Fault::ReaddirResumesByIndex => "readdir-resumes-by-index",
            Fault::NlinkNotUpdatedByRemoveSubtree => "nlink-not-updated-by-remove-subtree",
            Fault::DuplicateRowAccepted => "duplicate-row-accepted",
            Fault::RemoveNonEmptyDetaches => "remove-non-empty-detaches",
            Fault::RemoveSubtreePartial => "remove-subtree-partial",
            Fault::ListingCacheKeptOnRemoval => "listing-cache-kept-on-removal",
            Fault::FailedCreateReplaces => "failed-create-replaces",
            Fault::DirSizeIsU8 => "dir-size-is-u8",
            Fault::DirSizeIsU16 => "dir-size-is-u16",
            Fault::LargeDirResumeSkipsOne => "large-dir-resume-skips-one",
            Fault::ReadAtRerenders => "read-at-rerenders",
            Fault::ReadAtZeroLenSnapshots => "read-at-zero-len-snapshots",
            Fault::FailedSourceAddReinserts => "failed-source-add-reinserts",
            Fault::ChownSwapsIds => "chown-swaps-ids",
            Fault::ReaddirInViewLeaks => "readdir-in-view-leaks",
            Fault::LookupSkipsNamespaceSet => "lookup-skips-namespace-set",
            Fault::HandleIdIsU16 => "handle-id-is-u16",
            Fault::PathWalkStopsAt1024 => "path-walk-stops-at-1024",
            Fault::RegisterGrowthMissesCount => "register-growth-misses-count",
            Fault::CompactionMovesCursor => "compaction-moves-cursor",
        }
    }

    /// The fault with this [`name`](Self::name).
    pub fn from_name(name: &str) -> Option<Fault> {
        Fault::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A tree with one planted bug. See the module docs. (`Clone + PartialEq` when the inner
/// tree is, so a faulty oracle can stand as B in a [`DiffRunner`](crate::check::diff::DiffRunner).)
#[derive(Clone, Debug, PartialEq)]
pub struct Faulty<T> {
    inner: T,
    fault: Fault,
    /// ReaddirResumesByIndex: (dir, next_pos handed out) → index of the next entry then.
    resume: RefCell<BTreeMap<(Ino, u64), usize>>,
    /// NlinkNotUpdatedByRemoveSubtree: directories whose nlink is stale, by how much.
    stale_nlink: BTreeMap<Ino, u64>,
    /// RemoveNonEmptyDetaches: entries leaked by detaching.
    leaked: u64,
    /// ListingCacheKeptOnRemoval: cached rendering per handle, tagged with `creations`.
    listing_cache: BTreeMap<HandleId, (u64, Vec<u8>)>,
    /// Successful creations, and the other content changes that are not removals (writes,
    /// source changes): the only events that invalidate ListingCacheKeptOnRemoval's cache.
    creations: u64,
    /// ReaddirInViewLeaks: the namespaces created and not destroyed, as the tree answered.
    live_namespaces: std::collections::BTreeSet<NsId>,
    /// HandleIdIsU16: the id handed out (16 bits) → the tree's id.
    short_handles: BTreeMap<HandleId, HandleId>,
    /// RegisterGrowthMissesCount: directories whose size is short, by how much.
    short_size: BTreeMap<Ino, u64>,
    /// CompactionMovesCursor: removals per directory since its last readdir.
    removals: RefCell<BTreeMap<Ino, u64>>,
}

impl<T: PseudoFs> Faulty<T> {
    /// Wraps `inner`, planting `fault`.
    pub fn new(inner: T, fault: Fault) -> Self {
        Faulty {
            inner,
            fault,
            resume: RefCell::new(BTreeMap::new()),
            stale_nlink: BTreeMap::new(),
            leaked: 0,
            listing_cache: BTreeMap::new(),
            creations: 0,
            live_namespaces: Default::default(),
            short_handles: BTreeMap::new(),
            short_size: BTreeMap::new(),
            removals: RefCell::new(BTreeMap::new()),
        }
    }

    /// The planted bug.
    pub fn fault(&self) -> Fault {
        self.fault
    }

    fn created<R>(&mut self, r: Result<R, Errno>) -> Result<R, Errno> {
        if r.is_ok() {
            self.creations += 1;
        }
        r
    }

    fn patch_stat(&self, mut st: Stat) -> Stat {
        if st.kind == Kind::Dir {
            st.nlink += self.stale_nlink.get(&st.ino).copied().unwrap_or(0);
            match self.fault {
                Fault::DirSizeIsU8 => st.size %= 1 << 8,
                Fault::DirSizeIsU16 => st.size %= 1 << 16,
                _ => {}
            }
            let short = self.short_size.get(&st.ino).copied().unwrap_or(0);
            st.size = st.size.saturating_sub(short);
        }
        st
    }

    /// LargeDirResumeSkipsOne and CompactionMovesCursor: when `armed`, a resume inside a
    /// directory of more than `over` children starts one entry late.
    fn resume_late(
        &self,
        (dir, pos, max): (Ino, u64, usize),
        over: usize,
        armed: bool,
    ) -> Result<ReadDirPage, Errno> {
        let page = self.inner.readdir(dir, pos, max)?;
        if !armed {
            return Ok(page);
        }
        let all = read_all(&self.inner, dir, self.inner.limits().max_readdir)?;
        let inside = all.first().is_some_and(|f| pos > f.ino);
        match page.entries.first() {
            Some(e) if all.len() > over && inside => self.inner.readdir(dir, e.ino + 1, max),
            _ => Ok(page),
        }
    }

    /// PathWalkStopsAt1024: the part of `path` the buggy walk resolves (all of it for any
    /// other fault, and for a path over 4,096 bytes, which is refused before the walk).
    fn walked<'p>(&self, path: &'p [u8]) -> &'p [u8] {
        if self.fault != Fault::PathWalkStopsAt1024 || path.len() > pdtree::MAX_PATH {
            return path;
        }
        let start = usize::from(path.first() == Some(&b'/'));
        let mut separators = 0;
        for (i, &b) in path.iter().enumerate().skip(start) {
            if b == b'/' {
                separators += 1;
                if separators == 1024 {
                    return &path[..i];
                }
            }
        }
        path
    }

    /// HandleIdIsU16: the tree's id behind an id this wrapper handed out.
    fn handle(&self, h: HandleId) -> HandleId {
        self.short_handles.get(&h).copied().unwrap_or(h)
    }

    /// CompactionMovesCursor: counts a removal in the directory above `path`.
    fn removed_from_parent(&mut self, path: &[u8]) {
        let parent = match Self::parent_of(path) {
            b"" => b"/".as_slice(),
            p => p,
        };
        if let Ok(st) = self.inner.stat(parent) {
            *self.removals.get_mut().entry(st.ino).or_default() += 1;
        }
    }

    /// RegisterGrowthMissesCount: `dir`'s size before a registration.
    fn size_before(&self, dir: &[u8]) -> u64 {
        if self.fault != Fault::RegisterGrowthMissesCount {
            return 0;
        }
        self.inner.stat(dir).map_or(0, |st| st.size)
    }

    /// RegisterGrowthMissesCount: after a successful registration, a directory that grew
    /// past 64 children is one short from then on.
    fn growth_misses_count(&mut self, dir: &[u8], before: u64) {
        if self.fault != Fault::RegisterGrowthMissesCount {
            return;
        }
        if let Ok(st) = self.inner.stat(dir) {
            if before <= 64 && st.size > 64 {
                *self.short_size.entry(st.ino).or_default() += 1;
            }
        }
    }

    /// ReaddirInViewLeaks: view's page merged with the lowest other live namespace's.
    fn leaky_readdir(
        &self,
        view: View,
        dir: Ino,
        pos: u64,
        max: usize,
    ) -> Result<ReadDirPage, Errno> {
        let page = self.inner.readdir_in(view, dir, pos, max)?;
        let Some(&other) = self.live_namespaces.iter().find(|&&k| k != view) else {
            return Ok(page);
        };
        let Ok(extra) = self.inner.readdir_in(other, dir, pos, max) else {
            return Ok(page);
        };
        let mut entries = page.entries;
        for e in extra.entries {
            if !entries.iter().any(|x| x.ino == e.ino) {
                entries.push(e);
            }
        }
        entries.sort_by_key(|e| e.ino);
        entries.truncate(max);
        let next_pos = entries.last().map_or(pos, |e| e.ino + 1);
        Ok(ReadDirPage { entries, next_pos })
    }

    fn parent_of(path: &[u8]) -> &[u8] {
        match path.iter().rposition(|&b| b == b'/') {
            Some(i) => &path[..i],
            None => b"",
        }
    }
}

impl<T: PseudoFs> PseudoFs for Faulty<T> {
    /// Not meaningful without a fault; panics. Use [`Faulty::new`].
    fn with_limits(_: Limits) -> Self {
        panic!("Faulty needs a fault: use Faulty::new")
    }

    fn limits(&self) -> Limits {
        self.inner.limits()
    }

    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        let r = self.inner.mkdir(self.walked(path));
        self.created(r)
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        let path = self.walked(path);
        let r = self.inner.create(path, content);
        if r == Err(Errno::EEXIST)
            && self.fault == Fault::FailedCreateReplaces
            && self.inner.stat(path).map(|s| s.kind) == Ok(Kind::File)
            && self.inner.remove(path).is_ok()
        {
            // The caller is still told EEXIST.
            let _ = self.inner.create(path, content);
        }
        self.created(r)
    }

    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        let r = self.inner.symlink(self.walked(path), target);
        self.created(r)
    }

    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        let r = self.inner.listing(self.walked(path));
        self.created(r)
    }

    fn generated(&mut self, path: &[u8], source: &[u8]) -> Result<Ino, Errno> {
        let r = self.inner.generated(self.walked(path), source);
        self.created(r)
    }

    fn source_add(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        let r = self.inner.source_add(source, item);
        let r = self.created(r);
        if r == Err(Errno::EEXIST)
            && self.fault == Fault::FailedSourceAddReinserts
            && self.inner.source_remove(source, item).is_ok()
        {
            // The caller is still told EEXIST.
            let _ = self.inner.source_add(source, item);
        }
        r
    }

    fn source_remove(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        let r = self.inner.source_remove(source, item);
        self.created(r)
    }

    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        let dir = self.walked(dir);
        let before = self.size_before(dir);
        let r = if self.fault == Fault::DuplicateRowAccepted {
            let mut seen: Vec<&[u8]> = Vec::new();
            let deduped: Vec<Row> = table
                .iter()
                .filter(|r| {
                    let new = !seen.contains(&&r.name[..]);
                    seen.push(&r.name);
                    new
                })
                .cloned()
                .collect();
            self.inner.register(dir, &deduped)
        } else {
            self.inner.register(dir, table)
        };
        if r.is_ok() {
            self.growth_misses_count(dir, before);
        }
        self.created(r)
    }

    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        self.inner.unregister(header)
    }

    fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno> {
        let path = self.walked(path);
        self.inner.stat_in(view, path).map(|s| self.patch_stat(s))
    }

    fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        let st = self.inner.lookup_at_in(view, dir, name)?;
        if self.fault == Fault::LookupSkipsNamespaceSet && view != 0 && st.ns == Some(view) {
            return Err(Errno::ENOENT);
        }
        Ok(self.patch_stat(st))
    }

    fn readdir_in(&self, view: View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        if view != 0 {
            if self.fault == Fault::ReaddirInViewLeaks {
                return self.leaky_readdir(view, dir, pos, max);
            }
            // The other planted readdir bugs are view 0's.
            return self.inner.readdir_in(view, dir, pos, max);
        }
        match self.fault {
            Fault::LargeDirResumeSkipsOne => return self.resume_late((dir, pos, max), 128, true),
            Fault::CompactionMovesCursor => {
                let removed = self.removals.borrow_mut().remove(&dir).unwrap_or(0);
                return self.resume_late((dir, pos, max), 64, removed >= 2);
            }
            Fault::ReaddirResumesByIndex => {}
            _ => return self.inner.readdir(dir, pos, max),
        }
        let page = self.inner.readdir(dir, pos, max)?;
        let all = read_all(&self.inner, dir, self.inner.limits().max_readdir)?;
        // The old code resumed by skipping as many entries as it had handed out; an entry
        // removed before the cursor shifts every later one down by one place.
        let remembered = self.resume.borrow().get(&(dir, pos)).copied();
        let index = remembered.unwrap_or_else(|| all.iter().take_while(|e| e.ino < pos).count());
        let entries: Vec<_> = all.into_iter().skip(index).take(max).collect();
        let next_pos = entries.last().map_or(page.next_pos, |e| e.ino + 1);
        self.resume
            .borrow_mut()
            .insert((dir, next_pos), index + entries.len());
        Ok(ReadDirPage { entries, next_pos })
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        let path = self.walked(path);
        let r = match self.inner.remove(path) {
            Err(Errno::ENOTEMPTY) if self.fault == Fault::RemoveNonEmptyDetaches => {
                let n = self.inner.remove_subtree(path)?;
                self.leaked += n - 1;
                Ok(())
            }
            r => r,
        };
        if r.is_ok() && self.fault == Fault::CompactionMovesCursor {
            self.removed_from_parent(path);
        }
        r
    }

    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        let path = self.walked(path);
        let is_dir = self.inner.stat(path).map(|s| s.kind == Kind::Dir);
        let r = self.inner.remove_subtree(path);
        match (self.fault, &r) {
            (Fault::NlinkNotUpdatedByRemoveSubtree, Ok(_)) if is_dir == Ok(true) => {
                let parent = Self::parent_of(path);
                if let Ok(p) = self.inner.stat(parent) {
                    *self.stale_nlink.entry(p.ino).or_default() += 1;
                }
            }
            (Fault::RemoveSubtreePartial, Err(Errno::EBUSY)) => {
                // Detach what can go on its own before "finding" the busy descendant.
                if let Ok(st) = self.inner.stat(path) {
                    if let Ok(children) =
                        read_all(&self.inner, st.ino, self.inner.limits().max_readdir)
                    {
                        for c in children {
                            let mut p = path.to_vec();
                            p.push(b'/');
                            p.extend_from_slice(&c.name);
                            let _ = self.inner.remove_subtree(&p);
                        }
                    }
                }
            }
            (Fault::CompactionMovesCursor, Ok(_)) => self.removed_from_parent(path),
            _ => {}
        }
        r
    }

    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.inner.mark_permanent(self.walked(path))
    }

    fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        let h = self.inner.open_in(view, self.walked(path))?;
        if self.fault != Fault::HandleIdIsU16 {
            return Ok(h);
        }
        let short = h & 0xFFFF;
        self.short_handles.insert(short, h);
        Ok(short)
    }

    fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        let r = self.inner.register_ns(ns, dir, table);
        self.created(r)
    }

    fn ns_create(&mut self, uid: pdtree::Id, gid: pdtree::Id) -> Result<NsId, Errno> {
        let r = self.inner.ns_create(uid, gid);
        if let Ok(k) = r {
            self.live_namespaces.insert(k);
        }
        r
    }

    fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno> {
        let r = self.inner.ns_destroy(ns);
        if r.is_ok() {
            self.live_namespaces.remove(&ns);
        }
        r
    }

    fn read(&mut self, handle: HandleId) -> Result<Vec<u8>, Errno> {
        let handle = self.handle(handle);
        let fresh = self.inner.read(handle)?;
        if self.fault != Fault::ListingCacheKeptOnRemoval {
            return Ok(fresh);
        }
        // Listings change with creations and removals; the other content changes (writes,
        // sources) count as creations, so only a removal leaves a stale rendering.
        match self.listing_cache.get(&handle) {
            Some((tag, text)) if *tag == self.creations => Ok(text.clone()),
            _ => {
                self.listing_cache
                    .insert(handle, (self.creations, fresh.clone()));
                Ok(fresh)
            }
        }
    }

    fn read_at(&mut self, handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno> {
        let handle = self.handle(handle);
        match self.fault {
            Fault::ReadAtRerenders if len > 0 && offset > 0 => {
                // A read at 0 takes a fresh snapshot; the read that follows, continuing or
                // not, reads from it or from a fresher one.
                self.inner.read_at(handle, 0, 1)?;
                self.inner.read_at(handle, offset, len)
            }
            Fault::ReadAtZeroLenSnapshots if len == 0 => {
                self.inner.read_at(handle, offset, 1)?;
                Ok(Vec::new())
            }
            _ => self.inner.read_at(handle, offset, len),
        }
    }

    fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno> {
        let r = self.inner.write(self.handle(handle), content);
        self.created(r)
    }

    fn chmod_in(&mut self, view: View, path: &[u8], mode: pdtree::Mode) -> Result<(), Errno> {
        self.inner.chmod_in(view, self.walked(path), mode)
    }

    fn chown_in(
        &mut self,
        view: View,
        path: &[u8],
        uid: pdtree::Id,
        gid: pdtree::Id,
    ) -> Result<(), Errno> {
        let path = self.walked(path);
        if self.fault == Fault::ChownSwapsIds {
            return self.inner.chown_in(view, path, gid, uid);
        }
        self.inner.chown_in(view, path, uid, gid)
    }

    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        let handle = self.handle(handle);
        self.listing_cache.remove(&handle);
        self.inner.close(handle)
    }

    fn stats(&self) -> Stats {
        let mut s = self.inner.stats();
        s.allocated += self.leaked;
        s
    }

    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        self.inner.check_invariants()?;
        self.check_leaked()
    }

    fn check_invariants_near(&self, dirs: &[Ino]) -> Result<(), InvariantViolation> {
        self.inner.check_invariants_near(dirs)?;
        self.check_leaked()
    }

    fn dump(&self) -> String {
        self.inner.dump()
    }

    fn fingerprint(&self) -> u64 {
        self.inner.fingerprint()
    }
}

impl<T: PseudoFs> Faulty<T> {
    fn check_leaked(&self) -> Result<(), InvariantViolation> {
        if self.leaked > 0 {
            // The detached entries are the leak invariant 3 exists for.
            return Err(InvariantViolation {
                invariant: 3,
                detail: format!("{} detached entries still allocated", self.leaked),
            });
        }
        Ok(())
    }
}
