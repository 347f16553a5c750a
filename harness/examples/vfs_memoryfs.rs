//! Fuzzing a third-party Rust tree: the `vfs` crate's `MemoryFS`, through the partial profile.
//!
//! `cargo run --release -p pdtree-harness --example vfs_memoryfs -- [--seed N] [--iterations N]`
//! runs a campaign and prints its summary; a divergence is written to
//! `target/pdtree-reports/vfs/`, and `... -- replay FILE...` replays cases. What it
//! finds is in docs/FINDINGS.md. The adapter below is all a user writes: the POSIX-like
//! part, in the tree's own terms.
//!
//! Its own masks (besides [`Partial`]'s): names are stored percent-encoded, since `vfs` paths
//! are UTF-8 strings and the tree's names are any bytes; `create` asks `exists` first, since
//! `vfs` has no exclusive create (`create_file` truncates what is there).

use std::io::{Read, Write};

use pdtree::{Errno, Kind, Limits};
use pdtree_harness::campaign::replay::load_in;
use pdtree_harness::campaign::report::Commands;
use pdtree_harness::campaign::{run, CampaignConfig};
use pdtree_harness::gen::Profile;
use pdtree_harness::run_ops;
use pdtree_harness::target::{Partial, PosixStat, PosixTree};
use vfs::error::VfsErrorKind;
use vfs::{FileSystem, MemoryFS, VfsError, VfsFileType};

/// `MemoryFS` as a [`PosixTree`].
#[derive(Debug, Default)]
pub struct VfsMemory(pub MemoryFS);

/// The findings of docs/FINDINGS.md the adapter steps around, so a campaign can look for the
/// next one (`--work-around NAME,...`; none by default).
static WORK_AROUND: std::sync::RwLock<Vec<String>> = std::sync::RwLock::new(Vec::new());

/// Steps around the findings named (none: the adapter shows every one).
pub fn work_around(names: &[&str]) {
    for n in names {
        assert!(
            FINDINGS.contains(n),
            "unknown finding {n}; known: {FINDINGS:?}"
        );
    }
    *WORK_AROUND.write().unwrap() = names.iter().map(|n| n.to_string()).collect();
}

/// Whether finding `name` is being stepped around.
fn around(name: &str) -> bool {
    WORK_AROUND.read().unwrap().iter().any(|n| n == name)
}

/// The known findings, by the names `--work-around` takes.
pub const FINDINGS: [&str; 2] = ["read-dir-of-file", "create-inside-a-file"];

impl VfsMemory {
    /// With `create-inside-a-file` stepped around: `ENOTDIR` when the parent is a file.
    fn parent_is_dir(&self, path: &[u8]) -> Result<(), Errno> {
        let parent = match path.iter().rposition(|&b| b == b'/') {
            Some(0) | None => return Ok(()),
            Some(i) => &path[..i],
        };
        if around("create-inside-a-file") && self.lstat(parent)?.kind != Kind::Dir {
            return Err(Errno::ENOTDIR);
        }
        Ok(())
    }
}

