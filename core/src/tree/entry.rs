//! One arena entry, packed to 56 bytes (the memory goal is ≤ 96 bytes per entry at 10^6
//! entries, two hash indexes and the parent's children list included).
//!
//! - the name is stored inline when it is at most [`INLINE_NAME`] bytes (no allocation);
//! - owner and the permanent flag share one word ([`OwnerWord`]);
//! - "removed but still open" is the parent field set to [`UNLINKED`];
//! - file content and symlink targets are a thin pointer, `None` for empty content, so an
//!   empty file allocates nothing;
//! - only directories carry a [`Dir`] (boxed).

use std::ops::Deref;
use std::sync::Arc;

use super::source::SourceId;
use super::{ArenaIndex, Dir};
use crate::types::{HeaderId, Kind, Owner};

/// `parent` of an entry that was removed while held open: it is in no index and no directory.
pub(super) const UNLINKED: ArenaIndex = ArenaIndex::MAX;

/// Names up to this many bytes live inside the entry.
pub(super) const INLINE_NAME: usize = 14;

#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub(super) ino: u64,
    pub(super) owner: OwnerWord,
    /// Parent directory's slot; the root's is itself; [`UNLINKED`] once removed.
    pub(super) parent: ArenaIndex,
    /// References taken by open handles (handles on a permanent entry take none). A `u32`:
    /// 2^32 open handles cannot fit in memory (each is a map entry), and `open` refuses the
    /// one that would overflow with `ENOSPC` rather than wrapping.
    pub(super) open_refs: u32,
    pub(super) name: Name,
    pub(super) body: Body,
}

impl Entry {
    pub(super) fn new(
        ino: u64,
        parent: ArenaIndex,
        name: &[u8],
        owner: Owner,
        body: Body,
    ) -> Entry {
        Entry {
            ino,
            owner: OwnerWord::new(owner, false),
            parent,
            open_refs: 0,
            name: Name::new(name),
            body,
        }
    }

    /// False once removed while still held open.
    pub(super) fn reachable(&self) -> bool {
        self.parent != UNLINKED
    }

    pub(super) fn owner(&self) -> Owner {
        self.owner.owner()
    }

    pub(super) fn permanent(&self) -> bool {
        self.owner.permanent()
    }
}

/// Owner and permanent flag in one word: `0` explicit, `u64::MAX - 1` explicit and
/// permanent, `u64::MAX` implicit, anything else `header:H`. So header ids stop below
/// [`HEADER_ID_LIMIT`] (`register` says `ENOSPC` there, 2^64 − 3 registrations in).
/// Only explicit entries can be permanent (`mark_permanent` refuses the others, and an owner
/// only ever changes from implicit to explicit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct OwnerWord(u64);

const EXPLICIT: u64 = 0;
const EXPLICIT_PERMANENT: u64 = u64::MAX - 1;
const IMPLICIT: u64 = u64::MAX;

/// Header ids must be below this.
pub(super) const HEADER_ID_LIMIT: HeaderId = EXPLICIT_PERMANENT;

impl OwnerWord {
    pub(super) fn new(owner: Owner, permanent: bool) -> OwnerWord {
        OwnerWord(match owner {
            Owner::Explicit if permanent => EXPLICIT_PERMANENT,
            Owner::Explicit => EXPLICIT,
            Owner::Implicit => IMPLICIT,
            Owner::Header(h) => {
                debug_assert!(h != EXPLICIT && h < HEADER_ID_LIMIT);
                h
            }
        })
    }

    pub(super) fn owner(self) -> Owner {
        match self.0 {
            EXPLICIT | EXPLICIT_PERMANENT => Owner::Explicit,
            IMPLICIT => Owner::Implicit,
            h => Owner::Header(h),
        }
    }

    pub(super) fn permanent(self) -> bool {
        self.0 == EXPLICIT_PERMANENT
    }
}

/// A name: inline up to [`INLINE_NAME`] bytes, else one heap allocation behind a thin pointer.
#[derive(Clone, Debug)]
pub(super) enum Name {
    Inline { len: u8, bytes: [u8; INLINE_NAME] },
    Heap(Box<Box<[u8]>>),
}

