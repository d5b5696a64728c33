#!/usr/bin/env python3
"""Compares tracelint's traces with Lightning Thunder's own, by structure, and writes
docs/thunder-compat.md from what it finds (so the page cannot go stale: `--check` fails when
the page differs from what this computes, or when a difference has no reason below).

Run with the tools venv's python (it has Thunder and PyTorch 2.x; scripts/bootstrap.sh):

    .venv-tools/bin/python scripts/thunder_compat.py --tracelint build/tracelint --write docs/thunder-compat.md
    .venv-tools/bin/python scripts/thunder_compat.py --tracelint build/tracelint --check docs/thunder-compat.md

Two comparisons:

1. Schemas: each symbol of the op registry (`tracelint trace --list-ops`) against Thunder's
   symbol of the same name (`inspect.signature` of thunder.torch.X / thunder.core.prims.X): the
   kinds, order and defaults of the parameters (the names of positional-only ones aside).
2. Traces: each case of tests/tracer/oracle_cases.json (the functions and modules of
   tests/tracer/ops_cases.py), of tests/tracer/model_cases.json (examples/tracer/models.py) and
   nanoGPT's GPT.forward with and without targets (../shared, when present) traced by tracelint (--level ltorch, constant values) and by
   `thunder.jit` on the same inputs (Thunder's computation trace after its dead-code
   elimination, still at the ltorch level); compared are the top-level symbol calls in order:
   the symbol, how many positional arguments (a shape given to a *shape parameter counted as
   its ints: view(x, 2, 3) and view(x, (2, 3)) are the same call), which keywords, and the
   annotation of what it makes (device, dtype, shape). Names and other comments are not
   compared. Then, for training, how many tensors and numbers each saves for the backward;
   and under symbolic values, which tensors and numbers each computation takes.
"""
import argparse
import ast
import collections
import difflib
import functools
import inspect
import json
import os
import re
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore")

import torch  # noqa: E402
import thunder  # noqa: E402
import thunder.core.prims as thunder_prims  # noqa: E402
import thunder.torch as thunder_ltorch  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("TRACELINT_SHARED_DIR", os.path.join(os.path.dirname(ROOT), "shared"))


class CaseSet:
    """Cases (a JSON list of {"function" or "module"/"init", "args"}) of one source file."""

    def __init__(self, title, source, cases=None, listed=None):
        self.title, self.source = title, source
        self.listed = listed
        if cases is None:
            with open(os.path.join(ROOT, listed)) as f:
                cases = json.load(f)
        self.cases = cases


def case_sets():
    """The op cases and the README's models always; nanoGPT where ../shared has it (its section
    of the page is kept as it is when it does not)."""
    sets = [
        CaseSet("the op cases", os.path.join(ROOT, "tests", "tracer", "ops_cases.py"),
                listed="tests/tracer/oracle_cases.json"),
        CaseSet("the README's models", os.path.join(ROOT, "examples", "tracer", "models.py"),
                listed="tests/tracer/model_cases.json"),
    ]
    nanogpt = os.path.join(SHARED, "models", "nanogpt", "model.py")
    config = "GPTConfig(n_layer=2, n_head=2, n_embd=32, block_size=16, vocab_size=64)"
    gpt = {"module": "GPT", "init": [["config", config]], "args": [["idx", "i64[2, 12]:0..64"]]}
    with_targets = dict(gpt, args=gpt["args"] + [["targets", "i64[2, 12]:0..64"]])
    sets.append(CaseSet(NANOGPT_TITLE, nanogpt if os.path.exists(nanogpt) else None,
                        cases=[gpt, with_targets]))
    return sets


NANOGPT_TITLE = "nanoGPT (../shared/models/nanogpt/model.py, unmodified)"

