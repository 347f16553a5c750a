//! How deep a campaign went: the largest directory and the deepest chain its inputs left,
//! the highest inode number, header, handle and namespace id the reference handed out, the
//! highest source generation, the longest input, the largest directory a readdir scan
//! resumed in and the most children removed under one scan.
//! Shown in the campaign summary, so a user sees what was explored, not only how often.
//!
//! [`ReachFeatures`] turns the same figures into a fixed set of bits, one per power-of-two
//! bucket of each, which `cargo fuzz` takes as extra coverage: an input that reaches a
//! directory twice as large as any before is kept, even though it runs no new line of core.

use std::collections::HashMap;
use std::fmt;

use pdtree::thresholds::Thresholds;

/// The deepest a run reached. Every field is a maximum, so merging takes maxima and the
/// text is identical for identical runs, whatever the merge order.
///
/// ```
/// use pdtree::{PseudoFs, Tree};
/// use pdtree_harness::gen::Reach;
/// let mut t = Tree::new();
/// t.mkdir(b"/a").unwrap();
/// t.create(b"/a/f", b"").unwrap();
/// t.create(b"/a/g", b"").unwrap();
/// let mut r = Reach::default();
/// r.observe_dump(&t.dump());
/// assert_eq!((r.largest_dir, r.deepest, r.max_ino), (2, 2, 4));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reach {
    /// The most children one directory held at the end of an input (in all views).
    pub largest_dir: u64,
    /// The most components of a path to an entry at the end of an input (the root is 0).
    pub deepest: u64,
    /// The highest inode number the reference handed out (its dump's counter).
    pub max_ino: u64,
    /// The highest header id the reference handed out.
    pub max_header: u64,
    /// The highest handle id the reference handed out.
    pub max_handle: u64,
    /// The highest namespace id the reference handed out.
    pub max_ns: u64,
    /// The highest generation any source reached.
    pub max_generation: u64,
    /// The most ops one input ran.
    pub longest_input: u64,
    /// The most children a directory held when a readdir scan of it read on past its first
    /// page (SPEC §5's resumed readdir).
    pub largest_resumed_dir: u64,
    /// The most children removed from a directory during one scan of it, counted when the
    /// scan read on.
    pub most_removed_mid_scan: u64,
}

impl Reach {
    /// Takes a canonical dump (SEMANTICS §9) into account: its `entry` lines give the
    /// tree's shape (the children of each directory, in every view, and each entry's depth);
    /// the `next` line the inode, header, handle and namespace counters (the highest handed
    /// out is one below each); every source's `gen=` the generations. The counters include
    /// what `cycle_*` ops handed out without returning, so no op's outcome needs reading.
    /// The dump, not a walk by readdir, because the reference's readdir finds each page's
    /// start by a linear scan: N²/P for a directory of N children in pages of P.
    pub fn observe_dump(&mut self, dump: &str) {
        let mut children: HashMap<&str, u64> = HashMap::new();
        for line in dump.lines() {
            let fields = line.split(' ').filter_map(|f| f.split_once('='));
            if let Some(path) = line
                .strip_prefix("entry ")
                .and_then(|r| r.split(' ').next())
            {
                // Names hold no `/`, so the separators count the components.
                let depth = if path == "/" {
                    0
                } else {
                    path.matches('/').count()
                };
                self.deepest = self.deepest.max(depth as u64);
                if let Some(cut) = path.rfind('/').filter(|_| depth > 0) {
                    let parent = if cut == 0 { "/" } else { &path[..cut] };
                    let n = children.entry(parent).or_default();
                    *n += 1;
                    self.largest_dir = self.largest_dir.max(*n);
                }
            } else if line.starts_with("next ") {
                for (key, value) in fields {
                    let top = value.parse::<u64>().unwrap_or(0).saturating_sub(1);
                    match key {
                        "ino" => self.max_ino = self.max_ino.max(top),
                        "header" => self.max_header = self.max_header.max(top),
                        "handle" => self.max_handle = self.max_handle.max(top),
                        "ns" => self.max_ns = self.max_ns.max(top),
                        _ => {}
                    }
                }
            } else if line.starts_with("source ") {
                let generation = fields.filter(|(k, _)| *k == "gen").map(|(_, v)| v);
                for value in generation {
                    let g = value.parse::<u64>().unwrap_or(0);
                    self.max_generation = self.max_generation.max(g);
                }
            }
        }
    }

