#pragma once
// Graphviz's dot as a child process: a fixed binary (never looked up on PATH), an argument vector
// (no shell), the graph through a socket and the SVG through a pipe (no temporary files), and a
// deadline after which the child is killed.
#include "tracelint/core/result.hpp"

#include <chrono>
#include <string>

namespace tracelint {

struct GraphvizOptions {
  std::string dot; // the binary; empty: the first of /usr/bin/dot and /usr/local/bin/dot
  std::chrono::milliseconds timeout{10000};
};

// The SVG that `dot -Tsvg` draws from the DOT source, or why there is none: dot is not installed,
// failed, or ran past the timeout (it is then killed and reaped).
Result<std::string> render_svg(const std::string &dot_source, const GraphvizOptions &options);

} // namespace tracelint
