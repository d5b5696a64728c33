// The tracer: the three seed programs, realistic model code, both cache modes and levels,
// the validator on everything it emits, the round trip, and clear errors outside the subset.
#include "support.hpp"
#include "tracer/cases.hpp"
#include "tracer/clean.hpp"

#include "tracelint/tracer/frontend.hpp" // the chunked parse, to check that it happens
#include "tracelint/tracer/tracing.hpp"  // trace_unchunked, the reference

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/symbols.hpp"
#include "tracelint/tracer/tracer.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <algorithm>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

const std::string kSeeds = "import torch\n\n"
                           "def foo(a):\n"
                           "    return a[..., : (a.shape[-1] // 2)]\n\n"
                           "def foo_key(a, key):\n"
                           "    return a[key]\n\n"
                           "def foo2(a, newshape):\n"
                           "    return a.reshape(newshape)\n";

TracedProgram traced(const std::string &source, const std::string &function,
                     std::vector<ArgSpec> args, CacheMode cache = CacheMode::SymbolicValues,
                     Level level = Level::Ltorch) {
  TraceRequest r;
  r.path = "seed.py";
  r.source = source;
  r.function = function;
  r.args = std::move(args);
  r.cache = cache;
  r.level = level;
  Result<TracedProgram> p = trace(r);
  if (!p)
    FAIL("trace failed: " << p.error().message << " at " << p.error().line << ":"
                          << p.error().column);
  return p.value();
}

Error trace_error(const std::string &source, const std::string &function,
                  std::vector<ArgSpec> args) {
  TraceRequest r;
  r.path = "bad.py";
  r.source = source;
  r.function = function;
  r.args = std::move(args);
  Result<TracedProgram> p = trace(r);
  REQUIRE_FALSE(p.ok());
  return p.error();
}

using test::require_clean;

std::string section(const std::string &printed, const std::string &def) {
  std::size_t begin = printed.find("def " + def + "(");
  REQUIRE(begin != std::string::npos);
  std::size_t end = printed.find("\n@", begin);
  return printed.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// The top-level line that binds name, or "".
std::string definition(const std::string &code, const std::string &name) {
  std::istringstream lines(code);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("  " + name + " = ", 0) == 0) return line;
  return "";
}

} // namespace

TEST_CASE("tracer seed 1: a[..., : a.shape[-1] // 2] under symbolic values prints slice(None, iN, "
          "None) with iN defined") {
  TracedProgram p = traced(kSeeds, "foo", {{"a", "f32[2, 2]@cuda"}});
  std::string printed = print_trace_file(p.file);
  std::string computation = section(printed, "computation");
  std::smatch m;
  REQUIRE(std::regex_search(
      computation, m,
      std::regex(R"(ltorch\.getitem\(a, \(\.\.\., slice\(None, (i\d+), None\)\)\))")));
  std::string stop = m[1];
  // Defined by Thunder's integer floor division, before its use.
  std::string def = definition(computation, stop);
  CHECK(def.find("= prims.sub(") != std::string::npos);
  CHECK(computation.find(def) < computation.find("ltorch.getitem"));
  std::vector<std::string> order = {
      "prims.signbit(",     "prims.ne(",  "prims.fmod(", "prims.convert_element_type(",
      "prims.bitwise_and(", "prims.div(", "prims.sub("};
  std::size_t at = 0;
  for (const std::string &prim : order) {
    std::size_t found = computation.find(prim, at);
    CHECK_MESSAGE(found != std::string::npos, prim);
    at = found == std::string::npos ? at : found;
  }
  CHECK(computation.find("\"cuda:0 f32[i0, " + stop + "]\"") != std::string::npos);
  CHECK(printed.find("IntegerProxy") == std::string::npos);
  // The prologue binds the dims and checks the trace-time decisions on them.
  std::string prologue = section(printed, "prologue");
  CHECK(prologue.find("(i0, i1) = prims.shape(a)") != std::string::npos);
  CHECK(prologue.find(
            "prims.check_tensor_shape_and_metadata(a, (i0, i1), 'cuda:0', torch.float32, False)") !=
        std::string::npos);
  CHECK(prologue.find("prims.check_number_type_and_value(") != std::string::npos);
  require_clean(printed);
}

TEST_CASE("tracer seed 2: a[key] with key = (..., slice(None, 8, None)) binds the slice's number "
          "in the prologue") {
  TracedProgram p = traced(kSeeds, "foo_key",
                           {{"a", "f32[2, 2, 9]@cuda"}, {"key", "(..., slice(None, 8, None))"}});
  std::string printed = print_trace_file(p.file);
  std::string prologue = section(printed, "prologue");
  std::smatch m;
  REQUIRE(std::regex_search(prologue, m, std::regex(R"(\n  _, (C\d+), = key\n)")));
  std::string inner = m[1];
  REQUIRE(std::regex_search(prologue, m,
                            std::regex("\\n  (i\\d+): \"int 8\" = " + inner + "\\.stop\\n")));
  std::string stop = m[1];
  CHECK(prologue.find("prims.check_literal_like(key[0], ...)") != std::string::npos);
  CHECK(prologue.find("prims.check_literal_like(" + inner + ".start, None)") != std::string::npos);
  CHECK(prologue.find("prims.check_type(" + stop + ", int)") != std::string::npos);
  std::string computation = section(printed, "computation");
  CHECK(computation.find("slice(None, " + stop + ", None)") != std::string::npos);
  // The computation receives the number as a parameter, and the prologue returns it.
  CHECK(std::regex_search(computation, std::regex("def computation\\([^)]*\\b" + stop + "\\b")));
  CHECK(std::regex_search(prologue, std::regex("return \\(\\([^)]*\\b" + stop + "\\b")));
  require_clean(printed);
}

TEST_CASE("tracer seed 3: a.reshape(newshape) with (2, 6, 3) unpacks the collection into names") {
  TracedProgram p = traced(kSeeds, "foo2", {{"a", "f32[4, 9]"}, {"newshape", "(2, 6, 3)"}});
  std::string printed = print_trace_file(p.file);
  std::smatch m;
  REQUIRE(std::regex_search(printed, m, std::regex(R"(\n  (i\d+), (i\d+), (i\d+), = newshape\n)")));
  std::string reshape =
      "(" + std::string(m[1]) + ", " + std::string(m[2]) + ", " + std::string(m[3]) + ")";
  CHECK(section(printed, "computation").find("ltorch.reshape(a, " + reshape + ")") !=
        std::string::npos);
  require_clean(printed);

  TracedProgram constant = traced(kSeeds, "foo2", {{"a", "f32[4, 9]"}, {"newshape", "(2, 6, 3)"}},
                                  CacheMode::ConstantValues);
  std::string fixed = print_trace_file(constant.file);
  CHECK(section(fixed, "computation").find("ltorch.reshape(a, (2, 6, 3))") != std::string::npos);
  CHECK(fixed.find("prims.check_number_type_and_value(") != std::string::npos);
  require_clean(fixed);
}

TEST_CASE("tracer: constant values specialise ints and shapes, prims level flattens the symbols") {
  TracedProgram p =
      traced(kSeeds, "foo", {{"a", "f32[2, 4]"}}, CacheMode::ConstantValues, Level::Prims);
  std::string printed = print_trace_file(p.file);
  std::string computation = section(printed, "computation");
  CHECK(computation.find("def computation(a):") != std::string::npos);
  CHECK(computation.find("prims.slice_prim(a, [0, 0], [2, 2], [1, 1])") != std::string::npos);
  CHECK(computation.find("ltorch.") == std::string::npos);
  CHECK(computation.find("\"cpu f32[2, 2]\"") != std::string::npos);
  CHECK(
      section(printed, "prologue")
          .find("prims.check_tensor_shape_and_metadata(a, (2, 4), 'cpu', torch.float32, False)") !=
      std::string::npos);
  require_clean(printed);
}

TEST_CASE(
    "tracer: every model function, both caches, both levels: validator-clean and round-trippable") {
  test::for_each_model_request([](const TraceRequest &request) {
    Result<TracedProgram> p = trace(request);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
    std::string printed = print_trace_file(p->file);
    require_clean(printed);
    Result<TraceFile> back = parse_trace(printed);
    REQUIRE_MESSAGE(back.ok(), (back.ok() ? std::string() : back.error().message));
    CHECK(back.value() == p->file);
    CHECK(print_trace_file(back.value()) == printed);
    CHECK(p->bound_symbols > 0);
    if (request.level == Level::Prims)
      CHECK(section(printed, "computation").find("ltorch.") == std::string::npos);
  });
}