# Why a schema differs from Thunder's, by symbol. A difference without a reason fails --check.
SCHEMA_REASONS = {
    **{f"ltorch.{name}": (
        f"Thunder 0.2.6 has {name} only as an auto-registered torch op (any arguments, run by "
        "PyTorch, no decomposition); tracelint's decomposes into a reshape, a permute and a "
        "reshape, which Thunder runs too") for name in ("pixel_shuffle", "pixel_unshuffle")},
    **{f"ltorch.{name}": (
        f"Thunder 0.2.6 has {name} only as an auto-registered torch op (any arguments, run by "
        "PyTorch, no decomposition); tracelint's decomposes into slices or a reshape and "
        "ltorch.mean / ltorch.amax per spatial dim, which Thunder runs too")
       for name in ("adaptive_avg_pool1d", "adaptive_max_pool1d", "adaptive_max_pool2d")},
    **{f"ltorch.conv_transpose{n}d": (
        "Thunder 0.2.6 has conv_transpose1d/2d/3d only as auto-registered torch ops (any "
        "arguments, run by PyTorch, no decomposition); tracelint's decomposes into prims.pad, "
        "prims.flip and prims.convolution (the input's gradient of a convolution, as Thunder's "
        "VJP writes it), which Thunder runs too") for n in (1, 2, 3)},
    "ltorch.roll": "Thunder 0.2.6 has roll only as an auto-registered torch op (any arguments, "
                   "run by PyTorch, no decomposition); tracelint's decomposes into "
                   "prims.slice_prim and prims.cat, which Thunder runs too",
    "ltorch.div": "Thunder's `out=None` is not taken: `out=` is refused in traced code, so the "
                  "trace never needs it (Thunder prints `out=None`)",
    "ltorch.where": "Thunder also takes where(pred) alone (nonzero); the tracer's where needs "
                    "both values",
    "ltorch.to": "the tracer binds torch's to(dtype) / to(device) / to(other) forms itself and "
                 "prints the keywords; Thunder's positional and copy/memory_format parameters "
                 "are not printed (Thunder's defaults apply)",
    "ltorch.amax": "dim=() reduces every dim in PyTorch and in Thunder alike (Thunder's default "
                   "is None)",
    "ltorch.amin": "as ltorch.amax",
    "ltorch.var": "torch's `unbiased` is bound from the traced code and printed as Thunder's "
                  "`correction` (torch-only); correction=None means 1, and is printed as 1",
    "ltorch.std": "as ltorch.var",
    "ltorch.softmax": "the tracer's dim has a default (None) where Thunder requires it; the "
                      "trace always prints the dim, and Thunder's `_stacklevel` is never needed",
    "ltorch.log_softmax": "as ltorch.softmax",
    "ltorch.contiguous": "memory_format is torch-only: printed only when set; Thunder's default "
                         "torch.contiguous_format is what None means",
    "ltorch.tril": "Thunder's extra keyword `fill_value` is not taken (torch has none)",
    "ltorch.triu": "as ltorch.tril",
    "ltorch.scaled_dot_product_attention": "enable_gqa (PyTorch 2.5) is torch-only: printed only "
                                           "when set; Thunder 0.2.6 lacks it",
    "ltorch.nll_loss": "size_average and reduce are torch-only (refused when set); ignore_index "
                       "is printed by keyword, its torch default -100",
    "ltorch.arange": "out, layout and requires_grad are torch-only (printed only when set); "
                     "the tracer's dtype/device order differs, by keyword alike",
    "ltorch.full": "layout and requires_grad are torch-only; keyword order differs",
    "ltorch.zeros": "as ltorch.full",
    "ltorch.ones": "as ltorch.full",
    "ltorch.full_like": "layout, requires_grad and memory_format are torch-only; torch's "
                        "fill_value may be passed by position, as the tracer's schema allows",
    "ltorch.zeros_like": "layout, requires_grad and memory_format are torch-only",
    "ltorch.ones_like": "as ltorch.zeros_like",
    "ltorch.tensor": "Thunder's pin_memory is not taken (a CPU-only host option)",
    "ltorch.empty": "layout, requires_grad and memory_format are torch-only (Thunder's defaults "
                    "torch.strided and contiguous_format are what None means); Thunder's out "
                    "and pin_memory are not taken",
    "prims.check_tensor_metadata": "thunder-only: the name older Thunder releases printed; "
                                   "0.2.6 prints prims.check_tensor_shape_and_metadata, which "
                                   "the tracer records",
}

# Why a call differs from Thunder's, by the symbol of the first differing call (tracelint's or
# Thunder's). A differing case whose symbols have no reason here fails --check.
CALL_REASONS = {
    **{f"ltorch.max_pool{n}d": (
        "tracelint binds torch's parameter order (ceil_mode before return_indices) and prints "
        "both by name; Thunder's schema has them the other way round and prints them by "
        "position") for n in (1, 2, 3)},
    **{f"ltorch.adaptive_max_pool{n}d": (
        "Thunder's auto-registered op records return_indices=False as passed; tracelint's "
        "return_indices is torch-only (ATen's op lacks it), printed only when set, which the "
        "tracer refuses") for n in (1, 2)},
    **{f"ltorch.conv_transpose{n}d": (
        "Thunder records its auto-registered torch op with the arguments as passed (keywords "
        "as keywords); tracelint binds them to torch's parameter list and prints them by "
        "position, in that order") for n in (1, 2, 3)},
    "ltorch.roll": "tracelint records nothing for a roll that moves nothing (x.roll(3, 0) of a "
                   "dim of 3, as flip of no dims) and prints roll's dims, None when not given; "
                   "Thunder's auto-registered torch.roll records every call with what was passed",
    "ltorch.spmm": "torch.spmm of dense tensors is ltorch.matmul in tracelint, as torch.mm is; "
                   "Thunder records it as its auto-registered torch op spmm",
    "ltorch._softmax": "Thunder 0.2.6 records torch.softmax / F.softmax as ltorch._softmax; "
                       "tracelint records ltorch.softmax, which Thunder has too (the printed "
                       "trace runs under Thunder)",
    "prims.transpose": "Thunder records Tensor.permute, .T and .mT as prims.transpose at the "
                       "top level and merges one equal to an earlier one (its common-"
                       "subexpression elimination); tracelint records ltorch.permute (which "
                       "decomposes to prims.transpose) each time",
    "ltorch.permute": "as prims.transpose",
    "ltorch.transpose": "as prims.transpose: Thunder merged it with an equal earlier transpose",
    "ltorch.getitem": "tracelint records nothing for a slice that takes the whole tensor "
                      "(mask[:, :, :T, :T] of a [1, 1, T, T] mask); Thunder records the getitem",
    "ltorch.tril": "Thunder prints its own `fill_value=None`, which torch's tril lacks",
    "ltorch.triu": "as ltorch.tril",
    "ltorch.dropout": "Thunder records a dropout that does nothing (p=0, or a module in eval "
                      "mode); tracelint records nothing for the identity",
    "ltorch.tensor": "Thunder prints its own `pin_memory=False`",
    "ltorch.div": "Thunder prints its own `out=None`",
    "ltorch.empty": "Thunder prints all of its parameters (layout, memory_format, out, "
                    "pin_memory, requires_grad); tracelint the ones set (torch-only)",
    "ltorch.to": "Thunder prints to() as called plus every keyword (to(x, dtype, None, "
                 "device=None, dtype=None, copy=False, memory_format=None)); tracelint binds "
                 "torch's to(dtype) / to(device) / to(other) and prints device= and dtype=",
    "ltorch.add_": "Thunder's traces keep an in-place call (ltorch.add_) until a later "
                   "functionalisation pass; tracelint functionalises while tracing (the "
                   "out-of-place symbol, then prims.copy_ into the input at the end)",
    "ltorch.clone": "as ltorch.add_: Thunder's in-place handling clones first",
    "prims.copy_": "tracelint copies an input's in-place update back at the end (prims.copy_ "
                   "into the input); Thunder 0.2.6 keeps the in-place symbol on the input itself",
    "prims.update_aliases": "Thunder 0.2.6 marks the tensors an in-place update may alias "
                            "(prims.update_aliases) and keeps the update; tracelint "
                            "functionalises it while tracing",
    "ltorch.contiguous": "Thunder prints memory_format= always (its torch.contiguous_format, "
                         "named _torch_memory_format_N); tracelint leaves it out at its default, "
                         "the same format (torch-only)",
}
# Why a case differs, for what CALL_REASONS does not explain, by case name.
TRACE_REASONS = {
    "norms_updating_running_statistics (78)": (
        "Thunder records batch_norm and instance_norm with the running statistics, updated "
        "inside its symbol; tracelint computes their update as symbols of its own (mean, var, "
        "mul, add) before calling the symbol without them, and writes it back with prims.copy_ "
        "at the end"),
    "TrainingNorms (79)": "as norms_updating_running_statistics, for the modules in training mode",
}
# Why a case's computation takes other tensors under symbolic values, by case name.
SYMBOLIC_CASE_REASONS = {
    "collection_inputs": "tensors inside collection inputs: tracelint names each as the prologue "
                         "unpacks it (t0, t4, ...); Thunder 0.2.6 by its path (t_a_2, t_arr_0) "
                         "or by the local the function first binds it to (`bias`)",
}


