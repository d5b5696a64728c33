name = "lora"

from .layers import *
from .utils import *