//! The SPEC Part II cases: per-namespace registration, a readdir merged in a view, and a
//! source-backed read from the cache against a fresh render. Each compares against its
//! Part I counterpart measured in the same run.

use std::hint::black_box;

use pdtree::{Limits, PseudoFs, Row, Tree, ROOT_INO};

use super::cases::{time, BenchRun};

/// Namespaces the registration case spreads its tables over.
const NAMESPACES: u64 = 10;

/// Children of the directory the merged readdir reads.
const MERGED_CHILDREN: u64 = 100_000;

/// Items of the source the read case renders (a large `/proc/net/dev`-like registry).
const SOURCE_ITEMS: u64 = 1_000;

/// Runs the three cases and records their rows.
pub(super) fn namespaces_case(r: &mut BenchRun<'_>) {
    let tables = r
        .opts
        .max_register_n
        .min(if r.opts.quick { 1_000 } else { 10_000 });
    register_ns_rows(r, tables);
    merged_readdir_rows(r);
    source_read_rows(r);
}

fn push(r: &mut BenchRun<'_>, what: String, value: String) {
    r.progress(&format!("namespaces: {what}: {value}"));
    r.report.namespaces.push((what, value));
}

/// `tables` per-device tables: shared (`register`) against spread over 10 namespaces
/// (`register_ns`), same paths and rows, each on a fresh tree.
fn register_ns_rows(r: &mut BenchRun<'_>, tables: u64) {
    let rows = super::cases::conf_table();
    let path = |i: u64| format!("net/ipv4/conf/if{i:08}").into_bytes();
    let mut shared = Tree::new();
    let ((), shared_secs) = time(|| {
        for i in 0..tables {
            shared.register(&path(i), &rows).expect("register");
        }
    });
    let mut t = Tree::new();
    for _ in 0..NAMESPACES {
        t.ns_create(0, 0).expect("ns_create");
    }
    let ((), ns_secs) = time(|| {
        for i in 0..tables {
            let k = 1 + i % NAMESPACES;
            t.register_ns(k, &path(i), &rows).expect("register_ns");
        }
    });
    let per = |s: f64| s * 1e9 / tables as f64;
    push(
        r,
        format!("register: {tables} tables of 20 rows, shared"),
        format!("{:.0} ns per table", per(shared_secs)),
    );
    push(
        r,
        format!("register_ns: the same tables over {NAMESPACES} namespaces"),
        format!(
            "{:.0} ns per table ({:.2}× shared)",
            per(ns_secs),
            ns_secs / shared_secs
        ),
    );
    let ((), unregister_secs) = time(|| {
        for h in 1..=tables {
            shared.unregister(h).expect("unregister");
        }
    });
    let ((), destroy_secs) = time(|| {
        for k in 1..=NAMESPACES {
            black_box(t.ns_destroy(k).expect("ns_destroy"));
        }
    });
    push(
        r,
        "unregister of the shared tables".to_string(),
        format!("{:.0} ns per table", per(unregister_secs)),
    );
    push(
        r,
        format!("ns_destroy of the {NAMESPACES} namespaces"),
        format!(
            "{:.0} ns per table it held ({:.2}× unregister)",
            per(destroy_secs),
            destroy_secs / unregister_secs
        ),
    );
}

/// A readdir in view 1 of a directory of 10^5 children, half shared and half namespace 1's
/// (interleaved inodes), against a readdir in view 0 of 10^5 shared children.
fn merged_readdir_rows(r: &mut BenchRun<'_>) {
    let n = if r.opts.quick {
        10_000
    } else {
        MERGED_CHILDREN
    };
    let limits = Limits {
        max_table_rows: n as usize,
        ..Limits::default()
    };
    let mut plain = Tree::with_limits(limits);
    let mut merged = Tree::with_limits(limits);
    let k = merged.ns_create(0, 0).expect("ns_create");
    plain.mkdir(b"/m").expect("mkdir");
    merged.mkdir(b"/m").expect("mkdir");
    let mut own = Vec::new();
    for i in 0..n {
        let name = format!("e{i:07}");
        plain
            .create(format!("/m/{name}").as_bytes(), b"")
            .expect("create");
        if i % 2 == 0 {
            merged
                .create(format!("/m/{name}").as_bytes(), b"")
                .expect("create");
        } else {
            own.push(Row::file(&name, ""));
        }
    }
    merged.register_ns(k, b"m", &own).expect("register_ns");
    let dir = |t: &Tree| t.lookup_at(ROOT_INO, b"m").expect("m").ino;
    let (pd, md) = (dir(&plain), dir(&merged));
    let scan = |t: &Tree, view: u64, d: u64| {
        let (mut pos, mut seen) = (0, 0u64);
        loop {
            let p = t.readdir_in(view, d, pos, 128).expect("readdir");
            if p.entries.is_empty() {
                return seen;
            }
            seen += p.entries.len() as u64;
            pos = p.next_pos;
        }
    };
    let reps = if r.opts.quick { 3 } else { 10 };
    let best = |f: &dyn Fn() -> u64| {
        (0..reps)
            .map(|_| time(|| assert_eq!(black_box(f()), n)).1)
            .fold(f64::INFINITY, f64::min)
    };
    let plain_secs = best(&|| scan(&plain, 0, pd));
    let merged_secs = best(&|| scan(&merged, k, md));
    let per = |s: f64| s * 1e9 / n as f64;
    push(
        r,
        format!("readdir of {n} shared children in pages of 128, view 0"),
        format!("{:.1} ns per entry", per(plain_secs)),
    );
    push(
        r,
        format!("readdir in a view of {n} children, half shared, half its own (merged)"),
        format!(
            "{:.1} ns per entry ({:.2}× unmerged)",
            per(merged_secs),
            merged_secs / plain_secs
        ),
    );
}

/// Reads of a generated file of 1,000 items: from the valid cache, and right after a change
/// (the change's own cost subtracted), so the second one renders.
fn source_read_rows(r: &mut BenchRun<'_>) {
    let mut t = Tree::new();
    t.generated(b"/dev", b"dev").expect("generated");
    for i in 0..SOURCE_ITEMS {
        let item = format!("if{i:08}: 0 0 0 0");
        t.source_add(b"dev", item.as_bytes()).expect("source_add");
    }
    let h = t.open(b"/dev").expect("open");
    let reps: u64 = if r.opts.quick { 2_000 } else { 20_000 };
    let change = |t: &mut Tree| {
        t.source_add(b"dev", b"x").expect("add");
        t.source_remove(b"dev", b"x").expect("remove");
    };
    let ((), cached) = time(|| {
        for _ in 0..reps {
            black_box(t.read_shared(h).expect("read"));
        }
    });
    let ((), change_only) = time(|| {
        for _ in 0..reps {
            change(&mut t);
        }
    });
    let ((), fresh) = time(|| {
        for _ in 0..reps {
            change(&mut t);
            black_box(t.read_shared(h).expect("read"));
        }
    });
    let per = |s: f64| s * 1e9 / reps as f64;
    let fresh_ns = per(fresh) - per(change_only);
    push(
        r,
        format!("read of a generated file of {SOURCE_ITEMS} items, cache valid"),
        format!("{:.0} ns per read", per(cached)),
    );
    push(
        r,
        "the same read right after a change (fresh render; the change subtracted)".to_string(),
        format!(
            "{fresh_ns:.0} ns per read ({:.0}× the cached read)",
            fresh_ns / per(cached)
        ),
    );
}
