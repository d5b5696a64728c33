#include "tracelint/tracer/frontend.hpp"

#include "tracelint/core/blanked_comments.hpp"
#include "tracelint/core/chunking.hpp"
#include "tracelint/core/indentation.hpp"
#include "tracelint/core/lexing.hpp"
#include "tracelint/core/python_tree.hpp"
#include "tracelint/core/syntax_errors.hpp"
#include "tracelint/core/value.hpp"

#include <algorithm>
#include <memory>
#include <string_view>

namespace tracelint::tracer {

namespace {

using python::field;
using python::fields;
using python::is;
using python::symbols;

// Own-line comments reach tree-sitter as spaces (the frontend skips comments anyway): a run of
// them is quadratic in tree-sitter-python's scanner (16,000 comment lines in a body: 21 s).
// Null only when tree-sitter gave up (out of memory): the callers report that as an error.
python::Tree parse_python(const std::string &text) {
  // A parser per parse, as before: a thread_local one would live in the dynamic TLS of
  // libtracelint_torch.so (which links the tracer and is loaded with dlopen), whose entries
  // LeakSanitizer's scan of the main thread crashes on (`tracelint run` under make test-sanitize).
  python::Parser parser;
  std::vector<chunking::OwnLineComment> comments = chunking::own_line_comments(text);
  chunking::BlankedInput input(text, comments);
  try {
    return parser.parse(input.input());
  } catch (const std::runtime_error &) {
    return nullptr;
  }
}

// A readable name for a tree-sitter node type in error messages.
std::string construct_name(TSNode n) {
  std::string t = python::kind_name(n);
  for (char &c : t)
    if (c == '_') c = ' ';
  return t;
}

// CPython stops at 200 nested parentheses ("too many nested parentheses"); the frontend reads
// an expression with one call per level, and stops at the same depth.
constexpr int kMaxExpressionDepth = 200;

// The kinds of a sequence display or target: (a, b), [a, b], {a, b}, a, b.
bool is_sequence_kind(TSSymbol kind) {
  const python::Symbols &s = symbols();
  return kind == s.tuple || kind == s.expression_list || kind == s.list || kind == s.pattern_list ||
         kind == s.tuple_pattern || kind == s.list_pattern;
}

class Reader {
public:
  Reader(const std::string &text) : text_(text) {}
  // Reads a cut or prefixed text: rows from `from_row` on are `add_rows` further down the file.
  Reader(const std::string &text, uint32_t from_row, int64_t add_rows)
      : text_(text), from_row_(from_row), add_rows_(add_rows) {}
  Reader(const Reader &) = delete;
  Reader &operator=(const Reader &) = delete;

  // The named children, comments and line continuations left out (with the reader's cursor: a
  // new cursor allocates its stack).
  python::NodeList named(TSNode n) const { return cursor_.named_children(n); }

  Loc loc(TSNode n) const {
    TSPoint p = ts_node_start_point(n);
    int64_t row = p.row >= from_row_ ? p.row + add_rows_ : p.row;
    return Loc{static_cast<uint32_t>(row + 1), p.column + 1};
  }
  std::string text(TSNode n) const { return std::string(view(n)); }
  std::string_view view(TSNode n) const { return python::text_of(n, text_); }

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
      throw TraceError(loc(n), "syntax error: missing " + std::string(python::kind_name(n)));
    std::string near = text(n).substr(0, 40);
    near = near.substr(0, near.find('\n'));
    throw TraceError(loc(n), "syntax error near `" + near + "`" +
                                 (errors.front().hidden_missing
                                      ? " (a newline or an operator is missing before it)"
                                      : ""));
  }

