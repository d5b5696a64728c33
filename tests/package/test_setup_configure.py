"""setup.py's CMake configure: CMAKE_ARGS (scikit-build's variable) reaches it after tracelint's
own arguments, and asks for a configure even where the build directory is configured already.
setup.py is imported (not run): its configure() is called with the commands it would run
recorded instead of run."""
import importlib.util
import os
import sys
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("TRACELINT_SOURCE_DIR", Path(__file__).resolve().parents[2]))


@pytest.fixture
def setup_module(monkeypatch):
    spec = importlib.util.spec_from_file_location("tracelint_setup", SOURCE / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    commands = []
    monkeypatch.setattr(module, "run", lambda command, **kwargs: commands.append(command))
    monkeypatch.setattr(module, "ensure_tree_sitter_sources", lambda: None)
    return module, commands


def test_cmake_args_follow_tracelints_own(setup_module, monkeypatch, tmp_path):
    module, commands = setup_module
    monkeypatch.setenv("CMAKE_ARGS", "-DCMAKE_BUILD_TYPE=Debug -DTRACELINT_WERROR='OFF'")
    module.configure(tmp_path)
    (command,) = commands
    assert command[-2:] == ["-DCMAKE_BUILD_TYPE=Debug", "-DTRACELINT_WERROR=OFF"]
    assert command.index("-DCMAKE_BUILD_TYPE=Release") < command.index("-DCMAKE_BUILD_TYPE=Debug")


def test_a_configured_build_is_configured_again_only_for_cmake_args(setup_module, monkeypatch,
                                                                    tmp_path):
    module, commands = setup_module
    (tmp_path / "CMakeCache.txt").write_text(
        "CMAKE_PROJECT_NAME:STATIC=tracelint\n"
        f"Python_EXECUTABLE:FILEPATH={sys.executable}\n")
    monkeypatch.setattr(module, "same_interpreter", lambda cache: True)
    monkeypatch.delenv("CMAKE_ARGS", raising=False)
    module.configure(tmp_path)
    assert commands == []
    monkeypatch.setenv("CMAKE_ARGS", "-DCMAKE_BUILD_TYPE=Debug")
    module.configure(tmp_path)
    assert len(commands) == 1 and commands[0][-1] == "-DCMAKE_BUILD_TYPE=Debug"


def test_a_venv_without_wheel_is_told_what_to_do(tmp_path):
    # A venv without Debian's packages (as one of a pyenv Python is): pip install
    # --no-build-isolation used to fail with only "invalid command 'bdist_wheel'".
    import subprocess
    import venv
    venv.create(tmp_path / "v", with_pip=True)
    python = tmp_path / "v" / "bin" / "python"
    has_wheel = subprocess.run([python, "-c", "import wheel"], capture_output=True).returncode == 0
    modern = subprocess.run(
        [python, "-c", "import setuptools, re, sys; "
         "sys.exit(tuple(map(int, re.findall(r'\\d+', setuptools.__version__)[:2])) < (70, 1))"],
        capture_output=True).returncode == 0
    if has_wheel or modern:
        pytest.skip("this Python's venv has what bdist_wheel needs: nothing to explain")
    install = subprocess.run([python, "-m", "pip", "install", "--no-build-isolation",
                              "--no-deps", "--no-index", str(SOURCE)],
                             capture_output=True, text=True, timeout=600)
    assert install.returncode != 0
    output = install.stdout + install.stderr
    assert "has no 'wheel' package, which pip needs to build tracelint with " \
           "--no-build-isolation" in output, output
    assert "/usr/bin/python3 -m venv --system-site-packages" in output, output
