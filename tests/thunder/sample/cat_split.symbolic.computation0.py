import thunder
import thunder.torch as ltorch
import torch
from thunder.executors.torchex import no_autocast

@torch.no_grad()
@no_autocast
def computation(a, b):
  # a: "cpu f32[[IntegerProxy name=i0, value=3, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=6, static=CONSTRAINT.CONSTRAINABLE]]"
  # b: "cpu f32[[IntegerProxy name=i2, value=3, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i3, value=6, static=CONSTRAINT.CONSTRAINABLE]]"

  # /work/main/tests/thunder/generate_traces.py:61: 	    ("cat_split", lambda a, b: torch.cat(torch.split(a + b, 2, dim=1)[::-1], dim=1),
  t18 = ltorch.add(a, b, alpha=1)  # t18: "cpu f32[[IntegerProxy name=i0, value=3, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=6, static=CONSTRAINT.CONSTRAINABLE]]"
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
    # t18 = prims.add(a, b)  # t18: "cpu f32[[IntegerProxy name=i0, value=3, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i1, value=6, static=CONSTRAINT.CONSTRAINABLE]]"
  [t42, t56, t75] = ltorch.split(t18, 2, 1)
    # (i0, i1) = prims.shape(t18)
    # i19 = prims.remainder(i1, 2)  # i19: "int 0"
    # (i0, i1) = prims.shape(t18)
    # i20 = prims.signbit(i1)  # i20: "bool False"
    # i21 = prims.ne(i20, False)  # i21: "bool False"
    # f22 = prims.fmod(i1, 2)  # f22: "float 0.0"
    # i23 = prims.convert_element_type(f22, int)  # i23: "int 0"
    # i24 = prims.ne(i23, 0)  # i24: "bool False"
    # i25 = prims.bitwise_and(i21, i24)  # i25: "bool False"
    # i26 = prims.div(i1, 2)  # i26: "int 3"
    # i27 = prims.convert_element_type(i25, int)  # i27: "int 0"
    # i28 = prims.sub(i26, i27)  # i28: "int 3"
    # (i0, i1) = prims.shape(t18)
    # i29 = prims.ge(i1, 0)  # i29: "bool True"
    # i30 = prims.ge(i1, 0)  # i30: "bool True"
    # i31 = prims.le(i1, 0)  # i31: "bool False"
    # i32 = prims.le(i1, 2)  # i32: "bool False"
    # (i0, i1) = prims.shape(t18)
    # t42 = prims.slice_prim(t18, [0, 0], [i0, 2], [1, 1])  # t42: "cpu f32[[IntegerProxy name=i39, value=3, static=CONSTRAINT.CONSTRAINABLE], 2]"
    # (i0, i1) = prims.shape(t18)
    # i43 = prims.ge(i1, 0)  # i43: "bool True"
    # i44 = prims.ge(i1, 0)  # i44: "bool True"
    # i45 = prims.le(i1, 2)  # i45: "bool False"
    # i46 = prims.le(i1, 4)  # i46: "bool False"
    # (i0, i1) = prims.shape(t18)
    # t56 = prims.slice_prim(t18, [0, 2], [i0, 4], [1, 1])  # t56: "cpu f32[[IntegerProxy name=i53, value=3, static=CONSTRAINT.CONSTRAINABLE], 2]"
    # (i0, i1) = prims.shape(t18)
    # i57 = prims.ge(i1, 0)  # i57: "bool True"
    # i58 = prims.ge(i1, 0)  # i58: "bool True"
    # i59 = prims.le(i1, 4)  # i59: "bool False"
    # i60 = prims.le(i1, 6)  # i60: "bool True"
    # (i0, i1) = prims.shape(t18)
    # t75 = prims.slice_prim(t18, [0, 4], [i0, i1], [1, 1])  # t75: "cpu f32[[IntegerProxy name=i67, value=3, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i74, value=2, static=CONSTRAINT.CONSTRAINABLE]]"
    # i76 = prims.gt(i19, 0)  # i76: "bool False"
  t83 = ltorch.cat([t75, t56, t42], 1)  # t83: "cpu f32[[IntegerProxy name=i67, value=3, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i82, value=6, static=CONSTRAINT.CONSTRAINABLE]]"
    # t83 = prims.cat([t75, t56, t42], 1)  # t83: "cpu f32[[IntegerProxy name=i67, value=3, static=CONSTRAINT.CONSTRAINABLE], [IntegerProxy name=i82, value=6, static=CONSTRAINT.CONSTRAINABLE]]"
  return (t83,)