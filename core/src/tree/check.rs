//! `check_invariants`: every SPEC §8 invariant core can check about itself, recomputed from
//! scratch and compared with the incrementally maintained state. Invariant 8 (atomicity)
//! needs a before/after comparison, which the harness does around each failed operation.

use std::collections::BTreeMap;

use smallvec::{smallvec, SmallVec};

use super::by_path::{path_hash, ROOT_PATH_HASH};
use super::dump::path_of;
use super::entry::Entry;
use super::handles::Handle;
use super::{Body, Dir, Tree, ROOT_SLOT};
use crate::children::Children;
use crate::types::{HandleId, InvariantViolation, Kind, NsId, Owner, MAX_MODE, NO_ID};

/// `violation!(invariant, "format", args...)`: invariant `invariant` is broken, the detail
/// formatted like `format!`'s arguments.
macro_rules! violation {
    ($invariant:expr, $($detail:tt)+) => {
        InvariantViolation { invariant: $invariant, detail: format!($($detail)+) }
    };
}

/// `ensure!(cond, invariant, "format", args...)`: unless `cond` holds, returns that
/// `violation!` (its detail formatted only then).
macro_rules! ensure {
    ($cond:expr, $invariant:expr, $($detail:tt)+) => {
        if !$cond {
            return Err(violation!($invariant, $($detail)+));
        }
    };
}

/// Arena slots whose reachability marks fit on the call stack (one byte each).
const INLINE_SLOTS: usize = 1024;
/// Reachable entries whose walk stack fits on the call stack.
const INLINE_STACK: usize = 128;

/// What the walk of the reachable tree found, for the checks that follow it.
struct Walk {
    /// Per arena slot: reached from the root.
    reachable: SmallVec<[bool; INLINE_SLOTS]>,
    /// Entries reached.
    live: u64,
    /// Directories with a non-zero header refcount, and that count.
    hrefs: BTreeMap<u32, u64>,
    /// Directories with a non-zero mount count, and that count.
    mounts: BTreeMap<u32, u64>,
}

impl Walk {
    fn is_reachable(&self, slot: u32) -> bool {
        self.reachable.get(slot as usize).copied().unwrap_or(false)
    }
}

pub(super) fn check(t: &Tree) -> Result<(), InvariantViolation> {
    let walk = walk(t)?;
    // One copy of the handle table for both checks that read it (it locks every shard).
    let handles = t.handles.all();
    check_leaks(t, &walk, &handles)?;
    check_indexes(t, &walk)?;
    check_headers(t, &walk)?;
    check_namespaces(t, &walk)?;
    check_sources(t)?;
    check_handles(t, &handles)?;
    check_attrs(t)
}

/// Invariants 9 and 10: namespaces live and counted below `next_ns`, 0 among them; a header's
/// rows carry its tag and its namespace lists it; every reachable entry tagged k ≥ 1 is a row
/// of a live header of k or an implicit directory a header holds, and never permanent.
fn check_namespaces(t: &Tree, w: &Walk) -> Result<(), InvariantViolation> {
    ensure!(t.namespaces.contains_key(&0), 9, "namespace 0 is not live");
    if let Some((&last, _)) = t.namespaces.last_key_value() {
        ensure!(
            last < t.next_ns,
            9,
            "ns {last} is not below next_ns {}",
            t.next_ns
        );
    }
    for (id, h) in &t.headers {
        if let Some(k) = h.ns {
            let listed = t.namespaces.get(&k).is_some_and(|n| n.headers.contains(id));
            ensure!(
                listed,
                9,
                "header {id} of ns {k}: the namespace does not list it"
            );
        }
        for &r in &h.rows {
            ensure!(
                t.tag_of(r) == h.ns,
                9,
                "header {id}: a row not tagged {:?}",
                h.ns
            );
        }
    }
    for (k, n) in &t.namespaces {
        for id in &n.headers {
            let ok = t.headers.get(id).is_some_and(|h| h.ns == Some(*k));
            ensure!(
                ok,
                9,
                "ns {k} lists header {id}, not a live header of its own"
            );
        }
    }
    for (&slot, &k) in &t.tags {
        let e = entry(t, slot).ok_or_else(|| violation!(9, "a tag on free slot {slot}"))?;
        if k == 0 || !w.is_reachable(slot) {
            continue;
        }
        let governed = match e.owner() {
            Owner::Header(h) => t.headers.get(&h).is_some_and(|h| h.ns == Some(k)),
            Owner::Implicit => w.hrefs.contains_key(&slot),
            Owner::Explicit => false,
        };
        ensure!(
            governed && !e.permanent(),
            10,
            "{}: tagged {k} but not a row or held implicit directory of it",
            path_of(t, slot)
        );
    }
    Ok(())
}

/// Invariant 11: a valid cache equals a fresh rendering, builds ≤ generation + 1, every
/// rendering within `max_content`, the kept length right, every Generated's source there.
fn check_sources(t: &Tree) -> Result<(), InvariantViolation> {
    check_source_list(t)?;
    t.entries
        .iter()
        .flatten()
        .try_for_each(|e| check_source_of(t, e))
}

/// Invariant 11 for a Generated entry: its source exists.
fn check_source_of(t: &Tree, e: &Entry) -> Result<(), InvariantViolation> {
    if let Body::Generated(src) = e.body {
        ensure!(
            (src as usize) < t.sources.list.len(),
            11,
            "ino {}: generated from a missing source",
            e.ino
        );
    }
    Ok(())
}

