"""Issue 37's structural limits, checked on the tree as it is (so a change cannot bring them back).

- Only core's python_tree (.cpp, .hpp) calls tree-sitter's parser and node-kind names: every other reader
  of Python goes through core's python::Parser and switches on symbol ids.
- The tracer compares no operator as a string (operators are enums with one spelling table).
- No CMake include path names another library's src/ (headers others need live in include/).
"""
import fnmatch
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIBRARIES = ("core", "validator", "rules", "reports", "tracer", "analyzer", "cli", "python")


def tracked_files():
    # The files git tracks (not build trees, virtual environments or fetched sources).
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    assert listed.returncode == 0, "the structure checks read a git checkout: " + listed.stderr
    return listed.stdout.splitlines()


def sources(*patterns):
    for name in tracked_files():
        if any(fnmatch.fnmatch(name, pattern) or fnmatch.fnmatch(name, pattern.replace("**/", ""))
               for pattern in patterns):
            yield ROOT / name


def lines_matching(regex, paths):
    for path in paths:
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if re.search(regex, line):
                yield f"{path}:{number}: {line.strip()}"


def test_tree_sitter_is_called_only_by_core_python_tree():
    layer = {"core/src/python_tree.cpp", "core/include/tracelint/core/python_tree.hpp"}
    cpp = [p for p in sources("**/*.cpp", "**/*.hpp") if p.relative_to(ROOT).as_posix() not in layer]
    found = list(lines_matching(r"\bts_parser_new\b|\bts_node_type\b", cpp))
    assert not found, "tree-sitter called outside core/src/python_tree.cpp:\n" + "\n".join(found)


def test_the_tracer_compares_no_operator_as_a_string():
    found = list(lines_matching(r'\bop == "', sources("tracer/src/**/*.cpp")))
    assert not found, "operators compared as strings (use the operator enums):\n" + "\n".join(found)


def test_no_cmake_include_path_names_another_librarys_src():
    found = []
    for cmake in sources("**/CMakeLists.txt"):
        owner = cmake.relative_to(ROOT).parts[0] if len(cmake.relative_to(ROOT).parts) > 1 else ""
        text = cmake.read_text()
        for call in re.finditer(r"(?:target_)?include_directories\s*\(([^)]*)\)", text):
            for lib in LIBRARIES:
                if lib != owner and re.search(rf"(?:^|[/}}\s]){lib}/src\b", call.group(1)):
                    found.append(f"{cmake.relative_to(ROOT)}: {lib}/src in {call.group(0).split()[0]}")
    assert not found, "include paths into another library's src/:\n" + "\n".join(found)


def test_the_checks_see_what_they_look_for(tmp_path):
    # Negative control: the matchers find a planted call and a planted comparison.
    planted = tmp_path / "planted.cpp"
    planted.write_text('auto k = ts_node_type(n);\nif (op == "+") {}\n')
    assert len(list(lines_matching(r"\bts_parser_new\b|\bts_node_type\b", [planted]))) == 1
    assert len(list(lines_matching(r'\bop == "', [planted]))) == 1
