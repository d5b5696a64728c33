// The differential test of the shape rules: for every ltorch symbol of the op registry, seeded
// random calls (tests/shape_draws.cpp: shapes of rank 0-5 with dims from {0, 1, 2, 3, 5},
// broadcasting pairs and pairs that do not broadcast, dtypes, numbers as operands) are traced in
// both cache modes and
// - run by libtorch: the executor checks every annotated shape, dtype and device against the
//   tensors libtorch computes, and the results against libtorch running the source eagerly;
// - compared with CPython's PyTorch running the same source on the same inputs
//   (tracer/oracle/cpython_oracle.py), which also runs the printed trace with PyTorch's semantics;
// - where the tracer refuses a call, libtorch's eager run and CPython must refuse it too
//   (tests/tracer/differential_refusals.py), and both cache modes must agree.
#include "shape_draws.hpp"
#include "support.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/execute.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <sstream>

// libtorch's headers bring glog's CHECK(cond); the tests mean doctest's.
#undef CHECK
#define CHECK DOCTEST_CHECK

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

#if defined(__SANITIZE_ADDRESS__)
#define TRACELINT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TRACELINT_SANITIZED 1
#endif
#endif

// Calls drawn per symbol, each traced in both cache modes: TRACELINT_SHAPE_DRAWS=N draws N
// (the default keeps the suite within CI's time). The sanitizer build runs some ten times
// slower: it checks the same code paths on fewer draws.
int draws_per_symbol() {
#ifdef TRACELINT_SANITIZED
  int draws = 6;
#else
  int draws = 100;
#endif
  if (const char *given = std::getenv("TRACELINT_SHAPE_DRAWS")) draws = std::atoi(given);
  return std::max(draws, 1);
}
constexpr uint64_t kSeed = 20261207;

// assigned(): a statement's op (a[key] = value, ltorch.setitem) as an expression for a recipe;
// K[...]: a key as a value (K[1:, None] is (slice(1, None, None), None)).
const char *const kHeader = "import torch\nimport torch.nn.functional as F\n\n\n"
                            "def assigned(a, key, value):\n    a[key] = value\n    return a\n\n\n"
                            "class Keys:\n    def __getitem__(self, key):\n        return key\n\n\n"
                            "K = Keys()\n\n\n";

struct Findings {
  std::vector<std::string> problems;
  std::vector<std::string> ran, ran_polyfilled;     // --save-io folders, for CPython
  nlohmann::json refused = nlohmann::json::array(); // for CPython
  nlohmann::json refused_polyfilled = nlohmann::json::array();
  std::size_t traced = 0, refusals = 0;
};

std::string call_text(const std::string &function, const std::vector<ArgSpec> &args) {
  std::string out = function + "(";
  for (std::size_t i = 0; i < args.size(); ++i)
    out += (i ? ", " : "") + args[i].name + "=" + args[i].text;
  return out + ")";
}

// Whether libtorch, running the source eagerly, refuses the call too.
bool eager_refuses(const TraceRequest &request) {
  std::vector<InputSpec> specs;
  for (const ArgSpec &a : request.args) {
    Result<InputSpec> spec = parse_arg(a);
    if (!spec) return true;
    specs.push_back(spec.value());
  }
  try {
    std::vector<RtValue> inputs = make_inputs(specs, 0, "cpu");
    return !run_eager(request, inputs, {}, 0).ok();
  } catch (const std::exception &) {
    return true;
  }
}

struct DrawnCase {
  std::string function;
  std::string expression;
  std::vector<ArgSpec> args;
};

