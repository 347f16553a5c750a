//! # pdtree-oracle
//!
//! A deliberately naive second implementation of `docs/SEMANTICS.md`, for differential
//! testing against the fast tree in `pdtree` (core).
//!
//! The fast tree is fast because it keeps derived state: hash indexes by name and by inode,
//! child-directory counters, header refcounts, cached listing renderings. Every piece of
//! derived state is a place where it can silently drift from the truth. This oracle keeps
//! *none* of it, the way the old Linux procfs did:
//!
//! * every directory's children are a singly linked list in creation order (which is also
//!   inode order, since inode numbers only grow), held in an arena of nodes indexed by
//!   `usize` (so nothing recurses, not even `Drop`, on a chain 2,000 directories deep);
//! * looking a name up scans the parent's list; looking an inode up scans the whole arena;
//! * `nlink`, `size`, listing renderings and header refcounts ("hrefs") are recomputed from
//!   scratch on every call, from the children lists and the list of live headers;
//! * every walk over the tree uses an explicit stack or the links themselves, never the
//!   call stack;
//! * there is no hash map, no clock and no randomness anywhere.
//!
//! Every operation first runs all of its checks in the order SEMANTICS.md gives (the comments
//! cite the section), and only then mutates anything, so a failed operation changes nothing.
//!
//! It is slow (O(N) per lookup, O(N·H) per refcount), and that is the point: it is meant to be
//! obviously correct, not fast. Only the plain data types and the [`PseudoFs`] trait come from
//! `pdtree`; none of core's logic is used.
//!
//! ```
//! use pdtree::{PseudoFs, Row};
//! use pdtree_oracle::Oracle;
//!
//! let mut o = Oracle::new();
//! o.register(b"net/ipv4", &[Row::file("ip_forward", "0\n")]).unwrap();
//! assert!(o.dump().starts_with("entry / dir ino=1 nlink=3 size=1 mode=0555 uid=0 gid=0 owner=explicit"));
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod bulk;
mod ns;
mod path;
mod source;

use ns::Namespace;
use path::{check_name, escape, split_path};
use pdtree::{
    DirEntry, Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Kind, Limits, Mode, NsId,
    Owner, PseudoFs, ReadDirPage, Row, RowKind, Stat, Stats, View, ROOT_INO,
};
use source::Source;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::rc::Rc;

/// Arena index of the root directory; slot 0 is never freed.
const ROOT: usize = 0;

/// Bytes that never change once written: names and contents. Shared (`Rc`), so the copy of
/// the whole oracle that the differential runner takes before every state-changing op (to
/// prove that a failed op changed nothing) copies no bytes. Equality still compares the
/// bytes.
pub(crate) type Bytes = Rc<[u8]>;

/// What an entry holds, by kind (SEMANTICS §1).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Body {
    Dir,
    File(Bytes),
    Symlink(Bytes),
    Listing,
    /// Renders the source with this name (§11).
    Generated(Bytes),
}

impl Body {
    /// §12: the mode an entry gets when nothing states one. The oracle's own table, not
    /// core's `Kind::default_mode`, so the two sides do not share the rule.
    fn default_mode(&self) -> Mode {
        match self {
            Body::Dir => 0o555,
            Body::Symlink(_) => 0o777,
            Body::File(_) | Body::Listing | Body::Generated(_) => 0o444,
        }
    }

    fn kind(&self) -> Kind {
        match self {
            Body::Dir => Kind::Dir,
            Body::File(_) => Kind::File,
            Body::Symlink(_) => Kind::Symlink,
            Body::Listing => Kind::Listing,
            Body::Generated(_) => Kind::Generated,
        }
    }
}

/// One entry. Only facts live here, nothing derived: no counters of children, no refcounts
/// except `open_refs` (which is a fact: how many handles took a reference, SEMANTICS §7).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    ino: Ino,
    name: Bytes,
    body: Body,
    owner: Owner,
    permanent: bool,
    open_refs: u64,
    /// The namespace the entry belongs to for its whole life (§10); `None`: shared.
    tag: Option<NsId>,
    /// Permission bits and owner (§12): facts, set at creation, by `chmod` and by `chown`.
    mode: Mode,
    uid: Id,
    gid: Id,
    /// Arena index of the parent; `None` for the root and for removed entries.
    parent: Option<usize>,
    /// Head of this directory's children list (creation order = inode order).
    first_child: Option<usize>,
    /// Next entry in the parent's children list.
    next_sibling: Option<usize>,
    /// Removed from the tree but still held open by a handle (SEMANTICS §6).
    removed: bool,
}

/// A live registered table (SEMANTICS §4).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Header {
    id: HeaderId,
    /// The namespace of a `register_ns` header; `None` for `register`.
    ns: Option<NsId>,
    /// Inode numbers of the directories on the header's path, outermost first, root excluded.
    /// Empty when the header's directory is the root. Like the rows, fixed once registered
    /// and shared (`Rc`), as [`Bytes`] are.
    path: Rc<[Ino]>,
    /// The rows, in table order.
    rows: Rc<[HeaderRow]>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct HeaderRow {
    name: Bytes,
    ino: Ino,
    is_dir: bool,
}

/// An open handle (SEMANTICS §7).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Handle {
    id: HandleId,
    /// Arena index of the entry (stays valid: a slot is freed only after its last handle).
    node: usize,
    /// Whether opening took a reference (the entry was not permanent at the time).
    took_ref: bool,
    /// Where the last read ended (§11).
    pos: u64,
    /// The whole content the last fresh read took; `None` until the first read.
    snapshot: Option<Bytes>,
}

/// The naive model of a pdtree: linked lists, linear scans, everything recomputed.
///
/// ```
/// use pdtree::{Errno, PseudoFs};
/// use pdtree_oracle::Oracle;
///
/// let mut o = Oracle::new();
/// assert_eq!(o.mkdir(b"/net"), Ok(2));
/// assert_eq!(o.create(b"/net/dev", b"eth0\n"), Ok(3));
/// assert_eq!(o.mkdir(b"/net"), Err(Errno::EEXIST));
/// assert_eq!(o.remove(b"/net"), Err(Errno::ENOTEMPTY));
/// assert_eq!(o.remove_subtree(b"/net"), Ok(2));
/// assert_eq!(
///     o.dump(),
///     "entry / dir ino=1 nlink=2 size=0 mode=0555 uid=0 gid=0 owner=explicit hrefs=0 perm=1 open=0\n\
///      ns 0 uid=0 gid=0\n\
///      next ino=4 header=1 handle=1 ns=1\n\
///      stats live=1 allocated=1 headers=0 handles=0\n"
/// );
/// assert!(o.check_invariants().is_ok());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Oracle {
    limits: Limits,
    /// The entries; a slot becomes `None` when its entry is freed, and a new entry takes the
    /// first `None` slot. A live entry's index never changes. (Reusing slots is measured:
    /// with a slot per entry ever created, 65,536 create-and-remove cycles took 2.9 s,
    /// quadratic, and every later op scanned the 65,536 dead slots.)
    nodes: Vec<Option<Node>>,
    /// The `None` slots of `nodes`, for the first-free-slot search and the entry limit's
    /// count, which would otherwise scan the whole arena on every creation: a speed trick,
    /// with its measured reason. A `cycle_create` of 65,536 cycles in a tree of 65,534
    /// entries (seed 1's iteration 15,737 in the built-in campaign) took 31 s, a third of the
    /// 20,000 iterations' time, 98 % of it in those two scans. `check_invariants` recomputes
    /// the set from the arena and compares; `stats()` still counts the arena.
    free: BTreeSet<usize>,
    /// How many allocated, not removed entries each namespace has (namespaces with none are
    /// absent), so that `ns_destroy` of a namespace with none skips its scan of the arena: a
    /// speed trick, with its measured reason. A `cycle_ns` of 65,534 cycles beside a
    /// 47,279-file bulk (seed 1's iteration 11,028) took 11.7 s, 97 % of it in those scans.
    /// `check_invariants` recounts and compares.
    tagged: BTreeMap<NsId, u64>,
    /// Live headers, ascending id (registration order).
    headers: Vec<Header>,
    /// Open handles, ascending id (opening order).
    handles: Vec<Handle>,
    /// Every source ever named by a successful op, in the order they appeared (§11).
    sources: Vec<Source>,
    /// Live namespaces, ascending id, 0 first (§10).
    namespaces: Vec<Namespace>,
    next_ns: NsId,
    next_ino: Ino,
    next_header: HeaderId,
    next_handle: HandleId,
}

