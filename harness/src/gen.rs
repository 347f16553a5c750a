//! Bytes → ops: the structure-aware, swarm-configured generator shared by the built-in
//! campaign and the `cargo fuzz` targets.
//!
//! An input is read with [`arbitrary::Unstructured`]:
//!
//! 1. **Swarm configuration** (Groce et al., ISSTA 2012). The first byte per [`OpKind`] decides
//!    whether that kind is enabled in this input and with which weight (1–8); `check` and
//!    `dump` are enabled rarely. So one input hammers `register`/`unregister`, another
//!    `open`/`remove`/`read`, instead of every input being the same uniform mix.
//! 2. **Limits.** One byte picks the [`Limits`]: the defaults, tiny ones (16 entries, 8-byte
//!    contents, 3-row tables, 1–4 entry readdir pages) so `ENOSPC`, `EFBIG`, `E2BIG` are
//!    reached, or a mix.
//! 3. **Ops**, at most [`MAX_OPS`] per input, until the bytes run out. Names come mostly from
//!    a pool of six ([`NAME_POOL`]) so operations collide; paths are 1–4 components deep,
//!    usually a known directory plus a pool name; edge names (255 and 256 bytes, `.`, `..`,
//!    containing `/` or NUL, non-UTF-8, empty) and edge paths (over 4096 bytes, `a//b`, `a/`)
//!    come at a low rate; handle and cursor slots are chosen mostly among live ones;
//!    inode numbers (`lookup_at`, `readdir`, `seek`) and header ids (`unregister`) mostly
//!    among ones the reference returned.
//!
//! Generation is **interleaved with execution**: after each op the generator is told the
//! reference's [`Outcome`] ([`Generator::observe`]) and keeps a small model (known paths,
//! inode numbers, headers, live slots) from it. The reference is deterministic, so the same
//! bytes always give the same ops; [`ops_from_bytes`] realizes them by running the oracle.
//!
//! ```
//! use pdtree_harness::gen::ops_from_bytes;
//! let data: Vec<u8> = (0..2000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect();
//! let (limits, ops) = ops_from_bytes(&data);
//! assert!(!ops.is_empty() && ops.len() <= pdtree_harness::gen::MAX_OPS);
//! assert_eq!(ops_from_bytes(&data), (limits, ops)); // deterministic
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};

use arbitrary::Unstructured;
use pdtree::{Errno, HeaderId, Ino, Kind, Limits, PseudoFs, Row, RowKind, ROOT_INO};
use pdtree_oracle::Oracle;

use crate::op::{Op, Slot};
use crate::runner::{Outcome, Runner};

/// The most ops one input generates (the explicit per-input cap).
pub const MAX_OPS: usize = 200;

/// The pool most names are drawn from: few, so creations, lookups and removals collide.
pub const NAME_POOL: [&[u8]; 6] = [b"a", b"b", b"c", b"net", b"eth0", b"conf"];

/// Extra names register rows may use, so a table can have up to 8 distinct rows.
const ROW_EXTRA: [&[u8]; 2] = [b"mtu", b"forwarding"];

/// Handle slots the generator uses (`0..HANDLE_SLOTS`): few, so slots get reused.
pub const HANDLE_SLOTS: Slot = 6;

/// Cursor slots the generator uses (`0..CURSOR_SLOTS`).
pub const CURSOR_SLOTS: Slot = 3;

/// The kind of an [`Op`], as an index for counting and for swarm weights.
///
/// ```
/// use pdtree_harness::{gen::OpKind, Op};
/// assert_eq!(OpKind::of(&Op::Stats), OpKind::Stats);
/// assert_eq!(OpKind::Stats.keyword(), "stats");
/// assert_eq!(OpKind::ALL.len(), 22);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum OpKind {
    Mkdir,
    Create,
    Symlink,
    Listing,
    Register,
    Unregister,
    Stat,
    LookupAt,
    Readdir,
    Remove,
    RemoveSubtree,
    MarkPermanent,
    Open,
    Read,
    Close,
    Stats,
    OpenDir,
    ReadPage,
    Seek,
    Rewind,
    Check,
    Dump,
}

