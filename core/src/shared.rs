//! [`SharedTree`]: one [`Tree`] shared between threads.
//!
//! The design is a left–right pair: two copies of the tree, each behind a sharded
//! reader–writer lock (crossbeam's `ShardedLock`: a reader locks only its own thread's
//! shard, a writer every shard), an index naming the front copy, and a gate.
//!
//! - Queries (`stat`, `lookup_at`, `readdir`, `limits`) read the front copy under its shared
//!   lock and take nothing else: a writer works on the other copy, so they do not wait for
//!   it. (A query that read the index just before a swap may find its copy taken by that
//!   change's second application, and waits for it.)
//! - A change (every state-changing operation, and any open, read or close that cannot take
//!   the handle path below) holds the gate exclusively, applies itself to the back copy,
//!   makes that copy the front one (the instant it takes effect), then applies itself again
//!   to the old front copy, once the queries still reading it are done. The tree is
//!   deterministic, so both applications answer the same and leave the copies equal.
//! - The handle path (`open`, `read`/`read_at`, `close` of handles that hold no reference,
//!   on permanent entries, when the read needs no rendering built) holds the gate shared and
//!   does its few handle-table changes on the front copy, under one shard of its handle
//!   table, noting what it changed. These run in parallel with each other and with queries;
//!   a change waits for them and they for a change. A change first brings the back copy's
//!   handle table up to date from those notes (`Tree::catch_up`).
//! - `stats`, `dump`, `fingerprint` and the invariant checks hold the gate exclusively,
//!   since the handle path changes the handle table under a shared gate.
//!
//! Invariant: whenever the gate is free, the two copies are the same tree (slot for slot,
//! id for id) once the back copy has caught up with the handle paths since the last change;
//! `check_invariants` catches it up and compares their fingerprints. Each operation takes
//! effect at one instant inside its call (a change at its swap of the front copy, a query
//! when it reads the index, a handle path under its shard lock), so every operation is
//! linearizable, and every SPEC rule holds because the sequential tree does all the work.
//! `pdtree_harness::lincheck` checks that claim, with real threads and with shuttle's
//! schedules.
//!
//! What this costs (docs/ARCHITECTURE.md has the trade-offs): twice the memory of one
//! tree, and every change done twice.

use std::fmt::Debug;
use std::sync::{Arc, PoisonError};

#[cfg(feature = "races")]
use crate::sync::yield_now;
use crate::sync::{AtomicU64, Ordering, RwLock, RwLockReadGuard, RwLockWriteGuard};

use crate::spec::PseudoFs;
use crate::tree::Tree;
use crate::types::{
    Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Limits, Mode, NsId, ReadDirPage, Row,
    Stat, Stats, View,
};

/// A [`Tree`] shared between threads: clone it to hand another thread the same tree.
///
/// Each thread uses its own clone through [`PseudoFs`] (a clone is an `Arc` clone). Several
/// operations that must be one atomic step go in [`SharedTree::atomically`]; several
/// queries that must see one state under [`SharedTree::read_lock`]. Costs, on top of the
/// tree's own: a query locks one shard of one lock (tens of ns) and does not wait for a
/// change (but for one that swapped the copies as it started); a change locks every shard
/// of three locks and runs twice, once on each of the tree's two copies; the tree takes
/// twice its memory. `pdtree bench --cases concurrency` measures these against [`Tree`].
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
    /// The two copies. Invariant: equal whenever `gate` is free, once the back copy has
    /// caught up with the handle paths since the last change (they change the front copy's
    /// handle table alone); while a change holds the gate, the front copy is never behind
    /// the back one.
    copies: [RwLock<Tree>; 2],
    /// The index of the front copy, the one queries read: 0 or 1. Stored only by a change,
    /// which holds `gate` exclusively and the copy it names exclusively.
    front: AtomicU64,
    /// Held exclusively by a change for both of its applications, shared by the handle path.
    gate: RwLock<()>,
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
            copies: [RwLock::new(tree.clone()), RwLock::new(tree)],
            front: AtomicU64::new(0),
            gate: RwLock::new(()),
            #[cfg(feature = "races")]
            race: None,
            #[cfg(feature = "races")]
            open_count: AtomicU64::new(0),
        }
    }
}

// A panic in another thread cannot leave a copy half-changed: the tree's operations check
// everything before they change anything. (A panic between a change's two applications
// leaves the copies different; `check_invariants` says so.)
fn shared<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

fn exclusive<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}

