//! Network namespaces (SPEC §10): entry tags, per-namespace child sets, views.
//!
//! - An entry is shared (no tag) or tagged with one namespace. Tags live in a side table
//!   ([`Tree::tags`](super::Tree)), not in `Entry`: a tree without namespaces pays nothing,
//!   and an `Entry` field would cost every entry of a large tree 8 bytes.
//! - Each directory keeps its shared children in `Dir::children` and each namespace's in a
//!   [`TagSet`] of its own (inode-ordered, with its own counters), so a view reads at most two
//!   sets and never another namespace's children; a readdir in a view merges the two.
//! - The name index keys tagged entries by (parent, tag, name): each namespace's copy of a
//!   duplicated directory is found in one probe, whatever the number of namespaces.
//! - `ns_destroy` reaches a namespace's entries through its headers (their rows and the
//!   directories they created), not by walking the tree.

use std::collections::{BTreeMap, BTreeSet};

use super::entry::OwnerWord;
use super::{name_hash, ArenaIndex, Body, Dir, Tree};
use crate::children::Children;
use crate::types::{Errno, HeaderId, Id, NsId, Owner, View, NO_ID};

/// One namespace's children of a directory.
#[derive(Clone, Debug, Default)]
pub(super) struct TagSet {
    pub(super) children: Children,
    /// Child directories in this set.
    pub(super) subdirs: u64,
    /// Sum of this set's names' lengths.
    pub(super) name_bytes: u64,
}

/// A live namespace.
#[derive(Debug, Clone, Default)]
pub(super) struct Namespace {
    pub(super) uid: Id,
    pub(super) gid: Id,
    /// Its live headers, ascending (the order `ns_destroy` drops them in).
    pub(super) headers: BTreeSet<HeaderId>,
}

impl Dir {
    /// This directory's set for `tag` (`None`: the shared children).
    pub(super) fn tag_set(&self, tag: NsId) -> Option<&TagSet> {
        self.tagged.get(&tag)
    }

    /// Adds a new child (the largest inode so far) to the set of its tag.
    pub(super) fn link(
        &mut self,
        tag: Option<NsId>,
        ino: u64,
        slot: ArenaIndex,
        is_dir: bool,
        name_len: usize,
    ) {
        let (children, subdirs, name_bytes) = match tag {
            None => (&mut self.children, &mut self.subdirs, &mut self.name_bytes),
            Some(k) => {
                let set = self.tagged.entry(k).or_default();
                (&mut set.children, &mut set.subdirs, &mut set.name_bytes)
            }
        };
        children.push(ino, slot);
        *subdirs += u64::from(is_dir);
        *name_bytes += name_len as u64;
        self.generation += 1;
    }

    /// Children of every tag.
    pub(super) fn total_len(&self) -> usize {
        self.children.len()
            + self
                .tagged_iter()
                .map(|(_, s)| s.children.len())
                .sum::<usize>()
    }

    /// Child directories of every tag.
    pub(super) fn total_subdirs(&self) -> u64 {
        self.subdirs + self.tagged_iter().map(|(_, s)| s.subdirs).sum::<u64>()
    }

    /// No child of any tag.
    pub(super) fn is_empty_all(&self) -> bool {
        self.children.is_empty() && self.tagged.is_empty()
    }

    /// The namespaces with children here and their sets.
    pub(super) fn tagged_iter(&self) -> impl Iterator<Item = (NsId, &TagSet)> {
        self.tagged.iter().map(|(&k, s)| (k, s))
    }

    /// (children, child directories, name bytes) visible in a view that sees the shared
    /// children and those tagged `tag`.
    pub(super) fn counts_with(&self, tag: Option<NsId>) -> (u64, u64, u64) {
        let mut c = (self.children.len() as u64, self.subdirs, self.name_bytes);
        if let Some(s) = tag.and_then(|k| self.tag_set(k)) {
            c.0 += s.children.len() as u64;
            c.1 += s.subdirs;
            c.2 += s.name_bytes;
        }
        c
    }