TEST_CASE("tracer: model code decomposes as Thunder does") {
  const std::string source = test::models_source();
  auto printed_for = [&](const std::string &function) {
    for (const test::TracerCase &c : test::model_cases())
      if (c.function == function)
        return print_trace_file(
            trace(test::model_request(c, CacheMode::SymbolicValues, Level::Ltorch, source))->file);
    FAIL("no case " << function);
    return std::string();
  };
  std::string attention = printed_for("causal_self_attention");
  CHECK(attention.find("ltorch.softmax(") != std::string::npos);
  CHECK(attention.find("# t") != std::string::npos);
  CHECK(std::regex_search(attention, std::regex(R"(prims\.amax\(t\d+, \(3,\)\))")));
  CHECK(std::regex_search(attention,
                          std::regex(R"(ltorch\.view\(t\d+, \(i0, i1, n_head, i\d+\)\))")));
  std::string rope = printed_for("rotate_half");
  CHECK(rope.find("ltorch.cat((") != std::string::npos);
  CHECK(rope.find("ltorch.neg(") != std::string::npos);
  std::string mlp = printed_for("swiglu_mlp");
  CHECK(mlp.find("ltorch.silu(") != std::string::npos);
  CHECK(mlp.find("prims.linear(") != std::string::npos);
  std::string norm = printed_for("rms_norm");
  CHECK(norm.find("ltorch.rsqrt(") != std::string::npos);
  CHECK(norm.find("ltorch.mean(") != std::string::npos);
}

TEST_CASE(
    "tracer: a branch on a symbolic value is evaluated on the value and guarded in the prologue") {
  const std::string source = test::models_source();
  TracedProgram big = traced(source, "branchy", {{"x", "f32[3, 4]"}, {"n", "3"}});
  std::string printed = print_trace_file(big.file);
  std::string prologue = section(printed, "prologue");
  std::smatch m;
  REQUIRE(std::regex_search(prologue, m, std::regex(R"((b\d+) = prims\.gt\(n, 2\))")));
  CHECK(prologue.find("prims.check_number_type_and_value(" + std::string(m[1]) + ", True)") !=
        std::string::npos);
  CHECK(section(printed, "computation").find("ltorch.exp(") != std::string::npos);
  TracedProgram small = traced(source, "branchy", {{"x", "f32[3, 4]"}, {"n", "1"}});
  std::string other = print_trace_file(small.file);
  CHECK(section(other, "computation").find("ltorch.tanh(") != std::string::npos);
  CHECK(section(other, "prologue").find(", False)") != std::string::npos);
}

TEST_CASE("tracer: number literals in every spelling Python has") {
  // The tracer and the trace parser read literals with one function (parse_python_number).
  TracedProgram p = traced("def f(a):\n    return a * 0b101 + 0o17 - 0x1F + 1_000 + 2.5e1\n", "f",
                           {{"a", "f32[2]"}}, CacheMode::ConstantValues);
  std::string computation = section(print_trace_file(p.file), "computation");
  CAPTURE(computation);
  CHECK(computation.find("ltorch.mul(a, 5)") != std::string::npos);
  CHECK(computation.find("ltorch.add(t0, 15, alpha=1)") != std::string::npos);
  CHECK(computation.find("ltorch.sub(t1, 31, alpha=1)") != std::string::npos);
  CHECK(computation.find("ltorch.add(t2, 1000, alpha=1)") != std::string::npos);
  CHECK(computation.find("ltorch.add(t3, 25.0, alpha=1)") != std::string::npos);
  Error e = trace_error("def f(a):\n    return a * 2j\n", "f", {{"a", "f32[2]"}});
  CHECK(e.message.find("complex literal") != std::string::npos);
  e = trace_error("def f(a):\n    return a * 99999999999999999999\n", "f", {{"a", "f32[2]"}});
  CHECK(e.message.find("integer literal out of the 64-bit range") != std::string::npos);
}

TEST_CASE("tracer: errors name the file, line, column and construct") {
  Error e = trace_error("def f(x):\n    match x:\n        case 1:\n            pass\n", "f",
                        {{"x", "3"}});
  CHECK(e.path == "bad.py");
  CHECK(e.line == 2);
  CHECK(e.column == 5);
  CHECK(e.message.find("unsupported construct: match statement") != std::string::npos);

  // A generator's error is at its own line, with where it was resumed; async code is not run.
  e = trace_error("def g(x):\n    yield x\n    raise ValueError('boom')\n\ndef f(x):\n"
                  "    return list(g(x))[0]\n",
                  "f", {{"x", "f32[2]"}});
  CHECK(e.line == 3);
  CHECK(e.message.find("ValueError: boom") != std::string::npos);
  CHECK(e.message.find("in `g` (a generator), resumed at bad.py:6:12") != std::string::npos);
  // Each suspended generator holds a thread: a bound, said where it is passed.
  e = trace_error("def g():\n    yield 1\n\ndef f(x):\n    gs = [g() for i in range(300)]\n"
                  "    for k in gs:\n        next(k)\n    return x\n",
                  "f", {{"x", "f32[2]"}});
  CHECK(e.line == 7);
  CHECK(e.message.find("more than 256 generators started and not finished at once") !=
        std::string::npos);
  e = trace_error("async def f(x):\n    return x\n", "f", {{"x", "f32[2]"}});
  CHECK(e.message.find("unsupported construct: async def") != std::string::npos);
  e = trace_error("def f(x):\n    y = [v async for v in x]\n    return x\n", "f",
                  {{"x", "f32[2]"}});
  CHECK(e.line == 2);
  CHECK(e.message.find("unsupported construct: an async comprehension") != std::string::npos);

  e = trace_error("def f(x):\n    return x.nonzero()\n", "f", {{"x", "f32[2]"}});
  CHECK(e.line == 2);
  CHECK(e.message.find("`Tensor.nonzero` is not in the tracer's vocabulary") != std::string::npos);

  e = trace_error("import torch\ndef f(x):\n    return torch.fft(x)\n", "f", {{"x", "f32[2]"}});
  CHECK(e.message.find("`torch.fft`") != std::string::npos);
  CHECK(e.message.find("the tracer does not model it") != std::string::npos);

  e = trace_error("def f(x):\n    if x.sum():\n        return x\n    return x\n", "f",
                  {{"x", "f32[2]"}});
  CHECK(e.message.find("data-dependent control flow") != std::string::npos);
  CHECK(e.line == 2);

  e = trace_error("def f(a, b):\n    return a @ b\n", "f",
                  {{"a", "f32[2, 3]"}, {"b", "f32[2, 3]"}});
  CHECK(e.message.find("cannot be multiplied") != std::string::npos);

  e = trace_error("def f(a):\n    return a\n", "g", {});
  CHECK(e.message.find("no function `g`") != std::string::npos);
  CHECK(e.message.find("it defines: f") != std::string::npos);

  e = trace_error("def f(a):\n    return a\n", "f", {});
  CHECK(e.message.find("missing --arg for parameter `a`") != std::string::npos);
  CHECK(e.line == 1);

  e = trace_error("def f(a):\n    return a\n", "f", {{"a", "f32[2]"}, {"b", "3"}});
  CHECK(e.message.find("has no parameter `b`") != std::string::npos);

  e = trace_error("def f(a):\n    return a\n", "f", {{"a", "f33[2]"}});
  CHECK(e.message.find("unknown dtype `f33`") != std::string::npos);

  e = trace_error("def f(a):\n    return a\n", "f", {{"a", "(1, foo)"}});
  CHECK(e.message.find("not a literal") != std::string::npos);

  e = trace_error("def f(a):\n    return a[\n", "f", {{"a", "f32[2]"}});
  CHECK(e.message.find("syntax error") != std::string::npos);
  CHECK(e.message.find('\n') == std::string::npos);

  // tree-sitter reads `3t` as `3`, a newline it hides and reports missing, then `t`.
  e = trace_error("def f(a):\n    b = a\n    3t\n    return b\n", "f", {{"a", "f32[2]"}});
  CHECK(e.message == "syntax error near `t` (a newline or an operator is missing before it)");
  CHECK(e.line == 3);
  CHECK(e.column == 6);

  // Python's IndentationError, which tree-sitter reads on from (it used to be traced, or to be
  // reported as "a module-level return statement").
  const std::string kIndentationError = "syntax error: unindent does not match any outer "
                                        "indentation level (Python's IndentationError)";
  e = trace_error("def f(x):\n    if x:\n        y = x\n      return y\n", "f", {{"x", "1"}});
  CHECK(e.message == kIndentationError);
  CHECK(e.line == 4);
  CHECK(e.column == 1);
  e = trace_error("def f(x):\n    y = x\n  return y\n", "f", {{"x", "1"}});
  CHECK(e.message == kIndentationError);
  CHECK(e.line == 3);
  // Python stops at the first syntax error; an unsupported construct is no syntax error.
  e = trace_error("def f(x):\n    y = x +* 2\n    if x:\n        y = x\n      return y\n", "f",
                  {{"x", "1"}});
  CHECK(e.line == 2);
  e = trace_error(
      "def f(x):\n    while x:\n        x = 0\n    if x:\n        y = x\n      return y\n", "f",
      {{"x", "1"}});
  CHECK(e.message == kIndentationError);
  CHECK(e.line == 6);

  e = trace_error("def f(*args):\n    return args\n", "f", {{"args", "3"}});
  CHECK(e.message.find("a *args or **kwargs parameter takes no --arg") != std::string::npos);

  e = trace_error("def f(a):\n    return a[::0]\n", "f", {{"a", "f32[4]"}});
  CHECK(e.message.find("slice step cannot be zero") != std::string::npos);

  e = trace_error("def f(a):\n    return f(a)\n", "f", {{"a", "f32[2]"}});
  CHECK(e.message.find("recursion") != std::string::npos);

  e = trace_error("def f(a):\n    for i in range(10000000):\n        a = a\n    return a\n", "f",
                  {{"a", "3"}});
  CHECK(e.message.find("steps") != std::string::npos);
}

