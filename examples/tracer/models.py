# Model code the tracer handles: the three seed programs of the slice/collection bugs, and
# Llama-style blocks (rotary embeddings, RMSNorm, a SwiGLU MLP, causal self-attention).
import torch
import torch.nn.functional as F


def slice_half(a):
    # Thunder issue #1182: the stop is a symbolic number inside a slice.
    return a[..., : (a.shape[-1] // 2)]


def index_with_key(a, key):
    # PR #1201: a slice inside a collection input; its inner number must be unpacked.
    return a[key]


def reshape_to(a, newshape):
    return a.reshape(newshape)


def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_emb(q, k, cos, sin):
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


def rms_norm(x, weight, eps=1e-6):
    variance = x.pow(2).mean(-1, keepdim=True)
    x = x * torch.rsqrt(variance + eps)
    return weight * x


def swiglu_mlp(x, w_gate, w_up, w_down):
    return F.linear(F.silu(F.linear(x, w_gate)) * F.linear(x, w_up), w_down)


def causal_self_attention(x, w_qkv, w_out, mask, n_head):
    B, T, C = x.shape
    qkv = F.linear(x, w_qkv)
    q = qkv[:, :, :C]
    k = qkv[:, :, C : 2 * C]
    v = qkv[:, :, 2 * C :]
    head_size = C // n_head
    q = q.view(B, T, n_head, head_size).transpose(1, 2)
    k = k.view(B, T, n_head, head_size).transpose(1, 2)
    v = v.view(B, T, n_head, head_size).transpose(1, 2)
    att = (q @ k.transpose(-2, -1)) * (1.0 / head_size**0.5)
    att = att + mask[:T, :T]
    att = F.softmax(att, dim=-1)
    y = att @ v
    y = y.transpose(1, 2).reshape(B, T, C)
    return F.linear(y, w_out)


def llama_block(x, norm_w, w_gate, w_up, w_down, eps=1e-5):
    h = rms_norm(x, norm_w, eps)
    out = x + swiglu_mlp(h, w_gate, w_up, w_down)
    for i in range(2):
        out = out * 0.5 + F.gelu(out, approximate="tanh") * 0.5
    return out


def branchy(x, n):
    if n > 2:
        y = torch.exp(x) * n
    else:
        y = torch.tanh(x)
    return y.sum(dim=(0, 1)), len(x.shape)


def indexing_mix(x, i):
    a = x[i, 1:-1, None, ::2]
    b = x[-1][..., i]
    return a.sum(), b * x.size(-1), x.ndim


def scale_and_sum(t, scale, dims):
    return (t * scale).sum(dim=dims)


def collections(x, opts, pair):
    n, nothing = pair
    y = scale_and_sum(x, opts["scale"], tuple(opts["dims"]))
    if nothing is None:
        y = y + n
    return [y, {"n": n}]
