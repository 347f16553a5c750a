//! [`SharedTree`]: one [`Tree`] shared between threads.
//!
//! The design is one sharded reader–writer lock around the whole tree (crossbeam's
//! `ShardedLock`: a reader locks only its own thread's shard, a writer every shard).
//!
//! - Shared: `stat`, `lookup_at`, `readdir`, and `open`, `read`/`read_at` and `close` of
//!   handles that hold no reference, that is of permanent entries, when the read needs no
//!   rendering built (a file's content, or a listing's or source's cached rendering). Those
//!   lock one shard of the tree's handle table for their few changes. They run in parallel
//!   with each other.
//! - Exclusive: everything else, including the first read of a rendering, any open or close
//!   that takes or gives back a reference, and `stats`, `dump` and `check_invariants`: a
//!   shared open takes its handle id and then adds the handle, so the handle table is whole
//!   only while no shared open or close runs.
//!
//! Each operation holds its lock from its first check to its last change, so it takes
//! effect at one instant inside its call: every operation is linearizable, and every SPEC
//! rule holds because the sequential tree does all the work. `pdtree_harness::lincheck`
//! checks that claim, with real threads and with shuttle's schedules.
//!
//! What this does not give (docs/ARCHITECTURE.md has the trade-offs): a writer blocks every
//! reader, also in other directories, and a writer pays for locking every shard.

use std::sync::{Arc, PoisonError};

#[cfg(feature = "races")]
use crate::sync::{yield_now, AtomicU64, Ordering};
use crate::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::spec::PseudoFs;
use crate::tree::Tree;
use crate::types::{
    Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Limits, Mode, NsId, ReadDirPage, Row,
    Stat, Stats, View,
};

/// A [`Tree`] shared between threads: clone it to hand another thread the same tree.
///
/// Each thread uses its own clone through [`PseudoFs`] (a clone is an `Arc` clone). Several
/// operations that must be one atomic step go under [`SharedTree::write_lock`]; several
/// queries that must see one state under [`SharedTree::read_lock`]. Costs, on top of the
/// tree's own: a shared operation locks one shard (tens of ns), an exclusive one every shard
/// (about 100 ns); `pdtree bench --cases concurrency` measures both against [`Tree`].
///
/// ```
/// use pdtree::{PseudoFs, SharedTree, Tree};
///
/// let tree = SharedTree::new(Tree::new());
/// let writer = {
///     let mut t = tree.clone();
///     std::thread::spawn(move || {
///         for i in 0..100 {
///             t.create(format!("/eth{i}").as_bytes(), b"up\n").unwrap();
///         }
///     })
/// };
/// let seen = tree.stat(b"/").unwrap().size; // 0 to 100: whatever is in by now
/// assert!(seen <= 100);
/// writer.join().unwrap();
/// assert_eq!(tree.stat(b"/eth99").unwrap().size, 3);
/// ```
#[derive(Clone, Debug)]
pub struct SharedTree {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    tree: RwLock<Tree>,
    /// A planted concurrency bug (the harness's self-test), or `None`.
    #[cfg(feature = "races")]
    race: Option<Race>,
    /// The handle count the `OpenCountLostUpdate` race keeps outside the lock.
    #[cfg(feature = "races")]
    open_count: AtomicU64,
}

impl Inner {
    fn new(tree: Tree) -> Inner {
        Inner {
            tree: RwLock::new(tree),
            #[cfg(feature = "races")]
            race: None,
            #[cfg(feature = "races")]
            open_count: AtomicU64::new(0),
        }
    }
}

/// Planted concurrency bugs, for the linearizability checker's self-test (cargo feature
/// `races`; never enable it in a product). Each is a realistic synchronization mistake in
/// [`SharedTree`]'s own code; the sequential tree under it stays correct, so a sequential run
/// cannot see any of them.
#[cfg(feature = "races")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Race {
    /// `create` checks that the name is free under the shared lock, then creates under the
    /// exclusive one and trusts its check: when another thread created the name in between,
    /// it answers with that entry's inode instead of `EEXIST`.
    CreateCheckThenAct,
    /// `readdir` reads a page in two halves, each under its own shared lock, so a change
    /// between them (a remove, a compaction of the children) tears the page.
    ReaddirTornPage,
    /// `stats` answers its handle count from a counter kept outside the lock, which `open`
    /// and `close` update by a load and a later store: concurrent updates are lost.
    OpenCountLostUpdate,
    /// `remove_subtree` removes one entry per exclusive section, deepest first, so other
    /// threads see the subtree half gone.
    RemoveSubtreeInSteps,
}

#[cfg(feature = "races")]
impl Race {
    /// Every planted race.
    pub const ALL: [Race; 4] = [
        Race::CreateCheckThenAct,
        Race::ReaddirTornPage,
        Race::OpenCountLostUpdate,
        Race::RemoveSubtreeInSteps,
    ];

