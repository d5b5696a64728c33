# The tracer's vocabulary, one small function per op or Python construct: traced at both levels,
# validated, run by libtorch, and compared with CPython running this file (tests/test_oracle.cpp).
import collections
import contextlib
import copy
import enum
import functools
import math
from collections import OrderedDict, defaultdict, namedtuple
from dataclasses import dataclass, field, replace
from typing import NamedTuple, Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- elementwise and activations

def more_activations(x):
    # Each with its defaults and with its parameters given (a slope of 0, alpha 2 and 0.5, a
    # hardtanh range not around 0); the inputs scaled to reach each function's bends.
    w = x * 4
    return (F.leaky_relu(x), F.leaky_relu(x, 0.2), F.leaky_relu(x, negative_slope=0.0),
            F.elu(x), F.elu(x, alpha=0.5), F.celu(x, 2.0), torch.celu(x), F.selu(x),
            torch.selu(x), F.relu6(w), F.hardtanh(x), F.hardtanh(w, -0.5, 2.0),
            F.hardsigmoid(w), F.hardswish(w), F.mish(w), F.softsign(x), F.tanhshrink(x),
            F.logsigmoid(x * 30), torch.expm1(x), x.expm1(), torch.special.expm1(x * 1e-3))


def gelu_none(x):
    return F.gelu(x)


def gelu_tanh(x):
    # The approximation must reach the trace: ltorch.gelu(x, approximate='tanh').
    return F.gelu(x, approximate="tanh")


def activations(x):
    return F.silu(x) + torch.relu(x) - torch.sigmoid(x) * torch.tanh(x)


def arithmetic(x, y):
    return (x + y) * 2 - y / 3 + x ** 2 - 1.5 / (y.abs() + 1) + (-x) % 3 + x // 2


def arithmetic_differentiable(x, y):
    # arithmetic without floor division, which PyTorch 1.13's autograd cannot differentiate.
    return (x + y) * 2 - y / 3 + x ** 2 - 1.5 / (y.abs() + 1) + (-x) % 3 + y.abs() ** 1.5 - x * y


def more_pointwise(x, y):
    return (torch.erf(x), torch.floor(x * 3), torch.minimum(x, y), torch.div(x, y.abs() + 1),
            torch.div(x * 7, 2, rounding_mode="floor"), x.div(0.5, rounding_mode="trunc"),
            torch.logical_and(x > 0, y > 0), (x < 0).logical_or(y > 0.5))


def comparisons(x, y):
    return (x > y) & (x >= 0) | (y < 0.5), x == y, x != y, x <= y


def pointwise(x):
    return torch.exp(x) + torch.rsqrt(x.abs() + 1) + torch.sqrt(x.abs()) + x.sin() + x.cos() + torch.log1p(x.abs())


def clamp_min_max(x):
    return x.clamp(-0.5, 0.5) + torch.clamp(x, min=0.0) + torch.maximum(x, torch.zeros_like(x))


def where_and_masked_fill(x, y):
    mask = x > 0
    return torch.where(mask, x, y), x.masked_fill(mask, float("-inf")), y.masked_fill(~mask, 0.0)


def dtype_conversions(x, idx):
    h = x.to(torch.float16)
    return h.float() + 1, x.half().float(), idx.type_as(x) * x, x.to(dtype=torch.float64), idx.float().long()


def splat_first_in_displays(x):
    # tree-sitter-python reads a splat that begins a display as the callee, object or base of
    # what follows it, (*range)(3): Python calls, looks up and subscripts first.
    a = [*range(3)]
    b = sorted({*range(4)})
    c = [*x.shape]
    d = [*[[7, 8]][0], 9]
    e = [*dict(k=1, j=2).keys()]
    return x * len(a) + sum(b) + c[0] + d[1] + len(e)


def every_conversion_method(x):
    # One Tensor method per dtype of the dtype table that the executor runs; values in [0, 125],
    # which every one of them holds.
    y = x.abs().clamp(max=2.5) * 50
    return (y.float(), y.half(), y.bfloat16(), y.double(), y.long(), y.int(), y.short(), y.char(),
            y.byte(), y.bool())


# ---- reductions and normalisations

def reductions(x):
    return x.sum(), x.sum(dim=-1), x.mean(1, keepdim=True), x.amax(0), torch.amax(x, dim=(0, 1)), x.argmax(-1)


def more_reductions(x):
    return (x.amin(1), torch.amin(x, dim=(0, 2), keepdim=True), x.argmin(-1), torch.argmin(x),
            x.prod(1), torch.prod(x), x.var(1), torch.var(x, dim=(0, 1), unbiased=False),
            x.var(-1, keepdim=True, correction=0))


def softmaxes(x):
    return F.softmax(x, dim=-1), torch.log_softmax(x, -1), x.softmax(0)


def layer_norm(x, w, b):
    return F.layer_norm(x, (x.shape[-1],), w, b, 1e-5)


def layer_norm_without_affine(x):
    return F.layer_norm(x, x.shape[-2:])


def functional_rms_norm(x, weight):
    return F.rms_norm(x, (x.shape[-1],), weight, 1e-6), F.rms_norm(x, x.shape[-1:])


def rms_norm(x, weight, eps=1e-6):
    variance = x.pow(2).mean(-1, keepdim=True)
    return weight * (x * torch.rsqrt(variance + eps))


# ---- shapes