# ---- schemas

def parameters_of_signature(text):
    """[(kind, name or None, default source or None)] of a Python parameter list."""
    args = ast.parse(f"def f({text}): pass").body[0].args
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + [ast.unparse(d) for d in args.defaults]
    out = [("positional", None, defaults[i]) for i, _ in enumerate(args.posonlyargs)]
    out += [("positional", a.arg, defaults[len(args.posonlyargs) + i]) for i, a in enumerate(args.args)]
    if args.vararg:
        out.append(("*args", None, None))
    out += [("keyword", a.arg, None if d is None else ast.unparse(d))
            for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    return out


def parameters_of_function(fn):
    P = inspect.Parameter
    out = []
    for p in inspect.signature(fn).parameters.values():
        default = None if p.default is P.empty else repr(p.default)
        if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD):
            out.append(("positional", p.name if p.kind == P.POSITIONAL_OR_KEYWORD else None, default))
        elif p.kind == P.VAR_POSITIONAL:
            out.append(("*args", None, None))
        elif p.kind == P.KEYWORD_ONLY:
            out.append(("keyword", p.name, default))
    return out


def comparable(params):
    """Positional parameters by kind and default (their names are not part of a positional
    call); keyword parameters by name and default, in any order."""
    positional = [(k, d) for k, n, d in params if k != "keyword"]
    keywords = sorted((n, d) for k, n, d in params if k == "keyword")
    return positional, keywords


def registry(tracelint):
    listing = subprocess.run([tracelint, "trace", "--list-ops"], capture_output=True, text=True,
                             check=True).stdout
    for line in listing.splitlines():
        m = re.match(r"(ltorch|prims)\.(\w+)\((.*)\)(  \[(.*)\])?$", line)
        if m:
            yield m.group(1), m.group(2), m.group(3), (m.group(5) or "").split(", ")


def schema_differences(tracelint):
    rows = []
    total = 0
    for module, name, signature, tags in registry(tracelint):
        total += 1
        qualified = f"{module}.{name}"
        symbol = getattr(thunder_ltorch if module == "ltorch" else thunder_prims, name, None)
        if symbol is None:
            rows.append((qualified, f"({signature})", "(none)"))
            continue
        theirs = parameters_of_function(getattr(symbol, "meta", symbol))
        if comparable(parameters_of_signature(signature)) != comparable(theirs):
            shown = re.sub(r": '[^']*'|: [\w.\[\]| ]+(?=[,=)])", "",
                           str(inspect.signature(getattr(symbol, "meta", symbol))))
            rows.append((qualified, f"({signature})", re.sub(r" -> .*$", "", shown)))
    return total, rows


# ---- traces

TENSOR_SPEC = r"(f32|f64|bf16|f16|i64|i32|b8)\[([^\]]*)\](@\w+)?(:(-?\d+)\.\.(-?\d+))?"


