# Copyright Lightning AI. Licensed under the Apache License 2.0, see LICENSE file.

from lit_llama.model import LLaMAConfig, LLaMA, RMSNorm, build_rope_cache, apply_rope
from lit_llama.tokenizer import Tokenizer
