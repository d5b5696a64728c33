#!/usr/bin/python3
"""The tracer's independent oracle: runs the original Python source with CPython and PyTorch on
the inputs (and module state) a `tracelint run --save-io DIR` used, and compares with what
CPython computes (1) the results of the traces executed by tracelint's libtorch executor (saved
in the manifest) and (2) the printed trace itself (DIR/trace.py) run here by trace_runner.py,
which gives every ltorch symbol and prim PyTorch's semantics, independent of tracelint's C++.

    /usr/bin/python3 tracer/oracle/cpython_oracle.py [--polyfill] DIR [DIR ...]
    /usr/bin/python3 tracer/oracle/cpython_oracle.py [--polyfill] --dirs-from LIST
    .venv-tools/bin/python tracer/oracle/cpython_oracle.py --thunder DIR [DIR ...]

(/usr/bin/python3: Debian's python3-torch is PyTorch for the system Python.)

--thunder runs the printed trace with Lightning Thunder itself instead (thunder_runner.py: the
prologue through Thunder's python executor, the other functions compiled by thunder.jit and run
by its executors), and the original source with the same PyTorch 2.x: a trace that only runs
under tracelint's executor fails. It needs the tools venv (scripts/bootstrap.sh).

Each DIR holds manifest.json and raw tensor files. For a module, the class is built with the
--init expressions evaluated in the module's namespace, put in eval mode, and the state tensors
the computation took are copied into it by their paths; the rest of its state is what CPython's
construction made. A run traced with --grad also holds the cotangents and the backward's
gradients: CPython's autograd computes them from the same cotangents, and they are compared too.
Exit code 0 when every result matches, 1 when one differs, 2 on bad input.

--dirs-from LIST reads the DIRs from the file LIST, one a line (for thousands of runs, as the
differential test of the shape rules makes).

--stub MODULES (comma-separated dotted names) stands in for modules the model file imports but
does not use in what is compared, and which are not installed here (makemore's
torch.utils.tensorboard, a tokenizer's tiktoken): each is a module whose every attribute is a
placeholder that raises when called, so a model that does use one fails.

--polyfill installs, where the installed PyTorch lacks them, the functions as PyTorch documents
them (torch.nn.functional.scaled_dot_product_attention and rms_norm appeared after 1.13), for the
original source too. Without it the printed trace still runs them as documented, and the verdict
says so.
"""
import ast
import contextlib
import importlib.abc
import importlib.util
import json
import math
import os
import sys
import types

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print(f"cpython_oracle: {sys.executable} has no PyTorch: run it with /usr/bin/python3 "
          "(Debian's python3-torch; scripts/bootstrap.sh installs it)", file=sys.stderr)
    sys.exit(2)

import trace_runner  # noqa: E402 (after the check that torch imports)

DTYPES = {
    "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
    "float64": torch.float64, "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
    "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
}


def polyfill():
    for name, reference in trace_runner.DOCUMENTED_REFERENCES.items():
        if not hasattr(F, name):
            setattr(F, name, reference)


def load_tensor(directory, entry):
    with open(os.path.join(directory, entry["tensor"]), "rb") as f:
        data = bytearray(f.read())
    dtype = DTYPES[entry["dtype"]]
    shape = entry["shape"]
    if not data:
        return torch.empty(shape, dtype=dtype)
    return torch.frombuffer(data, dtype=dtype).reshape(shape).clone()


def load_value(directory, entry):
    if "tensor" in entry:
        return load_tensor(directory, entry)
    if "int" in entry:
        return entry["int"]
    if "float" in entry:
        return float(entry["float"])
    if "bool" in entry:
        return entry["bool"]
    if "none" in entry:
        return None
    if "tuple" in entry:
        return tuple(load_value(directory, e) for e in entry["tuple"])
    if "list" in entry:
        return [load_value(directory, e) for e in entry["list"]]
    if "dict" in entry:
        return {load_value(directory, k): load_value(directory, v) for k, v in entry["dict"]}
    if "repr" in entry:
        # Any other value, saved as its Python repr (a str, say): a literal is read back with
        # ast.literal_eval, which evaluates nothing else.
        try:
            return ast.literal_eval(entry["repr"])
        except (ValueError, SyntaxError):
            pass
    raise ValueError("cannot load " + json.dumps(entry))


