#!/usr/bin/env bash
# usage: check_torch_configure.sh SOURCE_DIR TOOLS_PYTHON
# CMake against a pip PyTorch 2.x (the tools venv's): TRACELINT_TORCH_PYTHON finds its libtorch,
# headers and library alike, and Torch_DIR alone, which would pair pip's headers with Debian's
# libtorch.so, is refused with the reason. Configure only: `make test-torch2` builds and runs the
# libtorch tests against it. Exit 77 (skipped) without the tools venv; under CI=true, 1.
set -uo pipefail
source_dir=$1 python=$2
if ! "$python" -c "import torch" 2>/dev/null; then
  echo "check_torch_configure: no torch in $python: run scripts/bootstrap.sh"
  [ "${CI:-}" = true ] && exit 1
  exit 77
fi
torch_root=$("$python" -c "import os, torch; print(os.path.realpath(os.path.dirname(torch.__file__)))")
version=$("$python" -c "import torch; print(torch.__version__.split('+')[0])")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(-G Ninja -DTRACELINT_ANALYZER=OFF -DTRACELINT_PYTHON=OFF -DTRACELINT_BENCH=OFF)

cmake -S "$source_dir" -B "$work/pip" "${common[@]}" -DTRACELINT_TORCH_PYTHON="$python" >"$work/pip.log" 2>&1
rc=$?
expected="libtorch: $torch_root/lib/libtorch.so ($version)"
if [ $rc -ne 0 ] || ! grep -qF -- "$expected" "$work/pip.log"; then
  cat "$work/pip.log"
  echo "check_torch_configure: FAILED: with TRACELINT_TORCH_PYTHON, expected exit 0 and '$expected'"
  exit 1
fi
echo "with TRACELINT_TORCH_PYTHON: $expected"

cmake -S "$source_dir" -B "$work/mixed" "${common[@]}" -DTorch_DIR="$torch_root/share/cmake/Torch" \
  >"$work/mixed.log" 2>&1
rc=$?
if [ -e /usr/lib/x86_64-linux-gnu/libtorch.so ]; then
  if [ $rc -eq 0 ] || ! grep -q "another libtorch" "$work/mixed.log"; then
    cat "$work/mixed.log"
    echo "check_torch_configure: FAILED: Torch_DIR alone beside Debian's libtorch was not refused"
    exit 1
  fi
  echo "Torch_DIR alone beside Debian's libtorch: refused ($(grep -o 'but it found [^,]*' "$work/mixed.log"))"
fi
