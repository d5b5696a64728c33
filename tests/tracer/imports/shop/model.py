import torch

import shop.config
from shop import cycle_a
from shop.layers import centered
from .config import Config, twice as double
from . import config as cfg
from .layers.norm import centered as centered_too


def forward(x):
    c = Config()
    y = double(x) * c.scale + cfg.twice(x) + shop.config.twice(x)
    return centered(y) + centered_too(y) + cycle_a.from_b()


def fails_inside(x):
    return cfg.broken(x)


if __name__ == "__main__":
    print(forward(torch.ones(2, 4)))