def tolerances(dtype):
    if dtype in (torch.float16, torch.bfloat16):
        return 1e-2, 1e-2
    if dtype == torch.float64:
        return 1e-7, 1e-9
    return 1e-4, 1e-5


def scale_tolerance(dtype):
    if dtype in (torch.float16, torch.bfloat16):
        return 1e-2
    return 1e-12 if dtype == torch.float64 else 1e-5


def compare(expected, actual, where, out):
    """Appends a description of each difference to out; returns the max abs diff seen."""
    if isinstance(expected, torch.Tensor) or isinstance(actual, torch.Tensor):
        if not (isinstance(expected, torch.Tensor) and isinstance(actual, torch.Tensor)):
            out.append(f"{where}: CPython gives {type(expected).__name__}, the trace {type(actual).__name__}")
            return 0.0
        if expected.shape != actual.shape or expected.dtype != actual.dtype:
            out.append(f"{where}: CPython gives {expected.dtype} {list(expected.shape)}, "
                       f"the trace {actual.dtype} {list(actual.shape)}")
            return 0.0
        if expected.is_floating_point():
            rtol, atol = tolerances(expected.dtype)
            e, a = expected.double(), actual.double()
            both_nan = torch.isnan(e) & torch.isnan(a)
            diff = torch.where(both_nan, torch.zeros_like(e), (e - a).abs())
            diff = torch.where(torch.isinf(e) & (e == a), torch.zeros_like(diff), diff)
            worst = float(diff.max()) if diff.numel() else 0.0
            largest = float(e.abs().max()) if e.numel() else 0.0
            # A sum over many terms rounds in proportion to its terms (as the C++ comparison
            # allows): within scale_tol of the tensor's largest magnitude is rounding.
            rounding = math.isfinite(largest) and worst <= scale_tolerance(expected.dtype) * largest
            if not rounding and not torch.allclose(expected, actual, rtol=rtol, atol=atol,
                                                   equal_nan=True):
                out.append(f"{where}: values differ (max abs diff {worst})")
            return worst
        if not torch.equal(expected, actual):
            out.append(f"{where}: values differ")
        return 0.0
    if isinstance(expected, (tuple, list)) and isinstance(actual, (tuple, list)):
        if len(expected) != len(actual):
            out.append(f"{where}: CPython gives {len(expected)} items, the trace {len(actual)}")
            return 0.0
        return max([compare(e, a, f"{where}[{i}]", out) for i, (e, a) in enumerate(zip(expected, actual))],
                   default=0.0)
    if isinstance(expected, dict) and isinstance(actual, dict):
        if set(expected) != set(actual):
            out.append(f"{where}: different keys")
            return 0.0
        return max([compare(expected[k], actual[k], f"{where}[{k!r}]", out) for k in expected], default=0.0)
    if isinstance(expected, float) or isinstance(actual, float):
        if not math.isclose(float(expected), float(actual), rel_tol=1e-9, abs_tol=1e-12):
            out.append(f"{where}: CPython gives {expected!r}, the trace {actual!r}")
        return 0.0
    if expected != actual:
        out.append(f"{where}: CPython gives {expected!r}, the trace {actual!r}")
    return 0.0


def state_tensor(module, path):
    obj = module
    for part in path.split("."):
        obj = obj[int(part)] if part.isdigit() and not hasattr(obj, part) else getattr(obj, part)
    return obj


