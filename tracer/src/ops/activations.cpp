// Activation functions beyond relu, silu, gelu and softplus (elementwise.cpp): each an ltorch
// symbol decomposed into ltorch's elementwise symbols as Thunder writes them
// (thunder/torch/__init__.py), with torch's formulas where the two differ in rounding
// (hardsigmoid and hardswish as (x + 3) clamped to [0, 6], divided by 6; logsigmoid in torch's
// stable form). Each is differentiated through its decomposition.
#include "common.hpp"

#include <string>

namespace tracelint::tracer::ops {

namespace {

Obj f(double d) {
  return Obj::float_of(d);
}

// A number parameter (negative_slope, alpha, min_val): a Python number, guarded when it is a
// proxy, as a float.
Obj number_param(Recorder &r, const Obj &p, const char *name, const char *op, const Loc &loc) {
  if (!p.is_number() || p.kind == Obj::Kind::Bool)
    throw TraceError(loc, std::string(op) + ": " + name + " must be a number, not " + describe(p));
  if (p.is_proxy()) r.guard(p, loc);
  return f(p.as_double());
}

// where(x > 0, x, negative): the shape of leaky_relu, elu, celu and selu.
Obj positive_or(Recorder &r, const Obj &x, const Obj &negative, const Loc &loc) {
  Obj positive = call_ltorch(r, Sym::ltorch_gt, {x, f(0)}, loc);
  return call_ltorch(r, Sym::ltorch_where, {positive, x, negative}, loc);
}

Obj leaky_relu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "leaky_relu", loc);
  Obj slope = number_param(r, a[1], "negative_slope", "leaky_relu", loc);
  refuse_inplace(a[2], "leaky_relu", loc);
  return positive_or(r, x, call_ltorch(r, Sym::ltorch_mul, {x, slope}, loc), loc);
}

// alpha * (exp(x / scale) - 1) below 0: elu (scale 1) and celu (scale alpha).
Obj exponential_below_zero(Recorder &r, const Obj &x, const Obj &alpha, bool divide,
                           const Loc &loc) {
  Obj scaled = divide ? call_ltorch(r, Sym::ltorch_true_divide, {x, alpha}, loc) : x;
  Obj e = call_ltorch(r, Sym::ltorch_expm1, {scaled}, loc);
  return positive_or(r, x, call_ltorch(r, Sym::ltorch_mul, {e, alpha}, loc), loc);
}

Obj elu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "elu", loc);
  Obj alpha = number_param(r, a[1], "alpha", "elu", loc);
  refuse_inplace(a[2], "elu", loc);
  return exponential_below_zero(r, x, alpha, false, loc);
}

Obj celu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "celu", loc);
  Obj alpha = number_param(r, a[1], "alpha", "celu", loc);
  if (alpha.real == 0) throw TraceError(loc, "ZeroDivisionError: celu: alpha must not be 0");
  refuse_inplace(a[2], "celu", loc);
  return exponential_below_zero(r, x, alpha, true, loc);
}

Obj selu(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "selu", loc);
  refuse_inplace(a[1], "selu", loc);
  // torch's constants (Klambauer et al.), as ATen's selu has them.
  Obj inner = exponential_below_zero(r, x, f(1.6732632423543772848170429916717), false, loc);
  return call_ltorch(r, Sym::ltorch_mul, {inner, f(1.0507009873554804934193349852946)}, loc);
}

Obj clamped(Recorder &r, const Obj &x, double lo, double hi, const Loc &loc) {
  return call_ltorch(r, Sym::ltorch_clamp, {x, f(lo), f(hi)}, loc);
}

Obj relu6(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "relu6", loc);
  refuse_inplace(a[1], "relu6", loc);
  return clamped(r, x, 0, 6, loc);
}

Obj hardtanh(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "hardtanh", loc);
  Obj lo = number_param(r, a[1], "min_val", "hardtanh", loc);
  Obj hi = number_param(r, a[2], "max_val", "hardtanh", loc);
  if (lo.real > hi.real)
    throw TraceError(loc, "ValueError: min_val cannot be greater than max_val");
  refuse_inplace(a[3], "hardtanh", loc);
  return clamped(r, x, lo.real, hi.real, loc);
}

// clamp(x + 3, 0, 6): ATen's hardsigmoid and hardswish compute it so.
Obj relu6_of_x_plus_3(Recorder &r, const Obj &x, const Loc &loc) {
  return clamped(r, call_ltorch(r, Sym::ltorch_add, {x, f(3)}, loc), 0, 6, loc);
}