/// Planted concurrency bugs, for the linearizability checker's self-test (cargo feature
/// `races`; never enable it in a product). Each is a realistic synchronization mistake in
/// [`SharedTree`]'s own code; the sequential tree under it stays correct, so a sequential run
/// cannot see any of them (`harness/tests/bounded_fuzz.rs` runs each through the
/// differential campaign on one thread).
#[cfg(feature = "races")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Race {
    /// `create` checks that the name is free with a query, then creates as a change and
    /// trusts its check: when another thread created the name in between, it answers with
    /// that entry's inode instead of `EEXIST`.
    CreateCheckThenAct,
    /// `readdir` reads a page in two halves, each its own query, so a change between them
    /// (a remove, a compaction of the children) tears the page.
    ReaddirTornPage,
    /// `stats` answers its handle count from a counter kept outside the lock, which `open`
    /// and `close` update by a load and a later store: concurrent updates are lost.
    OpenCountLostUpdate,
    /// `remove_subtree` removes one entry per change, deepest first, so other threads see
    /// the subtree half gone.
    RemoveSubtreeInSteps,
    /// A read that must build a generated file's rendering publishes the first half as the
    /// source's valid cache in one change and completes it in a second, so a cached read on
    /// another thread in between serves half a rendering.
    RenderingPublishedEarly,
}

#[cfg(feature = "races")]
impl Race {
    /// Every planted race.
    pub const ALL: [Race; 5] = [
        Race::CreateCheckThenAct,
        Race::ReaddirTornPage,
        Race::OpenCountLostUpdate,
        Race::RemoveSubtreeInSteps,
        Race::RenderingPublishedEarly,
    ];

    /// Its name on the command line and in reports: `create-check-then-act`, ...
    pub fn name(self) -> &'static str {
        match self {
            Race::CreateCheckThenAct => "create-check-then-act",
            Race::ReaddirTornPage => "readdir-torn-page",
            Race::OpenCountLostUpdate => "open-count-lost-update",
            Race::RemoveSubtreeInSteps => "remove-subtree-in-steps",
            Race::RenderingPublishedEarly => "rendering-published-early",
        }
    }
}

impl SharedTree {
    /// Shares `tree`. O(n) time and memory for a tree of n entries: the tree is copied once,
    /// for the second of the pair.
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
    /// one state. Changes go on while it is held, on the other copy, until a change needs
    /// this copy back: then that change (and the changes and handle paths after it) waits
    /// until the guard is dropped. So hold it briefly, and make no change and no open, read
    /// or close on this tree from the thread that holds it: that thread would wait for
    /// itself.
    ///
    /// ```
    /// use pdtree::{PseudoFs, SharedTree, Tree};
    /// let mut t = SharedTree::new(Tree::new());
    /// t.create(b"/a", b"").unwrap();
    /// let g = t.read_lock();
    /// assert_eq!(g.stat(b"/a").unwrap().ino, g.lookup_at(1, b"a").unwrap().ino);
    /// ```
    pub fn read_lock(&self) -> RwLockReadGuard<'_, Tree> {
        let front = self.inner.front.load(Ordering::SeqCst);
        shared(&self.inner.copies[front as usize])
    }

    /// Runs `change` as one atomic step for every other thread, and returns what it returned.
    ///
    /// `change` runs twice, once on each copy of the tree, so it must depend on nothing but
    /// the tree it is given (no clock, no counter, no randomness, no side effect): both runs
    /// must answer the same, which debug builds assert. Cost: twice `change`, plus locking
    /// every shard of three locks, plus copying the handles that opens, reads and closes on
    /// the handle path changed since the last change.
    ///
    /// ```
    /// use pdtree::{PseudoFs, SharedTree, Tree};
    /// let t = SharedTree::new(Tree::new());
    /// let dev = t.atomically(|t| {
    ///     t.mkdir(b"/net")?;
    ///     t.create(b"/net/dev", b"") // no thread sees /net without dev
    /// });
    /// assert_eq!(dev, Ok(3));
    /// ```
    pub fn atomically<R: PartialEq + Debug>(&self, change: impl Fn(&mut Tree) -> R) -> R {
        let _gate = exclusive(&self.inner.gate);
        let front = self.inner.front.load(Ordering::SeqCst);
        let back = 1 - front;
        let answer = {
            let mut t = exclusive(&self.inner.copies[back as usize]);
            self.catch_up_from(front, &mut t);
            let answer = change(&mut t);
            // The instant the change takes effect: queries from here on read this copy.
            self.inner.front.store(back, Ordering::SeqCst);
            answer
        };
        let again = change(&mut exclusive(&self.inner.copies[front as usize]));
        debug_assert_eq!(
            answer, again,
            "a change answered differently on the two copies"
        );
        answer
    }

    /// `query` on the front copy, waiting for no change.
    fn query<R>(&self, query: impl FnOnce(&Tree) -> R) -> R {
        query(&self.read_lock())
    }

    /// `path` on the front copy, in parallel with other handle paths and queries: the gate
    /// shared keeps changes out. The back copy catches up on the next change.
    fn handle_path<R>(&self, path: impl FnOnce(&Tree) -> R) -> R {
        let _gate = shared(&self.inner.gate);
        path(&self.read_lock())
    }

    /// Brings the back copy up to date with the handle paths since the last change. The
    /// caller holds the gate exclusively.
    fn catch_up(&self) {
        let front = self.inner.front.load(Ordering::SeqCst);
        self.catch_up_from(
            front,
            &mut exclusive(&self.inner.copies[1 - front as usize]),
        );
    }

    /// Brings `back`, the copy that is not `front`, up to date with the front copy.
    fn catch_up_from(&self, front: u64, back: &mut Tree) {
        back.catch_up(&shared(&self.inner.copies[front as usize]));
    }

    /// `query` on the front copy while neither a change nor a handle path runs, for what
    /// reads the whole handle table.
    fn query_whole<R>(&self, query: impl FnOnce(&Tree) -> R) -> R {
        let _gate = exclusive(&self.inner.gate);
        query(&self.read_lock())
    }

    #[cfg(feature = "races")]
    fn race(&self) -> Option<Race> {
        self.inner.race
    }
}