impl Default for Oracle {
    fn default() -> Self {
        Oracle::new()
    }
}

impl Oracle {
    /// A tree holding only the root, with the default [`Limits`].
    ///
    /// ```
    /// use pdtree::PseudoFs;
    /// let o = pdtree_oracle::Oracle::new();
    /// assert_eq!(o.stats().live, 1);
    /// ```
    pub fn new() -> Oracle {
        Oracle::with_limits(Limits::default())
    }

    // ----- primitive accessors -------------------------------------------------------------

    /// The node in slot `i`. Callers only pass indices of allocated slots (the root, entries
    /// found by a walk or scan, handle targets); anything else is an oracle bug.
    fn node(&self, i: usize) -> &Node {
        match self.nodes.get(i) {
            Some(Some(n)) => n,
            _ => panic!("pdtree-oracle bug: slot {i} is not allocated"),
        }
    }

    fn node_mut(&mut self, i: usize) -> &mut Node {
        match self.nodes.get_mut(i) {
            Some(Some(n)) => n,
            _ => panic!("pdtree-oracle bug: slot {i} is not allocated"),
        }
    }

    fn is_dir(&self, i: usize) -> bool {
        matches!(self.node(i).body, Body::Dir)
    }

    /// The children of directory `i`, walking its list (creation = ascending inode order).
    fn children(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.node(i).first_child, move |&c| {
            self.node(c).next_sibling
        })
    }

    /// Directory `dir` as `view` sees it, the checks `lookup_at` and `readdir` share: the
    /// view, then live and visible, then a directory (§5, §10).
    fn dir_seen(&self, view: View, dir: Ino) -> Result<usize, Errno> {
        self.live_view(view)?;
        let d = self
            .find_live(dir)
            .filter(|&d| self.visible(d, view))
            .ok_or(Errno::ENOENT)?;
        if !self.is_dir(d) {
            return Err(Errno::ENOTDIR);
        }
        Ok(d)
    }

    /// The children of directory `d` that `view` sees with inode number >= `pos`, in list
    /// (inode) order, as readdir returns them.
    fn entries_seen(&self, d: usize, view: View, pos: u64) -> impl Iterator<Item = DirEntry> + '_ {
        self.children(d)
            .filter(move |&c| self.visible(c, view))
            .map(|c| self.node(c))
            .filter(move |n| n.ino >= pos)
            .map(|n| DirEntry {
                name: n.name.to_vec(),
                ino: n.ino,
                kind: n.body.kind(),
            })
    }

    /// Child `name` of directory `dir`, by scanning its list.
    fn child_named(&self, dir: usize, name: &[u8]) -> Option<usize> {
        self.children(dir).find(|&c| *self.node(c).name == *name)
    }

    /// The live (reachable) entry with inode `ino`, by scanning the whole arena.
    fn find_live(&self, ino: Ino) -> Option<usize> {
        self.nodes
            .iter()
            .position(|n| matches!(n, Some(n) if n.ino == ino && !n.removed))
    }

    /// The arena index of each row's entry among the children of directory `dir`, or `None`
    /// where it is not one. The children are ascending by inode (SEMANTICS §8.1, which
    /// `check_invariants` proves), so each row is found by binary search. (Measured: a scan
    /// of the arena per row made the header check and dump quadratic, 34 % of a fuzz
    /// campaign's time once its tables had 1,024 rows.)
    fn row_slots(&self, dir: usize, rows: &[HeaderRow]) -> Vec<Option<usize>> {
        let children: Vec<(Ino, usize)> =
            self.children(dir).map(|c| (self.node(c).ino, c)).collect();
        rows.iter()
            .map(|r| {
                let k = children
                    .binary_search_by_key(&r.ino, |&(ino, _)| ino)
                    .ok()?;
                Some(children[k].1)
            })
            .collect()
    }

    /// Header refcount of directory `i`, counted from scratch (SEMANTICS §1): the number of
    /// live headers whose path passes through or ends at it. Always 0 for the root.
    fn hrefs(&self, i: usize) -> u64 {
        if i == ROOT {
            return 0;
        }
        let ino = self.node(i).ino;
        self.headers
            .iter()
            .filter(|h| h.path.contains(&ino))
            .count() as u64
    }

    /// The inode of a header's final directory (the root when its path is empty).
    fn header_dir(h: &Header) -> Ino {
        h.path.last().copied().unwrap_or(ROOT_INO)
    }

    /// A directory is a mount point while some live header with an empty table ends at it
    /// (SEMANTICS §4), scanning the header list.
    fn is_mount_point(&self, i: usize) -> bool {
        let ino = self.node(i).ino;
        self.headers
            .iter()
            .any(|h| h.rows.is_empty() && Oracle::header_dir(h) == ino)
    }

    /// `nlink`, counted from scratch (SEMANTICS §1): in view `view` over the children it
    /// sees, or over every child (`None`, the dump's total).
    fn nlink(&self, i: usize, view: Option<View>) -> u64 {
        if self.is_dir(i) {
            let dirs = self
                .children(i)
                .filter(|&c| self.is_dir(c) && self.seen(c, view))
                .count();
            2 + dirs as u64
        } else {
            1
        }
    }

    /// Whether `view` sees node `i` (`None`: the dump, which sees everything).
    fn seen(&self, i: usize, view: Option<View>) -> bool {
        view.is_none_or(|v| self.visible(i, v))
    }

    /// The listing rendering of directory `dir` for a listing tagged `tag`, afresh
    /// (SEMANTICS §7, §10): the shared children and those carrying the listing's tag.
    fn render(&self, dir: usize, tag: Option<NsId>) -> Vec<u8> {
        let mut out = Vec::new();
        let shown = |c: usize| self.node(c).tag.is_none() || self.node(c).tag == tag;
        for c in self.children(dir).filter(|&c| shown(c)) {
            let n = self.node(c);
            out.push(n.body.kind().letter() as u8);
            out.push(b'\t');
            out.extend_from_slice(&n.name);
            out.push(b'\n');
        }
        out
    }

    /// The content `read` returns for non-directory `i` (rendered now for a listing).
    fn content(&self, i: usize) -> Vec<u8> {
        let n = self.node(i);
        match &n.body {
            Body::File(c) | Body::Symlink(c) => c.to_vec(),
            Body::Listing => match n.parent {
                Some(p) => self.render(p, n.tag),
                None => Vec::new(),
            },
            Body::Generated(src) => match source::find(&self.sources, src) {
                Some(k) => self.sources[k].render(),
                None => Vec::new(),
            },
            Body::Dir => Vec::new(),
        }
    }

    /// A fresh snapshot of non-directory `i` for a read (§11): its content now, and for a
    /// Generated entry whose source's cache is invalid, one build that makes it valid.
    fn fresh_snapshot(&mut self, i: usize) -> Bytes {
        if let Body::Generated(src) = &self.node(i).body {
            if let Some(k) = source::find(&self.sources, src) {
                let s = &mut self.sources[k];
                if !s.cache_valid {
                    s.builds += 1;
                    s.cache_valid = true;
                }
            }
        }
        self.content(i).into()
    }

    /// The handle with this id, by a scan (`EBADF`), and its entry, which must not be
    /// removed (`ENOENT`): the first two checks of `read_at` and `write` (§11, §13).
    fn readable(&self, handle: HandleId) -> Result<usize, Errno> {
        let k = self
            .handles
            .iter()
            .position(|h| h.id == handle)
            .ok_or(Errno::EBADF)?;
        if self.node(self.handles[k].node).removed {
            return Err(Errno::ENOENT);
        }
        Ok(k)
    }

    /// `size`, from scratch (SEMANTICS §1), in `view` or in total (`None`).
    fn size(&self, i: usize, view: Option<View>) -> u64 {
        match &self.node(i).body {
            Body::Dir => self.children(i).filter(|&c| self.seen(c, view)).count() as u64,
            Body::File(c) | Body::Symlink(c) => c.len() as u64,
            Body::Listing | Body::Generated(_) => self.content(i).len() as u64,
        }
    }

    fn stat_of(&self, i: usize, view: Option<View>) -> Stat {
        let n = self.node(i);
        Stat {
            ino: n.ino,
            kind: n.body.kind(),
            ns: n.tag,
            nlink: self.nlink(i, view),
            size: self.size(i, view),
            mode: n.mode,
            uid: n.uid,
            gid: n.gid,
            owner: n.owner,
            permanent: n.permanent,
            open_refs: n.open_refs,
        }
    }

    /// Number of allocated entries: every slot still holding a node (SEMANTICS §7 `stats`).
    fn allocated(&self) -> u64 {
        self.nodes.iter().filter(|n| n.is_some()).count() as u64
    }

    /// [`Oracle::allocated`] from the free set, without the scan (`check_invariants` checks
    /// that the two agree).
    fn allocated_from_free(&self) -> u64 {
        (self.nodes.len() - self.free.len()) as u64
    }

    /// Number of reachable entries, root included: the allocated entries not removed. (That
    /// these are exactly the ones reachable from the root is invariant 3, which
    /// `check_invariants` verifies by walking the tree.)
    fn live_count(&self) -> u64 {
        self.nodes.iter().flatten().filter(|n| !n.removed).count() as u64
    }

    /// The escaped dump path of live entry `i`, walking parent links up to the root.
    fn path_of(&self, i: usize) -> String {
        let mut names = Vec::new();
        let mut cur = i;
        while let Some(p) = self.node(cur).parent {
            names.push(escape(&self.node(cur).name));
            cur = p;
        }
        if names.is_empty() {
            return "/".into();
        }
        names.iter().rev().map(|n| format!("/{n}")).collect()
    }

    // ----- path resolution (SEMANTICS §2) ---------------------------------------------------

    /// Walks `components` from the root through the entries `view` sees: a non-directory
    /// with components left after it → `ENOTDIR`; a missing component → `ENOENT`. Symlinks
    /// are never followed.
    fn resolve(&self, view: View, components: &[&[u8]]) -> Result<usize, Errno> {
        let mut cur = ROOT;
        for comp in components {
            if !self.is_dir(cur) {
                return Err(Errno::ENOTDIR);
            }
            cur = self.child_seen(cur, view, comp).ok_or(Errno::ENOENT)?;
        }
        Ok(cur)
    }

    /// Syntax check then resolution of a whole path in view 0 (the structural ops, §15.1).
    fn lookup_path(&self, path: &[u8]) -> Result<usize, Errno> {
        let comps = split_path(path)?;
        self.resolve(0, &comps)
    }

    /// Syntax, then the view (§10: after the argument checks), then resolution in it.
    fn lookup_in(&self, view: View, path: &[u8]) -> Result<usize, Errno> {
        let comps = split_path(path)?;
        self.live_view(view)?;
        self.resolve(view, &comps)
    }

    // ----- mutation primitives (only called after every check has passed) -----------------

    /// Appends a new entry at the end of `parent`'s list, taking the next inode number.
    /// The caller has already checked the entry limit and the inode counter.
    /// `tag`: the new entry's namespace; its owner is that namespace's (§12).
    fn attach_new(
        &mut self,
        parent: usize,
        name: &[u8],
        body: Body,
        owner: Owner,
        tag: Option<NsId>,
    ) -> usize {
        let last = self.children(parent).last();
        self.attach_new_after(parent, last, name, body, owner, tag)
    }

    /// [`Oracle::attach_new`] where the caller knows `parent`'s last child (`None`: it has
    /// none). A table's rows are appended one after the other, and walking the list for each
    /// row was 7 % of a campaign's time (`perf` of `pdtree bench --cases runner`; tables have
    /// up to 1,024 rows).
    fn attach_new_after(
        &mut self,
        parent: usize,
        last: Option<usize>,
        name: &[u8],
        body: Body,
        owner: Owner,
        tag: Option<NsId>,
    ) -> usize {
        // The hint is the list's last node: a child of `parent` with no next sibling (O(1),
        // so that debug builds do not pay the walk the hint saves).
        debug_assert!(match last {
            None => self.node(parent).first_child.is_none(),
            Some(l) => self.node(l).parent == Some(parent) && self.node(l).next_sibling.is_none(),
        });
        let ino = self.next_ino;
        self.next_ino += 1;
        if let Body::Generated(src) = &body {
            source::find_or_make(&mut self.sources, src); // §11: exists from now on
        }
        let (uid, gid) = self.owner_of(tag);
        let node = Some(Node {
            ino,
            name: name.into(),
            tag,
            mode: body.default_mode(),
            uid,
            gid,
            body,
            owner,
            permanent: false,
            open_refs: 0,
            parent: Some(parent),
            first_child: None,
            next_sibling: None,
            removed: false,
        });
        let idx = match self.free.pop_first() {
            Some(i) => i,
            None => {
                self.nodes.push(None);
                self.nodes.len() - 1
            }
        };
        self.nodes[idx] = node;
        if let Some(k) = tag {
            *self.tagged.entry(k).or_default() += 1;
        }
        match last {
            None => self.node_mut(parent).first_child = Some(idx),
            Some(last) => self.node_mut(last).next_sibling = Some(idx),
        }
        idx
    }

    /// Unlinks `i` from its parent's list (scanning for its predecessor).
    fn detach(&mut self, i: usize) {
        let Some(parent) = self.node(i).parent else {
            return;
        };
        let next = self.node(i).next_sibling;
        if self.node(parent).first_child == Some(i) {
            self.node_mut(parent).first_child = next;
        } else {
            let prev = self
                .children(parent)
                .find(|&c| self.node(c).next_sibling == Some(i));
            if let Some(prev) = prev {
                self.node_mut(prev).next_sibling = next;
            }
        }
        let n = self.node_mut(i);
        n.parent = None;
        n.next_sibling = None;
    }

    /// Disposes of an unreachable entry: freed now, or kept allocated as removed-but-open
    /// while a handle holds a reference (SEMANTICS §6).
    fn discard(&mut self, i: usize) {
        if let Some(k) = self.node(i).tag.filter(|_| !self.node(i).removed) {
            if let Some(count) = self.tagged.get_mut(&k) {
                *count -= 1;
                if *count == 0 {
                    self.tagged.remove(&k);
                }
            }
        }
        let n = self.node_mut(i);
        n.parent = None;
        n.first_child = None;
        n.next_sibling = None;
        if n.open_refs > 0 {
            n.removed = true;
        } else {
            self.free_slot(i);
        }
    }

    /// Frees slot `i`.
    fn free_slot(&mut self, i: usize) {
        self.nodes[i] = None;
        self.free.insert(i);
    }

    /// The entry limit (SEMANTICS §3): would `more` new entries pass `max_entries`? Also
    /// refuses if the inode counter would overflow (unreachable in practice: 2^64 creations).
    /// Decision: the check is the literal `allocated + more > max_entries` even for `more ==
    /// 0` (an empty-table `register` at an existing directory), so with `max_entries == 0`,
    /// where the root alone already passes the limit, that registration is `ENOSPC` too.
    fn check_room(&self, more: u64) -> Result<(), Errno> {
        let total = self
            .allocated_from_free()
            .checked_add(more)
            .ok_or(Errno::ENOSPC)?;
        // §3 counter limits: never more than 2^32 - 1 allocated entries, whatever the limit.
        if total > self.limits.max_entries
            || total > 4_294_967_295
            || self.next_ino.checked_add(more).is_none()
        {
            return Err(Errno::ENOSPC);
        }
        Ok(())
    }

    /// SEMANTICS §4 checks 4 and 5 of a creation: the parent `parent_comps` names resolves to
    /// a directory (in view 0) that is not a mount point. Returns its slot.
    fn creation_parent(&self, parent_comps: &[&[u8]]) -> Result<usize, Errno> {
        // 4. the parent resolves to a directory
        let parent = self.resolve(0, parent_comps)?;
        if !self.is_dir(parent) {
            return Err(Errno::ENOTDIR);
        }
        // 5. the parent is a mount point
        if self.is_mount_point(parent) {
            return Err(Errno::EROFS);
        }
        Ok(parent)
    }

    /// The four `explicit` creations, SEMANTICS §4 checks 1 and 3..=7 (the caller did check 2).
    fn create_entry(&mut self, comps: &[&[u8]], body: Body) -> Result<Ino, Errno> {
        // 3. the path names the root
        let Some((name, parent_comps)) = comps.split_last() else {
            return Err(Errno::EEXIST);
        };
        let parent = self.creation_parent(parent_comps)?; // 4 and 5
                                                          // 6. the name is taken: in a shared directory by any child whatever its tag (§10's
                                                          // order rule), in a tagged one by a child its namespace sees
        let tag = self.node(parent).tag;
        let taken = match tag {
            None => self.child_named(parent, name).is_some(),
            Some(k) => self.child_seen(parent, k, name).is_some(),
        };
        if taken {
            return Err(Errno::EEXIST);
        }
        // 7. the entry limit
        self.check_room(1)?;
        let idx = self.attach_new(parent, name, body, Owner::Explicit, tag);
        Ok(self.node(idx).ino)
    }

    // ----- invariant checks (SEMANTICS §8), each recomputed from the lists ---------------

    fn violation<T>(invariant: u8, detail: String) -> Result<T, InvariantViolation> {
        Err(InvariantViolation { invariant, detail })
    }

    /// §8.1 and §8.3's "linked means not removed", walking from the root with a guard
    /// against cycles (a corrupt list must not hang us). Returns the reachable slots.
    fn check_links(&self) -> Result<Vec<bool>, InvariantViolation> {
        let mut reachable = vec![false; self.nodes.len()];
        let mut stack = vec![ROOT];
        while let Some(i) = stack.pop() {
            if !matches!(self.nodes.get(i), Some(Some(_))) {
                return Oracle::violation(3, format!("slot {i} is linked but not allocated"));
            }
            if reachable[i] {
                return Oracle::violation(1, format!("slot {i} is reachable twice"));
            }
            reachable[i] = true;
            let n = self.node(i);
            if n.removed {
                return Oracle::violation(3, format!("ino {} is removed but reachable", n.ino));
            }
            if n.first_child.is_some() && !self.is_dir(i) {
                return Oracle::violation(1, format!("ino {} has children, not a dir", n.ino));
            }
            stack.extend(self.check_child_list(i)?);
        }
        Ok(reachable)
    }

    /// §8.1 for one directory: children strictly ascending by inode (so the list cannot loop
    /// back on itself), parent links right, names unique. Returns the children.
    fn check_child_list(&self, i: usize) -> Result<Vec<usize>, InvariantViolation> {
        let n = self.node(i);
        let mut seen: Vec<usize> = Vec::new();
        let mut cur = n.first_child;
        while let Some(c) = cur {
            if !matches!(self.nodes.get(c), Some(Some(_))) {
                return Oracle::violation(1, format!("ino {}: broken child list", n.ino));
            }
            let cn = self.node(c);
            if cn.parent != Some(i) {
                return Oracle::violation(1, format!("ino {}: wrong parent link", cn.ino));
            }
            if let Some(&p) = seen.last() {
                if self.node(p).ino >= cn.ino {
                    let detail = format!("ino {}: children not ascending at {}", n.ino, cn.ino);
                    return Oracle::violation(1, detail);
                }
            }
            seen.push(c);
            cur = cn.next_sibling;
        }
        // Names (§8.1 as §14 amends it): a name held by a shared child is held by no other
        // child, else by at most one child per namespace. Sorted by (name, tag), neighbours.
        let mut names: Vec<(&Bytes, Option<NsId>)> = seen
            .iter()
            .map(|&c| (&self.node(c).name, self.node(c).tag))
            .collect();
        names.sort();
        let clash = |w: &[(&Bytes, Option<NsId>)]| {
            w[0].0 == w[1].0 && (w[0].1 == w[1].1 || w[0].1.is_none() || w[1].1.is_none())
        };
        if let Some(w) = names.windows(2).find(|w| clash(w)) {
            let detail = format!("ino {}: name {} twice", n.ino, escape(w[0].0));
            return Oracle::violation(1, detail);
        }
        Ok(seen)
    }

    /// §8.3 and §8.6: every allocated entry is reachable, or removed and held open; every
    /// permanent entry is reachable; inode numbers are unique and already handed out.
    fn check_allocation(&self, reachable: &[bool]) -> Result<(), InvariantViolation> {
        // Inode numbers unique: sorted, no two neighbours equal.
        let mut inos: Vec<Ino> = self.nodes.iter().flatten().map(|n| n.ino).collect();
        inos.sort_unstable();
        if let Some(w) = inos.windows(2).find(|w| w[0] == w[1]) {
            return Oracle::violation(4, format!("ino {} allocated twice", w[0]));
        }
        let (mut live, mut held) = (0u64, 0u64);
        for (i, slot) in self.nodes.iter().enumerate() {
            let Some(n) = slot else { continue };
            if n.ino >= self.next_ino {
                return Oracle::violation(3, format!("ino {} not yet handed out", n.ino));
            }
            self.check_open_refs(i)?;
            if reachable[i] {
                live += 1;
                continue;
            }
            if n.permanent {
                return Oracle::violation(6, format!("permanent ino {} unreachable", n.ino));
            }
            if !n.removed || n.open_refs == 0 {
                return Oracle::violation(3, format!("ino {} leaked", n.ino));
            }
            held += 1;
        }
        if self.allocated() != live + held {
            return Oracle::violation(3, "allocated != live + held open".into());
        }
        let free: BTreeSet<usize> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].is_none())
            .collect();
        if free != self.free {
            return Oracle::violation(3, "the free-slot set is not the arena's free slots".into());
        }
        let mut tagged: BTreeMap<NsId, u64> = BTreeMap::new();
        for n in self.nodes.iter().flatten().filter(|n| !n.removed) {
            if let Some(k) = n.tag {
                *tagged.entry(k).or_default() += 1;
            }
        }
        if tagged != self.tagged {
            return Oracle::violation(
                10,
                "the per-namespace entry counts are not the arena's".into(),
            );
        }
        Ok(())
    }

    /// Handles: ascending ids below the counter, each on an allocated non-directory.
    fn check_handles(&self) -> Result<(), InvariantViolation> {
        for (k, h) in self.handles.iter().enumerate() {
            if h.id >= self.next_handle || (k > 0 && self.handles[k - 1].id >= h.id) {
                return Oracle::violation(3, format!("handle {} out of order", h.id));
            }
            if !matches!(self.nodes.get(h.node), Some(Some(n)) if !matches!(n.body, Body::Dir)) {
                return Oracle::violation(3, format!("handle {} on a freed entry", h.id));
            }
        }
        Ok(())
    }

    /// §8.5: each live header's path is a chain of live directories from the root, its rows
    /// are live children of its final directory owned by it, and a mount point is empty.
    /// (The refcounts themselves are recomputed from these headers, so they cannot drift.)
    fn check_headers(&self) -> Result<(), InvariantViolation> {
        for (k, h) in self.headers.iter().enumerate() {
            if h.id >= self.next_header || (k > 0 && self.headers[k - 1].id >= h.id) {
                return Oracle::violation(5, format!("header {} out of order", h.id));
            }
            let mut cur = ROOT;
            for &ino in h.path.iter() {
                match self.children(cur).find(|&c| self.node(c).ino == ino) {
                    Some(d) if self.is_dir(d) => cur = d,
                    _ => return Oracle::violation(5, format!("header {}: path broken", h.id)),
                }
            }
            for (r, slot) in h.rows.iter().zip(self.row_slots(cur, &h.rows)) {
                let ok = matches!(slot, Some(i)
                    if self.node(i).owner == Owner::Header(h.id)
                        && self.node(i).name == r.name
                        && self.is_dir(i) == r.is_dir);
                if !ok {
                    return Oracle::violation(5, format!("header {}: row lost", h.id));
                }
            }
            if h.rows.is_empty() && self.children(cur).next().is_some() {
                return Oracle::violation(5, format!("header {}: mount point not empty", h.id));
            }
        }
        Ok(())
    }

    /// §8.5: an implicit directory exists only while some header holds it.
    fn check_implicit(&self) -> Result<(), InvariantViolation> {
        for (i, slot) in self.nodes.iter().enumerate() {
            if let Some(n) = slot {
                if n.owner == Owner::Implicit && self.hrefs(i) == 0 {
                    return Oracle::violation(5, format!("implicit ino {} unheld", n.ino));
                }
            }
        }
        Ok(())
    }

    /// §8.11: builds ≤ generation + 1, every rendering within `max_content`, names unique, and
    /// every Generated entry's source exists. (The oracle keeps no rendering to compare.)
    fn check_sources(&self) -> Result<(), InvariantViolation> {
        self.check_source_list()?;
        for n in self.nodes.iter().flatten() {
            if let Body::Generated(src) = &n.body {
                if source::find(&self.sources, src).is_none() {
                    return Oracle::violation(11, format!("ino {}: no source", n.ino));
                }
            }
        }
        Ok(())
    }

    /// §8.11 for the sources themselves (not the entries that render them).
    fn check_source_list(&self) -> Result<(), InvariantViolation> {
        for (k, s) in self.sources.iter().enumerate() {
            let name = escape(&s.name);
            if s.builds > s.generation.saturating_add(1) {
                return Oracle::violation(11, format!("source {name}: builds > generation + 1"));
            }
            if s.render().len() > self.limits.max_content {
                return Oracle::violation(11, format!("source {name}: over max_content"));
            }
            if self.sources[..k].iter().any(|o| o.name == s.name) {
                return Oracle::violation(11, format!("source {name} twice"));
            }
        }
        Ok(())
    }

    /// §8.12: a handle with no snapshot is at position 0.
    fn check_snapshots(&self) -> Result<(), InvariantViolation> {
        match self
            .handles
            .iter()
            .find(|h| h.snapshot.is_none() && h.pos != 0)
        {
            Some(h) => Oracle::violation(12, format!("handle {}: position without snapshot", h.id)),
            None => Ok(()),
        }
    }

    /// §8.13: modes within 0o777, every symlink 0777, no id 4,294,967,295.
    fn check_modes(&self) -> Result<(), InvariantViolation> {
        self.nodes.iter().flatten().try_for_each(Oracle::check_mode)
    }

    /// §8.13 for one entry.
    fn check_mode(n: &Node) -> Result<(), InvariantViolation> {
        let symlink = matches!(n.body, Body::Symlink(_));
        if n.mode > 0o777 || (symlink && n.mode != 0o777) {
            return Oracle::violation(13, format!("ino {}: mode {:o}", n.ino, n.mode));
        }
        if n.uid == u32::MAX || n.gid == u32::MAX {
            return Oracle::violation(13, format!("ino {}: owner", n.ino));
        }
        Ok(())
    }

    /// §8.3 for one entry: its open count is the number of handles that took a reference.
    fn check_open_refs(&self, i: usize) -> Result<(), InvariantViolation> {
        let n = self.node(i);
        let refs = self
            .handles
            .iter()
            .filter(|h| h.node == i && h.took_ref)
            .count() as u64;
        if refs != n.open_refs {
            let detail = format!(
                "ino {}: open_refs {} but {refs} handles",
                n.ino, n.open_refs
            );
            return Oracle::violation(3, detail);
        }
        Ok(())
    }

    // ----- register (SEMANTICS §4), checks then changes -----------------------------------

    /// Register checks 2–4: the table on its own.
    fn check_table(&self, table: &[Row]) -> Result<(), Errno> {
        // 2. table size
        if table.len() > self.limits.max_table_rows {
            return Err(Errno::E2BIG);
        }
        // 3. each row in table order: name, then content or source, then mode (§12)
        for row in table {
            check_name(&row.name)?;
            match &row.kind {
                RowKind::File(c) if c.len() > self.limits.max_content => {
                    return Err(Errno::EFBIG);
                }
                RowKind::Gen(src) => check_name(src)?,
                _ => {}
            }
            if matches!(row.mode, Some(m) if m > 0o777) {
                return Err(Errno::EINVAL);
            }
        }
        // 4. a name twice in the table: sorted, any two equal names are neighbours.
        // Comparing every pair (tables have up to 1,024 rows) was 9 % of a campaign's time
        // under `perf`, and `pdtree bench --cases runner` runs 12 % more ops/s without it.
        let mut names: Vec<&[u8]> = table.iter().map(|r| r.name.as_slice()).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) {
            return Err(Errno::EEXIST);
        }
        Ok(())
    }

    /// Register checks 5–9 and the header counter, on the table's path. Returns the deepest
    /// existing directory, the inodes of the existing directories on the path, and how many
    /// leading components exist.
    /// `ns`: `None` for `register`, `Some(k)` for `register_ns(k, …)` (§10).
    fn check_table_dir(
        &self,
        ns: Option<NsId>,
        comps: &[&[u8]],
        table: &[Row],
    ) -> Result<(usize, Vec<Ino>, usize), Errno> {
        // 5. resolve the existing prefix (among shared entries for `register`, in view k for
        // `register_ns`); an existing non-directory → ENOTDIR
        let mut cur = ROOT;
        let mut existing: Vec<Ino> = Vec::new();
        for comp in comps {
            let found = match ns {
                None => self
                    .children(cur)
                    .find(|&c| self.node(c).tag.is_none() && *self.node(c).name == **comp),
                Some(k) => self.child_seen(cur, k, comp),
            };
            match found {
                // 5a. (`register`) the first missing name is held by a tagged entry
                None if ns.is_none() && self.child_named(cur, comp).is_some() => {
                    return Err(Errno::EEXIST);
                }
                None => break,
                Some(c) if !self.is_dir(c) => return Err(Errno::ENOTDIR),
                Some(c) => {
                    existing.push(self.node(c).ino);
                    cur = c;
                }
            }
        }
        let missing = comps.len() - existing.len();
        // 6. an implicit directory inside a mount point, or rows into one
        if self.is_mount_point(cur) && (missing > 0 || !table.is_empty()) {
            return Err(Errno::EROFS);
        }
        // 7. a row name already present in the final directory (only if it exists already):
        // any child for `register`, one view k sees for `register_ns`
        let held = |r: &Row| match ns {
            None => self.child_named(cur, &r.name).is_some(),
            Some(k) => self.child_seen(cur, k, &r.name).is_some(),
        };
        if missing == 0 && table.iter().any(held) {
            return Err(Errno::EEXIST);
        }
        // 8. the entry limit, implicit directories plus rows
        self.check_room((missing as u64).saturating_add(table.len() as u64))?;
        // 9. an empty table (a mount point) whose final directory is not empty
        if table.is_empty() && missing == 0 && self.children(cur).next().is_some() {
            return Err(Errno::EINVAL);
        }
        // §3 counter limits: header ids stop below 2^64 - 2 (unreachable in practice).
        if self.next_header >= u64::MAX - 1 {
            return Err(Errno::ENOSPC);
        }
        let existing_len = existing.len();
        Ok((cur, existing, existing_len))
    }
}