/// Invariant 11 for the sources themselves (not the entries that render them).
fn check_source_list(t: &Tree) -> Result<(), InvariantViolation> {
    for s in &t.sources.list {
        let name = String::from_utf8_lossy(&s.name);
        let fresh = s.render();
        ensure!(
            s.len == fresh.len() as u64,
            11,
            "source {name}: kept length {}, rendering {}",
            s.len,
            fresh.len()
        );
        ensure!(
            fresh.len() <= t.limits.max_content,
            11,
            "source {name}: rendering of {} bytes over max_content",
            fresh.len()
        );
        ensure!(
            s.cache.as_deref().is_none_or(|c| *c == *fresh),
            11,
            "source {name}: valid cache differs from a fresh rendering"
        );
        ensure!(
            s.builds <= s.generation + 1,
            11,
            "source {name}: {} builds at generation {}",
            s.builds,
            s.generation
        );
        ensure!(
            t.sources
                .get(&s.name)
                .is_some_and(|id| std::ptr::eq(t.sources.source(id), s)),
            11,
            "source {name}: not found by its name"
        );
    }
    Ok(())
}

/// Invariant 12: a handle with no snapshot is at position 0.
fn check_handles(t: &Tree, all: &[(HandleId, Handle)]) -> Result<(), InvariantViolation> {
    // Invariant 3's counters agree: the kept count of handles is the table's.
    ensure!(
        t.handles.len() == all.len() as u64,
        3,
        "handle count {} for {} handles",
        t.handles.len(),
        all.len()
    );
    for (id, h) in all {
        ensure!(
            h.snapshot.is_some() || h.pos == 0,
            12,
            "handle {id}: position {} without a snapshot",
            h.pos
        );
    }
    Ok(())
}

/// Invariant 13: modes within 0o777, symlinks 0777, no id 4,294,967,295; and the side table
/// holds only allocated slots with non-default values.
fn check_attrs(t: &Tree) -> Result<(), InvariantViolation> {
    for &slot in t.attrs.keys() {
        check_attrs_of(t, slot)?;
    }
    Ok(())
}

/// Invariant 13 for one slot's side-table entry, if it has one.
fn check_attrs_of(t: &Tree, slot: u32) -> Result<(), InvariantViolation> {
    if let Some(a) = t.attrs.get(&slot) {
        let e = entry(t, slot).ok_or_else(|| violation!(13, "attributes of free slot {slot}"))?;
        let kind = e.body.kind();
        ensure!(
            a.mode <= MAX_MODE && (kind != Kind::Symlink || a.mode == 0o777),
            13,
            "ino {}: mode {:o} on a {}",
            e.ino,
            a.mode,
            kind.word()
        );
        ensure!(
            a.uid != NO_ID && a.gid != NO_ID,
            13,
            "ino {}: owner {}:{}",
            e.ino,
            a.uid,
            a.gid
        );
        // A removed entry still open may keep its namespace's owner after the namespace went.
        ensure!(
            !e.reachable() || *a != t.default_attrs(slot),
            13,
            "ino {}: default attributes kept in the side table",
            e.ino
        );
    }
    Ok(())
}

fn entry(t: &Tree, slot: u32) -> Option<&Entry> {
    t.entries.get(slot as usize).and_then(|e| e.as_ref())
}

/// Walks the reachable tree iteratively, checking each directory as it goes (invariants 1,
/// 2, 3's "linked means marked reachable", 4's name index, 7). The walk's scratch space lives
/// on the call stack for trees of up to `INLINE_SLOTS` slots and `INLINE_STACK` reachable
/// entries, and is otherwise allocated once, at its full size: this runs after every op of a
/// differential run, where the trees are small and every allocation costs a stack trace under
/// AddressSanitizer.
fn walk(t: &Tree) -> Result<Walk, InvariantViolation> {
    let mut w = Walk {
        reachable: smallvec![false; t.entries.len()],
        live: 0,
        hrefs: BTreeMap::new(),
        mounts: BTreeMap::new(),
    };
    let mut stack: SmallVec<[u32; INLINE_STACK]> = SmallVec::with_capacity(t.live as usize);
    stack.push(ROOT_SLOT);
    while let Some(slot) = stack.pop() {
        let e = entry(t, slot).ok_or_else(|| violation!(3, "slot {slot} is reachable but free"))?;
        ensure!(
            !w.reachable[slot as usize],
            1,
            "slot {slot} (ino {}) reached twice",
            e.ino
        );
        w.reachable[slot as usize] = true;
        w.live += 1;
        ensure!(
            e.reachable(),
            3,
            "ino {} is linked but marked removed",
            e.ino
        );
        if let Body::Dir(d) = &e.body {
            check_dir(t, slot, d, &mut stack)?;
            if d.hrefs > 0 {
                w.hrefs.insert(slot, d.hrefs);
            }
            if d.mounts > 0 {
                w.mounts.insert(slot, d.mounts);
            }
        }
    }
    Ok(w)
}

/// One directory: its children (pushed for the walk) and its derived counters.
fn check_dir(
    t: &Tree,
    slot: u32,
    d: &Dir,
    stack: &mut SmallVec<[u32; INLINE_STACK]>,
) -> Result<(), InvariantViolation> {
    let path = || path_of(t, slot);
    let sets = std::iter::once((None, &d.children, d.subdirs, d.name_bytes)).chain(
        d.tagged_iter()
            .map(|(k, s)| (Some(k), &s.children, s.subdirs, s.name_bytes)),
    );
    for (tag, children, want_subdirs, want_bytes) in sets {
        if let Some(k) = tag {
            ensure!(!children.is_empty(), 1, "{}: empty set of ns {k}", path());
            let parent_tag = t.tag_of(slot);
            ensure!(
                parent_tag.is_none_or(|p| p == k),
                9,
                "{}: a child tagged {k} in a directory tagged {parent_tag:?}",
                path()
            );
        }
        children
            .check()
            .map_err(|msg| violation!(1, "{}: {msg}", path()))?;
        let (mut subdirs, mut name_bytes) = (0u64, 0u64);
        for (ino, child) in children.iter() {
            let c = check_child(t, slot, tag, children, ino, child)?;
            subdirs += u64::from(matches!(c.body, Body::Dir(_)));
            name_bytes += c.name.len() as u64;
            stack.push(child);
        }
        ensure!(
            subdirs == want_subdirs,
            2,
            "{}: nlink {} (tag {tag:?}), counted {}",
            path(),
            2 + want_subdirs,
            2 + subdirs
        );
        ensure!(
            name_bytes == want_bytes,
            7,
            "{}: listing size counter says {want_bytes} name bytes (tag {tag:?}), counted {name_bytes}",
            path()
        );
    }
    if let Some((generation, text)) = &d.listing_cache {
        ensure!(
            *generation != d.generation || **text == *t.render(slot),
            7,
            "{}: cached listing is stale",
            path()
        );
    }
    Ok(())
}

