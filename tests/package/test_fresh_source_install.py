"""The README's source install, exactly as a new user runs it in a fresh clone with no build/:
`/usr/bin/python3 -m venv --system-site-packages v && v/bin/pip install --no-build-isolation .`
(pip's -v added to see the compiler). setup.py configures a Release build (-O3, -Werror off, as
every user build is) and compiles the CLI, its modules and the Python extension: the build must
succeed with zero compiler warnings, and what it installed must work.

Six minutes of both cores (nothing is reused from the checkout's build): `make test-pip-source`,
not part of `make test` (whose own build is Release with -Werror, the same compiler's view of
the same code)."""
import re

from conftest import clean_env, run

TRACE = """\
import torch

@torch.no_grad()
def computation(x):
  t0 = ltorch.neg(y)
  return t0
"""


def test_pip_install_of_a_fresh_clone_builds_release_without_warnings(fresh_clone, tmp_path):
    env = clean_env()
    for name in ("TRACELINT_BUILD_DIR", "TRACELINT_PIP_WORK", "CMAKE_ARGS", "CXXFLAGS", "CFLAGS"):
        env.pop(name, None)
    assert not (fresh_clone / "build").exists()
    run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", "v"], fresh_clone, env)
    install = run(["v/bin/pip", "install", "-v", "--no-build-isolation", "."], fresh_clone, env,
                  timeout=2400)
    log = install.stdout + install.stderr
    assert "Successfully installed tracelint" in log, log[-4000:]
    assert "-DCMAKE_BUILD_TYPE=Release" in log, log[-4000:]
    assert re.search(r"Building CXX object .*printer\.cpp\.o", log), "nothing was compiled"
    # The compilers' warnings (file:line:col: warning: ... [-Wflag], cc1plus: warning: ...), not
    # setuptools' ("warning: build_py: byte-compiling is disabled").
    compiler_warning = re.compile(r":\d+(:\d+)?: warning: |^\s*(cc1\w*|c\+\+|g\+\+|clang\S*): warning: ")
    warnings = [line for line in log.splitlines() if compiler_warning.search(line)]
    assert warnings == [], "\n".join(warnings[:20])

    bin_dir = fresh_clone / "v" / "bin"
    trace = tmp_path / "trace.py"
    trace.write_text(TRACE)
    check = run([bin_dir / "tracelint", "check", "--output-format", "concise", trace], tmp_path,
                env, expect=1)
    assert "trace.py:5:19: TL003" in check.stdout, check.stdout
    imported = run([bin_dir / "python", "-c", "import tracelint; print(tracelint.__version__)"],
                   tmp_path, env)
    assert re.fullmatch(r"\d+\.\d+\.\d+\n", imported.stdout), imported.stdout
