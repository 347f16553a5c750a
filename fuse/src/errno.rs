//! The tree's errors as the kernel's: one to one, by name.

use pdtree::Errno;

/// The kernel errno with the same name as the tree's error.
pub(crate) fn to_fuse(e: Errno) -> fuser::Errno {
    match e {
        Errno::ENOENT => fuser::Errno::ENOENT,
        Errno::ENOTDIR => fuser::Errno::ENOTDIR,
        Errno::EISDIR => fuser::Errno::EISDIR,
        Errno::EEXIST => fuser::Errno::EEXIST,
        Errno::ENOTEMPTY => fuser::Errno::ENOTEMPTY,
        Errno::EBUSY => fuser::Errno::EBUSY,
        Errno::EINVAL => fuser::Errno::EINVAL,
        Errno::ENAMETOOLONG => fuser::Errno::ENAMETOOLONG,
        Errno::EBADF => fuser::Errno::EBADF,
        Errno::ENOSPC => fuser::Errno::ENOSPC,
        Errno::EFBIG => fuser::Errno::EFBIG,
        Errno::E2BIG => fuser::Errno::E2BIG,
        Errno::EROFS => fuser::Errno::EROFS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_maps_to_the_errno_of_the_same_name() {
        let libc_names = [
            (libc_value("ENOENT"), Errno::ENOENT),
            (libc_value("ENOTDIR"), Errno::ENOTDIR),
            (libc_value("EISDIR"), Errno::EISDIR),
            (libc_value("EEXIST"), Errno::EEXIST),
            (libc_value("ENOTEMPTY"), Errno::ENOTEMPTY),
            (libc_value("EBUSY"), Errno::EBUSY),
            (libc_value("EINVAL"), Errno::EINVAL),
            (libc_value("ENAMETOOLONG"), Errno::ENAMETOOLONG),
            (libc_value("EBADF"), Errno::EBADF),
            (libc_value("ENOSPC"), Errno::ENOSPC),
            (libc_value("EFBIG"), Errno::EFBIG),
            (libc_value("E2BIG"), Errno::E2BIG),
            (libc_value("EROFS"), Errno::EROFS),
        ];
        assert_eq!(libc_names.len(), Errno::ALL.len());
        for (code, e) in libc_names {
            assert_eq!(i32::from(to_fuse(e)), code, "{e}");
        }
    }

    /// Linux's errno values (asm-generic/errno-base.h), written out so the test does not use
    /// the mapping's own source of numbers.
    fn libc_value(name: &str) -> i32 {
        match name {
            "ENOENT" => 2,
            "EBADF" => 9,
            "E2BIG" => 7,
            "EBUSY" => 16,
            "EEXIST" => 17,
            "ENOTDIR" => 20,
            "EISDIR" => 21,
            "EINVAL" => 22,
            "EFBIG" => 27,
            "ENOSPC" => 28,
            "EROFS" => 30,
            "ENAMETOOLONG" => 36,
            "ENOTEMPTY" => 39,
            _ => unreachable!("{name}"),
        }
    }
}