    /// The maxima of both.
    pub fn merge(&mut self, other: &Reach) {
        self.largest_dir = self.largest_dir.max(other.largest_dir);
        self.deepest = self.deepest.max(other.deepest);
        self.max_ino = self.max_ino.max(other.max_ino);
        self.max_header = self.max_header.max(other.max_header);
        self.max_handle = self.max_handle.max(other.max_handle);
        self.max_ns = self.max_ns.max(other.max_ns);
        self.max_generation = self.max_generation.max(other.max_generation);
        self.longest_input = self.longest_input.max(other.longest_input);
        self.largest_resumed_dir = self.largest_resumed_dir.max(other.largest_resumed_dir);
        self.most_removed_mid_scan = self.most_removed_mid_scan.max(other.most_removed_mid_scan);
    }

    /// Takes one resumed page into account: a scan read on in a directory of `children`,
    /// `removed` of its children gone since the scan started.
    pub(crate) fn observe_resume(&mut self, children: u64, removed: u64) {
        self.largest_resumed_dir = self.largest_resumed_dir.max(children);
        self.most_removed_mid_scan = self.most_removed_mid_scan.max(removed);
    }
}

/// One line: `reach: largest directory N, deepest path D, highest inode I, header H, handle K,
/// longest input L ops, largest resumed scan R, most removed mid-scan M`.
impl fmt::Display for Reach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "reach: largest directory {}, deepest path {}, highest inode {}, header {}, handle {}, namespace {}, source generation {}, longest input {} ops, largest resumed scan {}, most removed mid-scan {}",
            self.largest_dir,
            self.deepest,
            self.max_ino,
            self.max_header,
            self.max_handle,
            self.max_ns,
            self.max_generation,
            self.longest_input,
            self.largest_resumed_dir,
            self.most_removed_mid_scan
        )
    }
}

/// Which power-of-two buckets of the reach figures and threshold counts an input hit: a
/// fixed set of [`ReachFeatures::LEN`] bits.
///
/// * Each [`Reach`] field and each [`Thresholds`] count is one row of
///   [`SCALAR_BUCKETS`](Self::SCALAR_BUCKETS) bits; value `v` sets bit `bucket(v)`, where
///   `bucket(0) = 0` and `bucket(v) = ⌊log2 v⌋ + 1`, the last bucket holding every larger
///   value.
/// * Each resumed readdir page sets one cell of a grid: the bucket of the directory's
///   children by the bucket of the children removed since the scan started. A large
///   directory read on after removals is one cell; the same directory without removals,
///   another.
///
/// Sets are merged by union, so a campaign's set is every bucket any input hit, whatever
/// the merge order. The `diff` fuzz target copies an input's set into libFuzzer's extra
/// counters (`fuzz/fuzz_targets/diff.rs`): a new bit is new coverage to libFuzzer, which
/// then keeps the input and mutates from it, and `cargo fuzz cmin` keeps one input per bit.
///
/// ```
/// use pdtree::thresholds::Thresholds;
/// use pdtree_harness::gen::{Reach, ReachFeatures};
/// let small = Reach { largest_dir: 3, ..Reach::default() };
/// let large = Reach { largest_dir: 70_000, ..Reach::default() };
/// let (mut a, mut b) = (ReachFeatures::default(), ReachFeatures::default());
/// a.mark_reach(&small, &Thresholds::default());
/// b.mark_reach(&large, &Thresholds::default());
/// assert_ne!(a, b);
/// a.merge(&b);
/// assert!(a.count() > b.count());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReachFeatures {
    bits: [u64; ReachFeatures::LEN / 64],
}

impl Default for ReachFeatures {
    fn default() -> Self {
        ReachFeatures {
            bits: [0; ReachFeatures::LEN / 64],
        }
    }
}

impl ReachFeatures {
    /// The number of bits: what the fuzz target's counter array holds.
    pub const LEN: usize = 1024;
    /// Buckets per scalar figure: values from 2^38 up share the last.
    pub const SCALAR_BUCKETS: usize = 40;
    /// Buckets per side of the resumed-scan grid: 2^18 children or removals and up share
    /// the last.
    pub const GRID_BUCKETS: usize = 20;
    /// Rows of scalar buckets: the [`Reach`] fields and the [`Thresholds`] counts.
    const SCALARS: usize = 15;
    const GRID_START: usize = Self::SCALARS * Self::SCALAR_BUCKETS;
    /// The bits that have a meaning; the rest of [`LEN`](Self::LEN) stays clear.
    pub const USED: usize = Self::GRID_START + Self::GRID_BUCKETS * Self::GRID_BUCKETS;
    const _FITS: () = assert!(Self::USED <= Self::LEN);

