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

/// Appends `n` in decimal. The dump is taken before every mutating op of a differential run,
/// so it avoids the formatting machinery on its hot path.
fn push_num(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(buf[i..].iter().map(|&b| b as char));
}

pub(super) fn dump(tree: &Tree) -> String {
    // About 80 bytes per line: one allocation instead of a chain of doublings (capped; a
    // bigger dump grows as usual).
    let lines = (tree.allocated as usize).saturating_add(tree.headers.len() + 2);
    let mut out = String::with_capacity(lines.saturating_mul(80).min(1 << 26));
    // Pre-order without recursion: a stack of (slot, length of its parent's path in `path`).
    // Everything visited between pushing a child and popping it lies under the same parent,
    // so truncating `path` to that length gives the parent's path back.
    let mut path = String::new();
    let mut stack = vec![(ROOT_SLOT, 0usize)];
    while let Some((slot, parent_len)) = stack.pop() {
        let st = tree.stat_slot(slot);
        let e = tree.entry(slot);
        path.truncate(parent_len);
        if slot != ROOT_SLOT {
            path.push('/');
            escape_into(&mut path, &e.name);
        }
        out.push_str("entry ");
        out.push_str(if path.is_empty() { "/" } else { &path });
        out.push(' ');
        out.push_str(st.kind.word());
        out.push_str(" ino=");
        push_num(&mut out, st.ino);
        out.push_str(" nlink=");
        push_num(&mut out, st.nlink);
        out.push_str(" size=");
        push_num(&mut out, st.size);
        out.push_str(" owner=");
        match st.owner {
            Owner::Explicit => out.push_str("explicit"),
            Owner::Implicit => out.push_str("implicit"),
            Owner::Header(h) => {
                out.push_str("header:");
                push_num(&mut out, h);
            }
        }
        if let Body::Dir(d) = &e.body {
            out.push_str(" hrefs=");
            push_num(&mut out, d.hrefs);
        }
        out.push_str(if st.permanent {
            " perm=1 open="
        } else {
            " perm=0 open="
        });
        push_num(&mut out, st.open_refs);
        out.push('\n');
        if let Body::Dir(d) = &e.body {
            let mark = stack.len();
            stack.extend(d.children.iter().map(|(_, s)| (s, path.len())));
            stack[mark..].reverse();
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
