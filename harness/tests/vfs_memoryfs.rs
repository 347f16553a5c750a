//! A third-party tree through the partial profile: the `vfs` crate's `MemoryFS`, with the
//! adapter of `examples/vfs_memoryfs.rs`. The campaign finds its first bug within a bounded
//! budget, every recorded finding replays as recorded, and with the known findings stepped
//! around a campaign runs clean. One test: the adapter's set of stepped-around findings is
//! process-wide.
#![cfg(target_os = "linux")]

#[path = "../examples/vfs_memoryfs.rs"]
#[allow(dead_code)]
mod vfs_example;

use pdtree_harness::campaign::replay::load_in;
use pdtree_harness::campaign::{run, CampaignConfig};
use pdtree_harness::gen::Profile;
use pdtree_harness::run_ops;
use pdtree_harness::target::expected_on;

fn campaign(iterations: u64) -> Option<String> {
    let cfg = CampaignConfig {
        iterations: Some(iterations),
        profile: Profile::PARTIAL,
        ..CampaignConfig::default()
    };
    run(&cfg, &vfs_example::make)
        .found
        .map(|f| f.minimized_divergence.signature())
}

fn replay_recorded() -> usize {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/targets");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let Some(want) = expected_on(&text, "vfs MemoryFS (partial)") else {
            continue;
        };
        let case = load_in(&path, Profile::PARTIAL).unwrap();
        let got = match run_ops(case.limits, &case.ops, &vfs_example::make) {
            Ok(_) => "ok".to_string(),
            Err(d) => format!("divergence {}", d.signature()),
        };
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    checked
}

#[test]
fn memoryfs_bugs_are_found_replay_and_nothing_else_shows() {
    assert_eq!(replay_recorded(), vfs_example::FINDINGS.len());
    let first = campaign(100).expect("the first MemoryFS bug within 100 inputs");
    // One of the two recorded findings (which one comes first depends on the generator).
    let known = [
        "readdir outcome: ok page vs err ENOTDIR",
        "create outcome: ok vs err ENOTDIR",
    ];
    assert!(
        known.contains(&first.as_str()),
        "a new MemoryFS finding: {first}"
    );
    vfs_example::work_around(&vfs_example::FINDINGS);
    assert_eq!(
        campaign(300),
        None,
        "a new MemoryFS finding: add it to docs/FINDINGS.md"
    );
    vfs_example::work_around(&[]);
}
