//! Changes made to a mounted tree from inside the process, and what the kernel must forget
//! because of them.
//!
//! The kernel caches names (dentries) and attributes for the mount's TTL. Changes made
//! through the mount keep those caches right by themselves; a change made by calling the tree
//! directly does not, so [`Editor`] records, for each change, the names that stopped leading
//! where they did and the directories whose size or link count moved. The cost is per change
//! (O(depth), or O(rows) for `unregister`), never per cached entry, so registering 10^4
//! devices one by one while clients browse stays linear.

use std::collections::BTreeSet;
use std::ops::Deref;

use pdtree::{read_all, Errno, HandleId, HeaderId, Ino, Owner, PseudoFs, Row, Tree, ROOT_INO};

/// What the kernel must drop after an edit. Sets, so each is sent once, in a fixed order.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Invalidations {
    /// `(parent, name)`: a name that no longer leads to the inode it did.
    pub(crate) entries: BTreeSet<(Ino, Vec<u8>)>,
    /// Directories whose attributes (size, nlink) changed.
    pub(crate) attrs: BTreeSet<Ino>,
}

/// The tree, for changing it while it is mounted: the tree's mutating operations, each
/// recording what the kernel must forget, and every read-only operation through `Deref`.
///
/// ```no_run
/// # let m = pdtree_fuse::mount(pdtree::Tree::new(), "/mnt/pd", &Default::default())?;
/// use pdtree::PseudoFs;
/// m.edit(|t| {
///     t.mkdir(b"/net")?;
///     t.create(b"/net/dev", b"eth0\n")?;
///     assert_eq!(t.stat(b"/net")?.size, 1); // reads go straight to the tree
///     t.remove(b"/net/dev")
/// })
/// .unwrap();
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Editor<'t> {
    tree: &'t mut Tree,
    stale: Invalidations,
}

impl Deref for Editor<'_> {
    type Target = Tree;
    fn deref(&self) -> &Tree {
        self.tree
    }
}

/// The parent directory's inode and the last name of `path`, if the parent exists.
fn parent_and_name(tree: &Tree, path: &[u8]) -> Option<(Ino, Vec<u8>)> {
    let path = path.strip_suffix(b"/").unwrap_or(path);
    let (parent, name) = match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&b""[..], path),
    };
    let parent = tree.stat(parent).ok()?.ino;
    Some((parent, name.to_vec()))
}

/// `(inode, parent inode, name)` of `dir` and each of its ancestors below the root,
/// innermost first. One path and one parent walk: O(depth).
fn chain(tree: &Tree, dir: Ino) -> Vec<(Ino, Ino, Vec<u8>)> {
    let Ok(path) = tree.path_of(dir) else {
        return Vec::new();
    };
    let mut names = path.split(|&b| b == b'/').filter(|n| !n.is_empty()).rev();
    let mut out = Vec::new();
    let mut cur = dir;
    while cur != ROOT_INO {
        let (Ok(parent), Some(name)) = (tree.parent_ino(cur), names.next()) else {
            break;
        };
        out.push((cur, parent, name.to_vec()));
        cur = parent;
    }
    out
}

impl<'t> Editor<'t> {
    pub(crate) fn new(tree: &'t mut Tree) -> Editor<'t> {
        Editor {
            tree,
            stale: Invalidations::default(),
        }
    }

    pub(crate) fn into_invalidations(self) -> Invalidations {
        self.stale
    }

    /// Runs a creation at `path`; on success its directory's size and link count moved.
    fn creating(
        &mut self,
        path: &[u8],
        op: impl FnOnce(&mut Tree) -> Result<Ino, Errno>,
    ) -> Result<Ino, Errno> {
        let ino = op(self.tree)?;
        if let Some((parent, _)) = parent_and_name(self.tree, path) {
            self.stale.attrs.insert(parent);
        }
        Ok(ino)
    }

    /// Runs a removal of `path`; on success, `path`'s name and its directory are stale.
    fn removing<R>(
        &mut self,
        path: &[u8],
        op: impl FnOnce(&mut Tree) -> Result<R, Errno>,
    ) -> Result<R, Errno> {
        let before = parent_and_name(self.tree, path);
        let r = op(self.tree)?;
        if let Some((parent, name)) = before {
            self.stale.attrs.insert(parent);
            self.stale.entries.insert((parent, name));
        }
        Ok(r)
    }

    /// [`PseudoFs::mkdir`].
    pub fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.creating(path, |t| t.mkdir(path))
    }

