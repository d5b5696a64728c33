#pragma once
// What the executor, the libtorch implementations and the eager run share about runtime values.
#include "tracelint/tracer/execute.hpp"

#include <ATen/ATen.h>
#include <c10/util/SmallVector.h>

#include <stdexcept>
#include <string>

namespace tracelint::tracer {

// An error while running a trace: a message naming the statement.
struct ExecError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

at::ScalarType scalar_type(const std::string &torch_name);
std::string dtype_name(at::ScalarType t);
RtValue::Kind runtime_kind(ValueKind k);
bool is_number(const RtValue &v);
double as_double(const RtValue &v);
at::Scalar as_scalar(const RtValue &v);
// A Python number next to a tensor follows PyTorch's promotion (a "wrapped number").
at::Tensor as_tensor(const RtValue &v, const at::Device &device);
// A shape or a list of dims: on the stack.
using IntList = c10::SmallVector<int64_t, 8>;
IntList int_list(const RtValue &v);
const at::Tensor &tensor_arg(const RtValue &v, const char *what);
std::string describe(const RtValue &v);
bool same_literal(const RtValue &a, const RtValue &b);
// A Value without names as a runtime value (constants of a trace, literal inputs).
RtValue literal(const Value &v);
// "computation line 4 (`t1 = prims.add(a, b)`)"
std::string where(const std::string &trace, const Statement &s);
std::string device_name(const at::Device &d);

} // namespace tracelint::tracer
