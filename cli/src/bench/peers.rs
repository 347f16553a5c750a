//! Peers: core against the other ways a pseudo-filesystem keeps a large directory, each
//! through its own public API, in one directory of N files, in the same run.
//!
//! * `BTreeMap tree`: one `BTreeMap<String, child>` per directory, the layout of the
//!   Asterinas and ArceOS ramfs (written here, [`BTreeTree`]: the smallest tree of that
//!   shape that answers the same questions).
//! * `vfs MemoryFS`: the `vfs` crate's in-memory filesystem (one `HashMap` from full path to
//!   file, behind an `RwLock`). Its `read_dir` scans every path in the filesystem and returns
//!   the whole listing at once, so it is called once and read in pages.
//! * `hashbrown`: a bare `hashbrown::HashMap<Box<str>, u64>` from name to inode with its
//!   default hasher (foldhash, as core's name index): not a tree, the floor for lookups and
//!   removes. It has no paths, so it has no `stat(path)`.
//!
//! Every round times each series on a fresh structure: N creates by path, `lookup` of every
//! name in a random order (core: `lookup_at` on the directory's inode), `stat` of every path
//! in that order, a full readdir in pages of [`PAGE`], and the removal of every file in the
//! reverse of that order. Each round starts with a different series (four rounds, so each
//! goes first once). Memory is counted on a separate build, with the counting allocator
//! on. The table gives each series' median over the rounds.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;

use pdtree::{Ino, PseudoFs, Tree};
use vfs::{FileSystem, MemoryFS};

use super::cases::{time, BenchRun};
use super::{live_bytes, set_counting, Goal};
use pdtree_harness::campaign::splitmix64;

/// Entries per readdir page.
const PAGE: usize = 128;

/// The timed operations, in the order each round runs them.
const OPS: [&str; 5] = ["create", "lookup", "stat(path)", "readdir", "remove"];

/// The series, core first; the last one is the bare map.
pub(super) const SERIES: [&str; 4] = ["core", "BTreeMap tree", "vfs MemoryFS", "hashbrown"];

/// One size's medians: `ns[series][op]` nanoseconds per entry (NaN: not offered), bytes
/// per entry per series (NaN: no counting allocator), and each ratio's range over rounds.
#[derive(Clone, Debug)]
pub struct PeerSize {
    /// Files in the directory.
    pub n: u64,
    /// Median nanoseconds per entry, `[series][op]`.
    pub ns: [[f64; 5]; 4],
    /// Bytes per entry, by series.
    pub bytes: [f64; 4],
    /// Rounds measured.
    pub rounds: usize,
    /// Lowest and highest, over the rounds, of core ÷ hashbrown (lookup, remove) and of
    /// core's stat(path) ÷ lookup_at.
    pub spread: [(f64, f64); 3],
}

/// The names, paths and random order of one size, prepared before timing.
struct Workload {
    names: Vec<String>,
    paths: Vec<String>,
    order: Vec<usize>,
}

impl Workload {
    fn new(n: u64) -> Workload {
        let names: Vec<String> = (0..n).map(|i| format!("if{i:08}")).collect();
        let paths = names.iter().map(|m| format!("/d/{m}")).collect();
        let mut order: Vec<usize> = (0..n as usize).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, (splitmix64(i as u64 ^ 0x9ee5) % (i as u64 + 1)) as usize);
        }
        Workload {
            names,
            paths,
            order,
        }
    }
}

/// One series: a fresh structure holding the directory `/d`, and the five operations on
/// entry `i` of a [`Workload`].
trait Peer: Sized {
    fn fresh() -> Self;
    fn create(&mut self, w: &Workload, i: usize);
    fn lookup(&self, w: &Workload, i: usize) -> bool;
    /// The entry's size by path; `None` when the series has no paths.
    fn stat(&self, w: &Workload, i: usize) -> Option<u64>;
    /// Reads the whole directory in pages; returns the entries seen.
    fn readdir(&self) -> u64;
    fn remove(&mut self, w: &Workload, i: usize);
}