/// FNV-1a 64 (SEMANTICS §9): how a dump shows a snapshot, byte by byte.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl PseudoFs for Oracle {
    fn with_limits(limits: Limits) -> Self {
        // SEMANTICS §1: the root is inode 1, empty name, dir, explicit, permanent.
        let root = Node {
            ino: ROOT_INO,
            name: Bytes::default(),
            body: Body::Dir,
            owner: Owner::Explicit,
            permanent: true,
            open_refs: 0,
            tag: None,   // §10: the root is shared
            mode: 0o555, // §12: the root is a directory like any other
            uid: 0,
            gid: 0,
            parent: None,
            first_child: None,
            next_sibling: None,
            removed: false,
        };
        Oracle {
            limits,
            nodes: vec![Some(root)],
            free: BTreeSet::new(),
            tagged: BTreeMap::new(),
            headers: Vec::new(),
            handles: Vec::new(),
            sources: Vec::new(),
            namespaces: vec![Namespace {
                id: 0,
                uid: 0,
                gid: 0,
            }],
            next_ns: 1,
            next_ino: ROOT_INO + 1,
            next_header: 1,
            next_handle: 1,
        }
    }

    fn limits(&self) -> Limits {
        self.limits
    }

    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        let comps = split_path(path)?; // §4 check 1
        self.create_entry(&comps, Body::Dir)
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        let comps = split_path(path)?; // §4 check 1
        if content.len() > self.limits.max_content {
            return Err(Errno::EFBIG); // §4 check 2
        }
        self.create_entry(&comps, Body::File(content.into()))
    }

    fn create_files(&mut self, paths: &[&[u8]]) -> (u64, Option<Errno>) {
        self.create_files_in_runs(paths) // bulk.rs: a speed trick, with its measured reason
    }

    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        let comps = split_path(path)?; // §4 check 1
        if target.len() > self.limits.max_content {
            return Err(Errno::EFBIG); // §4 check 2
        }
        if target.is_empty() {
            return Err(Errno::EINVAL); // §4 check 2
        }
        self.create_entry(&comps, Body::Symlink(target.into()))
    }

    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        let comps = split_path(path)?; // §4 check 1
        self.create_entry(&comps, Body::Listing)
    }

    fn generated(&mut self, path: &[u8], src: &[u8]) -> Result<Ino, Errno> {
        let comps = split_path(path)?; // §4 check 1
        check_name(src)?; // §4 check 2, §11: the source as a name
        self.create_entry(&comps, Body::Generated(src.into()))
    }

    fn source_add(&mut self, src: &[u8], item: &[u8]) -> Result<(), Errno> {
        source::add(&mut self.sources, src, item, self.limits.max_content)
    }

    fn source_remove(&mut self, src: &[u8], item: &[u8]) -> Result<(), Errno> {
        source::remove(&mut self.sources, src, item)
    }

    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.register_tagged(None, dir, table)
    }

    fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.register_tagged(Some(ns), dir, table)
    }

    fn ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
        self.create_namespace(uid, gid)
    }

    fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno> {
        self.destroy_namespace(ns)
    }

    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        self.unregister_header(header)
    }

    fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno> {
        let i = self.lookup_in(view, path)?; // §5, §10: path errors, the view, resolution
        Ok(self.stat_of(i, Some(view)))
    }

    fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        // §5, §10 lookup_at: name, view, then live and visible, then directory, then child
        check_name(name)?;
        let d = self.dir_seen(view, dir)?;
        let c = self.child_seen(d, view, name).ok_or(Errno::ENOENT)?;
        Ok(self.stat_of(c, Some(view)))
    }

    /// One scan of the arena for `dir` and one of its list for all the names, where a
    /// `lookup_at_in` per name scans both again: a speed trick, with its measured reason.
    /// The end-of-input check asks every directory's `stat` here, grouped by parent; with
    /// one call per directory the built-in campaign (`pdtree fuzz --seed 0 --iterations
    /// 2000 --jobs 1`) took 1.04× its time with this (median of eight runs in turn).
    fn lookups_in(&self, view: View, dir: Ino, names: &[&[u8]]) -> Vec<Result<Stat, Errno>> {
        // The answers start as "not a child"; the list scan fills in the children it meets.
        let seen = self.dir_seen(view, dir);
        let mut answers: Vec<Result<Stat, Errno>> = names
            .iter()
            .map(|name| check_name(name).and(seen.map(drop)).and(Err(Errno::ENOENT)))
            .collect();
        let Ok(d) = seen else {
            return answers;
        };
        // The names' positions in name order, so each child finds its askers by a binary
        // search: a name asked twice gets two answers.
        let mut by_name: Vec<usize> = (0..names.len()).collect();
        by_name.sort_by_key(|&i| names[i]);
        for c in self.children(d).filter(|&c| self.visible(c, view)) {
            let name = &*self.node(c).name;
            let first = by_name.partition_point(|&i| names[i] < name);
            let askers = by_name[first..].iter().take_while(|&&i| names[i] == name);
            let mut stat = None;
            for &i in askers {
                answers[i] = Ok(*stat.get_or_insert_with(|| self.stat_of(c, Some(view))));
            }
        }
        answers
    }

    fn readdir_in(&self, view: View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        // §5, §10 readdir: max, view, then live and visible, then directory
        if max == 0 || max > self.limits.max_readdir {
            return Err(Errno::EINVAL);
        }
        let d = self.dir_seen(view, dir)?;
        let entries: Vec<DirEntry> = self.entries_seen(d, view, pos).take(max).collect();
        let next_pos = match entries.last() {
            Some(e) => e.ino.saturating_add(1),
            None => pos,
        };
        Ok(ReadDirPage { entries, next_pos })
    }

    /// One scan of the list: a whole readdir page by page rescans the list for every page,
    /// which on a 98,692-file directory read in pages of 16 took 10 s for one input.
    fn children_in(&self, view: View, dir: Ino) -> Result<Vec<DirEntry>, Errno> {
        let d = self.dir_seen(view, dir)?;
        Ok(self.entries_seen(d, view, 0).collect())
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        // §6 remove, in order
        let i = self.lookup_path(path)?;
        if i == ROOT {
            return Err(Errno::EBUSY);
        }
        let n = self.node(i);
        if n.permanent || matches!(n.owner, Owner::Header(_)) {
            return Err(Errno::EBUSY);
        }
        if self.is_dir(i) {
            if self.hrefs(i) > 0 {
                return Err(Errno::EBUSY);
            }
            if self.children(i).next().is_some() {
                return Err(Errno::ENOTEMPTY);
            }
        }
        self.detach(i);
        self.discard(i);
        Ok(())
    }

    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        // §6 remove_subtree: path errors, then every EBUSY check, then the removal.
        let top = self.lookup_path(path)?;
        if top == ROOT {
            return Err(Errno::EBUSY);
        }
        let mut subtree = Vec::new();
        let mut stack = vec![top];
        while let Some(i) = stack.pop() {
            subtree.push(i);
            stack.extend(self.children(i));
        }
        for &i in &subtree {
            let n = self.node(i);
            if n.permanent
                || matches!(n.owner, Owner::Header(_))
                || (self.is_dir(i) && self.hrefs(i) > 0)
            {
                return Err(Errno::EBUSY);
            }
        }
        self.detach(top);
        for &i in &subtree {
            self.discard(i);
        }
        Ok(subtree.len() as u64)
    }

    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        // §7: path errors; only explicit entries
        let i = self.lookup_path(path)?;
        if self.node(i).owner != Owner::Explicit {
            return Err(Errno::EINVAL);
        }
        // §7: a permanent entry's references are not tracked at all: handles opened before
        // the marking stop holding one, and open_refs is 0 from now on.
        self.node_mut(i).permanent = true;
        self.node_mut(i).open_refs = 0;
        for h in self.handles.iter_mut().filter(|h| h.node == i) {
            h.took_ref = false;
        }
        Ok(())
    }

    fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        // §7, §10 open: path errors, the view, resolution; a directory → EISDIR
        let i = self.lookup_in(view, path)?;
        if self.is_dir(i) {
            return Err(Errno::EISDIR);
        }
        let id = self.next_handle;
        // Unreachable in practice (2^64 opens), but never wrap a counter.
        let next_handle = id.checked_add(1).ok_or(Errno::ENOSPC)?;
        let took_ref = !self.node(i).permanent;
        // §3 counter limits: at most 2^32 - 1 references to one entry.
        if took_ref && self.node(i).open_refs >= u64::from(u32::MAX) {
            return Err(Errno::ENOSPC);
        }
        if took_ref {
            self.node_mut(i).open_refs += 1;
        }
        self.handles.push(Handle {
            id,
            node: i,
            took_ref,
            pos: 0,
            snapshot: None,
        });
        self.next_handle = next_handle;
        Ok(id)
    }

    fn read_at(&mut self, handle: HandleId, off: u64, len: u64) -> Result<Vec<u8>, Errno> {
        // §11 read_at: EBADF, ENOENT, then len 0 changes nothing
        let k = self.readable(handle)?;
        if len == 0 {
            return Ok(Vec::new());
        }
        let h = &self.handles[k];
        // Continue from the snapshot only at the position the last read ended, never at 0.
        let snap = match &h.snapshot {
            Some(snap) if off != 0 && off == h.pos => snap.clone(),
            _ => self.fresh_snapshot(h.node),
        };
        let total = snap.len() as u64;
        let from = off.min(total);
        let to = off.saturating_add(len).min(total);
        let bytes = snap[from as usize..to as usize].to_vec();
        let h = &mut self.handles[k];
        h.pos = off + bytes.len() as u64;
        h.snapshot = Some(snap);
        Ok(bytes)
    }

    fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno> {
        // §13: EBADF, ENOENT, not a File → EINVAL, EFBIG
        let k = self.readable(handle)?;
        let i = self.handles[k].node;
        if !matches!(self.node(i).body, Body::File(_)) {
            return Err(Errno::EINVAL);
        }
        if content.len() > self.limits.max_content {
            return Err(Errno::EFBIG);
        }
        self.node_mut(i).body = Body::File(content.into());
        let h = &mut self.handles[k];
        h.pos = 0;
        h.snapshot = None;
        Ok(())
    }

    fn chmod_in(&mut self, view: View, path: &[u8], mode: Mode) -> Result<(), Errno> {
        // §12 chmod: path syntax, mode, view, resolution, symlink
        let comps = split_path(path)?;
        if mode > 0o777 {
            return Err(Errno::EINVAL);
        }
        self.live_view(view)?;
        let i = self.resolve(view, &comps)?;
        if matches!(self.node(i).body, Body::Symlink(_)) {
            return Err(Errno::EINVAL);
        }
        self.node_mut(i).mode = mode;
        Ok(())
    }

    fn chown_in(&mut self, view: View, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno> {
        // §12 chown: path syntax, ids, view, resolution; any kind
        let comps = split_path(path)?;
        if uid == u32::MAX || gid == u32::MAX {
            return Err(Errno::EINVAL);
        }
        self.live_view(view)?;
        let i = self.resolve(view, &comps)?;
        let n = self.node_mut(i);
        n.uid = uid;
        n.gid = gid;
        Ok(())
    }

    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        // §7 close: unknown or closed → EBADF
        let pos = self
            .handles
            .iter()
            .position(|h| h.id == handle)
            .ok_or(Errno::EBADF)?;
        let h = self.handles.remove(pos);
        if h.took_ref {
            let n = self.node_mut(h.node);
            // A handle that took a reference is counted in open_refs (checked by invariant 3).
            n.open_refs = n.open_refs.saturating_sub(1);
            if n.removed && n.open_refs == 0 {
                self.free_slot(h.node); // the last close frees a removed entry
            }
        }
        Ok(())
    }

    fn stats(&self) -> Stats {
        Stats {
            live: self.live_count(),
            allocated: self.allocated(),
            headers: self.headers.len() as u64,
            handles: self.handles.len() as u64,
        }
    }

    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        let reachable = self.check_links()?;
        self.check_allocation(&reachable)?;
        self.check_handles()?;
        self.check_headers()?;
        self.check_implicit()?;
        self.check_sources()?;
        self.check_snapshots()?;
        self.check_modes()?;
        self.check_namespaces()
    }

    fn check_invariants_near(&self, dirs: &[Ino]) -> Result<(), InvariantViolation> {
        // What an op on these directories can break: their child lists (§8.1), each child's
        // open count (§8.3) and attributes (§8.13); and the handle table (§8.3, §8.12) and
        // the sources (§8.11). Everything else waits for the next `check_invariants`.
        self.check_handles()?;
        self.check_snapshots()?;
        self.check_source_list()?;
        for &ino in dirs {
            let Some(d) = self.find_live(ino).filter(|&d| self.is_dir(d)) else {
                continue;
            };
            for c in self.check_child_list(d)? {
                self.check_open_refs(c)?;
                Oracle::check_mode(self.node(c))?;
            }
        }
        Ok(())
    }

    fn dump(&self) -> String {
        // §9, byte for byte, written into one string (writing to a `String` cannot fail).
        let mut out = String::new();
        self.dump_entries(&mut out);
        self.dump_headers(&mut out);
        self.dump_handles(&mut out);
        self.dump_sources(&mut out);
        let s = self.stats();
        let _ = writeln!(
            out,
            "next ino={} header={} handle={} ns={}",
            self.next_ino, self.next_header, self.next_handle, self.next_ns
        );
        let _ = writeln!(
            out,
            "stats live={} allocated={} headers={} handles={}",
            s.live, s.allocated, s.headers, s.handles
        );
        out
    }
}