def parse_arg(spec, namespace):
    """A tensor from tracelint's --arg spec (f32[2, 3], i64[2, 6]:0..11), else a Python value,
    whose tensor specs inside ({2: f32[2, 3]}, [f32[2], f32[2]]) are tensors too."""
    m = re.match(f"^{TENSOR_SPEC}$", spec)
    if not m:
        tensors = {}

        def tensor_name(inner):
            tensors[f"__tensor_spec_{len(tensors)}"] = parse_arg(inner.group(0), namespace)
            return f"__tensor_spec_{len(tensors) - 1}"
        return eval(re.sub(TENSOR_SPEC, tensor_name, spec), {**namespace, **tensors})
    dtype = {"f32": torch.float32, "f64": torch.float64, "bf16": torch.bfloat16,
             "f16": torch.float16, "i64": torch.int64, "i32": torch.int32, "b8": torch.bool}[m.group(1)]
    shape = [int(d) for d in m.group(2).split(",") if d.strip()]
    if dtype.is_floating_point:
        return torch.randn(shape, dtype=dtype)
    low, high = (int(m.group(5)), int(m.group(6))) if m.group(4) else (0, 2)
    return torch.randint(low, high, shape, dtype=dtype)


def positional_count(symbol, args, varargs):
    """The positional arguments of a call, a final sequence given to a *shape parameter counted
    as its items (Thunder prints view(x, 2, 3) as called; tracelint one tuple)."""
    if symbol in varargs and args and isinstance(args[-1], (tuple, list)):
        return len(args) - 1 + len(args[-1])
    return len(args)


def trace_command(tracelint, source, case, grad=False, cache="constant-values"):
    command = [tracelint, "trace", source, "--cache", cache, "--level", "ltorch",
               "--no-provenance"]
    if "module" in case:
        command += ["--module", case["module"]] + [a for k, v in case["init"] for a in ("--init", f"{k}={v}")]
    else:
        command += ["--function", case["function"]]
    for k, v in case["args"]:
        floating = grad and re.match(r"^(f|bf)\d*\[", v)
        command += ["-a", f"{k}={v}:grad" if floating else f"{k}={v}"]
    return command + (["--grad"] if grad else [])


def saved_counts(returned):
    """(tensors, numbers) saved for backward: the second item of an augmented forward's return,
    ((tensors...), (numbers...))."""
    saved = returned.elts[1]
    return tuple(len(part.elts) for part in saved.elts)


def our_saved(tracelint, source, case):
    result = subprocess.run(trace_command(tracelint, source, case, grad=True), capture_output=True,
                            text=True)
    if result.returncode != 0:
        return None, result.stderr.strip().splitlines()[-1]
    module = ast.parse(result.stdout)
    forward = next(f for f in module.body if isinstance(f, ast.FunctionDef) and f.name == "augmented_forward_fn")
    return saved_counts(forward.body[-1].value), None


def thunder_saved(case, namespace):
    """What Thunder's final forward trace saves for backward, inputs requiring grad as ours."""
    torch.manual_seed(0)
    args = {k: parse_arg(v, namespace) for k, v in case["args"]}
    for v in args.values():
        if isinstance(v, torch.Tensor) and v.is_floating_point():
            v.requires_grad_(True)
    target = build_target(case, namespace)
    try:
        jitted = thunder.jit(target)
        jitted(**args)
    except Exception as e:
        return None, thunder_refusal(e)
    returned = ast.parse(str(thunder.last_traces(jitted)[-1]))
    forward = next(f for f in returned.body if isinstance(f, ast.FunctionDef))
    value = forward.body[-1].value
    if not (isinstance(value, ast.Tuple) and len(value.elts) == 2 and
            isinstance(value.elts[0], ast.Dict)):
        return (0, 0), None  # nothing needs a gradient: the outputs, no saved collections
    return saved_counts(value), None


def computation_inputs(text, tensors):
    """The computation's parameters: (the tensor inputs, sorted; the numbers passed: number
    inputs, dims and numbers the prologue computed, by name)."""
    module = ast.parse(text)
    computation = next(f for f in module.body if isinstance(f, ast.FunctionDef) and f.name == "computation")
    names = [a.arg for a in computation.args.args]
    return tuple(sorted(n for n in names if n in tensors)), tuple(n for n in names if n not in tensors)


def our_symbolic_inputs(tracelint, source, case):
    result = subprocess.run(trace_command(tracelint, source, case, cache="symbolic-values"),
                            capture_output=True, text=True)
    if result.returncode != 0:
        return None, result.stderr.strip().splitlines()[-1]
    return computation_inputs(result.stdout, tensor_inputs(result.stdout)), None


def tensor_inputs(text):
    """The names the computation's annotations give a tensor type (`# x: "cpu f32[2, 3]"`)."""
    return set(re.findall(r"^  # (\w+): \"\S+ [a-z]+\d*\[", text, re.M))


def thunder_symbolic_inputs(case, namespace):
    torch.manual_seed(0)
    args = {k: parse_arg(v, namespace) for k, v in case["args"]}
    try:
        jitted = thunder.jit(build_target(case, namespace), cache="symbolic values")
        jitted(**args)
    except Exception as e:
        return None, thunder_refusal(e)
    text = str(thunder.last_traces(jitted)[0])
    return computation_inputs(text, tensor_inputs(text)), None