    /// [`PseudoFs::create`].
    pub fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        self.creating(path, |t| t.create(path, content))
    }

    /// [`PseudoFs::symlink`].
    pub fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        self.creating(path, |t| t.symlink(path, target))
    }

    /// [`PseudoFs::listing`].
    pub fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.creating(path, |t| t.listing(path))
    }

    /// [`PseudoFs::register`]. Every existing directory on `dir` may have gained a child.
    pub fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        let h = self.tree.register(dir, table)?;
        let target = self.tree.header_dir(h).expect("just registered");
        self.stale.attrs.insert(target);
        self.stale
            .attrs
            .extend(chain(self.tree, target).iter().map(|c| c.1));
        Ok(h)
    }

    /// [`PseudoFs::unregister`]. Its rows go, and so may the implicit directories on its
    /// path: their names are stale; the directories that stay changed size.
    ///
    /// Cost: O(children of the table's directory + depth) on top of the tree's own.
    pub fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        let target = self.tree.header_dir(header)?;
        let page = self.tree.limits().max_readdir;
        let rows: Vec<Vec<u8>> = read_all(&*self.tree, target, page)?
            .into_iter()
            .filter(|e| {
                let st = self.tree.lookup_at(target, &e.name);
                st.is_ok_and(|st| st.owner == Owner::Header(header))
            })
            .map(|e| e.name)
            .collect();
        let path = chain(self.tree, target);
        self.tree.unregister(header)?;
        self.stale
            .entries
            .extend(rows.into_iter().map(|n| (target, n)));
        self.stale.attrs.insert(ROOT_INO);
        for (ino, parent, name) in path {
            if self.tree.stat_ino(ino).is_ok() {
                self.stale.attrs.insert(ino);
            } else {
                self.stale.entries.insert((parent, name));
            }
        }
        Ok(())
    }

    /// [`PseudoFs::remove`].
    pub fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.removing(path, |t| t.remove(path))
    }

    /// [`PseudoFs::remove_subtree`]. Invalidating the top's name drops the kernel's whole
    /// cached subtree with it.
    pub fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        self.removing(path, |t| t.remove_subtree(path))
    }

    /// [`PseudoFs::mark_permanent`] (nothing the kernel caches changes).
    pub fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.tree.mark_permanent(path)
    }

    /// [`PseudoFs::open`].
    pub fn open(&mut self, path: &[u8]) -> Result<HandleId, Errno> {
        self.tree.open(path)
    }

    /// [`PseudoFs::read`].
    pub fn read(&mut self, handle: HandleId) -> Result<Vec<u8>, Errno> {
        self.tree.read(handle)
    }

    /// [`PseudoFs::close`] (freeing a removed entry changes nothing the kernel can reach).
    pub fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        self.tree.close(handle)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(t: &mut Tree, f: impl FnOnce(&mut Editor<'_>)) -> Invalidations {
        let mut e = Editor::new(t);
        f(&mut e);
        e.into_invalidations()
    }

    #[test]
    fn creations_stale_their_directory_and_removals_their_name_too() {
        let mut t = Tree::new();
        let inv = edit(&mut t, |e| {
            e.mkdir(b"/d").unwrap();
            e.create(b"/d/f", b"x").unwrap();
        });
        let d = t.stat(b"/d").unwrap().ino;
        assert_eq!(inv.attrs, [ROOT_INO, d].into());
        assert!(inv.entries.is_empty());
        let inv = edit(&mut t, |e| e.remove(b"/d/f").unwrap());
        assert_eq!(inv.entries, [(d, b"f".to_vec())].into());
        let inv = edit(&mut t, |e| {
            assert_eq!(e.remove(b"/d/nothing"), Err(Errno::ENOENT));
        });
        assert_eq!(
            inv,
            Invalidations::default(),
            "a failed change stales nothing"
        );
    }

    #[test]
    fn unregister_stales_its_rows_and_the_implicit_directories_that_went() {
        let mut t = Tree::new();
        let rows = [Row::file("forwarding", "0"), Row::file("mtu", "1500")];
        let h = t.register(b"/net/conf/eth0", &rows).unwrap();
        let (net, conf) = (
            t.stat(b"/net").unwrap().ino,
            t.stat(b"/net/conf").unwrap().ino,
        );
        let eth0 = t.stat(b"/net/conf/eth0").unwrap().ino;
        let inv = edit(&mut t, |e| e.unregister(h).unwrap());
        let want: BTreeSet<(Ino, Vec<u8>)> = [
            (ROOT_INO, b"net".to_vec()),
            (net, b"conf".to_vec()),
            (conf, b"eth0".to_vec()),
            (eth0, b"forwarding".to_vec()),
            (eth0, b"mtu".to_vec()),
        ]
        .into();
        assert_eq!(inv.entries, want);
        assert_eq!(inv.attrs, [ROOT_INO].into());
    }

    #[test]
    fn unregister_works_under_a_small_readdir_limit() {
        let limits = pdtree::Limits {
            max_readdir: 2,
            max_namespaces: 65_536,
            ..pdtree::Limits::default()
        };
        let mut t = Tree::with_limits(limits);
        let rows = [Row::file("a", ""), Row::file("b", ""), Row::file("c", "")];
        let h = t.register(b"/conf", &rows).unwrap();
        let inv = edit(&mut t, |e| e.unregister(h).unwrap());
        let conf = |n: &str| inv.entries.iter().any(|(_, name)| name == n.as_bytes());
        assert!(
            conf("a") && conf("b") && conf("c") && conf("conf"),
            "{inv:?}"
        );
    }

    #[test]
    fn register_stales_every_directory_on_its_path() {
        let mut t = Tree::new();
        t.mkdir(b"/net").unwrap();
        let inv = edit(&mut t, |e| {
            e.register(b"/net/conf/eth0", &[Row::file("mtu", "1500")])
                .unwrap();
        });
        let ino = |p: &[u8]| t.stat(p).unwrap().ino;
        let want = [
            ROOT_INO,
            ino(b"/net"),
            ino(b"/net/conf"),
            ino(b"/net/conf/eth0"),
        ];
        assert_eq!(inv.attrs, want.into());
    }
}