    /// Its name on the command line and in reports: `create-check-then-act`, ...
    pub fn name(self) -> &'static str {
        match self {
            Race::CreateCheckThenAct => "create-check-then-act",
            Race::ReaddirTornPage => "readdir-torn-page",
            Race::OpenCountLostUpdate => "open-count-lost-update",
            Race::RemoveSubtreeInSteps => "remove-subtree-in-steps",
        }
    }
}

impl SharedTree {
    /// Shares `tree`. O(1).
    pub fn new(tree: Tree) -> SharedTree {
        SharedTree {
            inner: Arc::new(Inner::new(tree)),
        }
    }

    /// Shares `tree` with a planted concurrency bug (cargo feature `races`).
    #[cfg(feature = "races")]
    pub fn with_race(tree: Tree, race: Race) -> SharedTree {
        let handles = tree.stats().handles;
        let inner = Inner {
            race: Some(race),
            open_count: AtomicU64::new(handles),
            ..Inner::new(tree)
        };
        SharedTree {
            inner: Arc::new(inner),
        }
    }

    /// The tree for reading, shared with other readers: several queries under one guard see
    /// one state. Writers wait until the guard is dropped.
    ///
    /// ```
    /// use pdtree::{PseudoFs, SharedTree, Tree};
    /// let mut t = SharedTree::new(Tree::new());
    /// t.create(b"/a", b"").unwrap();
    /// let g = t.read_lock();
    /// assert_eq!(g.stat(b"/a").unwrap().ino, g.lookup_at(1, b"a").unwrap().ino);
    /// ```
    pub fn read_lock(&self) -> RwLockReadGuard<'_, Tree> {
        // A panic in another thread cannot leave the tree half-changed: its operations
        // check everything before they change anything, so the state is still whole.
        self.inner
            .tree
            .read()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The tree for changing, exclusively: several operations under one guard are one
    /// atomic step for every other thread.
    ///
    /// ```
    /// use pdtree::{PseudoFs, SharedTree, Tree};
    /// let t = SharedTree::new(Tree::new());
    /// let mut g = t.write_lock();
    /// g.mkdir(b"/net").unwrap();
    /// g.create(b"/net/dev", b"").unwrap(); // no thread sees /net without dev
    /// ```
    pub fn write_lock(&self) -> RwLockWriteGuard<'_, Tree> {
        self.inner
            .tree
            .write()
            .unwrap_or_else(PoisonError::into_inner)
    }

    #[cfg(feature = "races")]
    fn race(&self) -> Option<Race> {
        self.inner.race
    }
}

impl SharedTree {
    /// `open_in` under the shared lock when the entry is permanent (no reference to take),
    /// else under the exclusive one. Between the two the entry may change: the exclusive
    /// `open_in` checks everything again.
    fn open_either(&self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        let fast = self.read_lock().open_permanent(view, path);
        match fast {
            Some(r) => r,
            None => self.write_lock().open_in(view, path),
        }
    }

    /// `close` under the shared lock when the handle holds no reference, else under the
    /// exclusive one.
    fn close_either(&self, handle: HandleId) -> Result<(), Errno> {
        let fast = self.read_lock().close_unreferenced(handle);
        match fast {
            Some(r) => r,
            None => self.write_lock().close(handle),
        }
    }
}

/// The planted races' code paths.
#[cfg(feature = "races")]
impl SharedTree {
    fn create_check_then_act(&self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        let free = self.read_lock().stat(path) == Err(Errno::ENOENT);
        if !free {
            return self.write_lock().create(path, content);
        }
        yield_now();
        let mut t = self.write_lock();
        match t.create(path, content) {
            // "It was free when I looked": the entry is taken to be ours.
            Err(Errno::EEXIST) => t.stat(path).map(|s| s.ino),
            r => r,
        }
    }

    fn readdir_torn(
        &self,
        view: View,
        dir: Ino,
        pos: u64,
        max: usize,
    ) -> Result<ReadDirPage, Errno> {
        let mut first = self.read_lock().readdir_in(view, dir, pos, max / 2)?;
        if first.entries.len() < max / 2 {
            return Ok(first);
        }
        yield_now();
        let second = self
            .read_lock()
            .readdir_in(view, dir, first.next_pos, max - max / 2)?;
        first.entries.extend(second.entries);
        first.next_pos = second.next_pos;
        Ok(first)
    }

    fn count_lossily<R>(
        &self,
        step: i64,
        op: impl FnOnce() -> Result<R, Errno>,
    ) -> Result<R, Errno> {
        let before = self.inner.open_count.load(Ordering::SeqCst);
        let r = op();
        yield_now();
        if r.is_ok() {
            let after = before.saturating_add_signed(step);
            self.inner.open_count.store(after, Ordering::SeqCst);
        }
        r
    }

