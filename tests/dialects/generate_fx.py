"""Writes the graph code torch.fx and AOT Autograd print for a set of functions, one file each:
fx_<name>.py (torch.fx.symbolic_trace(f).code) and aot_<name>_forward.py / _backward.py (the
code of the graphs functorch.compile.aot_function hands its compilers). With --readable, writes
what GraphModule.print_readable prints instead: the graph code as a method of
`class GraphModule(torch.nn.Module):`, a split module's submodules as classes nested in it.
Used by tests/test_dialects.cpp; exits 77 when torch (or functorch) cannot be imported."""
import contextlib
import io
import os
import sys
import warnings

try:
    import torch
    import torch.fx
    import torch.nn.functional as F
    from functorch.compile import aot_function
except Exception as e:  # noqa: BLE001 - any import failure means: skip
    print(f"torch is not importable: {e}", file=sys.stderr)
    sys.exit(77)

warnings.simplefilter("ignore")


def add_mul(x, y):
    a = torch.abs(x) + 1
    b = a * y
    return torch.relu(b).sum()


def matmul_chain(x, y):
    return (x @ y).tanh() @ y.t()


def views(x, y):
    v = x.view(-1)
    r = y.reshape(4, 4).transpose(0, 1).contiguous()
    return v.sin() * r.flatten().cos()


def indexing(x, y):
    return x[0] * y[1:3].sum() + x[:, 1].mean()


def concat(x, y):
    return torch.cat([x, y, x * y], dim=0).exp()


def softmax(x, y):
    return F.softmax(x @ y, dim=-1) * 2.0


def layer_norm(x, y):
    return F.layer_norm(x + y, (x.shape[-1],))


def shapes(x, y):
    n = x.size(0)
    return x.reshape(n, -1) + y.shape[1]


def where(x, y):
    return torch.where(x > y, x - y, y * 0.5).pow(2)


def reductions(x, y):
    m = x.mean(dim=1, keepdim=True)
    v = (x - m).pow(2).mean(dim=1, keepdim=True)
    return ((x - m) / torch.sqrt(v + 1e-5) * y).sum()


def gelu_mlp(x, y):
    h = F.gelu(x @ y)
    return F.dropout(h, p=0.0, training=False) @ y


def losses(x, y):
    return F.mse_loss(torch.sigmoid(x), torch.sigmoid(y)) + F.l1_loss(x, y)


def stacks(x, y):
    parts = torch.chunk(x, 2, dim=0)
    return torch.stack([parts[0] * y[:2], parts[1] + y[2:]]).max()


def scaled_sum(x, y):
    return (x * y).sum() * 0.5


# A leaf of symbolic tracing: fx records a call to it, by a global of the GraphModule's named
# after its qualified name (`__main___scaled_sum`), and prints a wrap line above the def.
torch.fx.wrap("scaled_sum")


def wrapped(x, y):
    return scaled_sum(x.relu(), y) + x.mean()


class Mlp(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.fc2 = torch.nn.Linear(8, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x))) + self.fc1.bias.sum()


FUNCTIONS = [add_mul, matmul_chain, views, indexing, concat, softmax, layer_norm, shapes, where,
             reductions, gelu_mlp, losses, stacks, wrapped]


def main(out):
    os.makedirs(out, exist_ok=True)

    def write(name, code):
        with open(os.path.join(out, name + ".py"), "w") as f:
            f.write(code)

    for f in FUNCTIONS:
        write("fx_" + f.__name__, torch.fx.symbolic_trace(f).code)
        codes = []

        def compiler(gm, inputs):
            codes.append(gm.code)
            return gm

        g = aot_function(f, fw_compiler=compiler, bw_compiler=compiler)
        x = torch.randn(4, 4, requires_grad=True)
        y = torch.randn(4, 4, requires_grad=True)
        g(x, y).sum().backward()
        write("aot_" + f.__name__ + "_forward", codes[0])
        write("aot_" + f.__name__ + "_backward", codes[1])
    write("fx_module_mlp", torch.fx.symbolic_trace(Mlp()).code)


def readable(gm):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        gm.print_readable()  # prints (torch 1.13 has no print_output=False)
    return printed.getvalue()


def readable_nested(gm, name="GraphModule"):
    """print_readable of a module with GraphModule children: torch 1.13's calls a method it
    lacks (`__nested_code`), so this composes it as torch 2's _print_readable does, from 1.13's
    own graph code: each child a class named after it, nested in its parent's class."""
    from torch.fx.graph_module import _addindent

    code = gm._graph.python_code(root_module="self", verbose=True).src.lstrip("\n")
    code = _addindent(f"class {name}(torch.nn.Module):\n" + code, 4)
    children = [""] + [readable_nested(child, child_name) for child_name, child in gm.named_children()
                       if isinstance(child, torch.fx.GraphModule)]
    return code + _addindent("\n".join(children), 4)


def main_readable(out):
    from torch.fx.passes.split_module import split_module

    os.makedirs(out, exist_ok=True)

    def write(name, code):
        with open(os.path.join(out, name + ".py"), "w") as f:
            f.write(code)

    for f in FUNCTIONS:
        write("readable_" + f.__name__, readable(torch.fx.symbolic_trace(f)))
    mlp = Mlp()
    traced = torch.fx.symbolic_trace(mlp)
    write("readable_module_mlp", readable(traced))
    order = {node: i for i, node in enumerate(traced.graph.nodes)}
    # Three nodes per submodule: each becomes `class submod_<n>(torch.nn.Module):` in the print.
    write("readable_split_mlp", readable_nested(split_module(traced, mlp, lambda n: order[n] // 3)))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[2] == "--readable":
        main_readable(sys.argv[1])
    else:
        main(sys.argv[1])