impl SharedTree {
    /// `open_in` on the handle path when the entry is permanent (no reference to take), else
    /// as a change. Between the two the entry may change: the change checks everything again.
    fn open_either(&self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        let fast = self.handle_path(|t| t.open_permanent(view, path));
        match fast {
            Some(r) => r,
            None => self.atomically(|t| t.open_in(view, path)),
        }
    }

    /// `close` on the handle path when the handle holds no reference, else as a change.
    fn close_either(&self, handle: HandleId) -> Result<(), Errno> {
        let fast = self.handle_path(|t| t.close_unreferenced(handle));
        match fast {
            Some(r) => r,
            None => self.atomically(|t| t.close(handle)),
        }
    }

    /// Whether the two copies are the same tree once the back one has caught up, as their
    /// invariant says. The caller holds the gate exclusively.
    fn copies_agree(&self) -> Result<(), InvariantViolation> {
        self.catch_up();
        let [a, b] = &self.inner.copies;
        let (a, b) = (shared(a).fingerprint(), shared(b).fingerprint());
        if a == b {
            return Ok(());
        }
        Err(InvariantViolation {
            invariant: 4,
            detail: format!("SharedTree's two copies differ: fingerprints {a:#018x}, {b:#018x}"),
        })
    }
}

/// The planted races' code paths.
#[cfg(feature = "races")]
impl SharedTree {
    fn create_check_then_act(&self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        let free = self.query(|t| t.stat(path)) == Err(Errno::ENOENT);
        if !free {
            return self.atomically(|t| t.create(path, content));
        }
        yield_now();
        self.atomically(|t| match t.create(path, content) {
            // "It was free when I looked": the entry is taken to be ours. (When view 0 sees
            // no entry, the name is held by another namespace's sibling, §10: that EEXIST
            // stands, so one thread alone never sees the race.)
            Err(Errno::EEXIST) => t.stat(path).map(|s| s.ino).or(Err(Errno::EEXIST)),
            r => r,
        })
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

    fn read_building_in_steps(
        &self,
        handle: HandleId,
        offset: u64,
        len: u64,
    ) -> Result<Vec<u8>, Errno> {
        if len > 0 && self.atomically(|t| t.publish_half_rendering(handle, offset)) {
            yield_now();
        }
        self.atomically(|t| {
            t.complete_rendering(handle);
            t.read_at(handle, offset, len)
        })
    }

    fn remove_subtree_in_steps(&self, path: &[u8]) -> Result<u64, Errno> {
        let order = removable_paths(&self.read_lock(), path);
        let Some(order) = order else {
            // Whatever would make a step fail: the whole op, atomically, for its error.
            return self.atomically(|t| t.remove_subtree(path));
        };
        let mut removed = 0;
        for p in order.iter().rev() {
            yield_now();
            self.atomically(|t| t.remove(p))?;
            removed += 1;
        }
        Ok(removed)
    }
}

/// The subtree at `path` as view 0 lists it, parents before children, if every entry of it
/// is an explicit, unopened, non-permanent one and removing them one at a time, deepest
/// first, ends exactly where `remove_subtree` would (tried on copies of the tree: a
/// directory may also hold another namespace's entries, which view 0 does not list). Then
/// only the steps in between are visible.
#[cfg(feature = "races")]
fn removable_paths(t: &Tree, path: &[u8]) -> Option<Vec<Vec<u8>>> {
    let order = explicit_subtree(t, path)?;
    let mut stepwise = t.clone();
    for p in order.iter().rev() {
        stepwise.remove(p).ok()?;
    }
    let mut whole = t.clone();
    let same = whole.remove_subtree(path) == Ok(order.len() as u64)
        && whole.fingerprint() == stepwise.fingerprint();
    same.then_some(order)
}

/// The subtree at `path` (not the root) as view 0 lists it, parents before children, if
/// every entry of it is explicit, unopened and not permanent.
#[cfg(feature = "races")]
fn explicit_subtree(t: &Tree, path: &[u8]) -> Option<Vec<Vec<u8>>> {
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
        self.query(|t| t.limits())
    }

    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.atomically(|t| t.mkdir(path))
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::CreateCheckThenAct) {
            return self.create_check_then_act(path, content);
        }
        self.atomically(|t| t.create(path, content))
    }

    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        self.atomically(|t| t.symlink(path, target))
    }

    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.atomically(|t| t.listing(path))
    }

    fn generated(&mut self, path: &[u8], source: &[u8]) -> Result<Ino, Errno> {
        self.atomically(|t| t.generated(path, source))
    }

    fn source_add(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.atomically(|t| t.source_add(source, item))
    }

    fn source_remove(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.atomically(|t| t.source_remove(source, item))
    }

    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.atomically(|t| t.register(dir, table))
    }

    fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.atomically(|t| t.register_ns(ns, dir, table))
    }

    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        self.atomically(|t| t.unregister(header))
    }

    fn ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
        self.atomically(|t| t.ns_create(uid, gid))
    }

    fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno> {
        self.atomically(|t| t.ns_destroy(ns))
    }

    fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno> {
        self.query(|t| t.stat_in(view, path))
    }

    fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        self.query(|t| t.lookup_at_in(view, dir, name))
    }

    fn readdir_in(&self, view: View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        #[cfg(feature = "races")]
        // A page size the whole readdir refuses is refused whole (EINVAL comes first).
        if self.race() == Some(Race::ReaddirTornPage)
            && (2..=self.limits().max_readdir).contains(&max)
        {
            return self.readdir_torn(view, dir, pos, max);
        }
        self.query(|t| t.readdir_in(view, dir, pos, max))
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.atomically(|t| t.remove(path))
    }

    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::RemoveSubtreeInSteps) {
            return self.remove_subtree_in_steps(path);
        }
        self.atomically(|t| t.remove_subtree(path))
    }

    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.atomically(|t| t.mark_permanent(path))
    }

    fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::OpenCountLostUpdate) {
            return self.count_lossily(1, || self.open_either(view, path));
        }
        self.open_either(view, path)
    }

    fn read_at(&mut self, handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno> {
        let cached = self.handle_path(|t| t.read_at_cached(handle, offset, len));
        match cached {
            Some(r) => r,
            #[cfg(feature = "races")]
            None if self.race() == Some(Race::RenderingPublishedEarly) => {
                self.read_building_in_steps(handle, offset, len)
            }
            None => self.atomically(|t| t.read_at(handle, offset, len)),
        }
    }

    fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno> {
        self.atomically(|t| t.write(handle, content))
    }

    fn chmod_in(&mut self, view: View, path: &[u8], mode: Mode) -> Result<(), Errno> {
        self.atomically(|t| t.chmod_in(view, path, mode))
    }

    fn chown_in(&mut self, view: View, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno> {
        self.atomically(|t| t.chown_in(view, path, uid, gid))
    }

    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        #[cfg(feature = "races")]
        if self.race() == Some(Race::OpenCountLostUpdate) {
            return self.count_lossily(-1, || self.close_either(handle));
        }
        self.close_either(handle)
    }

    fn stats(&self) -> Stats {
        // With the gate exclusive: the handle path takes an id, then adds the handle, so the
        // count is whole only while no handle path runs.
        let stats = self.query_whole(Tree::stats);
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
        let _gate = exclusive(&self.inner.gate);
        self.read_lock().check_invariants()?;
        self.copies_agree()
    }

    fn check_invariants_near(&self, dirs: &[Ino]) -> Result<(), InvariantViolation> {
        self.query_whole(|t| t.check_invariants_near(dirs))
    }

    fn dump(&self) -> String {
        self.query_whole(|t| t.dump())
    }

    fn fingerprint(&self) -> u64 {
        self.query_whole(|t| t.fingerprint())
    }
}

