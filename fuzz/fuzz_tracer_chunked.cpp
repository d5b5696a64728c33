// Tracing a function whose body is parsed in chunks on two threads against tracing it from one
// parse of the same text: the input is a Python module, its first function's body is repeated
// (after a run of padding assignments) until the body is split into chunks, and both traces
// must be the same: the same printed traces, or the same error at the same place.
//
// The fuzz build's chunks are 1 KB (TRACELINT_CHUNK_BYTES, scripts/fuzz.sh): the padding fills
// the first chunk and the body is repeated to a few KB, not 20 KB. One input in eight is traced
// on two threads, the others on this one: the chunks are the same either way, and a thread per
// input costs more under ASan than tracing a small input.
#include "tracelint/core/chunking.hpp"
#include "tracelint/tracer/tracing.hpp"

#include "tracelint/core/printer.hpp"

#include <cstdint>
#include <string>
#include <vector>

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> out;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string::npos) {
      if (at < text.size()) out.push_back(text.substr(at));
      break;
    }
    out.push_back(text.substr(at, nl - at));
    at = nl + 1;
  }
  return out;
}

// The parameter names of a one-line `def name(a, b=1):` header, or none. Read from the text,
// not with parse_module as fuzz_tracer does: inputs that do not parse must still be padded, so
// that the chunked and whole parses are compared on their errors too.
std::vector<std::string> params_of(const std::string &header) {
  std::vector<std::string> out;
  std::size_t open = header.find('('), close = header.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return out;
  std::string inner = header.substr(open + 1, close - open - 1);
  for (std::size_t at = 0; at < inner.size();) {
    std::size_t comma = inner.find(',', at);
    std::string p = inner.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
    p = p.substr(0, p.find_first_of("=:"));
    p.erase(0, p.find_first_not_of(" \t"));
    p.erase(p.find_last_not_of(" \t") + 1);
    if (!p.empty()) out.push_back(p);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  std::vector<std::string> lines =
      lines_of(std::string(reinterpret_cast<const char *>(data), size));
  // The first one-line def header and its body: the lines up to the next one at column 0.
  std::size_t def = 0;
  while (def < lines.size() &&
         !(lines[def].rfind("def ", 0) == 0 && !lines[def].empty() && lines[def].back() == ':'))
    ++def;
  if (def == lines.size()) return 0;
  std::size_t end = def + 1;
  while (end < lines.size() && (lines[end].empty() || lines[end][0] == ' ' ||
                                lines[end][0] == '\t' || lines[end][0] == '#'))
    ++end;
  std::string indent;
  for (std::size_t i = def + 1; i < end && indent.empty(); ++i)
    if (lines[i].find_first_not_of(" \t") != std::string::npos)
      indent = lines[i].substr(0, lines[i].find_first_not_of(" \t"));
  if (indent.empty()) return 0;
  std::string body;
  for (std::size_t i = def + 1; i < end; ++i)
    body += lines[i] + "\n";

  std::string source;
  for (std::size_t i = 0; i <= def; ++i)
    source += lines[i] + "\n";
  // The padding fills the first chunk, so that the body's statements are in the later ones.
  for (std::size_t i = 0, start = source.size(); source.size() - start < chunking::kChunkBytes; ++i)
    source += indent + "_pad = " + std::to_string(i) + "\n";
  do
    source += body;
  while (source.size() < chunking::kChunkedFileBytes + chunking::kChunkBytes);
  for (std::size_t i = end; i < lines.size(); ++i)
    source += lines[i] + "\n";

  static const char *specs[] = {"f32[2, 3]", "3", "(..., slice(None, 2, None))", "f32[4]",
                                "(2, 3)"};
  TraceRequest request;
  request.path = "fuzz.py";
  std::size_t name_end = lines[def].find('(');
  if (name_end == std::string::npos) return 0;
  request.function = lines[def].substr(4, name_end - 4);
  std::vector<std::string> params = params_of(lines[def]);
  for (std::size_t i = 0; i < params.size(); ++i)
    request.args.push_back({params[i], specs[i % 5]});

  request.source = source;
  request.threads = data[0] % 8 == 0 ? 2 : 1;
  Result<TracedProgram> whole = trace_unchunked(request);
  Result<TracedProgram> chunked = trace(request);
  if (whole.ok() != chunked.ok()) __builtin_trap();
  if (!whole.ok()) {
    const Error &a = whole.error(), &b = chunked.error();
    if (a.message != b.message || a.line != b.line || a.column != b.column) __builtin_trap();
    return 0;
  }
  if (print_trace_file(whole->file) != print_trace_file(chunked->file)) __builtin_trap();
  return 0;
}
