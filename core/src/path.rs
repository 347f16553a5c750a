//! Name and path syntax (docs/SEMANTICS.md §2). Pure functions: no tree access.

use crate::types::{Errno, MAX_NAME, MAX_PATH};

/// Checks one name: empty → EINVAL, too long → ENAMETOOLONG, `/` or NUL → EINVAL,
/// `.`/`..` → EINVAL, in that order.
pub(crate) fn validate_name(name: &[u8]) -> Result<(), Errno> {
    checked_name(name, true)
}

/// [`validate_name`]; `scan: false` when the caller knows `name` holds no `/` and no NUL.
fn checked_name(name: &[u8], scan: bool) -> Result<(), Errno> {
    if name.is_empty() {
        return Err(Errno::EINVAL);
    }
    if name.len() > MAX_NAME {
        return Err(Errno::ENAMETOOLONG);
    }
    if scan && holds(name, true) {
        return Err(Errno::EINVAL);
    }
    if name == b"." || name == b".." {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// Whether `s` holds a NUL byte (or, with `slash`, a `/`), eight bytes at a time: a name is
/// checked on every lookup and a path on every path operation, and byte-by-byte scans were
/// a fifth of a cached `lookup_at`'s instructions and a third of a cached `stat`'s.
fn holds(s: &[u8], slash: bool) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    const SLASHES: u64 = u64::from_ne_bytes([b'/'; 8]);
    // Exact for "some byte of x is zero" (a borrow can only start at a zero byte, and the
    // lowest zero byte always sets its high bit).
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    let mut words = s.chunks_exact(8);
    for w in &mut words {
        let x = u64::from_ne_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
        if has_zero(x) || (slash && has_zero(x ^ SLASHES)) {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&b| b == 0 || (slash && b == b'/'))
}

/// A syntactically valid path: the bytes after the optional leading `/`, every component
/// already checked. Empty means the root.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Path<'a> {
    rest: &'a [u8],
}

impl<'a> Path<'a> {
    /// Checks the whole path's syntax, left to right; the first bad component decides.
    pub(crate) fn parse(path: &'a [u8]) -> Result<Path<'a>, Errno> {
        if path.len() > MAX_PATH {
            return Err(Errno::ENAMETOOLONG);
        }
        let rest = path.strip_prefix(b"/").unwrap_or(path);
        if rest.is_empty() {
            return Ok(Path { rest });
        }
        if holds(rest, false) {
            // A NUL somewhere: the full check of each component finds which comes first.
            for component in rest.split(|&b| b == b'/') {
                validate_name(component)?;
            }
            return Ok(Path { rest });
        }
        let mut start = 0;
        for (i, &b) in rest.iter().enumerate() {
            if b == b'/' {
                checked_name(&rest[start..i], false)?;
                start = i + 1;
            }
        }
        checked_name(&rest[start..], false)?;
        Ok(Path { rest })
    }

    /// `path` as a path without its syntax checked (`None` only past [`MAX_PATH`]), for a walk
    /// that stands only where it matches every component: each name it matches is a stored
    /// name, which passed [`validate_name`] when it was made, so a walk that reaches the end
    /// walked a path [`Path::parse`] accepts, with the same components. A walk that stops
    /// early proves nothing about the syntax: parse the path then; if it parses, the walk
    /// took its components and the walk's error stands.
    pub(crate) fn unchecked(path: &'a [u8]) -> Option<Path<'a>> {
        (path.len() <= MAX_PATH).then(|| Path {
            rest: path.strip_prefix(b"/").unwrap_or(path),
        })
    }

    /// True for `""` and `"/"`.
    pub(crate) fn is_root(&self) -> bool {
        self.rest.is_empty()
    }

    /// The bytes after the leading `/`: `"a/b"` for `/a/b`, empty for the root.
    pub(crate) fn as_bytes(&self) -> &'a [u8] {
        self.rest
    }

    /// The components, outermost first.
    pub(crate) fn components(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        let rest = self.rest;
        // `split` on an empty slice yields one empty item; the root has no components.
        rest.split(|&b| b == b'/').filter(move |_| !rest.is_empty())
    }

    /// The parent path and the last name, or `None` for the root.
    pub(crate) fn split_last(&self) -> Option<(Path<'a>, &'a [u8])> {
        if self.is_root() {
            return None;
        }
        Some(match self.rest.iter().rposition(|&b| b == b'/') {
            Some(i) => (
                Path {
                    rest: &self.rest[..i],
                },
                &self.rest[i + 1..],
            ),
            None => (Path { rest: b"" }, self.rest),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time scan against byte-by-byte ones, for every position of a `/` or
    /// NUL in names of 1–40 bytes, among bytes that differ from them by one bit.
    #[test]
    fn the_word_scan_finds_exactly_slashes_and_nuls() {
        for len in 1..=40 {
            for fill in [b'a', 0x01, 0x2e, 0x2f ^ 0x80, 0x80, 0xff, 0x7f] {
                let mut name = vec![fill; len];
                assert!(!holds(&name, true) && !holds(&name, false), "{name:?}");
                for at in 0..len {
                    let keep = name[at];
                    name[at] = b'/';
                    assert!(holds(&name, true) && !holds(&name, false), "{name:?}");
                    name[at] = 0;
                    assert!(holds(&name, true) && holds(&name, false), "{name:?}");
                    name[at] = keep;
                }
            }
        }
    }

    /// The fast path (no NUL) and the slow one give the same first error, whichever
    /// component holds which fault.
    #[test]
    fn parse_reports_the_first_faulty_component_on_both_paths() {
        let long = vec![b'x'; 256];
        let faults: [&[u8]; 6] = [b"", b".", b"..", &long, b"a\0b", b"ok"];
        for a in faults {
            for b in faults {
                let path = [b"/d/", a, b"/", b].concat();
                let want = validate_name(a).and_then(|()| validate_name(b));
                assert_eq!(Path::parse(&path).map(|_| ()), want, "{path:?}");
            }
        }
    }

    fn comps(p: &[u8]) -> Result<Vec<Vec<u8>>, Errno> {
        Path::parse(p).map(|p| p.components().map(|c| c.to_vec()).collect())
    }

    #[test]
    fn root_forms() {
        assert_eq!(comps(b""), Ok(vec![]));
        assert_eq!(comps(b"/"), Ok(vec![]));
        assert!(Path::parse(b"/").unwrap().split_last().is_none());
    }

    #[test]
    fn components_and_split() {
        assert_eq!(comps(b"/a/b"), Ok(vec![b"a".to_vec(), b"b".to_vec()]));
        let (parent, last) = Path::parse(b"a/b/c").unwrap().split_last().unwrap();
        assert_eq!(last, b"c");
        assert_eq!(parent.components().count(), 2);
        let (parent, last) = Path::parse(b"/x").unwrap().split_last().unwrap();
        assert!(parent.is_root());
        assert_eq!(last, b"x");
    }

    #[test]
    fn errors_in_order() {
        assert_eq!(comps(b"//"), Err(Errno::EINVAL));
        assert_eq!(comps(b"a//b"), Err(Errno::EINVAL));
        assert_eq!(comps(b"a/"), Err(Errno::EINVAL));
        assert_eq!(comps(b"a/./b"), Err(Errno::EINVAL));
        assert_eq!(comps(b"a/../b"), Err(Errno::EINVAL));
        assert_eq!(comps(b"a/b\0c"), Err(Errno::EINVAL));
        let long = vec![b'x'; 256];
        assert_eq!(comps(&long), Err(Errno::ENAMETOOLONG));
        assert_eq!(comps(&vec![b'x'; 255]).map(|c| c.len()), Ok(1));
        // The first offending component decides.
        let mut p = b"./".to_vec();
        p.extend_from_slice(&long);
        assert_eq!(comps(&p), Err(Errno::EINVAL));
        let mut p = long.clone();
        p.extend_from_slice(b"/.");
        assert_eq!(comps(&p), Err(Errno::ENAMETOOLONG));
        // A long name containing NUL is too long first.
        let mut n = vec![b'y'; 300];
        n[3] = 0;
        assert_eq!(validate_name(&n), Err(Errno::ENAMETOOLONG));
    }

    #[test]
    fn path_length_limit() {
        let mut ok = Vec::new();
        while ok.len() + 2 <= MAX_PATH {
            ok.extend_from_slice(b"/a");
        }
        assert_eq!(ok.len(), MAX_PATH);
        assert!(Path::parse(&ok).is_ok());
        ok.push(b'b');
        assert_eq!(Path::parse(&ok).err(), Some(Errno::ENAMETOOLONG));
    }
}