def views(x):
    B, T, C = x.size()
    y = x.view(B, T, 2, C // 2).transpose(1, 2)
    z = y.transpose(1, 2).contiguous().view(B, T, C)
    return z, x.reshape(-1), x.view(*x.shape[:-1], 2, -1), x.permute(2, 0, 1)


def transpose_contiguous_view(x):
    # nanoGPT's attention output: laid out as (B, heads, T, head size), transposed, made
    # contiguous, viewed. PyTorch's view refuses the transposed layout, so a printed trace
    # without the contiguous fails when PyTorch runs it.
    B, T, C = x.size()
    y = x.view(B, 2, T, C // 2) * 2
    return y.transpose(1, 2).contiguous().view(B, T, C)


def squeeze_flatten(x):
    u = x.unsqueeze(0)
    return u.squeeze(0), u.squeeze(), x.flatten(), x.flatten(1), torch.flatten(x, 0, 1)


def expand_repeat(x):
    return x[:, None].expand(-1, 3, -1), x.repeat(2, 1), x.repeat_interleave(2, dim=0), x.unsqueeze(1).expand(4, 2, 6)


def transposes(x):
    return x.T, x.mT, x.transpose(0, 1)


def split_chunk(x):
    a, b, c = x.split(2, dim=1)
    d, e = torch.chunk(x, 2, -1)
    f, g = x.split([1, 5], dim=1)
    return a + b * c, d - e, f.sum() + g.sum()


def cat_stack(x, y):
    return torch.cat((x, y), dim=0), torch.cat([x, y], -1), torch.stack([x, y], dim=1), torch.stack((x, y))


def rolls(x):
    return torch.roll(x, 1), x.roll((1, -2), (0, 1)), torch.roll(x, shifts=-5, dims=-1), x.roll(3, 0) * 2


def flips_and_outer(x, v):
    return torch.flip(x, (0,)), x.flip(0, 1), torch.outer(v, v), v.outer(v[:2]), x.contiguous()


def triangles(x):
    return torch.tril(x), torch.triu(x, diagonal=1), x.tril(-1)


# ---- indexing

def slicing(x):
    return x[..., : x.shape[-1] // 2], x[1:, ::2], x[:, -1], x[None, 0]


def int_list_index(x):
    # nanoGPT's x[:, [-1], :] keeps the dim.
    return x[:, [-1], :], x[[0, 2]], x[:, [0, -1]]


def index_select_gather(x, idx):
    return torch.index_select(x, 1, idx), x.index_select(0, idx), torch.gather(x, 1, idx.unsqueeze(0).expand(x.shape[0], -1))


def symbolic_index(x, i):
    # i is a proxy: its bounds are guarded, so a later call with i out of range fails the prologue.
    return x[i]


def item_assignment(x, v, i):
    # x[key] = value is ltorch.setitem (Thunder's functional form), then the tensor updated.
    y = x * 1.0
    y[0] = v
    y[1:, :2] = 0.5
    y[..., -1] += v[0]
    y[:, None, 1] *= 2
    y[[0, 2]] = v * 3
    y[i, 1:] = v[1:]
    return y


def item_assignment_mask(x, w):
    # A boolean mask keeps the shape: one value, or one per trailing position.
    y = x + 0
    y[y > 0.5] = 0.0
    y[x < -0.5] = w.sum()
    y[x[:, 0] > 0] = w
    return y


# ---- matrix products and nn.functional

def matmuls(a, b, v):
    return a @ b, torch.matmul(a, b), F.linear(a, b.T), F.linear(a, b.T, v), (a @ b) @ v


def embedding(idx, weight):
    return F.embedding(idx, weight)


def cross_entropy(logits, target):
    return F.cross_entropy(logits, target), F.cross_entropy(logits, target, ignore_index=2), F.cross_entropy(logits, target, reduction="sum")


def cross_entropy_ignore_minus_one(logits, target):
    return F.cross_entropy(logits.view(-1, logits.size(-1)), target.view(-1), ignore_index=-1)


def losses(x, y):
    return F.mse_loss(x, y), F.mse_loss(x, y, reduction="sum"), F.mse_loss(x, y, reduction="none")


def nll_losses(logits, target):
    logp = F.log_softmax(logits, dim=-1)
    return F.nll_loss(logp, target), F.nll_loss(logp, target, reduction="sum", ignore_index=1)


def dropout_all(x):
    # p = 1 in training drops everything, without drawing: what CPython computes is certain. (The
    # tracer refuses 0 < p < 1 in training: random draws cannot be compared with eager.)
    return F.dropout(x, p=1.0, training=True) + x


def empty_of_no_elements(x):
    # torch.empty's values are undefined: with no elements there are none to differ.
    return torch.cat([torch.empty(0, x.shape[1]), x]), torch.empty(2, 0).sum(-1)


def dropout_off(x):
    return F.dropout(x, p=0.0), F.dropout(x, 0.5, training=False)


def sdpa_causal(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def sdpa_masks(q, k, v):
    L, S = q.shape[-2], k.shape[-2]
    keep = torch.ones(L, S, dtype=torch.bool).tril()
    bias = torch.zeros(L, S).masked_fill(~keep, float("-inf"))
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep), F.scaled_dot_product_attention(q, k, v, attn_mask=bias, scale=0.3)


def attention_by_hand(q, k, v):
    T = q.size(-2)
    mask = torch.tril(torch.ones(T, T)).view(1, 1, T, T)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    att = att.masked_fill(mask[:, :, :T, :T] == 0, float("-inf"))
    return F.softmax(att, dim=-1) @ v


# ---- factories

def factories(x):
    n = x.shape[-1]
    return (x + torch.arange(n), torch.arange(0, n, 2) * 1.0, torch.ones(2, n) * x[0], torch.zeros(n),
            torch.full((2, n), 2.5), torch.ones_like(x), torch.zeros_like(x, dtype=torch.int64), torch.full_like(x, 7.0))


def tensor_from_numbers(x):
    return x * torch.tensor([1.0, 2.0, 3.0]), torch.tensor([[1, 2], [3, 4]])


# ---- Python constructs around the ops

def maybe_mask(x, mask=None):
    if mask is None:
        return x * 2
    return x.masked_fill(mask, 0.0)


def isinstance_checks(x, n):
    assert isinstance(x, torch.Tensor), f"expected a tensor, got {type(x)}"
    if not isinstance(n, int):
        raise TypeError(f"n must be an int, not {n!r}")
    if isinstance(n, bool):
        raise ValueError("unreachable")
    return x * n


def comprehensions(x):
    parts = [x * i for i in range(3)]
    scales = {name: s for name, s in zip(("a", "b"), (0.5, 2.0))}
    return sum(parts) + scales["a"] * x, tuple(p.sum() for p in parts if p is not None)


def math_module(x):
    return x * math.sqrt(x.shape[-1]) + math.pi - math.log(2.0) + math.exp(1.0) * math.floor(2.7)


def number_math(x, n):
    # Symbolic numbers (the cache's IntegerProxies): math.ceil and ^ on them are number prims.
    k = math.ceil(x.shape[-1] / 3)
    return x * k + (n ^ 1), x.shape[0] ^ n


def strings_and_formatting(x, name="layer"):
    key = f"{name}.weight"
    if key.endswith(".weight") and "%s" % name == "layer":
        return x + len(key.split("."))
    raise RuntimeError(f"unexpected key {key}")


def closures_and_lambdas(x):
    scale = 2.0

    def inner(y):
        return y * scale

    count = 0

    def bump():
        nonlocal count
        count += 1
        return count

    bump()
    bump()
    shift = lambda t, k=3: t + k  # noqa: E731
    doubled = list(map(lambda t: t * 2, [x, x]))
    return inner(x) + count, shift(x), doubled[1]


class Base:
    def __init__(self, k):
        self._k = k

    @property
    def k(self):
        return self._k

    def f(self, x):
        return x * self.k


class Left(Base):
    def f(self, x):
        return super().f(x) + 1


class Right(Base):
    def f(self, x):
        return super().f(x) * 2


class Diamond(Left, Right):
    @staticmethod
    def label():
        return "diamond"

    @classmethod
    def make(cls, k):
        return cls(k)

    def f(self, x):
        return super().f(x) - 3


def classes_and_mro(x):
    # C3 puts Right between Left and Base: ((x * 3) * 2 + 1) - 3; depth-first would skip Right.
    d = Diamond.make(3)
    return d.f(x), d.k, Diamond.label() == "diamond", isinstance(d, Right)


def exceptions(x, n):
    log = []
    try:
        if n > 2:
            raise ValueError("big")
        y = x
    except ValueError as e:
        y = x * 2
        log.append(str(e))
    finally:
        log.append("done")
    try:
        z = x + 1
    finally:
        z = z * 3
    return y + z, len(log)


def star_args(x, *rest, scale=1.0, **options):
    total = x
    for r in rest:
        total = total + r
    return total * scale + options.get("shift", 0.0)


def calls_with_star_args(x, y):
    pair = (y, y)
    return (star_args(x, *pair, scale=2.0, shift=0.5), star_args(x),
            star_args(*[x, y], **{"scale": 3.0}))


class Countdown:
    # An iterator of its own: __iter__ returns self, __next__ raises StopIteration after 3.
    def __init__(self, n=3):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return self.n


class Squares:
    # Only __getitem__: iterated as CPython does, index by index until IndexError.
    def __getitem__(self, i):
        if i >= 3:
            raise IndexError(i)
        return i * i


def iterator_protocol(x):
    total = 0
    for v in Countdown():
        total += v
    a, b, c = Countdown()
    pairs = list(zip(Countdown(), Squares()))
    return (x * len(list(Countdown())) + total + sum(Countdown()) + max(Countdown()),
            a - c, pairs[1][1], 1 in Countdown(), 5 in Countdown(), list(Squares()),
            torch.stack([x * i for i in Squares()]), max(*Countdown()))


def self_referential(x):
    l = []
    l.append(l)
    d = {}
    d["a"] = d
    m = [1]
    m.append(m)
    try:
        hash((l,))
        unhashable = False
    except TypeError:
        unhashable = True
    return x * len(str(l)) + len(repr(d)), str(l), repr(d), l == l, unhashable, str(m)


def deeply_nested(x):
    # Deeper than CPython's recursion limit: repr and == raise RecursionError there, as here.
    l = []
    for _ in range(5000):
        l = [l]
    m = []
    for _ in range(5000):
        m = [m]
    errors = 0
    for attempt in (lambda: repr(l), lambda: l == m):
        try:
            attempt()
        except RecursionError:
            errors += 1
    return x + errors


def in_place_alias(x, y):
    # z aliases x: the update changes x, which the function returns (and the caller sees).
    z = x
    z += y
    return x


def in_place_methods(x, y):
    t = x.clone()
    t.mul_(2).add_(y)
    return t, x


@dataclass
class Scale:
    factor: float = 2.0
    shift: float = 0.5
    dims: list = field(default_factory=lambda: [0, 1])


def dataclass_config(x, factor=3.0):
    config = Scale(factor=factor)
    return x * config.factor + config.shift, x.sum(dim=tuple(config.dims))


# ---- modules

class TinyMLP(nn.Module):
    def __init__(self, width, hidden, bias=True):
        super().__init__()
        self.up = nn.Linear(width, hidden, bias=bias)
        self.act = nn.GELU(approximate="tanh")
        self.down = nn.Linear(hidden, width, bias=bias)
        self.norm = nn.LayerNorm(width)
        self.drop = nn.Dropout(0.1)
        self.register_buffer("scale", torch.full((width,), 0.5))

    def forward(self, x):
        return self.norm(x + self.drop(self.down(self.act(self.up(x))))) * self.scale


class Activations(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)
        self.layers = nn.Sequential(
            nn.LeakyReLU(0.1, inplace=True), nn.ELU(), nn.CELU(0.5), nn.SELU(), nn.Hardtanh(-2.0, 2.0),
            nn.ReLU6(inplace=True), nn.Hardsigmoid(), nn.Hardswish(), nn.Mish(), nn.Softplus(beta=2.0),
            nn.Softsign(), nn.Tanhshrink(), nn.LogSigmoid(), nn.Flatten())

    def forward(self, x):
        # The in-place layers run on the projection's output, as in a CNN block.
        return self.layers(self.proj(x) * 3)


def group_norms(x, w, b):
    # Groups of several channels, one group, a group per channel, no affine, and a 2-D input.
    return (F.group_norm(x, 3, w, b), F.group_norm(x, 1), F.group_norm(x, 6, w, eps=1e-3),
            torch.group_norm(x[:, :4], 2), F.group_norm(x.flatten(1).view(2, 6, -1).sum(-1), 2, w, b))


def batch_norms(x, w, b):
    # Evaluation mode with running statistics (with and without weight and bias), training mode
    # on the batch's own, and a 2-D input. The running statistics are made here: they take no
    # gradient in PyTorch.
    mean = torch.arange(4) / 4 - 0.5
    var = torch.arange(4) + 0.5
    return (F.batch_norm(x, mean, var, w, b), F.batch_norm(x, mean, var, eps=1e-3),
            F.batch_norm(x, None, None, w, b, training=True),
            F.batch_norm(x.sum((2, 3)), mean, var, w, None))


class BatchNormed(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.norm = nn.BatchNorm2d(channels)
        self.plain = nn.BatchNorm1d(channels, affine=False)
        self.batch = nn.BatchNorm2d(channels, track_running_stats=False)

    def forward(self, x):
        return self.plain(self.batch(self.norm(x) * 2).sum(-1))


def convolutions(x, w, b, depthwise, x1, w1):
    # 2-D: with a bias; stride over the (dilated) kernel with padding; groups = channels
    # (depthwise) with per-dim strides; padding 'same' with an even kernel; 'valid' on an
    # unbatched input. 1-D: 'same' under dilation with groups, and a stride of 3.
    return (F.conv2d(x, w, b), F.conv2d(x, w, None, stride=4, padding=1, dilation=2),
            F.conv2d(x, depthwise, groups=4, stride=(1, 2)), F.conv2d(x, w, b, padding="same"),
            torch.conv2d(x[0], w, padding="valid"), F.conv1d(x1, w1, None, 1, "same", 2, 2),
            F.conv1d(x1, w1, stride=3, groups=2))


def transposed_convolutions(v, w3, x, wt, b, y, wt1, wt3):
    # 3-D with per-dim strides and padding; transposed 2-D with stride, padding and
    # output_padding, with groups and dilation, unbatched; transposed 1-D with a padding past
    # the kernel's overhang (the spread input cropped); torch.convolution; transposed 3-D with
    # groups.
    return (F.conv3d(v, w3, stride=(1, 2, 1), padding=(1, 0, 1)),
            F.conv_transpose2d(x, wt, b, stride=2, padding=1, output_padding=1),
            F.conv_transpose2d(x, wt, stride=3, padding=2, groups=2, dilation=2),
            F.conv_transpose2d(x[1], wt, None, (2, 1)),
            F.conv_transpose1d(y, wt1, stride=3, padding=4),
            torch.convolution(v, w3, None, [1], [0, 1, 0], [1], False, [0], 1),
            F.conv_transpose3d(v, wt3, None, (1, 2, 1), (0, 1, 0), groups=2))


def transposed_torch_convolution(x, w, b):
    # torch.convolution's transposed form (Thunder's ltorch.convolution refuses it).
    return torch.convolution(x, w, b, [2, 2], [1, 1], [1, 1], True, [1, 0], 1)


def empty_batch_convolutions(x, w, wt):
    # A batch of none: the shapes follow, the weights' gradients are zeros.
    return F.conv2d(x, w, stride=2), F.conv_transpose2d(x, wt, padding=1)


class ConvNet(nn.Module):
    # The convolution modules: int and 'same' padding, groups, no bias, a transposed one given
    # output_size, 1-D and 3-D.
    def __init__(self, channels):
        super().__init__()
        self.stem = nn.Conv2d(channels, 8, 3, padding=1)
        self.depthwise = nn.Conv2d(8, 8, 3, stride=2, padding=1, groups=8, bias=False)
        self.same = nn.Conv2d(8, 8, 4, padding="same", dilation=2)
        self.up = nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1)
        self.line = nn.Conv1d(channels, 6, 3, stride=2)
        self.up1 = nn.ConvTranspose1d(6, 3, 2, stride=2, groups=3)
        self.volume = nn.Conv3d(1, 2, (2, 3, 3), padding=(0, 1, 1))

    def forward(self, x):
        y = self.same(self.depthwise(F.relu(self.stem(x))))
        y = self.up(y, output_size=x.shape[2:])
        return y, self.up1(self.line(x.flatten(2))), self.volume(x.unsqueeze(1))


def unfolds(x):
    # Windows overlapping (step < size), apart (step > size), the whole dim, a negative dim,
    # ViT-style patches (two unfolds), and a 0-d tensor.
    return (x.unfold(1, 2, 1), x.unfold(-1, 3, 2), x.unfold(2, 2, 3), x.unfold(0, x.shape[0], 1),
            x.unfold(2, 2, 2).unfold(3, 2, 2).permute(0, 2, 3, 1, 4, 5).contiguous().view(x.shape[0], 6, -1),
            x.sum().unfold(0, 1, 1))


def border_pads(x, s, v):
    # F.pad's reflect, replicate and circular modes: 1, 2 and 3 padded dims, batched and not,
    # uneven sides, a side of 0, padding up to the size (reflect: one less).
    return (F.pad(s, (2, 1), mode="reflect"), F.pad(x, (1, 2, 3, 0), "reflect"), F.pad(x[0], (3, 3, 1, 1), "reflect"),
            F.pad(v, (1, 1, 1, 0, 1, 1), "reflect"), F.pad(s, (3, 0), "replicate"),
            F.pad(x, (0, 2, 2, 1), mode="replicate"), F.pad(v, (1, 0, 0, 1, 2, 1), "replicate"),
            F.pad(s, (5, 2), "circular"), F.pad(x, (1, 6, 0, 2), "circular"), F.pad(v, (1, 1, 2, 0, 0, 1), "circular"))


class Padded(nn.Module):
    # The padding modules PyTorch 1.13 has: an int for every side or a tuple each.
    def __init__(self):
        super().__init__()
        self.reflect = nn.ReflectionPad2d(2)
        self.reflect1 = nn.ReflectionPad1d((1, 3))
        self.replicate = nn.ReplicationPad2d((1, 0, 2, 1))
        self.replicate3 = nn.ReplicationPad3d(1)
        self.constant = nn.ConstantPad1d(2, -1.5)
        self.constant3 = nn.ConstantPad3d((1, 0, 0, 1, 1, 0), 2.0)
        self.zero = nn.ZeroPad2d((1, 1, 0, 2))

    def forward(self, x, v):
        return (self.reflect(x), self.reflect1(x.flatten(2)), self.replicate(x), self.replicate3(v),
                self.constant(x), self.constant3(v), self.zero(x))


class PaddedPyTorch2(nn.Module):
    # The padding modules PyTorch 2 added: circular, and zeros in 1 and 3 dims.
    def __init__(self):
        super().__init__()
        self.circular = nn.CircularPad2d((1, 2, 0, 1))
        self.circular1 = nn.CircularPad1d(2)
        self.circular3 = nn.CircularPad3d(1)
        self.zero1 = nn.ZeroPad1d((2, 0))
        self.zero3 = nn.ZeroPad3d(1)

    def forward(self, x, v):
        return self.circular(x), self.circular1(x.flatten(2)), self.circular3(v), self.zero1(x), self.zero3(v)


def poolings(x, s, v):
    # max: stride over the kernel, padding, dilation, 1-D, 3-D, unbatched; avg: padding counted,
    # divisor_override, 1-D, 3-D; adaptive average: sizes the input divides and does not,
    # global.
    return (F.max_pool2d(x, 2), F.max_pool2d(x, 3, stride=2, padding=1),
            F.max_pool2d(x, (2, 3), stride=(3, 1), dilation=(2, 1)), torch.max_pool1d(s, 3, 2),
            F.max_pool3d(v, 2, stride=1, padding=1), F.max_pool2d(x[0], 2),
            F.avg_pool2d(x, 3, stride=2, padding=1), F.avg_pool2d(x, 2, divisor_override=3),
            F.avg_pool1d(s, 2), F.avg_pool3d(v, (1, 2, 2)),
            F.adaptive_avg_pool2d(x, (3, 2)), F.adaptive_avg_pool2d(x, 1),
            F.adaptive_avg_pool1d(s, 4))


def adaptive_max_poolings(x, s):
    # Sizes the input divides and does not; None (the input's size, which Thunder's jit of
    # this source refuses) for both kinds.
    return (F.adaptive_max_pool2d(x, (2, 3)), F.adaptive_max_pool2d(x, (None, 4)),
            F.adaptive_max_pool1d(s, 3), nn.AdaptiveMaxPool1d(2)(s),
            F.adaptive_avg_pool2d(x, (4, None)))


def poolings_thunder_refuses(x, s):
    # ceil_mode, and an average that counts only the input (count_include_pad=False): Thunder
    # 0.2.6's pooling refuses both.
    return (F.max_pool2d(x, 2, ceil_mode=True), F.max_pool1d(s, 3, 2, 1, 1, True),
            F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
            F.avg_pool2d(x, 2, ceil_mode=True), F.avg_pool1d(s, 3, 2, 1, True, False))


class Pooled(nn.Module):
    # The pooling modules.
    def __init__(self):
        super().__init__()
        self.max = nn.MaxPool2d(3, stride=2, padding=1)
        self.avg = nn.AvgPool2d(2)
        self.line_max = nn.MaxPool1d(2)
        self.line_avg = nn.AvgPool1d(3, stride=1, padding=1)
        self.volume_max = nn.MaxPool3d((1, 2, 2))
        self.volume_avg = nn.AvgPool3d(2, stride=1)
        self.adaptive = nn.AdaptiveAvgPool2d((1, 1))
        self.line_adaptive = nn.AdaptiveAvgPool1d(3)

    def forward(self, x):
        y = self.avg(self.max(x))
        line = x.flatten(2)
        volume = x.unsqueeze(1)
        return (y, self.adaptive(x).flatten(1), self.line_max(line), self.line_avg(line),
                self.line_adaptive(line), self.volume_max(volume), self.volume_avg(volume))


def resamplings(x):
    # nearest by sizes and factors (up, down, 2x, 1.5x), nearest-exact, bilinear by size and by
    # factor; pixel shuffle and unshuffle.
    return (F.interpolate(x, scale_factor=2), F.interpolate(x, size=(5, 9)),
            F.interpolate(x, scale_factor=(0.5, 1.5)), F.interpolate(x, size=3, mode="nearest-exact"),
            F.interpolate(x, size=(9, 4), mode="bilinear"),
            F.interpolate(x, scale_factor=1.5, mode="bilinear"),
            F.pixel_shuffle(x.repeat(1, 4, 1, 1), 2), F.pixel_unshuffle(x[..., :6], 2))


def resamplings_thunder_refuses(x, s, v):
    # align_corners set (True or False), linear and trilinear, recompute_scale_factor: Thunder
    # 0.2.6's interpolate refuses them.
    return (F.interpolate(x, size=(9, 4), mode="bilinear", align_corners=True),
            F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False),
            F.interpolate(s, size=3, mode="linear", align_corners=True),
            F.interpolate(s, size=7, mode="linear"), F.interpolate(v, scale_factor=2, mode="trilinear"),
            nn.UpsamplingBilinear2d(scale_factor=2)(x),
            F.interpolate(x, scale_factor=2.5, mode="nearest", recompute_scale_factor=True))


class Upsampled(nn.Module):
    # The resampling modules.
    def __init__(self, channels):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2)
        self.nearest = nn.UpsamplingNearest2d(size=(5, 7))
        self.shuffle = nn.PixelShuffle(2)
        self.unshuffle = nn.PixelUnshuffle(2)
        self.conv = nn.Conv2d(channels, 4 * channels, 3, padding=1)

    def forward(self, x):
        return self.shuffle(self.conv(self.up(x))), self.nearest(x), self.unshuffle(self.up(x))


def norms_updating_running_statistics(x, rm, rv, w, b):
    # Training mode with running statistics: each call updates them (written back to the
    # caller's tensors), the next reads the updated ones; instance_norm averages its samples'.
    y = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.2)
    z = F.batch_norm(x.flatten(2), rm, rv, training=True)
    i = F.instance_norm(x, rm, rv, use_input_stats=True, momentum=0.3)
    return y, z, i, rm * 1, rv + 0


