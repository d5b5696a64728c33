# cycle_a imports cycle_b, which imports cycle_a back: it meets cycle_a partly run, as CPython.
from . import cycle_b

A = 3


def from_b():
    return cycle_b.B + A
