"""Runs a printed trace (a Thunder-style Python program: prologue, computation, or for training the
augmented forward and backward) with CPython and PyTorch, independent of tracelint's C++.

Each ltorch symbol gets PyTorch's own function (torch, Tensor or torch.nn.functional) under the
signature Thunder's thunder/torch/__init__.py gives it, and each prim the definition of
thunder/core/prims.py as thunder/executors/torchex.py runs it. Nothing here reads tracelint's op
registry or calls its executor: a trace that is only right by tracelint's own semantics (a
`ltorch.view` of a tensor PyTorch cannot view) fails here as it would under Thunder.

    functions = load(text, function_obj=module)   # the trace's functions by name
    inputs, _ = functions["prologue"](*args)
    result = functions["computation"](*inputs)

An error raised while the trace runs names the line of the trace (TraceRunError).
"""
import builtins
import math
import operator
import sys
import traceback
import types

import torch
import torch.nn.functional as F

TRACE_FILENAME = "<printed trace>"

# Thunder's dtype names (thunder/core/dtypes.py) as torch dtypes.
THUNDER_DTYPES = {
    "float64": torch.float64, "float32": torch.float32, "float16": torch.float16,
    "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
    "int8": torch.int8, "uint8": torch.uint8, "bool8": torch.bool, "complex64": torch.complex64,
    "complex128": torch.complex128,
}
PYTHON_TYPE_DTYPES = {bool: torch.bool, int: torch.int64, float: torch.float32}


class TraceRunError(Exception):
    """The printed trace failed: the message names the trace's line and what PyTorch said."""


class CheckFailed(AssertionError):
    """A prologue check did not hold: the inputs are not what the trace was specialised for."""


def is_tensor(x):
    return isinstance(x, torch.Tensor)


def detached(value):
    """The value with each tensor in it detached (tuples, lists and dict values too)."""
    if isinstance(value, torch.Tensor):
        return value.detach()
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a namedtuple: by position
        return type(value)(*(detached(v) for v in value))
    if isinstance(value, (tuple, list)):
        return type(value)(detached(v) for v in value)
    if isinstance(value, dict):
        return {k: detached(v) for k, v in value.items()}
    return value


def as_tensor_like(x, other):
    """A number as a 0-dim tensor of the dtype PyTorch's promotion gives (x, other)."""
    if is_tensor(x):
        return x
    dtype = torch.result_type(other, x) if is_tensor(other) else None
    device = other.device if is_tensor(other) else None
    return torch.tensor(x, dtype=dtype, device=device)


def placed(device):
    """The device a trace names, where this machine runs it: a trace made for CUDA runs on the
    CPU of a machine without one, as tracelint's executor runs it (and says so)."""
    if device is None or torch.cuda.is_available():
        return device
    return torch.device("cpu") if torch.device(str(device)).type == "cuda" else device


def keywords(**given):
    """The keyword arguments that are not None: older PyTorch refuses some None defaults."""
    return {k: placed(v) if k == "device" else v for k, v in given.items() if v is not None}


def as_dims(dims):
    return [dims] if isinstance(dims, int) else list(dims)


# ---- prims: thunder/core/prims.py, run as thunder/executors/torchex.py runs them

def elementwise_unary(tensor_fn, number_fn):
    return lambda a: tensor_fn(a) if is_tensor(a) else number_fn(a)


def elementwise_binary(tensor_fn, number_fn):
    def apply(a, b):
        if is_tensor(a) or is_tensor(b):
            return tensor_fn(as_tensor_like(a, b), as_tensor_like(b, a))
        return number_fn(a, b)
    return apply


def number_div(a, b):
    # Thunder's prims.div: integers divide as C does (truncation), floats truly.
    if isinstance(a, (bool, int)) and isinstance(b, (bool, int)):
        quotient = abs(a) // abs(b)
        return quotient if (a >= 0) == (b >= 0) else -quotient
    return a / b


def tensor_div(a, b):
    if a.is_floating_point() or b.is_floating_point() or a.is_complex() or b.is_complex():
        return torch.true_divide(a, b)
    return torch.div(a, b, rounding_mode="trunc")


def bitwise_not_number(a):
    return not a if isinstance(a, bool) else ~a


