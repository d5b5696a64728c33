#include "tracelint/core/dtypes.hpp"
#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/core/type_string.hpp"
#include "tracelint/core/value.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <cmath>

using namespace tracelint;

namespace {
// The value of "x = <expr>" in a one-line trace.
Value reparse(const std::string &expr) {
  Result<TraceFile> f = parse_trace("def f():\n  x = " + expr + "\n");
  REQUIRE_MESSAGE(f.ok(), expr << ": " << f.error().message);
  return f->traces.at(0).body.at(0).value;
}
} // namespace

TEST_CASE("the seed bug: a slice holding IntegerProxy i10 prints its name and reparses") {
  Value key = Value::tuple(
      {Value::ellipsis(), Value::slice(Value::none(), Value::name("i10"), Value::none())});
  Value call = Value::call("ltorch.getitem", {Value::name("a"), key});
  CHECK(print_value(call) == "ltorch.getitem(a, (..., slice(None, i10, None)))");
  Statement s = Statement::bound(Target::named("t37"), call);
  std::string line = print_statement(s, 2);
  CHECK(line == "  t37 = ltorch.getitem(a, (..., slice(None, i10, None)))\n");
  CHECK(reparse(print_value(call)) == call);
  CHECK(print_value(reparse(print_value(call))).find("IntegerProxy") == std::string::npos);
}

TEST_CASE("floats print like Python's repr") {
  CHECK(python_float(1.0) == "1.0");
  CHECK(python_float(0.1) == "0.1");
  CHECK(python_float(-2.5) == "-2.5");
  CHECK(python_float(1e-05) == "1e-05");
  CHECK(python_float(0.0001) == "0.0001");
  CHECK(python_float(1e16) == "1e+16");
  CHECK(python_float(123456789012345.0) == "123456789012345.0");
  CHECK(python_float(0.29730177875068026) == "0.29730177875068026");
  CHECK(python_float(1.1111111111111112) == "1.1111111111111112");
  CHECK(python_float(0.00048828125) == "0.00048828125");
  CHECK(python_float(1.5e-07) == "1.5e-07");
  CHECK(python_float(INFINITY) == "float('inf')");
  CHECK(python_float(-INFINITY) == "-float('inf')");
  CHECK(python_float(NAN) == "float('nan')");
  for (double d :
       std::initializer_list<double>{1.0, 0.1, 1e-05, 1e16, -3.75, INFINITY, -INFINITY, 2.5e300})
    CHECK(reparse(python_float(d)) == Value::float_value(d));
  CHECK(std::isnan(reparse("float('nan')").real));
}

TEST_CASE("strings, tuples, dicts, dtypes and devices print as Python") {
  CHECK(python_string("mean") == "'mean'");
  CHECK(python_string("it's") == "\"it's\"");
  CHECK(python_string("a\nb\\'\"") == "'a\\nb\\\\\\'\"'");
  CHECK(print_value(Value::tuple({Value::int_value(3)})) == "(3,)");
  CHECK(print_value(Value::tuple({})) == "()");
  CHECK(print_value(Value::list({Value::int_value(1), Value::name("i0")})) == "[1, i0]");
  CHECK(print_value(Value::dict({{Value::string("output"), Value::name("t4")}})) ==
        "{'output': t4}");
  CHECK(print_value(Value::dtype("float32")) == "dtypes.float32");
  CHECK(print_value(Value::dtype("float16", Namespace::Torch)) == "torch.float16");
  CHECK(print_value(Value::device("cuda:0")) == "devices.Device(\"cuda:0\")");
  CHECK(print_value(Value::device("cpu", Namespace::Torch)) == "torch.device(\"cpu\")");
  CHECK(print_value(Value::complex_value(1.0, -2.0)) == "complex(1.0, -2.0)");
  for (const char *expr :
       {"(3,)", "[1, i0]", "{'output': t4, 'flat_args': [a, b]}", "dtypes.float32",
        "torch.bfloat16", "devices.Device(\"cuda:0\")", "torch.device(\"cpu\")",
        "complex(1.0, -2.0)", "-7", "True", "None", "...", "\"it's\"",
        "prims.full((2, 2), 1.0, device=devices.Device(\"cpu\"), dtype=dtypes.float32)"})
    CHECK_MESSAGE(print_value(reparse(expr)) == expr, expr);
}

