//! What the generator knows about the reference's state, learnt from the outcomes it was
//! shown: known paths, inode numbers, headers and live slots.

use std::collections::{BTreeMap, BTreeSet};

use pdtree::{Errno, HeaderId, Ino, Kind, NsId, Row, RowKind, ROOT_INO};

use crate::gen::MAX_BULK_SMALL;
use crate::lang::deep::bulk_sample;
use crate::lang::op::{Field, Op, Slot};
use crate::lang::runner::Outcome;

/// What the generator knows about the reference's state, from the outcomes it was shown.
/// Approximate (it is only used to bias choices), but deterministic.
#[derive(Clone, Debug, Default)]
pub(crate) struct Model {
    /// Normalized paths (`/a/b`) of directories believed to exist; `/` always.
    pub(crate) dirs: BTreeSet<Vec<u8>>,
    /// Normalized paths of non-directories believed to exist.
    pub(crate) files: BTreeSet<Vec<u8>>,
    /// Inode numbers ever returned.
    pub(crate) inos: BTreeSet<Ino>,
    /// Inode numbers returned as directories.
    pub(crate) dir_inos: BTreeSet<Ino>,
    /// Every header registered: id, normalized dir, row names.
    pub(crate) headers: Vec<(HeaderId, Vec<u8>, Vec<Vec<u8>>)>,
    /// Headers not yet unregistered.
    pub(crate) live_headers: BTreeSet<HeaderId>,
    /// Handle slots holding an open handle.
    pub(crate) open_slots: BTreeSet<Slot>,
    /// Cursor slots that were opened.
    pub(crate) cursor_slots: BTreeSet<Slot>,
    /// Where each handle slot's last read ended, so a `read_at` can continue there.
    pub(crate) read_pos: BTreeMap<Slot, u64>,
    /// (source, item) pairs added and not removed since.
    pub(crate) items: BTreeSet<(Vec<u8>, Vec<u8>)>,
    /// Every namespace `ns_create` returned.
    pub(crate) namespaces: Vec<NsId>,
    /// Those not yet destroyed.
    pub(crate) live_namespaces: BTreeSet<NsId>,
    /// The directory of the input's large bulk while it exists, and its inode once an
    /// outcome showed it: the state the input paid for, which the ops after it aim at.
    pub(crate) focus: Option<(Vec<u8>, Option<Ino>)>,
}

/// `/`-prefixed form of a (valid) path; the root is `/`.
pub(crate) fn norm(path: &[u8]) -> Vec<u8> {
    let rest = path.strip_prefix(b"/").unwrap_or(path);
    let mut out = Vec::with_capacity(rest.len() + 1);
    out.push(b'/');
    out.extend_from_slice(rest);
    out
}

