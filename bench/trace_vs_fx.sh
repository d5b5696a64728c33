#!/usr/bin/env bash
# `tracelint trace` end to end as a process (read, trace, print, validate its own output) against
# torch.fx.symbolic_trace + GraphModule.code on the same generated function of N tensor ops
# (bench/trace_bench --source N: elementwise ops, tanh, a reshape round trip, a mean), in one run.
# Two ratios: process against process (python3 pays for importing torch), and tracelint's whole
# process against fx's tracing and code generation alone, timed inside Python after the import.
# Usage: bench/trace_vs_fx.sh [ops] [build dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
ops=${1:-10000}
build=${2:-$here/../build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bench/trace_bench" --source "$ops" > "$work/generated.py"
if ! /usr/bin/python3 -c 'import torch.fx' 2>/dev/null; then
  echo "trace_vs_fx: /usr/bin/python3 has no torch (scripts/bootstrap.sh installs python3-torch)" >&2
  exit 77
fi
cat > "$work/fx_trace.py" <<'PY'
import importlib.util, sys, time
import torch, torch.fx
spec = importlib.util.spec_from_file_location("generated", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
best = 1e30
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    gm = torch.fx.symbolic_trace(module.f)
    code = gm.code
    best = min(best, time.perf_counter() - start)
nodes = sum(1 for n in gm.graph.nodes if n.op == "call_function" or n.op == "call_method")
print(f"{best} {nodes} {len(code)}")
PY

best_of_3() { # the best wall time of three runs of "$@", in seconds
  local best=""
  for _ in 1 2 3; do
    local start end t
    start=$(date +%s.%N)
    "$@" > /dev/null
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}

args=(-f f -a 'x=f32[64, 64]' -a 'w=f32[64]' --no-provenance)
"$build/tracelint" trace "$work/generated.py" "${args[@]}" > "$work/trace.py"
symbols=$(grep -c '^  t[0-9]* = ltorch\.' "$work/trace.py" || true)
tl=$(best_of_3 "$build/tracelint" trace "$work/generated.py" "${args[@]}")
fx_process=$(best_of_3 /usr/bin/python3 "$work/fx_trace.py" "$work/generated.py" 1)
read -r fx_inner fx_nodes fx_chars < <(/usr/bin/python3 "$work/fx_trace.py" "$work/generated.py" 3)
python3 - "$ops" "$symbols" "$tl" "$fx_process" "$fx_inner" "$fx_nodes" <<'PY'
import sys
ops, symbols = int(sys.argv[1]), int(sys.argv[2])
tl, fx_process, fx_inner, fx_nodes = (float(x) for x in sys.argv[3:7])
print(f"generated function: {ops} tensor ops; tracelint: {symbols} top-level ltorch symbols "
      f"(with prims subsymbols, validated); torch.fx: {int(fx_nodes)} call nodes")
print(f"tracelint trace (process, end to end):         {tl:8.3f} s  {symbols / tl:10.0f} symbols/s")
print(f"python3 + torch.fx.symbolic_trace + .code:     {fx_process:8.3f} s  (process, torch import included)")
print(f"torch.fx.symbolic_trace + .code (in Python):   {fx_inner:8.3f} s  {fx_nodes / fx_inner:10.0f} nodes/s")
print(f"ratio, process / process:                      {fx_process / tl:8.2f}x (above 1: tracelint is faster)")
print(f"ratio, fx in-process / tracelint process:      {fx_inner / tl:8.2f}x")
PY
