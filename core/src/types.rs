//! Plain data types shared by every implementation of [`PseudoFs`](crate::PseudoFs).
//!
//! Nothing in this module has behaviour beyond formatting and defaults: the oracle and any
//! user implementation may use these freely without sharing core's logic.

use std::fmt;

/// An inode number. The root is 1; every successful creation takes the next number.
pub type Ino = u64;

/// The id of a registered table (sysctl-style header). A counter from 1, never reused.
pub type HeaderId = u64;

/// The id of an open file handle. A counter from 1, never reused.
pub type HandleId = u64;

/// A network namespace id (SPEC §10). 0 is the initial namespace, always live; the others
/// come from a counter from 1, never reused.
pub type NsId = u64;

/// A view: the live namespace a lookup is made in (an entry is visible in view `v` iff it is
/// shared or tagged `v`).
pub type View = NsId;

/// Permission bits of an entry, `0..=0o777` (SPEC §12). Nothing in the tree enforces them.
pub type Mode = u32;

/// A user or group id. [`NO_ID`] is refused: it is chown(2)'s "leave unchanged".
pub type Id = u32;

/// The one id value no entry can carry (`EINVAL` in `chown`).
///
/// ```
/// assert_eq!(pdtree::NO_ID, 4_294_967_295);
/// ```
pub const NO_ID: Id = u32::MAX;

/// The highest mode an entry can have.
pub const MAX_MODE: Mode = 0o777;

/// The inode number of the root directory.
///
/// ```
/// assert_eq!(pdtree::ROOT_INO, 1);
/// ```
pub const ROOT_INO: Ino = 1;

/// The longest path accepted, in bytes.
pub const MAX_PATH: usize = 4096;

/// The longest name (path component) accepted, in bytes.
pub const MAX_NAME: usize = 255;

/// Every error an operation can return. Each failed operation changes nothing at all.
///
/// ```
/// use pdtree::Errno;
/// assert_eq!(Errno::ENOENT.to_string(), "ENOENT");
/// assert_eq!("EBUSY".parse::<Errno>(), Ok(Errno::EBUSY));
/// ```
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Errno {
    /// No such entry, header or (for `read`) the entry was removed.
    ENOENT,
    /// A path component, or an inode given as a directory, is not a directory.
    ENOTDIR,
    /// `open` of a directory.
    EISDIR,
    /// The name is taken, or the root was named as a creation target.
    EEXIST,
    /// Removal of a directory that still has children.
    ENOTEMPTY,
    /// Removal of the root, a permanent or header-owned entry, or a directory in use by a header.
    EBUSY,
    /// Malformed input: bad name or path syntax, out-of-range page size, and a few others.
    EINVAL,
    /// A path over 4096 bytes or a name over 255 bytes.
    ENAMETOOLONG,
    /// An unknown or closed handle.
    EBADF,
    /// The entry limit would be passed.
    ENOSPC,
    /// Content or symlink target over the limit.
    EFBIG,
    /// A register table over the row limit.
    E2BIG,
    /// A creation inside a mount point (a directory registered with an empty table).
    EROFS,
}

impl Errno {
    /// Every error, in the SPEC's order.
    ///
    /// ```
    /// assert_eq!(pdtree::Errno::ALL.len(), 13);
    /// ```
    pub const ALL: [Errno; 13] = [
        Errno::ENOENT,
        Errno::ENOTDIR,
        Errno::EISDIR,
        Errno::EEXIST,
        Errno::ENOTEMPTY,
        Errno::EBUSY,
        Errno::EINVAL,
        Errno::ENAMETOOLONG,
        Errno::EBADF,
        Errno::ENOSPC,
        Errno::EFBIG,
        Errno::E2BIG,
        Errno::EROFS,
    ];

    /// The symbolic name, as printed in transcripts and reports.
    ///
    /// ```
    /// assert_eq!(pdtree::Errno::E2BIG.name(), "E2BIG");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Errno::ENOENT => "ENOENT",
            Errno::ENOTDIR => "ENOTDIR",
            Errno::EISDIR => "EISDIR",
            Errno::EEXIST => "EEXIST",
            Errno::ENOTEMPTY => "ENOTEMPTY",
            Errno::EBUSY => "EBUSY",
            Errno::EINVAL => "EINVAL",
            Errno::ENAMETOOLONG => "ENAMETOOLONG",
            Errno::EBADF => "EBADF",
            Errno::ENOSPC => "ENOSPC",
            Errno::EFBIG => "EFBIG",
            Errno::E2BIG => "E2BIG",
            Errno::EROFS => "EROFS",
        }
    }
}

impl fmt::Display for Errno {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::error::Error for Errno {}

impl std::str::FromStr for Errno {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Errno::ALL.into_iter().find(|e| e.name() == s).ok_or(())
    }
}