    fn remove_subtree_in_steps(&self, path: &[u8]) -> Result<u64, Errno> {
        let order = removable_paths(&self.read_lock(), path);
        let Some(order) = order else {
            // Whatever would make a step fail: the whole op, atomically, for its error.
            return self.write_lock().remove_subtree(path);
        };
        let mut removed = 0;
        for p in order.iter().rev() {
            yield_now();
            self.write_lock().remove(p)?;
            removed += 1;
        }
        Ok(removed)
    }
}

/// The subtree at `path`, parents before children, if every entry of it is an explicit,
/// unopened, non-permanent one: then removing it one entry at a time ends where
/// `remove_subtree` would, and only the steps in between are visible.
#[cfg(feature = "races")]
fn removable_paths(t: &Tree, path: &[u8]) -> Option<Vec<Vec<u8>>> {
    let mut order = vec![path.to_vec()];
    let mut i = 0;
    while let Some(p) = order.get(i).cloned() {
        let st = t.stat(&p).ok()?;
        if st.permanent || st.open_refs > 0 || st.owner != crate::types::Owner::Explicit {
            return None;
        }
        if st.kind == crate::types::Kind::Dir {
            for e in crate::read_all(t, st.ino, 64).ok()? {
                order.push([&p[..], b"/", &e.name].concat());
            }
        }
        i += 1;
    }
    (path != b"/").then_some(order)
}

impl PseudoFs for SharedTree {
    fn with_limits(limits: Limits) -> Self {
        SharedTree::new(Tree::with_limits(limits))
    }

    fn limits(&self) -> Limits {
        self.read_lock().limits()
    }

    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.write_lock().mkdir(path)
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::CreateCheckThenAct) {
            return self.create_check_then_act(path, content);
        }
        self.write_lock().create(path, content)
    }

    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        self.write_lock().symlink(path, target)
    }

    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.write_lock().listing(path)
    }

    fn generated(&mut self, path: &[u8], source: &[u8]) -> Result<Ino, Errno> {
        self.write_lock().generated(path, source)
    }

    fn source_add(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.write_lock().source_add(source, item)
    }

    fn source_remove(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.write_lock().source_remove(source, item)
    }

    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.write_lock().register(dir, table)
    }

    fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.write_lock().register_ns(ns, dir, table)
    }

    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        self.write_lock().unregister(header)
    }

    fn ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
        self.write_lock().ns_create(uid, gid)
    }

    fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno> {
        self.write_lock().ns_destroy(ns)
    }

    fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno> {
        self.read_lock().stat_in(view, path)
    }

    fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        self.read_lock().lookup_at_in(view, dir, name)
    }

    fn readdir_in(&self, view: View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::ReaddirTornPage) && max >= 2 {
            return self.readdir_torn(view, dir, pos, max);
        }
        self.read_lock().readdir_in(view, dir, pos, max)
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.write_lock().remove(path)
    }

    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::RemoveSubtreeInSteps) {
            return self.remove_subtree_in_steps(path);
        }
        self.write_lock().remove_subtree(path)
    }

    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.write_lock().mark_permanent(path)
    }

    fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::OpenCountLostUpdate) {
            return self.count_lossily(1, || self.open_either(view, path));
        }
        self.open_either(view, path)
    }

    fn read_at(&mut self, handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno> {
        let cached = self.read_lock().read_at_cached(handle, offset, len);
        match cached {
            Some(r) => r,
            None => self.write_lock().read_at(handle, offset, len),
        }
    }

    fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno> {
        self.write_lock().write(handle, content)
    }

    fn chmod_in(&mut self, view: View, path: &[u8], mode: Mode) -> Result<(), Errno> {
        self.write_lock().chmod_in(view, path, mode)
    }

    fn chown_in(&mut self, view: View, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno> {
        self.write_lock().chown_in(view, path, uid, gid)
    }

    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::OpenCountLostUpdate) {
            return self.count_lossily(-1, || self.close_either(handle));
        }
        self.close_either(handle)
    }

    fn stats(&self) -> Stats {
        // Exclusive: a shared open takes its id, then adds its handle to the count, so the
        // count is whole only while no shared open or close runs.
        let stats = self.write_lock().stats();
        #[cfg(feature = "races")]
        if self.race() == Some(Race::OpenCountLostUpdate) {
            return Stats {
                handles: self.inner.open_count.load(Ordering::SeqCst),
                ..stats
            };
        }
        stats
    }

    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        self.write_lock().check_invariants()
    }

    fn check_invariants_near(&self, dirs: &[Ino]) -> Result<(), InvariantViolation> {
        self.write_lock().check_invariants_near(dirs)
    }

    fn dump(&self) -> String {
        self.write_lock().dump()
    }

    fn fingerprint(&self) -> u64 {
        self.write_lock().fingerprint()
    }
}