/// The dump's sections (SEMANTICS §9), each appended to `out`.
impl Oracle {
    /// Every reachable entry in pre-order, children ascending: an explicit stack, never
    /// recursion (SEMANTICS §6, §9); a directory's children are pushed in reverse so the
    /// smallest inode is popped first.
    ///
    /// Each stack item carries its parent's path, so a path costs its own length. (Measured:
    /// [`path_of`](Self::path_of) per entry made the dump of a chain 2,000 deep, 4 MB of
    /// paths, take 0.3 s, most of a 100-op run over it.)
    fn dump_entries(&self, out: &mut String) {
        let mut stack: Vec<(usize, std::rc::Rc<String>)> = vec![(ROOT, Default::default())];
        while let Some((i, parent_path)) = stack.pop() {
            let path = if i == ROOT {
                std::rc::Rc::new(String::new())
            } else {
                let name = escape(&self.node(i).name);
                std::rc::Rc::new(format!("{parent_path}/{name}"))
            };
            let mark = stack.len();
            stack.extend(self.children(i).map(|c| (c, path.clone())));
            stack[mark..].reverse();
            let n = self.node(i);
            let ns = n.tag.map(|k| format!(" ns={k}")).unwrap_or_default();
            let shown = if i == ROOT { "/" } else { path.as_str() };
            let _ = write!(
                out,
                "entry {} {}{ns} ino={} nlink={} size={} mode={:04o} uid={} gid={} owner={}",
                shown,
                n.body.kind().word(),
                n.ino,
                self.nlink(i, None),
                self.size(i, None),
                n.mode,
                n.uid,
                n.gid,
                n.owner,
            );
            if self.is_dir(i) {
                let _ = write!(out, " hrefs={}", self.hrefs(i));
            }
            let _ = writeln!(out, " perm={} open={}", u8::from(n.permanent), n.open_refs);
        }
    }

