#pragma once
// Python's arithmetic on ints, floats and bools, written once: the interpreter computes the
// numbers of a traced (and of an eager) run with it, and the executor the number prims of a
// trace, so the three agree on every result and every error (3 ** 39 is exact everywhere,
// 2 ** 62 + 2 ** 62 overflows everywhere). Plain values in, a value or an error out: each
// caller raises the error as its own kind (a TraceError, a Python exception, an ExecError).
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

namespace tracelint::tracer {

enum class NumOp : uint8_t; // interpreter.hpp

// A Python number as its arithmetic sees it: a bool is the int 0 or 1, which the bitwise
// operators on two bools keep a bool.
struct Number {
  enum class Kind : uint8_t { Bool, Int, Float };
  Kind kind = Kind::Int;
  int64_t integer = 0; // Int, and Bool as 0 or 1
  double real = 0;     // Float

  static Number of_int(int64_t i) { return {Kind::Int, i, 0}; }
  static Number of_float(double d) { return {Kind::Float, 0, d}; }
  static Number of_bool(bool b) { return {Kind::Bool, b ? 1 : 0, 0}; }
  bool is_float() const { return kind == Kind::Float; }
  double as_double() const { return is_float() ? real : static_cast<double>(integer); }
};

// The number an interpreter object (Obj) or a runtime value (RtValue) holds: each has a kind
// with Float and Bool (any other is an int) and the fields real, boolean and integer.
template <class Value> Number number_held(const Value &v) {
  return v.kind == Value::Kind::Float  ? Number::of_float(v.real)
         : v.kind == Value::Kind::Bool ? Number::of_bool(v.boolean)
                                       : Number::of_int(v.integer);
}

// Why a number operation has no result.
struct NumberError {
  // The exception CPython raises ("ZeroDivisionError", "OverflowError", "ValueError"); empty
  // where CPython has a result that the tracer cannot hold (an int past 64 bits, a complex).
  std::string python_class;
  std::string message;
};

class NumberResult {
public:
  NumberResult(Number value) : state_(value) {}
  NumberResult(NumberError error) : state_(std::move(error)) {}
  bool ok() const { return state_.index() == 0; }
  const Number &value() const { return std::get<0>(state_); }
  const NumberError &error() const { return std::get<1>(state_); }

private:
  std::variant<Number, NumberError> state_;
};

// Python's `op` of one operand (-x, abs, int(), float(), math.*) or of two (the arithmetic,
// comparison and bitwise operators; exact_div: the truncating division of two ints). An
// operation of one operand given two ignores the second (the recorder passes None there); an
// operation of two given one is an error.
NumberResult python_number_op(NumOp op, const Number &a);
NumberResult python_number_op(NumOp op, const Number &a, const Number &b);

// Thunder's prims.div of two ints: C's division, truncated toward zero (the tracer records it
// for an exact division and inside its floor division).
NumberResult truncating_division(int64_t a, int64_t b);

// math.fmod: the remainder with the dividend's sign (Thunder's prims.fmod of two numbers).
NumberResult python_fmod(double x, double y);

// Python's int() of a float: truncated toward zero; none where no int64_t holds it (NaN,
// infinity, 2**63 and beyond), which a plain cast would make undefined behaviour.
std::optional<int64_t> truncate_to_int64(double x);

} // namespace tracelint::tracer
