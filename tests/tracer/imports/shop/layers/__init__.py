from .norm import centered