def symbolic_section(tracelint, case_set):
    namespace = source_namespace(case_set.source)
    rows = []
    for number, case in enumerate(case_set.cases):
        name = f"{case.get('module') or case['function']} ({number + 1})"
        ours, our_error = our_symbolic_inputs(tracelint, case_set.source, case)
        theirs, their_error = thunder_symbolic_inputs(case, namespace)
        rows.append((name, ours, theirs, our_error and f"tracelint: {our_error}" or
                     their_error and f"Thunder refuses it: {their_error}" or ""))
    compared = [r for r in rows if r[1] is not None and r[2] is not None]
    same = sum(1 for r in compared if r[1][0] == r[2][0])
    lines = [
        "",
        f"## Symbolic values: {case_set.title}",
        "",
        "Each case traced by both with `cache=\"symbolic values\"`, the computation's parameters "
        "compared: the tensors it takes, and the numbers passed to it (number inputs, which are "
        "proxies in both, dims, numbers the prologue computed). tracelint unpacks the dims the "
        "computation reads in the prologue and passes them in (`i0`, `i1`), and names a number "
        "by its kind (`f2`); Thunder 0.2.6 passes the tensors and queries their shapes in the "
        "computation (`(i0, i1) = prims.shape(x)`), names a number unpacked from a collection "
        "after its key (`scale`), and passes a number input the computation does not read. "
        f"{same} of {len(compared)} take the same tensors.",
        "",
        "| Case | tracelint: tensors; numbers | Thunder: tensors; numbers | Note |",
        "|---|---|---|---|",
    ]
    unexplained = []
    for name, mine, other, note in rows:
        show = lambda c: "" if c is None else f"{', '.join(c[0])}; {', '.join(c[1]) or '-'}"
        if not note and mine[0] != other[0]:
            note = SYMBOLIC_CASE_REASONS.get(name.split(" (")[0], "")
            if not note:
                note = "**the tensors differ**"
                unexplained.append(f"symbolic values, {case_set.title}: {name}")
        lines.append(f"| `{name}` | {show(mine)} | {show(other)} | {note} |")
    return lines, unexplained


def prologue_form(text):
    """How a prologue unpacks and checks its inputs: the prims it calls, counted, and the
    unpacking statements by form (`_, C1, = key`: a tuple target; `x = args[0]`: a subscript;
    `i2 = C1.stop`: an attribute) — Thunder's cache_info checks (about the caller's defaults,
    not the inputs) left out."""
    module = ast.parse(text)
    prologue = next(f for f in module.body if isinstance(f, ast.FunctionDef) and f.name == "prologue")
    forms = collections.Counter()
    for statement in prologue.body:
        if "cache_info" in ast.unparse(statement):
            continue
        value = getattr(statement, "value", None)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
            base = value.func.value
            prim = isinstance(base, ast.Name) and base.id == "prims"
            forms[f"prims.{value.func.attr}" if prim else f".{value.func.attr}()"] += 1
        elif isinstance(statement, ast.Assign) and isinstance(statement.targets[0], ast.Tuple):
            forms["tuple unpack"] += 1
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(value, ast.Subscript):
            forms["subscript"] += 1
        elif isinstance(statement, (ast.Assign, ast.AnnAssign)) and isinstance(value, ast.Attribute):
            forms["attribute"] += 1
    return ", ".join(f"{k} ×{n}" if n > 1 else k for k, n in sorted(forms.items()))


def prologue_section(tracelint, case_set):
    rows = []
    for number, case in enumerate(case_set.cases):
        name = f"{case.get('module') or case['function']} ({number + 1})"
        code, out, err = our_constant_trace(tracelint, case_set.source, json.dumps(case))
        ours = prologue_form(out) if code == 0 else None
        _, prologue, refusal = thunder_constant_traces(case_set.source, json.dumps(case))
        theirs = prologue_form(prologue) if prologue else None
        note = f"Thunder refuses it: {refusal}" if refusal else ""
        if ours is None:
            note = f"tracelint: {err.strip().splitlines()[-1]}"
        elif theirs is not None and ours != theirs:
            if "module" in case:
                note = MODULE_PROLOGUE_REASON
            elif any(not re.match(r"^(f|bf|i|b)\d*\[", v) for _, v in case["args"]):
                note = PROLOGUE_REASON
            else:
                note = PROLOGUE_CASE_REASONS.get(case.get("function"))
        rows.append((name, ours, theirs, note))
    same = sum(1 for r in rows if r[1] is not None and r[1] == r[2])
    compared = sum(1 for r in rows if r[1] is not None and r[2] is not None)
    lines = [
        "",
        f"## Prologues: {case_set.title}",
        "",
        "Each case's prologue (constant values), tracelint's against Thunder's first prologue "
        "trace: the prims it calls and how it unpacks its inputs, counted by form "
        "(Thunder's cache_info checks left out). A case with only tensor inputs must match; "
        f"where one differs the reason is given. {same} of {compared} the same.",
        "",
        "| Case | tracelint | Thunder | Why |",
        "|---|---|---|---|",
    ]
    unexplained = []
    for name, mine, other, note in rows:
        if note is None:
            unexplained.append(f"prologue, {case_set.title}: {name}")
            note = "**no reason given**"
        lines.append(f"| `{name}` | {mine or ''} | {other or ''} | {note} |")
    return lines, unexplained


PROLOGUE_REASON = ("a number or collection input: Thunder 0.2.6 unpacks a collection by "
                   "subscripts (`subscr0 = args[1]`, `any0 = subscr0[1]`) and checks a slice "
                   "whole (`prims.check_slice_value`), and checks only what the computation "
                   "reads; tracelint unpacks it into names (`_, C1, = key`, as Thunder printed "
                   "it after PR #1201) and checks each part (`prims.check_literal_like(C1.start, "
                   "None)`)")


