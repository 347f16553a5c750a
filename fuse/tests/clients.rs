//! Real clients through the kernel: the tree is mounted in a temporary directory and read by
//! `ls`, `find`, `stat`, `cat`, Python's `os.scandir` and a getdents64 client with 512-byte
//! buffers that resumes from saved `d_off` values — each checked against the tree itself,
//! every entry exactly once, also while another process creates and removes entries.
//!
//! These need root and /dev/fuse. Without them each test says why and skips; with `CI=true`
//! a skip is a failure.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use pdtree::{read_all, Ino, Kind, PseudoFs, Row, Tree, ROOT_INO};
use pdtree_fuse::{mount, MountOptions, Mounted};

/// Children of `/big` in the test tree: enough for a scan to span many 512-byte reads.
const BIG: usize = 3000;

// ----- mounting ---------------------------------------------------------------------------

/// Why FUSE cannot be used here, if it cannot.
fn unavailable() -> Option<String> {
    if !rustix::process::geteuid().is_root() {
        return Some("not root: mounting through mount(2) needs root".into());
    }
    if !Path::new("/dev/fuse").exists() {
        return Some("/dev/fuse is missing".into());
    }
    None
}

/// True when the test may go on; otherwise says why it skips (a failure under `CI=true`).
fn fuse_or_skip(test: &str) -> bool {
    let Some(why) = unavailable() else {
        return true;
    };
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{test}: cannot run under CI=true: {why}");
    }
    eprintln!("SKIPPED {test}: {why}");
    false
}

/// A mounted tree in its own temporary directory; unmounted and removed on drop, also when
/// the test panics.
struct TestMount {
    mounted: Option<Mounted>,
    dir: PathBuf,
}

impl TestMount {
    fn new(tree: Tree, options: MountOptions) -> TestMount {
        static N: AtomicU32 = AtomicU32::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("pdtree-fuse-{}-{n}", std::process::id()));
        fs::create_dir_all(&dir).expect("making the mount point");
        let mounted = mount(tree, &dir, &options).expect("mounting");
        TestMount {
            mounted: Some(mounted),
            dir,
        }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel.trim_start_matches('/'))
    }

    fn mounted(&self) -> &Mounted {
        self.mounted.as_ref().expect("mounted until drop")
    }
}

impl Drop for TestMount {
    fn drop(&mut self) {
        if let Some(m) = self.mounted.take() {
            if let Err(e) = m.unmount() {
                eprintln!("unmounting {}: {e}", self.dir.display());
            }
        }
        let left = is_mounted(&self.dir);
        let _ = fs::remove_dir(&self.dir);
        if !std::thread::panicking() {
            assert!(
                !left,
                "{} is still mounted after unmount",
                self.dir.display()
            );
        }
    }
}

/// Whether the kernel lists a pdtree mount at `dir`.
fn is_mounted(dir: &Path) -> bool {
    let mounts = fs::read_to_string("/proc/self/mounts").unwrap();
    let dir = dir.to_str().unwrap();
    mounts.lines().any(|l| {
        let f: Vec<&str> = l.split(' ').collect();
        f.first() == Some(&"pdtree") && f.get(1) == Some(&dir)
    })
}

/// `/big` with [`BIG`] children of every kind, a demo-like table and a listing.
fn test_tree() -> Tree {
    let mut t = Tree::new();
    t.mkdir(b"/big").unwrap();
    for i in 0..BIG {
        let p = format!("/big/n{i:05}");
        match i % 4 {
            0 => t.mkdir(p.as_bytes()).map(drop),
            1 => t.symlink(p.as_bytes(), b"target").map(drop),
            _ => t
                .create(p.as_bytes(), format!("{i}\n").as_bytes())
                .map(drop),
        }
        .unwrap();
    }
    t.listing(b"/big/zz-index").unwrap();
    let rows = [Row::file("forwarding", "0\n"), Row::dir("neigh")];
    t.register(b"/proc/sys/net/ipv4/conf/eth0", &rows).unwrap();
    t
}