def tensors_of(value):
    """The tensors of an output (tuples, lists, dict values), in order: the trace's flat_output."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in tensors_of(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_of(v)]
    return []


def load_arguments(directory, manifest, namespace):
    """The call's arguments by name: tensors from their files (requiring grad where the run's
    did), the rest evaluated as given."""
    kwargs = {}
    for arg in manifest["args"]:
        if "value" in arg:  # a tensor, or a collection holding tensors
            value = load_value(directory, arg["value"])
            if isinstance(value, torch.Tensor):
                value.requires_grad_(arg.get("requires_grad", False))
            kwargs[arg["name"]] = value
        else:
            kwargs[arg["name"]] = eval(arg["literal"], namespace)
    return kwargs


def build_instance(module, manifest, directory, namespace):
    """The module CPython constructs, in eval mode (training mode for a trace made with --train),
    holding the state tensors the trace took."""
    init = {e["name"]: eval(e["expr"], namespace) for e in manifest["init"]}
    instance = getattr(module, manifest["module_class"])(**init)
    # In the mode the trace was made in (tracelint trace --train: training).
    instance.train(bool(manifest.get("train", False)))
    with torch.no_grad():
        for entry in manifest["state"]:
            target = state_tensor(instance, entry["path"])
            value = load_tensor(directory, entry["value"])
            if target.shape != value.shape or target.dtype != value.dtype:
                raise ValueError(f"{entry['path']}: CPython's module has {target.dtype} "
                                 f"{list(target.shape)}, the trace took {value.dtype} {list(value.shape)}")
            target.copy_(value)
    return instance


def leaf_of(entry, instance, kwargs):
    return state_tensor(instance, entry["name"]) if entry["state"] else kwargs[entry["name"]]


def run_source(manifest, directory, target_fn, instance, kwargs):
    """CPython runs the original source: its result and, traced for grad, autograd's gradients
    (one per manifest gradient input, zeros where autograd finds it unused)."""
    gradients = manifest.get("gradients")
    leaves = [leaf_of(e, instance, kwargs).requires_grad_(True) for e in gradients["inputs"]] \
        if gradients else []
    with torch.set_grad_enabled(bool(gradients)):
        result = target_fn(**kwargs)
    grads = []
    if gradients:
        flat = tensors_of(result)
        outputs = [flat[c["output"]] for c in gradients["cotangents"]]
        grads = torch.autograd.grad(outputs, leaves, cotangents_of(directory, manifest),
                                    allow_unused=True) if leaves else []
        grads = [torch.zeros_like(leaf) if g is None else g.detach() for leaf, g in zip(leaves, grads)]
    return trace_runner.detached(result), grads


def cotangents_of(directory, manifest):
    return [load_tensor(directory, c["value"]) for c in manifest["gradients"]["cotangents"]]


class StandIn:
    """How the printed trace runs by default: trace_runner.py, PyTorch's semantics."""
    name = "PyTorch"
    semantics = "with PyTorch's semantics"
    load = staticmethod(trace_runner.load)


class UnderThunder:
    """--thunder: the printed trace run by Lightning Thunder itself (thunder_runner.py)."""
    name = "Thunder"

    def __init__(self):
        import thunder_runner
        self.load = thunder_runner.load
        self.semantics = "under " + thunder_runner.version()


def run_printed_trace(manifest, directory, instance, namespace, runner):
    """The printed trace (trace.py) run by the runner (trace_runner's PyTorch semantics for every
    symbol, or Thunder), on fresh inputs: its result, the inputs after it, and its gradients (as
    run_source's)."""
    with open(os.path.join(directory, manifest["trace"])) as f:
        functions = runner.load(f.read(), function_obj=instance)
    kwargs = load_arguments(directory, manifest, namespace)
    gradients = manifest.get("gradients")
    for entry in gradients["inputs"] if gradients else []:
        leaf_of(entry, instance, kwargs).requires_grad_(True)
    args = [kwargs[a["name"]] for a in manifest["args"]]
    inputs, _ = functions["prologue"](*args)
    if not gradients:
        return functions["computation"](*inputs), kwargs, []
    forward, saved = functions["augmented_forward_fn"](*inputs)
    grads = functions["backward_fn"](saved, tuple(cotangents_of(directory, manifest)))
    # The backward gives one value per argument, then one per state tensor in the order the
    # prologue unpacked them: found by identity, not by the trace's names.
    state = [v for v in inputs if isinstance(v, torch.Tensor) and not any(v is a for a in args)]
    by_input = []
    for entry in gradients["inputs"]:
        leaf = leaf_of(entry, instance, kwargs)
        position = next(i for i, a in enumerate(args) if a is leaf) if not entry["state"] else \
            len(args) + next(k for k, s in enumerate(state) if s is leaf)
        grad = grads[position] if position < len(grads) else None
        by_input.append(torch.zeros_like(leaf) if grad is None else grad)
    return forward["output"], kwargs, by_input