TEST_CASE("tracer: tracing is thread-safe (same output from parallel traces)") {
  const std::string source = test::models_source();
  std::vector<std::string> outputs(8);
  std::vector<std::thread> threads;
  test::TracerCase c = test::model_cases()[7];
  for (std::size_t i = 0; i < outputs.size(); ++i)
    threads.emplace_back([&, i] {
      outputs[i] = print_trace_file(
          trace(test::model_request(c, CacheMode::SymbolicValues, Level::Ltorch, source))->file);
    });
  for (auto &t : threads)
    t.join();
  for (const std::string &o : outputs)
    CHECK(o == outputs[0]);
}

TEST_CASE("cli: tracelint trace prints validator-clean traces, errors exit 2 with file:line:col") {
  test::TempDir dir;
  test::write_file(dir.path + "/seed.py", kSeeds);
  auto ok = test::tracelint("trace '" + dir.path + "/seed.py' -f foo -a 'a=f32[2, 2]@cuda'");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("slice(None, i10, None)") != std::string::npos);
  CHECK(ok.err.empty());
  CHECK(test::tracelint("trace '" + dir.path + "/seed.py' -f foo -a 'a=f32[2, 2]@cuda' -j 3").out ==
        ok.out);
  test::write_file(dir.path + "/traced.py", ok.out);
  CHECK(test::tracelint("check --isolated --fail-on info '" + dir.path + "/traced.py'").exit_code ==
        0);

  auto out = test::tracelint("trace '" + dir.path +
                             "/seed.py' -f foo2 -a a=f32[4,9] -a 'newshape=(2, 6, 3)' -o '" +
                             dir.path + "/out.py'");
  CHECK(out.exit_code == 0);
  CHECK(test::read_file(dir.path + "/out.py").find("= newshape") != std::string::npos);
  // A new output file gets 0644 less the umask, like any file the user creates.
  mode_t mask = ::umask(0);
  ::umask(mask);
  struct stat st {};
  REQUIRE(::stat((dir.path + "/out.py").c_str(), &st) == 0);
  CHECK((st.st_mode & 07777) == (0644 & ~mask));

  test::write_file(dir.path + "/bad.py", "def f(x):\n    with x:\n        pass\n");
  auto bad = test::tracelint("trace '" + dir.path + "/bad.py' -f f -a x=3");
  CHECK(bad.exit_code == 2);
  // `with` runs objects with __enter__/__exit__; an int has none: an error at the int.
  CHECK(bad.err.find("bad.py:2:10: error: unsupported construct: `with` int") != std::string::npos);
  auto noarg = test::tracelint("trace '" + dir.path + "/seed.py' -f foo -a nonsense");
  CHECK(noarg.exit_code == 2);
  CHECK(noarg.err.find("expected NAME=VALUE") != std::string::npos);
  CHECK(test::tracelint("trace '" + dir.path + "/missing.py' -f foo").exit_code == 2);
  auto train = test::tracelint("trace '" + dir.path + "/seed.py' -f foo --train");
  CHECK(train.exit_code == 2);
  CHECK(train.err.find("--train needs --module") != std::string::npos);
  auto help = test::tracelint("trace --help");
  CHECK(help.out.find("What it cannot run is an error where it is reached") != std::string::npos);
  CHECK(help.out.find("Exit codes:") != std::string::npos);
}

TEST_CASE("tracer: symbolic values make float inputs proxies, constant values bake them in") {
  const std::string source =
      "def f(xs):\n    out = xs[0]\n    for x in xs:\n        out = out * x\n    return out\n";
  TracedProgram symbolic = traced(source, "f", {{"xs", "(1.5, 2.0)"}});
  std::string printed = print_trace_file(symbolic.file);
  std::smatch m;
  REQUIRE(std::regex_search(printed, m, std::regex(R"(\n  (f\d+), (f\d+), = xs\n)")));
  CHECK(printed.find("prims.check_type(" + std::string(m[1]) + ", float)") != std::string::npos);
  CHECK(std::regex_search(section(printed, "computation"), std::regex(R"(f\d+ = prims\.mul\()")));
  require_clean(printed);

  TracedProgram constant = traced(source, "f", {{"xs", "(1.5, 2.0)"}}, CacheMode::ConstantValues);
  std::string fixed = print_trace_file(constant.file);
  CHECK(fixed.find("prims.check_number_type_and_value(f0, 1.5)") != std::string::npos);
  CHECK(section(fixed, "computation").find("return 4.5") != std::string::npos);
  // The validator rightly says the computation is a constant (TL015): a note, not a failure.
  test::TempDir dir;
  test::write_file(dir.path + "/f.py", source);
  auto run = test::tracelint("trace '" + dir.path +
                             "/f.py' -f f -a 'xs=(1.5, 2.0)' --cache constant-values");
  CHECK(run.exit_code == 0);
  CHECK(run.err.find("note: what the validator says") != std::string::npos);
  CHECK(run.err.find("TL015") != std::string::npos);
}

namespace {

// A module whose `big` body is long enough to be parsed in chunks: every statement kind of the
// subset, multi-line statements, comments and blank lines, calls to functions defined before
// and after it. `middle` is planted about halfway through the body and `late` near its end.
std::string chunked_module(const std::string &middle = "", const std::string &late = "") {
  std::string body;
  for (int i = 0; i < 240; ++i) {
    body += "    # block " + std::to_string(i) + "\n";
    body += "    for k in range(2):\n        y = y + w\n";
    body += "    if n > " + std::to_string(i % 7) + ":\n        y = torch.tanh(y)\n";
    body += "    elif n > 100:\n        y = y * 3\n    else:\n        y = y * 0.5\n\n";
    body += "    a, b = y, w\n    y = helper(a, SCALE) - b\n";
    body += "    y = y.reshape(\n        -1\n    ).view(y.shape)\n";
    body += "    y = y - y.mean(-1, keepdim=True)\n";
    if (i == 120) body += middle;
    if (i == 230) body += late;
  }
  return "import torch\n\nSCALE = 2\n\n"
         "def helper(y, k):\n    if k > 1:\n        return y * k\n    return y + 1\n\n"
         "def big(x, w, n):\n    y = x\n" +
         body + "    return after(y)\n\ndef after(y):\n    return y.sum(-1)\n";
}

TraceRequest big_request(const std::string &source, unsigned threads) {
  TraceRequest r;
  r.path = "big.py";
  r.source = source;
  r.function = "big";
  r.args = {{"x", "f32[4, 8]"}, {"w", "f32[8]"}, {"n", "5"}};
  r.threads = threads;
  return r;
}

// A comment holding a triple quote turns chunking off.
std::string with_triple_quote(const std::string &source) {
  return source + "# \"\"\"\n";
}

} // namespace