/// Every path below `dir` in `t` (relative, without a leading `/`), walked with readdir.
fn tree_paths(t: &Tree, dir: Ino, prefix: &str, out: &mut Vec<String>) {
    for e in read_all(t, dir, 512).unwrap() {
        let p = format!("{prefix}{}", String::from_utf8_lossy(&e.name));
        out.push(p.clone());
        if e.kind == Kind::Dir {
            tree_paths(t, e.ino, &format!("{p}/"), out);
        }
    }
}

fn names_of(t: &Tree, dir: &[u8]) -> BTreeSet<String> {
    let ino = t.stat(dir).unwrap().ino;
    let names = read_all(t, ino, 512).unwrap().into_iter();
    names.map(|e| String::from_utf8(e.name).unwrap()).collect()
}

// ----- clients ----------------------------------------------------------------------------

/// Runs a command and returns its stdout lines; panics with its stderr on failure.
fn run(cmd: &str, args: &[&OsStr]) -> Vec<String> {
    run_allowing(cmd, args, |_| false)
}

/// [`run`], but a failure whose every stderr line passes `benign` is accepted (`find` fails
/// when an entry it listed is removed before it looks at it, which the churn does).
fn run_allowing(cmd: &str, args: &[&OsStr], benign: impl Fn(&str) -> bool) -> Vec<String> {
    let out = Command::new(cmd).args(args).output().expect(cmd);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || (!stderr.is_empty() && stderr.lines().all(&benign)),
        "{cmd} {args:?}: {}\n{stderr}",
        out.status,
    );
    let text = String::from_utf8(out.stdout).expect("utf-8 output");
    text.lines().map(str::to_string).collect()
}

/// Asserts that `seen` holds every name of `expected` exactly once, and nothing else that is
/// not `allowed_extra`.
fn assert_exactly_once(
    client: &str,
    seen: &[String],
    expected: &BTreeSet<String>,
    allowed_extra: impl Fn(&str) -> bool,
) {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for s in seen {
        *counts.entry(s).or_default() += 1;
    }
    for name in expected {
        let n = counts.get(name.as_str()).copied().unwrap_or(0);
        assert_eq!(n, 1, "{client}: {name:?} returned {n} times");
    }
    for (name, n) in counts {
        let known = expected.contains(name) || allowed_extra(name);
        assert!(known, "{client}: unexpected entry {name:?} ({n} times)");
    }
}

/// One entry as read by [`getdents`]: name, inode, and the `d_off` to resume after it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Dent {
    name: String,
    ino: u64,
    d_off: u64,
}

/// Reads `dir` with getdents64 into 512-byte buffers, starting at `offset` (an lseek to a
/// saved `d_off`, as seekdir does), to the end.
fn getdents(dir: &Path, offset: u64) -> Vec<Dent> {
    use rustix::fs::{openat, seek, Mode, OFlags, RawDir, SeekFrom, CWD};
    let fd = openat(CWD, dir, OFlags::RDONLY | OFlags::DIRECTORY, Mode::empty()).unwrap();
    if offset != 0 {
        seek(&fd, SeekFrom::Start(offset)).unwrap();
    }
    let mut buf = [std::mem::MaybeUninit::<u8>::uninit(); 512];
    let mut raw = RawDir::new(&fd, &mut buf);
    let mut out = Vec::new();
    while let Some(e) = raw.next() {
        let e = e.unwrap();
        out.push(Dent {
            name: e.file_name().to_string_lossy().into_owned(),
            ino: e.ino(),
            d_off: e.next_entry_cookie(),
        });
    }
    out
}

/// Another process creating and removing `churn*` directories in `dir` until killed.
struct Churn(Child);

