// Matrix products and torch.nn.functional: matmul, linear, outer, embedding,
// scaled_dot_product_attention, cross_entropy, nll_loss, mse_loss, dropout.
#include "common.hpp"
#include "gradients.hpp"

#include <cmath>

namespace tracelint::tracer::ops {

namespace {

Obj matmul_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "a", "prims.matmul", loc);
  require_tensor(args[1], "b", "prims.matmul", loc);
  const std::vector<Obj> &a = tensor(args[0]).shape, &b = tensor(args[1]).shape;
  if (a.size() < 2 || a.size() != b.size())
    throw TraceError(loc, "prims.matmul takes two tensors of one rank >= 2 (batch dims broadcast)");
  std::vector<Obj> out(a.begin(), a.end() - 1);
  out.push_back(b.back());
  return like(args[0], out);
}

Obj linear_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.linear", loc);
  require_tensor(args[1], "the weight", "prims.linear", loc);
  std::vector<Obj> out = tensor(args[0]).shape;
  out.back() = tensor(args[1]).shape[0];
  return like(args[0], out);
}

// ---- VJP rules

std::vector<Obj> matmul_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                            const Loc &loc) {
  // a @ b with batch dims: g @ b^T and a^T @ g, summed back over broadcast batch dims.
  Obj ga = r.prim(Sym::prims_matmul, {g, grad::swap_last_two(r, a[1], loc)}, loc);
  Obj gb = r.prim(Sym::prims_matmul, {grad::swap_last_two(r, a[0], loc), g}, loc);
  return {grad::sum_to(r, ga, tensor(a[0]).shape, loc),
          grad::sum_to(r, gb, tensor(a[1]).shape, loc)};
}

std::vector<Obj> linear_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                            const Loc &loc) {
  // a [..., in] @ w[out, in]^T + bias: the batch dims flattened to one, N.
  const std::vector<Obj> &in_shape = tensor(a[0]).shape;
  const Obj &in = in_shape.back(), &out = tensor(a[1]).shape[0];
  Obj n = Obj::int_of(1);
  for (std::size_t i = 0; i + 1 < in_shape.size(); ++i)
    n = r.num(NumOp::mul, n, in_shape[i], loc);
  bool flat = in_shape.size() == 2;
  Obj g2 = flat ? g : grad::reshape(r, g, {n, out}, loc);
  Obj a2 = flat ? a[0] : grad::reshape(r, a[0], {n, in}, loc);
  Obj ga2 = r.prim(Sym::prims_matmul, {g2, a[1]}, loc);
  Obj ga = flat ? ga2 : grad::reshape(r, ga2, in_shape, loc);
  Obj gw = r.prim(Sym::prims_matmul, {grad::transpose(r, g2, {1, 0}, loc), a2}, loc);
  Obj gbias = a[2].kind == Obj::Kind::None ? Obj::none() : grad::sum(r, g2, {0}, loc);
  return {ga, gw, gbias};
}

void same_dtype(const Obj &a, const Obj &b, const char *op, const Loc &loc) {
  if (tensor(a).dtype != tensor(b).dtype)
    throw TraceError(loc, std::string(op) +
                              ": expected both operands to have the same dtype, but got " +
                              dtype_info(tensor(a).dtype).torch_name + " and " +
                              dtype_info(tensor(b).dtype).torch_name);
  if (tensor(a).device != tensor(b).device)
    throw TraceError(loc, std::string(op) +
                              ": expected both operands on the same device, but got " +
                              tensor(a).device + " and " + tensor(b).device);
}

