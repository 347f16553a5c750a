//! `pdtree lincheck`: exit 0 when every history is linearizable, 1 with the minimized report
//! when a planted race is found, 2 on bad arguments.

use std::process::Command;

fn lincheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_pdtree"))
        .arg("lincheck")
        .args(args)
        .output()
        .expect("run pdtree");
    let text = |b: Vec<u8>| String::from_utf8(b).expect("utf-8");
    (
        out.status.code().unwrap_or(-1),
        text(out.stdout),
        text(out.stderr),
    )
}

#[test]
fn shared_tree_passes() {
    let (code, stdout, stderr) = lincheck(&["--programs", "10", "--rounds", "20"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("10/10 programs linearizable"), "{stderr}");
}

#[test]
fn a_planted_race_is_reported() {
    let (code, stdout, stderr) = lincheck(&["--race", "create-check-then-act"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.starts_with("not linearizable: program seed"),
        "{stdout}"
    );
    assert!(stdout.contains("| thread 0"), "{stdout}");
}

#[test]
fn bad_thread_counts_are_refused() {
    let (code, _, stderr) = lincheck(&["--threads", "9"]);
    assert_eq!(code, 2, "{stderr}");
}
