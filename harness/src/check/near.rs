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
//! | `bulk` | its directory |
//! | `read`, `read_at`, `write`, `close` | the directory of the path the slot's handle was opened at |
//! | `register`, `register_ns`, `unregister`, `remove_subtree`, `ns_create`, `ns_destroy`, `source_add`, `source_remove`, `chain`, `cycle_register`, `cycle_source`, `cycle_ns` | the whole tree |
//!
//! An op whose path does not resolve names no directory there; if it failed, the atomicity
//! proof shows it changed nothing.

use pdtree::{Ino, Kind, PseudoFs, View, ROOT_INO};

use crate::lang::op::{Op, SLOTS};

/// Ops between two checks of the whole tree (a check of the whole tree also ends every
/// input). At 32 a full check costs a thirty-second of what it cost after every op, and a
/// broken invariant outside an op's scope is reported at most 31 ops late.
pub const FULL_CHECK_INTERVAL: usize = 32;

/// The part of the state the invariant check after an op covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The op cannot have changed the state.
    Nothing,
    /// These directories (inode numbers) and their children.
    Dirs(Vec<Ino>),
    /// The whole tree.
    Whole,
}

/// Per handle slot, the directory of the path its handle was opened at.
#[derive(Clone, Debug)]
pub(crate) struct OpenDirs {
    slots: [Option<Ino>; SLOTS],
}

impl OpenDirs {
    pub(crate) fn new() -> OpenDirs {
        OpenDirs {
            slots: [None; SLOTS],
        }
    }

    /// Remembers where a successful `open` opened its handle (resolved in `b` after it).
    pub(crate) fn opened<B: PseudoFs>(&mut self, op: &Op, b: &B) {
        if let Op::Open { view, slot, path } = op {
            let dir = resolve_dir(b, *view, parent(path));
            self.slots[usize::from(*slot) % SLOTS] = dir;
        }
    }

    fn of(&self, slot: u8) -> Option<Ino> {
        self.slots[usize::from(slot) % SLOTS]
    }
}

/// The scope of the check after `op`, resolved in `b` (the reference, after the op).
pub(crate) fn scope<B: PseudoFs>(op: &Op, b: &B, open: &OpenDirs) -> Scope {
    if !op.kind().may_mutate() {
        return Scope::Nothing;
    }
    let at = |view: View, path: &[u8]| {
        let dirs = [parent(path), Some(path)];
        Scope::Dirs(
            dirs.into_iter()
                .filter_map(|p| resolve_dir(b, view, p))
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
        | Op::CycleOpen { path, .. } => at(0, path),
        Op::Chmod { view, path, .. }
        | Op::Chown { view, path, .. }
        | Op::Open { view, path, .. } => at(*view, path),
        Op::Bulk { dir, .. } => Scope::Dirs(resolve_dir(b, 0, Some(dir)).into_iter().collect()),
        Op::Read { slot }
        | Op::ReadAt { slot, .. }
        | Op::Write { slot, .. }
        | Op::Close { slot } => Scope::Dirs(open.of(*slot).into_iter().collect()),
        _ => Scope::Whole,
    }
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
        let open = OpenDirs::new();
        let mkdir = Op::Mkdir {
            path: b"/net/dev".to_vec(),
        };
        assert_eq!(scope(&mkdir, &o, &open), Scope::Dirs(vec![net, dev]));
        let create = Op::Create {
            path: b"/net/dev/eth0".to_vec(),
            content: vec![],
        };
        assert_eq!(scope(&create, &o, &open), Scope::Dirs(vec![dev]));
        let gone = Op::Remove {
            path: b"/nowhere/x".to_vec(),
        };
        assert_eq!(scope(&gone, &o, &open), Scope::Dirs(vec![]));
        let stat = Op::Stat {
            view: 0,
            path: b"/net".to_vec(),
        };
        assert_eq!(scope(&stat, &o, &open), Scope::Nothing);
        let register = Op::Register {
            dir: b"/sys".to_vec(),
            rows: vec![Row::dir("a")],
        };
        assert_eq!(scope(&register, &o, &open), Scope::Whole);
    }

    #[test]
    fn a_handle_op_covers_the_directory_it_was_opened_in() {
        let mut o = Oracle::with_limits(Limits::default());
        let net = o.mkdir(b"/net").unwrap();
        o.create(b"/net/dev", b"eth0\n").unwrap();
        let mut open = OpenDirs::new();
        let close = Op::Close { slot: 3 };
        assert_eq!(scope(&close, &o, &open), Scope::Dirs(vec![]));
        open.opened(
            &Op::Open {
                view: 0,
                slot: 3,
                path: b"/net/dev".to_vec(),
            },
            &o,
        );
        assert_eq!(scope(&close, &o, &open), Scope::Dirs(vec![net]));
    }
}
