//! The operations the harness can run: every SPEC operation plus the harness's own slot-based
//! handle and readdir-cursor operations, `check` and `dump`.
//!
//! An [`Op`] is plain data: byte strings are `Vec<u8>` (any bytes, UTF-8 not required), and
//! handles and readdir cursors are addressed by small slot numbers (`0..=`[`MAX_SLOT`]) so a
//! script is deterministic and does not need to know which handle id a tree will hand out.
//!
//! ## Slots
//!
//! * **Handle slots.** `open <slot> <path>` stores the returned handle id in the slot;
//!   `read <slot>` and `close <slot>` pass the slot's id to the tree. A slot that was never
//!   filled holds id `0`, which no tree ever issues (ids count from 1), so `read`/`close` of an
//!   empty slot is `EBADF` ("unknown handle"). `close` does **not** clear the slot: it keeps
//!   the closed id, so a second `close` (or a `read`) passes the closed id and is `EBADF`
//!   ("closed handle"). A failed `open` leaves the slot unchanged.
//! * **Cursor slots.** `opendir <slot> <path>` stats the path and, on success, sets the
//!   cursor to `(ino, pos 0)` (whatever the kind: a cursor on a file makes `readpage` report
//!   `ENOTDIR`). `readpage <slot> <n>` calls `readdir(ino, pos, n)` and on success moves `pos`
//!   to the page's `next_pos`. `seek <slot> <pos>` sets `pos`; `rewind <slot>` sets it to 0.
//!   A cursor slot never opened is `(ino 0, pos 0)`; inode 0 is never live, so `readpage` on
//!   it is `ENOENT` (or `EINVAL` for a bad page size, which readdir checks first). A failed
//!   `opendir` or `readpage` leaves the cursor unchanged.
//!
//! Handle slots and cursor slots are separate tables of [`SLOTS`] entries each.
//!
//! ```
//! use pdtree_harness::Op;
//! let op = Op::Create { path: b"/net/dev".to_vec(), content: b"eth0\n".to_vec() };
//! assert_eq!(op.to_string(), r#"create "/net/dev" "eth0\n""#);
//! assert_eq!(op.expand(7), op); // no {i} in it
//! ```

use std::fmt;

use pdtree::{HeaderId, Ino, Row, RowKind};

use crate::script::quote;

/// A slot number, `0..=`[`MAX_SLOT`].
pub type Slot = u8;

/// The number of handle slots and of cursor slots (each table has this many).
pub const SLOTS: usize = 16;

/// The highest slot number; a larger one is a parse error.
pub const MAX_SLOT: Slot = (SLOTS - 1) as Slot;

/// One operation of a script.
///
/// Each variant's doc gives its script syntax (see [`crate::script`] for the grammar).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `mkdir PATH` — create a directory.
    Mkdir {
        /// The new directory's path.
        path: Vec<u8>,
    },
    /// `create PATH CONTENT` — create a file with static content.
    Create {
        /// The new file's path.
        path: Vec<u8>,
        /// Its content.
        content: Vec<u8>,
    },
    /// `symlink PATH TARGET` — create a symlink.
    Symlink {
        /// The new symlink's path.
        path: Vec<u8>,
        /// Its target (never followed).
        target: Vec<u8>,
    },
    /// `listing PATH` — create a generated listing of its parent directory.
    Listing {
        /// The new listing's path.
        path: Vec<u8>,
    },
    /// `register DIR [f NAME CONTENT, d NAME, ...]` — register a sysctl-style table.
    Register {
        /// The table's directory path (missing directories are made implicitly).
        dir: Vec<u8>,
        /// The rows, in table order (possibly none: a mount point).
        rows: Vec<Row>,
    },
    /// `unregister H` — unregister the header with this id.
    Unregister {
        /// The header id as a number (as the tree numbered it: 1, 2, ...).
        header: HeaderId,
    },
    /// `stat PATH`.
    Stat {
        /// The path to describe.
        path: Vec<u8>,
    },
    /// `lookup_at DIR_INO NAME`.
    LookupAt {
        /// The directory's inode number.
        dir: Ino,
        /// The child's name.
        name: Vec<u8>,
    },
    /// `readdir DIR_INO POS MAX` — one raw readdir page.
    Readdir {
        /// The directory's inode number.
        dir: Ino,
        /// The first inode number wanted.
        pos: u64,
        /// The page size.
        max: usize,
    },
    /// `remove PATH`.
    Remove {
        /// The path to remove.
        path: Vec<u8>,
    },
    /// `remove_subtree PATH`.
    RemoveSubtree {
        /// The root of the subtree to remove.
        path: Vec<u8>,
    },
    /// `mark_permanent PATH`.
    MarkPermanent {
        /// The path to mark.
        path: Vec<u8>,
    },
    /// `open SLOT PATH` — open, storing the handle id in a handle slot.
    Open {
        /// The handle slot to fill.
        slot: Slot,
        /// The path to open.
        path: Vec<u8>,
    },
    /// `read SLOT` — read through the handle in a slot.
    Read {
        /// The handle slot.
        slot: Slot,
    },
    /// `close SLOT` — close the handle in a slot (the slot keeps the closed id).
    Close {
        /// The handle slot.
        slot: Slot,
    },
    /// `stats`.
    Stats,
    /// `opendir SLOT PATH` — stat a path and point a cursor slot at it, position 0.
    OpenDir {
        /// The cursor slot.
        slot: Slot,
        /// The directory's path.
        path: Vec<u8>,
    },
    /// `readpage SLOT MAX` — read a page at the cursor and advance it to `next_pos`.
    ReadPage {
        /// The cursor slot.
        slot: Slot,
        /// The page size.
        max: usize,
    },
    /// `seek SLOT POS` — set a cursor's position.
    Seek {
        /// The cursor slot.
        slot: Slot,
        /// The new position.
        pos: u64,
    },
    /// `rewind SLOT` — set a cursor's position to 0.
    Rewind {
        /// The cursor slot.
        slot: Slot,
    },
    /// `check` — run `check_invariants`.
    Check,
    /// `dump` — the canonical dump.
    Dump,
}