#[cfg(all(test, not(pdtree_shuttle)))]
mod tests {
    use std::cell::Cell;

    use super::*;

    /// The two copies' dumps, under the gate, once the back copy has caught up.
    fn dumps(t: &SharedTree) -> [String; 2] {
        let _gate = exclusive(&t.inner.gate);
        t.catch_up();
        t.inner.copies.each_ref().map(|c| shared(c).dump())
    }

    /// A tree with a permanent generated file, its rendering cached, and a plain file.
    fn fixture() -> SharedTree {
        let mut t = Tree::with_seed(Limits::default(), 1);
        t.source_add(b"fs", b"ext4").unwrap();
        t.generated(b"/fs", b"fs").unwrap();
        t.mark_permanent(b"/fs").unwrap();
        let h = t.open(b"/fs").unwrap();
        t.read(h).unwrap();
        t.close(h).unwrap();
        t.create(b"/f", b"1\n").unwrap();
        SharedTree::new(t)
    }

    #[test]
    fn every_path_leaves_the_copies_equal() {
        let mut t = fixture();
        t.mkdir(b"/net").unwrap();
        // Each step, then the copies compared: a later change would make them equal again.
        let equal = |t: &SharedTree, step: &str| {
            let [a, b] = dumps(t);
            assert_eq!(a, b, "after {step}");
            assert_eq!(t.check_invariants(), Ok(()), "after {step}");
        };
        let kept = t.open(b"/fs").unwrap(); // the handle path
        equal(&t, "a permanent open");
        assert_eq!(t.read_at(kept, 0, 2).unwrap(), b"ex");
        equal(&t, "a cached read");
        let referenced = t.open(b"/f").unwrap(); // a change: it takes a reference
        t.remove(b"/f").unwrap();
        equal(&t, "an open that takes a reference, and a remove");
        t.source_add(b"fs", b"xfs").unwrap(); // the next fresh read builds, as a change
        assert_eq!(t.read_at(kept, 2, 10).unwrap(), b"t4\n"); // continued: the snapshot
        equal(&t, "a continued read");
        assert_eq!(t.read(kept).unwrap(), b"ext4\nxfs\n");
        equal(&t, "a read that builds");
        let other = t.open(b"/fs").unwrap();
        t.close(other).unwrap();
        equal(&t, "a permanent close");
        assert!(dumps(&t)[0].contains("handle"));
        t.close(referenced).unwrap();
        t.close(kept).unwrap();
        assert_eq!(t.stats().handles, 0);
        equal(&t, "the last closes");
    }