class TrainingNorms(nn.Module):
    # Modules put in training mode by forward: their running statistics and batch counter
    # updated (returned, and checked after the call as CPython's module holds them).
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        self.bn1d = nn.BatchNorm1d(channels, momentum=0.5, affine=False)
        self.inorm = nn.InstanceNorm2d(channels, affine=True, track_running_stats=True)

    def forward(self, x):
        self.bn.train()
        self.bn1d.train()
        self.inorm.train()
        return (self.bn(x), self.bn1d(x.flatten(2)), self.inorm(x), self.bn(x * 2), self.bn.running_mean,
                self.bn.running_var, self.bn.num_batches_tracked, self.bn1d.running_var, self.inorm.running_mean)


def instance_norms(x, w, b):
    # The input's own statistics, with and without weight and bias, a 1-D and a 3-D input, and
    # running statistics with use_input_stats=False (made here: they take no gradient).
    mean = torch.arange(4) / 4 - 0.5
    var = torch.arange(4) + 0.5
    return (F.instance_norm(x, weight=w, bias=b), F.instance_norm(x, eps=1e-3),
            F.instance_norm(x.flatten(2), None, None, w), F.instance_norm(x.unsqueeze(2).repeat(1, 1, 2, 1, 1)),
            F.instance_norm(x, mean, var, w, b, use_input_stats=False))


