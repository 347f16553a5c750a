//! Placeholder while the real tree is written; replaced in the next commit.
use crate::spec::PseudoFs;
use crate::types::*;

/// The fast tree (placeholder).
pub struct Tree {
    limits: Limits,
}

impl Tree {
    /// A new tree with default limits.
    pub fn new() -> Tree {
        Tree::with_limits(Limits::default())
    }
}

impl Default for Tree {
    fn default() -> Self {
        Tree::new()
    }
}

#[allow(unused_variables)]
impl PseudoFs for Tree {
    fn with_limits(limits: Limits) -> Self {
        Tree { limits }
    }
    fn limits(&self) -> Limits {
        self.limits
    }
    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        todo!()
    }
    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        todo!()
    }
    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        todo!()
    }
    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        todo!()
    }
    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        todo!()
    }
    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        todo!()
    }
    fn stat(&self, path: &[u8]) -> Result<Stat, Errno> {
        todo!()
    }
    fn lookup_at(&self, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        todo!()
    }
    fn readdir(&self, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        todo!()
    }
    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        todo!()
    }
    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        todo!()
    }
    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        todo!()
    }
    fn open(&mut self, path: &[u8]) -> Result<HandleId, Errno> {
        todo!()
    }
    fn read(&mut self, handle: HandleId) -> Result<Vec<u8>, Errno> {
        todo!()
    }
    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        todo!()
    }
    fn stats(&self) -> Stats {
        todo!()
    }
    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        todo!()
    }
    fn dump(&self) -> String {
        todo!()
    }
}
