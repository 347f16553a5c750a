//! [`Partial`]: a user's tree that has only the POSIX-like part ([`PosixTree`]: mkdir,
//! create, symlink, remove a file or a directory, lstat, list, read), diffed against the
//! oracle. It has no inode numbers, handles, dump or invariant check of its own, so
//! [`Partial`] supplies what the comparison needs and compares the rest by what the tree
//! shows:
//!
//! - **Inode numbers** are the adapter's: an entry gets the next number when the adapter
//!   creates it; a name the tree lists that the adapter never made is a finding.
//! - **nlink and directory sizes** are counted from `list` (2 + child directories; the number
//!   of children); file and symlink sizes are the tree's.
//! - **Handles** are the adapter's: `open` checks the entry and remembers it; `read` reads the
//!   entry's content from the tree now, or answers `ENOENT` once the adapter removed it. A
//!   handle's `pos` and `snap` are those of its last `read` (the bytes it returned).
//! - **Modes and owners**: stat reports the SPEC's default mode for the kind and 0/0 (a
//!   partial tree has neither; the profile generates no chmod or chown).
//! - **Path syntax and limits** the tree forbids are refused by the adapter itself. When the
//!   entry limit is reached, the adapter first asks the tree the checks that come before it
//!   in the SPEC's order (existence, the parent), so the error is the one the SPEC gives.
//! - **ENOENT against ENOTDIR**: when the tree answers `ENOENT`, the adapter looks at the
//!   path's prefixes and answers `ENOTDIR` if one of them is not a directory (path-based APIs
//!   such as the `vfs` crate's have no "not a directory" error).
//!
//! Everything else goes to the tree as it comes, so its own answers are what is compared.
//! Profile: [`Profile::PARTIAL`](crate::gen::Profile::PARTIAL) or one of your own.

use std::collections::BTreeMap;

use pdtree::{
    DirEntry, Errno, HandleId, HeaderId, Ino, InvariantViolation, Kind, Limits, Owner, PseudoFs,
    ReadDirPage, Row, Stat, Stats, ROOT_INO,
};

use super::inodes::Inodes;
use super::syntax::{check_name, components, entry_line, only_view_0, tail_lines, Reads};

/// What [`PosixTree::lstat`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PosixStat {
    /// Directory, file or symlink.
    pub kind: Kind,
    /// Content length of a file, target length of a symlink (ignored for a directory).
    pub size: u64,
}

/// The POSIX-like part of a tree, addressed by absolute paths (`/` is the root; every other
/// path is `/` followed by components joined with `/`, already checked against the tree's
/// syntax). Each method answers with the tree's own error, in the SPEC's terms.
pub trait PosixTree {
    /// Makes an empty directory.
    fn mkdir(&mut self, path: &[u8]) -> Result<(), Errno>;
    /// Makes a file holding `content`; `EEXIST` if `path` is taken.
    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<(), Errno>;
    /// Makes a symlink to `target`.
    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<(), Errno>;
    /// Removes a file or a symlink.
    fn remove_file(&mut self, path: &[u8]) -> Result<(), Errno>;
    /// Removes an empty directory.
    fn remove_dir(&mut self, path: &[u8]) -> Result<(), Errno>;
    /// What is at `path`, symlinks not followed.
    fn lstat(&self, path: &[u8]) -> Result<PosixStat, Errno>;
    /// The names in directory `path`, in any order.
    fn list(&self, path: &[u8]) -> Result<Vec<Vec<u8>>, Errno>;
    /// A file's content, or a symlink's target.
    fn read(&self, path: &[u8]) -> Result<Vec<u8>, Errno>;
}

/// A [`PosixTree`] as a [`PseudoFs`], for the differential runner. See the module docs.
pub struct Partial<T> {
    tree: T,
    limits: Limits,
    /// Mapped inode of each reachable entry, by absolute path.
    inodes: Inodes,
    /// Open handles: the mapped inode each refers to, and its reads.
    handles: BTreeMap<HandleId, (Ino, Reads)>,
    next_handle: HandleId,
}

fn absolute(comps: &[&[u8]]) -> Vec<u8> {
    if comps.is_empty() {
        return b"/".to_vec();
    }
    comps
        .iter()
        .flat_map(|c| [&b"/"[..], c])
        .flatten()
        .copied()
        .collect()
}

/// The components of an absolute path (empty: the root), the inverse of [`absolute`].
fn components_of(abs: &[u8]) -> Vec<&[u8]> {
    abs.split(|&b| b == b'/')
        .filter(|c| !c.is_empty())
        .collect()
}

fn child_of(dir: &[u8], name: &[u8]) -> Vec<u8> {
    if dir == b"/" {
        [b"/", name].concat()
    } else {
        [dir, b"/", name].concat()
    }
}

impl<T: PosixTree> Partial<T> {
    /// `tree` (empty but for its root) with the adapter's bookkeeping, enforcing `limits`.
    pub fn new(tree: T, limits: Limits) -> Partial<T> {
        Partial {
            tree,
            limits,
            inodes: Inodes::new(b"/".to_vec()),
            handles: BTreeMap::new(),
            next_handle: 1,
        }
    }

