"""Real Lightning Thunder traces, made at test time: Thunder (the tools venv's, on CPU) jits
each function and module below under each configuration that applies (plain, grad, no_grad,
autocast to bfloat16, symbolic values, the torch executor alone, the python executor first,
torch.compile's executor) and every trace it keeps is written out: the prologues, each step of
the computation (from the first trace to the executed one) and, with grad, of the backward.

    .venv-tools/bin/python tests/thunder/generate_traces.py OUT [--quick]

writes OUT/<case>.<config>.<kind><step>.py and OUT/index.json: for each case and configuration
the files it produced, or why Thunder refused it (a configuration Thunder cannot apply to a case
is not a failure of tracelint's; the test counts what was made). Nothing here is tracelint: the
traces are Thunder's own printouts, for the validator to check (tests/thunder/test_real_thunder.py).
"""
import argparse
import contextlib
import json
import math
import sys
import time
import traceback
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402
import thunder  # noqa: E402


# ---- functions: (name, function, inputs(requires_grad) -> args)
def floats(*shape):
    return lambda grad: torch.randn(*shape, requires_grad=grad)


def args_of(*makers):
    return lambda grad: [m(grad) if callable(m) else m for m in makers]


def ints(high, *shape):
    return lambda grad: torch.randint(0, high, shape)


FUNCTIONS = [
    ("add_mul", lambda a, b: a * b + a, args_of(floats(4, 8), floats(4, 8))),
    ("broadcast", lambda a, b: (a + b) / 2, args_of(floats(4, 1, 8), floats(3, 1))),
    ("gelu_matmul", lambda a, b: F.gelu(a @ b).sum(-1), args_of(floats(4, 8), floats(8, 4))),
    ("softmax", lambda a: torch.softmax(a, dim=-1), args_of(floats(2, 3, 16))),
    ("log_softmax_nll", lambda a, t: F.nll_loss(F.log_softmax(a, -1), t, ignore_index=-100),
     args_of(floats(8, 10), ints(10, 8))),
    ("cross_entropy", lambda a, t: F.cross_entropy(a, t), args_of(floats(8, 10), ints(10, 8))),
    ("layer_norm", lambda a, w, b: F.layer_norm(a, (16,), w, b),
     args_of(floats(4, 16), floats(16), floats(16))),
    ("rms_norm", lambda x, w: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) * w,
     args_of(floats(2, 8, 32), floats(32))),
    ("reshape_permute", lambda a: a.reshape(2, 3, 4, 5).permute(0, 2, 1, 3).contiguous().view(2, 4, 15),
     args_of(floats(6, 20))),
    ("slice_half", lambda a: a[:, : a.shape[1] // 2], args_of(floats(2, 6))),
    ("index_select", lambda a, i: a[i], args_of(floats(10, 4), ints(10, 6))),
    ("cat_split", lambda a, b: torch.cat(torch.split(a + b, 2, dim=1)[::-1], dim=1),
     args_of(floats(3, 6), floats(3, 6))),
    ("chunk_stack", lambda a: torch.stack(a.chunk(3, dim=-1), dim=0).sum(0),
     args_of(floats(4, 9))),
    ("where_clamp", lambda a: torch.where(a > 0, a, a.clamp(min=-0.5) * 0.1),
     args_of(floats(5, 5))),
    ("reductions", lambda a: (a.amax(0) - a.amin(0), a.var(1), a.std(), a.mean(dim=(0, 1))),
     args_of(floats(4, 6, 3))),
    ("cumsum_tril", lambda a: torch.tril(a.cumsum(-1)), args_of(floats(6, 6))),
    ("attention", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
     args_of(floats(2, 4, 8, 16), floats(2, 4, 8, 16), floats(2, 4, 8, 16))),
    ("manual_attention", lambda q, k: torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(16), -1),
     args_of(floats(2, 4, 8, 16), floats(2, 4, 8, 16))),
    ("embedding", lambda i, w: F.embedding(i, w), args_of(ints(20, 3, 5), floats(20, 8))),
    ("linear_relu", lambda x, w, b: F.relu(F.linear(x, w, b)),
     args_of(floats(4, 8), floats(16, 8), floats(16))),
    ("dropout_eval", lambda x: F.dropout(x, 0.5, training=False) * 2, args_of(floats(4, 4))),
    ("tanh_sigmoid", lambda x: torch.tanh(x) * torch.sigmoid(x) + F.silu(x), args_of(floats(8))),
    ("exp_log", lambda x: torch.log1p(torch.exp(-x.abs())) + x.clamp(min=0), args_of(floats(4, 4))),
    ("pow_sqrt", lambda x: torch.sqrt(x.pow(2) + 1) ** 0.5, args_of(floats(3, 3))),
    ("unsqueeze_expand", lambda x: x.unsqueeze(1).expand(4, 3, 5) + 1, args_of(floats(4, 5))),
    ("flatten_transpose", lambda x: x.flatten(1).t() @ x.flatten(1), args_of(floats(3, 2, 4))),
    ("masked_fill", lambda x: x.masked_fill(torch.ones(4, 4).tril() == 0, float("-inf")).softmax(-1),
     args_of(floats(4, 4))),
    ("mse_loss", lambda a, b: F.mse_loss(a, b), args_of(floats(4, 4), floats(4, 4))),
    ("topk_sort", lambda x: (x.topk(2, dim=-1)[0], x.sort(dim=-1)[0]), args_of(floats(3, 6))),
    ("argmax_scalar", lambda x: x.argmax(-1) + x.shape[0], args_of(floats(3, 6))),
    ("tuple_io", lambda pair: (pair[0] + pair[1], pair[0] * 2), args_of((floats(2, 2)(False), floats(2, 2)(False)))),
    ("dict_io", lambda d: {"y": d["x"].sin(), "n": d["x"].numel()}, args_of({"x": floats(3, 3)(False)})),
    ("int_arith", lambda x, n: x[: n * 2 - 1] * n, args_of(floats(8, 3), 3)),
]


