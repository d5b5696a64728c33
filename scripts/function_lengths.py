#!/usr/bin/env python3
"""Lists the functions longer than a limit, as universal-ctags measures them (first to last line).

  scripts/function_lengths.py [--max N] [--allow FILE] DIR...

Prints `LINES NAME FILE:LINE` for every function of the C++ files under DIR over N lines (150 by
default), longest first. Exit status 1 when one is over the limit and not in --allow, or when an
allowed one grew past the length written beside it (the list may only shrink); 2 when ctags is
missing. The allow file has one `NAME FILE MAX_LINES` per line (`#` starts a comment).
"""
import argparse
import shutil
import subprocess
import sys
from pathlib import Path


def functions(dirs):
    ctags = shutil.which("ctags-universal") or shutil.which("ctags")
    if not ctags:
        sys.exit("function_lengths: universal-ctags is missing (apt-get install universal-ctags)")
    out = subprocess.run(
        [ctags, "-R", "--languages=C++", "--kinds-C++=f", "--fields=+ne", "-x",
         "--_xformat=%{line} %{end} %N %F", *dirs],
        check=True, capture_output=True, text=True).stdout
    for row in out.splitlines():
        first, last, name, path = row.split(" ", 3)
        if last.isdigit():  # a declaration without a body has no end
            yield int(last) - int(first) + 1, name, path, int(first)


def read_allowed(path):
    allowed = {}
    if not path:
        return allowed
    for line in Path(path).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, file, most = line.split()
            allowed[(name, file)] = int(most)
    return allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=150)
    parser.add_argument("--allow")
    parser.add_argument("dirs", nargs="+")
    args = parser.parse_args()
    allowed = read_allowed(args.allow)
    failed = False
    for lines, name, path, first in sorted(functions(args.dirs), reverse=True):
        if lines <= args.max:
            continue
        most = allowed.get((name, path))
        verdict = ("allowed for now" if most is not None and lines <= most
                   else f"grew past {most}" if most is not None else "over the limit")
        failed |= verdict != "allowed for now"
        print(f"{lines:5} {name} {path}:{first} ({verdict})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
