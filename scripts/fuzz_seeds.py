#!/usr/bin/env python3
"""Writes the fuzzers' generated seeds: inputs of the shapes behind the crashes and slow paths
found so far, which random mutation of small files does not reach (a mutation grows an input by
a few bytes at a time). Each shape at a few sizes up to the fuzzers' 64 KB limit (-max_len):
deep parentheses and brackets, long `+` and elif chains, comment and blank-line runs, CR-only
and mixed line endings, tabs and spaces, a byte-order mark, long lines and large bodies.

usage: fuzz_seeds.py OUT_DIR
writes OUT_DIR/traces (trace files: fuzz_validator, fuzz_streaming), OUT_DIR/python (modules
for the tracer: fuzz_tracer, fuzz_tracer_chunked) and OUT_DIR/types (annotation type strings).
Deterministic: the same files on every run, so a seed that fails names the same input.
"""
import os
import sys

MAX = 65536  # the fuzzers' -max_len: a longer seed is cut there, mid-construct
SIZES = (1_000, 8_000, 60_000)  # below, at and well above a chunk (8 KB; files from 16 KB)

TRACE_HEAD = (
    "# Constructed by Delete Last Used (took 0 milliseconds)\n"
    "import thunder\n"
    "import thunder.core.prims as prims\n"
    "import thunder.torch as ltorch\n"
    "import torch\n"
    "from thunder.executors.torchex import no_autocast\n"
    "\n"
    "@torch.no_grad()\n"
    "@no_autocast\n"
    "def computation(x, i0):\n"
    '  # x: "cpu f32[2, 3]"\n'
    '  # i0: "int 2"\n'
)
TRACE_TAIL = "  return t0\n"
PY_HEAD = "import torch\nimport torch.nn.functional as F\n\n\ndef f(x, n):\n"
PY_TAIL = "    return y\n"


