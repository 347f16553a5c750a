//! Every directory's `stat`, asked through the public API on both sides and compared, at the
//! end of an input (after the dumps agreed).
//!
//! The canonical dumps compare the two states, but core's dump is printed from its own
//! fields, so a `stat` that misreports a directory's derived values (its size, its link
//! count) while the fields are right shows only when some op asks. After a 2^16-file `bulk`
//! no op may ask before the input ends; this asks, for every directory, once.
//!
//! The directories come from the reference's dump (its `entry … dir` lines), not from
//! readdir: the reference finds a page's start by a linear scan, so listing a directory of N
//! children in pages of P costs it N²/P, about 2·10^9 steps for 2^16 children in the
//! one-entry pages the minimizer's lowered limits allow; and a readdir of A would move the
//! state a planted readdir bug keeps. Each is asked as `lookup_at_in` of its name in its
//! parent, whose inode the parent's own line gave (the root as `stat_in` of `/`): one step
//! from a known directory, where a `stat` of its path would walk from the root (on the
//! reference, the directories of one parent in one `lookups_in`). Files are
//! left out: their `stat` fields are stored, not derived, and the reference finds each by
//! scanning its parent's list, 10^10 steps over 10^5 files.

use rustc_hash::FxHashMap;

use pdtree::{Ino, PseudoFs, View};

use crate::check::divergence::{DivergenceKind, Failure, Side};
use crate::check::panic::{catch, Caught};
use crate::lang::runner::Outcome;

/// A directory named by a dump line: its path, the view it is visible in (its namespace
/// for a tagged one, else view 0) and, but for the root, its parent's inode.
#[derive(Debug, PartialEq, Eq)]
struct DumpedDir {
    path: Vec<u8>,
    view: View,
    /// The parent directory's inode, from the parent's own line; `None` for the root.
    parent: Option<Ino>,
}

impl DumpedDir {
    /// The last component of the path (empty for the root).
    fn name(&self) -> &[u8] {
        last_name(&self.path)
    }
}

/// The last component of `path` (empty for the root): the name a directory is looked up by
/// in its parent, here and in the report of a divergence.
pub(crate) fn last_name(path: &[u8]) -> &[u8] {
    let cut = path.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    &path[cut..]
}

/// The directories of a canonical dump (SEMANTICS §9: `entry PATH dir [ns=K] ino=…`,
/// a parent's line before its children's). A tagged directory is asked in its namespace's
/// view, and so is every untagged one below it, which no other view reaches.
fn directories(dump: &str) -> Vec<DumpedDir> {
    let mut found = Vec::new();
    // Each directory's view and inode, by its escaped path. Fx, not SipHash: down a chain
    // 2,000 deep the paths hashed add up to megabytes (`pdtree replay` of one 2,000-level
    // `chain`: 0.11 s with SipHash, 0.08 s with Fx).
    let mut seen: FxHashMap<&str, (View, Option<Ino>)> = FxHashMap::default();
    for line in dump.lines() {
        let mut words = line.split(' ');
        let (Some("entry"), Some(path), Some("dir")) = (words.next(), words.next(), words.next())
        else {
            continue;
        };
        let mut word = words.next();
        let tag = word
            .and_then(|w| w.strip_prefix("ns="))
            .and_then(|k| k.parse().ok());
        if tag.is_some() {
            word = words.next();
        }
        let ino = word
            .and_then(|w| w.strip_prefix("ino="))
            .and_then(|n| n.parse().ok());
        let parent = (path != "/").then(|| path.rfind('/').map_or("", |cut| &path[..cut.max(1)]));
        let (parent_view, parent_ino) = parent
            .and_then(|p| seen.get(p).copied())
            .unwrap_or((0, None));
        let view = tag.unwrap_or(parent_view);
        seen.insert(path, (view, ino));
        found.push(DumpedDir {
            path: unescape(path),
            view,
            parent: parent_ino,
        });
    }
    found
}