  Expr expr(TSNode n) const {
    Nesting nesting(*this, n);
    const python::Symbols &s = symbols();
    TSSymbol kind = ts_node_symbol(n);
    if (kind == s.identifier) return leaf(n, Expr::Kind::Name, text(n));
    if (kind == s.integer || kind == s.float_) return number(n, kind == s.integer);
    if (kind == s.string) return string(n);
    if (kind == s.concatenated_string) return concatenated_string(n);
    if (kind == s.true_ || kind == s.false_) {
      Expr e = leaf(n, Expr::Kind::Bool);
      e.boolean = kind == s.true_;
      return e;
    }
    if (kind == s.none) return leaf(n, Expr::Kind::None);
    if (kind == s.ellipsis) return leaf(n, Expr::Kind::Ellipsis);
    if (kind == s.parenthesized_expression) {
      python::NodeList kids = named(n);
      if (kids.size() != 1) return unsupported(n);
      return expr(kids[0]);
    }
    if (is_sequence_kind(kind) || kind == s.set) return sequence(n, kind);
    if (kind == s.list_splat || kind == s.list_splat_pattern || kind == s.parenthesized_list_splat)
      return starred(n);
    if (kind == s.dictionary_splat) {
      Expr e = leaf(n, Expr::Kind::DoubleStarred);
      e.items.push_back(expr(first_of(named(n))));
      return e;
    }
    if (kind == s.dictionary) return dictionary(n);
    if (kind == s.attribute) {
      Expr e = leaf(n, Expr::Kind::Attribute, text(field(n, fields().attribute)));
      e.items.push_back(expr(field(n, fields().object)));
      return splat_outside(std::move(e));
    }
    if (kind == s.call) return splat_outside(call(n));
    if (kind == s.subscript) return splat_outside(subscript(n));
    if (kind == s.slice) return slice(n);
    if (kind == s.binary_operator) return chain<BinaryOp>(n, Expr::Kind::BinOp);
    if (kind == s.boolean_operator) return chain<BoolOp>(n, Expr::Kind::BoolOp);
    if (kind == s.unary_operator || kind == s.not_operator) return unary(n, kind);
    if (kind == s.comparison_operator) return comparison(n);
    if (kind == s.conditional_expression) return conditional(n);
    if (kind == s.lambda) return lambda(n);
    if (kind == s.list_comprehension || kind == s.set_comprehension ||
        kind == s.generator_expression || kind == s.dictionary_comprehension)
      return comprehension(n, kind);
    if (kind == s.named_expression) {
      Expr e = leaf(n, Expr::Kind::NamedExpr);
      e.items.push_back(expr(field(n, fields().name)));
      e.items.push_back(expr(field(n, fields().value)));
      return e;
    }
    if (kind == s.await) return unsupported(n, "await");
    if (kind == s.yield) {
      // yield, yield VALUE, yield A, B (a tuple), yield from ITERABLE.
      bool from = false;
      for (uint32_t i = 0; i < ts_node_child_count(n); ++i)
        from |= ts_node_symbol(ts_node_child(n, i)) == s.token_from;
      Expr e = leaf(n, from ? Expr::Kind::YieldFrom : Expr::Kind::Yield);
      e.items.push_back(ts_node_named_child_count(n) == 0 ? leaf(n, Expr::Kind::None)
                                                          : expr(ts_node_named_child(n, 0)));
      return e;
    }
    return unsupported(n);
  }

  std::vector<Stmt> block(TSNode n) const {
    std::vector<Stmt> out;
    for (TSNode c : named(n))
      out.push_back(stmt(c));
    return out;
  }

  Stmt stmt(TSNode n) const {
    const python::Symbols &s = symbols();
    TSSymbol kind = ts_node_symbol(n);
    if (kind == s.expression_statement) return expression_statement(n);
    if (kind == s.return_statement) {
      Stmt r = statement(n, Stmt::Kind::Return);
      python::NodeList kids = named(n);
      r.has_value = !kids.empty();
      if (r.has_value) r.value = expr(kids[0]);
      return r;
    }
    if (kind == s.pass_statement || kind == s.future_import_statement)
      return statement(n, Stmt::Kind::Pass);
    if (kind == s.break_statement) return statement(n, Stmt::Kind::Break);
    if (kind == s.continue_statement) return statement(n, Stmt::Kind::Continue);
    if (kind == s.if_statement) return if_statement(n);
    if (kind == s.for_statement) return for_statement(n);
    if (kind == s.while_statement) {
      Stmt w = statement(n, Stmt::Kind::While);
      w.value = expr(field(n, fields().condition));
      w.body = block(field(n, fields().body));
      w.orelse = else_block(n);
      return w;
    }
    if (kind == s.function_definition) return definition(n, {});
    if (kind == s.class_definition) return class_definition(n, {});
    if (kind == s.decorated_definition) return decorated_definition(n);
    if (kind == s.import_statement || kind == s.import_from_statement) return import(n, kind);
    if (kind == s.assert_statement) {
      Stmt a = statement(n, Stmt::Kind::Assert);
      python::NodeList kids = named(n);
      a.value = expr(first_of(kids));
      if (kids.size() > 1) a.exprs.push_back(expr(kids[1]));
      return a;
    }
    if (kind == s.raise_statement) return raise_statement(n);
    if (kind == s.try_statement) return try_statement(n);
    if (kind == s.with_statement) return with_statement(n);
    if (kind == s.delete_statement) return delete_statement(n);
    if (kind == s.global_statement || kind == s.nonlocal_statement) {
      Stmt g = statement(n, kind == s.global_statement ? Stmt::Kind::Global : Stmt::Kind::Nonlocal);
      for (TSNode c : named(n))
        g.names.push_back({text(c), ""});
      return g;
    }
    return unsupported_statement(n);
  }

  // An assignment target: a name, an attribute, a subscript, a starred target, or a tuple or
  // list of these. Anything else is an Unsupported expression (raised when assigned to).
  Expr target(TSNode n) const {
    const python::Symbols &s = symbols();
    TSSymbol kind = ts_node_symbol(n);
    if (kind == s.parenthesized_expression) {
      python::NodeList kids = named(n);
      if (kids.size() == 1) return target(kids[0]);
    }
    if (kind == s.identifier || kind == s.attribute || kind == s.subscript) return expr(n);
    if (is_sequence_kind(kind)) {
      Expr e =
          leaf(n, kind == s.list || kind == s.list_pattern ? Expr::Kind::List : Expr::Kind::Tuple);
      for (TSNode c : named(n))
        e.items.push_back(target(c));
      return e;
    }
    if (kind == s.list_splat_pattern || kind == s.list_splat) {
      Expr e = leaf(n, Expr::Kind::Starred);
      e.items.push_back(target(first_of(named(n))));
      return e;
    }
    return unsupported(n, "assignment to a " + construct_name(n));
  }

