"""scripts/function_lengths.py: the limit on the tracer's functions, and the script itself."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "function_lengths.py"


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=cwd, capture_output=True,
                          text=True)


def test_no_function_of_the_tracer_is_over_150_lines_but_those_allowed_for_now():
    done = run("--allow", "scripts/function_lengths_allowed.txt", "tracer")
    assert done.returncode == 0, done.stdout + done.stderr


def write_function(path, lines):
    body = "".join(f"  x += {i};\n" for i in range(lines - 3))
    path.write_text(f"int f(int x) {{\n{body}  return x;\n}}\n")


def test_a_long_function_fails_and_an_allowed_one_may_only_shrink(tmp_path):
    write_function(tmp_path / "long.cpp", 160)
    over = run("--max", "150", str(tmp_path))
    assert over.returncode == 1 and "160 f" in over.stdout and "over the limit" in over.stdout
    allow = tmp_path / "allowed.txt"
    allow.write_text(f"f {tmp_path}/long.cpp 160  # shrinking\n")
    assert run("--allow", str(allow), str(tmp_path)).returncode == 0
    write_function(tmp_path / "long.cpp", 170)
    grew = run("--allow", str(allow), str(tmp_path))
    assert grew.returncode == 1 and "grew past 160" in grew.stdout
    write_function(tmp_path / "long.cpp", 150)
    assert run("--max", "150", str(tmp_path)).returncode == 0
