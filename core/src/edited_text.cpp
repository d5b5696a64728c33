#include "tracelint/core/edited_text.hpp"

#include <algorithm>
#include <iterator>

namespace tracelint::chunking {

namespace {

// The part [from, to) of an edit that starts at `begin`.
std::string edit_part(std::size_t begin, const std::string &text, std::size_t from,
                      std::size_t to) {
  std::size_t offset = from - begin;
  if (offset >= text.size()) return {};
  return text.substr(offset, to - from);
}

} // namespace

EditedText::Edits::const_iterator EditedText::first_after(std::size_t at) const {
  auto it = edits_.upper_bound(at);
  if (it != edits_.begin() && std::prev(it)->second.end > at) --it;
  return it;
}

void EditedText::clear_range(std::size_t from, std::size_t to) {
  auto it = edits_.upper_bound(from);
  if (it != edits_.begin()) {
    auto before = std::prev(it);
    std::size_t begin = before->first;
    Edit &edit = before->second;
    if (edit.end > from) {
      if (edit.end > to)
        edits_.emplace_hint(it, to, Edit{edit.end, edit_part(begin, edit.text, to, edit.end)});
      if (begin == from) {
        edits_.erase(before);
      } else {
        edit.text = edit_part(begin, edit.text, begin, from);
        edit.end = from;
      }
      it = edits_.upper_bound(from);
    }
  }
  while (it != edits_.end() && it->first < to) {
    if (it->second.end > to) {
      Edit rest{it->second.end, edit_part(it->first, it->second.text, to, it->second.end)};
      edits_.erase(it);
      edits_.emplace(to, std::move(rest));
      return;
    }
    it = edits_.erase(it);
  }
}

void EditedText::replace(std::size_t at, std::size_t length, std::string text) {
  if (length == 0) return;
  clear_range(at, at + length);
  edits_.emplace(at, Edit{at + length, std::move(text)});
}

std::string EditedText::substr(std::size_t begin, std::size_t end) const {
  std::string out = original_.substr(begin, end - begin);
  for (auto it = first_after(begin); it != edits_.end() && it->first < end; ++it) {
    std::size_t from = std::max(it->first, begin), to = std::min(it->second.end, end);
    const std::string &text = it->second.text;
    for (std::size_t i = from; i < to; ++i) {
      std::size_t offset = i - it->first;
      out[i - begin] = offset < text.size() ? text[offset] : ' ';
    }
  }
  return out;
}

std::string_view EditedText::line(std::size_t begin, std::size_t end, std::string &scratch) const {
  auto it = first_after(begin);
  if (it != edits_.end() && it->first < end) {
    scratch = substr(begin, end);
    return scratch;
  }
  return std::string_view(original_).substr(begin, end - begin);
}

} // namespace tracelint::chunking
