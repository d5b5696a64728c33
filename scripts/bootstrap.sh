#!/usr/bin/env bash
# Installs what a fresh machine lacks, and nothing it already has: the Debian
# packages tracelint builds against, and the pinned tree-sitter runtime and Python grammar
# (npm: sources only, compiled by CMake).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ pkg-config nodejs npm
  libclang-14-dev libclang-cpp14-dev llvm-14-dev libtorch-dev
  doctest-dev nlohmann-json3-dev libcli11-dev
  libfmt-dev libtomlplusplus-dev python3-pyflakes python3-dev pybind11-dev python3-pytest
  graphviz chromium clang-14 libclang-rt-14-dev clang-format-14
  python3-torch
  python3-venv python3-pip python3-setuptools python3-wheel python3-yaml)

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

# Both pins are read from package.json, so a bump there reinstalls.
installed_version() { node -p "require('./node_modules/$1/package.json').version" 2>/dev/null || true; }
wanted_version() { node -p "require('./package.json').dependencies['$1']"; }
if [ ! -f node_modules/tree-sitter-python/src/parser.c ] ||
  [ ! -f node_modules/tree-sitter/vendor/tree-sitter/lib/src/lib.c ] ||
  [ "$(installed_version tree-sitter-python)" != "$(wanted_version tree-sitter-python)" ] ||
  [ "$(installed_version tree-sitter)" != "$(wanted_version tree-sitter)" ]; then
  echo "bootstrap: installing the tree-sitter runtime and grammar sources (npm ci)"
  npm ci --ignore-scripts --no-audit --no-fund
fi
