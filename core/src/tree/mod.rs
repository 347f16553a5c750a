//! The fast tree: an arena of entries, two hash indexes, inode-ordered children.
//!
//! Layout, and why:
//! - `entries` is an arena (`Vec<Option<Entry>>` plus a free list). Nothing is reference
//!   counted or recursive, so dropping or removing a 2,000-deep chain cannot overflow the stack.
//! - `by_name` maps (parent slot, name) → slot; it stores only the `u32` slot and hashes the
//!   key out of the arena, so a name is stored once.
//! - `dirs_by_path` maps a directory's whole path → slot (see `by_path.rs`): a path's parent
//!   in one probe, whatever its depth, then one `by_name` probe for the last name.
//! - Inode → slot is split: `dirs_by_ino` (a hash table of the reachable directories, the only
//!   entries `lookup_at` and `readdir` resolve on their fast path) and `files_by_ino` (every
//!   other reachable entry, ordered by inode like a directory's children). Inodes only grow,
//!   so creating a file is an append there: no hash insert, no cache miss, no rehash of a
//!   million entries read back from the arena in random order. Asking for a non-directory's
//!   inode (to answer ENOTDIR rather than ENOENT) is a binary search. Removals leave it in
//!   batches (see `file_index.rs`), so a remove does not pay a second search.
//! - Each directory keeps its children ordered by inode (see `children.rs`), a counter of
//!   child directories (nlink in O(1)), the total bytes of its children's names (a listing's
//!   size in O(1)), a generation bumped on every change of its child set, and the cached
//!   listing rendering tagged with the generation it was rendered at. A namespace's children
//!   of a directory are a set of their own beside the shared ones (see `tags.rs`).
//! - What most entries do not have lives beside the arena, not in it: the namespace tag of
//!   tagged entries (`tags`), modes and owners other than the defaults (`attrs`), and the
//!   sources behind generated files (`source.rs`).

mod by_ino;
mod by_path;
mod check;
mod dump;
mod entry;
mod file_index;
mod fingerprint;
mod handles;
mod source;
mod tags;

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, Hasher};
use std::sync::Arc;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use crate::children::Children;
use crate::path::{validate_name, Path};
use crate::spec::PseudoFs;
use crate::types::{
    DirEntry, Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Kind, Limits, Mode, NsId,
    Owner, ReadDirPage, Row, RowKind, Stat, Stats, View, MAX_MODE, NO_ID, ROOT_INO,
};
use entry::{
    content, content_len, content_shared, Body, Entry, OwnerWord, HEADER_ID_LIMIT, UNLINKED,
};
use file_index::FileIndex;
use handles::{continued, slice_of, Handle, Handles};
use source::Sources;
use tags::{Namespace, TagSet};

/// A position in the entry arena (`Tree::entries`); "slot" in names below means one.
type ArenaIndex = u32;
const ROOT_SLOT: ArenaIndex = 0;
/// The most entries the arena can hold (`u32` indices, `ArenaIndex::MAX` reserved as a
/// sentinel).
const MAX_ALLOCATED: u64 = ArenaIndex::MAX as u64;

#[derive(Clone, Debug, Default)]
struct Dir {
    /// The shared children (every child, in a tree without namespaces).
    children: Children,
    /// Live shared child directories. Invariant: equals a fresh count.
    subdirs: u64,
    /// Sum of the live shared children's name lengths: a listing of this directory is
    /// `3 * children + name_bytes` bytes long.
    name_bytes: u64,
    /// Each namespace's children, for the namespaces that have some here (§10). Invariant:
    /// no empty set in it.
    tagged: BTreeMap<NsId, TagSet>,
    /// Live headers whose directory path passes through or ends here (root: always 0).
    hrefs: u64,
    /// Live headers with an empty table ending here: > 0 makes this a mount point.
    mounts: u64,
    /// Bumped on every change of the child set; tags `listing_cache`.
    generation: u64,
    /// The hash `dirs_by_path` holds this directory under, chained from its parent's (see
    /// `by_path.rs`). Invariant: equals a fresh chain from the root's.
    path_hash: u64,
    /// The last rendering and the generation it was made at. Valid iff the tags are equal.
    listing_cache: Option<(u64, Arc<[u8]>)>,
}

#[derive(Clone, Debug)]
struct Header {
    /// The namespace of a `register_ns` header; `None` for a shared one.
    ns: Option<NsId>,
    /// The directories of its path, outermost first, root excluded; each holds one href.
    dirs: Vec<ArenaIndex>,
    /// The final directory (may be the root).
    target: ArenaIndex,
    /// Row slots in table order.
    rows: Vec<ArenaIndex>,
}

/// An entry's mode and owner when they differ from the defaults (its kind's mode, its
/// namespace's owner). Kept beside the arena, not in `Entry`: most entries of a large tree
/// keep the defaults, and an `Entry` field would cost every one of them 8 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Attrs {
    mode: Mode,
    uid: Id,
    gid: Id,
}

/// The fast pseudo-filesystem tree.
///
/// Lookups by name or inode are O(1) expected, creation is O(1) amortised, readdir resumes
/// with a binary search, removal is O(log n) amortised and `remove_subtree` is linear in the
/// subtree and iterative. All operations are in the [`PseudoFs`] trait.
///
/// A clone is the same tree, open handles and the name-hash key included (O(n) time and
/// memory); the two then change independently.
///
/// ```
/// use pdtree::{Errno, PseudoFs, Tree};
///
/// let mut t = Tree::new();
/// t.mkdir(b"/net").unwrap();
/// for i in 0..1000 {
///     t.create(format!("/net/eth{i}").as_bytes(), b"").unwrap();
/// }
/// assert_eq!(t.stat(b"/net/eth999").unwrap().ino, 1002);
/// assert_eq!(t.create(b"/net/eth0", b""), Err(Errno::EEXIST));
/// assert!(t.check_invariants().is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct Tree {
    limits: Limits,
    /// Arena. Invariant: `entries[0]` is the root; a `None` slot is on `free`.
    entries: Vec<Option<Entry>>,
    free: Vec<ArenaIndex>,
    /// Reachable entries except the root, keyed by (parent slot, name), hashed with
    /// `name_keys`.
    by_name: HashTable<ArenaIndex>,
    name_keys: NameKeys,
    /// Reachable directories, root included, keyed by inode.
    dirs_by_ino: HashTable<ArenaIndex>,
    /// Reachable directories, root excluded, keyed by their path (see `by_path.rs`).
    dirs_by_path: HashTable<ArenaIndex>,
    /// Reachable non-directories, ordered by inode; a removed one may still be a candidate
    /// there (see `file_slot_of_ino`).
    files_by_ino: FileIndex,
    headers: BTreeMap<HeaderId, Header>,
    /// Open handles and the next handle id (see `handles.rs`: sharded mutexes that only the
    /// shared paths lock).
    handles: Handles,
    /// Slots whose mode or owner is not the default. Invariant: only allocated slots, and
    /// never an entry equal to the defaults' (so `free_slot` and `set_attrs` keep it small).
    attrs: HashMap<ArenaIndex, Attrs, FxBuildHasher>,
    sources: Sources,
    /// The tag of every allocated tagged slot (§10); a slot not here is shared.
    tags: HashMap<ArenaIndex, NsId, FxBuildHasher>,
    /// Live namespaces, 0 included.
    namespaces: BTreeMap<NsId, Namespace>,
    next_ns: NsId,
    next_ino: Ino,
    next_header: HeaderId,
    /// Reachable entries, root included.
    live: u64,
    /// Occupied arena slots: reachable plus removed-but-open.
    allocated: u64,
}

