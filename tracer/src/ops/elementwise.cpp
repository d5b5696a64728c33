// Elementwise ops: the prims with their shape rules, and the ltorch symbols that decompose into
// them (broadcasting and type promotion as torch does).
#include "common.hpp"
#include "gradients.hpp"

#include <cmath>

namespace tracelint::tracer::ops {

namespace {

// ---- shape rules

Obj unary_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "an elementwise prim", loc);
  return like(args[0], tensor(args[0]).shape);
}

Obj predicate_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "an elementwise prim", loc);
  return like(args[0], tensor(args[0]).shape, DType::bool_);
}

// The operands' one shape and dtype: the decompositions broadcast and convert before a prim.
Obj binary_meta_of(const std::vector<Obj> &args, bool boolean, const Loc &loc) {
  const Obj *t = nullptr;
  for (const Obj &a : args)
    if (is_tensor(a)) {
      if (t && (tensor(a).shape.size() != tensor(*t).shape.size()))
        throw TraceError(loc, "an elementwise prim takes operands of one shape: " +
                                  shape_text(tensor(*t).shape) + " and " +
                                  shape_text(tensor(a).shape));
      if (!t) t = &a;
    } else if (!a.is_number()) {
      throw TraceError(loc, "an elementwise prim takes tensors and numbers, not " + describe(a));
    }
  if (!t) throw TraceError(loc, "an elementwise prim of numbers only is recorded as a number op");
  return like(*t, tensor(*t).shape, boolean ? DType::bool_ : tensor(*t).dtype);
}

Obj binary_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  return binary_meta_of(args, false, loc);
}
Obj comparison_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  return binary_meta_of(args, true, loc);
}

Obj where_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  std::vector<Obj> values = {args[1], args[2]};
  const Obj *shape_of = is_tensor(args[0]) ? &args[0] : nullptr;
  for (const Obj &a : values)
    if (is_tensor(a) && !shape_of) shape_of = &a;
  if (!shape_of) throw TraceError(loc, "prims.where needs a tensor operand");
  DType dtype = is_tensor(args[1])   ? tensor(args[1]).dtype
                : is_tensor(args[2]) ? tensor(args[2]).dtype
                                     : result_type({&args[1], &args[2]});
  return like(*shape_of, tensor(*shape_of).shape, dtype);
}

Obj convert_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.convert_element_type", loc);
  if (args[1].kind != Obj::Kind::DType)
    throw TraceError(loc, "prims.convert_element_type takes a dtype");
  return like(args[0], tensor(args[0]).shape, args[1].dtype());
}

// ---- decompositions

bool any_tensor(const std::vector<Obj> &v, std::size_t n) {
  for (std::size_t i = 0; i < n && i < v.size(); ++i)
    if (is_tensor(v[i])) return true;
  return false;
}

// Two numbers: Python's arithmetic (torch.add(2, 3) is 5).
Obj numbers(Recorder &r, NumOp op, const std::vector<Obj> &a, const Loc &loc) {
  for (std::size_t i = 0; i < 2; ++i)
    if (!a[i].is_number())
      throw TraceError(loc, "expected a tensor or a number, not " + describe(a[i]));
  return r.num(op, a[0], a[1], loc);
}

bool is_bool(const Obj &x) {
  return is_tensor(x) ? tensor(x).dtype == DType::bool_ : x.kind == Obj::Kind::Bool;
}

// What PyTorch refuses to do to a bool tensor (negate it, subtract it, take its abs...), with its
// message: the checks it makes before any kernel runs, and the kernels that have no bool case
// (those refuse only tensors with elements; the tracer refuses them all, as a trace is reused
// for other sizes).
void refuse_bool_tensor(const Obj &x, const std::string &message, const Loc &loc) {
  if (is_tensor(x) && tensor(x).dtype == DType::bool_) throw TraceError(loc, message);
}

// An operation with no kernel for bool results: bool ** bool, bool % bool, bool // bool.
void refuse_bool_result(const std::vector<Obj> &a, const char *name, const Loc &loc) {
  if (result_type({&a[0], &a[1]}) == DType::bool_)
    throw TraceError(loc, std::string("\"") + name + "\" not implemented for 'Bool'");
}

// torch.maximum, torch.logical_and, ...: both operands must be tensors.
void require_tensors(const std::vector<Obj> &a, Sym symbol, const Loc &loc) {
  for (std::size_t i = 0; i < 2; ++i)
    if (!is_tensor(a[i]))
      throw TraceError(loc, std::string(symbol_name(symbol).name) + "(): argument '" +
                                (i == 0 ? "input" : "other") + "' (position " +
                                std::to_string(i + 1) + ") must be Tensor, not " + describe(a[i]));
}

template <Sym S, Sym P> Obj tensors_binary(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensors(a, S, loc);
  return elementwise(r, P, {a[0], a[1]}, loc);
}

template <Sym P, NumOp N> Obj binary(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!any_tensor(a, 2)) return numbers(r, N, a, loc);
  return elementwise(r, P, {a[0], a[1]}, loc);
}

