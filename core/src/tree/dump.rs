//! The canonical dump (docs/SEMANTICS.md §9).

use std::fmt::Write;

use super::{Body, Tree, ROOT_SLOT};
use crate::types::{Kind, Owner};

/// Appends `bytes` escaped for a dump: `0x21..=0x7e` except `\` as themselves, `\` as `\\`,
/// everything else as `\xHH`.
pub(super) fn escape_into(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'\\' => out.push_str("\\\\"),
            0x21..=0x7e => out.push(b as char),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
}

/// The dump path of a reachable slot, built by walking up to the root.
pub(super) fn path_of(tree: &Tree, slot: u32) -> String {
    let mut names = Vec::new();
    let mut cur = slot;
    while cur != ROOT_SLOT {
        let e = tree.entry(cur);
        names.push(&e.name);
        cur = e.parent;
    }
    if names.is_empty() {
        return "/".to_string();
    }
    let mut out = String::new();
    for name in names.iter().rev() {
        out.push('/');
        escape_into(&mut out, name);
    }
    out
}

pub(super) fn dump(tree: &Tree) -> String {
    let mut out = String::new();
    // Explicit stack of (slot, path): pre-order without recursion.
    let mut stack = vec![(ROOT_SLOT, String::from("/"))];
    while let Some((slot, path)) = stack.pop() {
        let st = tree.stat_slot(slot);
        let e = tree.entry(slot);
        let _ = write!(
            out,
            "entry {path} {} ino={} nlink={} size={} owner={}",
            st.kind.word(),
            st.ino,
            st.nlink,
            st.size,
            st.owner
        );
        if let Body::Dir(d) = &e.body {
            let _ = write!(out, " hrefs={}", d.hrefs);
        }
        let _ = writeln!(
            out,
            " perm={} open={}",
            u8::from(st.permanent),
            st.open_refs
        );
        if let Body::Dir(d) = &e.body {
            let base = if slot == ROOT_SLOT { "" } else { path.as_str() };
            let children: Vec<u32> = d.children.iter().map(|(_, s)| s).collect();
            for &child in children.iter().rev() {
                let mut p = String::with_capacity(base.len() + 16);
                p.push_str(base);
                p.push('/');
                escape_into(&mut p, &tree.entry(child).name);
                stack.push((child, p));
            }
        }
    }
    for (id, h) in &tree.headers {
        let _ = writeln!(
            out,
            "header {id} dir={} rows={}",
            path_of(tree, h.target),
            h.rows.len()
        );
        for &row in &h.rows {
            let e = tree.entry(row);
            debug_assert_eq!(e.owner(), Owner::Header(*id));
            out.push_str(&format!("row {id} "));
            escape_into(&mut out, &e.name);
            let kind = if e.body.kind() == Kind::Dir {
                "dir"
            } else {
                "file"
            };
            let _ = writeln!(out, " {kind}");
        }
    }
    for (id, h) in &tree.handles {
        let e = tree.entry(h.slot);
        let _ = writeln!(
            out,
            "handle {id} ino={} removed={}",
            e.ino,
            u8::from(!e.reachable())
        );
    }
    let _ = writeln!(
        out,
        "next ino={} header={} handle={}",
        tree.next_ino, tree.next_header, tree.next_handle
    );
    let s = crate::PseudoFs::stats(tree);
    let _ = writeln!(
        out,
        "stats live={} allocated={} headers={} handles={}",
        s.live, s.allocated, s.headers, s.handles
    );
    out
}

#[cfg(test)]
mod tests {
    use super::escape_into;

    #[test]
    fn escaping() {
        let mut s = String::new();
        escape_into(&mut s, b"a b\\c\x00\xff~!");
        assert_eq!(s, "a\\x20b\\\\c\\x00\\xff~!");
    }
}
