#pragma once
// The one tree-sitter layer for everything in tracelint that reads Python: the trace parser
// (core), the tracer's frontend and the analyzer's Python checks use it instead of calling
// tree-sitter's C API by hand.
//
// - Parser and Tree own a TSParser and a TSTree (RAII). A Parser is reused for many parses (it
//   keeps its buffers); use one per thread.
// - symbols() and fields() are tree-sitter-python's symbol and field ids, looked up once:
//   compare `ts_node_symbol(n) == symbols().call` instead of the type name, and get a field
//   with `ts_node_child_by_field_id(n, fields().function)` instead of by its name (a lookup by
//   name scans every field name of the grammar).
// - NodeCursor collects a node's children with one reused cursor (ts_node_child(n, i) walks
//   from the first child, so indexing a long body is quadratic, and a new cursor allocates).
// - decode_string_literal() reads a `string` node's source as CPython does.
//
// Needs tree-sitter's <tree_sitter/api.h>, installed with tracelint's headers.
#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

extern "C" const TSLanguage *tree_sitter_python();

namespace tracelint::python {

// tree-sitter-python's node kinds that tracelint's readers look at, by public symbol id (what
// ts_node_symbol returns). Named nodes unless the name says `token_`.
struct Symbols {
  TSSymbol error; // ERROR
  TSSymbol comment, line_continuation;
  // Statements.
  TSSymbol module, block, expression_statement, assignment, augmented_assignment, return_statement,
      delete_statement, import_statement, import_from_statement, future_import_statement,
      aliased_import, wildcard_import, dotted_name, decorated_definition, decorator,
      function_definition, parameters, default_parameter, typed_parameter, typed_default_parameter,
      list_splat_pattern, dictionary_splat_pattern, keyword_separator, positional_separator,
      if_statement, elif_clause, else_clause, for_statement, while_statement, pass_statement,
      break_statement, continue_statement, assert_statement, global_statement, nonlocal_statement,
      with_statement, try_statement, raise_statement, class_definition, type_alias_statement;
  // Expressions.
  TSSymbol identifier, integer, float_, true_, false_, none, ellipsis, string, string_start,
      string_content, string_end, escape_sequence, interpolation, concatenated_string,
      unary_operator, binary_operator, boolean_operator, not_operator, comparison_operator,
      conditional_expression, lambda, tuple, expression_list, list, dictionary, set, pair,
      parenthesized_expression, attribute, call, argument_list, generator_expression,
      keyword_argument, list_splat, dictionary_splat, subscript, slice, pattern_list, tuple_pattern,
      list_pattern, type, list_comprehension, dictionary_comprehension, set_comprehension,
      named_expression, await, yield, as_pattern_target, parenthesized_list_splat, for_in_clause,
      if_clause, as_pattern, format_expression;
  // Clauses of compound statements.
  TSSymbol except_clause, except_group_clause, finally_clause, with_clause;
  // Anonymous tokens.
  TSSymbol token_comma, token_colon, token_minus, token_plus, token_async, token_equals, token_from;
};
const Symbols &symbols();

// tree-sitter-python's field ids.
struct Fields {
  TSFieldId alias, alternative, argument, arguments, attribute, body, cause, condition, consequence,
      definition, expression, format_specifier, function, key, left, module_name, name, object,
      operator_, parameters, right, subscript, superclasses, type, type_conversion, value;
};
const Fields &fields();

struct TreeDeleter {
  void operator()(TSTree *t) const { ts_tree_delete(t); }
};
using Tree = std::unique_ptr<TSTree, TreeDeleter>;

// A tree-sitter parser for Python. Not thread-safe: one per thread, reused across parses.
class Parser {
public:
  Parser();
  ~Parser();
  Parser(const Parser &) = delete;
  Parser &operator=(const Parser &) = delete;