def compare_run(expected, expected_grads, kwargs_after, manifest, directory, outcome, which,
                problems):
    """Compares one run of the trace (our executor's saved results, or the printed trace's)
    with CPython's; returns the worst difference."""
    result, inputs_after, grads = outcome
    worst = compare(expected, trace_runner.detached(result), which, problems)
    gradients = manifest.get("gradients")
    for entry, want, got in zip(gradients["inputs"] if gradients else [], expected_grads, grads):
        worst = max(worst, compare(want, trace_runner.detached(got),
                                   f"gradient of {entry['name']} ({which})", problems))
    for arg in manifest["args"]:
        if "after" in arg:
            # An input updated in place: the trace's copy back must leave what CPython left.
            after = inputs_after(arg) if callable(inputs_after) else inputs_after[arg["name"]]
            worst = max(worst, compare(trace_runner.detached(kwargs_after[arg["name"]]),
                                       trace_runner.detached(after),
                                       f"input {arg['name']} after the call ({which})", problems))
    return worst


class Absent:
    """An attribute of a --stub module: calling it (using the module) raises."""

    def __init__(self, name):
        self.name = name

    def __getattr__(self, attr):
        if attr.startswith("__") and attr.endswith("__"):  # what inspect and copy probe
            raise AttributeError(attr)
        return Absent(f"{self.name}.{attr}")

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.name}: a --stub module (not installed here) was used")