TEST_CASE("tracer: a large body traced while its chunks parse gives the whole file's traces") {
  const std::string source = chunked_module();
  Result<Module> chunked = parse_module_chunked("big.py", source, 2);
  REQUIRE(chunked.ok());
  REQUIRE(chunked->function("big"));
  REQUIRE(chunked->function("big")->rest);
  CHECK(chunked->function("big")->rest->size() >= 4);
  Result<Module> whole = parse_module_chunked("big.py", with_triple_quote(source), 2);
  REQUIRE(whole.ok());
  REQUIRE(whole->function("big"));
  CHECK_FALSE(whole->function("big")->rest);

  for (CacheMode cache : {CacheMode::SymbolicValues, CacheMode::ConstantValues})
    for (Level level : {Level::Ltorch, Level::Prims}) {
      TraceRequest reference = big_request(source, 1);
      reference.cache = cache;
      reference.level = level;
      Result<TracedProgram> expected = trace_unchunked(reference);
      REQUIRE(expected.ok());
      // Provenance comments name each statement's line: the chunks' lines map back right.
      std::string printed = print_trace_file(expected->file);
      CHECK(printed.find("# big.py:") != std::string::npos);
      for (unsigned threads : {1u, 2u, 3u}) {
        TraceRequest r = big_request(source, threads);
        r.cache = cache;
        r.level = level;
        Result<TracedProgram> got = trace(r);
        REQUIRE(got.ok());
        CHECK(print_trace_file(got->file) == printed);
        CHECK(got->bound_symbols == expected->bound_symbols);
      }
    }
}

TEST_CASE("tracer: what never runs is no error, chunked or not") {
  // Constructs the tracer cannot run, after an early return and in a function never called.
  for (const std::string &source :
       {chunked_module("    return y\n", "    match y:\n        case 1:\n            pass\n"),
        chunked_module() + "\ndef later(y):\n    match y:\n        case 1:\n            pass\n"}) {
    Result<TracedProgram> whole = trace_unchunked(big_request(source, 1));
    REQUIRE_MESSAGE(whole.ok(), (whole.ok() ? "" : whole.error().message));
    for (unsigned threads : {1u, 2u}) {
      Result<TracedProgram> chunked = trace(big_request(source, threads));
      REQUIRE(chunked.ok());
      CHECK(print_trace_file(chunked->file) == print_trace_file(whole->file));
    }
  }
}

TEST_CASE("tracer: errors in or after a chunked body are the whole file's errors") {
  struct Planted {
    std::string what;
    std::string source;
  };
  std::vector<Planted> cases = {
      {"a syntax error near the end", chunked_module("", "    y = y +* 2\n")},
      {"an unsupported construct late, an interpretation error before it",
       chunked_module("    y = undefined_name\n",
                      "    match n:\n        case 1:\n            pass\n")},
      {"an interpretation error in a late chunk", chunked_module("", "    y = y + nowhere\n")},

      {"a syntax error after the chunked one", chunked_module() + "\ndef later(y):\n    y +* 2\n"},
      {"an IndentationError after the chunked one",
       chunked_module() + "\ndef later(y):\n    if y:\n        y = 1\n      return y\n"},
      {"an IndentationError in the chunked body",
       chunked_module("", "    if n:\n        n = 1\n      n = 2\n")},
  };
  for (const Planted &c : cases) {
    CAPTURE(c.what);
    Result<TracedProgram> expected = trace_unchunked(big_request(c.source, 1));
    REQUIRE_FALSE(expected.ok());
    for (unsigned threads : {1u, 2u}) {
      Result<TracedProgram> got = trace(big_request(c.source, threads));
      REQUIRE_FALSE(got.ok());
      CHECK(got.error().message == expected.error().message);
      CHECK(got.error().line == expected.error().line);
      CHECK(got.error().column == expected.error().column);
    }
  }
  // A later def of the same name replaces the chunked one, as in Python.
  std::string replaced = chunked_module() + "\ndef big(x, w, n):\n    return x * n\n";
  Result<TracedProgram> expected = trace_unchunked(big_request(replaced, 1));
  Result<TracedProgram> got = trace(big_request(replaced, 2));
  REQUIRE(expected.ok());
  REQUIRE(got.ok());
  CHECK(print_trace_file(got->file) == print_trace_file(expected->file));
  CHECK(got->bound_symbols == 2); // n as a float (Thunder's prims take one number type), x * n
}

TEST_CASE("tracer: symbols whose outputs nothing uses are dropped, with their provenance") {
  const std::string source = "import torch\n\n"
                             "def f(x, w):\n"
                             "    unused = torch.exp(x)\n"
                             "    half = x.shape[0] // 2\n"
                             "    y = x * 2\n"
                             "    z = y.reshape(x.shape[0] * 2, -1)\n"
                             "    return z + w\n";
  TracedProgram p = traced(source, "f", {{"x", "f32[4, 6]"}, {"w", "f32[3]"}});
  std::string printed = print_trace_file(p.file);
  std::string computation = section(printed, "computation");
  CHECK(computation.find("exp") == std::string::npos);
  CHECK(computation.find("unused") == std::string::npos); // the provenance comment went too
  CHECK(computation.find("fmod") == std::string::npos);   // half's floor division
  CHECK(computation.find("half") == std::string::npos);
  CHECK(computation.find("ltorch.mul(x, 2") != std::string::npos);
  CHECK(computation.find("ltorch.reshape(") != std::string::npos);
  // The size the reshape computes from a symbolic dim stays, and is defined before use.
  std::smatch m;
  REQUIRE(std::regex_search(computation, m, std::regex(R"((i\d+) = prims\.mul\((i\d+), 2\))")));
  std::string signature = computation.substr(0, computation.find('\n'));
  CHECK(signature.find(" " + std::string(m[2]) + ",") != std::string::npos);
  CHECK(signature.find(", w)") != std::string::npos);
  require_clean(printed);
}

TEST_CASE("tracer: chained and tuple assignments bind every target to the value") {
  // Each target of `a = b = x` gets the value, the last one too; a tuple target takes the items.
  const std::string source = "def f(x, p):\n"
                             "    a = b = x * 2\n"
                             "    (c, d) = e = p\n"
                             "    return a + b + c + d + e[0]\n";
  TracedProgram p =
      traced(source, "f", {{"x", "f32[2]"}, {"p", "(1, 2)"}}, CacheMode::ConstantValues);
  std::string computation = section(print_trace_file(p.file), "computation");
  std::smatch m;
  REQUIRE(std::regex_search(computation, m, std::regex(R"((t\d+) = ltorch\.mul\(x, 2\))")));
  CHECK(computation.find("ltorch.add(" + std::string(m[1]) + ", " + std::string(m[1]) +
                         ", alpha=1)") != std::string::npos);
  CHECK(
      std::regex_search(computation, std::regex(R"(ltorch\.add\(t\d+, 1, alpha=1\)[^\n]*\n[^\n]*\n)"
                                                R"(  t\d+ = ltorch\.add\(t\d+, 2, alpha=1\))")));
  CHECK(p.bound_symbols == 5);
  require_clean(print_trace_file(p.file));
}

TEST_CASE("tracer: operators and string literals as CPython runs them") {
  // Each operator by its enum: user classes' special methods (reflected ones too), chained
  // comparisons, `not in`/`is not`, augmented assignments; abs() of a tensor is ltorch.abs.
  const std::string source =
      "class P:\n"
      "    def __init__(self, v):\n"
      "        self.v = v\n"
      "    def __radd__(self, o):\n"
      "        return P(self.v + o)\n"
      "    def __gt__(self, o):\n"
      "        return self.v > o.v\n"
      "    def __neg__(self):\n"
      "        return P(-self.v)\n"
      "\n"
      "def f(x, n):\n"
      "    m = 7\n"
      "    m //= 2\n"
      "    m **= 2\n"
      "    print((2 + P(1)).v, P(1) < P(2), (-P(3)).v, m, 1 < n <= 3 != 4)\n"
      "    print(2 not in [1], None is not n, not n, ~n, 5 ^ n, 1 << n)\n"
      "    print(rf'{{a}}\\n' + f'{n!r:>3}{{}}' + '\\x41\\101\\u00e9' + f'{n=}')\n"
      "    print(repr('''a\r\nb'''))\n"
      "    return abs(x), +x, -x\n";
  TracedProgram p = traced(source, "f", {{"x", "f32[2]"}, {"n", "3"}}, CacheMode::ConstantValues);
  REQUIRE(p.printed.size() == 4);
  CHECK(p.printed[0] == "3 True -3 9 True\n");
  CHECK(p.printed[1] == "True True False -4 6 8\n");
  CHECK(p.printed[2] == "{a}\\n  3{}AA\xc3\xa9n=3\n");
  CHECK(p.printed[3] == "'a\\nb'\n"); // CPython reads \r\n in a literal as \n
  std::string computation = section(print_trace_file(p.file), "computation");
  CHECK(computation.find("ltorch.abs(x)") != std::string::npos);
  CHECK(computation.find("ltorch.neg(x)") != std::string::npos);
  require_clean(print_trace_file(p.file));

  // A tensor and None are no operands of +, as in PyTorch.
  Error e = trace_error("def f(x):\n    return x + None\n", "f", {{"x", "f32[2]"}});
  CHECK(e.line == 2);
  CHECK(e.message.find("unsupported operand type(s) for +: a tensor and 'NoneType'") !=
        std::string::npos);
}

