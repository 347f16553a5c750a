//! The directories a [`RealDir`](super::RealDir) resolved last, kept open as `O_PATH`
//! descriptors, so that a path is walked from the deepest of them it passes through instead
//! of from the sandbox.
//!
//! Why: the generator builds chains 2,000 directories deep, and every op on such a path made
//! the kernel walk every level from the sandbox (`openat2` was half of a tmpfs campaign's
//! time, its path walk a quarter); a chain built level by level was quadratic in its depth.
//!
//! Soundness: a cached directory was resolved beneath the sandbox with no symlink on the way,
//! and only the adapter changes the sandbox. A directory keeps its identity until it is
//! removed, and the adapter drops every cached directory at or below a path before it removes
//! it, so a walk from a cached directory reaches what a walk from the sandbox would. The rest
//! of the path is still resolved with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`.

use std::os::fd::{AsFd, BorrowedFd, OwnedFd};

/// Directories kept open: enough for the few paths an input works in at a time, and a bound
/// on the descriptors one adapter holds.
pub(crate) const CACHED_DIRS: usize = 16;

/// Open directories by their path below the sandbox (never the root, which the adapter holds
/// itself); the most recently used last.
#[derive(Debug, Default)]
pub(crate) struct DirCache {
    dirs: Vec<(Vec<u8>, OwnedFd)>,
}

/// Whether `dir` is `rel` or one of its ancestors (component-wise, not byte-wise).
fn covers(dir: &[u8], rel: &[u8]) -> bool {
    rel.starts_with(dir) && (rel.len() == dir.len() || rel[dir.len()] == b'/')
}

impl DirCache {
    /// The deepest cached directory at or above `rel`: its index, its descriptor and the rest
    /// of `rel` below it (empty if it is `rel`).
    pub(crate) fn base<'r>(&self, rel: &'r [u8]) -> Option<(usize, BorrowedFd<'_>, &'r [u8])> {
        let (i, (dir, fd)) = self
            .dirs
            .iter()
            .enumerate()
            .filter(|(_, (dir, _))| covers(dir, rel))
            .max_by_key(|(_, (dir, _))| dir.len())?;
        let rest = rel.get(dir.len() + 1..).unwrap_or(b"");
        Some((i, fd.as_fd(), rest))
    }

    /// Marks entry `i` (from [`DirCache::base`]) as the most recently used.
    pub(crate) fn touch(&mut self, i: usize) {
        let hit = self.dirs.remove(i);
        self.dirs.push(hit);
    }

    /// Keeps `fd`, the directory at `rel`, dropping the least recently used one past
    /// [`CACHED_DIRS`].
    pub(crate) fn insert(&mut self, rel: Vec<u8>, fd: OwnedFd) {
        debug_assert!(!rel.is_empty(), "the root is not cached");
        self.dirs.retain(|(dir, _)| *dir != rel);
        if self.dirs.len() == CACHED_DIRS {
            self.dirs.remove(0);
        }
        self.dirs.push((rel, fd));
    }

    /// Drops every cached directory at or below `rel`, before it is removed.
    pub(crate) fn forget_below(&mut self, rel: &[u8]) {
        self.dirs.retain(|(dir, _)| !covers(rel, dir));
    }

    #[cfg(test)]
    fn paths(&self) -> Vec<&[u8]> {
        self.dirs.iter().map(|(d, _)| &d[..]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fd() -> OwnedFd {
        std::fs::File::open("/").expect("open /").into()
    }

    #[test]
    fn the_deepest_cached_ancestor_is_the_base() {
        let mut c = DirCache::default();
        c.insert(b"a".to_vec(), fd());
        c.insert(b"a/b".to_vec(), fd());
        c.insert(b"ab".to_vec(), fd());
        let rest = |rel: &'static [u8]| c.base(rel).map(|(_, _, r)| r);
        assert_eq!(rest(b"a/b/c/d"), Some(&b"c/d"[..]));
        assert_eq!(rest(b"a/b"), Some(&b""[..]));
        assert_eq!(
            rest(b"a/bc"),
            Some(&b"bc"[..]),
            "a/b is not an ancestor of a/bc"
        );
        assert_eq!(rest(b"abc"), None, "ab is not an ancestor of abc");
        assert_eq!(rest(b"x"), None);
    }

    #[test]
    fn removal_drops_the_directory_and_everything_below_it() {
        let mut c = DirCache::default();
        for p in ["a", "a/b", "a/b/c", "a/bc", "d"] {
            c.insert(p.as_bytes().to_vec(), fd());
        }
        c.forget_below(b"a/b");
        assert_eq!(c.paths(), [&b"a"[..], b"a/bc", b"d"]);
    }

    #[test]
    fn the_least_recently_used_goes_first() {
        let mut c = DirCache::default();
        for i in 0..CACHED_DIRS {
            c.insert(format!("d{i}").into_bytes(), fd());
        }
        let (i, _, _) = c.base(b"d0").expect("cached");
        c.touch(i);
        c.insert(b"new".to_vec(), fd());
        assert_eq!(c.paths().len(), CACHED_DIRS);
        assert!(c.base(b"d1").is_none(), "d1 was the least recently used");
        assert!(c.base(b"d0").is_some() && c.base(b"new").is_some());
    }
}
