#pragma once
// Own-line comments handed to tree-sitter as blank text: tree-sitter-python's external scanner
// reads a run of comment lines again at each of its newlines, quadratic in the run. The
// validator's parser and the tracer's frontend both parse through this.
#include <tree_sitter/api.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tracelint::chunking {

// A comment alone on its line, outside brackets: [begin, end) of the parsed text, without the
// newline.
struct OwnLineComment {
  uint32_t begin = 0, end = 0;
  uint32_t row = 0, column = 0;
};

// The own-line comments of a text (not the lines of a triple-quoted string that look like one).
// tree-sitter-python's scanner reads every comment line after a newline again at each of them,
// quadratic in a run of comments (10,000 lines of 80 bytes took 48 s, 65 s in a file with a
// docstring, whose comments were not blanked then), so tree-sitter gets these lines blank; the
// comments are taken from here instead.
std::vector<OwnLineComment> own_line_comments(const std::string &text);

// Where an own-line comment could be read as a statement of the block it sits in: after a
// simple statement (not one that opens a block, not a decorator) at module level or at the body
// level of a def at column 0, the places where traces print subsymbol comments.
struct CommentContext {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t indent = kNone;     // the statement's indentation, kNone where there is no such place
  uint32_t statement_line = 0; // where the statement's first line starts
};
// own_line_comments(text), and each comment's context in `contexts` (one per comment).
std::vector<OwnLineComment> own_line_comments(const std::string &text,
                                              std::vector<CommentContext> &contexts);

// Feeds tree-sitter a text with some byte ranges read as spaces and some read from further on in
// the text (the same length, so every offset and point outside them stays where it was).
class ShapedInput {
public:
  static constexpr uint32_t kBlank = UINT32_MAX;
  struct Segment {
    uint32_t begin = 0, end = 0;
    uint32_t shift = kBlank; // [begin, end) reads text[begin + shift, end + shift); kBlank: spaces
  };
  // segments: in order, apart.
  ShapedInput(const std::string &text, std::vector<Segment> segments)
      : text_(text), segments_(std::move(segments)) {}
  TSInput input() {
    TSInput in{};
    in.payload = this;
    in.read = &ShapedInput::read;
    in.encoding = TSInputEncodingUTF8;
    return in;
  }

private:
  static const char *read(void *payload, uint32_t byte, TSPoint, uint32_t *bytes_read);

  const std::string &text_;
  std::vector<Segment> segments_;
};

// The text with the given comments read as spaces.
class BlankedInput : public ShapedInput {
public:
  BlankedInput(const std::string &text, const std::vector<OwnLineComment> &blanked)
      : ShapedInput(text, segments(blanked)) {}

private:
  static std::vector<Segment> segments(const std::vector<OwnLineComment> &blanked) {
    std::vector<Segment> out;
    out.reserve(blanked.size());
    for (const OwnLineComment &c : blanked)
      out.push_back({c.begin, c.end, kBlank});
    return out;
  }
};

} // namespace tracelint::chunking
