#pragma once
// The tracer's internals that tests and fuzz targets compare against.
#include "tracelint/tracer/tracer.hpp"

namespace tracelint::tracer {

// Traces request.source parsed in one piece: what trace(), which may parse a large function
// body in chunks while it traces, must always agree with.
Result<TracedProgram> trace_unchunked(const TraceRequest &request);

} // namespace tracelint::tracer
