#include "tracelint/tracer/frontend.hpp"

#include "tracelint/core/blanked_comments.hpp"
#include "tracelint/core/chunking.hpp"
#include "tracelint/core/indentation.hpp"
#include "tracelint/core/lexing.hpp"
#include "tracelint/core/syntax_errors.hpp"
#include "tracelint/core/value.hpp"

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

extern "C" const TSLanguage *tree_sitter_python();

namespace tracelint::tracer {

namespace {

struct TreeDeleter {
  void operator()(TSTree *t) const { ts_tree_delete(t); }
};
struct ParserDeleter {
  void operator()(TSParser *p) const { ts_parser_delete(p); }
};
using TreePtr = std::unique_ptr<TSTree, TreeDeleter>;

// Own-line comments reach tree-sitter as spaces (the frontend skips comments anyway): a run of
// them is quadratic in tree-sitter-python's scanner (16,000 comment lines in a body: 21 s).
TreePtr parse_python(const std::string &text) {
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  ts_parser_set_language(parser.get(), tree_sitter_python());
  std::vector<chunking::OwnLineComment> comments = chunking::own_line_comments(text);
  chunking::BlankedInput input(text, comments);
  return TreePtr(ts_parser_parse(parser.get(), nullptr, input.input()));
}

bool is(TSNode n, const char *type) {
  return std::string_view(ts_node_type(n)) == type;
}
// The grammar's field ids, looked up once: tree-sitter finds a field by name by scanning every
// field name, and the frontend asks for several per node.
struct FieldIds {
  TSFieldId alias;
  TSFieldId alternative;
  TSFieldId argument;
  TSFieldId arguments;
  TSFieldId attribute;
  TSFieldId body;
  TSFieldId cause;
  TSFieldId condition;
  TSFieldId consequence;
  TSFieldId definition;
  TSFieldId expression;
  TSFieldId format_specifier;
  TSFieldId function;
  TSFieldId key;
  TSFieldId left;
  TSFieldId module_name;
  TSFieldId name;
  TSFieldId object;
  TSFieldId operator_;
  TSFieldId parameters;
  TSFieldId right;
  TSFieldId superclasses;
  TSFieldId type;
  TSFieldId type_conversion;
  TSFieldId value;
};

const FieldIds &field_ids() {
  static const FieldIds ids = [] {
    const TSLanguage *language = tree_sitter_python();
    auto id = [&](const char *name) {
      TSFieldId found =
          ts_language_field_id_for_name(language, name, static_cast<uint32_t>(std::strlen(name)));
      if (!found) throw std::logic_error(std::string("tree-sitter-python has no field ") + name);
      return found;
    };
    FieldIds ids;
    ids.alias = id("alias");
    ids.alternative = id("alternative");
    ids.argument = id("argument");
    ids.arguments = id("arguments");
    ids.attribute = id("attribute");
    ids.body = id("body");
    ids.cause = id("cause");
    ids.condition = id("condition");
    ids.consequence = id("consequence");
    ids.definition = id("definition");
    ids.expression = id("expression");
    ids.format_specifier = id("format_specifier");
    ids.function = id("function");
    ids.key = id("key");
    ids.left = id("left");
    ids.module_name = id("module_name");
    ids.name = id("name");
    ids.object = id("object");
    ids.operator_ = id("operator");
    ids.parameters = id("parameters");
    ids.right = id("right");
    ids.superclasses = id("superclasses");
    ids.type = id("type");
    ids.type_conversion = id("type_conversion");
    ids.value = id("value");
    return ids;
  }();
  return ids;
}

TSNode field(TSNode n, TSFieldId id) {
  return ts_node_child_by_field_id(n, id);
}

// Comments and line continuations, by symbol: what children() leaves out.
const std::vector<bool> &skipped_symbols() {
  static const std::vector<bool> skipped = [] {
    const TSLanguage *language = tree_sitter_python();
    std::vector<bool> out(ts_language_symbol_count(language));
    for (TSSymbol i = 0; i < out.size(); ++i) {
      std::string_view name = ts_language_symbol_name(language, i);
      out[i] = name == "comment" || name == "line_continuation";
    }
    return out;
  }();
  return skipped;
}

// The children of the node a cursor is at, comments and line continuations left out.
std::vector<TSNode> children_at(TSTreeCursor *cursor, bool named_only) {
  std::vector<TSNode> out;
  const std::vector<bool> &skipped = skipped_symbols();
  if (ts_tree_cursor_goto_first_child(cursor)) {
    do {
      TSNode c = ts_tree_cursor_current_node(cursor);
      TSSymbol symbol = ts_node_symbol(c);
      if (symbol < skipped.size() && skipped[symbol]) continue;
      if (!named_only || ts_node_is_named(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(cursor));
  }
  return out;
}

std::vector<TSNode> children(TSNode n, bool named_only) {
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  std::vector<TSNode> out = children_at(&cursor, named_only);
  ts_tree_cursor_delete(&cursor);
  return out;
}

// Children that carry a given field name (subscript's indices repeat the field).
std::vector<TSNode> field_children(TSNode n, const char *name) {
  std::vector<TSNode> out;
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      const char *f = ts_tree_cursor_current_field_name(&cursor);
      if (f && std::strcmp(f, name) == 0) out.push_back(ts_tree_cursor_current_node(&cursor));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
  return out;
}

// A readable name for a tree-sitter node type in error messages.
std::string construct_name(TSNode n) {
  std::string t = ts_node_type(n);
  for (char &c : t)
    if (c == '_') c = ' ';
  return t;
}

// CPython stops at 200 nested parentheses ("too many nested parentheses"); the frontend reads
// an expression with one call per level, and stops at the same depth.
constexpr int kMaxExpressionDepth = 200;

void append_utf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Python's decoding of one escape sequence (its text, backslash included), or none for one the
// tracer does not decode (\N{...}).
std::optional<std::string> decode_escape(std::string_view s) {
  if (s.size() < 2) return std::string(s);
  auto hex = [&](std::size_t from, std::size_t n) -> std::optional<uint32_t> {
    if (s.size() < from + n) return std::nullopt;
    uint32_t v = 0;
    for (std::size_t i = from; i < from + n; ++i) {
      char c = s[i];
      int d = c >= '0' && c <= '9'   ? c - '0'
              : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                     : -1;
      if (d < 0) return std::nullopt;
      v = v * 16 + static_cast<uint32_t>(d);
    }
    return v;
  };
  std::string out;
  switch (s[1]) {
  case 'n':
    return "\n";
  case 't':
    return "\t";
  case 'r':
    return "\r";
  case '\\':
    return "\\";
  case '\'':
    return "'";
  case '"':
    return "\"";
  case 'a':
    return "\a";
  case 'b':
    return "\b";
  case 'f':
    return "\f";
  case 'v':
    return "\v";
  case '\n':
  case '\r':
    return ""; // a backslash before a line break continues the string
  case 'x':
  case 'u':
  case 'U': {
    std::optional<uint32_t> v = hex(2, s[1] == 'x' ? 2 : s[1] == 'u' ? 4 : 8);
    if (!v || *v > 0x10FFFF) return std::nullopt;
    append_utf8(out, *v);
    return out;
  }
  default:
    if (s[1] >= '0' && s[1] <= '7') {
      uint32_t v = 0;
      for (std::size_t i = 1; i < s.size() && i < 4 && s[i] >= '0' && s[i] <= '7'; ++i)
        v = v * 8 + static_cast<uint32_t>(s[i] - '0');
      append_utf8(out, v);
      return out;
    }
    if (s[1] == 'N') return std::nullopt;
    return std::string(s); // Python keeps an unknown escape as written
  }
}

class Reader {
public:
  Reader(const std::string &text) : text_(text) {}
  // Reads a cut or prefixed text: rows from `from_row` on are `add_rows` further down the file.
  Reader(const std::string &text, uint32_t from_row, int64_t add_rows)
      : text_(text), from_row_(from_row), add_rows_(add_rows) {}
  Reader(const Reader &) = delete;
  Reader &operator=(const Reader &) = delete;
  ~Reader() {
    if (cursor_) ts_tree_cursor_delete(&*cursor_);
  }

  // children(n, named_only) with the reader's cursor (a new cursor allocates its stack).
  std::vector<TSNode> children(TSNode n, bool named_only) const {
    return children_at(cursor_at(n), named_only);
  }

  Loc loc(TSNode n) const {
    TSPoint p = ts_node_start_point(n);
    int64_t row = p.row >= from_row_ ? p.row + add_rows_ : p.row;
    return Loc{static_cast<uint32_t>(row + 1), p.column + 1};
  }
  std::string text(TSNode n) const {
    return text_.substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
  }
  std::string_view view(TSNode n) const {
    return std::string_view(text_).substr(ts_node_start_byte(n),
                                          ts_node_end_byte(n) - ts_node_start_byte(n));
  }

  // What the interpreter cannot run: kept, and raised when it is reached.
  Expr unsupported(TSNode n, const std::string &what = "") const {
    Expr e;
    e.kind = Expr::Kind::Unsupported;
    e.loc = loc(n);
    e.text = what.empty() ? construct_name(n) : what;
    return e;
  }
  Stmt unsupported_statement(TSNode n, const std::string &what = "") const {
    Stmt s;
    s.kind = Stmt::Kind::Unsupported;
    s.loc = loc(n);
    s.text = what.empty() ? construct_name(n) : what;
    return s;
  }

  // The first place tree-sitter recovered from a syntax error.
  void check_syntax(TSNode root) const {
    std::vector<syntax::ErrorNode> errors = syntax::find_errors(root);
    if (errors.empty()) return;
    TSNode n = errors.front().node;
    if (ts_node_is_missing(n))
      throw TraceError(loc(n), "syntax error: missing " + std::string(ts_node_type(n)));
    std::string near = text(n).substr(0, 40);
    near = near.substr(0, near.find('\n'));
    throw TraceError(loc(n), "syntax error near `" + near + "`" +
                                 (errors.front().hidden_missing
                                      ? " (a newline or an operator is missing before it)"
                                      : ""));
  }

  Expr expr(TSNode n) const {
    Nesting nesting(*this, n);
    Expr e;
    e.loc = loc(n);
    std::string_view type = ts_node_type(n);
    if (type == "identifier") {
      e.kind = Expr::Kind::Name;
      e.text = text(n);
    } else if (type == "integer" || type == "float") {
      std::optional<Value> v = parse_python_number(text(n), type == "integer");
      if (!v) return unsupported(n, "an integer literal out of the 64-bit range: " + text(n));
      if (v->kind == ValueKind::Complex) return unsupported(n, "a complex literal");
      e.kind = v->kind == ValueKind::Int ? Expr::Kind::Int : Expr::Kind::Float;
      e.integer = v->integer;
      e.real = v->real;
    } else if (type == "string") {
      return string(n);
    } else if (type == "concatenated_string") {
      e.kind = Expr::Kind::Str;
      bool formatted = false;
      std::vector<Expr> parts;
      for (TSNode c : children(n, true)) {
        Expr part = expr(c);
        if (part.kind == Expr::Kind::Unsupported) return part;
        formatted = formatted || part.kind == Expr::Kind::FString;
        parts.push_back(std::move(part));
      }
      if (!formatted) {
        for (const Expr &p : parts)
          e.text += p.text;
        return e;
      }
      e.kind = Expr::Kind::FString;
      for (Expr &p : parts)
        if (p.kind == Expr::Kind::FString)
          for (Expr &q : p.items)
            e.items.push_back(std::move(q));
        else
          e.items.push_back(std::move(p));
    } else if (type == "true" || type == "false") {
      e.kind = Expr::Kind::Bool;
      e.boolean = type == "true";
    } else if (type == "none") {
      e.kind = Expr::Kind::None;
    } else if (type == "ellipsis") {
      e.kind = Expr::Kind::Ellipsis;
    } else if (type == "parenthesized_expression") {
      auto kids = children(n, true);
      if (kids.size() != 1) return unsupported(n);
      return expr(kids[0]);
    } else if (type == "tuple" || type == "expression_list" || type == "list" ||
               type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern" ||
               type == "set") {
      e.kind = type == "set"                                ? Expr::Kind::Set
               : (type == "list" || type == "list_pattern") ? Expr::Kind::List
                                                            : Expr::Kind::Tuple;
      for (TSNode c : children(n, true))
        e.items.push_back(expr(c));
    } else if (type == "list_splat" || type == "list_splat_pattern" ||
               type == "parenthesized_list_splat") {
      e.kind = Expr::Kind::Starred;
      auto kids = children(n, true);
      if (kids.size() != 1) return unsupported(n);
      e.items.push_back(expr(kids[0]));
    } else if (type == "dictionary_splat") {
      e.kind = Expr::Kind::DoubleStarred;
      e.items.push_back(expr(children(n, true).at(0)));
    } else if (type == "dictionary") {
      e.kind = Expr::Kind::Dict;
      for (TSNode c : children(n, true)) {
        if (is(c, "pair")) {
          e.items.push_back(expr(field(c, field_ids().key)));
          e.items.push_back(expr(field(c, field_ids().value)));
        } else if (is(c, "dictionary_splat")) {
          e.items.push_back(expr(c));
          Expr none;
          none.loc = loc(c);
          e.items.push_back(std::move(none));
        } else {
          return unsupported(c);
        }
      }
    } else if (type == "attribute") {
      e.kind = Expr::Kind::Attribute;
      e.items.push_back(expr(field(n, field_ids().object)));
      e.text = text(field(n, field_ids().attribute));
    } else if (type == "call") {
      e.kind = Expr::Kind::Call;
      e.items.push_back(expr(field(n, field_ids().function)));
      TSNode args = field(n, field_ids().arguments);
      if (is(args, "generator_expression")) {
        e.items.push_back(expr(args));
        return e;
      }
      std::vector<std::pair<std::string, Expr>> kwargs;
      for (TSNode a : children(args, true)) {
        if (is(a, "keyword_argument")) {
          kwargs.emplace_back(text(field(a, field_ids().name)), expr(field(a, field_ids().value)));
        } else if (is(a, "dictionary_splat")) {
          kwargs.emplace_back("**", expr(children(a, true).at(0)));
        } else {
          // Python evaluates a positional after a keyword in order; the tracer reads the
          // positionals first, which only matters for side effects in the arguments.
          e.items.push_back(expr(a));
        }
      }
      for (auto &[name, value] : kwargs) {
        e.keywords.push_back(name);
        e.items.push_back(std::move(value));
      }
    } else if (type == "subscript") {
      e.kind = Expr::Kind::Subscript;
      e.items.push_back(expr(field(n, field_ids().value)));
      auto indices = field_children(n, "subscript");
      bool comma = false;
      for (TSNode c : children(n, false))
        if (!ts_node_is_named(c) && view(c) == ",") comma = true;
      if (indices.size() == 1 && !comma) {
        e.items.push_back(expr(indices[0]));
      } else {
        Expr index;
        index.kind = Expr::Kind::Tuple;
        index.loc = loc(indices.at(0));
        for (TSNode c : indices)
          index.items.push_back(expr(c));
        e.items.push_back(std::move(index));
      }
    } else if (type == "slice") {
      e.kind = Expr::Kind::Slice;
      Expr none;
      none.kind = Expr::Kind::None;
      none.loc = e.loc;
      e.items = {none, none, none};
      std::size_t part = 0;
      for (TSNode c : children(n, false)) {
        if (!ts_node_is_named(c)) {
          if (view(c) == ":") ++part;
          continue;
        }
        if (part > 2) return unsupported(c);
        e.items[part] = expr(c);
      }
    } else if (type == "binary_operator") {
      e.kind = Expr::Kind::BinOp;
      read_chain(left_chain(n), e);
    } else if (type == "unary_operator") {
      e.kind = Expr::Kind::UnaryOp;
      e.text = text(field(n, field_ids().operator_));
      e.items.push_back(expr(field(n, field_ids().argument)));
    } else if (type == "not_operator") {
      e.kind = Expr::Kind::UnaryOp;
      e.text = "not";
      e.items.push_back(expr(field(n, field_ids().argument)));
    } else if (type == "boolean_operator") {
      e.kind = Expr::Kind::BoolOp;
      read_chain(left_chain(n), e);
    } else if (type == "comparison_operator") {
      e.kind = Expr::Kind::Compare;
      std::string pending;
      for (TSNode c : children(n, false)) {
        if (ts_node_is_named(c)) {
          if (!pending.empty()) {
            e.ops.push_back(pending);
            pending.clear();
          }
          e.items.push_back(expr(c));
        } else {
          pending += pending.empty() ? text(c) : " " + text(c);
        }
      }
      for (const std::string &op : e.ops)
        if (op == "<>") return unsupported(n, "the `<>` comparison");
    } else if (type == "conditional_expression") {
      e.kind = Expr::Kind::IfExp;
      for (TSNode c : children(n, true))
        e.items.push_back(expr(c));
      if (e.items.size() != 3) return unsupported(n);
    } else if (type == "lambda") {
      e.kind = Expr::Kind::Lambda;
      auto f = std::make_shared<FunctionDef>();
      f->name = "<lambda>";
      f->loc = e.loc;
      TSNode params = field(n, field_ids().parameters);
      if (!ts_node_is_null(params)) {
        std::optional<Expr> bad = parameters(params, f->params);
        if (bad) return *bad;
      }
      Stmt ret;
      ret.kind = Stmt::Kind::Return;
      ret.loc = loc(field(n, field_ids().body));
      ret.value = expr(field(n, field_ids().body));
      f->body.push_back(std::move(ret));
      e.function = std::move(f);
    } else if (type == "list_comprehension" || type == "set_comprehension" ||
               type == "generator_expression" || type == "dictionary_comprehension") {
      e.kind = type == "list_comprehension"     ? Expr::Kind::ListComp
               : type == "set_comprehension"    ? Expr::Kind::SetComp
               : type == "generator_expression" ? Expr::Kind::GeneratorExp
                                                : Expr::Kind::DictComp;
      TSNode body = field(n, field_ids().body);
      if (e.kind == Expr::Kind::DictComp) {
        e.items.push_back(expr(field(body, field_ids().key)));
        e.items.push_back(expr(field(body, field_ids().value)));
      } else {
        e.items.push_back(expr(body));
      }
      auto generators = std::make_shared<std::vector<CompFor>>();
      for (TSNode c : children(n, true)) {
        if (is(c, "for_in_clause")) {
          CompFor g;
          g.target = target(field(c, field_ids().left));
          std::vector<TSNode> right = field_children(c, "right");
          if (right.size() == 1) {
            g.iter = expr(right[0]);
          } else {
            g.iter.kind = Expr::Kind::Tuple;
            g.iter.loc = loc(right.at(0));
            for (TSNode r : right)
              g.iter.items.push_back(expr(r));
          }
          for (TSNode a : children(c, false))
            if (!ts_node_is_named(a) && view(a) == "async")
              return unsupported(c, "an async comprehension");
          generators->push_back(std::move(g));
        } else if (is(c, "if_clause")) {
          if (generators->empty()) return unsupported(c);
          generators->back().ifs.push_back(expr(children(c, true).at(0)));
        }
      }
      e.generators = std::move(generators);
    } else if (type == "named_expression") {
      e.kind = Expr::Kind::NamedExpr;
      e.items.push_back(expr(field(n, field_ids().name)));
      e.items.push_back(expr(field(n, field_ids().value)));
    } else if (type == "await") {
      return unsupported(n, "await");
    } else if (type == "yield") {
      return unsupported(n, "yield (generators are not traced)");
    } else {
      return unsupported(n);
    }
    return e;
  }

  std::vector<Stmt> block(TSNode n) const {
    std::vector<Stmt> out;
    for (TSNode c : children(n, true))
      out.push_back(stmt(c));
    return out;
  }

  Stmt stmt(TSNode n) const {
    Stmt s;
    s.loc = loc(n);
    std::string_view type = ts_node_type(n);
    if (type == "expression_statement") {
      auto kids = children(n, true);
      if (kids.size() != 1) {
        // `a, b` as a statement: a tuple expression.
        s.kind = Stmt::Kind::Expr;
        s.value.kind = Expr::Kind::Tuple;
        s.value.loc = s.loc;
        for (TSNode k : kids)
          s.value.items.push_back(expr(k));
        return s;
      }
      TSNode inner = kids[0];
      if (is(inner, "assignment")) {
        TSNode annotation = field(inner, field_ids().type);
        if (!ts_node_is_null(annotation)) {
          // x: T = v (the annotation is not evaluated: Python evaluates it, but nothing the
          // tracer runs reads it; a dataclass field is found by its name).
          s.kind = Stmt::Kind::AnnAssign;
          s.targets.push_back(target(field(inner, field_ids().left)));
          TSNode right = field(inner, field_ids().right);
          s.has_value = !ts_node_is_null(right);
          if (s.has_value) s.value = expr(right);
          s.text = text(annotation);
          return s;
        }
        s.kind = Stmt::Kind::Assign;
        TSNode cur = inner;
        while (true) {
          s.targets.push_back(target(field(cur, field_ids().left)));
          TSNode right = field(cur, field_ids().right);
          if (ts_node_is_null(right)) return unsupported_statement(cur);
          if (is(right, "assignment")) {
            if (!ts_node_is_null(field(right, field_ids().type)))
              return unsupported_statement(right);
            cur = right;
            continue;
          }
          if (is(right, "augmented_assignment")) return unsupported_statement(right);
          s.value = expr(right);
          break;
        }
      } else if (is(inner, "augmented_assignment")) {
        s.kind = Stmt::Kind::AugAssign;
        std::string op = text(field(inner, field_ids().operator_));
        s.op = op.substr(0, op.size() - 1);
        s.targets.push_back(target(field(inner, field_ids().left)));
        s.value = expr(field(inner, field_ids().right));
      } else {
        s.kind = Stmt::Kind::Expr;
        s.value = expr(inner);
      }
    } else if (type == "return_statement") {
      s.kind = Stmt::Kind::Return;
      auto kids = children(n, true);
      s.has_value = !kids.empty();
      if (s.has_value) s.value = expr(kids[0]);
    } else if (type == "pass_statement") {
      s.kind = Stmt::Kind::Pass;
    } else if (type == "break_statement") {
      s.kind = Stmt::Kind::Break;
    } else if (type == "continue_statement") {
      s.kind = Stmt::Kind::Continue;
    } else if (type == "if_statement") {
      s.kind = Stmt::Kind::If;
      s.value = expr(field(n, field_ids().condition));
      s.body = block(field(n, field_ids().consequence));
      for (TSNode alt : field_children(n, "alternative")) {
        if (is(alt, "elif_clause")) {
          Stmt clause;
          clause.kind = Stmt::Kind::If;
          clause.loc = loc(alt);
          clause.value = expr(field(alt, field_ids().condition));
          clause.body = block(field(alt, field_ids().consequence));
          s.elifs.push_back(std::move(clause));
        } else {
          s.orelse = block(field(alt, field_ids().body));
        }
      }
    } else if (type == "for_statement") {
      s.kind = Stmt::Kind::For;
      for (TSNode c : children(n, false))
        if (!ts_node_is_named(c) && view(c) == "async")
          return unsupported_statement(n, "async for");
      s.targets.push_back(target(field(n, field_ids().left)));
      s.value = expr(field(n, field_ids().right));
      s.body = block(field(n, field_ids().body));
      TSNode alt = field(n, field_ids().alternative);
      if (!ts_node_is_null(alt)) s.orelse = block(field(alt, field_ids().body));
    } else if (type == "while_statement") {
      s.kind = Stmt::Kind::While;
      s.value = expr(field(n, field_ids().condition));
      s.body = block(field(n, field_ids().body));
      TSNode alt = field(n, field_ids().alternative);
      if (!ts_node_is_null(alt)) s.orelse = block(field(alt, field_ids().body));
    } else if (type == "function_definition") {
      return definition(n, {});
    } else if (type == "class_definition") {
      return class_definition(n, {});
    } else if (type == "decorated_definition") {
      std::vector<Expr> decorators;
      for (TSNode c : children(n, true))
        if (is(c, "decorator")) decorators.push_back(expr(children(c, true).at(0)));
      TSNode def = field(n, field_ids().definition);
      if (is(def, "function_definition")) return definition(def, std::move(decorators));
      if (is(def, "class_definition")) return class_definition(def, std::move(decorators));
      return unsupported_statement(def);
    } else if (type == "import_statement") {
      s.kind = Stmt::Kind::Import;
      for (TSNode name : field_children(n, "name")) {
        if (is(name, "aliased_import"))
          s.names.push_back(
              {text(field(name, field_ids().name)), text(field(name, field_ids().alias))});
        else
          s.names.push_back({text(name), ""});
      }
    } else if (type == "import_from_statement") {
      s.kind = Stmt::Kind::ImportFrom;
      s.text = text(field(n, field_ids().module_name));
      for (TSNode name : field_children(n, "name")) {
        if (is(name, "aliased_import"))
          s.names.push_back(
              {text(field(name, field_ids().name)), text(field(name, field_ids().alias))});
        else
          s.names.push_back({text(name), ""});
      }
      for (TSNode c : children(n, true))
        if (is(c, "wildcard_import")) s.names.push_back({"*", ""});
    } else if (type == "future_import_statement") {
      s.kind = Stmt::Kind::Pass;
    } else if (type == "assert_statement") {
      s.kind = Stmt::Kind::Assert;
      auto kids = children(n, true);
      s.value = expr(kids.at(0));
      if (kids.size() > 1) s.exprs.push_back(expr(kids[1]));
    } else if (type == "raise_statement") {
      s.kind = Stmt::Kind::Raise;
      auto kids = children(n, true);
      TSNode cause = field(n, field_ids().cause);
      s.has_value = false;
      for (TSNode k : kids) {
        if (!ts_node_is_null(cause) && ts_node_eq(k, cause)) {
          s.exprs.push_back(expr(k));
        } else if (!s.has_value) {
          s.value = expr(k);
          s.has_value = true;
        }
      }
    } else if (type == "try_statement") {
      s.kind = Stmt::Kind::Try;
      s.body = block(field(n, field_ids().body));
      for (TSNode c : children(n, true)) {
        if (is(c, "except_clause")) {
          ExceptHandler h;
          h.loc = loc(c);
          TSNode value = field(c, field_ids().value);
          TSNode alias = field(c, field_ids().alias);
          if (!ts_node_is_null(value)) {
            if (is(value, "as_pattern")) {
              // except E as e (older grammar spelling)
              h.type = expr(children(value, true).at(0));
              TSNode target = field(value, field_ids().alias);
              if (!ts_node_is_null(target)) h.name = text(target);
            } else {
              h.type = expr(value);
            }
          }
          if (!ts_node_is_null(alias)) h.name = text(alias);
          for (TSNode b : children(c, true))
            if (is(b, "block")) h.body = block(b);
          s.handlers.push_back(std::move(h));
        } else if (is(c, "except_group_clause")) {
          return unsupported_statement(c, "except*");
        } else if (is(c, "else_clause")) {
          s.orelse = block(field(c, field_ids().body));
        } else if (is(c, "finally_clause")) {
          for (TSNode b : children(c, true))
            if (is(b, "block")) s.finalbody = block(b);
        }
      }
    } else if (type == "with_statement") {
      s.kind = Stmt::Kind::With;
      for (TSNode c : children(n, false))
        if (!ts_node_is_named(c) && view(c) == "async")
          return unsupported_statement(n, "async with");
      for (TSNode clause : children(n, true)) {
        if (!is(clause, "with_clause")) continue;
        for (TSNode item : children(clause, true)) {
          TSNode value = field(item, field_ids().value);
          Expr none;
          none.loc = loc(item);
          if (is(value, "as_pattern")) {
            s.exprs.push_back(expr(children(value, true).at(0)));
            TSNode alias = field(value, field_ids().alias);
            auto alias_kids = children(alias, true);
            s.targets.push_back(alias_kids.size() == 1 ? target(alias_kids[0]) : none);
          } else {
            s.exprs.push_back(expr(value));
            s.targets.push_back(none);
          }
        }
      }
      s.body = block(field(n, field_ids().body));
    } else if (type == "delete_statement") {
      s.kind = Stmt::Kind::Delete;
      TSNode what = children(n, true).at(0);
      if (is(what, "expression_list") || is(what, "tuple"))
        for (TSNode t : children(what, true))
          s.targets.push_back(target(t));
      else
        s.targets.push_back(target(what));
    } else if (type == "global_statement" || type == "nonlocal_statement") {
      s.kind = type == "global_statement" ? Stmt::Kind::Global : Stmt::Kind::Nonlocal;
      for (TSNode c : children(n, true))
        s.names.push_back({text(c), ""});
    } else {
      return unsupported_statement(n);
    }
    return s;
  }

  // An assignment target: a name, an attribute, a subscript, a starred target, or a tuple or
  // list of these. Anything else is an Unsupported expression (raised when assigned to).
  Expr target(TSNode n) const {
    std::string_view type = ts_node_type(n);
    if (type == "parenthesized_expression") {
      auto kids = children(n, true);
      if (kids.size() == 1) return target(kids[0]);
    }
    if (type == "identifier" || type == "attribute" || type == "subscript") return expr(n);
    if (type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern" ||
        type == "tuple" || type == "list" || type == "expression_list") {
      Expr e;
      e.kind = (type == "list" || type == "list_pattern") ? Expr::Kind::List : Expr::Kind::Tuple;
      e.loc = loc(n);
      for (TSNode c : children(n, true))
        e.items.push_back(target(c));
      return e;
    }
    if (type == "list_splat_pattern" || type == "list_splat") {
      Expr e;
      e.kind = Expr::Kind::Starred;
      e.loc = loc(n);
      e.items.push_back(target(children(n, true).at(0)));
      return e;
    }
    return unsupported(n, "assignment to a " + construct_name(n));
  }

  // Reads a parameter list into `out`; an Unsupported expression for a parameter form the
  // tracer does not read.
  std::optional<Expr> parameters(TSNode list, std::vector<Param> &out) const {
    bool keyword_only = false;
    for (TSNode p : children(list, true)) {
      Param param;
      param.loc = loc(p);
      param.kind = keyword_only ? Param::Kind::KeywordOnly : Param::Kind::Positional;
      if (is(p, "identifier")) {
        param.name = text(p);
      } else if (is(p, "default_parameter") || is(p, "typed_default_parameter")) {
        param.name = text(field(p, field_ids().name));
        param.default_value = expr(field(p, field_ids().value));
      } else if (is(p, "typed_parameter")) {
        TSNode inner = children(p, true).at(0);
        if (is(inner, "list_splat_pattern") || is(inner, "dictionary_splat_pattern")) {
          param.kind =
              is(inner, "list_splat_pattern") ? Param::Kind::VarArgs : Param::Kind::VarKeywords;
          param.name = text(children(inner, true).at(0));
          if (param.kind == Param::Kind::VarArgs) keyword_only = true;
        } else {
          param.name = text(inner);
        }
      } else if (is(p, "list_splat_pattern")) {
        param.kind = Param::Kind::VarArgs;
        param.name = text(children(p, true).at(0));
        keyword_only = true;
      } else if (is(p, "dictionary_splat_pattern")) {
        param.kind = Param::Kind::VarKeywords;
        param.name = text(children(p, true).at(0));
      } else if (is(p, "keyword_separator")) {
        keyword_only = true;
        continue;
      } else if (is(p, "positional_separator")) {
        for (Param &earlier : out)
          if (earlier.kind == Param::Kind::Positional) earlier.kind = Param::Kind::PositionalOnly;
        continue;
      } else {
        return unsupported(p, "a " + construct_name(p) + " parameter");
      }
      out.push_back(std::move(param));
    }
    return std::nullopt;
  }

  Stmt definition(TSNode n, std::vector<Expr> decorators) const {
    Stmt s;
    s.kind = Stmt::Kind::Def;
    s.loc = loc(n);
    for (TSNode c : children(n, false))
      if (!ts_node_is_named(c) && view(c) == "async") return unsupported_statement(n, "async def");
    auto f = std::make_shared<FunctionDef>();
    f->loc = s.loc;
    f->name = text(field(n, field_ids().name));
    std::optional<Expr> bad = parameters(field(n, field_ids().parameters), f->params);
    TSNode body = field(n, field_ids().body);
    f->body = block(body);
    f->is_generator = holds_yield(body);
    if (bad) {
      // The def runs (it binds its name); a call raises.
      Stmt raise = unsupported_statement(n, bad->text);
      raise.loc = bad->loc;
      f->body.clear();
      f->body.push_back(std::move(raise));
      f->params.clear();
      Param rest;
      rest.kind = Param::Kind::VarArgs;
      rest.name = "args";
      f->params.push_back(rest);
      rest.kind = Param::Kind::VarKeywords;
      rest.name = "kwargs";
      f->params.push_back(rest);
    }
    f->decorators = std::move(decorators);
    s.function = std::move(f);
    return s;
  }

  Stmt class_definition(TSNode n, std::vector<Expr> decorators) const {
    Stmt s;
    s.kind = Stmt::Kind::Class;
    s.loc = loc(n);
    auto c = std::make_shared<ClassDef>();
    c->loc = s.loc;
    c->name = text(field(n, field_ids().name));
    TSNode supers = field(n, field_ids().superclasses);
    if (!ts_node_is_null(supers)) {
      for (TSNode a : children(supers, true)) {
        if (is(a, "keyword_argument")) {
          c->keywords.push_back(text(field(a, field_ids().name)));
          c->keyword_values.push_back(expr(field(a, field_ids().value)));
        } else {
          c->bases.push_back(expr(a));
        }
      }
    }
    c->body = block(field(n, field_ids().body));
    c->decorators = std::move(decorators);
    s.cls = std::move(c);
    return s;
  }

private:
  // Each nested expression is one call of expr, so the depth of the stack follows the depth of
  // the expression; past the limit the reader stops with an error rather than overflow the stack.
  class Nesting {
  public:
    Nesting(const Reader &reader, TSNode n) : reader_(reader) {
      if (++reader_.depth_ > kMaxExpressionDepth) {
        --reader_.depth_;
        throw TraceError(reader_.loc(n), "too deeply nested: this expression nests more than " +
                                             std::to_string(kMaxExpressionDepth) +
                                             " levels of parentheses, brackets, calls or "
                                             "operators (as CPython, which stops at " +
                                             std::to_string(kMaxExpressionDepth) +
                                             " nested parentheses); give its parts names");
      }
    }
    ~Nesting() { --reader_.depth_; }
    Nesting(const Nesting &) = delete;
    Nesting &operator=(const Nesting &) = delete;

  private:
    const Reader &reader_;
  };

  // Whether a function body holds a yield outside nested functions, classes and lambdas.
  bool holds_yield(TSNode body) const {
    std::vector<TSNode> stack{body};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      std::string_view type = ts_node_type(n);
      if (type == "yield") return true;
      if (type == "function_definition" || type == "class_definition" || type == "lambda") continue;
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i)
        stack.push_back(ts_node_named_child(n, i));
    }
    return false;
  }

  // A string literal: its prefix says raw, bytes or formatted.
  Expr string(TSNode n) const {
    Expr e;
    e.loc = loc(n);
    e.kind = Expr::Kind::Str;
    bool raw = false, formatted = false;
    for (TSNode c : children(n, true)) {
      if (is(c, "string_start")) {
        for (char ch : view(c)) {
          if (ch == 'r' || ch == 'R') raw = true;
          if (ch == 'f' || ch == 'F') formatted = true;
          if (ch == 'b' || ch == 'B') return unsupported(n, "a bytes literal");
        }
      }
    }
    if (formatted) e.kind = Expr::Kind::FString;
    std::string pending;
    auto flush = [&] {
      if (!formatted || pending.empty()) return;
      Expr part;
      part.kind = Expr::Kind::Str;
      part.loc = e.loc;
      part.text = std::move(pending);
      pending.clear();
      e.items.push_back(std::move(part));
    };
    for (TSNode c : children(n, true)) {
      if (is(c, "string_content")) {
        if (raw) {
          pending += view(c);
          continue;
        }
        // Escapes are children of the content; the text between them is literal.
        uint32_t at = ts_node_start_byte(c);
        for (TSNode esc : children(c, true)) {
          pending.append(text_, at, ts_node_start_byte(esc) - at);
          if (is(esc, "escape_sequence")) {
            std::optional<std::string> decoded = decode_escape(view(esc));
            if (!decoded) return unsupported(esc, "the escape sequence " + text(esc));
            pending += *decoded;
          } else {
            pending += view(esc); // an escape_interpolation ({{ or }})
          }
          at = ts_node_end_byte(esc);
        }
        pending.append(text_, at, ts_node_end_byte(c) - at);
        if (formatted) {
          // {{ and }} in an f-string are literal braces.
          std::string unbraced;
          for (std::size_t i = 0; i < pending.size(); ++i) {
            unbraced += pending[i];
            if ((pending[i] == '{' || pending[i] == '}') && i + 1 < pending.size() &&
                pending[i + 1] == pending[i])
              ++i;
          }
          pending = std::move(unbraced);
        }
      } else if (is(c, "interpolation")) {
        flush();
        e.items.push_back(interpolation(c));
      }
    }
    if (formatted)
      flush();
    else
      e.text = std::move(pending);
    return e;
  }

  Expr interpolation(TSNode n) const {
    Expr v;
    v.kind = Expr::Kind::FormattedValue;
    v.loc = loc(n);
    TSNode value = field(n, field_ids().expression);
    v.items.push_back(expr(value));
    TSNode conversion = field(n, field_ids().type_conversion);
    if (!ts_node_is_null(conversion)) v.text = text(conversion).substr(1);
    TSNode spec = field(n, field_ids().format_specifier);
    if (!ts_node_is_null(spec)) {
      // The spec is an f-string itself: its literal text and its nested {fields}.
      Expr format;
      format.kind = Expr::Kind::FString;
      format.loc = loc(spec);
      uint32_t at = ts_node_start_byte(spec) + 1; // after the ':'
      auto literal = [&](uint32_t end) {
        if (end <= at) return;
        Expr part;
        part.kind = Expr::Kind::Str;
        part.loc = format.loc;
        part.text = text_.substr(at, end - at);
        format.items.push_back(std::move(part));
      };
      for (TSNode c : children(spec, true)) {
        if (!is(c, "format_expression")) continue;
        literal(ts_node_start_byte(c));
        Expr nested;
        nested.kind = Expr::Kind::FormattedValue;
        nested.loc = loc(c);
        nested.items.push_back(expr(field(c, field_ids().expression)));
        format.items.push_back(std::move(nested));
        at = ts_node_end_byte(c);
      }
      literal(ts_node_end_byte(spec));
      v.items.push_back(std::move(format));
    }
    // f"{x=}": the expression's text, then its repr.
    for (TSNode c : children(n, false))
      if (!ts_node_is_named(c) && view(c) == "=") {
        Expr fstring;
        fstring.kind = Expr::Kind::FString;
        fstring.loc = v.loc;
        Expr label;
        label.kind = Expr::Kind::Str;
        label.loc = v.loc;
        label.text = text_.substr(ts_node_start_byte(value),
                                  ts_node_end_byte(c) - ts_node_start_byte(value));
        fstring.items.push_back(std::move(label));
        if (v.text.empty() && v.items.size() == 1) v.text = "r";
        fstring.items.push_back(std::move(v));
        return fstring;
      }
    return v;
  }

  // A left-deep chain of one operator node type: `a + b - c` is (a + b) - c.
  struct LeftChain {
    TSNode first;                  // the leftmost operand
    std::vector<TSNode> operators; // left to right
    std::vector<TSNode> operands;  // the operand after each operator
  };
  // Walks the chain with a loop: Python accepts chains of any length (x + 1 + 1 + ...), which
  // one recursive call per operator would turn into a stack overflow.
  LeftChain left_chain(TSNode n) const {
    LeftChain chain;
    std::string_view type = ts_node_type(n);
    TSNode left = n;
    while (ts_node_type(left) == type) {
      chain.operators.push_back(field(left, field_ids().operator_));
      chain.operands.push_back(field(left, field_ids().right));
      left = field(left, field_ids().left);
    }
    chain.first = left;
    std::reverse(chain.operators.begin(), chain.operators.end());
    std::reverse(chain.operands.begin(), chain.operands.end());
    return chain;
  }
  // The chain as one Expr: its operands in items, the operator between each pair in ops.
  void read_chain(const LeftChain &chain, Expr &e) const {
    e.items.reserve(chain.operands.size() + 1);
    e.ops.reserve(chain.operators.size());
    e.items.push_back(expr(chain.first));
    for (std::size_t i = 0; i < chain.operands.size(); ++i) {
      e.ops.push_back(text(chain.operators[i]));
      e.items.push_back(expr(chain.operands[i]));
    }
  }

  // One cursor for the walks above, reset to each node (a new cursor allocates its stack).
  TSTreeCursor *cursor_at(TSNode n) const {
    if (cursor_)
      ts_tree_cursor_reset(&*cursor_, n);
    else
      cursor_ = ts_tree_cursor_new(n);
    return &*cursor_;
  }

  const std::string &text_;
  uint32_t from_row_ = UINT32_MAX;
  int64_t add_rows_ = 0;
  mutable std::optional<TSTreeCursor> cursor_;
  mutable int depth_ = 0; // expr calls on the stack
};

template <class F> auto guarded(F &&f, const std::string &path) -> decltype(f()) {
  try {
    return f();
  } catch (const TraceError &e) {
    return Error{e.what(), path, e.loc.line, e.loc.column};
  }
}

// Adds the top-level statements under root to m.
void read_top_level(const Reader &reader, TSNode root, Module &m) {
  reader.check_syntax(root);
  for (TSNode n : reader.children(root, true))
    m.body.push_back(reader.stmt(n));
}

Module read_module(std::shared_ptr<const SourceText> source, const Reader &reader, TSNode root) {
  Module m;
  m.path = source->path();
  read_top_level(reader, root, m);
  m.source = std::move(source);
  return m;
}

// The 0-based row of a byte offset.
uint32_t row_of(const SourceText &source, std::size_t offset) {
  auto at = static_cast<uint32_t>(offset);
  return source.span(at, at).line - 1;
}

} // namespace

struct BodyRest::Impl {
  struct Part {
    std::vector<Stmt> body;
    bool failed = false;
  };