TEST_CASE("tracer: a size computed again from the same operands is the same proxy, recorded once") {
  // Each reshape counts the input's elements (i0 * i1: the product's 1 * i0 is i0 itself) and
  // the new shape's: under symbolic values each product is one statement however often it is
  // needed, and a product of other operands (i0 * 2) is a statement of its own.
  const std::string source = "def f(x):\n"
                             "    a = x.reshape(-1)\n"
                             "    b = x.view(-1)\n"
                             "    c = x.reshape(x.shape[0] * 2, -1)\n"
                             "    d = x.reshape(x.shape[1], x.shape[0])\n"
                             "    return a, b, c, d, x.mean(-1)\n";
  TracedProgram p = traced(source, "f", {{"x", "f32[4, 6]"}});
  std::string printed = print_trace_file(p.file);
  std::string computation = section(printed, "computation");
  auto count = [&](const std::string &pattern) {
    std::regex re(pattern);
    return std::distance(std::sregex_iterator(computation.begin(), computation.end(), re),
                         std::sregex_iterator());
  };
  CHECK(count(R"(= prims\.mul\(1, i0\))") == 0);
  CHECK(count(R"(= prims\.mul\(i0, i1\))") == 1); // the element count
  CHECK(count(R"(= prims\.mul\(i0, 2\))") == 1);
  CHECK(count(R"(ltorch\.(reshape|view)\()") == 4);
  require_clean(printed);
}

TEST_CASE("tracer: torch calls bind their arguments as Python does, or say what is wrong") {
  const std::string source = "import torch\n\n"
                             "def f(x):\n"
                             "    a = x.view(3, 2)\n"
                             "    b = x.view((3, 2))\n"
                             "    c = torch.sum(x, dim=1, keepdim=True)\n"
                             "    d = torch.softmax(x, -1)\n"
                             "    return a + b, c, d\n";
  TracedProgram p = traced(source, "f", {{"x", "f32[2, 3]"}}, CacheMode::ConstantValues);
  std::string printed = print_trace_file(p.file);
  std::string computation = section(printed, "computation");
  // Sizes spread over the positionals or given as one tuple are the same shape.
  CHECK(std::regex_search(computation, std::regex(R"(ltorch\.view\(x, \(3, 2\)\))")));
  CHECK(computation.find("ltorch.sum(x, 1, True, dtype=None)") != std::string::npos);
  CHECK(computation.find("ltorch.softmax(x, -1, dtype=None)") != std::string::npos);
  require_clean(printed);

  auto error_of = [](const std::string &body) {
    return trace_error("import torch\n\ndef f(x):\n    return " + body + "\n", "f",
                       {{"x", "f32[2, 3]"}});
  };
  // The message's first line; the lines after it name the calls the error came through.
  auto headline = [](const Error &err) { return err.message.substr(0, err.message.find('\n')); };
  auto headline_of = [&](const std::string &body) { return headline(error_of(body)); };
  Error e = error_of("torch.tanh()");
  CHECK(headline(e) == "`torch.tanh` is missing the argument `input`");
  CHECK(e.line == 4);
  CHECK(e.column == 12);
  CHECK(headline_of("torch.tanh(x, x)") ==
        "`torch.tanh` takes at most 1 positional argument, got 2");
  CHECK(headline_of("x.softmax(-1, dimm=0)") ==
        "`Tensor.softmax` got an unexpected keyword argument `dimm`");
  CHECK(headline_of("x.softmax(-1, dim=0)") == "`Tensor.softmax` got two values for `dim`");
  CHECK(headline_of("torch.sum(x, 1, True, 2)") ==
        "`torch.sum` takes at most 3 positional arguments, got 4");
}

TEST_CASE("op registry: every symbol is defined once, with a decomposition or a shape rule, "
          "--list-ops and docs/ops.md show it") {
  std::vector<std::string> problems = tracer::op_registry_problems();
  std::string joined;
  for (const std::string &p : problems)
    joined += p + "\n";
  CHECK_MESSAGE(problems.empty(), joined);
  std::vector<tracer::OpEntry> ops = tracer::op_vocabulary();
  auto find = [&](const std::string &name) -> const tracer::OpEntry * {
    for (const tracer::OpEntry &e : ops)
      if (e.name == name) return &e;
    return nullptr;
  };
  const tracer::OpEntry *gelu = find("ltorch.gelu");
  REQUIRE(gelu);
  CHECK(gelu->signature.find("approximate='none'") != std::string::npos);
  const tracer::OpEntry *check_len = find("prims.check_len");
  REQUIRE(check_len);
  CHECK(std::find(check_len->tags.begin(), check_len->tags.end(), "check") !=
        check_len->tags.end());

  auto text = test::tracelint("trace --list-ops");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("ltorch.scaled_dot_product_attention(") != std::string::npos);
  CHECK(text.out.find("torch.nn.functional.scaled_dot_product_attention") != std::string::npos);
  CHECK(text.out.find("Tensor.masked_fill_ (in place)") != std::string::npos);
  auto markdown = test::tracelint("trace --list-ops=markdown");
  CHECK_MESSAGE(markdown.out == test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/docs/ops.md"),
                "docs/ops.md is stale: run `make docs`");
  CHECK(test::tracelint("trace --list-ops some.py").exit_code == 2);
  auto nofile = test::tracelint("trace -f foo");
  CHECK(nofile.exit_code == 2);
  CHECK(nofile.err.find("give the Python file to trace") != std::string::npos);
}

TEST_CASE("TL016 knows the metadata checks from the op registry, as printed and as _impl") {
  int metadata_checks = 0;
  for (std::size_t i = 0; i < tracer::kSymbolCount; ++i) {
    auto sym = static_cast<tracer::Sym>(i);
    if (!tracer::has_tag(sym, tracer::tags::METADATA)) continue;
    ++metadata_checks;
    CHECK(tracer::is_check_symbol(tracer::qualified_name(sym)));
    for (const std::string &callee :
         {tracer::qualified_name(sym), tracer::qualified_name(sym) + "_impl"}) {
      const std::string check = "  " + callee + "(x, (3,), 'cpu', torch.float32, False)\n";
      const std::string trace = "import torch\nfrom thunder.core import prims\n\n"
                                "@torch.no_grad()\ndef prologue(x):\n" +
                                check + check + "  return (x,)\n";
      FileReport report = check_source("prologue.py", trace, Options{});
      int tl016 = 0;
      for (const Diagnostic &d : report.diagnostics)
        tl016 += d.code == "TL016" && d.span.line == 7;
      CHECK_MESSAGE(tl016 == 1, callee);
    }
  }
  CHECK(metadata_checks == 3);
  CHECK_FALSE(tracer::is_metadata_check_symbol("prims.check_len"));
  CHECK_FALSE(tracer::is_metadata_check_symbol("ltorch.check_tensor_metadata"));
}

namespace {

// What tracing `v = <name>; v + 1` says of a name: "" when it traces, else its error.
std::string use_of(const std::string &name) {
  bool tensor = name.starts_with("Tensor.");
  std::string expr = tensor ? "x." + name.substr(7) : name;
  TraceRequest r;
  r.path = "names.py";
  r.source = "import torch\nimport torch.nn.functional\nimport math\nimport functools\n"
             "import typing\nimport dataclasses\n\n"
             "def f(x):\n    v = " +
             expr + "\n    v + 1\n    return x\n";
  r.function = "f";
  r.args = {{"x", "f32[2, 3]"}};
  Result<TracedProgram> p = trace(r);
  return p ? "" : p.error().message;
}

bool unresolved(const std::string &message) {
  return message.find("does not model") != std::string::npos ||
         message.find("not in the tracer's vocabulary") != std::string::npos ||
         message.find("has no attribute") != std::string::npos;
}

} // namespace

