//! # pdtree
//!
//! A pseudo-filesystem directory tree: the data structure behind procfs, sysfs and
//! sysctl-style trees, built to stay flat at 10^6 entries in one directory.
//!
//! ```
//! use pdtree::{PseudoFs, Row, Tree, ROOT_INO};
//!
//! let mut t = Tree::new();
//! let h = t.register(b"net/ipv4/conf/eth0", &[Row::file("forwarding", "1\n")]).unwrap();
//! let conf = t.stat(b"net/ipv4/conf").unwrap();
//! let page = t.readdir(conf.ino, 0, 128).unwrap();
//! assert_eq!(page.entries[0].name, b"eth0");
//! t.unregister(h).unwrap(); // implicit directories go away with their last header
//! assert_eq!(t.readdir(ROOT_INO, 0, 128).unwrap().entries.len(), 0);
//! ```
//!
//! The semantics every operation follows are in `docs/SEMANTICS.md`. The same operations are
//! the [`PseudoFs`] trait, which the naive oracle (`pdtree-oracle`) and any user tree also
//! implement, so the differential harness (`pdtree-harness`) can compare them.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod children;
mod path;
mod shared;
mod spec;
mod sync;
#[cfg(feature = "thresholds")]
pub mod thresholds;
mod tree;
mod types;

#[cfg(feature = "races")]
pub use shared::Race;
pub use shared::SharedTree;
pub use spec::{read_all, read_all_in, PseudoFs};
pub use tree::Tree;
pub use types::{
    DirEntry, Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Kind, Limits, Mode, NsId,
    Owner, ReadDirPage, Row, RowKind, Stat, Stats, View, MAX_MODE, MAX_NAME, MAX_PATH, NO_ID,
    ROOT_INO,
};
