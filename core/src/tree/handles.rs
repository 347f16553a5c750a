//! Open handles, and the paths that open, read and close handles of permanent entries with
//! only a shared borrow of the tree (for [`crate::SharedTree`]'s handle path, which makes
//! each change on both of its copies).
//!
//! The table is sharded, each shard behind a mutex. A `&mut Tree` method reaches a shard
//! with `Mutex::get_mut`, which takes no lock, so the sequential tree pays nothing for them;
//! the shared paths lock one shard of each copy for the few steps that change it. A
//! permanent entry cannot be removed, unmarked or given references (§7), so everything else
//! a shared path reads of it stays as it is while the caller's shared borrows are held.

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

/// Shards of the handle table: a handle lives in shard `id % SHARDS`, so threads working
/// on different handles lock different mutexes (each on its own cache line).
const SHARDS: usize = 16;

/// A shard's handles by id. A hash map, not a B-tree: a B-tree frees its last node when it
/// empties and allocates one on the next insert, which an open + close on a quiet shard
/// pays every time. Ids are the tree's own, not user-chosen, so an unkeyed hash is safe.
type HandleMap = HashMap<HandleId, Handle, FxBuildHasher>;

type Shard = CachePadded<Mutex<HandleMap>>;

/// The open handles by id, and the id the next `open` gets (ids are never reused).
#[derive(Debug)]
pub(super) struct Handles {
    /// Boxed: 16 cache-padded shards are 2 KiB or more, which every move of a tree (and a
    /// `SharedTree`'s two) would otherwise copy on the stack.
    shards: Box<[Shard; SHARDS]>,
    /// The next id. The shared paths take it with a `fetch_update`; ids are ordered as those
    /// updates are, which is the order the opens take effect in.
    next: AtomicU64,
    /// Open handles: the sum of the shards' lengths, kept so that `stats` (which the harness
    /// calls after every op) need not lock every shard.
    count: AtomicU64,
}

fn shard_of(id: HandleId) -> usize {
    (id % SHARDS as u64) as usize
}

/// A shard through an exclusive borrow: no lock taken. A poisoned mutex (a panic while a
/// shared path held it) still holds a whole map: those paths change it in single steps.
fn exclusive(s: &mut Shard) -> &mut HandleMap {
    s.get_mut().unwrap_or_else(PoisonError::into_inner)
}

/// A copy with the same handles, ids and next id. Consistent as [`Handles::all`] is.
impl Clone for Handles {
    fn clone(&self) -> Handles {
        let copy = Handles::new();
        for (src, dst) in self.shards.iter().zip(copy.shards.iter()) {
            let m = src.lock().unwrap_or_else(PoisonError::into_inner);
            *dst.lock().unwrap_or_else(PoisonError::into_inner) = m.clone();
        }
        copy.next.store(self.next(), Ordering::SeqCst);
        copy.count.store(self.len(), Ordering::SeqCst);
        copy
    }
}

impl Handles {
    pub(super) fn new() -> Handles {
        Handles {
            shards: Box::new(std::array::from_fn(|_| {
                CachePadded::new(Mutex::new(HandleMap::default()))
            })),
            next: AtomicU64::new(1),
            count: AtomicU64::new(0),
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

    pub(super) fn get_mut(&mut self, id: HandleId) -> Option<&mut Handle> {
        exclusive(&mut self.shards[shard_of(id)]).get_mut(&id)
    }

    pub(super) fn insert(&mut self, id: HandleId, h: Handle) {
        if exclusive(&mut self.shards[shard_of(id)])
            .insert(id, h)
            .is_none()
        {
            *self.count.get_mut() += 1;
        }
    }

    pub(super) fn remove(&mut self, id: HandleId) -> Option<Handle> {
        let h = exclusive(&mut self.shards[shard_of(id)]).remove(&id)?;
        *self.count.get_mut() -= 1;
        Some(h)
    }

    /// Keeps the handles `keep` says yes to (tests break the tree with it).
    #[cfg(test)]
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Handle) -> bool) {
        let mut left = 0;
        for s in self.shards.iter_mut() {
            exclusive(s).retain(|_, h| keep(h));
            left += exclusive(s).len() as u64;
        }
        *self.count.get_mut() = left;
    }

    /// The next id, through a shared borrow.
    pub(super) fn next(&self) -> HandleId {
        self.next.load(Ordering::SeqCst)
    }

