# Constructed by Delete Last Used (took 0 milliseconds)
import thunder
import thunder.core.prims as prims
import thunder.torch as ltorch
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(a, key):
  # a: "cuda:0 f32[i0, 16]"
  # key: "Collection"
  _, C0, = key
  _, i2, _, = C0
  (i0, _) = prims.shape(a)
  t0 = ltorch.getitem(a, (..., slice(None, i0, None)))  # t0: "cuda:0 f32[i0, 16]"
  t1 = ltorch.getitem(t0, (..., slice(None, i2, None)))  # t1: "cuda:0 f32[i0, i2]"
  t2 = ltorch.mul(t0, t1)  # t2: "cuda:0 f32[i0, i2]"
  del t0
  return t2
