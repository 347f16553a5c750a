//! Open handles, and the paths that open, read and close handles of permanent entries with
//! only a shared borrow of the tree (for [`crate::SharedTree`]'s handle path).
//!
//! The table is sharded, each shard behind a mutex. A `&mut Tree` method reaches a shard
//! with `Mutex::get_mut`, which takes no lock, so the sequential tree pays nothing for them;
//! the shared paths lock one shard for the few steps that change it. A permanent entry
//! cannot be removed, unmarked or given references (§7), so everything else a shared path
//! reads of it stays as it is while the caller's shared borrow is held.
//!
//! A shared path changes this tree's table only. Each shard lists what it changed that way
//! (`Unmirrored`), and [`Tree::catch_up`] copies just that into the other copy of a
//! `SharedTree` before the next change, so the handle path does its table work once.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError};

use crossbeam_utils::CachePadded;
use rustc_hash::FxBuildHasher;

use crate::sync::{AtomicU64, Mutex, MutexGuard, Ordering};
use crate::types::{Errno, HandleId, View};

use super::entry::{content_shared, Body};
use super::{ArenaIndex, Tree};

#[derive(Debug, Clone)]
pub(super) struct Handle {
    pub(super) slot: ArenaIndex,
    /// Whether `open` took a reference (it does not on a permanent entry). Once the entry is
    /// marked permanent the reference no longer counts, whatever this says.
    pub(super) took_ref: bool,
    /// Where the last read ended (§11). Invariant 12: 0 while `snapshot` is `None`.
    pub(super) pos: u64,
    /// The whole content as the last fresh read saw it; continued reads copy from it.
    pub(super) snapshot: Option<Arc<[u8]>>,
}

/// Shards of the handle table. A handle lives in the shard of the thread that opened it
/// (`home_shard`), so threads working on their own handles lock different mutexes, each on
/// its own cache lines; a handle used from another thread is found by searching the rest.
const SHARDS: usize = 16;

/// A shard's handles by id. A hash map, not a B-tree: a B-tree frees its last node when it
/// empties and allocates one on the next insert, which an open + close on a quiet shard
/// pays every time. Ids are the tree's own, not user-chosen, so an unkeyed hash is safe.
type HandleMap = HashMap<HandleId, Handle, FxBuildHasher>;

/// Ids a shard may list as unmirrored beyond twice its handles before it lists them all:
/// catching up then costs O(handles) either way, and the list cannot grow without bound
/// while no change comes.
const UNMIRRORED_SLACK: usize = 64;

/// What the shared paths changed in a shard since the other copy last caught up.
#[derive(Debug, Clone)]
enum Unmirrored {
    /// These ids (an id may repeat): each is now as the shard holds it, or gone.
    Ids(Vec<HandleId>),
    /// Too many ids to list: the other copy takes the whole shard.
    All,
}

#[derive(Debug)]
struct Shard {
    map: HandleMap,
    unmirrored: Unmirrored,
}

impl Shard {
    /// Notes that a shared path changed handle `id`.
    fn unmirrored(&mut self, id: HandleId) {
        if let Unmirrored::Ids(ids) = &mut self.unmirrored {
            ids.push(id);
            if ids.len() > 2 * self.map.len() + UNMIRRORED_SLACK {
                self.unmirrored = Unmirrored::All;
            }
        }
    }
}

/// A shard and its length, on a cache line of their own (`repr(C)` keeps `len` on the
/// mutex's line, which a shared path has just taken). Invariant: `len` is `map.len()`
/// whenever the mutex is free; it lets `stats` (which the harness calls after every op)
/// count handles without locking every shard.
#[derive(Debug)]
#[repr(C)]
struct ShardCell {
    len: AtomicU64,
    shard: Mutex<Shard>,
}

/// The open handles by id, and the id the next `open` gets (ids are never reused).
#[derive(Debug)]
pub(super) struct Handles {
    /// Boxed: 16 cache-padded shards are 2 KiB or more, which every move of a tree (and a
    /// `SharedTree`'s two) would otherwise copy on the stack.
    shards: Box<[CachePadded<ShardCell>; SHARDS]>,
    /// The next id. The shared paths take it with a `fetch_add`; ids are ordered as those
    /// adds are, which is the order the opens take effect in. On a line of its own: every
    /// shared open writes it, and the tree's fields beside it are what every reader reads.
    next: CachePadded<AtomicU64>,
}