Obj matmul(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the first operand", "matmul", loc);
  require_tensor(args[1], "the second operand", "matmul", loc);
  same_dtype(args[0], args[1], "matmul", loc);
  Obj a = args[0], b = args[1];
  std::size_t ra = tensor(a).shape.size(), rb = tensor(b).shape.size();
  if (ra == 0 || rb == 0) throw TraceError(loc, "both arguments to matmul need to be at least 1D");
  if (ra == 1 && rb == 1) {
    // A dot product.
    if (!r.same_size(tensor(a).shape[0], tensor(b).shape[0], loc))
      throw TraceError(loc, "inconsistent tensor size in a dot product: " + describe(a) + " and " +
                                describe(b));
    Obj p = r.call(Sym::ltorch_mul, {a, b}, loc);
    return r.call(Sym::ltorch_sum, {p, Obj::none(), Obj::boolean_of(false), Obj::none()}, loc);
  }
  bool squeeze_front = ra == 1, squeeze_back = rb == 1;
  if (squeeze_front) a = r.call(Sym::ltorch_unsqueeze, {a, Obj::int_of(0)}, loc);
  if (squeeze_back) b = r.call(Sym::ltorch_unsqueeze, {b, Obj::int_of(-1)}, loc);
  const std::vector<Obj> &sa = tensor(a).shape, &sb = tensor(b).shape;
  if (!r.same_size(sa.back(), sb[sb.size() - 2], loc))
    throw TraceError(loc, "mat1 and mat2 shapes cannot be multiplied (" + shape_text(sa) + " and " +
                              shape_text(sb) + ")");
  std::vector<Obj> batch = broadcast_shapes(r, std::vector<Obj>(sa.begin(), sa.end() - 2),
                                            std::vector<Obj>(sb.begin(), sb.end() - 2), loc);
  std::vector<Obj> full_a = batch, full_b = batch;
  full_a.insert(full_a.end(), sa.end() - 2, sa.end());
  full_b.insert(full_b.end(), sb.end() - 2, sb.end());
  Obj out = r.prim(Sym::prims_matmul,
                   {broadcast_to(r, a, full_a, loc), broadcast_to(r, b, full_b, loc)}, loc);
  if (squeeze_front) out = r.call(Sym::ltorch_squeeze, {out, Obj::int_of(-2)}, loc);
  if (squeeze_back) out = r.call(Sym::ltorch_squeeze, {out, Obj::int_of(-1)}, loc);
  return out;
}

Obj linear(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  const Obj &x = args[0], &w = args[1], &bias = args[2];
  require_tensor(x, "the input", "linear", loc);
  require_tensor(w, "the weight", "linear", loc);
  const std::vector<Obj> &sx = tensor(x).shape, &sw = tensor(w).shape;
  if (sw.size() != 2 || sx.empty())
    throw TraceError(loc, "linear: the weight must be 2-D and the input at least 1-D (got " +
                              shape_text(sx) + ", " + shape_text(sw) + ")");
  if (!r.same_size(sx.back(), sw[1], loc))
    throw TraceError(loc, "mat1 and mat2 shapes cannot be multiplied (" + shape_text(sx) + " and " +
                              shape_text({sw[1], sw[0]}) + ")");
  same_dtype(x, w, "linear", loc);
  Obj b = bias;
  if (bias.kind != Obj::Kind::None) {
    require_tensor(bias, "the bias", "linear", loc);
    same_dtype(x, bias, "linear", loc);
    const std::vector<Obj> &sb = tensor(bias).shape;
    // A bias of one element broadcasts over the outputs, as in PyTorch.
    bool one = sb.empty() ||
               (sb.size() == 1 && !r.same_size(sb[0], sw[0], loc) && size_is(r, sb[0], 1, loc));
    if (sb.size() > 1 || (!one && !r.same_size(sb[0], sw[0], loc)))
      throw TraceError(loc, "linear: bias " + shape_text(sb) + " does not match weight " +
                                shape_text(sw));
    if (one) b = broadcast_to(r, bias, {sw[0]}, loc);
  }
  return r.prim(Sym::prims_linear, {x, w, b}, loc);
}

// bmm: matmul of two 3-D tensors of one batch size (no broadcasting, as torch's).
Obj bmm(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the first operand", "bmm", loc);
  require_tensor(args[1], "the second operand", "bmm", loc);
  const std::vector<Obj> &a = tensor(args[0]).shape, &b = tensor(args[1]).shape;
  if (a.size() != 3) throw TraceError(loc, "batch1 must be a 3D tensor");
  if (b.size() != 3) throw TraceError(loc, "batch2 must be a 3D tensor");
  if (!r.same_size(a[0], b[0], loc) || !r.same_size(a[2], b[1], loc))
    throw TraceError(loc, "bmm: " + describe(args[0]) + " and " + describe(args[1]) +
                              " are not [b, n, m] and [b, m, p]");
  return r.call(Sym::ltorch_matmul, {args[0], args[1]}, loc);
}

