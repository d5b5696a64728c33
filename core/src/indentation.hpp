#pragma once
// Python's IndentationError "unindent does not match any outer indentation level": tree-sitter
// closes the blocks and goes on without an error node, so the trace parser and the tracer's
// frontend look for it line by line (an implementation detail, so not a public header).
#include "chunking.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/source.hpp"

#include <string>
#include <vector>

namespace tracelint {

// Each line dedented to a column that no enclosing block starts at; nothing where the code
// holds a triple-quoted string (its lines cannot be told from code line by line).
std::vector<SyntaxProblem> bad_dedents(const chunking::EditedText &text,
                                       const std::string &original, const SourceText &source);

} // namespace tracelint
