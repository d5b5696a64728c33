"""Lightning Thunder issue #1182 on the real tool: jits the issue's program with symbolic values
and writes every trace Thunder prints while it compiles (the prologue and the computation, up
to the one Thunder fails to compile), as Thunder printed them.

    PYTHONPATH=THUNDER_SOURCE python generate.py OUT_DIR [LABEL]

THUNDER_SOURCE: lightning-thunder at the commit the issue names (4d260aed2b09, PR #1027's
branch; no release on PyPI has the bug: 0.1.0 refuses symbolic values, 0.2.1 already prints the
slice), with PyTorch 2.x, numpy<2, igraph, optree and opt-einsum importable. Thunder compiles
each trace it runs from its printed text (TraceCtx.python_callable): the text is recorded there,
so the trace that does not compile is kept too; the first traces its interpreter makes
(thunder_general_jit's prologue and computation, as the issue shows them) are recorded before.
With the tools venv's current release instead, the same program's traces are written for the
comparison the test makes.
"""
import os
import sys

import torch
import thunder
from thunder.core.trace import TraceCtx

printed = []
python_callable = TraceCtx.python_callable


def recording_python_callable(self, *args, **kwargs):
    printed.append(self.python(**kwargs))
    return python_callable(self, *args, **kwargs)


TraceCtx.python_callable = recording_python_callable
general_jit = thunder.thunder_general_jit


def recording_general_jit(*args, **kwargs):
    results = general_jit(*args, **kwargs)
    printed.append(str(results.prologue_trace))
    printed.append(str(results.computation_trace))
    return results


thunder.thunder_general_jit = recording_general_jit


def foo(a):
    return a[..., : (a.shape[-1] // 2)]


def version():
    # thunder.__version__ was a function at the commit.
    v = thunder.__version__
    return v() if callable(v) else v


def main(out, label):
    os.makedirs(out, exist_ok=True)
    jfoo = thunder.jit(foo, cache="symbolic values")
    try:
        jfoo(torch.randn(2, 2))
        failure = None
    except SyntaxError as e:
        failure = f"{type(e).__name__}: {e}"
    for i, text in enumerate(printed):
        kind = "prologue" if "def prologue(" in text else "computation"
        with open(os.path.join(out, f"{i}-{kind}.py"), "w") as f:
            f.write(f"# Printed by Lightning Thunder {label or version()} with PyTorch "
                    f"{torch.__version__} (tests/thunder/seed_1182/generate.py)\n")
            f.write(text if text.endswith("\n") else text + "\n")
    print(f"thunder {thunder.__file__}, torch {torch.__version__}: {len(printed)} traces; "
          f"{failure or 'compiled'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