Obj add_or_sub(Recorder &r, Sym p, NumOp n, const std::vector<Obj> &a, const Loc &loc) {
  Obj other = a[1];
  bool unit_alpha = a[2].kind == Obj::Kind::None ||
                    (a[2].kind == Obj::Kind::Int && !a[2].is_proxy() && a[2].integer == 1);
  if (!unit_alpha)
    other = is_tensor(other) ? r.call(Sym::ltorch_mul, {other, a[2]}, loc)
                             : r.num(NumOp::mul, other, a[2], loc);
  if (!is_tensor(a[0]) && !is_tensor(other)) return numbers(r, n, {a[0], other}, loc);
  return elementwise(r, p, {a[0], other}, loc);
}

Obj add(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  return add_or_sub(r, Sym::prims_add, NumOp::add, a, loc);
}
Obj sub(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (any_tensor(a, 2)) {
    if (is_bool(a[0]) && is_bool(a[1]) && is_tensor(a[0]) && is_tensor(a[1]))
      throw TraceError(loc, "Subtraction, the `-` operator, with two bool tensors is not "
                            "supported. Use the `^` or `logical_xor()` operator instead.");
    if (is_bool(a[0]) || is_bool(a[1]))
      throw TraceError(loc, "Subtraction, the `-` operator, with a bool tensor is not supported. "
                            "If you are trying to invert a mask, use the `~` or `logical_not()` "
                            "operator instead.");
  }
  return add_or_sub(r, Sym::prims_sub, NumOp::sub, a, loc);
}

Obj true_divide(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!any_tensor(a, 2)) return numbers(r, NumOp::truediv, a, loc);
  DType t = result_type({&a[0], &a[1]});
  if (!is_floating(t) && !is_complex(t)) t = kDefaultFloat;
  return elementwise(r, Sym::prims_div, {a[0], a[1]}, loc, t);
}

// x < 0 for a tensor or a number operand of an integer division (a number stays a number).
Obj is_negative(Recorder &r, const Obj &x, DType t, const Loc &loc) {
  if (!is_tensor(x)) return r.num(NumOp::lt, x, Obj::int_of(0), loc);
  return elementwise(r, Sym::prims_lt, {x, Obj::int_of(0)}, loc, t);
}

// prims.where(pred, a, b): a and b promoted to `t`, all three broadcast; pred stays boolean.
Obj select(Recorder &r, const Obj &pred, const Obj &a, const Obj &b, DType t, const Loc &loc) {
  std::vector<Obj> shape;
  for (const Obj *o : {&pred, &a, &b})
    if (is_tensor(*o)) shape = broadcast_shapes(r, shape, tensor(*o).shape, loc);
  Obj cond = is_tensor(pred) ? broadcast_to(r, pred, shape, loc) : pred;
  Obj x = convert(r, a, t, loc), y = convert(r, b, t, loc);
  if (is_tensor(x)) x = broadcast_to(r, x, shape, loc);
  if (is_tensor(y)) y = broadcast_to(r, y, shape, loc);
  return r.prim(Sym::prims_where, {cond, x, y}, loc);
}

Obj floor_divide(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!any_tensor(a, 2)) return numbers(r, NumOp::floordiv, a, loc);
  refuse_bool_result(a, "div_floor_cpu", loc);
  DType t = result_type({&a[0], &a[1]});
  if (is_floating(t)) {
    Obj q = elementwise(r, Sym::prims_div, {a[0], a[1]}, loc, t);
    return r.prim(Sym::prims_floor, {q}, loc);
  }
  // Integers: truncating division, minus one where the signs differ and it is inexact.
  Obj q = elementwise(r, Sym::prims_div, {a[0], a[1]}, loc, t);
  Obj rem = elementwise(r, Sym::prims_fmod, {a[0], a[1]}, loc, t);
  Obj inexact = elementwise(r, Sym::prims_ne, {rem, Obj::int_of(0)}, loc);
  Obj neg_a = is_negative(r, a[0], t, loc);
  Obj neg_b = is_negative(r, a[1], t, loc);
  Obj differ = elementwise(r, Sym::prims_ne, {neg_a, neg_b}, loc);
  Obj fix = elementwise(r, Sym::prims_bitwise_and, {inexact, differ}, loc);
  return elementwise(r, Sym::prims_sub, {q, convert(r, fix, t, loc)}, loc);
}

Obj remainder(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!any_tensor(a, 2)) return numbers(r, NumOp::mod, a, loc);
  refuse_bool_result(a, "remainder_cpu", loc);
  DType t = result_type({&a[0], &a[1]});
  // Python's %: fmod, then the divisor added where the signs differ.
  Obj rem = elementwise(r, Sym::prims_fmod, {a[0], a[1]}, loc, t);
  Obj nonzero = elementwise(r, Sym::prims_ne, {rem, Obj::int_of(0)}, loc);
  Obj neg_rem = elementwise(r, Sym::prims_lt, {rem, Obj::int_of(0)}, loc);
  Obj neg_b = is_negative(r, a[1], t, loc);
  Obj differ = elementwise(r, Sym::prims_ne, {neg_rem, neg_b}, loc);
  Obj fix = elementwise(r, Sym::prims_bitwise_and, {nonzero, differ}, loc);
  Obj adjusted = elementwise(r, Sym::prims_add, {rem, a[1]}, loc, t);
  return select(r, fix, adjusted, rem, t, loc);
}

