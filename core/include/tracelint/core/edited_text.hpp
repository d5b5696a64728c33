#pragma once
// What tree-sitter sees of a source: the source with same-length replacements, kept as a list
// rather than a second copy of a large file (an implementation detail, so not a public header).
#include <cstddef>
#include <map>
#include <string>
#include <string_view>

namespace tracelint::chunking {

// The source with same-length replacements (a repr in code by its name, "# No signature
// available" by a def, an unterminated string's line by spaces). Replacements are kept sorted
// and apart, so reading a line costs the replacements on it, not all of them: a trace with
// 100k repr leaks would otherwise be read in time quadratic in its size.
class EditedText {
public:
  explicit EditedText(const std::string &original) : original_(original) {}

  std::size_t size() const { return original_.size(); }
  const std::string &original() const { return original_; }
  // Replaces [at, at + text.size()) by text. Later replacements win where they overlap.
  void replace(std::size_t at, std::string text) {
    std::size_t length = text.size();
    replace(at, length, std::move(text));
  }
  // Replaces [at, at + length) by text padded with spaces (text.size() <= length): a long
  // blanked line costs no copy.
  void replace(std::size_t at, std::size_t length, std::string text);

  // [begin, end) with the replacements.
  std::string substr(std::size_t begin, std::size_t end) const;
  // The line [begin, end): a view of the source, or of `scratch` where a replacement touches it.
  std::string_view line(std::size_t begin, std::size_t end, std::string &scratch) const;

private:
  struct Edit {
    std::size_t end = 0;
    std::string text; // the first bytes; spaces up to end
  };
  using Edits = std::map<std::size_t, Edit>; // by first byte; no two overlap

  // The first edit that ends after `at`.
  Edits::const_iterator first_after(std::size_t at) const;
  // Removes [from, to) from the edits, keeping the parts of them outside it.
  void clear_range(std::size_t from, std::size_t to);

  const std::string &original_;
  Edits edits_;
};

} // namespace tracelint::chunking
