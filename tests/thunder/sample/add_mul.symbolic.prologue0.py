import thunder
import thunder.core.prims as prims
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def prologue(*args, **kwargs):
  # args: "Any"
  prims.check_len(args, 2)
  # kwargs: "Any"
  prims.check_len(kwargs, 0)
  a: "cpu f32[[IntegerProxy name=i0, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=8, static=CONSTRAINT.CONSTRAINABLE]]" = args[0]
  b: "cpu f32[[IntegerProxy name=i2, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i3, value=8, static=CONSTRAINT.CONSTRAINABLE]]" = args[1]
  (i0, i1) = prims.shape(a)
  subscr0: "Any" = args[0]
  obj1: "Any" = subscr0.shape
  i0: "int 4" = obj1[0]
  i1: "int 8" = obj1[1]
  (i0, i1) = prims.shape(a)
  prims.check_tensor_shape_and_metadata(a, (i0, i1), 'cpu', torch.float32, False)
  (i2, i3) = prims.shape(b)
  subscr2: "Any" = args[1]
  obj3: "Any" = subscr2.shape
  i2: "int 4" = obj3[0]
  i3: "int 8" = obj3[1]
  (i2, i3) = prims.shape(b)
  prims.check_tensor_shape_and_metadata(b, (i2, i3), 'cpu', torch.float32, False)
  cache_info: "Any" = thunder._get_cache_info()
  cache_info_default_dtype: "<class 'torch.dtype'>" = cache_info['default_dtype']
  prims.check_literal_like(cache_info_default_dtype, torch.float32)
  cache_info_default_device: "<class 'torch.device'>" = cache_info['default_device']
  prims.check_literal_like(cache_info_default_device, torch.device("cpu"))
  cache_info_is_autocast_enabled: "bool False" = cache_info['is_autocast_enabled']
  prims.check_number_type_and_value(cache_info_is_autocast_enabled, False)
  cache_info_alias_tensor_indices: "str" = cache_info['alias_tensor_indices']
  prims.check_string_value(cache_info_alias_tensor_indices, '')
  cache_info_is_grad_enabled: "bool True" = cache_info['is_grad_enabled']
  prims.check_number_type_and_value(cache_info_is_grad_enabled, True)
  cache_info_no_grad_sync: "bool False" = cache_info['no_grad_sync']
  prims.check_number_type_and_value(cache_info_no_grad_sync, False)
  return ((a, b), ())