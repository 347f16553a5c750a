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
//!   `read <slot>`, `read_at <slot> …`, `write <slot> …` and `close <slot>` pass the slot's
//!   id to the tree. A slot that was never
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
//! ## Adding an op
//!
//! 1. A line in the op table below (`op_table!`): variant, keyword, whether its trait method
//!    takes `&mut self`, its fields with their [`Role`]s. The parser, the printer, the
//!    minimizer, the counts and the quickcheck generator follow from it.
//! 2. An arm in [`Runner::apply`](crate::lang::runner::Runner::apply).
//! 3. An arm in the generator's `op_of` (`gen/mod.rs`), and what its outcome teaches the
//!    generator's model, if anything.
//!
//! `harness/tests/op_kinds.rs` fails for a kind that misses a stage.
//!
//! ```
//! use pdtree_harness::Op;
//! let op = Op::Create { path: b"/net/dev".to_vec(), content: b"eth0\n".to_vec() };
//! assert_eq!(op.to_string(), r#"create "/net/dev" "eth0\n""#);
//! assert_eq!(op.expand(7), op); // no {i} in it
//! ```

use std::fmt;

use pdtree::{HeaderId, Id, Ino, Mode, NsId, Row, RowKind, View};

use crate::lang::script::quote;

/// A slot number, `0..=`[`MAX_SLOT`]. Slots index the harness's own tables of handles and
/// cursors; they are not a tree's numbers.
pub type Slot = u8;

/// The number of handle slots and of cursor slots (each table has this many).
pub const SLOTS: usize = 16;

/// The highest slot number; a larger one is a parse error.
pub const MAX_SLOT: Slot = (SLOTS - 1) as Slot;

/// What one field of an op means. The parser, the printer, the minimizer, the generator's
/// model and name collection all go by the role, never by the op.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A path naming an entry the op expects to exist (`stat`, `remove`, `open`, …).
    Path,
    /// The path of the entry the op creates (`mkdir`, `create`, …; a table's directory).
    NewPath,
    /// One name, not a path (`lookup_at`).
    Name,
    /// File content or a symlink target.
    Data,
    /// The rows of a sysctl-style table.
    Rows,
    /// An inode number.
    Ino,
    /// A readdir position.
    Pos,
    /// A header id.
    Header,
    /// A readdir page size.
    PageSize,
    /// A handle or cursor slot.
    Slot,
    /// How many entries or cycles a `bulk`, `chain` or `cycle_*` op makes (at most [`MAX_COUNT`]).
    Count,
    /// A source's name (SPEC §11): its own flat namespace, not a path.
    Source,
    /// A byte offset into a handle's content.
    Offset,
    /// A byte count to read.
    Len,
    /// Permission bits (printed in octal with a leading 0).
    Mode,
    /// A user or group id.
    Id,
    /// A namespace id, as the tree numbered them (`ns_destroy`, `register_ns`).
    Ns,
    /// The view an op looks in (SPEC §10), written as an `@V ` prefix before the keyword
    /// (none for view 0).
    View,
}

