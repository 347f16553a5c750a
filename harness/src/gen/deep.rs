//! The generator's deep regime: `bulk`, `chain` and `cycle_*` ops, whose counts reach the
//! sizes, depths and counter values that ordinary 200-op inputs never do.
//!
//! Where the counts fall, and why:
//!
//! * `bulk`: mostly a page or two (1–32 files) seven times in ten, 33–[`MAX_BULK_SMALL`]
//!   the other three; when that draw is one of its 24 largest values (1 in 11) and the
//!   input's entry limit is over 300, a large bulk instead, at most one per input: within 2
//!   of 2^16 files half the time, else 301 to [`MAX_BULK_GENERATED`] (10^5). Every later op
//!   then checks a directory of that size on both sides, so the input ends
//!   [`OPS_AFTER_LARGE_BULK`] ops later. For targets driven through syscalls a large bulk is
//!   ten times rarer.
//! * `chain`: mostly 1–8 levels; 1 in 5 a chain of 1,000–1,100 (past a 1,024-entry stack);
//!   1 in 5 one of 1,900–2,100 from a one-byte name, so the deepest legal path (4,096 bytes,
//!   2,048 levels from the root) is reached and passed (`ENAMETOOLONG` ends the chain).
//!   For targets driven through syscalls the two deep cases are ten times rarer (1 in 50
//!   each), the rest 1–8 levels.
//! * `cycle_*`: mostly 1–300 cycles; 1 in 5 within 2 of 2^8 and 1 in 10 (1 in 100 for
//!   targets driven through syscalls, [`Profile::slow_calls`](crate::gen::Profile::slow_calls))
//!   within 2 of 2^16, so every counter crosses both boundaries. 2^32 is out of reach: it
//!   would take 4·10^9 calls.
//! * `cycle_source`'s item is cut to [`CYCLE_ITEM_BYTES`] ÷ cycles bytes: both trees scan
//!   the item on every add and remove, and a 64 KiB item cycled 2^16 times took minutes.

use crate::gen::{Generator, MAX_BULK_GENERATED, MAX_BULK_SMALL, OPS_AFTER_LARGE_BULK};
use crate::lang::op::{Op, OpKind};

/// A bulk count drawn from 33–[`MAX_BULK_SMALL`] at least this high (24 values in 268) is
/// a large bulk instead, where the input may have one.
const LARGE_BULK_DRAW: usize = MAX_BULK_SMALL - 23;

/// One-byte names for chains, so a chain can reach the deepest legal path.
const CHAIN_NAMES: [&[u8]; 3] = [b"a", b"b", b"c"];

/// The item bytes a `cycle_source` may scan over all its cycles (1 MiB): a short item
/// drives the generation counter as far as a long one.
const CYCLE_ITEM_BYTES: usize = 1 << 20;

