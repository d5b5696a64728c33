#pragma once
#include "tracelint/core/trace.hpp"

#include <string>

namespace tracelint {

// Prints a trace the way Thunder does: preamble, decorators, def line, a 2-space body,
// subsymbols as comments two more spaces in, never a debug repr.
std::string print_trace(const Trace &trace);
std::string print_trace_file(const TraceFile &file);
// The same text, a large body printed in parts on up to `threads` threads.
std::string print_trace_file(const TraceFile &file, unsigned threads);
// One statement (and its subsymbols) at the given indentation, lines ending in '\n'.
std::string print_statement(const Statement &statement, unsigned indent);
std::string print_target(const Target &target, UnpackStyle style, bool trailing_comma);

} // namespace tracelint