class InstanceNormed(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.plain = nn.InstanceNorm2d(channels)
        self.affine = nn.InstanceNorm1d(channels, affine=True)
        self.tracked = nn.InstanceNorm2d(channels, affine=True, track_running_stats=True)

    def forward(self, x):
        return self.plain(x), self.affine(x.flatten(2)), self.tracked(x), self.affine(x[0].flatten(1))


class Attended(nn.Module):
    # nn.MultiheadAttention: self-attention with a bool causal mask and the averaged weights;
    # batch_first with a key padding mask (scaled_dot_product_attention: no weights); kdim and
    # vdim (separate projections) with a float mask and per-head weights; encoder-decoder
    # attention (key is value: the packed weight split in two); add_bias_kv with add_zero_attn
    # and no bias; an unbatched query.
    def __init__(self, width, heads):
        super().__init__()
        self.seq_first = nn.MultiheadAttention(width, heads)
        self.batch_first = nn.MultiheadAttention(width, heads, batch_first=True)
        self.cross = nn.MultiheadAttention(width, heads, kdim=6, vdim=4)
        self.extra = nn.MultiheadAttention(width, heads, bias=False, add_bias_kv=True, add_zero_attn=True)

    def forward(self, x, memory, k, v):
        causal = torch.triu(torch.ones(x.shape[0], x.shape[0], dtype=torch.bool), diagonal=1)
        padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
        y, w = self.seq_first(x, x, x, attn_mask=causal)
        xb = x.transpose(0, 1)
        yb, none = self.batch_first(xb, xb, xb, key_padding_mask=padding, need_weights=False)
        additive = torch.arange(x.shape[0] * k.shape[0]).view(x.shape[0], k.shape[0]) * -0.1
        yc, wc = self.cross(x, k, v, attn_mask=additive, average_attn_weights=False)
        yd, wd = self.seq_first(x, memory, memory)
        ye, we = self.extra(x, memory, memory, key_padding_mask=padding[:, :3], attn_mask=causal[:, :3])
        yu, wu = self.seq_first(x[:, 0], x[:, 0], x[:, 0])
        return y, w, yb, none, yc, wc, yd, wd, ye, we, yu, wu


class Transformed(nn.Module):
    # nn.Transformer (post-norm, relu) with causal and padding masks; a pre-norm, gelu-by-name,
    # batch_first encoder stack; a decoder stack whose activation is a module.
    def __init__(self, width, heads):
        super().__init__()
        self.model = nn.Transformer(width, heads, num_encoder_layers=1, num_decoder_layers=1, dim_feedforward=16)
        layer = nn.TransformerEncoderLayer(width, heads, 12, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(width))
        layer = nn.TransformerDecoderLayer(width, heads, 12, activation=nn.SiLU(), norm_first=True)
        self.decoder = nn.TransformerDecoder(layer, 1)

    def forward(self, src, tgt):
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(tgt.shape[0])
        src_padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
        out = self.model(src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=src_padding,
                         memory_key_padding_mask=src_padding)
        encoded = self.encoder(src.transpose(0, 1), mask=torch.zeros(5, 5))
        decoded = self.decoder(tgt, src, tgt_mask=tgt_mask)
        return out, encoded, decoded


class CausalHints(nn.Module):
    # PyTorch 2's is_causal hints (scaled_dot_product_attention's is_causal stands for the
    # mask), alone and with a padding mask or the weights (the mask is used); an encoder layer
    # whose activation is a module (kept by its deep copies, where the decoder layer's copies
    # fall back to F.relu).
    def __init__(self, width, heads):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, heads)
        layer = nn.TransformerEncoderLayer(width, heads, 12, activation=nn.GELU(approximate="tanh"))
        self.encoder = nn.TransformerEncoder(layer, 1, enable_nested_tensor=False)
        self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(width, heads, 12, activation=nn.Tanh()), 1)

    def forward(self, x, memory):
        causal = nn.Transformer.generate_square_subsequent_mask(x.shape[0])
        padding = torch.tensor([[False] * 5, [False] * 3 + [True] * 2])
        hinted, _ = self.attn(x, x, x, attn_mask=causal, need_weights=False, is_causal=True)
        padded, _ = self.attn(x, x, x, attn_mask=causal, key_padding_mask=padding, need_weights=False, is_causal=True)
        weighted = self.attn(x, x, x, attn_mask=causal, is_causal=True)
        encoded = self.encoder(x, mask=causal, is_causal=True)
        decoded = self.decoder(x, memory, tgt_mask=causal, tgt_is_causal=True)
        return hinted, padded, weighted, encoded, decoded