    /// Children with inode >= `pos` of the shared set and of `tag`'s, merged ascending. With
    /// no set of `tag`'s here (every directory of a tree without namespaces) it is the shared
    /// set's own iterator, with no merge step per child.
    pub(super) fn merged_from(
        &self,
        tag: Option<NsId>,
        pos: u64,
    ) -> impl Iterator<Item = (u64, ArenaIndex)> + '_ {
        let mut a = self.children.iter_from(pos).peekable();
        let mut b = tag
            .and_then(|k| self.tag_set(k))
            .map(|s| s.children.iter_from(pos).peekable());
        std::iter::from_fn(move || {
            let Some(b) = b.as_mut() else {
                return a.next();
            };
            match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if y.0 < x.0 => b.next(),
                (Some(_), _) => a.next(),
                (None, _) => b.next(),
            }
        })
    }

    /// Every child of every tag (order: shared, then each namespace's).
    pub(super) fn all_children(&self) -> impl Iterator<Item = (u64, ArenaIndex)> + '_ {
        self.children
            .iter()
            .chain(self.tagged_iter().flat_map(|(_, s)| s.children.iter()))
    }

    /// Every child of every tag, ascending by inode (the dump's order).
    pub(super) fn all_children_sorted(&self) -> Vec<(u64, ArenaIndex)> {
        let mut all: Vec<_> = self.all_children().collect();
        if !self.tagged.is_empty() {
            all.sort_unstable_by_key(|&(ino, _)| ino);
        }
        all
    }
}

impl Tree {
    /// The tag of an allocated slot (`None`: shared).
    pub(super) fn tag_of(&self, slot: ArenaIndex) -> Option<NsId> {
        if self.tags.is_empty() {
            return None;
        }
        self.tags.get(&slot).copied()
    }

    /// Whether `slot` is visible in `view`: shared, or tagged `view`.
    pub(super) fn visible(&self, slot: ArenaIndex, view: View) -> bool {
        self.tag_of(slot).is_none_or(|k| k == view)
    }

    /// `ENOENT` unless `view` is a live namespace.
    pub(super) fn check_view(&self, view: View) -> Result<(), Errno> {
        if view == 0 || self.namespaces.contains_key(&view) {
            Ok(())
        } else {
            Err(Errno::ENOENT)
        }
    }

    /// The child of `parent` named `name` with exactly this tag.
    pub(super) fn child_tagged(
        &self,
        parent: ArenaIndex,
        tag: Option<NsId>,
        name: &[u8],
    ) -> Option<ArenaIndex> {
        let entries = &self.entries;
        self.by_name
            .find(name_hash(&self.name_keys, parent, tag, name), |&s| {
                let e = entries[s as usize].as_ref().expect("indexed slot is free");
                e.parent == parent && e.name.is(name) && self.tag_of(s) == tag
            })
            .copied()
    }

    /// The child of `parent` named `name` visible in `view`.
    pub(super) fn child_visible(
        &self,
        parent: ArenaIndex,
        view: View,
        name: &[u8],
    ) -> Option<ArenaIndex> {
        let shared = self.child_tagged(parent, None, name);
        if shared.is_some() || self.tags.is_empty() {
            return shared;
        }
        let has = self.dir(parent).is_some_and(|d| d.tag_set(view).is_some());
        has.then(|| self.child_tagged(parent, Some(view), name))
            .flatten()
    }

    /// Whether any child of `parent`, whatever its tag, holds `name`.
    pub(super) fn name_taken_by_any(&self, parent: ArenaIndex, name: &[u8]) -> bool {
        if self.child_tagged(parent, None, name).is_some() {
            return true;
        }
        if self.tags.is_empty() {
            return false;
        }
        let Some(d) = self.dir(parent) else {
            return false;
        };
        d.tagged_iter()
            .any(|(k, _)| self.child_tagged(parent, Some(k), name).is_some())
    }

    /// The owner a namespace gives its entries (0/0 for a namespace that is gone).
    pub(super) fn ns_owner(&self, tag: Option<NsId>) -> (Id, Id) {
        tag.and_then(|k| self.namespaces.get(&k))
            .map_or((0, 0), |n| (n.uid, n.gid))
    }