  Impl(std::shared_ptr<const SourceText> source_text, chunking::BodyChunks body_chunks,
       unsigned threads)
      : source(std::move(source_text)), chunks(std::move(body_chunks)) {
    for (const auto &[begin, end] : chunks.rest)
      start_rows.push_back(row_of(*source, begin));
    pipeline.emplace(chunks.rest.size(), threads, [this](std::size_t i) { return parse(i); });
  }

  // Chunk i, parsed as the body of a def on the line before it.
  Part parse(std::size_t i) const {
    Part part;
    auto [begin, end] = chunks.rest[i];
    std::string text = chunking::kChunkPrefix;
    text.append(source->text(), begin, end - begin);
    try {
      TreePtr tree = parse_python(text);
      if (!tree) throw TraceError(Loc{}, "tree-sitter returned no tree");
      Reader reader(text, 1, static_cast<int64_t>(start_rows[i]) - 1);
      TSNode root = ts_tree_root_node(tree.get());
      reader.check_syntax(root);
      std::vector<TSNode> defs = children(root, true);
      if (defs.size() != 1 || !is(defs[0], "function_definition"))
        throw TraceError(Loc{}, "the chunk is not one body");
      part.body = reader.block(field(defs[0], field_ids().body));
    } catch (const TraceError &) {
      part.failed = true;
    }
    return part;
  }

