//! Running ops on one [`PseudoFs`] implementation and describing each result as an
//! [`Outcome`], a comparable value with a canonical one-line text.
//!
//! ## Outcome text
//!
//! | op | success | failure |
//! |---|---|---|
//! | `mkdir` `create` `symlink` `listing` | `ok 5` (the inode) | `err ENOENT` |
//! | `register` `register_ns` | `ok header 2` | `err …` |
//! | `ns_create` | `ok ns 1` | `err …` |
//! | `ns_destroy` | `ok 4` (the entries removed) | `err …` |
//! | `unregister` `remove` `mark_permanent` `close` `seek` `rewind` | `ok` | `err …` |
//! | `stat` `lookup_at` | `ok stat ino=3 kind=file nlink=1 size=5 mode=0444 uid=0 gid=0 owner=explicit perm=0 open=0` | `err …` |
//! | `read_at` | `ok read "bytes"` | `err …` |
//! | `write` `source_add` `source_remove` `chmod` `chown` | `ok` | `err …` |
//! | `generated` | `ok 5` (the inode) | `err …` |
//! | `readdir` `readpage` | `ok page next=7 [2 d "a", 5 f "b"]` (`ok page next=7 []` if empty) | `err …` |
//! | `remove_subtree` | `ok removed 4` | `err …` |
//! | `open` | `ok handle 3` | `err …` |
//! | `read` | `ok read "bytes"` (quoted like the script format) | `err …` |
//! | `opendir` | `ok cursor 5` (the inode the cursor now points at) | `err …` |
//! | `stats` | `ok stats live=2 allocated=2 headers=0 handles=0` | — |
//! | `check` | `ok` | `violation 2: detail` |
//! | `dump` | `dump` then one `\| line` per dump line | — |
//! | `bulk` | `ok bulk 5`, or `ok bulk 3 then err ENOSPC` when the fourth file failed | — |
//! | `chain` `cycle_*` | `ok done 5`, or `ok done 3 then err EBUSY` when the fourth level or cycle failed | — |
//! | `repeat N op` | `repeat ok=N err=M`, then `; first err #I: <outcome>` if any iteration failed, then `; last: <outcome>` if N > 0 | |
//!
//! In the page text each entry is `<ino> <kind letter> <quoted name>`. In a `repeat` summary
//! an iteration counts as `err` when its outcome is an `err` or a `violation`.
//!
//! ```
//! use pdtree::Tree;
//! use pdtree_harness::{Op, Outcome, Runner};
//! let mut r: Runner<Tree> = Runner::new(pdtree::Limits::default());
//! assert_eq!(r.apply(&Op::Mkdir { path: b"/a".to_vec() }), Outcome::Ino(2));
//! assert_eq!(r.apply(&Op::Mkdir { path: b"/a".to_vec() }).to_string(), "err EEXIST");
//! ```

use std::fmt;

use pdtree::{
    Errno, HandleId, HeaderId, Ino, InvariantViolation, Limits, NsId, PseudoFs, ReadDirPage, Stat,
    Stats,
};

use crate::lang::deep;
use crate::lang::op::{Op, Slot, SLOTS};
use crate::lang::script::{print_limits, quote, Script, Stmt};