def convert_element_type(a, dtype):
    if is_tensor(a):
        return a.to(PYTHON_TYPE_DTYPES.get(dtype, dtype))
    if isinstance(dtype, torch.dtype):
        return torch.tensor(a, dtype=dtype).item()
    return dtype(a)


def broadcast_in_dim(a, shape, broadcast_dimensions):
    # torchex's _broadcast_in_dim_prim_transform: unsqueeze the new dims, then expand.
    kept = list(shape)
    for dim in broadcast_dimensions:
        kept[dim] = -1
    v = a
    for idx, size in enumerate(kept):
        if size != -1:
            v = v.unsqueeze(idx)
    return v.expand(*shape)


def squeeze_dims(a, dims):
    for dim in sorted((d % a.dim() for d in as_dims(dims)), reverse=True):
        a = a.squeeze(dim)
    return a


def slice_prim(a, start_indices, end_indices, strides=None):
    strides = strides or [1] * len(start_indices)
    return a[tuple(slice(s, e, k) for s, e, k in zip(start_indices, end_indices, strides))]


def pad(a, padding_value, padding_config):
    # (low, high, interior) per dim, as lax.pad: interior elements between neighbours, then the
    # edges, a negative edge cropping.
    grown, placed = [], []
    for size, (low, high, interior) in zip(a.shape, padding_config):
        inner = size + max(size - 1, 0) * interior
        grown.append(max(low, 0) + inner + max(high, 0))
        placed.append(slice(max(low, 0), max(low, 0) + inner, interior + 1))
    out = torch.full(grown, padding_value, dtype=a.dtype, device=a.device)
    out[tuple(placed)] = a
    crop = tuple(slice(-low if low < 0 else 0, n + high if high < 0 else n)
                 for n, (low, high, _) in zip(grown, padding_config))
    return out[crop]


def stride_order(a, order):
    # A copy whose strides rank as `order` says (0: the densest dim), as torchex lays it out.
    densest_last = sorted(range(len(order)), key=lambda d: order[d], reverse=True)
    back = [densest_last.index(d) for d in range(len(order))]
    return a.permute(densest_last).contiguous().permute(back)


def reduce_over(torch_fn):
    # A prim reduction over no dims is the identity (torch would reduce over all of them).
    def apply(a, dims):
        dims = as_dims(dims)
        return a.clone() if not dims else torch_fn(a, dims)
    return apply


def prod_over(a, dims):
    for dim in sorted((d % a.dim() for d in dims), reverse=True):
        a = torch.prod(a, dim)
    return a


def iota(length, *, start, step, device, dtype):
    wide = torch.float64 if dtype.is_floating_point else torch.int64
    return (torch.arange(length, dtype=wide, device=placed(device)) * step + start).to(dtype)


def uniform(shape, minval, maxval, *, device, dtype):
    return torch.rand(shape, device=placed(device), dtype=dtype) * (maxval - minval) + minval


def copy_(copy_from, copy_to, *, grad_enabled=False):
    return copy_to.copy_(copy_from)


def copy_with_setitem(a, key, value):
    """Thunder's prims.copy_with_setitem (and ltorch.setitem): a copy with a[key] = value."""
    out = a.clone()
    out[key] = value
    return out


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def check_len(a, n):
    check(len(a) == n, f"expected {n} items, got {len(a)}")


def check_tensor_shape_and_metadata(t, shape, device, dtype, requires_grad):
    check(is_tensor(t), f"expected a tensor, got {type(t).__name__}")
    check(tuple(t.shape) == tuple(shape), f"expected shape {tuple(shape)}, got {tuple(t.shape)}")
    check(placed(torch.device(str(device))) == t.device, f"expected device {device}, got {t.device}")
    check(t.dtype == dtype, f"expected dtype {dtype}, got {t.dtype}")
    check(t.requires_grad == requires_grad,
          f"expected requires_grad={requires_grad}, got {t.requires_grad}")


def check_type(x, typ):
    check(type(x) is typ, f"expected a {typ.__name__}, got {type(x).__name__}")


def check_number_type_and_value(x, value):
    check(type(x) is type(value) and x == value, f"expected {value!r}, got {x!r}")


def check_literal_like(x, value):
    check(x == value, f"expected {value!r}, got {x!r}")