class GroupNormed(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.norm = nn.GroupNorm(3, channels)
        self.plain = nn.GroupNorm(channels, channels, affine=False)

    def forward(self, x):
        return self.plain(self.norm(x) * 2)


class Stack(nn.Module):
    def __init__(self, width, depth, vocab):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.blocks = nn.ModuleList([TinyMLP(width, 2 * width) for _ in range(depth)])
        self.heads = nn.ModuleDict(dict(out=nn.Linear(width, vocab, bias=False)))
        self.seq = nn.Sequential(nn.Linear(width, width), nn.ReLU(), nn.Identity())
        self.heads.out.weight = self.embed.weight  # tied

    def forward(self, idx, targets=None):
        x = self.embed(idx)
        for block in self.blocks:
            x = block(x)
        x = self.seq(x)
        logits = self.heads["out"](x)
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


class SinusoidalPositions(nn.Module):
    # Construction writes into a tensor by slices (the annotated-transformer's PositionalEncoding).
    def __init__(self, width, length=16):
        super().__init__()
        pe = torch.zeros(length, width)
        position = torch.arange(0, length, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, width, 2).float() * (-math.log(10000.0) / width))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0), persistent=False)
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        x = x + self.pe[:, : x.size(1)]
        x[:, 0] = 0.0
        return self.proj(x)