    #[test]
    fn a_change_after_many_handle_paths_catches_up() {
        let mut t = fixture();
        // More handle paths than a shard lists one by one: the change copies the shard.
        let kept: Vec<HandleId> = (0..3).map(|_| t.open(b"/fs").unwrap()).collect();
        for _ in 0..200 {
            let h = t.open(b"/fs").unwrap();
            t.read_at(h, 0, 3).unwrap();
            t.close(h).unwrap();
        }
        t.read_at(kept[1], 0, 2).unwrap();
        t.create(b"/g", b"").unwrap(); // a change: the back copy catches up first
        t.create(b"/h", b"").unwrap(); // and the other copy, after it
        assert_eq!(t.read_at(kept[1], 2, 3).unwrap(), b"t4\n");
        let [a, b] = dumps(&t);
        assert_eq!(a, b);
        assert_eq!(t.stats().handles, 3);
        for h in kept {
            t.close(h).unwrap();
        }
        assert_eq!(t.check_invariants(), Ok(()));
    }

    /// Both checks read the tree itself, not a summary of it: a corrupted copy fails them, the
    /// near check only when its scope covers the break.
    #[test]
    fn the_checks_see_a_corrupted_copy() {
        let mut tree = Tree::with_seed(Limits::default(), 1);
        tree.mkdir(b"/a").unwrap();
        tree.mkdir(b"/m").unwrap();
        let ino = |t: &Tree, path: &[u8]| t.stat(path).unwrap().ino;
        let (a, m) = (ino(&tree, b"/a"), ino(&tree, b"/m"));
        let healthy = SharedTree::new(tree.clone());
        assert_eq!(healthy.check_invariants_near(&[a, m]), Ok(()));
        tree.miscount_subdirs(b"/a");
        let broken = SharedTree::new(tree);
        let invariant = |r: Result<(), InvariantViolation>| r.map_err(|v| v.invariant);
        assert_eq!(invariant(broken.check_invariants_near(&[a])), Err(2));
        assert_eq!(
            broken.check_invariants_near(&[m]),
            Ok(()),
            "outside the scope"
        );
        assert_eq!(invariant(broken.check_invariants()), Err(2));
    }