    /// Live headers by id, each with its rows.
    fn dump_headers(&self, out: &mut String) {
        for h in &self.headers {
            let ns = h.ns.map(|k| format!(" ns={k}")).unwrap_or_default();
            let _ = write!(out, "header {}{ns} dir=", h.id);
            let dir = self.find_live(Oracle::header_dir(h));
            match dir {
                Some(d) => out.push_str(&self.path_of(d)),
                None => out.push('?'),
            }
            let _ = writeln!(out, " rows={}", h.rows.len());
            let slots = match dir {
                Some(d) => self.row_slots(d, &h.rows),
                None => vec![None; h.rows.len()],
            };
            for (r, slot) in h.rows.iter().zip(slots) {
                let kind = match slot.map(|i| &self.node(i).body) {
                    Some(Body::Dir) => "dir".to_string(),
                    Some(Body::Generated(src)) => format!("generated:{}", escape(src)),
                    _ => "file".to_string(),
                };
                let _ = writeln!(out, "row {} {} {kind}", h.id, escape(&r.name));
            }
        }
    }

    /// Open handles by id, with their position and snapshot.
    fn dump_handles(&self, out: &mut String) {
        for h in &self.handles {
            let n = self.node(h.node);
            let snap = match &h.snapshot {
                None => "-".to_string(),
                Some(b) => format!("{}:{:016x}", b.len(), fnv1a(b)),
            };
            let _ = writeln!(
                out,
                "handle {} ino={} removed={} pos={} snap={snap}",
                h.id,
                n.ino,
                u8::from(n.removed),
                h.pos,
            );
        }
    }