    /// The tree under test.
    pub fn tree(&self) -> &T {
        &self.tree
    }

    /// `ENOENT` from the tree, refined: `ENOTDIR` if a proper prefix of `comps` is there and
    /// is not a directory.
    fn refine(&self, e: Errno, comps: &[&[u8]]) -> Errno {
        if e != Errno::ENOENT {
            return e;
        }
        for n in 1..comps.len() {
            match self.tree.lstat(&absolute(&comps[..n])) {
                Ok(st) if st.kind != Kind::Dir => return Errno::ENOTDIR,
                Ok(_) => {}
                Err(_) => return Errno::ENOENT,
            }
        }
        Errno::ENOENT
    }

    /// The entry limit, with the SPEC's earlier checks asked first when it is reached.
    fn check_room(&self, comps: &[&[u8]]) -> Result<(), Errno> {
        let held = self.handles.values().map(|h| h.0);
        if self.inodes.stats(held).allocated < self.limits.max_entries {
            return Ok(());
        }
        let (_, dirs) = comps.split_last().expect("not the root");
        match self.tree.lstat(&absolute(dirs)) {
            Ok(st) if st.kind != Kind::Dir => return Err(Errno::ENOTDIR),
            Ok(_) => {}
            Err(e) => return Err(self.refine(e, dirs)),
        }
        match self.tree.lstat(&absolute(comps)) {
            Ok(_) => Err(Errno::EEXIST),
            Err(_) => Err(Errno::ENOSPC),
        }
    }

    fn create_with(
        &mut self,
        path: &[u8],
        make: impl FnOnce(&mut T, &[u8]) -> Result<(), Errno>,
    ) -> Result<Ino, Errno> {
        let comps = components(path)?;
        if comps.is_empty() {
            return Err(Errno::EEXIST);
        }
        self.check_room(&comps)?;
        let abs = absolute(&comps);
        make(&mut self.tree, &abs).map_err(|e| self.refine(e, &comps))?;
        Ok(self.inodes.assign(abs))
    }

    fn stat_abs(&self, abs: &[u8], comps: &[&[u8]]) -> Result<Stat, Errno> {
        let st = self.tree.lstat(abs).map_err(|e| self.refine(e, comps))?;
        let ino = match self.inodes.ino(abs) {
            Some(ino) => ino,
            None => panic!(
                "target: {} is there, but the adapter never made it",
                String::from_utf8_lossy(abs)
            ),
        };
        let (nlink, size) = match st.kind {
            Kind::Dir => {
                let names = self.tree.list(abs).map_err(|e| self.refine(e, comps))?;
                let subdirs = names
                    .iter()
                    .filter(|n| {
                        self.tree
                            .lstat(&child_of(abs, n))
                            .is_ok_and(|s| s.kind == Kind::Dir)
                    })
                    .count() as u64;
                (2 + subdirs, names.len() as u64)
            }
            _ => (1, st.size),
        };
        Ok(Stat {
            ino,
            kind: st.kind,
            ns: None,
            nlink,
            size,
            mode: st.kind.default_mode(),
            uid: 0,
            gid: 0,
            owner: Owner::Explicit,
            permanent: ino == ROOT_INO,
            open_refs: self.handles.values().filter(|h| h.0 == ino).count() as u64,
        })
    }

    fn entries_of(&self, dir: Ino) -> Result<Vec<DirEntry>, Errno> {
        let abs = self.inodes.path(dir).ok_or(Errno::ENOENT)?.to_vec();
        let names = self.tree.list(&abs)?;
        let mut out = Vec::with_capacity(names.len());
        for name in names {
            let child = child_of(&abs, &name);
            let ino = match self.inodes.ino(&child) {
                Some(ino) => ino,
                None => panic!(
                    "target: lists {}, which the adapter never made",
                    String::from_utf8_lossy(&child)
                ),
            };
            let kind = self.tree.lstat(&child)?.kind;
            out.push(DirEntry { name, ino, kind });
        }
        out.sort_by_key(|e| e.ino);
        Ok(out)
    }

    fn dump_from(&self, out: &mut String) {
        let mut stack: Vec<Vec<u8>> = vec![b"/".to_vec()];
        while let Some(abs) = stack.pop() {
            let comps = components_of(&abs);
            let st = self.stat_abs(&abs, &comps).expect("a listed entry");
            entry_line(out, &comps, &st);
            if st.kind == Kind::Dir {
                let mut children = self.entries_of(st.ino).expect("a listed directory");
                children.reverse();
                stack.extend(children.iter().map(|c| child_of(&abs, &c.name)));
            }
        }
    }
}

impl<T: PosixTree + Default> PseudoFs for Partial<T> {
    fn with_limits(limits: Limits) -> Self {
        Partial::new(T::default(), limits)
    }

