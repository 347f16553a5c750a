//! The ops that build a deep state in one step: `bulk` (a large directory), `chain` (a deep
//! path) and the `cycle_*` ops (a counter driven high while the tree stays small).
//!
//! Each is a loop of ordinary [`PseudoFs`] calls that stops at the first failing call. The
//! harness checks the tree after the whole op, not after each call: these ops exist so that
//! a short input reaches states that would otherwise take 10^4–10^5 checked ops.
//!
//! ```
//! use pdtree::{PseudoFs, Tree};
//! use pdtree_harness::{Op, Outcome, Runner};
//! let mut r: Runner<Tree> = Runner::new(pdtree::Limits::default());
//! let chain = Op::Chain { dir: b"/".to_vec(), name: b"c".to_vec(), count: 3 };
//! assert_eq!(r.apply(&chain).to_string(), "ok done 3");
//! assert!(r.tree().stat(b"/c/c/c").is_ok());
//! assert_eq!(r.apply(&Op::Create { path: b"/f".to_vec(), content: vec![] }), Outcome::Ino(5));
//! let cycles = Op::CycleOpen { path: b"/f".to_vec(), count: 300 };
//! assert_eq!(r.apply(&cycles).to_string(), "ok done 300");
//! assert!(r.tree().dump().contains("handle=301"));
//! let dir = Op::CycleOpen { path: b"/c".to_vec(), count: 300 };
//! assert_eq!(r.apply(&dir).to_string(), "ok done 0 then err EISDIR");
//! ```

use pdtree::{Errno, NsId, PseudoFs};

use crate::lang::runner::Outcome;

/// `bulk`: creates `dir/prefix0` … in order until one fails.
/// One [`PseudoFs::create_files`] call, which a tree may run faster than the creates one
/// by one (the oracle does).
pub(crate) fn bulk<T: PseudoFs>(t: &mut T, dir: &[u8], prefix: &[u8], count: usize) -> Outcome {
    let paths: Vec<Vec<u8>> = (0..count as u64)
        .map(|i| bulk_path(dir, prefix, i))
        .collect();
    let paths: Vec<&[u8]> = paths.iter().map(Vec::as_slice).collect();
    let (made, stopped) = t.create_files(&paths);
    Outcome::Bulk { made, stopped }
}

/// The path of the `i`-th file a `bulk dir prefix N` makes: `dir/prefix<i>`. The one
/// definition of the names, which the generator's model and the minimizer also use.
pub(crate) fn bulk_path(dir: &[u8], prefix: &[u8], i: u64) -> Vec<u8> {
    let mut path = dir.to_vec();
    if path.last() != Some(&b'/') {
        path.push(b'/');
    }
    path.extend_from_slice(prefix);
    path.extend_from_slice(i.to_string().as_bytes());
    path
}

/// The first `first` files a `bulk dir prefix count` makes and its last, each once: what
/// the generator's model and the minimizer take of a bulk (all of it would swamp their
/// picks).
pub(crate) fn bulk_sample(dir: &[u8], prefix: &[u8], count: u64, first: u64) -> Vec<Vec<u8>> {
    let mut some: Vec<u64> = (0..count.min(first)).chain(count.checked_sub(1)).collect();
    some.dedup();
    some.iter().map(|&i| bulk_path(dir, prefix, i)).collect()
}

/// `chain`: makes `dir/name`, `dir/name/name`, … until one fails.
pub(crate) fn chain<T: PseudoFs>(t: &mut T, dir: &[u8], name: &[u8], count: usize) -> Outcome {
    let mut path = dir.to_vec();
    repeat(count, || {
        if path.last() != Some(&b'/') {
            path.push(b'/');
        }
        path.extend_from_slice(name);
        t.mkdir(&path).map(drop)
    })
}

/// `cycle_create`: creates and removes `path`, `count` times.
pub(crate) fn cycle_create<T: PseudoFs>(t: &mut T, path: &[u8], count: usize) -> Outcome {
    repeat(count, || {
        t.create(path, b"")?;
        t.remove(path)
    })
}

/// `cycle_open`: opens `path` and closes the handle, `count` times.
pub(crate) fn cycle_open<T: PseudoFs>(t: &mut T, path: &[u8], count: usize) -> Outcome {
    repeat(count, || {
        let h = t.open(path)?;
        t.close(h)
    })
}

/// `cycle_register`: registers an empty table at `dir` and unregisters it, `count` times.
pub(crate) fn cycle_register<T: PseudoFs>(t: &mut T, dir: &[u8], count: usize) -> Outcome {
    repeat(count, || {
        let h = t.register(dir, &[])?;
        t.unregister(h)
    })
}

/// `cycle_source`: adds `item` to `source` and removes it, `count` times.
pub(crate) fn cycle_source<T: PseudoFs>(
    t: &mut T,
    source: &[u8],
    item: &[u8],
    count: usize,
) -> Outcome {
    repeat(count, || {
        t.source_add(source, item)?;
        t.source_remove(source, item)
    })
}

/// `cycle_ns`: creates a namespace owned by 0/0 and destroys it, `count` times.
pub(crate) fn cycle_ns<T: PseudoFs>(t: &mut T, count: usize) -> Outcome {
    repeat(count, || {
        let k: NsId = t.ns_create(0, 0)?;
        t.ns_destroy(k).map(drop)
    })
}

/// Runs `step` up to `count` times, stopping at its first error.
fn repeat(count: usize, mut step: impl FnMut() -> Result<(), Errno>) -> Outcome {
    for i in 0..count {
        if let Err(e) = step() {
            return Outcome::Done {
                done: i as u64,
                stopped: Some(e),
            };
        }
    }
    Outcome::Done {
        done: count as u64,
        stopped: None,
    }
}