TEST_CASE("names: every name --list-names shows for a module or a tensor resolves, and what "
          "the tracer models is listed") {
  std::vector<NameEntry> names = name_vocabulary();
  auto listed = [&](const std::string &name) {
    return std::any_of(names.begin(), names.end(),
                       [&](const NameEntry &e) { return e.name == name; });
  };
  std::size_t checked = 0;
  for (const NameEntry &e : names) {
    std::string name = e.name.substr(0, e.name.find(' ')); // "Tensor.add_ (in place)"
    bool module_name = name.starts_with("torch.") || name.starts_with("math.") ||
                       name.starts_with("functools.") || name.starts_with("typing.") ||
                       name.starts_with("dataclasses.") || name.starts_with("Tensor.");
    if (!module_name) continue;
    std::string message = use_of(name);
    CHECK_MESSAGE(!unresolved(message), name << ": " << message);
    ++checked;
  }
  CHECK(checked > 300);
  // The check can fail: a name the tracer does not have is unresolved.
  CHECK(unresolved(use_of("torch.not_a_torch_function")));
  CHECK(unresolved(use_of("Tensor.not_a_tensor_method")));
  CHECK(unresolved(use_of("math.not_a_math_function")));
  // Python's builtins, the builtin types' methods and the operators are listed too.
  for (const char *name : {"len", "print", "str.join", "dict.items", "sorted", "+", "not in",
                           "torch.finfo", "math.sqrt", "Tensor.shape", "Tensor.size",
                           "torch.nn.functional.gelu", "functools.partial", "typing.cast"})
    CHECK_MESSAGE(listed(name), name);
}

TEST_CASE("tracer: a name from a module the tracer cannot read answers no `is`: the error is at "
          "the line that compares it, naming the import") {
  // Before, `helper is not None` was True for any such name, and the trace went on.
  Error e = trace_error("from otherlib import helper\n\ndef f(x):\n    if helper is not None:\n"
                        "        return x + 1\n    return x\n",
                        "f", {{"x", "f32[2]"}});
  CHECK(e.line == 4);
  CHECK(e.column == 8);
  CHECK_MESSAGE(e.message.find("`otherlib.helper`: it comes from `otherlib` (imported at line 1), "
                               "a module the tracer cannot read") != std::string::npos,
                e.message);
}

TEST_CASE("tracer: the traced file is imported, not run: __name__ is its module's name and its "
          "`if __name__ == \"__main__\":` block is left alone") {
  TracedProgram p = traced("import sys\n\ndef f(x):\n    return x + 1\n\n"
                           "if __name__ == '__main__':\n    sys.exit(f(2))\n\nNAME = __name__\n\n"
                           "def g(x):\n    return x * len(NAME)\n",
                           "g", {{"x", "f32[2]"}}, CacheMode::ConstantValues);
  // seed.py is the module `seed`: x * 4.
  CHECK_MESSAGE(print_trace_file(p.file).find("ltorch.mul(x, 4)") != std::string::npos,
                print_trace_file(p.file));
}

TEST_CASE("tracer: item assignment records ltorch.setitem and updates the tensor, and what "
          "PyTorch refuses is refused at its line") {
  TracedProgram p = traced("import torch\n"
                           "def f(x, v):\n"
                           "    y = x * 1\n"
                           "    y[0] = v\n"
                           "    y[:, 1:] += 2\n"
                           "    return y\n",
                           "f", {{"x", "f32[3, 4]"}, {"v", "f32[4]"}});
  std::string printed = print_trace_file(p.file);
  CHECK(printed.find(" = ltorch.setitem(t3, 0, v)") != std::string::npos);
  CHECK(printed.find("prims.copy_with_setitem(") != std::string::npos);
  CHECK(printed.find("(slice(None, None, None), slice(1, None, None))") != std::string::npos);
  require_clean(printed);

  struct Refused {
    const char *body, *message;
  } refused[] = {
      {"    y[0] = torch.ones(5)\n", "cannot be broadcast to indexing result of shape [4]"},
      {"    y[[0, 1]] = torch.ones(4, dtype=torch.float64)\n",
       "Index put requires the source and destination dtypes match"},
      {"    y[0] = [1, 2, 3, 4]\n", "can't assign list to a torch tensor"},
      {"    y = y.long()\n    y[0] += 0.5\n", "can't be cast to the desired output type"},
      {"    y[0] = torch.randn(4)\n", "`torch.randn()` draws random numbers in the traced"},
  };
  for (const Refused &r : refused) {
    CAPTURE(r.body);
    Error e = trace_error(std::string("import torch\ndef f(x):\n    y = x * 1\n") + r.body +
                              "    return y\n",
                          "f", {{"x", "f32[3, 4]"}});
    CHECK(e.message.find(r.message) != std::string::npos);
    CHECK(e.line >= 4);
  }
}

TEST_CASE("tracer: F.pad's border modes and Tensor.unfold refuse what PyTorch refuses, at the "
          "call, with PyTorch's words") {
  struct Refused {
    std::string call, message;
  };
  const Refused cases[] = {
      {"F.pad(x, (1, 1), 'reflect', value=0.5)",
       "Padding mode \"reflect\" doesn't take in value argument"},
      {"F.pad(x, (3, 1), 'reflect')", "Padding size should be less than the corresponding input "
                                      "dimension, but got: padding (3, 1) at dimension 2"},
      {"F.pad(x, (4, 0), 'circular')", "Padding value causes wrapping around more than once."},
      {"F.pad(x[:, :0], (1, 0), 'replicate')",
       "Expected 2D or 3D (batch mode) tensor with "
       "possibly 0 batch size and other non-zero dimensions"},
      {"F.pad(x, (1, 1, 1, 1, 1, 1), 'reflect')",
       "Only 2D, 3D, 4D, 5D padding with non-constant padding are supported"},
      {"F.pad(x, (-1, 1), 'replicate')", "negative padding (a crop) in F.pad's mode 'replicate'"},
      {"F.pad(x, (1, 1), 'wrap')", "is not one of 'constant', 'reflect', 'replicate' and "
                                   "'circular'"},
      {"x.unfold(2, 4, 1)", "maximum size for tensor at dimension 2 is 3 but size is 4"},
      {"x.unfold(2, 2, 0)", "step is 0 but must be > 0"},
  };
  for (const Refused &c : cases) {
    CAPTURE(c.call);
    Error e = trace_error("import torch.nn.functional as F\ndef f(x):\n    return " + c.call + "\n",
                          "f", {{"x", "f32[2, 4, 3]"}});
    CHECK(e.message.find(c.message) != std::string::npos);
    CHECK(e.line == 3);
  }
}

TEST_CASE("tracer: copy.copy of a tensor the computation reads, and a deep copy of a class with "
          "its own __deepcopy__, are errors at their line") {
  // A shallow copy shares the storage, which the functional trace cannot express; a class's own
  // __deepcopy__ takes a memo the tracer does not model. copy.deepcopy of a traced tensor is a
  // new name for the same value (tests/tracer/ops_cases.py's copies).
  TraceRequest r;
  r.path = "model.py";
  r.function = "f";
  r.args = {{"x", "f32[2, 3]"}};
  r.source = "import copy\n"
             "def f(x):\n"
             "    return copy.copy(x)\n";
  Result<TracedProgram> p = trace(r);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().message.find("copy.copy of a tensor the computation reads") != std::string::npos);
  CHECK(p.error().line == 3);
  r.source = "import copy\n"
             "class Memo:\n"
             "    def __deepcopy__(self, memo):\n"
             "        return self\n"
             "def f(x):\n"
             "    return x, copy.deepcopy([Memo()])\n";
  p = trace(r);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().message.find("copy.deepcopy of a Memo, whose class defines __deepcopy__") !=
        std::string::npos);
  CHECK(p.error().line == 6);
}

TEST_CASE("tracer: an nn class the tracer lacks is an error at the line that constructs it, "
          "naming the class") {
  TraceRequest r;
  r.path = "model.py";
  r.source = "import torch\n"
             "import torch.nn as nn\n"
             "class M(nn.Module):\n"
             "    def __init__(self):\n"
             "        super().__init__()\n"
             "        self.conv = nn.LSTM(8, 2)\n"
             "    def forward(self, x):\n"
             "        return self.conv(x)\n";
  r.module_class = "M";
  r.args = {{"x", "f32[1, 3, 8]"}};
  Result<TracedProgram> p = trace(r);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().message.find("torch.nn.LSTM is not supported by the tracer") == 0);
  CHECK(p.error().line == 6);
  CHECK(p.error().column == 21);
}