/// A dump's path back to bytes: `\\` is `\`, `\xHH` the byte HH, the rest as it stands.
fn unescape(escaped: &str) -> Vec<u8> {
    let b = escaped.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        // Looked for only after `\x`: most bytes are plain, and a path 2,000 levels deep
        // is thousands of them.
        let hex = (b[i] == b'\\' && b.get(i + 1) == Some(&b'x'))
            .then(|| b.get(i + 2..i + 4))
            .flatten()
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], b.get(i + 1), hex) {
            (b'\\', Some(b'\\'), _) => {
                out.push(b'\\');
                i += 2;
            }
            (b'\\', Some(b'x'), Some(byte)) => {
                out.push(byte);
                i += 4;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// One directory's `stat` on A, as the op's outcome: `lookup_at_in` of its name in its
/// parent when the dump gave the parent's inode (it gives every one but the root's), else
/// `stat_in` of its path. Over a 2,000-deep chain, a walk from the root for each directory
/// was 2·10^6 name comparisons, and the reference splits every path into owned components
/// first.
fn stat_of<T: PseudoFs>(t: &T, side: Side, d: &DumpedDir) -> Result<Outcome, Failure> {
    let answer = catch(|| match d.parent {
        Some(parent) => t.lookup_at_in(d.view, parent, d.name()),
        None => t.stat_in(d.view, &d.path),
    })
    .map_err(|c| Failure::panic(side, c))?;
    Ok(answer.map_or_else(Outcome::Err, Outcome::Stat))
}

/// Every directory's `stat` on the reference, by `dirs` index: the same calls as
/// [`stat_of`], but the directories of one parent asked in one
/// [`lookups_in`](PseudoFs::lookups_in), which the reference answers in one scan of the
/// parent's list where a `lookup_at_in` per directory scans it once each.
fn stats_on_reference<B: PseudoFs>(b: &B, dirs: &[DumpedDir]) -> Result<Vec<Outcome>, Failure> {
    let mut answers: Vec<Option<Outcome>> = dirs.iter().map(|_| None).collect();
    // The directories of each (view, parent) side by side; a stable sort, so the groups
    // and their members come in one order for one dump.
    let mut asked: Vec<(View, Ino, usize)> = Vec::with_capacity(dirs.len());
    for (i, d) in dirs.iter().enumerate() {
        match d.parent {
            Some(parent) => asked.push((d.view, parent, i)),
            None => answers[i] = Some(stat_of(b, Side::B, d)?),
        }
    }
    asked.sort_by_key(|&(view, parent, _)| (view, parent));
    for group in asked.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
        let (view, parent, _) = group[0];
        let members: Vec<usize> = group.iter().map(|&(_, _, i)| i).collect();
        let names: Vec<&[u8]> = members.iter().map(|&i| dirs[i].name()).collect();
        let got =
            catch(|| b.lookups_in(view, parent, &names)).map_err(|c| Failure::panic(Side::B, c))?;
        if got.len() != members.len() {
            // Reported as a panic would be: the reference broke its own contract.
            let message = format!(
                "lookups_in gave {} answers to {} names",
                got.len(),
                names.len()
            );
            let location = "PseudoFs::lookups_in".to_string();
            return Err(Failure::panic(Side::B, Caught { message, location }));
        }
        for (&i, answer) in members.iter().zip(got) {
            answers[i] = Some(answer.map_or_else(Outcome::Err, Outcome::Stat));
        }
    }
    Ok(answers.into_iter().flatten().collect())
}

/// Every directory of the reference's dump `dump_b`, asked of A and of B: the two answers
/// are equal. A is asked one directory at a time, in the dump's order.
pub(crate) fn compare_directories<A: PseudoFs, B: PseudoFs>(
    a: &A,
    b: &B,
    dump_b: &str,
) -> Result<(), Failure> {
    let dirs = directories(dump_b);
    let on_b = stats_on_reference(b, &dirs)?;
    for (d, on_b) in dirs.into_iter().zip(on_b) {
        let on_a = stat_of(a, Side::A, &d)?;
        if on_a != on_b {
            return Err(Failure::new(DivergenceKind::DirectoryStat {
                view: d.view,
                parent: d.parent,
                path: d.path,
                a: Box::new(on_a),
                b: Box::new(on_b),
            }));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use pdtree::{Limits, Tree};

    use super::*;
    use crate::check::faults::{Fault, Faulty};

    fn tree_with(l: Limits, files: u64) -> Tree {
        let mut t = Tree::with_limits(l);
        t.mkdir(b"/d").unwrap();
        t.mkdir(b"/d/e f").unwrap();
        for i in 0..files {
            t.create(format!("/d/f{i}").as_bytes(), b"").unwrap();
        }
        t
    }

    #[test]
    fn a_dump_names_its_directories_with_their_views() {
        let t = tree_with(Limits::default(), 1);
        let dirs = directories(&t.dump());
        let paths: Vec<&[u8]> = dirs.iter().map(|d| &d.path[..]).collect();
        assert_eq!(paths, [&b"/"[..], b"/d", b"/d/e f"]);
        assert!(dirs.iter().all(|d| d.view == 0));
        let parents: Vec<Option<Ino>> = dirs.iter().map(|d| d.parent).collect();
        assert_eq!(parents, [None, Some(1), Some(2)], "/d is ino 2");
        let tagged = "entry / dir ino=1 nlink=4\nentry /n\\x00\\\\ dir ns=3 ino=9 nlink=2\n\
            entry /f file ino=2\nentry /n\\x00\\\\/d dir ino=10\nentry /e dir ino=11\n";
        let found: Vec<(Vec<u8>, View, Option<Ino>)> = directories(tagged)
            .into_iter()
            .map(|d| (d.path, d.view, d.parent))
            .collect();
        assert_eq!(
            found,
            [
                (b"/".to_vec(), 0, None),
                (b"/n\x00\\".to_vec(), 3, Some(1)),
                (b"/n\x00\\/d".to_vec(), 3, Some(9)),
                (b"/e".to_vec(), 0, Some(1))
            ],
            "an untagged directory below a tagged one is asked in its view"
        );
        let d = &directories(tagged)[2];
        assert_eq!(d.name(), b"d");
        assert_eq!(unescape("a\\x2"), b"a\\x2", "a cut escape stands as it is");
    }

    /// Equal trees pass; a `stat` that misreports a directory's size fails, naming it.
    #[test]
    fn a_misreported_directory_size_is_found() {
        let l = Limits::default();
        let right = tree_with(l, 300);
        let dump = right.dump();
        assert!(compare_directories(&tree_with(l, 300), &right, &dump).is_ok());
        let wrong = Faulty::new(tree_with(l, 300), Fault::DirSizeIsU8);
        let f = compare_directories(&wrong, &right, &dump).unwrap_err();
        match f.kind {
            DivergenceKind::DirectoryStat { path, a, b, .. } => {
                assert_eq!(path, b"/d");
                let (Outcome::Stat(a), Outcome::Stat(b)) = (*a, *b) else {
                    panic!("both answers are stats");
                };
                assert_eq!((a.size, b.size), (301 % 256, 301));
            }
            k => panic!("{k:?}"),
        }
    }
}
