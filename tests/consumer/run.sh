#!/usr/bin/env bash
# Installs the build into a scratch prefix, then builds and runs tests/consumer against it.
set -euo pipefail
build=$1
source_dir=$(cd "$(dirname "$0")" && pwd)
work="$build/consumer-test"
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" > /dev/null
# Every installed library carries tracelint's name: a bare libcore.a would collide with others.
for lib in "$work"/prefix/lib/*.a; do
  case "$(basename "$lib")" in
  libtracelint*.a) ;;
  *) echo "installed library without the tracelint prefix: $lib" >&2; exit 1 ;;
  esac
done
[ -x "$work/prefix/bin/tracelint" ] || { echo "bin/tracelint was not installed" >&2; exit 1; }
cmake -S "$source_dir" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" > /dev/null
cmake --build "$work/build" > /dev/null
"$work/build/consumer"