impl OpKind {
    /// Every kind, in [`Op`] declaration order.
    pub const ALL: [OpKind; 22] = [
        OpKind::Mkdir,
        OpKind::Create,
        OpKind::Symlink,
        OpKind::Listing,
        OpKind::Register,
        OpKind::Unregister,
        OpKind::Stat,
        OpKind::LookupAt,
        OpKind::Readdir,
        OpKind::Remove,
        OpKind::RemoveSubtree,
        OpKind::MarkPermanent,
        OpKind::Open,
        OpKind::Read,
        OpKind::Close,
        OpKind::Stats,
        OpKind::OpenDir,
        OpKind::ReadPage,
        OpKind::Seek,
        OpKind::Rewind,
        OpKind::Check,
        OpKind::Dump,
    ];

    /// The kind of `op`.
    pub fn of(op: &Op) -> OpKind {
        match op {
            Op::Mkdir { .. } => OpKind::Mkdir,
            Op::Create { .. } => OpKind::Create,
            Op::Symlink { .. } => OpKind::Symlink,
            Op::Listing { .. } => OpKind::Listing,
            Op::Register { .. } => OpKind::Register,
            Op::Unregister { .. } => OpKind::Unregister,
            Op::Stat { .. } => OpKind::Stat,
            Op::LookupAt { .. } => OpKind::LookupAt,
            Op::Readdir { .. } => OpKind::Readdir,
            Op::Remove { .. } => OpKind::Remove,
            Op::RemoveSubtree { .. } => OpKind::RemoveSubtree,
            Op::MarkPermanent { .. } => OpKind::MarkPermanent,
            Op::Open { .. } => OpKind::Open,
            Op::Read { .. } => OpKind::Read,
            Op::Close { .. } => OpKind::Close,
            Op::Stats => OpKind::Stats,
            Op::OpenDir { .. } => OpKind::OpenDir,
            Op::ReadPage { .. } => OpKind::ReadPage,
            Op::Seek { .. } => OpKind::Seek,
            Op::Rewind { .. } => OpKind::Rewind,
            Op::Check => OpKind::Check,
            Op::Dump => OpKind::Dump,
        }
    }

    /// The script keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            OpKind::Mkdir => "mkdir",
            OpKind::Create => "create",
            OpKind::Symlink => "symlink",
            OpKind::Listing => "listing",
            OpKind::Register => "register",
            OpKind::Unregister => "unregister",
            OpKind::Stat => "stat",
            OpKind::LookupAt => "lookup_at",
            OpKind::Readdir => "readdir",
            OpKind::Remove => "remove",
            OpKind::RemoveSubtree => "remove_subtree",
            OpKind::MarkPermanent => "mark_permanent",
            OpKind::Open => "open",
            OpKind::Read => "read",
            OpKind::Close => "close",
            OpKind::Stats => "stats",
            OpKind::OpenDir => "opendir",
            OpKind::ReadPage => "readpage",
            OpKind::Seek => "seek",
            OpKind::Rewind => "rewind",
            OpKind::Check => "check",
            OpKind::Dump => "dump",
        }
    }

    /// Whether the [`PseudoFs`] method behind this op takes `&mut self`, i.e. whether it can
    /// change the tree's state (the `&self` ones cannot, short of interior mutability).
    pub fn may_mutate(self) -> bool {
        matches!(
            self,
            OpKind::Mkdir
                | OpKind::Create
                | OpKind::Symlink
                | OpKind::Listing
                | OpKind::Register
                | OpKind::Unregister
                | OpKind::Remove
                | OpKind::RemoveSubtree
                | OpKind::MarkPermanent
                | OpKind::Open
                | OpKind::Read
                | OpKind::Close
        )
    }
}

/// Counts of generated and executed ops: per kind (succeeded / failed), per error, in total.
///
/// Every field is a plain count, so merging is addition and the [`Display`](fmt::Display)
/// table is identical for identical runs, whatever the order they were merged in.
///
/// ```
/// use pdtree_harness::{gen::{GenStats, OpKind}, Op, Outcome};
/// let mut s = GenStats::default();
/// s.record(&Op::Stats, &Outcome::Stats(Default::default()));
/// s.record(&Op::Read { slot: 0 }, &Outcome::Err(pdtree::Errno::EBADF));
/// assert_eq!((s.ops, s.ok), (2, 1));
/// assert_eq!(s.errors[8], 1); // EBADF is Errno::ALL[8]
/// assert!(s.missing_errors().contains(&pdtree::Errno::ENOENT));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GenStats {
    /// Inputs run.
    pub inputs: u64,
    /// Ops run.
    pub ops: u64,
    /// Ops that succeeded (not `err …` nor `violation …`).
    pub ok: u64,
    /// Per [`OpKind::ALL`] index: `[succeeded, failed]`.
    pub per_kind: [[u64; 2]; 22],
    /// Per [`Errno::ALL`] index: how many ops failed with that error.
    pub errors: [u64; 13],
}