/// The result of one op (or one `repeat` statement), comparable across implementations.
///
/// Its [`Display`](fmt::Display) is the canonical outcome text (see the module docs).
///
/// ```
/// use pdtree_harness::Outcome;
/// assert_eq!(Outcome::Err(pdtree::Errno::EBADF).to_string(), "err EBADF");
/// assert_eq!(Outcome::Dump("a\nb\n".into()).to_string(), "dump\n| a\n| b");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// An inode number from a creation: `ok 5`.
    Ino(Ino),
    /// A header id from `register`: `ok header 2`.
    Header(HeaderId),
    /// A handle id from `open`: `ok handle 3`.
    Handle(HandleId),
    /// A namespace id from `ns_create`: `ok ns 1`.
    Ns(NsId),
    /// How many entries `ns_destroy` removed: `ok 4`.
    Destroyed(u64),
    /// The inode a cursor now points at, from `opendir`: `ok cursor 5`.
    Cursor(Ino),
    /// Success with no value: `ok`.
    Unit,
    /// A `stat` or `lookup_at` result.
    Stat(Stat),
    /// The bytes from `read`: `ok read "..."`.
    Read(Vec<u8>),
    /// A readdir page: `ok page next=N [...]`.
    Page(ReadDirPage),
    /// `stats`: `ok stats live=.. allocated=.. headers=.. handles=..`.
    Stats(Stats),
    /// How many entries `remove_subtree` removed: `ok removed 4`.
    Removed(u64),
    /// A failed op: `err ENOENT`.
    Err(Errno),
    /// `check` found a broken invariant: `violation 2: detail`.
    Violation(InvariantViolation),
    /// The canonical dump text, verbatim.
    Dump(String),
    /// What a `bulk` op did: how many files it made, and the error that stopped it, if any.
    /// Not a failure: the files before the error stay.
    Bulk {
        /// Files made.
        made: u64,
        /// The error of the first file that could not be made.
        stopped: Option<Errno>,
    },
    /// What a `chain` or `cycle_*` op did: how many levels or cycles completed, and the
    /// error that stopped it, if any. Not a failure, like [`Outcome::Bulk`].
    Done {
        /// Levels or cycles completed.
        done: u64,
        /// The error of the first call that failed.
        stopped: Option<Errno>,
    },
    /// The summary of a `repeat` statement.
    Repeat {
        /// Iterations that did not fail.
        ok: u64,
        /// Iterations whose outcome was `err` or `violation`.
        err: u64,
        /// The first failing iteration's index and outcome.
        first_err: Option<(u64, Box<Outcome>)>,
        /// The last iteration's outcome (`None` when the count was 0).
        last: Option<Box<Outcome>>,
    },
}

impl Outcome {
    /// Whether this is a failure (`err …` or `violation …`, or a repeat with failures).
    pub fn is_failure(&self) -> bool {
        match self {
            Outcome::Err(_) | Outcome::Violation(_) => true,
            Outcome::Repeat { err, .. } => *err > 0,
            _ => false,
        }
    }
}

/// Writes `s` on one line: printable ASCII and space as themselves (`\` included, since a
/// correct dump already escapes its backslashes as `\\`), any other char as `\u{hex}`.
/// Read left to right, a `\u{` can only come from here, so raw control bytes or non-ASCII
/// in a buggy dump stay visible and distinct from a correct `\xHH` escape.
fn one_line(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    for c in s.chars() {
        match c {
            ' '..='~' => write!(f, "{c}")?,
            c => write!(f, "\\u{{{:x}}}", c as u32)?,
        }
    }
    Ok(())
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ino(n) => write!(f, "ok {n}"),
            Outcome::Header(h) => write!(f, "ok header {h}"),
            Outcome::Handle(h) => write!(f, "ok handle {h}"),
            Outcome::Ns(k) => write!(f, "ok ns {k}"),
            Outcome::Destroyed(n) => write!(f, "ok {n}"),
            Outcome::Cursor(n) => write!(f, "ok cursor {n}"),
            Outcome::Unit => f.write_str("ok"),
            Outcome::Stat(s) => write!(
                f,
                "ok stat ino={} kind={}{} nlink={} size={} mode={:04o} uid={} gid={} owner={} perm={} open={}",
                s.ino,
                s.kind.word(),
                s.ns.map(|k| format!(" ns={k}")).unwrap_or_default(),
                s.nlink,
                s.size,
                s.mode,
                s.uid,
                s.gid,
                s.owner,
                u8::from(s.permanent),
                s.open_refs
            ),
            Outcome::Read(b) => write!(f, "ok read {}", quote(b)),
            Outcome::Page(p) => write_page(f, p),
            Outcome::Stats(s) => write!(
                f,
                "ok stats live={} allocated={} headers={} handles={}",
                s.live, s.allocated, s.headers, s.handles
            ),
            Outcome::Removed(n) => write!(f, "ok removed {n}"),
            Outcome::Err(e) => write!(f, "err {e}"),
            Outcome::Violation(v) => {
                write!(f, "violation {}: ", v.invariant)?;
                one_line(f, &v.detail)
            }
            Outcome::Dump(text) => write_dump(f, text),
            Outcome::Bulk { made, stopped } => {
                write!(f, "ok bulk {made}")?;
                match stopped {
                    Some(e) => write!(f, " then err {e}"),
                    None => Ok(()),
                }
            }
            Outcome::Done { done, stopped } => {
                write!(f, "ok done {done}")?;
                match stopped {
                    Some(e) => write!(f, " then err {e}"),
                    None => Ok(()),
                }
            }
            Outcome::Repeat {
                ok,
                err,
                first_err,
                last,
            } => {
                write!(f, "repeat ok={ok} err={err}")?;
                if let Some((i, o)) = first_err {
                    write!(f, "; first err #{i}: {o}")?;
                }
                if let Some(o) = last {
                    write!(f, "; last: {o}")?;
                }
                Ok(())
            }
        }
    }
}
/// A failure as `err …`, a success through `f`.
fn o<V>(r: Result<V, Errno>, f: impl FnOnce(V) -> Outcome) -> Outcome {
    r.map_or_else(Outcome::Err, f)
}

