from . import cycle_a

B = 4
