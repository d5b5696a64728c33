"""`tracelint` (the console entry point) and `python -m tracelint`: runs the tracelint executable
shipped inside this package, as ruff's wheel runs ruff, with the same arguments, standard streams
and exit code."""
import os
import shutil
import sys
import sysconfig


def find_tracelint_bin():
    """The tracelint executable: the one in this package (pip install), else the one in the
    interpreter's scripts folder, else the first on PATH that is not this entry point."""
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "bin", "tracelint")]
    scripts = sysconfig.get_path("scripts")
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not directory or os.path.realpath(directory) == os.path.realpath(scripts):
            continue  # that folder's tracelint is the console script that runs this
        found = shutil.which("tracelint", path=directory)
        if found and _is_executable_file(found):
            return found
    raise FileNotFoundError(
        "the tracelint executable is not installed with this package (looked in "
        + candidates[0] + " and on PATH): reinstall it with `pip install .` from a checkout")


def _is_executable_file(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def main():
    try:
        binary = find_tracelint_bin()
    except FileNotFoundError as e:
        print("tracelint: " + str(e), file=sys.stderr)
        return 2
    os.execv(binary, [binary] + sys.argv[1:])
    return 2  # not reached: execv replaces this process


if __name__ == "__main__":
    sys.exit(main())