impl Name {
    pub(super) fn new(name: &[u8]) -> Name {
        if name.len() <= INLINE_NAME {
            let mut bytes = [0; INLINE_NAME];
            bytes[..name.len()].copy_from_slice(name);
            Name::Inline {
                len: name.len() as u8,
                bytes,
            }
        } else {
            Name::Heap(Box::new(Box::from(name)))
        }
    }
}

impl Deref for Name {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            Name::Inline { len, bytes } => &bytes[..usize::from(*len).min(INLINE_NAME)],
            Name::Heap(b) => b,
        }
    }
}

impl Name {
    /// Whether the name is `other`. Names are compared on every lookup, and slice equality
    /// calls `memcmp`, which costs several times the comparison itself for names this short:
    /// 1–16 bytes are compared as bytes or two overlapping words instead.
    #[inline]
    pub(super) fn is(&self, other: &[u8]) -> bool {
        let mine: &[u8] = self;
        let n = mine.len();
        if n != other.len() {
            return false;
        }
        match n {
            8..=16 => {
                word::<8>(mine, 0) == word::<8>(other, 0)
                    && word::<8>(mine, n - 8) == word::<8>(other, n - 8)
            }
            4..=7 => {
                word::<4>(mine, 0) == word::<4>(other, 0)
                    && word::<4>(mine, n - 4) == word::<4>(other, n - 4)
            }
            // The first, middle and last bytes are every byte of a 1–3 byte name.
            1..=3 => {
                mine[0] == other[0] && mine[n / 2] == other[n / 2] && mine[n - 1] == other[n - 1]
            }
            _ => mine == other,
        }
    }
}

/// `N` bytes of `s` from `at` (in bounds: the callers checked the length).
#[inline]
fn word<const N: usize>(s: &[u8], at: usize) -> [u8; N] {
    let mut w = [0; N];
    w.copy_from_slice(&s[at..at + N]);
    w
}

/// File content or symlink target: `None` when empty (no allocation), else a thin pointer to
/// a shared buffer (so `read_shared` hands it out without copying).
pub(super) type Content = Option<Box<Arc<[u8]>>>;

pub(super) fn content(bytes: &[u8]) -> Content {
    (!bytes.is_empty()).then(|| Box::new(Arc::from(bytes)))
}

pub(super) fn content_len(c: &Content) -> usize {
    c.as_ref().map_or(0, |a| a.len())
}

pub(super) fn content_shared(c: &Content) -> Arc<[u8]> {
    match c {
        Some(a) => Arc::clone(a),
        None => Arc::from(&[][..]),
    }
}

#[derive(Clone, Debug)]
pub(super) enum Body {
    Dir(Box<Dir>),
    File(Content),
    Symlink(Content),
    Listing,
    Generated(SourceId),
}

impl Body {
    pub(super) fn kind(&self) -> Kind {
        match self {
            Body::Dir(_) => Kind::Dir,
            Body::File(_) => Kind::File,
            Body::Symlink(_) => Kind::Symlink,
            Body::Listing => Kind::Listing,
            Body::Generated(_) => Kind::Generated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Name>(), 16);
        assert_eq!(std::mem::size_of::<Body>(), 16);
        assert_eq!(std::mem::size_of::<Entry>(), 56);
        assert_eq!(std::mem::size_of::<Option<Entry>>(), 56);
    }

    #[test]
    fn names_round_trip() {
        for len in [1, 13, 14, 15, 255] {
            let n: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            assert_eq!(&*Name::new(&n), &n[..]);
        }
    }

    /// `Name::is` against slice equality, for every length 1–40 and a difference at every
    /// position (the two overlapping words must both be compared).
    #[test]
    fn name_is_exactly_slice_equality() {
        for len in 1..=40usize {
            let n: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
            let name = Name::new(&n);
            assert!(name.is(&n));
            assert!(!name.is(&n[..len - 1]));
            for at in 0..len {
                let mut other = n.clone();
                other[at] ^= 0x20;
                assert!(!name.is(&other), "len {len}, differs at {at}");
            }
        }
    }

    #[test]
    fn owner_word_round_trip() {
        for (o, p) in [
            (Owner::Explicit, false),
            (Owner::Explicit, true),
            (Owner::Implicit, false),
            (Owner::Header(1), false),
            (Owner::Header(HEADER_ID_LIMIT - 1), false),
        ] {
            let w = OwnerWord::new(o, p);
            assert_eq!((w.owner(), w.permanent()), (o, p));
        }
    }
}
