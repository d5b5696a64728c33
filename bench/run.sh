#!/usr/bin/env bash
# Times `tracelint check` against its peers on one generated Thunder-style trace (>= 5 MB, one
# repr leak, one undefined name), in one run, and prints the ratios and MB/s.
#   pyflakes: Debian python3-pyflakes (/usr/bin/python3 -m pyflakes)
#   ruff:     the WebAssembly build (npm @astral-sh/ruff-wasm-nodejs), F821 and F841
# Usage: bench/run.sh [megabytes] [build dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mb=${1:-5}
build=${2:-$here/../build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$here/generate_trace.py" "$work/trace.py" --megabytes "$mb"
size=$(stat -c %s "$work/trace.py")
if [ ! -d "$here/node_modules/@astral-sh/ruff-wasm-nodejs" ]; then
  (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
fi

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

tl=$(best_of_3 "$build/tracelint" check --isolated "$work/trace.py")
tl1=$(best_of_3 "$build/tracelint" check --isolated -j 1 "$work/trace.py")
pf=$(best_of_3 /usr/bin/python3 -m pyflakes "$work/trace.py")
ruff=$(node "$here/ruff_wasm_check.js" "$work/trace.py" 3 | python3 -c 'import json,sys; print(json.load(sys.stdin)["seconds"])')
rss=$( { /usr/bin/time -f "%M" "$build/tracelint" check --isolated "$work/trace.py" >/dev/null || true; } 2>&1 | tail -1)
python3 - "$size" "$tl" "$tl1" "$pf" "$ruff" "$rss" <<'PY'
import sys
size, tl, tl1, pf, ruff, rss = (float(x) for x in sys.argv[1:])
mb = size / 1e6
print(f"trace: {mb:.1f} MB")
print(f"tracelint check        {tl:7.3f} s  {mb / tl:7.1f} MB/s")
print(f"tracelint check -j 1   {tl1:7.3f} s  {mb / tl1:7.1f} MB/s")
print(f"pyflakes               {pf:7.3f} s  {mb / pf:7.1f} MB/s   tracelint is {pf / tl:.2f}x pyflakes' speed")
print(f"ruff (wasm, in-process){ruff:7.3f} s  {mb / ruff:7.1f} MB/s   tracelint is {ruff / tl:.2f}x ruff-wasm's speed (target >= 10x)")
print(f"tracelint peak RSS     {rss / 1024:7.1f} MB = {rss * 1024 / size:.1f}x the trace (target <= 3x)")
PY