// F.normalize as torch's: x / max(||x||_p over dim, eps), the norm kept as size-1 dims (p = 2:
// the square root of the sum of squares; inf: the largest |x|; otherwise (sum |x|^p)^(1/p)).
Obj normalize(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  // input, p, dim, eps, out
  require_tensor(args[0], "the input", "normalize", loc);
  if (!args[4].is_none())
    throw TraceError(loc, "F.normalize(out=...) is not supported by the tracer");
  if (!is_floating(tensor(args[0]).dtype))
    throw TraceError(loc, "normalize: a floating-point tensor is required");
  for (const Obj *n : {&args[1], &args[3]}) {
    if (!n->is_number() || n->kind == Obj::Kind::Bool)
      throw TraceError(loc, "normalize: p and eps must be numbers, not " + describe(*n));
    if (n->is_proxy()) r.guard(*n, loc);
  }
  double p = args[1].as_double();
  if (!(p > 0))
    throw TraceError(loc, "F.normalize with p=" + describe(args[1]) +
                              " is not supported by the tracer (p > 0 or inf)");
  const Obj &x = args[0], &dim = args[2], keep = Obj::boolean_of(true);
  auto sum = [&](const Obj &t) {
    return r.call(Sym::ltorch_sum, {t, dim, keep, Obj::none()}, loc);
  };
  // A norm over an empty dim has no elements to divide: the empty input is the result's shape.
  for (int64_t d : reduction_dims(r, dim, tensor(x).shape.size(), loc))
    if (empty_size(r, tensor(x).shape[static_cast<std::size_t>(d)], loc))
      return r.call(Sym::ltorch_true_divide, {x, Obj::float_of(args[3].as_double())}, loc);
  Obj norm;
  if (std::isinf(p)) {
    norm = r.call(Sym::ltorch_amax, {r.call(Sym::ltorch_abs, {x}, loc), dim, keep}, loc);
  } else if (p == 2) {
    norm = r.call(Sym::ltorch_sqrt, {sum(r.call(Sym::ltorch_mul, {x, x}, loc))}, loc);
  } else {
    Obj powered =
        r.call(Sym::ltorch_pow, {r.call(Sym::ltorch_abs, {x}, loc), Obj::float_of(p)}, loc);
    norm = r.call(Sym::ltorch_pow, {sum(powered), Obj::float_of(1.0 / p)}, loc);
  }
  Obj clamped =
      r.call(Sym::ltorch_clamp, {norm, Obj::float_of(args[3].as_double()), Obj::none()}, loc);
  return r.call(Sym::ltorch_true_divide, {x, clamped}, loc);
}

Obj outer(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the first operand", "outer", loc);
  require_tensor(args[1], "the second operand", "outer", loc);
  if (tensor(args[0]).shape.size() != 1 || tensor(args[1]).shape.size() != 1)
    throw TraceError(loc, "outer takes two 1-D tensors");
  Obj a = r.call(Sym::ltorch_unsqueeze, {args[0], Obj::int_of(1)}, loc);
  Obj b = r.call(Sym::ltorch_unsqueeze, {args[1], Obj::int_of(0)}, loc);
  return r.call(Sym::ltorch_mul, {a, b}, loc);
}

Obj embedding(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  // a, weight, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse
  const Obj &a = args[0], &w = args[1];
  require_tensor(a, "the indices", "embedding", loc);
  require_tensor(w, "the weight", "embedding", loc);
  if (!is_integral(tensor(a).dtype) || tensor(a).dtype == DType::bool_)
    throw TraceError(loc, "Expected tensor for argument #1 'indices' to have one of the following "
                          "scalar types: Long, Int; but got " +
                              std::string(dtype_info(tensor(a).dtype).torch_name) + " instead");
  if (tensor(w).shape.size() != 2) throw TraceError(loc, "'weight' must be 2-D");
  if (args[3].kind != Obj::Kind::None)
    throw TraceError(loc,
                     "embedding with max_norm renormalises the weight in place: not supported");
  if (tensor(a).shape.size() == 1) return r.prim(Sym::prims_take, {w, a, Obj::int_of(0)}, loc);
  std::vector<Obj> out = tensor(a).shape;
  out.push_back(tensor(w).shape[1]);
  Obj n = Obj::int_of(1);
  for (const Obj &d : tensor(a).shape)
    n = r.num(NumOp::mul, n, d, loc);
  Obj flat = r.call(Sym::ltorch_reshape, {a, Obj::tuple({n})}, loc);
  Obj taken = r.prim(Sym::prims_take, {w, flat, Obj::int_of(0)}, loc);
  return r.call(Sym::ltorch_reshape, {taken, Obj::tuple(out)}, loc);
}

Obj neg_inf(Recorder &, const Obj &) {
  return Obj::float_of(-INFINITY);
}