/// One field of an op, borrowed, tagged with its [`Role`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Field<'a> {
    Path(&'a [u8]),
    NewPath(&'a [u8]),
    Name(&'a [u8]),
    Data(&'a [u8]),
    Rows(&'a [Row]),
    Ino(Ino),
    Pos(u64),
    Header(HeaderId),
    PageSize(usize),
    Slot(Slot),
    Count(usize),
    Source(&'a [u8]),
    Offset(u64),
    Len(u64),
    Mode(Mode),
    Id(Id),
    Ns(NsId),
    View(View),
}

impl Field<'_> {
    /// This field's role.
    pub fn role(&self) -> Role {
        match self {
            Field::Path(_) => Role::Path,
            Field::NewPath(_) => Role::NewPath,
            Field::Name(_) => Role::Name,
            Field::Data(_) => Role::Data,
            Field::Rows(_) => Role::Rows,
            Field::Ino(_) => Role::Ino,
            Field::Pos(_) => Role::Pos,
            Field::Header(_) => Role::Header,
            Field::PageSize(_) => Role::PageSize,
            Field::Slot(_) => Role::Slot,
            Field::Count(_) => Role::Count,
            Field::Source(_) => Role::Source,
            Field::Offset(_) => Role::Offset,
            Field::Len(_) => Role::Len,
            Field::Mode(_) => Role::Mode,
            Field::Id(_) => Role::Id,
            Field::Ns(_) => Role::Ns,
            Field::View(_) => Role::View,
        }
    }
}

/// One field of an op, mutably borrowed, tagged with its [`Role`].
#[derive(Debug)]
#[allow(missing_docs)]
pub enum FieldMut<'a> {
    Path(&'a mut Vec<u8>),
    NewPath(&'a mut Vec<u8>),
    Name(&'a mut Vec<u8>),
    Data(&'a mut Vec<u8>),
    Rows(&'a mut Vec<Row>),
    Ino(&'a mut Ino),
    Pos(&'a mut u64),
    Header(&'a mut HeaderId),
    PageSize(&'a mut usize),
    Slot(&'a mut Slot),
    Count(&'a mut usize),
    Source(&'a mut Vec<u8>),
    Offset(&'a mut u64),
    Len(&'a mut u64),
    Mode(&'a mut Mode),
    Id(&'a mut Id),
    Ns(&'a mut NsId),
    View(&'a mut View),
}

/// The Rust type of a field with a given role.
macro_rules! role_type {
    (Path) => { Vec<u8> };
    (NewPath) => { Vec<u8> };
    (Name) => { Vec<u8> };
    (Data) => { Vec<u8> };
    (Rows) => { Vec<Row> };
    (Ino) => { Ino };
    (Pos) => { u64 };
    (Header) => { HeaderId };
    (PageSize) => { usize };
    (Slot) => { Slot };
    (Count) => { usize };
    (Source) => { Vec<u8> };
    (Offset) => { u64 };
    (Len) => { u64 };
    (Mode) => { Mode };
    (Id) => { Id };
    (Ns) => { NsId };
    (View) => { View };
}

/// The op table: each line defines one [`Op`] variant, its [`OpKind`], its script keyword,
/// whether its [`PseudoFs`](pdtree::PseudoFs) method takes `&mut self`, and its fields in
/// script order with their roles. Everything else about the op language (parsing, printing,
/// shrinking, counting) is derived from it.
macro_rules! op_table {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $keyword:literal, mutates: $mutates:literal
            $({ $($(#[doc = $fdoc:literal])* $field:ident: $role:ident),* $(,)? })?
    ),* $(,)?) => {
        /// One operation of a script.
        ///
        /// Each variant's doc gives its script syntax (see [`crate::lang::script`] for the
        /// grammar).
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum Op {
            $(
                $(#[doc = $doc])*
                $variant $({ $($(#[doc = $fdoc])* $field: role_type!($role)),* })?,
            )*
        }

        /// The kind of an [`Op`]: an index for counting, swarm weights and tables.
        ///
        /// ```
        /// use pdtree_harness::{Op, OpKind};
        /// assert_eq!(Op::Stats.kind(), OpKind::Stats);
        /// assert_eq!(OpKind::Stats.keyword(), "stats");
        /// assert_eq!(OpKind::ALL.len(), OpKind::COUNT);
        /// assert_eq!(OpKind::from_keyword(b"remove_subtree"), Some(OpKind::RemoveSubtree));
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[allow(missing_docs)]
        pub enum OpKind {
            $($variant,)*
        }

        impl OpKind {
            /// Every kind, in [`Op`] declaration order (`ALL[k as usize] == k`).
            pub const ALL: [OpKind; OpKind::COUNT] = [$(OpKind::$variant,)*];

            /// The number of op kinds.
            pub const COUNT: usize = [$(stringify!($variant),)*].len();

            /// The script keyword.
            pub fn keyword(self) -> &'static str {
                match self {
                    $(OpKind::$variant => $keyword,)*
                }
            }

            /// The kind whose keyword is `word`.
            pub fn from_keyword(word: &[u8]) -> Option<OpKind> {
                match word {
                    $(w if w == $keyword.as_bytes() => Some(OpKind::$variant),)*
                    _ => None,
                }
            }

            /// Whether the [`PseudoFs`](pdtree::PseudoFs) method behind this op takes
            /// `&mut self`, i.e. whether it can change the tree's state (the `&self` ones
            /// cannot, short of interior mutability).
            pub fn may_mutate(self) -> bool {
                match self {
                    $(OpKind::$variant => $mutates,)*
                }
            }

            /// The roles of this kind's fields, in script order.
            pub fn roles(self) -> &'static [Role] {
                match self {
                    $(OpKind::$variant => &[$($(Role::$role),*)?],)*
                }
            }

            /// An op of this kind with every field empty or zero (the parser fills it in
            /// through [`Op::fields_mut`]).
            pub fn blank(self) -> Op {
                match self {
                    $(OpKind::$variant => Op::$variant $({ $($field: Default::default()),* })?,)*
                }
            }
        }

        impl Op {
            /// The kind of this op.
            pub fn kind(&self) -> OpKind {
                match self {
                    $(Op::$variant { .. } => OpKind::$variant,)*
                }
            }

            /// The fields in script order, each tagged with its [`Role`].
            ///
            /// ```
            /// use pdtree_harness::{lang::op::Field, Op};
            /// let op = Op::LookupAt { view: 2, dir: 1, name: b"a".to_vec() };
            /// assert_eq!(op.fields(), vec![Field::View(2), Field::Ino(1), Field::Name(b"a")]);
            /// assert_eq!(op.to_string(), r#"@2 lookup_at 1 "a""#);
            /// ```
            pub fn fields(&self) -> Vec<Field<'_>> {
                match self {
                    $(Op::$variant $({ $($field),* })? => vec![$($(Field::$role($field.as_field())),*)?],)*
                }
            }

            /// The fields in script order, mutably, each tagged with its [`Role`].
            pub fn fields_mut(&mut self) -> Vec<FieldMut<'_>> {
                match self {
                    $(Op::$variant $({ $($field),* })? => vec![$($(FieldMut::$role($field)),*)?],)*
                }
            }
        }
    };
}

/// A field value as [`Field`] holds it: byte strings and rows borrowed, numbers copied.
trait AsField<'a> {
    type Out;
    fn as_field(&'a self) -> Self::Out;
}

impl<'a> AsField<'a> for Vec<u8> {
    type Out = &'a [u8];
    fn as_field(&'a self) -> &'a [u8] {
        self
    }
}

impl<'a> AsField<'a> for Vec<Row> {
    type Out = &'a [Row];
    fn as_field(&'a self) -> &'a [Row] {
        self
    }
}

impl AsField<'_> for u64 {
    type Out = u64;
    fn as_field(&self) -> u64 {
        *self
    }
}

impl AsField<'_> for usize {
    type Out = usize;
    fn as_field(&self) -> usize {
        *self
    }
}

impl AsField<'_> for u32 {
    type Out = u32;
    fn as_field(&self) -> u32 {
        *self
    }
}

impl AsField<'_> for u8 {
    type Out = u8;
    fn as_field(&self) -> u8 {
        *self
    }
}

op_table! {
    /// `mkdir PATH` — create a directory.
    Mkdir = "mkdir", mutates: true {
        /// The new directory's path.
        path: NewPath,
    },
    /// `create PATH CONTENT` — create a file with static content.
    Create = "create", mutates: true {
        /// The new file's path.
        path: NewPath,
        /// Its content.
        content: Data,
    },
    /// `symlink PATH TARGET` — create a symlink.
    Symlink = "symlink", mutates: true {
        /// The new symlink's path.
        path: NewPath,
        /// Its target (never followed).
        target: Data,
    },
    /// `listing PATH` — create a generated listing of its parent directory.
    Listing = "listing", mutates: true {
        /// The new listing's path.
        path: NewPath,
    },
    /// `register DIR [f NAME CONTENT, d NAME, ...]` — register a sysctl-style table.
    Register = "register", mutates: true {
        /// The table's directory path (missing directories are made implicitly).
        dir: NewPath,
        /// The rows, in table order (possibly none: a mount point).
        rows: Rows,
    },
    /// `register_ns K DIR [ROWS]` — register a table tagged with namespace K (SPEC §10).
    RegisterNs = "register_ns", mutates: true {
        /// The namespace.
        ns: Ns,
        /// The table's directory path, resolved in view K.
        dir: NewPath,
        /// The rows.
        rows: Rows,
    },
    /// `ns_create UID GID` — a new network namespace.
    NsCreate = "ns_create", mutates: true {
        /// Owner user id of its entries.
        uid: Id,
        /// Owner group id.
        gid: Id,
    },
    /// `ns_destroy K` — destroy a namespace and its entries.
    NsDestroy = "ns_destroy", mutates: true {
        /// The namespace.
        ns: Ns,
    },
    /// `unregister H` — unregister the header with this id.
    Unregister = "unregister", mutates: true {
        /// The header id as a number (as the tree numbered it: 1, 2, ...).
        header: Header,
    },
    /// `[@V] stat PATH`.
    Stat = "stat", mutates: false {
        /// The view.
        view: View,
        /// The path to describe.
        path: Path,
    },
    /// `[@V] lookup_at DIR_INO NAME`.
    LookupAt = "lookup_at", mutates: false {
        /// The view.
        view: View,
        /// The directory's inode number.
        dir: Ino,
        /// The child's name.
        name: Name,
    },
    /// `[@V] readdir DIR_INO POS MAX` — one raw readdir page.
    Readdir = "readdir", mutates: false {
        /// The view.
        view: View,
        /// The directory's inode number.
        dir: Ino,
        /// The first inode number wanted.
        pos: Pos,
        /// The page size.
        max: PageSize,
    },
    /// `remove PATH`.
    Remove = "remove", mutates: true {
        /// The path to remove.
        path: Path,
    },
    /// `remove_subtree PATH`.
    RemoveSubtree = "remove_subtree", mutates: true {
        /// The root of the subtree to remove.
        path: Path,
    },
    /// `mark_permanent PATH`.
    MarkPermanent = "mark_permanent", mutates: true {
        /// The path to mark.
        path: Path,
    },
    /// `[@V] open SLOT PATH` — open, storing the handle id in a handle slot.
    Open = "open", mutates: true {
        /// The view the path resolves in.
        view: View,
        /// The handle slot to fill.
        slot: Slot,
        /// The path to open.
        path: Path,
    },
    /// `read SLOT` — read through the handle in a slot.
    Read = "read", mutates: true {
        /// The handle slot.
        slot: Slot,
    },
    /// `read_at SLOT OFFSET LEN` — a seq_file read through the handle in a slot.
    ReadAt = "read_at", mutates: true {
        /// The handle slot.
        slot: Slot,
        /// Where to read.
        offset: Offset,
        /// How many bytes at most.
        len: Len,
    },
    /// `write SLOT DATA` — replace the content of the File behind a handle.
    Write = "write", mutates: true {
        /// The handle slot.
        slot: Slot,
        /// The new content.
        content: Data,
    },
    /// `close SLOT` — close the handle in a slot (the slot keeps the closed id).
    Close = "close", mutates: true {
        /// The handle slot.
        slot: Slot,
    },
    /// `stats`.
    Stats = "stats", mutates: false,
    /// `[@V] opendir SLOT PATH` — stat a path and point a cursor slot at it, position 0.
    OpenDir = "opendir", mutates: false {
        /// The view.
        view: View,
        /// The cursor slot.
        slot: Slot,
        /// The directory's path.
        path: Path,
    },
    /// `[@V] readpage SLOT MAX` — read a page at the cursor and advance it to `next_pos`.
    ReadPage = "readpage", mutates: false {
        /// The view.
        view: View,
        /// The cursor slot.
        slot: Slot,
        /// The page size.
        max: PageSize,
    },
    /// `seek SLOT POS` — set a cursor's position.
    Seek = "seek", mutates: false {
        /// The cursor slot.
        slot: Slot,
        /// The new position.
        pos: Pos,
    },
    /// `rewind SLOT` — set a cursor's position to 0.
    Rewind = "rewind", mutates: false {
        /// The cursor slot.
        slot: Slot,
    },
    /// `check` — run `check_invariants`.
    Check = "check", mutates: false,
    /// `dump` — the canonical dump.
    Dump = "dump", mutates: false,
    /// `generated PATH SRC` — create a file rendering a source.
    Generated = "generated", mutates: true {
        /// The new file's path.
        path: NewPath,
        /// The source it renders.
        source: Source,
    },
    /// `source_add SRC ITEM` — append an item to a source.
    SourceAdd = "source_add", mutates: true {
        /// The source.
        source: Source,
        /// The item.
        item: Data,
    },
    /// `source_remove SRC ITEM` — remove an item from a source.
    SourceRemove = "source_remove", mutates: true {
        /// The source.
        source: Source,
        /// The item.
        item: Data,
    },
    /// `[@V] chmod PATH MODE` — set an entry's permission bits (MODE octal, leading 0).
    Chmod = "chmod", mutates: true {
        /// The view.
        view: View,
        /// The entry.
        path: Path,
        /// The new mode.
        mode: Mode,
    },
    /// `[@V] chown PATH UID GID` — set an entry's owner.
    Chown = "chown", mutates: true {
        /// The view.
        view: View,
        /// The entry.
        path: Path,
        /// The user id.
        uid: Id,
        /// The group id.
        gid: Id,
    },
    /// `bulk DIR PREFIX N` — create the empty files `DIR/PREFIX0` … `DIR/PREFIX<N-1>`, in
    /// order, stopping at the first that fails: a large directory from one op. Its outcome
    /// (`ok bulk K` or `ok bulk K then err E`) is never a failure, since the files before the
    /// failing one stay.
    Bulk = "bulk", mutates: true {
        /// The directory.
        dir: Path,
        /// The names' common prefix.
        prefix: Name,
        /// How many files.
        count: Count,
    },
    /// `chain DIR NAME N` — create the directories `DIR/NAME`, `DIR/NAME/NAME`, … N deep, in
    /// order, stopping at the first that fails (`ENAMETOOLONG` past 4,096 bytes): a deep
    /// chain from one op. Its outcome (`ok done K` or `ok done K then err E`) is never a
    /// failure, since the directories before the failing one stay.
    Chain = "chain", mutates: true {
        /// The directory the chain hangs from.
        dir: Path,
        /// Every level's name.
        name: Name,
        /// How many levels.
        count: Count,
    },
    /// `cycle_create PATH N` — N times: create the empty file PATH, then remove it. The tree
    /// ends as it was but for the inode counter, N higher. `ok done K [then err E]`, like
    /// [`Op::Chain`]; a cycle stops at its first failing call.
    CycleCreate = "cycle_create", mutates: true {
        /// The file made and removed.
        path: NewPath,
        /// How many cycles.
        count: Count,
    },
    /// `cycle_open PATH N` — N times: open PATH, then close the handle: the handle counter
    /// N higher.
    CycleOpen = "cycle_open", mutates: true {
        /// The entry opened.
        path: Path,
        /// How many cycles.
        count: Count,
    },
    /// `cycle_register DIR N` — N times: register an empty table (a mount point) at DIR,
    /// then unregister it: the header counter N higher.
    CycleRegister = "cycle_register", mutates: true {
        /// The table's directory.
        dir: NewPath,
        /// How many cycles.
        count: Count,
    },
    /// `cycle_source SRC ITEM N` — N times: add ITEM to SRC, then remove it: the source's
    /// generation 2N higher.
    CycleSource = "cycle_source", mutates: true {
        /// The source.
        source: Source,
        /// The item added and removed.
        item: Data,
        /// How many cycles.
        count: Count,
    },
    /// `cycle_ns N` — N times: create a namespace owned by 0/0, then destroy it: the
    /// namespace counter N higher.
    CycleNs = "cycle_ns", mutates: true {
        /// How many cycles.
        count: Count,
    },
}

/// The largest count of a `bulk`, `chain` or `cycle_*` op (a larger count is a parse error).
pub const MAX_COUNT: usize = 100_000;

impl Op {
    /// The script keyword of this operation.
    ///
    /// ```
    /// assert_eq!(pdtree_harness::Op::Stats.keyword(), "stats");
    /// ```
    pub fn keyword(&self) -> &'static str {
        self.kind().keyword()
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

    /// This op with every byte string rewritten: paths by `path`, single names (row names,
    /// `lookup_at` names) by `name`, file contents and symlink targets by `data`. Numbers
    /// and slots stay.
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
        let mut op = self.clone();
        for field in op.fields_mut() {
            match field {
                FieldMut::Path(p) | FieldMut::NewPath(p) => *p = path(p),
                FieldMut::Name(n) | FieldMut::Source(n) => *n = name(n),
                FieldMut::Data(d) => *d = data(d),
                FieldMut::Rows(rows) => {
                    for r in rows.iter_mut() {
                        r.name = name(&r.name);
                        match &mut r.kind {
                            RowKind::File(c) => *c = data(c),
                            RowKind::Gen(src) => *src = name(src),
                            RowKind::Dir => {}
                        }
                    }
                }
                _ => {}
            }
        }
        op
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
/// use pdtree_harness::lang::op::expand_template;
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

/// Prints the canonical script line of the op (no newline), e.g. `mkdir "/a"`: a view other
/// than 0 as `@V `, the keyword, then each other field after one space.
impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fields = self.fields();
        for field in &fields {
            if let Field::View(v) = field {
                if *v != 0 {
                    write!(f, "@{v} ")?;
                }
            }
        }
        f.write_str(self.keyword())?;
        for field in fields {
            if let Field::View(_) = field {
                continue;
            }
            f.write_str(" ")?;
            match field {
                Field::Path(b)
                | Field::NewPath(b)
                | Field::Name(b)
                | Field::Data(b)
                | Field::Source(b) => f.write_str(&quote(b))?,
                Field::Rows(rows) => write_rows(f, rows)?,
                Field::Ino(n) | Field::Pos(n) | Field::Header(n) => write!(f, "{n}")?,
                Field::Offset(n) | Field::Len(n) => write!(f, "{n}")?,
                Field::Mode(m) => f.write_str(&mode_text(m))?,
                Field::Id(n) => write!(f, "{n}")?,
                Field::Ns(n) | Field::View(n) => write!(f, "{n}")?,
                Field::PageSize(n) | Field::Count(n) => write!(f, "{n}")?,
                Field::Slot(n) => write!(f, "{n}")?,
            }
        }
        Ok(())
    }
}

/// A mode as scripts write it: octal with a leading 0, at least four digits (`0644`,
/// `0000`, `01000`).
///
/// ```
/// use pdtree_harness::lang::op::mode_text;
/// assert_eq!(mode_text(0o644), "0644");
/// assert_eq!(mode_text(0), "0000");
/// assert_eq!(mode_text(0o1000), "01000");
/// ```
pub fn mode_text(mode: Mode) -> String {
    if mode < 0o1000 {
        format!("{mode:04o}")
    } else {
        format!("0{mode:o}")
    }
}

/// `[f "name" "content", d "name", s "name" "source"]`, each row's mode after it if it
/// states one.
fn write_rows(f: &mut fmt::Formatter<'_>, rows: &[Row]) -> fmt::Result {
    f.write_str("[")?;
    for (n, row) in rows.iter().enumerate() {
        if n > 0 {
            f.write_str(", ")?;
        }
        match &row.kind {
            RowKind::File(c) => write!(f, "f {} {}", quote(&row.name), quote(c))?,
            RowKind::Dir => write!(f, "d {}", quote(&row.name))?,
            RowKind::Gen(src) => write!(f, "s {} {}", quote(&row.name), quote(src))?,
        }
        if let Some(m) = row.mode {
            write!(f, " {}", mode_text(m))?;
        }
    }
    f.write_str("]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_index_their_table() {
        for (i, k) in OpKind::ALL.into_iter().enumerate() {
            assert_eq!(k as usize, i);
            assert_eq!(k.blank().kind(), k);
            assert_eq!(OpKind::from_keyword(k.keyword().as_bytes()), Some(k));
            let roles: Vec<Role> = k.blank().fields().iter().map(Field::role).collect();
            assert_eq!(roles, k.roles());
        }
    }
}
