# Constructed by Unwrap the actual return value
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(t_0_x):
  # t_0_x: "cpu f32[3, 3]"

  # /work/main/tests/thunder/generate_traces.py:89: 	    ("dict_io", lambda d: {"y": d["x"].sin(), "n": d["x"].numel()}, args_of({"x": floats(3, 3)(False)})),
  t2 = torch.sin(t_0_x)  # t2: "cpu f32[3, 3]"
    # t2 = ltorch.sin(t_0_x)  # t2: "cpu f32[3, 3]"
      # t2 = prims.sin(t_0_x)  # t2: "cpu f32[3, 3]"
  return (t2,)