/// Core, with the inode of `/d` for `lookup_at`.
struct Core(Tree, Ino);

impl Peer for Core {
    fn fresh() -> Self {
        let mut t = Tree::new();
        let d = t.mkdir(b"/d").expect("mkdir /d");
        Core(t, d)
    }
    fn create(&mut self, w: &Workload, i: usize) {
        self.0.create(w.paths[i].as_bytes(), b"").expect("create");
    }
    fn lookup(&self, w: &Workload, i: usize) -> bool {
        self.0.lookup_at(self.1, w.names[i].as_bytes()).is_ok()
    }
    fn stat(&self, w: &Workload, i: usize) -> Option<u64> {
        self.0.stat(w.paths[i].as_bytes()).ok().map(|s| s.size)
    }
    fn readdir(&self) -> u64 {
        let (mut pos, mut seen) = (0, 0u64);
        loop {
            let page = self.0.readdir(self.1, pos, PAGE).expect("readdir");
            if page.entries.is_empty() {
                return seen;
            }
            seen += black_box(page.entries).len() as u64;
            pos = page.next_pos;
        }
    }
    fn remove(&mut self, w: &Workload, i: usize) {
        self.0.remove(w.paths[i].as_bytes()).expect("remove");
    }
}

/// A per-directory `BTreeMap` tree: directories in a vector, each mapping a child's name to
/// its inode and kind; files own their content.
struct BTreeTree {
    dirs: Vec<BTreeMap<String, Child>>,
    next_ino: u64,
}

enum Child {
    /// Index into `dirs`.
    Dir(u64, usize),
    File(u64, Vec<u8>),
}

impl BTreeTree {
    /// The directory a path's parent names and the last component, walking from the root.
    fn parent<'p>(&self, path: &'p str) -> Option<(usize, &'p str)> {
        let (dir_path, leaf) = path.rsplit_once('/')?;
        let mut dir = 0;
        for part in dir_path.split('/').filter(|p| !p.is_empty()) {
            match self.dirs[dir].get(part)? {
                Child::Dir(_, d) => dir = *d,
                Child::File(..) => return None,
            }
        }
        Some((dir, leaf))
    }
}

impl Peer for BTreeTree {
    fn fresh() -> Self {
        let mut dirs = vec![BTreeMap::new(), BTreeMap::new()];
        dirs[0].insert("d".to_string(), Child::Dir(2, 1));
        BTreeTree { dirs, next_ino: 3 }
    }
    fn create(&mut self, w: &Workload, i: usize) {
        let (dir, leaf) = self.parent(&w.paths[i]).expect("parent");
        let ino = self.next_ino;
        self.next_ino += 1;
        let old = self.dirs[dir].insert(leaf.to_string(), Child::File(ino, Vec::new()));
        assert!(old.is_none(), "created twice");
    }
    fn lookup(&self, w: &Workload, i: usize) -> bool {
        self.dirs[1].contains_key(&w.names[i])
    }
    fn stat(&self, w: &Workload, i: usize) -> Option<u64> {
        let (dir, leaf) = self.parent(&w.paths[i])?;
        match self.dirs[dir].get(leaf)? {
            Child::Dir(_, d) => Some(self.dirs[*d].len() as u64),
            Child::File(_, c) => Some(c.len() as u64),
        }
    }
    fn readdir(&self) -> u64 {
        let (mut last, mut seen): (Option<String>, u64) = (None, 0);
        loop {
            let from = match &last {
                None => self.dirs[1].range::<String, _>(..),
                Some(l) => self.dirs[1]
                    .range::<String, _>((std::ops::Bound::Excluded(l), std::ops::Bound::Unbounded)),
            };
            let page: Vec<(String, u64)> = from
                .take(PAGE)
                .map(|(k, c)| match c {
                    Child::Dir(ino, _) | Child::File(ino, _) => (k.clone(), *ino),
                })
                .collect();
            let Some((l, _)) = page.last() else {
                return seen;
            };
            last = Some(l.clone());
            seen += black_box(page).len() as u64;
        }
    }
    fn remove(&mut self, w: &Workload, i: usize) {
        let (dir, leaf) = self.parent(&w.paths[i]).expect("parent");
        self.dirs[dir].remove(leaf).expect("remove");
    }
}

