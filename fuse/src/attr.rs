//! Tree stats as kernel attributes.
//!
//! Mode, uid and gid are the tree's (SPEC §12: its defaults per kind unless a row, `chmod`
//! or `chown` set them); times are the mount's start (the tree keeps none).

use std::time::SystemTime;

use fuser::{FileAttr, FileType, INodeNo};
use pdtree::{Kind, Stat};

/// The kernel's file type for a tree kind.
pub(crate) fn file_type(kind: Kind) -> FileType {
    match kind {
        Kind::Dir => FileType::Directory,
        Kind::File | Kind::Listing | Kind::Generated => FileType::RegularFile,
        Kind::Symlink => FileType::Symlink,
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
        // A tree mode is at most 0o777 (SPEC §12), so it fits the kernel's permission bits.
        perm: (st.mode & 0o777) as u16,
        nlink: u32::try_from(st.nlink).unwrap_or(u32::MAX),
        uid: st.uid,
        gid: st.gid,
        rdev: 0,
        blksize: 4096,
        flags: 0,
    }
}