/// The ops that name no handle or cursor slot: one tree call each. ([`Runner::apply`] runs
/// the slot ops.)
fn tree_op<T: PseudoFs>(t: &mut T, op: &Op) -> Outcome {
    match op {
        Op::Mkdir { path } => o(t.mkdir(path), Outcome::Ino),
        Op::Create { path, content } => o(t.create(path, content), Outcome::Ino),
        Op::Symlink { path, target } => o(t.symlink(path, target), Outcome::Ino),
        Op::Listing { path } => o(t.listing(path), Outcome::Ino),
        Op::Register { dir, rows } => o(t.register(dir, rows), Outcome::Header),
        Op::RegisterNs { ns, dir, rows } => o(t.register_ns(*ns, dir, rows), Outcome::Header),
        Op::NsCreate { uid, gid } => o(t.ns_create(*uid, *gid), Outcome::Ns),
        Op::NsDestroy { ns } => o(t.ns_destroy(*ns), Outcome::Destroyed),
        Op::Unregister { header } => o(t.unregister(*header), |()| Outcome::Unit),
        Op::Stat { view, path } => o(t.stat_in(*view, path), Outcome::Stat),
        Op::LookupAt { view, dir, name } => o(t.lookup_at_in(*view, *dir, name), Outcome::Stat),
        Op::Readdir {
            view,
            dir,
            pos,
            max,
        } => o(t.readdir_in(*view, *dir, *pos, *max), Outcome::Page),
        Op::Remove { path } => o(t.remove(path), |()| Outcome::Unit),
        Op::RemoveSubtree { path } => o(t.remove_subtree(path), Outcome::Removed),
        Op::MarkPermanent { path } => o(t.mark_permanent(path), |()| Outcome::Unit),
        Op::Generated { path, source } => o(t.generated(path, source), Outcome::Ino),
        Op::SourceAdd { source, item } => o(t.source_add(source, item), |()| Outcome::Unit),
        Op::SourceRemove { source, item } => o(t.source_remove(source, item), |()| Outcome::Unit),
        Op::Chmod { view, path, mode } => o(t.chmod_in(*view, path, *mode), |()| Outcome::Unit),
        Op::Chown {
            view,
            path,
            uid,
            gid,
        } => o(t.chown_in(*view, path, *uid, *gid), |()| Outcome::Unit),
        Op::Stats => Outcome::Stats(t.stats()),
        Op::Check => match t.check_invariants() {
            Ok(()) => Outcome::Unit,
            Err(v) => Outcome::Violation(v),
        },
        Op::Dump => Outcome::Dump(t.dump()),
        Op::Bulk { dir, prefix, count } => deep::bulk(t, dir, prefix, *count),
        Op::Chain { dir, name, count } => deep::chain(t, dir, name, *count),
        Op::CycleCreate { path, count } => deep::cycle_create(t, path, *count),
        Op::CycleOpen { path, count } => deep::cycle_open(t, path, *count),
        Op::CycleRegister { dir, count } => deep::cycle_register(t, dir, *count),
        Op::CycleSource {
            source,
            item,
            count,
        } => deep::cycle_source(t, source, item, *count),
        Op::CycleNs { count } => deep::cycle_ns(t, *count),
        _ => unreachable!("Runner::apply runs `{op}`"),
    }
}

/// `ok page next=N [ino kind "name", ...]`.
fn write_page(f: &mut fmt::Formatter<'_>, p: &ReadDirPage) -> fmt::Result {
    write!(f, "ok page next={} [", p.next_pos)?;
    for (i, e) in p.entries.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{} {} {}", e.ino, e.kind.letter(), quote(&e.name))?;
    }
    f.write_str("]")
}

/// `dump`, then one `| line` per dump line (a bare `|` for an empty one), and a marker when
/// the dump does not end with a newline.
fn write_dump(f: &mut fmt::Formatter<'_>, text: &str) -> fmt::Result {
    f.write_str("dump")?;
    let body = text.strip_suffix('\n');
    for line in body.unwrap_or(text).split('\n') {
        if body.is_some() || !text.is_empty() {
            f.write_str("\n|")?;
            if !line.is_empty() {
                f.write_str(" ")?;
                one_line(f, line)?;
            }
        }
    }
    if body.is_none() && !text.is_empty() {
        // A dump must end with a newline; show that this one did not.
        f.write_str("\n|! no newline at end of dump")?;
    }
    Ok(())
}

