#pragma once
// Dead-code elimination of a recorded computation, and its prims-level flattening.
#include "tracelint/core/trace.hpp"

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tracelint::tracer {

// Which statements stay: bound symbols whose outputs something uses (every symbol recorded is
// pure; one without a target, such as the copy of an updated input, always stays), and
// provenance comments whose statement stays. `inputs` keeps the names among them that the kept
// statements or the return read. hidden_reads: the recorder's (names a composite's subsymbols
// read), by body index in increasing order.
std::vector<bool>
live_statements(const std::vector<Statement> &body,
                const std::vector<std::pair<std::size_t, std::string>> &hidden_reads,
                const Value &returned, std::unordered_set<std::string> &inputs);

// The subsymbols of s at every depth.
std::size_t count_subsymbols(const Statement &s);
// s as its leaf prims, appended to out.
void flatten(Statement s, std::vector<Statement> &out);

} // namespace tracelint::tracer
