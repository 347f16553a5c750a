//! `check_invariants`: every SPEC §8 invariant core can check about itself, recomputed from
//! scratch and compared with the incrementally maintained state. Invariant 8 (atomicity)
//! needs a before/after comparison, which the harness does around each failed operation.

use std::collections::{BTreeMap, HashSet};

use super::dump::path_of;
use super::{Body, Tree, ROOT_SLOT};
use crate::types::{InvariantViolation, Owner};

fn broken(invariant: u8, detail: String) -> Result<(), InvariantViolation> {
    Err(InvariantViolation { invariant, detail })
}

pub(super) fn check(t: &Tree) -> Result<(), InvariantViolation> {
    // Walk the reachable tree iteratively, checking each directory as we go.
    let mut reachable = vec![false; t.entries.len()];
    let mut stack = vec![ROOT_SLOT];
    let mut live = 0u64;
    let mut hrefs: BTreeMap<u32, u64> = BTreeMap::new();
    let mut mounts: BTreeMap<u32, u64> = BTreeMap::new();
    while let Some(slot) = stack.pop() {
        let Some(e) = t.entries.get(slot as usize).and_then(|e| e.as_ref()) else {
            return broken(3, format!("slot {slot} is reachable but free"));
        };
        if reachable[slot as usize] {
            return broken(1, format!("slot {slot} (ino {}) reached twice", e.ino));
        }
        reachable[slot as usize] = true;
        live += 1;
        if !e.reachable() {
            return broken(3, format!("ino {} is linked but marked removed", e.ino));
        }
        let Body::Dir(d) = &e.body else { continue };
        let path = || path_of(t, slot);
        if let Err(msg) = d.children.check() {
            return broken(1, format!("{}: {msg}", path()));
        }
        let mut names = HashSet::new();
        let (mut subdirs, mut name_bytes, mut count) = (0u64, 0u64, 0usize);
        for (ino, child) in d.children.iter() {
            let Some(c) = t.entries.get(child as usize).and_then(|c| c.as_ref()) else {
                return broken(3, format!("{}: child slot {child} is free", path()));
            };
            if c.ino != ino || c.parent != slot {
                return broken(
                    1,
                    format!(
                        "{}: child ino {ino} points at ino {} under slot {}",
                        path(),
                        c.ino,
                        c.parent
                    ),
                );
            }
            if !names.insert(&*c.name) {
                return broken(
                    1,
                    format!(
                        "{}: name {:?} twice",
                        path(),
                        String::from_utf8_lossy(&c.name)
                    ),
                );
            }
            subdirs += u64::from(matches!(c.body, Body::Dir(_)));
            name_bytes += c.name.len() as u64;
            count += 1;
            stack.push(child);
        }
        if subdirs != d.subdirs {
            return broken(
                2,
                format!(
                    "{}: nlink {}, counted {}",
                    path(),
                    2 + d.subdirs,
                    2 + subdirs
                ),
            );
        }
        if name_bytes != d.name_bytes || count != d.children.len() {
            return broken(
                7,
                format!(
                    "{}: listing size counters say {} children / {} name bytes, counted {count} / {name_bytes}",
                    path(),
                    d.children.len(),
                    d.name_bytes
                ),
            );
        }
        if let Some((generation, text)) = &d.listing_cache {
            if *generation == d.generation && **text != *t.render(slot) {
                return broken(7, format!("{}: cached listing is stale", path()));
            }
        }
        if d.hrefs > 0 {
            hrefs.insert(slot, d.hrefs);
        }
        if d.mounts > 0 {
            mounts.insert(slot, d.mounts);
        }
    }

    // 3. No leak: every occupied slot is reachable or held open; counters agree.
    let mut allocated = 0u64;
    let mut refs: BTreeMap<u32, u64> = BTreeMap::new();
    for h in t.handles.values() {
        let Some(e) = t.entries.get(h.slot as usize).and_then(|e| e.as_ref()) else {
            return broken(3, format!("a handle points at free slot {}", h.slot));
        };
        *refs.entry(h.slot).or_default() += u64::from(h.took_ref && !e.permanent());
    }
    for (slot, e) in t.entries.iter().enumerate() {
        let Some(e) = e else { continue };
        allocated += 1;
        let held = refs.get(&(slot as u32)).copied().unwrap_or(0);
        if u64::from(e.open_refs) != held {
            return broken(
                3,
                format!(
                    "ino {}: open_refs {}, handles hold {held}",
                    e.ino, e.open_refs
                ),
            );
        }
        if !reachable[slot] {
            if e.reachable() {
                return broken(
                    3,
                    format!("ino {} is marked reachable but is not linked", e.ino),
                );
            }
            if e.open_refs == 0 {
                return broken(
                    3,
                    format!("ino {} is removed, unreferenced and still allocated", e.ino),
                );
            }
        }
        // 6. Permanent entries stay reachable.
        if e.permanent() && !reachable[slot] {
            return broken(6, format!("permanent ino {} is not reachable", e.ino));
        }
    }
    if live != t.live || allocated != t.allocated {
        return broken(
            3,
            format!(
                "counters say live={} allocated={}, counted live={live} allocated={allocated}",
                t.live, t.allocated
            ),
        );
    }
    if t.entries.len() - t.free.len() != allocated as usize {
        return broken(
            3,
            format!(
                "{} free slots for {} allocated of {}",
                t.free.len(),
                allocated,
                t.entries.len()
            ),
        );
    }

    // 4. Index agreement: the indexes hold exactly the reachable set.
    let ino_indexed = t.dirs_by_ino.len() as u64 + t.files_by_ino.len() as u64;
    if t.by_name.len() as u64 != live - 1 || ino_indexed != live {
        return broken(
            4,
            format!(
                "by_name holds {}, dirs_by_ino {} + files_by_ino {}, reachable {live}",
                t.by_name.len(),
                t.dirs_by_ino.len(),
                t.files_by_ino.len()
            ),
        );
    }
    if let Err(msg) = t.files_by_ino.check() {
        return broken(4, format!("files_by_ino: {msg}"));
    }
    for (slot, e) in t.entries.iter().enumerate() {
        let Some(e) = e.as_ref().filter(|_| reachable[slot]) else {
            continue;
        };
        let slot = slot as u32;
        if t.slot_of_ino(e.ino) != Some(slot) {
            return broken(4, format!("ino {} not found by inode", e.ino));
        }
        let is_dir = matches!(e.body, Body::Dir(_));
        if t.dir_slot_of_ino(e.ino).is_some() != is_dir
            || t.files_by_ino.get(e.ino).is_some() == is_dir
        {
            return broken(4, format!("ino {} is in the wrong inode index", e.ino));
        }
        if slot != ROOT_SLOT && t.child(e.parent, &e.name) != Some(slot) {
            return broken(4, format!("{} not found by name", path_of(t, slot)));
        }
    }
    for &s in t.by_name.iter() {
        if !reachable.get(s as usize).copied().unwrap_or(false) {
            return broken(4, format!("by_name holds unreachable slot {s}"));
        }
    }
    let files = t.files_by_ino.iter().map(|(_, s)| s);
    for s in t.dirs_by_ino.iter().copied().chain(files) {
        if !reachable.get(s as usize).copied().unwrap_or(false) {
            return broken(4, format!("an inode index holds unreachable slot {s}"));
        }
    }

    // 5. Header refcounts, recounted from the live headers.
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
            if !reachable.get(r as usize).copied().unwrap_or(false)
                || t.entry(r).owner() != Owner::Header(*id)
            {
                return broken(5, format!("header {id}: a row is gone or owned by another"));
            }
        }
    }
    if want_hrefs != hrefs {
        let (slot, n) = want_hrefs
            .iter()
            .find(|(s, n)| hrefs.get(s) != Some(n))
            .or_else(|| hrefs.iter().find(|(s, n)| want_hrefs.get(s) != Some(n)))
            .map(|(s, n)| (*s, *n))
            .unwrap_or((0, 0));
        return broken(
            5,
            format!(
                "{}: hrefs wrong (expected {n} from live headers or a stray count)",
                path_of(t, slot)
            ),
        );
    }
    if want_mounts != mounts {
        return broken(
            5,
            "mount-point counts disagree with the live empty-table headers".into(),
        );
    }
    for (slot, e) in t.entries.iter().enumerate() {
        if let Some(e) = e.as_ref().filter(|_| reachable[slot]) {
            if e.owner() == Owner::Implicit && !hrefs.contains_key(&(slot as u32)) {
                return broken(
                    5,
                    format!(
                        "{}: implicit directory with no header",
                        path_of(t, slot as u32)
                    ),
                );
            }
        }
    }
    Ok(())
}