/// The secret key of the hash of every user-chosen name: the name index's and the source
/// items'. An unkeyed hash lets names be crafted so that all of them collide, which turns
/// every create, lookup and remove in their directory into a scan (10^5 crafted creates:
/// quadratic). The key is random per tree unless [`Tree::with_seed`] fixes it.
#[derive(Clone, Debug)]
struct NameKeys {
    per_hasher: u64,
    shared: foldhash::SharedSeed,
}

impl NameKeys {
    /// The keys for `seed`: foldhash's shared seed spread from it, and it as the per-hasher
    /// seed.
    fn new(seed: u64) -> NameKeys {
        NameKeys {
            per_hasher: seed,
            shared: foldhash::SharedSeed::from_u64(seed),
        }
    }

    fn hasher(&self) -> foldhash::fast::FoldHasher<'_> {
        foldhash::fast::FoldHasher::with_seed(self.per_hasher, &self.shared)
    }

    fn hash_bytes(&self, bytes: &[u8]) -> u64 {
        let mut h = self.hasher();
        h.write(bytes);
        h.finish()
    }
}

/// A seed from the operating system's randomness (std's per-process keys, stepped for each
/// call), for trees made without one.
fn random_seed() -> u64 {
    std::hash::RandomState::new().build_hasher().finish()
}

/// The name index's key: (parent, tag, name); a shared entry's hashes as (parent, name).
fn name_hash(keys: &NameKeys, parent: ArenaIndex, tag: Option<NsId>, name: &[u8]) -> u64 {
    let mut h = keys.hasher();
    h.write_u32(parent);
    if let Some(k) = tag {
        h.write_u64(k);
    }
    h.write(name);
    h.finish()
}

/// The hasher `by_name` needs to move its slots: the key is read back from the arena (and
/// the tag from the side table).
fn name_rehasher<'t>(
    keys: &'t NameKeys,
    entries: &'t [Option<Entry>],
    tags: &'t HashMap<ArenaIndex, NsId, FxBuildHasher>,
) -> impl Fn(&ArenaIndex) -> u64 + 't {
    move |&s| {
        let e = entries[s as usize].as_ref().expect("indexed slot is free");
        let tag = if tags.is_empty() {
            None
        } else {
            tags.get(&s).copied()
        };
        name_hash(keys, e.parent, tag, &e.name)
    }
}

fn ino_hash(ino: Ino) -> u64 {
    let mut h = FxBuildHasher.build_hasher();
    h.write_u64(ino);
    h.finish()
}

/// A creation request after its own checks (content sizes) passed.
/// A registration that passed every check: what exists, what to create.
struct RegisterPlan<'p> {
    /// The directories of the table's path that exist, outermost first.
    existing: Vec<ArenaIndex>,
    /// The deepest of them (the root if none).
    target: ArenaIndex,
    /// The components still to create below `target`, as implicit directories.
    missing: Vec<&'p [u8]>,
}