Obj div(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  const Obj &mode = a[2];
  if (mode.kind == Obj::Kind::None) return true_divide(r, a, loc);
  if (mode.kind != Obj::Kind::Str)
    throw TraceError(loc, "div: rounding_mode must be None, 'trunc' or 'floor'");
  const std::string &m = mode.as<StrObj>().value;
  if (m == "floor") return r.call(Sym::ltorch_floor_divide, {a[0], a[1]}, loc);
  if (m != "trunc")
    throw TraceError(
        loc,
        "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '" + m + "'");
  DType t = result_type({&a[0], &a[1]});
  Obj q = elementwise(r, Sym::prims_div, {a[0], a[1]}, loc, t);
  return is_floating(t) ? r.prim(Sym::prims_trunc, {q}, loc) : q;
}

template <Sym P> Obj compare(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!any_tensor(a, 2))
    throw TraceError(loc, "a tensor comparison of two numbers (use Python's comparison)");
  return elementwise(r, P, {a[0], a[1]}, loc, std::nullopt, DType::bool_);
}

template <Sym P> Obj bitwise(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  DType t = result_type({&a[0], &a[1]});
  if (!is_integral(t)) throw TraceError(loc, "bitwise operations need integer or bool tensors");
  return elementwise(r, P, {a[0], a[1]}, loc, t);
}

template <Sym S, Sym P> Obj logical(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensors(a, S, loc);
  Obj x = is_tensor(a[0]) && tensor(a[0]).dtype != DType::bool_
              ? elementwise(r, Sym::prims_ne, {a[0], Obj::int_of(0)}, loc)
              : a[0];
  Obj y = is_tensor(a[1]) && tensor(a[1]).dtype != DType::bool_
              ? elementwise(r, Sym::prims_ne, {a[1], Obj::int_of(0)}, loc)
              : a[1];
  return elementwise(r, P, {x, y}, loc, DType::bool_);
}

Obj logical_not(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "logical_not", loc);
  return elementwise(r, Sym::prims_eq, {a[0], Obj::int_of(0)}, loc, std::nullopt, DType::bool_);
}

Obj bitwise_not(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "bitwise_not", loc);
  if (!is_integral(tensor(a[0]).dtype))
    throw TraceError(loc, "bitwise_not is only supported for integer and boolean tensors");
  return r.prim(Sym::prims_bitwise_not, {a[0]}, loc);
}

template <Sym P> Obj same_dtype_unary(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", symbol_name(P).name.data(), loc);
  return r.prim(P, {a[0]}, loc);
}

// exp, log, tanh, ...: an integer tensor is computed as the default float dtype.
template <Sym P> Obj float_unary(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", symbol_name(P).name.data(), loc);
  Obj x = is_integral(tensor(a[0]).dtype) ? convert(r, a[0], kDefaultFloat, loc) : a[0];
  return r.prim(P, {x}, loc);
}

Obj power(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  if (!any_tensor(a, 2)) return numbers(r, NumOp::pow, a, loc);
  refuse_bool_result(a, "pow", loc);
  return elementwise(r, Sym::prims_pow, {a[0], a[1]}, loc);
}

Obj negate(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  refuse_bool_tensor(a[0],
                     "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                     "trying to invert a mask, use the `~` or `logical_not()` operator instead.",
                     loc);
  return same_dtype_unary<Sym::prims_neg>(r, a, loc);
}

Obj absolute(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  refuse_bool_tensor(a[0], "\"abs_cpu\" not implemented for 'Bool'", loc);
  return same_dtype_unary<Sym::prims_abs>(r, a, loc);
}

Obj floor(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "floor", loc);
  refuse_bool_tensor(a[0], "\"floor_vml_cpu\" not implemented for 'Bool'", loc);
  if (is_integral(tensor(a[0]).dtype)) return a[0];
  return r.prim(Sym::prims_floor, {a[0]}, loc);
}

Obj sigmoid(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_unary<Sym::prims_neg>(r, {a[0]}, loc);
  Obj e = r.prim(Sym::prims_exp, {x}, loc);
  Obj d = r.prim(Sym::prims_add, {Obj::float_of(1.0), e}, loc);
  return r.prim(Sym::prims_div, {Obj::float_of(1.0), d}, loc);
}

Obj relu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "relu", loc);
  refuse_bool_tensor(a[0], "Boolean inputs not supported for relu", loc);
  refuse_inplace(a[1], "relu", loc);
  Obj zero = is_floating(tensor(a[0]).dtype) ? Obj::float_of(0.0) : Obj::int_of(0);
  Obj positive = r.prim(Sym::prims_gt, {a[0], zero}, loc);
  return r.prim(Sym::prims_where, {positive, a[0], zero}, loc);
}

Obj silu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "silu", loc);
  Obj t1 = r.prim(Sym::prims_neg, {x}, loc);
  Obj t2 = r.prim(Sym::prims_exp, {t1}, loc);
  Obj t3 = r.prim(Sym::prims_add, {Obj::float_of(1.0), t2}, loc);
  return r.prim(Sym::prims_div, {x, t3}, loc);
}

// softplus as torch computes it: log1p(exp(beta x)) / beta, and x itself where beta x exceeds the
// threshold.
Obj softplus(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "softplus", loc);
  std::vector<Obj> numbers;
  for (const Obj *p : {&a[1], &a[2]}) {
    if (!p->is_number() || p->kind == Obj::Kind::Bool)
      throw TraceError(loc, "softplus: beta and threshold must be numbers, not " + describe(*p));
    if (p->is_proxy()) r.guard(*p, loc);
    numbers.push_back(Obj::float_of(p->as_double()));
  }
  Obj scaled = r.prim(Sym::prims_mul, {x, numbers[0]}, loc);
  Obj soft = r.prim(Sym::prims_log1p, {r.prim(Sym::prims_exp, {scaled}, loc)}, loc);
  soft = r.prim(Sym::prims_div, {soft, numbers[0]}, loc);
  Obj linear = r.prim(Sym::prims_gt, {scaled, numbers[1]}, loc);
  return r.prim(Sym::prims_where, {linear, x, soft}, loc);
}

