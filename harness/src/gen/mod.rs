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
//!    contents, 3-row tables, 1–4 entry readdir pages, 3 live namespaces) so `ENOSPC`,
//!    `EFBIG`, `E2BIG` are reached, or a mix.
//! 3. **Ops**, at most [`MAX_OPS`] per input (or [`MAX_LONG_OPS`] for a *long history*, an
//!    input over [`LONG_INPUT`] bytes), until the bytes run out. Names come mostly from
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

mod deep;
mod model;
pub mod paths;
mod profile;
mod reach;
mod stats;
mod swarm;

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use arbitrary::Unstructured;
use pdtree::{Ino, Limits, PseudoFs, Row, RowKind, ROOT_INO};
use pdtree_oracle::Oracle;

use crate::lang::op::{Op, OpKind, Slot};
use crate::lang::runner::{Outcome, Runner};
use model::{join, Model};
pub use profile::Profile;
pub use reach::{Reach, ReachFeatures};
pub use stats::GenStats;
pub use swarm::Swarm;

/// The most ops one input of up to [`LONG_INPUT`] bytes generates (the explicit per-input
/// cap).
pub const MAX_OPS: usize = 200;

/// An input longer than this many bytes is a *long history*: it generates up to
/// [`MAX_LONG_OPS`] ops, until its bytes run out. (4,096 is also the campaign's default
/// `max_len` and libFuzzer's default `-max_len`, so ordinary inputs keep the short cap.)
pub const LONG_INPUT: usize = 4096;

/// The most ops a long history generates.
pub const MAX_LONG_OPS: usize = 16_384;

/// The pool most names are drawn from: few, so creations, lookups and removals collide.
pub const NAME_POOL: [&[u8]; 6] = [b"a", b"b", b"c", b"net", b"eth0", b"conf"];

/// Extra names register rows may use, so a table can have up to 8 distinct rows.
const ROW_EXTRA: [&[u8]; 2] = [b"mtu", b"forwarding"];

/// The name prefixes of bulk ops: `eth` collides with the pool's `eth0` at index 0, the
/// others make names of their own family.
const BULK_PREFIXES: [&[u8]; 3] = [b"eth", b"if", b"n"];

/// Source names: few, so generated files, rows and `source_*` ops meet the same sources.
const SOURCE_POOL: [&[u8]; 3] = [b"filesystems", b"dev", b"s"];

/// Items: few, so `source_add` meets `EEXIST` and `source_remove` finds what was added.
const ITEM_POOL: [&[u8]; 5] = [b"nodev\tsysfs", b"\text4", b"nodev\tproc", b"eth0", b"x"];

/// Modes: the common ones, 0 and a full one.
const MODE_POOL: [u32; 6] = [0o644, 0o444, 0o600, 0o755, 0o000, 0o777];

/// Owner ids: root, a user, a container's mapped root, nobody.
const ID_POOL: [u32; 4] = [0, 1000, 100_000, 65_534];

/// The largest bulk count of the generator's common regime.
pub const MAX_BULK_SMALL: usize = 300;

/// The largest bulk count the generator makes (a large bulk: at most one per input).
pub const MAX_BULK_GENERATED: usize = 100_000;

/// How many ops an input may have after its large bulk: every later op checks a directory
/// of up to [`MAX_BULK_GENERATED`] files on both sides (about 40 ms an op at 10^5 files,
/// release build), so the input ends soon after.
pub const OPS_AFTER_LARGE_BULK: usize = 32;

/// Handle slots the generator uses (`0..HANDLE_SLOTS`): few, so slots get reused.
pub const HANDLE_SLOTS: Slot = 6;

/// Cursor slots the generator uses (`0..CURSOR_SLOTS`).
pub const CURSOR_SLOTS: Slot = 3;

/// The generator: reads swarm weights and limits from the first bytes, then one op at a time.
///
/// Drive it with [`next_op`](Self::next_op), run the op on the reference, and pass the
/// reference's outcome to [`observe`](Self::observe) before asking for the next op.
pub struct Generator<'a> {
    u: Unstructured<'a>,
    limits: Limits,
    swarm: Swarm,
    profile: Profile,
    model: Model,
    made: usize,
    /// [`MAX_OPS`], or [`MAX_LONG_OPS`] for a long history; lowered by a large bulk.
    cap: usize,
    /// Whether this input has had its large bulk.
    large_bulk: bool,
}