class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds the --stub modules (and their submodules) before any other finder."""

    def __init__(self, names):
        self.names = names

    def find_spec(self, fullname, path, target=None):
        if any(fullname == n or fullname.startswith(n + ".") for n in self.names):
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = types.ModuleType(spec.name)
        module.__getattr__ = lambda attr: Absent.__getattr__(Absent(spec.name), attr)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def load_source_module(path):
    """The traced file as CPython imports it: its folder first on sys.path (and, inside a package,
    the folder above the package, so that `from .config import X` and `from pkg.utils import Y`
    find the model's own modules as the tracer does)."""
    folder = os.path.dirname(os.path.abspath(path))
    package, parts = folder, [os.path.splitext(os.path.basename(path))[0]]
    while os.path.isfile(os.path.join(package, "__init__.py")):
        parts.insert(0, os.path.basename(package))
        package = os.path.dirname(package)
    for entry in (package, folder):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    if len(parts) > 1:
        return importlib.import_module(".".join(parts))
    spec = importlib.util.spec_from_file_location("traced_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(directory, runner):
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    module = load_source_module(manifest["source"])
    namespace = dict(vars(module))
    namespace.setdefault("torch", torch)
    kwargs = load_arguments(directory, manifest, namespace)
    instance = build_instance(module, manifest, directory, namespace) if manifest["module_class"] else None
    target_fn = getattr(instance, manifest["method"]) if instance else getattr(module, manifest["function"])
    expected, expected_grads = run_source(manifest, directory, target_fn, instance, kwargs)
    problems = []
    worst = 0.0
    gradients = manifest.get("gradients")
    for which in ("traced", "printed"):
        # What tracelint's executor computed: saved in the manifest.
        saved_grads = [load_value(directory, e[which]) for e in gradients["inputs"]] if gradients else []
        saved = (load_value(directory, manifest[which]),
                 lambda arg: load_value(directory, arg["after"]), saved_grads)
        worst = max(worst, compare_run(expected, expected_grads, kwargs, manifest, directory, saved,
                                       which, problems))
    if "trace" in manifest:
        try:
            # A module built afresh: the first run may have changed its buffers.
            fresh = build_instance(module, manifest, directory, namespace) if instance else None
            printed = run_printed_trace(manifest, directory, fresh, namespace, runner)
        except trace_runner.TraceRunError as e:
            problems.append(f"the printed trace, run {runner.semantics}, fails: {e}")
        else:
            worst = max(worst, compare_run(expected, expected_grads, kwargs, manifest, directory,
                                           printed, f"printed trace run by {runner.name}", problems))
    name = manifest["module_class"] + "." + manifest["method"] if manifest["module_class"] else manifest["function"]
    return name, problems, worst, printed_trace_note(directory, manifest, runner)


def printed_trace_note(directory, manifest, runner):
    """What the verdict says of the printed trace's run: not run, or which documented references
    stood in for functions this PyTorch lacks."""
    if "trace" not in manifest:
        return "; the printed trace was not saved (a tracelint older than trace.py in --save-io)"
    with open(os.path.join(directory, manifest["trace"])) as f:
        text = f.read()
    note = ""
    used = [] if isinstance(runner, UnderThunder) else trace_runner.references_used(text)
    if isinstance(runner, UnderThunder):
        note += f"; the printed trace ran {runner.semantics}"
    if used:
        note += (f"; the printed trace's {', '.join(used)} ran as PyTorch's documentation "
                 f"defines it (PyTorch {torch.__version__} lacks it)")
    if "'cuda" in text and not torch.cuda.is_available():
        note += "; the printed trace's CUDA tensors ran on the CPU (no CUDA here)"
    return note


def directories(argv):
    """The DIRs of the command line, or of the file after --dirs-from; None when misused."""
    args = [a for a in argv if a not in ("--polyfill", "--thunder")]
    if "--stub" in args:
        at = args.index("--stub")
        if at + 1 >= len(args):
            return None
        del args[at:at + 2]
    if "--dirs-from" not in args:
        return args
    at = args.index("--dirs-from")
    if at + 1 >= len(args):
        return None
    with open(args[at + 1]) as f:
        listed = [line.rstrip("\n") for line in f if line.strip()]
    return args[:at] + args[at + 2:] + listed


def main(argv):
    try:
        args = directories(argv)
    except OSError as e:
        print(f"cpython_oracle: --dirs-from: {e}", file=sys.stderr)
        return 2
    if "--polyfill" in argv:
        polyfill()
    if "--stub" in argv and argv.index("--stub") + 1 < len(argv):
        sys.meta_path.insert(0, StubFinder(argv[argv.index("--stub") + 1].split(",")))
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        runner = UnderThunder() if "--thunder" in argv else StandIn()
    except ImportError as e:
        print(f"cpython_oracle: --thunder: {sys.executable} cannot import Thunder ({e}): run it "
              "with the tools venv's python (.venv-tools/bin/python; scripts/bootstrap.sh makes it)",
              file=sys.stderr)
        return 2
    failed = 0
    for directory in args:
        try:
            # What the model prints (nanoGPT's parameter count) goes to stderr: stdout is the verdicts.
            with contextlib.redirect_stdout(sys.stderr):
                name, problems, worst, note = check(directory, runner)
        except Exception as e:  # the original source failed in CPython: a finding, not a pass
            print(f"{directory}: error: CPython could not run it: {type(e).__name__}: {e}")
            failed += 1
            continue
        if problems:
            failed += 1
            print(f"{directory}: {name}: DIFFERS from CPython: " + "; ".join(problems))
        else:
            print(f"{directory}: {name}: matches CPython (max abs diff {worst}){note}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