/// The `vfs` crate's MemoryFS.
struct Memory(MemoryFS);

impl Peer for Memory {
    fn fresh() -> Self {
        let fs = MemoryFS::new();
        fs.create_dir("/d").expect("create_dir /d");
        Memory(fs)
    }
    fn create(&mut self, w: &Workload, i: usize) {
        drop(self.0.create_file(&w.paths[i]).expect("create_file"));
    }
    fn lookup(&self, w: &Workload, i: usize) -> bool {
        self.0.exists(&w.paths[i]).expect("exists")
    }
    fn stat(&self, w: &Workload, i: usize) -> Option<u64> {
        self.0.metadata(&w.paths[i]).ok().map(|m| m.len)
    }
    fn readdir(&self) -> u64 {
        let mut all = self.0.read_dir("/d").expect("read_dir");
        let mut seen = 0u64;
        loop {
            let page: Vec<String> = all.by_ref().take(PAGE).collect();
            if page.is_empty() {
                return seen;
            }
            seen += black_box(page).len() as u64;
        }
    }
    fn remove(&mut self, w: &Workload, i: usize) {
        self.0.remove_file(&w.paths[i]).expect("remove_file");
    }
}

/// A bare map from name to inode.
struct Bare(hashbrown::HashMap<Box<str>, u64>, u64);

impl Peer for Bare {
    fn fresh() -> Self {
        Bare(hashbrown::HashMap::new(), 3)
    }
    fn create(&mut self, w: &Workload, i: usize) {
        self.1 += 1;
        self.0.insert(w.names[i].as_str().into(), self.1);
    }
    fn lookup(&self, w: &Workload, i: usize) -> bool {
        self.0.contains_key(w.names[i].as_str())
    }
    fn stat(&self, _: &Workload, _: usize) -> Option<u64> {
        None
    }
    fn readdir(&self) -> u64 {
        let mut all = self.0.iter();
        let mut seen = 0u64;
        loop {
            let page: Vec<(String, u64)> = all
                .by_ref()
                .take(PAGE)
                .map(|(k, v)| (k.to_string(), *v))
                .collect();
            if page.is_empty() {
                return seen;
            }
            seen += black_box(page).len() as u64;
        }
    }
    fn remove(&mut self, w: &Workload, i: usize) {
        self.0.remove(w.names[i].as_str()).expect("remove");
    }
}

/// Seconds of each op over all N entries, on a fresh `P` (NaN for a `stat` it lacks).
fn time_ops<P: Peer>(w: &Workload) -> [f64; 5] {
    let n = w.names.len();
    let mut p = P::fresh();
    let ((), create) = time(|| (0..n).for_each(|i| p.create(w, i)));
    let (found, lookup) = time(|| w.order.iter().all(|&i| black_box(p.lookup(w, i))));
    assert!(found, "a created name was not found");
    let (stated, stat) = time(|| w.order.iter().all(|&i| black_box(p.stat(w, i)).is_some()));
    let (seen, readdir) = time(|| p.readdir());
    assert_eq!(seen, n as u64, "readdir did not see every entry");
    let ((), remove) = time(|| w.order.iter().rev().for_each(|&i| p.remove(w, i)));
    [
        create,
        lookup,
        if stated { stat } else { f64::NAN },
        readdir,
        remove,
    ]
}

/// Bytes the allocator holds per entry after building `P` with N entries (NaN when the
/// binary has no counting allocator).
fn bytes_per_entry<P: Peer>(w: &Workload) -> f64 {
    set_counting(true);
    let before = live_bytes();
    let mut p = P::fresh();
    (0..w.names.len()).for_each(|i| p.create(w, i));
    let after = live_bytes();
    set_counting(false);
    let bytes = match (before, after) {
        (Some(b), Some(a)) => a.wrapping_sub(b) as f64 / w.names.len() as f64,
        _ => f64::NAN,
    };
    drop(black_box(p));
    bytes
}

