//! The canonical dump (docs/SEMANTICS.md §9).

use super::{Body, Tree, ROOT_SLOT};
use crate::types::Owner;

/// Appends `bytes` escaped for a dump: `0x21..=0x7e` except `\` as themselves, `\` as `\\`,
/// everything else as `\xHH`. Runs of bytes that stand for themselves are copied whole rather
/// than pushed one by one: in the fuzz build every push is instrumented, and the harness
/// dumps after every failed op.
pub(super) fn escape_into(out: &mut Vec<u8>, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if b != b'\\' && (0x21..=0x7e).contains(&b) {
            continue;
        }
        out.extend_from_slice(&bytes[run..i]);
        run = i + 1;
        if b == b'\\' {
            out.extend_from_slice(b"\\\\");
        } else {
            out.extend_from_slice(&[
                b'\\',
                b'x',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ]);
        }
    }
    out.extend_from_slice(&bytes[run..]);
}

/// The dump path of a reachable slot, built by walking up to the root.
pub(super) fn path_of(tree: &Tree, slot: u32) -> String {
    let mut out = Vec::new();
    push_path(&mut out, tree, slot);
    into_string(out)
}

/// Appends the dump path of a reachable slot.
fn push_path(out: &mut Vec<u8>, tree: &Tree, slot: u32) {
    let mut names = Vec::new();
    let mut cur = slot;
    while cur != ROOT_SLOT {
        let e = tree.entry(cur);
        names.push(&e.name);
        cur = e.parent;
    }
    if names.is_empty() {
        out.push(b'/');
    }
    for name in names.iter().rev() {
        out.push(b'/');
        escape_into(out, name);
    }
}

/// A finished dump or path as a `String`. Everything written is ASCII: escaped names and the
/// fixed words of the format.
fn into_string(out: Vec<u8>) -> String {
    String::from_utf8(out).expect("a dump is ASCII")
}

/// Appends `n` in decimal, without the formatting machinery (the dump's hot path).
fn push_num(out: &mut Vec<u8>, mut n: u64) {
    if n < 10 {
        // Most numbers of a dump line (nlink, open, hrefs, small sizes) are one digit.
        out.push(b'0' + n as u8);
        return;
    }
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
    out.extend_from_slice(&buf[i..]);
}

pub(super) fn dump(tree: &Tree) -> String {
    // About 128 bytes per line: one allocation instead of a chain of doublings (capped; a
    // bigger dump grows as usual). Built as bytes (see `escape_into`), checked ASCII once.
    let lines = (tree.allocated as usize).saturating_add(tree.headers.len() + 3);
    let mut out: Vec<u8> = Vec::with_capacity(lines.saturating_mul(128).min(1 << 26));
    push_entries(&mut out, tree);
    push_headers(&mut out, tree);
    push_handles(&mut out, tree);
    push_namespaces(&mut out, tree);
    push_sources(&mut out, tree);
    push_counters(&mut out, tree);
    into_string(out)
}

/// One `entry` line per reachable entry, in pre-order, children by inode.
fn push_entries(out: &mut Vec<u8>, tree: &Tree) {
    // Pre-order without recursion: a stack of (slot, where its parent's path starts in `out`,
    // its length). A path is its parent's, already written on the parent's line, plus one
    // escaped name, so no path is built anywhere else. The stack is sized up front (it never
    // holds more than the reachable entries): the harness dumps after every failed op.
    let mut stack = Vec::with_capacity(tree.live as usize);
    stack.push((ROOT_SLOT, 0usize, 0usize));
    while let Some((slot, parent_at, parent_len)) = stack.pop() {
        let e = tree.entry(slot);
        out.extend_from_slice(b"entry ");
        // The root's children see an empty parent path, not "/".
        let (at, len) = if slot == ROOT_SLOT {
            out.push(b'/');
            (0, 0)
        } else {
            let at = out.len();
            out.extend_from_within(parent_at..parent_at + parent_len);
            out.push(b'/');
            escape_into(out, &e.name);
            (at, out.len() - at)
        };
        push_entry_fields(out, tree, slot);
        if let Body::Dir(d) = &e.body {
            let mark = stack.len();
            if d.tagged.is_empty() {
                stack.extend(d.children.iter().map(|(_, s)| (s, at, len)));
            } else {
                stack.extend(
                    d.all_children_sorted()
                        .into_iter()
                        .map(|(_, s)| (s, at, len)),
                );
            }
            stack[mark..].reverse();
        }
    }
}

/// The rest of an `entry` line after the path: ` dir ino=… nlink=… … open=…\n`.
fn push_entry_fields(out: &mut Vec<u8>, tree: &Tree, slot: u32) {
    let st = tree.stat_slot(slot, None);
    out.push(b' ');
    out.extend_from_slice(st.kind.word().as_bytes());
    if let Some(k) = st.ns {
        out.extend_from_slice(b" ns=");
        push_num(out, k);
    }
    for (word, n) in [
        (&b" ino="[..], st.ino),
        (b" nlink=", st.nlink),
        (b" size=", st.size),
    ] {
        out.extend_from_slice(word);
        push_num(out, n);
    }
    out.extend_from_slice(b" mode=");
    push_mode(out, st.mode);
    if (st.uid, st.gid) == (0, 0) {
        out.extend_from_slice(b" uid=0 gid=0");
    } else {
        for (word, n) in [(&b" uid="[..], st.uid), (b" gid=", st.gid)] {
            out.extend_from_slice(word);
            push_num(out, u64::from(n));
        }
    }
    out.extend_from_slice(b" owner=");
    match st.owner {
        Owner::Explicit => out.extend_from_slice(b"explicit"),
        Owner::Implicit => out.extend_from_slice(b"implicit"),
        Owner::Header(h) => {
            out.extend_from_slice(b"header:");
            push_num(out, h);
        }
    }
    if let Body::Dir(d) = &tree.entry(slot).body {
        out.extend_from_slice(b" hrefs=");
        push_num(out, d.hrefs);
    }
    out.extend_from_slice(if st.permanent {
        b" perm=1 open="
    } else {
        b" perm=0 open="
    });
    push_num(out, st.open_refs);
    out.push(b'\n');
}

