#!/usr/bin/env bash
# ResNet-18's layout (kuangliu/pytorch-cifar's ResNet with BasicBlock, [2, 2, 2, 2]; 32x32
# inputs, batch 2, eval mode) traced for training: `tracelint trace --grad` as a whole process
# (read, trace the forward, the grad transform, print the augmented forward and the backward,
# validate them), against functorch's AOT Autograd producing the forward and backward graphs of
# the same model file in the same run (PyTorch 2.x of the tools venv: aot_module with compilers
# that keep the graphs; AOT makes the backward graph at the first backward call, so its figure
# includes one forward and backward run, whose eager cost is printed beside it). Best of three.
# Usage: bench/resnet_grad_vs_aot.sh [build dir]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build}
model=$here/../tests/models/pytorch-cifar/models/resnet.py
tools_python=$here/../.venv-tools/bin/python
if [ ! -x "$tools_python" ] || ! "$tools_python" -c 'import torch._functorch' 2>/dev/null; then
  echo "resnet_grad_vs_aot: no PyTorch 2.x in .venv-tools (scripts/bootstrap.sh makes it)" >&2
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
args=(trace "$model" -m ResNet --init block=BasicBlock --init 'num_blocks=[2, 2, 2, 2]'
      -a 'x=f32[2, 3, 32, 32]:grad' --grad -o "$work/trace.py")
best=""
for _ in 1 2 3; do
  start=$(date +%s.%N)
  "$build/tracelint" "${args[@]}"
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc -l)
  if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
symbols=$(grep -c '^  [a-z][a-z0-9_]* = \(ltorch\|prims\)\.' "$work/trace.py" || true)
"$tools_python" - "$model" "$best" "$symbols" <<'PY'
import importlib.util, sys, time, warnings
warnings.filterwarnings("ignore")
import torch
from torch._functorch.aot_autograd import aot_module
from functorch.compile import make_boxed_func

spec = importlib.util.spec_from_file_location("resnet", sys.argv[1])
resnet = importlib.util.module_from_spec(spec)
spec.loader.exec_module(resnet)
tracelint_s, symbols = float(sys.argv[2]), int(sys.argv[3])


def graphs_of(model, x):
    graphs = {}

    def keep(name):
        def compiler(gm, example_inputs):
            graphs[name] = gm
            return make_boxed_func(gm.forward)
        return compiler

    compiled = aot_module(model, fw_compiler=keep("forward"), bw_compiler=keep("backward"))
    compiled(x).sum().backward()
    return graphs


def best_of_3(run):
    best = 1e30
    for _ in range(3):
        model = resnet.ResNet(resnet.BasicBlock, [2, 2, 2, 2]).eval()
        x = torch.randn(2, 3, 32, 32, requires_grad=True)
        start = time.perf_counter()
        out = run(model, x)
        best = min(best, time.perf_counter() - start)
    return best, out


aot_s, graphs = best_of_3(graphs_of)
eager_s, _ = best_of_3(lambda model, x: model(x).sum().backward())
nodes = {k: sum(1 for n in g.graph.nodes if n.op == "call_function") for k, g in graphs.items()}
print(f"model: ResNet-18 layout (BasicBlock, [2, 2, 2, 2]), x f32[2, 3, 32, 32], eval mode; "
      f"PyTorch {torch.__version__}")
print(f"tracelint trace --grad (process, end to end): {tracelint_s:7.3f} s  "
      f"({symbols} top-level symbols in the augmented forward and backward)")
print(f"AOT Autograd forward + backward graphs:       {aot_s:7.3f} s  "
      f"({nodes.get('forward', 0)} + {nodes.get('backward', 0)} call nodes; in-process, "
      f"after import; includes one eager forward + backward of {eager_s:.3f} s)")
print(f"ratio AOT / tracelint: {aot_s / tracelint_s:.1f}x")
PY
