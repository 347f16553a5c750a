//! Sources: the named registries behind `Generated` files (SPEC §11, the /proc/filesystems
//! pattern).
//!
//! A source keeps its items in insertion order with a hash index (so `source_add` and the
//! membership checks are O(1) expected; `source_remove` shifts the items after the removed
//! one, O(items)), the length of its rendering kept as items change (so `stat` never
//! renders), a generation, and at most one rendering, valid until the next successful change.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use indexmap::{Equivalent, IndexSet};
use rustc_hash::FxBuildHasher;

use crate::path::validate_name;
use crate::types::Errno;

use super::NameKeys;

/// The index of a source in [`Sources::list`]; sources are never destroyed, so it is stable.
pub(super) type SourceId = u32;

#[derive(Clone, Debug)]
pub(super) struct Source {
    pub(super) name: Box<[u8]>,
    /// Distinct items, insertion order (a re-added item goes last).
    pub(super) items: IndexSet<Item, FxBuildHasher>,
    /// Length of the rendering: the sum of `item.len() + 1`. Invariant 11 recomputes it.
    pub(super) len: u64,
    /// Successful changes so far.
    pub(super) generation: u64,
    /// The rendering at the current generation, if one was built since the last change.
    pub(super) cache: Option<Arc<[u8]>>,
    /// Renderings built so far.
    pub(super) builds: u64,
}

/// An item with its hash under the tree's secret keys: items are as user-chosen as names,
/// so they are hashed the same keyed way. The index's own hasher only spreads this `u64`,
/// so it needs no keys of its own.
#[derive(Clone, Debug)]
pub(super) struct Item {
    hash: u64,
    pub(super) bytes: Box<[u8]>,
}

impl PartialEq for Item {
    fn eq(&self, other: &Item) -> bool {
        self.bytes == other.bytes
    }
}

impl Eq for Item {}

impl Hash for Item {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash);
    }
}

/// A borrowed item to look up: hashes and compares as the [`Item`] it would be.
struct ItemQuery<'a> {
    hash: u64,
    bytes: &'a [u8],
}

impl Hash for ItemQuery<'_> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash);
    }
}

impl Equivalent<Item> for ItemQuery<'_> {
    fn equivalent(&self, key: &Item) -> bool {
        self.bytes == &key.bytes[..]
    }
}

impl Source {
    /// The rendering (§11), from scratch: each item, then `\n`.
    pub(super) fn render(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len as usize);
        for item in &self.items {
            out.extend_from_slice(&item.bytes);
            out.push(b'\n');
        }
        out
    }

    /// The rendering, from the cache when valid, else built once (builds + 1).
    pub(super) fn rendering(&mut self) -> Arc<[u8]> {
        if let Some(c) = &self.cache {
            return Arc::clone(c);
        }
        let text: Arc<[u8]> = Arc::from(self.render());
        self.builds += 1;
        self.cache = Some(Arc::clone(&text));
        text
    }

    fn changed(&mut self) {
        self.generation += 1;
        self.cache = None;
    }
}

/// Every source, by name (BTreeMap: the dump lists them by name bytes) and by id.
#[derive(Clone, Debug)]
pub(super) struct Sources {
    by_name: BTreeMap<Box<[u8]>, SourceId>,
    pub(super) list: Vec<Source>,
    /// The tree's name keys, for each new source's item index.
    keys: NameKeys,
}

/// An item as §11 allows: non-empty, no `\n`, no NUL.
fn check_item(item: &[u8]) -> Result<(), Errno> {
    if item.is_empty() || item.contains(&b'\n') || item.contains(&0) {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

impl Sources {
    pub(super) fn new(keys: NameKeys) -> Sources {
        Sources {
            by_name: BTreeMap::new(),
            list: Vec::new(),
            keys,
        }
    }

    pub(super) fn get(&self, name: &[u8]) -> Option<SourceId> {
        self.by_name.get(name).copied()
    }

    pub(super) fn source(&self, id: SourceId) -> &Source {
        &self.list[id as usize]
    }

    pub(super) fn source_mut(&mut self, id: SourceId) -> &mut Source {
        &mut self.list[id as usize]
    }

    /// Sources by name, for the dump.
    pub(super) fn by_name(&self) -> impl Iterator<Item = &Source> {
        self.by_name.values().map(|&id| self.source(id))
    }

    /// Whether one more source has an id: ids are `u32` (4 × 10^9 sources cannot fit in
    /// memory first, but the check keeps the cast honest). `ENOSPC` otherwise.
    pub(super) fn room_for(&self, name: &[u8]) -> Result<(), Errno> {
        if self.get(name).is_some() || self.list.len() < SourceId::MAX as usize {
            Ok(())
        } else {
            Err(Errno::ENOSPC)
        }
    }

    /// The source named `name`, made empty if new. The caller has checked the name and
    /// [`Sources::room_for`].
    pub(super) fn get_or_make(&mut self, name: &[u8]) -> SourceId {
        if let Some(id) = self.get(name) {
            return id;
        }
        let id = self.list.len() as SourceId;
        self.list.push(Source {
            name: name.into(),
            items: IndexSet::default(),
            len: 0,
            generation: 0,
            cache: None,
            builds: 0,
        });
        self.by_name.insert(name.into(), id);
        id
    }

    fn query<'a>(&self, item: &'a [u8]) -> ItemQuery<'a> {
        ItemQuery {
            hash: self.keys.hash_bytes(item),
            bytes: item,
        }
    }

    /// `source_add` (§11): checks in order, then the change.
    pub(super) fn add(&mut self, name: &[u8], item: &[u8], max: usize) -> Result<(), Errno> {
        validate_name(name)?;
        check_item(item)?;
        let q = self.query(item);
        let len = match self.get(name) {
            Some(id) if self.source(id).items.contains(&q) => return Err(Errno::EEXIST),
            Some(id) => self.source(id).len,
            None => 0,
        };
        if len + item.len() as u64 + 1 > max as u64 {
            return Err(Errno::EFBIG);
        }
        self.room_for(name)?;
        let id = self.get_or_make(name);
        let s = self.source_mut(id);
        s.items.insert(Item {
            hash: q.hash,
            bytes: item.into(),
        });
        s.len += item.len() as u64 + 1;
        s.changed();
        Ok(())
    }

    /// `source_remove` (§11): checks in order, then the change.
    pub(super) fn remove(&mut self, name: &[u8], item: &[u8]) -> Result<(), Errno> {
        validate_name(name)?;
        check_item(item)?;
        let id = self.get(name).ok_or(Errno::ENOENT)?;
        let q = self.query(item);
        let s = self.source_mut(id);
        if !s.items.shift_remove(&q) {
            return Err(Errno::ENOENT);
        }
        s.len -= item.len() as u64 + 1;
        s.changed();
        Ok(())
    }
}

