#pragma once
// What CPython's tokenizer and compiler refuse but tree-sitter-python accepts: indentation
// errors (a dedent to no enclosing level, tabs and spaces whose meaning depends on the tab size,
// too many levels) and nesting limits (brackets, statically nested blocks). tree-sitter closes
// the blocks and goes on without an error node, so the trace parser and the tracer's frontend
// look for them in one pass over the lines (an implementation detail, so not a public header).
#include "tracelint/core/chunking.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/source.hpp"

#include <cstddef>
#include <vector>

namespace tracelint {

// CPython's limits (Parser/tokenizer.h MAXLEVEL, MAXINDENT; Include/cpython/code.h CO_MAXBLOCKS).
constexpr std::size_t kMaxBracketNesting = 200;
constexpr std::size_t kMaxIndentLevels = 100;
constexpr int kMaxStaticBlocks = 20;

// In source order; `text` is what tree-sitter sees, line for line the same as `source`.
std::vector<SyntaxProblem> tokenizer_problems(const chunking::EditedText &text,
                                              const SourceText &source);

} // namespace tracelint