# ---- modules: (name, constructor, inputs)
class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Dropout(0.0), nn.Linear(32, 8))

    def forward(self, x):
        return self.net(x)


class Block(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.mlp(self.ln2(x))


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.head = nn.Linear(8, 4)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
        return self.head(F.adaptive_avg_pool2d(x, 1).flatten(1))


class TinyLM(nn.Module):
    def __init__(self, vocab=64, d=32, layers=2):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, d), nn.Embedding(16, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(layers))
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab, bias=False)

    def forward(self, idx, targets):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln(x))
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


MODULES = [
    ("mlp", MLP, args_of(floats(4, 16))),
    ("block", Block, args_of(floats(2, 8, 32))),
    ("convnet", ConvNet, args_of(floats(2, 3, 8, 8))),
    ("tiny_lm", TinyLM, args_of(ints(64, 2, 16), ints(64, 2, 16))),
]


# Every case runs plain and with grad; the other configurations run on these (a jit takes about a
# second on CPU: the whole set, every configuration on every case, took minutes of test time).
# torch.compile's executor compiles C++ with inductor: one small case.
CONFIG_CASES = {
    "no_grad": {"gelu_matmul", "layer_norm", "attention", "mlp", "block"},
    "autocast_bf16": {"gelu_matmul", "softmax", "layer_norm", "attention", "linear_relu", "mlp",
                      "block", "tiny_lm"},
    "symbolic": {"add_mul", "broadcast", "slice_half", "cat_split", "reshape_permute", "softmax",
                 "int_arith", "embedding", "where_clamp"},
    "torch_executor": {"gelu_matmul", "cross_entropy", "attention", "index_select", "block",
                       "convnet"},
    "python_executor_first": {"add_mul", "int_arith", "tuple_io", "dict_io", "argmax_scalar"},
    "torch_compile": {"gelu_matmul"},
}


# ---- configurations: name -> (jit options, whether inputs require grad, context)
def configurations(quick):
    import thunder.executors.pythonex as pythonex
    import thunder.executors.torchex as torchex

    configs = {
        "plain": ({}, False, contextlib.nullcontext),
        "grad": ({}, True, contextlib.nullcontext),
        "no_grad": ({}, True, torch.no_grad),
        "autocast_bf16": ({}, True, lambda: torch.autocast("cpu", dtype=torch.bfloat16)),
        "symbolic": ({"cache": "symbolic values"}, False, contextlib.nullcontext),
        "torch_executor": ({"executors": [torchex.ex]}, True, contextlib.nullcontext),
        "python_executor_first": ({"executors": [pythonex.ex, torchex.ex]}, False,
                                  contextlib.nullcontext),
    }
    if not quick:
        from thunder.executors.torch_compile import torch_compile_ex

        configs["torch_compile"] = ({"executors": [torch_compile_ex, torchex.ex]}, True,
                                    contextlib.nullcontext)
    return configs


def jit_and_run(target, make_args, options, grad, context):
    args = make_args(grad)
    jitted = thunder.jit(target, **options)
    with context():
        out = jitted(*args)
    tensors = [t for t in (out.values() if isinstance(out, dict) else
                           out if isinstance(out, (tuple, list)) else [out])
               if isinstance(t, torch.Tensor) and t.requires_grad]
    if grad and tensors:
        sum(t.float().sum() for t in tensors).backward()
    traces = {"prologue": thunder.last_prologue_traces(jitted),
              "computation": thunder.last_traces(jitted)}
    if grad and tensors:
        traces["backward"] = thunder.last_backward_traces(jitted)
    return traces


def generate(out_dir, quick):
    out_dir.mkdir(parents=True, exist_ok=True)
    index = {"thunder": thunder.__version__, "torch": torch.__version__, "cases": []}
    configs = configurations(quick)
    cases = [(n, f, a, False) for n, f, a in FUNCTIONS] + [(n, m, a, True) for n, m, a in MODULES]
    for name, target, make_args, is_module in cases:
        for config, (options, grad, context) in configs.items():
            if name not in CONFIG_CASES.get(config, {name}):
                continue
            entry = {"case": name, "config": config, "files": []}
            started = time.perf_counter()
            try:
                torch.manual_seed(0)
                callable_ = target() if is_module else target
                traces = jit_and_run(callable_, make_args, options, grad, context)
            except Exception as e:  # Thunder refused this configuration of this case
                entry["refused"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
                entry["traceback"] = traceback.format_exc(limit=3)[-1500:]
                index["cases"].append(entry)
                continue
            for kind, steps in traces.items():
                for step, trace in enumerate(steps):
                    text = str(trace)
                    file = out_dir / f"{name}.{config}.{kind}{step}.py"
                    file.write_text(text)
                    entry["files"].append(file.name)
            entry["seconds"] = round(time.perf_counter() - started, 3)
            index["cases"].append(entry)
    (out_dir / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    made = sum(len(c["files"]) for c in index["cases"])
    refused = sum(1 for c in index["cases"] if "refused" in c)
    print(f"generate_traces: {made} traces from {len(index['cases']) - refused} case/configurations "
          f"({refused} refused by Thunder), Thunder {thunder.__version__}, PyTorch {torch.__version__}")
    return index


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--quick", action="store_true", help="leave out torch.compile (slow)")
    args = parser.parse_args()
    generate(args.out, args.quick)


if __name__ == "__main__":
    sys.exit(main())
