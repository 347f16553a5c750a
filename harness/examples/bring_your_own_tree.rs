//! # Bring your own tree: diff your `PseudoFs` against the oracle
//!
//! Any type that implements [`pdtree::PseudoFs`] can be checked against the naive oracle
//! (`pdtree-oracle`, the executable form of `docs/SEMANTICS.md`) by the built-in campaign:
//! generated op sequences run on both sides, every outcome, invariant, stats and dump is
//! compared, and the first divergence is minimized and written up as a report.
//!
//! The whole integration is one call:
//!
//! ```text
//! let result = campaign::run(&CampaignConfig { seed: 1, iterations: Some(2_000), ..Default::default() },
//!                            &|limits| MyTree::with_limits(limits));
//! ```
//!
//! Here `MyTree` wraps `pdtree::Tree` and carries a deliberately planted bug, a common design
//! mistake: it refuses to remove a file that is still open (`EBUSY`), where the contract says
//! the removal succeeds and the entry stays allocated until its last handle closes (§6, §7).
//!
//! ```sh
//! cargo run -p pdtree-harness --example bring_your_own_tree            # finds the bug, prints the report
//! cargo run -p pdtree-harness --example bring_your_own_tree -- --fixed # the bug off: no divergence
//! ```
//!
//! (The buggy run stops at the first divergence, within seconds. The `--fixed` run does all
//! 2,000 iterations, about a minute in a debug build; add `--release` for a few seconds.)
//!
//! The report (also written under `reports/`) shows the minimized script, both outcomes and
//! the dump diff; `repro.ops` next to it replays the case.

use pdtree::{
    Errno, HandleId, HeaderId, Id, Ino, InvariantViolation, Kind, Limits, Mode, NsId, PseudoFs,
    ReadDirPage, Row, Stat, Stats, Tree, View,
};
use pdtree_harness::campaign::{self, CampaignConfig};

/// Your tree. (Here: pdtree's own tree plus one planted bug behind a flag.)
struct MyTree {
    inner: Tree,
    refuse_removing_open_files: bool,
}

impl MyTree {
    fn new(limits: Limits, buggy: bool) -> Self {
        MyTree {
            inner: Tree::with_limits(limits),
            refuse_removing_open_files: buggy,
        }
    }
}

impl PseudoFs for MyTree {
    fn with_limits(limits: Limits) -> Self {
        MyTree::new(limits, false)
    }

    fn remove(&mut self, path: &[u8]) -> Result<(), Errno> {
        if self.refuse_removing_open_files {
            if let Ok(st) = self.inner.stat(path) {
                if st.kind != Kind::Dir && st.open_refs > 0 && !st.permanent {
                    return Err(Errno::EBUSY); // the planted bug
                }
            }
        }
        self.inner.remove(path)
    }

    // Everything else is delegated unchanged.
    fn limits(&self) -> Limits {
        self.inner.limits()
    }
    fn mkdir(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.inner.mkdir(path)
    }
    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<Ino, Errno> {
        self.inner.create(path, content)
    }
    fn symlink(&mut self, path: &[u8], target: &[u8]) -> Result<Ino, Errno> {
        self.inner.symlink(path, target)
    }
    fn listing(&mut self, path: &[u8]) -> Result<Ino, Errno> {
        self.inner.listing(path)
    }
    fn register(&mut self, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.inner.register(dir, table)
    }
    fn unregister(&mut self, header: HeaderId) -> Result<(), Errno> {
        self.inner.unregister(header)
    }
    fn register_ns(&mut self, ns: NsId, dir: &[u8], table: &[Row]) -> Result<HeaderId, Errno> {
        self.inner.register_ns(ns, dir, table)
    }
    fn ns_create(&mut self, uid: Id, gid: Id) -> Result<NsId, Errno> {
        self.inner.ns_create(uid, gid)
    }
    fn ns_destroy(&mut self, ns: NsId) -> Result<u64, Errno> {
        self.inner.ns_destroy(ns)
    }
    fn stat_in(&self, view: View, path: &[u8]) -> Result<Stat, Errno> {
        self.inner.stat_in(view, path)
    }
    fn lookup_at_in(&self, view: View, dir: Ino, name: &[u8]) -> Result<Stat, Errno> {
        self.inner.lookup_at_in(view, dir, name)
    }
    fn readdir_in(&self, view: View, dir: Ino, pos: u64, max: usize) -> Result<ReadDirPage, Errno> {
        self.inner.readdir_in(view, dir, pos, max)
    }
    fn remove_subtree(&mut self, path: &[u8]) -> Result<u64, Errno> {
        self.inner.remove_subtree(path)
    }
    fn mark_permanent(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.inner.mark_permanent(path)
    }
    fn open_in(&mut self, view: View, path: &[u8]) -> Result<HandleId, Errno> {
        self.inner.open_in(view, path)
    }
    fn generated(&mut self, path: &[u8], source: &[u8]) -> Result<Ino, Errno> {
        self.inner.generated(path, source)
    }
    fn source_add(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.inner.source_add(source, item)
    }
    fn source_remove(&mut self, source: &[u8], item: &[u8]) -> Result<(), Errno> {
        self.inner.source_remove(source, item)
    }
    fn read_at(&mut self, handle: HandleId, offset: u64, len: u64) -> Result<Vec<u8>, Errno> {
        self.inner.read_at(handle, offset, len)
    }
    fn write(&mut self, handle: HandleId, content: &[u8]) -> Result<(), Errno> {
        self.inner.write(handle, content)
    }
    fn chmod_in(&mut self, view: View, path: &[u8], mode: Mode) -> Result<(), Errno> {
        self.inner.chmod_in(view, path, mode)
    }
    fn chown_in(&mut self, view: View, path: &[u8], uid: Id, gid: Id) -> Result<(), Errno> {
        self.inner.chown_in(view, path, uid, gid)
    }
    fn close(&mut self, handle: HandleId) -> Result<(), Errno> {
        self.inner.close(handle)
    }
    fn stats(&self) -> Stats {
        self.inner.stats()
    }
    fn check_invariants(&self) -> Result<(), InvariantViolation> {
        self.inner.check_invariants()
    }
    fn dump(&self) -> String {
        self.inner.dump()
    }
}

fn main() {
    let buggy = !std::env::args().any(|a| a == "--fixed");
    let cfg = CampaignConfig {
        seed: 1,
        iterations: Some(2_000),
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        report_dir: Some("reports".into()),
        ..CampaignConfig::default()
    };
    let result = campaign::run(&cfg, &|limits| MyTree::new(limits, buggy));
    match &result.found {
        None => println!(
            "no divergence from the oracle in {} iterations (seed {})",
            result.iterations, cfg.seed
        ),
        Some(found) => {
            println!(
                "divergence at iteration {}: {} ops minimized to {}",
                found.seed_or_iteration,
                found.original_ops,
                found.minimized.len()
            );
            match &found.report {
                Some(Ok(dir)) => {
                    let md = std::fs::read_to_string(dir.join("report.md")).unwrap_or_default();
                    println!("report: {}\n\n{md}", dir.display());
                }
                Some(Err(e)) => {
                    println!("report not written: {e}\n\n{}", found.minimized_divergence)
                }
                None => println!("{}", found.minimized_divergence),
            }
        }
    }
}
