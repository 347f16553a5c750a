//! The real getdents64 stream of a directory, checked against POSIX while ops run between its
//! reads.
//!
//! A readdir scan that starts at position 0 on a [`RealDir`](super::RealDir) opens a real
//! directory stream beside it. Each later page of that scan (a readdir from the position the
//! previous page ended at) makes exactly one getdents64 call of [`GETDENTS_BUFFER`] bytes on
//! the stream, after an lseek to the `d_off` the previous call ended at (as seekdir to a
//! saved telldir value does); the ops in between run as they come. When the scan reaches the end of the
//! directory the stream is read to its end and checked:
//!
//! - every entry present when the scan started and not removed during it was returned
//!   exactly once;
//! - no entry (name and inode) was returned twice.
//!
//! Entries created or removed during the scan may come once or not at all (POSIX leaves it
//! unspecified) and are not checked. A directory removed during its scan reads as `ENOENT` on
//! Linux; that ends the stream. A violation panics; the differential runner reports the
//! panic as a divergence of the target, with the op that ended the scan.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, OwnedFd};

use pdtree::Ino;
use rustix::fs::{OFlags, RawDir};

use super::real_dir::{list_fd, parts, RealDir, GETDENTS_BUFFER};

/// Scans followed at once per target; the oldest is dropped past this.
const MAX_SCANS: usize = 8;

/// An entry as the stream shows it: name and real inode number.
type Seen = (Vec<u8>, u64);

struct RealScan {
    /// The directory's mapped inode (a new directory at the same path is another one).
    dir: Ino,
    /// The directory's path below the sandbox (for messages and removals).
    rel: Vec<u8>,
    stream: OwnedFd,
    /// The position the scan's next page starts at.
    next_pos: u64,
    at_start: BTreeSet<Seen>,
    removed: BTreeSet<Seen>,
    returned: BTreeMap<Seen, u32>,
    /// The `d_off` of the last entry read, where the next read resumes (`None` at the start).
    resume_at: Option<u64>,
}

/// The scans of one target (behind a `RefCell`: readdir takes `&self`).
#[derive(Default)]
pub(crate) struct RealScans {
    scans: RefCell<Vec<RealScan>>,
}

impl RealScan {
    /// One getdents64 call; false at the end of the stream.
    /// One getdents64 call, from the `d_off` the last one ended at (an lseek first, as a
    /// program resuming with seekdir does: the kernel must take its own cookie back); false
    /// at the end of the stream.
    fn read_once(&mut self) -> bool {
        if let Some(cookie) = self.resume_at {
            match rustix::fs::seek(&self.stream, rustix::fs::SeekFrom::Start(cookie)) {
                Ok(_) => {}
                Err(rustix::io::Errno::NOENT) => return false,
                Err(err) => {
                    panic!("target: lseek to a saved d_off ({cookie}) during a scan: {err}")
                }
            }
        }
        let mut buf = [MaybeUninit::<u8>::uninit(); GETDENTS_BUFFER];
        let mut raw = RawDir::new(self.stream.as_fd(), &mut buf);
        let mut any = false;
        while let Some(e) = raw.next() {
            let e = match e {
                Ok(e) => e,
                // Linux: a directory removed while open reads as ENOENT; its children went
                // first, so nothing stable is left to return.
                Err(rustix::io::Errno::NOENT) => return false,
                Err(err) => panic!("target: getdents during a scan: {err}"),
            };
            let name = e.file_name().to_bytes();
            if name != b"." && name != b".." {
                *self.returned.entry((name.to_vec(), e.ino())).or_default() += 1;
            }
            self.resume_at = Some(e.next_entry_cookie());
            any = true;
            if raw.is_buffer_empty() {
                break;
            }
        }
        any
    }

    /// Reads the stream to its end and checks what it returned.
    fn finish(mut self) {
        while self.read_once() {}
        let dir = String::from_utf8_lossy(&self.rel).into_owned();
        for ((name, ino), n) in &self.returned {
            assert!(
                *n == 1,
                "target: readdir of /{dir}: {:?} (inode {ino}) returned {n} times in one scan",
                String::from_utf8_lossy(name)
            );
        }
        for stable in self.at_start.difference(&self.removed) {
            assert!(
                self.returned.contains_key(stable),
                "target: readdir of /{dir}: {:?} (inode {}) was there for the whole scan and never returned",
                String::from_utf8_lossy(&stable.0),
                stable.1
            );
        }
    }
}

