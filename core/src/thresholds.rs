//! How often this thread crossed each of core's internal thresholds (feature
//! `thresholds`, off by default): the code paths that only large directories, mass removals
//! and index growth take, so a fuzzing campaign can show that it reached them. Counting is
//! per thread, so a campaign that runs each input on one thread counts it exactly. A
//! `SharedTree` makes each change on both of its copies, so it counts each crossing twice.
//!
//! ```
//! # #[cfg(feature = "thresholds")] {
//! use pdtree::{PseudoFs, Tree};
//! let _ = pdtree::thresholds::take();
//! let mut t = Tree::new();
//! for i in 0..100 { t.create(format!("/f{i}").as_bytes(), b"").unwrap(); }
//! for i in 0..60 { t.remove(format!("/f{i}").as_bytes()).unwrap(); }
//! let c = pdtree::thresholds::take();
//! assert!(c.sampled_blocks >= 3 && c.compactions >= 1 && c.name_index_growths >= 1);
//! # }
//! ```

use std::cell::Cell;

/// Counts of threshold crossings since the last [`take`] on this thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Thresholds {
    /// A directory's children were compacted (tombstones had become the majority).
    pub compactions: u64,
    /// A directory's children list started a new 32-entry block of its search sample.
    pub sampled_blocks: u64,
    /// The name index grew by a rebuild from an arena scan (the large-table path).
    pub name_index_growths: u64,
    /// The name index grew by hashbrown's own rehash (it held fewer than half the arena's
    /// slots: a small tree, or one after mass removal).
    pub name_index_rehashes: u64,
    /// Removals left a children list in one merge pass: a `remove_subtree` of many files,
    /// or a batch of file-index removals taken out together.
    pub bulk_removals: u64,
}

impl std::ops::AddAssign for Thresholds {
    fn add_assign(&mut self, o: Thresholds) {
        self.compactions += o.compactions;
        self.sampled_blocks += o.sampled_blocks;
        self.name_index_growths += o.name_index_growths;
        self.name_index_rehashes += o.name_index_rehashes;
        self.bulk_removals += o.bulk_removals;
    }
}

/// One line: `thresholds: compactions N, sample blocks N, name index rebuilds N, rehashes N,
/// bulk removals N`.
impl std::fmt::Display for Thresholds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "thresholds: compactions {}, sample blocks {}, name index rebuilds {}, rehashes {}, bulk removals {}",
            self.compactions,
            self.sampled_blocks,
            self.name_index_growths,
            self.name_index_rehashes,
            self.bulk_removals
        )
    }
}

thread_local! {
    static COUNTS: Cell<Thresholds> = const { Cell::new(Thresholds {
        compactions: 0,
        sampled_blocks: 0,
        name_index_growths: 0,
        name_index_rehashes: 0,
        bulk_removals: 0,
    }) };
}

/// This thread's counts since the last call, and resets them.
pub fn take() -> Thresholds {
    COUNTS.with(|c| c.replace(Thresholds::default()))
}

/// Adds one to the counter `f` picks.
pub(crate) fn bump(f: fn(&mut Thresholds) -> &mut u64) {
    COUNTS.with(|c| {
        let mut t = c.get();
        *f(&mut t) += 1;
        c.set(t);
    });
}

// Compiled where the feature is on: in the workspace's tests, which the harness's
// dependency on it turns on.
#[cfg(all(test, feature = "thresholds"))]
mod tests {
    use super::*;
    use crate::{PseudoFs, Tree};

    fn counts(k: u64) -> Thresholds {
        Thresholds {
            compactions: k,
            sampled_blocks: 2 * k,
            name_index_growths: 3 * k,
            name_index_rehashes: 4 * k,
            bulk_removals: 5 * k,
        }
    }

    #[test]
    fn counts_add_field_by_field_and_print_on_one_line() {
        let mut sum = counts(1);
        sum += counts(10);
        assert_eq!(sum, counts(11));
        assert_eq!(
            sum.to_string(),
            "thresholds: compactions 11, sample blocks 22, name index rebuilds 33, rehashes 44, bulk removals 55"
        );
    }

    /// The module's example, as a test: the mutation test command runs no doctests.
    #[test]
    fn take_returns_this_threads_counts_and_resets_them() {
        let _ = take();
        let mut t = Tree::new();
        for i in 0..100 {
            t.create(format!("/f{i}").as_bytes(), b"").unwrap();
        }
        for i in 0..60 {
            t.remove(format!("/f{i}").as_bytes()).unwrap();
        }
        let c = take();
        assert!(
            c.sampled_blocks >= 3 && c.compactions >= 1 && c.name_index_growths >= 1,
            "{c}"
        );
        assert_eq!(take(), Thresholds::default());
    }
}
