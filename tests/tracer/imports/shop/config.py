from dataclasses import dataclass

from . import cycle_a


@dataclass
class Config:
    width: int = 4
    scale: float = 0.5


def twice(x):
    return x * 2


def broken(x):
    return x.no_such_method()
