# Constructed by Delete Last Used (took 0 milliseconds)
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(a, b):
  # a: "cpu f32[4, 8]"
  # b: "cpu f32[8, 4]"
  [t9, t41] = TorchCompile0(a, b)
    # t9 = prims.matmul(a, b)  # t9: "cpu f32[4, 4]"
    # t15 = prims.div(t9, 1.4142135623730951)  # t15: "cpu f32[4, 4]"
    # t22 = prims.erf(t15)  # t22: "cpu f32[4, 4]"
    # t29 = ltorch.mul(0.5, t22)  # t29: "cpu f32[4, 4]"
      # t29 = prims.mul(0.5, t22)  # t29: "cpu f32[4, 4]"
    # t33 = ltorch.add(0.5, t29, alpha=1)  # t33: "cpu f32[4, 4]"
      # t33 = prims.add(0.5, t29)  # t33: "cpu f32[4, 4]"
    # t35 = ltorch.mul(t9, t33)  # t35: "cpu f32[4, 4]"
      # t35 = prims.mul(t9, t33)  # t35: "cpu f32[4, 4]"
    # t41 = ltorch.sum(t35, -1, False, dtype=None)  # t41: "cpu f32[4]"
      # t39 = ltorch.to(t35, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t39: "cpu f32[4, 4]"
        # t39 = prims.shallow_copy(t35)  # t39: "cpu f32[4, 4]"
      # t40 = prims.sum(t39, (1,))  # t40: "cpu f32[4]"
      # t41 = ltorch.to(t40, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t41: "cpu f32[4]"
        # t41 = prims.shallow_copy(t40)  # t41: "cpu f32[4]"
  return {'output': (t41,), 'flat_args': [a, b], 'flat_output': (t41,)}, ((t9, a, b), ())