impl RealScans {
    /// A page of directory `dir` was read from `pos` and ended at `next_pos` (`end`: nothing
    /// was left). Starts, advances or finishes the scan it belongs to.
    pub(crate) fn page(&self, t: &RealDir, dir: Ino, pos: u64, next_pos: u64, end: bool) {
        let mut scans = self.scans.borrow_mut();
        let i = if pos == 0 {
            let Some(scan) = t.start_scan(dir) else {
                return;
            };
            if scans.len() == MAX_SCANS {
                scans.remove(0);
            }
            scans.push(scan);
            scans.len() - 1
        } else {
            match scans.iter().position(|s| s.next_pos == pos && s.dir == dir) {
                Some(i) => i,
                None => return,
            }
        };
        if end {
            scans.remove(i).finish();
        } else {
            scans[i].read_once();
            scans[i].next_pos = next_pos;
        }
    }

    /// The adapter removed `name` (real inode `real`) from directory `dir`: its scans note it.
    pub(crate) fn removed(&self, dir: Ino, name: &[u8], real: u64) {
        for s in self.scans.borrow_mut().iter_mut().filter(|s| s.dir == dir) {
            s.removed.insert((name.to_vec(), real));
        }
    }
}

impl RealDir {
    /// A new stream on directory `dir` and the entries it has now (`None`: not a directory
    /// the adapter can open, so there is nothing to follow).
    fn start_scan(&self, dir: Ino) -> Option<RealScan> {
        let rel = self.rel_of(dir)?.to_vec();
        let comps = parts(&rel);
        let stream = self.open_dir_fd(&comps, OFlags::RDONLY)?;
        let snapshot = self.open_dir_fd(&comps, OFlags::RDONLY)?;
        let what = String::from_utf8_lossy(&rel).into_owned();
        let at_start = list_fd(snapshot.as_fd(), &what)
            .into_iter()
            .map(|(name, ino, _)| (name, ino))
            .collect();
        Some(RealScan {
            dir,
            rel,
            stream,
            next_pos: 0,
            at_start,
            removed: BTreeSet::new(),
            returned: BTreeMap::new(),
            resume_at: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty directory of the test's own, removed on drop (also when the test panics).
    struct Scratch(std::path::PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A scan of an empty directory of its own, with `at_start` and `returned` made up.
    fn scan(at_start: &[(&str, u64)], returned: &[(&str, u64, u32)]) -> (RealScan, Scratch) {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("pdtree-scan-test-{}-{n}", std::process::id());
        let dir = Scratch(std::env::temp_dir().join(name));
        std::fs::create_dir_all(&dir.0).unwrap();
        let flags = OFlags::RDONLY | OFlags::DIRECTORY;
        let stream = rustix::fs::openat(rustix::fs::CWD, &dir.0, flags, rustix::fs::Mode::empty());
        let seen = |n: &str, i: u64| (n.as_bytes().to_vec(), i);
        let scan = RealScan {
            dir: 2,
            rel: b"d".to_vec(),
            stream: stream.unwrap(),
            next_pos: 0,
            at_start: at_start.iter().map(|&(n, i)| seen(n, i)).collect(),
            removed: BTreeSet::new(),
            returned: returned.iter().map(|&(n, i, c)| (seen(n, i), c)).collect(),
            resume_at: None,
        };
        (scan, dir)
    }

    #[test]
    #[should_panic(expected = "returned 2 times in one scan")]
    fn an_entry_returned_twice_is_a_finding() {
        let (s, _dir) = scan(&[("a", 10)], &[("a", 10, 2)]);
        s.finish();
    }

    #[test]
    #[should_panic(expected = "was there for the whole scan and never returned")]
    fn a_stable_entry_never_returned_is_a_finding() {
        let (s, _dir) = scan(&[("a", 10), ("b", 11)], &[("a", 10, 1)]);
        s.finish();
    }

    #[test]
    fn a_removed_entry_may_be_missing_and_a_new_one_may_come() {
        let (mut s, _dir) = scan(&[("a", 10), ("b", 11)], &[("a", 10, 1), ("new", 12, 1)]);
        s.removed.insert((b"b".to_vec(), 11));
        s.finish();
    }
}