def check_none(x):
    check(x is None, f"expected None, got {x!r}")


def prims_namespace():
    unary = {
        "neg": (operator.neg, operator.neg), "abs": (torch.abs, abs), "exp": (torch.exp, math.exp),
        "log": (torch.log, math.log), "log1p": (torch.log1p, math.log1p),
        "expm1": (torch.expm1, math.expm1), "tanh": (torch.tanh, math.tanh), "rsqrt": (torch.rsqrt, lambda x: 1 / math.sqrt(x)),
        "sqrt": (torch.sqrt, math.sqrt), "sin": (torch.sin, math.sin), "cos": (torch.cos, math.cos),
        "erf": (torch.erf, math.erf), "floor": (torch.floor, math.floor),
        "ceil": (torch.ceil, math.ceil), "trunc": (torch.trunc, math.trunc),
        "signbit": (torch.signbit, lambda x: math.copysign(1, x) < 0),
        "reciprocal": (torch.reciprocal, lambda x: 1 / x),
        "bitwise_not": (torch.bitwise_not, bitwise_not_number),
        "isfinite": (torch.isfinite, math.isfinite),
    }
    binary = {
        "add": (torch.add, operator.add), "sub": (torch.sub, operator.sub),
        "mul": (torch.mul, operator.mul), "div": (tensor_div, number_div),
        "pow": (torch.pow, operator.pow), "fmod": (torch.fmod, math.fmod),
        "maximum": (torch.maximum, max), "minimum": (torch.minimum, min),
        "eq": (torch.eq, operator.eq), "ne": (torch.ne, operator.ne), "lt": (torch.lt, operator.lt),
        "le": (torch.le, operator.le), "gt": (torch.gt, operator.gt), "ge": (torch.ge, operator.ge),
        "bitwise_and": (torch.bitwise_and, operator.and_),
        "bitwise_or": (torch.bitwise_or, operator.or_),
        "bitwise_xor": (torch.bitwise_xor, operator.xor),
    }
    ns = {name: elementwise_unary(*fns) for name, fns in unary.items()}
    ns.update({name: elementwise_binary(*fns) for name, fns in binary.items()})
    ns.update(
        check_len=check_len, check_tensor_shape_and_metadata=check_tensor_shape_and_metadata,
        check_tensor_metadata=check_tensor_shape_and_metadata,
        assert_tensor_metadata=check_tensor_shape_and_metadata,
        check_type=check_type, check_number_type_and_value=check_number_type_and_value,
        check_literal_like=check_literal_like, check_none=check_none,
        shape=lambda a: tuple(a.shape),
        unpack_parameter=lambda module, name: module.get_parameter(name),
        unpack_buffer=lambda module, name: module.get_buffer(name),
        where=lambda pred, a, b: torch.where(pred, as_tensor_like(a, b), as_tensor_like(b, a)),
        convert_element_type=convert_element_type, broadcast_in_dim=broadcast_in_dim,
        reshape=lambda a, shape: torch.reshape(a, tuple(shape)),
        transpose=lambda a, permutation: torch.permute(a, tuple(permutation)),
        squeeze=squeeze_dims, slice_prim=slice_prim, pad=pad,
        cat=lambda tensors, dim: torch.cat(list(tensors), dim),
        flip=lambda a, dims: torch.flip(a, as_dims(dims)),
        stride_order=stride_order,
        sum=reduce_over(torch.sum), amax=reduce_over(torch.amax), amin=reduce_over(torch.amin),
        prod=reduce_over(prod_over),
        var=lambda a, dims, *, correction: torch.var(a, as_dims(dims), correction=correction),
        argmax=lambda a, dim: torch.argmax(a, dim), argmin=lambda a, dim: torch.argmin(a, dim),
        take=lambda a, index, dim: torch.index_select(a, dim, index),
        take_along_axis=lambda a, index, dim: torch.gather(a, dim, index),
        index_add=lambda a, index, value, dim: a.index_add(dim, index, value),
        scatter_add=lambda a, index, value, dim: a.scatter_add(dim, index, value),
        matmul=torch.matmul, linear=F.linear, convolution=convolution,
        full=lambda shape, fill_value, *, device, dtype: torch.full(
            tuple(shape), fill_value, device=placed(device), dtype=dtype),
        iota=iota,
        tensor_from_sequence=lambda seq, *, dtype, device: torch.tensor(
            seq, dtype=dtype, device=placed(device)),
        uniform=uniform, copy_=copy_, copy_with_setitem=copy_with_setitem,
    )
    return types.SimpleNamespace(**ns)


