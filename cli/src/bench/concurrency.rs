//! Threads sharing one tree ([`SharedTree`]): the seed-004 case (open + read + close of a
//! permanent, cached /proc/filesystems-like file) and `stat` with 1 and 2 threads, a reader's
//! throughput while a writer registers tables in another directory, and what sharing costs
//! one thread against the sequential [`Tree`], for reads and for a change.
//!
//! Each figure is operations completed in a fixed wall-clock window; each ratio is the
//! median of five rounds in which the series alternate, all in one run.

use std::hint::black_box;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Barrier;
use std::time::{Duration, Instant};

use pdtree::{PseudoFs, Row, SharedTree, Tree};

use super::cases::{conf_table, BenchRun};
use super::Goal;

/// The file systems the seed-004 file lists, as in a kernel's /proc/filesystems.
const FILESYSTEMS: [&str; 8] = [
    "nodev\tsysfs",
    "nodev\tproc",
    "nodev\ttmpfs",
    "ext4",
    "nodev\tdevpts",
    "vfat",
    "xfs",
    "btrfs",
];

/// A tree with `/proc/filesystems` (generated from its source, rendered once, permanent) and
/// `/a/f`, a file to `stat`.
fn fixture() -> Tree {
    let mut t = Tree::new();
    for fs in FILESYSTEMS {
        t.source_add(b"filesystems", fs.as_bytes())
            .expect("source_add");
    }
    t.mkdir(b"/proc").expect("mkdir");
    t.generated(b"/proc/filesystems", b"filesystems")
        .expect("generated");
    t.mark_permanent(b"/proc/filesystems")
        .expect("mark_permanent");
    t.mkdir(b"/a").expect("mkdir");
    t.create(b"/a/f", b"1\n").expect("create");
    let h = t.open(b"/proc/filesystems").expect("open");
    t.read(h).expect("read"); // the rendering is cached from here on
    t.close(h).expect("close");
    t
}

/// One op of a measured loop, on a tree through `PseudoFs`.
fn open_read_close<T: PseudoFs>(t: &mut T) {
    let h = t.open(b"/proc/filesystems").expect("open");
    black_box(t.read(h).expect("read"));
    t.close(h).expect("close");
}

fn stat<T: PseudoFs>(t: &mut T) {
    black_box(t.stat(b"/a/f").expect("stat"));
}

/// Ops per second of `threads` threads each running `op` on its own clone of `t` for
/// `window`, summed.
fn throughput(t: &SharedTree, threads: usize, window: Duration, op: fn(&mut SharedTree)) -> f64 {
    let start = Barrier::new(threads);
    let total: u64 = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let (mut t, start) = (t.clone(), &start);
                s.spawn(move || {
                    start.wait();
                    count_for(window, || op(&mut t))
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("bench thread"))
            .sum()
    });
    total as f64 / window.as_secs_f64()
}

/// How many times `op` ran in `window`.
fn count_for(window: Duration, mut op: impl FnMut()) -> u64 {
    let end = Instant::now() + window;
    let mut n = 0u64;
    while Instant::now() < end {
        for _ in 0..64 {
            op();
        }
        n += 64;
    }
    n
}

/// Rounds of each comparison: the series alternate within a round and a ratio is taken per
/// round, so that a burst of load from other work on the machine skews one round, not the
/// figure (the median).
const ROUNDS: usize = 5;

/// Median and range of per-round ratios.
fn spread(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[0], v[v.len() - 1])
}

fn ratio_text((median, lo, hi): (f64, f64, f64), of: &str) -> String {
    format!("{median:.2}× {of} (rounds {lo:.2}–{hi:.2})")
}

