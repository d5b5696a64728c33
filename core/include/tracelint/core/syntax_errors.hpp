#pragma once
// Where tree-sitter-python recovered from a syntax error. Shared by the trace parser and the
// tracer's frontend (tree-sitter is an implementation detail, so this is not a public header).
#include <tree_sitter/api.h>

#include <algorithm>
#include <vector>

namespace tracelint::syntax {

struct ErrorNode {
  TSNode node;
  // The missing token is one the grammar hides (a newline, an indent): `node` is what follows
  // the gap, e.g. the `t` of `3t`, which tree-sitter reads as `3`, a missing newline, `t`.
  bool hidden_missing = false;
};

namespace detail {
inline bool is_error(TSNode n) {
  return ts_node_is_error(n) || ts_node_is_missing(n);
}
// With a cursor: ts_node_child(n, i) walks from the first child, quadratic in a long body.
inline std::vector<TSNode> children(TSNode n) {
  std::vector<TSNode> out;
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cursor)) do
      out.push_back(ts_tree_cursor_current_node(&cursor));
    while (ts_tree_cursor_goto_next_sibling(&cursor));
  ts_tree_cursor_delete(&cursor);
  return out;
}
} // namespace detail

// The outermost error nodes below root, in source order.
inline std::vector<ErrorNode> find_errors(TSNode root) {
  std::vector<ErrorNode> out;
  if (!ts_node_has_error(root)) return out;
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (detail::is_error(n)) {
      out.push_back({n, false});
      continue;
    }
    std::vector<TSNode> kids = detail::children(n);
    std::vector<TSNode> with_error;
    for (TSNode k : kids)
      if (ts_node_has_error(k) || detail::is_error(k)) with_error.push_back(k);
    if (!with_error.empty()) {
      for (auto it = with_error.rbegin(); it != with_error.rend(); ++it)
        stack.push_back(*it);
      continue;
    }
    // The error is a hidden token among n's children: the first child that starts on the row
    // the one before it ends on (a missing newline), else n's last child.
    TSNode at = kids.empty() ? n : kids.back();
    for (std::size_t i = 1; i < kids.size(); ++i)
      if (ts_node_start_point(kids[i]).row == ts_node_end_point(kids[i - 1]).row &&
          ts_node_is_named(kids[i]) && ts_node_is_named(kids[i - 1])) {
        at = kids[i];
        break;
      }
    out.push_back({at, true});
  }
  std::sort(out.begin(), out.end(), [](const ErrorNode &a, const ErrorNode &b) {
    return ts_node_start_byte(a.node) < ts_node_start_byte(b.node);
  });
  return out;
}

} // namespace tracelint::syntax
