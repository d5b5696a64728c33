#!/usr/bin/env python3
"""Lists every symbol of the op registry that no oracle case reaches; prints nothing when each
one is under the oracle.

    scripts/check_oracle_coverage.py [--verbose] [--cases FILE] [TRACELINT]
                                     (default: build/tracelint, tests/tracer/oracle_cases.json)

The registry is what `tracelint trace --list-ops` prints; the cases are tests/tracer/oracle_cases.json,
the list tests/test_oracle.cpp traces, runs and compares with CPython (forward, and for training
unless a case says why not). Each case is traced here at both levels, and for training, and the
symbols its traces call (subsymbol comments included) are collected:

- a symbol (ltorch or prim) no trace calls (forward, or a backward) has no oracle case;
- a differentiable prim (tagged vjp) that a forward trace calls but no augmented forward does has
  no backward case (one that only backwards call, as a VJP's pad, would need a second backward);
- an ltorch symbol whose subsymbols include a differentiable prim has no backward case when no
  case that calls it is also run for training.

A prim tagged thunder-only is one the tracer never records (Thunder's traces call it): no traced
case can reach it, so it is not listed; --verbose lists those too, with the reason.

Exit 0 when nothing is listed, 1 when something is, 2 when the tool or a case cannot run.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1]
CASES = SOURCE / "tests" / "tracer" / "oracle_cases.json"
CASE_FILE = SOURCE / "tests" / "tracer" / "ops_cases.py"
REGISTRY_LINE = re.compile(r"^(ltorch|prims)\.(\w+)\(.*\)(?:\s+\[(.*)\])?$")
CALL = re.compile(r"\b(ltorch|prims)\.(\w+)\(")
SUBSYMBOL = re.compile(r"^\s+# \S+ = (prims\.\w+)\(")


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.stderr.write(f"{' '.join(command)}: exit {result.returncode}\n{result.stderr}")
        sys.exit(2)
    return result.stdout


def registry(tracelint):
    """{'ltorch.add': {tags}, ...} from --list-ops."""
    symbols = {}
    for line in run([tracelint, "trace", "--list-ops"]).splitlines():
        match = REGISTRY_LINE.match(line)
        if match:
            module, name, tags = match.groups()
            symbols[f"{module}.{name}"] = {t.strip() for t in (tags or "").split(",") if t.strip()}
    return symbols


def trace_command(tracelint, case, level, grad):
    command = [tracelint, "trace", str(CASE_FILE), "--level", level, "--no-provenance"]
    if "module" in case:
        command += ["--module", case["module"]]
        for name, expr in case["init"]:
            command += ["--init", f"{name}={expr}"]
    else:
        command += ["--function", case["function"]]
    for name, spec in case["args"]:
        floating = spec.startswith("f") or spec.startswith("bf")
        command += ["--arg", f"{name}={spec}:grad" if grad and floating else f"{name}={spec}"]
    return command + (["--grad"] if grad else [])


def calls(text):
    return {f"{m}.{n}" for m, n in CALL.findall(text)}


def differentiated(text):
    """The symbols the augmented forward calls: what the backward differentiates."""
    start, end = text.find("def augmented_forward_fn"), text.find("def backward_fn")
    return calls(text[start:end]) if start >= 0 else set()


def subsymbols_of(text, symbols):
    """For each ltorch call of a forward trace, the prims of its subsymbol comments."""
    current = None
    for line in text.splitlines():
        call = re.match(r"^\s+\S+ = (ltorch\.\w+)\(", line)
        if call:
            current = call.group(1)
            continue
        sub = SUBSYMBOL.match(line)
        if sub and current:
            symbols.setdefault(current, set()).add(sub.group(1))
        elif not sub:
            current = None


def coverage(tracelint, cases):
    """What the cases' traces call: anywhere, in a forward (not for grad), in an augmented
    forward, in a forward of a case also run for grad; and each ltorch call's subsymbols."""
    anywhere, forward, backward, run_for_grad, subsymbols = set(), set(), set(), set(), {}
    for case in json.loads(Path(cases).read_text()):
        for level in ("ltorch", "prims"):
            text = run(trace_command(tracelint, case, level, grad=False))
            forward |= calls(text)
            anywhere |= calls(text)
            subsymbols_of(text, subsymbols)
            if "no_grad" in case:
                continue
            grad_text = run(trace_command(tracelint, case, level, grad=True))
            anywhere |= calls(grad_text)
            backward |= differentiated(grad_text)
            run_for_grad |= calls(text)
    return anywhere, forward, backward, run_for_grad, subsymbols


def main(argv):
    verbose = "--verbose" in argv
    argv = [a for a in argv if a != "--verbose"]
    cases = CASES
    if "--cases" in argv:
        at = argv.index("--cases")
        if at + 1 >= len(argv):
            sys.stderr.write("--cases needs a file\n")
            return 2
        cases = Path(argv[at + 1])
        del argv[at:at + 2]
    tracelint = argv[0] if argv else str(SOURCE / "build" / "tracelint")
    symbols = registry(tracelint)
    if not symbols:
        sys.stderr.write(f"{tracelint} trace --list-ops listed no symbol\n")
        return 2
    anywhere, forward, backward, run_for_grad, subsymbols = coverage(tracelint, cases)
    missing = []
    for name, tags in symbols.items():
        if "thunder-only" in tags:
            if verbose:
                print(f"{name}: thunder-only (the tracer never records it): no traced case")
            continue
        if name not in anywhere:
            missing.append(f"{name}: no oracle case calls it ({cases})")
        elif name.startswith("prims.") and "vjp" in tags and name in forward and name not in backward:
            missing.append(f"{name}: differentiable, but no oracle case differentiates it")
        elif name.startswith("ltorch.") and name not in run_for_grad and any(
                "vjp" in symbols.get(p, ()) for p in subsymbols.get(name, ())):
            missing.append(f"{name}: differentiable, but no case that calls it runs for training")
    for line in missing:
        print(line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
