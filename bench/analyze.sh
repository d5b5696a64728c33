#!/usr/bin/env bash
# Times `tracelint analyze` against `clang++-14 -fsyntax-only` on the same translation units with
# the same flags (from build/compile_commands.json, warnings left out), in two sets: small
# printers (core's printer and values, the seed-trace example) and large translation units (the
# analyzer's own printer_analysis.cpp, which includes Clang's AST headers, and the tracer).
# The two tools run alternately, ROUNDS times (default 5), so that load from other processes
# falls on both; it prints the median wall-clock and CPU (user + system) time of each and their
# ratios (target <= 1.3x), with the load average before and after.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
rounds=${ROUNDS:-5}
root=$(realpath "$here/..")
python3 - "$build" "$rounds" "$root" <<'PY'
import json, os, resource, shlex, statistics, subprocess, sys, time

build, rounds, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sets = {
    "small printers": ["core/src/printer.cpp", "core/src/value.cpp", "examples/seed_trace.cpp"],
    "large TUs": ["analyzer/src/printer_analysis.cpp", "tracer/src/tracer.cpp"],
}
db = {e["file"]: e for e in json.load(open(os.path.join(build, "compile_commands.json")))}

def syntax_only(path):
    entry = db[path]
    args = shlex.split(entry["command"]) if "command" in entry else entry["arguments"]
    out = [a for i, a in enumerate(args) if a not in ("-o", "-c") and (i == 0 or args[i - 1] != "-o")]
    out = ["clang++-14", "-fsyntax-only"] + [a for a in out[1:] if not a.startswith("-W") and a != "-Werror"]
    return out, entry["directory"]

def timed(commands):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    for argv, cwd in commands:
        subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu

print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs, {rounds} rounds")
for name, files in sets.items():
    paths = [os.path.join(root, f) for f in files]
    tracelint = [([os.path.join(build, "tracelint"), "analyze", "-p", build] + paths, build)]
    clang = [syntax_only(p) for p in paths]
    t, c = [], []
    for _ in range(rounds):
        t.append(timed(tracelint))
        c.append(timed(clang))
    tw, tc = statistics.median(x[0] for x in t), statistics.median(x[1] for x in t)
    cw, cc = statistics.median(x[0] for x in c), statistics.median(x[1] for x in c)
    print(f"{name} ({len(files)} files): tracelint analyze {tw:.2f} s wall / {tc:.2f} s CPU, "
          f"clang++ -fsyntax-only {cw:.2f} s / {cc:.2f} s: {tw / cw:.2f}x wall, {tc / cc:.2f}x CPU "
          f"(target <= 1.3x)")
print(f"load average after: {os.getloadavg()[0]:.2f}")
PY
