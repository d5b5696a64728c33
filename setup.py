"""The wheel's build (pyproject.toml names setuptools as the backend): CMake builds the
_tracelint extension for the interpreter running pip (FindPython on sys.executable) and the
tracelint executable with the modules it loads (libtracelint_torch.so, libtracelint_analyzer.so);
all of them go into the package, the executable under tracelint/bin/, which the `tracelint`
console script runs (tracelint/__main__.py), as ruff's wheel ships ruff.

Which CMake build directory:
- TRACELINT_BUILD_DIR, or else ./build when it is a build of this checkout (what `make demo`
  made): the executable and its modules are built there (incremental), and the extension too
  when that build is for the same interpreter;
- otherwise build-python/cmake-<interpreter tag>/ (TRACELINT_PIP_WORK replaces build-python),
  configured Release for sys.executable.
CMAKE_ARGS (as scikit-build reads it: `CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Debug" pip install .`) is
added to that configure, after tracelint's own arguments, so it can replace them.
Setuptools' own scratch files go to build-python/setuptools, not into CMake's ./build.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
WORK = Path(os.environ.get("TRACELINT_PIP_WORK", ROOT / "build-python")).resolve()
EXECUTABLE_TARGETS = ["tracelint", "tracelint_torch", "tracelint_analyzer"]
EXECUTABLE_FILES = ["tracelint", "libtracelint_torch.so", "libtracelint_analyzer.so"]


def version():
    text = (ROOT / "CMakeLists.txt").read_text()
    return re.search(r"project\(tracelint VERSION ([0-9.]+)", text).group(1)


def cmake_cache(build_dir):
    cache = Path(build_dir) / "CMakeCache.txt"
    values = {}
    if cache.is_file():
        for line in cache.read_text(errors="replace").splitlines():
            m = re.match(r"([A-Za-z_0-9]+):[A-Z]+=(.*)", line)
            if m:
                values[m.group(1)] = m.group(2)
    return values


def build_of_this_checkout(build_dir):
    home = cmake_cache(build_dir).get("CMAKE_HOME_DIRECTORY")
    return home is not None and Path(home).resolve() == ROOT


def same_interpreter(cache):
    python = cache.get("Python_EXECUTABLE")
    return (python is not None and cache.get("TRACELINT_PYTHON", "ON") not in ("OFF", "0")
            and os.path.realpath(python) == os.path.realpath(sys.executable))


def run(command, **kwargs):
    print("setup.py: " + " ".join(str(c) for c in command), flush=True)
    subprocess.run([str(c) for c in command], check=True, **kwargs)


def ensure_tree_sitter_sources():
    """The tree-sitter runtime and grammar are compiled from PyPI source distributions pinned by
    sha256 in deps/tree-sitter.txt: a fresh checkout fetches them with pip, as
    scripts/bootstrap.sh does (a no-op when .deps/tree-sitter/ already holds the lock's pins)."""
    run([sys.executable, ROOT / "scripts" / "tree_sitter_sources.py"], cwd=ROOT)


def configure(build_dir):
    cache = cmake_cache(build_dir)
    # Configured already: done, unless CMAKE_ARGS asks for something (a configure applies it).
    if (cache.get("CMAKE_PROJECT_NAME") == "tracelint" and same_interpreter(cache)
            and not os.environ.get("CMAKE_ARGS")):
        return
    ensure_tree_sitter_sources()
    command = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
               "-DPython_EXECUTABLE=" + sys.executable, "-DTRACELINT_PYTHON=ON"]
    if shutil.which("ninja"):
        command += ["-G", "Ninja"]
    try:
        import pybind11  # a build with an index has it from [build-system] requires
        command.append("-Dpybind11_DIR=" + pybind11.get_cmake_dir())
    except ImportError:
        pass  # Debian's pybind11-dev: CMake finds it
    command += shlex.split(os.environ.get("CMAKE_ARGS", ""))
    run(command)


def jobs():
    return os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))


