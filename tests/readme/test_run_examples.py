"""run_examples.py sees a command whose exit code is not the one the README gives it: exit 1 where
nothing is marked (a DIFFERS, a finding), 0 where `# exit 1` is marked; and it passes commands
that exit as marked. Run by ctest (readme_examples_checker) with TRACELINT_BUILD_DIR."""
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent / "run_examples.py"
BUILD = os.environ.get("TRACELINT_BUILD_DIR", str(Path(__file__).resolve().parents[2] / "build"))


def run_readme(tmp_path, commands):
    readme = tmp_path / "README.md"
    readme.write_text("# a project\n\n```sh\n" + "\n".join(commands) + "\n```\n")
    return subprocess.run([sys.executable, SCRIPT, readme, BUILD], capture_output=True, text=True,
                          timeout=120)


def test_an_unmarked_exit_1_fails(tmp_path):
    result = run_readme(tmp_path, ["true", "false  # a comment that names no exit"])
    assert result.returncode == 1
    assert "README.md:5: exit 1, expected 0" in result.stderr


def test_a_marked_exit_1_that_exits_0_fails(tmp_path):
    result = run_readme(tmp_path, ["true   # exit 1"])
    assert result.returncode == 1
    assert "README.md:4: exit 0, expected 1" in result.stderr


def test_commands_that_exit_as_marked_pass(tmp_path):
    result = run_readme(tmp_path, ["false  # finds something (exit 1)", "false  # exit 1: why",
                                   "echo '# exit 1' # a quoted # is not the comment",
                                   "sh -c 'exit 2'  # exit 2"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 README commands run ok" in result.stdout
