#!/usr/bin/env bash
# usage: scripts/fuzz.sh [BUILD_DIR] [SECONDS] [smoke|run|long]
# Builds the libFuzzer targets with clang (ASan + UBSan) in BUILD_DIR and runs each for SECONDS
# from its seeds: the corpus kept in fuzz/corpus/<target>/, the rule fixtures and examples,
# generated seeds of the shapes mutation does not reach (scripts/fuzz_seeds.py), plus
# ../shared's Thunder traces when they are there (read in place, never copied into the
# repository).
#   smoke, run: stop at the first target that fails (make fuzz-smoke, make fuzz).
#   long: run every target even after one fails, merge what each found into fuzz/corpus/
#         (-merge=1: only inputs that add coverage, smallest first), and write the run's
#         figures into docs/fuzzing.md (make fuzz-long); fails at the end if a target failed.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
seconds=${2:-15}
mode=${3:-run}
case $mode in smoke | run | long) ;; *)
  echo "fuzz.sh: unknown mode '$mode' (smoke, run or long)" >&2
  exit 2
  ;;
esac
targets=(fuzz_validator fuzz_roundtrip fuzz_type_string fuzz_tracer fuzz_streaming fuzz_tracer_chunked
  fuzz_config fuzz_interpreter)
# FUZZ_TARGETS="a b" runs only those (a long run of a subset leaves docs/fuzzing.md's table as is).
if [ -n "${FUZZ_TARGETS:-}" ]; then
  read -r -a targets <<<"$FUZZ_TARGETS"
fi
# TRACELINT_CHUNK_BYTES: chunks of 1 KB instead of 8 KB (core/src/chunking.hpp), so that the
# chunked paths are reached by inputs of a few KB rather than 16 KB of padding each.
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g -O1"
flags+=" -DTRACELINT_CHUNK_BYTES=1024"
# No coverage for library code whose edges say nothing about the input (see the file).
flags+=" -fsanitize-coverage-ignorelist=$PWD/fuzz/coverage-ignorelist.txt"
cmake -S . -B "$build" -G Ninja -DTRACELINT_FUZZ=ON -DTRACELINT_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >"$build.configure.log" 2>&1 ||
  {
    cat "$build.configure.log"
    exit 2
  }
cmake --build "$build" --target "${targets[@]}"

seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds/traces" "$seeds/types" "$seeds/python"
cp rules/fixtures/*.py examples/*.py "$seeds/traces/"
for d in ../shared/corpus/thunder/real ../shared/corpus/thunder/bad; do
  [ -d "$d" ] && cp "$d"/*.py "$seeds/traces/"
done
i=0
grep -ho '"[^"]*\[[^"]*\]"' "$seeds"/traces/*.py | sort -u | while read -r t; do
  printf '%s' "${t:1:${#t}-2}" >"$seeds/types/$i"
  i=$((i + 1))
done
printf 'int 2' >"$seeds/types/int"
printf 'Collection' >"$seeds/types/collection"
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
python3 scripts/fuzz_seeds.py "$seeds/generated"
# A smoke run's 12 s would go to running the 60 KB seeds once (the tracer takes about 27 s on
# the 60 KB one under ASan): it keeps those up to 8 KB, which reach the same shapes less deep.
[ "$mode" = smoke ] && find "$seeds/generated" -type f -size +10k -delete

seeds_of() { # target: its seed directories
  case $1 in
  fuzz_validator | fuzz_streaming) echo "$seeds/traces $seeds/generated/traces" ;;
  fuzz_tracer | fuzz_tracer_chunked) echo "$seeds/python $seeds/generated/python" ;;
  fuzz_type_string) echo "$seeds/types $seeds/generated/types" ;;
  fuzz_config) echo "$seeds/generated/configs" ;;
  fuzz_interpreter) echo "$seeds/generated/programs" ;;
  esac
}
max_len_of() { # fuzz_roundtrip's and fuzz_interpreter's bytes are their generators' choices
  case $1 in
  fuzz_roundtrip | fuzz_interpreter) echo 4096 ;;
  *) echo 65536 ;;
  esac
}
# The tracer's work is linear in its input but large per byte under ASan + UBSan: the generated
# 15,000-term `x + 1 + ...` seed (60 KB) takes about 27 s there (0.6 s in a release build, which
# traces 4000/8000/16000 terms in 0.16/0.31/0.59 s), so 10 s per input reported a slow seed as
# a hang in the hour-long run. Its targets get 120 s; a real hang still fails.
timeout_of() { # target: libFuzzer's -timeout, seconds per input
  case $1 in
  fuzz_tracer | fuzz_tracer_chunked) echo 120 ;;
  fuzz_interpreter) echo 30 ;; # CPython gets 5 s per program; the tracer up to its step limit
  *) echo 10 ;;
  esac
}
# The interpreter has no cycle collector: a program's value that holds itself (d0[k] = d0) is
# never freed, as documented, so LeakSanitizer's report at exit is not a finding there.
leak_flags_of() { # target
  if [ "$1" = fuzz_interpreter ]; then echo "-detect_leaks=0"; fi
}
asan_options_of() { # target: LeakSanitizer's check at exit too
  if [ "$1" = fuzz_interpreter ]; then echo "detect_leaks=0"; fi
}
common_flags() { # target
  echo "-max_len=$(max_len_of "$1") -timeout=$(timeout_of "$1") -rss_limit_mb=4096 $(leak_flags_of "$1")"
}

mkdir -p "$build/artifacts" "$build/runs"
# What the report names: the commit the targets were built from (and whether the tree had
# changes), and how many targets ran at once.
commit=$(git rev-parse --short HEAD 2>/dev/null || echo "?")
git diff --quiet HEAD -- . ':!fuzz/corpus' ':!docs/fuzzing.md' 2>/dev/null || commit+=" with local changes"
echo "$commit" >"$build/runs/commit"
echo "${FUZZ_PARALLEL:-1}" >"$build/runs/parallel"
failed=()
run() { # target
  local target=$1
  local work="$build/corpus-$target" kept="fuzz/corpus/$target" log="$build/runs/$target.log"
  mkdir -p "$work"
  local dirs=("$work")
  if [ "$mode" = smoke ] && [ -d "$kept" ]; then
    # A smoke run replays the kept inputs of up to 2 KB: all of them would take minutes per
    # target under ASan (the tracer targets keep about 10 MB each), more than make test spends.
    local small="$build/smoke-corpus-$target"
    rm -rf "$small"
    mkdir -p "$small"
    find "$kept" -type f -size -2049c -exec cp -t "$small/" {} +
    dirs+=("$small")
  elif [ -d "$kept" ]; then
    dirs+=("$kept")
  fi
  # shellcheck disable=SC2207
  dirs+=($(seeds_of "$target"))
  echo "fuzz: $target for ${seconds}s"
  # FUZZ_SEED=0 picks a random seed; make fuzz-smoke fixes it so CI runs are repeatable. New
  # inputs go into the first directory (build-fuzz/corpus-<target>), never into the kept one.
  local status=0
  # shellcheck disable=SC2046
  ASAN_OPTIONS=$(asan_options_of "$target") "$build/fuzz/$target" -max_total_time="$seconds" -seed="${FUZZ_SEED:-0}" $(common_flags "$target") \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$target-" "${dirs[@]}" 2>"$log" || status=$?
  echo "$status" >"$build/runs/$target.status"
  if [ "$status" -ne 0 ]; then
    tail -40 "$log"
    echo "fuzz: $target failed (log: $log; input: $(grep -o "Test unit written to .*" "$log" | cut -d' ' -f5))"
    [ "$mode" = long ] || exit 1
    failed+=("$target")
  else
    grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" "$log" | sed 's/^/  /'
  fi
}

# The kept corpus of a target: what it had and what this run found, minimised together
# (libFuzzer's -merge=1 keeps an input only if it adds coverage to those before it, smallest
# first), less what the seeds regenerated on each run already cover and inputs over 8 KB.
keep_max_bytes=8192
keep_corpus() { # target
  local target=$1 kept="fuzz/corpus/$1" merge="$build/merge-$1"
  rm -rf "$merge"
  mkdir -p "$merge/into"
  # shellcheck disable=SC2046
  for d in $(seeds_of "$target"); do cp "$d"/* "$merge/into/"; done
  ls "$merge/into" >"$merge/seed-names"
  mkdir -p "$kept"
  # shellcheck disable=SC2046
  if ! ASAN_OPTIONS=$(asan_options_of "$target") "$build/fuzz/$target" -merge=1 $(common_flags "$target") -artifact_prefix="$merge/" "$merge/into" "$kept" \
    "$build/corpus-$target" >"$merge.log" 2>&1; then
    echo "fuzz: merging $target's corpus failed (log: $merge.log); fuzz/corpus/$target is unchanged"
    return
  fi
  rm -rf "$merge/kept"
  mkdir -p "$merge/kept"
  # Inputs over 8 KB are left out: the generated seeds (rebuilt on every run) reach the large
  # shapes, and the kept corpus travels with every checkout (an hour's run kept 38 MB of them).
  comm -23 <(ls "$merge/into" | sort) <(sort "$merge/seed-names") | while read -r f; do
    if [ "$(stat -c %s "$merge/into/$f")" -le "$keep_max_bytes" ]; then cp "$merge/into/$f" "$merge/kept/"; fi
  done
  rm -rf "$kept"
  cp -r "$merge/kept" "$kept"
  echo "  kept corpus: $(ls "$kept" | wc -l) inputs, $(cat "$kept"/* 2>/dev/null | wc -c) bytes in $kept"
}

if [ "$mode" = long ]; then
  # FUZZ_PARALLEL targets at once (each is one process on one core); their logs are their own.
  parallel=${FUZZ_PARALLEL:-1}
  for target in "${targets[@]}"; do
    run "$target" &
    while (($(jobs -rp | wc -l) >= parallel)); do wait -n || true; done
  done
  wait
  for target in "${targets[@]}"; do
    [ "$(cat "$build/runs/$target.status")" = 0 ] || failed+=("$target")
    keep_corpus "$target"
  done
else
  for target in "${targets[@]}"; do
    run "$target"
  done
fi
if [ "$mode" = long ] && [ -n "${FUZZ_TARGETS:-}" ]; then
  echo "fuzz: a run of FUZZ_TARGETS only: docs/fuzzing.md's table is left as is"
  ((${#failed[@]})) && exit 1
  exit 0
fi
if [ "$mode" = long ]; then
  python3 scripts/fuzz_report.py docs/fuzzing.md "$build/runs" "$seconds" "${targets[@]}"
  echo "fuzz: figures written to docs/fuzzing.md; corpus kept in fuzz/corpus/ ($(cat fuzz/corpus/*/* 2>/dev/null | wc -c) bytes)"
  if ((${#failed[@]})); then
    echo "fuzz: failed: ${failed[*]} (artifacts in $build/artifacts/)"
    exit 1
  fi
fi