  // Never null: tree-sitter recovers from any syntax error (std::runtime_error if it gave up,
  // which it does only when out of memory).
  Tree parse(std::string_view text);
  // The text as `input` reads it (e.g. with some of it shown as spaces).
  Tree parse(const TSInput &input);

private:
  TSParser *parser_;
};

// A short list of nodes, held inline up to 8 (the children of most nodes).
class NodeList {
public:
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const TSNode &operator[](std::size_t i) const { return data()[i]; }
  const TSNode *begin() const { return data(); }
  const TSNode *end() const { return data() + size_; }
  void push_back(TSNode n);
  void clear() {
    size_ = 0;
    heap_.clear();
  }

private:
  const TSNode *data() const { return heap_.empty() ? inline_ : heap_.data(); }
  static constexpr std::size_t kInline = 8;
  TSNode inline_[kInline];
  std::vector<TSNode> heap_; // all of them, once there are more than kInline
  std::size_t size_ = 0;
};

// Children of nodes, collected with one cursor that is reused for every node (the lists are
// copied out, so a reader can recurse while it goes through them).
class NodeCursor {
public:
  NodeCursor();
  ~NodeCursor();
  NodeCursor(const NodeCursor &) = delete;
  NodeCursor &operator=(const NodeCursor &) = delete;

  // Every child, anonymous tokens and comments included.
  NodeList children(TSNode n);
  // The named children, without comments and line continuations.
  NodeList named_children(TSNode n);
  // The children in a field that repeats (a subscript's indices).
  NodeList field_children(TSNode n, TSFieldId field);
  // Calls visit(node) on n and every node below it in source order, iteratively (traces nest
  // deeply); visit returns whether to go into the node's children.
  template <class F> void walk(TSNode n, F &&visit);

private:
  TSTreeCursor *at(TSNode n);
  TSTreeCursor cursor_;
  bool started_ = false;
};

template <class F> void NodeCursor::walk(TSNode n, F &&visit) {
  TSTreeCursor *c = at(n);
  bool descend = true;
  while (true) {
    if (descend && visit(ts_tree_cursor_current_node(c)) && ts_tree_cursor_goto_first_child(c))
      continue;
    if (ts_tree_cursor_goto_next_sibling(c)) {
      descend = true;
      continue;
    }
    if (!ts_tree_cursor_goto_parent(c)) break;
    descend = false;
  }
}

// The grammar's name of n's kind ("call", "ERROR", or a token's text such as ")"), for
// messages: readers tell kinds apart by symbol id.
inline const char *kind_name(TSNode n) {
  return ts_node_type(n);
}
inline bool is(TSNode n, TSSymbol symbol) {
  return ts_node_symbol(n) == symbol;
}
inline TSNode field(TSNode n, TSFieldId id) {
  return ts_node_child_by_field_id(n, id);
}
// The bytes of n in the text it was parsed from.
inline std::string_view text_of(TSNode n, std::string_view text) {
  uint32_t begin = ts_node_start_byte(n);
  return text.substr(begin, ts_node_end_byte(n) - begin);
}

// A string literal's value, read as CPython reads the source of one `string` node: prefix
// (r, u, b, f in either case), quotes (one or three), "\r\n" and lone "\r" as "\n", and the
// escapes \<newline>, \\, \', \", \a, \b, \f, \n, \r, \t, \v, \ooo (1-3 octal digits), \xhh,
// and for str \uxxxx and \Uxxxxxxxx. A str's escapes give code points, written as UTF-8 (so
// '\xe9' is "\xc3\xa9", two bytes); a bytes literal's give bytes. An unknown escape keeps its
// backslash, as CPython does.
struct StringLiteral {
  std::string value;
  bool raw = false;
  bool bytes = false;
  bool formatted = false; // an f-string without replacement fields ({{ and }} are decoded)
};
struct StringLiteralProblem {
  std::string message;
  std::size_t offset = 0; // of the problem, in bytes from the literal's start
  // CPython rejects the literal too (a SyntaxError: a truncated \x, \u or \U escape, a code
  // point past U+10FFFF, a non-ASCII character in bytes). Otherwise only tracelint cannot hold
  // the value: a \N{...} escape (no Unicode name table), a lone surrogate (not UTF-8), an
  // f-string with replacement fields (not a constant).
  bool invalid_python = false;
};
struct DecodedString {
  std::optional<StringLiteral> literal; // set when decoded
  StringLiteralProblem problem;         // otherwise
  explicit operator bool() const { return literal.has_value(); }
};
DecodedString decode_string_literal(std::string_view literal);
// The same for the text between a literal's quotes, its prefix already read into `prefix`
// (raw, bytes, formatted; value empty): an f-string's literal pieces between its replacement
// fields. A problem's offset is from the body's start.
DecodedString decode_string_body(std::string_view body, StringLiteral prefix);

} // namespace tracelint::python