// One call in both cache modes: each traced and run, or refused by both modes and by libtorch.
void check_case(const DrawnCase &c, const std::string &path, const std::string &source,
                const std::string &dir, bool polyfill, Findings &f) {
  std::string what = path + ": " + call_text(c.function, c.args) + ": " + c.expression;
  std::optional<std::string> refusal[2];
  int mode = 0;
  TraceRequest request;
  for (CacheMode cache : {CacheMode::SymbolicValues, CacheMode::ConstantValues}) {
    request.path = path;
    request.source = source;
    request.function = c.function;
    request.args = c.args;
    request.cache = cache;
    std::string mode_name = to_string(cache);
    Result<TracedProgram> program = trace(request);
    if (!program) {
      refusal[mode++] = program.error().message;
      continue;
    }
    ++mode;
    ++f.traced;
    std::string out = dir + "/" + c.function + (cache == CacheMode::SymbolicValues ? "-s" : "-c");
    Result<RunReport> run = run_and_compare(request, program.value(), RunOptions{0, 0, out});
    if (!run)
      f.problems.push_back(what + " (" + mode_name + "): " + run.error().message);
    else if (!run->ok())
      f.problems.push_back(what + " (" + mode_name + "): " + run->summary());
    else
      (polyfill ? f.ran_polyfilled : f.ran).push_back(out);
  }
  if (refusal[0].has_value() != refusal[1].has_value()) {
    f.problems.push_back(
        what + ": refused only with " +
        (refusal[0] ? "symbolic values: " + *refusal[0] : "constant values: " + *refusal[1]));
    return;
  }
  if (!refusal[0]) return;
  ++f.refusals;
  if (!eager_refuses(request))
    f.problems.push_back(what + ": the tracer refuses it (" + *refusal[0] +
                         ") but libtorch runs it eagerly");
  nlohmann::json args = nlohmann::json::array();
  for (const ArgSpec &a : c.args)
    args.push_back({a.name, a.text});
  (polyfill ? f.refused_polyfilled : f.refused)
      .push_back({{"source", path},
                  {"function", c.function},
                  {"args", args},
                  {"expression", c.expression},
                  {"message", *refusal[0]}});
}

// The draws of one symbol, each a source file of its own (case_N.py defining case_N), checked.
void check_symbol(const std::string &symbol, const test::Recipe &recipe, uint64_t seed,
                  const std::string &dir, Findings &f) {
  std::string folder = dir + "/" + symbol.substr(symbol.find('.') + 1);
  std::filesystem::create_directories(folder);
  for (int i = 0; i < draws_per_symbol(); ++i) {
    test::Draw draw(seed * 1000003u + static_cast<uint64_t>(i));
    DrawnCase c;
    c.function = "case_" + std::to_string(i);
    c.expression = recipe.draw(draw);
    c.args = draw.args;
    std::string params;
    for (const ArgSpec &a : c.args)
      params += (params.empty() ? "" : ", ") + a.name;
    std::string source =
        kHeader + ("def " + c.function + "(" + params + "):\n    return " + c.expression + "\n");
    std::string path = folder + "/" + c.function + ".py";
    test::write_file(path, source);
    try {
      check_case(c, path, source, folder, recipe.polyfill, f);
    } catch (const std::exception &e) {
      // trace() and run_and_compare() return errors as values: an exception is a bug.
      f.problems.push_back(path + ": " + call_text(c.function, c.args) + ": " + c.expression +
                           ": threw " + e.what());
    }
  }
}

const std::string kPython = "/usr/bin/python3";

// CPython's verdicts: every run folder matches, every refused call is refused.
void compare_with_cpython(const Findings &f, const std::string &dir) {
  for (bool polyfill : {false, true}) {
    const std::vector<std::string> &ran = polyfill ? f.ran_polyfilled : f.ran;
    std::string list = dir + (polyfill ? "/ran-polyfilled.txt" : "/ran.txt");
    std::string listed;
    for (const std::string &d : ran)
      listed += d + "\n";
    test::write_file(list, listed);
    std::string flag = polyfill ? " --polyfill" : "";
    auto [status, out] = test::run_capturing(
        test::shell_quote(kPython) + " " +
        test::shell_quote(std::string(TRACELINT_SOURCE_DIR) + "/tracer/oracle/cpython_oracle.py") +
        flag + " --dirs-from " + test::shell_quote(list) + " 2>/dev/null");
    std::size_t matched = 0, shown = 0;
    std::istringstream lines(out);
    for (std::string line; std::getline(lines, line);) {
      bool match = line.find("matches CPython") != std::string::npos;
      matched += match;
      if (!match && shown++ < 20) CHECK_MESSAGE(match, line);
    }
    CHECK(status == (ran.empty() ? 2 : 0));
    CHECK(matched == ran.size());

    std::string refused = dir + (polyfill ? "/refused-polyfilled.json" : "/refused.json");
    test::write_file(refused, (polyfill ? f.refused_polyfilled : f.refused).dump());
    auto [refused_status, accepted] =
        test::run_capturing(test::shell_quote(kPython) + " " +
                            test::shell_quote(std::string(TRACELINT_SOURCE_DIR) +
                                              "/tests/tracer/differential_refusals.py") +
                            flag + " " + test::shell_quote(refused) + " 2>&1");
    CHECK_MESSAGE(refused_status == 0, accepted.substr(0, 6000));
  }
}

} // namespace

