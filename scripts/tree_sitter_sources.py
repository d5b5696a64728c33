#!/usr/bin/env python3
"""Fetches the tree-sitter runtime and Python grammar sources that CMake compiles into tracelint.

The pins, their roles and their sha256 are in deps/tree-sitter.txt. pip downloads each source
distribution (--no-binary :all: --require-hashes: pip checks the hash), this script checks it
again and unpacks only the C sources and licenses into .deps/tree-sitter/:

  runtime/src, runtime/include   the runtime the `tree-sitter` sdist vendors (tree_sitter/core/lib)
  python/src                     the grammar's parser.c and scanner.c, with the headers they
                                 include as tree_sitter/parser.h, ...: the grammar sdist's own
                                 where it ships them, else the grammar-headers sdist's lib/src
  LOCK                           the lock's pins, which tell a later run it is up to date

Nothing is written into .deps/tree-sitter/ unless every file checked out: the new tree is
unpacked beside it and renamed into place. Run by scripts/bootstrap.sh (make) and setup.py
(pip install .); exit 0 when up to date or fetched, 2 with the reason otherwise."""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([a-z-]+)\s+([A-Za-z0-9_.-]+)==([A-Za-z0-9_.+-]+)\s+"
                 r"--hash=sha256:([0-9a-f]{64})\s*$")
ROLES = ("runtime", "grammar", "grammar-headers")
# The headers a generated grammar includes as "tree_sitter/<name>"; a runtime keeps the same
# files in lib/src (tree-sitter's generator copies them from there).
GRAMMAR_HEADERS = ("parser.h", "array.h", "alloc.h", "ts_assert.h")


class SourcesError(Exception):
    pass


