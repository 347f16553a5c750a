//! The SPEC §5 readdir guarantee, tracked per cursor slot.
//!
//! A cursor slot's *scan* starts at `opendir`, `rewind` or `seek … 0` (a `seek` elsewhere
//! stops tracking the slot until the next start). During a scan the tracker keeps, from the
//! reference's state after every state-changing op, the children present since the scan
//! started and the current children. Every `readpage` must return entries strictly above
//! everything the scan returned before (ascending, never twice), each a current child (never
//! after its removal); the first empty page ends the scan, and then every child present for
//! the whole scan must have been returned. A scan is in the view of its `opendir` (SPEC §10:
//! the guarantee holds per view); a `readpage` in another view stops tracking the slot.
//!
//! Every page that resumes a scan (one after a page that returned entries) is also counted
//! in the run's [`Reach`] and [`ReachFeatures`]: the directory's children then, and how many
//! were removed since the scan started.

use std::collections::BTreeSet;

use pdtree::{Ino, ReadDirPage, View};

use crate::check::divergence::{DivergenceKind, Failure, ReaddirRule};
use crate::check::panic::Caught;
use crate::gen::{Reach, ReachFeatures};
use crate::lang::op::{Op, SLOTS};
use crate::lang::runner::Outcome;

/// The reference's children of a directory in a view now (inode numbers), or the panic
/// listing them.
pub(crate) type Children<'a> = dyn FnMut(View, Ino) -> Result<BTreeSet<Ino>, Caught> + 'a;

/// The state of one cursor slot's scan.
#[derive(Clone, Debug, Default)]
struct Scan {
    view: View,
    dir: Ino,
    /// The highest inode returned so far in this scan.
    last: Option<Ino>,
    returned: BTreeSet<Ino>,
    /// Children present since the scan started.
    whole: BTreeSet<Ino>,
    /// Children now.
    current: BTreeSet<Ino>,
    /// Every inode that was a child at some point during the scan.
    ever: BTreeSet<Ino>,
    done: bool,
}

/// The scans of every cursor slot.
#[derive(Clone, Debug)]
pub(crate) struct Scans {
    slots: Vec<Option<Scan>>,
    /// The resumed pages' shapes so far (only the scan fields of [`Reach`] are set).
    pub(crate) reach: Reach,
    /// The resumed pages' grid cells so far.
    pub(crate) features: ReachFeatures,
}

type Broken = (ReaddirRule, String);

impl Scans {
    pub(crate) fn new() -> Scans {
        Scans {
            slots: vec![None; SLOTS],
            reach: Reach::default(),
            features: ReachFeatures::default(),
        }
    }

    /// Updates the scans after `op` (already applied with outcome `out` on both sides);
    /// `cursor_dir` is the directory a cursor slot now points at.
    pub(crate) fn track(
        &mut self,
        op: &Op,
        out: &Outcome,
        cursor_dir: impl Fn(usize) -> Ino,
        children: &mut Children<'_>,
    ) -> Result<(), Failure> {
        let ok = !out.is_failure();
        let readdir =
            |(rule, detail): Broken| Failure::new(DivergenceKind::Readdir { rule, detail });
        let panic = |c: Caught| Failure::panic(crate::Side::B, c);
        match op {
            Op::OpenDir { slot, view, .. } if ok => {
                let s = usize::from(*slot) % SLOTS;
                self.start(s, *view, cursor_dir(s), children).map_err(panic)
            }
            Op::Rewind { slot } | Op::Seek { slot, pos: 0 } => {
                let s = usize::from(*slot) % SLOTS;
                let view = self.slots[s].as_ref().map_or(0, |scan| scan.view);
                self.start(s, view, cursor_dir(s), children).map_err(panic)
            }
            Op::Seek { slot, .. } => {
                self.slots[usize::from(*slot) % SLOTS] = None;
                Ok(())
            }
            Op::ReadPage { slot, view, .. } => {
                let s = usize::from(*slot) % SLOTS;
                if self.slots[s]
                    .as_ref()
                    .is_some_and(|scan| scan.view != *view)
                {
                    self.slots[s] = None;
                }
                match out {
                    Outcome::Page(page) => self.page(s, page).map_err(readdir),
                    _ => Ok(()),
                }
            }
            _ if ok && op.kind().may_mutate() => self.after_change(children).map_err(panic),
            _ => Ok(()),
        }
    }

    fn start(
        &mut self,
        slot: usize,
        view: View,
        dir: Ino,
        children: &mut Children<'_>,
    ) -> Result<(), Caught> {
        let now = children(view, dir)?;
        self.slots[slot] = Some(Scan {
            view,
            dir,
            whole: now.clone(),
            ever: now.clone(),
            current: now,
            ..Scan::default()
        });
        Ok(())
    }

    /// A page read by a cursor: every entry above the last, once, a current child; an empty
    /// page ends the scan, which must then have returned everything present throughout.
    fn page(&mut self, slot: usize, page: &ReadDirPage) -> Result<(), Broken> {
        let Some(scan) = self.slots[slot].as_mut().filter(|s| !s.done) else {
            return Ok(());
        };
        if !scan.returned.is_empty() {
            let children = scan.current.len() as u64;
            // `ever` holds `current` (both grow by the same children), so this is the number
            // of children gone since the scan started.
            let removed = (scan.ever.len() - scan.current.len()) as u64;
            self.reach.observe_resume(children, removed);
            self.features.mark_resume(children, removed);
        }
        for e in &page.entries {
            scan.entry(e.ino)?;
        }
        if page.entries.is_empty() {
            scan.done = true;
            let missing: Vec<_> = scan.whole.difference(&scan.returned).collect();
            if !missing.is_empty() {
                return Err((
                    ReaddirRule::Missing,
                    format!(
                        "scan of inode {} ended without inodes {missing:?}, present for the whole scan",
                        scan.dir
                    ),
                ));
            }
        }
        Ok(())
    }

    /// After a successful state change: refresh every unfinished scan's child sets.
    fn after_change(&mut self, children: &mut Children<'_>) -> Result<(), Caught> {
        for scan in self.slots.iter_mut().flatten().filter(|s| !s.done) {
            let now = children(scan.view, scan.dir)?;
            scan.whole = scan.whole.intersection(&now).copied().collect();
            scan.ever.extend(now.iter().copied());
            scan.current = now;
        }
        Ok(())
    }
}

impl Scan {
    fn entry(&mut self, ino: Ino) -> Result<(), Broken> {
        if self.returned.contains(&ino) {
            return Err((ReaddirRule::Twice, format!("inode {ino} returned again")));
        }
        if let Some(l) = self.last.filter(|l| ino <= *l) {
            return Err((
                ReaddirRule::Ascending,
                format!("inode {ino} after inode {l}"),
            ));
        }
        if !self.current.contains(&ino) {
            let why = if self.ever.contains(&ino) {
                "after its removal"
            } else {
                "though it is not a child"
            };
            return Err((ReaddirRule::Removed, format!("inode {ino} returned {why}")));
        }
        self.returned.insert(ino);
        self.last = Some(ino);
        Ok(())
    }
}
