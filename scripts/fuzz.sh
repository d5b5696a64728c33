#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in $1 and runs each for $2 seconds
# from a seed corpus: the rule fixtures and examples, plus ../shared's Thunder traces when
# they are there (read in place, never copied into the repository).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
seconds=${2:-15}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1"
cmake -S . -B "$build" -G Ninja -DTRACELINT_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 2; }
cmake --build "$build" --target fuzz_validator fuzz_roundtrip fuzz_type_string fuzz_tracer fuzz_streaming \
  fuzz_tracer_chunked

seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds/traces" "$seeds/types" "$seeds/python"
cp rules/fixtures/*.py examples/*.py "$seeds/traces/"
for d in ../shared/corpus/thunder/real ../shared/corpus/thunder/bad; do
  [ -d "$d" ] && cp "$d"/*.py "$seeds/traces/"
done
i=0
grep -ho '"[^"]*\[[^"]*\]"' "$seeds"/traces/*.py | sort -u | while read -r t; do
  printf '%s' "${t:1:${#t}-2}" > "$seeds/types/$i"; i=$((i + 1))
done
printf 'int 2' > "$seeds/types/int"; printf 'Collection' > "$seeds/types/collection"
# The tracer's seeds: each function of the model examples, with the module's imports.
python3 - "$seeds/python" <<'PY'
import re, sys
text = open("examples/tracer/models.py").read()
header = "import torch\nimport torch.nn.functional as F\n\n"
parts = re.split(r"\n(?=def )", text)
for i, part in enumerate(p for p in parts if p.startswith("def ")):
    # a function's helpers come after it, so it stays the first one
    open(f"{sys.argv[1]}/{i}.py", "w").write(header + part + "\n" + "\n".join(q for q in parts if q.startswith("def ") and q != part))
PY

run() { # target corpus...
  local target=$1; shift
  local work="$build/corpus-$target"
  mkdir -p "$work"
  echo "fuzz: $target for ${seconds}s"
  # FUZZ_SEED=0 picks a random seed; make fuzz-smoke fixes it so CI runs are repeatable.
  "$build/fuzz/$target" -max_total_time="$seconds" -seed="${FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=4096 \
    -print_final_stats=1 "$work" "$@" 2>"$build/$target.log" ||
    { tail -40 "$build/$target.log"; echo "fuzz: $target failed (log: $build/$target.log)"; exit 1; }
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build/$target.log" | sed 's/^/  /'
}
run fuzz_validator "$seeds/traces"
run fuzz_roundtrip
run fuzz_type_string "$seeds/types"
run fuzz_tracer "$seeds/python"
run fuzz_streaming "$seeds/traces"
run fuzz_tracer_chunked "$seeds/python"
