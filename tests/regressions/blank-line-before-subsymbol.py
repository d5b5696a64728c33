def f(a):
  t0 = g(a)

    # t0 = h(a)
  return t0
