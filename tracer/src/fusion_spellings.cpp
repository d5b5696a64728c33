// The cuda_fusion executor's implementations of the elementwise prims it fuses: each prim's CUDA
// C++ expression, registered here once, as Thunder's nvfuserex_impl.py registers an
// implementation per symbol with its executor (the op registry knows nothing of executors).
#include "fusion.hpp"

#include <array>

namespace tracelint::tracer {

namespace {

struct Fusible {
  Sym sym;
  const char *spelling;
};

// CUDA's math functions are overloaded for float and double; ints reach the double ones and are
// converted back. maximum and minimum propagate NaN, as torch does. bitwise_not does not fuse
// (~ on a bool).
constexpr Fusible kFusible[] = {
    {Sym::prims_neg, "(-{0})"},
    {Sym::prims_abs, "fabs({0})"},
    {Sym::prims_exp, "exp({0})"},
    {Sym::prims_log, "log({0})"},
    {Sym::prims_log1p, "log1p({0})"},
    {Sym::prims_expm1, "expm1({0})"},
    {Sym::prims_tanh, "tanh({0})"},
    {Sym::prims_rsqrt, "rsqrt({0})"},
    {Sym::prims_sqrt, "sqrt({0})"},
    {Sym::prims_sin, "sin({0})"},
    {Sym::prims_cos, "cos({0})"},
    {Sym::prims_erf, "erf({0})"},
    {Sym::prims_floor, "floor({0})"},
    {Sym::prims_ceil, "ceil({0})"},
    {Sym::prims_trunc, "trunc({0})"},
    {Sym::prims_reciprocal, "(1 / {0})"},
    {Sym::prims_signbit, "signbit({0})"},
    {Sym::prims_isfinite, "isfinite({0})"},
    {Sym::prims_add, "({0} + {1})"},
    {Sym::prims_sub, "({0} - {1})"},
    {Sym::prims_mul, "({0} * {1})"},
    {Sym::prims_div, "({0} / {1})"},
    {Sym::prims_pow, "pow({0}, {1})"},
    {Sym::prims_fmod, "fmod({0}, {1})"},
    {Sym::prims_maximum, "({0} != {0} || {0} > {1} ? {0} : {1})"},
    {Sym::prims_minimum, "({0} != {0} || {0} < {1} ? {0} : {1})"},
    {Sym::prims_bitwise_and, "({0} & {1})"},
    {Sym::prims_bitwise_or, "({0} | {1})"},
    {Sym::prims_bitwise_xor, "({0} ^ {1})"},
    {Sym::prims_eq, "({0} == {1})"},
    {Sym::prims_ne, "({0} != {1})"},
    {Sym::prims_lt, "({0} < {1})"},
    {Sym::prims_le, "({0} <= {1})"},
    {Sym::prims_gt, "({0} > {1})"},
    {Sym::prims_ge, "({0} >= {1})"},
    {Sym::prims_where, "({0} ? {1} : {2})"},
    {Sym::prims_convert_element_type, "{0}"},
};

const std::array<const char *, kSymbolCount> &spellings() {
  static const std::array<const char *, kSymbolCount> by_sym = [] {
    std::array<const char *, kSymbolCount> t{};
    for (const Fusible &f : kFusible)
      t[static_cast<std::size_t>(f.sym)] = f.spelling;
    return t;
  }();
  return by_sym;
}

} // namespace

const char *cuda_spelling(Sym sym) {
  return spellings()[static_cast<std::size_t>(sym)];
}

std::vector<std::string> fusible_problems() {
  std::vector<std::string> problems;
  for (const Fusible &f : kFusible)
    if (!has_tag(f.sym, tags::ELEMENTWISE))
      problems.push_back(qualified_name(f.sym) + " has a CUDA spelling but is not elementwise "
                                                 "(only elementwise prims fuse)");
  return problems;
}

} // namespace tracelint::tracer