class RandomInit(nn.Module):
    # Construction draws with torch.randn/rand/randint, registers hooks: forward's run as PyTorch
    # runs them, the state-dict hooks do nothing forward sees.
    def __init__(self, width):
        super().__init__()
        self.gain = nn.Parameter(width ** -0.5 * torch.randn(width))
        self.shift = nn.Parameter(torch.rand(width) - 0.5)
        self.register_buffer("offsets", torch.randint(0, 4, (width,)), persistent=False)
        self.noise = torch.randn_like(self.gain)
        self.proj = nn.Linear(width, width)
        self._register_load_state_dict_pre_hook(lambda *args: None)
        self.proj.register_forward_pre_hook(lambda module, inputs: (inputs[0] + 1,))
        handle = self.proj.register_forward_hook(lambda module, inputs, out: out * 2)
        self.proj.register_forward_hook(lambda module, inputs, out: out - 1)
        handle.remove()

    def forward(self, x):
        return self.proj(x * self.gain + self.shift) + self.offsets + self.noise


class ValuesInConstruction(nn.Module):
    # Construction reads tensors' values (timm's drop-path rates as floats, a table as lists, a
    # branch on a mask): the tracer constructs on libtorch.
    def __init__(self, width, depth=3, rate=0.3):
        super().__init__()
        self.rates = [r.item() for r in torch.arange(depth) * (rate / depth)]
        self.blocks = nn.ModuleList([nn.Linear(width, width) for _ in range(depth)])
        self.count = int(torch.tensor([3, 4]).sum())
        self.table = torch.tensor([[1, 2], [3, 4]]).tolist()
        self.half = float(torch.ones(1) * 0.5)
        mask = torch.arange(width) < width // 2
        self.register_buffer("mask", mask.float())
        if mask.sum() > 0:
            self.extra = nn.Parameter(torch.zeros(width))
        if not bool(torch.tensor(self.rates).max() > 1.0):
            self.gate = nn.Parameter(torch.ones(width) * self.rates[-1])

    def forward(self, x):
        for block, rate in zip(self.blocks, self.rates):
            x = x + block(x) * (1.0 - rate)
        return (x * self.mask + self.extra) * self.gate * self.count * self.table[1][0] * self.half


class Key:
    def __init__(self, v):
        self.v = v

    def __hash__(self):
        return hash(self.v)

    def __eq__(self, other):
        return isinstance(other, Key) and self.v == other.v


class EqualToAll:  # __eq__ without __hash__: unhashable, as CPython makes it
    def __eq__(self, other):
        return True


def user_dict_keys(x):
    d = {Key(1): 2}
    d[Key(3)] = 4
    d[Key(1)] += 10
    try:
        {EqualToAll(): 1}
        refused = False
    except TypeError:
        refused = True
    merged = {Key(2): 1, Key(2): 2}
    return (x * d[Key(1)] + d.get(Key(3), 0), len(d), Key(3) in d, Key(5) in d, refused,
            d.pop(Key(3)), len(d), len(merged), merged[Key(2)], hash(Key(7)))


