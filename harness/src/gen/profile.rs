//! Capability profiles: what a target supports, so the generator makes only ops it can run.
//!
//! The full profile is the whole SPEC (core and the oracle). `posix-linux` is what a real
//! directory supports through syscalls (mkdir, create, symlink, remove, stat, lookup,
//! readdir, open/read/close): no tables, listings, permanent entries, sources, seq_file
//! reads, writes, modes, owners or namespaces, and no symlink target
//! holding a NUL byte or longer than 4095 bytes (the kernel stores targets as C strings of at
//! most PATH_MAX bytes). A target without its own
//! dump and invariant check is compared through what it shows (see `crate::target`).

use crate::lang::op::OpKind;

/// What a target supports.
///
/// ```
/// use pdtree_harness::gen::Profile;
/// assert!(Profile::FULL.supports(pdtree_harness::OpKind::Register));
/// assert!(!Profile::POSIX.supports(pdtree_harness::OpKind::Register));
/// assert_eq!(Profile::by_name("posix-linux"), Some(Profile::POSIX));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Profile {
    /// The name on the command line.
    pub name: &'static str,
    /// Op kinds the target does not have; the generator never makes them.
    pub unsupported: &'static [OpKind],
    /// Symlink targets are C strings: the generator leaves NUL bytes out of them.
    pub nul_free_targets: bool,
    /// The longest symlink target the target stores (Linux: 4095 bytes, PATH_MAX with its
    /// NUL); the generator makes none longer. The tree's own bound is `max_content`.
    pub max_symlink_target: Option<usize>,
    /// The target cannot write file content (no write(2)): files are created empty.
    pub empty_files: bool,
    /// A read through a handle of a removed file may answer `ENOENT` (the tree's rule, which
    /// pseudo-filesystems follow) instead of the content POSIX keeps readable.
    pub enoent_after_removal: bool,
    /// The target has SPEC Part II ([`PART_TWO`]): sources, seq_file reads, writes, modes,
    /// owners and namespaces.
    pub part_two: bool,
    /// Every call is a syscall (microseconds, not nanoseconds): the generator makes a
    /// `cycle_*` op of 2^16 cycles, which then takes a second or more, in 1 op of 100
    /// instead of 1 in 10 (`gen::deep`).
    pub slow_calls: bool,
}

/// The op kinds of SPEC Part II (§10–§13), which only a profile with `part_two` gets.
pub const PART_TWO: [OpKind; 12] = [
    OpKind::Generated,
    OpKind::SourceAdd,
    OpKind::SourceRemove,
    OpKind::ReadAt,
    OpKind::Write,
    OpKind::Chmod,
    OpKind::Chown,
    OpKind::RegisterNs,
    OpKind::NsCreate,
    OpKind::NsDestroy,
    OpKind::CycleSource,
    OpKind::CycleNs,
];

impl Profile {
    /// Every op of the SPEC.
    pub const FULL: Profile = Profile {
        name: "full",
        unsupported: &[],
        nul_free_targets: false,
        max_symlink_target: None,
        empty_files: false,
        enoent_after_removal: true,
        part_two: true,
        slow_calls: false,
    };

    /// A POSIX directory on Linux, driven through syscalls.
    pub const POSIX: Profile = Profile {
        name: "posix-linux",
        unsupported: &[
            OpKind::Listing,
            OpKind::Register,
            OpKind::Unregister,
            OpKind::MarkPermanent,
            OpKind::CycleRegister,
        ],
        nul_free_targets: true,
        max_symlink_target: Some(4095),
        empty_files: false,
        enoent_after_removal: false,
        part_two: false,
        slow_calls: true,
    };

    /// A pseudo-filesystem mounted on Linux, such as pdtree-fuse: [`Profile::POSIX`], but
    /// files are created empty (no write(2)) and reading a removed file may be `ENOENT`.
    pub const PSEUDO: Profile = Profile {
        name: "pseudo-linux",
        empty_files: true,
        enoent_after_removal: true,
        ..Profile::POSIX
    };

    /// A partial tree ([`Partial`](crate::target::Partial)) with the POSIX-like part but no
    /// symlinks, such as the `vfs` crate's `MemoryFS`.
    pub const PARTIAL: Profile = Profile {
        name: "partial",
        unsupported: &[
            OpKind::Listing,
            OpKind::Register,
            OpKind::Unregister,
            OpKind::MarkPermanent,
            OpKind::Symlink,
            OpKind::CycleRegister,
        ],
        nul_free_targets: false,
        max_symlink_target: None,
        empty_files: false,
        enoent_after_removal: false,
        part_two: false,
        slow_calls: false,
    };

    /// Every profile.
    pub const ALL: [Profile; 4] = [
        Profile::FULL,
        Profile::POSIX,
        Profile::PSEUDO,
        Profile::PARTIAL,
    ];

    /// The profile called `name`.
    pub fn by_name(name: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name == name)
    }

    /// Whether the generator may make ops of `kind`.
    pub fn supports(&self, kind: OpKind) -> bool {
        !self.unsupported.contains(&kind) && (self.part_two || !PART_TWO.contains(&kind))
    }
}

impl Default for Profile {
    fn default() -> Self {
        Profile::FULL
    }
}
