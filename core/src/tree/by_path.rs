//! The directory path index: every reachable directory but the root, keyed by a hash of its
//! whole path, so a path's parent directory is found with one probe instead of one name
//! probe per component.
//!
//! A directory's path hash is chained from its parent's: `H(parent's hash, name)` under the
//! tree's secret name key (the root's is [`ROOT_PATH_HASH`]). The index is written only by
//! the changes that add or drop a directory, never by a read, so readers sharing a tree
//! (`SharedTree`) write nothing. Paths are canonical (no empty, `.` or `..` components), so
//! a directory's path bytes are unique to it within a view; a hit is verified by walking up
//! from the candidate, matching each name against the path from its end and checking each
//! ancestor's visibility in the view. Any depth is indexed.
//!
//! Cost: one keyed hash per component of the parent path (no memory access), one probe, and
//! a walk up the candidate's ancestors (entries a path through them has just read). Memory:
//! the `u32` slot in the table and the hash in the directory's `Dir`, for directories only.

use std::hash::Hasher;

use super::entry::{Body, Entry};
use super::{ArenaIndex, NameKeys, Tree, ROOT_SLOT};
use crate::types::{Errno, View};

/// The path hash of the root, the start of every chain.
pub(super) const ROOT_PATH_HASH: u64 = 0;

/// The path hash of the child `name` of a directory whose path hash is `parent`.
pub(super) fn path_hash(keys: &NameKeys, parent: u64, name: &[u8]) -> u64 {
    let mut h = keys.hasher();
    h.write_u64(parent);
    h.write(name);
    h.finish()
}

impl Tree {
    /// Resolves `path` (the bytes after the leading `/`, not empty) in `view` through the
    /// index: its parent directory in one probe, then the last name in it. `None` when no
    /// reachable directory is at the parent path in `view`; the walk from the root answers
    /// then (and names the error: `ENOENT`, `ENOTDIR`, or the syntax error first).
    ///
    /// A parent found here is where the walk would arrive, so a missing last name is the
    /// walk's `ENOENT` too.
    pub(super) fn resolve_by_path(
        &self,
        view: View,
        path: &[u8],
    ) -> Option<Result<ArenaIndex, Errno>> {
        // One forward pass for the parent's chained hash. A byte loop: `position` per name
        // cost 20 more instructions a `stat` (callgrind), and words of eight bytes more
        // still on names this short.
        let (mut at, mut hash) = (0, ROOT_PATH_HASH);
        for (i, &b) in path.iter().enumerate() {
            if b == b'/' {
                hash = path_hash(&self.name_keys, hash, &path[at..i]);
                at = i + 1;
            }
        }
        let dir = if at == 0 {
            ROOT_SLOT
        } else {
            let parent = &path[..at - 1];
            *self
                .dirs_by_path
                .find(hash, |&s| self.has_path(s, view, parent))?
        };
        Some(
            self.child_visible(dir, view, &path[at..])
                .ok_or(Errno::ENOENT),
        )
    }

    /// Whether the reachable directory `slot` is at `parent` (a path without its leading
    /// `/`, not empty) through entries all visible in `view`: the walk from the root that
    /// `resolve` makes would end at it. Compares from the end: each ancestor's name must be
    /// what ends the rest of the path, after a `/` or at its start (names hold no `/`).
    fn has_path(&self, mut slot: ArenaIndex, view: View, parent: &[u8]) -> bool {
        let mut rest = parent;
        // Each pass consumes a name and its `/`, so at most `parent.len() / 2 + 1` passes.
        while slot != ROOT_SLOT {
            let e = self.entry(slot);
            let Some(start) = rest.len().checked_sub(e.name.len()) else {
                return false;
            };
            if !e.name.is(&rest[start..]) || !self.visible(slot, view) {
                return false;
            }
            if start == 0 {
                return e.parent == ROOT_SLOT;
            }
            if rest[start - 1] != b'/' {
                return false;
            }
            rest = &rest[..start - 1];
            slot = e.parent;
        }
        false
    }

    /// Adds the new directory `slot`, whose `Dir` holds its path hash.
    pub(super) fn index_dir_path(&mut self, slot: ArenaIndex) {
        let hash = self.dir(slot).expect("a directory").path_hash;
        let entries = &self.entries;
        self.dirs_by_path
            .insert_unique(hash, slot, |&s| stored_path_hash(entries, s));
    }

    /// Drops the reachable directory `slot`.
    pub(super) fn unindex_dir_path(&mut self, slot: ArenaIndex) {
        let hash = self.dir(slot).expect("a directory").path_hash;
        match self.dirs_by_path.find_entry(hash, |&s| s == slot) {
            Ok(found) => {
                found.remove();
            }
            Err(_) => debug_assert!(false, "directory missing from dirs_by_path"),
        }
    }
}