/// The shard this thread adds handles to. Threads take shards in turn, so that up to
/// `SHARDS` threads each open, read and close in a shard (and on cache lines) of their own:
/// placing handles by id instead sent every shard's lines from core to core, since
/// consecutive ids go to different threads. Where a handle lives is never visible: lookups
/// search every shard, and listings sort by id.
fn home_shard() -> usize {
    static TAKEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    thread_local! {
        static HOME: usize = TAKEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % SHARDS;
    }
    HOME.with(|h| *h)
}

/// Shard indexes in the order a lookup searches them: this thread's first.
fn search_order() -> impl Iterator<Item = usize> {
    let home = home_shard();
    (0..SHARDS).map(move |i| (home + i) % SHARDS)
}

/// A shard through an exclusive borrow: no lock taken. A poisoned mutex (a panic while a
/// shared path held it) still holds a whole map: those paths change it in single steps.
fn exclusive(c: &mut ShardCell) -> &mut Shard {
    c.shard.get_mut().unwrap_or_else(PoisonError::into_inner)
}

fn locked(c: &ShardCell) -> MutexGuard<'_, Shard> {
    c.shard.lock().unwrap_or_else(PoisonError::into_inner)
}

fn new_cell(map: HandleMap) -> CachePadded<ShardCell> {
    let len = AtomicU64::new(map.len() as u64);
    let shard = Mutex::new(Shard {
        map,
        unmirrored: Unmirrored::Ids(Vec::new()),
    });
    CachePadded::new(ShardCell { shard, len })
}

/// A copy with the same handles, ids and next id, and nothing unmirrored (a copy has no
/// other copy to catch up). Consistent as [`Handles::all`] is.
impl Clone for Handles {
    fn clone(&self) -> Handles {
        Handles {
            shards: Box::new(std::array::from_fn(|i| {
                new_cell(locked(&self.shards[i]).map.clone())
            })),
            next: CachePadded::new(AtomicU64::new(self.next())),
        }
    }
}

impl Handles {
    pub(super) fn new() -> Handles {
        Handles {
            shards: Box::new(std::array::from_fn(|_| new_cell(HandleMap::default()))),
            next: CachePadded::new(AtomicU64::new(1)),
        }
    }

    /// Whether an id is left for one more handle (`open` answers `ENOSPC` if not).
    pub(super) fn id_left(&mut self) -> bool {
        *self.next.get_mut() < HandleId::MAX
    }

    /// Takes the next id, exclusively. The caller checked [`Handles::id_left`].
    pub(super) fn take_id(&mut self) -> HandleId {
        let next = self.next.get_mut();
        let id = *next;
        debug_assert!(id < HandleId::MAX, "take_id without id_left");
        *next = id + 1;
        id
    }

    /// The shard holding `id`, through an exclusive borrow.
    fn shard_holding(&mut self, id: HandleId) -> Option<&mut ShardCell> {
        let i = search_order().find(|&i| exclusive(&mut self.shards[i]).map.contains_key(&id))?;
        Some(&mut self.shards[i])
    }

    pub(super) fn get_mut(&mut self, id: HandleId) -> Option<&mut Handle> {
        exclusive(self.shard_holding(id)?).map.get_mut(&id)
    }

    /// Adds a handle under a new id.
    pub(super) fn insert(&mut self, id: HandleId, h: Handle) {
        debug_assert!(
            self.shard_holding(id).is_none(),
            "handle {id} inserted twice"
        );
        let cell = &mut self.shards[home_shard()];
        exclusive(cell).map.insert(id, h);
        *cell.len.get_mut() += 1;
    }

    pub(super) fn remove(&mut self, id: HandleId) -> Option<Handle> {
        let cell = self.shard_holding(id)?;
        let h = exclusive(cell).map.remove(&id)?;
        *cell.len.get_mut() -= 1;
        Some(h)
    }

