#!/usr/bin/python3
"""The tracer's independent oracle: runs the original Python source with CPython and PyTorch on
the inputs (and module state) a `tracelint run --save-io DIR` used, and compares the results of
the traces executed by libtorch with what CPython computes.

    /usr/bin/python3 tracer/oracle/cpython_oracle.py [--polyfill] DIR [DIR ...]

(/usr/bin/python3: Debian's python3-torch is PyTorch for the system Python.)

Each DIR holds manifest.json and raw tensor files. For a module, the class is built with the
--init expressions evaluated in the module's namespace, put in eval mode, and the state tensors
the computation took are copied into it by their paths; the rest of its state is what CPython's
construction made. A run traced with --grad also holds the cotangents and the backward's
gradients: CPython's autograd computes them from the same cotangents, and they are compared too.
Exit code 0 when every result matches, 1 when one differs, 2 on bad input.

--polyfill installs, where the installed PyTorch lacks them, the functions as PyTorch documents
them (torch.nn.functional.scaled_dot_product_attention and rms_norm appeared after 1.13).
"""
import ast
import contextlib
import importlib.util
import json
import math
import os
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError:
    print(f"cpython_oracle: {sys.executable} has no PyTorch: run it with /usr/bin/python3 "
          "(Debian's python3-torch; scripts/bootstrap.sh installs it)", file=sys.stderr)
    sys.exit(2)

DTYPES = {
    "float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
    "float64": torch.float64, "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
    "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool,
}


def reference_sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                   enable_gqa=False):
    # The reference implementation in torch.nn.functional.scaled_dot_product_attention's docs.
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype, device=query.device)
    if is_causal:
        temp_mask = torch.ones(L, S, dtype=torch.bool, device=query.device).tril(diagonal=0)
        attn_bias.masked_fill_(temp_mask.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_mask + attn_bias
    if enable_gqa:
        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    attn_weight = query @ key.transpose(-2, -1) * scale_factor
    attn_weight = attn_weight + attn_bias
    attn_weight = torch.softmax(attn_weight, dim=-1)
    attn_weight = torch.dropout(attn_weight, dropout_p, train=True)
    return attn_weight @ value


def reference_rms_norm(input, normalized_shape, weight=None, eps=None):
    # torch.nn.functional.rms_norm as documented: x / sqrt(mean(x^2) + eps) * weight.
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    dims = tuple(range(-len(normalized_shape), 0))
    out = input * torch.rsqrt(input.pow(2).mean(dims, keepdim=True) + eps)
    return out * weight if weight is not None else out


def polyfill():
    if not hasattr(F, "scaled_dot_product_attention"):
        F.scaled_dot_product_attention = reference_sdpa
    if not hasattr(F, "rms_norm"):
        F.rms_norm = reference_rms_norm


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
            if not torch.allclose(expected, actual, rtol=rtol, atol=atol, equal_nan=True):
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


def detach_all(value):
    if isinstance(value, torch.Tensor):
        return value.detach()
    if isinstance(value, (tuple, list)):
        return type(value)(detach_all(v) for v in value)
    if isinstance(value, dict):
        return {k: detach_all(v) for k, v in value.items()}
    return value


def tensors_of(value):
    """The tensors of an output (tuples, lists, dict values), in order: the trace's flat_output."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in tensors_of(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_of(v)]
    return []


def check(directory):
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    spec = importlib.util.spec_from_file_location("traced_module", manifest["source"])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    namespace = dict(vars(module))
    namespace.setdefault("torch", torch)
    kwargs = {}
    for arg in manifest["args"]:
        if "value" in arg:
            kwargs[arg["name"]] = load_tensor(directory, arg["value"])
        else:
            kwargs[arg["name"]] = eval(arg["literal"], namespace)
    if manifest["module_class"]:
        init = {e["name"]: eval(e["expr"], namespace) for e in manifest["init"]}
        instance = getattr(module, manifest["module_class"])(**init)
        instance.eval()
        with torch.no_grad():
            for entry in manifest["state"]:
                target = state_tensor(instance, entry["path"])
                value = load_tensor(directory, entry["value"])
                if target.shape != value.shape or target.dtype != value.dtype:
                    raise ValueError(f"{entry['path']}: CPython's module has {target.dtype} "
                                     f"{list(target.shape)}, the trace took {value.dtype} {list(value.shape)}")
                target.copy_(value)
        target_fn = getattr(instance, manifest["method"])
    else:
        instance = None
        target_fn = getattr(module, manifest["function"])
    gradients = manifest.get("gradients")
    leaves = []
    if gradients:
        for entry in gradients["inputs"]:
            leaf = state_tensor(instance, entry["name"]) if entry["state"] else kwargs[entry["name"]]
            leaf.requires_grad_(True)
            leaves.append(leaf)
    with torch.set_grad_enabled(bool(gradients)):
        result = target_fn(**kwargs)
    problems = []
    worst = 0.0
    if gradients:
        flat = tensors_of(result)
        outputs = [flat[c["output"]] for c in gradients["cotangents"]]
        cotangents = [load_tensor(directory, c["value"]) for c in gradients["cotangents"]]
        grads = torch.autograd.grad(outputs, leaves, cotangents, allow_unused=True) if leaves else []
        for entry, leaf, grad in zip(gradients["inputs"], leaves, grads):
            expected = torch.zeros_like(leaf) if grad is None else grad
            for which in ("traced", "printed"):
                worst = max(worst, compare(expected.detach(), load_value(directory, entry[which]),
                                           f"gradient of {entry['name']} ({which})", problems))
    result = detach_all(result)
    for which in ("traced", "printed"):
        worst = max(worst, compare(result, load_value(directory, manifest[which]), which, problems))
    for arg in manifest["args"]:
        if "after" in arg:
            # An input updated in place: the trace's copy back must leave what CPython left.
            worst = max(worst, compare(kwargs[arg["name"]].detach(), load_tensor(directory, arg["after"]),
                                       f"input {arg['name']} after the call", problems))
    name = manifest["module_class"] + "." + manifest["method"] if manifest["module_class"] else manifest["function"]
    return name, problems, worst


def main(argv):
    args = [a for a in argv if a != "--polyfill"]
    if "--polyfill" in argv:
        polyfill()
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    failed = 0
    for directory in args:
        try:
            # What the model prints (nanoGPT's parameter count) goes to stderr: stdout is the verdicts.
            with contextlib.redirect_stdout(sys.stderr):
                name, problems, worst = check(directory)
        except Exception as e:  # the original source failed in CPython: a finding, not a pass
            print(f"{directory}: error: CPython could not run it: {type(e).__name__}: {e}")
            failed += 1
            continue
        if problems:
            failed += 1
            print(f"{directory}: {name}: DIFFERS from CPython: " + "; ".join(problems))
        else:
            print(f"{directory}: {name}: matches CPython (max abs diff {worst})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
