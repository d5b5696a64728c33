"""`pip install .` with build isolation (setuptools, wheel and pybind11 from PyPI, as users'
pip does by default) from a fresh clone into a plain venv, and pre-commit's pip-installed
`tracelint` hook run by `pre-commit try-repo` on a repository with a broken trace.

Run by ctest (python_package_isolated) with TRACELINT_BUILD_DIR set to the build to reuse: the
wheel's executable and extension come from it, so nothing is compiled again (setup.py compiles
the clone itself where no build is named: minutes). Needs PyPI for the build requirements, and
pre-commit from the tools venv (scripts/bootstrap.sh)."""
import os
import re
from pathlib import Path

from conftest import BUILD, TOOLS, clean_env, run, unavailable

BROKEN_TRACE = """\
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(x, i0):
  # i0: "int 2"
  t0 = ltorch.getitem(x, slice(None, [IntegerProxy name=i0, value=2], None))
  return t0
"""


def venv_without_site_packages(root, env):
    # Debian's python3: the interpreter the reused build's extension is for.
    run(["/usr/bin/python3", "-m", "venv", root / "venv"], root, env)
    bin_dir = root / "venv" / "bin"
    env = dict(env, PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", VIRTUAL_ENV=str(root / "venv"))
    return bin_dir, env


def test_isolated_pip_install_of_a_fresh_clone(fresh_clone, tmp_path):
    env = clean_env(TRACELINT_BUILD_DIR=BUILD, TRACELINT_PIP_WORK=str(tmp_path / "work"))
    bin_dir, env = venv_without_site_packages(tmp_path, env)
    install = run([bin_dir / "pip", "install", fresh_clone], tmp_path, env)
    assert "Successfully installed tracelint" in install.stdout, install.stdout
    # Isolated: the build requirements were installed into pip's own build env, not this venv.
    listed = run([bin_dir / "pip", "list", "--format=freeze"], tmp_path, env).stdout
    assert "pybind11" not in listed and "tracelint==" in listed, listed

    trace = tmp_path / "traces" / "leak.py"
    trace.parent.mkdir()
    trace.write_text(BROKEN_TRACE)
    check = run(["tracelint", "check", "--output-format", "concise", trace], tmp_path, env, expect=1)
    assert "leak.py:8:38: TL002" in check.stdout, check.stdout
    imported = run([bin_dir / "python", "-c",
                    "import tracelint; print(tracelint.__file__); "
                    "print([d.code for d in tracelint.check('x = [\\n')])"], tmp_path, env).stdout
    path, codes = imported.splitlines()
    assert path.startswith(str(tmp_path / "venv")), path
    assert codes == "['TL001']"


def precommit_env(tmp_path, **extra):
    return clean_env(PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
                     GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid",
                     GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid", **extra)


def project_with_a_broken_trace(tmp_path, env):
    project = tmp_path / "project"
    (project / "traces").mkdir(parents=True)
    (project / "traces" / "leak.py").write_text(BROKEN_TRACE)
    (project / "model.py").write_text("x = undefined_name\n")  # not a trace: the hooks skip it
    # Excluded in the configuration: pre-commit names it all the same, and force-exclude (which
    # the hooks pass) leaves it alone; --fix once rewrote such a file.
    (project / "traces" / "vendored").mkdir()
    (project / "traces" / "vendored" / "leak.py").write_text(BROKEN_TRACE)
    (project / "pyproject.toml").write_text('[tool.tracelint]\nextend-exclude = ["vendored"]\n')
    run(["git", "init", "-q"], project, env)
    run(["git", "add", "."], project, env)
    run(["git", "commit", "-q", "-m", "traces"], project, env)
    return project


def check_then_fix(precommit, repo, project, env, check_hook, fix_hook):
    """The checking hook fails on the broken trace (and skips model.py), the fixing hook rewrites
    it, and the checking hook then passes."""
    hook = run([precommit, "try-repo", repo, check_hook, "--all-files"], project, env, expect=1)
    output = hook.stdout + hook.stderr
    assert "tracelint" in output and "Failed" in output, output
    assert "traces/leak.py:8:38" in output and "TL002" in output, output
    assert "model.py" not in output.replace("traces/leak.py", ""), output
    fixed = run([precommit, "try-repo", repo, fix_hook, "--all-files"], project, env, expect=1)
    assert "files were modified by this hook" in fixed.stdout + fixed.stderr, fixed.stdout
    assert "slice(None, i0, None)" in (project / "traces" / "leak.py").read_text()
    assert (project / "traces" / "vendored" / "leak.py").read_text() == BROKEN_TRACE
    assert "vendored" not in hook.stdout + hook.stderr + fixed.stdout + fixed.stderr
    run(["git", "add", "."], project, env)
    again = run([precommit, "try-repo", repo, check_hook, "--all-files"], project, env)
    assert "Passed" in again.stdout, again.stdout


def pre_commit():
    precommit = TOOLS / "bin" / "pre-commit"
    if not precommit.is_file():
        unavailable(f"no pre-commit in the tools venv {TOOLS}: run scripts/bootstrap.sh")
    return precommit


def test_precommit_try_repo_runs_the_pip_installed_hooks(fresh_clone, tmp_path):
    # tracelint and tracelint-fix: pre-commit pip-installs the clone into the hooks' venv.
    env = precommit_env(tmp_path, TRACELINT_BUILD_DIR=BUILD,
                        TRACELINT_PIP_WORK=str(tmp_path / "work"))
    project = project_with_a_broken_trace(tmp_path, env)
    check_then_fix(pre_commit(), fresh_clone, project, env, "tracelint", "tracelint-fix")


def test_precommit_system_hooks_run_the_tracelint_on_path(fresh_clone, tmp_path):
    # tracelint-system and tracelint-fix-system: the tracelint on PATH (here, the build's).
    env = precommit_env(tmp_path)
    env["PATH"] = f"{BUILD}{os.pathsep}{env.get('PATH', '')}"
    project = project_with_a_broken_trace(tmp_path, env)
    check_then_fix(pre_commit(), fresh_clone, project, env, "tracelint-system",
                   "tracelint-fix-system")


def test_every_hook_of_the_manifest_has_a_test():
    # Each hook id of .pre-commit-hooks.yaml is run by a test above.
    manifest = (Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text()
    ids = re.findall(r"^- id: (\S+)$", manifest, re.M)
    tested = re.findall(r'check_then_fix\(.*?"([\w-]+)",\s*"([\w-]+)"\)',
                        Path(__file__).read_text(), re.S)
    assert sorted(ids) == sorted(h for pair in tested for h in pair), (ids, tested)
