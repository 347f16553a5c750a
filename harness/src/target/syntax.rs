//! What every target adapter needs alike: the tree's path syntax (checked by the adapter
//! itself, so the target never sees what the tree refuses) and the canonical dump's lines
//! (SEMANTICS §9), so a walk of a target prints byte for byte what the oracle prints for the
//! same state.

use std::fmt::Write as _;

use pdtree::{Errno, Kind, Stat, MAX_NAME, MAX_PATH};

/// The tree's syntax for one name (SEMANTICS §2), in its order.
pub(crate) fn check_name(name: &[u8]) -> Result<(), Errno> {
    if name.is_empty() {
        return Err(Errno::EINVAL);
    }
    if name.len() > MAX_NAME {
        return Err(Errno::ENAMETOOLONG);
    }
    if name.contains(&0) || name.contains(&b'/') || name == b"." || name == b".." {
        return Err(Errno::EINVAL);
    }
    Ok(())
}

/// The components of a path in the tree's syntax (empty: the root).
pub(crate) fn components(path: &[u8]) -> Result<Vec<&[u8]>, Errno> {
    if path.len() > MAX_PATH {
        return Err(Errno::ENAMETOOLONG);
    }
    let rest = path.strip_prefix(b"/").unwrap_or(path);
    if rest.is_empty() {
        return Ok(Vec::new());
    }
    let comps: Vec<&[u8]> = rest.split(|&b| b == b'/').collect();
    for c in &comps {
        check_name(c)?;
    }
    Ok(comps)
}

/// The dump's escaping of a name (SEMANTICS §9).
pub(crate) fn escape(name: &[u8]) -> String {
    let mut out = String::new();
    for &b in name {
        match b {
            b'\\' => out.push_str("\\\\"),
            0x21..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\x{b:02x}");
            }
        }
    }
    out
}

/// The dump's `entry` line of the entry at `components` (empty: the root) with stat `st`.
pub(crate) fn entry_line(out: &mut String, components: &[&[u8]], st: &Stat) {
    let shown: String = if components.is_empty() {
        "/".to_string()
    } else {
        components
            .iter()
            .map(|c| format!("/{}", escape(c)))
            .collect()
    };
    let _ = write!(
        out,
        "entry {shown} {} ino={} nlink={} size={} mode={:04o} uid={} gid={} owner=explicit",
        st.kind.word(),
        st.ino,
        st.nlink,
        st.size,
        st.mode,
        st.uid,
        st.gid
    );
    if st.kind == Kind::Dir {
        out.push_str(" hrefs=0");
    }
    let _ = writeln!(
        out,
        " perm={} open={}",
        u8::from(st.permanent),
        st.open_refs
    );
}

/// What the dump shows of one handle's reads (SPEC §11). A target read only as a whole file
/// (`read`) leaves the position at the end and the bytes that read returned as the snapshot.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reads {
    pos: u64,
    snap: Option<Vec<u8>>,
}

impl Reads {
    /// After a whole-file read that returned `bytes`.
    pub(crate) fn whole(&mut self, bytes: &[u8]) {
        self.pos = bytes.len() as u64;
        self.snap = Some(bytes.to_vec());
    }

    /// ` pos=<n> snap=<-|len:fnv>`, FNV-1a 64 as SPEC §14 defines it.
    fn fields(&self) -> String {
        match &self.snap {
            None => format!(" pos={} snap=-", self.pos),
            Some(b) => {
                let fnv = b.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &x| {
                    (h ^ u64::from(x)).wrapping_mul(0x0100_0000_01b3)
                });
                format!(" pos={} snap={}:{fnv:016x}", self.pos, b.len())
            }
        }
    }
}

/// The dump's lines after the entries, for a target with no tables or sources: its handles
/// (id, inode, removed, reads), namespace 0, the next numbers, and the counters.
pub(crate) fn tail_lines<'r>(
    out: &mut String,
    handles: impl Iterator<Item = (u64, u64, bool, &'r Reads)>,
    next_ino: u64,
    next_handle: u64,
    stats: &pdtree::Stats,
) {
    for (id, ino, removed, reads) in handles {
        let r = reads.fields();
        let _ = writeln!(
            out,
            "handle {id} ino={ino} removed={}{r}",
            u8::from(removed)
        );
    }
    out.push_str("ns 0 uid=0 gid=0\n");
    let _ = writeln!(
        out,
        "next ino={next_ino} header=1 handle={next_handle} ns=1"
    );
    let _ = writeln!(
        out,
        "stats live={} allocated={} headers=0 handles={}",
        stats.live, stats.allocated, stats.handles
    );
}

/// A target without namespaces has view 0 alone: any other view is not live (`ENOENT`,
/// SPEC §10, after the op's argument checks).
pub(crate) fn only_view_0(view: pdtree::View) -> Result<(), Errno> {
    if view == 0 {
        Ok(())
    } else {
        Err(Errno::ENOENT)
    }
}