def numeric_edges(x):
    raised = []
    for thunk in (lambda: math.pow(10, 10**6), lambda: 2.0 ** 10000, lambda: math.exp(1000),
                  lambda: 1 / 0, lambda: 7.0 // 0.0, lambda: 0.0 ** -1, lambda: math.sqrt(-1),
                  lambda: math.log(0), lambda: pow(2, 3, 0), lambda: pow(2, -1, 4),
                  lambda: pow(2.0, 3, 5), lambda: int(float("nan")), lambda: int(float("inf"))):
        try:
            thunk()
            raised.append("nothing")
        except (OverflowError, ZeroDivisionError, ValueError, TypeError) as e:
            raised.append(type(e).__name__ + ": " + str(e))
    return (x * round(1.5, 10**9) + pow(3, 4, 5), round(2.675, 2), round(1234, -2),
            round(1250, -2), round(-0.5), round(0.125, 2), round(123.456, -1), round(7, 3),
            pow(3, -1, 7), pow(-3, 3, -7), pow(5, 0, 1), len(format(1e300, ".20f")),
            format(2.5, ".30f"), "|".join(raised))


def fuzz_found(x):
    # What fuzz_interpreter found against CPython (docs/fuzzing.md), each as CPython runs it.
    s = "\xa0 é a\x1cb\x85 "
    l = [1, 2, 3, 4]
    return (x * len("é12") + "é12".find("1"), l[::-1], l[::-2], "abé"[::-1], l[-2::-1],
            "ç".ljust(5, "*"), "é".zfill(4), "abé".replace("", "-"), "abé".count(""),
            "{:.2}".format("é,é"), "{:>4}".format("é"), 2.0 // 0.1, -7.5 // 2, 1e300 % -2.5,
            7.0 % 0.5, hash(-1), hash(1.5), hash(-0.5), hash(2.0), hash(1e300),
            repr(chr(132)), repr(chr(160) + chr(173)), s.split(), s.strip(), "éaé".strip("é"),
            " a b c ".split(None, 1), "  a b c ".rsplit(None, 1), "éaß µ ÿx Àb".upper(),
            "ÉASS ÀB".lower(), "éaß µ".title(), "ßa".capitalize(), "{:,}".format(15486.3),
            "ab" % [], "ab" % {}, not_all_converted("ab", 2), not_all_converted("ab", "x"),
            "{:.3}".format(-691.0), "{:.3}".format(69.0), "{:.1}".format(0.0), "{:.2}".format(100.0),
            sorted_as_far_as_it_got([-1, 0, 6, 12, 1, Ranked(10), -1000], False),
            sorted_as_far_as_it_got([5, 3, 1, 2, Ranked(1), 0], True),
            sorted_as_far_as_it_got([3, 1, 2, Ranked(0), 1, 0, 2], False), compared_in_order())


class Ranked:
    # An item an int cannot be compared with: a sort that meets it raises TypeError.
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return "Ranked(" + repr(self.v) + ")"


def sorted_as_far_as_it_got(items, reverse):
    # CPython's list.sort leaves the list as far as it had sorted when a comparison raised.
    try:
        items.sort(reverse=reverse)
    except TypeError:
        pass
    return repr(items)


class Logged:
    seen = []

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        Logged.seen.append((self.v, other.v))
        return self.v < other.v


def compared_in_order():
    # The comparisons CPython's sort makes, in its order (reverse=True compares with < too).
    Logged.seen = []
    order = [l.v for l in sorted([Logged(v) for v in [4, 1, 3, 1, 5, 9, 2, 6]], reverse=True)]
    return order, list(Logged.seen)


def not_all_converted(text, value):
    try:
        return text % value
    except TypeError as e:
        return str(e)


class Celsius:
    # A property with a setter and a deleter, as real model configs write them.
    def __init__(self, degrees):
        self._degrees = degrees
        self.deleted = False

    @property
    def degrees(self):
        return self._degrees

    @degrees.setter
    def degrees(self, value):
        self._degrees = value * 2

    @degrees.deleter
    def degrees(self):
        self.deleted = True


def property_setter_deleter(x):
    c = Celsius(1.5)
    c.degrees = 3
    before = c.degrees
    del c.degrees
    return x * before + c.deleted, Celsius.degrees.fset is not None, Celsius.degrees.fdel is None


@dataclass
class Box:
    width: int = 2
    height: int = 3


def dataclass_replace(x):
    b = replace(Box(), height=5)
    return x * b.width * b.height, Box().height


class CfgNode:
    # minGPT's config node: attributes set and read through the instance's __dict__.
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

    def to_dict(self):
        return {k: v.to_dict() if isinstance(v, CfgNode) else v for k, v in self.__dict__.items()}


def instance_dict(x):
    c = CfgNode(scale=2.0, shift=1, inner=CfgNode(n=4))
    vars(c)["shift"] = 3
    c.__dict__["extra"] = 0.5
    del c.__dict__["extra"]
    d = c.to_dict()
    return x * c.scale + d["shift"] + d["inner"]["n"], sorted(vars(c)), "extra" in c.__dict__


class LegacyParameters(nn.Module):
    # pytorch/examples' gcn: torch.Tensor(sizes) filled by an init; `self.bias = None` before
    # the parameter (torch's __setattr__ drops the plain attribute); torch.spmm of dense tensors.
    def __init__(self, n, m):
        super().__init__()
        self.kernel = nn.Parameter(torch.Tensor(n, m))
        nn.init.xavier_normal_(self.kernel)
        self.bias = None
        self.bias = nn.Parameter(torch.Tensor(m))
        nn.init.uniform_(self.bias)
        self.register_buffer("scale", torch.Tensor([0.5, 2.0]))
        self.note = "plain"
        del self.note
        self.empty = torch.Tensor().numel()

    def forward(self, x):
        y = torch.spmm(x, self.kernel) + self.bias
        return y * self.scale[1] + self.empty, hasattr(self, "note")


def collection_inputs(a, arr, pair):
    # Inputs that are collections of tensors (-a 'a={2: f32[4, 8, 3], 5: f32[4, 8]}'): the
    # prologue unpacks and checks each; the first of `arr` is updated in place, as the caller sees.
    arr[0].mul_(2)
    scale, bias = pair
    return a[2].sum(-1) * scale + a[5], torch.cat(arr, 0) + bias, len(a)


def doubled(n):
    for i in range(n):
        yield i * 2
    yield from (10, 20)


def scaled_each(x, factors):
    for f in factors:
        x = x * f
        yield x