/// The `RenderingPublishedEarly` race's two steps (`pdtree::Race`, feature `races`): a
/// rendering made the source's valid cache before it is complete, then completed.
#[cfg(feature = "races")]
mod race {
    use std::sync::Arc;

    use super::super::entry::Body;
    use super::super::{handles, Tree};
    use super::SourceId;
    use crate::types::HandleId;

    impl Tree {
        /// When a fresh read of `handle` at `offset` would build its source's rendering, and it
        /// is not empty: makes its first half the source's valid cache (no build counted) and
        /// says so. Breaks invariant 11 until [`Tree::complete_rendering`] runs; a handle path
        /// reading in between serves the half.
        pub(crate) fn publish_half_rendering(&mut self, handle: HandleId, offset: u64) -> bool {
            let Some(src) = self.unbuilt_source_of(handle, offset) else {
                return false;
            };
            let s = self.sources.source_mut(src);
            let text = s.render();
            if text.is_empty() {
                return false; // no half to tear: the build counts as the read's own
            }
            s.cache = Some(Arc::from(&text[..text.len() / 2]));
            true
        }

        /// Drops a cached rendering of `handle`'s source that is not its rendering, so the read
        /// that follows builds it as it would have without the race.
        pub(crate) fn complete_rendering(&mut self, handle: HandleId) {
            let Some(h) = self.handles.get_mut(handle) else {
                return;
            };
            let slot = h.slot;
            if let Body::Generated(src) = self.entry(slot).body {
                let s = self.sources.source_mut(src);
                if s.cache.as_deref().is_some_and(|c| *c != s.render()[..]) {
                    s.cache = None;
                }
            }
        }

        /// The source of `handle`'s entry when it is a reachable generated file whose cache is
        /// invalid and a read at `offset` takes a fresh snapshot.
        fn unbuilt_source_of(&mut self, handle: HandleId, offset: u64) -> Option<SourceId> {
            let h = self.handles.get_mut(handle)?;
            if handles::continued(h, offset).is_some() {
                return None;
            }
            let slot = h.slot;
            let e = self.entry(slot);
            match e.body {
                Body::Generated(src)
                    if e.reachable() && self.sources.source(src).cache.is_none() =>
                {
                    Some(src)
                }
                _ => None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Errno, PseudoFs, Tree};

    fn rendering(t: &mut Tree, path: &[u8]) -> Vec<u8> {
        let h = t.open(path).unwrap();
        let bytes = t.read(h).unwrap();
        t.close(h).unwrap();
        bytes
    }

    /// 4,000 items in one source: the index's 7-bit tags collide many times over, so every
    /// item kept, every duplicate refused and every removal exact shows the items compare by
    /// their bytes, not by tag or hash.
    #[test]
    fn a_source_of_thousands_of_items_keeps_each_once_in_order() {
        let mut t = Tree::with_seed(crate::Limits::default(), 1);
        let items: Vec<Vec<u8>> = (0..4000).map(|i| format!("i{i:04}").into_bytes()).collect();
        t.generated(b"/g", b"s").unwrap();
        for it in &items {
            assert_eq!(t.source_add(b"s", it), Ok(()));
        }
        for it in items.iter().step_by(7) {
            assert_eq!(t.source_add(b"s", it), Err(Errno::EEXIST));
        }
        let lines = |kept: Vec<&Vec<u8>>| -> Vec<u8> {
            kept.iter()
                .flat_map(|it| [&it[..], b"\n"].concat())
                .collect()
        };
        assert_eq!(rendering(&mut t, b"/g"), lines(items.iter().collect()));
        for it in items.iter().step_by(2) {
            assert_eq!(t.source_remove(b"s", it), Ok(()));
        }
        assert_eq!(t.source_remove(b"s", &items[0]), Err(Errno::ENOENT));
        let left = rendering(&mut t, b"/g");
        assert_eq!(left, lines(items.iter().skip(1).step_by(2).collect()));
        assert_eq!(t.stat(b"/g").map(|s| s.size), Ok(left.len() as u64));
    }
}
