# Constructed by Delete Last Used (took 5 milliseconds)
import torch
from torch import Tensor
import torch.nn.functional
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(x, t_ln1_bias, t_ln1_weight, t_ln2_bias, t_ln2_weight, t_mlp_0_bias, t_mlp_0_weight, t_mlp_2_bias, t_mlp_2_weight, t_proj_bias, t_proj_weight, t_qkv_bias, t_qkv_weight):
  # x: "cpu f32[2, 8, 32]"
  # t_ln1_bias: "cpu f32[32]"
  # t_ln1_weight: "cpu f32[32]"
  # t_ln2_bias: "cpu f32[32]"
  # t_ln2_weight: "cpu f32[32]"
  # t_mlp_0_bias: "cpu f32[128]"
  # t_mlp_0_weight: "cpu f32[128, 32]"
  # t_mlp_2_bias: "cpu f32[32]"
  # t_mlp_2_weight: "cpu f32[32, 128]"
  # t_proj_bias: "cpu f32[32]"
  # t_proj_weight: "cpu f32[32, 32]"
  # t_qkv_bias: "cpu f32[96]"
  # t_qkv_weight: "cpu f32[96, 32]"

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1122 = shallow_copy(x)  # t1122: "cpu f32[2, 8, 32]"
  t1123 = shallow_copy(t1122)  # t1123: "cpu f32[2, 8, 32]"
  del t1122

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  (t1129, t1130) = torch.var_mean(t1123, (2,), correction=0)
    # (t1129, t1130) = ltorch.var_mean(t1123, (2,), keepdim=False, correction=0)
      # t1124 = ltorch.to(t1123, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1124: "cpu f32[2, 8, 32]"
        # t1124 = prims.shallow_copy(t1123)  # t1124: "cpu f32[2, 8, 32]"
      # (t1127, t1128) = prims.var_mean(t1124, (2,), correction=0)
      # t1129 = ltorch.to(t1127, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1129: "cpu f32[2, 8]"
        # t1129 = prims.shallow_copy(t1127)  # t1129: "cpu f32[2, 8]"
      # t1130 = ltorch.to(t1128, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1130: "cpu f32[2, 8]"
        # t1130 = prims.shallow_copy(t1128)  # t1130: "cpu f32[2, 8]"
  t1131 = torch.unsqueeze(t1129, 2)  # t1131: "cpu f32[2, 8, 1]"
    # t1131 = ltorch.unsqueeze(t1129, 2)  # t1131: "cpu f32[2, 8, 1]"
      # t1131 = prims.broadcast_in_dim(t1129, [2, 8, 1], [0, 1])  # t1131: "cpu f32[2, 8, 1]"
  del t1129

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1132 = Tensor.expand(t1131, [2, 8, 1])  # t1132: "cpu f32[2, 8, 1]"
    # t1132 = ltorch.expand(t1131, [2, 8, 1])  # t1132: "cpu f32[2, 8, 1]"
      # t1132 = prims.broadcast_in_dim(t1131, (2, 8, 1), (0, 1, 2))  # t1132: "cpu f32[2, 8, 1]"
  del t1131

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1133 = torch.unsqueeze(t1130, 2)  # t1133: "cpu f32[2, 8, 1]"
    # t1133 = ltorch.unsqueeze(t1130, 2)  # t1133: "cpu f32[2, 8, 1]"
      # t1133 = prims.broadcast_in_dim(t1130, [2, 8, 1], [0, 1])  # t1133: "cpu f32[2, 8, 1]"
  t1134 = Tensor.expand(t1133, [2, 8, 1])  # t1134: "cpu f32[2, 8, 1]"
    # t1134 = ltorch.expand(t1133, [2, 8, 1])  # t1134: "cpu f32[2, 8, 1]"
      # t1134 = prims.broadcast_in_dim(t1133, (2, 8, 1), (0, 1, 2))  # t1134: "cpu f32[2, 8, 1]"
  del t1133

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1135 = shallow_copy(t1132)  # t1135: "cpu f32[2, 8, 1]"
  del t1132

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1136 = shallow_copy(t1134)  # t1136: "cpu f32[2, 8, 1]"
  del t1134

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1137 = torch.add(t1135, 1e-05, alpha=1)  # t1137: "cpu f32[2, 8, 1]"
    # t1137 = ltorch.add(t1135, 1e-05, alpha=1)  # t1137: "cpu f32[2, 8, 1]"
      # t1137 = prims.add(t1135, 1e-05)  # t1137: "cpu f32[2, 8, 1]"
  del t1135

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1138 = torch.rsqrt(t1137)  # t1138: "cpu f32[2, 8, 1]"
    # t1138 = ltorch.rsqrt(t1137)  # t1138: "cpu f32[2, 8, 1]"
      # t1138 = prims.rsqrt(t1137)  # t1138: "cpu f32[2, 8, 1]"
  del t1137

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1139 = Tensor.expand(t1136, (2, 8, 32))  # t1139: "cpu f32[2, 8, 32]"
    # t1139 = ltorch.expand(t1136, (2, 8, 32))  # t1139: "cpu f32[2, 8, 32]"
      # t1139 = prims.broadcast_in_dim(t1136, (2, 8, 32), (0, 1, 2))  # t1139: "cpu f32[2, 8, 32]"
  del t1136

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1140 = torch.sub(x, t1139, alpha=1)  # t1140: "cpu f32[2, 8, 32]"
    # t1140 = ltorch.sub(x, t1139, alpha=1)  # t1140: "cpu f32[2, 8, 32]"
      # t1140 = prims.sub(x, t1139)  # t1140: "cpu f32[2, 8, 32]"
  del t1139

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1141 = Tensor.expand(t1138, (2, 8, 32))  # t1141: "cpu f32[2, 8, 32]"
    # t1141 = ltorch.expand(t1138, (2, 8, 32))  # t1141: "cpu f32[2, 8, 32]"
      # t1141 = prims.broadcast_in_dim(t1138, (2, 8, 32), (0, 1, 2))  # t1141: "cpu f32[2, 8, 32]"
  t1142 = torch.mul(t1140, t1141)  # t1142: "cpu f32[2, 8, 32]"
    # t1142 = ltorch.mul(t1140, t1141)  # t1142: "cpu f32[2, 8, 32]"
      # t1142 = prims.mul(t1140, t1141)  # t1142: "cpu f32[2, 8, 32]"
  t1143 = torch.unsqueeze(t_ln1_weight, 0)  # t1143: "cpu f32[1, 32]"
    # t1143 = ltorch.unsqueeze(t_ln1_weight, 0)  # t1143: "cpu f32[1, 32]"
      # t1143 = prims.broadcast_in_dim(t_ln1_weight, [1, 32], [1])  # t1143: "cpu f32[1, 32]"
  t1144 = torch.unsqueeze(t1143, 1)  # t1144: "cpu f32[1, 1, 32]"
    # t1144 = ltorch.unsqueeze(t1143, 1)  # t1144: "cpu f32[1, 1, 32]"
      # t1144 = prims.broadcast_in_dim(t1143, [1, 1, 32], [0, 2])  # t1144: "cpu f32[1, 1, 32]"
  del t1143

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1145 = Tensor.expand(t1144, (2, 8, 32))  # t1145: "cpu f32[2, 8, 32]"
    # t1145 = ltorch.expand(t1144, (2, 8, 32))  # t1145: "cpu f32[2, 8, 32]"
      # t1145 = prims.broadcast_in_dim(t1144, (2, 8, 32), (0, 1, 2))  # t1145: "cpu f32[2, 8, 32]"
  del t1144

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1146 = torch.mul(t1142, t1145)  # t1146: "cpu f32[2, 8, 32]"
    # t1146 = ltorch.mul(t1142, t1145)  # t1146: "cpu f32[2, 8, 32]"
      # t1146 = prims.mul(t1142, t1145)  # t1146: "cpu f32[2, 8, 32]"
  t1147 = torch.unsqueeze(t_ln1_bias, 0)  # t1147: "cpu f32[1, 32]"
    # t1147 = ltorch.unsqueeze(t_ln1_bias, 0)  # t1147: "cpu f32[1, 32]"
      # t1147 = prims.broadcast_in_dim(t_ln1_bias, [1, 32], [1])  # t1147: "cpu f32[1, 32]"
  t1148 = torch.unsqueeze(t1147, 1)  # t1148: "cpu f32[1, 1, 32]"
    # t1148 = ltorch.unsqueeze(t1147, 1)  # t1148: "cpu f32[1, 1, 32]"
      # t1148 = prims.broadcast_in_dim(t1147, [1, 1, 32], [0, 2])  # t1148: "cpu f32[1, 1, 32]"
  del t1147

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1149 = Tensor.expand(t1148, (2, 8, 32))  # t1149: "cpu f32[2, 8, 32]"
    # t1149 = ltorch.expand(t1148, (2, 8, 32))  # t1149: "cpu f32[2, 8, 32]"
      # t1149 = prims.broadcast_in_dim(t1148, (2, 8, 32), (0, 1, 2))  # t1149: "cpu f32[2, 8, 32]"
  del t1148

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1150 = torch.add(t1146, t1149, alpha=1)  # t1150: "cpu f32[2, 8, 32]"
    # t1150 = ltorch.add(t1146, t1149, alpha=1)  # t1150: "cpu f32[2, 8, 32]"
      # t1150 = prims.add(t1146, t1149)  # t1150: "cpu f32[2, 8, 32]"
  del t1146, t1149

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1151 = shallow_copy(t1150)  # t1151: "cpu f32[2, 8, 32]"
  del t1150

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t1153 = Tensor.to(t1151, torch.bfloat16, copy=True)  # t1153: "cpu bf16[2, 8, 32]"
    # t1153 = ltorch.to(t1151, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1153: "cpu bf16[2, 8, 32]"
      # t1152 = prims.clone(t1151)  # t1152: "cpu f32[2, 8, 32]"
      # t1153 = prims.convert_element_type(t1152, dtypes.bfloat16)  # t1153: "cpu bf16[2, 8, 32]"
  del t1151

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t1155 = Tensor.to(t_qkv_weight, torch.bfloat16, copy=True)  # t1155: "cpu bf16[96, 32]"
    # t1155 = ltorch.to(t_qkv_weight, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1155: "cpu bf16[96, 32]"
      # t1154 = prims.clone(t_qkv_weight)  # t1154: "cpu f32[96, 32]"
      # t1155 = prims.convert_element_type(t1154, dtypes.bfloat16)  # t1155: "cpu bf16[96, 32]"
  t1157 = Tensor.to(t_qkv_bias, torch.bfloat16, copy=True)  # t1157: "cpu bf16[96]"
    # t1157 = ltorch.to(t_qkv_bias, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1157: "cpu bf16[96]"
      # t1156 = prims.clone(t_qkv_bias)  # t1156: "cpu f32[96]"
      # t1157 = prims.convert_element_type(t1156, dtypes.bfloat16)  # t1157: "cpu bf16[96]"
  t1158 = torch.nn.functional.linear(t1153, t1155, t1157)  # t1158: "cpu bf16[2, 8, 96]"
    # t1158 = prims.linear(t1153, t1155, t1157)  # t1158: "cpu bf16[2, 8, 96]"
  del t1157

  # /work/main/tests/thunder/generate_traces.py:114: 	        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
  [t1159, t1160, t1161] = torch.split(t1158, 32, 2)
    # [t1159, t1160, t1161] = ltorch.split(t1158, 32, 2)
      # t1159 = prims.slice_prim(t1158, [0, 0, 0], [2, 8, 32], [1, 1, 1])  # t1159: "cpu bf16[2, 8, 32]"
      # t1160 = prims.slice_prim(t1158, [0, 0, 32], [2, 8, 64], [1, 1, 1])  # t1160: "cpu bf16[2, 8, 32]"
      # t1161 = prims.slice_prim(t1158, [0, 0, 64], [2, 8, 96], [1, 1, 1])  # t1161: "cpu bf16[2, 8, 32]"
  del t1158

  # /work/main/tests/thunder/generate_traces.py:115: 	        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
  t1162 = torch_prims_reshape_impl(t1159, (2, 8, 4, 8))  # t1162: "cpu bf16[2, 8, 4, 8]"
  del t1159

  # /work/main/.venv-tools/lib/python3.11/site-packages/thunder/torch/experimental/dtensor_torch_and_prims.py:69: 	            return single_device_symbol(*args, **kwargs)
  t1163 = torch.permute(t1162, (0, 2, 1, 3))  # t1163: "cpu bf16[2, 4, 8, 8]"
    # t1163 = ltorch.permute(t1162, (0, 2, 1, 3))  # t1163: "cpu bf16[2, 4, 8, 8]"
      # t1163 = prims.transpose(t1162, (0, 2, 1, 3))  # t1163: "cpu bf16[2, 4, 8, 8]"
  del t1162

  # /work/main/tests/thunder/generate_traces.py:115: 	        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
  t1164 = torch_prims_reshape_impl(t1160, (2, 8, 4, 8))  # t1164: "cpu bf16[2, 8, 4, 8]"
  del t1160

  # /work/main/.venv-tools/lib/python3.11/site-packages/thunder/torch/experimental/dtensor_torch_and_prims.py:69: 	            return single_device_symbol(*args, **kwargs)
  t1165 = torch.permute(t1164, (0, 2, 1, 3))  # t1165: "cpu bf16[2, 4, 8, 8]"
    # t1165 = ltorch.permute(t1164, (0, 2, 1, 3))  # t1165: "cpu bf16[2, 4, 8, 8]"
      # t1165 = prims.transpose(t1164, (0, 2, 1, 3))  # t1165: "cpu bf16[2, 4, 8, 8]"
  del t1164

  # /work/main/tests/thunder/generate_traces.py:115: 	        q, k, v = (t.view(B, T, self.heads, C // self.heads).transpose(1, 2) for t in (q, k, v))
  t1166 = torch_prims_reshape_impl(t1161, (2, 8, 4, 8))  # t1166: "cpu bf16[2, 8, 4, 8]"
  del t1161

  # /work/main/.venv-tools/lib/python3.11/site-packages/thunder/torch/experimental/dtensor_torch_and_prims.py:69: 	            return single_device_symbol(*args, **kwargs)
  t1167 = torch.permute(t1166, (0, 2, 1, 3))  # t1167: "cpu bf16[2, 4, 8, 8]"
    # t1167 = ltorch.permute(t1166, (0, 2, 1, 3))  # t1167: "cpu bf16[2, 4, 8, 8]"
      # t1167 = prims.transpose(t1166, (0, 2, 1, 3))  # t1167: "cpu bf16[2, 4, 8, 8]"
  del t1166

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1169 = Tensor.to(t1163, torch.float32, copy=True)  # t1169: "cpu f32[2, 4, 8, 8]"
    # t1169 = ltorch.to(t1163, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1169: "cpu f32[2, 4, 8, 8]"
      # t1168 = prims.clone(t1163)  # t1168: "cpu bf16[2, 4, 8, 8]"
      # t1169 = prims.convert_element_type(t1168, dtypes.float32)  # t1169: "cpu f32[2, 4, 8, 8]"
  del t1163

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1170 = torch.mul(t1169, 0.5946035575013605)  # t1170: "cpu f32[2, 4, 8, 8]"
    # t1170 = ltorch.mul(t1169, 0.5946035575013605)  # t1170: "cpu f32[2, 4, 8, 8]"
      # t1170 = prims.mul(t1169, 0.5946035575013605)  # t1170: "cpu f32[2, 4, 8, 8]"
  del t1169

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1172 = Tensor.to(t1170, torch.bfloat16, copy=True)  # t1172: "cpu bf16[2, 4, 8, 8]"
    # t1172 = ltorch.to(t1170, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1172: "cpu bf16[2, 4, 8, 8]"
      # t1171 = prims.clone(t1170)  # t1171: "cpu f32[2, 4, 8, 8]"
      # t1172 = prims.convert_element_type(t1171, dtypes.bfloat16)  # t1172: "cpu bf16[2, 4, 8, 8]"
  del t1170

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1173 = torch.permute(t1165, (0, 1, 3, 2))  # t1173: "cpu bf16[2, 4, 8, 8]"
    # t1173 = ltorch.permute(t1165, (0, 1, 3, 2))  # t1173: "cpu bf16[2, 4, 8, 8]"
      # t1173 = prims.transpose(t1165, (0, 1, 3, 2))  # t1173: "cpu bf16[2, 4, 8, 8]"
  del t1165

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1175 = Tensor.to(t1173, torch.float32, copy=True)  # t1175: "cpu f32[2, 4, 8, 8]"
    # t1175 = ltorch.to(t1173, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1175: "cpu f32[2, 4, 8, 8]"
      # t1174 = prims.clone(t1173)  # t1174: "cpu bf16[2, 4, 8, 8]"
      # t1175 = prims.convert_element_type(t1174, dtypes.float32)  # t1175: "cpu f32[2, 4, 8, 8]"
  del t1173

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1176 = torch.mul(t1175, 0.5946035575013605)  # t1176: "cpu f32[2, 4, 8, 8]"
    # t1176 = ltorch.mul(t1175, 0.5946035575013605)  # t1176: "cpu f32[2, 4, 8, 8]"
      # t1176 = prims.mul(t1175, 0.5946035575013605)  # t1176: "cpu f32[2, 4, 8, 8]"
  del t1175

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1178 = Tensor.to(t1176, torch.bfloat16, copy=True)  # t1178: "cpu bf16[2, 4, 8, 8]"
    # t1178 = ltorch.to(t1176, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1178: "cpu bf16[2, 4, 8, 8]"
      # t1177 = prims.clone(t1176)  # t1177: "cpu f32[2, 4, 8, 8]"
      # t1178 = prims.convert_element_type(t1177, dtypes.bfloat16)  # t1178: "cpu bf16[2, 4, 8, 8]"
  del t1176

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1179 = torch.matmul(t1172, t1178)  # t1179: "cpu bf16[2, 4, 8, 8]"
    # t1179 = ltorch.matmul(t1172, t1178)  # t1179: "cpu bf16[2, 4, 8, 8]"
      # t1179 = prims.matmul(t1172, t1178)  # t1179: "cpu bf16[2, 4, 8, 8]"
  t1180 = torch.arange(start=0, step=1, end=8, device=torch.device("cpu"), dtype=None)  # t1180: "cpu i64[8]"
    # t1180 = ltorch.arange(0, 8, 1, device=torch.device("cpu"), dtype=None)  # t1180: "cpu i64[8]"
      # t1180 = prims.iota(8, start=0, step=1, device=devices.Device("cpu"), dtype=dtypes.int64)  # t1180: "cpu i64[8]"
  t1181 = torch.unsqueeze(t1180, -1)  # t1181: "cpu i64[8, 1]"
    # t1181 = ltorch.unsqueeze(t1180, -1)  # t1181: "cpu i64[8, 1]"
      # t1181 = prims.broadcast_in_dim(t1180, [8, 1], [0])  # t1181: "cpu i64[8, 1]"
  del t1180

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1182 = torch.arange(start=0, step=1, end=8, device=torch.device("cpu"), dtype=None)  # t1182: "cpu i64[8]"
    # t1182 = ltorch.arange(0, 8, 1, device=torch.device("cpu"), dtype=None)  # t1182: "cpu i64[8]"
      # t1182 = prims.iota(8, start=0, step=1, device=devices.Device("cpu"), dtype=dtypes.int64)  # t1182: "cpu i64[8]"
  t1183 = torch.unsqueeze(t1182, -2)  # t1183: "cpu i64[1, 8]"
    # t1183 = ltorch.unsqueeze(t1182, -2)  # t1183: "cpu i64[1, 8]"
      # t1183 = prims.broadcast_in_dim(t1182, [1, 8], [1])  # t1183: "cpu i64[1, 8]"
  del t1182

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1184 = torch.add(t1181, 0, alpha=1)  # t1184: "cpu i64[8, 1]"
    # t1184 = ltorch.add(t1181, 0, alpha=1)  # t1184: "cpu i64[8, 1]"
      # t1184 = prims.add(t1181, 0)  # t1184: "cpu i64[8, 1]"
  del t1181

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1187 = torch.ge(t1184, t1183)  # t1187: "cpu b8[8, 8]"
    # t1187 = ltorch.ge(t1184, t1183)  # t1187: "cpu b8[8, 8]"
      # t1185 = prims.broadcast_in_dim(t1184, (8, 8), (0, 1))  # t1185: "cpu i64[8, 8]"
      # t1186 = prims.broadcast_in_dim(t1183, (8, 8), (0, 1))  # t1186: "cpu i64[8, 8]"
      # t1187 = prims.ge(t1185, t1186)  # t1187: "cpu b8[8, 8]"
  del t1184, t1183

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1188 = torch.unsqueeze(t1187, 0)  # t1188: "cpu b8[1, 8, 8]"
    # t1188 = ltorch.unsqueeze(t1187, 0)  # t1188: "cpu b8[1, 8, 8]"
      # t1188 = prims.broadcast_in_dim(t1187, [1, 8, 8], [1, 2])  # t1188: "cpu b8[1, 8, 8]"
  del t1187

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1189 = torch.unsqueeze(t1188, 1)  # t1189: "cpu b8[1, 1, 8, 8]"
    # t1189 = ltorch.unsqueeze(t1188, 1)  # t1189: "cpu b8[1, 1, 8, 8]"
      # t1189 = prims.broadcast_in_dim(t1188, [1, 1, 8, 8], [0, 2, 3])  # t1189: "cpu b8[1, 1, 8, 8]"
  del t1188

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1190 = Tensor.expand(t1189, (2, 4, 8, 8))  # t1190: "cpu b8[2, 4, 8, 8]"
    # t1190 = ltorch.expand(t1189, (2, 4, 8, 8))  # t1190: "cpu b8[2, 4, 8, 8]"
      # t1190 = prims.broadcast_in_dim(t1189, (2, 4, 8, 8), (0, 1, 2, 3))  # t1190: "cpu b8[2, 4, 8, 8]"
  del t1189

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1191 = torch.where(t1190, t1179, -float('inf'))  # t1191: "cpu bf16[2, 4, 8, 8]"
    # t1191 = ltorch.where(t1190, t1179, -float('inf'))  # t1191: "cpu bf16[2, 4, 8, 8]"
      # t1191 = prims.where(t1190, t1179, -float('inf'))  # t1191: "cpu bf16[2, 4, 8, 8]"
  del t1179

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1206 = torch.softmax(t1191, -1)  # t1206: "cpu bf16[2, 4, 8, 8]"
    # t1206 = ltorch._softmax(t1191, -1, dtype=None)  # t1206: "cpu bf16[2, 4, 8, 8]"
      # t1192 = ltorch.to(t1191, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1192: "cpu f32[2, 4, 8, 8]"
        # t1192 = prims.convert_element_type(t1191, dtypes.float32)  # t1192: "cpu f32[2, 4, 8, 8]"
      # t1196 = ltorch.amax(t1192, -1, True)  # t1196: "cpu f32[2, 4, 8, 1]"
        # t1193 = ltorch.to(t1192, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1193: "cpu f32[2, 4, 8, 8]"
          # t1193 = prims.shallow_copy(t1192)  # t1193: "cpu f32[2, 4, 8, 8]"
        # t1194 = prims.amax(t1193, (3,))  # t1194: "cpu f32[2, 4, 8]"
        # t1195 = prims.broadcast_in_dim(t1194, [2, 4, 8, 1], [0, 1, 2])  # t1195: "cpu f32[2, 4, 8, 1]"
        # t1196 = ltorch.to(t1195, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1196: "cpu f32[2, 4, 8, 1]"
          # t1196 = prims.shallow_copy(t1195)  # t1196: "cpu f32[2, 4, 8, 1]"
      # t1198 = ltorch.sub(t1192, t1196, alpha=1)  # t1198: "cpu f32[2, 4, 8, 8]"
        # t1197 = prims.broadcast_in_dim(t1196, (2, 4, 8, 8), (0, 1, 2, 3))  # t1197: "cpu f32[2, 4, 8, 8]"
        # t1198 = prims.sub(t1192, t1197)  # t1198: "cpu f32[2, 4, 8, 8]"
      # t1199 = ltorch.exp(t1198)  # t1199: "cpu f32[2, 4, 8, 8]"
        # t1199 = prims.exp(t1198)  # t1199: "cpu f32[2, 4, 8, 8]"
      # t1203 = ltorch.sum(t1199, -1, True, dtype=None)  # t1203: "cpu f32[2, 4, 8, 1]"
        # t1200 = ltorch.to(t1199, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1200: "cpu f32[2, 4, 8, 8]"
          # t1200 = prims.shallow_copy(t1199)  # t1200: "cpu f32[2, 4, 8, 8]"
        # t1201 = prims.sum(t1200, (3,))  # t1201: "cpu f32[2, 4, 8]"
        # t1202 = prims.broadcast_in_dim(t1201, [2, 4, 8, 1], [0, 1, 2])  # t1202: "cpu f32[2, 4, 8, 1]"
        # t1203 = ltorch.to(t1202, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1203: "cpu f32[2, 4, 8, 1]"
          # t1203 = prims.shallow_copy(t1202)  # t1203: "cpu f32[2, 4, 8, 1]"
      # t1205 = ltorch.true_divide(t1199, t1203)  # t1205: "cpu f32[2, 4, 8, 8]"
        # t1204 = prims.broadcast_in_dim(t1203, (2, 4, 8, 8), (0, 1, 2, 3))  # t1204: "cpu f32[2, 4, 8, 8]"
        # t1205 = prims.div(t1199, t1204)  # t1205: "cpu f32[2, 4, 8, 8]"
      # t1206 = ltorch.to(t1205, dtypes.bfloat16, None, device=None, dtype=None, copy=False, memory_format=None)  # t1206: "cpu bf16[2, 4, 8, 8]"
        # t1206 = prims.convert_element_type(t1205, dtypes.bfloat16)  # t1206: "cpu bf16[2, 4, 8, 8]"
  del t1191

  # /work/main/tests/thunder/generate_traces.py:116: 	        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
  t1207 = shallow_copy(t1206)  # t1207: "cpu bf16[2, 4, 8, 8]"
  t1208 = torch.matmul(t1207, t1167)  # t1208: "cpu bf16[2, 4, 8, 8]"
    # t1208 = ltorch.matmul(t1207, t1167)  # t1208: "cpu bf16[2, 4, 8, 8]"
      # t1208 = prims.matmul(t1207, t1167)  # t1208: "cpu bf16[2, 4, 8, 8]"

  # /work/main/.venv-tools/lib/python3.11/site-packages/thunder/torch/experimental/dtensor_torch_and_prims.py:69: 	            return single_device_symbol(*args, **kwargs)
  t1209 = torch.permute(t1208, (0, 2, 1, 3))  # t1209: "cpu bf16[2, 8, 4, 8]"
    # t1209 = ltorch.permute(t1208, (0, 2, 1, 3))  # t1209: "cpu bf16[2, 8, 4, 8]"
      # t1209 = prims.transpose(t1208, (0, 2, 1, 3))  # t1209: "cpu bf16[2, 8, 4, 8]"
  del t1208

  # /work/main/tests/thunder/generate_traces.py:117: 	        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
  t1210 = Tensor.contiguous(t1209, memory_format=_torch_memory_format_1)  # t1210: "cpu bf16[2, 8, 4, 8]"
    # t1210 = ltorch.contiguous(t1209, memory_format=_torch_memory_format_1)  # t1210: "cpu bf16[2, 8, 4, 8]"
      # t1210 = prims.stride_order(t1209, (3, 2, 1, 0))  # t1210: "cpu bf16[2, 8, 4, 8]"
  del t1209

  # /work/main/tests/thunder/generate_traces.py:117: 	        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
  t1211 = torch_prims_reshape_impl(t1210, (2, 8, 32))  # t1211: "cpu bf16[2, 8, 32]"
  del t1210

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t1213 = Tensor.to(t_proj_weight, torch.bfloat16, copy=True)  # t1213: "cpu bf16[32, 32]"
    # t1213 = ltorch.to(t_proj_weight, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1213: "cpu bf16[32, 32]"
      # t1212 = prims.clone(t_proj_weight)  # t1212: "cpu f32[32, 32]"
      # t1213 = prims.convert_element_type(t1212, dtypes.bfloat16)  # t1213: "cpu bf16[32, 32]"
  t1215 = Tensor.to(t_proj_bias, torch.bfloat16, copy=True)  # t1215: "cpu bf16[32]"
    # t1215 = ltorch.to(t_proj_bias, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1215: "cpu bf16[32]"
      # t1214 = prims.clone(t_proj_bias)  # t1214: "cpu f32[32]"
      # t1215 = prims.convert_element_type(t1214, dtypes.bfloat16)  # t1215: "cpu bf16[32]"
  t1216 = torch.nn.functional.linear(t1211, t1213, t1215)  # t1216: "cpu bf16[2, 8, 32]"
    # t1216 = prims.linear(t1211, t1213, t1215)  # t1216: "cpu bf16[2, 8, 32]"
  del t1215

  # /work/main/tests/thunder/generate_traces.py:117: 	        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
  t1218 = Tensor.to(t1216, torch.float32, copy=True)  # t1218: "cpu f32[2, 8, 32]"
    # t1218 = ltorch.to(t1216, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1218: "cpu f32[2, 8, 32]"
      # t1217 = prims.clone(t1216)  # t1217: "cpu bf16[2, 8, 32]"
      # t1218 = prims.convert_element_type(t1217, dtypes.float32)  # t1218: "cpu f32[2, 8, 32]"
  del t1216

  # /work/main/tests/thunder/generate_traces.py:117: 	        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
  t1219 = torch.add(x, t1218, alpha=1)  # t1219: "cpu f32[2, 8, 32]"
    # t1219 = ltorch.add(x, t1218, alpha=1)  # t1219: "cpu f32[2, 8, 32]"
      # t1219 = prims.add(x, t1218)  # t1219: "cpu f32[2, 8, 32]"
  del t1218

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1220 = shallow_copy(t1219)  # t1220: "cpu f32[2, 8, 32]"
  t1221 = shallow_copy(t1220)  # t1221: "cpu f32[2, 8, 32]"
  del t1220

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  (t1227, t1228) = torch.var_mean(t1221, (2,), correction=0)
    # (t1227, t1228) = ltorch.var_mean(t1221, (2,), keepdim=False, correction=0)
      # t1222 = ltorch.to(t1221, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1222: "cpu f32[2, 8, 32]"
        # t1222 = prims.shallow_copy(t1221)  # t1222: "cpu f32[2, 8, 32]"
      # (t1225, t1226) = prims.var_mean(t1222, (2,), correction=0)
      # t1227 = ltorch.to(t1225, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1227: "cpu f32[2, 8]"
        # t1227 = prims.shallow_copy(t1225)  # t1227: "cpu f32[2, 8]"
      # t1228 = ltorch.to(t1226, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t1228: "cpu f32[2, 8]"
        # t1228 = prims.shallow_copy(t1226)  # t1228: "cpu f32[2, 8]"
  t1229 = torch.unsqueeze(t1227, 2)  # t1229: "cpu f32[2, 8, 1]"
    # t1229 = ltorch.unsqueeze(t1227, 2)  # t1229: "cpu f32[2, 8, 1]"
      # t1229 = prims.broadcast_in_dim(t1227, [2, 8, 1], [0, 1])  # t1229: "cpu f32[2, 8, 1]"
  del t1227

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1230 = Tensor.expand(t1229, [2, 8, 1])  # t1230: "cpu f32[2, 8, 1]"
    # t1230 = ltorch.expand(t1229, [2, 8, 1])  # t1230: "cpu f32[2, 8, 1]"
      # t1230 = prims.broadcast_in_dim(t1229, (2, 8, 1), (0, 1, 2))  # t1230: "cpu f32[2, 8, 1]"
  del t1229

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1231 = torch.unsqueeze(t1228, 2)  # t1231: "cpu f32[2, 8, 1]"
    # t1231 = ltorch.unsqueeze(t1228, 2)  # t1231: "cpu f32[2, 8, 1]"
      # t1231 = prims.broadcast_in_dim(t1228, [2, 8, 1], [0, 1])  # t1231: "cpu f32[2, 8, 1]"
  t1232 = Tensor.expand(t1231, [2, 8, 1])  # t1232: "cpu f32[2, 8, 1]"
    # t1232 = ltorch.expand(t1231, [2, 8, 1])  # t1232: "cpu f32[2, 8, 1]"
      # t1232 = prims.broadcast_in_dim(t1231, (2, 8, 1), (0, 1, 2))  # t1232: "cpu f32[2, 8, 1]"
  del t1231

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1233 = shallow_copy(t1230)  # t1233: "cpu f32[2, 8, 1]"
  del t1230

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1234 = shallow_copy(t1232)  # t1234: "cpu f32[2, 8, 1]"
  del t1232

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1235 = torch.add(t1233, 1e-05, alpha=1)  # t1235: "cpu f32[2, 8, 1]"
    # t1235 = ltorch.add(t1233, 1e-05, alpha=1)  # t1235: "cpu f32[2, 8, 1]"
      # t1235 = prims.add(t1233, 1e-05)  # t1235: "cpu f32[2, 8, 1]"
  del t1233

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1236 = torch.rsqrt(t1235)  # t1236: "cpu f32[2, 8, 1]"
    # t1236 = ltorch.rsqrt(t1235)  # t1236: "cpu f32[2, 8, 1]"
      # t1236 = prims.rsqrt(t1235)  # t1236: "cpu f32[2, 8, 1]"
  del t1235

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1237 = Tensor.expand(t1234, (2, 8, 32))  # t1237: "cpu f32[2, 8, 32]"
    # t1237 = ltorch.expand(t1234, (2, 8, 32))  # t1237: "cpu f32[2, 8, 32]"
      # t1237 = prims.broadcast_in_dim(t1234, (2, 8, 32), (0, 1, 2))  # t1237: "cpu f32[2, 8, 32]"
  del t1234

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1238 = torch.sub(t1219, t1237, alpha=1)  # t1238: "cpu f32[2, 8, 32]"
    # t1238 = ltorch.sub(t1219, t1237, alpha=1)  # t1238: "cpu f32[2, 8, 32]"
      # t1238 = prims.sub(t1219, t1237)  # t1238: "cpu f32[2, 8, 32]"
  del t1237

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1239 = Tensor.expand(t1236, (2, 8, 32))  # t1239: "cpu f32[2, 8, 32]"
    # t1239 = ltorch.expand(t1236, (2, 8, 32))  # t1239: "cpu f32[2, 8, 32]"
      # t1239 = prims.broadcast_in_dim(t1236, (2, 8, 32), (0, 1, 2))  # t1239: "cpu f32[2, 8, 32]"
  t1240 = torch.mul(t1238, t1239)  # t1240: "cpu f32[2, 8, 32]"
    # t1240 = ltorch.mul(t1238, t1239)  # t1240: "cpu f32[2, 8, 32]"
      # t1240 = prims.mul(t1238, t1239)  # t1240: "cpu f32[2, 8, 32]"
  t1241 = torch.unsqueeze(t_ln2_weight, 0)  # t1241: "cpu f32[1, 32]"
    # t1241 = ltorch.unsqueeze(t_ln2_weight, 0)  # t1241: "cpu f32[1, 32]"
      # t1241 = prims.broadcast_in_dim(t_ln2_weight, [1, 32], [1])  # t1241: "cpu f32[1, 32]"
  t1242 = torch.unsqueeze(t1241, 1)  # t1242: "cpu f32[1, 1, 32]"
    # t1242 = ltorch.unsqueeze(t1241, 1)  # t1242: "cpu f32[1, 1, 32]"
      # t1242 = prims.broadcast_in_dim(t1241, [1, 1, 32], [0, 2])  # t1242: "cpu f32[1, 1, 32]"
  del t1241

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1243 = Tensor.expand(t1242, (2, 8, 32))  # t1243: "cpu f32[2, 8, 32]"
    # t1243 = ltorch.expand(t1242, (2, 8, 32))  # t1243: "cpu f32[2, 8, 32]"
      # t1243 = prims.broadcast_in_dim(t1242, (2, 8, 32), (0, 1, 2))  # t1243: "cpu f32[2, 8, 32]"
  del t1242

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1244 = torch.mul(t1240, t1243)  # t1244: "cpu f32[2, 8, 32]"
    # t1244 = ltorch.mul(t1240, t1243)  # t1244: "cpu f32[2, 8, 32]"
      # t1244 = prims.mul(t1240, t1243)  # t1244: "cpu f32[2, 8, 32]"
  t1245 = torch.unsqueeze(t_ln2_bias, 0)  # t1245: "cpu f32[1, 32]"
    # t1245 = ltorch.unsqueeze(t_ln2_bias, 0)  # t1245: "cpu f32[1, 32]"
      # t1245 = prims.broadcast_in_dim(t_ln2_bias, [1, 32], [1])  # t1245: "cpu f32[1, 32]"
  t1246 = torch.unsqueeze(t1245, 1)  # t1246: "cpu f32[1, 1, 32]"
    # t1246 = ltorch.unsqueeze(t1245, 1)  # t1246: "cpu f32[1, 1, 32]"
      # t1246 = prims.broadcast_in_dim(t1245, [1, 1, 32], [0, 2])  # t1246: "cpu f32[1, 1, 32]"
  del t1245

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1247 = Tensor.expand(t1246, (2, 8, 32))  # t1247: "cpu f32[2, 8, 32]"
    # t1247 = ltorch.expand(t1246, (2, 8, 32))  # t1247: "cpu f32[2, 8, 32]"
      # t1247 = prims.broadcast_in_dim(t1246, (2, 8, 32), (0, 1, 2))  # t1247: "cpu f32[2, 8, 32]"
  del t1246

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1248 = torch.add(t1244, t1247, alpha=1)  # t1248: "cpu f32[2, 8, 32]"
    # t1248 = ltorch.add(t1244, t1247, alpha=1)  # t1248: "cpu f32[2, 8, 32]"
      # t1248 = prims.add(t1244, t1247)  # t1248: "cpu f32[2, 8, 32]"
  del t1244, t1247

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/normalization.py:229: 	        return F.layer_norm(
  t1249 = shallow_copy(t1248)  # t1249: "cpu f32[2, 8, 32]"
  del t1248

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t1251 = Tensor.to(t1249, torch.bfloat16, copy=True)  # t1251: "cpu bf16[2, 8, 32]"
    # t1251 = ltorch.to(t1249, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1251: "cpu bf16[2, 8, 32]"
      # t1250 = prims.clone(t1249)  # t1250: "cpu f32[2, 8, 32]"
      # t1251 = prims.convert_element_type(t1250, dtypes.bfloat16)  # t1251: "cpu bf16[2, 8, 32]"
  del t1249

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t1253 = Tensor.to(t_mlp_0_weight, torch.bfloat16, copy=True)  # t1253: "cpu bf16[128, 32]"
    # t1253 = ltorch.to(t_mlp_0_weight, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1253: "cpu bf16[128, 32]"
      # t1252 = prims.clone(t_mlp_0_weight)  # t1252: "cpu f32[128, 32]"
      # t1253 = prims.convert_element_type(t1252, dtypes.bfloat16)  # t1253: "cpu bf16[128, 32]"
  t1255 = Tensor.to(t_mlp_0_bias, torch.bfloat16, copy=True)  # t1255: "cpu bf16[128]"
    # t1255 = ltorch.to(t_mlp_0_bias, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1255: "cpu bf16[128]"
      # t1254 = prims.clone(t_mlp_0_bias)  # t1254: "cpu f32[128]"
      # t1255 = prims.convert_element_type(t1254, dtypes.bfloat16)  # t1255: "cpu bf16[128]"
  t1256 = torch.nn.functional.linear(t1251, t1253, t1255)  # t1256: "cpu bf16[2, 8, 128]"
    # t1256 = prims.linear(t1251, t1253, t1255)  # t1256: "cpu bf16[2, 8, 128]"
  del t1255

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1258 = Tensor.to(t1256, torch.float32, copy=True)  # t1258: "cpu f32[2, 8, 128]"
    # t1258 = ltorch.to(t1256, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1258: "cpu f32[2, 8, 128]"
      # t1257 = prims.clone(t1256)  # t1257: "cpu bf16[2, 8, 128]"
      # t1258 = prims.convert_element_type(t1257, dtypes.float32)  # t1258: "cpu f32[2, 8, 128]"
  t1260 = Tensor.to(t1256, torch.float32, copy=True)  # t1260: "cpu f32[2, 8, 128]"
    # t1260 = ltorch.to(t1256, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1260: "cpu f32[2, 8, 128]"
      # t1259 = prims.clone(t1256)  # t1259: "cpu bf16[2, 8, 128]"
      # t1260 = prims.convert_element_type(t1259, dtypes.float32)  # t1260: "cpu f32[2, 8, 128]"
  t1261 = torch.mul(t1258, t1260)  # t1261: "cpu f32[2, 8, 128]"
    # t1261 = ltorch.mul(t1258, t1260)  # t1261: "cpu f32[2, 8, 128]"
      # t1261 = prims.mul(t1258, t1260)  # t1261: "cpu f32[2, 8, 128]"
  t1263 = Tensor.to(t1261, torch.bfloat16, copy=True)  # t1263: "cpu bf16[2, 8, 128]"
    # t1263 = ltorch.to(t1261, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1263: "cpu bf16[2, 8, 128]"
      # t1262 = prims.clone(t1261)  # t1262: "cpu f32[2, 8, 128]"
      # t1263 = prims.convert_element_type(t1262, dtypes.bfloat16)  # t1263: "cpu bf16[2, 8, 128]"
  del t1261

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1265 = Tensor.to(t1263, torch.float32, copy=True)  # t1265: "cpu f32[2, 8, 128]"
    # t1265 = ltorch.to(t1263, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1265: "cpu f32[2, 8, 128]"
      # t1264 = prims.clone(t1263)  # t1264: "cpu bf16[2, 8, 128]"
      # t1265 = prims.convert_element_type(t1264, dtypes.float32)  # t1265: "cpu f32[2, 8, 128]"
  del t1263

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1267 = Tensor.to(t1256, torch.float32, copy=True)  # t1267: "cpu f32[2, 8, 128]"
    # t1267 = ltorch.to(t1256, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1267: "cpu f32[2, 8, 128]"
      # t1266 = prims.clone(t1256)  # t1266: "cpu bf16[2, 8, 128]"
      # t1267 = prims.convert_element_type(t1266, dtypes.float32)  # t1267: "cpu f32[2, 8, 128]"
  t1268 = torch.mul(t1265, t1267)  # t1268: "cpu f32[2, 8, 128]"
    # t1268 = ltorch.mul(t1265, t1267)  # t1268: "cpu f32[2, 8, 128]"
      # t1268 = prims.mul(t1265, t1267)  # t1268: "cpu f32[2, 8, 128]"
  t1270 = Tensor.to(t1268, torch.bfloat16, copy=True)  # t1270: "cpu bf16[2, 8, 128]"
    # t1270 = ltorch.to(t1268, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1270: "cpu bf16[2, 8, 128]"
      # t1269 = prims.clone(t1268)  # t1269: "cpu f32[2, 8, 128]"
      # t1270 = prims.convert_element_type(t1269, dtypes.bfloat16)  # t1270: "cpu bf16[2, 8, 128]"
  del t1268

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1272 = Tensor.to(t1256, torch.float32, copy=True)  # t1272: "cpu f32[2, 8, 128]"
    # t1272 = ltorch.to(t1256, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1272: "cpu f32[2, 8, 128]"
      # t1271 = prims.clone(t1256)  # t1271: "cpu bf16[2, 8, 128]"
      # t1272 = prims.convert_element_type(t1271, dtypes.float32)  # t1272: "cpu f32[2, 8, 128]"
  t1273 = torch.mul(0.5, t1272)  # t1273: "cpu f32[2, 8, 128]"
    # t1273 = ltorch.mul(0.5, t1272)  # t1273: "cpu f32[2, 8, 128]"
      # t1273 = prims.mul(0.5, t1272)  # t1273: "cpu f32[2, 8, 128]"
  del t1272

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1275 = Tensor.to(t1273, torch.bfloat16, copy=True)  # t1275: "cpu bf16[2, 8, 128]"
    # t1275 = ltorch.to(t1273, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1275: "cpu bf16[2, 8, 128]"
      # t1274 = prims.clone(t1273)  # t1274: "cpu f32[2, 8, 128]"
      # t1275 = prims.convert_element_type(t1274, dtypes.bfloat16)  # t1275: "cpu bf16[2, 8, 128]"
  del t1273

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1277 = Tensor.to(t1270, torch.float32, copy=True)  # t1277: "cpu f32[2, 8, 128]"
    # t1277 = ltorch.to(t1270, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1277: "cpu f32[2, 8, 128]"
      # t1276 = prims.clone(t1270)  # t1276: "cpu bf16[2, 8, 128]"
      # t1277 = prims.convert_element_type(t1276, dtypes.float32)  # t1277: "cpu f32[2, 8, 128]"
  del t1270

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1278 = torch.mul(0.044715, t1277)  # t1278: "cpu f32[2, 8, 128]"
    # t1278 = ltorch.mul(0.044715, t1277)  # t1278: "cpu f32[2, 8, 128]"
      # t1278 = prims.mul(0.044715, t1277)  # t1278: "cpu f32[2, 8, 128]"
  del t1277

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1280 = Tensor.to(t1278, torch.bfloat16, copy=True)  # t1280: "cpu bf16[2, 8, 128]"
    # t1280 = ltorch.to(t1278, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1280: "cpu bf16[2, 8, 128]"
      # t1279 = prims.clone(t1278)  # t1279: "cpu f32[2, 8, 128]"
      # t1280 = prims.convert_element_type(t1279, dtypes.bfloat16)  # t1280: "cpu bf16[2, 8, 128]"
  del t1278

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1282 = Tensor.to(t1256, torch.float32, copy=True)  # t1282: "cpu f32[2, 8, 128]"
    # t1282 = ltorch.to(t1256, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1282: "cpu f32[2, 8, 128]"
      # t1281 = prims.clone(t1256)  # t1281: "cpu bf16[2, 8, 128]"
      # t1282 = prims.convert_element_type(t1281, dtypes.float32)  # t1282: "cpu f32[2, 8, 128]"
  del t1256

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1284 = Tensor.to(t1280, torch.float32, copy=True)  # t1284: "cpu f32[2, 8, 128]"
    # t1284 = ltorch.to(t1280, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1284: "cpu f32[2, 8, 128]"
      # t1283 = prims.clone(t1280)  # t1283: "cpu bf16[2, 8, 128]"
      # t1284 = prims.convert_element_type(t1283, dtypes.float32)  # t1284: "cpu f32[2, 8, 128]"
  del t1280

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1285 = torch.add(t1282, t1284, alpha=1)  # t1285: "cpu f32[2, 8, 128]"
    # t1285 = ltorch.add(t1282, t1284, alpha=1)  # t1285: "cpu f32[2, 8, 128]"
      # t1285 = prims.add(t1282, t1284)  # t1285: "cpu f32[2, 8, 128]"
  del t1282, t1284

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1287 = Tensor.to(t1285, torch.bfloat16, copy=True)  # t1287: "cpu bf16[2, 8, 128]"
    # t1287 = ltorch.to(t1285, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1287: "cpu bf16[2, 8, 128]"
      # t1286 = prims.clone(t1285)  # t1286: "cpu f32[2, 8, 128]"
      # t1287 = prims.convert_element_type(t1286, dtypes.bfloat16)  # t1287: "cpu bf16[2, 8, 128]"
  del t1285

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1289 = Tensor.to(t1287, torch.float32, copy=True)  # t1289: "cpu f32[2, 8, 128]"
    # t1289 = ltorch.to(t1287, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1289: "cpu f32[2, 8, 128]"
      # t1288 = prims.clone(t1287)  # t1288: "cpu bf16[2, 8, 128]"
      # t1289 = prims.convert_element_type(t1288, dtypes.float32)  # t1289: "cpu f32[2, 8, 128]"
  del t1287

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1290 = torch.mul(0.7978845608028654, t1289)  # t1290: "cpu f32[2, 8, 128]"
    # t1290 = ltorch.mul(0.7978845608028654, t1289)  # t1290: "cpu f32[2, 8, 128]"
      # t1290 = prims.mul(0.7978845608028654, t1289)  # t1290: "cpu f32[2, 8, 128]"
  del t1289

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1292 = Tensor.to(t1290, torch.bfloat16, copy=True)  # t1292: "cpu bf16[2, 8, 128]"
    # t1292 = ltorch.to(t1290, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1292: "cpu bf16[2, 8, 128]"
      # t1291 = prims.clone(t1290)  # t1291: "cpu f32[2, 8, 128]"
      # t1292 = prims.convert_element_type(t1291, dtypes.bfloat16)  # t1292: "cpu bf16[2, 8, 128]"
  del t1290

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1294 = Tensor.to(t1292, torch.float32, copy=True)  # t1294: "cpu f32[2, 8, 128]"
    # t1294 = ltorch.to(t1292, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1294: "cpu f32[2, 8, 128]"
      # t1293 = prims.clone(t1292)  # t1293: "cpu bf16[2, 8, 128]"
      # t1294 = prims.convert_element_type(t1293, dtypes.float32)  # t1294: "cpu f32[2, 8, 128]"
  del t1292

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1295 = torch.tanh(t1294)  # t1295: "cpu f32[2, 8, 128]"
    # t1295 = ltorch.tanh(t1294)  # t1295: "cpu f32[2, 8, 128]"
      # t1295 = prims.tanh(t1294)  # t1295: "cpu f32[2, 8, 128]"
  del t1294

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1297 = Tensor.to(t1295, torch.bfloat16, copy=True)  # t1297: "cpu bf16[2, 8, 128]"
    # t1297 = ltorch.to(t1295, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1297: "cpu bf16[2, 8, 128]"
      # t1296 = prims.clone(t1295)  # t1296: "cpu f32[2, 8, 128]"
      # t1297 = prims.convert_element_type(t1296, dtypes.bfloat16)  # t1297: "cpu bf16[2, 8, 128]"
  t1299 = Tensor.to(t1297, torch.float32, copy=True)  # t1299: "cpu f32[2, 8, 128]"
    # t1299 = ltorch.to(t1297, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1299: "cpu f32[2, 8, 128]"
      # t1298 = prims.clone(t1297)  # t1298: "cpu bf16[2, 8, 128]"
      # t1299 = prims.convert_element_type(t1298, dtypes.float32)  # t1299: "cpu f32[2, 8, 128]"
  del t1297

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1300 = torch.add(1.0, t1299, alpha=1)  # t1300: "cpu f32[2, 8, 128]"
    # t1300 = ltorch.add(1.0, t1299, alpha=1)  # t1300: "cpu f32[2, 8, 128]"
      # t1300 = prims.add(1.0, t1299)  # t1300: "cpu f32[2, 8, 128]"
  del t1299

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1302 = Tensor.to(t1300, torch.bfloat16, copy=True)  # t1302: "cpu bf16[2, 8, 128]"
    # t1302 = ltorch.to(t1300, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1302: "cpu bf16[2, 8, 128]"
      # t1301 = prims.clone(t1300)  # t1301: "cpu f32[2, 8, 128]"
      # t1302 = prims.convert_element_type(t1301, dtypes.bfloat16)  # t1302: "cpu bf16[2, 8, 128]"
  del t1300

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1304 = Tensor.to(t1275, torch.float32, copy=True)  # t1304: "cpu f32[2, 8, 128]"
    # t1304 = ltorch.to(t1275, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1304: "cpu f32[2, 8, 128]"
      # t1303 = prims.clone(t1275)  # t1303: "cpu bf16[2, 8, 128]"
      # t1304 = prims.convert_element_type(t1303, dtypes.float32)  # t1304: "cpu f32[2, 8, 128]"
  del t1275

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1306 = Tensor.to(t1302, torch.float32, copy=True)  # t1306: "cpu f32[2, 8, 128]"
    # t1306 = ltorch.to(t1302, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1306: "cpu f32[2, 8, 128]"
      # t1305 = prims.clone(t1302)  # t1305: "cpu bf16[2, 8, 128]"
      # t1306 = prims.convert_element_type(t1305, dtypes.float32)  # t1306: "cpu f32[2, 8, 128]"
  del t1302

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/activation.py:816: 	        return F.gelu(input, approximate=self.approximate)
  t1307 = torch.mul(t1304, t1306)  # t1307: "cpu f32[2, 8, 128]"
    # t1307 = ltorch.mul(t1304, t1306)  # t1307: "cpu f32[2, 8, 128]"
      # t1307 = prims.mul(t1304, t1306)  # t1307: "cpu f32[2, 8, 128]"
  t1309 = Tensor.to(t1307, torch.bfloat16, copy=True)  # t1309: "cpu bf16[2, 8, 128]"
    # t1309 = ltorch.to(t1307, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1309: "cpu bf16[2, 8, 128]"
      # t1308 = prims.clone(t1307)  # t1308: "cpu f32[2, 8, 128]"
      # t1309 = prims.convert_element_type(t1308, dtypes.bfloat16)  # t1309: "cpu bf16[2, 8, 128]"
  del t1307

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t1311 = Tensor.to(t_mlp_2_weight, torch.bfloat16, copy=True)  # t1311: "cpu bf16[32, 128]"
    # t1311 = ltorch.to(t_mlp_2_weight, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1311: "cpu bf16[32, 128]"
      # t1310 = prims.clone(t_mlp_2_weight)  # t1310: "cpu f32[32, 128]"
      # t1311 = prims.convert_element_type(t1310, dtypes.bfloat16)  # t1311: "cpu bf16[32, 128]"
  t1313 = Tensor.to(t_mlp_2_bias, torch.bfloat16, copy=True)  # t1313: "cpu bf16[32]"
    # t1313 = ltorch.to(t_mlp_2_bias, torch.bfloat16, None, device=None, dtype=None, copy=True, memory_format=None)  # t1313: "cpu bf16[32]"
      # t1312 = prims.clone(t_mlp_2_bias)  # t1312: "cpu f32[32]"
      # t1313 = prims.convert_element_type(t1312, dtypes.bfloat16)  # t1313: "cpu bf16[32]"
  t1314 = torch.nn.functional.linear(t1309, t1311, t1313)  # t1314: "cpu bf16[2, 8, 32]"
    # t1314 = prims.linear(t1309, t1311, t1313)  # t1314: "cpu bf16[2, 8, 32]"
  del t1313

  # /work/main/tests/thunder/generate_traces.py:118: 	        return x + self.mlp(self.ln2(x))
  t1316 = Tensor.to(t1314, torch.float32, copy=True)  # t1316: "cpu f32[2, 8, 32]"
    # t1316 = ltorch.to(t1314, torch.float32, None, device=None, dtype=None, copy=True, memory_format=None)  # t1316: "cpu f32[2, 8, 32]"
      # t1315 = prims.clone(t1314)  # t1315: "cpu bf16[2, 8, 32]"
      # t1316 = prims.convert_element_type(t1315, dtypes.float32)  # t1316: "cpu f32[2, 8, 32]"
  del t1314

  # /work/main/tests/thunder/generate_traces.py:118: 	        return x + self.mlp(self.ln2(x))
  t1317 = torch.add(t1219, t1316, alpha=1)  # t1317: "cpu f32[2, 8, 32]"
    # t1317 = ltorch.add(t1219, t1316, alpha=1)  # t1317: "cpu f32[2, 8, 32]"
      # t1317 = prims.add(t1219, t1316)  # t1317: "cpu f32[2, 8, 32]"
  del t1219, t1316
  return {'output': (t1317,), 'flat_args': [x, t_ln1_bias, t_ln1_weight, t_ln2_bias, t_ln2_weight, t_mlp_0_bias, t_mlp_0_weight, t_mlp_2_bias, t_mlp_2_weight, t_proj_bias, t_proj_weight, t_qkv_bias, t_qkv_weight], 'flat_output': (t1317,)}, ((t1311, t1309, t1306, t1304, t1295, t1267, t1265, t1260, t1258, t1253, t1251, t1243, t1240, t1239, t1238, t1236, t1228, t1221, t1213, t1211, t1167, t1207, t1206, t1190, t1178, t1172, t1155, t1153, t1145, t1142, t1141, t1140, t1138, t1130, t1123), ())