"""scripts/check_oracle_coverage.py: silent on the oracle's case list, and it names what a
shorter list leaves without a case."""
import json
import os
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[2]
SCRIPT = SOURCE / "scripts" / "check_oracle_coverage.py"
CASES = SOURCE / "tests" / "tracer" / "oracle_cases.json"
TRACELINT = Path(os.environ.get("TRACELINT_BUILD_DIR", SOURCE / "build")) / "tracelint"


def check(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args), str(TRACELINT)],
                          capture_output=True, text=True, timeout=600)


def test_every_registry_symbol_has_an_oracle_case():
    result = check()
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_a_case_list_without_the_losses_leaves_mse_loss_without_a_case(tmp_path):
    cases = [c for c in json.loads(CASES.read_text()) if c.get("function") != "losses"]
    shorter = tmp_path / "cases.json"
    shorter.write_text(json.dumps(cases))
    result = check("--cases", shorter)
    assert result.returncode == 1, result.stderr
    assert f"ltorch.mse_loss: no oracle case calls it ({shorter})" in result.stdout.splitlines()


def test_a_case_list_without_grad_runs_lists_the_differentiable_symbols(tmp_path):
    cases = [dict(c, no_grad="test") for c in json.loads(CASES.read_text())]
    no_grad = tmp_path / "cases.json"
    no_grad.write_text(json.dumps(cases))
    result = check("--cases", no_grad)
    assert result.returncode == 1
    assert "prims.mul: differentiable, but no oracle case differentiates it" in result.stdout
    assert "ltorch.gelu: differentiable, but no case that calls it runs for training" in result.stdout


def test_thunder_only_prims_are_named_with_verbose():
    result = check("--verbose")
    assert result.returncode == 0
    assert "prims.uniform: thunder-only (the tracer never records it): no traced case" in result.stdout