def copy(source, target, executable=False):
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    # The debug information of a RelWithDebInfo build is most of its size; a wheel needs none.
    if shutil.which("strip"):
        subprocess.run(["strip", "--strip-debug", str(target)], check=False)
    if executable:
        target.chmod(0o755)


class CMakeBuild(build_ext):
    def run(self):
        given = os.environ.get("TRACELINT_BUILD_DIR")
        reusable = Path(given).resolve() if given else ROOT / "build"
        # Named explicitly, a build of another copy of these sources serves too (the README's
        # test installs from a copy of the checkout).
        if given and cmake_cache(reusable).get("CMAKE_PROJECT_NAME") != "tracelint":
            sys.exit(f"setup.py: TRACELINT_BUILD_DIR={given} is not a CMake build of tracelint")
        if not given and not build_of_this_checkout(reusable):
            reusable = None
        tag = sysconfig.get_config_var("SOABI") or "py%d%d" % sys.version_info[:2]
        own = WORK / f"cmake-{tag}"

        # The executable and its modules do not depend on the interpreter.
        executables_dir = reusable or own
        if reusable is None:
            configure(own)
        extension_dir = reusable if reusable and same_interpreter(cmake_cache(reusable)) else own
        if extension_dir == own:
            configure(own)
        if extension_dir == executables_dir:
            run(["cmake", "--build", executables_dir, "-j", jobs(), "--target",
                 *EXECUTABLE_TARGETS, "_tracelint"])
        else:
            run(["cmake", "--build", executables_dir, "-j", jobs(), "--target",
                 *EXECUTABLE_TARGETS])
            run(["cmake", "--build", extension_dir, "-j", jobs(), "--target", "_tracelint"])

        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for ext in self.extensions:
            built = extension_dir / "python" / "tracelint" / ("_tracelint" + suffix)
            if not built.is_file():
                sys.exit(f"setup.py: CMake built no {built}")
            copy(built, Path(self.get_ext_fullpath(ext.name)))
        package = Path(self.get_ext_fullpath(self.extensions[0].name)).parent
        for name in EXECUTABLE_FILES:
            copy(executables_dir / name, package / "bin" / name, executable=(name == "tracelint"))
        # SARIF's helpUri: bin/tracelint finds it at ../share/doc/tracelint/rules.md.
        docs = package / "share" / "doc" / "tracelint"
        docs.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / "docs" / "rules.md", docs / "rules.md")


def missing_build_tools():
    """Why this interpreter cannot build the wheel, in one line, or None. Under
    --no-build-isolation pip builds with the interpreter's own packages: a venv of a Python that
    is not Debian's (pyenv's, say) sees no setuptools' bdist_wheel (the `wheel` package, before
    setuptools 70.1 took it in) and pip said only "invalid command 'bdist_wheel'"."""
    import importlib.util
    import setuptools
    bundled = tuple(int(p) for p in re.findall(r"\d+", setuptools.__version__)[:2]) >= (70, 1)
    if bundled or importlib.util.find_spec("wheel") is not None:
        return None
    return (f"setup.py: this Python ({sys.executable}, {sys.version.split()[0]}) has no 'wheel' "
            f"package, which pip needs to build tracelint with --no-build-isolation: run "
            f"`{sys.executable} -m pip install wheel` first, or make the venv from Debian's "
            f"Python (`/usr/bin/python3 -m venv --system-site-packages .venv`), whose setuptools "
            f"and wheel it sees, or leave out --no-build-isolation (pip then fetches them)")


# setuptools runs this file as __main__ (pip, `python setup.py`); tests import it to check its
# parts (tests/package/test_setup_configure.py).
if __name__ == "__main__":
    if (why := missing_build_tools()) is not None:
        sys.exit(why)
    WORK.mkdir(parents=True, exist_ok=True)
    setup(
        version=version(),
        ext_modules=[Extension("tracelint._tracelint", sources=[])],
        cmdclass={"build_ext": CMakeBuild},
        options={"build": {"build_base": str(WORK / "setuptools")},
                 "egg_info": {"egg_base": str(WORK)}},
    )
