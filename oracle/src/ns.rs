//! Network namespaces (SEMANTICS §10), naively: a list of live namespaces, a tag on every
//! node, and every view a filter over a directory's one children list.

use pdtree::{Errno, Id, InvariantViolation, NsId, Owner, View};

use crate::{Oracle, ROOT};

/// A live namespace and the owner of its entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Namespace {
    pub(crate) id: NsId,
    pub(crate) uid: Id,
    pub(crate) gid: Id,
}

impl Oracle {
    /// §10: node `i` is visible in `view` iff it is shared or tagged `view`.
    pub(crate) fn visible(&self, i: usize, view: View) -> bool {
        self.node(i).tag.is_none_or(|k| k == view)
    }

    /// Child `name` of `dir` that `view` sees, by scanning the list.
    pub(crate) fn child_seen(&self, dir: usize, view: View, name: &[u8]) -> Option<usize> {
        self.children(dir)
            .find(|&c| self.visible(c, view) && *self.node(c).name == *name)
    }

    /// `ENOENT` unless `view` is a live namespace (scanning the list).
    pub(crate) fn live_view(&self, view: View) -> Result<(), Errno> {
        if self.namespaces.iter().any(|n| n.id == view) {
            Ok(())
        } else {
            Err(Errno::ENOENT)
        }
    }

    /// The owner a namespace gives its entries; shared entries are 0/0.
    pub(crate) fn owner_of(&self, tag: Option<NsId>) -> (Id, Id) {
        match tag.and_then(|k| self.namespaces.iter().find(|n| n.id == k)) {
            Some(n) => (n.uid, n.gid),
            None => (0, 0),
        }
    }

    /// `ns_create` (§10): ids, the live count, the counter; then a new id.
    pub(crate) fn create_namespace(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
        if uid == u32::MAX || gid == u32::MAX {
            return Err(Errno::EINVAL);
        }
        if self.namespaces.len() as u64 + 1 > self.limits.max_namespaces {
            return Err(Errno::ENOSPC);
        }
        if self.next_ns == u64::MAX {
            return Err(Errno::ENOSPC); // the next id would reach 2^64 - 1
        }
        let id = self.next_ns;
        self.next_ns += 1;
        self.namespaces.push(Namespace { id, uid, gid });
        Ok(id)
    }

    /// `ns_destroy` (§10): (a) every reachable entry tagged k goes (an open one stays
    /// allocated); (b) k's headers go by ascending id, each releasing the shared directories on
    /// its path innermost first; (c) k is no longer live.
    pub(crate) fn destroy_namespace(&mut self, k: NsId) -> Result<u64, Errno> {
        self.live_view(k)?;
        if k == 0 {
            return Err(Errno::EBUSY);
        }
        // (a) a scan of the whole arena for k's entries (the oracle may walk; core may not),
        // unless the count says it has none.
        let arena = if self.tagged.contains_key(&k) {
            0..self.nodes.len()
        } else {
            0..0
        };
        let tagged: Vec<usize> = arena
            .filter(|&i| matches!(&self.nodes[i], Some(n) if !n.removed && n.tag == Some(k)))
            .filter(|&i| i != ROOT && self.node(i).parent.is_some())
            .collect();
        for &i in &tagged {
            let parent_tagged = self
                .node(i)
                .parent
                .is_some_and(|p| self.node(p).tag == Some(k));
            if !parent_tagged {
                self.detach(i);
            }
        }
        for &i in &tagged {
            self.discard(i);
        }
        let mut removed = tagged.len() as u64;
        // (b) the headers, ascending id (the list is in id order).
        while let Some(pos) = self.headers.iter().position(|h| h.ns == Some(k)) {
            let h = self.headers.remove(pos);
            removed += self.release_path(&h.path);
        }
        // (c)
        self.namespaces.retain(|n| n.id != k);
        Ok(removed)
    }

    /// After a header is gone (§4 unregister, §10 ns_destroy): innermost first, an implicit
    /// directory on its path that no live header holds any more is removed if empty, else
    /// becomes explicit. Returns the directories removed.
    pub(crate) fn release_path(&mut self, path: &[pdtree::Ino]) -> u64 {
        let mut removed = 0;
        for &ino in path.iter().rev() {
            let Some(i) = self.find_live(ino) else {
                continue;
            };
            if self.node(i).owner == Owner::Implicit && self.hrefs(i) == 0 {
                if self.children(i).next().is_none() {
                    self.detach(i);
                    self.discard(i);
                    removed += 1;
                } else {
                    self.node_mut(i).owner = Owner::Explicit;
                }
            }
        }
        removed
    }

    /// §8.9 and §8.10: namespace 0 live, ids below the counter, tags live, a shared entry's
    /// parent shared and a tagged one's shared or of its tag, a header's rows of its tag;
    /// every reachable entry tagged k ≥ 1 a row of a live header of k or an implicit
    /// directory some header holds, never permanent.
    pub(crate) fn check_namespaces(&self) -> Result<(), InvariantViolation> {
        let bad = |invariant: u8, detail: String| Err(InvariantViolation { invariant, detail });
        if !self.namespaces.iter().any(|n| n.id == 0) {
            return bad(9, "namespace 0 is not live".into());
        }
        if self.namespaces.iter().any(|n| n.id >= self.next_ns) {
            return bad(9, "a namespace id not yet handed out".into());
        }
        for n in self.nodes.iter().flatten().filter(|n| !n.removed) {
            if let Some(k) = n.tag {
                if self.live_view(k).is_err() {
                    return bad(9, format!("ino {} tagged with dead ns {k}", n.ino));
                }
            }
            if let Some(p) = n.parent {
                let pt = self.node(p).tag;
                if pt.is_some() && pt != n.tag {
                    return bad(9, format!("ino {}: tag {:?} under {pt:?}", n.ino, n.tag));
                }
            }
            if let Some(k) = n.tag.filter(|&k| k > 0) {
                let governed = match n.owner {
                    Owner::Header(h) => self.headers.iter().any(|x| x.id == h && x.ns == Some(k)),
                    Owner::Implicit => true, // held by a header: checked by §8.5
                    Owner::Explicit => false,
                };
                if !governed || n.permanent {
                    return bad(10, format!("ino {} tagged {k} but not its header's", n.ino));
                }
            }
        }
        Ok(())
    }
}