/// Series `s`'s seconds for each op.
fn time_series(s: usize, w: &Workload) -> [f64; 5] {
    match s {
        0 => time_ops::<Core>(w),
        1 => time_ops::<BTreeTree>(w),
        2 => time_ops::<Memory>(w),
        _ => time_ops::<Bare>(w),
    }
}

/// Every series' seconds for round `k`, `[series][op]`. Round `k` starts with series `k`
/// (mod 4): a series that runs after others finds heap pages they faulted in and freed,
/// so no series always goes first.
fn round(w: &Workload, k: usize) -> [[f64; 5]; 4] {
    let mut out = [[0.0; 5]; 4];
    for j in 0..SERIES.len() {
        let s = (j + k) % SERIES.len();
        out[s] = time_series(s, w);
    }
    out
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 0 {
        (v[m - 1] + v[m]) / 2.0
    } else {
        v[m]
    }
}

fn range(v: impl Iterator<Item = f64>) -> (f64, f64) {
    v.fold((f64::INFINITY, 0.0), |(lo, hi), x| (lo.min(x), hi.max(x)))
}

/// Measures one size over `rounds` rounds.
fn measure(r: &BenchRun<'_>, n: u64, rounds: usize) -> PeerSize {
    let w = Workload::new(n);
    let mut samples: Vec<[[f64; 5]; 4]> = Vec::new();
    for k in 0..rounds {
        r.progress(&format!("peers: N={n} round {}/{rounds}", k + 1));
        samples.push(round(&w, k));
    }
    let per = |s: usize, op: usize| median(samples.iter().map(|x| x[s][op]).collect());
    let mut ns = [[0.0; 5]; 4];
    for (s, row) in ns.iter_mut().enumerate() {
        for (op, cell) in row.iter_mut().enumerate() {
            *cell = per(s, op) * 1e9 / n as f64;
        }
    }
    let bytes = [
        bytes_per_entry::<Core>(&w),
        bytes_per_entry::<BTreeTree>(&w),
        bytes_per_entry::<Memory>(&w),
        bytes_per_entry::<Bare>(&w),
    ];
    let spread = [
        range(samples.iter().map(|x| x[0][1] / x[3][1])),
        range(samples.iter().map(|x| x[0][4] / x[3][4])),
        range(samples.iter().map(|x| x[0][2] / x[0][1])),
    ];
    PeerSize {
        n,
        ns,
        bytes,
        rounds,
        spread,
    }
}

/// Runs the case at every size and judges its goals at the largest.
pub(super) fn peers_case(r: &mut BenchRun<'_>, sizes: &[u64]) {
    let rounds = if r.opts.quick { 1 } else { SERIES.len() };
    for &n in sizes {
        let size = measure(r, n, rounds);
        r.progress(&format!(
            "peers: N={n}: core ÷ hashbrown lookup {:.2}×, remove {:.2}×; stat ÷ lookup_at {:.2}×",
            size.ns[0][1] / size.ns[3][1],
            size.ns[0][4] / size.ns[3][4],
            size.ns[0][2] / size.ns[0][1],
        ));
        r.report.peers.push(size);
    }
    let goals = goals(&r.report.peers);
    r.report.goals.extend(goals);
}

/// Series `series`' figure for op `op` (5: bytes per entry).
fn value(s: &PeerSize, series: usize, op: usize) -> f64 {
    if op == 5 {
        s.bytes[series]
    } else {
        s.ns[series][op]
    }
}

/// Core ÷ the faster real peer (the BTreeMap tree or MemoryFS) for op `op` (5: bytes).
fn against_real_peers(s: &PeerSize, op: usize) -> f64 {
    value(s, 0, op) / value(s, 1, op).min(value(s, 2, op))
}

