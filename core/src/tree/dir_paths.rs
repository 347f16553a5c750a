//! Directory keys that follow paths: a path operation finds its last component with one
//! probe of `by_name`, not one per component.
//!
//! `by_name` hashes a child under its parent's *key*. A directory whose path is all shared
//! (it and every ancestor untagged) is *path-keyed*: its key is its own `by_name` hash,
//! `name_hash(parent's key, name)`, chained down from the root's key, and is kept in its
//! [`Dir`] as `path_hash`. Any other directory's key is its slot number. So a path's
//! directory key is computed from the path's bytes alone: `stat("/d/NAME")` hashes `d` under
//! the root's key, then `NAME` under that, and probes once, where the walk probed for `d` and
//! then for `NAME`. `lookup_at(d, NAME)` reads `d`'s key from `d`. Chaining keeps a new
//! directory's key, and its check, O(1) at any depth.
//!
//! A path-keyed directory is visible in every view and is the one the walk reaches in every
//! view (a shared directory's names are unique across tags, §10), so a probe that finds a
//! shared child under it answers what the walk answers. A candidate is confirmed by its name,
//! its tag, its parent's key, and the parent's path read upward through the arena's names,
//! so a 64-bit collision of two paths' keys cannot answer for the wrong directory.
//!
//! Entries never move (no rename) and never change tag, so a directory's key is fixed from its
//! creation to its removal, and its children leave `by_name` before it does (`remove_subtree`
//! drops the deepest first).

use super::entry::Entry;
use super::{name_hash, ArenaIndex, Body, Tree, ROOT_SLOT};
use crate::types::NsId;

/// The key under which `by_name` hashes the children of directory `dir` (see the module doc).
pub(super) fn dir_key(entries: &[Option<Entry>], dir: ArenaIndex) -> u64 {
    match entries[dir as usize].as_ref().map(|e| &e.body) {
        Some(Body::Dir(d)) => d.path_hash.unwrap_or(u64::from(dir)),
        _ => panic!("slot {dir} holds a child but is not a directory"),
    }
}

impl Tree {
    /// The shared child of a path-keyed directory that `rest` (a path without its leading
    /// `/`, not the root) names: one probe. `None` when there is none, which is not an
    /// answer: the walk decides (a tagged step, a missing entry, a bad component).
    pub(super) fn child_by_path(&self, rest: &[u8]) -> Option<ArenaIndex> {
        let mut key = self.dir(ROOT_SLOT)?.path_hash?;
        let mut name = rest;
        let mut prefix_len = 0;
        while let Some(i) = name.iter().position(|&b| b == b'/') {
            key = name_hash(&self.name_keys, key, None, &name[..i]);
            prefix_len += i + 1;
            name = &name[i + 1..];
        }
        // Without its trailing `/`; a path of one component has the root's, `""`.
        let prefix = &rest[..prefix_len.saturating_sub(1)];
        self.by_name
            .find(name_hash(&self.name_keys, key, None, name), |&s| {
                let e = self.entry(s);
                e.name.is(name)
                    && self.tag_of(s).is_none()
                    && self.dir(e.parent).is_some_and(|d| d.path_hash == Some(key))
                    && self.has_path(e.parent, prefix)
            })
            .copied()
    }

    /// Whether the path of directory `slot`, read upward through its parents, is `path`.
    fn has_path(&self, mut slot: ArenaIndex, mut path: &[u8]) -> bool {
        loop {
            let e = self.entry(slot);
            let Some(rest) = path.strip_suffix(&*e.name) else {
                return false;
            };
            if slot == ROOT_SLOT || e.parent == ROOT_SLOT {
                return rest.is_empty();
            }
            let Some(rest) = rest.strip_suffix(b"/") else {
                return false;
            };
            path = rest;
            slot = e.parent;
        }
    }

    /// The key of a new directory `name` under `parent`, tagged `tag`, if it is path-keyed
    /// (see the module doc); `None`: it is keyed by its slot. O(1).
    pub(super) fn new_dir_path_hash(
        &self,
        parent: ArenaIndex,
        tag: Option<NsId>,
        name: &[u8],
    ) -> Option<u64> {
        let parent_key = self.dir(parent)?.path_hash?;
        tag.is_none()
            .then(|| name_hash(&self.name_keys, parent_key, None, name))
    }
}
