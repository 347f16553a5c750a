//! The linearizability checker against `SharedTree`: the real one passes, and each planted
//! concurrency bug (`pdtree::Race`) is found within a bounded budget and minimized to two
//! threads and close to its hand-minimal history. How close depends on the interleavings the
//! operating system happens to give (a smaller program can need a rarer one), so the bound
//! is two ops over; tests/schedules.rs replays races exactly.

use std::sync::atomic::{AtomicU64, Ordering};

use pdtree::{PseudoFs, Race, SharedTree};
use pdtree_harness::core_tree;
use pdtree_harness::lincheck::{check, LinConfig};

#[test]
fn shared_tree_is_linearizable() {
    let cfg = LinConfig {
        programs: 40,
        rounds: 100,
        ..LinConfig::default()
    };
    let found = check(&cfg, &|l| SharedTree::new(core_tree(l)));
    assert!(found.is_none(), "{}", found.unwrap());
}

/// The budget each planted race must be found within: programs × rounds runs of 3 threads
/// × 5 ops.
const BUDGET: LinConfig = LinConfig {
    seed: 1,
    programs: 200,
    rounds: 200,
    threads: 3,
    ops_per_thread: 5,
    minimize: true,
};

/// The smallest failing program by hand, on two threads (after the common setup: `/a` with
/// `x` permanent and `y`, `/b` with `z`, `/g` permanent and generated, open in each thread's
/// slot 2 and never read yet):
fn hand_minimal(race: Race) -> usize {
    match race {
        // create "/a/w" ‖ create "/a/w": both answer ok.
        Race::CreateCheckThenAct => 2,
        // readdir "/a" max 4 ‖ remove "/a/y"; create "/a/y": the page holds y twice.
        Race::ReaddirTornPage => 3,
        // open "/a/x" ‖ open "/a/x"; stats: one handle counted.
        Race::OpenCountLostUpdate => 3,
        // remove_subtree "/b" ‖ readdir /b: an empty /b, which no instant had.
        Race::RemoveSubtreeInSteps => 2,
        // read 2 ‖ read 6 (both `/g`): one reads "ex", half of "ext4\n", which no state
        // renders.
        Race::RenderingPublishedEarly => 2,
    }
}

#[test]
fn every_planted_race_is_found_and_minimized() {
    for race in Race::ALL {
        let found = check(&BUDGET, &|l| SharedTree::with_race(core_tree(l), race));
        let Some(found) = found else {
            panic!(
                "{}: not found in {} programs × {} rounds",
                race.name(),
                BUDGET.programs,
                BUDGET.rounds
            );
        };
        eprintln!("{}:\n{found}", race.name());
        let ops: usize = found.program.threads.iter().map(Vec::len).sum();
        let threads = found.program.threads.len();
        assert_eq!(threads, 2, "{}: {threads} threads\n{found}", race.name());
        assert!(
            ops <= hand_minimal(race) + 2,
            "{}: {ops} ops, hand-minimal {}\n{found}",
            race.name(),
            hand_minimal(race)
        );
    }
}

#[test]
fn a_round_that_leaves_the_tree_broken_is_reported() {
    // A change that differs between SharedTree's two copies, in a source that no op of a
    // program reads: every history is linearizable, and every round leaves invariant 4
    // (the copies are equal) broken.
    let make = |l| {
        let t = SharedTree::new(core_tree(l));
        let runs = AtomicU64::new(0);
        t.atomically(|t| {
            let item = format!("item{}", runs.fetch_add(1, Ordering::SeqCst));
            t.source_add(b"unread", item.as_bytes())
        })
        .unwrap();
        t
    };
    let cfg = LinConfig {
        programs: 1,
        rounds: 1,
        ..LinConfig::default()
    };
    let found = check(&cfg, &make).expect("a broken tree is reported");
    let text = found.to_string();
    assert!(!found.gave_up, "{text}");
    assert_eq!(
        found.broken.as_ref().map(|b| b.invariant),
        Some(4),
        "{text}"
    );
    assert!(text.starts_with("tree left broken"), "{text}");
    assert!(text.contains("two copies differ"), "{text}");
}