impl<'a> Generator<'a> {
    /// A generator over `data` (any bytes; an empty input gives no ops).
    pub fn new(data: &'a [u8]) -> Generator<'a> {
        Generator::with_profile(data, Profile::FULL)
    }

    /// A generator that makes only what `profile` supports. The bytes are read the same way
    /// for every profile; unsupported kinds get weight 0.
    pub fn with_profile(data: &'a [u8], profile: Profile) -> Generator<'a> {
        let mut u = Unstructured::new(data);
        let mut swarm = Swarm::from_bytes(&mut u);
        swarm.restrict(&profile);
        let limits = Self::pick_limits(&mut u);
        Generator {
            u,
            limits,
            swarm,
            profile,
            model: Model::new(),
            made: 0,
            cap: if data.len() > LONG_INPUT {
                MAX_LONG_OPS
            } else {
                MAX_OPS
            },
            large_bulk: false,
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
                max_namespaces: 3,
            },
            _ => Limits {
                max_entries: [16, 24, 40, 64, 1 << 20][usize::from(b >> 3) % 5],
                max_content: [8, 64, 65_536][usize::from(b >> 3) % 3],
                max_table_rows: [3, 8, 1024][usize::from(b >> 5) % 3],
                max_readdir: [1, 2, 3, 16][usize::from(b >> 6) % 4],
                max_namespaces: [2, 4, 65_536][usize::from(b >> 4) % 3],
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
            // Over MAX_PATH. An input that runs out of bytes makes every later choice 0, which
            // lands here, so most short fuzz inputs build this path once: `repeat` copies
            // blocks instead of looping a byte at a time under coverage instrumentation.
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
            if let Some(d) = self.focus_dir() {
                let n = self.name();
                return join(&d, &n);
            }
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

    /// A path that probably exists: a known file (`want_dir` false) or directory, else any;
    /// after a large bulk, its directory every other time (see [`Self::focus_dir`]).
    fn existing_path(&mut self, want_dir: Option<bool>) -> Vec<u8> {
        if want_dir != Some(false) {
            if let Some(d) = self.focus_dir() {
                return d;
            }
        }
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
        if let Some(Some(ino)) = self.model.focus.as_ref().map(|f| f.1) {
            if dir && self.chance(1, 2) {
                return ino;
            }
        }
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

    /// The large bulk's directory, every other time while it exists: the ops after a large
    /// bulk are few ([`OPS_AFTER_LARGE_BULK`]), and each costs a check of that directory, so
    /// they are aimed at it (its size, its listing, creations and removals among its
    /// children) rather than spread over the model's paths. Draws nothing without a focus.
    fn focus_dir(&mut self) -> Option<Vec<u8>> {
        self.model.focus.as_ref()?;
        if !self.chance(1, 2) {
            return None;
        }
        self.model.focus.as_ref().map(|f| f.0.clone())
    }

    /// A table: none (a mount point) 1 in 10, one row over the limit 1 in 20, the largest
    /// the limit allows 1 in 40 (up to 1,024 rows, distinct names: a directory past the
    /// name index's growth points in one op), else 1–4 rows.
    fn rows(&mut self) -> Vec<Row> {
        let lim = self.limits.max_table_rows;
        let (n, full) = match self.int(0, 39) {
            0..=3 => (0, false),
            4 | 5 => (lim.saturating_add(1).min(1100), false),
            6 => (lim.min(1100), true),
            _ => (self.int(1, lim.clamp(1, 4) as u64) as usize, false),
        };
        let mut names: Vec<&[u8]> = NAME_POOL.iter().chain(ROW_EXTRA.iter()).copied().collect();
        let mut rows: Vec<Row> = Vec::with_capacity(n);
        for i in 0..n {
            let name = if full && n > 8 {
                format!("r{i}").into_bytes()
            } else if i > 0 && self.chance(1, 16) {
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
            let kind = match self.int(0, 11) {
                0..=2 => RowKind::Dir,
                _ if n > 8 => RowKind::File(Vec::new()), // an oversized table: keep it small
                3 | 4 => RowKind::Gen(self.source_name()),
                _ => RowKind::File(self.content()),
            };
            // A full table's rows keep their kind's mode: one edge mode would refuse it.
            let mode = (!full && self.chance(1, 4)).then(|| self.mode());
            rows.push(Row { name, kind, mode });
        }
        rows
    }

    fn kind(&mut self) -> OpKind {
        let r = self.int(0, u64::from(self.swarm.total()) - 1) as u32;
        self.swarm.kind_at(r)
    }

    /// The next op, or `None` when the input is used up or its cap ([`MAX_OPS`], or
    /// [`MAX_LONG_OPS`] for an input over [`LONG_INPUT`] bytes) was made.
    pub fn next_op(&mut self) -> Option<Op> {
        if self.made >= self.cap || self.u.is_empty() {
            return None;
        }
        self.made += 1;
        let kind = self.kind();
        let kind = self.kind_for_state(kind);
        Some(self.op_of(kind))
    }

    /// A kind that needs state the model does not have yet is, three times in four, the op
    /// that makes that state: `open` for a handle op with no handle open, `ns_create` for a
    /// namespace op with no namespace but 0. (The fourth time it runs as drawn, to reach its
    /// errors.)
    fn kind_for_state(&mut self, kind: OpKind) -> OpKind {
        let needs = match kind {
            OpKind::Read | OpKind::ReadAt | OpKind::Write | OpKind::Close => {
                self.model.open_slots.is_empty().then_some(OpKind::Open)
            }
            OpKind::NsDestroy | OpKind::RegisterNs => self
                .model
                .live_namespaces
                .is_empty()
                .then_some(OpKind::NsCreate),
            _ => None,
        };
        match needs {
            Some(k) if self.profile.supports(k) && self.chance(3, 4) => k,
            _ => kind,
        }
    }

    /// A `create`, its content as the profile allows.
    fn create_op(&mut self) -> Op {
        let path = self.new_path();
        let mut content = self.content();
        if self.profile.empty_files {
            content.clear();
        }
        Op::Create { path, content }
    }

    /// A `symlink`, its target as the profile allows.
    fn symlink_op(&mut self) -> Op {
        let path = self.new_path();
        let mut target = self.target();
        if self.profile.nul_free_targets {
            target.retain(|&b| b != 0);
        }
        if let Some(max) = self.profile.max_symlink_target {
            target.truncate(max);
        }
        Op::Symlink { path, target }
    }

    /// One op of `kind`, its fields drawn in script order.
    fn op_of(&mut self, kind: OpKind) -> Op {
        match kind {
            OpKind::Mkdir => Op::Mkdir {
                path: self.new_path(),
            },
            OpKind::Create => self.create_op(),
            OpKind::Symlink => self.symlink_op(),
            OpKind::Listing => Op::Listing {
                path: self.new_path(),
            },
            OpKind::Register => Op::Register {
                dir: self.table_dir(),
                rows: self.rows(),
            },
            OpKind::Unregister => Op::Unregister {
                header: self.header(),
            },
            OpKind::Stat => Op::Stat {
                view: self.view(),
                path: self.existing_path(None),
            },
            OpKind::LookupAt => Op::LookupAt {
                view: self.view(),
                dir: self.ino(true),
                name: self.name(),
            },
            OpKind::Readdir => Op::Readdir {
                view: self.view(),
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
            OpKind::Open => Op::Open {
                view: self.view(),
                slot: self.new_slot(HANDLE_SLOTS),
                path: self.path_to_open(false),
            },
            OpKind::Read => Op::Read {
                slot: self.handle_slot(),
            },
            OpKind::Close => Op::Close {
                slot: self.handle_slot(),
            },
            OpKind::Stats => Op::Stats,
            OpKind::OpenDir | OpKind::ReadPage | OpKind::Seek | OpKind::Rewind => {
                self.cursor_op(kind)
            }
            OpKind::Check => Op::Check,
            OpKind::Dump => Op::Dump,
            OpKind::Bulk
            | OpKind::Chain
            | OpKind::CycleCreate
            | OpKind::CycleOpen
            | OpKind::CycleRegister
            | OpKind::CycleSource
            | OpKind::CycleNs => self.deep_op(kind),
            _ => self.part_two_op(kind),
        }
    }

    /// One readdir-cursor op, its fields drawn in script order.
    fn cursor_op(&mut self, kind: OpKind) -> Op {
        match kind {
            OpKind::OpenDir => Op::OpenDir {
                view: self.view(),
                slot: self.new_slot(CURSOR_SLOTS),
                path: self.path_to_open(true),
            },
            OpKind::ReadPage => Op::ReadPage {
                view: self.view(),
                slot: self.cursor_slot(),
                max: self.page_max(),
            },
            OpKind::Seek => Op::Seek {
                slot: self.cursor_slot(),
                pos: self.pos(),
            },
            OpKind::Rewind => Op::Rewind {
                slot: self.cursor_slot(),
            },
            _ => unreachable!("op_of handles {kind:?}"),
        }
    }

    /// One op of a SPEC Part II kind (§10–§13), its fields drawn in script order.
    fn part_two_op(&mut self, kind: OpKind) -> Op {
        match kind {
            OpKind::Generated => Op::Generated {
                path: self.new_path(),
                source: self.source_name(),
            },
            OpKind::SourceAdd => Op::SourceAdd {
                source: self.source_name(),
                item: self.item(),
            },
            OpKind::SourceRemove => match self.pick_in(|m| &m.items) {
                Some((source, item)) if self.chance(3, 4) => Op::SourceRemove { source, item },
                _ => Op::SourceRemove {
                    source: self.source_name(),
                    item: self.item(),
                },
            },
            OpKind::ReadAt => {
                let slot = self.handle_slot();
                Op::ReadAt {
                    slot,
                    offset: self.offset(slot),
                    len: self.read_len(),
                }
            }
            OpKind::Write => Op::Write {
                slot: self.handle_slot(),
                content: self.content(),
            },
            OpKind::Chmod => Op::Chmod {
                view: self.view(),
                path: self.existing_path(None),
                mode: self.mode(),
            },
            OpKind::Chown => Op::Chown {
                view: self.view(),
                path: self.existing_path(None),
                uid: self.id(),
                gid: self.id(),
            },
            OpKind::NsCreate => Op::NsCreate {
                uid: self.id(),
                gid: self.id(),
            },
            OpKind::NsDestroy => Op::NsDestroy { ns: self.ns() },
            OpKind::RegisterNs => Op::RegisterNs {
                ns: self.ns(),
                dir: self.table_dir(),
                rows: self.rows(),
            },

            _ => unreachable!("op_of handles {kind:?}"),
        }
    }

    /// A view: 0 until the input made a namespace (so inputs without one draw nothing
    /// here); then mostly 0 (where the model's paths are), often a live namespace, rarely a
    /// destroyed or unknown one.
    fn view(&mut self) -> u64 {
        if self.model.namespaces.is_empty() {
            return 0;
        }
        match self.int(0, 9) {
            0..=5 => 0,
            6..=8 => self.pick_in(|m| &m.live_namespaces).unwrap_or(0),
            _ => self.int(0, self.model.namespaces.len() as u64 + 1),
        }
    }

    /// A namespace to destroy or register in: mostly a live one other than 0, sometimes 0,
    /// rarely a destroyed or unknown one.
    fn ns(&mut self) -> u64 {
        match self.int(0, 9) {
            0..=6 if !self.model.live_namespaces.is_empty() => {
                self.pick_in(|m| &m.live_namespaces).unwrap_or(0)
            }
            0..=7 => 0,
            _ => self.int(0, self.model.namespaces.len() as u64 + 1),
        }
    }

    /// A source name: from [`SOURCE_POOL`], rarely an edge name.
    fn source_name(&mut self) -> Vec<u8> {
        if self.chance(1, 30) {
            return self.edge_name();
        }
        SOURCE_POOL[self.int(0, SOURCE_POOL.len() as u64 - 1) as usize].to_vec()
    }

    /// An item: from [`ITEM_POOL`], rarely empty, with a newline or NUL, or near the limit.
    fn item(&mut self) -> Vec<u8> {
        match self.int(0, 39) {
            0 => Vec::new(),
            1 => b"a\nb".to_vec(),
            2 => b"a\0b".to_vec(),
            3 => vec![b'i'; self.limits.max_content.saturating_sub(1).clamp(1, 1 << 17)],
            _ => ITEM_POOL[self.int(0, ITEM_POOL.len() as u64 - 1) as usize].to_vec(),
        }
    }

    /// A read offset: mostly 0 or where the slot's last read ended (to continue), else small
    /// or huge.
    fn offset(&mut self, slot: Slot) -> u64 {
        match self.int(0, 19) {
            0..=5 => 0,
            6..=13 => self.model.read_pos.get(&slot).copied().unwrap_or(0),
            14..=18 => self.int(1, 16),
            _ => u64::MAX - self.int(0, 1),
        }
    }

    /// A read length: mostly a few bytes (a `cat` with a small buffer), sometimes 0 or all.
    fn read_len(&mut self) -> u64 {
        match self.int(0, 19) {
            0 | 1 => 0,
            2..=14 => self.int(1, 8),
            15 | 16 => 64,
            _ => u64::MAX,
        }
    }

    /// A mode: from [`MODE_POOL`], rarely over 0o777.
    fn mode(&mut self) -> u32 {
        match self.int(0, 29) {
            0 => 0o1000,
            1 => u32::MAX,
            _ => MODE_POOL[self.int(0, MODE_POOL.len() as u64 - 1) as usize],
        }
    }

    /// An owner id: from [`ID_POOL`], rarely 4,294,967,295 (chown's "unchanged").
    fn id(&mut self) -> u32 {
        if self.chance(1, 30) {
            return pdtree::NO_ID;
        }
        ID_POOL[self.int(0, ID_POOL.len() as u64 - 1) as usize]
    }

    /// A bulk op's name prefix: mostly from [`BULK_PREFIXES`], rarely an edge name.
    fn prefix(&mut self) -> Vec<u8> {
        if self.chance(1, 40) {
            return self.edge_name();
        }
        let i = self.int(0, BULK_PREFIXES.len() as u64 - 1) as usize;
        BULK_PREFIXES[i].to_vec()
    }

    /// A symlink target: rarely empty, else content-like, `../a` for empty content.
    fn target(&mut self) -> Vec<u8> {
        if self.chance(1, 10) {
            return Vec::new();
        }
        let t = self.content();
        if t.is_empty() {
            b"../a".to_vec()
        } else {
            t
        }
    }

    /// A table's directory: half the time a known directory, else a new path.
    fn table_dir(&mut self) -> Vec<u8> {
        if self.chance(1, 2) {
            self.existing_path(Some(true))
        } else {
            self.new_path()
        }
    }

    /// A header id: mostly a live one, sometimes an unregistered one, rarely any number.
    fn header(&mut self) -> u64 {
        match self.int(0, 9) {
            0..=6 if !self.model.live_headers.is_empty() => {
                self.pick_in(|m| &m.live_headers).unwrap_or(1)
            }
            0..=8 if !self.model.headers.is_empty() => {
                let i = self.int(0, self.model.headers.len() as u64 - 1) as usize;
                self.model.headers[i].0
            }
            _ => self.int(0, self.model.headers.len() as u64 + 2),
        }
    }

    /// Any slot below `of`, for an op that fills one.
    fn new_slot(&mut self, of: Slot) -> Slot {
        self.int(0, u64::from(of) - 1) as Slot
    }

    /// What to open: nine times in ten a known file (`dir` false) or directory, else any.
    fn path_to_open(&mut self, dir: bool) -> Vec<u8> {
        let want = if self.chance(9, 10) { Some(dir) } else { None };
        self.existing_path(want)
    }

    fn handle_slot(&mut self) -> Slot {
        self.slot(|m| &m.open_slots, HANDLE_SLOTS)
    }

    fn cursor_slot(&mut self) -> Slot {
        self.slot(|m| &m.cursor_slots, CURSOR_SLOTS)
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
    ops_from_bytes_in(data, Profile::FULL)
}

/// [`ops_from_bytes`] for a target with `profile`.
pub fn ops_from_bytes_in(data: &[u8], profile: Profile) -> (Limits, Vec<Op>) {
    let mut g = Generator::with_profile(data, profile);
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
    fn profiles_get_only_the_kinds_they_support() {
        for profile in Profile::ALL {
            for i in 0..300 {
                let input = crate::campaign::iteration_input(7, i, 2048);
                let (_, ops) = ops_from_bytes_in(&input, profile);
                for op in ops {
                    assert!(profile.supports(op.kind()), "{}: `{op}`", profile.name);
                }
            }
        }
    }

    /// With a focus, about half of the existing directories and directory inodes drawn are
    /// the focus's, and the parent of two new paths in five; without it, none are.
    #[test]
    fn a_focus_draws_half_the_directories() {
        let focus = b"/d/e".to_vec();
        // Enough bytes for every draw: an exhausted input draws zeros.
        let input: Vec<u8> = (0..64)
            .flat_map(|i| crate::campaign::iteration_input(2, i, 4096))
            .collect();
        for focused in [false, true] {
            let mut g = Generator::new(&input);
            if focused {
                g.model.focus = Some((focus.clone(), Some(77)));
            }
            let (mut dirs, mut parents, mut inos) = (0, 0, 0);
            for _ in 0..1_000 {
                dirs += usize::from(g.existing_path(Some(true)) == focus);
                parents += usize::from(g.new_path().starts_with(b"/d/e/"));
                inos += usize::from(g.ino(true) == 77);
            }
            let half = if focused { 430..=570 } else { 0..=0 };
            let two_in_five = if focused { 320..=450 } else { 0..=0 };
            for (what, n, want) in [
                ("dirs", dirs, &half),
                ("parents", parents, &two_in_five),
                ("inos", inos, &half),
            ] {
                assert!(want.contains(&n), "focused {focused}: {n} {what} of 1,000");
            }
        }
    }

    #[test]
    fn op_caps_hold() {
        assert_eq!(ops_from_bytes(&vec![0x5a; LONG_INPUT]).1.len(), MAX_OPS);
        assert_eq!(ops_from_bytes(&vec![0x5a; 1 << 20]).1.len(), MAX_LONG_OPS);
    }
}