TEST_CASE("shape rules: every ltorch symbol on random shapes, broadcasting and dtypes, in both "
          "cache modes, matches libtorch and CPython PyTorch, and refuses what they refuse") {
  // Every ltorch symbol has its recipe: a new symbol without one fails here.
  std::vector<std::string> symbols;
  for (const OpEntry &op : op_vocabulary())
    if (op.name.starts_with("ltorch.")) symbols.push_back(op.name);
  for (const std::string &s : symbols)
    CHECK_MESSAGE(test::shape_recipes().count(s) == 1,
                  s << " has no recipe in tests/shape_draws.cpp: add one");
  for (const auto &[name, recipe] : test::shape_recipes())
    CHECK_MESSAGE(std::find(symbols.begin(), symbols.end(), name) != symbols.end(),
                  name << " is no ltorch symbol of the registry");

  test::TempDir dir;
  Findings f;
  uint64_t seed = kSeed;
  auto started = std::chrono::steady_clock::now();
  auto seconds_since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  // TRACELINT_SHAPE_SYMBOLS=ltorch.mul,ltorch.cat: only those (to look into one), same seeds.
  const char *only = std::getenv("TRACELINT_SHAPE_SYMBOLS");
  for (const auto &[name, recipe] : test::shape_recipes()) {
    ++seed;
    if (!only || ("," + std::string(only) + ",").find("," + name + ",") != std::string::npos)
      check_symbol(name, recipe, seed, dir.path, f);
  }
  MESSAGE(f.traced << " traces run, " << f.refusals << " calls refused, over "
                   << test::shape_recipes().size() << " symbols, in " << seconds_since(started)
                   << " s");
  std::string shown;
  for (std::size_t i = 0; i < f.problems.size() && i < 40; ++i)
    shown += f.problems[i] + "\n";
  CHECK_MESSAGE(f.problems.empty(), f.problems.size() << " problems; the first:\n" << shown);
  // Enough of both kinds that the comparison means something.
  if (!only) CHECK(f.traced > static_cast<std::size_t>(draws_per_symbol()) * symbols.size());
  // Refusals: some 3.5% of the calls (631 of 18,800 at 100 draws); at least 1 in 40.
  if (!only) CHECK(f.refusals * 40 > static_cast<std::size_t>(draws_per_symbol()) * symbols.size());
  if (!std::filesystem::exists(kPython) ||
      std::system((kPython + " -c 'import torch' > /dev/null 2>&1").c_str()) != 0) {
    test::skip_test("/usr/bin/python3 has no torch: nothing compared with CPython "
                    "(scripts/bootstrap.sh installs python3-torch)");
    return;
  }
  auto compared = std::chrono::steady_clock::now();
  compare_with_cpython(f, dir.path);
  MESSAGE("CPython compared them in " << seconds_since(compared) << " s");
}

namespace {

// Traces `def f(ARGS): return EXPR` in both cache modes; the traces' runs and errors.
struct Both {
  std::optional<std::string> refused[2];
  std::string printed[2];
};

Both trace_both(const std::string &expression, const std::vector<ArgSpec> &args) {
  std::string params;
  for (const ArgSpec &a : args)
    params += (params.empty() ? "" : ", ") + a.name;
  TraceRequest request;
  request.path = "f.py";
  request.source = kHeader + ("def f(" + params + "):\n    return " + expression + "\n");
  request.function = "f";
  request.args = args;
  Both out;
  int mode = 0;
  for (CacheMode cache : {CacheMode::SymbolicValues, CacheMode::ConstantValues}) {
    request.cache = cache;
    Result<TracedProgram> program = trace(request);
    if (!program) {
      out.refused[mode++] = program.error().message;
      continue;
    }
    out.printed[mode++] = print_trace_file(program->file);
    Result<RunReport> run = run_and_compare(request, program.value(), RunOptions{});
    REQUIRE_MESSAGE(run.ok(), (run.ok() ? std::string() : run.error().message));
    CHECK_MESSAGE(run->ok(), run->summary());
  }
  return out;
}

} // namespace