Obj gelu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "gelu", loc);
  if (a[1].kind != Obj::Kind::Str ||
      (a[1].as<StrObj>().value != "none" && a[1].as<StrObj>().value != "tanh"))
    throw TraceError(loc, "gelu: approximate must be 'none' or 'tanh'");
  auto f = [](double d) { return Obj::float_of(d); };
  if (a[1].as<StrObj>().value == "tanh") {
    // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    Obj t1 = r.prim(Sym::prims_mul, {x, x}, loc);
    Obj t2 = r.prim(Sym::prims_mul, {t1, x}, loc);
    Obj t3 = r.prim(Sym::prims_mul, {t2, f(0.044715)}, loc);
    Obj t4 = r.prim(Sym::prims_add, {x, t3}, loc);
    Obj t5 = r.prim(Sym::prims_mul, {t4, f(0.7978845608028654)}, loc);
    Obj t6 = r.prim(Sym::prims_tanh, {t5}, loc);
    Obj t7 = r.prim(Sym::prims_add, {t6, f(1.0)}, loc);
    Obj t8 = r.prim(Sym::prims_mul, {x, t7}, loc);
    return r.prim(Sym::prims_mul, {t8, f(0.5)}, loc);
  }
  // 0.5 x (1 + erf(x / sqrt(2)))
  Obj t1 = r.prim(Sym::prims_mul, {x, f(0.7071067811865476)}, loc);
  Obj t2 = r.prim(Sym::prims_erf, {t1}, loc);
  Obj t3 = r.prim(Sym::prims_add, {t2, f(1.0)}, loc);
  Obj t4 = r.prim(Sym::prims_mul, {x, t3}, loc);
  return r.prim(Sym::prims_mul, {t4, f(0.5)}, loc);
}

Obj clamp(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "clamp", loc);
  if (a[1].kind == Obj::Kind::None && a[2].kind == Obj::Kind::None)
    throw TraceError(loc, "torch.clamp: at least one of 'min' or 'max' must not be None");
  Obj x = a[0];
  DType t = result_type({&a[0], &a[1], &a[2]});
  x = convert(r, x, t, loc);
  if (a[1].kind != Obj::Kind::None) {
    Obj below = elementwise(r, Sym::prims_lt, {x, a[1]}, loc, t, DType::bool_);
    x = select(r, below, a[1], x, t, loc);
  }
  if (a[2].kind != Obj::Kind::None) {
    Obj above = elementwise(r, Sym::prims_gt, {x, a[2]}, loc, t, DType::bool_);
    x = select(r, above, a[2], x, t, loc);
  }
  return x;
}

Obj where(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the condition", "where", loc);
  if (tensor(a[0]).dtype != DType::bool_)
    throw TraceError(
        loc, "where expected condition to be a boolean tensor, but got a tensor with dtype " +
                 std::string(dtype_info(tensor(a[0]).dtype).torch_name));
  return select(r, a[0], a[1], a[2], result_type({&a[1], &a[2]}), loc);
}

Obj masked_fill(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "masked_fill", loc);
  require_tensor(a[1], "the mask", "masked_fill", loc);
  if (tensor(a[1]).dtype != DType::bool_)
    throw TraceError(loc, "masked_fill only supports boolean masks, but got mask with dtype " +
                              std::string(dtype_info(tensor(a[1]).dtype).torch_name));
  Obj value = a[2];
  if (is_tensor(value)) {
    if (!tensor(value).shape.empty())
      throw TraceError(loc, "masked_fill only supports a 0-dimensional value tensor");
  } else if (!value.is_number()) {
    throw TraceError(loc, "masked_fill: value must be a number or a 0-d tensor");
  }
  // Out of place, the input and the mask broadcast together (the mask may be the larger).
  const std::vector<Obj> shape = broadcast_shapes(r, tensor(a[0]).shape, tensor(a[1]).shape, loc);
  Obj mask = broadcast_to(r, a[1], shape, loc);
  Obj input = broadcast_to(r, a[0], shape, loc);
  // The value takes the input's dtype: 0.5 fills an integer tensor with 0.
  DType dtype = tensor(a[0]).dtype;
  Obj v = convert(r, value, dtype, loc);
  if (!is_tensor(v) && v.kind == Obj::Kind::Float && is_integral(dtype) && dtype != DType::bool_) {
    // PyTorch's checked cast: a value out of the dtype's range (or inf, nan) is refused.
    double limit = std::ldexp(1.0, dtype_info(dtype).bits - (dtype == DType::uint8 ? 0 : 1));
    double lowest = dtype == DType::uint8 ? 0.0 : -limit;
    if (!(v.real >= lowest && v.real < limit))
      throw TraceError(loc, "value cannot be converted to type " +
                                std::string(dtype_info(dtype).torch_name) + " without overflow");
    v = v.is_proxy() ? r.num(NumOp::to_int, v, Obj::none(), loc)
                     : Obj::int_of(static_cast<int64_t>(v.real));
  }
  if (is_tensor(v)) v = broadcast_to(r, v, shape, loc);
  return r.prim(Sym::prims_where, {mask, v, input}, loc);
}