/// The hash a directory of the index was stored under (for the table's growth).
fn stored_path_hash(entries: &[Option<Entry>], slot: ArenaIndex) -> u64 {
    match entries[slot as usize].as_ref().map(|e| &e.body) {
        Some(Body::Dir(d)) => d.path_hash,
        _ => panic!("dirs_by_path holds slot {slot}, not a directory"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::Path;
    use crate::{PseudoFs, Row};

    /// `/d0/d1/…/d{depth-1}/f`, with every directory and the file made.
    fn chain(t: &mut Tree, depth: usize) -> Vec<u8> {
        let mut path = Vec::new();
        for i in 0..depth {
            path.extend_from_slice(format!("/d{i}").as_bytes());
            if t.stat(&path).is_err() {
                t.mkdir(&path).unwrap();
            }
        }
        path.extend_from_slice(b"/f");
        t.create(&path, b"").unwrap();
        path
    }

    /// The index's answer for `path`, which must agree with the walk's whenever it gives one.
    fn by_index(t: &Tree, view: View, path: &[u8]) -> Option<Result<ArenaIndex, Errno>> {
        let rest = path.strip_prefix(b"/").unwrap_or(path);
        let found = t.resolve_by_path(view, rest);
        if let Some(answer) = found {
            let walked = t.walk(view, Path::parse(path).unwrap());
            assert_eq!(answer, walked, "{:?}", String::from_utf8_lossy(path));
        }
        found
    }

    #[test]
    fn parents_at_every_depth_are_one_probe() {
        let mut t = Tree::new();
        // 800 levels: a path of 3,892 bytes, under the 4096-byte limit.
        for depth in [0, 1, 2, 7, 64, 65, 800] {
            let path = chain(&mut t, depth);
            assert!(
                matches!(by_index(&t, 0, &path), Some(Ok(_))),
                "depth {depth}"
            );
        }
    }

    #[test]
    fn has_path_matches_exactly_the_path_of_the_directory() {
        let mut t = Tree::new();
        chain(&mut t, 3);
        t.mkdir(b"/d0d1").unwrap();
        let slot = t.resolve_bytes(b"/d0/d1/d2").unwrap();
        assert!(t.has_path(slot, 0, b"d0/d1/d2"));
        for other in [
            &b"d1/d2"[..],
            b"d2",
            b"x/d0/d1/d2",
            b"/d0/d1/d2",
            b"d0//d1/d2",
            b"d0/d1d2",
            b"d0d1/d2",
            b"d0/d1/xd2",
            b"d0/xd1/d2",
            b"xd0/d1/d2",
            b"d0/d1/d2/d3",
        ] {
            assert!(
                !t.has_path(slot, 0, other),
                "{:?}",
                String::from_utf8_lossy(other)
            );
        }
        assert_eq!(by_index(&t, 0, b"/d0/d1/f"), Some(Err(Errno::ENOENT)));
        assert_eq!(by_index(&t, 0, b"/d0d1/f"), Some(Err(Errno::ENOENT)));
        assert_eq!(by_index(&t, 0, b"/d0d1/d2/f"), None);
    }

    #[test]
    fn a_missing_name_under_an_indexed_parent_is_enoent_and_the_rest_is_walked() {
        let mut t = Tree::new();
        chain(&mut t, 3);
        assert_eq!(by_index(&t, 0, b"/d0/d1/d2/nope"), Some(Err(Errno::ENOENT)));
        assert_eq!(by_index(&t, 0, b"/d0/nope/f"), None);
        assert_eq!(
            by_index(&t, 0, b"/d0/d1/d2/f/x"),
            None,
            "a file is no parent"
        );
        assert_eq!(
            by_index(&t, 0, b"/d1/d2/f"),
            None,
            "a suffix of a real path"
        );
        assert_eq!(t.stat(b"/d0/d1/d2/f/x"), Err(Errno::ENOTDIR));
        t.remove_subtree(b"/d0/d1").unwrap();
        assert_eq!(
            by_index(&t, 0, b"/d0/d1/d2/f"),
            None,
            "gone with its subtree"
        );
        assert_eq!(by_index(&t, 0, b"/d0/d1"), Some(Err(Errno::ENOENT)));
    }

    #[test]
    fn a_tagged_directory_answers_in_its_own_view_only() {
        let mut t = Tree::new();
        let (k, other) = (t.ns_create(0, 0).unwrap(), t.ns_create(0, 0).unwrap());
        t.register_ns(k, b"net/conf", &[Row::file("all", "1")])
            .unwrap();
        assert!(matches!(by_index(&t, k, b"/net/conf/all"), Some(Ok(_))));
        assert_eq!(by_index(&t, other, b"/net/conf/all"), None);
        assert_eq!(by_index(&t, 0, b"/net/conf/all"), None);
        assert_eq!(t.stat_in(other, b"/net/conf/all"), Err(Errno::ENOENT));
    }
}