Obj sdpa(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  // query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa
  const Obj &q = args[0];
  Obj k = args[1], v = args[2];
  for (const Obj *t : std::initializer_list<const Obj *>{&q, &k, &v})
    require_tensor(*t, "query, key and value", "scaled_dot_product_attention", loc);
  double dropout = args[4].is_number() ? args[4].as_double() : -1;
  if (args[4].is_proxy()) r.guard(args[4], loc);
  if (dropout != 0)
    throw TraceError(loc, "scaled_dot_product_attention with dropout_p > 0 draws random numbers; "
                          "trace in eval mode or with dropout_p=0");
  const std::vector<Obj> &sq = tensor(q).shape;
  if (sq.size() < 2)
    throw TraceError(loc, "scaled_dot_product_attention: query must be at least 2-D");
  if (args[7].kind == Obj::Kind::Bool && args[7].boolean && sq.size() >= 3) {
    // Grouped-query attention: each key/value head serves several query heads.
    const Obj &hq = sq[sq.size() - 3], &hk = tensor(k).shape[tensor(k).shape.size() - 3];
    int64_t groups = r.concrete(hq, loc, "the query heads") /
                     std::max<int64_t>(1, r.concrete(hk, loc, "the key heads"));
    k = r.call(Sym::ltorch_repeat_interleave,
               {k, Obj::int_of(groups), Obj::int_of(-3), Obj::none()}, loc);
    v = r.call(Sym::ltorch_repeat_interleave,
               {v, Obj::int_of(groups), Obj::int_of(-3), Obj::none()}, loc);
  }
  Obj scale = args[6];
  if (scale.kind == Obj::Kind::None) {
    const Obj &e = sq.back();
    Obj ef = r.num(NumOp::to_float, e, Obj::none(), loc);
    Obj root = r.num(NumOp::sqrt, ef, Obj::none(), loc);
    scale = r.num(NumOp::truediv, Obj::float_of(1.0), root, loc);
  }
  Obj kt = r.call(Sym::ltorch_transpose, {k, Obj::int_of(-2), Obj::int_of(-1)}, loc);
  Obj scores = r.call(Sym::ltorch_matmul, {q, kt}, loc);
  scores = r.call(Sym::ltorch_mul, {scores, scale}, loc);
  const std::vector<Obj> &ss = tensor(scores).shape;
  const Obj &L = ss[ss.size() - 2], &S = ss.back();
  if (args[5].kind == Obj::Kind::Bool && args[5].boolean) {
    if (args[3].kind != Obj::Kind::None)
      throw TraceError(loc,
                       "scaled_dot_product_attention: attn_mask and is_causal cannot both be set");
    Obj ones = r.call(Sym::ltorch_ones,
                      args_with_defaults(Sym::ltorch_ones, {L, S},
                                         {{"dtype", Obj::dtype_of(DType::bool_)},
                                          {"device", Obj::device_of(tensor(q).device)}}),
                      loc);
    Obj causal = r.call(Sym::ltorch_tril, {ones, Obj::int_of(0)}, loc);
    Obj masked = r.call(Sym::ltorch_logical_not, {causal}, loc);
    scores = r.call(Sym::ltorch_masked_fill, {scores, masked, neg_inf(r, scores)}, loc);
  } else if (args[3].kind != Obj::Kind::None) {
    const Obj &mask = args[3];
    require_tensor(mask, "attn_mask", "scaled_dot_product_attention", loc);
    if (tensor(mask).dtype == DType::bool_) {
      Obj masked = r.call(Sym::ltorch_logical_not, {mask}, loc);
      scores = r.call(Sym::ltorch_masked_fill, {scores, masked, neg_inf(r, scores)}, loc);
    } else {
      scores = r.call(Sym::ltorch_add, {scores, mask, Obj::none()}, loc);
    }
  }
  Obj attn = r.call(Sym::ltorch_softmax, {scores, Obj::int_of(-1), Obj::none()}, loc);
  return r.call(Sym::ltorch_matmul, {attn, v}, loc);
}

Obj reduce_loss(Recorder &r, const Obj &loss, const Obj &reduction, const Obj *count,
                const Loc &loc) {
  if (reduction.kind != Obj::Kind::Str)
    throw TraceError(loc, "reduction must be 'none', 'mean' or 'sum'");
  const std::string &how = reduction.as<StrObj>().value;
  if (how == "none") return loss;
  Obj total =
      r.call(Sym::ltorch_sum, {loss, Obj::none(), Obj::boolean_of(false), Obj::none()}, loc);
  if (how == "sum") return total;
  if (how != "mean") throw TraceError(loc, how + " is not a valid value for reduction");
  if (count) return r.call(Sym::ltorch_true_divide, {total, *count}, loc);
  return r.call(Sym::ltorch_mean, {loss, Obj::none(), Obj::boolean_of(false), Obj::none()}, loc);
}

