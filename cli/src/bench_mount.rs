//! `pdtree bench-mount`: real clients through pdtree-fuse against the same on tmpfs, in one
//! run, so the ratios are measured side by side on a shared machine (docs/PERFORMANCE.md,
//! "Through the kernel").
//!
//! Cases: `ls -f` and `ls -la` of one directory of N entries, alternating which side runs
//! first each round; then D per-device sysctl tables registered while mounted, in one edit and
//! one edit per device, and listed through the mount.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use clap::Args;
use pdtree::{PseudoFs, Row, Tree};
use pdtree_fuse::{mount, MountOptions, Mounted};

/// `pdtree bench-mount`.
#[derive(Args, Clone, Debug)]
pub struct BenchMountArgs {
    /// Entries in the listed directory.
    #[arg(long, default_value_t = 100_000)]
    pub entries: usize,
    /// Devices registered while mounted.
    #[arg(long, default_value_t = 10_000)]
    pub devices: usize,
    /// Rounds of each listing (the table shows the median and the spread).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..))]
    pub rounds: u64,
    /// A tmpfs directory for the baseline.
    #[arg(long, default_value = "/dev/shm")]
    pub tmpfs: PathBuf,
}

/// A scratch directory removed on drop, mount included.
struct Scratch {
    dir: PathBuf,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl BenchMountArgs {
    pub fn run(&self) -> ExitCode {
        match self.bench() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("pdtree bench-mount: {e}");
                ExitCode::FAILURE
            }
        }
    }

    fn bench(&self) -> Result<(), String> {
        let pid = std::process::id();
        let base = Scratch {
            dir: self.tmpfs.join(format!("pdtree-bench-{pid}")),
        };
        let mnt = Scratch {
            dir: std::env::temp_dir().join(format!("pdtree-bench-mnt-{pid}")),
        };
        eprintln!("making {} entries on tmpfs and in the tree", self.entries);
        let names: Vec<String> = (0..self.entries).map(|i| format!("dev{i:07}")).collect();
        make_tmpfs_dir(&base.dir.join("big"), &names)?;
        let mut tree = Tree::new();
        tree.mkdir(b"/big").map_err(|e| e.to_string())?;
        for n in &names {
            tree.create(format!("/big/{n}").as_bytes(), b"")
                .map_err(|e| e.to_string())?;
        }
        std::fs::create_dir_all(&mnt.dir).map_err(|e| format!("{}: {e}", mnt.dir.display()))?;
        let mounted = mount(tree, &mnt.dir, &MountOptions::default())
            .map_err(|e| format!("mounting (needs root and /dev/fuse): {e}"))?;
        println!("| case | pdtree-fuse (median s) | tmpfs (median s) | ratio median | ratio min–max | ratio per round | goal |");
        println!("|---|---|---|---|---|---|---|");
        let (fuse_big, tmpfs_big) = (mnt.dir.join("big"), base.dir.join("big"));
        for (flags, goal) in [("-f", 1.5), ("-la", 3.0)] {
            let lines = if flags == "-f" { 2 } else { 3 };
            let want = self.entries + lines;
            let row = self.compare_ls(flags, &fuse_big, &tmpfs_big, want)?;
            row.print(&format!("`ls {flags}` of {} entries", self.entries), goal);
        }
        self.registrations(&mounted)?;
        mounted.unmount().map_err(|e| format!("unmounting: {e}"))?;
        Ok(())
    }

    /// Times `ls FLAGS` on both sides, `rounds` times, alternating which goes first.
    fn compare_ls(
        &self,
        flags: &str,
        fuse: &Path,
        tmpfs: &Path,
        want: usize,
    ) -> Result<Timings, String> {
        let mut row = Timings::default();
        for r in 0..self.rounds {
            eprintln!("ls {flags}: round {}/{}", r + 1, self.rounds);
            let (f, t) = if r % 2 == 0 {
                let f = time_ls(flags, fuse, want)?;
                (f, time_ls(flags, tmpfs, want)?)
            } else {
                let t = time_ls(flags, tmpfs, want)?;
                (time_ls(flags, fuse, want)?, t)
            };
            row.fuse.push(f);
            row.tmpfs.push(t);
        }
        Ok(row)
    }

    /// D device tables registered while mounted, then listed through the mount.
    fn registrations(&self, m: &Mounted) -> Result<(), String> {
        println!();
        println!(
            "| {} per-device tables, registered while mounted | seconds |",
            self.devices
        );
        println!("|---|---|");
        let t = Instant::now();
        m.edit(|e| register_devices(e, "a", 0..self.devices))?;
        println!("| in one `edit` | {:.3} |", t.elapsed().as_secs_f64());
        let conf = m.mountpoint().join("proc/sys/net/ipv4/conf");
        let t = Instant::now();
        time_ls("-la", &conf, self.devices + 3)?;
        println!(
            "| then `ls -la` of them through the mount | {:.3} |",
            t.elapsed().as_secs_f64()
        );
        let t = Instant::now();
        for i in 0..self.devices {
            m.edit(|e| register_devices(e, "b", i..i + 1))?;
        }
        println!(
            "| {} more, one `edit` each, the kernel holding the first ones | {:.3} |",
            self.devices,
            t.elapsed().as_secs_f64()
        );
        let t = Instant::now();
        time_ls("-f", &conf, 2 * self.devices + 2)?;
        println!(
            "| then `ls -f` of all {} through the mount | {:.3} |",
            2 * self.devices,
            t.elapsed().as_secs_f64()
        );
        Ok(())
    }
}