Obj hardsigmoid(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "hardsigmoid", loc);
  refuse_inplace(a[1], "hardsigmoid", loc);
  return call_ltorch(r, Sym::ltorch_true_divide, {relu6_of_x_plus_3(r, x, loc), f(6)}, loc);
}

Obj hardswish(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "hardswish", loc);
  refuse_inplace(a[1], "hardswish", loc);
  Obj scaled = call_ltorch(r, Sym::ltorch_mul, {x, relu6_of_x_plus_3(r, x, loc)}, loc);
  return call_ltorch(r, Sym::ltorch_true_divide, {scaled, f(6)}, loc);
}

Obj mish(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "mish", loc);
  refuse_inplace(a[1], "mish", loc);
  // x tanh(log1p(exp(x))): softplus without its threshold, as ATen's mish.
  Obj soft = call_ltorch(r, Sym::ltorch_log1p, {call_ltorch(r, Sym::ltorch_exp, {x}, loc)}, loc);
  return call_ltorch(r, Sym::ltorch_mul, {x, call_ltorch(r, Sym::ltorch_tanh, {soft}, loc)}, loc);
}

Obj softsign(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "softsign", loc);
  Obj denominator =
      call_ltorch(r, Sym::ltorch_add, {call_ltorch(r, Sym::ltorch_abs, {x}, loc), f(1)}, loc);
  return call_ltorch(r, Sym::ltorch_true_divide, {x, denominator}, loc);
}

Obj tanhshrink(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "tanhshrink", loc);
  return call_ltorch(r, Sym::ltorch_sub, {x, call_ltorch(r, Sym::ltorch_tanh, {x}, loc)}, loc);
}

Obj logsigmoid(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  Obj x = float_input(r, a[0], "logsigmoid", loc);
  // min(x, 0) - log1p(exp(-|x|)): no exp overflows, as ATen's log_sigmoid.
  Obj below = call_ltorch(r, Sym::ltorch_clamp, {x, Obj::none(), f(0)}, loc);
  Obj decay = call_ltorch(r, Sym::ltorch_neg, {call_ltorch(r, Sym::ltorch_abs, {x}, loc)}, loc);
  Obj soft =
      call_ltorch(r, Sym::ltorch_log1p, {call_ltorch(r, Sym::ltorch_exp, {decay}, loc)}, loc);
  return call_ltorch(r, Sym::ltorch_sub, {below, soft}, loc);
}

} // namespace

void define_activation_ops(std::vector<OpSpec> &out) {
  add_ltorch(out, Sym::ltorch_leaky_relu, "input, /, negative_slope=0.01, inplace=False",
             {"torch.nn.functional.leaky_relu"}, leaky_relu);
  add_ltorch(out, Sym::ltorch_elu, "input, /, alpha=1.0, inplace=False",
             {"torch.nn.functional.elu"}, elu);
  add_ltorch(out, Sym::ltorch_celu, "input, /, alpha=1.0, inplace=False",
             {"torch.nn.functional.celu", "torch.celu"}, celu);
  add_ltorch(out, Sym::ltorch_selu, "input, /, inplace=False",
             {"torch.nn.functional.selu", "torch.selu"}, selu);
  add_ltorch(out, Sym::ltorch_relu6, "input, /, inplace=False", {"torch.nn.functional.relu6"},
             relu6);
  add_ltorch(out, Sym::ltorch_hardtanh, "input, /, min_val=-1.0, max_val=1.0, inplace=False",
             {"torch.nn.functional.hardtanh"}, hardtanh);
  add_ltorch(out, Sym::ltorch_hardsigmoid, "input, /, inplace=False",
             {"torch.nn.functional.hardsigmoid"}, hardsigmoid);
  add_ltorch(out, Sym::ltorch_hardswish, "input, /, inplace=False",
             {"torch.nn.functional.hardswish"}, hardswish);
  add_ltorch(out, Sym::ltorch_mish, "input, /, inplace=False", {"torch.nn.functional.mish"}, mish);
  add_ltorch(out, Sym::ltorch_softsign, "input, /", {"torch.nn.functional.softsign"}, softsign);
  add_ltorch(out, Sym::ltorch_tanhshrink, "input, /", {"torch.nn.functional.tanhshrink"},
             tanhshrink);
  add_ltorch(out, Sym::ltorch_logsigmoid, "input, /", {"torch.nn.functional.logsigmoid"},
             logsigmoid);
}

} // namespace tracelint::tracer::ops
