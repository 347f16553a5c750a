//! # pdtree-fuse
//!
//! Mounts a [`pdtree::Tree`] as a real filesystem through the kernel's FUSE driver, so that
//! `ls`, `find`, `cat`, Python and any program reading directories see it.
//!
//! ```no_run
//! use pdtree::{PseudoFs, Row, Tree};
//! use pdtree_fuse::{mount, MountOptions};
//!
//! let mut tree = Tree::new();
//! tree.register(b"proc/sys/net/ipv4/conf/eth0", &[Row::file("forwarding", "0\n")]).unwrap();
//! let mounted = mount(tree, "/mnt/pd", &MountOptions::default())?;
//! // Now `cat /mnt/pd/proc/sys/net/ipv4/conf/eth0/forwarding` prints 0.
//! mounted.edit(|t| t.register(b"proc/sys/net/ipv4/conf/eth1", &[Row::file("forwarding", "1\n")]))
//!     .unwrap();
//! // ... and `ls /mnt/pd/proc/sys/net/ipv4/conf` shows eth0 and eth1.
//! mounted.unmount()?;
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! What a client sees, and why, is in `fuse/README.md`: every request maps to the tree
//! operation of the same meaning with its error unchanged (`ENOENT` is `ENOENT`); readdir
//! offsets are the tree's positions (`.` at 0, `..` at 1, a child at its inode number), so a
//! saved `d_off` resumes exactly where it was taken; every file is read with direct I/O so a
//! listing is rendered at each read from offset 0 and never served stale from the page cache.
//!
//! Mounting needs root (the mount is made with mount(2), without fusermount) and /dev/fuse.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod attr;
pub mod demo;
mod edit;
mod errno;
mod serve;

use std::ffi::OsStr;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use fuser::{BackgroundSession, Config, INodeNo, MountOption, Notifier, SessionACL};
use pdtree::Tree;
use rustix::mount::{unmount, UnmountFlags};

pub use edit::Editor;
use serve::{Settings, Shared, TreeFs};

/// How to mount.
///
/// ```
/// let o = pdtree_fuse::MountOptions::default();
/// assert_eq!(o.ttl, std::time::Duration::from_secs(1));
/// assert!(!o.allow_other && !o.read_only);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MountOptions {
    /// How long the kernel may cache a name → inode answer and an entry's attributes.
    /// Changes made through the mount and through [`Mounted::edit`] are pushed to the kernel
    /// at once whatever the TTL; a listing's attributes are never cached (its size follows
    /// its directory). Default 1 s, as libfuse's.
    pub ttl: Duration,
    /// Let every user, not only the one who mounted, use the filesystem (`allow_other`).
    /// Default off.
    pub allow_other: bool,
    /// Mount read-only: every change through the mount is `EROFS`; [`Mounted::edit`] still
    /// changes the tree. Default off.
    pub read_only: bool,
}

impl Default for MountOptions {
    fn default() -> Self {
        MountOptions {
            ttl: Duration::from_secs(1),
            allow_other: false,
            read_only: false,
        }
    }
}

impl MountOptions {
    fn config(&self) -> Config {
        let mut c = Config::default();
        c.mount_options = vec![
            MountOption::FSName("pdtree".into()),
            MountOption::Subtype("pdtree".into()),
            MountOption::NoDev,
            MountOption::NoSuid,
            if self.read_only {
                MountOption::RO
            } else {
                MountOption::RW
            },
        ];
        if self.allow_other {
            c.acl = SessionACL::All;
        }
        c
    }
}

/// A mounted tree. Dropping it unmounts, as [`Mounted::unmount`] does.
pub struct Mounted {
    /// `None` once unmounted.
    session: Option<BackgroundSession>,
    notifier: Notifier,
    shared: Arc<Shared>,
    mountpoint: PathBuf,
}

/// Mounts `tree` at `mountpoint` (an existing directory) and serves it from a background
/// thread until the returned handle is unmounted or dropped. When this returns, the mount is
/// ready: the kernel's INIT has been answered.
///
/// Errors: the mount(2) error (`EPERM` when not root, `ENOENT` without /dev/fuse or the
/// mount point).
pub fn mount(
    tree: Tree,
    mountpoint: impl AsRef<Path>,
    options: &MountOptions,
) -> io::Result<Mounted> {
    let settings = Settings {
        ttl: options.ttl,
        read_only: options.read_only,
    };
    let shared = Arc::new(Shared::new(tree, settings));
    let mountpoint = mountpoint.as_ref().to_path_buf();
    let session = fuser::spawn_mount(TreeFs(Arc::clone(&shared)), &mountpoint, &options.config())?;
    let notifier = session.notifier();
    Ok(Mounted {
        session: Some(session),
        notifier,
        shared,
        mountpoint,
    })
}

