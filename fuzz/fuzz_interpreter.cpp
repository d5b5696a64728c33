// The tracer's interpreter on structured programs (fuzz/program_generator.hpp: classes with the
// iterator protocol, __eq__/__hash__/__repr__, containers, string formatting, number builtins
// and math), against CPython running the same text (fuzz/python_oracle.py): what the program
// prints is the same line for line, and where CPython raises an exception nothing caught the
// tracer fails naming it. Never a crash, a hang or a sanitizer report.
//
// Not a difference: the tracer stopping at one of its documented limits (ints past 64 bits,
// complex numbers, case tables past Latin-1, the step and memory limits, RecursionError depth,
// expressions nested past 200 levels, where the tracer counts operators too),
// and inputs CPython did not finish in 5 s.
#include "program_generator.hpp"
#include "python_oracle.hpp"

#include "tracelint/tracer/tracer.hpp"

#include <cstdint>
#include <cstdio>
#include <string>

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

bool at_a_limit(const std::string &message) {
  for (const char *limit :
       {"integer overflow", "64-bit", "runs more than", "Python values", "nest deeper",
        "RecursionError", "complex number", "does not model", "too deeply nested"})
    if (message.find(limit) != std::string::npos) return true;
  return false;
}

[[noreturn]] void differs(const std::string &source, const std::string &what) {
  std::fprintf(stderr, "fuzz_interpreter: the tracer and CPython differ: %s\n--- program\n%s\n",
               what.c_str(), source.c_str());
  __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string source = fuzzing::ProgramGenerator(data, size).module();
  TraceRequest request;
  request.path = "f.py";
  request.source = source;
  request.function = "f";
  request.args = {{"a", "f32[2]"}};
  Result<TracedProgram> traced = trace(request);
  if (!traced && traced.error().message.empty()) __builtin_trap();

  static fuzzing::PythonOracle oracle;
  nlohmann::json cpython = oracle.ask('p', source);
  if (cpython.contains("skip") || cpython["timeout"].get<bool>()) return 0;
  if (!traced) {
    const std::string &message = traced.error().message;
    if (at_a_limit(message)) return 0;
    if (cpython["raised"].is_null())
      differs(source, "the tracer fails where CPython runs: " + message);
    if (message.find(cpython["raised"].get<std::string>()) == std::string::npos)
      differs(source, "CPython raises " + cpython["raised"].get<std::string>() +
                          ", the tracer says: " + message);
    return 0;
  }
  if (!cpython["raised"].is_null())
    differs(source, "CPython raises " + cpython["raised"].get<std::string>() +
                        ", the tracer runs the program");
  std::vector<std::string> expected = cpython["printed"].get<std::vector<std::string>>();
  // What print() wrote (each call's text with its end), as lines.
  std::string all;
  for (const std::string &text : traced.value().printed)
    all += text;
  std::vector<std::string> printed;
  std::size_t at = 0;
  for (std::size_t nl; (nl = all.find('\n', at)) != std::string::npos; at = nl + 1)
    printed.push_back(all.substr(at, nl - at));
  if (at < all.size()) printed.push_back(all.substr(at));
  if (printed != expected) {
    std::string detail;
    for (std::size_t i = 0; i < std::max(printed.size(), expected.size()); ++i) {
      std::string ours = i < printed.size() ? printed[i] : "(nothing)";
      std::string theirs = i < expected.size() ? expected[i] : "(nothing)";
      if (ours != theirs) {
        detail =
            "line " + std::to_string(i + 1) + ": tracer `" + ours + "`, CPython `" + theirs + "`";
        break;
      }
    }
    differs(source, "what the program prints: " + detail);
  }
  return 0;
}
