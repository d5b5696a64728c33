"""Runs a printed trace with Lightning Thunder itself (the tools venv's lightning-thunder and
PyTorch 2.x), as Thunder runs the traces it constructs, instead of trace_runner.py's stand-in.

The trace's `import thunder...` lines import the real Thunder, so every `ltorch.X` and `prims.X`
is Thunder's own symbol, with its signature and its meta function's checks:

- the prologue runs as Thunder runs its prologue traces (after `transform_for_execution` with the
  python executor): each `prims.X` it calls is the implementation Thunder's python executor (or,
  failing that, its torch executor) registers for that prim;
- every other function (computation, augmented_forward_fn, backward_fn) is compiled with
  `thunder.jit` on the CPU: Thunder's interpreter records its symbol calls into a trace of its
  own, checks them with Thunder's meta functions, and runs that trace with Thunder's executors.

A printed trace that only runs under tracelint's executor (a keyword Thunder's symbol does not
take, an operand its meta function refuses, a prim Thunder lacks) fails here, naming the line.

    functions = load(text, function_obj=module)   # as trace_runner.load
"""
import inspect
import re
import types

import torch
import thunder
import thunder.core.prims as thunder_prims
from thunder.executors import pythonex, torchex

import trace_runner

PROLOGUE = "prologue"
# The executors Thunder's jit uses on the CPU by default here; the prologue's checks are
# implemented by the python executor, as Thunder's own prologues are.
PROLOGUE_EXECUTORS = (pythonex.ex, torchex.ex)


def version():
    return f"lightning-thunder {thunder.__version__} with PyTorch {torch.__version__}"


def executed_prim(name):
    """Thunder's prims.NAME as its executors run it: the callable an executor registers."""
    symbol = getattr(thunder_prims, name)  # AttributeError: Thunder has no such prim
    for executor in PROLOGUE_EXECUTORS:
        info = executor.implmap.get(symbol.id)
        if info is not None and info.symbol is not None:
            return operator_callable(info.symbol)
    raise AttributeError(f"no executor of Thunder ({', '.join(e.name for e in PROLOGUE_EXECUTORS)})"
                         f" implements prims.{name}")


def operator_callable(operator):
    """The Python function an executor's operator symbol runs: bound as Thunder binds it (its
    call context names the function), or its module's attribute of that name."""
    def call(*args, **kwargs):
        bound = operator.bind(*args, **kwargs, output=None)
        context = bound._call_ctx or {}
        function = context.get(operator.name) or getattr(operator.module, operator.name)
        return function(*args, **kwargs)
    call.__name__ = operator.name
    return call


class ExecutedPrims(types.SimpleNamespace):
    """`prims` for a prologue: each attribute the executor's implementation of that prim."""

    def __getattr__(self, name):
        return executed_prim(name)


def as_prologue(fn):
    """The prologue's body with `prims` resolved to the executors' implementations."""
    body = inspect.unwrap(fn)
    scope = dict(body.__globals__)
    scope["prims"] = ExecutedPrims()
    rebuilt = types.FunctionType(body.__code__, scope, body.__name__, body.__defaults__,
                                 body.__closure__)

    def run(*args, **kwargs):
        with torch.no_grad():
            return rebuilt(*args, **kwargs)
    return run


def jitted(fn):
    """The function compiled by thunder.jit, called on detached inputs."""
    compiled = thunder.jit(inspect.unwrap(fn))

    def run(*args):
        # Without requires_grad, Thunder runs the trace as given instead of differentiating it
        # (the printed trace is already the grad transform's).
        return compiled(*trace_runner.detached(args))
    run.__name__ = fn.__name__
    run.compiled = compiled
    return run


# A device literal of the trace ('cuda:0', "cuda"), not an annotation ("cuda:0 f32[2]").
CUDA_LITERAL = re.compile(r"""(['"])cuda(:\d+)?\1""")


def on_this_machine(text):
    """The trace as this machine runs it: without CUDA, its CUDA device literals name the CPU
    (the inputs are made there), as trace_runner.placed does for the stand-in."""
    if torch.cuda.is_available():
        return text
    return CUDA_LITERAL.sub(lambda m: m.group(1) + "cpu" + m.group(1), text)


def load(text, function_obj=None):
    """Executes the trace's definitions with the real Thunder imported; returns its functions by
    name, each run as Thunder runs it, raising trace_runner.TraceRunError with the trace's line
    when it fails."""
    text = on_this_machine(text)
    namespace = {"__name__": "printed_trace", "__function_obj": function_obj}
    try:
        exec(compile(text, trace_runner.TRACE_FILENAME, "exec"), namespace)
    except Exception as e:
        raise trace_runner.TraceRunError(trace_runner.where(text, e)) from e
    functions = {}
    for name, fn in namespace.items():
        if not callable(fn) or getattr(inspect.unwrap(fn), "__module__", None) != "printed_trace":
            continue
        runner = as_prologue(fn) if name == PROLOGUE else jitted(fn)
        functions[name] = trace_runner.guarded(text, runner)
    return functions
