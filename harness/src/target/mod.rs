//! Targets the harness did not grow up with: a real directory of any mounted filesystem,
//! driven through syscalls and compared with the oracle under the `posix-linux`
//! [`Profile`](crate::gen::Profile).
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

mod real_dir;
mod scan;

pub use real_dir::RealDir;