MODULE_PROLOGUE_REASON = (
    "an nn.Module: Thunder 0.2.6 also checks the state of each submodule it read "
    "(`training` and other attributes: prims.check_number_type_and_value, check_string_value, "
    "reached through prims.get_submodule) and checks a tied parameter under each of its names "
    "(nanoGPT's lm_head.weight is transformer.wte.weight); tracelint checks the parameters "
    "and buffers the computation takes, once each, by path (`fn.get_parameter('up.weight')`), "
    "the module's structure fixed when it was constructed")
# Why a tensor-only case's prologue differs, by function name.
PROLOGUE_CASE_REASONS = {
    "math_module": "a number made from an input's shape (`math.sqrt(x.shape[-1])`): Thunder "
                   "unpacks the shape in the prologue and checks the number's value; tracelint's "
                   "check of the tensor's shape already fixes it",
    "generators": "Thunder 0.2.6 interprets `contextlib.contextmanager` itself and checks "
                  "attributes of the module it read there (prims.check_string_value); tracelint "
                  "provides contextlib, so the prologue checks only the input",
    "dataclass_replace": "Thunder 0.2.6 interprets `dataclasses.replace` itself and checks a "
                         "global of the dataclasses module it read there (`_FIELDS`, a string "
                         "constant: prims.check_string_value); tracelint provides dataclasses "
                         "itself, so the prologue checks only the input",
}


def our_calls(tracelint, source, case, varargs):
    code, out, err = our_constant_trace(tracelint, source, json.dumps(case))
    if code != 0:
        return None, err.strip().splitlines()[-1]
    return calls_of(out, varargs), None


def on_this_machine(annotation):
    """tracelint's annotation as Thunder makes it here: a case's CUDA input is a CPU tensor when
    there is no CUDA (Thunder traces what it is given; tracelint what the case names)."""
    return annotation if torch.cuda.is_available() else re.sub(r"^cuda(:\d+)? ", "cpu ", annotation)


def calls_of(text, varargs):
    """The computation's top-level symbol calls in order: (symbol, positional count, keywords,
    the annotation of what it makes: `cpu f32[2, 3]`, "" for none)."""
    lines = text.splitlines()
    module = ast.parse(text)
    computation = next(f for f in module.body if isinstance(f, ast.FunctionDef) and f.name == "computation")
    calls = []
    for statement in computation.body:
        value = getattr(statement, "value", None)
        if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
            continue
        base = value.func.value
        if not (isinstance(base, ast.Name) and base.id in ("ltorch", "prims")):
            continue
        symbol = f"{base.id}.{value.func.attr}"
        if value.func.attr in BOOKKEEPING:
            continue
        args = [list(a.elts) if isinstance(a, (ast.Tuple, ast.List)) else a for a in value.args]
        annotation = re.search(r'#\s*\S+: "([^"]*)"\s*$', lines[statement.lineno - 1])
        calls.append((symbol, positional_count(symbol, args, varargs),
                      tuple(sorted(k.arg for k in value.keywords)),
                      on_this_machine(annotation.group(1)) if annotation else ""))
    return calls


# Thunder's bookkeeping in a first trace: unpacking its inputs, returning; not ops.
BOOKKEEPING = {"unpack_trivial", "unpack_sequence", "unpack_attr", "unpack_key", "python_return",
               "python_del", "unpack_function_obj", "unpack_cache_info", "unpack_parameter",
               "unpack_buffer", "unpack_submodule", "unpack_thunder_module", "shape"}


def after_dce(traces):
    """Thunder's computation trace after its dead-code elimination (its first trace keeps calls
    whose results nothing uses), else its first."""
    for trace in traces:
        if "Dead Code Elimination" in str(trace).split("\n", 1)[0]:
            return trace
    return traces[0]


def build_target(case, namespace):
    if "module" in case:
        init = {k: eval(v, namespace) for k, v in case["init"]}
        return namespace[case["module"]](**init).eval()
    return namespace[case["function"]]


def thunder_refusal(e):
    message = str(e).splitlines()[0] if str(e) else ""
    # Thunder's "... while tracing <function f at 0x7f...>": the address differs per run.
    message = re.sub(r" while tracing <[^>]*>:?", "", message)
    return f"{type(e).__name__}: {re.sub(r' at 0x[0-9a-f]+', '', message)}"[:200]


def saved_differences(tracelint, case_set):
    namespace = source_namespace(case_set.source)
    rows = []
    for number, case in enumerate(case_set.cases):
        if case.get("no_grad"):
            continue
        name = f"{case.get('module') or case['function']} ({number + 1})"
        ours, our_error = our_saved(tracelint, case_set.source, case)
        theirs, their_error = thunder_saved(case, namespace)
        if our_error or their_error:
            rows.append((name, None, None, our_error and f"tracelint: {our_error}" or
                         f"Thunder refuses it: {their_error}"))
        else:
            rows.append((name, ours, theirs, ""))
    return rows


@functools.lru_cache(maxsize=None)
def thunder_constant_traces(source, case_key):
    """Thunder's computation (after its dead-code elimination) and first prologue for a case,
    jitted once with constant values; or why Thunder refuses it."""
    case, namespace = json.loads(case_key), source_namespace(source)
    torch.manual_seed(0)
    args = {k: parse_arg(v, namespace) for k, v in case["args"]}
    try:
        jitted = thunder.jit(build_target(case, namespace))
        jitted(**args)
    except Exception as e:  # Thunder cannot jit it: said as such
        return None, None, thunder_refusal(e)
    return str(after_dce(thunder.last_traces(jitted))), str(thunder.last_prologue_traces(jitted)[0]), None