/// A tree path as a `vfs` path: the root is `""`; bytes outside printable ASCII, and `%`,
/// are written `%HH`.
pub fn encode(path: &[u8]) -> String {
    if path == b"/" {
        return String::new();
    }
    let mut out = String::new();
    for &b in path {
        if b == b'/' || (b.is_ascii_graphic() && b != b'%') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A `vfs` name back as the tree's bytes.
pub fn decode(name: &str) -> Vec<u8> {
    let b = name.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match (
            b[i],
            name.get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok()),
        ) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// `vfs`'s errors in the tree's terms; one that has none is a finding.
fn errno(e: VfsError, what: &str) -> Errno {
    match e.kind() {
        VfsErrorKind::FileNotFound => Errno::ENOENT,
        VfsErrorKind::DirectoryExists | VfsErrorKind::FileExists => Errno::EEXIST,
        VfsErrorKind::InvalidPath => Errno::EINVAL,
        VfsErrorKind::Other(m) if m == "Parent path does not exist" => Errno::ENOENT,
        VfsErrorKind::Other(m) if m == "Directory to remove is not empty" => Errno::ENOTEMPTY,
        VfsErrorKind::Other(m) if m == "Not a file" => Errno::EISDIR,
        other => panic!("target: {what}: {other} (no such error in the tree)"),
    }
}

impl PosixTree for VfsMemory {
    fn mkdir(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.parent_is_dir(path)?;
        self.0
            .create_dir(&encode(path))
            .map_err(|e| errno(e, "create_dir"))
    }

    fn create(&mut self, path: &[u8], content: &[u8]) -> Result<(), Errno> {
        self.parent_is_dir(path)?;
        let p = encode(path);
        if self.0.exists(&p).map_err(|e| errno(e, "exists"))? {
            return Err(Errno::EEXIST);
        }
        let mut w = self
            .0
            .create_file(&p)
            .map_err(|e| errno(e, "create_file"))?;
        w.write_all(content)
            .unwrap_or_else(|e| panic!("target: writing {p}: {e}"));
        w.flush()
            .unwrap_or_else(|e| panic!("target: flushing {p}: {e}"));
        Ok(())
    }

    fn symlink(&mut self, _path: &[u8], _target: &[u8]) -> Result<(), Errno> {
        unimplemented!("vfs has no symlinks: the partial profile makes none")
    }

    fn remove_file(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.0
            .remove_file(&encode(path))
            .map_err(|e| errno(e, "remove_file"))
    }

    fn remove_dir(&mut self, path: &[u8]) -> Result<(), Errno> {
        self.0
            .remove_dir(&encode(path))
            .map_err(|e| errno(e, "remove_dir"))
    }

    fn lstat(&self, path: &[u8]) -> Result<PosixStat, Errno> {
        let m = self
            .0
            .metadata(&encode(path))
            .map_err(|e| errno(e, "metadata"))?;
        let kind = match m.file_type {
            VfsFileType::Directory => Kind::Dir,
            VfsFileType::File => Kind::File,
        };
        Ok(PosixStat { kind, size: m.len })
    }

    fn list(&self, path: &[u8]) -> Result<Vec<Vec<u8>>, Errno> {
        if around("read-dir-of-file") && self.lstat(path)?.kind != Kind::Dir {
            return Err(Errno::ENOTDIR);
        }
        let names = self
            .0
            .read_dir(&encode(path))
            .map_err(|e| errno(e, "read_dir"))?;
        Ok(names.map(|n| decode(&n)).collect())
    }

    fn read(&self, path: &[u8]) -> Result<Vec<u8>, Errno> {
        let mut r = self
            .0
            .open_file(&encode(path))
            .map_err(|e| errno(e, "open_file"))?;
        let mut out = Vec::new();
        r.read_to_end(&mut out)
            .unwrap_or_else(|e| panic!("target: reading: {e}"));
        Ok(out)
    }
}

/// A fresh `MemoryFS` behind the adapter.
pub fn make(limits: Limits) -> Partial<VfsMemory> {
    Partial::new(VfsMemory::default(), limits)
}

/// `vfs_memoryfs [--seed N] [--iterations N] [--max-len N] [--work-around NAME,...]` fuzzes;
/// `vfs_memoryfs replay FILE...` replays cases (scripts or raw inputs) against `MemoryFS`.
#[allow(dead_code)] // the tests include this file for its adapter only
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("replay") => replay(&args[1..]),
        _ => fuzz(&args),
    };
    std::process::exit(code);
}

fn fuzz(args: &[String]) -> i32 {
    let names = args.iter().position(|a| a == "--work-around");
    if let Some(names) = names.and_then(|i| args.get(i + 1)) {
        work_around(&names.split(',').collect::<Vec<_>>());
    }
    let opt = |name: &str, default: u64| {
        let at = args.iter().position(|a| a == name);
        at.and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let example = "cargo run --release -p pdtree-harness --example vfs_memoryfs --";
    let cfg = CampaignConfig {
        seed: opt("--seed", 0),
        iterations: Some(opt("--iterations", 20_000)),
        max_len: opt("--max-len", 4096) as usize,
        profile: Profile::PARTIAL,
        report_dir: Some("target/pdtree-reports/vfs".into()),
        commands: Commands {
            fuzz: example.into(),
            replay: format!("{example} replay"),
        },
        ..CampaignConfig::default()
    };
    let result = run(&cfg, &make);
    print!("{}", result.summary());
    i32::from(result.found.is_some())
}

fn replay(files: &[String]) -> i32 {
    let mut bad = 0;
    for f in files.iter().filter(|f| !f.starts_with("--")) {
        let case =
            load_in(std::path::Path::new(f), Profile::PARTIAL).unwrap_or_else(|e| panic!("{e}"));
        match run_ops(case.limits, &case.ops, &make) {
            Ok(s) => println!("{f}: ok ({} ops)", s.stats.ops),
            Err(d) => {
                bad += 1;
                println!("{f}: DIVERGENCE `{}`\n\n{d}", d.signature());
            }
        }
    }
    i32::from(bad > 0)
}