impl GenStats {
    /// Counts one executed op and its outcome.
    pub fn record(&mut self, op: &Op, outcome: &Outcome) {
        let k = OpKind::of(op) as usize;
        self.ops += 1;
        if outcome.is_failure() {
            self.per_kind[k][1] += 1;
            if let Outcome::Err(e) = outcome {
                if let Some(i) = Errno::ALL.iter().position(|x| x == e) {
                    self.errors[i] += 1;
                }
            }
        } else {
            self.ok += 1;
            self.per_kind[k][0] += 1;
        }
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &GenStats) {
        self.inputs += other.inputs;
        self.ops += other.ops;
        self.ok += other.ok;
        for (a, b) in self.per_kind.iter_mut().zip(&other.per_kind) {
            a[0] += b[0];
            a[1] += b[1];
        }
        for (a, b) in self.errors.iter_mut().zip(&other.errors) {
            *a += b;
        }
    }

    /// The share of ops that succeeded, in per mille (integer, so it prints identically).
    pub fn ok_permille(&self) -> u64 {
        (self.ok * 1000).checked_div(self.ops).unwrap_or(0)
    }

    /// Op kinds never run.
    pub fn missing_kinds(&self) -> Vec<OpKind> {
        OpKind::ALL
            .into_iter()
            .filter(|k| self.per_kind[*k as usize] == [0, 0])
            .collect()
    }

    /// Errors never returned.
    pub fn missing_errors(&self) -> Vec<Errno> {
        Errno::ALL
            .into_iter()
            .enumerate()
            .filter(|(i, _)| self.errors[*i] == 0)
            .map(|(_, e)| e)
            .collect()
    }
}

/// A Markdown table of ops per kind and of errors, then the totals.
impl fmt::Display for GenStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pm = |n: u64, d: u64| {
            let x = (n * 1000).checked_div(d).unwrap_or(0);
            format!("{}.{}%", x / 10, x % 10)
        };
        writeln!(f, "| op | runs | ok | err | ok share |")?;
        writeln!(f, "|---|---:|---:|---:|---:|")?;
        for k in OpKind::ALL {
            let [ok, err] = self.per_kind[k as usize];
            writeln!(
                f,
                "| {} | {} | {} | {} | {} |",
                k.keyword(),
                ok + err,
                ok,
                err,
                pm(ok, ok + err)
            )?;
        }
        writeln!(f)?;
        writeln!(f, "| error | count | share of ops |")?;
        writeln!(f, "|---|---:|---:|")?;
        for (i, e) in Errno::ALL.iter().enumerate() {
            writeln!(
                f,
                "| {e} | {} | {} |",
                self.errors[i],
                pm(self.errors[i], self.ops)
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "inputs {}, ops {}, succeeded {} ({})",
            self.inputs,
            self.ops,
            self.ok,
            pm(self.ok, self.ops)
        )
    }
}

/// The swarm configuration of one input: a weight per [`OpKind`], 0 when disabled.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Swarm {
    /// Per [`OpKind::ALL`] index: the weight (0 = disabled in this input).
    pub weights: [u32; 22],
}

impl Swarm {
    fn from_bytes(u: &mut Unstructured<'_>) -> Swarm {
        let mut weights = [0; 22];
        for k in OpKind::ALL {
            let b: u8 = u.arbitrary().unwrap_or(1);
            weights[k as usize] = match k {
                // Expensive or trivial kinds: on in 1 input of 8, weight 1.
                OpKind::Check | OpKind::Dump | OpKind::Stats => u32::from(b % 8 == 0),
                _ if b % 4 == 0 => 0,
                // Kinds that build state weigh more, so the tree gets interesting.
                OpKind::Mkdir | OpKind::Create | OpKind::Register => 3 + u32::from(b >> 2) % 8,
                _ => 1 + u32::from(b >> 2) % 8,
            };
        }
        if weights.iter().all(|&w| w == 0) {
            weights[OpKind::Mkdir as usize] = 1;
        }
        Swarm { weights }
    }
}