@functools.lru_cache(maxsize=None)
def source_namespace(source):
    namespace = {"__name__": "traced_source", "__file__": source}
    with open(source) as f:
        exec(compile(f.read(), source, "exec"), namespace)
    return namespace


@functools.lru_cache(maxsize=None)
def our_constant_trace(tracelint, source, case_key):
    """tracelint's trace of a case (constant values, ltorch), run once: (exit code, stdout, stderr)."""
    result = subprocess.run(trace_command(tracelint, source, json.loads(case_key)),
                            capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def thunder_calls(case, source, varargs):
    computation, _, refusal = thunder_constant_traces(source, json.dumps(case))
    if refusal:
        return None, refusal
    return calls_of(computation, varargs), None


def trace_differences(tracelint, case_set):
    varargs = {f"{m}.{n}" for m, n, signature, _ in registry(tracelint)
               if re.search(r"(^|, )\*\w", signature)}
    rows = []
    for number, case in enumerate(case_set.cases):
        name = f"{case.get('module') or case['function']} ({number + 1})"
        ours, our_error = our_calls(tracelint, case_set.source, case, varargs)
        theirs, their_error = thunder_calls(case, case_set.source, varargs)
        if our_error:
            rows.append((name, "not compared", f"tracelint: {our_error}", None))
        elif their_error:
            # Thunder cannot jit it: its own message is the reason.
            rows.append((name, "not compared", f"Thunder refuses it: {their_error}", ""))
        elif ours != theirs:
            # A dropout that does nothing (eval mode, p=0: all these cases have) is Thunder's
            # call and tracelint's nothing: left out before aligning, said in the reasons.
            kept = [c for c in theirs if c[0] != "ltorch.dropout"]
            if ours == kept:
                rows.append((name, "differs", f"Thunder's {len(theirs) - len(kept)} dropout "
                             "calls only", CALL_REASONS["ltorch.dropout"]))
            else:
                detail, reason = describe_difference(ours, kept)
                if reason is not None and kept != theirs:
                    reason = CALL_REASONS["ltorch.dropout"] + "<br>" + reason
                rows.append((name, "differs", detail, reason))
        else:
            rows.append((name, "same", f"{len(ours)} calls", ""))
    return rows


def spelled(call):
    symbol, positional, keywords, annotation = call
    given = f"{positional} positional{', ' + ', '.join(k + '=' for k in keywords) if keywords else ''}"
    return f"{symbol}({given})" + (f" → {annotation}" if annotation else "")


def describe_difference(ours, theirs):
    """Each run of differing calls (the two sequences aligned as difflib aligns lines), said, and
    the reasons for them: None when a run has no symbol with a reason in CALL_REASONS."""
    details, reasons = [], []
    matcher = difflib.SequenceMatcher(a=ours, b=theirs, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        mine = ", ".join(spelled(c) for c in ours[i1:i2]) or "nothing"
        other = ", ".join(spelled(c) for c in theirs[j1:j2]) or "nothing"
        details.append(f"call {i1 + 1}: tracelint {mine}; Thunder {other}")
        symbols = [c[0] for c in ours[i1:i2] + theirs[j1:j2]]
        reason = next((CALL_REASONS[s] for s in symbols if s in CALL_REASONS), None)
        # What a call makes is never a matter of spelling: calls aligned one to one must
        # annotate the same device, dtype and shape.
        makes_other = i2 - i1 == j2 - j1 and any(
            a[3] and b[3] and a[3] != b[3] for a, b in zip(ours[i1:i2], theirs[j1:j2]))
        if reason is None or makes_other:
            return "<br>".join(details), None
        if reason not in reasons:
            reasons.append(reason)
    return "<br>".join(details), "<br>".join(reasons)


# ---- the page

def page(tracelint, kept_page=None):
    """The page, the differences without a reason, and the reasons nothing needs. A case set
    whose source is absent (nanoGPT without ../shared) keeps its section from kept_page."""
    total, schemas = schema_differences(tracelint)
    unexplained = [q for q, _, _ in schemas if q not in SCHEMA_REASONS]
    stale = [q for q in SCHEMA_REASONS if q not in {r[0] for r in schemas}]
    lines = [
        "# tracelint and Lightning Thunder: where the traces differ",
        "",
        f"Generated by `scripts/thunder_compat.py` against lightning-thunder {thunder.__version__} "
        f"(PyTorch {torch.__version__.split('+')[0]}); `ctest -R thunder_compat` fails when this "
        "page is stale or a difference has no reason.",
        "",
        "## Schemas",
        "",
        f"{len(schemas)} of the op registry's {total} symbols have a schema other than Thunder's "
        "symbol of the same name (parameter kinds, order and defaults; keyword-only ones in any "
        "order). A *torch-only* parameter is accepted from traced code and printed only when "
        "set, so the printed call is Thunder's.",
        "",
        "| Symbol | tracelint | Thunder | Why |",
        "|---|---|---|---|",
    ]
    for qualified, ours, theirs in schemas:
        why = SCHEMA_REASONS.get(qualified, "**no reason given**")
        lines.append(f"| `{qualified}` | `{ours}` | `{theirs}` | {why} |")
    differing = set()
    for case_set in case_sets():
        if case_set.source is None:
            lines += kept_section(kept_page, f"Traces: {case_set.title}")
            continue
        section, problems, names = trace_section(tracelint, case_set)
        lines += section
        unexplained += problems
        differing |= names
    stale += [n for n in TRACE_REASONS if n not in differing]
    for case_set in case_sets():
        if case_set.source is None:
            lines += kept_section(kept_page, f"Saved for backward: {case_set.title}")
        else:
            lines += saved_section(tracelint, case_set)
    for case_set in case_sets():
        if case_set.source is None:
            lines += kept_section(kept_page, f"Prologues: {case_set.title}")
        else:
            section, problems = prologue_section(tracelint, case_set)
            lines += section
            unexplained += problems
    for case_set in case_sets():
        if case_set.source is None:
            lines += kept_section(kept_page, f"Symbolic values: {case_set.title}")
        else:
            section, problems = symbolic_section(tracelint, case_set)
            lines += section
            unexplained += problems
    return "\n".join(lines) + "\n", unexplained, stale


def saved_section(tracelint, case_set):
    rows = saved_differences(tracelint, case_set)
    compared = [r for r in rows if r[1] is not None]
    ours = [sum(r[1][0] for r in compared), sum(r[1][1] for r in compared)]
    theirs = [sum(r[2][0] for r in compared), sum(r[2][1] for r in compared)]
    same = sum(1 for r in compared if r[1][0] == r[2][0])
    lines = [
        "",
        f"## Saved for backward: {case_set.title}",
        "",
        "Each case traced for training by both (floating inputs requiring grad, and a module's "
        "parameters), the tensors and numbers the augmented forward saves for the backward "
        "counted (tracelint's `augmented_forward_fn`; Thunder's final forward trace). Thunder "
        "saves what its own VJPs read after its rematerialization pass; tracelint what the "
        "registry's VJP rules read, the forward's outputs recomputed nowhere: the counts are "
        f"compared, not the tensors. {same} of {len(compared)} save as many tensors; in all, "
        f"tracelint saves {ours[0]} tensors and {ours[1]} numbers, Thunder {theirs[0]} and "
        f"{theirs[1]}.",
        "",
        "| Case | tracelint (tensors, numbers) | Thunder (tensors, numbers) | Note |",
        "|---|---|---|---|",
    ]
    for name, mine, other, note in rows:
        show = lambda c: "" if c is None else f"{c[0]}, {c[1]}"
        lines.append(f"| `{name}` | {show(mine)} | {show(other)} | {note} |")
    return lines


def trace_section(tracelint, case_set):
    traces = trace_differences(tracelint, case_set)
    traces = [(n, v, d, r if r is not None else TRACE_REASONS.get(n)) for n, v, d, r in traces]
    same = sum(1 for _, verdict, _, _ in traces if verdict == "same")
    refused = sum(1 for _, _, detail, _ in traces if detail.startswith("Thunder refuses"))
    where = f" ({case_set.listed})" if case_set.listed else ""
    lines = [
        "",
        f"## Traces: {case_set.title}",
        "",
        f"Each case{where} traced by both (`--level ltorch`, constant values; Thunder's "
        "computation trace after its dead-code elimination), top-level calls compared in order "
        "(symbol, positional count, keywords, and the annotation of what it makes: device, "
        "dtype, shape; without CUDA here, a case's CUDA input is Thunder's CPU tensor, and "
        f"tracelint's `cuda:0` is compared as `cpu`): {same} of {len(traces)} the same, {refused} not "
        f"compared because Thunder cannot jit them, {len(traces) - same - refused} differing, "
        "each with its reason: the calls are aligned as difflib aligns lines, and each run of "
        "differing calls takes the reason of a symbol in it (Thunder's do-nothing dropouts are "
        "left out first). (Every printed trace of these cases also runs under Thunder and "
        "matches eager PyTorch: `cpython_oracle.py --thunder` in the oracle tests.)",
        "",
        "| Case | Verdict | Detail | Why |",
        "|---|---|---|---|",
    ]
    for name, verdict, detail, why in traces:
        why = "**no reason given**" if why is None else why
        detail = detail.replace("|", "\\|")
        lines.append(f"| `{name}` | {verdict} | {detail} | {why} |")
    unexplained = [f"{case_set.title}: {n}" for n, _, _, reason in traces if reason is None]
    return lines, unexplained, {n for n, verdict, _, _ in traces if verdict != "same"}


def kept_section(kept_page, title):
    """The section of an earlier page for a case set that cannot run here, as it was."""
    heading = f"## {title}"
    if kept_page is None or heading not in kept_page:
        return ["", heading, "", "(not generated: its source is absent here)"]
    section = kept_page[kept_page.index(heading):]
    following = section.find("\n## ", len(heading))
    section = section if following < 0 else section[:following]
    return [""] + section.rstrip("\n").split("\n")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tracelint", default=os.path.join(ROOT, "build", "tracelint"))
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", metavar="PAGE")
    group.add_argument("--check", metavar="PAGE")
    args = parser.parse_args(argv)
    existing = args.check or args.write
    kept = open(existing).read() if os.path.exists(existing) else None
    text, unexplained, stale = page(args.tracelint, kept)
    if args.write:
        with open(args.write, "w") as f:
            f.write(text)
    problems = [f"a difference without a reason: {n}" for n in unexplained]
    problems += [f"a reason for what no longer differs: {n}" for n in stale]
    if args.check and kept != text:
        problems.append(f"{args.check} is stale: regenerate it with --write")
    for p in problems:
        print(f"thunder_compat: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
