//! Sources (SEMANTICS §11), naively: a list of sources in creation order, each a list of
//! items scanned linearly. No rendering is kept: a source has only the facts the dump shows
//! (generation, cache flag, build count) and renders afresh every time it is read.

use pdtree::Errno;

use crate::path::check_name;
use crate::Bytes;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Source {
    pub(crate) name: Bytes,
    /// Items in insertion order.
    pub(crate) items: Vec<Bytes>,
    pub(crate) generation: u64,
    /// Whether a rendering made at this generation would be reused (§11's cache flag).
    pub(crate) cache_valid: bool,
    pub(crate) builds: u64,
}

impl Source {
    pub(crate) fn new(name: &[u8]) -> Source {
        Source {
            name: name.into(),
            items: Vec::new(),
            generation: 0,
            cache_valid: false,
            builds: 0,
        }
    }

    /// Each item, then `\n`, in list order.
    pub(crate) fn render(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for item in &self.items {
            out.extend_from_slice(item);
            out.push(b'\n');
        }
        out
    }
}

/// §11: an item is non-empty, without `\n` or NUL.
fn check_item(item: &[u8]) -> Result<(), Errno> {
    if item.is_empty() || item.iter().any(|&b| b == b'\n' || b == 0) {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// The source named `name` in `list`, by a linear scan.
pub(crate) fn find(list: &[Source], name: &[u8]) -> Option<usize> {
    list.iter().position(|s| *s.name == *name)
}

/// The source named `name`, appended empty if there is none yet.
pub(crate) fn find_or_make(list: &mut Vec<Source>, name: &[u8]) -> usize {
    match find(list, name) {
        Some(i) => i,
        None => {
            list.push(Source::new(name));
            list.len() - 1
        }
    }
}

/// `source_add`, §11: name, item, duplicate, size; then append.
pub(crate) fn add(
    list: &mut Vec<Source>,
    name: &[u8],
    item: &[u8],
    max: usize,
) -> Result<(), Errno> {
    check_name(name)?;
    check_item(item)?;
    let rendered = match find(list, name) {
        Some(i) if list[i].items.iter().any(|x| **x == *item) => return Err(Errno::EEXIST),
        Some(i) => list[i].render().len(),
        None => 0,
    };
    if rendered + item.len() + 1 > max {
        return Err(Errno::EFBIG);
    }
    let i = find_or_make(list, name);
    let s = &mut list[i];
    s.items.push(item.into());
    s.generation += 1;
    s.cache_valid = false;
    Ok(())
}

/// `source_remove`, §11: name, item, then the source and the item must exist.
pub(crate) fn remove(list: &mut [Source], name: &[u8], item: &[u8]) -> Result<(), Errno> {
    check_name(name)?;
    check_item(item)?;
    let i = find(list, name).ok_or(Errno::ENOENT)?;
    let s = &mut list[i];
    let at = s
        .items
        .iter()
        .position(|x| **x == *item)
        .ok_or(Errno::ENOENT)?;
    s.items.remove(at);
    s.generation += 1;
    s.cache_valid = false;
    Ok(())
}