/// What the generator knows about the reference's state, from the outcomes it was shown.
/// Approximate (it is only used to bias choices), but deterministic.
#[derive(Clone, Debug, Default)]
struct Model {
    /// Normalized paths (`/a/b`) of directories believed to exist; `/` always.
    dirs: BTreeSet<Vec<u8>>,
    /// Normalized paths of non-directories believed to exist.
    files: BTreeSet<Vec<u8>>,
    /// Inode numbers ever returned.
    inos: BTreeSet<Ino>,
    /// Inode numbers returned as directories.
    dir_inos: BTreeSet<Ino>,
    /// Every header registered: id, normalized dir, row names.
    headers: Vec<(HeaderId, Vec<u8>, Vec<Vec<u8>>)>,
    /// Headers not yet unregistered.
    live_headers: BTreeSet<HeaderId>,
    /// Handle slots holding an open handle.
    open_slots: BTreeSet<Slot>,
    /// Cursor slots that were opened.
    cursor_slots: BTreeSet<Slot>,
}

/// `/`-prefixed form of a (valid) path; the root is `/`.
fn norm(path: &[u8]) -> Vec<u8> {
    let rest = path.strip_prefix(b"/").unwrap_or(path);
    let mut out = Vec::with_capacity(rest.len() + 1);
    out.push(b'/');
    out.extend_from_slice(rest);
    out
}

fn join(dir: &[u8], name: &[u8]) -> Vec<u8> {
    let mut p = Vec::with_capacity(dir.len() + 1 + name.len());
    p.extend_from_slice(dir);
    if p.last() != Some(&b'/') {
        p.push(b'/');
    }
    p.extend_from_slice(name);
    p
}

impl Model {
    fn new() -> Model {
        let mut m = Model::default();
        m.dirs.insert(b"/".to_vec());
        m.inos.insert(ROOT_INO);
        m.dir_inos.insert(ROOT_INO);
        m
    }

    fn forget(&mut self, path: &[u8], subtree: bool) {
        let p = norm(path);
        self.dirs.remove(&p);
        self.files.remove(&p);
        if subtree {
            let prefix = join(&p, b"");
            self.dirs.retain(|d| !d.starts_with(&prefix));
            self.files.retain(|d| !d.starts_with(&prefix));
        }
        self.dirs.insert(b"/".to_vec());
    }

    fn observe(&mut self, op: &Op, out: &Outcome) {
        let mut ino = |n: Ino, dir: bool| {
            self.inos.insert(n);
            if dir {
                self.dir_inos.insert(n);
            }
        };
        match (op, out) {
            (Op::Mkdir { path }, Outcome::Ino(n)) => {
                ino(*n, true);
                self.dirs.insert(norm(path));
            }
            (
                Op::Create { path, .. } | Op::Symlink { path, .. } | Op::Listing { path },
                Outcome::Ino(n),
            ) => {
                ino(*n, false);
                self.files.insert(norm(path));
            }
            (Op::Register { dir, rows }, Outcome::Header(h)) => {
                let d = norm(dir);
                for (i, &b) in d.iter().enumerate() {
                    if b == b'/' && i > 0 {
                        self.dirs.insert(d[..i].to_vec());
                    }
                }
                self.dirs.insert(d.clone());
                for r in rows {
                    let p = join(&d, &r.name);
                    match r.kind {
                        RowKind::Dir => self.dirs.insert(p),
                        RowKind::File(_) => self.files.insert(p),
                    };
                }
                let names = rows.iter().map(|r| r.name.clone()).collect();
                self.headers.push((*h, d, names));
                self.live_headers.insert(*h);
            }
            (Op::Unregister { header }, Outcome::Unit) => {
                self.live_headers.remove(header);
                if let Some((_, d, names)) = self.headers.iter().find(|x| x.0 == *header) {
                    let paths: Vec<_> = names.iter().map(|n| join(d, n)).collect();
                    for p in paths {
                        self.forget(&p, true);
                    }
                }
            }
            (Op::Stat { .. } | Op::LookupAt { .. }, Outcome::Stat(s)) => {
                ino(s.ino, s.kind == Kind::Dir)
            }
            (Op::Readdir { .. } | Op::ReadPage { .. }, Outcome::Page(p)) => {
                for e in &p.entries {
                    ino(e.ino, e.kind == Kind::Dir);
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
            }
            (Op::Close { slot }, Outcome::Unit) => {
                self.open_slots.remove(slot);
            }
            // A path the model believed in turned out missing: forget it.
            (
                Op::Stat { path }
                | Op::Remove { path }
                | Op::RemoveSubtree { path }
                | Op::MarkPermanent { path }
                | Op::Open { path, .. }
                | Op::OpenDir { path, .. },
                Outcome::Err(Errno::ENOENT),
            ) => self.forget(path, true),
            _ => {}
        }
    }
}

/// The generator: reads swarm weights and limits from the first bytes, then one op at a time.
///
/// Drive it with [`next_op`](Self::next_op), run the op on the reference, and pass the
/// reference's outcome to [`observe`](Self::observe) before asking for the next op.
pub struct Generator<'a> {
    u: Unstructured<'a>,
    limits: Limits,
    swarm: Swarm,
    model: Model,
    made: usize,
}