    fn limits(&self) -> Limits {
        self.limits
    }

    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.create_with(path, |t, p| t.mkdir(p))
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        components(path)?;
        if content.len() > self.limits.max_content {
            return Err(Errno::EFBIG);
        }
        self.create_with(path, |t, p| t.create(p, content))
    }

    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        components(path)?;
        if target.len() > self.limits.max_content {
            return Err(Errno::EFBIG);
        }
        if target.is_empty() {
            return Err(Errno::EINVAL);
        }
        self.create_with(path, |t, p| t.symlink(p, target))
    }

    fn listing(&mut self, _path: &[u8]) -> Result<Ino, Errno> {
        unimplemented!("listings are not in a partial tree's profile")
    }

    fn register(&mut self, _dir: &[u8], _table: &[Row]) -> Result<HeaderId, Errno> {
        unimplemented!("tables are not in a partial tree's profile")
    }

    fn unregister(&mut self, _header: HeaderId) -> Result<(), Errno> {
        unimplemented!("tables are not in a partial tree's profile")
    }

    super::without_part_two!("a partial tree's profile");

    fn stat_in(&self, view: pdtree::View, path: &[u8]) -> Result<Stat, Errno> {
        let comps = components(path)?;
        only_view_0(view)?;
        self.stat_abs(&absolute(&comps), &comps)
    }

    fn lookup_at_in(&self, view: pdtree::View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        check_name(name)?;
        only_view_0(view)?;
        let abs = self.inodes.path(dir).ok_or(Errno::ENOENT)?;
        if self.tree.lstat(abs)?.kind != Kind::Dir {
            return Err(Errno::ENOTDIR);
        }
        let child = child_of(abs, name);
        self.stat_abs(&child, &components_of(&child))
    }

    fn readdir_in(
        &self,
        view: pdtree::View,
        dir: Ino,
        pos: u64,
        max: usize,
    ) -> Result<ReadDirPage, Errno> {
        if max == 0 || max > self.limits.max_readdir {
            return Err(Errno::EINVAL);
        }
        only_view_0(view)?;
        let entries: Vec<DirEntry> = self
            .entries_of(dir)?
            .into_iter()
            .filter(|e| e.ino >= pos)
            .take(max)
            .collect();
        let next_pos = entries.last().map_or(pos, |e| e.ino + 1);
        Ok(ReadDirPage { entries, next_pos })
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        let comps = components(path)?;
        if comps.is_empty() {
            return Err(Errno::EBUSY);
        }
        let abs = absolute(&comps);
        let st = self.tree.lstat(&abs).map_err(|e| self.refine(e, &comps))?;
        if st.kind == Kind::Dir {
            self.tree.remove_dir(&abs)?;
        } else {
            self.tree.remove_file(&abs)?;
        }
        self.inodes.forget(&abs);
        Ok(())
    }

    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        let comps = components(path)?;
        if comps.is_empty() {
            return Err(Errno::EBUSY);
        }
        let top = absolute(&comps);
        self.tree.lstat(&top).map_err(|e| self.refine(e, &comps))?;
        let mut all = vec![top];
        let mut i = 0;
        while i < all.len() {
            if self.tree.lstat(&all[i])?.kind == Kind::Dir {
                let names = self.tree.list(&all[i])?;
                let dir = all[i].clone();
                all.extend(names.iter().map(|n| child_of(&dir, n)));
            }
            i += 1;
        }
        for abs in all.iter().rev() {
            self.remove(abs)?;
        }
        Ok(all.len() as u64)
    }

    fn mark_permanent(&mut self, _path: &[u8]) -> Result<(), Errno> {
        unimplemented!("permanent entries are not in a partial tree's profile")
    }

    fn open_in(&mut self, view: pdtree::View, path: &[u8]) -> Result<HandleId, Errno> {
        let st = self.stat_in(view, path)?;
        if st.kind == Kind::Dir {
            return Err(Errno::EISDIR);
        }
        let id = self.next_handle;
        self.next_handle = id.checked_add(1).ok_or(Errno::ENOSPC)?;
        self.handles.insert(id, (st.ino, Reads::default()));
        Ok(id)
    }

    fn read(&mut self, handle: HandleId) -> Result<Vec<u8>, Errno> {
        let ino = self.handles.get(&handle).ok_or(Errno::EBADF)?.0;
        let abs = self.inodes.path(ino).ok_or(Errno::ENOENT)?;
        let bytes = self.tree.read(abs)?;
        let h = self.handles.get_mut(&handle).expect("checked handle");
        h.1.whole(&bytes);
        Ok(bytes)
    }

    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        self.handles.remove(&handle).map(drop).ok_or(Errno::EBADF)
    }

    fn stats(&self) -> Stats {
        self.inodes.stats(self.handles.values().map(|h| h.0))
    }

    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        Ok(())
    }

    fn dump(&self) -> String {
        let mut out = String::new();
        self.dump_from(&mut out);
        let handles = self
            .handles
            .iter()
            .map(|(&id, (ino, reads))| (id, *ino, !self.inodes.is_live(*ino), reads));
        tail_lines(
            &mut out,
            handles,
            self.inodes.next(),
            self.next_handle,
            &self.stats(),
        );
        out
    }
}
