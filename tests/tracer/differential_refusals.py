#!/usr/bin/python3
"""CPython's verdict on the calls the tracer refused in the differential test of the shape rules
(tests/test_shape_differential.cpp): PyTorch must refuse each of them too.

    /usr/bin/python3 tests/tracer/differential_refusals.py [--polyfill] CASES.json

CASES.json is a list of {"source": PATH, "function": NAME, "args": [[NAME, TEXT], ...],
"message": the tracer's error}; TEXT is an --arg of `tracelint trace` (f32[2, 1, 3], i64[4]:0..5,
or a Python literal). Each function is called with random inputs of those shapes and dtypes (the
values within their ranges). Prints a line for each call PyTorch runs without an error and exits
1 if there is one; 0 when PyTorch refuses them all.
"""
import ast
import importlib.util
import json
import os
import re
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tracer", "oracle"))
import cpython_oracle  # noqa: E402

SHORT_DTYPES = {
    "f32": torch.float32, "f64": torch.float64, "f16": torch.float16, "bf16": torch.bfloat16,
    "i64": torch.int64, "i32": torch.int32, "i16": torch.int16, "i8": torch.int8, "u8": torch.uint8,
    "b8": torch.bool,
}
TENSOR = re.compile(r"^(\w+)\[([\d, ]*)\](?::(-?\d+)\.\.(-?\d+))?$")


def make_value(text, generator):
    m = TENSOR.match(text)
    if not m:
        return ast.literal_eval(text)
    dtype = SHORT_DTYPES[m[1]]
    shape = [int(d) for d in m[2].split(",") if d.strip()]
    if dtype.is_floating_point:
        return torch.randn(shape, generator=generator).to(dtype)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=generator).bool()
    lo, hi = (int(m[3]), int(m[4])) if m[3] else (0, 5)
    return torch.randint(lo, hi, shape, generator=generator).to(dtype)


def main(argv):
    if "--polyfill" in argv:
        cpython_oracle.polyfill()
    files = [a for a in argv if a != "--polyfill"]
    if len(files) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(files[0]) as f:
        cases = json.load(f)
    modules = {}
    generator = torch.Generator().manual_seed(0)
    accepted = 0
    for case in cases:
        path = case["source"]
        if path not in modules:
            spec = importlib.util.spec_from_file_location("cases", path)
            modules[path] = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(modules[path])
        args = {name: make_value(text, generator) for name, text in case["args"]}
        try:
            getattr(modules[path], case["function"])(**args)
        except Exception:  # noqa: BLE001 -- any error is PyTorch refusing the call
            continue
        accepted += 1
        print(f"{path}: {case['function']}({', '.join(t for _, t in case['args'])}): PyTorch runs "
              f"it ({case.get('expression', '')}); the tracer said: {case['message']}")
    return 1 if accepted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