impl<'a> Generator<'a> {
    /// A generator over `data` (any bytes; an empty input gives no ops).
    pub fn new(data: &'a [u8]) -> Generator<'a> {
        let mut u = Unstructured::new(data);
        let swarm = Swarm::from_bytes(&mut u);
        let limits = Self::pick_limits(&mut u);
        Generator {
            u,
            limits,
            swarm,
            model: Model::new(),
            made: 0,
        }
    }

    /// The limits this input runs with.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// This input's swarm configuration.
    pub fn swarm(&self) -> &Swarm {
        &self.swarm
    }

    fn pick_limits(u: &mut Unstructured<'_>) -> Limits {
        let b: u8 = u.arbitrary().unwrap_or(0);
        let d = Limits::default();
        match b % 8 {
            0..=3 => d,
            4 | 5 => Limits {
                max_entries: 16,
                max_content: 8,
                max_table_rows: 3,
                max_readdir: 1 + usize::from(b >> 3) % 4,
            },
            _ => Limits {
                max_entries: [16, 24, 40, 64, 1 << 20][usize::from(b >> 3) % 5],
                max_content: [8, 64, 65_536][usize::from(b >> 3) % 3],
                max_table_rows: [3, 8, 1024][usize::from(b >> 5) % 3],
                max_readdir: [1, 2, 3, 16][usize::from(b >> 6) % 4],
            },
        }
    }

    /// Tells the generator the reference's outcome of the op it made last.
    pub fn observe(&mut self, op: &Op, outcome: &Outcome) {
        self.model.observe(op, outcome);
    }

    // ---- small helpers that never fail (an exhausted input reads as zeros) ----

    fn int(&mut self, lo: u64, hi: u64) -> u64 {
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    /// True with probability `num/den`.
    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.int(0, den - 1) < num
    }

    /// A uniformly chosen element of one of the model's sets (`None` if it is empty), without
    /// copying the set first (a copy of every known path per generated op was most of the
    /// generator's time).
    fn pick_in<T: Clone>(&mut self, set: fn(&Model) -> &BTreeSet<T>) -> Option<T> {
        let i = self.pick_index(set)?;
        set(&self.model).iter().nth(i).cloned()
    }

    /// The position [`pick_in`](Self::pick_in) would take its element from, drawing the same
    /// bytes, for a caller that only needs to borrow the element later.
    fn pick_index<T>(&mut self, set: fn(&Model) -> &BTreeSet<T>) -> Option<usize> {
        let len = set(&self.model).len();
        self.index_below(len)
    }

    /// A uniform position below `len`, or `None` (drawing nothing) when `len` is 0.
    fn index_below(&mut self, len: usize) -> Option<usize> {
        (len > 0).then(|| self.int(0, len as u64 - 1) as usize)
    }

    fn edge_name(&mut self) -> Vec<u8> {
        match self.int(0, 9) {
            0 => vec![b'n'; 255],
            1 => vec![b'n'; 256],
            2 => b".".to_vec(),
            3 => b"..".to_vec(),
            4 => b"a/b".to_vec(),
            5 => b"a\0b".to_vec(),
            6 => b"\xff\xfe".to_vec(),
            7 => Vec::new(),
            8 => {
                let mut v = vec![b'x'; 300];
                v[150] = 0;
                v
            }
            _ => b"e t\\h".to_vec(),
        }
    }

    fn name(&mut self) -> Vec<u8> {
        if self.chance(1, 40) {
            self.edge_name()
        } else {
            let i = self.int(0, NAME_POOL.len() as u64 - 1) as usize;
            NAME_POOL[i].to_vec()
        }
    }

    fn random_path(&mut self) -> Vec<u8> {
        let depth = self.int(1, 4);
        let mut p = Vec::new();
        for _ in 0..depth {
            p.push(b'/');
            let n = self.name();
            p.extend_from_slice(&n);
        }
        p
    }

    fn edge_path(&mut self) -> Vec<u8> {
        match self.int(0, 6) {
            // Over MAX_PATH. Built with `repeat` (block copies) rather than a byte at a time:
            // an input that runs out of bytes makes every later choice 0, which lands here,
            // so most short fuzz inputs build this path once, under coverage instrumentation
            // of every loop step. (Measured: no clear change in exec/s; kept as the plainer
            // code.)
            0 => {
                let mut p = b"aa/".repeat(1367);
                p.truncate(4099);
                p
            }
            1 => b"/a//b".to_vec(),
            2 => b"/a/".to_vec(),
            3 => b"//".to_vec(),
            4 => b"/".to_vec(),
            5 => Vec::new(),
            _ => {
                let mut p = b"/".to_vec();
                let e = self.edge_name();
                p.extend_from_slice(&e);
                p
            }
        }
    }

    /// A path for a creation: usually a known directory plus a pool name.
    fn new_path(&mut self) -> Vec<u8> {
        let r = self.int(0, 99);
        let mut p = if r < 3 {
            self.edge_path()
        } else if r < 80 {
            // The directory is drawn before the name, and copied once, straight into the
            // path (this runs for most generated ops, and each allocation costs the ASan
            // fuzz build a stack trace).
            let i = self.pick_index(|m| &m.dirs);
            let n = self.name();
            let d = i.and_then(|i| self.model.dirs.iter().nth(i));
            join(d.map_or(&b"/"[..], |d| &d[..]), &n)
        } else {
            self.random_path()
        };
        if p.len() > 1 && self.chance(1, 8) {
            p.remove(0); // the leading `/` is optional
        }
        p
    }

    /// A path that probably exists: a known file (`want_dir` false) or directory, else any.
    fn existing_path(&mut self, want_dir: Option<bool>) -> Vec<u8> {
        let r = self.int(0, 99);
        if r < 78 {
            let picked = match want_dir {
                Some(true) => self.pick_in(|m| &m.dirs),
                Some(false) if !self.model.files.is_empty() => self.pick_in(|m| &m.files),
                _ => {
                    // Uniform over the union of dirs and files, as `pick_in` would be,
                    // without building the union.
                    let len = self.model.dirs.union(&self.model.files).count();
                    self.index_below(len).map(|i| {
                        let mut all = self.model.dirs.union(&self.model.files);
                        all.nth(i).cloned().expect("i < len")
                    })
                }
            };
            if let Some(p) = picked {
                if want_dir != Some(true) && p == b"/" && self.chance(3, 4) {
                    return self.new_path();
                }
                return p;
            }
        }
        self.new_path()
    }

    fn content(&mut self) -> Vec<u8> {
        let max = self.limits.max_content;
        match self.int(0, 39) {
            0..=3 => Vec::new(),
            4..=27 => {
                let pool: [&[u8]; 6] = [b"0\n", b"1", b"eth0\n", b"x", b"65536\n", b"on"];
                pool[self.int(0, 5) as usize].to_vec()
            }
            28..=35 => {
                let n = self.int(1, 12) as usize;
                self.u.bytes(n).map(<[u8]>::to_vec).unwrap_or_default()
            }
            36 | 37 => vec![b'z'; max.min(1 << 17)],
            _ => vec![b'z'; max.saturating_add(1).min(1 << 17)],
        }
    }

    fn ino(&mut self, dir: bool) -> Ino {
        let r = self.int(0, 19);
        let picked = if dir && r < 16 {
            self.pick_in(|m| &m.dir_inos)
        } else if r < 18 {
            self.pick_in(|m| &m.inos)
        } else {
            let hi = self.model.inos.iter().next_back().copied().unwrap_or(1);
            return self.int(0, hi + 2);
        };
        picked.unwrap_or(ROOT_INO)
    }

    fn page_max(&mut self) -> usize {
        let m = self.limits.max_readdir;
        match self.int(0, 39) {
            0 => 0,
            1 => m.saturating_add(1),
            2 | 3 => m,
            _ => self.int(1, m.min(4) as u64) as usize,
        }
    }

    fn pos(&mut self) -> u64 {
        match self.int(0, 9) {
            0..=4 => 0,
            5..=7 => self.ino(false),
            8 => self.int(0, 64),
            _ => u64::MAX - self.int(0, 1),
        }
    }

    fn slot(&mut self, live: fn(&Model) -> &BTreeSet<Slot>, of: Slot) -> Slot {
        if !live(&self.model).is_empty() && self.chance(17, 20) {
            self.pick_in(live).unwrap_or(0)
        } else {
            self.int(0, u64::from(of) - 1) as Slot
        }
    }

    fn rows(&mut self) -> Vec<Row> {
        let lim = self.limits.max_table_rows;
        let n = match self.int(0, 19) {
            0 | 1 => 0,
            2 => lim.saturating_add(1).min(1100),
            _ => self.int(1, lim.clamp(1, 4) as u64) as usize,
        };
        let mut names: Vec<&[u8]> = NAME_POOL.iter().chain(ROW_EXTRA.iter()).copied().collect();
        let mut rows: Vec<Row> = Vec::with_capacity(n);
        for i in 0..n {
            let name = if i > 0 && self.chance(1, 16) {
                let j = self.int(0, i as u64 - 1) as usize;
                rows[j].name.clone()
            } else if self.chance(1, 30) {
                self.edge_name()
            } else if names.is_empty() || n > 8 {
                format!("r{i}").into_bytes()
            } else {
                let j = self.int(0, names.len() as u64 - 1) as usize;
                names.remove(j).to_vec()
            };
            let kind = if self.chance(1, 4) {
                RowKind::Dir
            } else if n > 8 {
                RowKind::File(Vec::new()) // an oversized table: keep it small in bytes
            } else {
                RowKind::File(self.content())
            };
            rows.push(Row { name, kind });
        }
        rows
    }

    fn kind(&mut self) -> OpKind {
        let total: u32 = self.swarm.weights.iter().sum();
        let mut r = self.int(0, u64::from(total) - 1) as u32;
        for k in OpKind::ALL {
            let w = self.swarm.weights[k as usize];
            if r < w {
                return k;
            }
            r -= w;
        }
        OpKind::Stats
    }

    /// The next op, or `None` when the input is used up or [`MAX_OPS`] were made.
    pub fn next_op(&mut self) -> Option<Op> {
        if self.made >= MAX_OPS || self.u.is_empty() {
            return None;
        }
        self.made += 1;
        let op = match self.kind() {
            OpKind::Mkdir => Op::Mkdir {
                path: self.new_path(),
            },
            OpKind::Create => Op::Create {
                path: self.new_path(),
                content: self.content(),
            },
            OpKind::Symlink => {
                let path = self.new_path();
                let target = if self.chance(1, 10) {
                    Vec::new()
                } else {
                    let mut t = self.content();
                    if t.is_empty() {
                        t = b"../a".to_vec();
                    }
                    t
                };
                Op::Symlink { path, target }
            }
            OpKind::Listing => Op::Listing {
                path: self.new_path(),
            },
            OpKind::Register => {
                let dir = if self.chance(1, 2) {
                    self.existing_path(Some(true))
                } else {
                    self.new_path()
                };
                Op::Register {
                    dir,
                    rows: self.rows(),
                }
            }
            OpKind::Unregister => {
                let header = match self.int(0, 9) {
                    0..=6 if !self.model.live_headers.is_empty() => {
                        self.pick_in(|m| &m.live_headers).unwrap_or(1)
                    }
                    0..=8 if !self.model.headers.is_empty() => {
                        let i = self.int(0, self.model.headers.len() as u64 - 1) as usize;
                        self.model.headers[i].0
                    }
                    _ => self.int(0, self.model.headers.len() as u64 + 2),
                };
                Op::Unregister { header }
            }
            OpKind::Stat => Op::Stat {
                path: self.existing_path(None),
            },
            OpKind::LookupAt => Op::LookupAt {
                dir: self.ino(true),
                name: self.name(),
            },
            OpKind::Readdir => Op::Readdir {
                dir: self.ino(true),
                pos: self.pos(),
                max: self.page_max(),
            },
            OpKind::Remove => Op::Remove {
                path: self.existing_path(None),
            },
            OpKind::RemoveSubtree => Op::RemoveSubtree {
                path: self.existing_path(None),
            },
            OpKind::MarkPermanent => Op::MarkPermanent {
                path: self.existing_path(None),
            },
            OpKind::Open => {
                let slot = self.int(0, u64::from(HANDLE_SLOTS) - 1) as Slot;
                let want = if self.chance(9, 10) {
                    Some(false)
                } else {
                    None
                };
                Op::Open {
                    slot,
                    path: self.existing_path(want),
                }
            }
            OpKind::Read => Op::Read {
                slot: self.slot(|m| &m.open_slots, HANDLE_SLOTS),
            },
            OpKind::Close => Op::Close {
                slot: self.slot(|m| &m.open_slots, HANDLE_SLOTS),
            },
            OpKind::Stats => Op::Stats,
            OpKind::OpenDir => {
                let slot = self.int(0, u64::from(CURSOR_SLOTS) - 1) as Slot;
                let want = if self.chance(9, 10) { Some(true) } else { None };
                Op::OpenDir {
                    slot,
                    path: self.existing_path(want),
                }
            }
            OpKind::ReadPage => Op::ReadPage {
                slot: self.slot(|m| &m.cursor_slots, CURSOR_SLOTS),
                max: self.page_max(),
            },
            OpKind::Seek => Op::Seek {
                slot: self.slot(|m| &m.cursor_slots, CURSOR_SLOTS),
                pos: self.pos(),
            },
            OpKind::Rewind => Op::Rewind {
                slot: self.slot(|m| &m.cursor_slots, CURSOR_SLOTS),
            },
            OpKind::Check => Op::Check,
            OpKind::Dump => Op::Dump,
        };
        Some(op)
    }
}

/// Bytes → (limits, ops): generates the ops of `data`, realizing them on the oracle (the
/// generator looks at the reference's outcomes). Stops early if the oracle panics (that op
/// is included, so a differential run reports the panic).
///
/// ```
/// let (limits, ops) = pdtree_harness::gen::ops_from_bytes(&[]);
/// assert_eq!((limits, ops.len()), (pdtree::Limits::default(), 0));
/// ```
pub fn ops_from_bytes(data: &[u8]) -> (Limits, Vec<Op>) {
    let mut g = Generator::new(data);
    let limits = g.limits();
    let mut r: Runner<Oracle> = Runner::from_tree(Oracle::with_limits(limits));
    let mut ops = Vec::new();
    while let Some(op) = g.next_op() {
        let out = catch_unwind(AssertUnwindSafe(|| r.apply(&op)));
        ops.push(op);
        match out {
            Ok(out) => g.observe(ops.last().expect("just pushed"), &out),
            Err(_) => break,
        }
    }
    (limits, ops)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_input_gives_no_ops_and_default_limits() {
        assert_eq!(ops_from_bytes(&[]), (Limits::default(), vec![]));
    }

    #[test]
    fn op_cap_holds() {
        let data = vec![0x5a; 100_000];
        assert_eq!(ops_from_bytes(&data).1.len(), MAX_OPS);
    }

    #[test]
    fn norm_and_join() {
        assert_eq!(norm(b"a/b"), b"/a/b");
        assert_eq!(norm(b"/"), b"/");
        assert_eq!(norm(b""), b"/");
        assert_eq!(join(b"/", b"x"), b"/x");
        assert_eq!(join(b"/a", b"x"), b"/a/x");
    }

    #[test]
    fn kinds_round_trip() {
        for k in OpKind::ALL {
            assert_eq!(OpKind::ALL[k as usize], k);
        }
    }
}