    /// Keeps the handles `keep` says yes to (tests break the tree with it).
    #[cfg(test)]
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Handle) -> bool) {
        for cell in self.shards.iter_mut() {
            let map = &mut exclusive(cell).map;
            map.retain(|_, h| keep(h));
            *cell.len.get_mut() = map.len() as u64;
        }
    }

    /// The next id, through a shared borrow.
    pub(super) fn next(&self) -> HandleId {
        self.next.load(Ordering::SeqCst)
    }

    /// Takes the next id through a shared borrow: `ENOSPC` once ids are used up.
    ///
    /// One `fetch_add`, not a load and a compare-exchange: the counter's cache line then
    /// crosses between cores once per open, not twice. Past the last id the counter is put
    /// back to it; the add could wrap only after 2^64 opens, which no process makes.
    fn take_id_shared(&self) -> Result<HandleId, Errno> {
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        if id == HandleId::MAX {
            self.next.store(HandleId::MAX, Ordering::SeqCst);
            return Err(Errno::ENOSPC);
        }
        Ok(id)
    }

    /// The shard holding `id`, locked, and its cell; `None` if no shard holds it. Shards are
    /// locked one at a time: a handle never moves, so whether it is found is decided at the
    /// instant its own shard is locked.
    fn find(&self, id: HandleId) -> Option<(MutexGuard<'_, Shard>, &ShardCell)> {
        search_order().find_map(|i| {
            let cell: &ShardCell = &self.shards[i];
            let shard = locked(cell);
            shard.map.contains_key(&id).then_some((shard, cell))
        })
    }

    /// The slot a handle holds.
    pub(super) fn slot_of(&self, id: HandleId) -> Option<ArenaIndex> {
        let (shard, _) = self.find(id)?;
        shard.map.get(&id).map(|h| h.slot)
    }

    /// Every handle in id order, copied. Consistent only while no shared path runs (the
    /// caller holds the tree exclusively, or is the sequential tree).
    pub(super) fn all(&self) -> Vec<(HandleId, Handle)> {
        let mut v: Vec<(HandleId, Handle)> = Vec::new();
        for cell in self.shards.iter() {
            v.extend(locked(cell).map.iter().map(|(&id, h)| (id, h.clone())));
        }
        v.sort_unstable_by_key(|(id, _)| *id);
        v
    }

    /// How many handles are open; consistent as [`Handles::all`] is.
    pub(super) fn len(&self) -> u64 {
        self.shards
            .iter()
            .map(|c| c.len.load(Ordering::SeqCst))
            .sum()
    }

    /// Makes this table what `front` is, copying only what the shared paths changed in
    /// `front` since the last catch-up (this table was equal to `front` then), and marks
    /// `front` as mirrored. O(handles changed), at most O(handles).
    fn catch_up(&mut self, front: &Handles) {
        for (mine, theirs) in self.shards.iter_mut().zip(front.shards.iter()) {
            let mut guard = locked(theirs);
            let Shard { map, unmirrored } = &mut *guard;
            let own = exclusive(mine);
            debug_assert!(
                matches!(&own.unmirrored, Unmirrored::Ids(ids) if ids.is_empty()),
                "the copy catching up has shared-path changes of its own"
            );
            match unmirrored {
                Unmirrored::Ids(ids) => {
                    for id in ids.drain(..) {
                        match map.get(&id) {
                            Some(h) => own.map.insert(id, h.clone()),
                            None => own.map.remove(&id),
                        };
                    }
                }
                Unmirrored::All => {
                    own.map = map.clone();
                    *unmirrored = Unmirrored::Ids(Vec::new());
                }
            }
            let len = own.map.len() as u64;
            *mine.len.get_mut() = len;
        }
        *self.next.get_mut() = front.next();
    }
}

/// The bytes `[offset, offset + len)` of `snap`, clamped to its end.
pub(super) fn slice_of(snap: &[u8], offset: u64, len: u64) -> Vec<u8> {
    let end = offset.saturating_add(len).min(snap.len() as u64) as usize;
    let start = (offset.min(snap.len() as u64) as usize).min(end);
    snap[start..end].to_vec()
}

/// Contents up to this size are copied into a handle's snapshot rather than shared with the
/// cache: every thread reading a cached rendering would otherwise write its one reference
/// count, twice per open + read + close. With two threads that cache line crossing between
/// the cores cost more than the copy; one thread pays a little for the copy instead
/// (`pdtree bench --cases concurrency`, the seed-004 case; docs/PERFORMANCE.md).
const SNAPSHOT_COPY_MAX: usize = 1024;