Obj to(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[0], "the input", "to", loc);
  Obj x = a[0];
  if (a[1].kind == Obj::Kind::Device) {
    std::string device = a[1].as<DeviceObj>().spec;
    if (device == "cuda") device = "cuda:0";
    if (device != tensor(x).device)
      throw TraceError(loc, "moving a tensor from " + tensor(x).device + " to " + device +
                                " is not supported by the tracer (trace with the inputs on the "
                                "device the computation runs on)");
  } else if (a[1].kind != Obj::Kind::None) {
    throw TraceError(loc, "to: device must be a torch.device or a string");
  }
  if (a[2].kind == Obj::Kind::DType)
    x = convert(r, x, a[2].dtype(), loc);
  else if (a[2].kind != Obj::Kind::None)
    throw TraceError(loc, "to: dtype must be a torch dtype");
  return x;
}

Obj type_as(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  require_tensor(a[1], "other", "type_as", loc);
  return r.call(Sym::ltorch_to, {a[0], Obj::none(), Obj::dtype_of(tensor(a[1]).dtype)}, loc);
}

// ---- VJP rules (the operands of an elementwise prim have one shape, or are numbers)

using grad::if_differentiable;

std::vector<Obj> neg_vjp(Recorder &r, const std::vector<Obj> &, const Obj &, const Obj &g,
                         const Loc &loc) {
  return {grad::neg(r, g, loc)};
}
std::vector<Obj> abs_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  // sign(a), 0 at 0 as torch's
  Obj pos = grad::as_dtype_of(r, r.prim(Sym::prims_gt, {a[0], Obj::float_of(0)}, loc), a[0], loc);
  Obj negative =
      grad::as_dtype_of(r, r.prim(Sym::prims_lt, {a[0], Obj::float_of(0)}, loc), a[0], loc);
  return {grad::mul(r, g, grad::sub(r, pos, negative, loc), loc)};
}
std::vector<Obj> exp_vjp(Recorder &r, const std::vector<Obj> &, const Obj &out, const Obj &g,
                         const Loc &loc) {
  return {grad::mul(r, g, out, loc)};
}
std::vector<Obj> log_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  return {grad::div(r, g, a[0], loc)};
}
std::vector<Obj> log1p_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                           const Loc &loc) {
  return {grad::div(r, g, grad::add(r, a[0], Obj::float_of(1), loc), loc)};
}
std::vector<Obj> expm1_vjp(Recorder &r, const std::vector<Obj> &, const Obj &out, const Obj &g,
                           const Loc &loc) {
  return {grad::mul(r, g, grad::add(r, out, Obj::float_of(1), loc), loc)};
}
std::vector<Obj> tanh_vjp(Recorder &r, const std::vector<Obj> &, const Obj &out, const Obj &g,
                          const Loc &loc) {
  Obj one_minus = grad::sub(r, Obj::float_of(1), grad::mul(r, out, out, loc), loc);
  return {grad::mul(r, g, one_minus, loc)};
}
std::vector<Obj> rsqrt_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &out, const Obj &g,
                           const Loc &loc) {
  // d/da a^(-1/2) = -1/2 a^(-3/2) = -0.5 * out / a
  Obj d = grad::div(r, grad::mul(r, out, Obj::float_of(-0.5), loc), a[0], loc);
  return {grad::mul(r, g, d, loc)};
}
std::vector<Obj> sqrt_vjp(Recorder &r, const std::vector<Obj> &, const Obj &out, const Obj &g,
                          const Loc &loc) {
  return {grad::div(r, g, grad::mul(r, out, Obj::float_of(2), loc), loc)};
}
std::vector<Obj> sin_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  return {grad::mul(r, g, grad::unary(r, Sym::ltorch_cos, a[0], loc), loc)};
}
std::vector<Obj> cos_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  return {grad::neg(r, grad::mul(r, g, grad::unary(r, Sym::ltorch_sin, a[0], loc), loc), loc)};
}
std::vector<Obj> erf_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  // 2 / sqrt(pi) * exp(-a^2)
  Obj e = grad::unary(r, Sym::ltorch_exp, grad::neg(r, grad::mul(r, a[0], a[0], loc), loc), loc);
  return {grad::mul(r, g, grad::mul(r, e, Obj::float_of(2 / std::sqrt(M_PI)), loc), loc)};
}
std::vector<Obj> zero_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &,
                          const Loc &loc) {
  return {grad::zeros_like(r, a[0], loc)}; // floor, ceil, trunc: zero almost everywhere
}
std::vector<Obj> reciprocal_vjp(Recorder &r, const std::vector<Obj> &, const Obj &out, const Obj &g,
                                const Loc &loc) {
  return {grad::neg(r, grad::mul(r, g, grad::mul(r, out, out, loc), loc), loc)};
}

