// Python's number arithmetic on plain values (python_numbers.hpp): CPython's results and
// CPython's exceptions, and an error where a result would leave the 64-bit ints the tracer
// holds (CPython's ints do not overflow; a wrapped or rounded int would be a wrong answer).
#include "tracelint/tracer/python_numbers.hpp"

#include "tracelint/core/value.hpp" // python_float
#include "tracelint/tracer/interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace tracelint::tracer {

namespace {

NumberError python_error(const char *cls, std::string message) {
  return NumberError{cls, std::move(message)};
}

NumberError beyond_the_tracer(std::string message) {
  return NumberError{"", std::move(message)};
}

NumberError unsupported(NumOp op) {
  return beyond_the_tracer(std::string("unsupported number operation ") + num_op_symbol(op));
}

bool takes_one_operand(NumOp op) {
  static constexpr NumOp unary[] = {NumOp::neg,     NumOp::abs,  NumOp::sqrt,  NumOp::exp,
                                    NumOp::log,     NumOp::sin,  NumOp::cos,   NumOp::tanh,
                                    NumOp::floor,   NumOp::ceil, NumOp::trunc, NumOp::to_int,
                                    NumOp::to_float};
  return std::find(std::begin(unary), std::end(unary), op) != std::end(unary);
}

// int(x) and math.floor/ceil/trunc of a float: an int, or why there is none.
NumberResult float_to_int(NumOp op, double x, double rounded) {
  if (std::isnan(x)) return python_error("ValueError", "cannot convert float NaN to integer");
  if (std::isinf(x))
    return python_error("OverflowError", "cannot convert float infinity to integer");
  std::optional<int64_t> i = truncate_to_int64(rounded);
  if (!i)
    return beyond_the_tracer(
        (op == NumOp::to_int ? std::string("int") : std::string(num_op_symbol(op))) + "(" +
        python_float(x) + ") is outside the 64-bit integer range that the tracer supports");
  return Number::of_int(*i);
}

// math.sqrt, math.exp, math.log, math.sin, math.cos, math.tanh: floats, with CPython's errors.
NumberResult math_function(NumOp op, double x) {
  switch (op) {
  case NumOp::sqrt:
    if (x < 0) return python_error("ValueError", "math domain error");
    return Number::of_float(std::sqrt(x));
  case NumOp::exp: {
    double r = std::exp(x);
    if (std::isinf(r) && std::isfinite(x)) return python_error("OverflowError", "math range error");
    return Number::of_float(r);
  }
  case NumOp::log:
    if (x <= 0) return python_error("ValueError", "math domain error");
    return Number::of_float(std::log(x));
  case NumOp::sin:
    return Number::of_float(std::sin(x));
  case NumOp::cos:
    return Number::of_float(std::cos(x));
  case NumOp::tanh:
    return Number::of_float(std::tanh(x));
  default:
    return unsupported(op);
  }
}

// The comparison and bitwise operators, or none for another operator.
std::optional<Number> compared_or_bitwise(NumOp op, const Number &a, const Number &b) {
  bool floats = a.is_float() || b.is_float();
  double x = a.as_double(), y = b.as_double();
  int64_t i = a.integer, j = b.integer;
  switch (op) {
  case NumOp::lt:
    return Number::of_bool(floats ? x < y : i < j);
  case NumOp::le:
    return Number::of_bool(floats ? x <= y : i <= j);
  case NumOp::gt:
    return Number::of_bool(floats ? x > y : i > j);
  case NumOp::ge:
    return Number::of_bool(floats ? x >= y : i >= j);
  case NumOp::eq:
    return Number::of_bool(floats ? x == y : i == j);
  case NumOp::ne:
    return Number::of_bool(floats ? x != y : i != j);
  case NumOp::bitwise_and:
  case NumOp::bitwise_or:
  case NumOp::bitwise_xor: {
    int64_t r = op == NumOp::bitwise_and ? (i & j) : op == NumOp::bitwise_or ? (i | j) : (i ^ j);
    if (a.kind == Number::Kind::Bool && b.kind == Number::Kind::Bool) return Number::of_bool(r);
    return Number::of_int(r);
  }
  default:
    return std::nullopt;
  }
}

NumberResult float_arithmetic(NumOp op, double x, double y) {
  switch (op) {
  case NumOp::add:
    return Number::of_float(x + y);
  case NumOp::sub:
    return Number::of_float(x - y);
  case NumOp::mul:
    return Number::of_float(x * y);
  case NumOp::floordiv: { // CPython's float_floor_div: from fmod, so 2.0 // 0.1 is 19.0
    double mod = std::fmod(x, y);
    double div = (x - mod) / y;
    if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1.0;
    if (div == 0) return Number::of_float(std::copysign(0.0, x / y));
    double floored = std::floor(div);
    if (div - floored > 0.5) floored += 1.0;
    return Number::of_float(floored);
  }
  case NumOp::mod: {
    double m = std::fmod(x, y);
    if (m == 0) return Number::of_float(std::copysign(0.0, y)); // CPython: a zero of y's sign
    return Number::of_float((m < 0) != (y < 0) ? m + y : m);
  }
  case NumOp::pow: {
    if (x < 0 && y != std::floor(y) && std::isfinite(y))
      return beyond_the_tracer("a negative number to a fractional power (a complex number in "
                               "Python)");
    if (x == 0 && y < 0)
      return python_error("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    double r = std::pow(x, y);
    if (std::isinf(r) && std::isfinite(x) && std::isfinite(y))
      return python_error("OverflowError", "(34, 'Numerical result out of range')");
    return Number::of_float(r);
  }
  default:
    return unsupported(op);
  }
}

// i ** j for j >= 0, exact, by squaring: j steps of a loop would run for ever on 1 ** 10**18.
NumberResult int_power(int64_t i, int64_t j) {
  int64_t acc = 1, base = i;
  for (uint64_t e = static_cast<uint64_t>(j); e; e >>= 1) {
    if ((e & 1) && __builtin_mul_overflow(acc, base, &acc))
      return beyond_the_tracer("integer overflow in **");
    if (e > 1 && __builtin_mul_overflow(base, base, &base))
      return beyond_the_tracer("integer overflow in **");
  }
  return Number::of_int(acc);
}

NumberResult int_arithmetic(NumOp op, int64_t i, int64_t j) {
  int64_t r = 0;
  switch (op) {
  case NumOp::add:
    if (!__builtin_add_overflow(i, j, &r)) return Number::of_int(r);
    return beyond_the_tracer("integer overflow in `+`");
  case NumOp::sub:
    if (!__builtin_sub_overflow(i, j, &r)) return Number::of_int(r);
    return beyond_the_tracer("integer overflow in `-`");
  case NumOp::mul:
    if (!__builtin_mul_overflow(i, j, &r)) return Number::of_int(r);
    return beyond_the_tracer("integer overflow in `*`");
  case NumOp::floordiv: {
    if (i == INT64_MIN && j == -1) return beyond_the_tracer("integer overflow");
    int64_t q = i / j;
    if ((i % j != 0) && ((i < 0) != (j < 0))) --q;
    return Number::of_int(q);
  }
  case NumOp::mod: {
    if (j == -1) return Number::of_int(0);
    int64_t m = i % j;
    return Number::of_int(m != 0 && ((m < 0) != (j < 0)) ? m + j : m);
  }
  case NumOp::pow:
    if (j < 0 && i == 0)
      return python_error("ZeroDivisionError", "0.0 cannot be raised to a negative power");
    if (j < 0) return Number::of_float(std::pow(static_cast<double>(i), static_cast<double>(j)));
    return int_power(i, j);
  default:
    return unsupported(op);
  }
}

} // namespace

std::optional<int64_t> truncate_to_int64(double x) {
  // -2**63 and 2**63 are exact doubles; NaN fails both comparisons.
  if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0)) return std::nullopt;
  return static_cast<int64_t>(x);
}