  const std::shared_ptr<const SourceText> source;
  const chunking::BodyChunks chunks;
  std::vector<uint32_t> start_rows; // the 0-based row each chunk starts on
  std::vector<std::vector<Stmt>> taken;
  bool failed = false;
  // Last: its workers read the members above.
  std::optional<chunking::ChunkPipeline<Part>> pipeline;
};

BodyRest::BodyRest(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
BodyRest::~BodyRest() = default;

std::size_t BodyRest::size() const {
  return impl_->chunks.rest.size();
}

const std::vector<Stmt> &BodyRest::chunk(std::size_t i) {
  while (!impl_->failed && impl_->taken.size() <= i) {
    std::size_t next = impl_->taken.size();
    Impl::Part part = impl_->pipeline->take(next);
    impl_->pipeline->done(next);
    impl_->failed = part.failed;
    impl_->taken.push_back(std::move(part.body));
  }
  if (impl_->failed) throw Failed{};
  return impl_->taken[i];
}

bool BodyRest::parses_cleanly() {
  try {
    if (size() > 0) chunk(size() - 1);
    return true;
  } catch (const Failed &) {
    return false;
  }
}

namespace {

// The first of the syntax errors CPython's tokenizer and compiler find but tree-sitter accepts
// (it closes the blocks and reads on: IndentationError, TabError, nesting limits), or none.
std::optional<TraceError> first_tokenizer_error(const SourceText &source) {
  std::vector<SyntaxProblem> found =
      tokenizer_problems(chunking::EditedText(source.text()), source);
  if (found.empty()) return std::nullopt;
  return TraceError(Loc{found.front().span.line, found.front().span.column},
                    "syntax error: " + found.front().message);
}

// tree-sitter-python keeps each indentation width in a byte: from 256 columns on (64 blocks
// nested 4 spaces deep) its blocks go wrong, and the syntax error it then reports is at the top
// of the file. The first line of code indented that far, to report instead.
constexpr uint32_t kMaxIndentColumns = 255;

std::optional<TraceError> first_overindented_line(const SourceText &source) {
  chunking::EditedText text(source.text());
  int depth = 0;
  bool continued = false;
  uint32_t row = 0;
  for (chunking::Lines lines(text, 0); lines.next(); ++row) {
    std::string_view line = lines.text();
    if (depth == 0 && !continued) {
      // Widths as the grammar's scanner counts them.
      uint32_t width = 0;
      std::size_t i = 0;
      for (; i < line.size(); ++i) {
        if (line[i] == ' ')
          width += 1;
        else if (line[i] == '\t')
          width += 8;
        else if (line[i] == '\f')
          width = 0;
        else
          break;
      }
      bool code = i < line.size() && line[i] != '#' && line[i] != '\r';
      if (code && width > kMaxIndentColumns)
        return TraceError(Loc{row + 1, 1},
                          "too deeply nested: this line is indented " + std::to_string(width) +
                              " columns, and the parser reads at most " +
                              std::to_string(kMaxIndentColumns) +
                              " (nest fewer blocks, or indent each by fewer spaces)");
    }
    chunking::track_brackets(line, depth, continued);
  }
  return std::nullopt;
}

bool before(const Loc &a, const Loc &b) {
  return a.line < b.line || (a.line == b.line && a.column < b.column);
}

// A large module is parsed piece by piece, each piece whole top-level statements: a module's
// tree takes about 500 bytes a line (a 14 MB module of statements held 1 GB), and the frontend
// keeps only what it reads from each piece.
constexpr std::size_t kModulePieceBytes = 256 * 1024;

// A top-level line that continues the statement before it.
bool continues_statement(std::string_view line) {
  for (std::string_view keyword : {"else", "elif", "except", "finally"})
    if (line.starts_with(keyword) &&
        (line.size() == keyword.size() || !lexing::is_word(line[keyword.size()])))
      return true;
  return false;
}

// Where the pieces of a large module start (the first at 0): at lines of code in column 0,
// outside brackets and continuations, not after a decorator. One piece where that is not safe
// (a triple-quoted string can hide where lines start) or the module is small.
std::vector<std::size_t> module_pieces(const std::string &text) {
  std::vector<std::size_t> starts{0};
  if (text.size() < 2 * kModulePieceBytes || chunking::has_triple_quote(text)) return starts;
  chunking::EditedText edited(text);
  int depth = 0;
  bool continued = false, after_decorator = false;
  for (chunking::Lines lines(edited, 0); lines.next();) {
    std::string_view line = lines.text();
    bool top_level_code = depth == 0 && !continued && !line.empty() && line[0] != ' ' &&
                          line[0] != '\t' && line[0] != '#' && line[0] != '\r' && line[0] != '\f';
    if (top_level_code) {
      if (!after_decorator && !continues_statement(line) &&
          lines.begin() - starts.back() >= kModulePieceBytes)
        starts.push_back(lines.begin());
      after_decorator = line[0] == '@';
    }
    chunking::track_brackets(line, depth, continued);
  }
  return starts;
}

// The module read piece by piece, or none on any error: the whole module's parse then gives it
// as Python would (a syntax error in a later piece wins over an earlier unsupported construct).
std::optional<Module> read_in_pieces(const std::shared_ptr<const SourceText> &source,
                                     const std::vector<std::size_t> &starts) {
  const std::string &text = source->text();
  Module m;
  m.path = source->path();
  try {
    for (std::size_t i = 0; i < starts.size(); ++i) {
      std::size_t end = i + 1 < starts.size() ? starts[i + 1] : text.size();
      std::string piece = text.substr(starts[i], end - starts[i]);
      TreePtr tree = parse_python(piece);
      if (!tree) return std::nullopt;
      Reader reader(piece, 0, row_of(*source, starts[i]));
      read_top_level(reader, ts_tree_root_node(tree.get()), m);
    }
  } catch (const TraceError &) {
    return std::nullopt;
  }
  m.source = source;
  return m;
}

// parse_module of a source already indexed.
Result<Module> parse_whole(std::shared_ptr<const SourceText> source) {
  const std::string &path = source->path();
  // Python stops at its first syntax error: one tree-sitter accepts (an IndentationError, a
  // TabError, a nesting limit) wins over anything the frontend finds, except a syntax error
  // before it. That one is looked for without reading the module, whose expressions recurse
  // once per level (brackets past Python's 200 levels would overflow the stack).
  std::optional<TraceError> tokenizer_error = first_tokenizer_error(*source);
  if (!tokenizer_error) {
    std::vector<std::size_t> starts = module_pieces(source->text());
    if (starts.size() > 1)
      if (std::optional<Module> m = read_in_pieces(source, starts)) return std::move(*m);
  }
  return guarded(
      [&]() -> Result<Module> {
        TreePtr tree = parse_python(source->text());
        if (!tree) return Error{"tree-sitter returned no tree", path, 0, 0};
        Reader reader(source->text());
        if (tokenizer_error) {
          try {
            reader.check_syntax(ts_tree_root_node(tree.get()));
          } catch (const TraceError &e) {
            if (before(e.loc, tokenizer_error->loc)) throw;
          }
          throw *tokenizer_error;
        }
        try {
          return read_module(source, reader, ts_tree_root_node(tree.get()));
        } catch (const TraceError &e) {
          // tree-sitter-python keeps an indentation width in one byte: past 255 columns it
          // reports a syntax error at the file's start, not at the line.
          if (std::string_view(e.what()).starts_with("syntax error"))
            if (std::optional<TraceError> deep = first_overindented_line(*source)) throw *deep;
          throw;
        }
      },
      path);
}

} // namespace

// CPython reads a lone "\r" as a newline, tree-sitter as a space: the frontend reads the text
// with each one turned into "\n" (same offsets, same lines).
Result<Module> parse_module(const std::string &path, const std::string &source) {
  return parse_whole(std::make_shared<const SourceText>(path, with_lone_cr_as_newline(source)));
}

Result<Module> parse_module_chunked(const std::string &path, const std::string &original,
                                    unsigned threads) {
  auto source = std::make_shared<const SourceText>(path, with_lone_cr_as_newline(original));
  const std::string &text = source->text();
  chunking::EditedText edited(text);
  std::optional<chunking::BodyChunks> chunks = chunking::find_chunks(edited, text);
  if (!chunks) return parse_whole(source);
  auto rest = std::make_shared<BodyRest>(
      std::make_unique<BodyRest::Impl>(source, *chunks, std::max(1u, threads)));
  // Its errors are the whole file's to report (find_chunks only turns down a bad dedent inside
  // the body it splits).
  if (first_tokenizer_error(*source)) return parse_whole(source);
  // This thread parses the file without the chunks (cut, not blanked: tree-sitter would still
  // lex every blank line) while the workers start on them.
  std::size_t hole_at = chunks->rest.front().first, hole_end = chunks->rest.back().second;
  std::string cut = text.substr(0, hole_at) + text.substr(hole_end);
  Result<Module> head = guarded(
      [&]() -> Result<Module> {
        TreePtr tree = parse_python(cut);
        if (!tree) return Error{"tree-sitter returned no tree", path, 0, 0};
        uint32_t hole_row = row_of(*source, hole_at);
        Reader reader(cut, hole_row, row_of(*source, hole_end) - hole_row);
        TSNode root = ts_tree_root_node(tree.get());
        Module m = read_module(source, reader, root);
        for (TSNode n : children(root, true)) {
          TSNode def = is(n, "decorated_definition") ? field(n, field_ids().definition) : n;
          if (!is(def, "function_definition") || ts_node_start_byte(def) != chunks->def_offset)
            continue;
          Loc at = reader.loc(def);
          for (Stmt &s : m.body)
            if (s.kind == Stmt::Kind::Def && s.function && s.function->loc.line == at.line &&
                s.function->loc.column == at.column)
              // The module owns its defs; the body's rest is attached once, before any use.
              const_cast<FunctionDef &>(*s.function).rest = rest;
        }
        return m;
      },
      path);
  if (!head) return parse_whole(source);
  return head;
}

Result<Expr> parse_expression(const std::string &source) {
  return guarded(
      [&]() -> Result<Expr> {
        std::string text = "(" + source + "\n)";
        TreePtr tree = parse_python(text);
        if (!tree) return Error{"tree-sitter returned no tree", "", 0, 0};
        Reader reader(text);
        TSNode root = ts_tree_root_node(tree.get());
        try {
          reader.check_syntax(root);
        } catch (const TraceError &e) {
          throw TraceError(Loc{e.loc.line, e.loc.column > 1 ? e.loc.column - 1 : 1}, e.what());
        }
        auto stmts = children(root, true);
        if (stmts.size() != 1 || !is(stmts[0], "expression_statement"))
          return Error{"not a single Python expression", "", 1, 1};
        auto kids = children(stmts[0], true);
        if (kids.size() != 1) return Error{"not a single Python expression", "", 1, 1};
        return reader.expr(kids[0]);
      },
      "");
}

const FunctionDef *Module::function(const std::string &name) const {
  const FunctionDef *found = nullptr;
  for (const Stmt &s : body)
    if (s.kind == Stmt::Kind::Def && s.function->name == name) found = s.function.get();
  return found;
}

std::vector<std::string> Module::definitions() const {
  std::vector<std::string> out;
  for (const Stmt &s : body)
    if (s.kind == Stmt::Kind::Def)
      out.push_back(s.function->name);
    else if (s.kind == Stmt::Kind::Class)
      out.push_back(s.cls->name);
  return out;
}

Result<std::vector<Param>> parse_parameters(const std::string &source) {
  return guarded(
      [&]() -> Result<std::vector<Param>> {
        std::string text = "def f(" + source + "): pass\n";
        TreePtr tree = parse_python(text);
        if (!tree) return Error{"tree-sitter returned no tree", "", 0, 0};
        Reader reader(text);
        TSNode root = ts_tree_root_node(tree.get());
        reader.check_syntax(root);
        auto defs = children(root, true);
        if (defs.size() != 1 || !is(defs[0], "function_definition"))
          return Error{"not a parameter list", "", 1, 1};
        std::vector<Param> params;
        if (std::optional<Expr> bad =
                reader.parameters(field(defs[0], field_ids().parameters), params))
          return Error{"unsupported parameter: " + bad->text, "", 1, 1};
        return params;
      },
      "");
}

} // namespace tracelint::tracer