impl Op {
    /// The script keyword of this operation.
    ///
    /// ```
    /// assert_eq!(pdtree_harness::Op::Stats.keyword(), "stats");
    /// ```
    pub fn keyword(&self) -> &'static str {
        match self {
            Op::Mkdir { .. } => "mkdir",
            Op::Create { .. } => "create",
            Op::Symlink { .. } => "symlink",
            Op::Listing { .. } => "listing",
            Op::Register { .. } => "register",
            Op::Unregister { .. } => "unregister",
            Op::Stat { .. } => "stat",
            Op::LookupAt { .. } => "lookup_at",
            Op::Readdir { .. } => "readdir",
            Op::Remove { .. } => "remove",
            Op::RemoveSubtree { .. } => "remove_subtree",
            Op::MarkPermanent { .. } => "mark_permanent",
            Op::Open { .. } => "open",
            Op::Read { .. } => "read",
            Op::Close { .. } => "close",
            Op::Stats => "stats",
            Op::OpenDir { .. } => "opendir",
            Op::ReadPage { .. } => "readpage",
            Op::Seek { .. } => "seek",
            Op::Rewind { .. } => "rewind",
            Op::Check => "check",
            Op::Dump => "dump",
        }
    }

    /// This operation with every byte string expanded as a `repeat` template for iteration
    /// `index` (see [`expand_template`]). Numbers and slots are not templated.
    ///
    /// ```
    /// use pdtree_harness::Op;
    /// let t = Op::Mkdir { path: b"/d{i}".to_vec() };
    /// assert_eq!(t.expand(42), Op::Mkdir { path: b"/d42".to_vec() });
    /// ```
    pub fn expand(&self, index: u64) -> Op {
        let x = |b: &[u8]| expand_template(b, index);
        self.map_strings(&x, &x, &x)
    }

    /// This op with every byte string rewritten: paths (and the register directory) by
    /// `path`, single names (row names, `lookup_at` names) by `name`, file contents and symlink
    /// targets by `data`. Numbers and slots stay.
    ///
    /// ```
    /// use pdtree_harness::Op;
    /// let op = Op::Create { path: b"/a".to_vec(), content: b"x".to_vec() };
    /// let up = |b: &[u8]| b.to_ascii_uppercase();
    /// let keep = |b: &[u8]| b.to_vec();
    /// assert_eq!(
    ///     op.map_strings(&up, &keep, &keep),
    ///     Op::Create { path: b"/A".to_vec(), content: b"x".to_vec() },
    /// );
    /// ```
    pub fn map_strings(
        &self,
        path: &dyn Fn(&[u8]) -> Vec<u8>,
        name: &dyn Fn(&[u8]) -> Vec<u8>,
        data: &dyn Fn(&[u8]) -> Vec<u8>,
    ) -> Op {
        match self {
            Op::Mkdir { path: p } => Op::Mkdir { path: path(p) },
            Op::Create { path: p, content } => Op::Create {
                path: path(p),
                content: data(content),
            },
            Op::Symlink { path: p, target } => Op::Symlink {
                path: path(p),
                target: data(target),
            },
            Op::Listing { path: p } => Op::Listing { path: path(p) },
            Op::Register { dir, rows } => Op::Register {
                dir: path(dir),
                rows: rows
                    .iter()
                    .map(|r| Row {
                        name: name(&r.name),
                        kind: match &r.kind {
                            RowKind::File(c) => RowKind::File(data(c)),
                            RowKind::Dir => RowKind::Dir,
                        },
                    })
                    .collect(),
            },
            Op::Stat { path: p } => Op::Stat { path: path(p) },
            Op::LookupAt { dir, name: n } => Op::LookupAt {
                dir: *dir,
                name: name(n),
            },
            Op::Remove { path: p } => Op::Remove { path: path(p) },
            Op::RemoveSubtree { path: p } => Op::RemoveSubtree { path: path(p) },
            Op::MarkPermanent { path: p } => Op::MarkPermanent { path: path(p) },
            Op::Open { slot, path: p } => Op::Open {
                slot: *slot,
                path: path(p),
            },
            Op::OpenDir { slot, path: p } => Op::OpenDir {
                slot: *slot,
                path: path(p),
            },
            Op::Unregister { .. }
            | Op::Readdir { .. }
            | Op::Read { .. }
            | Op::Close { .. }
            | Op::Stats
            | Op::ReadPage { .. }
            | Op::Seek { .. }
            | Op::Rewind { .. }
            | Op::Check
            | Op::Dump => self.clone(),
        }
    }
}

