import os
import subprocess
import sys
import textwrap

import pytest

import tracelint

LEAK = textwrap.dedent("""\
    def computation(a, i10):
      t0 = ltorch.getitem(a, (..., slice(None, [IntegerProxy name=i10, value=1], None)))
      return t0
    """)
CLEAN = "import torch\n\ndef computation(a):\n  t0 = torch.exp(a)\n  return t0\n"


def test_check_reports_diagnostics_with_positions_and_fixes():
    report = tracelint.check(LEAK, "t.py")
    assert not report.ok
    codes = [d.code for d in report.diagnostics]
    assert "TL002" in codes
    leak = next(d for d in report.diagnostics if d.code == "TL002")
    assert (leak.line, leak.column, leak.severity) == (2, 44, "error")
    assert leak.fix == "replace the repr with `i10`"
    assert "t.py:2:44: error[TL002]" in report.render()
    assert '"code": "TL002"' in report.render("json")
    with pytest.raises(ValueError):
        report.render("yaml")


def test_clean_trace_and_select():
    assert tracelint.check(CLEAN).ok
    only = tracelint.check(LEAK, select=["TL003"])
    assert [d.code for d in only.diagnostics] == []
    warn = tracelint.check("def f(a):\n  t0 = customOp0(a)\n  return t0\n", fail_on="warning")
    assert not warn.ok
    assert tracelint.check("def f(a):\n  t0 = customOp0(a)\n  return t0\n",
                           context_names=["customOp0"], fail_on="warning").ok


def test_assert_valid_raises_with_the_rendered_text():
    assert tracelint.assert_valid(CLEAN).ok
    with pytest.raises(AssertionError) as info:
        tracelint.assert_valid(LEAK, "leak.py")
    assert "leak.py:2:44: error[TL002]" in str(info.value)


def test_pytest_plugin_checks_each_trace_as_an_item(tmp_path):
    traces = tmp_path / "traces"
    traces.mkdir()
    (traces / "good.py").write_text(CLEAN)
    (traces / "bad.py").write_text(LEAK)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(tracelint.__file__)))
    env = dict(os.environ, PYTHONPATH=package_root)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tracelint.pytest_plugin", "--tracelint-traces",
         str(traces), "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "1 failed, 1 passed" in result.stdout
    assert "error[TL002]" in result.stdout


FX_GRAPH = textwrap.dedent("""\
    def forward(self, x):
        add = x + 1;  x = None
        mul = add * 2;  add = None
        return (mul,)
    """)


def test_check_takes_the_dialect_or_detects_it():
    assert "fx" in tracelint.DIALECTS and "nvfuser" in tracelint.DIALECTS
    # Detected from `def forward(self, ...)`: fx frees values by rebinding them to None.
    assert tracelint.check(FX_GRAPH, "graph.py", fail_on="info").ok
    assert tracelint.check(FX_GRAPH, "graph.py", dialect="FX", fail_on="info").ok
    # Read as a Thunder trace, each `x = None` rebinds a name the trace already bound.
    as_thunder = tracelint.check(FX_GRAPH, "graph.py", dialect="thunder")
    assert "TL004" in [d.code for d in as_thunder.diagnostics], as_thunder.render()
    # A read after fx's free is a use after del in the fx dialect.
    read_after_free = FX_GRAPH.replace("return (mul,)", "return (mul, x)")
    report = tracelint.check(read_after_free, "graph.py", dialect="fx")
    assert [(d.code, d.line) for d in report.diagnostics if d.severity == "error"] == [("TL005", 4)]
    with pytest.raises(ValueError, match="dialect must be one of"):
        tracelint.check(FX_GRAPH, dialect="jax")


def test_pytest_plugin_takes_the_dialect(tmp_path):
    traces = tmp_path / "traces"
    traces.mkdir()
    (traces / "graph.py").write_text(FX_GRAPH)
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(tracelint.__file__)))
    env = dict(os.environ, PYTHONPATH=package_root)

    def pytest_with(*flags):
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "tracelint.pytest_plugin", "--tracelint-traces",
             str(traces), "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), *flags],
            capture_output=True, text=True, cwd=tmp_path, env=env)

    detected = pytest_with()
    assert detected.returncode == 0, detected.stdout + detected.stderr
    as_thunder = pytest_with("--tracelint-dialect", "thunder")
    assert as_thunder.returncode == 1, as_thunder.stdout + as_thunder.stderr
    assert "error[TL004]" in as_thunder.stdout


SEED = "def foo(a, key):\n    return a[..., : (a.shape[-1] // 2)][key]\n"


def test_trace_prints_thunder_style_traces_the_validator_accepts():
    text = tracelint.trace(SEED, "foo", {"a": "f32[2, 8]", "key": "(..., slice(None, 2, None))"})
    assert "def prologue(*args, **kwargs):" in text
    assert "def computation(" in text
    assert "slice(None, i" in text
    assert "IntegerProxy" not in text
    report = tracelint.check(text, "traced.py", fail_on="info")
    assert report.ok and len(report) == 0, report.render()
    prims = tracelint.trace(SEED, "foo", {"a": "f32[2, 8]", "key": "(..., slice(None, 2, None))"},
                            cache="constant-values", level="prims")
    assert "ltorch." not in prims.split("def computation")[1]
    assert "slice(None, 4, None)" not in prims  # the constant stop is in the prims' indices
    assert "prims.slice_prim(" in prims