/// One child of directory `slot`: allocated, linked back, and found by its name.
fn check_child<'t>(
    t: &'t Tree,
    slot: u32,
    tag: Option<NsId>,
    set: &Children,
    ino: u64,
    child: u32,
) -> Result<&'t Entry, InvariantViolation> {
    let path = || path_of(t, slot);
    let c =
        entry(t, child).ok_or_else(|| violation!(3, "{}: child slot {child} is free", path()))?;
    ensure!(
        c.ino == ino && c.parent == slot,
        1,
        "{}: child ino {ino} points at ino {} under slot {}",
        path(),
        c.ino,
        c.parent
    );
    ensure!(
        t.tag_of(child) == tag,
        4,
        "{}: ino {ino} is in the set of tag {tag:?} but tagged {:?}",
        path(),
        t.tag_of(child)
    );
    if let Some(k) = tag {
        ensure!(
            t.namespaces.contains_key(&k),
            9,
            "ino {ino} is tagged with ns {k}, which is not live"
        );
        ensure!(
            t.child_tagged(slot, None, &c.name).is_none(),
            1,
            "{}: name {:?} held by a shared child and one of ns {k}",
            path(),
            String::from_utf8_lossy(&c.name)
        );
    }
    // 1 (names unique per tag) and 4 (the name index finds every reachable entry) at once,
    // without a set of names: the index answers one slot per (parent, tag, name), so of two
    // children of one set with one name at most one can be the answer.
    if t.child_tagged(slot, tag, &c.name) != Some(child) {
        let twin = set
            .iter()
            .any(|(_, s)| s != child && entry(t, s).is_some_and(|o| *o.name == *c.name));
        ensure!(
            !twin,
            1,
            "{}: name {:?} twice",
            path(),
            String::from_utf8_lossy(&c.name)
        );
        return Err(violation!(4, "{} not found by name", path_of(t, child)));
    }
    Ok(c)
}

/// Invariant 3, no leak: every occupied slot is reachable or held open; counters agree.
/// Invariant 6: permanent entries stay reachable.
fn check_leaks(
    t: &Tree,
    w: &Walk,
    handles: &[(HandleId, Handle)],
) -> Result<(), InvariantViolation> {
    let refs = handle_refs(t, handles)?;
    let mut allocated = 0u64;
    for (slot, e) in t.entries.iter().enumerate() {
        let Some(e) = e else { continue };
        allocated += 1;
        let held = refs.get(&(slot as u32)).copied().unwrap_or(0);
        check_slot_held(e, held, w.reachable[slot])?;
    }
    ensure!(
        w.live == t.live && allocated == t.allocated,
        3,
        "counters say live={} allocated={}, counted live={} allocated={allocated}",
        t.live,
        t.allocated,
        w.live
    );
    ensure!(
        t.entries.len() - t.free.len() == allocated as usize,
        3,
        "{} free slots for {} allocated of {}",
        t.free.len(),
        allocated,
        t.entries.len()
    );
    Ok(())
}

/// Per slot, the references its handles hold (a handle on a permanent entry holds none).
fn handle_refs(
    t: &Tree,
    handles: &[(HandleId, Handle)],
) -> Result<BTreeMap<u32, u64>, InvariantViolation> {
    let mut refs: BTreeMap<u32, u64> = BTreeMap::new();
    for (_, h) in handles {
        let e = entry(t, h.slot)
            .ok_or_else(|| violation!(3, "a handle points at free slot {}", h.slot))?;
        *refs.entry(h.slot).or_default() += u64::from(h.took_ref && !e.permanent());
    }
    Ok(refs)
}

/// One allocated entry: its open count is what the handles hold; if unreachable, it is
/// marked removed, not permanent, and still held open.
fn check_slot_held(e: &Entry, held: u64, reachable: bool) -> Result<(), InvariantViolation> {
    ensure!(
        u64::from(e.open_refs) == held,
        3,
        "ino {}: open_refs {}, handles hold {held}",
        e.ino,
        e.open_refs
    );
    // 6 is checked before the leak rules below, which an unreachable permanent entry would
    // otherwise trip first.
    ensure!(
        !e.permanent() || reachable,
        6,
        "permanent ino {} is not reachable",
        e.ino
    );
    if !reachable {
        ensure!(
            !e.reachable(),
            3,
            "ino {} is marked reachable but is not linked",
            e.ino
        );
        ensure!(
            e.open_refs != 0,
            3,
            "ino {} is removed, unreferenced and still allocated",
            e.ino
        );
    }
    Ok(())
}

/// Invariant 4, index agreement: the indexes hold exactly the reachable set, each entry in
/// the inode index of its kind (found by name: checked for every reachable child during the
/// walk).
fn check_indexes(t: &Tree, w: &Walk) -> Result<(), InvariantViolation> {
    let live = w.live;
    let ino_indexed = t.dirs_by_ino.len() as u64 + t.files_by_ino.len() as u64;
    check_path_index_totals(t)?;
    ensure!(
        t.by_name.len() as u64 == live - 1 && ino_indexed == live,
        4,
        "by_name holds {}, dirs_by_ino {} + files_by_ino {}, reachable {live}",
        t.by_name.len(),
        t.dirs_by_ino.len(),
        t.files_by_ino.len()
    );
    t.files_by_ino
        .check()
        .map_err(|msg| violation!(4, "files_by_ino: {msg}"))?;
    for (slot, e) in t.entries.iter().enumerate() {
        if let Some(e) = e.as_ref().filter(|_| w.reachable[slot]) {
            check_ino_indexed(t, e, slot as u32)?;
        }
    }
    for &s in t.by_name.iter() {
        ensure!(w.is_reachable(s), 4, "by_name holds unreachable slot {s}");
    }
    let files = t.files_by_ino.iter().map(|(_, s)| s);
    for s in t.dirs_by_ino.iter().copied().chain(files) {
        ensure!(
            w.is_reachable(s),
            4,
            "an inode index holds unreachable slot {s}"
        );
    }
    Ok(())
}

