"""Lightning Thunder issue #1182 ("python `slice` is not represented properly in thunder") on the
real tool: `a[..., : (a.shape[-1] // 2)]` jitted with cache="symbolic values".

- seed_1182/thunder-4d260ae/ holds what Thunder printed at the commit the issue names
  (4d260aed2b09; no PyPI release has the bug: 0.1.0 refuses symbolic values, "Only constant
  constraints is supported", and 0.2.1 already prints the slice). seed_1182/README.md says how
  it was made; with TRACELINT_THUNDER_1182 (a checkout of that commit, importable with the
  tools venv's PyTorch) the test makes it again and compares.
- tracelint must flag exactly what the issue describes: the IntegerProxy's debug repr inside
  the slice is an error at its span, its fix gives `slice(None, i10, None)` and Python that
  compiles; the execution trace's copy too, and its `i10` is undefined there.
- The current release's trace of the same program (the tools venv's Thunder, made here) prints
  the slice as Python: no repr in code. What tracelint still finds in it are the
  symbolic-values inconsistencies tests/thunder/test_real_thunder.py asserts (TL004 in the
  prologue, TL007 and TL002 warnings in annotations), listed below by code.
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("TRACELINT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TOOLS = Path(os.environ.get("TRACELINT_TOOLS_VENV", SOURCE / ".venv-tools"))
TRACELINT = os.environ.get("TRACELINT_BINARY", str(SOURCE / "build" / "tracelint"))
HERE = Path(__file__).with_name("seed_1182")
BUGGY = HERE / "thunder-4d260ae"
GENERATOR = HERE / "generate.py"


def check(path, *extra):
    result = subprocess.run([TRACELINT, "check", "--format", "json", *extra, str(path)],
                            capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    return [d for f in json.loads(result.stdout)["files"] for d in f["diagnostics"]]


def line_of(path, number):
    return path.read_text().splitlines()[number - 1]


def errors(diagnostics):
    return [d for d in diagnostics if d["severity"] == "error"]


def test_the_issues_trace_is_flagged_as_the_issue_describes():
    trace = BUGGY / "1-computation.py"
    text = trace.read_text()
    with pytest.raises(SyntaxError):  # what Thunder itself hit compiling it
        compile(text, str(trace), "exec")
    found = check(trace)
    in_code = [d for d in errors(found) if d["code"] == "TL002"]
    assert len(in_code) == 1, found
    repr_error = in_code[0]
    start, end = repr_error["span"]["start"], repr_error["span"]["end"]
    line = line_of(trace, start["line"])
    assert line.lstrip().startswith("t37 = ltorch.getitem(a, (..., slice(None, [IntegerProxy")
    assert line[start["column"] - 1:end["column"] - 1] == \
        "[IntegerProxy name=i10, value=1, static=CONSTRAINT.CONSTRAINABLE]"
    assert "i10" in repr_error["message"] and "in code" in repr_error["message"]
    assert repr_error["fix"]["edits"][0]["replacement"] == "i10"
    # The annotations' reprs are warnings; the dims only they name (i29, i36) are TL007.
    assert {d["code"] for d in errors(found)} == {"TL002", "TL007"}


def test_the_fix_gives_the_slice_as_python(tmp_path):
    trace = tmp_path / "computation.py"
    trace.write_text((BUGGY / "1-computation.py").read_text())
    subprocess.run([TRACELINT, "check", "--fix", str(trace)], capture_output=True, text=True)
    fixed = trace.read_text()
    assert "t37 = ltorch.getitem(a, (..., slice(None, i10, None)))" in fixed
    compile(fixed, str(trace), "exec")


def test_the_execution_trace_that_thunder_failed_to_compile():
    trace = BUGGY / "3-computation.py"
    found = errors(check(trace))
    line = [d for d in found if d["code"] == "TL002"]
    assert len(line) == 1 and "Tensor.__getitem__(a, (..., slice(None, [IntegerProxy" in \
        line_of(trace, line[0]["span"]["start"]["line"])
    # There the proxy's name is not even bound: the repr hides an undefined name.
    assert any(d["code"] == "TL003" and "`i10`" in d["message"] for d in found), found


def tools_thunder():
    python = TOOLS / "bin" / "python"
    if not python.exists() or subprocess.run([str(python), "-c", "import thunder"],
                                             capture_output=True).returncode != 0:
        reason = f"no Lightning Thunder in {TOOLS} (scripts/bootstrap.sh makes the tools venv)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and this test cannot run: {reason}")
        pytest.skip(reason)
    return python


def generate(python, out, env=None):
    result = subprocess.run([str(python), str(GENERATOR), str(out)], capture_output=True,
                            text=True, env=env, cwd=HERE)
    assert result.returncode == 0, result.stderr
    return sorted(out.glob("*.py"))


def test_the_current_release_prints_the_slice_as_python(tmp_path):
    traces = generate(tools_thunder(), tmp_path)
    assert traces
    initial = next(t for t in traces if "ltorch.getitem(a, (..., slice(" in t.read_text())
    assert re.search(r"slice\(None, ?i\d+, ?None\)", initial.read_text())
    for trace in traces:
        compile(trace.read_text(), str(trace), "exec")
        found = check(trace)
        assert not [d for d in found if d["code"] == "TL002" and "in code" in d["message"]], found
        # Thunder's remaining symbolic-values inconsistencies (test_real_thunder.py's).
        for d in errors(found):
            assert (d["code"], d["message"].split(" ")[0]) in {("TL004", "`i0`"), ("TL004", "`i1`"),
                                                               ("TL007", "the")}, d


def test_the_buggy_commit_prints_the_fixtures_again(tmp_path):
    source = os.environ.get("TRACELINT_THUNDER_1182")
    if not source:
        pytest.skip("TRACELINT_THUNDER_1182 is not set (a checkout of lightning-thunder at "
                    "4d260aed2b09 with its requirements; seed_1182/README.md): the fixtures were "
                    "not made again")
    env = dict(os.environ, PYTHONPATH=source)
    made = generate(os.environ.get("TRACELINT_THUNDER_1182_PYTHON", sys.executable), tmp_path, env)
    kept = sorted(BUGGY.glob("*.py"))
    assert [p.name for p in made] == [p.name for p in kept]
    for new, old in zip(made, kept):
        assert body(new) == body(old), new.name


def body(path):
    """A printed trace without what differs between runs: the header line, the provenance
    comment's path, the "(took N milliseconds)" of Thunder's pass headers."""
    return [re.sub(r" \(took \d+ milliseconds\)", "", line)
            for line in path.read_text().splitlines()[1:] if "generate.py:" not in line]