TEST_CASE("tracer: a model whose forward needs what the tracer cannot run fails at that line, "
          "saying what, with the calls it came through in the user's file, never torch.nn's") {
  // Inner.forward is reached through torch.nn's Module.__call__: the error stays at its line,
  // and the chain names the user's call `self.inner(x)`, not the library's lines.
  struct Unsupported {
    const char *body, *message;
    unsigned column;
  };
  const std::vector<Unsupported> cases = {
      {"return torch.polar(x, x)", "`torch.polar`", 16},
      {"return x.nonzero()", "`Tensor.nonzero` is not in the tracer's vocabulary", 16},
      {"return x * 2j", "unsupported construct: a complex literal", 20},
      {"return erf(x)",
       "`scipy.special.erf`: it comes from `scipy` (imported at line 2), a module the tracer "
       "cannot read",
       16},
      {"return torch.randn(3) + x", "draws random numbers in the traced function", 16},
      {"return x * x.sum().item()", "`Tensor.item()` reads the tensor's values", 20},
      {"return x if x.sum() > 0 else -x", "data-dependent control flow", 21},
      {"return x * AttrDict(a=1)['a']",
       "unsupported construct: an instance of `AttrDict`, a class deriving from the builtin "
       "`dict`",
       20},
  };
  for (const Unsupported &u : cases) {
    CAPTURE(u.body);
    TraceRequest r;
    r.path = "model.py";
    r.source = std::string("import torch\n"
                           "from scipy.special import erf\n"
                           "import torch.nn as nn\n"
                           "class AttrDict(dict):\n"
                           "    pass\n"
                           "class Inner(nn.Module):\n"
                           "    def forward(self, x):\n"
                           "        ") +
               u.body +
               "\n"
               "class M(nn.Module):\n"
               "    def __init__(self):\n"
               "        super().__init__()\n"
               "        self.inner = Inner()\n"
               "    def forward(self, x):\n"
               "        return self.inner(x) * 2\n";
    r.module_class = "M";
    r.args = {{"x", "f32[3]"}};
    Result<TracedProgram> p = trace(r);
    REQUIRE_FALSE(p.ok());
    const std::string &message = p.error().message;
    CHECK_MESSAGE(message.find(u.message) != std::string::npos, message);
    CHECK(p.error().line == 8);
    CHECK(p.error().column == u.column);
    CHECK_MESSAGE(message.find("in `Inner.forward`, called at model.py:14:16") != std::string::npos,
                  message);
    CHECK_MESSAGE(message.find("<torch.nn>") == std::string::npos, message);
  }
}

TEST_CASE("tracer: a property without a getter, setter or deleter raises CPython's "
          "AttributeError where it is used") {
  const std::string cls = "class C:\n"
                          "    def _set(self, v):\n"
                          "        self.v = v\n"
                          "    only_set = property(None, _set)\n"
                          "    only_get = property(lambda self: 1)\n";
  struct Use {
    const char *line, *message;
  } uses[] = {
      {"    return x * C().only_set\n", "property 'only_set' of 'C' object has no getter"},
      {"    C().only_get = 2\n    return x\n", "property 'only_get' of 'C' object has no setter"},
      {"    del C().only_get\n    return x\n", "property 'only_get' of 'C' object has no deleter"},
  };
  for (const Use &u : uses) {
    CAPTURE(u.line);
    Error e = trace_error(cls + "def f(x):\n" + u.line, "f", {{"x", "f32[2]"}});
    CHECK(e.message.find(u.message) != std::string::npos);
    CHECK(e.line == 7);
  }
}

TEST_CASE("docs: docs/tracer.md names exactly the torch.nn classes the tracer's prelude defines") {
  // The paragraph that starts "`torch.nn` is the tracer's own" lists them; a class added to (or
  // dropped from) tracer/src/prelude/nn.py without the page fails here.
  std::string page = test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/docs/tracer.md");
  std::size_t at = page.find("`torch.nn` is the tracer's own");
  REQUIRE(at != std::string::npos);
  std::string paragraph = page.substr(at, page.find("\n\n", at) - at);
  std::set<std::string> documented;
  std::regex backticked("`([A-Z][A-Za-z0-9]*)`");
  for (auto m = std::sregex_iterator(paragraph.begin(), paragraph.end(), backticked);
       m != std::sregex_iterator(); ++m)
    documented.insert((*m)[1]);
  std::string prelude =
      test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/tracer/src/prelude/nn.py");
  std::set<std::string> defined = {"Parameter"}; // a builtin class of the interpreter
  std::regex class_line("\nclass ([A-Z][A-Za-z0-9]*)[(:]");
  for (auto m = std::sregex_iterator(prelude.begin(), prelude.end(), class_line);
       m != std::sregex_iterator(); ++m)
    defined.insert((*m)[1]);
  CHECK(defined.size() > 15);
  CHECK(documented == defined);
}

TEST_CASE("docs: docs/tracer.md's paragraph on Python names every name of the standard modules "
          "the tracer provides, and only those") {
  // --list-names (name_vocabulary) is what resolves; "The Python it runs" must name each of
  // these modules' names, and a `module.name` it spells must be one.
  std::string page = test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/docs/tracer.md");
  std::size_t at = page.find("## The Python it runs");
  REQUIRE(at != std::string::npos);
  std::string section = page.substr(at, page.find("\n## ", at + 1) - at);
  const std::set<std::string> modules = {"dataclasses", "typing",     "functools",   "copy",
                                         "argparse",    "contextlib", "collections", "enum"};
  std::set<std::string> provided;
  for (const NameEntry &n : name_vocabulary()) {
    std::size_t dot = n.name.find('.');
    if (dot == std::string::npos || !modules.count(n.name.substr(0, dot))) continue;
    provided.insert(n.name);
    std::string short_name = n.name.substr(dot + 1);
    CHECK_MESSAGE((section.find("`" + short_name) != std::string::npos ||
                   section.find("`" + n.name) != std::string::npos),
                  n.name << " is not in docs/tracer.md's \"The Python it runs\"");
  }
  CHECK(provided.size() > 15);
  // The builtin functions, all of them: --list-names' undotted builtins but the exception's and
  // sequences' methods it lists without their type.
  std::size_t list_at = section.find("Python's builtin functions (`");
  REQUIRE(list_at != std::string::npos);
  list_at = section.find('`', list_at) + 1;
  std::istringstream words(section.substr(list_at, section.find('`', list_at) - list_at));
  std::set<std::string> documented{std::istream_iterator<std::string>(words), {}};
  std::set<std::string> builtin_functions;
  for (const NameEntry &n : name_vocabulary())
    if (n.means == "builtin" && n.name.find('.') == std::string::npos &&
        !std::set<std::string>{"index", "count", "copy", "with_traceback"}.count(n.name))
      builtin_functions.insert(n.name);
  CHECK(builtin_functions.size() > 30);
  CHECK(documented == builtin_functions);
  std::regex dotted(
      "`((dataclasses|typing|functools|copy|argparse|contextlib|collections|enum)\\.[A-Za-z_]+)");
  for (auto m = std::sregex_iterator(section.begin(), section.end(), dotted);
       m != std::sregex_iterator(); ++m)
    CHECK_MESSAGE(provided.count((*m)[1]), (*m)[1] << " is documented but does not resolve");
}

TEST_CASE("tracer: --arg takes lists, tuples and dicts holding tensors, the prologue unpacks and "
          "checks each tensor, and what cannot be such an input is refused, saying why") {
  Result<InputSpec> d = parse_arg({"a", "{2: f32[2, 3, 8], 'k': [i64[4]@cpu:0..9, 0.5]}"});
  REQUIRE_MESSAGE(d.ok(), (d.ok() ? std::string() : d.error().message));
  CHECK(d->kind == InputSpec::Kind::Collection);
  CHECK(d->collection == ValueKind::Dict);
  REQUIRE(d->items.size() == 2);
  CHECK(d->items[0].kind == InputSpec::Kind::Tensor);
  CHECK(d->items[0].shape == std::vector<int64_t>{2, 3, 8});
  CHECK(d->keys[1].text == "k");
  REQUIRE(d->items[1].items.size() == 2);
  CHECK(d->items[1].items[0].range == std::make_pair(int64_t{0}, int64_t{9}));
  CHECK(d->items[1].items[1].kind == InputSpec::Kind::Literal);
  // A string that looks like a spec stays a string.
  Result<InputSpec> s = parse_arg({"s", "('f32[2]', f32[3])"});
  REQUIRE(s.ok());
  CHECK(s->items[0].literal.text == "f32[2]");

  struct Refused {
    const char *text, *message;
  };
  for (const Refused &r : std::vector<Refused>{
           {"[f32[2]:grad]", "a tensor inside a collection cannot take :grad yet"},
           {"[f32[2] + 1]", "not a literal"},
           {"(f32[2])", "a tensor spec can only stand alone or inside a list, tuple or dict"},
           {"{f32[2]: 1}", "dictionary keys must be str or int constants"},
           {"[f32[2, x]]", "each dim must be a non-negative integer"}}) {
    CAPTURE(r.text);
    Result<InputSpec> bad = parse_arg({"a", r.text});
    REQUIRE_FALSE(bad.ok());
    CHECK_MESSAGE(bad.error().message.find(r.message) != std::string::npos, bad.error().message);
  }

  TraceRequest req;
  req.path = "f.py";
  req.source = "def f(arr, d):\n    return arr[1] * d['w']\n";
  req.function = "f";
  req.args = {{"arr", "[f32[2, 5], f32[2, 5]]"}, {"d", "{'w': f32[5]}"}};
  Result<TracedProgram> p = trace(req);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
  std::string printed = print_trace_file(p->file);
  CHECK_MESSAGE(printed.find("t0, t3, = arr") != std::string::npos, printed);
  CHECK(printed.find("prims.check_tensor_shape_and_metadata(t3, (i4, i5), 'cpu', torch.float32, "
                     "False)") != std::string::npos);
  CHECK(printed.find("= d['w']") != std::string::npos);
}

