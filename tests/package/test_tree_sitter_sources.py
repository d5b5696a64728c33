"""scripts/tree_sitter_sources.py: the tree-sitter sources come from PyPI sdists whose sha256 the
lock pins; a wrong hash or a malformed lock is refused with the reason, and what was unpacked
before is left as it was. Needs PyPI (pip download)."""
import shutil
import subprocess
import sys

import pytest

from conftest import SOURCE

SCRIPT = SOURCE / "scripts" / "tree_sitter_sources.py"
LOCK = SOURCE / "deps" / "tree-sitter.txt"


def fetch(lock, dest):
    return subprocess.run([sys.executable, SCRIPT, "--lock", lock, "--dest", dest],
                          capture_output=True, text=True, timeout=600)


def tree(directory):
    return {p.relative_to(directory).as_posix(): p.read_bytes()
            for p in sorted(directory.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def fetched(tmp_path_factory):
    dest = tmp_path_factory.mktemp("sources") / "tree-sitter"
    result = fetch(LOCK, dest)
    assert result.returncode == 0, result.stderr
    return dest


def test_the_lock_fetches_what_cmake_compiles(fetched):
    for required in ("runtime/src/lib.c", "runtime/include/tree_sitter/api.h",
                     "python/src/parser.c", "python/src/scanner.c",
                     "python/src/tree_sitter/parser.h", "python/src/tree_sitter/array.h"):
        assert (fetched / required).is_file(), required
    # The grammar is ABI 14, which the 0.25 runtime reads, and its header is the ABI-14 one.
    assert "#define LANGUAGE_VERSION 14" in (fetched / "python/src/parser.c").read_text()
    assert "TSFieldMapSlice" in (fetched / "python/src/tree_sitter/parser.h").read_text()
    assert "tree-sitter==0.25." in (fetched / "LOCK").read_text()
    # Only C sources, headers and licenses: nothing of the sdists' Python bindings.
    assert not [p for p in tree(fetched) if p.endswith((".py", ".pyi", ".so"))]


def test_a_second_run_is_a_no_op(fetched):
    before = {p: p.stat().st_mtime_ns for p in fetched.rglob("*")}
    result = fetch(LOCK, fetched)
    assert result.returncode == 0 and result.stdout == "", result.stdout
    assert {p: p.stat().st_mtime_ns for p in fetched.rglob("*")} == before


def test_a_wrong_hash_is_refused_and_leaves_the_sources_as_they_were(fetched, tmp_path):
    dest = tmp_path / "tree-sitter"
    shutil.copytree(fetched, dest)
    before = tree(dest)
    text = LOCK.read_text()
    digest = text.split("tree-sitter-python==")[1].split("sha256:")[1][:64]
    lock = tmp_path / "lock.txt"
    lock.write_text(text.replace(digest, "0" * 64))
    result = fetch(lock, dest)
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "tree-sitter sources: pip could not fetch them" in result.stderr
    assert "hash" in result.stderr.lower(), result.stderr
    assert tree(dest) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tree-sitter-")]


def test_a_malformed_lock_names_its_line(tmp_path):
    lock = tmp_path / "lock.txt"
    lock.write_text("# pins\nruntime tree-sitter==0.25.1\n")
    result = fetch(lock, tmp_path / "dest")
    assert result.returncode == 2
    assert f"{lock}:2: expected `<role> name==version --hash=sha256:<64 hex>`" in result.stderr
    assert not (tmp_path / "dest").exists()