/// A readdir cursor: which directory, and the next position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DirCursor {
    /// The directory's inode number (0, never live, until `opendir` succeeds).
    pub ino: Ino,
    /// The position the next `readpage` starts at.
    pub pos: u64,
}

/// Executes ops on one tree, holding the handle and cursor slot tables (see [`crate::lang::op`]).
///
/// Deterministic and engine-agnostic: it only calls [`PseudoFs`] methods.
///
/// ```
/// use pdtree_harness::{lang::script::parse_script, Runner};
/// # fn demo<T: pdtree::PseudoFs>() {
/// let script = parse_script(b"mkdir \"/a\"\nstat \"/a\"\n").unwrap();
/// let transcript = pdtree_harness::run_script::<T>(&script);
/// assert!(transcript.starts_with("mkdir \"/a\"\n=> ok 2\n"));
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct Runner<T: PseudoFs> {
    tree: T,
    handles: [HandleId; SLOTS],
    cursors: [DirCursor; SLOTS],
}

impl<T: PseudoFs> Runner<T> {
    /// A runner over a fresh tree with these limits.
    pub fn new(limits: Limits) -> Self {
        Self::from_tree(T::with_limits(limits))
    }

    /// A runner over an existing tree, with every slot empty.
    pub fn from_tree(tree: T) -> Self {
        Runner {
            tree,
            handles: [0; SLOTS],
            cursors: [DirCursor::default(); SLOTS],
        }
    }

    /// The tree.
    pub fn tree(&self) -> &T {
        &self.tree
    }

    /// The tree, mutably (ops run outside the runner do not update the slots).
    pub fn tree_mut(&mut self) -> &mut T {
        &mut self.tree
    }

    /// Gives the tree back.
    pub fn into_tree(self) -> T {
        self.tree
    }

    /// The handle id in a handle slot (0 if never filled). Panics if `slot >= SLOTS`.
    pub fn handle(&self, slot: Slot) -> HandleId {
        self.handles[usize::from(slot)]
    }

    /// The cursor in a cursor slot. Panics if `slot >= SLOTS`.
    pub fn cursor(&self, slot: Slot) -> DirCursor {
        self.cursors[usize::from(slot)]
    }

    /// Runs one op and describes its outcome. Slot numbers at or above [`SLOTS`] (which the
    /// parser never produces) are taken modulo [`SLOTS`].
    pub fn apply(&mut self, op: &Op) -> Outcome {
        let s = |slot: &Slot| usize::from(*slot) % SLOTS;
        let t = &mut self.tree;
        match op {
            Op::Open { view, slot, path } => match t.open_in(*view, path) {
                Ok(h) => {
                    self.handles[s(slot)] = h;
                    Outcome::Handle(h)
                }
                Err(e) => Outcome::Err(e),
            },
            Op::Read { slot } => o(t.read(self.handles[s(slot)]), Outcome::Read),
            Op::Close { slot } => o(t.close(self.handles[s(slot)]), |()| Outcome::Unit),
            Op::ReadAt { slot, offset, len } => o(
                t.read_at(self.handles[s(slot)], *offset, *len),
                Outcome::Read,
            ),
            Op::Write { slot, content } => {
                o(t.write(self.handles[s(slot)], content), |()| Outcome::Unit)
            }
            Op::OpenDir { view, slot, path } => match t.stat_in(*view, path) {
                Ok(st) => {
                    self.cursors[s(slot)] = DirCursor {
                        ino: st.ino,
                        pos: 0,
                    };
                    Outcome::Cursor(st.ino)
                }
                Err(e) => Outcome::Err(e),
            },
            Op::ReadPage { view, slot, max } => {
                let c = &mut self.cursors[s(slot)];
                match t.readdir_in(*view, c.ino, c.pos, *max) {
                    Ok(page) => {
                        c.pos = page.next_pos;
                        Outcome::Page(page)
                    }
                    Err(e) => Outcome::Err(e),
                }
            }
            Op::Seek { slot, pos } => {
                self.cursors[s(slot)].pos = *pos;
                Outcome::Unit
            }
            Op::Rewind { slot } => {
                self.cursors[s(slot)].pos = 0;
                Outcome::Unit
            }
            _ => tree_op(t, op),
        }
    }

