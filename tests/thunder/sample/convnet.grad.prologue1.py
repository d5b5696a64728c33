# Constructed by Transform for execution (took 18 milliseconds)
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def prologue(*args, **kwargs):
  # args: "Any"
  check_len(args, 1)
    # prims.check_len(args, 1)
  # kwargs: "Any"
  check_len(kwargs, 0)
    # prims.check_len(kwargs, 0)
  x: "cpu f32[2, 3, 8, 8]" = args[0]
  module0: "Any" = globals()['__function_obj']
  module: "Any" = thunder.core.module.get_thunder_module(module0)
  weight: "cpu f32[8, 3, 3, 3]" = module.get_parameter('conv.weight')
  bias: "cpu f32[8]" = module.get_parameter('conv.bias')
  t_bn_num_batches_tracked: "cpu i64[]" = module.get_buffer('bn.num_batches_tracked')
  t_bn_running_mean: "cpu f32[8]" = module.get_buffer('bn.running_mean')
  t_bn_running_var: "cpu f32[8]" = module.get_buffer('bn.running_var')
  t_bn_weight: "cpu f32[8]" = module.get_parameter('bn.weight')
  t_bn_bias: "cpu f32[8]" = module.get_parameter('bn.bias')
  t_head_weight: "cpu f32[4, 8]" = module.get_parameter('head.weight')
  t_head_bias: "cpu f32[4]" = module.get_parameter('head.bias')
  check_tensor_metadata(x, (2, 3, 8, 8), 'cpu', torch.float32, True)
    # prims.check_tensor_shape_and_metadata(x, (2, 3, 8, 8), 'cpu', torch.float32, True)
  i0: "bool True" = module.training
  check_number_type_and_value(i0, True)
    # prims.check_number_type_and_value(i0, True)
  m1: "Any" = module.get_submodule('conv')
  i1: "bool True" = m1.training
  check_number_type_and_value(i1, True)
    # prims.check_number_type_and_value(i1, True)
  i2: "int 3" = m1.in_channels
  check_number_type_and_value(i2, 3)
    # prims.check_number_type_and_value(i2, 3)
  i3: "int 8" = m1.out_channels
  check_number_type_and_value(i3, 8)
    # prims.check_number_type_and_value(i3, 8)
  i4: "bool False" = m1.transposed
  check_number_type_and_value(i4, False)
    # prims.check_number_type_and_value(i4, False)
  i5: "int 1" = m1.groups
  check_number_type_and_value(i5, 1)
    # prims.check_number_type_and_value(i5, 1)
  s6: "str" = m1.padding_mode
  check_string_value(s6, 'zeros')
    # prims.check_string_value(s6, 'zeros')
  check_tensor_metadata(weight, (8, 3, 3, 3), 'cpu', torch.float32, True)
    # prims.check_tensor_shape_and_metadata(weight, (8, 3, 3, 3), 'cpu', torch.float32, True)
  check_tensor_metadata(bias, (8,), 'cpu', torch.float32, True)
    # prims.check_tensor_shape_and_metadata(bias, (8,), 'cpu', torch.float32, True)
  s7: "str" = m1.padding_mode
  check_string_value(s7, 'zeros')
    # prims.check_string_value(s7, 'zeros')
  obj2: "Any" = m1.stride
  i8: "int 1" = obj2[0]
  check_number_type_and_value(i8, 1)
    # prims.check_number_type_and_value(i8, 1)
  i9: "int 1" = obj2[1]
  check_number_type_and_value(i9, 1)
    # prims.check_number_type_and_value(i9, 1)
  obj3: "Any" = m1.padding
  i10: "int 1" = obj3[0]
  check_number_type_and_value(i10, 1)
    # prims.check_number_type_and_value(i10, 1)
  i11: "int 1" = obj3[1]
  check_number_type_and_value(i11, 1)
    # prims.check_number_type_and_value(i11, 1)
  obj4: "Any" = m1.dilation
  i12: "int 1" = obj4[0]
  check_number_type_and_value(i12, 1)
    # prims.check_number_type_and_value(i12, 1)
  i13: "int 1" = obj4[1]
  check_number_type_and_value(i13, 1)
    # prims.check_number_type_and_value(i13, 1)
  i14: "int 1" = m1.groups
  check_number_type_and_value(i14, 1)
    # prims.check_number_type_and_value(i14, 1)
  m5: "Any" = module.get_submodule('bn')
  f16: "float 0.1" = m5.momentum
  check_number_type_and_value(f16, 0.1)
    # prims.check_number_type_and_value(f16, 0.1)
  i17: "bool True" = m5.training
  check_number_type_and_value(i17, True)
    # prims.check_number_type_and_value(i17, True)
  i18: "bool True" = m5.track_running_stats
  check_number_type_and_value(i18, True)
    # prims.check_number_type_and_value(i18, True)
  i19: "bool True" = m5.training
  check_number_type_and_value(i19, True)
    # prims.check_number_type_and_value(i19, True)
  i20: "int 8" = m5.num_features
  check_number_type_and_value(i20, 8)
    # prims.check_number_type_and_value(i20, 8)
  f21: "float 1e-05" = m5.eps
  check_number_type_and_value(f21, 1e-05)
    # prims.check_number_type_and_value(f21, 1e-05)
  f22: "float 0.1" = m5.momentum
  check_number_type_and_value(f22, 0.1)
    # prims.check_number_type_and_value(f22, 0.1)
  i23: "bool True" = m5.affine
  check_number_type_and_value(i23, True)
    # prims.check_number_type_and_value(i23, True)
  i24: "bool True" = m5.track_running_stats
  check_number_type_and_value(i24, True)
    # prims.check_number_type_and_value(i24, True)
  check_tensor_metadata(t_bn_weight, (8,), 'cpu', torch.float32, True)
    # prims.check_tensor_shape_and_metadata(t_bn_weight, (8,), 'cpu', torch.float32, True)
  check_tensor_metadata(t_bn_bias, (8,), 'cpu', torch.float32, True)
    # prims.check_tensor_shape_and_metadata(t_bn_bias, (8,), 'cpu', torch.float32, True)
  check_tensor_metadata(t_bn_running_mean, (8,), 'cpu', torch.float32, False)
    # prims.check_tensor_shape_and_metadata(t_bn_running_mean, (8,), 'cpu', torch.float32, False)
  check_tensor_metadata(t_bn_running_var, (8,), 'cpu', torch.float32, False)
    # prims.check_tensor_shape_and_metadata(t_bn_running_var, (8,), 'cpu', torch.float32, False)
  check_tensor_metadata(t_bn_num_batches_tracked, (), 'cpu', torch.int64, False)
    # prims.check_tensor_shape_and_metadata(t_bn_num_batches_tracked, (), 'cpu', torch.int64, False)
  f27: "float 1e-05" = m5.eps
  check_number_type_and_value(f27, 1e-05)
    # prims.check_number_type_and_value(f27, 1e-05)
  m6: "Any" = module.get_submodule('head')
  i80: "bool True" = m6.training
  check_number_type_and_value(i80, True)
    # prims.check_number_type_and_value(i80, True)
  i81: "int 8" = m6.in_features
  check_number_type_and_value(i81, 8)
    # prims.check_number_type_and_value(i81, 8)
  i82: "int 4" = m6.out_features
  check_number_type_and_value(i82, 4)
    # prims.check_number_type_and_value(i82, 4)
  check_tensor_metadata(t_head_weight, (4, 8), 'cpu', torch.float32, True)
    # prims.check_tensor_shape_and_metadata(t_head_weight, (4, 8), 'cpu', torch.float32, True)
  check_tensor_metadata(t_head_bias, (4,), 'cpu', torch.float32, True)
    # prims.check_tensor_shape_and_metadata(t_head_bias, (4,), 'cpu', torch.float32, True)
  cache_info: "Any" = thunder._get_cache_info()
  cache_info_default_dtype: "<class 'torch.dtype'>" = cache_info['default_dtype']
  check_literal_like(cache_info_default_dtype, torch.float32)
    # prims.check_literal_like(cache_info_default_dtype, torch.float32)
  cache_info_default_device: "<class 'torch.device'>" = cache_info['default_device']
  check_literal_like(cache_info_default_device, torch.device("cpu"))
    # prims.check_literal_like(cache_info_default_device, torch.device("cpu"))
  cache_info_is_autocast_enabled: "bool False" = cache_info['is_autocast_enabled']
  check_number_type_and_value(cache_info_is_autocast_enabled, False)
    # prims.check_number_type_and_value(cache_info_is_autocast_enabled, False)
  cache_info_alias_tensor_indices: "str" = cache_info['alias_tensor_indices']
  check_string_value(cache_info_alias_tensor_indices, '')
    # prims.check_string_value(cache_info_alias_tensor_indices, '')
  cache_info_is_grad_enabled: "bool True" = cache_info['is_grad_enabled']
  check_number_type_and_value(cache_info_is_grad_enabled, True)
    # prims.check_number_type_and_value(cache_info_is_grad_enabled, True)
  cache_info_no_grad_sync: "bool False" = cache_info['no_grad_sync']
  check_number_type_and_value(cache_info_no_grad_sync, False)
    # prims.check_number_type_and_value(cache_info_no_grad_sync, False)
  return ((x, t_bn_bias, t_bn_num_batches_tracked, t_bn_running_mean, t_bn_running_var, t_bn_weight, bias, weight, t_head_bias, t_head_weight), ())