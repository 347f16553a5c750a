//! What an op could have changed: the scope of the invariant check that follows it.
//!
//! After every op the differential runner checks the invariants of the directories the op
//! could have changed ([`PseudoFs::check_invariants_near`]), and the whole tree
//! ([`PseudoFs::check_invariants`]) every [`FULL_CHECK_INTERVAL`] ops and at the end of every
//! input. The scope comes from the op's own fields, resolved in the reference after the op:
//!
//! | op | scope |
//! |---|---|
//! | `stat`, `lookup_at`, `readdir`, cursors, `stats`, `check`, `dump` (`&self` methods) | nothing: they cannot change the state |
//! | `mkdir`, `create`, `symlink`, `listing`, `generated`, `remove`, `mark_permanent`, `chmod`, `chown`, `open`, `cycle_create`, `cycle_open` | the path's directory and the path itself |
//! | `remove_subtree` | the path's directory |
//! | `bulk` | its directory |
//! | `register`, `register_ns`, `cycle_register` | every directory on the table's path, root to end (the whole tree past [`MAX_SCOPE_DEPTH`] levels) |
//! | `unregister` | every directory on the path the header was registered at |
//! | `read`, `read_at`, `write`, `close` | the directory of the path the slot's handle was opened at |
//! | `source_add`, `source_remove`, `cycle_source`, `ns_create`, `cycle_ns` | no directory: the sources, counters and handles only |
//! | `ns_destroy`, `chain` | the whole tree |
//!
//! Every scope also covers what costs no walk of the tree: the tree-wide counters, the handle
//! table and the sources.
//! An op whose path does not resolve names no directory there; if it failed, the atomicity
//! proof shows it changed nothing.

use std::collections::BTreeMap;

use pdtree::{HeaderId, Ino, Kind, PseudoFs, View, ROOT_INO};

use crate::lang::op::{Op, SLOTS};
use crate::lang::runner::Outcome;

/// Ops between two checks of the whole tree (a check of the whole tree also ends every
/// input). At 32 a full check costs a thirty-second of what it cost after every op, and a
/// broken invariant outside an op's scope is reported at most 31 ops late.
pub const FULL_CHECK_INTERVAL: usize = 32;

/// The deepest directory whose ancestors a scope lists one by one (a `register` creates or
/// holds every directory on its path). Resolving each ancestor's path costs its depth in
/// the reference, so a deeper path is checked as the whole tree instead.
pub const MAX_SCOPE_DEPTH: usize = 64;

/// The part of the state the invariant check after an op covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The op cannot have changed the state.
    Nothing,
    /// These directories (inode numbers) and their children, and what needs no walk.
    Dirs(Vec<Ino>),
    /// The whole tree.
    Whole,
}

/// Where the state the later ops name was made: the directory each handle slot's handle
/// was opened in, and the directory path of each live header.
#[derive(Clone, Debug)]
pub(crate) struct Places {
    handles: [Option<Ino>; SLOTS],
    headers: BTreeMap<HeaderId, (View, Vec<u8>)>,
}

impl Places {
    pub(crate) fn new() -> Places {
        Places {
            handles: [None; SLOTS],
            headers: BTreeMap::new(),
        }
    }

    /// Remembers what a successful `op` (outcome `out`, resolved in `b` after it) made.
    pub(crate) fn learn<B: PseudoFs>(&mut self, op: &Op, out: &Outcome, b: &B) {
        match (op, out) {
            (Op::Open { view, slot, path }, _) => {
                let dir = resolve_dir(b, *view, parent(path));
                self.handles[usize::from(*slot) % SLOTS] = dir;
            }
            (Op::Register { dir, .. }, Outcome::Header(id)) => {
                self.headers.insert(*id, (0, dir.clone()));
            }
            (Op::RegisterNs { ns, dir, .. }, Outcome::Header(id)) => {
                self.headers.insert(*id, (*ns, dir.clone()));
            }
            (Op::Unregister { header }, _) => {
                self.headers.remove(header);
            }
            _ => {}
        }
    }