fn register_devices(
    e: &mut pdtree_fuse::Editor<'_>,
    prefix: &str,
    devices: std::ops::Range<usize>,
) -> Result<(), String> {
    let rows = [
        Row::file("accept_redirects", "1\n"),
        Row::file("forwarding", "0\n"),
        Row::file("rp_filter", "2\n"),
    ];
    for i in devices {
        let dir = format!("/proc/sys/net/ipv4/conf/{prefix}{i}");
        e.register(dir.as_bytes(), &rows)
            .map_err(|err| format!("{dir}: {err}"))?;
    }
    Ok(())
}

fn make_tmpfs_dir(dir: &Path, names: &[String]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for n in names {
        std::fs::File::create(dir.join(n)).map_err(|e| format!("{n}: {e}"))?;
    }
    Ok(())
}

/// Runs `ls FLAGS DIR`, checks it printed `want` lines, returns its wall time.
fn time_ls(flags: &str, dir: &Path, want: usize) -> Result<f64, String> {
    let t = Instant::now();
    let out = Command::new("ls")
        .arg(flags)
        .arg(dir)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("ls: {e}"))?;
    let secs = t.elapsed().as_secs_f64();
    if !out.status.success() {
        return Err(format!("ls {flags} {}: {}", dir.display(), out.status));
    }
    let lines = out.stdout.iter().filter(|&&b| b == b'\n').count();
    if lines != want {
        return Err(format!(
            "ls {flags} {}: {lines} lines, expected {want}",
            dir.display()
        ));
    }
    Ok(secs)
}

/// The timings of one listing case, both sides, one per round.
#[derive(Default)]
struct Timings {
    fuse: Vec<f64>,
    tmpfs: Vec<f64>,
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

impl Timings {
    fn print(&self, case: &str, goal: f64) {
        let ratios: Vec<f64> = self
            .fuse
            .iter()
            .zip(&self.tmpfs)
            .map(|(f, t)| f / t)
            .collect();
        let (lo, hi) = ratios
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &r| (lo.min(r), hi.max(r)));
        let m = median(&ratios);
        let verdict = if m <= goal { "met" } else { "missed" };
        let rounds: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
        println!(
            "| {case} | {:.3} | {:.3} | {m:.2}× | {lo:.2}–{hi:.2}× | {} | ≤ {goal}×: {verdict} |",
            median(&self.fuse),
            median(&self.tmpfs),
            rounds.join(" "),
        );
    }
}
