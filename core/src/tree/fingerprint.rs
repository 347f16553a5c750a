//! `fingerprint`: a 64-bit hash of the canonical state (docs/SEMANTICS.md §9), computed from
//! the values the dump prints without printing them.
//!
//! Equal dumps give equal fingerprints: each reachable entry contributes a hash of its parent's
//! inode, its name and its dump fields (which determine its path and line), combined by a
//! wrapping sum so the arena's order does not matter; the other sections, which the dump prints
//! in a fixed order, are hashed in that order. A changed dump changes the fingerprint unless
//! 64-bit hashes collide.

use std::hash::{BuildHasher, Hash, Hasher};

use foldhash::fast::FixedState;

use super::{Body, Tree, ROOT_SLOT};

/// A fixed key: fingerprints are compared within a run, never stored, and must not depend on
/// the tree's secret name-hash key.
const KEY: u64 = 0x7064_7472_6565_6670;

pub(super) fn fingerprint(tree: &Tree) -> u64 {
    let state = FixedState::with_seed(KEY);
    let mut entries = 0u64;
    for (slot, e) in tree.entries.iter().enumerate() {
        let Some(e) = e.as_ref().filter(|e| e.reachable()) else {
            continue;
        };
        let mut h = state.build_hasher();
        let slot = slot as u32;
        let parent = (slot != ROOT_SLOT).then(|| tree.entry(e.parent).ino);
        (parent, &e.name[..], tree.stat_slot(slot, None)).hash(&mut h);
        if let Body::Dir(d) = &e.body {
            d.hrefs.hash(&mut h);
        }
        entries = entries.wrapping_add(h.finish());
    }
    let mut h = state.build_hasher();
    entries.hash(&mut h);
    hash_headers(&mut h, tree);
    for (id, handle) in tree.handles.all() {
        let e = tree.entry(handle.slot);
        (
            id,
            e.ino,
            e.reachable(),
            handle.pos,
            handle.snapshot.as_deref(),
        )
            .hash(&mut h);
    }
    for (&k, n) in &tree.namespaces {
        (k, n.uid, n.gid).hash(&mut h);
    }
    for s in tree.sources.by_name() {
        (&s.name[..], s.generation, s.cache.is_some(), s.builds).hash(&mut h);
        for item in &s.items {
            item.bytes.hash(&mut h);
        }
    }
    let stats = crate::PseudoFs::stats(tree);
    let next = (
        tree.next_ino,
        tree.next_header,
        tree.handles.next(),
        tree.next_ns,
    );
    (next, stats).hash(&mut h);
    h.finish()
}

/// Each live header by id: its namespace, directory and rows as the dump prints them.
fn hash_headers(h: &mut impl Hasher, tree: &Tree) {
    for (&id, header) in &tree.headers {
        (
            id,
            header.ns,
            tree.entry(header.target).ino,
            header.rows.len(),
        )
            .hash(h);
        for &row in &header.rows {
            let e = tree.entry(row);
            e.name.hash(h);
            match &e.body {
                Body::Dir(_) => 0u8.hash(h),
                Body::Generated(src) => (1u8, &tree.sources.source(*src).name[..]).hash(h),
                _ => 2u8.hash(h),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{PseudoFs, Row, Tree};

    /// `a` and `b` dump differently, so their fingerprints must differ too.
    fn differ(a: &Tree, b: &Tree) {
        assert_ne!(a.dump(), b.dump());
        assert_ne!(
            a.fingerprint(),
            b.fingerprint(),
            "{}\n{}",
            a.dump(),
            b.dump()
        );
    }

    #[test]
    fn files_that_trade_directories_fingerprint_differently() {
        // Same inodes, names, sizes and kinds: only the parents differ.
        let (mut a, mut b) = (Tree::new(), Tree::new());
        for t in [&mut a, &mut b] {
            t.mkdir(b"/x").unwrap();
            t.mkdir(b"/y").unwrap();
        }
        a.create(b"/x/f", b"").unwrap();
        a.create(b"/y/g", b"").unwrap();
        b.create(b"/y/f", b"").unwrap();
        b.create(b"/x/g", b"").unwrap();
        differ(&a, &b);
    }

    #[test]
    fn a_header_rows_sources_and_order_are_fingerprinted() {
        // Two sources of the same length: a generated row reads one or the other, which
        // only the header's row line shows.
        let with_row_of = |source: &[u8]| {
            let mut t = Tree::new();
            t.source_add(b"s1", b"a").unwrap();
            t.source_add(b"s2", b"b").unwrap();
            let rows = [Row::generated("g", source), Row::file("f", "1")];
            t.register(b"d", &rows).unwrap();
            t
        };
        let one = with_row_of(b"s1");
        differ(&one, &with_row_of(b"s2"));
        let mut reordered = one.clone();
        reordered
            .headers
            .values_mut()
            .for_each(|h| h.rows.reverse());
        differ(&one, &reordered);
    }
}