enum NewBody<'a> {
    Dir,
    File(&'a [u8]),
    Symlink(&'a [u8]),
    Listing,
    Generated(&'a [u8]),
}

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}

impl Tree {
    /// A new tree holding only the root, with default [`Limits`].
    ///
    /// ```
    /// use pdtree::PseudoFs;
    /// let t = pdtree::Tree::new();
    /// assert_eq!(t.stats().live, 1);
    /// ```
    pub fn new() -> Tree {
        Tree::with_limits(Limits::default())
    }

    /// A new tree holding only the root, whose name hashing is keyed by `seed` rather than
    /// by the operating system's randomness: the same seed gives the same hash table layout,
    /// so a run (a fuzz case, a benchmark) repeats exactly. Results never depend on the seed;
    /// [`Tree::new`] and [`PseudoFs::with_limits`] pick a random one, which keeps crafted
    /// colliding names from costing more than others.
    ///
    /// ```
    /// use pdtree::{Limits, PseudoFs, Tree};
    /// let mut t = Tree::with_seed(Limits::default(), 7);
    /// t.create(b"/a", b"x").unwrap();
    /// let mut u = Tree::with_seed(Limits::default(), 8);
    /// u.create(b"/a", b"x").unwrap();
    /// assert_eq!(t.dump(), u.dump());
    /// ```
    pub fn with_seed(limits: Limits, seed: u64) -> Tree {
        let name_keys = NameKeys::new(seed);
        let keys_for_sources = name_keys.clone();
        let mut root = Entry::new(
            ROOT_INO,
            ROOT_SLOT,
            b"",
            Owner::Explicit,
            Body::Dir(Box::new(Dir {
                path_hash: by_path::ROOT_PATH_HASH,
                ..Dir::default()
            })),
        );
        root.owner = OwnerWord::new(Owner::Explicit, true);
        let mut dirs_by_ino = HashTable::new();
        dirs_by_ino.insert_unique(ino_hash(ROOT_INO), ROOT_SLOT, |_| ino_hash(ROOT_INO));
        Tree {
            limits,
            entries: vec![Some(root)],
            free: Vec::new(),
            by_name: HashTable::new(),
            name_keys,
            dirs_by_ino,
            dirs_by_path: HashTable::new(),
            files_by_ino: FileIndex::default(),
            headers: BTreeMap::new(),
            handles: Handles::new(),
            attrs: HashMap::default(),
            sources: Sources::new(keys_for_sources),
            tags: HashMap::default(),
            namespaces: BTreeMap::from([(0, Namespace::default())]),
            next_ns: 1,
            next_ino: ROOT_INO + 1,
            next_header: 1,
            live: 1,
            allocated: 1,
        }
    }

    // ----- arena access -------------------------------------------------------------------

    fn entry(&self, slot: ArenaIndex) -> &Entry {
        self.entries[slot as usize]
            .as_ref()
            .expect("slot refers to a free arena entry")
    }

    fn entry_mut(&mut self, slot: ArenaIndex) -> &mut Entry {
        self.entries[slot as usize]
            .as_mut()
            .expect("slot refers to a free arena entry")
    }

    fn dir(&self, slot: ArenaIndex) -> Option<&Dir> {
        match &self.entry(slot).body {
            Body::Dir(d) => Some(d),
            _ => None,
        }
    }

    fn dir_mut(&mut self, slot: ArenaIndex) -> &mut Dir {
        match &mut self.entry_mut(slot).body {
            Body::Dir(d) => d,
            _ => panic!("slot {slot} is not a directory"),
        }
    }

    fn slot_of_ino(&self, ino: Ino) -> Option<ArenaIndex> {
        self.dir_slot_of_ino(ino)
            .or_else(|| self.file_slot_of_ino(ino))
    }

    /// The slot of a reachable non-directory with inode `ino`: the file index's candidate,
    /// if its entry has that inode and is reachable (a batched removal leaves the candidate
    /// behind; inodes are never reused, so no other entry can match).
    fn file_slot_of_ino(&self, ino: Ino) -> Option<ArenaIndex> {
        let slot = self.files_by_ino.candidate(ino)?;
        let e = self.entries[slot as usize].as_ref()?;
        (e.ino == ino && e.parent != UNLINKED).then_some(slot)
    }

    /// The slot of a reachable directory with inode `ino`.
    fn dir_slot_of_ino(&self, ino: Ino) -> Option<ArenaIndex> {
        let entries = &self.entries;
        self.dirs_by_ino
            .find(ino_hash(ino), |&s| {
                entries[s as usize].as_ref().map(|e| e.ino) == Some(ino)
            })
            .copied()
    }

    // ----- resolution ---------------------------------------------------------------------

    /// Child `name` of directory `dir` in `view`, checks in `lookup_at`'s order after the
    /// name's syntax: the view, the directory, then the child.
    fn child_at(&self, view: View, dir: Ino, name: &[u8]) -> Result<ArenaIndex, Errno> {
        self.check_view(view)?;
        let d = self
            .slot_of_ino(dir)
            .filter(|&s| self.visible(s, view))
            .ok_or(Errno::ENOENT)?;
        if self.dir(d).is_none() {
            return Err(Errno::ENOTDIR);
        }
        self.child_visible(d, view, name).ok_or(Errno::ENOENT)
    }

    /// Walks a parsed path from the root through the entries visible in `view` (ENOENT /
    /// ENOTDIR).
    fn resolve(&self, view: View, path: Path<'_>) -> Result<ArenaIndex, Errno> {
        // The parent in one probe of the path index; the walk when it cannot answer.
        if !path.is_root() {
            if let Some(found) = self.resolve_by_path(view, path.as_bytes()) {
                return found;
            }
        }
        self.walk(view, path)
    }

    /// [`Tree::resolve`] one name-index probe per component, from the root.
    fn walk(&self, view: View, path: Path<'_>) -> Result<ArenaIndex, Errno> {
        let mut cur = ROOT_SLOT;
        for name in path.components() {
            if self.dir(cur).is_none() {
                return Err(Errno::ENOTDIR);
            }
            cur = self.child_visible(cur, view, name).ok_or(Errno::ENOENT)?;
        }
        Ok(cur)
    }

    /// Path syntax, then resolution in view 0 (the structural ops').
    fn resolve_bytes(&self, path: &[u8]) -> Result<ArenaIndex, Errno> {
        self.resolve_in(0, path)
    }

    /// Path syntax, the view, then resolution in it. A path that resolves has its syntax
    /// proved by the walk ([`Path::unchecked`]), so it is checked only on the way to an
    /// error: the parse was half of a cached `stat`'s instructions. (A path that parses has
    /// the components the walk took, so a failed walk's error stands once the parse passes.)
    fn resolve_in(&self, view: View, path: &[u8]) -> Result<ArenaIndex, Errno> {
        match Path::unchecked(path).filter(|_| self.check_view(view).is_ok()) {
            Some(unchecked) => self.resolve(view, unchecked).or_else(|walk| {
                Path::parse(path)?;
                Err(walk)
            }),
            None => {
                let path = Path::parse(path)?;
                self.check_view(view)?;
                self.resolve(view, path)
            }
        }
    }

    /// The parent directory and name for a creation at `path` (checks 3–6 of §4 creation,
    /// except the entry limit), resolved in view 0: in a shared directory a name held by a
    /// child of any tag is taken (§10's order rule).
    fn creation_target<'p>(&self, path: Path<'p>) -> Result<(ArenaIndex, &'p [u8]), Errno> {
        let (parent_path, name) = path.split_last().ok_or(Errno::EEXIST)?;
        let parent = self.resolve(0, parent_path)?;
        let dir = self.dir(parent).ok_or(Errno::ENOTDIR)?;
        if dir.mounts > 0 {
            return Err(Errno::EROFS);
        }
        let taken = match self.tag_of(parent) {
            None => self.name_taken_by_any(parent, name),
            Some(k) => self.child_visible(parent, k, name).is_some(),
        };
        if taken {
            return Err(Errno::EEXIST);
        }
        Ok((parent, name))
    }

    /// Room for `n` more entries: the entry limit, and inode numbers that cannot wrap.
    fn check_room(&self, n: u64) -> Result<(), Errno> {
        match (self.allocated.checked_add(n), self.next_ino.checked_add(n)) {
            // Slots are u32: whatever the limit says, the arena stops at u32::MAX entries.
            (Some(total), Some(_)) if total <= self.limits.max_entries.min(MAX_ALLOCATED) => Ok(()),
            _ => Err(Errno::ENOSPC),
        }
    }

    // ----- mutation primitives ------------------------------------------------------------

    /// Links a new entry under `parent`. All checks have passed; this cannot fail.
    fn insert(
        &mut self,
        parent: ArenaIndex,
        name: &[u8],
        owner: Owner,
        body: NewBody<'_>,
        tag: Option<NsId>,
    ) -> ArenaIndex {
        if self.by_name.len() == self.by_name.capacity() {
            // Before the new entry is in the arena: the rebuild indexes what is there.
            self.grow_name_index();
        }
        let ino = self.next_ino;
        self.next_ino += 1;
        let body = match body {
            NewBody::Dir => {
                let up = self.dir(parent).expect("parent is a directory").path_hash;
                Body::Dir(Box::new(Dir {
                    path_hash: by_path::path_hash(&self.name_keys, up, name),
                    ..Dir::default()
                }))
            }
            NewBody::File(c) => Body::File(content(c)),
            NewBody::Symlink(t) => Body::Symlink(content(t)),
            NewBody::Listing => Body::Listing,
            NewBody::Generated(src) => Body::Generated(self.sources.get_or_make(src)),
        };
        let is_dir = matches!(body, Body::Dir(_));
        let entry = Entry::new(ino, parent, name, owner, body);
        let slot = match self.free.pop() {
            Some(s) => {
                debug_assert!(self.entries[s as usize].is_none());
                self.entries[s as usize] = Some(entry);
                s
            }
            None => {
                let s = ArenaIndex::try_from(self.entries.len()).expect("arena exceeds u32 slots");
                self.entries.push(Some(entry));
                s
            }
        };
        if let Some(k) = tag {
            self.tags.insert(slot, k);
        }
        let entries = &self.entries;
        self.by_name.insert_unique(
            name_hash(&self.name_keys, parent, tag, name),
            slot,
            name_rehasher(&self.name_keys, entries, &self.tags),
        );
        if is_dir {
            let rehash_ino =
                |&s: &ArenaIndex| ino_hash(entries[s as usize].as_ref().expect("free").ino);
            self.dirs_by_ino
                .insert_unique(ino_hash(ino), slot, rehash_ino);
            self.index_dir_path(slot);
        } else {
            self.files_by_ino.push(ino, slot);
        }
        self.dir_mut(parent)
            .link(tag, ino, slot, is_dir, name.len());
        self.live += 1;
        self.allocated += 1;
        slot
    }

    /// Makes room in the full `by_name` for at least one more entry, doubling it as hashbrown
    /// would. hashbrown's own rehash walks the table in hash order and so reads the arena (to
    /// re-hash each key) at random: past the caches that is a miss per entry per doubling,
    /// 29% of the time of creating 10^6 entries under perf. Rebuilding from an arena scan
    /// reads the arena in order instead. When most arena slots are free (after mass removal)
    /// the scan would cost more than the table walk, so hashbrown does it.
    fn grow_name_index(&mut self) {
        let entries = &self.entries;
        let rehash = name_rehasher(&self.name_keys, entries, &self.tags);
        let len = self.by_name.len();
        if len.saturating_mul(2) < entries.len() {
            #[cfg(feature = "thresholds")]
            crate::thresholds::bump(|t| &mut t.name_index_rehashes);
            self.by_name.reserve(1, rehash);
            return;
        }
        #[cfg(feature = "thresholds")]
        crate::thresholds::bump(|t| &mut t.name_index_growths);
        // Same size as hashbrown's growth: the smallest table holding `len + 1`.
        let mut grown = HashTable::with_capacity(len + 1);
        for (s, e) in entries.iter().enumerate().skip(ROOT_SLOT as usize + 1) {
            if let Some(e) = e.as_ref().filter(|e| e.reachable()) {
                let slot = s as ArenaIndex;
                let tag = self.tags.get(&slot).copied();
                let hash = name_hash(&self.name_keys, e.parent, tag, &e.name);
                grown.insert_unique(hash, slot, &rehash);
            }
        }
        debug_assert_eq!(grown.len(), len, "by_name disagrees with the arena");
        self.by_name = grown;
    }

    /// Unlinks a reachable entry from its parent and the indexes. The caller has checked that
    /// it may go (and for a directory, that it is empty or that its whole subtree goes too).
    /// Frees it unless an open handle still holds it.
    fn unlink(&mut self, slot: ArenaIndex) {
        let (parent, ino, is_dir, name_len) = {
            let e = self.entry(slot);
            (e.parent, e.ino, e.body.kind() == Kind::Dir, e.name.len())
        };
        let tag = self.tag_of(slot);
        let d = self.dir_mut(parent);
        match tag {
            None => {
                d.children.remove_live(ino);
                d.subdirs -= u64::from(is_dir);
                d.name_bytes -= name_len as u64;
            }
            Some(k) => {
                let sets = &mut d.tagged;
                let set = sets.get_mut(&k).expect("a tagged child's set");
                set.children.remove_live(ino);
                set.subdirs -= u64::from(is_dir);
                set.name_bytes -= name_len as u64;
                if set.children.is_empty() {
                    sets.remove(&k);
                }
            }
        }
        d.generation += 1;
        self.drop_from_indexes(slot);
    }

    /// Takes a reachable entry out of both indexes and frees it (or keeps it for its open
    /// handles). Does not touch the parent's children list.
    fn drop_from_indexes(&mut self, slot: ArenaIndex) {
        let ino = self.entry(slot).ino;
        self.drop_from_name_index(slot);
        if self.dir(slot).is_some() {
            match self.dirs_by_ino.find_entry(ino_hash(ino), |&s| s == slot) {
                Ok(found) => {
                    found.remove();
                }
                Err(_) => debug_assert!(false, "directory missing from dirs_by_ino"),
            }
            self.unindex_dir_path(slot);
        } else {
            self.files_by_ino.remove(ino);
        }
        self.release(slot);
    }

    /// Takes a reachable entry out of `by_name` only.
    fn drop_from_name_index(&mut self, slot: ArenaIndex) {
        let hash = {
            let e = self.entry(slot);
            name_hash(&self.name_keys, e.parent, self.tag_of(slot), &e.name)
        };
        match self.by_name.find_entry(hash, |&s| s == slot) {
            Ok(found) => {
                found.remove();
            }
            Err(_) => debug_assert!(false, "entry missing from by_name"),
        }
    }

    /// Marks an entry that has left every index as unreachable, and frees it unless an open
    /// handle still holds it.
    fn release(&mut self, slot: ArenaIndex) {
        self.live -= 1;
        let e = self.entry_mut(slot);
        e.parent = UNLINKED;
        if e.open_refs == 0 {
            self.free_slot(slot);
        }
    }

    fn free_slot(&mut self, slot: ArenaIndex) {
        if !self.attrs.is_empty() {
            self.attrs.remove(&slot);
        }
        if !self.tags.is_empty() {
            self.tags.remove(&slot);
        }
        self.entries[slot as usize] = None;
        self.free.push(slot);
        self.allocated -= 1;
    }

    /// Renders the listing of directory `dir` (§7), from scratch: its shared children and
    /// those of the directory's own tag (a listing has its directory's tag, and a tagged
    /// directory's children all carry that tag).
    fn render(&self, dir: ArenaIndex) -> Vec<u8> {
        let d = self.dir(dir).expect("listing parent is a directory");
        let tag = self.tag_of(dir);
        let (n, _, bytes) = d.counts_with(tag);
        let mut out = Vec::with_capacity((3 * n + bytes) as usize);
        for (_, s) in d.merged_from(tag, 0) {
            let e = self.entry(s);
            out.push(e.body.kind().letter() as u8);
            out.push(b'\t');
            out.extend_from_slice(&e.name);
            out.push(b'\n');
        }
        out
    }

    /// The listing of `dir` from its cache, if the cache is of the current generation.
    fn cached_listing(&self, dir: ArenaIndex) -> Option<Arc<[u8]>> {
        self.listing_cache_of(dir).map(Arc::clone)
    }

    /// The cached listing of `dir` if its generation is current, borrowed.
    fn listing_cache_of(&self, dir: ArenaIndex) -> Option<&Arc<[u8]>> {
        let d = self.dir(dir)?;
        let (generation, text) = d.listing_cache.as_ref()?;
        (*generation == d.generation).then_some(text)
    }

    /// The listing of `dir`, from the cache when its generation is current.
    fn rendering(&mut self, dir: ArenaIndex) -> Arc<[u8]> {
        if let Some(text) = self.cached_listing(dir) {
            return text;
        }
        let text: Arc<[u8]> = Arc::from(self.render(dir));
        let d = self.dir_mut(dir);
        d.listing_cache = Some((d.generation, Arc::clone(&text)));
        text
    }

    /// The stat of a reachable slot as `view` sees it (`None`: totals over every tag, as
    /// the dump shows them).
    fn stat_slot(&self, slot: ArenaIndex, view: Option<View>) -> Stat {
        let e = self.entry(slot);
        let (nlink, size) = match &e.body {
            Body::Dir(d) => match view {
                Some(v) => {
                    let (n, subdirs, _) = d.counts_with(Some(v));
                    (2 + subdirs, n)
                }
                None => (2 + d.total_subdirs(), d.total_len() as u64),
            },
            Body::File(c) | Body::Symlink(c) => (1, content_len(c) as u64),
            Body::Listing => {
                let d = self.dir(e.parent).expect("listing parent is a directory");
                let (n, _, bytes) = d.counts_with(self.tag_of(e.parent));
                (1, 3 * n + bytes)
            }
            Body::Generated(src) => (1, self.sources.source(*src).len),
        };
        let kind = e.body.kind();
        // A tree with no namespace entries and no chmod or chown (most): every entry is
        // shared, with its kind's mode and root's ids, and the side tables need no probe.
        let (ns, a) = if self.tags.is_empty() && self.attrs.is_empty() {
            (None, self.kind_defaults(kind, None))
        } else {
            (self.tag_of(slot), self.attrs_of(slot))
        };
        Stat {
            ino: e.ino,
            kind,
            ns,
            nlink,
            size,
            mode: a.mode,
            uid: a.uid,
            gid: a.gid,
            owner: e.owner(),
            permanent: e.permanent(),
            open_refs: u64::from(e.open_refs),
        }
    }

    /// A slot's mode and owner: its own if set, else the defaults.
    fn attrs_of(&self, slot: ArenaIndex) -> Attrs {
        if self.attrs.is_empty() {
            return self.default_attrs(slot);
        }
        match self.attrs.get(&slot) {
            Some(a) => *a,
            None => self.default_attrs(slot),
        }
    }

    /// The kind's mode, the owner of the entry's namespace (§12).
    fn default_attrs(&self, slot: ArenaIndex) -> Attrs {
        self.kind_defaults(self.entry(slot).body.kind(), self.tag_of(slot))
    }

    /// The mode of `kind` and the owner of namespace `tag` (root's for a shared entry).
    fn kind_defaults(&self, kind: Kind, tag: Option<NsId>) -> Attrs {
        let (uid, gid) = self.ns_owner(tag);
        Attrs {
            mode: kind.default_mode(),
            uid,
            gid,
        }
    }

    /// Sets a slot's mode and owner, keeping only non-default ones in the side table.
    fn set_attrs(&mut self, slot: ArenaIndex, a: Attrs) {
        let default = self.default_attrs(slot);
        if a == default {
            self.attrs.remove(&slot);
        } else {
            self.attrs.insert(slot, a);
        }
    }

    fn create_entry(&mut self, path: &[u8], body: NewBody<'_>) -> Result<Ino, Errno> {
        let path = Path::parse(path)?;
        match body {
            NewBody::File(c) if c.len() > self.limits.max_content => return Err(Errno::EFBIG),
            NewBody::Symlink(t) if t.len() > self.limits.max_content => return Err(Errno::EFBIG),
            NewBody::Symlink([]) => return Err(Errno::EINVAL),
            NewBody::Generated(src) => validate_name(src)?,
            _ => {}
        }
        let (parent, name) = self.creation_target(path)?;
        self.check_room(1)?;
        if let NewBody::Generated(src) = body {
            self.sources.room_for(src)?;
        }
        let tag = self.tag_of(parent);
        let slot = self.insert(parent, name, Owner::Explicit, body, tag);
        Ok(self.entry(slot).ino)
    }

    /// Read-only access to a file's content or a listing's rendering without copying it.
    ///
    /// The same checks as [`PseudoFs::read`]; useful for adapters that hand the bytes on.
    ///
    /// ```
    /// use pdtree::{PseudoFs, Tree};
    /// let mut t = Tree::new();
    /// t.listing(b"ls").unwrap();
    /// let h = t.open(b"ls").unwrap();
    /// assert_eq!(&*t.read_shared(h).unwrap(), b"g\tls\n");
    /// ```
    pub fn read_shared(&mut self, handle: HandleId) -> Result<Arc<[u8]>, Errno> {
        let slot = self.readable(handle)?;
        let snap = self.fresh_content(slot);
        let h = self.handles.get_mut(handle).expect("checked handle");
        h.pos = snap.len() as u64;
        // A cached rendering read again is the snapshot the handle already holds.
        if !h.snapshot.as_ref().is_some_and(|s| Arc::ptr_eq(s, &snap)) {
            h.snapshot = Some(Arc::clone(&snap));
        }
        Ok(snap)
    }

    /// The slot behind an open handle whose entry is still reachable (`EBADF`, `ENOENT`).
    fn readable(&mut self, handle: HandleId) -> Result<ArenaIndex, Errno> {
        let slot = self.handles.get_mut(handle).ok_or(Errno::EBADF)?.slot;
        if !self.entry(slot).reachable() {
            return Err(Errno::ENOENT);
        }
        Ok(slot)
    }

    /// The whole content of a reachable non-directory as a fresh read sees it: a listing's
    /// or a source's cached rendering, built if invalid.
    fn fresh_content(&mut self, slot: ArenaIndex) -> Arc<[u8]> {
        let e = self.entry(slot);
        match &e.body {
            Body::File(c) | Body::Symlink(c) => content_shared(c),
            Body::Listing => {
                let parent = e.parent;
                self.rendering(parent)
            }
            Body::Generated(src) => {
                let src = *src;
                self.sources.source_mut(src).rendering()
            }
            Body::Dir(_) => unreachable!("directories cannot be opened"),
        }
    }
    /// Whether `remove` or `remove_subtree` may take this entry, on its own account: not
    /// permanent, not a table row, not a directory a header holds (`EBUSY`). Returns the
    /// directory, for the caller's own check of its children.
    fn removable(&self, slot: ArenaIndex) -> Result<Option<&Dir>, Errno> {
        let e = self.entry(slot);
        if e.permanent() || matches!(e.owner(), Owner::Header(_)) {
            return Err(Errno::EBUSY);
        }
        match &e.body {
            Body::Dir(d) if d.hrefs > 0 => Err(Errno::EBUSY),
            Body::Dir(d) => Ok(Some(d)),
            _ => Ok(None),
        }
    }

    /// Every check of `register`, in SPEC order, with `&self`: the plan it returns can be
    /// applied without failing, so a failed registration changes nothing.
    /// `ns`: `None` for `register` (shared entries), `Some(k)` for `register_ns(k, …)`.
    fn plan_register<'p>(
        &self,
        ns: Option<NsId>,
        components: &[&'p [u8]],
        table: &[Row],
    ) -> Result<RegisterPlan<'p>, Errno> {
        self.check_table(table)?;
        if let Some(k) = ns {
            self.check_view(k)?;
        }
        let (existing, first_missing) = self.resolve_prefix(ns, components)?;
        let target = existing.last().copied().unwrap_or(ROOT_SLOT);
        let missing = &components[first_missing..];
        let target_dir = self.dir(target).expect("resolved prefix is a directory");
        if (!missing.is_empty() || !table.is_empty()) && target_dir.mounts > 0 {
            return Err(Errno::EROFS);
        }
        if missing.is_empty() && table.iter().any(|r| self.row_taken(ns, target, &r.name)) {
            return Err(Errno::EEXIST);
        }
        self.check_room(missing.len() as u64 + table.len() as u64)?;
        for row in table {
            if let RowKind::Gen(src) = &row.kind {
                self.sources.room_for(src)?;
            }
        }
        if table.is_empty() && missing.is_empty() && !target_dir.is_empty_all() {
            return Err(Errno::EINVAL);
        }
        if self.next_header >= HEADER_ID_LIMIT {
            // 2^64 - 3 registrations in: the owner word has no room for more ids.
            return Err(Errno::ENOSPC);
        }
        Ok(RegisterPlan {
            existing,
            target,
            missing: missing.to_vec(),
        })
    }

    /// The table on its own: row count, names, content sizes, no name twice.
    fn check_table(&self, table: &[Row]) -> Result<(), Errno> {
        if table.len() > self.limits.max_table_rows {
            return Err(Errno::E2BIG);
        }
        for row in table {
            validate_name(&row.name)?;
            match &row.kind {
                RowKind::File(c) if c.len() > self.limits.max_content => return Err(Errno::EFBIG),
                RowKind::Gen(src) => validate_name(src)?,
                _ => {}
            }
            if row.mode.is_some_and(|m| m > MAX_MODE) {
                return Err(Errno::EINVAL);
            }
        }
        let mut names: Vec<&[u8]> = table.iter().map(|r| &r.name[..]).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) {
            return Err(Errno::EEXIST);
        }
        Ok(())
    }

    /// The directories of the longest existing prefix of `components`, and the index of the
    /// first missing component (`ENOTDIR` if the prefix meets a non-directory).
    /// A shared registration resolves among shared entries, and a first missing component
    /// held by a tagged entry is `EEXIST` (§10 step 5a); `register_ns(k)` resolves in view k.
    fn resolve_prefix(
        &self,
        ns: Option<NsId>,
        components: &[&[u8]],
    ) -> Result<(Vec<ArenaIndex>, usize), Errno> {
        let mut cur = ROOT_SLOT;
        let mut existing = Vec::with_capacity(components.len());
        for (i, name) in components.iter().enumerate() {
            let found = match ns {
                None => self.child_tagged(cur, None, name),
                Some(k) => self.child_visible(cur, k, name),
            };
            match found {
                Some(s) if self.dir(s).is_some() => {
                    existing.push(s);
                    cur = s;
                }
                Some(_) => return Err(Errno::ENOTDIR),
                None if ns.is_none() && self.name_taken_by_any(cur, name) => {
                    return Err(Errno::EEXIST)
                }
                None => return Ok((existing, i)),
            }
        }
        Ok((existing, components.len()))
    }

    /// Whether a row name is taken in an existing final directory: by any child for a shared
    /// table, by a child visible in k for `register_ns(k)`.
    fn row_taken(&self, ns: Option<NsId>, dir: ArenaIndex, name: &[u8]) -> bool {
        match ns {
            None => self.name_taken_by_any(dir, name),
            Some(k) => self.child_visible(dir, k, name).is_some(),
        }
    }

    /// Carries out a checked registration: nothing here can fail.
    fn apply_register(
        &mut self,
        ns: Option<NsId>,
        plan: RegisterPlan<'_>,
        table: &[Row],
    ) -> HeaderId {
        let id = self.next_header;
        self.next_header = id + 1;
        let mut dirs = plan.existing;
        let mut cur = plan.target;
        for name in plan.missing {
            cur = self.insert(cur, name, Owner::Implicit, NewBody::Dir, ns);
            dirs.push(cur);
        }
        let rows = table
            .iter()
            .map(|r| {
                let body = match &r.kind {
                    RowKind::File(c) => NewBody::File(c),
                    RowKind::Dir => NewBody::Dir,
                    RowKind::Gen(src) => NewBody::Generated(src),
                };
                let slot = self.insert(cur, &r.name, Owner::Header(id), body, ns);
                if let Some(mode) = r.mode {
                    let a = self.default_attrs(slot);
                    self.set_attrs(slot, Attrs { mode, ..a });
                }
                slot
            })
            .collect();
        for &d in &dirs {
            self.dir_mut(d).hrefs += 1;
        }
        if table.is_empty() {
            self.dir_mut(cur).mounts += 1;
        }
        let target = cur;
        self.headers.insert(
            id,
            Header {
                ns,
                dirs,
                target,
                rows,
            },
        );
        if let Some(k) = ns {
            let n = self.namespaces.get_mut(&k).expect("checked namespace");
            n.headers.insert(id);
        }
        id
    }

    /// [`PseudoFs::readdir`] without allocating: calls `f(name, ino, kind)` for each of up to
    /// `max` children of `dir` with inode `>= pos`, ascending, and returns `next_pos` (the last
    /// visited inode + 1, or `pos` when nothing was visited). The same checks and errors as
    /// `readdir`, made before `f` is first called.
    ///
    /// ```
    /// use pdtree::{PseudoFs, Tree, ROOT_INO};
    /// let mut t = Tree::new();
    /// t.mkdir(b"a").unwrap();
    /// t.create(b"b", b"").unwrap();
    /// let mut names = Vec::new();
    /// let next = t.readdir_each(ROOT_INO, 0, 128, |name, _ino, _kind| names.push(name.to_vec())).unwrap();
    /// assert_eq!(names, [b"a".to_vec(), b"b".to_vec()]);
    /// assert_eq!(next, 4);
    /// assert_eq!(t.readdir_each(ROOT_INO, next, 128, |_, _, _| unreachable!()), Ok(4));
    /// ```
    pub fn readdir_each(
        &self,
        dir: Ino,
        pos: u64,
        max: usize,
        f: impl FnMut(&[u8], Ino, Kind),
    ) -> Result<u64, Errno> {
        self.readdir_each_in(0, dir, pos, max, f)
    }

    /// [`Tree::readdir_each`] in view `view`: the shared children and `view`'s, merged.
    pub fn readdir_each_in(
        &self,
        view: View,
        dir: Ino,
        pos: u64,
        max: usize,
        mut f: impl FnMut(&[u8], Ino, Kind),
    ) -> Result<u64, Errno> {
        if max == 0 || max > self.limits.max_readdir {
            return Err(Errno::EINVAL);
        }
        self.check_view(view)?;
        let d = self
            .slot_of_ino(dir)
            .filter(|&s| self.visible(s, view))
            .ok_or(Errno::ENOENT)?;
        let d = self.dir(d).ok_or(Errno::ENOTDIR)?;
        let mut next = pos;
        for (ino, s) in d.merged_from(Some(view), pos).take(max) {
            let e = self.entry(s);
            f(&e.name, ino, e.body.kind());
            next = ino + 1;
        }
        Ok(next)
    }
}

