//! How deep a campaign went: the largest directory and the deepest chain its inputs left,
//! the highest inode number, header, handle and namespace id the reference handed out, the
//! highest source generation, the longest input.
//! Shown in the campaign summary, so a user sees what was explored, not only how often.

use std::fmt;

use pdtree::{read_all, Kind, PseudoFs, ROOT_INO};

/// The deepest a run reached. Every field is a maximum, so merging takes maxima and the
/// text is identical for identical runs, whatever the merge order.
///
/// ```
/// use pdtree::{PseudoFs, Tree};
/// use pdtree_harness::gen::Reach;
/// let mut t = Tree::new();
/// t.mkdir(b"/a").unwrap();
/// t.create(b"/a/f", b"").unwrap();
/// let mut r = Reach::default();
/// r.observe_tree(&t);
/// assert_eq!((r.largest_dir, r.deepest), (1, 2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Reach {
    /// The most children one directory held at the end of an input.
    pub largest_dir: u64,
    /// The most components of a path to an entry at the end of an input (the root is 0).
    pub deepest: u64,
    /// The highest inode number the reference handed out (its dump's counter).
    pub max_ino: u64,
    /// The highest header id the reference handed out.
    pub max_header: u64,
    /// The highest handle id the reference handed out.
    pub max_handle: u64,
    /// The highest namespace id the reference handed out.
    pub max_ns: u64,
    /// The highest generation any source reached.
    pub max_generation: u64,
    /// The most ops one input ran.
    pub longest_input: u64,
}

impl Reach {
    /// Takes a tree's shape into account: walks it through [`PseudoFs::readdir`], breadth
    /// first, with its own page size limit.
    pub fn observe_tree<T: PseudoFs>(&mut self, tree: &T) {
        let page = tree.limits().max_readdir.max(1);
        let mut level = vec![ROOT_INO];
        let mut depth = 0;
        while !level.is_empty() {
            let mut next = Vec::new();
            for dir in level {
                let children = read_all(tree, dir, page).unwrap_or_default();
                self.largest_dir = self.largest_dir.max(children.len() as u64);
                let dirs = children.iter().filter(|e| e.kind == Kind::Dir);
                next.extend(dirs.map(|e| e.ino));
                if !children.is_empty() {
                    self.deepest = self.deepest.max(depth + 1);
                }
            }
            level = next;
            depth += 1;
        }
    }

    /// Takes the counters from a canonical dump (SEMANTICS §9): the `next` line's inode,
    /// header, handle and namespace counters (the highest handed out is one below each) and
    /// every source's `gen=`. They include what `cycle_*` ops handed out without returning,
    /// so no op's outcome needs reading.
    pub fn observe_dump(&mut self, dump: &str) {
        for line in dump.lines() {
            let fields = line.split(' ').filter_map(|f| f.split_once('='));
            if line.starts_with("next ") {
                for (key, value) in fields {
                    let top = value.parse::<u64>().unwrap_or(0).saturating_sub(1);
                    match key {
                        "ino" => self.max_ino = self.max_ino.max(top),
                        "header" => self.max_header = self.max_header.max(top),
                        "handle" => self.max_handle = self.max_handle.max(top),
                        "ns" => self.max_ns = self.max_ns.max(top),
                        _ => {}
                    }
                }
            } else if line.starts_with("source ") {
                let generation = fields.filter(|(k, _)| *k == "gen").map(|(_, v)| v);
                for value in generation {
                    let g = value.parse::<u64>().unwrap_or(0);
                    self.max_generation = self.max_generation.max(g);
                }
            }
        }
    }

    /// The maxima of both.
    pub fn merge(&mut self, other: &Reach) {
        self.largest_dir = self.largest_dir.max(other.largest_dir);
        self.deepest = self.deepest.max(other.deepest);
        self.max_ino = self.max_ino.max(other.max_ino);
        self.max_header = self.max_header.max(other.max_header);
        self.max_handle = self.max_handle.max(other.max_handle);
        self.max_ns = self.max_ns.max(other.max_ns);
        self.max_generation = self.max_generation.max(other.max_generation);
        self.longest_input = self.longest_input.max(other.longest_input);
    }
}

/// One line: `reach: largest directory N, deepest path D, highest inode I, header H, handle K,
/// longest input L ops`.
impl fmt::Display for Reach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "reach: largest directory {}, deepest path {}, highest inode {}, header {}, handle {}, namespace {}, source generation {}, longest input {} ops",
            self.largest_dir,
            self.deepest,
            self.max_ino,
            self.max_header,
            self.max_handle,
            self.max_ns,
            self.max_generation,
            self.longest_input
        )
    }
}
