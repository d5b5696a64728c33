#!/usr/bin/env bash
# usage: scripts/device_cuda.sh [OUT_DIR]
# The cuda_fusion checks on a GPU machine whose image has the CUDA Toolkit (/usr/local/cuda,
# nvcc 13) and a pip PyTorch with CUDA (/opt/torch/.venv) but none of our Debian packages and no
# network. Run scripts/device_deps.sh here first, then, with the device tool:
#   command: scripts/device_cuda.sh $OUT   carry: [".device", ".deps"]   timeout_s: 540
# It unpacks the carried .debs into a prefix, builds the tracer against the pip PyTorch
# (-DTRACELINT_TORCH_PYTHON=python3, no analyzer, no Python module), then runs:
# the fusion tests on the GPU, `tracelint trace --run` with cuda inputs, and bench/fusion_bench
# (the regions as kernels against the same trace with its regions run as their prims by
# tracelint's executor, a libtorch call per prim; same device).
# Everything it prints also goes to OUT_DIR/device.log.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-/tmp/device-out}
mkdir -p "$out"
exec > >(tee "$out/device.log") 2>&1
step() { printf '\n== %s (%s s)\n' "$1" "$SECONDS"; }

step "the machine"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
nvcc --version | tail -1 || true
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, torch.cuda.is_available())'
${CXX:-c++} --version | head -1

step "dependencies: the carried .debs, unpacked into a prefix"
ls .device/debs/*.deb >/dev/null 2>&1 || {
  echo "no .device/debs: run scripts/device_deps.sh on the build machine and carry .device"
  exit 2
}
prefix=/tmp/tracelint-deps
rm -rf "$prefix"
for deb in .device/debs/*.deb; do dpkg -x "$deb" "$prefix"; done
# The tests read ../shared/models/nanogpt/model.py (device_deps.sh put a copy in .device).
if [ -d .device/shared ] && [ ! -e ../shared/models/nanogpt/model.py ]; then
  mkdir -p ../shared && cp -r .device/shared/. ../shared/
fi

step "configure against the pip PyTorch"
cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix/usr" -DTRACELINT_TORCH_PYTHON="$(command -v python3)" \
  -DCUDAToolkit_ROOT=/usr/local/cuda -DTRACELINT_ANALYZER=OFF -DTRACELINT_PYTHON=OFF \
  -DTRACELINT_WERROR=OFF >"$out/configure.log" 2>&1 || {
  tail -40 "$out/configure.log"
  exit 2
}
grep -E "NVRTC|Torch|CUDA|libtorch" "$out/configure.log" | head -10

step "build"
cmake --build build-device -j "$(nproc)" --target tracelint tracelint_torch tracer_run_tests \
  fusion_bench >"$out/build.log" 2>&1 || {
  grep -E "error|Error" -A3 "$out/build.log" | head -80
  exit 2
}
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

status=0
step "the fusion tests, on the GPU"
timeout 240 build-device/tests/tracer_run_tests -tc='fusion*' || status=1

step "tracelint trace --run with cuda inputs: the regions as kernels"
timeout 60 build-device/tracelint trace examples/tracer/models.py -f rms_norm \
  -a 'x=f32[4, 64, 256]@cuda' -a 'weight=f32[256]@cuda' --executors cuda_fusion,torch --run \
  | tail -n 8 || status=1
if [ -f ../shared/models/nanogpt/model.py ]; then
  timeout 120 build-device/tracelint trace ../shared/models/nanogpt/model.py -m GPT \
    --init 'config=GPTConfig(n_layer=2, n_head=2, n_embd=64, block_size=32, vocab_size=128)' \
    -a 'idx=i64[2, 16]@cuda:0..128' -a 'targets=i64[2, 16]@cuda:0..128' --grad \
    --executors cuda_fusion,torch --run | tail -n 8 || status=1
fi

step "bench: regions as kernels against regions as prims (tracelint's executor), same trace, same GPU"
timeout 180 build-device/bench/fusion_bench 21 || status=1

step "the rest of the executor's tests on this machine (written for a CPU libtorch: a failure here says what a CUDA libtorch changes)"
timeout 120 build-device/tests/tracer_run_tests -tce='fusion*' 2>&1 | tail -40

step "done: status $status"
exit $status