/// A measured op: its name, and the op for the bare tree and for the shared one.
type Case = (&'static str, fn(&mut Tree), fn(&mut SharedTree));

/// Runs the case and records its rows and goals.
pub(super) fn concurrency_case(r: &mut BenchRun<'_>) {
    let window = Duration::from_millis(if r.opts.quick { 50 } else { 200 });
    let shared = SharedTree::new(fixture());
    let per_sec = |ops: f64| format!("{:.2} M/s", ops / 1e6);
    let cases: [Case; 2] = [
        (
            "open+read+close of a permanent cached file",
            open_read_close,
            open_read_close,
        ),
        ("stat", stat, stat),
    ];
    for (what, on_tree, op) in cases {
        let mut plain = fixture();
        let (mut over_tree, mut scaling) = (Vec::new(), Vec::new());
        let (mut seq, mut one, mut two) = (0.0, 0.0, 0.0);
        for _ in 0..ROUNDS {
            seq = count_for(window, || on_tree(&mut plain)) as f64 / window.as_secs_f64();
            one = throughput(&shared, 1, window, op);
            two = throughput(&shared, 2, window, op);
            over_tree.push(one / seq);
            scaling.push(two / one);
        }
        let (over_tree, scaling) = (spread(over_tree), spread(scaling));
        push(
            r,
            format!("{what}: Tree, 1 thread (last round)"),
            per_sec(seq),
        );
        push(
            r,
            format!("{what}: SharedTree, 1 thread"),
            format!(
                "{} (last round); {}",
                per_sec(one),
                ratio_text(over_tree, "Tree")
            ),
        );
        push(
            r,
            format!("{what}: SharedTree, 2 threads"),
            format!(
                "{} (last round); {}",
                per_sec(two),
                ratio_text(scaling, "1 thread")
            ),
        );
        goal(
            r,
            format!("{what}: 2 threads ≥ 1.8× 1 thread"),
            scaling,
            |x| x >= 1.8,
        );
        goal(
            r,
            format!("{what}: SharedTree on 1 thread within 10% of Tree"),
            over_tree,
            |x| x >= 0.9,
        );
    }
    change_on_one_thread(r, window);
    reader_beside_writer(r, window);
}

/// Registers the next conf table, `net/ipv4/conf/if<n>`.
fn register_next<T: PseudoFs>(t: &mut T, n: &mut u64, rows: &[Row]) {
    let dir = format!("net/ipv4/conf/if{n:08}");
    t.register(dir.as_bytes(), rows).expect("register");
    *n += 1;
}

/// What a change costs one thread: registering tables on `SharedTree` (which makes every
/// change on both of its copies) against `Tree`, each growing its own tree.
fn change_on_one_thread(r: &mut BenchRun<'_>, window: Duration) {
    let rows = conf_table();
    let (mut plain, mut shared) = (fixture(), SharedTree::new(fixture()));
    let (mut on_plain, mut on_shared, mut ratios) = (0, 0, Vec::new());
    let (mut seq, mut one, secs) = (0.0, 0.0, window.as_secs_f64());
    for _ in 0..ROUNDS {
        seq = count_for(window, || register_next(&mut plain, &mut on_plain, &rows)) as f64 / secs;
        one = count_for(window, || register_next(&mut shared, &mut on_shared, &rows)) as f64 / secs;
        ratios.push(one / seq);
    }
    let ratios = spread(ratios);
    let per_sec = |ops: f64| format!("{:.1} k/s", ops / 1e3);
    push(
        r,
        "register a 20-row table: Tree, 1 thread (last round)".into(),
        per_sec(seq),
    );
    push(
        r,
        "register a 20-row table: SharedTree, 1 thread".into(),
        format!(
            "{} (last round); {}",
            per_sec(one),
            ratio_text(ratios, "Tree")
        ),
    );
    goal(
        r,
        "register: SharedTree on 1 thread within 10% of Tree".into(),
        ratios,
        |x| x >= 0.9,
    );
}

/// A reader's `stat` throughput alone, then while another thread registers tables under
/// `/net` (a directory the reader never touches).
fn reader_beside_writer(r: &mut BenchRun<'_>, window: Duration) {
    let shared = SharedTree::new(fixture());
    let (mut ratios, mut tables) = (Vec::new(), 0);
    for _ in 0..ROUNDS {
        let alone = throughput(&shared, 1, window, stat);
        let (beside, n) = beside_a_writer(&shared, window, tables);
        tables = n;
        ratios.push(beside / alone);
    }
    let ratios = spread(ratios);
    push(
        r,
        "stat: 1 reader while a writer registers tables in /net, against alone".into(),
        format!(
            "{} ({tables} tables registered in all)",
            ratio_text(ratios, "alone")
        ),
    );
    goal(
        r,
        "a reader beside a registering writer ≥ 80% of a reader alone".into(),
        ratios,
        |x| x >= 0.8,
    );
}

/// A reader's `stat` throughput while another thread registers tables under `/net`,
/// numbered on from `first`; and the number after the last one registered.
fn beside_a_writer(shared: &SharedTree, window: Duration, first: u64) -> (f64, u64) {
    let stop = AtomicBool::new(false);
    let rows = conf_table();
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let (mut w, mut n) = (shared.clone(), first);
            while !stop.load(Ordering::Relaxed) {
                register_next(&mut w, &mut n, &rows);
            }
            n
        });
        let beside = throughput(shared, 1, window, stat);
        stop.store(true, Ordering::Relaxed);
        (beside, writer.join().expect("writer"))
    })
}

fn push(r: &mut BenchRun<'_>, what: String, value: String) {
    r.progress(&format!("concurrency: {what}: {value}"));
    r.report.concurrency.push((what, value));
}

fn goal(r: &mut BenchRun<'_>, goal: String, ratios: (f64, f64, f64), met: fn(f64) -> bool) {
    r.report.goals.push(Goal {
        goal,
        measured: format!(
            "median {:.2}× over {ROUNDS} rounds ({:.2}–{:.2})",
            ratios.0, ratios.1, ratios.2
        ),
        met: Some(met(ratios.0)),
    });
}
