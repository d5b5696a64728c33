#!/usr/bin/env python3
"""Writes the figures of a `make fuzz-long` run into docs/fuzzing.md, between its two
`fuzz-long` markers: for each target, what its libFuzzer log says (executions, exec/s, the last
cov: and ft:, the corpus it ended with, peak RSS, how it ended) and the corpus kept in
fuzz/corpus/<target>/ after the merge. Only this script writes that table, so its figures are
always a run's.

usage: fuzz_report.py DOC RUNS_DIR SECONDS TARGET...
RUNS_DIR holds <target>.log (libFuzzer's stderr) and <target>.status (its exit code).
"""
import datetime
import os
import re
import sys

BEGIN = "<!-- fuzz-long: begin (written by scripts/fuzz_report.py from a run's logs) -->"
END = "<!-- fuzz-long: end -->"


def read(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def stat(log, name):
    m = re.search(rf"^stat::{name}:\s*(\d+)", log, re.M)
    return int(m.group(1)) if m else None


def last_status_line(log):
    """cov, ft and the corpus ("units/size") of libFuzzer's last status line."""
    lines = [l for l in log.splitlines() if re.match(r"#\d+\s", l) and " cov: " in l]
    if not lines:
        return None, None, None
    line = lines[-1]
    cov = re.search(r" cov: (\d+)", line)
    ft = re.search(r" ft: (\d+)", line)
    corp = re.search(r" corp: (\d+)/(\d+[a-zA-Z]*)", line)
    return (int(cov.group(1)) if cov else None, int(ft.group(1)) if ft else None,
            f"{corp.group(1)} / {corp.group(2)}" if corp else None)


def outcome(log, status):
    if status == "0":
        return "no failure"
    artifact = re.search(r"Test unit written to (\S+)", log)
    where = f" (`{os.path.basename(artifact.group(1))}`)" if artifact else ""
    if "ERROR: libFuzzer: timeout" in log:
        return "timeout" + where
    if "out-of-memory" in log:
        return "out of memory" + where
    summary = re.search(r"^SUMMARY: \w+: (\S+)", log, re.M)
    if summary:
        return summary.group(1) + where
    if "deadly signal" in log:
        return "crash" + where
    return f"exit {status or '?'}{where}"


def kept(target):
    d = os.path.join("fuzz", "corpus", target)
    if not os.path.isdir(d):
        return "-"
    files = [os.path.join(d, f) for f in os.listdir(d)]
    size = sum(os.path.getsize(f) for f in files)
    return f"{len(files)} / {size // 1024} KB"


def fmt(n):
    return "-" if n is None else f"{n:,}"


def table(runs, seconds, targets):
    # Written by fuzz.sh when it built the targets: HEAD may have moved during a long run.
    commit = read(os.path.join(runs, "commit")).strip() or "?"
    parallel = read(os.path.join(runs, "parallel")).strip() or "1"
    at_once = "one target at a time" if parallel == "1" else f"{parallel} targets at a time"
    cpu = "?"
    for line in read("/proc/cpuinfo").splitlines():
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        f"`make fuzz-long FUZZ_LONG_SECONDS={seconds}` on {when}, commit {commit}, "
        f"{os.cpu_count()} cores ({cpu}); {at_once}, ASan and UBSan on.",
        "",
        "| target | executions | exec/s | cov | ft | corpus at the end (inputs / size) "
        "| kept in fuzz/corpus (inputs / size) | peak RSS (MB) | result |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for target in targets:
        log = read(os.path.join(runs, f"{target}.log"))
        status = read(os.path.join(runs, f"{target}.status")).strip()
        cov, ft, corp = last_status_line(log)
        out.append(
            f"| {target} | {fmt(stat(log, 'number_of_executed_units'))} "
            f"| {fmt(stat(log, 'average_exec_per_sec'))} | {fmt(cov)} | {fmt(ft)} | {corp or '-'} "
            f"| {kept(target)} | {fmt(stat(log, 'peak_rss_mb'))} | {outcome(log, status)} |")
    return "\n".join(out)


def main():
    doc, runs, seconds, targets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    text = read(doc)
    if BEGIN not in text or END not in text:
        sys.exit(f"fuzz_report.py: {doc} has no '{BEGIN}' ... '{END}' section to write into")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + "\n" + table(runs, seconds, targets) + "\n" + END + tail)


if __name__ == "__main__":
    main()