    /// Runs one statement: an op, or every iteration of a `repeat` (summarised).
    pub fn run_stmt(&mut self, stmt: &Stmt) -> Outcome {
        match stmt {
            Stmt::Op(op) => self.apply(op),
            Stmt::Repeat { count, op } => {
                let (mut ok, mut err) = (0, 0);
                let mut first_err = None;
                let mut last = None;
                for i in 0..*count {
                    let out = self.apply(&op.expand(i));
                    if out.is_failure() {
                        err += 1;
                        if first_err.is_none() {
                            first_err = Some((i, Box::new(out.clone())));
                        }
                    } else {
                        ok += 1;
                    }
                    last = Some(Box::new(out));
                }
                Outcome::Repeat {
                    ok,
                    err,
                    first_err,
                    last,
                }
            }
        }
    }
}

/// Runs a script on a fresh `T` (built with the script's limits) and returns its transcript
/// text: the `limits` line if any, then each statement followed by `=> <outcome>` (see
/// [`crate::lang::transcript`]). Comments are not reproduced.
pub fn run_script<T: PseudoFs>(script: &Script) -> String {
    let mut r: Runner<T> = Runner::new(script.limits.unwrap_or_default());
    let mut out = String::new();
    if let Some(l) = &script.limits {
        out.push_str(&print_limits(l));
        out.push('\n');
    }
    for st in &script.stmts {
        out.push_str(&format!("{st}\n=> {}\n", r.run_stmt(st)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdtree::{DirEntry, Kind, Owner};

    #[test]
    fn stat_and_page_text() {
        let st = Stat {
            ino: 3,
            kind: Kind::File,
            nlink: 1,
            size: 5,
            ns: None,
            mode: 0o444,
            uid: 0,
            gid: 0,
            owner: Owner::Header(2),
            permanent: true,
            open_refs: 0,
        };
        assert_eq!(
            Outcome::Stat(st).to_string(),
            "ok stat ino=3 kind=file nlink=1 size=5 mode=0444 uid=0 gid=0 owner=header:2 perm=1 open=0"
        );
        let page = ReadDirPage {
            entries: vec![
                DirEntry {
                    name: b"a".to_vec(),
                    ino: 2,
                    kind: Kind::Dir,
                },
                DirEntry {
                    name: b"b\xff".to_vec(),
                    ino: 5,
                    kind: Kind::Listing,
                },
            ],
            next_pos: 6,
        };
        assert_eq!(
            Outcome::Page(page).to_string(),
            "ok page next=6 [2 d \"a\", 5 g \"b\\xff\"]"
        );
        assert_eq!(
            Outcome::Page(ReadDirPage {
                entries: vec![],
                next_pos: 9
            })
            .to_string(),
            "ok page next=9 []"
        );
        assert_eq!(
            Outcome::Read(b"x\n".to_vec()).to_string(),
            "ok read \"x\\n\""
        );
    }

    #[test]
    fn dump_violation_repeat_and_bulk_text() {
        assert_eq!(Outcome::Dump("x y\n".into()).to_string(), "dump\n| x y");
        assert_eq!(
            Outcome::Dump("x".into()).to_string(),
            "dump\n| x\n|! no newline at end of dump"
        );
        assert_eq!(Outcome::Dump(String::new()).to_string(), "dump");
        assert_eq!(
            Outcome::Violation(InvariantViolation {
                invariant: 2,
                detail: "a\nb".into()
            })
            .to_string(),
            "violation 2: a\\u{a}b"
        );
        let rep = Outcome::Repeat {
            ok: 3,
            err: 1,
            first_err: Some((3, Box::new(Outcome::Err(Errno::ENOSPC)))),
            last: Some(Box::new(Outcome::Err(Errno::ENOSPC))),
        };
        assert_eq!(
            rep.to_string(),
            "repeat ok=3 err=1; first err #3: err ENOSPC; last: err ENOSPC"
        );
        assert_eq!(
            Outcome::Repeat {
                ok: 0,
                err: 0,
                first_err: None,
                last: None
            }
            .to_string(),
            "repeat ok=0 err=0"
        );
        let stopped = Outcome::Bulk {
            made: 3,
            stopped: Some(Errno::ENOSPC),
        };
        assert_eq!(stopped.to_string(), "ok bulk 3 then err ENOSPC");
        assert!(!stopped.is_failure());
    }
}
