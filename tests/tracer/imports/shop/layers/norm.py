import torch

from ..config import twice


def centered(x):
    return twice(x - x.mean(-1, keepdim=True))