def read_pins(lock):
    """{role: (name, version, sha256)}; the lock's comments and blank lines skipped."""
    pins = {}
    for number, line in enumerate(lock.read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        if not match:
            raise SourcesError(f"{lock}:{number}: expected `<role> name==version "
                               "--hash=sha256:<64 hex>`")
        role, name, version, digest = match.groups()
        if role not in ROLES or role in pins:
            raise SourcesError(f"{lock}:{number}: role `{role}` unknown or given twice; "
                               f"one line each for {', '.join(ROLES)}")
        pins[role] = (name, version, digest)
    if sorted(pins) != sorted(ROLES):
        raise SourcesError(f"{lock}: roles {sorted(pins)}; expected {', '.join(ROLES)}")
    return pins


def pin_text(pins):
    return "".join(f"{role} {name}=={version} sha256:{digest}\n"
                   for role, (name, version, digest) in pins.items())


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def pip_environment():
    """The caller's environment less what confines an isolated build's interpreter (pip sets
    PYTHONPATH and PYTHONNOUSERSITE there so that only the build requirements import): with
    them, `python -m pip` finds no pip."""
    return {k: v for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONNOUSERSITE", "PYTHONHOME")}


def download(pin, target, python):
    """One pin into its own folder: two pins may name the same project (pip would refuse them
    in one requirements file)."""
    name, version, digest = pin
    target.mkdir(parents=True)
    requirements = target / "requirements.txt"
    requirements.write_text(f"{name}=={version} --hash=sha256:{digest}\n")
    command = [python, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps",
               "--require-hashes", "--disable-pip-version-check", "-q", "-r", str(requirements),
               "-d", str(target)]
    print("tree-sitter sources: " + " ".join(command[1:]), flush=True)
    result = subprocess.run(command, env=pip_environment(), capture_output=True, text=True)
    if result.returncode != 0:
        detail = (result.stderr or result.stdout).strip().splitlines()[-6:]
        if "No module named pip" in result.stderr:
            detail.append("install pip for this interpreter (Debian: apt-get install python3-pip)")
        raise SourcesError("pip could not fetch them:\n  " + "\n  ".join(detail))


def sdist_of(directory, pin):
    name, version, digest = pin
    stem = name.replace("-", "_")
    candidates = [p for p in directory.iterdir()
                  if p.name in (f"{name}-{version}.tar.gz", f"{stem}-{version}.tar.gz")]
    if len(candidates) != 1:
        raise SourcesError(f"pip left no {name}-{version}.tar.gz in {directory}")
    found = sha256(candidates[0])
    if found != digest:
        raise SourcesError(f"{candidates[0].name}: sha256 {found}, the lock says {digest}")
    return candidates[0]


def regular_members(archive, prefix):
    """The archive's regular files under prefix, as (path below prefix, member). Links, devices
    and paths that climb out (.., absolute) are refused, whatever the archive holds."""
    for member in archive.getmembers():
        if not member.name.startswith(prefix):
            continue
        relative = member.name[len(prefix):]
        parts = Path(relative).parts
        if member.isdir() or not relative:
            continue
        if not member.isfile() or relative.startswith("/") or ".." in parts:
            raise SourcesError(f"{member.name}: not a plain file inside the sdist; refused")
        yield relative, member


def extract(archive, member, target):
    target.parent.mkdir(parents=True, exist_ok=True)
    with archive.extractfile(member) as source, open(target, "wb") as out:
        shutil.copyfileobj(source, out)


def unpack_runtime(sdist, version, tree):
    top = f"tree-sitter-{version}/"
    with tarfile.open(sdist) as archive:
        count = 0
        for relative, member in regular_members(archive, top + "tree_sitter/core/lib/"):
            if relative.split("/")[0] in ("src", "include"):
                extract(archive, member, tree / "runtime" / relative)
                count += 1
        for relative, member in regular_members(archive, top):
            if relative == "LICENSE":
                extract(archive, member, tree / "runtime" / "LICENSE")
    if count == 0 or not (tree / "runtime/src/lib.c").is_file():
        raise SourcesError(f"{sdist.name} has no tree_sitter/core/lib/src/lib.c")


def unpack_grammar_headers(sdist, version, tree):
    """The headers the grammar includes, where its own sdist lacks them."""
    headers = tree / "python/src/tree_sitter"
    top = f"tree-sitter-{version}/tree_sitter/core/lib/src/"
    with tarfile.open(sdist) as archive:
        for relative, member in regular_members(archive, top):
            if relative in GRAMMAR_HEADERS and not (headers / relative).is_file():
                extract(archive, member, headers / relative)


def unpack_grammar(sdist, version, tree):
    top = f"tree_sitter_python-{version}/"
    wanted = {"src/parser.c", "src/scanner.c", "LICENSE"}
    wanted |= {f"src/tree_sitter/{h}" for h in GRAMMAR_HEADERS}
    with tarfile.open(sdist) as archive:
        for relative, member in regular_members(archive, top):
            if relative in wanted:
                extract(archive, member, tree / "python" / relative)
    for required in ("src/parser.c", "src/scanner.c"):
        if not (tree / "python" / required).is_file():
            raise SourcesError(f"{sdist.name} has no {required}")


def fetch(lock, dest, python):
    pins = read_pins(lock)
    stamp = dest / "LOCK"
    if stamp.is_file() and stamp.read_text() == pin_text(pins):
        return False
    dest.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".tree-sitter-", dir=dest.parent) as scratch:
        scratch = Path(scratch)
        sdists = {}
        for role, pin in pins.items():
            download(pin, scratch / role, python)
            sdists[role] = sdist_of(scratch / role, pin)
        tree = scratch / "tree"
        unpack_runtime(sdists["runtime"], pins["runtime"][1], tree)
        unpack_grammar(sdists["grammar"], pins["grammar"][1], tree)
        unpack_grammar_headers(sdists["grammar-headers"], pins["grammar-headers"][1], tree)
        missing = [h for h in GRAMMAR_HEADERS if not (tree / "python/src/tree_sitter" / h).is_file()]
        if missing:
            raise SourcesError(f"no sdist of the lock has the grammar's headers {missing}")
        (tree / "LOCK").write_text(pin_text(pins))
        old = scratch / "old"
        if dest.exists():
            dest.rename(old)
        tree.rename(dest)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lock", type=Path, default=ROOT / "deps/tree-sitter.txt")
    parser.add_argument("--dest", type=Path, default=ROOT / ".deps/tree-sitter")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter whose pip downloads (default: this one)")
    args = parser.parse_args()
    try:
        fetched = fetch(args.lock, args.dest, args.python)
    except (SourcesError, OSError, tarfile.TarError) as error:
        print(f"tree-sitter sources: {error}", file=sys.stderr)
        return 2
    if fetched:
        pins = read_pins(args.lock).items()
        print(f"tree-sitter sources: {args.dest}: " +
              ", ".join(f"{role} {name}=={version}" for role, (name, version, _) in pins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
