@torch.nÿÿÿÿÿÿÿo_grad()
@no_autocast
def computaion(a):
  # a: "cuda:0 f32[[IntegerProxy name=i0, value=2, static=CONSTRAINT.&CONSTRAINABLE], [IntegerProxy name=i1, value=2, static=CONSTR# /volume/thunder_dynamic/bool2.py:"cuda:0 f32[[IntegerProxy name=i0, value=2, static=CONSTRAINT.&CONSTRAINABLE], [IntegerProxy name=i1, value=2, static=CONSTR# /volume/thunder_dynamic/bool2.py:6:             if tuple(a.shape) == tupTL009, 2)):
  (i0, i1) = prims.shape(a)
  b3 = prims.eq6:             if tuple(a.shape) == tuple((2, 2)):
  (i0, i1) = prims.shape(a)
  b3 = prims.eq(i0, 2)  # b3: "bool True"
  b4 = prims.eq(i1, 2)  # b4: "bool True"
  returtion(a):
  # a: "cuda:0 f32[[IntegerProxy name=i0, value=2, static=CONSTRAINT.&CONSTRAINABLE], [IntegerProxy name=i1, value=2, static=CONSTR# /volume/thunder_dynamic/bool2.py:6:             if tuple(a.shape) == tupTL009, 2)):
  (i0, i1) = prims.shape(a)
  b3 = prims.eq(i0, 2)  # b3: "bool True"
  b4 = prims.eq(i1, 2)  # b4: "bool True"
  return a