impl PseudoFs for Tree {
    fn with_limits(limits: Limits) -> Self {
        Tree::with_seed(limits, random_seed())
    }

    fn limits(&self) -> Limits {
        self.limits
    }

    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.create_entry(path, NewBody::Dir)
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        self.create_entry(path, NewBody::File(content))
    }

    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        self.create_entry(path, NewBody::Symlink(target))
    }

    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.create_entry(path, NewBody::Listing)
    }

    fn generated(&mut self, path: &[u8], source: &[u8]) -> Result<Ino, Errno> {
        self.create_entry(path, NewBody::Generated(source))
    }

    fn source_add(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.sources.add(source, item, self.limits.max_content)
    }

    fn source_remove(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.sources.remove(source, item)
    }

    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        let path = Path::parse(dir)?;
        let components: Vec<&[u8]> = path.components().collect();
        let plan = self.plan_register(None, &components, table)?;
        Ok(self.apply_register(None, plan, table))
    }

    fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        let path = Path::parse(dir)?;
        let components: Vec<&[u8]> = path.components().collect();
        let plan = self.plan_register(Some(ns), &components, table)?;
        Ok(self.apply_register(Some(ns), plan, table))
    }

    fn ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
        self.do_ns_create(uid, gid)
    }

    fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno> {
        self.do_ns_destroy(ns)
    }

    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        let h = self.headers.get(&header).ok_or(Errno::ENOENT)?;
        let row_dirs = || h.rows.iter().filter_map(|&s| self.dir(s));
        if row_dirs().any(|d| d.hrefs > 0) {
            return Err(Errno::EBUSY);
        }
        if row_dirs().any(|d| !d.is_empty_all()) {
            return Err(Errno::ENOTEMPTY);
        }
        let h = self.headers.remove(&header).expect("header present");
        if let Some(n) = h.ns.and_then(|k| self.namespaces.get_mut(&k)) {
            n.headers.remove(&header);
        }
        for &row in &h.rows {
            self.unlink(row);
        }
        if h.rows.is_empty() {
            self.dir_mut(h.target).mounts -= 1;
        }
        for &d in h.dirs.iter().rev() {
            self.release_dir(d);
        }
        Ok(())
    }

    fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno> {
        Ok(self.stat_slot(self.resolve_in(view, path)?, Some(view)))
    }

    fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        // The name's syntax comes first among the errors, but a name that is found is a
        // stored one, which passed it when it was made: checked only on the way to an error.
        match self.child_at(view, dir, name) {
            Ok(c) => Ok(self.stat_slot(c, Some(view))),
            Err(e) => {
                validate_name(name)?;
                Err(e)
            }
        }
    }

    fn readdir_in(&self, view: View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        let mut entries = Vec::new();
        let next_pos = self.readdir_each_in(view, dir, pos, max, |name, ino, kind| {
            if entries.is_empty() {
                // Room for a typical page at once, only once a child is known to come.
                entries.reserve(max.min(256));
            }
            entries.push(DirEntry {
                name: name.to_vec(),
                ino,
                kind,
            })
        })?;
        Ok(ReadDirPage { entries, next_pos })
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        let slot = self.resolve_bytes(path)?;
        if slot == ROOT_SLOT {
            return Err(Errno::EBUSY);
        }
        if self.removable(slot)?.is_some_and(|d| !d.is_empty_all()) {
            return Err(Errno::ENOTEMPTY);
        }
        self.unlink(slot);
        Ok(())
    }

    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        let top = self.resolve_bytes(path)?;
        if top == ROOT_SLOT {
            return Err(Errno::EBUSY);
        }
        // Pass 1: collect and check everything, iteratively. Nothing changes yet.
        let mut subtree = vec![top];
        let mut i = 0;
        while i < subtree.len() {
            if let Some(d) = self.removable(subtree[i])? {
                subtree.extend(d.all_children().map(|(_, s)| s));
            }
            i += 1;
        }
        // Pass 2: unlink the top from its parent, then drop every descendant from the
        // indexes. Their own children lists die with them, so no per-child unlink is needed.
        self.unlink(top);
        // Non-directories leave `files_by_ino` together (one merge pass when they are many).
        let (mut files, mut file_inos) = (Vec::new(), Vec::new());
        for &s in &subtree[1..] {
            if self.dir(s).is_some() {
                self.drop_from_indexes(s);
            } else {
                self.drop_from_name_index(s);
                files.push(s);
                file_inos.push(self.entry(s).ino);
            }
        }
        self.files_by_ino.remove_many(&file_inos);
        for s in files {
            self.release(s);
        }
        Ok(subtree.len() as u64)
    }

    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        let slot = self.resolve_bytes(path)?;
        let e = self.entry_mut(slot);
        if e.owner() != Owner::Explicit {
            return Err(Errno::EINVAL);
        }
        // A permanent entry's references are not tracked (§7): references taken by handles
        // opened before now are dropped; `close` knows not to give them back.
        e.owner = OwnerWord::new(Owner::Explicit, true);
        e.open_refs = 0;
        Ok(())
    }

    fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        let slot = self.resolve_in(view, path)?;
        if self.dir(slot).is_some() {
            return Err(Errno::EISDIR);
        }
        if !self.handles.id_left() {
            return Err(Errno::ENOSPC);
        }
        let e = self.entry_mut(slot);
        let took_ref = !e.permanent();
        e.open_refs = e
            .open_refs
            .checked_add(u32::from(took_ref))
            .ok_or(Errno::ENOSPC)?;
        let id = self.handles.take_id();
        self.handles.insert(
            id,
            Handle {
                slot,
                took_ref,
                pos: 0,
                snapshot: None,
            },
        );
        Ok(id)
    }

    fn read(&mut self, handle: HandleId) -> Result<Vec<u8>, Errno> {
        self.read_shared(handle).map(|b| b.to_vec())
    }

    fn read_at(&mut self, handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno> {
        let slot = self.readable(handle)?;
        if len == 0 {
            return Ok(Vec::new());
        }
        let h = self.handles.get_mut(handle).expect("checked handle");
        let snap = match continued(h, offset) {
            Some(s) => s,
            None => self.fresh_content(slot),
        };
        let bytes = slice_of(&snap, offset, len);
        let h = self.handles.get_mut(handle).expect("checked handle");
        h.pos = offset + bytes.len() as u64;
        h.snapshot = Some(snap);
        Ok(bytes)
    }

    fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno> {
        let slot = self.readable(handle)?;
        if self.entry(slot).body.kind() != Kind::File {
            return Err(Errno::EINVAL);
        }
        if content.len() > self.limits.max_content {
            return Err(Errno::EFBIG);
        }
        self.entry_mut(slot).body = Body::File(entry::content(content));
        let h = self.handles.get_mut(handle).expect("checked handle");
        h.pos = 0;
        h.snapshot = None;
        Ok(())
    }

    fn chmod_in(&mut self, view: View, path: &[u8], mode: Mode) -> Result<(), Errno> {
        let path = Path::parse(path)?;
        if mode > MAX_MODE {
            return Err(Errno::EINVAL);
        }
        self.check_view(view)?;
        let slot = self.resolve(view, path)?;
        if self.entry(slot).body.kind() == Kind::Symlink {
            return Err(Errno::EINVAL);
        }
        let a = self.attrs_of(slot);
        self.set_attrs(slot, Attrs { mode, ..a });
        Ok(())
    }

    fn chown_in(&mut self, view: View, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno> {
        let path = Path::parse(path)?;
        if uid == NO_ID || gid == NO_ID {
            return Err(Errno::EINVAL);
        }
        self.check_view(view)?;
        let slot = self.resolve(view, path)?;
        let a = self.attrs_of(slot);
        self.set_attrs(slot, Attrs { uid, gid, ..a });
        Ok(())
    }

    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        let h = self.handles.remove(handle).ok_or(Errno::EBADF)?;
        let e = self.entry_mut(h.slot);
        e.open_refs -= u32::from(h.took_ref && !e.permanent());
        if !e.reachable() && e.open_refs == 0 {
            self.free_slot(h.slot);
        }
        Ok(())
    }

    fn stats(&self) -> Stats {
        Stats {
            live: self.live,
            allocated: self.allocated,
            headers: self.headers.len() as u64,
            handles: self.handles.len(),
        }
    }

    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        check::check(self)
    }

    fn check_invariants_near(&self, dirs: &[Ino]) -> Result<(), InvariantViolation> {
        check::check_near(self, dirs)
    }

    fn dump(&self) -> String {
        dump::dump(self)
    }

    fn fingerprint(&self) -> u64 {
        fingerprint::fingerprint(self)
    }
}
