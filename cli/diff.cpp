#include "diff.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace {

std::vector<std::string_view> split_lines(const std::string &text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string::npos ? text.size() : nl + 1;
    lines.emplace_back(text.data() + start, end - start);
    start = end;
  }
  return lines;
}

enum class Op { Keep, Remove, Add };

// Line edit script: trims the common prefix and suffix, then LCS on the middle when it is
// small, else replaces the middle as one block.
std::vector<std::pair<Op, std::string_view>> script(const std::vector<std::string_view> &a,
                                                    const std::vector<std::string_view> &b) {
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
    ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  std::vector<std::pair<Op, std::string_view>> ops;
  for (std::size_t i = 0; i < prefix; ++i)
    ops.emplace_back(Op::Keep, a[i]);
  std::size_t n = a.size() - prefix - suffix, m = b.size() - prefix - suffix;
  if (n * m <= 4'000'000) {
    std::vector<std::vector<uint32_t>> lcs(n + 1, std::vector<uint32_t>(m + 1, 0));
    for (std::size_t i = n; i-- > 0;)
      for (std::size_t j = m; j-- > 0;)
        lcs[i][j] = a[prefix + i] == b[prefix + j] ? lcs[i + 1][j + 1] + 1
                                                   : std::max(lcs[i + 1][j], lcs[i][j + 1]);
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
        ops.emplace_back(Op::Keep, a[prefix + i]);
        ++i, ++j;
      } else if (i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1])) {
        ops.emplace_back(Op::Remove, a[prefix + i++]);
      } else {
        ops.emplace_back(Op::Add, b[prefix + j++]);
      }
    }
  } else {
    for (std::size_t i = 0; i < n; ++i)
      ops.emplace_back(Op::Remove, a[prefix + i]);
    for (std::size_t j = 0; j < m; ++j)
      ops.emplace_back(Op::Add, b[prefix + j]);
  }
  for (std::size_t i = a.size() - suffix; i < a.size(); ++i)
    ops.emplace_back(Op::Keep, a[i]);
  return ops;
}

} // namespace

std::string unified_diff(const std::string &path, const std::string &before,
                         const std::string &after) {
  auto a = split_lines(before), b = split_lines(after);
  auto ops = script(a, b);
  std::string out = "--- " + path + "\n+++ " + path + " (fixed)\n";
  constexpr std::size_t context = 3;
  std::size_t k = 0;
  while (k < ops.size()) {
    while (k < ops.size() && ops[k].first == Op::Keep)
      ++k;
    if (k == ops.size()) break;
    std::size_t begin = k >= context ? k - context : 0;
    std::size_t end = k;
    std::size_t keeps = 0;
    while (end < ops.size()) {
      keeps = ops[end].first == Op::Keep ? keeps + 1 : 0;
      if (keeps > 2 * context) break;
      ++end;
    }
    end = std::min(ops.size(), end - (keeps > context ? keeps - context : 0));
    std::size_t old_line = 1, new_line = 1;
    for (std::size_t i = 0; i < begin; ++i) {
      old_line += ops[i].first != Op::Add;
      new_line += ops[i].first != Op::Remove;
    }
    std::size_t old_count = 0, new_count = 0;
    std::string body;
    for (std::size_t i = begin; i < end; ++i) {
      old_count += ops[i].first != Op::Add;
      new_count += ops[i].first != Op::Remove;
      body += ops[i].first == Op::Keep ? ' ' : ops[i].first == Op::Add ? '+' : '-';
      body += ops[i].second;
      if (body.back() != '\n') body += "\n\\ No newline at end of file\n";
    }
    out += "@@ -" + std::to_string(old_line) + "," + std::to_string(old_count) + " +" +
           std::to_string(new_line) + "," + std::to_string(new_count) + " @@\n" + body;
    k = end;
  }
  return out;
}