impl Generator<'_> {
    /// One op of a deep-regime kind, its fields drawn in script order.
    pub(super) fn deep_op(&mut self, kind: OpKind) -> Op {
        match kind {
            OpKind::Bulk => Op::Bulk {
                dir: self.existing_path(Some(true)),
                prefix: self.prefix(),
                count: self.bulk_count(),
            },
            OpKind::Chain => Op::Chain {
                dir: self.existing_path(Some(true)),
                name: CHAIN_NAMES[self.int(0, 2) as usize].to_vec(),
                count: self.chain_count(),
            },
            OpKind::CycleCreate => Op::CycleCreate {
                path: self.new_path(),
                count: self.cycle_count(),
            },
            OpKind::CycleOpen => Op::CycleOpen {
                path: self.path_to_open(false),
                count: self.cycle_count(),
            },
            OpKind::CycleRegister => Op::CycleRegister {
                dir: self.table_dir(),
                count: self.cycle_count(),
            },
            OpKind::CycleSource => {
                let (source, mut item) = (self.source_name(), self.item());
                let count = self.cycle_count();
                item.truncate((CYCLE_ITEM_BYTES / count.max(1)).max(1));
                Op::CycleSource {
                    source,
                    item,
                    count,
                }
            }
            OpKind::CycleNs => Op::CycleNs {
                count: self.cycle_count(),
            },
            _ => unreachable!("op_of handles {kind:?}"),
        }
    }

    /// How many files a bulk op makes (see the module docs).
    fn bulk_count(&mut self) -> usize {
        match self.int(0, 9) {
            0..=6 => self.int(1, 32) as usize,
            _ => match self.int(33, MAX_BULK_SMALL as u64) as usize {
                n if n >= LARGE_BULK_DRAW && self.may_bulk_large() => self.large_bulk_count(),
                n => n,
            },
        }
    }

    /// Whether the bulk being drawn may be a large one: one per input, in an input whose
    /// entry limit leaves room for it (under a limit of 16 to 64 a large bulk would stop
    /// where a small one does), ten times rarer for targets driven through syscalls.
    fn may_bulk_large(&mut self) -> bool {
        let room = self.limits.max_entries > MAX_BULK_SMALL as u64;
        !self.large_bulk && room && (!self.profile.slow_calls || self.chance(1, 10))
    }

    /// A large bulk's count, half the time within 2 of 2^16 (a directory size past a 16-bit
    /// counter), else 301 to [`MAX_BULK_GENERATED`]; the input ends
    /// [`OPS_AFTER_LARGE_BULK`] ops later.
    fn large_bulk_count(&mut self) -> usize {
        self.large_bulk = true;
        self.cap = self.cap.min(self.made + OPS_AFTER_LARGE_BULK);
        let n = match self.int(0, 1) {
            0 => self.int((1 << 16) - 2, (1 << 16) + 2),
            _ => self.int(MAX_BULK_SMALL as u64 + 1, MAX_BULK_GENERATED as u64),
        };
        n as usize
    }

    /// How many levels a chain has (see the module docs).
    fn chain_count(&mut self) -> usize {
        let pick = self.int(0, 4);
        // Through syscalls every later op on the chain walks it in the kernel, and so does
        // the dump: 1,000 levels cost a real target 40 times its rate on shallow inputs.
        let deep = !self.profile.slow_calls || self.chance(1, 10);
        let n = match pick {
            p if p <= 2 || !deep => self.int(1, 8),
            3 => self.int(1_000, 1_100),
            _ => self.int(1_900, 2_100),
        };
        n as usize
    }

    /// How many cycles a `cycle_*` op runs (see the module docs).
    fn cycle_count(&mut self) -> usize {
        let near = |g: &mut Self, c: u64| g.int(c - 2, c + 2) as usize;
        let big = !self.profile.slow_calls || self.chance(1, 10);
        match self.int(0, 9) {
            0..=6 => self.int(1, 300) as usize,
            7 | 8 => near(self, 1 << 8),
            _ if big => near(self, 1 << 16),
            _ => near(self, 1 << 8),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 200 draws of `kind` from each of the first 200 campaign inputs of `seed`, each handed
    /// to `f` with its input's index and the generator after the draw.
    fn each_draw(seed: u64, kind: OpKind, mut f: impl FnMut(usize, &Generator<'_>, Op)) {
        for i in 0..200 {
            let input = crate::campaign::iteration_input(seed, i, 4096);
            let mut g = Generator::new(&input);
            for _ in 0..200 {
                let op = g.deep_op(kind);
                f(i as usize, &g, op);
            }
        }
    }

    /// No `cycle_source` scans more than [`CYCLE_ITEM_BYTES`] of item over its cycles, and
    /// the cut still leaves long items and 2^16 cycles (both are drawn here).
    #[test]
    fn a_cycle_source_scans_at_most_its_item_budget() {
        let (mut longest, mut most) = (0, 0);
        each_draw(3, OpKind::CycleSource, |_, _, op| {
            let Op::CycleSource { item, count, .. } = op else {
                unreachable!("a cycle_source was asked for");
            };
            assert!(item.len() * count <= CYCLE_ITEM_BYTES.max(count), "{count}");
            longest = longest.max(item.len());
            most = most.max(count);
        });
        assert!(longest > 1_000, "no long item drawn: {longest}");
        assert!(most >= 65_534, "no 2^16 cycles drawn: {most}");
    }

    /// A large bulk comes at most once per input and ends the input soon after; both of its
    /// regimes (2^16 files and the spread up to 10^5) are drawn.
    #[test]
    fn a_large_bulk_is_one_per_input_and_ends_it_soon() {
        let (mut near_2_16, mut spread) = (0, 0);
        let mut large = [0; 200];
        each_draw(5, OpKind::Bulk, |i, g, op| {
            let Op::Bulk { count, .. } = op else {
                unreachable!("a bulk was asked for");
            };
            assert!((1..=MAX_BULK_GENERATED).contains(&count), "{count}");
            if count > MAX_BULK_SMALL {
                large[i] += 1;
                assert!(g.cap <= g.made + OPS_AFTER_LARGE_BULK);
                match count {
                    65_534..=65_538 => near_2_16 += 1,
                    _ => spread += 1,
                }
            }
        });
        assert!(
            large.iter().all(|&n| n <= 1),
            "two large bulks in one input"
        );
        assert!(
            near_2_16 > 0 && spread > 0,
            "{near_2_16} near 2^16, {spread} spread"
        );
    }
}
