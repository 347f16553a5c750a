//! The report as Markdown tables.

use std::fmt::Write;

use super::{BenchReport, Point};

/// `1.23 µs`-style formatting of a nanosecond figure.
pub(super) fn fmt_ns(ns: f64) -> String {
    if !ns.is_finite() {
        "-".into()
    } else if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn cell(p: Option<&&Point>) -> String {
    match p {
        None => String::new(),
        Some(p) => match &p.skipped {
            Some(why) => format!("skipped ({why})"),
            None => format!("{} ({:.3} s)", fmt_ns(p.ns_per_op()), p.secs),
        },
    }
}

/// (case id, title, what one op is)
pub(super) const CASES: [(&str, &str, &str); 9] = [
    (
        "create",
        "1. Create N entries in one directory",
        "one create",
    ),
    (
        "register",
        "2. Register N tables of 20 rows under net/ipv4/conf/<dev>",
        "one registration (21 entries)",
    ),
    (
        "unregister",
        "3a. Unregister the N tables again",
        "one unregistration (21 entries)",
    ),
    (
        "remove",
        "3b. Remove the N entries of case 1 one by one, in creation order",
        "one remove",
    ),
    (
        "remove_subtree",
        "3c. remove_subtree of a directory with N entries",
        "one entry removed",
    ),
    (
        "lookup",
        "4a. Lookup of random existing names (lookup_at)",
        "one lookup",
    ),
    (
        "readdir",
        "4b. Full readdir in pages of 128",
        "one entry returned",
    ),
    (
        "resume",
        "4c. Resume readdir at a random position (one page of 128)",
        "one page",
    ),
    ("memory", "6. Memory", ""),
];

pub(super) fn markdown(rep: &BenchReport) -> String {
    let mut out = String::new();
    if rep.quick {
        out.push_str("_Quick smoke run: few repetitions, small N; not the reference numbers._\n\n");
    }
    out.push_str("Cells: time per operation (total time of the timed loop). All series of a table were measured in the same process run.\n\n");
    for (case, title, op) in CASES {
        let pts: Vec<&Point> = rep.points.iter().filter(|p| p.case == case).collect();
        if case != "memory" && !pts.is_empty() {
            case_table(&mut out, title, op, &pts);
        }
    }
    extra_tables(&mut out, rep);
    out
}

/// One case: a row per N, a column per series.
fn case_table(out: &mut String, title: &str, op: &str, pts: &[&Point]) {
    let mut series: Vec<&str> = Vec::new();
    for p in pts {
        if !series.contains(&p.series) {
            series.push(p.series);
        }
    }
    let _ = writeln!(out, "### {title}\n\nPer op = {op}.\n");
    let _ = writeln!(out, "| N | {} |", series.join(" | "));
    let _ = writeln!(out, "|---:|{}", "---:|".repeat(series.len()));
    let mut ns: Vec<u64> = pts.iter().map(|p| p.n).collect();
    ns.sort_unstable();
    ns.dedup();
    for n in ns {
        let cells: Vec<String> = series
            .iter()
            .map(|s| cell(pts.iter().find(|p| p.n == n && p.series == *s)))
            .collect();
        let _ = writeln!(out, "| {n} | {} |", cells.join(" | "));
    }
    out.push('\n');
}

/// The listing, memory, harness and goal tables.
fn extra_tables(out: &mut String, rep: &BenchReport) {
    if !rep.listing.is_empty() {
        out.push_str(
            "### 5. Listing reads at 1,000 children\n\n| read | time per read |\n|---|---:|\n",
        );
        for (what, ns) in &rep.listing {
            let _ = writeln!(out, "| {what} | {} |", fmt_ns(*ns));
        }
        out.push('\n');
    }
    if !rep.memory.is_empty() {
        out.push_str("### 6. Memory (counting global allocator: live requested bytes after building − before, / entries)\n\n| layout | series | N | bytes per entry |\n|---|---|---:|---:|\n");
        for (case, s, n, b) in &rep.memory {
            let _ = writeln!(out, "| {case} | {s} | {n} | {b:.1} |");
        }
        out.push('\n');
    }
    for (title, header, rows) in [
        (
            "7. Harness throughput",
            "| what | throughput |",
            &rep.harness,
        ),
        (
            "8. Namespaces and sources",
            "| case | measured |",
            &rep.namespaces,
        ),
        ("9. Hostile names", "| case | measured |", &rep.hostile),
        (
            "10. Threads sharing one tree",
            "| case | measured |",
            &rep.concurrency,
        ),
    ] {
        push_rows(out, title, header, rows);
    }
    super::peers::markdown(out, &rep.peers);
    if !rep.goals.is_empty() {
        out.push_str("### Goals\n\n| goal | measured (this run) | met |\n|---|---|---|\n");
        for g in &rep.goals {
            let met = match g.met {
                Some(true) => "met",
                Some(false) => "**missed**",
                None => "not measured",
            };
            let _ = writeln!(out, "| {} | {} | {met} |", g.goal, g.measured);
        }
        out.push('\n');
    }
}

/// A two-column section: its title, header and one row per (what, value), if any.
fn push_rows(out: &mut String, title: &str, header: &str, rows: &[(String, String)]) {
    if rows.is_empty() {
        return;
    }
    let _ = write!(out, "### {title}\n\n{header}\n|---|---|\n");
    for (what, v) in rows {
        let _ = writeln!(out, "| {what} | {v} |");
    }
    out.push('\n');
}