    /// Sets the bucket bit of every reach figure and threshold count.
    pub fn mark_reach(&mut self, reach: &Reach, thresholds: &Thresholds) {
        let scalars: [u64; Self::SCALARS] = [
            reach.largest_dir,
            reach.deepest,
            reach.max_ino,
            reach.max_header,
            reach.max_handle,
            reach.max_ns,
            reach.max_generation,
            reach.longest_input,
            reach.largest_resumed_dir,
            reach.most_removed_mid_scan,
            thresholds.compactions,
            thresholds.sampled_blocks,
            thresholds.name_index_growths,
            thresholds.name_index_rehashes,
            thresholds.bulk_removals,
        ];
        for (row, &v) in scalars.iter().enumerate() {
            self.set(row * Self::SCALAR_BUCKETS + bucket(v, Self::SCALAR_BUCKETS));
        }
    }

    /// Sets the grid cell of one resumed page: `children` in the directory, `removed` since
    /// the scan started.
    pub fn mark_resume(&mut self, children: u64, removed: u64) {
        let (c, r) = (
            bucket(children, Self::GRID_BUCKETS),
            bucket(removed, Self::GRID_BUCKETS),
        );
        self.set(Self::GRID_START + c * Self::GRID_BUCKETS + r);
    }

    /// Adds every bit of `other`.
    pub fn merge(&mut self, other: &ReachFeatures) {
        for (a, b) in self.bits.iter_mut().zip(&other.bits) {
            *a |= b;
        }
    }

    /// How many bits are set.
    pub fn count(&self) -> usize {
        self.bits.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The set bits, ascending, each below [`LEN`](Self::LEN).
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..Self::LEN).filter(|&i| self.bits[i / 64] >> (i % 64) & 1 == 1)
    }

    fn set(&mut self, i: usize) {
        debug_assert!(i < Self::LEN);
        self.bits[i / 64] |= 1 << (i % 64);
    }
}

/// `0` for 0, `⌊log2 v⌋ + 1` otherwise, at most `buckets - 1`.
fn bucket(v: u64, buckets: usize) -> usize {
    let b = (u64::BITS - v.leading_zeros()) as usize;
    b.min(buckets - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_powers_of_two_capped_at_the_last() {
        let b = |v| bucket(v, 40);
        assert_eq!([b(0), b(1), b(2), b(3), b(4)], [0, 1, 2, 2, 3]);
        assert_eq!([b(65_535), b(65_536)], [16, 17]);
        assert_eq!([b(1 << 38), b(u64::MAX)], [39, 39]);
    }

    /// A `Reach` and `Thresholds` with `v` in row `row` and 0 elsewhere.
    fn one_row(row: usize, v: u64) -> (Reach, Thresholds) {
        let r = |i| if i == row { v } else { 0 };
        let reach = Reach {
            largest_dir: r(0),
            deepest: r(1),
            max_ino: r(2),
            max_header: r(3),
            max_handle: r(4),
            max_ns: r(5),
            max_generation: r(6),
            longest_input: r(7),
            largest_resumed_dir: r(8),
            most_removed_mid_scan: r(9),
        };
        let thresholds = Thresholds {
            compactions: r(10),
            sampled_blocks: r(11),
            name_index_growths: r(12),
            name_index_rehashes: r(13),
            bulk_removals: r(14),
        };
        (reach, thresholds)
    }

    #[test]
    fn every_figure_bucket_and_grid_cell_has_its_own_bit() {
        let mut zero = ReachFeatures::default();
        zero.mark_reach(&Reach::default(), &Thresholds::default());
        assert_eq!(zero.count(), ReachFeatures::SCALARS);
        let mut seen: std::collections::BTreeSet<usize> = zero.iter().collect();
        for row in 0..ReachFeatures::SCALARS {
            for k in 1..ReachFeatures::SCALAR_BUCKETS {
                let (reach, t) = one_row(row, 1 << (k - 1));
                let mut f = ReachFeatures::default();
                f.mark_reach(&reach, &t);
                assert_eq!(f.count(), ReachFeatures::SCALARS);
                let own: Vec<usize> = f.iter().filter(|i| !zero.iter().any(|z| z == *i)).collect();
                assert_eq!(own.len(), 1, "row {row} bucket {k}");
                assert!(seen.insert(own[0]), "row {row} bucket {k} shares a bit");
            }
        }
        let v = |k: usize| if k == 0 { 0 } else { 1u64 << (k - 1) };
        for c in 0..ReachFeatures::GRID_BUCKETS {
            for r in 0..ReachFeatures::GRID_BUCKETS {
                let mut f = ReachFeatures::default();
                f.mark_resume(v(c), v(r));
                let bits: Vec<usize> = f.iter().collect();
                assert_eq!(bits.len(), 1);
                assert!(bits[0] < ReachFeatures::LEN);
                assert!(seen.insert(bits[0]), "grid cell {c},{r} shares a bit");
            }
        }
    }
}
