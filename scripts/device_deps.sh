#!/usr/bin/env bash
# usage: scripts/device_deps.sh
# Gathers, on this (Debian 12) machine, what scripts/device_cuda.sh needs on the GPU machine and
# that machine's image lacks: the .debs of the header and small libraries the tracer builds
# against (no Clang: the analyzer is left out there; no libtorch: the image's pip PyTorch with
# CUDA is used) into .device/debs, and ../shared's nanoGPT model into .device/shared. Both are
# ignored by git and carried by the device tool:
#   carry: [".device", ".deps"]
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(libfmt-dev libfmt9 nlohmann-json3-dev libcli11-dev libtomlplusplus-dev libtomlplusplus3
  doctest-dev)
rm -rf .device/debs
mkdir -p .device/debs
(cd .device/debs && apt-get download "${packages[@]}")
# The tree-sitter sources (scripts/tree_sitter_sources.py) are in .deps/ once make has run.
python3 scripts/tree_sitter_sources.py
if [ -f ../shared/models/nanogpt/model.py ]; then
  mkdir -p .device/shared/models/nanogpt
  cp ../shared/models/nanogpt/model.py .device/shared/models/nanogpt/
fi
du -sh .device .deps
