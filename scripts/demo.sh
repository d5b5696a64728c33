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
echo
echo "== The tracer: the slice bug's own function, traced under symbolic values. The prologue"
echo "   binds every input proxy, the slice prints i10, and --run executes the traces with"
echo "   libtorch against an eager run of the same Python (report on stderr):"
"$build/tracelint" trace examples/tracer/models.py -f slice_half -a 'a=f32[2, 4]@cuda' --run || exit 2
echo
echo "== A collection input: the slice inside key is unpacked and its stop bound to a name:"
"$build/tracelint" trace examples/tracer/models.py -f index_with_key -a 'a=f32[2, 3, 12]' \
  -a 'key=(..., slice(None, 8, None))' --no-provenance --run 2>&1 | sed -n '/def prologue/,$p' || exit 2
echo
echo "== Llama-style causal self-attention, flattened to prims, executed and compared:"
"$build/tracelint" run examples/tracer/models.py -f causal_self_attention -a 'x=f32[2, 8, 32]' \
  -a 'w_qkv=f32[96, 32]' -a 'w_out=f32[32, 32]' -a 'mask=f32[16, 16]' -a n_head=4 --level prims || exit 2
echo
echo "== Training: the slice's backward (augmented forward and backward_fn); the slice bound i10"
echo "   is saved for the backward and unpacked by name; the gradient is compared with autograd:"
"$build/tracelint" trace examples/tracer/models.py -f slice_half -a 'a=f32[2, 4]:grad' --grad \
  --no-provenance --run 2>&1 | sed -n '/def augmented_forward_fn/,$p' || exit 2
echo
echo "== The swiglu MLP as an execution trace with fusion regions (each one CUDA kernel):"
"$build/tracelint" trace examples/tracer/models.py -f swiglu_mlp -a 'x=f32[2, 8, 32]' \
  -a 'w_gate=f32[64, 32]' -a 'w_up=f32[64, 32]' -a 'w_down=f32[32, 64]' \
  --executors cuda_fusion,torch --no-provenance 2>/dev/null | sed -n '/def computation/,$p' || exit 2
echo "demo: done"
