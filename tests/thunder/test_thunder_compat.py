"""docs/thunder-compat.md is what scripts/thunder_compat.py computes now (tracelint's schemas
and traces against Lightning Thunder's, by structure), and every difference it finds has its
reason: a new difference, a reason for what no longer differs, or a stale page fails."""
import os
import subprocess
from pathlib import Path

import pytest

SOURCE = Path(os.environ.get("TRACELINT_SOURCE_DIR", Path(__file__).resolve().parents[2]))
TOOLS = Path(os.environ.get("TRACELINT_TOOLS_VENV", SOURCE / ".venv-tools"))
TRACELINT = os.environ.get("TRACELINT_BINARY", str(SOURCE / "build" / "tracelint"))


def test_thunder_compat_page_is_current_and_every_difference_has_a_reason():
    python = TOOLS / "bin" / "python"
    has_thunder = python.exists() and subprocess.run(
        [str(python), "-c", "import thunder"], capture_output=True).returncode == 0
    if not has_thunder:
        reason = f"no Lightning Thunder in {TOOLS} (scripts/bootstrap.sh makes the tools venv)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and this test cannot run: {reason}")
        pytest.skip(reason)
    result = subprocess.run(
        [str(python), str(SOURCE / "scripts" / "thunder_compat.py"), "--tracelint", TRACELINT,
         "--check", str(SOURCE / "docs" / "thunder-compat.md")],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