def test_trace_for_training_and_with_fusion_regions():
    text = tracelint.trace(SEED, "foo", {"a": "f32[2, 8]:grad", "key": "(..., slice(None, 2, None))"},
                           grad=True)
    assert "def augmented_forward_fn(" in text
    assert "def backward_fn(saved_for_backward, cotangents):" in text
    assert tracelint.check(text, "traced.py").ok
    fused = tracelint.trace("def f(x):\n    return (x * 2).exp() + 1\n", "f", {"x": "f32[4]"},
                            executors=["cuda_fusion", "torch"])
    assert "= cudaFusion0(" in fused
    with pytest.raises(ValueError, match="unknown executor `nvfuser`"):
        tracelint.trace("def f(x):\n    return x\n", "f", {"x": "f32[4]"}, executors=["nvfuser"])


def test_trace_on_several_threads_gives_the_same_traces():
    # Large enough for the body to be parsed in chunks while it is traced.
    source = "def f(x):\n" + "    x = x * 2\n    x = x + 1\n" * 1500 + "    return x\n"
    one = tracelint.trace(source, "f", {"x": "f32[4]"})
    assert tracelint.trace(source, "f", {"x": "f32[4]"}, threads=2) == one
    with pytest.raises(ValueError, match="threads must be at least 1"):
        tracelint.trace(source, "f", {"x": "f32[4]"}, threads=0)


def test_trace_errors_name_the_position():
    with pytest.raises(ValueError, match=r"^model.py:2:5: unsupported construct: match statement"):
        tracelint.trace("def f(x):\n    match x:\n        case 1:\n            pass\n", "f", {"x": "3"},
                        path="model.py")
    with pytest.raises(ValueError, match="missing --arg for parameter `a`"):
        tracelint.trace(SEED, "foo", {"key": "(1,)"})
    with pytest.raises(ValueError, match="cache must be"):
        tracelint.trace(SEED, "foo", {}, cache="sometimes")


def test_inputs_that_crashed_the_tree_sitter_runtime_are_checked():
    # Debian's tree-sitter 0.20.7 freed a bad pointer on these (munmap_chunk(): invalid
    # pointer) and took the interpreter down; run in a child so a crash fails this test only.
    script = textwrap.dedent("""\
        import tracelint
        comments = tracelint.check('#\\n' * 65536, 'c.py')
        assert comments.ok, comments.render()
        nested = tracelint.check('x = [' + '[' * 65535, 'd.py')
        assert 'TL001' in [d.code for d in nested.diagnostics]
        print('survived')
        """)
    child = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           env=os.environ, timeout=120)
    assert child.returncode == 0, child.stderr
    assert child.stdout.strip() == "survived"


def test_trace_refuses_a_source_over_its_cap():
    source = "def f(x):\n    return x + 1\n" + "y = 1\n" * 400
    with pytest.raises(ValueError, match="over max_source_bytes"):
        tracelint.trace(source, "f", {"x": "f32[2]"}, max_source_bytes=1024)
    assert "ltorch.add" in tracelint.trace(source, "f", {"x": "f32[2]"})


def test_report_is_a_sequence_of_its_diagnostics_with_consistent_truthiness():
    report = tracelint.check(LEAK, "t.py")
    codes = [d.code for d in report]  # iterable (it raised TypeError)
    assert codes == [d.code for d in report.diagnostics]
    assert len(report) == len(codes) > 0
    assert bool(report) is True  # bool follows len: "has findings"
    assert report[0].code == codes[0] and report[-1].code == codes[-1]
    with pytest.raises(IndexError):
        report[len(report)]
    clean = tracelint.check(CLEAN)
    assert len(clean) == 0 and not clean and clean.ok
    # Findings under fail_on: the check passes, and the report still has them.
    warned = tracelint.check("def f(a):\n  t0 = customOp0(a)\n  return t0\n")
    assert warned.ok and bool(warned) and len(warned) == 1
    assert "1 finding, ok" in repr(warned)


def test_diagnostic_name_related_and_every_render_format():
    report = tracelint.check("def computation(a):\n  t0 = neg(a)\n  del a\n  t1 = neg(a)\n"
                             "  return t1\n", "d.py")
    after_del = next(d for d in report if d.code == "TL005")
    assert after_del.name == "use-after-del"
    assert after_del.related == [{"message": "deleted here", "line": 3, "column": 3,
                                  "end_line": 3, "end_column": 8}]
    leak = tracelint.check(LEAK, "t.py")
    for fmt, expected in [("full", "t.py:2:44: error[TL002]"), ("text", "t.py:2:44: error[TL002]"),
                          ("concise", "t.py:2:44: TL002 [*] "), ("grouped", "  2:44 TL002 [*] "),
                          ("json", '"code": "TL002"'), ("sarif", '"ruleId": "TL002"'),
                          ("junit", "<testsuites"), ("github", "::error file=t.py,line=2"),
                          ("html", "<!DOCTYPE html>")]:
        assert expected in leak.render(fmt), fmt
    with pytest.raises(ValueError, match="full, concise, grouped"):
        leak.render("yaml")