impl Churn {
    fn start(dir: &Path) -> Churn {
        let script = "import os, sys\n\
                      d = sys.argv[1]\n\
                      i = 0\n\
                      while True:\n\
                      \x20   p = os.path.join(d, 'churn%d' % (i % 40))\n\
                      \x20   os.mkdir(p) if i % 80 < 40 else os.rmdir(p)\n\
                      \x20   i += 1\n";
        let child = Command::new("python3")
            .args(["-c", script])
            .arg(dir)
            .stdout(Stdio::null())
            .spawn()
            .expect("starting python3");
        std::thread::sleep(Duration::from_millis(100));
        Churn(child)
    }
}

impl Drop for Churn {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn is_churn(name: &str) -> bool {
    name.starts_with("churn")
}

fn with_dots(names: &BTreeSet<String>) -> BTreeSet<String> {
    let mut all = names.clone();
    all.extend([".".to_string(), "..".to_string()]);
    all
}

// ----- tests ------------------------------------------------------------------------------

#[test]
fn ls_find_stat_cat_and_scandir_see_the_tree() {
    if !fuse_or_skip("ls_find_stat_cat_and_scandir_see_the_tree") {
        return;
    }
    let m = TestMount::new(test_tree(), MountOptions::default());
    let big = m.path("/big");
    let expected = m.mounted().read(|t| names_of(t, b"/big"));
    let ls_f = run("ls", &["-f".as_ref(), big.as_os_str()]);
    assert_exactly_once("ls -f", &ls_f, &with_dots(&expected), |_| false);
    check_ls_la(&m, &expected);
    check_find(&m);
    check_stat_and_cat(&m);
    let scandir = run(
        "python3",
        &["-c".as_ref(), SCANDIR.as_ref(), big.as_os_str()],
    );
    check_scandir(&m, &scandir, &expected, |_| false);
    m.mounted().read(|t| t.check_invariants()).unwrap();
}

/// `ls -la`: every entry once, with the kind's mode and the tree's size.
fn check_ls_la(m: &TestMount, expected: &BTreeSet<String>) {
    let lines = run("ls", &["-la".as_ref(), m.path("/big").as_os_str()]);
    let mut names = Vec::new();
    for line in lines.iter().skip(1) {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let name = cols[8].to_string();
        if name != "." && name != ".." {
            let st = m
                .mounted()
                .read(|t| t.stat(format!("/big/{name}").as_bytes()));
            let st = st.unwrap();
            let mode = match st.kind {
                Kind::Dir => "dr-xr-xr-x",
                Kind::Symlink => "lrwxrwxrwx",
                Kind::File | Kind::Listing | Kind::Generated => "-r--r--r--",
            };
            assert_eq!(cols[0], mode, "ls -la {name}");
            assert_eq!(cols[4], st.size.to_string(), "ls -la size of {name}");
        }
        names.push(name);
    }
    assert_exactly_once("ls -la", &names, &with_dots(expected), |_| false);
}

/// `find`: every path of the tree exactly once.
fn check_find(m: &TestMount) {
    let root = m.path("/");
    let root_text = root.to_str().unwrap().trim_end_matches('/').to_string();
    let found: Vec<String> = run("find", &[root.as_os_str()])
        .into_iter()
        .map(|p| {
            p.strip_prefix(&root_text)
                .unwrap()
                .trim_start_matches('/')
                .to_string()
        })
        .filter(|p| !p.is_empty())
        .collect();
    let mut expected = Vec::new();
    m.mounted()
        .read(|t| tree_paths(t, ROOT_INO, "", &mut expected));
    assert_exactly_once("find", &found, &expected.into_iter().collect(), |_| false);
}

/// `stat` reports the tree's inode, size and links; `cat` prints the tree's bytes.
fn check_stat_and_cat(m: &TestMount) {
    for rel in [
        "/big",
        "/big/n00000",
        "/big/n00001",
        "/big/n00002",
        "/big/zz-index",
    ] {
        let st = m.mounted().read(|t| t.stat(rel.as_bytes())).unwrap();
        let out = run(
            "stat",
            &["-c".as_ref(), "%i %s %h".as_ref(), m.path(rel).as_os_str()],
        );
        let want = format!("{} {} {}", st.ino, st.size, st.nlink);
        assert_eq!(out, [want], "stat {rel}");
    }
    for rel in [
        "/big/n00002",
        "/big/zz-index",
        "/proc/sys/net/ipv4/conf/eth0/forwarding",
    ] {
        let out = Command::new("cat").arg(m.path(rel)).output().unwrap();
        let tree_bytes = m.mounted().edit(|t| {
            let h = t.open(rel.as_bytes()).unwrap();
            let bytes = t.read(h).unwrap();
            t.close(h).unwrap();
            bytes
        });
        assert_eq!(out.stdout, tree_bytes, "cat {rel}");
    }
    let link = fs::read_link(m.path("/big/n00001")).unwrap();
    assert_eq!(link.as_os_str().as_bytes(), b"target");
}

/// Prints `name inode` for each entry of the directory `sys.argv[1]`, with os.scandir.
const SCANDIR: &str = "import os, sys\n\
                       for e in os.scandir(sys.argv[1]):\n\
                       \x20   print(e.name, e.inode())\n";

fn check_scandir(
    m: &TestMount,
    lines: &[String],
    expected: &BTreeSet<String>,
    extra: impl Fn(&str) -> bool,
) {
    let mut names = Vec::new();
    for line in lines {
        let (name, ino) = line.rsplit_once(' ').expect("name inode");
        if !extra(name) {
            let st = m
                .mounted()
                .read(|t| t.stat(format!("/big/{name}").as_bytes()));
            assert_eq!(st.unwrap().ino.to_string(), ino, "scandir inode of {name}");
        }
        names.push(name.to_string());
    }
    assert_exactly_once("os.scandir", &names, expected, extra);
}

#[test]
fn getdents_with_small_buffers_resumes_from_every_saved_offset() {
    if !fuse_or_skip("getdents_with_small_buffers_resumes_from_every_saved_offset") {
        return;
    }
    let m = TestMount::new(test_tree(), MountOptions::default());
    let big = m.path("/big");
    let full = getdents(&big, 0);
    let names: Vec<String> = full.iter().map(|d| d.name.clone()).collect();
    let expected = m.mounted().read(|t| names_of(t, b"/big"));
    assert_exactly_once("getdents", &names, &with_dots(&expected), |_| false);
    assert!(
        full.windows(2).all(|w| w[0].d_off < w[1].d_off),
        "d_off ascends"
    );
    assert_eq!(
        (full[0].d_off, full[1].d_off),
        (1, 2),
        ". and .. at positions 0 and 1"
    );
    for d in &full[2..] {
        assert_eq!(d.d_off, d.ino + 1, "{}: d_off is the next position", d.name);
    }
    // seekdir/telldir: resuming from any saved d_off gives exactly the rest of the scan.
    for i in (0..full.len()).step_by(97).chain([full.len() - 1]) {
        let rest = getdents(&big, full[i].d_off);
        assert_eq!(
            rest,
            full[i + 1..],
            "resumed after entry {i} ({})",
            full[i].name
        );
    }
}

#[test]
fn every_client_sees_every_stable_entry_once_while_another_process_churns() {
    if !fuse_or_skip("every_client_sees_every_stable_entry_once_while_another_process_churns") {
        return;
    }
    let m = TestMount::new(test_tree(), MountOptions::default());
    let big = m.path("/big");
    let stable = m.mounted().read(|t| names_of(t, b"/big"));
    let mut churn = Churn::start(&big);
    let mut churned_seen = 0;
    for round in 0..3 {
        let scan = getdents(&big, 0);
        check_no_repeats(&scan, round);
        let names: Vec<String> = scan.into_iter().map(|d| d.name).collect();
        churned_seen += names.iter().filter(|n| is_churn(n)).count();
        // A scan that stops halfway, closes the directory, and resumes later from the saved
        // d_off on a new descriptor (telldir/seekdir across opens).
        let first = getdents(&big, 0);
        let cut = &first[..first.len() / 2];
        let rest = getdents(&big, cut.last().unwrap().d_off);
        let joined: Vec<Dent> = cut.iter().cloned().chain(rest).collect();
        check_no_repeats(&joined, round);
        let joined: Vec<String> = joined.into_iter().map(|d| d.name).collect();
        assert_exactly_once("getdents resumed", &joined, &with_dots(&stable), is_churn);
        assert_exactly_once("getdents", &names, &with_dots(&stable), is_churn);
        let ls_f = run("ls", &["-f".as_ref(), big.as_os_str()]);
        assert_exactly_once("ls -f", &ls_f, &with_dots(&stable), is_churn);
        let args = [big.as_os_str(), "-maxdepth".as_ref(), "1".as_ref()];
        let vanished =
            |line: &str| line.contains("/churn") && line.ends_with("No such file or directory");
        let find = run_allowing("find", &args, vanished);
        let find: Vec<String> = find
            .iter()
            .skip(1)
            .map(|p| p.rsplit('/').next().unwrap().into())
            .collect();
        assert_exactly_once("find", &find, &stable, is_churn);
        let py = run(
            "python3",
            &["-c".as_ref(), SCANDIR.as_ref(), big.as_os_str()],
        );
        check_scandir(&m, &py, &stable, is_churn);
    }
    assert!(
        churn.0.try_wait().unwrap().is_none(),
        "the churning process died"
    );
    assert!(
        churned_seen > 0,
        "no scan ever met a churned entry: the test churned nothing"
    );
    drop(churn);
    m.mounted().read(|t| t.check_invariants()).unwrap();
}

/// Within one scan no (name, inode) comes twice and positions only ascend; a churned name may
/// come twice only as two different inodes (removed and made again).
fn check_no_repeats(scan: &[Dent], round: usize) {
    let mut seen = BTreeSet::new();
    for d in scan {
        assert!(
            seen.insert((d.name.clone(), d.ino)),
            "round {round}: {d:?} twice"
        );
    }
    assert!(
        scan.windows(2).all(|w| w[0].d_off < w[1].d_off),
        "round {round}: d_off ascends"
    );
}

#[test]
fn a_change_made_in_process_is_seen_at_once_whatever_the_ttl() {
    if !fuse_or_skip("a_change_made_in_process_is_seen_at_once_whatever_the_ttl") {
        return;
    }
    let options = MountOptions {
        ttl: Duration::from_secs(600),
        ..MountOptions::default()
    };
    let m = TestMount::new(test_tree(), options);
    let (file, dir) = (m.path("/big/n00002"), m.path("/big"));
    assert_eq!(fs::read(&file).unwrap(), b"2\n", "cached by the kernel now");
    let size_before = fs::metadata(&dir).unwrap().len();
    m.mounted().edit(|t| t.remove(b"/big/n00002")).unwrap();
    let err = fs::metadata(&file).unwrap_err();
    assert_eq!(
        err.raw_os_error(),
        Some(2),
        "ENOENT at the next lookup, not after the TTL"
    );
    assert_eq!(
        fs::metadata(&dir).unwrap().len(),
        size_before - 1,
        "directory size"
    );
    m.mounted()
        .edit(|t| t.create(b"/big/n00002", b"again"))
        .unwrap();
    assert_eq!(fs::read(&file).unwrap(), b"again");
    assert_eq!(
        fs::metadata(&dir).unwrap().len(),
        size_before,
        "size after a creation"
    );
    let h = m.mounted().edit(|t| {
        t.register(
            b"/proc/sys/net/ipv4/conf/eth1",
            &[Row::file("forwarding", "1\n")],
        )
    });
    h.unwrap();
    let conf = fs::read_dir(m.path("/proc/sys/net/ipv4/conf")).unwrap();
    let names: BTreeSet<String> = conf
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["eth0", "eth1"].map(String::from).into());
}