TEST_CASE("dtypes: every name of the dtype table reads as a dtype in its namespace, and prints "
          "back so") {
  std::size_t rows = 0;
  for (const DTypeInfo &row : dtype_table()) {
    ++rows;
    std::vector<std::string> spelled = {std::string("dtypes.") + row.thunder_name,
                                        std::string("torch.") + row.torch_name};
    spelled.push_back(std::string("dtypes.") + row.thunder_name + "_");
    if (row.torch_alias) spelled.push_back(std::string("torch.") + row.torch_alias);
    for (const std::string &expr : spelled) {
      Value v = reparse(expr);
      CHECK_MESSAGE(v.kind == ValueKind::DType, expr);
      CHECK_MESSAGE(print_value(v) == expr, expr);
    }
  }
  CHECK(rows == kDTypeCount);
  // Every dtype of Thunder 0.2.6 (thunder/core/dtypes.py) and its weak variant is a name the
  // validator knows, as its traces print them; torch.chalf is complex32's alias. Short names and
  // weak variants are no torch attribute.
  for (const char *expr :
       {"dtypes.float8_e4m3fn_", "dtypes.complex32", "torch.chalf", "dtypes.bool8_",
        "dtypes.uint64", "dtypes.float8_e5m2fnuz", "dtypes.float8_e4m3fnuz_",
        "dtypes.float8_e8m0fnu", "dtypes.float4_e2m1fn_x2", "torch.float4_e2m1fn_x2"})
    CHECK_MESSAGE(reparse(expr).kind == ValueKind::DType, expr);
  for (const char *expr : {"torch.f32", "torch.ui8", "torch.u8", "dtypes.float32__",
                           "torch.float32_", "dtypes.float", "torch.bool8", "dtypes.uint16"})
    CHECK_MESSAGE(reparse(expr).kind == ValueKind::Attribute, expr);
  // An annotation's unquoted type (x: bf16[2]) is seen by its short name: Thunder's (ui8 for
  // uint8), or the u8 tracelint printed before.
  for (const char *type : {"bf16[2, 3]", "b8[4]", "f8_e5m2[4]", "ui8[4]", "u8[4]", "ui64[2]"})
    CHECK_MESSAGE(is_unquoted_tensor_type(type), type);
  CHECK_FALSE(is_unquoted_tensor_type("bx[4]"));
  CHECK(dtype_spelled("u8", DTypeSpelling::short_name) == DType::uint8);
  CHECK(dtype_spelled("ui8", DTypeSpelling::short_name) == DType::uint8);
  CHECK_FALSE(dtype_spelled("u8", DTypeSpelling::torch));
}

TEST_CASE("type strings of annotations") {
  Result<ProxyType> t = parse_type_string("cuda:0 f32[4, i0]");
  REQUIRE(t.ok());
  CHECK(t->kind == ProxyKind::Tensor);
  CHECK(t->device == "cuda:0");
  CHECK(t->dtype == "f32");
  REQUIRE(t->shape.size() == 2);
  CHECK(t->shape[0].size == 4);
  CHECK(t->shape[1].symbol == "i0");
  CHECK(print_type_string(*t) == "cuda:0 f32[4, i0]");
  CHECK(parse_type_string("cpu f32[]")->shape.empty());
  CHECK(parse_type_string("int 2")->kind == ProxyKind::Integer);
  CHECK(parse_type_string("bool False")->value == "False");
  CHECK(parse_type_string("Collection")->kind == ProxyKind::Collection);
  Result<ProxyType> leaked = parse_type_string(
      "cuda:0 f32[[IntegerProxy name=i0, value=2, static=CONSTRAINT.CONSTRAINABLE], 16]");
  REQUIRE(leaked.ok());
  CHECK(leaked->shape[0].leaked);
  CHECK(print_type_string(*leaked) == "cuda:0 f32[i0, 16]");
  Result<ProxyType> bad = parse_type_string("cpu f32[2, 3 4]");
  CHECK_FALSE(bad.ok());
  // Found by fuzz_type_string: a dim too large for int64 used to throw out of the parser.
  Result<ProxyType> huge = parse_type_string("cuda:0 f32[1, 77777777777777777777777777777]");
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().message.find("does not fit") != std::string::npos);
}

TEST_CASE("parse errors are structured, with line and column") {
  Result<TraceFile> f = parse_trace("def f(a):\n  t0 = prims.add(a, a) + 1\n  return t0\n");
  REQUIRE_FALSE(f.ok());
  CHECK(f.error().line == 2);
  CHECK(f.error().column == 8);
  CHECK(f.error().message.find("binary_operator") != std::string::npos);
  Result<TraceFile> g = parse_trace("def f(a):\n  t0 = prims.add(a, \n");
  REQUIRE_FALSE(g.ok());
  CHECK(g.error().message.find("syntax error") == 0);
}