LEAK_AND_UNDEFINED = LEAK.replace("  return t0\n", "  t1 = ltorch.neg(nowhere)\n  return t1\n")


def test_check_with_a_config_applies_it_and_the_arguments_override_it(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tracelint]\nignore = ["tl002"]\nfail-on = "warning"\n'
        '[tool.tracelint.per-file-ignores]\n"legacy/*" = ["TL003"]\n')
    config = tracelint.load_config(str(tmp_path / "pyproject.toml"))
    assert tracelint.find_config(str(tmp_path)) == str(tmp_path / "pyproject.toml")
    codes = {d.code for d in tracelint.check(LEAK_AND_UNDEFINED, str(tmp_path / "t.py"), config=config)}
    assert "TL002" not in codes and "TL003" in codes
    legacy = tracelint.check(LEAK_AND_UNDEFINED, str(tmp_path / "legacy" / "t.py"), config=config)
    assert "TL003" not in {d.code for d in legacy}
    assert "TL002" in {d.code for d in tracelint.check(LEAK_AND_UNDEFINED, "t.py", config=config,
                                                          select=["TL002"])}
    warned = tracelint.check("def f(a):\n  t0 = customOp0(a)\n  return t0\n", config=config)
    assert not warned.ok  # the config's fail-on
    assert tracelint.check("def f(a):\n  t0 = customOp0(a)\n  return t0\n", config=config,
                           fail_on="error").ok
    assert tracelint.is_excluded(str(tmp_path / ".venv" / "x.py"), config=config)
    assert not tracelint.is_excluded(str(tmp_path / "traces" / "x.py"), config=config)
    (tmp_path / "pyproject.toml").write_text('[tool.tracelint]\nselct = ["TL003"]\n')
    with pytest.raises(ValueError, match=r"pyproject.toml:2:1: \[tool.tracelint\]: unknown key "
                                         r"'selct' \(did you mean select\?\)"):
        tracelint.load_config(str(tmp_path / "pyproject.toml"))
    with pytest.raises(ValueError, match=r"did you mean TL003\?"):
        tracelint.check(LEAK_AND_UNDEFINED, select=["TL03"])


def _run_plugin(tmp_path, *args):
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(tracelint.__file__)))
    env = dict(os.environ, PYTHONPATH=package_root)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tracelint.pytest_plugin", "-q",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), *args],
        capture_output=True, text=True, cwd=tmp_path, env=env)


def test_pytest_plugin_reads_the_rootdir_config_and_its_options_override_it(tmp_path):
    traces = tmp_path / "traces"
    (traces / "generated").mkdir(parents=True)
    (traces / "leak.py").write_text(LEAK)
    (traces / "generated" / "skipped.py").write_text(LEAK)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tracelint]\nignore = ["TL002"]\nextend-exclude = ["generated"]\n')
    # TL002 is ignored by the config, so the leak's trace passes; generated/ is not collected.
    passed = _run_plugin(tmp_path, "--tracelint-traces", str(traces))
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "1 passed" in passed.stdout
    # --tracelint-select starts over, as --select does: TL002 fails it.
    selected = _run_plugin(tmp_path, "--tracelint-traces", str(traces), "--tracelint-select", "TL002")
    assert selected.returncode == 1 and "error[TL002]" in selected.stdout
    # fail-on: the leak's trace also has TL012 (a warning).
    ignored = _run_plugin(tmp_path, "--tracelint-traces", str(traces),
                          "--tracelint-ignore", "TL002,TL003", "--tracelint-fail-on", "warning")
    assert ignored.returncode == 1 and "warning[TL012]" in ignored.stdout
    bad = _run_plugin(tmp_path, "--tracelint-traces", str(traces), "--tracelint-select", "TL9")
    assert bad.returncode == 4 and "did you mean TL0?" in bad.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.tracelint]\nignor = ["TL002"]\n')
    broken = _run_plugin(tmp_path, "--tracelint-traces", str(traces))
    assert broken.returncode == 4 and "unknown key 'ignor' (did you mean ignore?)" in broken.stderr


def test_version_is_the_cli_s():
    # tracelint.__version__ is the version `tracelint --version` prints (and the package's,
    # both from CMakeLists.txt's project()).
    binary = os.environ.get("TRACELINT_BINARY")
    if not binary:
        pytest.skip("TRACELINT_BINARY is not set: run through ctest (python_module)")
    shown = subprocess.run([binary, "--version"], capture_output=True, text=True, check=True)
    assert shown.stdout.startswith(f"tracelint {tracelint.__version__} (commit "), shown.stdout
    assert tracelint.__version__.count(".") == 2
