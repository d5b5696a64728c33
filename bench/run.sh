#!/usr/bin/env bash
# Times `tracelint check` against its peers, in one run, on two generated Thunder-style traces
# of the same size and prints the times, MB/s and ratios:
#   valid (the default, the one the targets are measured on): valid Python with one undefined
#     name, so every tool does all its work on every line;
#   leak (reported separately): the same trace with one slice bound printed as its debug repr,
#     a syntax error: ruff then reports only the syntax error (its lint rules do not run) and
#     pyflakes stops at it, so their figures there are a parse, not a check.
# Peers, from the tools venv (deps/tools.txt; scripts/bootstrap.sh makes it, .venv-tools links it):
#   ruff:     native ruff, `ruff check --isolated --select F821,F841`, a whole process: without
#             its cache (--no-cache: it parses and checks the file) and with it (a warm cache of
#             the unchanged file: ruff reads its cached result and checks nothing)
#   pyflakes: `python -m pyflakes`, a whole process
# tracelint is timed as a whole process at -j 1 and -j 2 (it has no cache). Times are the best
# of 3 runs.
# Usage: bench/run.sh [megabytes] [build dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mb=${1:-5}
build=${2:-$here/../build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/generate_trace.py" "$work/valid.py" --megabytes "$mb" >/dev/null
python3 "$here/generate_trace.py" "$work/leak.py" --megabytes "$mb" --leak >/dev/null
tools=${TRACELINT_TOOLS_VENV:-$here/../.venv-tools}
if [ ! -x "$tools/bin/ruff" ] || ! "$tools/bin/python" -c "import pyflakes" 2>/dev/null; then
  echo "bench/run.sh: no ruff or pyflakes in the tools venv $tools: run scripts/bootstrap.sh (make does)" >&2
  exit 2
fi
ruff=("$tools/bin/ruff" check --isolated --select F821,F841 --output-format concise)

best_of_3() { # prints the best wall time of three runs of "$@", in seconds
  local best=""
  for _ in 1 2 3; do
    local start end t
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

measure() { # name file: prints one line of figures for the report below
  local name=$1 file=$2
  local tl2 tl1 pf ruff_cold ruff_cached rss tl_found pf_found ruff_found
  tl2=$(best_of_3 "$build/tracelint" check --isolated -j 2 "$file")
  tl1=$(best_of_3 "$build/tracelint" check --isolated -j 1 "$file")
  pf=$(best_of_3 "$tools/bin/python" -m pyflakes "$file")
  ruff_cold=$(best_of_3 "${ruff[@]}" --no-cache "$file")
  "${ruff[@]}" --cache-dir "$work/ruff-cache" "$file" >/dev/null 2>&1 || true # fills the cache
  ruff_cached=$(best_of_3 "${ruff[@]}" --cache-dir "$work/ruff-cache" "$file")
  ruff_found=$({ "${ruff[@]}" --no-cache "$file" 2>&1 || true; } | grep -c -E ':[0-9]+:[0-9]+: ' || true)
  rss=$( { /usr/bin/time -f "%M" "$build/tracelint" check --isolated -j 2 "$file" >/dev/null || true; } 2>&1 | tail -1)
  tl_found=$({ "$build/tracelint" check --isolated --format json "$file" 2>/dev/null || true; } |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(len(f["diagnostics"]) for f in d["files"]))')
  pf_found=$({ "$tools/bin/python" -m pyflakes "$file" 2>&1 || true; } | grep -c . || true)
  echo "$name $(stat -c %s "$file") $tl2 $tl1 $pf $ruff_cold $ruff_cached $rss $tl_found $pf_found $ruff_found"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
valid=$(measure valid "$work/valid.py")
leak=$(measure leak "$work/leak.py")
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

versions="$("${ruff[0]}" --version), pyflakes $("$tools/bin/python" -m pyflakes --version | cut -d' ' -f1)"
python3 - "$load_before" "$load_after" "$(nproc)" "$versions" "$valid" "$leak" <<'PY'
import sys
load_before, load_after, cores, versions = sys.argv[1:5]
print(f"machine: {cores} cores; load average (1, 5, 15 min) {load_before} before, {load_after} after")
print(f"peers: {versions}")
for line in sys.argv[5:]:
    name, size, tl2, tl1, pf, ruff_cold, ruff_cached, rss, tl_found, pf_found, ruff_found = line.split()
    size, tl2, tl1, pf, ruff_cold, ruff_cached, rss = (
        float(x) for x in (size, tl2, tl1, pf, ruff_cold, ruff_cached, rss))
    mb = size / 1e6
    if name == "valid":
        print(f"\nvalid trace, {mb:.1f} MB (every tool does all its work; the targets are measured here)")
    else:
        print(f"\ntrace with a repr leak, {mb:.1f} MB (a syntax error: ruff reports only it and runs "
              "no lint rule, pyflakes stops at it; not a like-for-like check)")
    rows = [
        ("tracelint check -j 2 (process)", tl2, f"{tl_found} findings"),
        ("tracelint check -j 1 (process)", tl1, ""),
        ("ruff check --no-cache (process)", ruff_cold, f"{ruff_found} findings"),
        ("ruff check, warm cache (process)", ruff_cached, "reads its cached result"),
        ("pyflakes (process)", pf, f"{pf_found} lines of output"),
    ]
    print(f"| {'tool':40} | {'seconds':>8} | {'MB/s':>6} | notes |")
    print(f"|{'-' * 42}|{'-' * 10}|{'-' * 8}|-------|")
    for label, t, note in rows:
        print(f"| {label:40} | {t:8.3f} | {mb / t:6.1f} | {note} |")
    print("tracelint -j 2's speed against:")
    print(f"  ruff check --no-cache                {ruff_cold / tl2:5.2f}x  (target >= 1.0)")
    print(f"  ruff check with a warm cache         {ruff_cached / tl2:5.2f}x")
    print(f"  pyflakes                             {pf / tl2:5.2f}x  (target >= 10)")
    print(f"  tracelint -j 1                       {tl1 / tl2:5.2f}x")
    print(f"tracelint peak RSS (-j 2): {rss / 1024:.1f} MB = {rss * 1024 / size:.2f}x the trace (target <= 3x)")
PY