    /// Takes the next id through a shared borrow: `ENOSPC` once ids are used up.
    fn take_id_shared(&self) -> Result<HandleId, Errno> {
        self.next
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |id| id.checked_add(1))
            .map_err(|_| Errno::ENOSPC)
    }

    /// The shard holding `id`, locked.
    fn lock(&self, id: HandleId) -> MutexGuard<'_, HandleMap> {
        self.shards[shard_of(id)]
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// The slot a handle holds.
    pub(super) fn slot_of(&self, id: HandleId) -> Option<ArenaIndex> {
        self.lock(id).get(&id).map(|h| h.slot)
    }

    /// Every handle in id order, copied. Consistent only while no shared path runs (the
    /// caller holds the tree exclusively, or is the sequential tree).
    pub(super) fn all(&self) -> Vec<(HandleId, Handle)> {
        let mut v: Vec<(HandleId, Handle)> = Vec::new();
        for s in self.shards.iter() {
            let m = s.lock().unwrap_or_else(PoisonError::into_inner);
            v.extend(m.iter().map(|(&id, h)| (id, h.clone())));
        }
        v.sort_unstable_by_key(|(id, _)| *id);
        v
    }

    /// How many handles are open; consistent as [`Handles::all`] is.
    pub(super) fn len(&self) -> u64 {
        self.count.load(Ordering::SeqCst)
    }

    /// Adds a handle through a shared borrow, into its locked shard.
    fn insert_shared(&self, id: HandleId, h: Handle) {
        let mut shard = self.lock(id);
        if shard.insert(id, h).is_none() {
            self.count.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Counts a handle taken out of its locked shard through a shared borrow.
    fn removed_shared(&self) {
        self.count.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The bytes `[offset, offset + len)` of `snap`, clamped to its end.
pub(super) fn slice_of(snap: &[u8], offset: u64, len: u64) -> Vec<u8> {
    let end = offset.saturating_add(len).min(snap.len() as u64) as usize;
    let start = (offset.min(snap.len() as u64) as usize).min(end);
    snap[start..end].to_vec()
}

/// What a read serves: the snapshot when it continues the last read (§11), else fresh.
pub(super) fn continued(h: &Handle, offset: u64) -> Option<Arc<[u8]>> {
    match &h.snapshot {
        Some(s) if offset != 0 && offset == h.pos => Some(Arc::clone(s)),
        _ => None,
    }
}

impl Tree {
    /// A fresh read's content if it needs no build: a file's, a symlink's, or a current
    /// cached rendering.
    fn cached_content(&self, slot: ArenaIndex) -> Option<Arc<[u8]>> {
        let e = self.entry(slot);
        match &e.body {
            Body::File(c) | Body::Symlink(c) => Some(content_shared(c)),
            Body::Listing => self.cached_listing(e.parent),
            Body::Generated(src) => self.sources.source(*src).cache.clone(),
            Body::Dir(_) => None,
        }
    }

    /// [`PseudoFs::open_in`](crate::PseudoFs::open_in) of a permanent entry, through a shared
    /// borrow, done on this tree and on `mirror`, an equal copy of it (`SharedTree`'s other
    /// copy). `None`: the path is not a permanent entry, so opening it takes a reference and
    /// needs `open_in`; errors are only those `open_in` would give.
    pub(crate) fn open_permanent(
        &self,
        mirror: &Tree,
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
        // The id and the insertions are one step for anyone who can name the handle: only
        // this call knows the id until it returns. Ids are taken from this copy's counter
        // alone, so the mirror's follows it (equal again once every handle path is done).
        let id = match self.handles.take_id_shared() {
            Ok(id) => id,
            Err(e) => return Some(Err(e)),
        };
        mirror.handles.next.fetch_max(id + 1, Ordering::SeqCst);
        let h = Handle {
            slot,
            took_ref: false,
            pos: 0,
            snapshot: None,
        };
        self.handles.insert_shared(id, h.clone());
        mirror.handles.insert_shared(id, h);
        Some(Ok(id))
    }

    /// [`PseudoFs::read_at`](crate::PseudoFs::read_at) through a shared borrow, on this tree
    /// and `mirror` (as for [`Tree::open_permanent`]). `None`: the read needs a rendering
    /// built, so it needs `read_at`.
    pub(crate) fn read_at_cached(
        &self,
        mirror: &Tree,
        handle: HandleId,
        offset: u64,
        len: u64,
    ) -> Option<Result<Vec<u8>, Errno>> {
        // Both shards locked for the whole step, always this copy's first: two paths on one
        // handle then change the copies in the same order.
        let mut shard = self.handles.lock(handle);
        let mut mirrored = mirror.handles.lock(handle);
        let Some(h) = shard.get_mut(&handle) else {
            return Some(Err(Errno::EBADF));
        };
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
        mirrored.insert(handle, h.clone());
        Some(Ok(bytes))
    }

    /// [`PseudoFs::close`](crate::PseudoFs::close) through a shared borrow, on this tree and
    /// `mirror` (as for [`Tree::open_permanent`]). `None`: the handle holds a reference to
    /// give back, so closing it needs `close`.
    pub(crate) fn close_unreferenced(
        &self,
        mirror: &Tree,
        handle: HandleId,
    ) -> Option<Result<(), Errno>> {
        let mut shard = self.handles.lock(handle);
        let mut mirrored = mirror.handles.lock(handle);
        let Some(h) = shard.get(&handle) else {
            return Some(Err(Errno::EBADF));
        };
        if h.took_ref && !self.entry(h.slot).permanent() {
            return None;
        }
        shard.remove(&handle);
        self.handles.removed_shared();
        if mirrored.remove(&handle).is_some() {
            mirror.handles.removed_shared();
        }
        Some(Ok(()))
    }
}