/// The four goals for this case.
fn goals(sizes: &[PeerSize]) -> Vec<Goal> {
    let Some(top) = sizes.last() else {
        return Vec::new();
    };
    let n = top.n;
    let cases = [
        (0, "create"),
        (1, "lookup"),
        (3, "readdir"),
        (4, "remove"),
        (5, "bytes"),
    ];
    let worst = cases
        .iter()
        .map(|&(op, name)| (against_real_peers(top, op), name))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .expect("five cases");
    let lookup = top.ns[0][1] / top.ns[3][1];
    let remove = top.ns[0][4] / top.ns[3][4];
    let stat = sizes
        .iter()
        .map(|s| (s.ns[0][2] / s.ns[0][1], s.n, s.spread[2]))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .expect("one size");
    let (lo, hi) = (top.spread, top.rounds);
    vec![
        Goal {
            goal: format!("at N = {n}, core at or ahead of the BTreeMap tree and MemoryFS in create, lookup, readdir, remove and bytes per entry"),
            measured: format!("worst: {} at {:.2}× the faster peer", worst.1, worst.0),
            met: Some(worst.0 <= 1.0),
        },
        Goal {
            goal: format!("remove within 2× of a bare hashbrown map at N = {n}"),
            measured: format!("{remove:.2}× (rounds {:.2}–{:.2}, {hi})", lo[1].0, lo[1].1),
            met: Some(remove <= 2.0),
        },
        Goal {
            goal: format!("lookup within 1.25× of a bare hashbrown map at N = {n}"),
            measured: format!("{lookup:.2}× (rounds {:.2}–{:.2}, {hi})", lo[0].0, lo[0].1),
            met: Some(lookup <= 1.25),
        },
        Goal {
            goal: "stat(path) within 1.2× of lookup_at at every N".to_string(),
            measured: format!(
                "worst {:.2}× at N = {} (rounds {:.2}–{:.2})",
                stat.0, stat.1, stat.2 .0, stat.2 .1
            ),
            met: Some(stat.0 <= 1.2),
        },
    ]
}

/// The case's table: one row per size and operation.
pub(super) fn markdown(out: &mut String, sizes: &[PeerSize]) {
    if sizes.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "### 11. Peers: one directory of N files\n\nNanoseconds per entry (bytes per entry \
         for `bytes`), median of the rounds; core ÷ the faster of the BTreeMap tree and \
         MemoryFS, and core ÷ hashbrown.\n\n| N | op | {} | core ÷ best peer | core ÷ hashbrown |\n\
         |---:|---|{}---:|---:|\n",
        SERIES.join(" | "),
        "---:|".repeat(SERIES.len())
    );
    for s in sizes {
        for op in 0..6 {
            let cells: Vec<String> = (0..4).map(|k| cell(value(s, k, op))).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {:.2}× | {} |",
                s.n,
                OPS.get(op).copied().unwrap_or("bytes"),
                cells.join(" | "),
                against_real_peers(s, op),
                ratio(value(s, 0, op) / value(s, 3, op)),
            );
        }
    }
    out.push('\n');
}

fn cell(v: f64) -> String {
    if v.is_nan() {
        "—".to_string()
    } else {
        format!("{v:.1}")
    }
}

fn ratio(v: f64) -> String {
    if v.is_nan() {
        "—".to_string()
    } else {
        format!("{v:.2}×")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every series answers the same workload the same way: each asserts its creates are
    /// found, its readdir sees all of them, and its removes succeed.
    #[test]
    fn every_series_runs_a_small_workload() {
        let w = Workload::new(1_000);
        let r = round(&w, 1);
        assert!(r.iter().all(|s| s[0] > 0.0 && s[4] > 0.0));
        assert!(r[3][2].is_nan(), "the bare map has no stat(path)");
        assert!(r[..3].iter().all(|s| !s[2].is_nan()));
        let mut sorted = w.order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..1_000).collect::<Vec<_>>());
    }
}