/// A reachable entry is found by its inode, in the index of its kind only.
fn check_ino_indexed(t: &Tree, e: &Entry, slot: u32) -> Result<(), InvariantViolation> {
    // Both inode indexes, looked up once each (`slot_of_ino` is the first hit of the two),
    // the file index as the fast path answers it. A reachable file wrongly noted as removed
    // is still its candidate, so it passes here; the count above is then one short.
    let (as_dir, as_file) = (t.dir_slot_of_ino(e.ino), t.file_slot_of_ino(e.ino));
    ensure!(
        as_dir.or(as_file) == Some(slot),
        4,
        "ino {} not found by inode",
        e.ino
    );
    let is_dir = matches!(e.body, Body::Dir(_));
    ensure!(
        as_dir.is_some() == is_dir && as_file.is_some() != is_dir,
        4,
        "ino {} is in the wrong inode index",
        e.ino
    );
    match &e.body {
        Body::Dir(d) if slot != ROOT_SLOT => check_path_indexed(t, e, d, slot),
        _ => Ok(()),
    }
}

/// A reachable directory other than the root is in the path index under the hash chained
/// from its parent's stored one (so a whole check, which sees every directory, proves every
/// chain back to the root's), and its path finds it there.
fn check_path_indexed(t: &Tree, e: &Entry, d: &Dir, slot: u32) -> Result<(), InvariantViolation> {
    let up = t.dir(e.parent).map(|p| p.path_hash);
    let want = up.map(|h| path_hash(&t.name_keys, h, &e.name));
    ensure!(
        want == Some(d.path_hash),
        4,
        "ino {}: stored path hash {:#x}, its parent's chain gives {want:x?}",
        e.ino,
        d.path_hash
    );
    let indexed = t.dirs_by_path.find(d.path_hash, |&s| s == slot).is_some();
    ensure!(indexed, 4, "ino {} is not in the path index", e.ino);
    Ok(())
}

/// Invariant 5: header refcounts and mount counts, recounted from the live headers; every row
/// owned by its header; every implicit directory held by a header.
fn check_headers(t: &Tree, w: &Walk) -> Result<(), InvariantViolation> {
    let mut want_hrefs: BTreeMap<u32, u64> = BTreeMap::new();
    let mut want_mounts: BTreeMap<u32, u64> = BTreeMap::new();
    for (id, h) in &t.headers {
        for &d in &h.dirs {
            *want_hrefs.entry(d).or_default() += 1;
        }
        if h.rows.is_empty() {
            *want_mounts.entry(h.target).or_default() += 1;
        }
        for &r in &h.rows {
            let owned = w.is_reachable(r) && t.entry(r).owner() == Owner::Header(*id);
            ensure!(owned, 5, "header {id}: a row is gone or owned by another");
        }
    }
    ensure!(
        want_hrefs == w.hrefs,
        5,
        "{}",
        hrefs_mismatch(t, &want_hrefs, &w.hrefs)
    );
    ensure!(
        want_mounts == w.mounts,
        5,
        "mount-point counts disagree with the live empty-table headers"
    );
    for (slot, e) in t.entries.iter().enumerate() {
        if let Some(e) = e.as_ref().filter(|_| w.reachable[slot]) {
            let headed = e.owner() != Owner::Implicit || w.hrefs.contains_key(&(slot as u32));
            ensure!(
                headed,
                5,
                "{}: implicit directory with no header",
                path_of(t, slot as u32)
            );
        }
    }
    Ok(())
}

/// The checks of [`check`] about directories `dirs` (inode numbers; one that is not a live
/// directory is skipped) and their children, plus the tree-wide ones that cost no walk of the
/// tree: invariant 1, 2, 4 and 7 for each directory as the walk checks it; 3, 4 and 13 for
/// each child (open count, inode index, attributes); 3's counters, 11 over the sources and 12
/// over the handle table. Cost: the children of `dirs`, plus the open handles, plus one
/// rendering of each source.
pub(super) fn check_near(t: &Tree, dirs: &[u64]) -> Result<(), InvariantViolation> {
    check_counters(t)?;
    check_source_list(t)?;
    let handles = t.handles.all();
    check_handles(t, &handles)?;
    let refs = handle_refs(t, &handles)?;
    let mut stack: SmallVec<[u32; INLINE_STACK]> = SmallVec::new();
    for &ino in dirs {
        let Some(slot) = t.dir_slot_of_ino(ino) else {
            continue;
        };
        let e = entry(t, slot).ok_or_else(|| violation!(4, "ino {ino}: indexed at a free slot"))?;
        let Body::Dir(d) = &e.body else {
            return Err(violation!(4, "ino {ino} is in the wrong inode index"));
        };
        ensure!(e.reachable(), 4, "ino {ino}: indexed but removed");
        stack.clear();
        check_dir(t, slot, d, &mut stack)?;
        for &child in stack.iter() {
            let c = t.entry(child);
            check_slot_held(c, refs.get(&child).copied().unwrap_or(0), true)?;
            check_ino_indexed(t, c, child)?;
            check_attrs_of(t, child)?;
            check_source_of(t, c)?;
        }
    }
    Ok(())
}

/// Invariants 3 and 4, the counters only: as many index entries and occupied slots as the
/// kept counts say.
fn check_counters(t: &Tree) -> Result<(), InvariantViolation> {
    let ino_indexed = t.dirs_by_ino.len() as u64 + t.files_by_ino.len() as u64;
    check_path_index_totals(t)?;
    ensure!(
        t.by_name.len() as u64 + 1 == t.live && ino_indexed == t.live,
        4,
        "by_name holds {}, dirs_by_ino {} + files_by_ino {}, live counter {}",
        t.by_name.len(),
        t.dirs_by_ino.len(),
        t.files_by_ino.len(),
        t.live
    );
    ensure!(
        t.entries.len() - t.free.len() == t.allocated as usize,
        3,
        "{} free slots for {} allocated of {}",
        t.free.len(),
        t.allocated,
        t.entries.len()
    );
    Ok(())
}