    pub(super) fn do_ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
        if uid == NO_ID || gid == NO_ID {
            return Err(Errno::EINVAL);
        }
        if self.namespaces.len() as u64 >= self.limits.max_namespaces {
            return Err(Errno::ENOSPC);
        }
        if self.next_ns == NsId::MAX {
            return Err(Errno::ENOSPC);
        }
        let id = self.next_ns;
        self.next_ns += 1;
        let ns = Namespace {
            uid,
            gid,
            headers: BTreeSet::new(),
        };
        self.namespaces.insert(id, ns);
        Ok(id)
    }

    /// `ns_destroy` (§10): (a) every entry tagged `k`, reached through its headers, deepest
    /// first; (b) its headers, by ascending id, releasing the shared directories on their
    /// paths innermost first; (c) the namespace.
    pub(super) fn do_ns_destroy(&mut self, k: NsId) -> Result<u64, Errno> {
        let ns = self.namespaces.get(&k).ok_or(Errno::ENOENT)?;
        if k == 0 {
            return Err(Errno::EBUSY);
        }
        let headers: Vec<HeaderId> = ns.headers.iter().copied().collect();
        let tagged = self.entries_tagged(k, &headers);
        let mut removed = tagged.len() as u64;
        for &(_, slot) in tagged.iter().rev() {
            if self.entry(slot).open_refs > 0 {
                // It stays allocated for its handles: keep the owner it had, which would
                // otherwise read as a gone namespace's.
                let a = self.attrs_of(slot);
                self.attrs.insert(slot, a);
            }
            self.unlink(slot);
        }
        for id in headers {
            removed += self.drop_ns_header(id);
        }
        self.namespaces.remove(&k);
        Ok(removed)
    }

    /// The entries tagged `k`: its headers' rows and the directories they created, with their
    /// depth, sorted by depth (parents before children).
    fn entries_tagged(&self, k: NsId, headers: &[HeaderId]) -> Vec<(usize, ArenaIndex)> {
        let mut seen: BTreeMap<ArenaIndex, usize> = BTreeMap::new();
        for id in headers {
            let h = &self.headers[id];
            for &s in h.dirs.iter().chain(&h.rows) {
                if self.tag_of(s) == Some(k) && !seen.contains_key(&s) {
                    seen.insert(s, self.depth(s));
                }
            }
        }
        let mut out: Vec<(usize, ArenaIndex)> = seen.into_iter().map(|(s, d)| (d, s)).collect();
        out.sort_unstable();
        out
    }

    /// The number of ancestors of a reachable slot.
    fn depth(&self, mut slot: ArenaIndex) -> usize {
        let mut d = 0;
        while slot != super::ROOT_SLOT {
            slot = self.entry(slot).parent;
            d += 1;
        }
        d
    }

    /// Drops a header of a namespace whose entries are gone: the shared directories on its
    /// path lose an href, innermost first; a shared implicit one at 0 goes if empty, else
    /// becomes explicit. Returns the directories removed.
    fn drop_ns_header(&mut self, id: HeaderId) -> u64 {
        let h = self.headers.remove(&id).expect("live header");
        let mut removed = 0;
        if h.rows.is_empty() && self.still_shared_dir(h.target) {
            self.dir_mut(h.target).mounts -= 1;
        }
        for &d in h.dirs.iter().rev() {
            // A directory of the namespace itself was removed in (a).
            if self.still_shared_dir(d) && self.release_dir(d) {
                removed += 1;
            }
        }
        removed
    }

    /// One header less on directory `d`'s path (§4 unregister, §10 ns_destroy): an implicit
    /// directory no header holds any more is removed if empty (returns true), else becomes
    /// explicit.
    pub(super) fn release_dir(&mut self, d: ArenaIndex) -> bool {
        let dir = self.dir_mut(d);
        dir.hrefs -= 1;
        let (hrefs, empty) = (dir.hrefs, dir.is_empty_all());
        if hrefs > 0 || self.entry(d).owner() != Owner::Implicit {
            return false;
        }
        if empty {
            self.unlink(d);
            return true;
        }
        self.entry_mut(d).owner = OwnerWord::new(Owner::Explicit, false);
        false
    }

    /// Whether `slot` still holds a reachable shared directory (a slot freed in (a) may not).
    fn still_shared_dir(&self, slot: ArenaIndex) -> bool {
        matches!(self.entries.get(slot as usize), Some(Some(e)) if e.reachable()
            && matches!(e.body, Body::Dir(_)))
            && self.tag_of(slot).is_none()
    }
}