/// A handle's own snapshot of a cached rendering: a copy when small, else a reference.
fn snapshot_of(cached: &Arc<[u8]>) -> Arc<[u8]> {
    if cached.len() <= SNAPSHOT_COPY_MAX {
        Arc::from(&cached[..])
    } else {
        Arc::clone(cached)
    }
}

/// What a read serves: the snapshot when it continues the last read (§11), else fresh.
pub(super) fn continued(h: &Handle, offset: u64) -> Option<Arc<[u8]>> {
    match &h.snapshot {
        Some(s) if offset != 0 && offset == h.pos => Some(Arc::clone(s)),
        _ => None,
    }
}

impl Tree {
    /// A fresh read's snapshot if it needs no build: a file's, a symlink's, or a current
    /// cached rendering.
    fn cached_content(&self, slot: ArenaIndex) -> Option<Arc<[u8]>> {
        let e = self.entry(slot);
        let shared = match &e.body {
            Body::File(c) | Body::Symlink(c) => return Some(content_shared(c)),
            Body::Listing => self.listing_cache_of(e.parent)?,
            Body::Generated(src) => self.sources.source(*src).cache.as_ref()?,
            Body::Dir(_) => return None,
        };
        Some(snapshot_of(shared))
    }

    /// [`PseudoFs::open_in`](crate::PseudoFs::open_in) of a permanent entry, through a shared
    /// borrow. `None`: the path is not a permanent entry, so opening it takes a reference and
    /// needs `open_in`; errors are only those `open_in` would give.
    pub(crate) fn open_permanent(
        &self,
        view: View,
        path: &[u8],
    ) -> Option<Result<HandleId, Errno>> {
        let slot = match self.resolve_in(view, path) {
            Ok(s) => s,
            Err(e) => return Some(Err(e)),
        };
        if self.dir(slot).is_some() {
            return Some(Err(Errno::EISDIR));
        }
        if !self.entry(slot).permanent() {
            return None;
        }
        // The id and the insertion are one step for anyone who can name the handle: only
        // this call knows the id until it returns.
        let id = match self.handles.take_id_shared() {
            Ok(id) => id,
            Err(e) => return Some(Err(e)),
        };
        let h = Handle {
            slot,
            took_ref: false,
            pos: 0,
            snapshot: None,
        };
        let cell = &self.handles.shards[home_shard()];
        let mut shard = locked(cell);
        shard.map.insert(id, h);
        cell.len.fetch_add(1, Ordering::SeqCst);
        shard.unmirrored(id);
        Some(Ok(id))
    }

    /// [`PseudoFs::read_at`](crate::PseudoFs::read_at) through a shared borrow. `None`: the
    /// read needs a rendering built, so it needs `read_at`.
    pub(crate) fn read_at_cached(
        &self,
        handle: HandleId,
        offset: u64,
        len: u64,
    ) -> Option<Result<Vec<u8>, Errno>> {
        let Some((mut shard, _)) = self.handles.find(handle) else {
            return Some(Err(Errno::EBADF));
        };
        let h = shard.map.get_mut(&handle)?; // found, so never `None` here
        if !self.entry(h.slot).reachable() {
            return Some(Err(Errno::ENOENT));
        }
        if len == 0 {
            return Some(Ok(Vec::new()));
        }
        let snap = continued(h, offset).or_else(|| self.cached_content(h.slot))?;
        let bytes = slice_of(&snap, offset, len);
        h.pos = offset + bytes.len() as u64;
        h.snapshot = Some(snap);
        shard.unmirrored(handle);
        Some(Ok(bytes))
    }

    /// [`PseudoFs::close`](crate::PseudoFs::close) through a shared borrow. `None`: the
    /// handle holds a reference to give back, so closing it needs `close`.
    pub(crate) fn close_unreferenced(&self, handle: HandleId) -> Option<Result<(), Errno>> {
        let Some((mut shard, cell)) = self.handles.find(handle) else {
            return Some(Err(Errno::EBADF));
        };
        let h = shard.map.get(&handle)?; // found, so never `None` here
        if h.took_ref && !self.entry(h.slot).permanent() {
            return None;
        }
        shard.map.remove(&handle);
        cell.len.fetch_sub(1, Ordering::SeqCst);
        shard.unmirrored(handle);
        Some(Ok(()))
    }

