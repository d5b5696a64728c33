"""What the packaging tests share: where the checkout, its build and the tools venv are, and how a
test that cannot run here says so."""
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("TRACELINT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD = os.environ.get("TRACELINT_BUILD_DIR", str(SOURCE / "build"))
# scripts/bootstrap.sh links it; TRACELINT_TOOLS_VENV names another.
TOOLS = Path(os.environ.get("TRACELINT_TOOLS_VENV", SOURCE / ".venv-tools"))


def unavailable(reason):
    """A skip where a developer may lack what the test needs; under CI=true, where the bootstrap
    has installed everything, a failure: CI must not pass a test it did not run."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true and this test cannot run: {reason}")
    pytest.skip(reason)


def run(command, cwd, env, expect=0, timeout=900):
    result = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == expect, (command, result.returncode, result.stdout[-4000:],
                                         result.stderr[-4000:])
    return result


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", **extra)
    return env


@pytest.fixture(scope="session")
def fresh_clone(tmp_path_factory):
    """A clone of the checkout's committed HEAD, as a new user gets it: no .deps, no build."""
    if not (SOURCE / ".git").exists():
        unavailable(f"{SOURCE} is not a git checkout: there is nothing to clone")
    target = tmp_path_factory.mktemp("clone") / "tracelint"
    run(["git", "clone", "--quiet", "--no-hardlinks", SOURCE, target], SOURCE, clean_env())
    return target