# ---- ltorch: thunder/torch/__init__.py's signatures, PyTorch's functions

def on_numbers_or_tensors(tensor_fn, number_fn):
    """A symbol that also takes numbers (Thunder's ltorch.add(2, 3) is 5)."""
    def apply(a, b):
        return tensor_fn(a, b) if is_tensor(a) or is_tensor(b) else number_fn(a, b)
    return apply


def add(a, b, *, alpha=1):
    # alpha=None: the traces of Thunder releases before 0.2 (their default)
    return a + b if alpha is None or alpha == 1 else torch.add(as_tensor_like(a, b), b, alpha=alpha)


def sub(a, b, *, alpha=1):
    return a - b if alpha is None or alpha == 1 else torch.sub(as_tensor_like(a, b), b, alpha=alpha)


def div(a, b, *, rounding_mode=None):
    if not (is_tensor(a) or is_tensor(b)):
        if rounding_mode == "floor":
            return a // b
        return math.trunc(a / b) if rounding_mode == "trunc" else a / b
    return torch.div(as_tensor_like(a, b), b, rounding_mode=rounding_mode)


def maximum(a, b):
    return torch.maximum(as_tensor_like(a, b), as_tensor_like(b, a))


def minimum(a, b):
    return torch.minimum(as_tensor_like(a, b), as_tensor_like(b, a))


def to(a, *args, device=None, dtype=None):
    return a.to(*args, **keywords(device=device, dtype=dtype))


def reduction(torch_fn):
    def apply(a, dim=None, keepdim=False, *, dtype=None):
        if dim is None:  # all dims; PyTorch 1.13's overload without a dim drops keepdim
            out = torch_fn(a, **keywords(dtype=dtype))
            return out.reshape([1] * a.dim()) if keepdim else out
        return torch_fn(a, dim, keepdim, **keywords(dtype=dtype))
    return apply


def prod(a, dim=None, keepdim=False, *, dtype=None):
    if dim is None:
        out = torch.prod(a, **keywords(dtype=dtype))
        return out.reshape([1] * a.dim()) if keepdim else out
    for d in sorted((d % max(a.dim(), 1) for d in as_dims(dim)), reverse=True):
        a = torch.prod(a, d, keepdim, **keywords(dtype=dtype))
    return a


