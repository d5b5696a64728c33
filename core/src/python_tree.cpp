#include "tracelint/core/python_tree.hpp"

#include "tracelint/core/escape.hpp"

#include <cstring>
#include <stdexcept>

namespace tracelint::python {

namespace {

TSSymbol symbol_id(const char *name, bool named = true) {
  TSSymbol id = ts_language_symbol_for_name(tree_sitter_python(), name,
                                            static_cast<uint32_t>(std::strlen(name)), named);
  if (id == 0) throw std::logic_error(std::string("tree-sitter-python has no node ") + name);
  return id;
}

TSFieldId field_id(const char *name) {
  TSFieldId id = ts_language_field_id_for_name(tree_sitter_python(), name,
                                               static_cast<uint32_t>(std::strlen(name)));
  if (id == 0) throw std::logic_error(std::string("tree-sitter-python has no field ") + name);
  return id;
}

} // namespace

const Symbols &symbols() {
  static const Symbols s = [] {
    Symbols s;
    s.error = symbol_id("ERROR");
    s.comment = symbol_id("comment");
    s.line_continuation = symbol_id("line_continuation");
    s.module = symbol_id("module");
    s.block = symbol_id("block");
    s.expression_statement = symbol_id("expression_statement");
    s.assignment = symbol_id("assignment");
    s.augmented_assignment = symbol_id("augmented_assignment");
    s.return_statement = symbol_id("return_statement");
    s.delete_statement = symbol_id("delete_statement");
    s.import_statement = symbol_id("import_statement");
    s.import_from_statement = symbol_id("import_from_statement");
    s.future_import_statement = symbol_id("future_import_statement");
    s.aliased_import = symbol_id("aliased_import");
    s.wildcard_import = symbol_id("wildcard_import");
    s.dotted_name = symbol_id("dotted_name");
    s.decorated_definition = symbol_id("decorated_definition");
    s.decorator = symbol_id("decorator");
    s.function_definition = symbol_id("function_definition");
    s.parameters = symbol_id("parameters");
    s.default_parameter = symbol_id("default_parameter");
    s.typed_parameter = symbol_id("typed_parameter");
    s.typed_default_parameter = symbol_id("typed_default_parameter");
    s.list_splat_pattern = symbol_id("list_splat_pattern");
    s.dictionary_splat_pattern = symbol_id("dictionary_splat_pattern");
    s.keyword_separator = symbol_id("keyword_separator");
    s.positional_separator = symbol_id("positional_separator");
    s.if_statement = symbol_id("if_statement");
    s.elif_clause = symbol_id("elif_clause");
    s.else_clause = symbol_id("else_clause");
    s.for_statement = symbol_id("for_statement");
    s.while_statement = symbol_id("while_statement");
    s.pass_statement = symbol_id("pass_statement");
    s.break_statement = symbol_id("break_statement");
    s.continue_statement = symbol_id("continue_statement");
    s.assert_statement = symbol_id("assert_statement");
    s.global_statement = symbol_id("global_statement");
    s.nonlocal_statement = symbol_id("nonlocal_statement");
    s.with_statement = symbol_id("with_statement");
    s.try_statement = symbol_id("try_statement");
    s.raise_statement = symbol_id("raise_statement");
    s.class_definition = symbol_id("class_definition");
    s.type_alias_statement = symbol_id("type_alias_statement");
    s.identifier = symbol_id("identifier");
    s.integer = symbol_id("integer");
    s.float_ = symbol_id("float");
    s.true_ = symbol_id("true");
    s.false_ = symbol_id("false");
    s.none = symbol_id("none");
    s.ellipsis = symbol_id("ellipsis");
    s.string = symbol_id("string");
    s.string_start = symbol_id("string_start");
    s.string_content = symbol_id("string_content");
    s.string_end = symbol_id("string_end");
    s.escape_sequence = symbol_id("escape_sequence");
    s.interpolation = symbol_id("interpolation");
    s.concatenated_string = symbol_id("concatenated_string");
    s.unary_operator = symbol_id("unary_operator");
    s.binary_operator = symbol_id("binary_operator");
    s.boolean_operator = symbol_id("boolean_operator");
    s.not_operator = symbol_id("not_operator");
    s.comparison_operator = symbol_id("comparison_operator");
    s.conditional_expression = symbol_id("conditional_expression");
    s.lambda = symbol_id("lambda");
    s.tuple = symbol_id("tuple");
    s.expression_list = symbol_id("expression_list");
    s.list = symbol_id("list");
    s.dictionary = symbol_id("dictionary");
    s.set = symbol_id("set");
    s.pair = symbol_id("pair");
    s.parenthesized_expression = symbol_id("parenthesized_expression");
    s.attribute = symbol_id("attribute");
    s.call = symbol_id("call");
    s.argument_list = symbol_id("argument_list");
    s.generator_expression = symbol_id("generator_expression");
    s.keyword_argument = symbol_id("keyword_argument");
    s.list_splat = symbol_id("list_splat");
    s.dictionary_splat = symbol_id("dictionary_splat");
    s.subscript = symbol_id("subscript");
    s.slice = symbol_id("slice");
    s.pattern_list = symbol_id("pattern_list");
    s.tuple_pattern = symbol_id("tuple_pattern");
    s.list_pattern = symbol_id("list_pattern");
    s.type = symbol_id("type");
    s.list_comprehension = symbol_id("list_comprehension");
    s.dictionary_comprehension = symbol_id("dictionary_comprehension");
    s.set_comprehension = symbol_id("set_comprehension");
    s.named_expression = symbol_id("named_expression");
    s.await = symbol_id("await");
    s.yield = symbol_id("yield");
    s.as_pattern_target = symbol_id("as_pattern_target");
    s.parenthesized_list_splat = symbol_id("parenthesized_list_splat");
    s.for_in_clause = symbol_id("for_in_clause");
    s.if_clause = symbol_id("if_clause");
    s.as_pattern = symbol_id("as_pattern");
    s.format_expression = symbol_id("format_expression");
    s.except_clause = symbol_id("except_clause");
    s.except_group_clause = symbol_id("except_group_clause");
    s.finally_clause = symbol_id("finally_clause");
    s.with_clause = symbol_id("with_clause");
    s.token_comma = symbol_id(",", false);
    s.token_colon = symbol_id(":", false);
    s.token_minus = symbol_id("-", false);
    s.token_plus = symbol_id("+", false);
    s.token_async = symbol_id("async", false);
    s.token_equals = symbol_id("=", false);
    s.token_from = symbol_id("from", false);
    return s;
  }();
  return s;
}

const Fields &fields() {
  static const Fields f = [] {
    Fields f;
    f.superclasses = field_id("superclasses");
    f.alias = field_id("alias");
    f.alternative = field_id("alternative");
    f.argument = field_id("argument");
    f.arguments = field_id("arguments");
    f.attribute = field_id("attribute");
    f.body = field_id("body");
    f.cause = field_id("cause");
    f.condition = field_id("condition");
    f.consequence = field_id("consequence");
    f.definition = field_id("definition");
    f.expression = field_id("expression");
    f.format_specifier = field_id("format_specifier");
    f.function = field_id("function");
    f.key = field_id("key");
    f.left = field_id("left");
    f.module_name = field_id("module_name");
    f.name = field_id("name");
    f.object = field_id("object");
    f.operator_ = field_id("operator");
    f.parameters = field_id("parameters");
    f.right = field_id("right");
    f.subscript = field_id("subscript");
    f.type = field_id("type");
    f.type_conversion = field_id("type_conversion");
    f.value = field_id("value");
    return f;
  }();
  return f;
}

Parser::Parser() : parser_(ts_parser_new()) {
  if (!parser_ || !ts_parser_set_language(parser_, tree_sitter_python())) {
    if (parser_) ts_parser_delete(parser_);
    throw std::runtime_error("tree-sitter cannot load the Python grammar");
  }
}

Parser::~Parser() {
  ts_parser_delete(parser_);
}

Tree Parser::parse(std::string_view text) {
  TSTree *tree =
      ts_parser_parse_string(parser_, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  if (!tree) throw std::runtime_error("tree-sitter returned no tree");
  return Tree(tree);
}

Tree Parser::parse(const TSInput &input) {
  TSTree *tree = ts_parser_parse(parser_, nullptr, input);
  if (!tree) throw std::runtime_error("tree-sitter returned no tree");
  return Tree(tree);
}

void NodeList::push_back(TSNode n) {
  if (size_ < kInline) {
    inline_[size_++] = n;
    return;
  }
  if (heap_.empty()) heap_.assign(inline_, inline_ + kInline);
  heap_.push_back(n);
  ++size_;
}

NodeCursor::NodeCursor() = default;

NodeCursor::~NodeCursor() {
  if (started_) ts_tree_cursor_delete(&cursor_);
}

TSTreeCursor *NodeCursor::at(TSNode n) {
  if (started_) {
    ts_tree_cursor_reset(&cursor_, n);
  } else {
    cursor_ = ts_tree_cursor_new(n);
    started_ = true;
  }
  return &cursor_;
}

NodeList NodeCursor::children(TSNode n) {
  NodeList out;
  TSTreeCursor *c = at(n);
  if (ts_tree_cursor_goto_first_child(c)) do
      out.push_back(ts_tree_cursor_current_node(c));
    while (ts_tree_cursor_goto_next_sibling(c));
  return out;
}

NodeList NodeCursor::named_children(TSNode n) {
  const Symbols &s = symbols();
  NodeList out;
  TSTreeCursor *c = at(n);
  if (ts_tree_cursor_goto_first_child(c)) do {
      TSNode child = ts_tree_cursor_current_node(c);
      if (!ts_node_is_named(child)) continue;
      TSSymbol symbol = ts_node_symbol(child);
      if (symbol != s.comment && symbol != s.line_continuation) out.push_back(child);
    } while (ts_tree_cursor_goto_next_sibling(c));
  return out;
}

NodeList NodeCursor::field_children(TSNode n, TSFieldId field) {
  NodeList out;
  TSTreeCursor *c = at(n);
  if (ts_tree_cursor_goto_first_child(c)) do
      if (ts_tree_cursor_current_field_id(c) == field)
        out.push_back(ts_tree_cursor_current_node(c));
    while (ts_tree_cursor_goto_next_sibling(c));
  return out;
}

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

DecodedString problem(std::string message, std::size_t offset, bool invalid_python) {
  DecodedString out;
  out.problem = {std::move(message), offset, invalid_python};
  return out;
}

} // namespace

DecodedString decode_string_literal(std::string_view literal) {
  StringLiteral out;
  std::size_t quote = literal.find_first_of("'\"");
  if (quote == std::string_view::npos) return problem("not a string literal", 0, true);
  for (std::size_t i = 0; i < quote; ++i) {
    switch (literal[i]) {
    case 'r':
    case 'R':
      out.raw = true;
      break;
    case 'b':
    case 'B':
      out.bytes = true;
      break;
    case 'f':
    case 'F':
      out.formatted = true;
      break;
    case 'u':
    case 'U':
      break;
    default:
      return problem("not a string prefix", i, true);
    }
  }
  char q = literal[quote];
  std::size_t qlen = literal.substr(quote, 3) == std::string(3, q) ? 3 : 1;
  if (literal.size() < quote + 2 * qlen || literal.back() != q)
    return problem("a malformed string literal", quote, true);
  std::size_t body_begin = quote + qlen;
  DecodedString decoded =
      decode_string_body(literal.substr(body_begin, literal.size() - qlen - body_begin), out);
  if (!decoded) decoded.problem.offset += body_begin;
  return decoded;
}

namespace {

// Appends the escape whose backslash is at literal[i] to value, and leaves i at its last
// character; the problem when there is one.
std::optional<DecodedString> decode_escape(std::string_view literal, std::size_t &i, bool bytes,
                                           std::string &value) {
  std::size_t at = i; // the backslash
  char e = literal[++i];
  switch (e) {
  case '\r': // a line continuation inside the literal
    if (i + 1 < literal.size() && literal[i + 1] == '\n') ++i;
    break;
  case '\n':
    break;
  case '\\':
  case '\'':
  case '"':
    value += e;
    break;
  case 'a':
    value += '\a';
    break;
  case 'b':
    value += '\b';
    break;
  case 'f':
    value += '\f';
    break;
  case 'n':
    value += '\n';
    break;
  case 'r':
    value += '\r';
    break;
  case 't':
    value += '\t';
    break;
  case 'v':
    value += '\v';
    break;
  case '0':
  case '1':
  case '2':
  case '3':
  case '4':
  case '5':
  case '6':
  case '7': {
    uint32_t code = 0;
    std::size_t digits = 0;
    while (digits < 3 && i < literal.size() && literal[i] >= '0' && literal[i] <= '7') {
      code = code * 8 + static_cast<uint32_t>(literal[i] - '0');
      ++i;
      ++digits;
    }
    --i;
    if (bytes)
      value += static_cast<char>(code & 0xFF);
    else
      append_utf8(value, code);
    break;
  }
  case 'x':
  case 'u':
  case 'U': {
    if (e != 'x' && bytes) { // not an escape in bytes
      value += '\\';
      value += e;
      break;
    }
    std::size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
    uint32_t code = 0;
    for (std::size_t k = 1; k <= digits; ++k) {
      int d = i + k < literal.size() ? hex_digit(literal[i + k]) : -1;
      if (d < 0)
        return problem(std::string("truncated \\") + e + std::string(digits, e == 'x' ? 'X' : 'x') +
                           " escape",
                       at, true);
      code = code * 16 + static_cast<uint32_t>(d);
    }
    i += digits;
    if (bytes) {
      value += static_cast<char>(code);
    } else if (code > 0x10FFFF) {
      return problem("illegal Unicode character (past U+10FFFF)", at, true);
    } else if (code >= 0xD800 && code <= 0xDFFF) {
      return problem("a lone surrogate cannot be held in UTF-8 text", at, false);
    } else {
      append_utf8(value, code);
    }
    break;
  }
  case 'N':
    if (!bytes)
      return problem("\\N{...} escapes are not supported (no Unicode name table)", at, false);
    [[fallthrough]];
  default: // an unknown escape keeps its backslash
    value += '\\';
    value += e;
  }
  return std::nullopt;
}

} // namespace

DecodedString decode_string_body(std::string_view body, StringLiteral prefix) {
  StringLiteral out = std::move(prefix);
  std::string_view literal = body;
  std::size_t body_end = body.size();
  std::string &value = out.value;
  value.reserve(body_end);
  for (std::size_t i = 0; i < body_end; ++i) {
    char c = literal[i];
    // CPython reads "\r\n" and a lone "\r" in source as "\n", in strings too.
    if (c == '\r') {
      if (i + 1 < body_end && literal[i + 1] == '\n') ++i;
      c = '\n';
    }
    if (out.bytes && static_cast<unsigned char>(c) >= 0x80)
      return problem("bytes can only contain ASCII literal characters", i, true);
    if (out.formatted && (c == '{' || c == '}')) {
      if (i + 1 < body_end && literal[i + 1] == c) {
        value += c;
        ++i;
        continue;
      }
      return problem("an f-string with replacement fields", i, false);
    }
    if (c != '\\' || i + 1 == body_end) {
      value += c;
      continue;
    }
    if (out.raw) { // the backslash stays, and the character after it is not an
                   // escape
      value += c;
      char next = literal[++i];
      if (next == '\r') {
        if (i + 1 < body_end && literal[i + 1] == '\n') ++i;
        next = '\n';
      }
      value += next;
      continue;
    }
    if (std::optional<DecodedString> bad = decode_escape(literal, i, out.bytes, value))
      return std::move(*bad);
  }
  DecodedString decoded;
  decoded.literal = std::move(out);
  return decoded;
}

} // namespace tracelint::python
