//! Name and path syntax (SEMANTICS §2) and dump escaping (SEMANTICS §9), written from scratch.
//!
//! Nothing here looks at a tree: these are pure functions over bytes.

use std::fmt::Write;

use pdtree::{Errno, MAX_NAME, MAX_PATH};

/// Checks one name, in the order SEMANTICS §2 fixes:
/// empty → `EINVAL`; over 255 bytes → `ENAMETOOLONG`; contains `/` or NUL → `EINVAL`;
/// `.` or `..` → `EINVAL`.
pub(crate) fn check_name(name: &[u8]) -> Result<(), Errno> {
    if name.is_empty() {
        return Err(Errno::EINVAL);
    }
    if name.len() > MAX_NAME {
        return Err(Errno::ENAMETOOLONG);
    }
    if name.iter().any(|&b| b == b'/' || b == 0) {
        return Err(Errno::EINVAL);
    }
    if name == b"." || name == b".." {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// Splits a path into its components, checking the whole syntax first (SEMANTICS §2):
/// over 4096 bytes → `ENAMETOOLONG` before anything else; one leading `/` is dropped; the
/// empty path and `/` are the root (no components); every component, left to right, must be
/// a valid name, so an empty component (`a//b`, `a/`, `//`) is `EINVAL`.
pub(crate) fn split_path(path: &[u8]) -> Result<Vec<&[u8]>, Errno> {
    if path.len() > MAX_PATH {
        return Err(Errno::ENAMETOOLONG);
    }
    let rest = path.strip_prefix(b"/").unwrap_or(path);
    if rest.is_empty() {
        return Ok(Vec::new());
    }
    let mut components = Vec::new();
    for component in rest.split(|&b| b == b'/') {
        check_name(component)?;
        components.push(component);
    }
    Ok(components)
}

/// Escapes a name for the dump (SEMANTICS §9): bytes `0x21..=0x7e` other than `\` as
/// themselves, `\` as `\\`, every other byte as `\xHH` (lowercase hex).
pub(crate) fn escape(name: &[u8]) -> String {
    let mut out = String::new();
    for &b in name {
        if b == b'\\' {
            out.push_str("\\\\");
        } else if (0x21..=0x7e).contains(&b) {
            out.push(char::from(b));
        } else {
            // Writing to a `String` cannot fail.
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_check_order() {
        assert_eq!(check_name(b""), Err(Errno::EINVAL));
        assert_eq!(check_name(&[b'a'; 255]), Ok(()));
        assert_eq!(check_name(&[b'a'; 256]), Err(Errno::ENAMETOOLONG));
        // Too long wins over a NUL or a slash inside.
        let mut long = vec![b'a'; 300];
        long[7] = 0;
        long[9] = b'/';
        assert_eq!(check_name(&long), Err(Errno::ENAMETOOLONG));
        assert_eq!(check_name(b"a/b"), Err(Errno::EINVAL));
        assert_eq!(check_name(b"a\0b"), Err(Errno::EINVAL));
        assert_eq!(check_name(b"."), Err(Errno::EINVAL));
        assert_eq!(check_name(b".."), Err(Errno::EINVAL));
        assert_eq!(check_name(b"..."), Ok(()));
        assert_eq!(check_name(b"\xff\xfe sp"), Ok(()));
    }

    #[test]
    fn path_split() {
        assert_eq!(split_path(b""), Ok(vec![]));
        assert_eq!(split_path(b"/"), Ok(vec![]));
        assert_eq!(split_path(b"a"), Ok(vec![&b"a"[..]]));
        assert_eq!(split_path(b"/a/b"), Ok(vec![&b"a"[..], &b"b"[..]]));
        assert_eq!(split_path(b"//"), Err(Errno::EINVAL));
        assert_eq!(split_path(b"//a"), Err(Errno::EINVAL));
        assert_eq!(split_path(b"a//b"), Err(Errno::EINVAL));
        assert_eq!(split_path(b"a/"), Err(Errno::EINVAL));
        assert_eq!(split_path(b"a/./b"), Err(Errno::EINVAL));
        assert_eq!(split_path(b"a/../b"), Err(Errno::EINVAL));
        // The first bad component decides.
        let mut p = b"a/../".to_vec();
        p.extend_from_slice(&[b'x'; 256]);
        assert_eq!(split_path(&p), Err(Errno::EINVAL));
        let mut p = vec![b'x'; 256];
        p.extend_from_slice(b"/..");
        assert_eq!(split_path(&p), Err(Errno::ENAMETOOLONG));
        // Length is checked before syntax.
        let p = vec![b'/'; 4097];
        assert_eq!(split_path(&p), Err(Errno::ENAMETOOLONG));
        let mut p = b"a".to_vec();
        while p.len() < 4096 {
            p.extend_from_slice(b"/a");
        }
        p.truncate(4095);
        assert!(split_path(&p).is_ok());
        p.push(b'b');
        assert_eq!(p.len(), 4096);
        assert!(split_path(&p).is_ok());
        p.push(b'b');
        assert_eq!(split_path(&p), Err(Errno::ENAMETOOLONG));
    }

    #[test]
    fn escaping() {
        assert_eq!(escape(b"abc~!"), "abc~!");
        assert_eq!(escape(b"a b"), "a\\x20b");
        assert_eq!(escape(b"a\\b"), "a\\\\b");
        assert_eq!(escape(b"\t\n\x7f\x80\xff"), "\\x09\\x0a\\x7f\\x80\\xff");
    }
}