TEST_CASE("tracer: batch_norm writes its running statistics back in training, and refuses what "
          "PyTorch refuses, at the call, with what to do") {
  const std::string head = "import torch\nimport torch.nn.functional as F\n\ndef f(x, m, v):\n";
  const std::vector<ArgSpec> args = {{"x", "f32[4, 3, 5]"}, {"m", "f32[3]"}, {"v", "f32[3]"}};
  // Training mode with running statistics updates them: written back to the caller's tensors at
  // the end (prims.copy_), the normalisation on the batch's statistics alone.
  for (const char *call : {"F.batch_norm(x, m, v, training=True)", "F.instance_norm(x, m, v)"}) {
    CAPTURE(call);
    TraceRequest r;
    r.path = "model.py";
    r.source = head + "    return " + call + "\n";
    r.function = "f";
    r.args = args;
    Result<TracedProgram> p = trace(r);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
    std::string printed = print_trace_file(p->file);
    CHECK_MESSAGE(printed.find(", m, grad_enabled=True)") != std::string::npos, printed);
    CHECK_MESSAGE(printed.find(", v, grad_enabled=True)") != std::string::npos, printed);
    CHECK_MESSAGE(printed.find(", None, None, None, None, True, 0.1, 1e-05)") != std::string::npos,
                  printed);
  }
  // A momentum that is no number; statistics of another size in training too.
  Error e = trace_error(head + "    return F.batch_norm(x, m, v, training=True, momentum=None)\n",
                        "f", args);
  CHECK(e.line == 5);
  CHECK_MESSAGE(e.message.find("argument 'momentum' must be float, not NoneType") !=
                    std::string::npos,
                e.message);
  e = trace_error(head + "    return F.batch_norm(x, m[:2], v, training=True)\n", "f", args);
  CHECK_MESSAGE(e.message.find("one value per channel (3)") != std::string::npos, e.message);
  // Evaluation mode without them, a statistic of another size, one value per channel in training.
  e = trace_error(head + "    return F.batch_norm(x, None, v)\n", "f", args);
  CHECK_MESSAGE(e.message.find("must be defined in evaluation mode") != std::string::npos,
                e.message);
  e = trace_error(head + "    return F.batch_norm(x, m[:2], v)\n", "f", args);
  CHECK_MESSAGE(e.message.find("one value per channel (3)") != std::string::npos, e.message);
  e = trace_error(head + "    return F.batch_norm(x[:1, :, :1], None, None, training=True)\n", "f",
                  args);
  CHECK_MESSAGE(e.message.find("Expected more than 1 value per channel when training") !=
                    std::string::npos,
                e.message);
  // instance_norm: no running statistics where it needs them, an empty batch.
  e = trace_error(head + "    return F.instance_norm(x, use_input_stats=False)\n", "f", args);
  CHECK_MESSAGE(e.message.find("Expected running_mean and running_var to be defined") !=
                    std::string::npos,
                e.message);
  e = trace_error(head + "    return F.instance_norm(x[:0])\n", "f", args);
  CHECK_MESSAGE(e.message.find("instance_norm of an empty batch") != std::string::npos, e.message);
  // group_norm: channels the groups do not divide.
  e = trace_error(head + "    return F.group_norm(x, 2)\n", "f", args);
  CHECK_MESSAGE(e.message.find("divisible by num_groups") != std::string::npos, e.message);
}

TEST_CASE("tracer: a convolution, a pooling or an interpolation refuses what PyTorch refuses, at "
          "the call, with PyTorch's words") {
  const std::string head = "import torch\nimport torch.nn.functional as F\n\ndef f(x, w, wt):\n";
  const std::vector<ArgSpec> args = {
      {"x", "f32[2, 4, 5, 5]"}, {"w", "f32[6, 2, 3, 3]"}, {"wt", "f32[4, 3, 3, 3]"}};
  auto message = [&](const std::string &body) {
    Error e = trace_error(head + "    return " + body + "\n", "f", args);
    CHECK(e.line == 5);
    return e.message;
  };
  // Channels that the weight and groups do not match, a kernel larger than the padded input.
  std::string m = message("F.conv2d(x, w)");
  CHECK_MESSAGE(m.find("to have 2 channels, but got 4 channels instead") != std::string::npos, m);
  m = message("F.conv2d(x, w, groups=2, dilation=3)");
  CHECK_MESSAGE(m.find("Kernel size can't be greater than actual input size") != std::string::npos,
                m);
  // 'same' with a stride, an unknown padding string, a window parameter of the wrong length.
  m = message("F.conv2d(x, w, groups=2, stride=2, padding='same')");
  CHECK_MESSAGE(m.find("not supported for strided convolutions") != std::string::npos, m);
  m = message("F.conv2d(x, w, groups=2, padding='full')");
  CHECK_MESSAGE(m.find("Invalid padding string 'full'") != std::string::npos, m);
  m = message("F.conv2d(x, w, groups=2, stride=(1, 1, 1))");
  CHECK_MESSAGE(m.find("expected stride to be a single integer value or a list of 2") !=
                    std::string::npos,
                m);
  // A transposed convolution's output_padding must stay below the stride or the dilation.
  m = message("F.conv_transpose2d(x, wt, stride=2, output_padding=2)");
  CHECK_MESSAGE(m.find("output padding must be smaller than either stride or dilation") !=
                    std::string::npos,
                m);
  // Pooling: a padding over half the kernel, indices; interpolate: a mode it lacks, both size
  // and scale_factor, align_corners where no mode interpolates.
  m = message("F.max_pool2d(x, 2, padding=2)");
  CHECK_MESSAGE(
      m.find("pad should be smaller than or equal to half of kernel size") != std::string::npos, m);
  m = message("F.max_pool2d(x, 2, return_indices=True)");
  CHECK_MESSAGE(m.find("return_indices=True is not supported") != std::string::npos, m);
  m = message("F.interpolate(x, scale_factor=2, mode='bicubic')");
  CHECK_MESSAGE(m.find("mode 'bicubic' is not supported by the tracer") != std::string::npos, m);
  m = message("F.interpolate(x, size=3, scale_factor=2)");
  CHECK_MESSAGE(m.find("only one of size or scale_factor should be defined") != std::string::npos,
                m);
  m = message("F.interpolate(x, size=3, align_corners=True)");
  CHECK_MESSAGE(m.find("align_corners option can only be set") != std::string::npos, m);
  // The ATen functions' bool parameters take a bool only (F's own flags take any truth value:
  // return_indices=1 is refused above as True is).
  m = message("F.max_pool2d(x, 2, ceil_mode=1)");
  CHECK_MESSAGE(
      m.find("max_pool2d(): argument 'ceil_mode' must be bool, not int") != std::string::npos, m);
  m = message("F.avg_pool2d(x, 3, padding=1, count_include_pad=0)");
  CHECK_MESSAGE(m.find("argument 'count_include_pad' must be bool, not int") != std::string::npos,
                m);
  m = message("F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=1)");
  CHECK_MESSAGE(m.find("argument 'align_corners' must be bool, not int") != std::string::npos, m);
  m = message("F.max_pool2d(x, 2, return_indices=1)");
  CHECK_MESSAGE(m.find("return_indices=True is not supported") != std::string::npos, m);
  // An input of the wrong rank.
  m = message("F.conv2d(x[0, 0], w)");
  CHECK_MESSAGE(
      m.find("Expected 3D (unbatched) or 4D (batched) input to conv2d") != std::string::npos, m);
}
