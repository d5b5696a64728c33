"""Issue 37's structural limits, checked on the tree as it is (so a change cannot bring them back).

- Only core's python_tree (.cpp, .hpp) calls tree-sitter's parser and node-kind names: every other reader
  of Python goes through core's python::Parser and switches on symbol ids.
- The tracer compares no operator as a string (operators are enums with one spelling table).
- No CMake include path names another library's src/ (headers others need live in include/).
- Dtype spellings (float32, bf16, bool8, ...) appear only in the dtype table, core/src/dtypes.cpp:
  every other part looks them up there.
- `Interpreter` is small parts with one owner each: the class itself has fewer than 25 members
  (functions, data members, nested types), as universal-ctags counts them.
"""
import fnmatch
import json
import re
import shutil
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


DTYPE_TABLE = "core/src/dtypes.cpp"
DTYPE_SPELLING = re.compile(
    r'"(?:float(?:16|32|64)|bfloat16|u?int(?:8|16|32|64)|bool8|complex(?:32|64|128)|float8_\w+|half|'
    r'cfloat|cdouble|chalf|float4_\w+|f(?:16|32|64)|f[48]_\w+|bf16|[iu](?:8|16|32|64)|ui(?:8|64)|b8|'
    r'c(?:32|64|128))_?"')


def code_of(line):
    # The line without its // comment: a comment may name a dtype to explain a field.
    quoted = False
    for i, char in enumerate(line):
        if char == '"' and (i == 0 or line[i - 1] != "\\"):
            quoted = not quoted
        elif not quoted and line.startswith("//", i):
            return line[:i]
    return line


def dtype_spellings(paths):
    for path in paths:
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if DTYPE_SPELLING.search(code_of(line)):
                yield f"{path}:{number}: {line.strip()}"


def test_dtype_spellings_appear_only_in_the_dtype_table():
    cpp = [p for lib in LIBRARIES for p in sources(f"{lib}/**/*.cpp", f"{lib}/**/*.hpp", f"{lib}/**/*.def")
           if p.relative_to(ROOT).as_posix() != DTYPE_TABLE and "/fixtures/" not in p.as_posix()]
    found = list(dtype_spellings(cpp))
    assert not found, ("dtype names spelled outside the dtype table (look them up in "
                       "tracelint/core/dtypes.hpp):\n" + "\n".join(found))
    assert len(list(dtype_spellings([ROOT / DTYPE_TABLE]))) >= 15, "the table's rows are not seen"


INTERPRETER_HEADER = "tracer/include/tracelint/tracer/interpreter.hpp"
INTERPRETER_SCOPE = "tracelint::tracer::Interpreter"
MAX_INTERPRETER_MEMBERS = 24


def class_members(header, scope):
    # Every declaration directly in the class body, as universal-ctags tags it: member functions
    # (declared or defined there, constructors, the destructor and deleted copy operations
    # included), data members, nested types and enums; not a nested type's own members.
    ctags = shutil.which("ctags-universal") or shutil.which("ctags")
    assert ctags, "universal-ctags is missing (apt-get install universal-ctags)"
    tagged = subprocess.run([ctags, "--output-format=json", "--language-force=C++", "--kinds-C++=+p",
                             "--fields=+sKZ", "-o", "-", str(header)],
                            capture_output=True, text=True)
    assert tagged.returncode == 0, tagged.stderr
    members = []
    for line in tagged.stdout.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag" and tag.get("scope") == scope:
            members.append(f"{tag['kind']} {tag['name']}")
    # ctags tags no nested type that is only declared (`struct Impl;`): those are read from the
    # class body's own level.
    name = scope.rsplit("::", 1)[1]
    text = Path(header).read_text()
    start = re.search(rf"\b(?:class|struct)\s+{name}\b[^;{{]*{{", text)
    assert start, f"no class {name} in {header}"
    depth, level_one = 1, []
    for char in text[start.end():]:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 0:
            break
        if depth == 1 or (depth == 2 and char == "{"):
            level_one.append(char) # a nested body stays as {}
    for declared in re.finditer(r"(?:^|[;:}]\s*)(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)\s*;",
                                "".join(level_one), re.M):
        members.append(f"declared type {declared.group(1)}")
    return members


def test_the_interpreter_class_has_fewer_than_25_members():
    members = class_members(ROOT / INTERPRETER_HEADER, INTERPRETER_SCOPE)
    assert members, f"no members of {INTERPRETER_SCOPE} found in {INTERPRETER_HEADER}"
    assert len(members) <= MAX_INTERPRETER_MEMBERS, (
        f"Interpreter has {len(members)} members (at most {MAX_INTERPRETER_MEMBERS}): give the new "
        "one to a part (evaluator, object model, formatting, imports, enums, torch API, budget):\n"
        + "\n".join(members))


def test_the_checks_see_what_they_look_for(tmp_path):
    # Negative control: the matchers find a planted call and a planted comparison.
    planted = tmp_path / "planted.cpp"
    planted.write_text('auto k = ts_node_type(n);\nif (op == "+") {}\n')
    assert len(list(lines_matching(r"\bts_parser_new\b|\bts_node_type\b", [planted]))) == 1
    assert len(list(lines_matching(r'\bop == "', [planted]))) == 1
    planted.write_text('if (name == "bfloat16") {}\n// a comment names "f32"\nauto s = "x // y"; auto t = "i64";\n')
    assert [line.split(": ", 1)[1] for line in dtype_spellings([planted])] == [
        'if (name == "bfloat16") {}', 'auto s = "x // y"; auto t = "i64";']


def test_the_member_count_sees_every_kind_of_member(tmp_path):
    # Negative control: a planted class of 25 members (each kind the count must see, and a nested
    # type's members, which it must not) counts 25, past the limit.
    planted = tmp_path / "planted.hpp"
    body = ["  Interpreter();", "  ~Interpreter();", "  Interpreter(const Interpreter &) = delete;",
            "  Interpreter &operator=(const Interpreter &) = delete;", "  struct Impl;",
            "  enum class Flow { Normal, Break };", "  struct Level {\n    int a;\n    void f();\n  };",
            "  int inline_one() const { return 1; }", "  friend class Other;", "  int data_ = 0;",
            "  static void made();"]
    body += [f"  void f{i}(int x);" for i in range(15)]
    planted.write_text("namespace tracelint::tracer {\nclass Interpreter {\npublic:\n" + "\n".join(body)
                       + "\n};\n}\n")
    members = class_members(planted, INTERPRETER_SCOPE)
    assert len(members) == 25, members
    assert len(members) > MAX_INTERPRETER_MEMBERS
