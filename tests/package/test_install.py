"""pip install --no-build-isolation . into a fresh venv, as the README says, then what the README
runs from it: the tracelint executable (the console entry point), `import tracelint` without
PYTHONPATH, and pytest with the plugin found through its pytest11 entry point (no -p).

Run by ctest (python_package_install) with TRACELINT_BUILD_DIR set to the build to reuse (the
wheel's executable and extension come from it: nothing is compiled again) and
TRACELINT_SOURCE_DIR to the checkout. The checkout is not written: setuptools' scratch files go
to a temporary TRACELINT_PIP_WORK."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("TRACELINT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = os.environ.get("TRACELINT_BUILD_DIR", str(SOURCE / "build"))


def run(command, cwd, env, expect=0):
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == expect, (command, result.returncode, result.stdout, result.stderr)
    return result


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    root = tmp_path_factory.mktemp("install")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(TRACELINT_BUILD_DIR=BUILD, TRACELINT_PIP_WORK=str(root / "work"),
               PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
    # The interpreter the build's module is for (Debian's python3 in CI).
    run([sys.executable, "-m", "venv", "--system-site-packages", str(root / "venv")], root, env)
    bin_dir = root / "venv" / "bin"
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = str(root / "venv")
    install = run([str(bin_dir / "pip"), "install", "--no-build-isolation", str(SOURCE)], root, env)
    assert "Successfully installed tracelint" in install.stdout, install.stdout
    return bin_dir, env, root


def test_the_console_entry_point_runs_the_shipped_executable(venv):
    bin_dir, env, root = venv
    version = re.search(r"project\(tracelint VERSION ([0-9.]+)",
                        (SOURCE / "CMakeLists.txt").read_text()).group(1)
    # "tracelint 0.1.0 (commit 1234abcd56)": the commit the installed binary was built from.
    shown = run(["tracelint", "--version"], root, env).stdout.strip()
    assert re.fullmatch(r"tracelint " + re.escape(version) + r" \(commit [0-9a-f]+(-dirty)?\)",
                        shown), shown
    assert run([str(bin_dir / "python"), "-m", "tracelint", "--version"], root,
               env).stdout.strip() == shown
    imported = run([str(bin_dir / "python"), "-c", "import tracelint; print(tracelint.__version__)"],
                   root, env).stdout.strip()
    assert imported == version, imported
    # As the README runs it: examples/ (examples/tracer is excluded by the checkout's config).
    check = run(["tracelint", "check", "--output-format", "concise", "examples/"], SOURCE, env,
                expect=1)
    assert "examples/buggy_trace.py:14:45: TL002 [*] debug repr" in check.stdout
    assert "examples/tracer" not in check.stdout
    assert "in 1 of 2 files" in check.stdout
    # The modules the executable loads came along: trace runs with libtorch from the package.
    trace = run(["tracelint", "run", "examples/tracer/models.py", "-f", "slice_half", "-a",
                 "a=f32[2, 4]"], SOURCE, env)
    assert "matches eager" in trace.stdout


def test_import_without_pythonpath_gets_the_installed_package(venv):
    bin_dir, env, root = venv
    out = run([str(bin_dir / "python"), "-c",
               "import tracelint, sys; r = tracelint.check('x = [\\n');"
               "print(tracelint.__file__); print([d.code for d in r])"], root, env).stdout
    path, codes = out.splitlines()
    assert path.startswith(str(root / "venv")), path
    assert codes == "['TL001']"


def test_pytest_finds_the_plugin_and_reads_the_config(venv):
    bin_dir, env, root = venv
    result = run([str(bin_dir / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                  "--tracelint-traces", "examples/"], SOURCE, env, expect=1)
    assert "1 failed, 1 passed" in result.stdout, result.stdout
    assert "error[TL002]" in result.stdout
    # Naming the plugin as before still works (it is not registered twice).
    again = run([str(bin_dir / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                 "tracelint.pytest_plugin", "--tracelint-traces", "examples/",
                 "--tracelint-ignore", "TL0", "--tracelint-fail-on", "info"], SOURCE, env)
    assert "2 passed" in again.stdout, again.stdout
