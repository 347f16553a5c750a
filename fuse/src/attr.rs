//! Tree stats as kernel attributes.
//!
//! Modes are SPEC §12's defaults per kind (directories 0555, files and listings 0444,
//! symlinks 0777), owner 0:0; times are the mount's start (the tree keeps none).

use std::time::SystemTime;

use fuser::{FileAttr, FileType, INodeNo};
use pdtree::{Kind, Stat};

/// The kernel's file type for a tree kind.
pub(crate) fn file_type(kind: Kind) -> FileType {
    match kind {
        Kind::Dir => FileType::Directory,
        Kind::File | Kind::Listing => FileType::RegularFile,
        Kind::Symlink => FileType::Symlink,
    }
}

/// SPEC §12's default permission bits for a kind.
pub(crate) fn default_mode(kind: Kind) -> u16 {
    match kind {
        Kind::Dir => 0o555,
        Kind::File | Kind::Listing => 0o444,
        Kind::Symlink => 0o777,
    }
}

/// The attributes the kernel is given for `st`, with `time` as every timestamp.
pub(crate) fn file_attr(st: &Stat, time: SystemTime) -> FileAttr {
    FileAttr {
        ino: INodeNo(st.ino),
        size: st.size,
        blocks: 0,
        atime: time,
        mtime: time,
        ctime: time,
        crtime: time,
        kind: file_type(st.kind),
        perm: default_mode(st.kind),
        nlink: u32::try_from(st.nlink).unwrap_or(u32::MAX),
        uid: 0,
        gid: 0,
        rdev: 0,
        blksize: 4096,
        flags: 0,
    }
}