  // Reads a parameter list into `out`; an Unsupported expression for a parameter form the
  // tracer does not read.
  std::optional<Expr> parameters(TSNode list, std::vector<Param> &out) const {
    const python::Symbols &s = symbols();
    bool keyword_only = false;
    for (TSNode p : named(list)) {
      Param param;
      param.loc = loc(p);
      param.kind = keyword_only ? Param::Kind::KeywordOnly : Param::Kind::Positional;
      TSSymbol kind = ts_node_symbol(p);
      if (kind == s.typed_parameter) {
        // `x: T`, `*args: T`, `**kw: T`: read as the parameter without its annotation.
        p = first_of(named(p));
        kind = ts_node_symbol(p);
        if (kind != s.list_splat_pattern && kind != s.dictionary_splat_pattern) kind = s.identifier;
      }
      if (kind == s.identifier) {
        param.name = text(p);
      } else if (kind == s.default_parameter || kind == s.typed_default_parameter) {
        param.name = text(field(p, fields().name));
        param.default_value = expr(field(p, fields().value));
      } else if (kind == s.list_splat_pattern) {
        param.kind = Param::Kind::VarArgs;
        param.name = text(first_of(named(p)));
        keyword_only = true;
      } else if (kind == s.dictionary_splat_pattern) {
        param.kind = Param::Kind::VarKeywords;
        param.name = text(first_of(named(p)));
      } else if (kind == s.keyword_separator) {
        keyword_only = true;
        continue;
      } else if (kind == s.positional_separator) {
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
    Stmt s = statement(n, Stmt::Kind::Def);
    if (has_token(n, symbols().token_async)) return unsupported_statement(n, "async def");
    auto f = std::make_shared<FunctionDef>();
    f->loc = s.loc;
    f->name = text(field(n, fields().name));
    std::optional<Expr> bad = parameters(field(n, fields().parameters), f->params);
    TSNode body = field(n, fields().body);
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
    Stmt s = statement(n, Stmt::Kind::Class);
    auto c = std::make_shared<ClassDef>();
    c->loc = s.loc;
    c->name = text(field(n, fields().name));
    TSNode supers = field(n, fields().superclasses);
    if (!ts_node_is_null(supers)) {
      for (TSNode a : named(supers)) {
        if (is(a, symbols().keyword_argument)) {
          c->keywords.push_back(text(field(a, fields().name)));
          c->keyword_values.push_back(expr(field(a, fields().value)));
        } else {
          c->bases.push_back(expr(a));
        }
      }
    }
    c->body = block(field(n, fields().body));
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

  // An expression of a kind at n's place, its text (a name, an attribute) if any.
  Expr leaf(TSNode n, Expr::Kind kind, std::string text = "") const {
    Expr e;
    e.kind = kind;
    e.loc = loc(n);
    e.text = std::move(text);
    return e;
  }
  Stmt statement(TSNode n, Stmt::Kind kind) const {
    Stmt s;
    s.kind = kind;
    s.loc = loc(n);
    return s;
  }
  // An absent part (a slice's bound, a `with` without `as`): None at n's place.
  Expr none_at(Loc at) const {
    Expr none;
    none.kind = Expr::Kind::None;
    none.loc = at;
    return none;
  }

  // The first of nodes the grammar never leaves empty (std::out_of_range if it did).
  static TSNode first_of(const python::NodeList &nodes) {
    if (nodes.empty()) throw std::out_of_range("a node without the child the grammar gives it");
    return nodes[0];
  }

  // n's children, tokens included, comments and line continuations left out.
  python::NodeList tokens_and_children(TSNode n) const {
    const python::Symbols &s = symbols();
    python::NodeList out;
    for (TSNode c : cursor_.children(n)) {
      TSSymbol kind = ts_node_symbol(c);
      if (kind != s.comment && kind != s.line_continuation) out.push_back(c);
    }
    return out;
  }
  // One of n's own tokens is `token` (`async` before a def, `=` in f"{x=}").
  bool has_token(TSNode n, TSSymbol token) const {
    for (TSNode c : cursor_.children(n))
      if (!ts_node_is_named(c) && ts_node_symbol(c) == token) return true;
    return false;
  }

  // Whether a function body holds a yield outside nested functions, classes and lambdas.
  bool holds_yield(TSNode body) const {
    const python::Symbols &s = symbols();
    std::vector<TSNode> stack{body};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      TSSymbol kind = ts_node_symbol(n);
      if (kind == s.yield) return true;
      if (kind == s.function_definition || kind == s.class_definition || kind == s.lambda) continue;
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i)
        stack.push_back(ts_node_named_child(n, i));
    }
    return false;
  }

  Expr number(TSNode n, bool integer) const {
    std::optional<Value> v = parse_python_number(text(n), integer);
    if (!v) return unsupported(n, "an integer literal out of the 64-bit range: " + text(n));
    if (v->kind == ValueKind::Complex) return unsupported(n, "a complex literal");
    Expr e = leaf(n, v->kind == ValueKind::Int ? Expr::Kind::Int : Expr::Kind::Float);
    e.integer = v->integer;
    e.real = v->real;
    return e;
  }

  // "a" "b" f"{c}": one Str, or one FString when a part is formatted.
  Expr concatenated_string(TSNode n) const {
    Expr e = leaf(n, Expr::Kind::Str);
    bool formatted = false;
    std::vector<Expr> parts;
    for (TSNode c : named(n)) {
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
    return e;
  }

  // tree-sitter-python reads a splat that begins a display or an expression list, `[*f(x)]`,
  // `{*a.b}`, `for v in *t[0], 1:`, as a call, attribute or subscript of the splat, `(*f)(x)`;
  // Python's grammar applies them first, `*(f(x))`. A callee, object or base that is a splat
  // (which Python never has) moves out, a level at a time.
  static Expr splat_outside(Expr e) {
    if (e.items.empty() || e.items[0].kind != Expr::Kind::Starred) return e;
    Expr star = std::move(e.items[0]);
    e.items[0] = std::move(star.items[0]);
    star.items[0] = std::move(e);
    return star;
  }

  // A tuple, list or set display (or target list read as a value).
  Expr sequence(TSNode n, TSSymbol kind) const {
    const python::Symbols &s = symbols();
    Expr e = leaf(n, kind == s.set                                ? Expr::Kind::Set
                     : (kind == s.list || kind == s.list_pattern) ? Expr::Kind::List
                                                                  : Expr::Kind::Tuple);
    for (TSNode c : named(n))
      e.items.push_back(expr(c));
    return e;
  }

  Expr starred(TSNode n) const {
    python::NodeList kids = named(n);
    if (kids.size() != 1) return unsupported(n);
    Expr e = leaf(n, Expr::Kind::Starred);
    e.items.push_back(expr(kids[0]));
    return e;
  }

  Expr dictionary(TSNode n) const {
    const python::Symbols &s = symbols();
    Expr e = leaf(n, Expr::Kind::Dict);
    for (TSNode c : named(n)) {
      if (is(c, s.pair)) {
        e.items.push_back(expr(field(c, fields().key)));
        e.items.push_back(expr(field(c, fields().value)));
      } else if (is(c, s.dictionary_splat)) {
        e.items.push_back(expr(c));
        Expr none; // the value slot of a **d entry (Expr's default kind is None)
        none.loc = loc(c);
        e.items.push_back(std::move(none));
      } else {
        return unsupported(c);
      }
    }
    return e;
  }

  Expr call(TSNode n) const {
    const python::Symbols &s = symbols();
    Expr e = leaf(n, Expr::Kind::Call);
    e.items.push_back(expr(field(n, fields().function)));
    TSNode args = field(n, fields().arguments);
    if (is(args, s.generator_expression)) {
      e.items.push_back(expr(args));
      return e;
    }
    std::vector<std::pair<std::string, Expr>> kwargs;
    for (TSNode a : named(args)) {
      if (is(a, s.keyword_argument)) {
        kwargs.emplace_back(text(field(a, fields().name)), expr(field(a, fields().value)));
      } else if (is(a, s.dictionary_splat)) {
        kwargs.emplace_back("**", expr(first_of(named(a))));
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
    return e;
  }

  // x[i], or x[i, j] with the indices as one tuple.
  Expr subscript(TSNode n) const {
    Expr e = leaf(n, Expr::Kind::Subscript);
    e.items.push_back(expr(field(n, fields().value)));
    python::NodeList indices = cursor_.field_children(n, fields().subscript);
    bool comma = has_token(n, symbols().token_comma);
    if (indices.size() == 1 && !comma) {
      e.items.push_back(expr(indices[0]));
      return e;
    }
    Expr index = leaf(first_of(indices), Expr::Kind::Tuple);
    for (TSNode c : indices)
      index.items.push_back(expr(c));
    e.items.push_back(std::move(index));
    return e;
  }

  // start:stop:step, each part None where absent.
  Expr slice(TSNode n) const {
    Expr e = leaf(n, Expr::Kind::Slice);
    Expr none = none_at(e.loc);
    e.items = {none, none, none};
    std::size_t part = 0;
    for (TSNode c : tokens_and_children(n)) {
      if (!ts_node_is_named(c)) {
        if (is(c, symbols().token_colon)) ++part;
        continue;
      }
      if (part > 2) return unsupported(c);
      e.items[part] = expr(c);
    }
    return e;
  }

  Expr unary(TSNode n, TSSymbol kind) const {
    Expr e = leaf(n, Expr::Kind::UnaryOp);
    if (kind == symbols().not_operator) {
      e.unary_op = UnaryOp::not_;
    } else {
      TSNode op = field(n, fields().operator_);
      std::optional<UnaryOp> known = operator_spelled<UnaryOp>(view(op));
      if (!known) return unsupported(op, "the unary operator " + text(op));
      e.unary_op = *known;
    }
    e.items.push_back(expr(field(n, fields().argument)));
    return e;
  }

  // a < b <= c: the operands in items, the operator between each pair in ops ("not in" and
  // "is not" are two tokens).
  Expr comparison(TSNode n) const {
    Expr e = leaf(n, Expr::Kind::Compare);
    std::vector<std::string> spelled;
    std::string pending;
    for (TSNode c : tokens_and_children(n)) {
      if (ts_node_is_named(c)) {
        if (!pending.empty()) {
          spelled.push_back(std::move(pending));
          pending.clear();
        }
        e.items.push_back(expr(c));
      } else {
        pending += pending.empty() ? text(c) : " " + text(c);
      }
    }
    std::vector<CompareOp> ops;
    for (const std::string &op : spelled) {
      std::optional<CompareOp> known = operator_spelled<CompareOp>(op);
      if (!known) return unsupported(n, "the `" + op + "` comparison");
      ops.push_back(*known);
    }
    e.ops = std::move(ops);
    return e;
  }

  Expr conditional(TSNode n) const {
    Expr e = leaf(n, Expr::Kind::IfExp);
    for (TSNode c : named(n))
      e.items.push_back(expr(c));
    if (e.items.size() != 3) return unsupported(n);
    return e;
  }

  Expr lambda(TSNode n) const {
    Expr e = leaf(n, Expr::Kind::Lambda);
    auto f = std::make_shared<FunctionDef>();
    f->name = "<lambda>";
    f->loc = e.loc;
    TSNode params = field(n, fields().parameters);
    if (!ts_node_is_null(params)) {
      std::optional<Expr> bad = parameters(params, f->params);
      if (bad) return *bad;
    }
    TSNode body = field(n, fields().body);
    Stmt ret = statement(body, Stmt::Kind::Return);
    ret.value = expr(body);
    f->body.push_back(std::move(ret));
    e.function = std::move(f);
    return e;
  }

  Expr comprehension(TSNode n, TSSymbol kind) const {
    const python::Symbols &s = symbols();
    Expr e = leaf(n, kind == s.list_comprehension     ? Expr::Kind::ListComp
                     : kind == s.set_comprehension    ? Expr::Kind::SetComp
                     : kind == s.generator_expression ? Expr::Kind::GeneratorExp
                                                      : Expr::Kind::DictComp);
    TSNode body = field(n, fields().body);
    if (e.kind == Expr::Kind::DictComp) {
      e.items.push_back(expr(field(body, fields().key)));
      e.items.push_back(expr(field(body, fields().value)));
    } else {
      e.items.push_back(expr(body));
    }
    auto generators = std::make_shared<std::vector<CompFor>>();
    for (TSNode c : named(n)) {
      if (is(c, s.for_in_clause)) {
        if (has_token(c, s.token_async)) return unsupported(c, "an async comprehension");
        generators->push_back(for_in_clause(c));
      } else if (is(c, s.if_clause)) {
        if (generators->empty()) return unsupported(c);
        generators->back().ifs.push_back(expr(first_of(named(c))));
      }
    }
    e.generators = std::move(generators);
    return e;
  }

  // `for target in iter` of a comprehension; `in a, b` iterates over the tuple.
  CompFor for_in_clause(TSNode c) const {
    CompFor g;
    g.target = target(field(c, fields().left));
    python::NodeList right = cursor_.field_children(c, fields().right);
    if (right.size() == 1) {
      g.iter = expr(right[0]);
      return g;
    }
    g.iter = leaf(first_of(right), Expr::Kind::Tuple);
    for (TSNode r : right)
      g.iter.items.push_back(expr(r));
    return g;
  }

  // A string literal: its prefix says raw, bytes or formatted.
  Expr string(TSNode n) const {
    const python::Symbols &s = symbols();
    python::StringLiteral prefix;
    python::NodeList parts = named(n);
    for (TSNode c : parts) {
      if (!is(c, s.string_start)) continue;
      for (char ch : view(c)) {
        if (ch == 'r' || ch == 'R') prefix.raw = true;
        if (ch == 'f' || ch == 'F') prefix.formatted = true;
        if (ch == 'b' || ch == 'B') return unsupported(n, "a bytes literal");
      }
    }
    Expr e = leaf(n, prefix.formatted ? Expr::Kind::FString : Expr::Kind::Str);
    std::string pending;
    auto flush = [&] {
      if (!prefix.formatted || pending.empty()) return;
      e.items.push_back(leaf(n, Expr::Kind::Str, std::move(pending)));
      pending.clear();
    };
    for (TSNode c : parts) {
      if (is(c, s.string_content)) {
        python::DecodedString decoded = python::decode_string_body(view(c), prefix);
        if (!decoded) return undecodable(c, decoded.problem);
        pending += decoded.literal->value;
      } else if (is(c, s.interpolation)) {
        flush();
        e.items.push_back(interpolation(c));
      }
    }
    if (prefix.formatted)
      flush();
    else
      e.text = std::move(pending);
    return e;
  }

  // A piece of a string the tracer cannot hold (\N{...}, a lone surrogate) or CPython rejects
  // (a truncated \x): Unsupported at the escape sequence, named by its text.
  Expr undecodable(TSNode content, const python::StringLiteralProblem &problem) const {
    uint32_t at = ts_node_start_byte(content) + static_cast<uint32_t>(problem.offset);
    TSNode escape = ts_node_descendant_for_byte_range(content, at, at + 1);
    if (is(escape, symbols().escape_sequence))
      return unsupported(escape, "the escape sequence " + text(escape));
    return unsupported(content, problem.message);
  }

  Expr interpolation(TSNode n) const {
    Expr v = leaf(n, Expr::Kind::FormattedValue);
    TSNode value = field(n, fields().expression);
    v.items.push_back(expr(value));
    TSNode conversion = field(n, fields().type_conversion);
    if (!ts_node_is_null(conversion)) v.text = text(conversion).substr(1);
    TSNode spec = field(n, fields().format_specifier);
    if (!ts_node_is_null(spec)) v.items.push_back(format_spec(spec));
    // f"{x=}": the expression's text, then its repr.
    for (TSNode c : cursor_.children(n))
      if (!ts_node_is_named(c) && is(c, symbols().token_equals)) {
        Expr fstring = leaf(n, Expr::Kind::FString);
        uint32_t begin = ts_node_start_byte(value);
        fstring.items.push_back(
            leaf(n, Expr::Kind::Str, text_.substr(begin, ts_node_end_byte(c) - begin)));
        if (v.text.empty() && v.items.size() == 1) v.text = "r";
        fstring.items.push_back(std::move(v));
        return fstring;
      }
    return v;
  }

  // A format spec is an f-string itself: its literal text and its nested {fields}.
  Expr format_spec(TSNode spec) const {
    Expr format = leaf(spec, Expr::Kind::FString);
    uint32_t at = ts_node_start_byte(spec) + 1; // after the ':'
    auto literal = [&](uint32_t end) {
      if (end <= at) return;
      Expr part;
      part.kind = Expr::Kind::Str;
      part.loc = format.loc;
      part.text = text_.substr(at, end - at);
      format.items.push_back(std::move(part));
    };
    for (TSNode c : named(spec)) {
      if (!is(c, symbols().format_expression)) continue;
      literal(ts_node_start_byte(c));
      Expr nested = leaf(c, Expr::Kind::FormattedValue);
      nested.items.push_back(expr(field(c, fields().expression)));
      format.items.push_back(std::move(nested));
      at = ts_node_end_byte(c);
    }
    literal(ts_node_end_byte(spec));
    return format;
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
    TSSymbol kind = ts_node_symbol(n);
    TSNode left = n;
    while (is(left, kind)) {
      chain.operators.push_back(field(left, fields().operator_));
      chain.operands.push_back(field(left, fields().right));
      left = field(left, fields().left);
    }
    chain.first = left;
    std::reverse(chain.operators.begin(), chain.operators.end());
    std::reverse(chain.operands.begin(), chain.operands.end());
    return chain;
  }
  // A chain of binary (Op: BinaryOp) or boolean (BoolOp) operators as one Expr: its operands in
  // items, the operator between each pair in ops.
  template <class Op> Expr chain(TSNode n, Expr::Kind kind) const {
    Expr e = leaf(n, kind);
    LeftChain chain = left_chain(n);
    std::vector<Op> ops;
    ops.reserve(chain.operators.size());
    for (TSNode op : chain.operators) {
      std::optional<Op> known = operator_spelled<Op>(view(op));
      if (!known) return unsupported(op, "the operator " + text(op));
      ops.push_back(*known);
    }
    e.ops = std::move(ops);
    e.items.reserve(chain.operands.size() + 1);
    e.items.push_back(expr(chain.first));
    for (TSNode operand : chain.operands)
      e.items.push_back(expr(operand));
    return e;
  }

  // A statement of one expression, an assignment or an augmented assignment.
  Stmt expression_statement(TSNode n) const {
    const python::Symbols &s = symbols();
    Stmt out = statement(n, Stmt::Kind::Expr);
    python::NodeList kids = named(n);
    if (kids.size() != 1) {
      // `a, b` as a statement: a tuple expression.
      out.value = leaf(n, Expr::Kind::Tuple);
      for (TSNode k : kids)
        out.value.items.push_back(expr(k));
      return out;
    }
    TSNode inner = kids[0];
    if (is(inner, s.assignment)) return assignment(n, inner);
    if (is(inner, s.augmented_assignment)) {
      out.kind = Stmt::Kind::AugAssign;
      TSNode op = field(inner, fields().operator_);
      std::string_view spelled = view(op); // "+=": the binary operator, then "="
      std::optional<BinaryOp> known =
          operator_spelled<BinaryOp>(spelled.substr(0, spelled.size() - 1));
      if (!known) return unsupported_statement(op, "the augmented assignment " + text(op));
      out.op = *known;
      out.targets.push_back(target(field(inner, fields().left)));
      out.value = expr(field(inner, fields().right));
      return out;
    }
    out.value = expr(inner);
    return out;
  }

  // a = b = value, or an annotated x: T [= value].
  Stmt assignment(TSNode statement_node, TSNode inner) const {
    const python::Symbols &s = symbols();
    Stmt out = statement(statement_node, Stmt::Kind::Assign);
    TSNode annotation = field(inner, fields().type);
    if (!ts_node_is_null(annotation)) {
      // x: T = v (the annotation is not evaluated: Python evaluates it, but nothing the
      // tracer runs reads it; a dataclass field is found by its name).
      out.kind = Stmt::Kind::AnnAssign;
      out.targets.push_back(target(field(inner, fields().left)));
      TSNode right = field(inner, fields().right);
      out.has_value = !ts_node_is_null(right);
      if (out.has_value) out.value = expr(right);
      out.text = text(annotation);
      return out;
    }
    TSNode cur = inner;
    while (true) {
      out.targets.push_back(target(field(cur, fields().left)));
      TSNode right = field(cur, fields().right);
      if (ts_node_is_null(right)) return unsupported_statement(cur);
      if (is(right, s.assignment)) {
        if (!ts_node_is_null(field(right, fields().type))) return unsupported_statement(right);
        cur = right;
        continue;
      }
      if (is(right, s.augmented_assignment)) return unsupported_statement(right);
      out.value = expr(right);
      return out;
    }
  }

  // The block of n's `else:` clause (for, while), or none.
  std::vector<Stmt> else_block(TSNode n) const {
    TSNode alt = field(n, fields().alternative);
    if (ts_node_is_null(alt)) return {};
    return block(field(alt, fields().body));
  }

  Stmt if_statement(TSNode n) const {
    Stmt s = statement(n, Stmt::Kind::If);
    s.value = expr(field(n, fields().condition));
    s.body = block(field(n, fields().consequence));
    for (TSNode alt : cursor_.field_children(n, fields().alternative)) {
      if (is(alt, symbols().elif_clause)) {
        Stmt clause = statement(alt, Stmt::Kind::If);
        clause.value = expr(field(alt, fields().condition));
        clause.body = block(field(alt, fields().consequence));
        s.elifs.push_back(std::move(clause));
      } else {
        s.orelse = block(field(alt, fields().body));
      }
    }
    return s;
  }

  Stmt for_statement(TSNode n) const {
    Stmt s = statement(n, Stmt::Kind::For);
    if (has_token(n, symbols().token_async)) return unsupported_statement(n, "async for");
    s.targets.push_back(target(field(n, fields().left)));
    s.value = expr(field(n, fields().right));
    s.body = block(field(n, fields().body));
    s.orelse = else_block(n);
    return s;
  }

  Stmt decorated_definition(TSNode n) const {
    const python::Symbols &s = symbols();
    std::vector<Expr> decorators;
    for (TSNode c : named(n))
      if (is(c, s.decorator)) decorators.push_back(expr(first_of(named(c))));
    TSNode def = field(n, fields().definition);
    if (is(def, s.function_definition)) return definition(def, std::move(decorators));
    if (is(def, s.class_definition)) return class_definition(def, std::move(decorators));
    return unsupported_statement(def);
  }

  // import a.b as c, d / from m import a as b, *
  Stmt import(TSNode n, TSSymbol kind) const {
    const python::Symbols &s = symbols();
    bool from = kind == s.import_from_statement;
    Stmt out = statement(n, from ? Stmt::Kind::ImportFrom : Stmt::Kind::Import);
    if (from) out.text = text(field(n, fields().module_name));
    for (TSNode name : cursor_.field_children(n, fields().name)) {
      if (is(name, s.aliased_import))
        out.names.push_back({text(field(name, fields().name)), text(field(name, fields().alias))});
      else
        out.names.push_back({text(name), ""});
    }
    if (from)
      for (TSNode c : named(n))
        if (is(c, s.wildcard_import)) out.names.push_back({"*", ""});
    return out;
  }

  // raise [exc [from cause]]
  Stmt raise_statement(TSNode n) const {
    Stmt s = statement(n, Stmt::Kind::Raise);
    TSNode cause = field(n, fields().cause);
    s.has_value = false;
    for (TSNode k : named(n)) {
      if (!ts_node_is_null(cause) && ts_node_eq(k, cause)) {
        s.exprs.push_back(expr(k));
      } else if (!s.has_value) {
        s.value = expr(k);
        s.has_value = true;
      }
    }
    return s;
  }

  Stmt try_statement(TSNode n) const {
    const python::Symbols &sym = symbols();
    Stmt s = statement(n, Stmt::Kind::Try);
    s.body = block(field(n, fields().body));
    for (TSNode c : named(n)) {
      if (is(c, sym.except_clause)) {
        s.handlers.push_back(except_clause(c));
      } else if (is(c, sym.except_group_clause)) {
        return unsupported_statement(c, "except*");
      } else if (is(c, sym.else_clause)) {
        s.orelse = block(field(c, fields().body));
      } else if (is(c, sym.finally_clause)) {
        for (TSNode b : named(c))
          if (is(b, sym.block)) s.finalbody = block(b);
      }
    }
    return s;
  }

  ExceptHandler except_clause(TSNode c) const {
    const python::Symbols &s = symbols();
    ExceptHandler h;
    h.loc = loc(c);
    TSNode value = field(c, fields().value);
    TSNode alias = field(c, fields().alias);
    if (!ts_node_is_null(value)) {
      if (is(value, s.as_pattern)) {
        // except E as e (older grammar spelling)
        h.type = expr(first_of(named(value)));
        TSNode target = field(value, fields().alias);
        if (!ts_node_is_null(target)) h.name = text(target);
      } else {
        h.type = expr(value);
      }
    }
    if (!ts_node_is_null(alias)) h.name = text(alias);
    for (TSNode b : named(c))
      if (is(b, s.block)) h.body = block(b);
    return h;
  }

  // with a as x, b: body (the context managers in exprs, their targets or None in targets).
  Stmt with_statement(TSNode n) const {
    const python::Symbols &sym = symbols();
    Stmt s = statement(n, Stmt::Kind::With);
    if (has_token(n, sym.token_async)) return unsupported_statement(n, "async with");
    for (TSNode clause : named(n)) {
      if (!is(clause, sym.with_clause)) continue;
      for (TSNode item : named(clause)) {
        TSNode value = field(item, fields().value);
        Expr none; // Expr's default kind is None
        none.loc = loc(item);
        if (is(value, sym.as_pattern)) {
          s.exprs.push_back(expr(first_of(named(value))));
          python::NodeList alias = named(field(value, fields().alias));
          s.targets.push_back(alias.size() == 1 ? target(alias[0]) : none);
        } else {
          s.exprs.push_back(expr(value));
          s.targets.push_back(none);
        }
      }
    }
    s.body = block(field(n, fields().body));
    return s;
  }

  Stmt delete_statement(TSNode n) const {
    const python::Symbols &sym = symbols();
    Stmt s = statement(n, Stmt::Kind::Delete);
    TSNode what = first_of(named(n));
    if (is(what, sym.expression_list) || is(what, sym.tuple))
      for (TSNode t : named(what))
        s.targets.push_back(target(t));
    else
      s.targets.push_back(target(what));
    return s;
  }

  const std::string &text_;
  uint32_t from_row_ = UINT32_MAX;
  int64_t add_rows_ = 0;
  mutable python::NodeCursor cursor_; // one for every walk (a new cursor allocates its stack)
  mutable int depth_ = 0;             // expr calls on the stack
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
  for (TSNode n : reader.named(root))
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
      python::Tree tree = parse_python(text);
      if (!tree) throw TraceError(Loc{}, "tree-sitter returned no tree");
      Reader reader(text, 1, static_cast<int64_t>(start_rows[i]) - 1);
      TSNode root = ts_tree_root_node(tree.get());
      reader.check_syntax(root);
      python::NodeList defs = reader.named(root);
      if (defs.size() != 1 || !is(defs[0], symbols().function_definition))
        throw TraceError(Loc{}, "the chunk is not one body");
      part.body = reader.block(field(defs[0], fields().body));
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
      python::Tree tree = parse_python(piece);
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
        python::Tree tree = parse_python(source->text());
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
        python::Tree tree = parse_python(cut);
        if (!tree) return Error{"tree-sitter returned no tree", path, 0, 0};
        uint32_t hole_row = row_of(*source, hole_at);
        Reader reader(cut, hole_row, row_of(*source, hole_end) - hole_row);
        TSNode root = ts_tree_root_node(tree.get());
        Module m = read_module(source, reader, root);
        for (TSNode n : reader.named(root)) {
          TSNode def = is(n, symbols().decorated_definition) ? field(n, fields().definition) : n;
          if (!is(def, symbols().function_definition) ||
              ts_node_start_byte(def) != chunks->def_offset)
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
        python::Tree tree = parse_python(text);
        if (!tree) return Error{"tree-sitter returned no tree", "", 0, 0};
        Reader reader(text);
        TSNode root = ts_tree_root_node(tree.get());
        try {
          reader.check_syntax(root);
        } catch (const TraceError &e) {
          throw TraceError(Loc{e.loc.line, e.loc.column > 1 ? e.loc.column - 1 : 1}, e.what());
        }
        python::NodeList stmts = reader.named(root);
        if (stmts.size() != 1 || !is(stmts[0], symbols().expression_statement))
          return Error{"not a single Python expression", "", 1, 1};
        python::NodeList kids = reader.named(stmts[0]);
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
        python::Tree tree = parse_python(text);
        if (!tree) return Error{"tree-sitter returned no tree", "", 0, 0};
        Reader reader(text);
        TSNode root = ts_tree_root_node(tree.get());
        reader.check_syntax(root);
        python::NodeList defs = reader.named(root);
        if (defs.size() != 1 || !is(defs[0], symbols().function_definition))
          return Error{"not a parameter list", "", 1, 1};
        std::vector<Param> params;
        if (std::optional<Expr> bad =
                reader.parameters(field(defs[0], fields().parameters), params))
          return Error{"unsupported parameter: " + bad->text, "", 1, 1};
        return params;
      },
      "");
}

} // namespace tracelint::tracer
