// Checking as the file streams (its body parsed in chunks) against checking it in one piece:
// the input's lines, indented, are repeated as the body of a def until the body is split into
// chunks. When the whole file is valid Python the two reports must agree; with a syntax error
// they may differ (tree-sitter recovers differently from one parse than from many), but
// neither may crash, and a valid file must not gain a syntax error from chunking.
//
// The fuzz build's chunks are 1 KB (TRACELINT_CHUNK_BYTES, scripts/fuzz.sh), so an input of a
// few hundred bytes is repeated to a few KB, not to 20 KB. One input in eight is streamed on two
// threads, the others on this one: the chunks and their order are the same either way (the
// pipeline's threads are tested in tests/), and a thread per input costs more under ASan than
// parsing a small input.
#include "tracelint/core/chunking.hpp"
#include "tracelint/validator/validator.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>

namespace {
bool has_syntax_error(const tracelint::FileReport &r) {
  return std::any_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const tracelint::Diagnostic &d) { return d.code == "TL001"; });
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  std::string input(reinterpret_cast<const char *>(data), size);
  std::string body;
  for (std::size_t at = 0; at < input.size();) {
    std::size_t nl = input.find('\n', at);
    std::size_t end = nl == std::string::npos ? input.size() : nl;
    body += "  " + input.substr(at, end - at) + "\n";
    at = end + 1;
  }
  std::string text = "def computation(x):\n";
  while (text.size() < tracelint::chunking::kChunkedFileBytes + tracelint::chunking::kChunkBytes)
    text += body;
  text += "  return x\n";
  // The reference below keeps tree-sitter reading comments (its `"""` turns comment blanking off
  // along with chunking), and tree-sitter-python rereads a run of comment lines at each newline:
  // a body of thousands of comment lines takes the reference, not the code under test, past the
  // timeout. Such bodies are left out; fuzz_validator and tests/test_reliability_scaling.cpp
  // cover comment runs.
  std::size_t comment_lines = 0;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    std::size_t end = nl == std::string::npos ? text.size() : nl;
    std::size_t first = text.find_first_not_of(" \t\r\f", at);
    if (first < end && text[first] == '#') ++comment_lines;
    at = end + 1;
  }
  if (comment_lines > 512) return 0;

  // A `"""` anywhere turns chunking off.
  tracelint::FileReport whole = tracelint::check_source("f.py", text + "# \"\"\"\n", {});
  tracelint::Options streaming;
  streaming.threads = data[0] % 8 == 0 ? 2 : 1;
  tracelint::FileReport streamed = tracelint::check_source("f.py", text, streaming);
  if (has_syntax_error(whole)) return 0;
  if (has_syntax_error(streamed)) __builtin_trap(); // chunking broke a valid file
  // Where a span ends is left out: the `"""` that keeps the reference whole also has tree-sitter
  // read its comments (the streamed check blanks own-line comments), and tree-sitter ends a
  // compound statement after the comments that trail its block, so an unmodelled def's span
  // ends later there. Code, start and message must agree.
  auto key = [](const tracelint::Diagnostic &d) {
    return std::tie(d.code, d.span.begin, d.message);
  };
  if (whole.diagnostics.size() != streamed.diagnostics.size()) __builtin_trap();
  for (std::size_t i = 0; i < whole.diagnostics.size(); ++i)
    if (key(whole.diagnostics[i]) != key(streamed.diagnostics[i])) __builtin_trap();
  return 0;
}
