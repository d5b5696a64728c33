import thunder
import thunder.torch as ltorch
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(a, b):
  # a: "cpu f32[[IntegerProxy name=i0, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=8, static=CONSTRAINT.CONSTRAINABLE]]"
  # b: "cpu f32[[IntegerProxy name=i2, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i3, value=8, static=CONSTRAINT.CONSTRAINABLE]]"

  # /work/main/tests/thunder/generate_traces.py:46: 	    ("add_mul", lambda a, b: a * b + a, args_of(floats(4, 8), floats(4, 8))),
  t18 = ltorch.mul(a, b)  # t18: "cpu f32[[IntegerProxy name=i0, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=8, static=CONSTRAINT.CONSTRAINABLE]]"
    # (i0, i1) = prims.shape(a)
    # (i0, i1) = prims.shape(a)
    # (i2, i3) = prims.shape(b)
    # (i2, i3) = prims.shape(b)
    # i4 = prims.eq(i1, 1)  # i4: "bool False"
    # i5 = prims.eq(i1, i1)  # i5: "bool True"
    # i6 = prims.eq(i0, 1)  # i6: "bool False"
    # i7 = prims.eq(i0, i0)  # i7: "bool True"
    # i8 = prims.eq(i1, 1)  # i8: "bool False"
    # i9 = prims.eq(i3, 1)  # i9: "bool False"
    # i10 = prims.eq(i1, i3)  # i10: "bool True"
    # i11 = prims.eq(i0, 1)  # i11: "bool False"
    # i12 = prims.eq(i2, 1)  # i12: "bool False"
    # i13 = prims.eq(i0, i2)  # i13: "bool True"
    # (i0, i1) = prims.shape(a)
    # (i0, i1) = prims.shape(a)
    # (i2, i3) = prims.shape(b)
    # (i2, i3) = prims.shape(b)
    # i14 = prims.eq(i2, i0)  # i14: "bool True"
    # i15 = prims.eq(i3, i1)  # i15: "bool True"
    # t18 = prims.mul(a, b)  # t18: "cpu f32[[IntegerProxy name=i0, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=8, static=CONSTRAINT.CONSTRAINABLE]]"
  t29 = ltorch.add(t18, a, alpha=1)  # t29: "cpu f32[[IntegerProxy name=i0, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=8, static=CONSTRAINT.CONSTRAINABLE]]"
    # (i0, i1) = prims.shape(t18)
    # (i0, i1) = prims.shape(t18)
    # (i0, i1) = prims.shape(a)
    # (i0, i1) = prims.shape(a)
    # i19 = prims.eq(i1, 1)  # i19: "bool False"
    # i20 = prims.eq(i1, i1)  # i20: "bool True"
    # i21 = prims.eq(i0, 1)  # i21: "bool False"
    # i22 = prims.eq(i0, i0)  # i22: "bool True"
    # i23 = prims.eq(i1, 1)  # i23: "bool False"
    # i24 = prims.eq(i1, 1)  # i24: "bool False"
    # i25 = prims.eq(i1, i1)  # i25: "bool True"
    # i26 = prims.eq(i0, 1)  # i26: "bool False"
    # i27 = prims.eq(i0, 1)  # i27: "bool False"
    # i28 = prims.eq(i0, i0)  # i28: "bool True"
    # (i0, i1) = prims.shape(t18)
    # (i0, i1) = prims.shape(t18)
    # (i0, i1) = prims.shape(a)
    # (i0, i1) = prims.shape(a)
    # t29 = prims.add(t18, a)  # t29: "cpu f32[[IntegerProxy name=i0, value=4, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=8, static=CONSTRAINT.CONSTRAINABLE]]"
  return (t29,)