Obj nll_loss(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  // a, target, weight, size_average, ignore_index, reduce, reduction
  const Obj &a = args[0], &target = args[1], &weight = args[2];
  require_tensor(a, "the input", "nll_loss", loc);
  require_tensor(target, "the target", "nll_loss", loc);
  if (args[3].kind != Obj::Kind::None || args[5].kind != Obj::Kind::None)
    throw TraceError(loc, "nll_loss: the deprecated size_average and reduce are not supported");
  if (!is_integral(tensor(target).dtype) || tensor(target).dtype == DType::bool_)
    throw TraceError(loc, "nll_loss: the target must be an integer tensor of class indices");
  std::size_t rank = tensor(a).shape.size();
  bool ranks_match = (rank == 1 && tensor(target).shape.empty()) ||
                     (rank >= 2 && tensor(target).shape.size() + 1 == rank);
  if (!ranks_match)
    throw TraceError(loc, "nll_loss: expected a target of rank " + std::to_string(rank - 1) +
                              " for an input of rank " + std::to_string(rank));
  int64_t class_dim = rank >= 2 ? 1 : 0;
  Obj ignore = args[4];
  Obj valid = r.call(Sym::ltorch_ne, {target, ignore}, loc);
  Obj safe = r.call(Sym::ltorch_where, {valid, target, Obj::int_of(0)}, loc);
  Obj index = r.call(Sym::ltorch_unsqueeze, {safe, Obj::int_of(class_dim)}, loc);
  Obj picked = r.call(Sym::ltorch_gather, {a, Obj::int_of(class_dim), index}, loc);
  picked = r.call(Sym::ltorch_squeeze, {picked, Obj::int_of(class_dim)}, loc);
  Obj loss = r.call(Sym::ltorch_neg, {picked}, loc);
  Obj zero = Obj::float_of(0.0);
  Obj w_valid;
  if (weight.kind != Obj::Kind::None) {
    require_tensor(weight, "the weight", "nll_loss", loc);
    Obj w = r.call(Sym::ltorch_index_select,
                   {weight, Obj::int_of(0),
                    r.call(Sym::ltorch_reshape, {safe, Obj::tuple({Obj::int_of(-1)})}, loc)},
                   loc);
    w = r.call(Sym::ltorch_reshape, {w, Obj::tuple(tensor(safe).shape)}, loc);
    w_valid = r.call(Sym::ltorch_where, {valid, w, zero}, loc);
    loss = r.call(Sym::ltorch_mul, {loss, w_valid}, loc);
  }
  loss = r.call(Sym::ltorch_where, {valid, loss, zero}, loc);
  const std::string how = args[6].kind == Obj::Kind::Str ? args[6].as<StrObj>().value : "";
  if (how == "mean") {
    Obj count = weight.kind != Obj::Kind::None
                    ? r.call(Sym::ltorch_sum,
                             {w_valid, Obj::none(), Obj::boolean_of(false), Obj::none()}, loc)
                    : r.call(Sym::ltorch_sum,
                             {r.call(Sym::ltorch_to,
                                     {valid, Obj::none(), Obj::dtype_of(tensor(loss).dtype)}, loc),
                              Obj::none(), Obj::boolean_of(false), Obj::none()},
                             loc);
    return reduce_loss(r, loss, args[6], &count, loc);
  }
  return reduce_loss(r, loss, args[6], nullptr, loc);
}

Obj cross_entropy(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  // a, target, weight, size_average, ignore_index, reduce, reduction, label_smoothing
  const Obj &a = args[0], &target = args[1];
  require_tensor(a, "the input", "cross_entropy", loc);
  require_tensor(target, "the target", "cross_entropy", loc);
  if (!(args[7].is_number() && args[7].as_double() == 0.0))
    throw TraceError(loc, "cross_entropy with label_smoothing is not supported");
  std::size_t rank = tensor(a).shape.size();
  int64_t class_dim = rank >= 2 ? 1 : 0;
  Obj logp = r.call(Sym::ltorch_log_softmax, {a, Obj::int_of(class_dim), Obj::none()}, loc);
  if (is_floating(tensor(target).dtype)) {
    // Class probabilities.
    Obj prod = r.call(Sym::ltorch_mul, {logp, target}, loc);
    Obj s = r.call(Sym::ltorch_sum,
                   {prod, Obj::int_of(class_dim), Obj::boolean_of(false), Obj::none()}, loc);
    return reduce_loss(r, r.call(Sym::ltorch_neg, {s}, loc), args[6], nullptr, loc);
  }
  return r.call(Sym::ltorch_nll_loss, {logp, target, args[2], args[3], args[4], args[5], args[6]},
                loc);
}