    fn handle_dir(&self, slot: u8) -> Option<Ino> {
        self.handles[usize::from(slot) % SLOTS]
    }
}

/// The scope of the check after `op`, resolved in `b` (the reference, after the op).
/// `places` is as it was before the op.
pub(crate) fn scope<B: PseudoFs>(op: &Op, b: &B, places: &Places) -> Scope {
    if !op.kind().may_mutate() {
        return Scope::Nothing;
    }
    let dirs = |view: View, paths: &[Option<&[u8]>]| {
        Scope::Dirs(
            paths
                .iter()
                .filter_map(|&p| resolve_dir(b, view, p))
                .collect(),
        )
    };
    match op {
        Op::Mkdir { path }
        | Op::Create { path, .. }
        | Op::Symlink { path, .. }
        | Op::Listing { path }
        | Op::Generated { path, .. }
        | Op::Remove { path }
        | Op::MarkPermanent { path }
        | Op::CycleCreate { path, .. }
        | Op::CycleOpen { path, .. } => dirs(0, &[parent(path), Some(path)]),
        Op::Chmod { view, path, .. }
        | Op::Chown { view, path, .. }
        | Op::Open { view, path, .. } => dirs(*view, &[parent(path), Some(path)]),
        Op::RemoveSubtree { path } => dirs(0, &[parent(path)]),
        Op::Bulk { dir, .. } => dirs(0, &[Some(dir)]),
        Op::Register { dir, .. } | Op::CycleRegister { dir, .. } => ancestors(b, 0, dir),
        Op::RegisterNs { ns, dir, .. } => ancestors(b, *ns, dir),
        Op::Unregister { header } => match places.headers.get(header) {
            Some((view, dir)) => ancestors(b, *view, dir),
            None => Scope::Whole,
        },
        Op::Read { slot }
        | Op::ReadAt { slot, .. }
        | Op::Write { slot, .. }
        | Op::Close { slot } => Scope::Dirs(places.handle_dir(*slot).into_iter().collect()),
        Op::SourceAdd { .. }
        | Op::SourceRemove { .. }
        | Op::CycleSource { .. }
        | Op::NsCreate { .. }
        | Op::CycleNs { .. } => Scope::Dirs(Vec::new()),
        _ => Scope::Whole,
    }
}

/// The directory at `dir` in `view` and every directory above it, up to the root (as many
/// as exist), or the whole tree for a path deeper than [`MAX_SCOPE_DEPTH`].
fn ancestors<B: PseudoFs>(b: &B, view: View, dir: &[u8]) -> Scope {
    let dir = dir.strip_prefix(b"/").unwrap_or(dir);
    let ends = dir
        .iter()
        .enumerate()
        .filter(|&(_, &c)| c == b'/')
        .map(|(k, _)| k);
    let mut prefixes: Vec<&[u8]> = vec![&[]];
    prefixes.extend(ends.map(|k| &dir[..k]));
    if !dir.is_empty() {
        prefixes.push(dir);
    }
    if prefixes.len() > MAX_SCOPE_DEPTH {
        return Scope::Whole;
    }
    let inos = prefixes
        .into_iter()
        .map_while(|p| resolve_dir(b, view, Some(p)));
    Scope::Dirs(inos.collect())
}

/// The path of the directory holding `path`'s last component (`Some(b"")` for the root), or
/// `None` for the root itself.
fn parent(path: &[u8]) -> Option<&[u8]> {
    let path = path.strip_prefix(b"/").unwrap_or(path);
    if path.is_empty() {
        return None;
    }
    Some(
        path.iter()
            .rposition(|&c| c == b'/')
            .map_or(&[][..], |k| &path[..k]),
    )
}