pub(crate) fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(dir.len() + 1 + name.len());
    p.extend_from_slice(dir);
    if p.last() != Some(&b'/') {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

impl Model {
    pub(crate) fn new() -> Model {
        let mut m = Model::default();
        m.dirs.insert(b"/".to_vec());
        m.inos.insert(ROOT_INO);
        m.dir_inos.insert(ROOT_INO);
        m
    }

    fn forget(&mut self, path: &[u8], subtree: bool) {
        let p = norm(path);
        if let Some((f, _)) = &self.focus {
            if *f == p || (subtree && f.starts_with(&join(&p, b""))) {
                self.focus = None;
            }
        }
        self.dirs.remove(&p);
        self.files.remove(&p);
        if subtree {
            let prefix = join(&p, b"");
            self.dirs.retain(|d| !d.starts_with(&prefix));
            self.files.retain(|d| !d.starts_with(&prefix));
        }
        self.dirs.insert(b"/".to_vec());
    }

    /// Learns from the reference's outcome of `op`.
    pub(crate) fn observe(&mut self, op: &Op, out: &Outcome) {
        match (op, out) {
            (Op::Mkdir { path }, Outcome::Ino(n)) => self.created(path, *n, true),
            (
                Op::Create { path, .. }
                | Op::Symlink { path, .. }
                | Op::Listing { path }
                | Op::Generated { path, .. },
                Outcome::Ino(n),
            ) => self.created(path, *n, false),
            (Op::Register { dir, rows }, Outcome::Header(h))
            | (Op::RegisterNs { dir, rows, .. }, Outcome::Header(h)) => {
                self.registered(dir, rows, *h)
            }
            (Op::NsCreate { .. }, Outcome::Ns(k)) => {
                self.namespaces.push(*k);
                self.live_namespaces.insert(*k);
            }
            (Op::NsDestroy { ns }, Outcome::Destroyed(_)) => {
                self.live_namespaces.remove(ns);
            }
            (Op::Unregister { header }, Outcome::Unit) => self.unregistered(*header),
            (_, Outcome::Stat(s)) => {
                self.saw_ino(s.ino, s.kind == Kind::Dir);
                self.saw_focus(op, s.ino);
            }
            (_, Outcome::Page(p)) => {
                for e in &p.entries {
                    self.saw_ino(e.ino, e.kind == Kind::Dir);
                }
            }
            (Op::OpenDir { slot, .. }, Outcome::Cursor(n)) => {
                self.inos.insert(*n);
                self.cursor_slots.insert(*slot);
            }
            (Op::Remove { path }, Outcome::Unit) => self.forget(path, false),
            (Op::RemoveSubtree { path }, Outcome::Removed(_)) => self.forget(path, true),
            (Op::Open { slot, .. }, Outcome::Handle(_)) => {
                self.open_slots.insert(*slot);
                self.read_pos.insert(*slot, 0);
            }
            (Op::Read { slot }, Outcome::Read(b)) => {
                self.read_pos.insert(*slot, b.len() as u64);
            }
            (Op::ReadAt { slot, offset, len }, Outcome::Read(b)) if *len > 0 => {
                self.read_pos.insert(*slot, offset + b.len() as u64);
            }
            (Op::Write { slot, .. }, Outcome::Unit) => {
                self.read_pos.insert(*slot, 0);
            }
            (Op::SourceAdd { source, item }, Outcome::Unit) => {
                self.items.insert((source.clone(), item.clone()));
            }
            (Op::SourceRemove { source, item }, Outcome::Unit) => {
                self.items.remove(&(source.clone(), item.clone()));
            }
            (Op::Close { slot }, Outcome::Unit) => {
                self.open_slots.remove(slot);
            }
            (Op::Bulk { dir, prefix, .. }, Outcome::Bulk { made, .. }) => {
                self.bulk_made(dir, prefix, *made)
            }
            (Op::Chain { dir, name, .. }, Outcome::Done { done, .. }) => {
                self.chain_made(dir, name, *done)
            }
            (_, Outcome::Err(Errno::ENOENT)) => self.forget_missing(op),
            _ => {}
        }
    }

    fn saw_ino(&mut self, n: Ino, dir: bool) {
        self.inos.insert(n);
        if dir {
            self.dir_inos.insert(n);
        }
    }

    /// A `stat` of the focus directory tells its inode.
    fn saw_focus(&mut self, op: &Op, ino: Ino) {
        if let (Op::Stat { path, .. }, Some((f, known))) = (op, &mut self.focus) {
            if norm(path) == *f {
                *known = Some(ino);
            }
        }
    }

    fn created(&mut self, path: &[u8], n: Ino, dir: bool) {
        self.saw_ino(n, dir);
        let set = if dir { &mut self.dirs } else { &mut self.files };
        set.insert(norm(path));
    }

    /// A table's directory, the directories above it and its rows now exist.
    fn registered(&mut self, dir: &[u8], rows: &[Row], h: HeaderId) {
        let d = norm(dir);
        for (i, &b) in d.iter().enumerate() {
            if b == b'/' && i > 0 {
                self.dirs.insert(d[..i].to_vec());
            }
        }
        self.dirs.insert(d.clone());
        // A large table's first few rows and its last one, as for `bulk`.
        let some = |i: usize| rows.len() <= 8 || i < 4 || i + 1 == rows.len();
        for (_, r) in rows.iter().enumerate().filter(|&(i, _)| some(i)) {
            let p = join(&d, &r.name);
            match r.kind {
                RowKind::Dir => self.dirs.insert(p),
                RowKind::File(_) | RowKind::Gen(_) => self.files.insert(p),
            };
        }
        let names = rows.iter().map(|r| r.name.clone()).collect();
        self.headers.push((h, d, names));
        self.live_headers.insert(h);
    }

    fn unregistered(&mut self, header: HeaderId) {
        self.live_headers.remove(&header);
        if let Some((_, d, names)) = self.headers.iter().find(|x| x.0 == header) {
            let paths: Vec<_> = names.iter().map(|n| join(d, n)).collect();
            for p in paths {
                self.forget(&p, true);
            }
        }
    }

    /// A bulk op's first few files and its last one now exist (not all of them: the model's
    /// picks would then land mostly on bulk files). A large bulk's directory becomes the
    /// focus; the root's inode is known without a `stat`.
    fn bulk_made(&mut self, dir: &[u8], prefix: &[u8], made: u64) {
        self.files.extend(bulk_sample(&norm(dir), prefix, made, 4));
        if made > MAX_BULK_SMALL as u64 {
            let d = norm(dir);
            let ino = (d == b"/").then_some(ROOT_INO);
            self.focus = Some((d, ino));
        }
    }

    /// A chain's first few levels and its deepest one now exist (not all of them, as for
    /// `bulk`).
    fn chain_made(&mut self, dir: &[u8], name: &[u8], levels: u64) {
        let mut path = norm(dir);
        for level in 1..=levels {
            path = join(&path, name);
            if level <= 4 || level == levels {
                self.dirs.insert(path.clone());
            }
        }
    }

    /// A path the model believed in turned out missing: forget it and what is below it.
    fn forget_missing(&mut self, op: &Op) {
        for field in op.fields() {
            if let Field::Path(path) = field {
                self.forget(path, true);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::runner::Runner;

    #[test]
    fn norm_and_join() {
        assert_eq!(norm(b"a/b"), b"/a/b");
        assert_eq!(norm(b"/"), b"/");
        assert_eq!(norm(b""), b"/");
        assert_eq!(join(b"/", b"x"), b"/x");
        assert_eq!(join(b"/a", b"x"), b"/a/x");
    }

    /// Runs `lines` on the oracle, each outcome shown to a fresh model, and returns the
    /// model's focus after each line.
    fn focus_after(lines: &[&str]) -> Vec<Option<(Vec<u8>, Option<Ino>)>> {
        let mut r = Runner::from_tree(pdtree_oracle::Oracle::new());
        let mut m = Model::new();
        let mut seen = Vec::new();
        for line in lines {
            let op = crate::lang::script::parse_op(line.as_bytes()).expect("a valid op");
            m.observe(&op, &r.apply(&op));
            seen.push(m.focus.clone());
        }
        seen
    }

    /// A large bulk's directory becomes the focus, a `stat` of it tells its inode, and
    /// removing it (or an ancestor) ends the focus; a small bulk makes none.
    #[test]
    fn a_large_bulk_focuses_until_its_directory_goes() {
        let large = format!("bulk \"/d/e\" \"eth\" {}", MAX_BULK_SMALL + 1);
        let small = format!("bulk \"/d\" \"eth\" {MAX_BULK_SMALL}");
        let seen = focus_after(&[
            "mkdir \"/d\"",
            &small,
            "mkdir \"/d/e\"",
            &large,
            "stat \"/d\"",
            "stat \"/d/e\"",
            "remove_subtree \"/d\"",
        ]);
        assert_eq!(seen[1], None, "a small bulk focused");
        assert_eq!(seen[3], Some((b"/d/e".to_vec(), None)));
        assert_eq!(
            seen[4], seen[3],
            "a stat of another directory changed the focus"
        );
        let Some((_, Some(ino))) = seen[5] else {
            panic!("the stat did not tell the inode: {:?}", seen[5]);
        };
        assert!(ino > ROOT_INO);
        assert_eq!(seen[6], None, "the focus outlived its directory");
        let root = focus_after(&[&format!("bulk \"/\" \"n\" {}", MAX_BULK_SMALL + 1)]);
        assert_eq!(root[0], Some((b"/".to_vec(), Some(ROOT_INO))));
    }
}