@contextlib.contextmanager
def entered(log, value):
    log.append("enter")
    try:
        yield value * 2
    finally:
        log.append("exit")


def generators(x):
    # Generator functions run as CPython runs them: next() to each yield, iteration, yield from,
    # and a @contextmanager's enter and exit around its with block.
    g = doubled(2)
    first = next(g)
    rest = list(g)
    sums = [y.sum() for y in scaled_each(x, [2.0, 3.0])]
    it = iter(doubled(1))
    log = []
    with entered(log, 3) as k:
        y = x * k + len(log)
    unfinished = doubled(5)
    next(unfinished)  # dropped unfinished: freed without running more of it
    return y * (first + sum(rest)) + sums[1], next(it), next(it, -1), log


def ordered_and_default_dicts(x):
    # collections.OrderedDict (move_to_end, its repr and type) and defaultdict (a missing key's
    # value made by the factory and kept), and nn.Sequential of an OrderedDict.
    d = OrderedDict([("a", 1), ("b", 2)])
    d["c"] = 3
    d.move_to_end("a")
    d.move_to_end("c", last=False)
    lists = defaultdict(list)
    lists["k"].append(4)
    lists["k"].append(5)
    counts = collections.defaultdict(int)
    for w in ["x", "y", "x"]:
        counts[w] += 1
    seq = nn.Sequential(OrderedDict([("lin", nn.Identity()), ("act", nn.ReLU())]))
    return (seq(x) * sum(lists["k"]) + counts["x"], list(d), repr(d), repr(lists),
            type(d).__name__, isinstance(d, dict), isinstance(lists, OrderedDict),
            lists.default_factory is list, repr(OrderedDict()), dict(counts), list(seq._modules))


Pair = namedtuple("Pair", ["a", "b"])
Output = collections.namedtuple("Output", "logits loss", defaults=[None])


def named_tuples(x):
    # collections.namedtuple: fields by name and index, unpacking, _replace, _asdict, defaults,
    # its repr and class; it is a tuple, and returns from the trace as one.
    p = Pair(1, b=2)
    a, b = p
    q = p._replace(b=5)
    o = Output(x * 2)
    return (o.logits * (p.a + p[1] + a + b + q.b + len(p)), repr(q), q._asdict(), Pair._fields,
            isinstance(p, tuple), isinstance(p, Pair), type(p).__name__, o.loss is None,
            Output._field_defaults, p == (1, 2), q)


class ModelOutput(NamedTuple):
    logits: torch.Tensor
    loss: Optional[torch.Tensor] = None
    scale: float = 2.0

    def total(self):
        return self.logits * self.scale + (0 if self.loss is None else self.loss)

    @property
    def doubled(self):
        return self.logits * 2


class Point(namedtuple("Point", "x y")):
    __slots__ = ()

    def norm1(self):
        return abs(self.x) + abs(self.y)


class Point3(Point):
    pass


def typed_named_tuples(x):
    # typing.NamedTuple classes (fields from annotations, defaults, methods, properties) and
    # subclasses of namedtuple classes: tuples with their class's methods.
    o = ModelOutput(x)
    logits, loss, scale = o
    o2 = o._replace(loss=x.sum())
    p = Point(3, -4)
    return (o.total(), o2.total(), o.doubled * scale, logits, loss, o2, ModelOutput._fields,
            ModelOutput._field_defaults["scale"], isinstance(o, tuple), isinstance(o, ModelOutput),
            p.norm1(), repr(p), Point3(1, 2).norm1(), isinstance(Point3(1, 2), Point), o2._asdict())


class AttrDict(dict):
    # Defined, never made: no error (making one is).
    pass


class LazySquare:
    def __init__(self, n):
        self.n = n

    @functools.cached_property
    def square(self):
        return self.n * self.n


def spreads_and_batches(x, y):
    # std (the annotated transformer's LayerNorm), logsumexp, softplus (Mamba's), unbind, bmm.
    rows = x.unbind(1)
    return (x.std(-1, keepdim=True), torch.std(x, dim=(0, 1), unbiased=False), x.std(),
            torch.logsumexp(x, -1), x.logsumexp((0, 2), keepdim=True), F.softplus(x),
            F.softplus(x, beta=2.0, threshold=1.0), rows[0] * rows[2], torch.bmm(x, y),
            x.bmm(y).unbind(), len(rows), F.pad(x, (1, 2)), F.pad(x, (-1, 1, 2, 0), value=0.5),
            F.normalize(x), F.normalize(x, p=1, dim=-1), F.normalize(x, p=float("inf"), dim=(0, 2)),
            F.normalize(y, dim=-1, eps=0.5))


def set_algebra(x):
    # Sets' operators and methods, in place too; functools.cached_property.
    s = {1, 2}
    s |= {3}
    both = s & {2, 3, 9}
    odd = (s - {1}) ^ {3, 7}
    more = s.union([4, 4]).difference({1})
    return (x * len(s), sorted(s), sorted(both), sorted(odd), sorted(more),
            sorted(s.intersection(range(3))), sorted(s.symmetric_difference((2, 5))),
            s.issubset({1, 2, 3, 4}), s.issuperset([1]), s == {3, 2, 1}, LazySquare(3).square)


def copies(x):
    # copy.deepcopy copies each object once (the list held twice stays one list in the copy);
    # copy.copy shares the contents; a tensor made here is copied with its values.
    nested = [[1, 2], {"a": (3, [4])}]
    nested.append(nested[0])
    deep = copy.deepcopy(nested)
    deep[0].append(5)
    shallow = copy.copy(nested)
    shallow[0].append(6)
    made = torch.ones(3)
    twin = copy.deepcopy(made)
    made.add_(1)
    return (x * len(deep[2]) + len(nested[0]), deep[2] is deep[0], shallow[0] is nested[0],
            deep[1]["a"][1] is nested[1]["a"][1], x[0] * twin, copy.copy((1, 2)))


class Color(enum.Enum):
    RED = 1
    GREEN = 2
    CRIMSON = 1  # an alias of RED

    def double(self):
        return self.value * 2


class Mode(enum.Enum):
    TRAIN = enum.auto()
    EVAL = enum.auto()


def enums(x):
    # enum.Enum: members with name and value, aliases, auto(), lookup by value and by name,
    # iteration, methods, repr and str, identity and hashing.
    c = Color(2)
    m = Mode["EVAL"]
    names = [k.name for k in Color]
    return (x * (c.value + m.value + Color.RED.double()), names, repr(Color.RED), str(Mode.TRAIN),
            Color.CRIMSON is Color.RED, c == Color.GREEN, isinstance(c, Color), type(m).__name__,
            {Color.RED: "r"}[Color.CRIMSON], f"{Mode.EVAL}")