TEST_CASE("shape rules: a size-1 dim broadcasts under symbolic values, guarded to stay 1") {
  // Issue 38's examples: the symbolic dim of c is 1, the trace holds while it is (a guard).
  for (auto [x, c] : {std::pair<const char *, const char *>{"f32[4, 8]", "f32[1, 8]"},
                      {"f32[2, 4, 8, 16]", "f32[1, 8, 16]"}}) {
    CAPTURE(x);
    Both both = trace_both("x * c", {{"x", x}, {"c", c}});
    CHECK_FALSE(both.refused[0]);
    CHECK_FALSE(both.refused[1]);
    CHECK_MESSAGE(std::regex_search(both.printed[0], std::regex(R"(prims\.eq\(i\d+, 1\))")),
                  both.printed[0]);
  }
}

TEST_CASE("shape rules: a symbolic -1 in reshape, view and expand is the inferred size") {
  Both reshaped = trace_both("x.reshape(n, 4)", {{"x", "f32[2, 4]"}, {"n", "-1"}});
  CHECK_FALSE(reshaped.refused[0]);
  Both expanded = trace_both("x.expand(3, n, 4)", {{"x", "f32[1, 4]"}, {"n", "-1"}});
  CHECK_FALSE(expanded.refused[0]);
}

TEST_CASE("shape rules: what PyTorch refuses of bool tensors, empty reductions and numbers, the "
          "tracer refuses with its message") {
  struct Refusal {
    const char *expression;
    std::vector<ArgSpec> args;
    const char *message;
  };
  const std::vector<Refusal> refusals = {
      {"-b", {{"b", "b8[3]"}}, "Negation, the `-` operator, on a bool tensor"},
      {"b - b", {{"b", "b8[3]"}}, "with two bool tensors is not supported"},
      {"x - True", {{"x", "f32[3]"}}, "with a bool tensor is not supported"},
      {"b.abs()", {{"b", "b8[3]"}}, "\"abs_cpu\" not implemented for 'Bool'"},
      {"torch.floor(b)", {{"b", "b8[3]"}}, "not implemented for 'Bool'"},
      {"torch.relu(b)", {{"b", "b8[3]"}}, "Boolean inputs not supported for relu"},
      {"b ** b", {{"b", "b8[3]"}}, "\"pow\" not implemented for 'Bool'"},
      {"b % b", {{"b", "b8[3]"}}, "not implemented for 'Bool'"},
      {"b // b", {{"b", "b8[3]"}}, "not implemented for 'Bool'"},
      {"torch.amax(x, 1)", {{"x", "f32[2, 0]"}}, "Expected reduction dim 1 to have non-zero size"},
      {"torch.argmax(x)", {{"x", "f32[0, 3]"}}, "Expected reduction dim to be specified"},
      {"torch.maximum(x, 2)", {{"x", "f32[3]"}}, "must be Tensor, not int"},
      {"torch.logical_and(x, 0.5)", {{"x", "f32[3]"}}, "must be Tensor, not float"},
      {"torch.sum(x, (0, -2))", {{"x", "f32[2, 3]"}}, "appears multiple times"},
      {"torch.arange(3, 1, 1)", {}, "inconsistent with step sign"},
      {"x.masked_fill(x > 0, float('-inf'))", {{"x", "i64[3]"}}, "without overflow"},
  };
  for (const Refusal &r : refusals) {
    CAPTURE(r.expression);
    Both both = trace_both(r.expression, r.args);
    for (const std::optional<std::string> &refused : both.refused) {
      REQUIRE(refused.has_value());
      CHECK_MESSAGE(refused->find(r.message) != std::string::npos, *refused);
    }
  }
}