def std(a, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if correction is None:
        correction = 0 if unbiased is False else 1
    return torch.std(a, dim, correction=correction, keepdim=keepdim)


def var(a, dim=None, unbiased=None, keepdim=False, *, correction=None):
    if correction is None:
        correction = 0 if unbiased is False else 1
    return torch.var(a, dim, correction=correction, keepdim=keepdim)


def arg_reduction(torch_fn):
    return lambda a, dim=None, keepdim=False: torch_fn(a, dim, keepdim)


def squeeze(a, dim=None):
    return a.squeeze() if dim is None else squeeze_dims(a, dim)


def shape_of(args):
    """ltorch.view(a, (2, 3)) and ltorch.view(a, 2, 3) both name the shape (2, 3)."""
    return tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else args


def reference_sdpa(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                   enable_gqa=False):
    # The reference implementation in torch.nn.functional.scaled_dot_product_attention's docs.
    L, S = query.size(-2), key.size(-2)
    scale_factor = 1 / math.sqrt(query.size(-1)) if scale is None else scale
    attn_bias = torch.zeros(L, S, dtype=query.dtype, device=query.device)
    if is_causal:
        temp_mask = torch.ones(L, S, dtype=torch.bool, device=query.device).tril(diagonal=0)
        attn_bias.masked_fill_(temp_mask.logical_not(), float("-inf"))
    if attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            attn_bias = attn_bias.masked_fill(attn_mask.logical_not(), float("-inf"))
        else:
            attn_bias = attn_mask + attn_bias
    if enable_gqa:
        key = key.repeat_interleave(query.size(-3) // key.size(-3), -3)
        value = value.repeat_interleave(query.size(-3) // value.size(-3), -3)
    attn_weight = query @ key.transpose(-2, -1) * scale_factor
    attn_weight = attn_weight + attn_bias
    attn_weight = torch.softmax(attn_weight, dim=-1)
    attn_weight = torch.dropout(attn_weight, dropout_p, train=True)
    return attn_weight @ value


def reference_rms_norm(input, normalized_shape, weight=None, eps=None):
    # torch.nn.functional.rms_norm as documented: x / sqrt(mean(x^2) + eps) * weight.
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    if (len(normalized_shape) > input.dim() or
            tuple(input.shape[input.dim() - len(normalized_shape):]) != tuple(normalized_shape)):
        # As PyTorch 2.x's rms_norm (and layer_norm) refuse it.
        raise RuntimeError(f"Given normalized_shape={list(normalized_shape)}, expected input with "
                           f"shape [*, {', '.join(map(str, normalized_shape))}], but got input of "
                           f"size{list(input.shape)}")
    dims = tuple(range(-len(normalized_shape), 0))
    out = input * torch.rsqrt(input.pow(2).mean(dims, keepdim=True) + eps)
    return out * weight if weight is not None else out


# Functions PyTorch 1.13 lacks, as PyTorch's documentation defines them: a trace that calls one
# runs on 1.13 with this definition (references_used says which), on 2.x with PyTorch's own.
DOCUMENTED_REFERENCES = {"scaled_dot_product_attention": reference_sdpa, "rms_norm": reference_rms_norm}


def references_used(text):
    """The symbols of the trace that run with DOCUMENTED_REFERENCES on this PyTorch."""
    return [name for name in DOCUMENTED_REFERENCES
            if not hasattr(F, name) and f"ltorch.{name}(" in text]


def pytorch_function(name):
    return getattr(F, name, None) or DOCUMENTED_REFERENCES[name]


def rms_norm(a, normalized_shape, weight=None, eps=None):
    return pytorch_function("rms_norm")(a, normalized_shape, weight, eps)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, *, scale=None, enable_gqa=False):
    # Only what differs from the defaults: older releases lack `scale` and `enable_gqa`.
    optional = keywords(scale=scale, enable_gqa=enable_gqa or None)
    return pytorch_function("scaled_dot_product_attention")(query, key, value, attn_mask,
                                                            dropout_p, is_causal, **optional)


def factory(torch_fn):
    def apply(*size, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
        return torch_fn(list(shape_of(size)), **keywords(dtype=dtype, device=device),
                        requires_grad=requires_grad)
    return apply


def like_factory(torch_fn):
    def apply(a, *args, dtype=None, layout=None, device=None, requires_grad=False,
              memory_format=None):
        return torch_fn(a, *args, **keywords(dtype=dtype, device=device),
                        requires_grad=requires_grad)
    return apply


def arange(start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    bounds = (start,) if end is None else (start, end, step)
    return torch.arange(*bounds, **keywords(dtype=dtype, device=device),
                        requires_grad=requires_grad)


def full(size, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False):
    return torch.full(tuple(size), fill_value, **keywords(dtype=dtype, device=device),
                      requires_grad=requires_grad)


def tensor(data, *, dtype=None, device=None, requires_grad=False):
    return torch.tensor(data, **keywords(dtype=dtype, device=device), requires_grad=requires_grad)


def convolution(a, weight, *rest):
    # The weight made contiguous: PyTorch 1.13 views it, which fails for a strided one (a
    # flipped transpose) when the batch is empty.
    return torch.convolution(a, weight.contiguous(), *rest)


def avg_pool1d(a, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    # Thunder's schema takes divisor_override and leaves it unused; PyTorch's has none.
    return F.avg_pool1d(a, kernel_size, stride, padding, ceil_mode, count_include_pad)


def ltorch_namespace():
    same = {
        "exp": torch.exp, "log": torch.log, "log1p": torch.log1p, "tanh": torch.tanh,
        "rsqrt": torch.rsqrt, "sqrt": torch.sqrt, "sin": torch.sin, "cos": torch.cos,
        "erf": torch.erf, "floor": torch.floor, "sigmoid": torch.sigmoid,
        "logical_not": torch.logical_not, "bitwise_not": operator.invert,
        "neg": operator.neg, "abs": abs, "clamp": torch.clamp, "masked_fill": torch.masked_fill,
        "type_as": torch.Tensor.type_as, "softmax": torch.softmax, "log_softmax": torch.log_softmax,
        "layer_norm": F.layer_norm, "group_norm": F.group_norm, "batch_norm": F.batch_norm,
        "instance_norm": F.instance_norm,
        "transpose": torch.transpose, "unsqueeze": torch.unsqueeze, "flatten": torch.flatten,
        "repeat_interleave": torch.repeat_interleave, "split": torch.split, "chunk": torch.chunk,
        "cat": torch.cat, "stack": torch.stack, "tril": torch.tril, "triu": torch.triu,
        "getitem": operator.getitem, "setitem": copy_with_setitem, "index_select": torch.index_select, "gather": torch.gather,
        "matmul": torch.matmul, "linear": F.linear, "outer": torch.outer,
        "embedding": F.embedding, "cross_entropy": F.cross_entropy, "nll_loss": F.nll_loss,
        "mse_loss": F.mse_loss, "dropout": F.dropout, "relu": F.relu, "silu": F.silu,
        "gelu": F.gelu, "softplus": F.softplus, "logsumexp": torch.logsumexp,
        "expm1": torch.expm1, "leaky_relu": F.leaky_relu, "elu": F.elu, "celu": F.celu,
        "selu": F.selu, "relu6": F.relu6, "hardtanh": F.hardtanh, "hardsigmoid": F.hardsigmoid,
        "hardswish": F.hardswish, "mish": F.mish, "softsign": F.softsign,
        "tanhshrink": F.tanhshrink, "logsigmoid": F.logsigmoid,
        "unbind": torch.unbind, "unfold": torch.Tensor.unfold, "bmm": torch.bmm, "pad": F.pad, "normalize": F.normalize,
        "convolution": convolution, "conv1d": F.conv1d, "conv2d": F.conv2d,
        "conv3d": F.conv3d, "conv_transpose1d": F.conv_transpose1d,
        "conv_transpose2d": F.conv_transpose2d, "conv_transpose3d": F.conv_transpose3d,
        "max_pool1d": F.max_pool1d, "max_pool2d": F.max_pool2d, "max_pool3d": F.max_pool3d,
        "avg_pool1d": avg_pool1d, "avg_pool2d": F.avg_pool2d, "avg_pool3d": F.avg_pool3d,
        "adaptive_avg_pool1d": F.adaptive_avg_pool1d,
        "adaptive_avg_pool2d": F.adaptive_avg_pool2d,
        "adaptive_max_pool1d": F.adaptive_max_pool1d,
        "adaptive_max_pool2d": F.adaptive_max_pool2d,
        "interpolate": F.interpolate, "pixel_shuffle": F.pixel_shuffle,
        "pixel_unshuffle": F.pixel_unshuffle,
    }
    operators = {
        "mul": operator.mul, "true_divide": operator.truediv, "floor_divide": operator.floordiv,
        "remainder": operator.mod, "pow": operator.pow, "eq": operator.eq, "ne": operator.ne,
        "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
        "bitwise_and": operator.and_, "bitwise_or": operator.or_,
    }
    ns = dict(same)
    ns.update(operators)
    ns.update(
        add=add, sub=sub, div=div, maximum=maximum, minimum=minimum,
        logical_and=on_numbers_or_tensors(
            lambda a, b: torch.logical_and(as_tensor_like(a, b), as_tensor_like(b, a)),
            lambda a, b: bool(a and b)),
        logical_or=on_numbers_or_tensors(
            lambda a, b: torch.logical_or(as_tensor_like(a, b), as_tensor_like(b, a)),
            lambda a, b: bool(a or b)),
        where=lambda pred, a, b: torch.where(pred, as_tensor_like(a, b), as_tensor_like(b, a)),
        contiguous=lambda a, *, memory_format=None: a.contiguous(
            **keywords(memory_format=memory_format)),
        to=to, sum=reduction(torch.sum), mean=reduction(torch.mean),
        amax=lambda a, dim=(), keepdim=False: torch.amax(a, dim, keepdim),
        amin=lambda a, dim=(), keepdim=False: torch.amin(a, dim, keepdim),
        prod=prod, var=var, std=std, argmax=arg_reduction(torch.argmax), argmin=arg_reduction(torch.argmin),
        rms_norm=rms_norm, scaled_dot_product_attention=scaled_dot_product_attention,
        reshape=lambda a, *shape: torch.reshape(a, shape_of(shape)),
        view=lambda a, *shape: a.view(shape_of(shape)),
        permute=lambda a, *dims: torch.permute(a, shape_of(dims)),
        expand=lambda a, *shape: a.expand(shape_of(shape)),
        repeat=lambda a, *repeats: a.repeat(shape_of(repeats)),
        squeeze=squeeze, flip=lambda a, *dims: torch.flip(a, shape_of(dims)),
        roll=lambda a, shifts, dims=None: torch.roll(a, shifts, () if dims is None else dims),
        arange=arange, full=full, zeros=factory(torch.zeros), ones=factory(torch.ones),
        empty=factory(torch.empty), full_like=like_factory(torch.full_like),
        zeros_like=like_factory(torch.zeros_like), ones_like=like_factory(torch.ones_like),
        tensor=tensor,
    )
    return types.SimpleNamespace(**ns)


# ---- the modules a printed trace imports

def no_autocast(fn):
    # thunder.executors.torchex.no_autocast: the trace runs with autocast off, as here.
    return fn


def thunder_modules():
    """The modules `import thunder...` gives a printed trace, by their dotted names."""
    def module(name, **attributes):
        m = types.ModuleType(name)
        m.__dict__.update(attributes)
        return m

    dtypes = module("thunder.core.dtypes", **THUNDER_DTYPES)
    devices = module("thunder.core.devices", Device=lambda name: placed(torch.device(name)))
    prims = module("thunder.core.prims", **vars(prims_namespace()))
    ltorch = module("thunder.torch", **vars(ltorch_namespace()))
    torchex = module("thunder.executors.torchex", no_autocast=no_autocast)
    executors = module("thunder.executors", torchex=torchex)
    core = module("thunder.core", dtypes=dtypes, devices=devices, prims=prims)
    thunder = module("thunder", core=core, torch=ltorch, executors=executors)
    return {"thunder": thunder, "thunder.core": core, "thunder.core.dtypes": dtypes,
            "thunder.core.devices": devices, "thunder.core.prims": prims, "thunder.torch": ltorch,
            "thunder.executors": executors, "thunder.executors.torchex": torchex}


def importer(modules):
    """An __import__ that gives the trace these modules and the real ones for the rest (torch)."""
    def trace_import(name, globals=None, locals=None, fromlist=(), level=0):
        if name in modules:
            if fromlist:
                return modules[name]
            return modules[name.split(".")[0]]
        return builtins.__import__(name, globals, locals, fromlist, level)
    return trace_import


def load(text, function_obj=None):
    """Executes the trace's definitions; returns its namespace (its functions by name), each
    function raising TraceRunError with the trace's line when it fails."""
    trace_builtins = dict(vars(builtins))
    trace_builtins["__import__"] = importer(thunder_modules())
    namespace = {"__builtins__": trace_builtins, "__name__": "printed_trace",
                 "__function_obj": function_obj}
    code = compile(text, TRACE_FILENAME, "exec")
    try:
        exec(code, namespace)
    except Exception as e:
        raise TraceRunError(where(text, e)) from e
    return {name: guarded(text, fn) for name, fn in namespace.items()
            if isinstance(fn, types.FunctionType)}


def where(text, error):
    """'line N: `the line`: ErrorType: message' for the innermost frame in the trace."""
    lines = text.splitlines()
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == TRACE_FILENAME]
    message = f"{type(error).__name__}: {error}".strip()
    if not frames:
        return message
    number = frames[-1].lineno
    line = lines[number - 1].strip() if 0 < number <= len(lines) else ""
    return f"line {number}: `{line}`: {message}"


def guarded(text, fn):
    def run(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TraceRunError:
            raise
        except Exception as e:
            raise TraceRunError(where(text, e)) from e
    run.__name__ = fn.__name__
    return run


if __name__ == "__main__":
    print(__doc__, file=sys.stderr)
    sys.exit(2)