    /// Live namespaces, then sources by name, each with its items in order.
    fn dump_sources(&self, out: &mut String) {
        for n in &self.namespaces {
            let _ = writeln!(out, "ns {} uid={} gid={}", n.id, n.uid, n.gid);
        }
        let mut sources: Vec<&Source> = self.sources.iter().collect();
        sources.sort_by(|a, b| a.name.cmp(&b.name));
        for src in sources {
            let name = escape(&src.name);
            let _ = writeln!(
                out,
                "source {name} gen={} items={} cache={} builds={}",
                src.generation,
                src.items.len(),
                u8::from(src.cache_valid),
                src.builds
            );
            for item in &src.items {
                let _ = writeln!(out, "item {name} {}", escape(item));
            }
        }
    }
}

impl Oracle {
    /// `register` (`ns` `None`) and `register_ns` (§4, §10): every check, then the change.
    fn register_tagged(
        &mut self,
        ns: Option<NsId>,
        dir: &[u8],
        table: &[Row],
    ) -> Result<HeaderId, Errno> {
        // §4 register, check 1: dir_path syntax; 2–4 the table
        let comps = split_path(dir)?;
        self.check_table(table)?;
        // §10: register_ns's namespace must be live
        if let Some(k) = ns {
            self.live_view(k)?;
        }
        let (mut cur, existing, found) = self.check_table_dir(ns, &comps, table)?;
        let missing = &comps[found..];
        let id = self.next_header;

        // All checks passed: create implicit directories outermost first, then rows.
        let mut path = existing;
        for comp in missing {
            cur = self.attach_new(cur, comp, Body::Dir, Owner::Implicit, ns);
            path.push(self.node(cur).ino);
        }
        let mut rows = Vec::new();
        let mut last = self.children(cur).last();
        for row in table {
            let (body, is_dir) = match &row.kind {
                RowKind::File(c) => (Body::File(c.as_slice().into()), false),
                RowKind::Dir => (Body::Dir, true),
                RowKind::Gen(src) => (Body::Generated(src.as_slice().into()), false),
            };
            let idx = self.attach_new_after(cur, last, &row.name, body, Owner::Header(id), ns);
            last = Some(idx);
            if let Some(mode) = row.mode {
                self.node_mut(idx).mode = mode;
            }
            rows.push(HeaderRow {
                name: row.name.as_slice().into(),
                ino: self.node(idx).ino,
                is_dir,
            });
        }
        // Every directory on the path gets hrefs + 1: that is, the header is now live.
        self.headers.push(Header {
            id,
            ns,
            path: path.into(),
            rows: rows.into(),
        });
        self.next_header = id + 1;
        Ok(id)
    }

