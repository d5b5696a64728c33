#include "blanked_comments.hpp"

#include "chunking.hpp"

#include <algorithm>
#include <string_view>

namespace tracelint::chunking {

std::vector<OwnLineComment> own_line_comments(const std::string &text) {
  std::vector<OwnLineComment> out;
  if (has_triple_quote(text)) return out;
  int depth = 0;
  bool continued = false;
  uint32_t row = 0;
  for (std::size_t begin = 0; begin < text.size(); ++row) {
    std::size_t nl = text.find('\n', begin);
    std::size_t next = nl == std::string::npos ? text.size() : nl + 1;
    // A comment ends before its line's "\r\n", as tree-sitter's own comments are read here.
    std::size_t end = nl != std::string::npos && nl > begin && text[nl - 1] == '\r' ? nl - 1
                      : nl == std::string::npos                                     ? text.size()
                                                                                    : nl;
    std::string_view line(text.data() + begin, end - begin);
    std::size_t first = line.find_first_not_of(" \t\f\r");
    if (first != std::string_view::npos) {
      if (line[first] != '#')
        track_brackets(line, depth, continued);
      else if (depth == 0 && !continued)
        out.push_back({static_cast<uint32_t>(begin + first), static_cast<uint32_t>(end), row,
                       static_cast<uint32_t>(first)});
    }
    begin = next;
  }
  return out;
}

const char *BlankedInput::read(void *payload, uint32_t byte, TSPoint, uint32_t *bytes_read) {
  static constexpr char kSpaces[] = "                                                        "
                                    "                                                        ";
  const auto &self = *static_cast<const BlankedInput *>(payload);
  if (byte >= self.text_.size()) {
    *bytes_read = 0;
    return "";
  }
  auto next = std::upper_bound(
      self.blanked_.begin(), self.blanked_.end(), byte,
      [](uint32_t at, const OwnLineComment &c) { return at < c.end; }); // first ending after
  if (next != self.blanked_.end() && next->begin <= byte) {
    *bytes_read = std::min<uint32_t>(next->end - byte, sizeof(kSpaces) - 1);
    return kSpaces;
  }
  uint32_t stop =
      next != self.blanked_.end() ? next->begin : static_cast<uint32_t>(self.text_.size());
  *bytes_read = stop - byte;
  return self.text_.data() + byte;
}

} // namespace tracelint::chunking