/// The inode of the directory at `path` in `view` (the empty path is the root), if it is one.
fn resolve_dir<B: PseudoFs>(b: &B, view: View, path: Option<&[u8]>) -> Option<Ino> {
    let path = path?;
    if path.is_empty() || path == b"/" {
        return Some(ROOT_INO);
    }
    b.stat_in(view, path)
        .ok()
        .filter(|st| st.kind == Kind::Dir)
        .map(|st| st.ino)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdtree::{Limits, Row};
    use pdtree_oracle::Oracle;

    #[test]
    fn parents_of_paths() {
        assert_eq!(parent(b"/a/b"), Some(&b"a"[..]));
        assert_eq!(parent(b"a/b/c"), Some(&b"a/b"[..]));
        assert_eq!(parent(b"/a"), Some(&b""[..]));
        assert_eq!(parent(b"/"), None);
        assert_eq!(parent(b""), None);
    }

    #[test]
    fn scopes_name_the_directories_an_op_touches() {
        let mut o = Oracle::with_limits(Limits::default());
        let net = o.mkdir(b"/net").unwrap();
        let dev = o.mkdir(b"/net/dev").unwrap();
        o.create(b"/net/dev/eth0", b"up\n").unwrap();
        let places = Places::new();
        let at = |op: Op| scope(&op, &o, &places);
        let path = |p: &[u8]| p.to_vec();
        assert_eq!(
            at(Op::Mkdir {
                path: path(b"/net/dev")
            }),
            Scope::Dirs(vec![net, dev])
        );
        let create = Op::Create {
            path: path(b"/net/dev/eth0"),
            content: vec![],
        };
        assert_eq!(at(create), Scope::Dirs(vec![dev]));
        assert_eq!(
            at(Op::Remove {
                path: path(b"/nowhere/x")
            }),
            Scope::Dirs(vec![])
        );
        assert_eq!(
            at(Op::RemoveSubtree {
                path: path(b"/net/dev")
            }),
            Scope::Dirs(vec![net])
        );
        assert_eq!(
            at(Op::Stat {
                view: 0,
                path: path(b"/net")
            }),
            Scope::Nothing
        );
        assert_eq!(at(Op::NsDestroy { ns: 1 }), Scope::Whole);
    }

    #[test]
    fn a_handle_op_covers_the_directory_it_was_opened_in() {
        let mut o = Oracle::with_limits(Limits::default());
        let net = o.mkdir(b"/net").unwrap();
        o.create(b"/net/dev", b"eth0\n").unwrap();
        let mut places = Places::new();
        let close = Op::Close { slot: 3 };
        assert_eq!(scope(&close, &o, &places), Scope::Dirs(vec![]));
        let open = Op::Open {
            view: 0,
            slot: 3,
            path: b"/net/dev".to_vec(),
        };
        places.learn(&open, &Outcome::Handle(1), &o);
        assert_eq!(scope(&close, &o, &places), Scope::Dirs(vec![net]));
    }

    #[test]
    fn a_table_covers_every_directory_on_its_path_and_unregister_the_same() {
        let mut o = Oracle::with_limits(Limits::default());
        let table = [Row::dir("a")];
        let id = o.register(b"/sys/net/ipv4", &table).unwrap();
        let mut dirs = vec![ROOT_INO];
        for p in [&b"/sys"[..], b"/sys/net", b"/sys/net/ipv4"] {
            dirs.push(o.stat(p).unwrap().ino);
        }
        let register = Op::Register {
            dir: b"/sys/net/ipv4".to_vec(),
            rows: table.to_vec(),
        };
        let mut places = Places::new();
        assert_eq!(scope(&register, &o, &places), Scope::Dirs(dirs.clone()));
        let unregister = Op::Unregister { header: id };
        assert_eq!(
            scope(&unregister, &o, &places),
            Scope::Whole,
            "an unknown header"
        );
        places.learn(&register, &Outcome::Header(id), &o);
        assert_eq!(scope(&unregister, &o, &places), Scope::Dirs(dirs));
        let deep: Vec<u8> = b"d/".repeat(MAX_SCOPE_DEPTH + 1);
        let op = Op::Register {
            dir: deep,
            rows: vec![],
        };
        assert_eq!(
            scope(&op, &o, &places),
            Scope::Whole,
            "deeper than MAX_SCOPE_DEPTH"
        );
    }
}
