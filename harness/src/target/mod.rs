//! Targets the harness did not grow up with: a real directory of any mounted filesystem,
//! driven through syscalls and compared with the oracle under the `posix-linux`
//! [`Profile`](crate::gen::Profile) ([`RealDir`]), and a user's tree that has only the
//! POSIX-like part ([`PosixTree`], through [`Partial`]).
//!
//! ```no_run
//! use pdtree_harness::campaign::{run, CampaignConfig};
//! use pdtree_harness::gen::Profile;
//! use pdtree_harness::target::RealDir;
//!
//! let base = std::path::Path::new("/dev/shm"); // tmpfs
//! let cfg = CampaignConfig { iterations: Some(500), profile: Profile::POSIX, ..Default::default() };
//! let result = run(&cfg, &|limits| RealDir::new_in(base, Profile::POSIX, limits).expect("a sandbox in /dev/shm"));
//! assert!(result.found.is_none(), "{}", result.found.unwrap().divergence);
//! ```

mod dir_cache;
mod inodes;
mod partial;
mod real_dir;
mod scan;
mod syntax;
mod watchdog;

pub use partial::{Partial, PosixStat, PosixTree};
pub use real_dir::RealDir;
pub use watchdog::{set_op_timeout, watch, Watched, HUNG_EXIT_CODE};

/// The exit status of a run whose target went away (no new sandbox can be made in it: a
/// FUSE server that died answers `ENOTCONN`).
pub const GONE_EXIT_CODE: i32 = 4;

/// What a recorded case (`corpus/targets/*.ops`) states for `target`, from its
/// `# TARGET: EXPECTATION` line: `ok`, or `divergence SIGNATURE`.
///
/// ```
/// let text = "# tmpfs (posix-linux): ok\n# pdtree-fuse (pseudo-linux): divergence x\nmkdir \"/a\"\n";
/// assert_eq!(pdtree_harness::target::expected_on(text, "tmpfs (posix-linux)").as_deref(), Some("ok"));
/// assert_eq!(pdtree_harness::target::expected_on(text, "ext4 (posix-linux)"), None);
/// ```
pub fn expected_on(text: &str, target: &str) -> Option<String> {
    let tag = format!("# {target}: ");
    text.lines()
        .find_map(|l| l.strip_prefix(&tag))
        .map(str::to_string)
}

/// The [`PseudoFs`](pdtree::PseudoFs) methods of SPEC Part II (§10–§13) for a target that has
/// none of them: its profile never generates them (`Profile::part_two` is false), so a call
/// is a harness bug, and panics naming the profile.
macro_rules! without_part_two {
    ($profile:literal) => {
        fn register_ns(&mut self, _: pdtree::NsId, _: &[u8], _: &[Row]) -> Result<HeaderId, Errno> {
            unimplemented!(concat!("namespaces are not in ", $profile))
        }
        fn ns_create(&mut self, _: pdtree::Id, _: pdtree::Id) -> Result<pdtree::NsId, Errno> {
            unimplemented!(concat!("namespaces are not in ", $profile))
        }
        fn ns_destroy(&mut self, _: pdtree::NsId) -> Result<u64, Errno> {
            unimplemented!(concat!("namespaces are not in ", $profile))
        }
        fn read_at(&mut self, _: HandleId, _: u64, _: u64) -> Result<Vec<u8>, Errno> {
            unimplemented!(concat!("seq_file reads are not in ", $profile))
        }
        fn write(&mut self, _: HandleId, _: &[u8]) -> Result<(), Errno> {
            unimplemented!(concat!("writes are not in ", $profile))
        }
        fn generated(&mut self, _: &[u8], _: &[u8]) -> Result<Ino, Errno> {
            unimplemented!(concat!("sources are not in ", $profile))
        }
        fn source_add(&mut self, _: &[u8], _: &[u8]) -> Result<(), Errno> {
            unimplemented!(concat!("sources are not in ", $profile))
        }
        fn source_remove(&mut self, _: &[u8], _: &[u8]) -> Result<(), Errno> {
            unimplemented!(concat!("sources are not in ", $profile))
        }
        fn chmod_in(&mut self, _: pdtree::View, _: &[u8], _: pdtree::Mode) -> Result<(), Errno> {
            unimplemented!(concat!("modes are not in ", $profile))
        }
        fn chown_in(
            &mut self,
            _: pdtree::View,
            _: &[u8],
            _: pdtree::Id,
            _: pdtree::Id,
        ) -> Result<(), Errno> {
            unimplemented!(concat!("owners are not in ", $profile))
        }
    };
}
pub(crate) use without_part_two;