/// Expands a `repeat` template byte string for iteration `index` (counting from 0).
///
/// Scanning left to right: `{i}` becomes the decimal `index`, `{{` becomes one `{`, and every
/// other byte (a lone `{` or any `}` included) stays as it is. So a literal `{i}` inside a
/// repeated op is written `{{i}`, and a string with no `{` is unchanged. Outside `repeat`,
/// strings are never expanded.
///
/// ```
/// use pdtree_harness::op::expand_template;
/// assert_eq!(expand_template(b"eth{i}", 12), b"eth12");
/// assert_eq!(expand_template(b"{{i}={i}", 3), b"{i}=3");
/// assert_eq!(expand_template(b"{x} }{", 3), b"{x} }{");
/// ```
pub fn expand_template(template: &[u8], index: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(template.len() + 8);
    let mut i = 0;
    while i < template.len() {
        if template[i..].starts_with(b"{{") {
            out.push(b'{');
            i += 2;
        } else if template[i..].starts_with(b"{i}") {
            out.extend_from_slice(index.to_string().as_bytes());
            i += 3;
        } else {
            out.push(template[i]);
            i += 1;
        }
    }
    out
}

/// Prints the canonical script line of the op (no newline), e.g. `mkdir "/a"`.
impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let k = self.keyword();
        match self {
            Op::Mkdir { path }
            | Op::Listing { path }
            | Op::Stat { path }
            | Op::Remove { path }
            | Op::RemoveSubtree { path }
            | Op::MarkPermanent { path } => write!(f, "{k} {}", quote(path)),
            Op::Create {
                path,
                content: second,
            }
            | Op::Symlink {
                path,
                target: second,
            } => write!(f, "{k} {} {}", quote(path), quote(second)),
            Op::Register { dir, rows } => {
                write!(f, "{k} {} [", quote(dir))?;
                for (n, row) in rows.iter().enumerate() {
                    if n > 0 {
                        f.write_str(", ")?;
                    }
                    match &row.kind {
                        RowKind::File(c) => write!(f, "f {} {}", quote(&row.name), quote(c))?,
                        RowKind::Dir => write!(f, "d {}", quote(&row.name))?,
                    }
                }
                f.write_str("]")
            }
            Op::Unregister { header } => write!(f, "{k} {header}"),
            Op::LookupAt { dir, name } => write!(f, "{k} {dir} {}", quote(name)),
            Op::Readdir { dir, pos, max } => write!(f, "{k} {dir} {pos} {max}"),
            Op::Open { slot, path } | Op::OpenDir { slot, path } => {
                write!(f, "{k} {slot} {}", quote(path))
            }
            Op::Read { slot } | Op::Close { slot } | Op::Rewind { slot } => {
                write!(f, "{k} {slot}")
            }
            Op::ReadPage { slot, max } => write!(f, "{k} {slot} {max}"),
            Op::Seek { slot, pos } => write!(f, "{k} {slot} {pos}"),
            Op::Stats | Op::Check | Op::Dump => f.write_str(k),
        }
    }
}