/// What an entry is.
///
/// ```
/// assert_eq!(pdtree::Kind::Listing.letter(), 'g');
/// assert_eq!(pdtree::Kind::Generated.default_mode(), 0o444);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A directory.
    Dir,
    /// A file with static content bytes.
    File,
    /// A symbolic link: target bytes, never followed.
    Symlink,
    /// A generated file: its content is the rendering of its parent directory.
    Listing,
    /// A generated file: its content is the rendering of a named source (SPEC §11).
    Generated,
}

impl Kind {
    /// The one-letter code used in listing renderings: `d`, `f`, `l`, `g`, `s`.
    pub fn letter(self) -> char {
        match self {
            Kind::Dir => 'd',
            Kind::File => 'f',
            Kind::Symlink => 'l',
            Kind::Listing => 'g',
            Kind::Generated => 's',
        }
    }

    /// The mode an entry of this kind gets when nothing states one (SPEC §12): directories
    /// 0555, symlinks 0777 (fixed), every file kind 0444.
    pub fn default_mode(self) -> Mode {
        match self {
            Kind::Dir => 0o555,
            Kind::Symlink => 0o777,
            Kind::File | Kind::Listing | Kind::Generated => 0o444,
        }
    }

    /// The word used in dumps and transcripts: `dir`, `file`, `symlink`, `listing`,
    /// `generated`.
    ///
    /// ```
    /// assert_eq!(pdtree::Kind::Symlink.word(), "symlink");
    /// ```
    pub fn word(self) -> &'static str {
        match self {
            Kind::Dir => "dir",
            Kind::File => "file",
            Kind::Symlink => "symlink",
            Kind::Listing => "listing",
            Kind::Generated => "generated",
        }
    }
}

/// Who made an entry, which decides who may remove it.
///
/// ```
/// use pdtree::Owner;
/// assert_eq!(Owner::Header(3).to_string(), "header:3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// Made by `mkdir`, `create`, `symlink` or `listing` (and the root).
    Explicit,
    /// A row of the registered table with this header id.
    Header(HeaderId),
    /// A directory that `register` created on demand.
    Implicit,
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Explicit => f.write_str("explicit"),
            Owner::Implicit => f.write_str("implicit"),
            Owner::Header(h) => write!(f, "header:{h}"),
        }
    }
}

/// The result of `stat` and `lookup_at`.
///
/// ```
/// use pdtree::{PseudoFs, Tree, Kind};
/// let t = Tree::new();
/// let st = t.stat(b"/").unwrap();
/// assert_eq!((st.ino, st.kind, st.nlink, st.size), (1, Kind::Dir, 2, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stat {
    /// Inode number.
    pub ino: Ino,
    /// Entry kind.
    pub kind: Kind,
    /// The namespace the entry is tagged with; `None` for a shared entry.
    pub ns: Option<NsId>,
    /// Directory: 2 + number of child directories visible in the view; any other kind: 1.
    pub nlink: u64,
    /// File: content length; Symlink: target length; Listing and Generated: length of the
    /// current rendering; Dir: number of children visible in the view.
    pub size: u64,
    /// Permission bits (SPEC §12), never enforced by the tree.
    pub mode: Mode,
    /// Owner user id.
    pub uid: Id,
    /// Owner group id.
    pub gid: Id,
    /// Who made the entry.
    pub owner: Owner,
    /// Permanent entries can never be removed and take no open references.
    pub permanent: bool,
    /// Open handles holding a reference to this entry.
    pub open_refs: u64,
}

/// One entry of a `readdir` page.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DirEntry {
    /// The raw name bytes.
    pub name: Vec<u8>,
    /// Inode number.
    pub ino: Ino,
    /// Entry kind.
    pub kind: Kind,
}

/// A page of `readdir` output.
///
/// ```
/// use pdtree::{PseudoFs, Tree, ROOT_INO};
/// let mut t = Tree::new();
/// t.mkdir(b"a").unwrap();
/// let page = t.readdir(ROOT_INO, 0, 16).unwrap();
/// assert_eq!(page.entries.len(), 1);
/// assert_eq!(page.next_pos, 3); // last returned inode (2) + 1
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ReadDirPage {
    /// Children with inode number >= the requested position, ascending.
    pub entries: Vec<DirEntry>,
    /// Last returned inode + 1, or the requested position when nothing was returned.
    pub next_pos: u64,
}

/// Tree-wide counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Stats {
    /// Reachable entries, root included.
    pub live: u64,
    /// Reachable entries plus removed entries still held by an open handle.
    pub allocated: u64,
    /// Live (registered, not yet unregistered) headers.
    pub headers: u64,
    /// Open handles.
    pub handles: u64,
}