    /// Makes this tree's handle table `front`'s, after shared paths changed `front`'s alone
    /// (`SharedTree` calls it on its back copy before a change). The trees were equal before
    /// those shared paths; afterwards they are again. O(handles changed).
    pub(crate) fn catch_up(&mut self, front: &Tree) {
        self.handles.catch_up(&front.handles);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{PseudoFs, SharedTree};

    /// A tree whose next handle id is the last one, 2^64 − 2, with `/f` and a permanent `/p`.
    fn at_the_last_handle_id() -> Tree {
        let mut t = Tree::new();
        t.create(b"/f", b"x").unwrap();
        t.create(b"/p", b"y").unwrap();
        t.mark_permanent(b"/p").unwrap();
        *t.handles.next.get_mut() = HandleId::MAX - 1;
        t
    }

    /// The last id is given; the open that would take 2^64 − 1 is `ENOSPC` and changes
    /// nothing, whether it would take a reference or not.
    #[test]
    fn opens_past_the_last_handle_id_are_enospc_on_the_tree() {
        let mut t = at_the_last_handle_id();
        assert_eq!(t.open(b"/f"), Ok(HandleId::MAX - 1));
        let before = t.dump();
        assert_eq!(t.open(b"/f"), Err(Errno::ENOSPC));
        assert_eq!(t.open(b"/p"), Err(Errno::ENOSPC));
        assert_eq!(t.dump(), before);
        assert_eq!(t.stat(b"/f").map(|s| s.open_refs), Ok(1));
        assert_eq!(t.stats().handles, 1);
    }

    /// The same through a `SharedTree`, whose permanent entries open on the handle path
    /// (`take_id_shared`): the counter stays at the end instead of wrapping.
    #[test]
    fn opens_past_the_last_handle_id_are_enospc_on_the_handle_path() {
        let mut s = SharedTree::new(at_the_last_handle_id());
        assert_eq!(s.open(b"/p"), Ok(HandleId::MAX - 1));
        for _ in 0..2 {
            assert_eq!(s.open(b"/p"), Err(Errno::ENOSPC));
            assert_eq!(s.open(b"/f"), Err(Errno::ENOSPC));
        }
        assert_eq!(s.read_lock().handles.next(), HandleId::MAX);
        assert_eq!(s.stats().handles, 1);
        assert_eq!(s.close(HandleId::MAX - 1), Ok(()));
        assert_eq!(s.stat(b"/f").map(|st| st.open_refs), Ok(0));
    }

    /// Threads take home shards in turn: 16 openers spread their handles over (about) every
    /// shard; then 16 other threads, each with a home of its own, read every handle; then 16
    /// more close one opener's each. Every shard is searched from every other.
    #[test]
    fn a_handle_is_found_from_every_thread_whatever_shard_holds_it() {
        let mut t = Tree::new();
        t.create(b"/f", b"ff").unwrap();
        t.create(b"/p", b"pp").unwrap();
        t.mark_permanent(b"/p").unwrap();
        let s = SharedTree::new(t);
        let on_threads = |work: &(dyn Fn(usize, SharedTree) -> Vec<HandleId> + Sync)| {
            std::thread::scope(|scope| {
                let threads: Vec<_> = (0..SHARDS)
                    .map(|j| {
                        let s = s.clone();
                        scope.spawn(move || work(j, s))
                    })
                    .collect();
                threads
                    .into_iter()
                    .map(|t| t.join().unwrap())
                    .collect::<Vec<_>>()
            })
        };
        let opened = on_threads(&|_, mut s| [b"/f", b"/p"].map(|p| s.open(p).unwrap()).to_vec());
        let all = opened.concat();
        on_threads(&|_, mut s| {
            for &h in &all {
                assert_eq!(s.read_at(h, 0, 8).map(|b| b.len()), Ok(2), "read of {h}");
            }
            Vec::new()
        });
        on_threads(&|j, mut s| {
            for &h in &opened[(j + 1) % SHARDS] {
                assert_eq!(s.close(h), Ok(()), "close of {h}");
            }
            Vec::new()
        });
        assert_eq!(s.stats().handles, 0);
        assert_eq!(s.stat(b"/f").map(|st| st.open_refs), Ok(0));
    }
}
