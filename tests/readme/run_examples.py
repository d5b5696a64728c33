"""Runs every shell example of README.md (each ```sh block, in order, in one bash session) in a
copy of the checkout, as a user would after `make demo`: a command fails the test when its exit
code is not the one its trailing comment names (`# exit N`, or a comment ending in `(exit N)`
or starting `# exit N:`), or 0 where it names none. So a command that finds problems, or an
oracle or `--run` that reports DIFFERS (exit 1), is marked as such, and a mismatch that turns
exit 0 into 1 fails the test.

    run_examples.py README.md BUILD_DIR

Left out, each with the reason printed: `make` commands (the set-up; CI runs them itself), and
commands naming ../shared when the shared corpus is not there, and the commands that read what
those would have written (`> gpt-trace.py`, `--save-io gpt-io`). The copy gets ../shared as a link
when it exists, and `pip install` reuses BUILD_DIR (TRACELINT_BUILD_DIR). To add an example,
add it to the README: nothing here names one."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

# (why, predicate on a command): commands not run here.
SKIPS = [
    ("the set-up command; CI runs `make test` itself", lambda c, ctx: c.startswith("make ")),
    ("needs ../shared, which is absent here",
     lambda c, ctx: "../shared" in c and not ctx["shared"].is_dir()),
    ("reads what a skipped command would have written",
     lambda c, ctx: any(re.search(r"(^|[\s/])" + re.escape(o) + r"(\s|$)", c)
                        for o in ctx["not_written"])),
]


def outputs(command):
    """What a command writes: the file after `>` and the directory of --save-io."""
    return re.findall(r"(?:>\s*|--save-io\s+)([\w.-]+)", command)


def shell_examples(readme):
    """The commands of each ```sh block: (line number, command) with backslash continuations
    joined and comment-only lines dropped."""
    commands, block, pending = [], None, None
    for number, line in enumerate(readme.read_text().splitlines(), 1):
        if block is None:
            if re.match(r"^```(sh|bash|shell|console)\s*$", line):
                block = []
            continue
        if line.startswith("```"):
            block = None
            continue
        if pending is not None:
            pending = (pending[0], pending[1] + "\n" + line)
        elif line.strip() and not line.lstrip().startswith("#"):
            pending = (number, line)
        if pending is not None and not pending[1].endswith("\\"):
            commands.append(pending)
            pending = None
    return commands


def trailing_comment(line):
    """The text after the first `#` that starts a shell comment (outside quotes, after a blank)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[i + 1:].strip()
    return None


def expected_exit(command):
    """The exit code a command's trailing comment names, else 0."""
    comment = trailing_comment(command.splitlines()[-1])
    if comment is None:
        return 0
    m = (re.fullmatch(r"exit (\d+)(:.*)?", comment) or re.search(r"\(exit (\d+)\)$", comment))
    return int(m.group(1)) if m else 0


def copy_checkout(source, target):
    files = subprocess.run(["git", "-C", str(source), "ls-files", "-z"], capture_output=True)
    if files.returncode == 0:
        for name in files.stdout.decode().split("\0"):
            if not name or not (source / name).is_file():
                continue
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, target / name)
        (target / ".git").mkdir()  # the project root, as in a checkout
    else:
        ignore = shutil.ignore_patterns("build*", "node_modules", ".git", ".venv")
        shutil.copytree(source, target, ignore=ignore, dirs_exist_ok=True, symlinks=True)


def main():
    readme, build = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    source = readme.parent
    cache = (build / "CMakeCache.txt").read_text()
    python = re.search(r"^Python_EXECUTABLE:FILEPATH=(.*)$", cache, re.M)
    with tempfile.TemporaryDirectory(prefix="tracelint-readme-") as scratch:
        work = Path(scratch) / "checkout"
        work.mkdir()
        copy_checkout(source, work)
        shared = (source.parent / "shared").resolve()
        if shared.is_dir():
            (Path(scratch) / "shared").symlink_to(shared)
        # `python3` is the interpreter the build is for (Debian's in CI; this machine may put
        # another first on PATH).
        shims = Path(scratch) / "shims"
        shims.mkdir()
        if python:
            (shims / "python3").symlink_to(python.group(1))
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env.update(PATH=str(shims) + os.pathsep + env.get("PATH", ""),
                   TRACELINT_BUILD_DIR=str(build), TRACELINT_PIP_WORK=str(Path(scratch) / "pip"),
                   PIP_NO_CACHE_DIR="1", PIP_DISABLE_PIP_VERSION_CHECK="1", NO_COLOR="1")
        context = {"shared": Path(scratch) / "shared", "not_written": [], "skipped_for_shared": 0}
        script = ["set -u"]
        ran = 0
        for number, command in shell_examples(readme):
            why = next((why for why, skip in SKIPS if skip(command, context)), None)
            if why:
                print(f"README.md:{number}: skipped ({why}): {command}")
                context["not_written"] += outputs(command)
                context["skipped_for_shared"] += why != SKIPS[0][0]
                continue
            expected = expected_exit(command)
            check = f'[ "$rc" -eq {expected} ]'
            script.append(f"echo '>>> README.md:{number}'")
            script.append(f"{command}\nrc=$?")
            script.append(f'echo "<<< exit $rc"; {check} || '
                          f'{{ echo "README.md:{number}: exit $rc, expected {expected}" >&2; failed=1; }}')
            ran += 1
        script.append('exit "${failed:-0}"')
        result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=work, env=env,
                                stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                timeout=1200)
        print(result.stdout[-20000:])
        print(result.stderr[-5000:], file=sys.stderr)
        print(f"{ran} README commands run", "ok" if result.returncode == 0 else "FAILED")
        if context["skipped_for_shared"]:
            # Not a pass: ctest reports the test skipped (SKIP_REGULAR_EXPRESSION), and CI, which
            # has ../shared beside its clone, fails.
            reason = f"{context['skipped_for_shared']} commands need ../shared, which is absent"
            if os.environ.get("CI") == "true":
                print(f"CI=true and {reason}", file=sys.stderr)
                return 1
            print(f"TRACELINT-SKIP: {reason}")
        return result.returncode


if __name__ == "__main__":
    sys.exit(main())