/// Invariant 4: the root's path hash starts every chain, and the path index holds as many
/// directories as the inode index, less the root. With every reachable directory found in
/// it (`check_path_indexed`), that leaves no room for a stray slot, so its slots need no
/// check of their own.
fn check_path_index_totals(t: &Tree) -> Result<(), InvariantViolation> {
    let root = t.dir(ROOT_SLOT).map(|d| d.path_hash);
    ensure!(
        root == Some(ROOT_PATH_HASH),
        4,
        "the root's path hash is {root:x?}, not {ROOT_PATH_HASH:#x}"
    );
    ensure!(
        t.dirs_by_path.len() + 1 == t.dirs_by_ino.len(),
        4,
        "dirs_by_path holds {}, dirs_by_ino {} (the root included)",
        t.dirs_by_path.len(),
        t.dirs_by_ino.len()
    );
    Ok(())
}

/// The detail of an hrefs mismatch: the first directory whose count differs from what the
/// live headers explain (0 for a count no live header explains).
fn hrefs_mismatch(t: &Tree, want: &BTreeMap<u32, u64>, have: &BTreeMap<u32, u64>) -> String {
    let differs = |s: &u32| want.get(s) != have.get(s);
    let slot = want
        .keys()
        .find(|s| differs(s))
        .or_else(|| have.keys().find(|s| differs(s)))
        .copied()
        .unwrap_or(0);
    format!(
        "{}: hrefs {}, expected {} from the live headers",
        path_of(t, slot),
        have.get(&slot).copied().unwrap_or(0),
        want.get(&slot).copied().unwrap_or(0)
    )
}

/// A way for other modules' tests to break a tree on purpose: the tree's fields are private
/// to it, and a wrapper's checks (such as `SharedTree`'s) need a corrupted copy to fail on.
#[cfg(test)]
impl Tree {
    /// Miscounts the subdirectories of the directory at `path` by one (invariant 2).
    pub(crate) fn miscount_subdirs(&mut self, path: &[u8]) {
        let s = self.resolve_bytes(path).expect("the directory exists");
        self.dir_mut(s).subdirs += 1;
    }
}

/// Each test builds a healthy tree that exercises every kind of state `check` looks at, breaks
/// one piece of internal state and asserts that `check` reports the right invariant. (The
/// differential and transcript tests only ever see healthy trees, so without these a `check`
/// that accepts everything would pass them all.)
#[cfg(test)]
mod tests {
    use super::super::entry::{Name, OwnerWord, UNLINKED};
    use super::super::file_index::FileIndex;
    use super::super::{ino_hash, name_hash, name_rehasher, ArenaIndex};
    use super::*;
    use crate::spec::PseudoFs;
    use crate::types::Row;
    use std::sync::Arc;

    /// `/a/f` (open), `/a/sub`, `/a/ls` (a listing, read so its cache is filled, then made
    /// stale), `/r/s/{x,y}` (header rows under implicit `/r`, `/r/s`), `/m` (an empty-table
    /// mount point), `/pf` (opened, then made permanent), `/gone` (removed while open) and
    /// a freed slot.
    fn fixture() -> Tree {
        let mut t = Tree::new();
        t.mkdir(b"/a").unwrap();
        t.create(b"/a/f", b"hello").unwrap();
        t.mkdir(b"/a/sub").unwrap();
        t.listing(b"/a/ls").unwrap();
        let h = t.open(b"/a/ls").unwrap();
        assert!(!t.read(h).unwrap().is_empty());
        t.close(h).unwrap();
        t.create(b"/a/later", b"").unwrap(); // the cached listing is now an old generation
        t.open(b"/a/f").unwrap();
        t.register(b"/r/s", &[Row::file("x", "1"), Row::dir("y")])
            .unwrap();
        t.mkdir(b"/m").unwrap();
        t.register(b"/m", &[]).unwrap();
        t.create(b"/pf", b"p").unwrap();
        t.open(b"/pf").unwrap();
        t.mark_permanent(b"/pf").unwrap();
        t.create(b"/gone", b"g").unwrap();
        t.open(b"/gone").unwrap();
        t.remove(b"/gone").unwrap();
        t.create(b"/tmp", b"").unwrap();
        t.remove(b"/tmp").unwrap();
        assert!(!t.free.is_empty());
        assert_eq!(check(&t), Ok(()));
        t
    }

    fn slot(t: &Tree, path: &[u8]) -> ArenaIndex {
        t.resolve_bytes(path).unwrap()
    }

