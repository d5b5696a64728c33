import thunder
import thunder.torch as ltorch
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(x, t_net_0_bias, t_net_0_weight, t_net_3_bias, t_net_3_weight):
  # x: "cpu f32[4, 16]"
  # t_net_0_bias: "cpu f32[32]"
  # t_net_0_weight: "cpu f32[32, 16]"
  # t_net_3_bias: "cpu f32[8]"
  # t_net_3_weight: "cpu f32[8, 32]"

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  input = ltorch.linear(x, t_net_0_weight, t_net_0_bias)  # input: "cpu f32[4, 32]"
    # input = prims.linear(x, t_net_0_weight, t_net_0_bias)  # input: "cpu f32[4, 32]"

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t10 = ltorch.gelu(input, approximate='none')  # t10: "cpu f32[4, 32]"
    # t6 = ltorch.true_divide(input, 1.4142135623730951)  # t6: "cpu f32[4, 32]"
      # t6 = prims.div(input, 1.4142135623730951)  # t6: "cpu f32[4, 32]"
    # t7 = ltorch.erf(t6)  # t7: "cpu f32[4, 32]"
      # t7 = prims.erf(t6)  # t7: "cpu f32[4, 32]"
    # t8 = ltorch.mul(0.5, t7)  # t8: "cpu f32[4, 32]"
      # t8 = prims.mul(0.5, t7)  # t8: "cpu f32[4, 32]"
    # t9 = ltorch.add(0.5, t8, alpha=1)  # t9: "cpu f32[4, 32]"
      # t9 = prims.add(0.5, t8)  # t9: "cpu f32[4, 32]"
    # t10 = ltorch.mul(input, t9)  # t10: "cpu f32[4, 32]"
      # t10 = prims.mul(input, t9)  # t10: "cpu f32[4, 32]"

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/dropout.py:73: 	        return F.dropout(input, self.p, self.training, self.inplace)
  t14 = ltorch.dropout(t10, 0.0, True, False)  # t14: "cpu f32[4, 32]"
    # t14 = prims.shallow_copy(t10)  # t14: "cpu f32[4, 32]"

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t18 = ltorch.linear(t14, t_net_3_weight, t_net_3_bias)  # t18: "cpu f32[4, 8]"
    # t18 = prims.linear(t14, t_net_3_weight, t_net_3_bias)  # t18: "cpu f32[4, 8]"
  return (t18,)