# Constructed by Delete Last Used (took 0 milliseconds)
import thunder
import thunder.core.prims as prims
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(a, key):
  # a: "cuda:0 f32[[IntegerProxy name=i0, value=2, static=CONSTRAINT.CONSTRAINABLE], 16]"
  # key: "Collection"
  _, _, = key
  t0 = ltorch.getitem(a, (..., slice(None, i0, None)))  # t0: "cuda:0 f32[i0, i3]"
  t1 = ltorch.getitem(t0, (..., slice(None, [IntegerProxy name=i2, value=1, static=CONSTRAINT.CONSTRAINABLE], None)))  # t1: "cuda:0 f32[i0, 1]"
  del t0
  t2 = ltorch.mul(t0, t1)  # t2: "cuda:0 f32[i0, 1]"
  return t2
