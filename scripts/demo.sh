#!/usr/bin/env bash
# The main job on the bundled examples: print the seed trace built through the model API and
# validate it, then show a buggy trace flagged with carets and fixes.
set -uo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== The seed trace, built through the model API (slice holds IntegerProxy i10):"
"$build/examples/seed_trace" > "$out/seed_trace.py" || exit 2
cat "$out/seed_trace.py"
echo
echo "== tracelint check on it (expect: clean):"
"$build/tracelint" check --isolated "$out/seed_trace.py" || exit 2
echo
echo "== tracelint check examples/buggy_trace.py (expect: findings, exit 1):"
"$build/tracelint" check --isolated examples/buggy_trace.py
rc=$?
[ "$rc" -eq 1 ] || { echo "demo: expected exit 1, got $rc" >&2; exit 2; }
echo "== The fixes tracelint can apply (--diff writes nothing):"
"$build/tracelint" check --isolated --diff examples/buggy_trace.py
echo
echo "== The same trace written correctly (examples/fixed_trace.py): the collection is flattened,"
echo "   the shape symbol is unpacked, the slice prints i2, and t0 is deleted after its last use:"
"$build/tracelint" check --isolated --fail-on info examples/fixed_trace.py || exit 2
echo "demo: done"