std::vector<Obj> add_vjp(Recorder &, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &) {
  return {if_differentiable(a[0], g), if_differentiable(a[1], g)};
}
std::vector<Obj> sub_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  return {if_differentiable(a[0], g),
          is_tensor(a[1]) ? if_differentiable(a[1], grad::neg(r, g, loc)) : Obj::none()};
}
std::vector<Obj> mul_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                         const Loc &loc) {
  return {is_tensor(a[0]) ? if_differentiable(a[0], grad::mul(r, g, a[1], loc)) : Obj::none(),
          is_tensor(a[1]) ? if_differentiable(a[1], grad::mul(r, g, a[0], loc)) : Obj::none()};
}
std::vector<Obj> div_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &out, const Obj &g,
                         const Loc &loc) {
  if (!is_floating(tensor(out).dtype)) return {Obj::none(), Obj::none()};
  Obj ga = grad::div(r, g, a[1], loc);
  // d(a/b)/db = -a/b^2 = -out/b
  Obj gb = is_tensor(a[1]) ? grad::neg(r, grad::mul(r, ga, out, loc), loc) : Obj::none();
  return {is_tensor(a[0]) ? ga : Obj::none(), if_differentiable(a[1], gb)};
}
std::vector<Obj> pow_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &out, const Obj &g,
                         const Loc &loc) {
  Obj ga = Obj::none(), gb = Obj::none();
  if (is_tensor(a[0])) {
    Obj exponent_less_one = is_tensor(a[1]) ? grad::sub(r, a[1], Obj::float_of(1), loc)
                                            : r.num(NumOp::sub, a[1], Obj::int_of(1), loc);
    Obj power = r.call(Sym::ltorch_pow, {a[0], exponent_less_one}, loc);
    ga = grad::mul(r, g, grad::mul(r, power, a[1], loc), loc);
  }
  if (is_tensor(a[1])) {
    Obj log_base;
    if (is_tensor(a[0])) {
      log_base = grad::unary(r, Sym::ltorch_log, a[0], loc);
    } else {
      if (a[0].is_proxy())
        throw TraceError(loc, "unsupported construct: the gradient of a number proxy raised to "
                              "a tensor power");
      log_base = Obj::float_of(std::log(a[0].as_double()));
    }
    gb = grad::mul(r, g, grad::mul(r, out, log_base, loc), loc);
  }
  return {if_differentiable(a[0], ga), if_differentiable(a[1], gb)};
}
std::vector<Obj> fmod_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                          const Loc &loc) {
  Obj gb = Obj::none();
  if (is_tensor(a[1])) {
    Obj q = r.prim(Sym::prims_trunc, {grad::div(r, a[0], a[1], loc)}, loc);
    gb = grad::neg(r, grad::mul(r, g, q, loc), loc);
  }
  return {if_differentiable(a[0], g), if_differentiable(a[1], gb)};
}
// maximum and minimum: the larger (smaller) operand takes the cotangent; ties split it, as
// torch does.
std::vector<Obj> extremum_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &g, Sym wins,
                              const Loc &loc) {
  Obj tie = r.prim(Sym::prims_eq, {a[0], a[1]}, loc);
  Obj half = grad::mul(r, g, Obj::float_of(0.5), loc);
  auto side = [&](const Obj &x, const Obj &y) {
    Obj win = r.prim(wins, {x, y}, loc);
    return grad::where(r, win, g, grad::where(r, tie, half, Obj::float_of(0), loc), loc);
  };
  return {is_tensor(a[0]) ? if_differentiable(a[0], side(a[0], a[1])) : Obj::none(),
          is_tensor(a[1]) ? if_differentiable(a[1], side(a[1], a[0])) : Obj::none()};
}
std::vector<Obj> maximum_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                             const Loc &loc) {
  return extremum_vjp(r, a, g, Sym::prims_gt, loc);
}
std::vector<Obj> minimum_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                             const Loc &loc) {
  return extremum_vjp(r, a, g, Sym::prims_lt, loc);
}
std::vector<Obj> where_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                           const Loc &loc) {
  Obj zero = Obj::float_of(0);
  return {
      Obj::none(),
      is_tensor(a[1]) ? if_differentiable(a[1], grad::where(r, a[0], g, zero, loc)) : Obj::none(),
      is_tensor(a[2]) ? if_differentiable(a[2], grad::where(r, a[0], zero, g, loc)) : Obj::none()};
}
std::vector<Obj> convert_vjp(Recorder &r, const std::vector<Obj> &a, const Obj &, const Obj &g,
                             const Loc &loc) {
  return {if_differentiable(a[0], convert(r, g, tensor(a[0]).dtype, loc)), Obj::none()};
}
} // namespace