/// The explicit limits every implementation enforces. Core and oracle must be given the same.
///
/// ```
/// let tiny = pdtree::Limits { max_entries: 16, ..pdtree::Limits::default() };
/// assert_eq!(tiny.max_content, 65_536);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Maximum allocated entries, root included (`ENOSPC` past it).
    pub max_entries: u64,
    /// Maximum content or symlink target length in bytes (`EFBIG` past it).
    pub max_content: usize,
    /// Maximum rows in one register table (`E2BIG` past it).
    pub max_table_rows: usize,
    /// Maximum entries in one readdir page; a page size of 0 or above this is `EINVAL`.
    pub max_readdir: usize,
    /// Maximum live namespaces, namespace 0 included (`ENOSPC` past it).
    pub max_namespaces: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_entries: 16_777_216,
            max_content: 65_536,
            max_table_rows: 1_024,
            max_readdir: 4_096,
            max_namespaces: 65_536,
        }
    }
}

/// What a register table row creates.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RowKind {
    /// A file with this content.
    File(Vec<u8>),
    /// An (initially empty) directory.
    Dir,
    /// A generated file rendering the source with this name (SPEC §11).
    Gen(Vec<u8>),
}

/// One row of a sysctl-style register table.
///
/// ```
/// use pdtree::{PseudoFs, Row, Tree};
/// let mut t = Tree::new();
/// let h = t.register(b"net/ipv4/conf/eth0", &[Row::file("forwarding", "0"), Row::dir("neigh")]).unwrap();
/// assert_eq!(h, 1);
/// let fh = t.open(b"net/ipv4/conf/eth0/forwarding").unwrap();
/// assert_eq!(t.read(fh).unwrap(), b"0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Row {
    /// The row's name in the table's directory.
    pub name: Vec<u8>,
    /// File content, a directory, or a source.
    pub kind: RowKind,
    /// The entry's mode; `None` is its kind's default ([`Kind::default_mode`]).
    pub mode: Option<Mode>,
}

impl Row {
    /// A file row.
    pub fn file(name: impl AsRef<[u8]>, content: impl AsRef<[u8]>) -> Row {
        Row {
            name: name.as_ref().to_vec(),
            kind: RowKind::File(content.as_ref().to_vec()),
            mode: None,
        }
    }

    /// A directory row.
    pub fn dir(name: impl AsRef<[u8]>) -> Row {
        Row {
            name: name.as_ref().to_vec(),
            kind: RowKind::Dir,
            mode: None,
        }
    }

    /// A generated-file row rendering `source` (which exists from a successful registration on).
    ///
    /// ```
    /// use pdtree::{PseudoFs, Row, Tree};
    /// let mut t = Tree::new();
    /// t.register(b"proc", &[Row::generated("filesystems", "fs")]).unwrap();
    /// t.source_add(b"fs", b"nodev\tsysfs").unwrap();
    /// let h = t.open(b"proc/filesystems").unwrap();
    /// assert_eq!(t.read(h).unwrap(), b"nodev\tsysfs\n");
    /// ```
    pub fn generated(name: impl AsRef<[u8]>, source: impl AsRef<[u8]>) -> Row {
        Row {
            name: name.as_ref().to_vec(),
            kind: RowKind::Gen(source.as_ref().to_vec()),
            mode: None,
        }
    }

    /// This row with an explicit mode, as every sysctl `ctl_table` row states one.
    ///
    /// ```
    /// use pdtree::{PseudoFs, Row, Tree};
    /// let mut t = Tree::new();
    /// t.register(b"net/ipv4", &[Row::file("ip_forward", "0\n").with_mode(0o644)]).unwrap();
    /// assert_eq!(t.stat(b"net/ipv4/ip_forward").unwrap().mode, 0o644);
    /// ```
    pub fn with_mode(mut self, mode: Mode) -> Row {
        self.mode = Some(mode);
        self
    }
}

/// A broken SPEC §8 invariant, as reported by `check_invariants`.
///
/// ```
/// let v = pdtree::InvariantViolation { invariant: 2, detail: "/a: nlink 3, counted 2".into() };
/// assert_eq!(v.to_string(), "invariant 2 (nlink) broken: /a: nlink 3, counted 2");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InvariantViolation {
    /// The invariant's number in SPEC §8 (1..=13).
    pub invariant: u8,
    /// Where and how it broke.
    pub detail: String,
}

impl InvariantViolation {
    /// The short name of invariant `n`.
    ///
    /// ```
    /// assert_eq!(pdtree::InvariantViolation::name_of(7), "listing cache");
    /// ```
    pub fn name_of(n: u8) -> &'static str {
        /// Invariants 1..=13, in SPEC §8's order.
        const NAMES: [&str; 13] = [
            "ordering",
            "nlink",
            "no leak",
            "index agreement",
            "header refcounts",
            "permanent reachable",
            "listing cache",
            "atomicity",
            "namespace tags",
            "namespace entries",
            "source cache",
            "handle snapshot",
            "modes and owners",
        ];
        let i = usize::from(n).wrapping_sub(1);
        NAMES.get(i).copied().unwrap_or("unknown")
    }
}

impl fmt::Display for InvariantViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invariant {} ({}) broken: {}",
            self.invariant,
            Self::name_of(self.invariant),
            self.detail
        )
    }
}

impl std::error::Error for InvariantViolation {}