    fn unregister_header(&mut self, header: HeaderId) -> Result<(), Errno> {
        // §4 unregister, check 1: unknown or already unregistered
        let pos = self
            .headers
            .iter()
            .position(|h| h.id == header)
            .ok_or(Errno::ENOENT)?;
        let h = &self.headers[pos];
        let slots = match self.find_live(Oracle::header_dir(h)) {
            Some(d) => self.row_slots(d, &h.rows),
            None => Vec::new(),
        };
        let rows: Vec<(usize, bool)> = h
            .rows
            .iter()
            .zip(slots)
            .filter_map(|(r, slot)| slot.map(|i| (i, r.is_dir)))
            .collect();
        // 2. any dir row with hrefs > 0 (all rows first)
        if rows.iter().any(|&(i, d)| d && self.hrefs(i) > 0) {
            return Err(Errno::EBUSY);
        }
        // 3. any dir row with children
        if rows
            .iter()
            .any(|&(i, d)| d && self.children(i).next().is_some())
        {
            return Err(Errno::ENOTEMPTY);
        }
        // Remove the rows (an open row file stays allocated until its last close).
        for &(i, _) in &rows {
            self.detach(i);
            self.discard(i);
        }
        // The header dies: every directory on its path loses one href.
        let h = self.headers.remove(pos);
        self.release_path(&h.path);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    //! The invariant checks are real: corrupt the private state and watch them fire.
    use super::*;

    fn small() -> Oracle {
        let mut o = Oracle::new();
        o.mkdir(b"d").unwrap(); // slot 1, ino 2
        o.create(b"d/a", b"").unwrap(); // slot 2, ino 3
        o.create(b"d/b", b"").unwrap(); // slot 3, ino 4
        o.check_invariants().unwrap();
        o
    }

    fn broken(o: &Oracle) -> u8 {
        o.check_invariants().unwrap_err().invariant
    }

    #[test]
    fn detects_unordered_children() {
        let mut o = small();
        o.node_mut(2).ino = 9;
        assert_eq!(broken(&o), 1);
    }

    #[test]
    fn detects_duplicate_names() {
        let mut o = small();
        o.node_mut(3).name = b"a"[..].into();
        assert_eq!(broken(&o), 1);
    }

    #[test]
    fn detects_cycles_and_bad_links() {
        let mut o = small();
        o.node_mut(3).next_sibling = Some(2);
        assert_eq!(broken(&o), 1);
        let mut o = small();
        o.node_mut(2).parent = Some(ROOT);
        assert_eq!(broken(&o), 1);
        let mut o = small();
        o.node_mut(3).next_sibling = Some(77);
        assert_eq!(broken(&o), 1);
    }

    #[test]
    fn detects_leaks_and_bad_refcounts() {
        let mut o = small();
        o.node_mut(1).next_sibling = None;
        o.node_mut(2).next_sibling = None; // d/b unreachable, not removed
        assert_eq!(broken(&o), 3);
        let mut o = small();
        o.node_mut(3).open_refs = 1; // no handle holds it
        assert_eq!(broken(&o), 3);
        let mut o = small();
        let h = o.open(b"d/a").unwrap();
        o.handles[0].took_ref = false;
        assert_eq!(broken(&o), 3);
        o.handles[0].took_ref = true;
        o.check_invariants().unwrap();
        o.handles[0].id = 5;
        assert_eq!(broken(&o), 3);
        o.handles[0].id = h;
        o.handles[0].node = 1; // a directory
        assert_eq!(broken(&o), 3);
    }

    #[test]
    fn detects_unreachable_permanent() {
        let mut o = small();
        o.mark_permanent(b"d/b").unwrap();
        o.node_mut(2).next_sibling = None;
        o.node_mut(3).parent = None;
        o.node_mut(3).removed = true;
        assert_eq!(broken(&o), 6);
    }

    #[test]
    fn detects_header_damage() {
        let mut o = small();
        o.register(b"d/x/y", &[Row::file("r", "")]).unwrap();
        o.check_invariants().unwrap();
        let mut p = o.clone();
        p.headers[0].path = p.headers[0].path[1..].into(); // no longer a chain from the root
        assert_eq!(broken(&p), 5);
        let mut p = o.clone();
        let mut rows = p.headers[0].rows.to_vec();
        rows[0].is_dir = true;
        p.headers[0].rows = rows.into();
        assert_eq!(broken(&p), 5);
        let mut p = o.clone();
        p.headers.clear(); // implicit directories nobody holds
        assert_eq!(broken(&p), 5);
        let mut p = o.clone();
        p.headers[0].rows = Rc::from([]); // now a "mount point" holding a row
        assert_eq!(broken(&p), 5);
    }

    #[test]
    fn detects_duplicate_and_future_inodes() {
        let mut o = small();
        o.node_mut(2).ino = 2; // same as d, but in another list
        assert_eq!(broken(&o), 4);
        let mut o = small();
        o.node_mut(3).ino = 50;
        assert_eq!(broken(&o), 3);
    }
}