#[test]
fn a_listing_is_never_stale_and_a_removed_open_file_reads_enoent() {
    if !fuse_or_skip("a_listing_is_never_stale_and_a_removed_open_file_reads_enoent") {
        return;
    }
    let m = TestMount::new(Tree::new(), MountOptions::default());
    fs::create_dir(m.path("/d")).unwrap();
    let index = m.path("/d/index");
    m.mounted().edit(|t| t.listing(b"/d/index")).unwrap();
    assert_eq!(fs::read(&index).unwrap(), b"g\tindex\n");
    fs::create_dir(m.path("/d/eth0")).unwrap();
    fs::File::create(m.path("/d/stats")).unwrap();
    let want = b"g\tindex\nd\teth0\nf\tstats\n";
    assert_eq!(
        fs::read(&index).unwrap(),
        want,
        "rendered again after the change"
    );
    assert_eq!(
        fs::metadata(&index).unwrap().len(),
        want.len() as u64,
        "size follows"
    );
    let mut open = fs::File::open(m.path("/d/stats")).unwrap();
    let open_dir = fs::File::open(m.path("/d/eth0")).unwrap();
    fs::remove_file(m.path("/d/stats")).unwrap();
    fs::remove_dir(m.path("/d/eth0")).unwrap();
    // fstat of what is still open answers, with no links left (POSIX).
    let st = open
        .metadata()
        .expect("fstat of an open file after its removal");
    assert_eq!((st.nlink(), st.len()), (0, 0));
    let st = open_dir
        .metadata()
        .expect("fstat of an open directory after its removal");
    assert_eq!(st.nlink(), 0);
    drop(open_dir);
    let mut buf = Vec::new();
    let err = std::io::Read::read_to_end(&mut open, &mut buf).unwrap_err();
    assert_eq!(
        err.raw_os_error(),
        Some(2),
        "the tree's rule: ENOENT after removal"
    );
    drop(open);
    // The kernel sends RELEASE after close(2) has returned, so wait for it (bounded).
    let released = (0..200).any(|_| {
        std::thread::sleep(Duration::from_millis(10));
        m.mounted().read(|t| t.stats().handles) == 0
    });
    assert!(
        released,
        "the tree handle was not released within 2 s of close"
    );
    m.mounted().read(|t| t.check_invariants()).unwrap();
}

