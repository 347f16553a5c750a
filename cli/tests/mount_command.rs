//! `pdtree mount` end to end: the command mounts a demo /proc, real clients read it, SIGTERM
//! unmounts it and the process exits 0; a SIGKILLed server leaves a dead mount that the
//! cleanup path removes. Needs root and /dev/fuse: without them the test says why and skips,
//! and under `CI=true` a skip is a failure.

use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn fuse_or_skip(test: &str) -> bool {
    let why = if !is_root() {
        "not root: mounting through mount(2) needs root"
    } else if !Path::new("/dev/fuse").exists() {
        "/dev/fuse is missing"
    } else {
        return true;
    };
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{test}: cannot run under CI=true: {why}");
    }
    eprintln!("SKIPPED {test}: {why}");
    false
}

/// Root, read from /proc/self/status (no libc binding needed for one number).
fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("Uid:"))
        .and_then(|l| l.split_whitespace().nth(2))
        == Some("0")
}

/// The mount command running on a fresh directory; on drop it is killed and whatever mount
/// it left is detached (`umount -l`), so no mount or process outlives the test.
struct Server {
    child: Child,
    dir: PathBuf,
}

impl Server {
    fn start(name: &str, args: &[&str]) -> Server {
        let dir = std::env::temp_dir().join(format!("pdtree-mount-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_pdtree"))
            .arg("mount")
            .arg(&dir)
            .args(args)
            .stdout(Stdio::null())
            .spawn()
            .expect("starting pdtree mount");
        Server { child, dir }
    }

    /// Waits until `rel` can be stat-ed through the mount (a mount point alone proves
    /// nothing: a dead server's mount still looks mounted).
    fn wait_for(&self, rel: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::fs::metadata(self.dir.join(rel)).is_err() {
            assert!(
                Instant::now() < deadline,
                "{rel} never appeared through the mount"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits until the kernel lists the mount as pdtree's (for an empty tree, which has no
    /// file to stat).
    fn wait_mounted(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !self.is_mounted() {
            assert!(
                Instant::now() < deadline,
                "{} was never mounted",
                self.dir.display()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn is_mounted(&self) -> bool {
        let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap();
        let dir = self.dir.to_str().unwrap();
        mounts.lines().any(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            f.first() == Some(&"pdtree") && f.get(1) == Some(&dir)
        })
    }

    fn signal(&self, sig: &str) {
        let pid = self.child.id().to_string();
        let ok = Command::new("kill").args([sig, &pid]).status().unwrap();
        assert!(ok.success(), "kill {sig} {pid}");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.is_mounted() {
            let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        }
        let _ = std::fs::remove_dir(&self.dir);
    }
}

#[test]
fn the_demo_mounts_serves_clients_and_unmounts_on_sigterm() {
    if !fuse_or_skip("the_demo_mounts_serves_clients_and_unmounts_on_sigterm") {
        return;
    }
    let mut s = Server::start("demo", &["--demo", "100"]);
    s.wait_for("proc/net/index");
    let conf = std::fs::read_dir(s.dir.join("proc/sys/net/ipv4/conf")).unwrap();
    assert_eq!(conf.count(), 100, "lo, eth0..eth98");
    let fwd = std::fs::read(s.dir.join("proc/sys/net/ipv4/conf/eth41/forwarding")).unwrap();
    assert_eq!(fwd, b"0\n");
    let index = std::fs::read_to_string(s.dir.join("proc/net/index")).unwrap();
    assert_eq!(index, "d\tdev_snmp6\ng\tindex\n");
    s.signal("-TERM");
    let status = s.child.wait().unwrap();
    assert!(
        status.success(),
        "pdtree mount exited with {status} on SIGTERM"
    );
    assert!(!s.is_mounted(), "still mounted after the command exited");
}

#[test]
fn a_killed_server_leaves_a_dead_mount_that_cleanup_removes() {
    if !fuse_or_skip("a_killed_server_leaves_a_dead_mount_that_cleanup_removes") {
        return;
    }
    let mut s = Server::start("killed", &[]);
    s.wait_mounted();
    std::fs::create_dir(s.dir.join("made")).unwrap();
    s.wait_for("made");
    s.signal("-KILL");
    let _ = s.child.wait();
    assert!(
        s.is_mounted(),
        "a SIGKILLed FUSE server's mount stays until unmounted"
    );
    // A name the kernel has not cached must be asked of the dead server.
    let err = std::fs::metadata(s.dir.join("never-looked-up")).unwrap_err();
    assert_eq!(
        err.raw_os_error(),
        Some(107),
        "ENOTCONN through a dead mount"
    );
    drop(s);
    let dir = std::env::temp_dir().join(format!("pdtree-mount-killed-{}", std::process::id()));
    let mounts = std::fs::read_to_string("/proc/self/mounts").unwrap();
    assert!(
        !mounts.contains(dir.to_str().unwrap()),
        "cleanup left the mount"
    );
}

#[test]
fn a_target_that_stops_answering_is_reported_as_hung() {
    if !fuse_or_skip("a_target_that_stops_answering_is_reported_as_hung") {
        return;
    }
    let s = Server::start("hung", &[]);
    s.wait_mounted();
    let mut fuzz = Command::new(env!("CARGO_BIN_EXE_pdtree"))
        .args(["fuzz", "--target"])
        .arg(&s.dir)
        .args([
            "--profile",
            "pseudo-linux",
            "--op-timeout",
            "2",
            "--time",
            "60",
        ])
        .args(["--jobs", "1", "--no-progress"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    s.signal("-STOP");
    let started = Instant::now();
    // The message comes first; a request the stopped server had already read keeps the
    // process from exiting (the kernel waits for that answer uninterruptibly), so the server
    // is resumed once the message is out.
    let mut stderr = String::new();
    let lines = std::io::BufReader::new(fuzz.stderr.take().unwrap()).lines();
    for line in lines {
        let line = line.unwrap();
        stderr.push_str(&line);
        stderr.push('\n');
        if line.contains("the target hung") {
            break;
        }
    }
    s.signal("-CONT");
    let status = fuzz.wait().unwrap();
    assert_eq!(status.code(), Some(3), "exit status; stderr: {stderr}");
    assert!(stderr.contains("the target hung"), "{stderr}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_target_that_dies_is_reported_as_gone() {
    if !fuse_or_skip("a_target_that_dies_is_reported_as_gone") {
        return;
    }
    let reports = std::env::temp_dir().join(format!("pdtree-dies-reports-{}", std::process::id()));
    let s = Server::start("dies", &[]);
    s.wait_mounted();
    let fuzz = Command::new(env!("CARGO_BIN_EXE_pdtree"))
        .args(["fuzz", "--target"])
        .arg(&s.dir)
        .args([
            "--profile",
            "pseudo-linux",
            "--time",
            "60",
            "--jobs",
            "1",
            "--no-progress",
        ])
        .arg("--report-dir")
        .arg(&reports)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    s.signal("-KILL");
    let out = fuzz.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // Either an op met the dead server first (a divergence: ENOTCONN is no tree error) and
    // its minimization found the target gone, or the next sandbox did.
    assert_eq!(
        out.status.code(),
        Some(4),
        "exit status; stdout: {stdout}\nstderr: {stderr}"
    );
    assert!(stderr.contains("the target is gone"), "{stderr}");
    let _ = std::fs::remove_dir_all(&reports);
}
