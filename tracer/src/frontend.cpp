#include "frontend.hpp"

#include "blanked_comments.hpp"
#include "chunking.hpp"
#include "indentation.hpp"
#include "lexing.hpp"
#include "syntax_errors.hpp"
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
  TSFieldId condition;
  TSFieldId consequence;
  TSFieldId definition;
  TSFieldId function;
  TSFieldId key;
  TSFieldId left;
  TSFieldId module_name;
  TSFieldId name;
  TSFieldId object;
  TSFieldId operator_;
  TSFieldId parameters;
  TSFieldId right;
  TSFieldId type;
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
    ids.condition = id("condition");
    ids.consequence = id("consequence");
    ids.definition = id("definition");
    ids.function = id("function");
    ids.key = id("key");
    ids.left = id("left");
    ids.module_name = id("module_name");
    ids.name = id("name");
    ids.object = id("object");
    ids.operator_ = id("operator");
    ids.parameters = id("parameters");
    ids.right = id("right");
    ids.type = id("type");
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
  [[noreturn]] void unsupported(TSNode n, const std::string &what = "") const {
    throw TraceError(loc(n), "unsupported construct: " + (what.empty() ? construct_name(n) : what) +
                                 " (the tracer interprets a subset of Python; see "
                                 "`tracelint trace --help`)");
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
      if (!v) throw TraceError(e.loc, "integer literal out of the 64-bit range: " + text(n));
      if (v->kind == ValueKind::Complex) unsupported(n, "complex literal");
      e.kind = v->kind == ValueKind::Int ? Expr::Kind::Int : Expr::Kind::Float;
      e.integer = v->integer;
      e.real = v->real;
    } else if (type == "string") {
      e.kind = Expr::Kind::Str;
      for (TSNode c : children(n, true)) {
        if (is(c, "string_content"))
          e.text += text(c);
        else if (is(c, "interpolation"))
          unsupported(c, "f-string interpolation");
        else if (is(c, "escape_sequence"))
          e.text += unescape(c);
      }
      std::string start = text(n).substr(0, 3);
      for (char c : start)
        if (c == 'b' || c == 'B') unsupported(n, "bytes literal");
    } else if (type == "concatenated_string") {
      e.kind = Expr::Kind::Str;
      for (TSNode c : children(n, true))
        e.text += expr(c).text;
    } else if (type == "true" || type == "false") {
      e.kind = Expr::Kind::Bool;
      e.boolean = type == "true";
    } else if (type == "none") {
      e.kind = Expr::Kind::None;
    } else if (type == "ellipsis") {
      e.kind = Expr::Kind::Ellipsis;
    } else if (type == "parenthesized_expression") {
      auto kids = children(n, true);
      if (kids.size() != 1) unsupported(n);
      Expr inner = expr(kids[0]);
      return inner;
    } else if (type == "tuple" || type == "expression_list" || type == "list" ||
               type == "pattern_list" || type == "tuple_pattern" || type == "list_pattern") {
      e.kind = (type == "list" || type == "list_pattern") ? Expr::Kind::List : Expr::Kind::Tuple;
      for (TSNode c : children(n, true))
        e.items.push_back(expr(c));
    } else if (type == "dictionary") {
      e.kind = Expr::Kind::Dict;
      for (TSNode c : children(n, true)) {
        if (!is(c, "pair")) unsupported(c, "dictionary unpacking");
        e.items.push_back(expr(field(c, field_ids().key)));
        e.items.push_back(expr(field(c, field_ids().value)));
      }
    } else if (type == "attribute") {
      e.kind = Expr::Kind::Attribute;
      e.items.push_back(expr(field(n, field_ids().object)));
      e.text = text(field(n, field_ids().attribute));
    } else if (type == "call") {
      e.kind = Expr::Kind::Call;
      e.items.push_back(expr(field(n, field_ids().function)));
      TSNode args = field(n, field_ids().arguments);
      if (is(args, "generator_expression")) unsupported(args);
      std::vector<std::pair<std::string, Expr>> kwargs;
      for (TSNode a : children(args, true)) {
        if (is(a, "keyword_argument")) {
          kwargs.emplace_back(text(field(a, field_ids().name)), expr(field(a, field_ids().value)));
        } else if (is(a, "list_splat")) {
          if (!kwargs.empty()) unsupported(a, "*args after a keyword argument");
          Expr star;
          star.kind = Expr::Kind::Starred;
          star.loc = loc(a);
          star.items.push_back(expr(children(a, true).at(0)));
          e.items.push_back(std::move(star));
        } else if (is(a, "dictionary_splat")) {
          unsupported(a, "**kwargs in a call");
        } else {
          if (!kwargs.empty()) unsupported(a, "a positional argument after a keyword argument");
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
        if (!ts_node_is_named(c) && text(c) == ",") comma = true;
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
          if (text(c) == ":") ++part;
          continue;
        }
        if (part > 2) unsupported(c);
        e.items[part] = expr(c);
      }
    } else if (type == "binary_operator") {
      e.kind = Expr::Kind::BinOp;
      LeftChain chain = left_chain(n);
      for (TSNode op_node : chain.operators) {
        std::string op = text(op_node);
        if (op != "+" && op != "-" && op != "*" && op != "/" && op != "//" && op != "%" &&
            op != "**" && op != "@")
          unsupported(op_node, "the `" + op + "` operator");
      }
      read_chain(chain, e);
    } else if (type == "unary_operator") {
      e.kind = Expr::Kind::UnaryOp;
      e.text = text(field(n, field_ids().operator_));
      if (e.text == "~") unsupported(n, "the `~` operator");
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
        if (op == "in" || op == "not in" || op == "<>")
          unsupported(n, "the `" + op + "` comparison");
    } else if (type == "conditional_expression") {
      e.kind = Expr::Kind::IfExp;
      for (TSNode c : children(n, true))
        e.items.push_back(expr(c));
      if (e.items.size() != 3) unsupported(n);
    } else {
      unsupported(n);
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
      if (kids.size() != 1) unsupported(n);
      TSNode inner = kids[0];
      if (is(inner, "assignment")) {
        s.kind = Stmt::Kind::Assign;
        TSNode cur = inner;
        while (true) {
          if (!ts_node_is_null(field(cur, field_ids().type)))
            unsupported(cur, "an annotated assignment");
          s.targets.push_back(target(field(cur, field_ids().left)));
          TSNode right = field(cur, field_ids().right);
          if (ts_node_is_null(right)) unsupported(cur);
          if (is(right, "assignment")) {
            cur = right;
            continue;
          }
          s.value = expr(right);
          break;
        }
      } else if (is(inner, "augmented_assignment")) {
        s.kind = Stmt::Kind::AugAssign;
        std::string op = text(field(inner, field_ids().operator_));
        s.op = op.substr(0, op.size() - 1);
        if (s.op != "+" && s.op != "-" && s.op != "*" && s.op != "/" && s.op != "//" &&
            s.op != "%" && s.op != "**" && s.op != "@")
          unsupported(inner, "the `" + op + "` operator");
        s.targets.push_back(target(field(inner, field_ids().left)));
        if (s.targets[0].kind != Expr::Kind::Name)
          unsupported(inner, "augmented assignment to anything but a name");
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
      if (!ts_node_is_null(field(n, field_ids().alternative))) unsupported(n, "for ... else");
      s.targets.push_back(target(field(n, field_ids().left)));
      s.value = expr(field(n, field_ids().right));
      s.body = block(field(n, field_ids().body));
    } else if (type == "function_definition") {
      unsupported(n, "a nested function definition (define helpers at module level)");
    } else {
      unsupported(n);
    }
    return s;
  }

  Expr target(TSNode n) const {
    if (is(n, "identifier") || is(n, "pattern_list") || is(n, "tuple_pattern") ||
        is(n, "list_pattern") || is(n, "tuple") || is(n, "list") || is(n, "expression_list")) {
      Expr e = expr(n);
      check_target(e, n);
      return e;
    }
    if (is(n, "parenthesized_expression")) return target(children(n, true).at(0));
    unsupported(n, "assignment to a " + construct_name(n));
  }

  void check_target(const Expr &e, TSNode n) const {
    if (e.kind == Expr::Kind::Name) return;
    if (e.kind != Expr::Kind::Tuple && e.kind != Expr::Kind::List)
      unsupported(n, "assignment to an expression");
    for (const Expr &item : e.items)
      check_target(item, n);
  }

  Function function(TSNode n) const {
    Function f;
    f.loc = loc(n);
    f.name = text(field(n, field_ids().name));
    for (TSNode p : children(field(n, field_ids().parameters), true)) {
      Param param;
      param.loc = loc(p);
      if (is(p, "identifier")) {
        param.name = text(p);
      } else if (is(p, "default_parameter")) {
        param.name = text(field(p, field_ids().name));
        param.default_value = expr(field(p, field_ids().value));
      } else if (is(p, "typed_parameter")) {
        param.name = text(children(p, true).at(0));
      } else if (is(p, "typed_default_parameter")) {
        param.name = text(field(p, field_ids().name));
        param.default_value = expr(field(p, field_ids().value));
      } else if (is(p, "list_splat_pattern") || is(p, "dictionary_splat_pattern")) {
        unsupported(p, "*args and **kwargs parameters (give each input its own parameter)");
      } else {
        unsupported(p,
                    "a " + construct_name(p) + " parameter (only plain parameters and defaults)");
      }
      f.params.push_back(std::move(param));
    }
    f.body = block(field(n, field_ids().body));
    return f;
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

  std::string unescape(TSNode n) const {
    std::string s = text(n);
    if (s.size() < 2) return s;
    switch (s[1]) {
    case 'n':
      return "\n";
    case 't':
      return "\t";
    case '\\':
      return "\\";
    case '\'':
      return "'";
    case '"':
      return "\"";
    case '0':
      return std::string(1, '\0');
    default:
      unsupported(n, "the escape sequence " + s);
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

// The module's imports, functions and constants from the tree of `text` (the source, or the
// source with a chunked body cut out).
Module read_module(std::shared_ptr<const SourceText> source, const Reader &reader, TSNode root);

// Adds what the top-level statements under root define to m.
void read_top_level(const Reader &reader, TSNode root, Module &m) {
  reader.check_syntax(root);
  for (TSNode n : children(root, true)) {
    if (is(n, "import_statement")) {
      for (TSNode name : field_children(n, "name")) {
        if (is(name, "aliased_import"))
          m.imports[reader.text(field(name, field_ids().alias))] =
              reader.text(field(name, field_ids().name));
        else {
          std::string dotted = reader.text(name);
          m.imports[dotted.substr(0, dotted.find('.'))] = dotted.substr(0, dotted.find('.'));
        }
      }
    } else if (is(n, "import_from_statement")) {
      std::string module = reader.text(field(n, field_ids().module_name));
      for (TSNode name : field_children(n, "name")) {
        if (is(name, "aliased_import"))
          m.imports[reader.text(field(name, field_ids().alias))] =
              module + "." + reader.text(field(name, field_ids().name));
        else
          m.imports[reader.text(name)] = module + "." + reader.text(name);
      }
    } else if (is(n, "future_import_statement")) {
      continue;
    } else if (is(n, "function_definition") || is(n, "decorated_definition")) {
      TSNode def = is(n, "decorated_definition") ? field(n, field_ids().definition) : n;
      if (!is(def, "function_definition")) reader.unsupported(def);
      Function f = reader.function(def);
      std::string name = f.name;
      m.functions[name] = std::move(f);
    } else if (is(n, "expression_statement")) {
      Stmt s = reader.stmt(n);
      if (s.kind == Stmt::Kind::Expr && s.value.kind == Expr::Kind::Str) continue; // a docstring
      if (s.kind != Stmt::Kind::Assign || s.targets.size() != 1 ||
          s.targets[0].kind != Expr::Kind::Name)
        reader.unsupported(n, "a module-level statement other than imports, functions and "
                              "NAME = constant");
      m.constants[s.targets[0].text] = s.value;
    } else {
      reader.unsupported(n, "a module-level " + construct_name(n));
    }
  }
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
          // Unless a later def of the same name replaced it.
          Function &f = m.functions.at(reader.text(field(def, field_ids().name)));
          Loc at = reader.loc(def);
          if (f.loc.line == at.line && f.loc.column == at.column) f.rest = rest;
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

} // namespace tracelint::tracer
