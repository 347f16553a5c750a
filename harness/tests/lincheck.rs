//! The linearizability checker against `SharedTree`: the real one passes, and each planted
//! concurrency bug (`pdtree::Race`) is found within a bounded budget and minimized to two
//! threads and close to its hand-minimal history. How close depends on the interleavings the
//! operating system happens to give (a smaller program can need a rarer one), so the bound
//! is two ops over; tests/schedules.rs replays races exactly.

use pdtree::{Race, SharedTree};
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
/// `x` permanent and `y`, `/b` with `z`):
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