def fit(head, unit, tail, size, closing=""):
    """head + unit repeated + closing + tail, about `size` bytes and never over MAX."""
    budget = min(size, MAX) - len(head) - len(tail) - len(closing)
    return head + unit * max(1, budget // max(1, len(unit))) + closing + tail


def nested(head, opener, inner, closer, tail, size):
    """head + opener * d + inner + closer * d + tail, about `size` bytes."""
    d = max(1, (min(size, MAX) - len(head) - len(tail) - len(inner)) // (len(opener) + len(closer)))
    return head + opener * d + inner + closer * d + tail


def trace_body(n, indent="  ", newline="\n"):
    lines = [f"{indent}t0 = ltorch.add(x, 1)  # t0: \"cpu f32[2, 3]\""]
    for i in range(1, n):
        lines.append(f"{indent}t{i} = ltorch.mul(t{i - 1}, 2)  # t{i}: \"cpu f32[2, 3]\"")
        if i % 7 == 0:
            lines.append(f"{indent}  # t{i} = prims.mul(t{i - 1}, 2)  # t{i}: \"cpu f32[2, 3]\"")
        if i % 11 == 0:
            lines.append(f"{indent}del t{i - 1}")
    return newline.join(lines) + newline


def traces():
    seeds = {}
    for size in SIZES:
        k = f"{size // 1000}k"
        head, tail = TRACE_HEAD + "  t0 = ltorch.add(", ", 1)\n" + TRACE_TAIL
        seeds[f"deep-parens-{k}"] = nested(head, "(", "x", ")", tail, size)
        seeds[f"deep-brackets-{k}"] = nested(head, "[", "x", "]", tail, size)
        seeds[f"deep-mixed-{k}"] = nested(head, "([{", "x", "}])", tail, size)
        seeds[f"deep-tuple-{k}"] = nested(head, "(x, ", "x", ")", tail, size)
        # An opener never closed: tree-sitter's error recovery at depth (a 65535-deep list
        # opener once freed a bad pointer in its runtime).
        seeds[f"open-brackets-{k}"] = fit(TRACE_HEAD + "  t0 = ", "[", "\n" + TRACE_TAIL, size)
        seeds[f"plus-chain-{k}"] = fit(TRACE_HEAD + "  t0 = x", " + 1", "\n" + TRACE_TAIL, size)
        seeds[f"call-chain-{k}"] = nested(
            TRACE_HEAD + "  t0 = ", "ltorch.neg(", "x", ")", "\n" + TRACE_TAIL, size)
        seeds[f"elif-chain-{k}"] = fit(
            TRACE_HEAD + "  if i0 == 0:\n    t0 = x\n",
            "  elif i0 == 1:\n    t0 = ltorch.add(x, 1)\n", "  else:\n    t0 = x\n" + TRACE_TAIL, size)
        seeds[f"comment-run-{k}"] = fit("", "#\n", TRACE_HEAD + "  t0 = x\n" + TRACE_TAIL, size)
        seeds[f"body-comment-run-{k}"] = fit(
            TRACE_HEAD + "  t0 = ltorch.add(x, 1)\n", "  # t0 = prims.add(x, 1)\n", TRACE_TAIL, size)
        seeds[f"blank-run-{k}"] = fit(TRACE_HEAD + "  t0 = x\n", "\n", TRACE_TAIL, size)
        seeds[f"cr-blank-run-{k}"] = fit(TRACE_HEAD + "  t0 = x\n", "\r", TRACE_TAIL, size)
        seeds[f"long-line-{k}"] = fit(TRACE_HEAD + "  t0 = ltorch.add(x, ", "1", ")\n" + TRACE_TAIL, size)
        seeds[f"long-name-{k}"] = fit(TRACE_HEAD + "  t0 = ltorch.add(x, t", "a", ")\n" + TRACE_TAIL, size)
        seeds[f"long-string-{k}"] = fit(TRACE_HEAD + "  t0 = ltorch.add(x, '", "s", "')\n" + TRACE_TAIL, size)
        seeds[f"long-comment-{k}"] = fit(TRACE_HEAD + "  t0 = x  # ", "c", "\n" + TRACE_TAIL, size)
        seeds[f"long-tuple-{k}"] = fit(TRACE_HEAD + "  t0 = (", "x, ", ")\n" + TRACE_TAIL, size)
        seeds[f"subsymbols-{k}"] = fit(
            TRACE_HEAD + '  t0 = ltorch.add(x, 1)  # t0: "cpu f32[2, 3]"\n',
            '    # t0 = prims.add(x, 1)  # t0: "cpu f32[2, 3]"\n', TRACE_TAIL, size)
        n = max(2, size // 60)
        body = TRACE_HEAD + trace_body(n) + f"  return t{n - 1}\n"
        seeds[f"large-body-{k}"] = body[:MAX]
        seeds[f"cr-only-{k}"] = body.replace("\n", "\r")[:MAX]
        seeds[f"crlf-{k}"] = body.replace("\n", "\r\n")[:MAX]
        endings = ["\n", "\r\n", "\r"]
        mixed = "".join(line + endings[i % 3] for i, line in enumerate(body.split("\n")))
        seeds[f"mixed-endings-{k}"] = mixed[:MAX]
        seeds[f"tabs-{k}"] = body.replace("\n  ", "\n\t")[:MAX]
        tabs_and_spaces = "".join(
            (line.replace("  ", "\t", 1) if i % 2 else line) + "\n"
            for i, line in enumerate(body.split("\n")))
        seeds[f"tabs-and-spaces-{k}"] = tabs_and_spaces[:MAX]
        seeds[f"bom-{k}"] = ("\ufeff" + body)[: MAX - 3]
        seeds[f"many-traces-{k}"] = fit("", TRACE_HEAD + "  t0 = x\n" + TRACE_TAIL + "\n", "", size)
    return seeds


def python_body(n, indent="    ", newline="\n"):
    lines = [f"{indent}y = x + 1"]
    ops = ["y = y * 2", "y = torch.relu(y)", "y = y - x", "z = y.sum(-1, keepdim=True)",
           "y = y / (z + 1)", "y = F.silu(y)", "y = y[..., : y.shape[-1] // 2 + 1]",
           "y = torch.cat((y, x[..., : y.shape[-1]]), dim=-1)[..., : x.shape[-1]]"]
    for i in range(1, n):
        lines.append(indent + ops[i % len(ops)])
        if i % 9 == 0:
            lines.append(f"{indent}# step {i}")
    return newline.join(lines) + newline


def python():
    seeds = {}
    for size in SIZES:
        k = f"{size // 1000}k"
        seeds[f"deep-parens-{k}"] = nested(PY_HEAD + "    y = ", "(", "x", ")", "\n" + PY_TAIL, size)
        seeds[f"deep-brackets-{k}"] = nested(
            PY_HEAD + "    y = x[", "[", "0", "]", "]\n" + PY_TAIL, size)
        seeds[f"deep-subscripts-{k}"] = fit(PY_HEAD + "    y = x", "[0]", "\n" + PY_TAIL, size)
        seeds[f"deep-tuple-{k}"] = nested(PY_HEAD + "    y = ", "(x, ", "x", ")", "[0]\n" + PY_TAIL, size)
        seeds[f"deep-calls-{k}"] = nested(PY_HEAD + "    y = ", "torch.relu(", "x", ")", "\n" + PY_TAIL, size)
        seeds[f"deep-unary-{k}"] = fit(PY_HEAD + "    y = ", "-", "x\n" + PY_TAIL, size)
        seeds[f"deep-not-{k}"] = fit(PY_HEAD + "    y = x if ", "not ", "n else x\n" + PY_TAIL, size)
        seeds[f"deep-attributes-{k}"] = fit(PY_HEAD + "    y = x", ".T", "\n" + PY_TAIL, size)
        seeds[f"deep-methods-{k}"] = fit(PY_HEAD + "    y = x", ".relu()", "\n" + PY_TAIL, size)
        seeds[f"open-brackets-{k}"] = fit(PY_HEAD + "    y = ", "[", "\n" + PY_TAIL, size)
        seeds[f"plus-chain-{k}"] = fit(PY_HEAD + "    y = x", " + 1", "\n" + PY_TAIL, size)
        seeds[f"tensor-plus-chain-{k}"] = fit(PY_HEAD + "    y = x", " + x", "\n" + PY_TAIL, size)
        seeds[f"compare-chain-{k}"] = fit(PY_HEAD + "    y = x if n", " < n", " else x\n" + PY_TAIL, size)
        seeds[f"elif-chain-{k}"] = fit(
            PY_HEAD + "    if n == 0:\n        y = x\n",
            "    elif n == 1:\n        y = x + 1\n", "    else:\n        y = x * 2\n" + PY_TAIL, size)
        depth = max(1, min(size, MAX) // 200)
        deep_if = PY_HEAD + "".join("    " * (i + 1) + f"if n >= {i % 3}:\n" for i in range(depth))
        seeds[f"nested-ifs-{k}"] = (deep_if + "    " * (depth + 1) + "y = x\n"
                                    + "    y = x\n" + PY_TAIL)[:MAX]
        seeds[f"nested-defs-{k}"] = (PY_HEAD + "".join(
            "    " * (i + 1) + f"def g{i}(x):\n" for i in range(depth))
            + "    " * (depth + 1) + "return x\n" + "    y = x\n" + PY_TAIL)[:MAX]
        seeds[f"for-chain-{k}"] = fit(
            PY_HEAD + "    y = x\n", "    for i in range(2):\n        y = y + i\n", PY_TAIL, size)
        seeds[f"recursion-{k}"] = (PY_HEAD + "    y = f(x, n)\n" + PY_TAIL)
        seeds[f"comment-run-{k}"] = fit("", "#\n", PY_HEAD + "    y = x\n" + PY_TAIL, size)
        seeds[f"body-comment-run-{k}"] = fit(PY_HEAD + "    y = x\n", "    # y = x + 1\n", PY_TAIL, size)
        seeds[f"blank-run-{k}"] = fit(PY_HEAD + "    y = x\n", "\n", PY_TAIL, size)
        seeds[f"cr-blank-run-{k}"] = fit(PY_HEAD + "    y = x\n", "\r", PY_TAIL, size)
        seeds[f"long-line-{k}"] = fit(PY_HEAD + "    y = x + ", "1", "\n" + PY_TAIL, size)
        seeds[f"long-name-{k}"] = fit(PY_HEAD + "    y", "a", " = x\n    y = x\n" + PY_TAIL, size)
        seeds[f"long-string-{k}"] = fit(PY_HEAD + "    s = '", "s", "'\n    y = x\n" + PY_TAIL, size)
        seeds[f"long-tuple-{k}"] = fit(PY_HEAD + "    t = (", "x, ", ")\n    y = t[0]\n" + PY_TAIL, size)
        seeds[f"long-shape-{k}"] = fit(PY_HEAD + "    y = x.reshape(", "1, ", "2, 3)\n" + PY_TAIL, size)
        n = max(2, size // 25)
        body = PY_HEAD + python_body(n) + PY_TAIL
        seeds[f"large-body-{k}"] = body[:MAX]
        seeds[f"cr-only-{k}"] = body.replace("\n", "\r")[:MAX]
        seeds[f"crlf-{k}"] = body.replace("\n", "\r\n")[:MAX]
        endings = ["\n", "\r\n", "\r"]
        seeds[f"mixed-endings-{k}"] = "".join(
            line + endings[i % 3] for i, line in enumerate(body.split("\n")))[:MAX]
        seeds[f"tabs-{k}"] = body.replace("    ", "\t")[:MAX]
        seeds[f"tabs-and-spaces-{k}"] = "".join(
            (line.replace("    ", "\t", 1) if i % 2 else line) + "\n"
            for i, line in enumerate(body.split("\n")))[:MAX]
        seeds[f"bom-{k}"] = ("\ufeff" + body)[: MAX - 3]
        seeds[f"many-functions-{k}"] = fit(
            PY_HEAD + "    y = g0(x)\n" + PY_TAIL + "\n",
            "def g0(x):\n    return x + 1\n\n", "", size)
    return seeds


def types():
    seeds = {}
    for size in (100, 1_000, 8_000, 60_000):
        k = f"{size}"
        seeds[f"many-dims-{k}"] = fit("cpu f32[", "2, ", "2]", size)
        seeds[f"symbolic-dims-{k}"] = fit("cuda:0 f32[", "i0, ", "i1]", size)
        seeds[f"proxy-dims-{k}"] = fit(
            "f32[", "[IntegerProxy name=i0, value=2, static=CONSTRAINT.CONSTRAINABLE], ", "2]", size)
        seeds[f"deep-brackets-{k}"] = nested("f32[", "[", "2", "]", "]", size)
        seeds[f"long-dim-{k}"] = fit("f32[", "9", "]", size)
        seeds[f"long-name-{k}"] = fit("int ", "i", "", size)
    return seeds


def configs():
    """fuzz_config: a file path line, then a pyproject.toml with every [tool.tracelint] key, the
    TOML forms tomllib and toml++ must agree on, and the deep dotted key of issue 34."""
    table = (
        '[tool.tracelint]\nselect = ["TL0", "tl1"]\nextend-select = ["TL2"]\nignore = ["TL005"]\n'
        'exclude = ["build"]\nextend-exclude = ["gen/*.py"]\ncontext-names = ["ctx"]\n'
        'dialect = "thunder"\nfail-on = "warning"\n'
        '[tool.tracelint.per-file-ignores]\n"tests/**" = ["TL003"]\n'
        '[tool.tracelint.per-file-dialect]\n"fx/*.py" = "fx"\n'
        '[tool.tracelint.severity]\nTL001 = "warning"\n')
    other = ('[project]\nname = "x"\nversion = "1.0"\n[tool.ruff]\nline-length = 100\n'
             'a.b."c d" = 1\ndates = [1979-05-27T07:32:00Z, 1979-05-27]\n'
             "s = \'\'\'\nraw\\n\'\'\'\nm = \"\"\"\\\n  folded\"\"\"\n"
             'n = [0x1F, 0o7, 0b1, 1_000, +inf, nan, -0.0, 1e3]\ninline = { x = 1, y = [1, 2] }\n'
             '[[arr]]\nk = 1\n[[arr]]\nk = 2\n')
    return {
        "full": "t.py\n" + table,
        "other-tables": "src/m.py\n" + other + table,
        "no-table": "t.py\n" + other,
        "inline-table": 'a/b.py\n[tool]\ntracelint = { select = ["TL001"] }\n',
        "dotted": 't.py\ntool.tracelint.select = ["TL001"]\n',
        "deep-key": "t.py\n[" + ".".join(["a"] * 2000) + "]\nx = 1\n" + table,
        "bad-key": 't.py\n[tool.tracelint]\nselectt = ["TL001"]\n',
        "empty": "t.py\n",
    }


def programs():
    """fuzz_interpreter: bytes that its generator reads as choices (fuzz/program_generator.hpp)."""
    import random
    rng = random.Random(34)
    return {f"choices-{n}-{i}": bytes(rng.randrange(256) for _ in range(n))
            for n in (16, 64, 256, 1024) for i in range(4)}


def main():
    out = sys.argv[1]
    os.makedirs(os.path.join(out, "programs"), exist_ok=True)
    for name, data in programs().items():
        with open(os.path.join(out, "programs", name), "wb") as f:
            f.write(data)
    for kind, seeds in (("traces", traces()), ("python", python()), ("types", types()),
                        ("configs", configs())):
        os.makedirs(os.path.join(out, kind), exist_ok=True)
        for name, text in seeds.items():
            data = text.encode("utf-8")[:MAX]
            with open(os.path.join(out, kind, name), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
