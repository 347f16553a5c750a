#!/usr/bin/env python3
"""Turn the nightly's per-target stat files into summary.json and summary.md.

Input (all under OUT):
  stats/<target>.env   key=value lines written by ci/nightly
  crashes.tsv          target, kind, signature, status (new|duplicate), report, artifact
Output:
  summary.json         deterministic: sorted keys, targets and crashes in a fixed order
  summary.md           the same, as Markdown tables

Usage: ci/summary.py OUT
"""

import json
import os
import sys

INT_KEYS = (
    "budget_s",
    "jobs",
    "execs",
    "fuzz_time_s",
    "corpus_files_before",
    "corpus_bytes_before",
    "cov_before",
    "features_before",
    "corpus_files_after",
    "corpus_bytes_after",
    "cov_after",
    "features_after",
    "new_inputs",
    "fuzz_exit",
    "crash_artifacts",
)


def read_env(path):
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#") or "=" not in line:
                continue
            k, v = line.split("=", 1)
            out[k] = v
    return out


def as_int(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    stats_dir = os.path.join(out, "stats")
    meta = read_env(os.path.join(out, "meta.env")) if os.path.exists(os.path.join(out, "meta.env")) else {}

    targets = []
    for name in sorted(os.listdir(stats_dir)) if os.path.isdir(stats_dir) else []:
        if not name.endswith(".env"):
            continue
        raw = read_env(os.path.join(stats_dir, name))
        t = {"target": raw.get("target", name[:-4])}
        for k in INT_KEYS:
            t[k] = as_int(raw.get(k))
        execs, secs = t["execs"], t["fuzz_time_s"]
        t["exec_per_s"] = round(execs / secs) if execs is not None and secs else None
        t["libfuzzer_exec_per_s"] = as_int(raw.get("libfuzzer_exec_per_s"))
        for k in ("corpus_files", "corpus_bytes", "features", "cov"):
            a, b = t.get(k + "_before"), t.get(k + "_after")
            t[k + "_delta"] = b - a if a is not None and b is not None else None
        targets.append(t)

    crashes = []  # one row per crash artifact
    tsv = os.path.join(out, "crashes.tsv")
    if os.path.exists(tsv):
        with open(tsv, encoding="utf-8") as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) != 6:
                    continue
                target, kind, sig, status, report, artifact = parts
                crashes.append(
                    {
                        "target": target,
                        "kind": kind,
                        "signature": sig,
                        "status": status,
                        "report": report,
                        "artifact": artifact,
                    }
                )
    # One entry per (target, signature): the artifacts that reproduce it, its report.
    groups = {}
    for c in crashes:
        key = (c["target"], c["signature"])
        g = groups.setdefault(
            key,
            {
                "target": c["target"],
                "signature": c["signature"],
                "kind": c["kind"],
                "status": "duplicate",
                "report": c["report"],
                "artifacts": [],
            },
        )
        g["artifacts"].append(c["artifact"])
        if c["status"] == "new":
            g["status"] = "new"
    unique = [groups[k] for k in sorted(groups)]
    for g in unique:
        g["artifacts"].sort()
        g["count"] = len(g["artifacts"])

    totals = {
        "execs": sum(t["execs"] or 0 for t in targets),
        "crash_artifacts": len(crashes),
        "unique_crashes": len(unique),
        "new_crashes": sum(1 for g in unique if g["status"] == "new"),
        "corpus_files_before": sum(t["corpus_files_before"] or 0 for t in targets),
        "corpus_files_after": sum(t["corpus_files_after"] or 0 for t in targets),
    }
    summary = {
        "schema": 1,
        "started": meta.get("started"),
        "finished": meta.get("finished"),
        "commit": meta.get("commit"),
        "budget_s_per_target": as_int(meta.get("budget_s")),
        "jobs": as_int(meta.get("jobs")),
        "targets": targets,
        "crashes": unique,
        "totals": totals,
    }
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=2, sort_keys=True)
        f.write("\n")

    def fmt(v):
        return "–" if v is None else f"{v:,}" if isinstance(v, int) else str(v)

    def delta(v):
        return "–" if v is None else f"{v:+,}"

    md = []
    md.append("# Nightly fuzzing summary\n")
    md.append(
        f"Commit `{meta.get('commit', '?')}`, {meta.get('started', '?')} → {meta.get('finished', '?')}, "
        f"budget {meta.get('budget_s', '?')} s per target, {meta.get('jobs', '?')} jobs (`-fork`).\n"
    )
    md.append("## Targets\n")
    md.append(
        "| target | execs | exec/s | corpus files before → after | corpus bytes before → after "
        "| coverage (cov) before → after | features (ft) before → after | crash artifacts |"
    )
    md.append("|---|---:|---:|---|---|---|---|---:|")
    for t in targets:
        md.append(
            f"| `{t['target']}` | {fmt(t['execs'])} | {fmt(t['exec_per_s'])} "
            f"| {fmt(t['corpus_files_before'])} → {fmt(t['corpus_files_after'])} ({delta(t['corpus_files_delta'])}) "
            f"| {fmt(t['corpus_bytes_before'])} → {fmt(t['corpus_bytes_after'])} ({delta(t['corpus_bytes_delta'])}) "
            f"| {fmt(t['cov_before'])} → {fmt(t['cov_after'])} ({delta(t['cov_delta'])}) "
            f"| {fmt(t['features_before'])} → {fmt(t['features_after'])} ({delta(t['features_delta'])}) "
            f"| {fmt(t['crash_artifacts'])} |"
        )
    md.append("")
    md.append("## Crashes\n")
    if not crashes:
        md.append("No crashes.\n")
    else:
        md.append(
            f"{totals['crash_artifacts']} crash artifact(s), {totals['unique_crashes']} unique signature(s), "
            f"{totals['new_crashes']} new.\n"
        )
        md.append("| target | kind | signature | status | artifacts | report |")
        md.append("|---|---|---|---|---:|---|")
        for g in unique:
            md.append(
                f"| `{g['target']}` | {g['kind']} | `{g['signature']}` | {g['status']} "
                f"| {g['count']} | [{g['report']}]({g['report']}) |"
            )
        md.append("")
    with open(os.path.join(out, "summary.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