    #[test]
    fn a_handle_opened_on_one_thread_is_read_and_closed_on_another() {
        let t = fixture();
        let handles: Vec<HandleId> = std::thread::scope(|s| {
            let mut t = t.clone();
            s.spawn(move || (0..20).map(|_| t.open(b"/fs").unwrap()).collect())
                .join()
                .unwrap()
        });
        let mut other = t.clone();
        for &h in &handles {
            assert_eq!(other.read(h).unwrap(), b"ext4\n");
            other.close(h).unwrap();
            assert_eq!(other.close(h), Err(Errno::EBADF));
        }
        assert_eq!(t.stats().handles, 0);
        assert_eq!(t.check_invariants(), Ok(()));
    }

    #[test]
    fn fingerprint_and_dump_are_read_from_the_front_copy() {
        let mut t = fixture();
        let before = t.fingerprint();
        t.create(b"/n", b"").unwrap();
        assert_ne!(t.fingerprint(), before);
        let front = t.read_lock();
        let (fp, dump) = (front.fingerprint(), front.dump());
        drop(front);
        assert_eq!((t.fingerprint(), t.dump()), (fp, dump));
    }

    #[cfg(feature = "races")]
    #[test]
    fn each_race_has_its_own_command_line_name() {
        let names = Race::ALL.map(Race::name);
        assert_eq!(
            names,
            [
                "create-check-then-act",
                "readdir-torn-page",
                "open-count-lost-update",
                "remove-subtree-in-steps",
                "rendering-published-early",
            ]
        );
    }

    #[cfg(feature = "races")]
    #[test]
    fn the_lossy_handle_count_starts_from_the_handles_already_open() {
        let mut tree = Tree::with_seed(Limits::default(), 1);
        tree.create(b"/f", b"").unwrap();
        tree.open(b"/f").unwrap();
        let t = SharedTree::with_race(tree, Race::OpenCountLostUpdate);
        assert_eq!(t.stats().handles, 1);
        assert_eq!(t.inner.race, Some(Race::OpenCountLostUpdate));
    }

    #[test]
    fn a_change_that_depends_on_more_than_the_tree_breaks_an_invariant() {
        let t = fixture();
        let runs = Cell::new(0);
        // Answers the same on both copies, but makes a different name on each.
        t.atomically(|t| {
            runs.set(runs.get() + 1);
            t.create(format!("/run{}", runs.get()).as_bytes(), b"")
                .map(|_| ())
        })
        .unwrap();
        let broken = t.check_invariants().unwrap_err();
        assert_eq!(broken.invariant, 4, "{broken}");
        assert!(broken.detail.contains("two copies differ"), "{broken}");
    }

    #[test]
    fn threads_on_every_path_leave_the_copies_equal() {
        let t = fixture();
        std::thread::scope(|s| {
            for thread in 0..2 {
                let mut t = t.clone();
                s.spawn(move || {
                    for i in 0..300 {
                        let h = t.open(b"/fs").unwrap();
                        t.read(h).unwrap();
                        t.close(h).unwrap();
                        t.create(format!("/t{thread}-{i}").as_bytes(), b"").unwrap();
                        if i % 50 == 0 {
                            t.source_add(b"fs", format!("i{thread}-{i}").as_bytes())
                                .unwrap();
                        }
                    }
                });
            }
            let reader = t.clone();
            s.spawn(move || {
                for _ in 0..3000 {
                    reader.stat(b"/f").unwrap();
                }
            });
        });
        assert_eq!(t.stats().live, 3 + 600);
        let [a, b] = dumps(&t);
        assert_eq!(a, b);
        assert_eq!(t.check_invariants(), Ok(()));
    }
}
