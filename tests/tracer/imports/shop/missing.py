from .nowhere import thing


def f(x):
    return x