/// One `header` line per live header, each followed by its `row` lines.
fn push_headers(out: &mut Vec<u8>, tree: &Tree) {
    for (&id, h) in &tree.headers {
        out.extend_from_slice(b"header ");
        push_num(out, id);
        if let Some(k) = h.ns {
            out.extend_from_slice(b" ns=");
            push_num(out, k);
        }
        out.extend_from_slice(b" dir=");
        push_path(out, tree, h.target);
        out.extend_from_slice(b" rows=");
        push_num(out, h.rows.len() as u64);
        out.push(b'\n');
        for &row in &h.rows {
            let e = tree.entry(row);
            debug_assert_eq!(e.owner(), Owner::Header(id));
            out.extend_from_slice(b"row ");
            push_num(out, id);
            out.push(b' ');
            escape_into(out, &e.name);
            match &e.body {
                Body::Dir(_) => out.extend_from_slice(b" dir\n"),
                Body::Generated(src) => {
                    out.extend_from_slice(b" generated:");
                    escape_into(out, &tree.sources.source(*src).name);
                    out.push(b'\n');
                }
                _ => out.extend_from_slice(b" file\n"),
            }
        }
    }
}

/// One `handle` line per open handle.
fn push_handles(out: &mut Vec<u8>, tree: &Tree) {
    for (id, h) in tree.handles.all() {
        let e = tree.entry(h.slot);
        out.extend_from_slice(b"handle ");
        push_num(out, id);
        out.extend_from_slice(b" ino=");
        push_num(out, e.ino);
        out.extend_from_slice(if e.reachable() {
            b" removed=0 pos="
        } else {
            b" removed=1 pos="
        });
        push_num(out, h.pos);
        out.extend_from_slice(b" snap=");
        match &h.snapshot {
            None => out.push(b'-'),
            Some(snap) => {
                push_num(out, snap.len() as u64);
                out.push(b':');
                out.extend_from_slice(format!("{:016x}", fnv1a(snap)).as_bytes());
            }
        }
        out.push(b'\n');
    }
}

/// FNV-1a 64 (SPEC §14): how the dump shows a snapshot too big to print.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Four octal digits.
fn push_mode(out: &mut Vec<u8>, mode: u32) {
    for shift in [9, 6, 3, 0] {
        out.push(b'0' + ((mode >> shift) & 7) as u8);
    }
}

/// One `ns` line per live namespace, ascending (0 first).
fn push_namespaces(out: &mut Vec<u8>, tree: &Tree) {
    for (&k, n) in &tree.namespaces {
        for (word, v) in [
            (&b"ns "[..], k),
            (b" uid=", u64::from(n.uid)),
            (b" gid=", u64::from(n.gid)),
        ] {
            out.extend_from_slice(word);
            push_num(out, v);
        }
        out.push(b'\n');
    }
}

/// One `source` line per source, by name, each followed by its `item` lines in order.
fn push_sources(out: &mut Vec<u8>, tree: &Tree) {
    for s in tree.sources.by_name() {
        out.extend_from_slice(b"source ");
        escape_into(out, &s.name);
        for (word, n) in [
            (&b" gen="[..], s.generation),
            (b" items=", s.items.len() as u64),
            (b" cache=", u64::from(s.cache.is_some())),
            (b" builds=", s.builds),
        ] {
            out.extend_from_slice(word);
            push_num(out, n);
        }
        out.push(b'\n');
        for item in &s.items {
            out.extend_from_slice(b"item ");
            escape_into(out, &s.name);
            out.push(b' ');
            escape_into(out, &item.bytes);
            out.push(b'\n');
        }
    }
}

/// The `next` and `stats` lines.
fn push_counters(out: &mut Vec<u8>, tree: &Tree) {
    let s = crate::PseudoFs::stats(tree);
    let next_handle = tree.handles.next();
    for (word, n) in [
        (&b"next ino="[..], tree.next_ino),
        (b" header=", tree.next_header),
        (b" handle=", next_handle),
        (b" ns=", tree.next_ns),
        (b"\nstats live=", s.live),
        (b" allocated=", s.allocated),
        (b" headers=", s.headers),
        (b" handles=", s.handles),
    ] {
        out.extend_from_slice(word);
        push_num(out, n);
    }
    out.push(b'\n');
}

#[cfg(test)]
mod tests {
    use super::escape_into;

    #[test]
    fn fnv_of_the_spec_cases() {
        // SPEC C11.4: "x\n" is 2:08f0de07b58d2b17.
        assert_eq!(format!("{:016x}", super::fnv1a(b"x\n")), "08f0de07b58d2b17");
        let mut m = Vec::new();
        super::push_mode(&mut m, 0o644);
        assert_eq!(m, b"0644");
    }

    #[test]
    fn escaping() {
        let mut s = Vec::new();
        escape_into(&mut s, b"a b\\c\x00\xff~!");
        assert_eq!(s, b"a\\x20b\\\\c\\x00\\xff~!");
        // Escapes at both ends, and nothing to escape.
        s.clear();
        escape_into(&mut s, b"\\ok\t");
        assert_eq!(s, b"\\\\ok\\x09");
        s.clear();
        escape_into(&mut s, b"plain");
        assert_eq!(s, b"plain");
    }
}