impl Mounted {
    /// Where the tree is mounted.
    pub fn mountpoint(&self) -> &Path {
        &self.mountpoint
    }

    /// Runs `f` with the tree, between two requests.
    ///
    /// ```no_run
    /// # let m = pdtree_fuse::mount(pdtree::Tree::new(), "/mnt/pd", &Default::default())?;
    /// use pdtree::PseudoFs;
    /// let live = m.read(|t| t.stats().live);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn read<R>(&self, f: impl FnOnce(&Tree) -> R) -> R {
        f(&self.shared.lock().tree)
    }

    /// Runs `f` with an [`Editor`] of the tree, between two requests, then tells the kernel
    /// what it caches that the changes made wrong: a removed entry's name is invalidated (the
    /// next lookup asks again), a changed directory's attributes are dropped. New entries
    /// need nothing: the kernel never caches a negative answer from this filesystem.
    ///
    /// Cost: `f`, plus one notification per distinct stale name or directory (a batch of
    /// 10^4 registrations in one directory sends a handful).
    ///
    /// ```no_run
    /// # let m = pdtree_fuse::mount(pdtree::Tree::new(), "/mnt/pd", &Default::default())?;
    /// use pdtree::Row;
    /// m.edit(|t| {
    ///     for i in 0..1000 {
    ///         let dir = format!("proc/sys/net/ipv4/conf/eth{i}");
    ///         t.register(dir.as_bytes(), &[Row::file("forwarding", "0\n")]).unwrap();
    ///     }
    /// });
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn edit<R>(&self, f: impl FnOnce(&mut Editor<'_>) -> R) -> R {
        let (r, stale) = {
            let mut state = self.shared.lock();
            let mut editor = Editor::new(&mut state.tree);
            let r = f(&mut editor);
            (r, editor.into_invalidations())
        };
        // Sent without the lock: the kernel may need a request answered to take the
        // directory lock an invalidation waits for. ENOENT means the kernel had nothing
        // cached there: nothing to do.
        for (parent, name) in &stale.entries {
            let _ = self
                .notifier
                .inval_entry(INodeNo(*parent), OsStr::from_bytes(name));
        }
        for &ino in &stale.attrs {
            let _ = self.notifier.inval_inode(INodeNo(ino), -1, 0);
        }
        r
    }

    /// Whether the filesystem stopped serving (unmounted from outside, e.g. `umount`).
    pub fn is_finished(&self) -> bool {
        self.session.as_ref().is_none_or(|s| s.guard.is_finished())
    }

    /// Unmounts and waits for the serving thread to end. If the mount is busy (a process
    /// has a file or its working directory in it), it is detached instead (`umount -l`): it
    /// disappears from the namespace at once, and the serving thread goes on answering the
    /// processes still inside until the last one leaves. If the filesystem was already
    /// unmounted from outside, only waits.
    pub fn unmount(mut self) -> io::Result<()> {
        self.stop()
    }

    fn stop(&mut self) -> io::Result<()> {
        let Some(session) = self.session.take() else {
            return Ok(());
        };
        if session.guard.is_finished() {
            return session.join();
        }
        match unmount(&self.mountpoint, UnmountFlags::empty()) {
            // The kernel ends the connection: the serving thread reads ENODEV and returns.
            Ok(()) => session.join(),
            Err(rustix::io::Errno::BUSY) => {
                unmount(&self.mountpoint, UnmountFlags::DETACH)?;
                // Not joined: the thread serves the processes still inside, then ends.
                drop(session);
                Ok(())
            }
            Err(e) => Err(e.into()),
        }
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        // Nobody to report to; `unmount` is the call that reports.
        let _ = self.stop();
    }
}

/// This crate's README examples, compiled as doc tests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The project README's examples, compiled and run as doc tests so they stay true. They are
/// here, not in core, because they use this crate and the harness too (a dev-dependency).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ProjectReadmeDoctests;
