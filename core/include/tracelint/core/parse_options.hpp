#pragma once
// How parse_trace_source reads a file, for tests that compare its ways (not a public header).
#include "tracelint/core/parser.hpp"

namespace tracelint::detail {

struct ParseOptions {
  // Subsymbol comments read in the same tree-sitter parse as the code around them (the fast
  // way); false: every own-line comment blank there and their contents parsed in a batch of
  // their own, which the fast way falls back to where its tree has a syntax error. Both must
  // give the same ParsedFile.
  bool subsymbols_in_code_parse = true;
  // Comments looked for below every node of the tree, not only where they can be (see
  // collect_comments): the same comments, found more slowly.
  bool comments_below_every_node = false;
  // Lines and columns of spans looked up in the file's line index by byte offset, not taken from
  // tree-sitter's points: the same spans, found more slowly.
  bool spans_from_line_index = false;
};

ParsedFile parse_trace_source(std::string path, std::string text, unsigned threads,
                              BodyReader *reader, const ParseOptions &options);

} // namespace tracelint::detail
