//! Micro benchmarks (criterion): create, lookup, `stat` by path depth, one readdir page, listing reads cached vs
//! fresh. The N-sweep, the oracle comparison, memory and the plot are `pdtree bench`
//! (crate `pdtree-harness`); see docs/PERFORMANCE.md.
//!
//! Run: `cargo bench -p pdtree --bench micro`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use pdtree::{PseudoFs, Tree};

fn name(i: u64) -> Vec<u8> {
    format!("if{i:08}").into_bytes()
}

/// A tree with `n` empty files in `/d`; returns it and `/d`'s inode.
fn one_dir(n: u64) -> (Tree, u64) {
    let mut t = Tree::new();
    let d = t.mkdir(b"/d").unwrap();
    for i in 0..n {
        t.create(&[b"/d/", &name(i)[..]].concat(), b"").unwrap();
    }
    (t, d)
}

fn create(c: &mut Criterion) {
    let mut g = c.benchmark_group("create");
    for n in [1_000u64, 100_000] {
        let paths: Vec<Vec<u8>> = (0..n).map(|i| [b"/d/", &name(i)[..]].concat()).collect();
        g.throughput(Throughput::Elements(n));
        g.bench_function(format!("{n} in one directory"), |b| {
            b.iter_batched(
                || {
                    let mut t = Tree::new();
                    t.mkdir(b"/d").unwrap();
                    t
                },
                |mut t| {
                    for p in &paths {
                        black_box(t.create(p, b"").unwrap());
                    }
                    t
                },
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

fn lookup(c: &mut Criterion) {
    let n = 100_000;
    let (t, d) = one_dir(n);
    let names: Vec<Vec<u8>> = (0..n).map(|i| name((i * 7919) % n)).collect();
    let mut i = 0;
    c.bench_function("lookup_at in a 100,000-entry directory", |b| {
        b.iter(|| {
            i = (i + 1) % names.len();
            black_box(t.lookup_at(d, &names[i]).unwrap())
        })
    });
}

/// `stat` of a file at each depth against `lookup_at` of it in its directory, at 1,000 files
/// a directory: what a path costs beyond its last name (docs/PERFORMANCE.md).
fn stat_by_depth(c: &mut Criterion) {
    let n = 1_000;
    let mut g = c.benchmark_group("stat(path) against lookup_at, 1,000 files");
    for depth in [1usize, 3, 6] {
        let mut t = Tree::new();
        let mut dir = Vec::new();
        for k in 0..depth {
            dir.extend_from_slice(format!("/d{k}").as_bytes());
            t.mkdir(&dir).unwrap();
        }
        let ino = t.stat(&dir).unwrap().ino;
        let names: Vec<Vec<u8>> = (0..n).map(|i| name((i * 7919) % n)).collect();
        let paths: Vec<Vec<u8>> = names.iter().map(|m| [&dir[..], b"/", m].concat()).collect();
        for p in &paths {
            t.create(p, b"").unwrap();
        }
        let mut i = 0;
        g.bench_function(format!("stat, {} components", depth + 1), |b| {
            b.iter(|| {
                i = (i + 1) % paths.len();
                black_box(t.stat(&paths[i]).unwrap())
            })
        });
        if depth == 1 {
            g.bench_function("lookup_at", |b| {
                b.iter(|| {
                    i = (i + 1) % names.len();
                    black_box(t.lookup_at(ino, &names[i]).unwrap())
                })
            });
        }
    }
    g.finish();
}

fn readdir_page(c: &mut Criterion) {
    let n = 100_000;
    let (t, d) = one_dir(n);
    let mid = d + n / 2;
    let mut g = c.benchmark_group("readdir page of 128 from the middle of 100,000");
    g.throughput(Throughput::Elements(128));
    g.bench_function("readdir (Vec per name)", |b| {
        b.iter(|| black_box(t.readdir(d, mid, 128).unwrap()))
    });
    g.bench_function("readdir_each (zero-copy)", |b| {
        b.iter(|| {
            t.readdir_each(d, mid, 128, |name, ino, kind| {
                black_box((name, ino, kind));
            })
            .unwrap()
        })
    });
    g.finish();
}

fn listing(c: &mut Criterion) {
    let (mut t, _) = one_dir(999);
    t.listing(b"/d/ls").unwrap();
    let h = t.open(b"/d/ls").unwrap();
    let mut g = c.benchmark_group("listing read at 1,000 children");
    g.bench_function("read_shared, cached", |b| {
        b.iter(|| black_box(t.read_shared(h).unwrap()))
    });
    g.bench_function(
        "read_shared, after invalidation (create + remove + render)",
        |b| {
            b.iter(|| {
                t.create(b"/d/x", b"").unwrap();
                t.remove(b"/d/x").unwrap();
                black_box(t.read_shared(h).unwrap())
            })
        },
    );
    g.bench_function("create + remove only (the invalidation)", |b| {
        b.iter(|| {
            t.create(b"/d/x", b"").unwrap();
            t.remove(b"/d/x").unwrap();
        })
    });
    g.bench_function("read (copies into a Vec), cached", |b| {
        b.iter(|| black_box(t.read(h).unwrap()))
    });
    g.finish();
}

criterion_group!(
    benches,
    create,
    lookup,
    stat_by_depth,
    readdir_page,
    listing
);
criterion_main!(benches);