#[test]
fn errors_reach_clients_unchanged() {
    if !fuse_or_skip("errors_reach_clients_unchanged") {
        return;
    }
    let m = TestMount::new(test_tree(), MountOptions::default());
    let errno = |r: std::io::Result<()>| r.unwrap_err().raw_os_error().unwrap();
    let row = m.path("/proc/sys/net/ipv4/conf/eth0/forwarding");
    assert_eq!(errno(fs::remove_file(&row)), 16, "EBUSY: a table row");
    assert_eq!(errno(fs::remove_dir(m.path("/big"))), 39, "ENOTEMPTY");
    assert_eq!(
        errno(fs::remove_file(m.path("/big"))),
        21,
        "EISDIR: unlink of a directory"
    );
    assert_eq!(
        errno(fs::remove_dir(m.path("/big/n00002"))),
        20,
        "ENOTDIR: rmdir of a file"
    );
    assert_eq!(errno(fs::create_dir(m.path("/big/n00002"))), 17, "EEXIST");
    assert_eq!(errno(fs::write(&row, b"1")), 30, "EROFS: content is fixed");
    let high = fs::Permissions::from_mode(0o4755);
    assert_eq!(
        errno(fs::set_permissions(&row, high)),
        22,
        "EINVAL: a setuid bit is beyond the tree's modes"
    );
    fs::set_permissions(&row, fs::Permissions::from_mode(0o600)).expect("chmod of a row");
    assert_eq!(
        fs::metadata(&row).unwrap().permissions().mode() & 0o7777,
        0o600
    );
    let tree_mode = m
        .mounted()
        .read(|t| t.stat(b"/proc/sys/net/ipv4/conf/eth0/forwarding"));
    assert_eq!(tree_mode.unwrap().mode, 0o600, "chmod reaches the tree");
    let renamed = fs::rename(m.path("/big/n00002"), m.path("/big/x"));
    assert_eq!(errno(renamed), 1, "EPERM: no rename");
    let long = m.path(&"x".repeat(256));
    assert_eq!(errno(fs::create_dir(long)), 36, "ENAMETOOLONG");
    m.mounted().read(|t| t.check_invariants()).unwrap();
}