NumberResult python_number_op(NumOp op, const Number &a) {
  double x = a.as_double();
  switch (op) {
  case NumOp::neg:
    if (a.is_float()) return Number::of_float(-a.real);
    if (a.integer == INT64_MIN) return beyond_the_tracer("integer overflow in `-`");
    return Number::of_int(-a.integer);
  case NumOp::abs:
    if (a.is_float()) return Number::of_float(std::fabs(a.real));
    if (a.integer == INT64_MIN) return beyond_the_tracer("integer overflow in abs()");
    return Number::of_int(a.integer < 0 ? -a.integer : a.integer);
  case NumOp::to_int:
    if (!a.is_float()) return Number::of_int(a.integer);
    return float_to_int(op, a.real, a.real);
  case NumOp::to_float:
    return Number::of_float(x);
  case NumOp::floor:
  case NumOp::ceil:
  case NumOp::trunc:
    if (!a.is_float()) return Number::of_int(a.integer);
    return float_to_int(op, a.real,
                        op == NumOp::floor  ? std::floor(a.real)
                        : op == NumOp::ceil ? std::ceil(a.real)
                                            : std::trunc(a.real));
  default:
    return math_function(op, x);
  }
}

NumberResult python_number_op(NumOp op, const Number &a, const Number &b) {
  if (takes_one_operand(op)) return python_number_op(op, a);
  if (std::optional<Number> r = compared_or_bitwise(op, a, b)) return *r;
  if (op == NumOp::exact_div) return truncating_division(a.integer, b.integer);
  bool floats = a.is_float() || b.is_float();
  double x = a.as_double(), y = b.as_double();
  if ((op == NumOp::truediv || op == NumOp::floordiv || op == NumOp::mod) &&
      (floats ? y == 0.0 : b.integer == 0))
    return python_error("ZeroDivisionError", op == NumOp::truediv ? "division by zero"
                                             : floats             ? "float floor division by zero"
                                                      : "integer division or modulo by zero");
  if (op == NumOp::truediv) return Number::of_float(x / y);
  return floats ? float_arithmetic(op, x, y) : int_arithmetic(op, a.integer, b.integer);
}

NumberResult truncating_division(int64_t a, int64_t b) {
  if (b == 0) return python_error("ZeroDivisionError", "division by zero");
  if (a == INT64_MIN && b == -1) return beyond_the_tracer("integer overflow in `//`");
  return Number::of_int(a / b);
}

NumberResult python_fmod(double x, double y) {
  // CPython's math.fmod: a zero divisor or an infinite dividend is a domain error (C's fmod
  // gives NaN), a NaN operand gives NaN.
  if (!std::isnan(x) && !std::isnan(y) && (y == 0 || std::isinf(x)))
    return python_error("ValueError", "math domain error");
  return Number::of_float(std::fmod(x, y));
}

} // namespace tracelint::tracer