    fn dir_mut<'a>(t: &'a mut Tree, path: &[u8]) -> &'a mut super::super::Dir {
        let s = slot(t, path);
        t.dir_mut(s)
    }

    #[track_caller]
    /// The fixture's entry that was removed while a handle held it open.
    fn removed_but_open(t: &Tree) -> ArenaIndex {
        (0..t.entries.len() as u32)
            .find(|&s| {
                t.entries[s as usize]
                    .as_ref()
                    .is_some_and(|e| !e.reachable())
            })
            .expect("the fixture holds a removed-but-open entry")
    }

    /// Through the public trait method, so a `check_invariants` that skips `check` fails too.
    fn broken_as(t: &Tree, invariant: u8) -> String {
        match crate::PseudoFs::check_invariants(t) {
            Ok(()) => panic!("check passed, expected invariant {invariant}"),
            Err(v) => {
                assert_eq!(v.invariant, invariant, "{v}");
                v.detail
            }
        }
    }

    #[test]
    fn healthy_fixture_passes() {
        let t = fixture();
        // The fixture really holds the states the checks below distinguish.
        let gone = t.entries.iter().flatten().find(|e| !e.reachable()).unwrap();
        assert_eq!(gone.open_refs, 1);
        assert!(t.entry(slot(&t, b"/pf")).permanent());
        let a = t.dir(slot(&t, b"/a")).unwrap();
        assert!(matches!(&a.listing_cache, Some((g, _)) if *g != a.generation));
        assert_eq!(t.entry(slot(&t, b"/r")).owner(), Owner::Implicit);
    }

    #[test]
    fn child_with_a_wrong_inode_is_invariant_1() {
        let mut t = fixture();
        let f = slot(&t, b"/a/f");
        t.entry_mut(f).ino += 1000;
        broken_as(&t, 1);
    }

    #[test]
    fn child_with_a_wrong_parent_is_invariant_1() {
        let mut t = fixture();
        let (f, m) = (slot(&t, b"/a/f"), slot(&t, b"/m"));
        t.entry_mut(f).parent = m;
        broken_as(&t, 1);
    }

    #[test]
    fn a_name_twice_in_one_directory_is_invariant_1() {
        let mut t = fixture();
        let sub = slot(&t, b"/a/sub");
        t.entry_mut(sub).name = Name::new(b"f");
        assert!(broken_as(&t, 1).contains("twice"));
    }

    #[test]
    fn a_slot_reached_twice_is_invariant_1() {
        let mut t = fixture();
        let f = slot(&t, b"/a/f");
        let ino = t.entry(f).ino;
        // /m lists /a/f as well (same inode and slot, so only the double visit is wrong).
        dir_mut(&mut t, b"/m").children.push(ino, f);
        // The parent check fires first for /m or the double visit for /a: both are 1.
        broken_as(&t, 1);
    }

    #[test]
    fn a_wrong_subdirectory_count_is_invariant_2() {
        let mut t = fixture();
        t.miscount_subdirs(b"/a");
        broken_as(&t, 2);
    }

    /// `check_near` finds what breaks in the directories it is given and their children, and
    /// only there: the rest waits for the full check.
    #[test]
    fn the_near_check_covers_the_named_directories_and_their_children() {
        let near = |t: &Tree, dirs: &[&[u8]]| {
            let inos: Vec<u64> = dirs.iter().map(|p| t.entry(slot(t, p)).ino).collect();
            crate::PseudoFs::check_invariants_near(t, &inos)
        };
        let healthy = fixture();
        assert_eq!(near(&healthy, &[b"/a", b"/r/s", b"/m"]), Ok(()));
        let mut t = fixture();
        t.miscount_subdirs(b"/a");
        assert_eq!(near(&t, &[b"/a"]).map_err(|v| v.invariant), Err(2));
        assert_eq!(near(&t, &[b"/m"]), Ok(()), "outside the scope");
        let mut t = fixture();
        let f = slot(&t, b"/a/f");
        t.entry_mut(f).open_refs += 1;
        assert_eq!(
            near(&t, &[b"/a"]).map_err(|v| v.invariant),
            Err(3),
            "a child's count"
        );
        let mut t = fixture();
        t.live += 1;
        assert_eq!(
            near(&t, &[]).map_err(|v| v.invariant),
            Err(4),
            "the counters, always"
        );
    }

    #[test]
    fn a_wrong_name_byte_count_is_invariant_7() {
        let mut t = fixture();
        dir_mut(&mut t, b"/a").name_bytes += 1;
        broken_as(&t, 7);
    }

    #[test]
    fn a_stale_cached_listing_at_the_current_generation_is_invariant_7() {
        let mut t = fixture();
        let d = dir_mut(&mut t, b"/a");
        d.listing_cache = Some((d.generation, Arc::from(&b"f\tnot-there\n"[..])));
        assert!(broken_as(&t, 7).contains("stale"));
    }

    #[test]
    fn a_reachable_entry_marked_removed_is_invariant_3() {
        let mut t = fixture();
        let f = slot(&t, b"/a/f");
        // Unlink /a/f's entry but leave it listed: the parent check (1) fires when /a is
        // walked, whichever of the two the walk meets first it is never Ok.
        t.entry_mut(f).parent = UNLINKED;
        let d = check(&t).unwrap_err();
        assert!(matches!(d.invariant, 1 | 3), "{d}");
    }

    #[test]
    fn a_wrong_open_count_is_invariant_3() {
        let mut t = fixture();
        let f = slot(&t, b"/a/f");
        t.entry_mut(f).open_refs += 1;
        assert!(broken_as(&t, 3).contains("open_refs"));
    }

    #[test]
    fn a_removed_entry_nobody_holds_is_invariant_3() {
        let mut t = fixture();
        let gone = removed_but_open(&t);
        t.handles.retain(|h| h.slot != gone);
        t.entry_mut(gone).open_refs = 0;
        assert!(broken_as(&t, 3).contains("unreferenced"));
    }

    #[test]
    fn an_unreachable_permanent_entry_is_invariant_6() {
        let mut t = fixture();
        let gone = removed_but_open(&t);
        let e = t.entry_mut(gone);
        e.owner = super::super::entry::OwnerWord::new(crate::types::Owner::Explicit, true);
        e.open_refs = 0;
        assert!(broken_as(&t, 6).contains("permanent"));
    }

    #[test]
    fn an_unlinked_entry_still_marked_reachable_is_invariant_3() {
        let mut t = fixture();
        let gone = removed_but_open(&t);
        t.entry_mut(gone).parent = ROOT_SLOT;
        assert!(broken_as(&t, 3).contains("marked reachable"));
    }

    #[test]
    fn a_handle_reference_on_a_permanent_entry_does_not_count() {
        // /pf was opened (took_ref) before it was made permanent: that reference is not held.
        let mut t = fixture();
        let pf = slot(&t, b"/pf");
        assert!(t
            .handles
            .all()
            .iter()
            .any(|(_, h)| h.slot == pf && h.took_ref));
        t.entry_mut(pf).open_refs = 1;
        broken_as(&t, 3);
    }

    #[test]
    fn wrong_live_counter_is_invariant_3() {
        let mut t = fixture();
        t.live += 1;
        assert!(broken_as(&t, 3).contains("counters"));
    }

    #[test]
    fn wrong_allocated_counter_is_invariant_3() {
        let mut t = fixture();
        t.allocated += 1;
        assert!(broken_as(&t, 3).contains("counters"));
    }

    #[test]
    fn a_wrong_free_list_is_invariant_3() {
        let mut t = fixture();
        t.free.pop();
        assert!(broken_as(&t, 3).contains("free slots"));
    }

    #[test]
    fn a_slot_missing_from_by_name_is_invariant_4() {
        let mut t = fixture();
        let f = slot(&t, b"/a/f");
        let a = slot(&t, b"/a");
        let h = name_hash(&t.name_keys, a, None, b"f");
        t.by_name.find_entry(h, |&s| s == f).unwrap().remove();
        broken_as(&t, 4);
    }

    #[test]
    fn a_slot_missing_from_the_file_index_is_invariant_4() {
        let mut t = fixture();
        let ino = t.entry(slot(&t, b"/a/f")).ino;
        t.files_by_ino.remove(ino);
        broken_as(&t, 4);
    }

    #[test]
    fn a_file_filed_as_a_directory_is_invariant_4() {
        // Same counts, wrong index: /a/f moves from files_by_ino to dirs_by_ino.
        let mut t = fixture();
        let f = slot(&t, b"/a/f");
        let ino = t.entry(f).ino;
        t.files_by_ino.remove(ino);
        let entries = &t.entries;
        t.dirs_by_ino.insert_unique(ino_hash(ino), f, |&s| {
            ino_hash(entries[s as usize].as_ref().unwrap().ino)
        });
        t.dirs_by_path.insert_unique(1, f, |_| 1); // the path index's count agrees too
        assert!(broken_as(&t, 4).contains("wrong inode index"));
    }

    #[test]
    fn a_directory_also_filed_as_a_file_is_invariant_4() {
        // /a/sub is in dirs_by_ino and (wrongly) files_by_ino; /a/f is in neither: the counts
        // agree, only the per-entry check sees it.
        let mut t = fixture();
        let (f, sub) = (slot(&t, b"/a/f"), slot(&t, b"/a/sub"));
        let (fino, subino) = (t.entry(f).ino, t.entry(sub).ino);
        t.files_by_ino.remove(fino);
        let mut all: Vec<(u64, u32)> = t.files_by_ino.iter().collect();
        all.push((subino, sub));
        all.sort();
        t.files_by_ino = FileIndex::from_pairs(all);
        broken_as(&t, 4);
    }

    #[test]
    fn an_entry_indexed_under_a_wrong_name_is_invariant_4() {
        // The walk sees a consistent tree; only the name index is off.
        let mut t = fixture();
        let sub = slot(&t, b"/a/sub");
        let a = slot(&t, b"/a");
        t.by_name
            .find_entry(name_hash(&t.name_keys, a, None, b"sub"), |&s| s == sub)
            .unwrap()
            .remove();
        // The name key is random per tree, so a fixed wrong name would share the top 7 bits
        // of "sub"'s hash (hashbrown's control byte) about once in 128 runs, and a lookup of
        // "sub" would still land on the entry. Pick a wrong name whose control byte differs,
        // so the entry is unreachable by its real name.
        let control_byte = |h: u64| h >> 57;
        let real = control_byte(name_hash(&t.name_keys, a, None, b"sub"));
        let wrong = (0u32..)
            .map(|i| name_hash(&t.name_keys, a, None, format!("elsewhere{i}").as_bytes()))
            .find(|&h| control_byte(h) != real)
            .unwrap();
        t.by_name
            .insert_unique(wrong, sub, name_rehasher(&t.name_keys, &t.entries, &t.tags));
        assert!(broken_as(&t, 4).contains("not found by name"));
    }

    #[test]
    fn a_directory_missing_from_the_path_index_is_invariant_4() {
        let mut t = fixture();
        let sub = slot(&t, b"/a/sub");
        t.unindex_dir_path(sub);
        assert!(broken_as(&t, 4).starts_with("dirs_by_path holds"));
        // The count alone can miss it: a stray slot in its place.
        let f = slot(&t, b"/a/f");
        t.dirs_by_path.insert_unique(1, f, |_| 1);
        assert!(broken_as(&t, 4).ends_with("is not in the path index"));
    }

    #[test]
    fn a_wrong_path_hash_is_invariant_4() {
        let mut t = fixture();
        // Stores /r/s/y's path hash flipped in its low bit, and indexes it under that.
        let flip = |t: &mut Tree| {
            let y = slot(t, b"/r/s/y");
            t.unindex_dir_path(y);
            dir_mut(t, b"/r/s/y").path_hash ^= 1;
            t.index_dir_path(y);
        };
        flip(&mut t);
        assert!(broken_as(&t, 4).contains("its parent's chain gives"));
        flip(&mut t);
        assert_eq!(check(&t), Ok(()));
        dir_mut(&mut t, b"/").path_hash = 7;
        assert!(broken_as(&t, 4).starts_with("the root's path hash is"));
    }

    #[test]
    fn a_wrong_header_reference_count_names_its_directory() {
        let mut t = fixture();
        let want = dir_mut(&mut t, b"/r/s").hrefs;
        dir_mut(&mut t, b"/r/s").hrefs += 1;
        let detail = broken_as(&t, 5);
        let expect = format!(
            "/r/s: hrefs {}, expected {want} from the live headers",
            want + 1
        );
        assert_eq!(detail, expect);
    }

    #[test]
    fn a_stray_header_reference_count_names_its_directory() {
        let mut t = fixture();
        dir_mut(&mut t, b"/a").hrefs = 1;
        assert_eq!(
            broken_as(&t, 5),
            "/a: hrefs 1, expected 0 from the live headers"
        );
    }

    #[test]
    fn a_wrong_mount_count_is_invariant_5() {
        let mut t = fixture();
        dir_mut(&mut t, b"/m").mounts += 1;
        assert!(broken_as(&t, 5).contains("mount-point"));
    }

    #[test]
    fn a_row_owned_by_another_header_is_invariant_5() {
        let mut t = fixture();
        let x = slot(&t, b"/r/s/x");
        let other = *t.headers.keys().max().unwrap() + 1;
        t.entry_mut(x).owner = OwnerWord::new(Owner::Header(other), false);
        assert!(broken_as(&t, 5).contains("owned by another"));
    }

    #[test]
    fn an_implicit_directory_without_a_header_is_invariant_5() {
        let mut t = fixture();
        let a = slot(&t, b"/a");
        t.entry_mut(a).owner = OwnerWord::new(Owner::Implicit, false);
        assert!(broken_as(&t, 5).contains("implicit directory with no header"));
    }

    /// The fixture, plus what Part II adds: source `fs` (one item) rendered by `/g`, whose
    /// cache a read filled; namespace 1 with its table `/net/dev` (`/net` implicit, tagged
    /// rows); `/a/f` chmod 0600 and `/a/sub` chown 5:5; a freed slot. Returns the tree, the
    /// handle left open on `/g` and the namespace.
    fn part_two() -> (Tree, HandleId, NsId) {
        let mut t = fixture();
        t.source_add(b"fs", b"ext4").unwrap();
        t.generated(b"/g", b"fs").unwrap();
        let h = t.open(b"/g").unwrap();
        assert_eq!(t.read(h).unwrap(), b"ext4\n");
        let k = t.ns_create(7, 7).unwrap();
        t.register_ns(k, b"/net", &[Row::file("dev", "eth0")])
            .unwrap();
        t.chmod(b"/a/f", 0o600).unwrap();
        t.chown(b"/a/sub", 5, 5).unwrap();
        t.create(b"/tmp", b"").unwrap(); // the fixture's free slot was taken: free one again
        t.remove(b"/tmp").unwrap();
        assert_eq!(check(&t), Ok(()));
        (t, h, k)
    }

    #[test]
    fn a_namespace_without_namespace_0_or_past_next_ns_is_invariant_9() {
        let (mut t, _, _) = part_two();
        let zero = t.namespaces.remove(&0).unwrap();
        assert_eq!(broken_as(&t, 9), "namespace 0 is not live");
        t.namespaces.insert(0, zero);
        t.next_ns = 1;
        assert!(broken_as(&t, 9).contains("is not below next_ns"));
    }

    #[test]
    fn a_namespace_that_forgets_its_header_is_invariant_9() {
        let (mut t, _, k) = part_two();
        let id = *t.namespaces[&k].headers.first().unwrap();
        t.namespaces.get_mut(&k).unwrap().headers.clear();
        assert_eq!(
            broken_as(&t, 9),
            format!("header {id} of ns {k}: the namespace does not list it")
        );
    }

    #[test]
    fn a_namespace_that_lists_a_header_not_its_own_is_invariant_9() {
        let (mut t, _, k) = part_two();
        let other = *t.headers.keys().next().unwrap(); // /r/s's, in namespace 0
        t.namespaces.get_mut(&k).unwrap().headers.insert(other);
        assert_eq!(
            broken_as(&t, 9),
            format!("ns {k} lists header {other}, not a live header of its own")
        );
    }

    #[test]
    fn a_stale_source_cache_is_invariant_11() {
        let (mut t, _, _) = part_two();
        let id = t.sources.get(b"fs").unwrap();
        t.sources.source_mut(id).cache = Some(Arc::from(&b"xfs\n"[..]));
        assert_eq!(
            broken_as(&t, 11),
            "source fs: valid cache differs from a fresh rendering"
        );
    }

    #[test]
    fn a_wrong_source_length_or_build_count_is_invariant_11() {
        let (mut t, _, _) = part_two();
        let id = t.sources.get(b"fs").unwrap();
        t.sources.source_mut(id).len += 1;
        assert!(broken_as(&t, 11).contains("kept length 6, rendering 5"));
        t.sources.source_mut(id).len -= 1;
        let s = t.sources.source_mut(id);
        s.builds = s.generation + 2;
        assert!(broken_as(&t, 11).contains("builds at generation"));
    }

    #[test]
    fn a_generated_file_of_a_missing_source_is_invariant_11() {
        let (mut t, _, _) = part_two();
        let g = slot(&t, b"/g");
        t.entry_mut(g).body = Body::Generated(99);
        let ino = t.entry(g).ino;
        assert_eq!(
            broken_as(&t, 11),
            format!("ino {ino}: generated from a missing source")
        );
    }

    #[test]
    fn a_handle_past_0_without_a_snapshot_is_invariant_12() {
        let (mut t, h, _) = part_two();
        t.handles.get_mut(h).unwrap().snapshot = None;
        assert_eq!(
            broken_as(&t, 12),
            format!("handle {h}: position 5 without a snapshot")
        );
    }

    #[test]
    fn a_mode_past_0777_or_a_reserved_owner_is_invariant_13() {
        let (mut t, _, _) = part_two();
        let f = slot(&t, b"/a/f");
        t.attrs.get_mut(&f).unwrap().mode = 0o1777;
        assert!(broken_as(&t, 13).contains("mode 1777 on a file"));
        t.attrs.get_mut(&f).unwrap().mode = 0o600;
        let sub = slot(&t, b"/a/sub");
        t.attrs.get_mut(&sub).unwrap().uid = NO_ID;
        assert!(broken_as(&t, 13).contains("owner 4294967295:5"));
    }

    #[test]
    fn default_attributes_or_a_free_slot_in_the_side_table_are_invariant_13() {
        let (mut t, _, _) = part_two();
        let f = slot(&t, b"/a/f");
        let defaults = t.default_attrs(f);
        t.attrs.insert(f, defaults);
        assert!(broken_as(&t, 13).contains("default attributes kept"));
        t.attrs.remove(&f);
        let free = *t.free.last().unwrap();
        t.attrs.insert(free, defaults);
        assert_eq!(broken_as(&t, 13), format!("attributes of free slot {free}"));
    }
}