namespace {

void define_elementwise_prims(std::vector<OpSpec> &out) {
  auto prim = [&](Sym s, const char *sig, ShapeRule meta, Vjp vjp) {
    out.push_back(prim_spec(s, sig, meta, vjp));
  };
  const std::pair<Sym, Vjp> unary_prims[] = {{Sym::prims_neg, neg_vjp},
                                             {Sym::prims_abs, abs_vjp},
                                             {Sym::prims_exp, exp_vjp},
                                             {Sym::prims_log, log_vjp},
                                             {Sym::prims_log1p, log1p_vjp},
                                             {Sym::prims_expm1, expm1_vjp},
                                             {Sym::prims_tanh, tanh_vjp},
                                             {Sym::prims_rsqrt, rsqrt_vjp},
                                             {Sym::prims_sqrt, sqrt_vjp},
                                             {Sym::prims_sin, sin_vjp},
                                             {Sym::prims_cos, cos_vjp},
                                             {Sym::prims_erf, erf_vjp},
                                             {Sym::prims_floor, zero_vjp},
                                             {Sym::prims_ceil, zero_vjp},
                                             {Sym::prims_trunc, zero_vjp},
                                             {Sym::prims_reciprocal, reciprocal_vjp},
                                             {Sym::prims_bitwise_not, no_gradient}};
  for (auto [s, vjp] : unary_prims)
    prim(s, "a, /", unary_meta, vjp);
  prim(Sym::prims_signbit, "a, /", predicate_meta, no_gradient);
  prim(Sym::prims_isfinite, "a, /", predicate_meta, no_gradient);
  const std::pair<Sym, Vjp> binary_prims[] = {{Sym::prims_add, add_vjp},
                                              {Sym::prims_sub, sub_vjp},
                                              {Sym::prims_mul, mul_vjp},
                                              {Sym::prims_div, div_vjp},
                                              {Sym::prims_pow, pow_vjp},
                                              {Sym::prims_fmod, fmod_vjp},
                                              {Sym::prims_maximum, maximum_vjp},
                                              {Sym::prims_minimum, minimum_vjp},
                                              {Sym::prims_bitwise_and, no_gradient},
                                              {Sym::prims_bitwise_or, no_gradient},
                                              {Sym::prims_bitwise_xor, no_gradient}};
  for (auto [s, vjp] : binary_prims)
    prim(s, "a, b, /", binary_meta, vjp);
  for (Sym s :
       {Sym::prims_eq, Sym::prims_ne, Sym::prims_lt, Sym::prims_le, Sym::prims_gt, Sym::prims_ge})
    prim(s, "a, b, /", comparison_meta, no_gradient);
  prim(Sym::prims_where, "pred, a, b, /", where_meta, where_vjp);
  prim(Sym::prims_convert_element_type, "a, dtype, /", convert_meta, convert_vjp);
}

void define_elementwise_ltorch(std::vector<OpSpec> &out) {
  add_ltorch(out, Sym::ltorch_add, "input, other, /, *, alpha=1",
             {"torch.add", "Tensor.add", "Tensor.add_", "Tensor.__add__"}, add);
  add_ltorch(out, Sym::ltorch_sub, "input, other, /, *, alpha=1",
             {"torch.sub", "torch.subtract", "Tensor.sub", "Tensor.sub_", "Tensor.__sub__"}, sub);
  add_ltorch(out, Sym::ltorch_mul, "input, other, /",
             {"torch.mul", "torch.multiply", "Tensor.mul", "Tensor.mul_", "Tensor.__mul__"},
             binary<Sym::prims_mul, NumOp::mul>);
  add_ltorch(out, Sym::ltorch_true_divide, "input, other, /",
             {"torch.true_divide", "Tensor.true_divide", "Tensor.__truediv__"}, true_divide);
  add_ltorch(out, Sym::ltorch_div, "input, other, /, *, rounding_mode=None",
             {"torch.div", "torch.divide", "Tensor.div", "Tensor.div_", "Tensor.divide"}, div);
  add_ltorch(out, Sym::ltorch_floor_divide, "input, other, /",
             {"torch.floor_divide", "Tensor.floor_divide", "Tensor.__floordiv__"}, floor_divide);
  add_ltorch(out, Sym::ltorch_remainder, "input, other, /",
             {"torch.remainder", "Tensor.remainder", "Tensor.__mod__"}, remainder);
  add_ltorch(out, Sym::ltorch_pow, "input, other, /",
             {"torch.pow", "Tensor.pow", "Tensor.pow_", "Tensor.__pow__"}, power);
  add_ltorch(out, Sym::ltorch_maximum, "input, other, /", {"torch.maximum", "Tensor.maximum"},
             tensors_binary<Sym::ltorch_maximum, Sym::prims_maximum>);
  add_ltorch(out, Sym::ltorch_minimum, "input, other, /", {"torch.minimum", "Tensor.minimum"},
             tensors_binary<Sym::ltorch_minimum, Sym::prims_minimum>);
  add_ltorch(out, Sym::ltorch_eq, "input, other, /", {"torch.eq", "Tensor.eq", "Tensor.__eq__"},
             compare<Sym::prims_eq>);
  add_ltorch(out, Sym::ltorch_ne, "input, other, /",
             {"torch.ne", "torch.not_equal", "Tensor.ne", "Tensor.__ne__"}, compare<Sym::prims_ne>);
  add_ltorch(out, Sym::ltorch_lt, "input, other, /",
             {"torch.lt", "torch.less", "Tensor.lt", "Tensor.__lt__"}, compare<Sym::prims_lt>);
  add_ltorch(out, Sym::ltorch_le, "input, other, /",
             {"torch.le", "torch.less_equal", "Tensor.le", "Tensor.__le__"},
             compare<Sym::prims_le>);
  add_ltorch(out, Sym::ltorch_gt, "input, other, /",
             {"torch.gt", "torch.greater", "Tensor.gt", "Tensor.__gt__"}, compare<Sym::prims_gt>);
  add_ltorch(out, Sym::ltorch_ge, "input, other, /",
             {"torch.ge", "torch.greater_equal", "Tensor.ge", "Tensor.__ge__"},
             compare<Sym::prims_ge>);
  add_ltorch(out, Sym::ltorch_logical_and, "input, other, /",
             {"torch.logical_and", "Tensor.logical_and"},
             logical<Sym::ltorch_logical_and, Sym::prims_bitwise_and>);
  add_ltorch(out, Sym::ltorch_logical_or, "input, other, /",
             {"torch.logical_or", "Tensor.logical_or"},
             logical<Sym::ltorch_logical_or, Sym::prims_bitwise_or>);
  add_ltorch(out, Sym::ltorch_logical_not, "input, /", {"torch.logical_not", "Tensor.logical_not"},
             logical_not);
  add_ltorch(out, Sym::ltorch_bitwise_and, "input, other, /",
             {"torch.bitwise_and", "Tensor.bitwise_and", "Tensor.__and__"},
             bitwise<Sym::prims_bitwise_and>);
  add_ltorch(out, Sym::ltorch_bitwise_or, "input, other, /",
             {"torch.bitwise_or", "Tensor.bitwise_or", "Tensor.__or__"},
             bitwise<Sym::prims_bitwise_or>);
  add_ltorch(out, Sym::ltorch_bitwise_not, "input, /",
             {"torch.bitwise_not", "Tensor.bitwise_not", "Tensor.__invert__"}, bitwise_not);
  add_ltorch(out, Sym::ltorch_neg, "input, /",
             {"torch.neg", "torch.negative", "Tensor.neg", "Tensor.negative", "Tensor.__neg__"},
             negate);
  add_ltorch(out, Sym::ltorch_abs, "input, /", {"torch.abs", "Tensor.abs", "Tensor.__abs__"},
             absolute);
  add_ltorch(out, Sym::ltorch_exp, "input, /", {"torch.exp", "Tensor.exp", "Tensor.exp_"},
             float_unary<Sym::prims_exp>);
  add_ltorch(out, Sym::ltorch_log, "input, /", {"torch.log", "Tensor.log", "Tensor.log_"},
             float_unary<Sym::prims_log>);
  add_ltorch(out, Sym::ltorch_log1p, "input, /", {"torch.log1p", "Tensor.log1p"},
             float_unary<Sym::prims_log1p>);
  add_ltorch(out, Sym::ltorch_expm1, "input, /",
             {"torch.expm1", "Tensor.expm1", "torch.special.expm1"}, float_unary<Sym::prims_expm1>);
  add_ltorch(out, Sym::ltorch_tanh, "input, /",
             {"torch.tanh", "Tensor.tanh", "Tensor.tanh_", "torch.nn.functional.tanh"},
             float_unary<Sym::prims_tanh>);
  add_ltorch(out, Sym::ltorch_rsqrt, "input, /", {"torch.rsqrt", "Tensor.rsqrt", "Tensor.rsqrt_"},
             float_unary<Sym::prims_rsqrt>);
  add_ltorch(out, Sym::ltorch_sqrt, "input, /", {"torch.sqrt", "Tensor.sqrt", "Tensor.sqrt_"},
             float_unary<Sym::prims_sqrt>);
  add_ltorch(out, Sym::ltorch_sin, "input, /", {"torch.sin", "Tensor.sin"},
             float_unary<Sym::prims_sin>);
  add_ltorch(out, Sym::ltorch_cos, "input, /", {"torch.cos", "Tensor.cos"},
             float_unary<Sym::prims_cos>);
  add_ltorch(out, Sym::ltorch_erf, "input, /", {"torch.erf", "Tensor.erf", "torch.special.erf"},
             float_unary<Sym::prims_erf>);
  add_ltorch(out, Sym::ltorch_floor, "input, /", {"torch.floor", "Tensor.floor"}, floor);
  add_ltorch(out, Sym::ltorch_sigmoid, "input, /",
             {"torch.sigmoid", "Tensor.sigmoid", "torch.nn.functional.sigmoid"}, sigmoid);
  add_ltorch(out, Sym::ltorch_relu, "input, /, inplace=False",
             {"torch.relu", "Tensor.relu", "torch.nn.functional.relu"}, relu);
  add_ltorch(out, Sym::ltorch_silu, "input, /, inplace=False", {"torch.nn.functional.silu"}, silu);
  add_ltorch(out, Sym::ltorch_gelu, "input, /, *, approximate='none'", {"torch.nn.functional.gelu"},
             gelu);
  add_ltorch(out, Sym::ltorch_softplus, "input, /, beta=1.0, threshold=20.0",
             {"torch.nn.functional.softplus"}, softplus);
  add_ltorch(out, Sym::ltorch_clamp, "input, /, min=None, max=None",
             {"torch.clamp", "torch.clip", "Tensor.clamp", "Tensor.clip", "Tensor.clamp_"}, clamp);
  add_ltorch(out, Sym::ltorch_where, "pred, a, b, /", {"torch.where"}, where);
  add_ltorch(out, Sym::ltorch_masked_fill, "input, /, mask, value",
             {"torch.masked_fill", "Tensor.masked_fill", "Tensor.masked_fill_"}, masked_fill);
  add_ltorch(out, Sym::ltorch_to, "input, /, *, device=None, dtype=None", {}, to);
  add_ltorch(out, Sym::ltorch_type_as, "input, other, /", {"Tensor.type_as"}, type_as);
}

} // namespace

void define_elementwise_ops(std::vector<OpSpec> &out) {
  define_elementwise_prims(out);
  define_elementwise_ltorch(out);
}

} // namespace tracelint::tracer::ops