#[test]
fn a_read_only_mount_refuses_every_change() {
    if !fuse_or_skip("a_read_only_mount_refuses_every_change") {
        return;
    }
    let options = MountOptions {
        read_only: true,
        ..MountOptions::default()
    };
    let m = TestMount::new(test_tree(), options);
    let errno = |r: std::io::Result<()>| r.unwrap_err().raw_os_error().unwrap();
    assert_eq!(errno(fs::create_dir(m.path("/new"))), 30);
    assert_eq!(errno(fs::remove_dir(m.path("/big/n00000"))), 30);
    assert_eq!(errno(fs::File::create(m.path("/f")).map(drop)), 30);
    let perm = fs::Permissions::from_mode(0o600);
    assert_eq!(
        errno(fs::set_permissions(m.path("/big"), perm)),
        30,
        "chmod"
    );
    assert_eq!(
        fs::read(m.path("/big/n00002")).unwrap(),
        b"2\n",
        "reads still work"
    );
}

#[test]
fn unmounting_a_busy_mount_detaches_it_and_still_serves_open_files() {
    if !fuse_or_skip("unmounting_a_busy_mount_detaches_it_and_still_serves_open_files") {
        return;
    }
    let mut m = TestMount::new(test_tree(), MountOptions::default());
    let mut open = fs::File::open(m.path("/big/n00002")).unwrap();
    m.mounted
        .take()
        .unwrap()
        .unmount()
        .expect("a busy mount is detached");
    assert!(!is_mounted(&m.dir), "detached from the namespace at once");
    let mut buf = String::new();
    std::io::Read::read_to_string(&mut open, &mut buf).unwrap();
    assert_eq!(
        buf, "2\n",
        "the file opened before the unmount is still served"
    );
}

#[test]
fn every_recorded_target_behaviour_replays_on_pdtree_fuse() {
    use pdtree_harness::gen::Profile;
    use pdtree_harness::target::{expected_on, RealDir};
    if !fuse_or_skip("every_recorded_target_behaviour_replays_on_pdtree_fuse") {
        return;
    }
    let m = TestMount::new(Tree::new(), MountOptions::default());
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/targets");
    let mut checked = 0;
    for entry in fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ops") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let Some(want) = expected_on(&text, "pdtree-fuse (pseudo-linux)") else {
            panic!(
                "{}: no `# pdtree-fuse (pseudo-linux):` line",
                path.display()
            );
        };
        let case = pdtree_harness::campaign::replay::load_in(&path, Profile::PSEUDO).unwrap();
        let make = |l| RealDir::new_in(&m.dir, Profile::PSEUDO, l).unwrap();
        let got = match pdtree_harness::run_ops(case.limits, &case.ops, &make) {
            Ok(_) => "ok".to_string(),
            Err(d) => format!("divergence {}", d.signature()),
        };
        assert_eq!(got, want, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 5, "only {checked} files in corpus/targets");
}
