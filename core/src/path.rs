//! Name and path syntax (docs/SEMANTICS.md §2). Pure functions: no tree access.

use crate::types::{Errno, MAX_NAME, MAX_PATH};

/// Checks one name: empty → EINVAL, too long → ENAMETOOLONG, `/` or NUL → EINVAL,
/// `.`/`..` → EINVAL, in that order.
pub(crate) fn validate_name(name: &[u8]) -> Result<(), Errno> {
    if name.is_empty() {
        return Err(Errno::EINVAL);
    }
    if name.len() > MAX_NAME {
        return Err(Errno::ENAMETOOLONG);
    }
    // memchr-style scans; names are short, two passes are cheaper than a branchy loop.
    if name.contains(&b'/') || name.contains(&0) {
        return Err(Errno::EINVAL);
    }
    if name == b"." || name == b".." {
        return Err(Errno::EINVAL);
    }
    Ok(())
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
        if !rest.is_empty() {
            for component in rest.split(|&b| b == b'/') {
                validate_name(component)?;
            }
        }
        Ok(Path { rest })
    }

    /// True for `""` and `"/"`.
    pub(crate) fn is_root(&self) -> bool {
        self.rest.is_empty()
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
