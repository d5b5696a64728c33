#!/usr/bin/env bash
# Installs what a fresh machine lacks, and nothing it already has: the Debian
# packages tracelint builds against and the pinned tree-sitter grammar (npm).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ pkg-config nodejs npm
  libclang-14-dev libclang-cpp14-dev llvm-14-dev libtorch-dev
  libtree-sitter-dev doctest-dev nlohmann-json3-dev libcli11-dev
  libfmt-dev libtomlplusplus-dev python3-pyflakes python3-dev pybind11-dev python3-pytest
  graphviz chromium clang-14 libclang-rt-14-dev clang-format-14)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm ships inside the nodejs package on some images; a working npm is enough.
if command -v npm >/dev/null 2>&1; then
  missing=("${missing[@]/npm}")
  missing=("${missing[@]/nodejs}")
fi
read -r -a missing <<<"${missing[*]:-}"
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

grammar=node_modules/tree-sitter-python
if [ ! -f "$grammar/src/parser.c" ] || ! grep -q '"version": "0.23.6"' "$grammar/package.json"; then
  echo "bootstrap: installing the tree-sitter-python grammar (npm ci)"
  npm ci --ignore-scripts --no-audit --no-fund
fi
