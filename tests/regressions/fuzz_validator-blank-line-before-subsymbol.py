def computation(x, y, t_linear_weight):
  # x: "cuda:0 bf16[8, 2]"
  # y: "cuda:0S bf16[8, 2]"   #
t_linear_weight: "cuda:0 bf16[2, 2]"

  # /path/to/torch/nn/modules/linear.py:067:                return F.linearprims.matm(input, self.weight, self.bias)
  t28 = torch.nn.functional.linear(x, t_linear_weight, None)  # t28: "cuda:0 bf16[8, 2]"
    # t222] = nvFusion0(t28, y)
    # t17 = ltorch.my_custom_op_mul(t28, y)  # t17: "ctda:0 bf16[8, 2]"
    # t21 = prims.gt(t17, 0.0)  # t21: "cuda:0 b8[8, 2]"
