#!/usr/bin/env bash
# Installs what a fresh machine lacks, and nothing it already has (make runs it first):
# 1. the Debian packages tracelint builds and tests against (apt-get);
# 2. the tree-sitter runtime and Python grammar sources, pinned by sha256 in deps/tree-sitter.txt
#    (PyPI sdists, scripts/tree_sitter_sources.py), which CMake compiles in;
# 3. the tools venv (deps/tools.txt, every package pinned by sha256): PyTorch 2.x, Lightning
#    Thunder, native ruff, pyflakes and pre-commit, for the oracles, the packaging tests and
#    bench/run.sh. It lives outside the checkout, in TRACELINT_TOOLS_VENV or else
#    ~/.cache/tracelint/tools-<hash of the lock>, so that a new clone on the same machine reuses
#    it; .venv-tools in the checkout links to it. TRACELINT_NO_TOOLS=1 skips it (the tests that
#    need it then report themselves skipped, and fail under CI=true).
set -euo pipefail
cd "$(dirname "$0")/.."

# universal-ctags: scripts/function_lengths.py measures functions (a ctest keeps them short).
# libopenblas0-pthread: Debian's libtorch (and python3-torch) multiply matrices with whatever
# libblas.so.3 the alternatives system points at; without it that is the reference BLAS, one
# core and 10-50x slower (GPT-2 small's forward at [4, 512]: minutes instead of seconds).

packages=(cmake ninja-build g++ pkg-config
  libclang-14-dev libclang-cpp14-dev llvm-14-dev libtorch-dev
  doctest-dev nlohmann-json3-dev libcli11-dev
  libfmt-dev libtomlplusplus-dev python3-pyflakes python3-dev pybind11-dev python3-pytest
  graphviz chromium clang-14 libclang-rt-14-dev clang-format-14 strace
  python3-torch git universal-ctags
  libopenblas0-pthread
  python3-venv python3-pip python3-setuptools python3-wheel python3-yaml)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# The tree-sitter sources: fetched again only when deps/tree-sitter.txt changes.
/usr/bin/python3 scripts/tree_sitter_sources.py

# The tools venv, for Debian's /usr/bin/python3 (the interpreter of the Python module's build
# and of the tests), keyed by the lock's hash: a changed lock makes a new one.
[ "${TRACELINT_NO_TOOLS:-0}" = 1 ] && exit 0
lock_hash=$(sha256sum deps/tools.txt | cut -c1-12)
home=${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)} # a CI job may run without HOME
venv=${TRACELINT_TOOLS_VENV:-${XDG_CACHE_HOME:-$home/.cache}/tracelint/tools-$lock_hash}
if [ ! -f "$venv/.complete" ]; then
  echo "bootstrap: creating the tools venv $venv (deps/tools.txt: torch, Thunder, ruff; a few minutes once)"
  # Marked complete only at the end: an interrupted install is removed and made again.
  rm -rf "$venv"
  mkdir -p "$(dirname "$venv")"
  /usr/bin/python3 -m venv "$venv"
  # --require-hashes: every file pip installs must have the lock's sha256.
  "$venv/bin/python" -m pip install -q --disable-pip-version-check --no-input \
    --require-hashes --only-binary :all: -r deps/tools.txt
  touch "$venv/.complete"
fi
ln -sfn "$venv" .venv-tools
