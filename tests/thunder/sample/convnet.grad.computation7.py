# Constructed by Delete Last Used (took 1 milliseconds)
import torch
from torch import Tensor
import torch.nn.functional
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(x, t_bn_bias, t_bn_num_batches_tracked, t_bn_running_mean, t_bn_running_var, t_bn_weight, bias, weight, t_head_bias, t_head_weight):
  # x: "cpu f32[2, 3, 8, 8]"
  # t_bn_bias: "cpu f32[8]"
  # t_bn_num_batches_tracked: "cpu i64[]"
  # t_bn_running_mean: "cpu f32[8]"
  # t_bn_running_var: "cpu f32[8]"
  # t_bn_weight: "cpu f32[8]"
  # bias: "cpu f32[8]"
  # weight: "cpu f32[8, 3, 3, 3]"
  # t_head_bias: "cpu f32[4]"
  # t_head_weight: "cpu f32[4, 8]"

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/conv.py:543: 	        return F.conv2d(
  t382 = torch.convolution(x, weight, bias, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)  # t382: "cpu f32[2, 8, 8, 8]"
    # t382 = ltorch.convolution(x, weight, bias, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)  # t382: "cpu f32[2, 8, 8, 8]"
      # t382 = prims.convolution(x, weight, bias, (1, 1), (1, 1), (1, 1), False, (0, 0), 1)  # t382: "cpu f32[2, 8, 8, 8]"
  (t383,) = update_aliases((t_bn_num_batches_tracked,))
  del t_bn_num_batches_tracked

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:173: 	                self.num_batches_tracked.add_(1)  # type: ignore[has-type]
  t384 = torch.add(t383, 1, alpha=1)  # t384: "cpu i64[]"
    # t384 = ltorch.add(t383, 1, alpha=1)  # t384: "cpu i64[]"
      # t384 = prims.add(t383, 1)  # t384: "cpu i64[]"
  t385 = copy_(t384, t383, grad_enabled=True)  # t385: "cpu i64[]"
  del t384, t383

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t386 = shallow_copy(t382)  # t386: "cpu f32[2, 8, 8, 8]"
  t387 = shallow_copy(t386)  # t387: "cpu f32[2, 8, 8, 8]"
  del t386

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  (t393, t394) = torch.var_mean(t387, (0, 2, 3), correction=0)
    # (t393, t394) = ltorch.var_mean(t387, (0, 2, 3), keepdim=False, correction=0)
      # t388 = ltorch.to(t387, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t388: "cpu f32[2, 8, 8, 8]"
        # t388 = prims.shallow_copy(t387)  # t388: "cpu f32[2, 8, 8, 8]"
      # (t391, t392) = prims.var_mean(t388, (0, 2, 3), correction=0)
      # t393 = ltorch.to(t391, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t393: "cpu f32[8]"
        # t393 = prims.shallow_copy(t391)  # t393: "cpu f32[8]"
      # t394 = ltorch.to(t392, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t394: "cpu f32[8]"
        # t394 = prims.shallow_copy(t392)  # t394: "cpu f32[8]"
  t395 = shallow_copy(t393)  # t395: "cpu f32[8]"
  del t393

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t396 = shallow_copy(t394)  # t396: "cpu f32[8]"
  t397 = torch.add(t395, 1e-05, alpha=1)  # t397: "cpu f32[8]"
    # t397 = ltorch.add(t395, 1e-05, alpha=1)  # t397: "cpu f32[8]"
      # t397 = prims.add(t395, 1e-05)  # t397: "cpu f32[8]"
  t398 = torch.rsqrt(t397)  # t398: "cpu f32[8]"
    # t398 = ltorch.rsqrt(t397)  # t398: "cpu f32[8]"
      # t398 = prims.rsqrt(t397)  # t398: "cpu f32[8]"
  del t397

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t399 = torch_prims_reshape_impl(t398, (1, 8, 1, 1))  # t399: "cpu f32[1, 8, 1, 1]"
  t400 = torch_prims_reshape_impl(t396, (1, 8, 1, 1))  # t400: "cpu f32[1, 8, 1, 1]"
  t401 = Tensor.expand(t400, (2, 8, 8, 8))  # t401: "cpu f32[2, 8, 8, 8]"
    # t401 = ltorch.expand(t400, (2, 8, 8, 8))  # t401: "cpu f32[2, 8, 8, 8]"
      # t401 = prims.broadcast_in_dim(t400, (2, 8, 8, 8), (0, 1, 2, 3))  # t401: "cpu f32[2, 8, 8, 8]"
  del t400

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t402 = torch.sub(t382, t401, alpha=1)  # t402: "cpu f32[2, 8, 8, 8]"
    # t402 = ltorch.sub(t382, t401, alpha=1)  # t402: "cpu f32[2, 8, 8, 8]"
      # t402 = prims.sub(t382, t401)  # t402: "cpu f32[2, 8, 8, 8]"
  del t382, t401

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t403 = Tensor.expand(t399, (2, 8, 8, 8))  # t403: "cpu f32[2, 8, 8, 8]"
    # t403 = ltorch.expand(t399, (2, 8, 8, 8))  # t403: "cpu f32[2, 8, 8, 8]"
      # t403 = prims.broadcast_in_dim(t399, (2, 8, 8, 8), (0, 1, 2, 3))  # t403: "cpu f32[2, 8, 8, 8]"
  del t399

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t404 = torch.mul(t402, t403)  # t404: "cpu f32[2, 8, 8, 8]"
    # t404 = ltorch.mul(t402, t403)  # t404: "cpu f32[2, 8, 8, 8]"
      # t404 = prims.mul(t402, t403)  # t404: "cpu f32[2, 8, 8, 8]"
  t405 = torch.mul(0.9, t_bn_running_mean)  # t405: "cpu f32[8]"
    # t405 = ltorch.mul(0.9, t_bn_running_mean)  # t405: "cpu f32[8]"
      # t405 = prims.mul(0.9, t_bn_running_mean)  # t405: "cpu f32[8]"
  t406 = torch.mul(0.1, t396)  # t406: "cpu f32[8]"
    # t406 = ltorch.mul(0.1, t396)  # t406: "cpu f32[8]"
      # t406 = prims.mul(0.1, t396)  # t406: "cpu f32[8]"
  del t396

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t407 = torch.add(t405, t406, alpha=1)  # t407: "cpu f32[8]"
    # t407 = ltorch.add(t405, t406, alpha=1)  # t407: "cpu f32[8]"
      # t407 = prims.add(t405, t406)  # t407: "cpu f32[8]"
  del t405, t406

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t408 = copy_(t407, t_bn_running_mean, grad_enabled=True)  # t408: "cpu f32[8]"
  del t408, t407

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t409 = torch.mul(t395, 1.0078740157480315)  # t409: "cpu f32[8]"
    # t409 = ltorch.mul(t395, 1.0078740157480315)  # t409: "cpu f32[8]"
      # t409 = prims.mul(t395, 1.0078740157480315)  # t409: "cpu f32[8]"
  del t395

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t410 = torch.mul(0.9, t_bn_running_var)  # t410: "cpu f32[8]"
    # t410 = ltorch.mul(0.9, t_bn_running_var)  # t410: "cpu f32[8]"
      # t410 = prims.mul(0.9, t_bn_running_var)  # t410: "cpu f32[8]"
  t411 = torch.mul(0.1, t409)  # t411: "cpu f32[8]"
    # t411 = ltorch.mul(0.1, t409)  # t411: "cpu f32[8]"
      # t411 = prims.mul(0.1, t409)  # t411: "cpu f32[8]"
  del t409

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t412 = torch.add(t410, t411, alpha=1)  # t412: "cpu f32[8]"
    # t412 = ltorch.add(t410, t411, alpha=1)  # t412: "cpu f32[8]"
      # t412 = prims.add(t410, t411)  # t412: "cpu f32[8]"
  del t410, t411

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t413 = copy_(t412, t_bn_running_var, grad_enabled=True)  # t413: "cpu f32[8]"
  del t413, t412

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t414 = torch_prims_reshape_impl(t_bn_weight, (1, 8, 1, 1))  # t414: "cpu f32[1, 8, 1, 1]"
  t415 = Tensor.expand(t414, (2, 8, 8, 8))  # t415: "cpu f32[2, 8, 8, 8]"
    # t415 = ltorch.expand(t414, (2, 8, 8, 8))  # t415: "cpu f32[2, 8, 8, 8]"
      # t415 = prims.broadcast_in_dim(t414, (2, 8, 8, 8), (0, 1, 2, 3))  # t415: "cpu f32[2, 8, 8, 8]"
  del t414

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t416 = torch.mul(t404, t415)  # t416: "cpu f32[2, 8, 8, 8]"
    # t416 = ltorch.mul(t404, t415)  # t416: "cpu f32[2, 8, 8, 8]"
      # t416 = prims.mul(t404, t415)  # t416: "cpu f32[2, 8, 8, 8]"
  t417 = torch_prims_reshape_impl(t_bn_bias, (1, 8, 1, 1))  # t417: "cpu f32[1, 8, 1, 1]"
  t418 = Tensor.expand(t417, (2, 8, 8, 8))  # t418: "cpu f32[2, 8, 8, 8]"
    # t418 = ltorch.expand(t417, (2, 8, 8, 8))  # t418: "cpu f32[2, 8, 8, 8]"
      # t418 = prims.broadcast_in_dim(t417, (2, 8, 8, 8), (0, 1, 2, 3))  # t418: "cpu f32[2, 8, 8, 8]"
  del t417

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t419 = torch.add(t416, t418, alpha=1)  # t419: "cpu f32[2, 8, 8, 8]"
    # t419 = ltorch.add(t416, t418, alpha=1)  # t419: "cpu f32[2, 8, 8, 8]"
      # t419 = prims.add(t416, t418)  # t419: "cpu f32[2, 8, 8, 8]"
  del t416, t418

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/batchnorm.py:193: 	        return F.batch_norm(
  t420 = shallow_copy(t419)  # t420: "cpu f32[2, 8, 8, 8]"
  del t419

  # /work/main/tests/thunder/generate_traces.py:129: 	        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
  t421 = torch.gt(t420, 0.0)  # t421: "cpu b8[2, 8, 8, 8]"
    # t421 = ltorch.gt(t420, 0.0)  # t421: "cpu b8[2, 8, 8, 8]"
      # t421 = prims.gt(t420, 0.0)  # t421: "cpu b8[2, 8, 8, 8]"
  t422 = torch.where(t421, t420, 0.0)  # t422: "cpu f32[2, 8, 8, 8]"
    # t422 = ltorch.where(t421, t420, 0.0)  # t422: "cpu f32[2, 8, 8, 8]"
      # t422 = prims.where(t421, t420, 0.0)  # t422: "cpu f32[2, 8, 8, 8]"
  del t420

  # /work/main/tests/thunder/generate_traces.py:129: 	        x = F.max_pool2d(F.relu(self.bn(self.conv(x))), 2)
  (t223, t224) = max_pool2d_with_indices(t422, 2, 2, 0, 1, False)

  # /work/main/tests/thunder/generate_traces.py:130: 	        return self.head(F.adaptive_avg_pool2d(x, 1).flatten(1))
  t227 = torch.nn.functional.adaptive_avg_pool2d(t223, 1)  # t227: "cpu f32[2, 8, 1, 1]"
    # t227 = ltorch.adaptive_avg_pool2d(t223, 1)  # t227: "cpu f32[2, 8, 1, 1]"
  t423 = torch_prims_reshape_impl(t227, (2, 8))  # t423: "cpu f32[2, 8]"
  del t227

  # /work/main/.venv-tools/lib/python3.11/site-packages/torch/nn/modules/linear.py:134: 	        return F.linear(input, self.weight, self.bias)
  t424 = torch.nn.functional.linear(t423, t_head_weight, t_head_bias)  # t424: "cpu f32[2, 4]"
    # t424 = ltorch.linear(t423, t_head_weight, t_head_bias)  # t424: "cpu f32[2, 4]"
      # t424 = prims.linear(t423, t_head_weight, t_head_bias)  # t424: "cpu f32[2, 4]"
  return {'output': (t424,), 'flat_args': [x, t_bn_bias, t385, t_bn_running_mean, t_bn_running_var, t_bn_weight, bias, weight, t_head_bias, t_head_weight], 'flat_output': (t424,)}, ((t_head_weight, t423, t223, t422, t224, t421, t415, t404, t403, t402, t398, t394, t387, weight, x), ())