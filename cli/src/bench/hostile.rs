//! Hostile names: names crafted so that every one has the same hash under an unkeyed byte
//! hash, against random names of the same length, in one directory of N entries.
//!
//! The crafted names are what an attacker who knows an unkeyed hash function (here
//! rustc-hash 2's `FxHasher`, the usual fast choice for a name index) can make without any
//! search: 16 bytes whose first 8 cancel the hash's first seed word, so the multiply that
//! mixes the two halves always sees a zero and every name hashes alike whatever its last 8
//! bytes are. Core hashes names with a secret per-tree key, so the same names should cost
//! what random ones cost. The run checks that the crafted names do collide under the
//! unkeyed hash, and shows what that costs a bare unkeyed set at a smaller N.

use std::collections::HashSet;
use std::hash::BuildHasher;
use std::hint::black_box;

use pdtree::{Ino, PseudoFs, Tree};
use rustc_hash::FxBuildHasher;

use super::cases::{time, BenchRun};
use super::Goal;
use pdtree_harness::campaign::splitmix64;

/// rustc-hash 2's first seed word for byte strings, little-endian: XORed with a name's first
/// 8 bytes it gives 0.
const FX_SEED1: u64 = 0x243f_6a88_85a3_08d3;

/// The alphabet of the free 8 bytes: no NUL, no `/`.
const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz012345";

/// Entries of the unkeyed-set illustration: quadratic, so kept small.
const UNKEYED_N: u64 = 10_000;

/// The four operations timed, each over all N names.
const OPS: [&str; 4] = ["create", "lookup_at", "stat", "remove"];

/// The `i`-th crafted name: [`FX_SEED1`]'s bytes, then `i` in base 32.
fn crafted(i: u64) -> Vec<u8> {
    let mut name = FX_SEED1.to_le_bytes().to_vec();
    name.extend(tail(i));
    name
}

/// A random name of the same length (16 bytes) from the same alphabet.
fn random(i: u64) -> Vec<u8> {
    let (a, b) = (splitmix64(i), splitmix64(!i));
    let mut name: Vec<u8> = tail(a).collect();
    name.extend(tail(b));
    name
}

fn tail(i: u64) -> impl Iterator<Item = u8> {
    (0..8).map(move |k| ALPHABET[((i >> (5 * k)) & 31) as usize])
}

/// Runs the case at `n` names and records its rows and its goal.
pub(super) fn hostile_case(r: &mut BenchRun<'_>, n: u64) {
    let crafted_names: Vec<Vec<u8>> = (0..n).map(crafted).collect();
    let random_names: Vec<Vec<u8>> = (0..n).map(random).collect();
    assert!(
        collide_unkeyed(&crafted_names),
        "the crafted names do not share one unkeyed FxHash: the bench's premise is gone"
    );
    let bad = time_ops(&crafted_names);
    let good = time_ops(&random_names);
    let mut worst: f64 = 0.0;
    for (k, op) in OPS.iter().enumerate() {
        let ratio = bad[k] / good[k];
        worst = worst.max(ratio);
        push(
            r,
            format!("{op}: {n} crafted names against random ones"),
            format!(
                "{:.0} ns against {:.0} ns ({ratio:.2}×)",
                bad[k] * 1e9 / n as f64,
                good[k] * 1e9 / n as f64
            ),
        );
    }
    let m = n.min(UNKEYED_N) as usize;
    unkeyed_rows(r, &crafted_names[..m], &random_names[..m]);
    r.report.goals.push(Goal {
        goal: format!(
            "names crafted to collide cost within 2× of random names at {n} \
             (create, lookup, stat, remove)"
        ),
        measured: format!("worst {worst:.2}×"),
        met: Some(worst <= 2.0),
    });
}

fn push(r: &mut BenchRun<'_>, what: String, value: String) {
    r.progress(&format!("hostile: {what}: {value}"));
    r.report.hostile.push((what, value));
}

/// Whether every name hashes alike under the unkeyed FxHash of bytes.
fn collide_unkeyed(names: &[Vec<u8>]) -> bool {
    let first = FxBuildHasher.hash_one(&names[0][..]);
    names
        .iter()
        .all(|n| FxBuildHasher.hash_one(&n[..]) == first)
}

/// Seconds for: creating every name in `/d` of a fresh tree (random key), `lookup_at` of
/// each, `stat` of each path, removing each; lookups and removes in a shuffled order.
fn time_ops(names: &[Vec<u8>]) -> [f64; 4] {
    let mut t = Tree::new();
    let dir: Ino = t.mkdir(b"/d").expect("mkdir");
    let paths: Vec<Vec<u8>> = names.iter().map(|n| [b"/d/", &n[..]].concat()).collect();
    let order = shuffled(names.len());
    let ((), create) = time(|| {
        for p in &paths {
            t.create(p, b"").expect("create");
        }
    });
    let ((), lookup) = time(|| {
        for &i in &order {
            black_box(t.lookup_at(dir, &names[i]).expect("lookup_at"));
        }
    });
    let ((), stat) = time(|| {
        for &i in &order {
            black_box(t.stat(&paths[i]).expect("stat"));
        }
    });
    let ((), remove) = time(|| {
        for &i in order.iter().rev() {
            t.remove(&paths[i]).expect("remove");
        }
    });
    [create, lookup, stat, remove]
}

fn shuffled(n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        v.swap(i, (splitmix64(i as u64 ^ 0x5eed) % (i as u64 + 1)) as usize);
    }
    v
}

/// What the crafted names cost a bare set hashed with the unkeyed FxHash, against random
/// names in the same set: the cost a keyed hash avoids.
fn unkeyed_rows(r: &mut BenchRun<'_>, crafted_names: &[Vec<u8>], random_names: &[Vec<u8>]) {
    let n = crafted_names.len();
    let insert_all = |names: &[Vec<u8>]| {
        time(|| {
            let mut s: HashSet<&[u8], FxBuildHasher> = HashSet::default();
            for name in names {
                s.insert(&name[..]);
            }
            black_box(s.len())
        })
        .1
    };
    let (bad, good) = (insert_all(crafted_names), insert_all(random_names));
    push(
        r,
        format!("for comparison, an unkeyed FxHash set: {n} crafted inserts against random"),
        format!(
            "{:.0} ns against {:.0} ns ({:.0}×)",
            bad * 1e9 / n as f64,
            good * 1e9 / n as f64,
            bad / good
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crafted_names_are_valid_distinct_and_collide_unkeyed() {
        let names: Vec<Vec<u8>> = (0..1000).map(crafted).collect();
        assert!(collide_unkeyed(&names));
        let distinct: HashSet<&Vec<u8>> = names.iter().collect();
        assert_eq!(distinct.len(), names.len());
        let mut t = Tree::new();
        t.mkdir(b"/d").unwrap();
        for n in &names {
            assert_eq!(n.len(), 16);
            t.create(&[b"/d/", &n[..]].concat(), b"").unwrap();
        }
        let random_names: Vec<Vec<u8>> = (0..1000).map(random).collect();
        assert!(!collide_unkeyed(&random_names));
        assert!(random_names.iter().all(|n| n.len() == 16));
    }
}