Obj mse_loss(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "mse_loss", loc);
  require_tensor(args[1], "the target", "mse_loss", loc);
  Obj d = r.call(Sym::ltorch_sub, {args[0], args[1], Obj::none()}, loc);
  Obj sq = r.call(Sym::ltorch_mul, {d, d}, loc);
  return reduce_loss(r, sq, args[4], nullptr, loc);
}

Obj dropout(Recorder &r, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "dropout", loc);
  bool training = args[2].kind == Obj::Kind::Bool ? args[2].boolean : true;
  if (args[2].is_proxy()) r.guard(args[2], loc);
  double p = args[1].is_number() ? args[1].as_double() : 0.5;
  if (args[1].is_proxy()) r.guard(args[1], loc);
  if (p < 0 || p > 1)
    throw TraceError(loc,
                     "dropout probability has to be between 0 and 1, but got " + python_float(p));
  if (!training || p == 0) return args[0];
  if (p == 1)
    return r.call(Sym::ltorch_zeros_like, args_with_defaults(Sym::ltorch_zeros_like, {args[0]}),
                  loc);
  throw TraceError(loc, "dropout with p > 0 in training mode draws random numbers, which cannot be "
                        "compared with eager: trace in eval mode (the default) or with p=0");
}

} // namespace

void define_nn_ops(std::vector<OpSpec> &out) {
  out.push_back(prim_spec(Sym::prims_matmul, "a, b, /", matmul_meta, matmul_vjp));
  out.push_back(prim_spec(Sym::prims_linear, "a, w, bias, /", linear_meta, linear_vjp));
  add_ltorch(
      out, Sym::ltorch_matmul, "input, other, /",
      {"torch.matmul", "torch.mm", "torch.spmm", "Tensor.matmul", "Tensor.mm", "Tensor.__matmul__"},
      matmul);
  add_ltorch(out, Sym::ltorch_linear, "input, w, /, bias=None", {"torch.nn.functional.linear"},
             linear);
  add_ltorch(out, Sym::ltorch_bmm, "input, mat2, /", {"torch.bmm", "Tensor.bmm"}, bmm);
  add_ltorch(out, Sym::ltorch_normalize, "input, /, p=2.0, dim=1, eps=1e-12, out=None",
             {"torch.nn.functional.normalize"}, normalize);
  add_ltorch(out, Sym::ltorch_outer, "input, other, /",
             {"torch.outer", "torch.ger", "Tensor.outer"}, outer);
  add_ltorch(out, Sym::ltorch_embedding,
             "input, /, weight, padding_idx=None, max_norm=None, norm_type=2.0, "
             "scale_grad_by_freq=False, sparse=False",
             {"torch.nn.functional.embedding"}, embedding);
  add_ltorch(out, Sym::ltorch_scaled_dot_product_attention,
             "query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None, "
             "enable_gqa=False",
             {"torch.nn.functional.scaled_dot_product_attention"}, sdpa);
  add_ltorch(out, Sym::ltorch_cross_entropy,
             "input, /, target, weight=None, size_average=None, ignore_index=-100, reduce=None, "
             "reduction='mean', label_smoothing=0.0",
             {"torch.nn.functional.cross_entropy"}, cross_entropy);
  add_ltorch(out, Sym::ltorch_nll_loss,
             "input, /, target, weight=None, size_average=None, ignore_index=-100, reduce=None, "
             "reduction='mean'",
             {"torch.nn.functional.nll_loss"}, nll_loss);
  add_ltorch(out, Sym::ltorch_mse_loss,
             "input, /, target, size_average=None, reduce=None, reduction='mean'",
             {"torch.nn.functional.mse_loss"}, mse_loss);
  add_ltorch(out, Sym::ltorch_dropout, "input, /, p=0.5, training=True, inplace=False",
             {"torch.nn.functional.dropout", "torch.dropout"}, dropout);
  torch_only(out, Sym::ltorch_scaled_dot_product_attention, "enable_gqa");
  torch_only(out, Sym::ltorch_nll_loss, "size_average, reduce");
}

} // namespace tracelint::tracer::ops
