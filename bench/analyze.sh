#!/usr/bin/env bash
# Times `tracelint analyze` against `clang++ -fsyntax-only` on the same translation units with
# the same flags (from build/compile_commands.json), best of three; prints the ratio
# (target <= 1.3x).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
files=("$here/../core/src/printer.cpp" "$here/../core/src/value.cpp" "$here/../examples/seed_trace.cpp")
best() {
  local best=""
  for _ in 1 2 3; do
    local s e t
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    t=$(echo "$e - $s" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}
syntax_only() {
  for f in "${files[@]}"; do
    python3 - "$build/compile_commands.json" "$(realpath "$f")" <<'PY' | bash
import json, shlex, sys
db, target = sys.argv[1], sys.argv[2]
for entry in json.load(open(db)):
    if entry["file"] == target:
        args = shlex.split(entry["command"])
        out = [a for i, a in enumerate(args) if a not in ("-o", "-c") and (i == 0 or args[i - 1] != "-o")]
        out = ["clang++-14", "-fsyntax-only"] + [a for a in out[1:] if not a.startswith("-W") and a != "-Werror"]
        print("cd " + shlex.quote(entry["directory"]) + " && " + " ".join(shlex.quote(a) for a in out))
PY
  done
}
tl=$(best "$build/tracelint" analyze -p "$build" "${files[@]}")
cl=$(best syntax_only)
python3 -c "import sys; tl, cl = map(float, sys.argv[1:]); print(f'tracelint analyze {tl:.3f} s, clang++ -fsyntax-only {cl:.3f} s: {tl / cl:.2f}x (target <= 1.3x)')" "$tl" "$cl"
