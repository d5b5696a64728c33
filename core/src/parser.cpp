#include "tracelint/core/parser.hpp"

#include "tracelint/core/escape.hpp"
#include "tracelint/core/message_text.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/core/python_tree.hpp"
#include "tracelint/core/type_string.hpp"

#include "tracelint/core/blanked_comments.hpp"
#include "tracelint/core/chunking.hpp"
#include "tracelint/core/indentation.hpp"
#include "tracelint/core/lexing.hpp"
#include "tracelint/core/parse_options.hpp"
#include "tracelint/core/syntax_errors.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

namespace tracelint {

namespace {

using lexing::is_word;

constexpr unsigned kMaxDepth = 400; // deeper values are reported, not recursed into
constexpr std::size_t kMaxSubsymbolNesting = 100;
// Longer lines are reported, not parsed: tree-sitter's tree and the model of a line of list
// items are about 200 times its size.
constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

const std::string kNoSignature = "# No signature available";
// Same length as kNoSignature, so every offset after it stays where it was.
const std::string kNoSignatureDef = "def _(*args, **kwargs): ";

using chunking::BodyChunks;
using chunking::EditedText;
using chunking::has_triple_quote;
using chunking::track_brackets;

using chunking::BlankedInput;
using chunking::own_line_comments;
using chunking::OwnLineComment;
using python::field;
using python::is;
using python::NodeCursor;
using python::NodeList;

const python::Symbols &S = python::symbols();
const python::Fields &F = python::fields();

// What each thread that parses keeps from one parse to the next: tree-sitter's buffers and a
// cursor's stack.
struct ParseState {
  python::Parser parser;
  NodeCursor cursor;
};

python::Tree parse_python(ParseState &state, const std::string &text,
                          const std::vector<OwnLineComment> &blanked = {}) {
  BlankedInput input(text, blanked);
  return state.parser.parse(input.input());
}

// Statements, clauses, blocks and the module: the nodes that can hold a comment while they lie
// on one row (`def f(): x = 1  # c` is one row; a block's dedent comes after its comment).
const std::vector<bool> &statement_level_symbols() {
  static const std::vector<bool> table = [] {
    const TSLanguage *language = tree_sitter_python();
    std::vector<bool> out(ts_language_symbol_count(language));
    for (TSSymbol i = 0; i < out.size(); ++i) {
      std::string_view name = ts_language_symbol_name(language, i);
      auto ends_with = [&](std::string_view suffix) {
        return name.size() >= suffix.size() && name.substr(name.size() - suffix.size()) == suffix;
      };
      out[i] = name == "module" || name == "block" || ends_with("_statement") ||
               ends_with("_definition") || ends_with("_clause");
    }
    return out;
  }();
  return table;
}

// Comments anywhere below root, in source order. An expression on one row holds none: a comment
// runs to the end of its row, and tree-sitter moves the comments that trail an expression out of
// it. So only statement-level nodes, nodes over several rows and nodes with a syntax error (kept
// as tree-sitter found them) are searched.
void collect_comments(NodeCursor &cursor, TSNode root, std::vector<TSNode> &out,
                      bool below_every_node = false) {
  const std::vector<bool> &statement_level = statement_level_symbols();
  cursor.walk(root, [&](TSNode n) {
    TSSymbol symbol = ts_node_symbol(n);
    if (symbol == S.comment) {
      out.push_back(n);
      return false;
    }
    return below_every_node || ts_node_start_point(n).row != ts_node_end_point(n).row ||
           (symbol < statement_level.size() && statement_level[symbol]) || ts_node_has_error(n);
  });
}

// Where the bytes and rows of a parsed text (the file with `prefix_len` bytes inserted in front,
// `skipped` bytes dropped from its start, and `hole_len` bytes cut out at parsed offset
// `hole_at`) are in the file. With rows known, a node's lines and columns come from its
// tree-sitter points, not from a search of the file's line index.
struct TextMap {
  uint32_t prefix_len = 0, skipped = 0, hole_at = UINT32_MAX, hole_len = 0;
  bool rows_known = false;
  int64_t line_shift = 0, line_shift_after_hole = 0; // file line = row + shift
  uint32_t hole_row = UINT32_MAX;
  uint32_t first_row = 0, first_row_columns = 0; // bytes dropped before the first row's text

  uint32_t file(uint32_t o) const {
    uint32_t f = o < prefix_len ? skipped : o - prefix_len + skipped;
    return o >= hole_at ? f + hole_len : f;
  }
  uint32_t line(uint32_t row) const {
    return static_cast<uint32_t>(row + (row >= hole_row ? line_shift_after_hole : line_shift));
  }
  uint32_t column(TSPoint p) const {
    return p.column + 1 + (p.row == first_row ? first_row_columns : 0);
  }

  // Learns the rows from the file's line index (the parsed text's rows end where the file's
  // lines do: a lone "\r" reaches tree-sitter as "\n").
  void find_rows(const std::string &parsed, const SourceText &source) {
    auto newlines = [&](uint32_t end) {
      return static_cast<uint32_t>(std::count(parsed.begin(), parsed.begin() + end, '\n'));
    };
    first_row = newlines(std::min<uint32_t>(prefix_len, static_cast<uint32_t>(parsed.size())));
    Span start = source.span(file(prefix_len), file(prefix_len));
    line_shift = int64_t{start.line} - first_row;
    first_row_columns = start.column - 1;
    line_shift_after_hole = line_shift;
    if (hole_at != UINT32_MAX && hole_at <= parsed.size()) {
      hole_row = newlines(hole_at);
      line_shift_after_hole = int64_t{source.span(file(hole_at), file(hole_at)).line} - hole_row;
    }
    rows_known = true;
  }
};

// A parsed text (the file itself, or the contents of subsymbol comments) and how its byte
// offsets map back into the file.
class View {
public:
  // text: what the nodes' byte offsets index (tree-sitter's view of it may differ in blanks).
  View(std::string_view text, const SourceText &source, ParsedFile &out, NodeCursor &cursor,
       std::function<uint32_t(uint32_t)> to_file)
      : text_(text), source_(source), out_(out), cursor_(cursor), to_file_(std::move(to_file)) {}
  // A text mapped by `map`; `shift`: the nodes are read `shift` bytes to the left of where
  // they are in the text, on their row (an injected subsymbol line).
  View(std::string_view text, const SourceText &source, ParsedFile &out, NodeCursor &cursor,
       const TextMap &map, uint32_t shift = 0)
      : text_(text.substr(shift)), source_(source), out_(out), cursor_(cursor), map_(&map),
        shift_(shift) {}

  std::string text(TSNode n) const { return text(ts_node_start_byte(n), end_byte(n)); }
  std::string text(uint32_t begin, uint32_t end) const {
    return std::string(text_.substr(begin, end - begin));
  }
  std::string_view text_view(TSNode n) const {
    uint32_t begin = ts_node_start_byte(n);
    return text_.substr(begin, end_byte(n) - begin);
  }
  NodeList named_children(TSNode n) const { return cursor_.named_children(n); }
  Span span(TSNode n) const {
    uint32_t begin = ts_node_start_byte(n), end = end_byte(n);
    if (!map_ || !map_->rows_known || begin + shift_ < map_->prefix_len) return span(begin, end);
    Span s;
    s.begin = file_offset(begin);
    s.end = file_offset(end);
    TSPoint a = ts_node_start_point(n), b = ts_node_end_point(n);
    s.line = map_->line(a.row);
    s.column = map_->column(a) + shift_;
    s.end_line = map_->line(b.row);
    s.end_column = map_->column(b) + shift_ - (ts_node_end_byte(n) - end); // a comment's "\r"
    return s;
  }
  Span span(uint32_t begin, uint32_t end) const {
    return source_.span(file_offset(begin), file_offset(end));
  }
  // [begin, end) on one row, `begin` at point `at`.
  Span span_on_row(uint32_t begin, uint32_t end, TSPoint at) const {
    if (!map_ || !map_->rows_known || begin + shift_ < map_->prefix_len) return span(begin, end);
    Span s;
    s.begin = file_offset(begin);
    s.end = file_offset(end);
    s.line = s.end_line = map_->line(at.row);
    s.column = map_->column(at) + shift_;
    s.end_column = s.column + (end - begin);
    return s;
  }
  uint32_t file_offset(uint32_t offset) const {
    return map_ ? map_->file(offset + shift_) : to_file_(offset);
  }

  // Records that the model cannot represent n, and returns nullopt for chaining.
  std::nullopt_t unmodelled(TSNode n, const std::string &what) const {
    return unmodelled(span(n), what, python::kind_name(n));
  }
  std::nullopt_t unmodelled(Span where, const std::string &what, std::string form = "") const {
    if (!failed_) {
      out_.model.push_back({where, what, "", false, std::move(form)});
      failed_ = true;
    }
    return std::nullopt;
  }
  void reset_failure() const { failed_ = false; }

  std::optional<Value> value(TSNode n, unsigned depth = 0) const;
  std::optional<Target> target(TSNode n, unsigned depth = 0) const;
  std::optional<Statement> statement(TSNode n) const;
  std::optional<std::string> string_literal(TSNode n) const;

private:
  // tree-sitter-python's comment runs to the "\n", taking the "\r" of a "\r\n" ending.
  uint32_t end_byte(TSNode n) const {
    uint32_t end = ts_node_end_byte(n);
    if (end > ts_node_start_byte(n) && text_[end - 1] == '\r' && is(n, S.comment)) --end;
    return end;
  }
  std::optional<Value> call(TSNode n, unsigned depth) const;
  std::optional<Value> number(TSNode n, bool negative) const;

  std::string_view text_;
  const SourceText &source_;
  ParsedFile &out_;
  NodeCursor &cursor_;
  std::function<uint32_t(uint32_t)> to_file_; // without a map
  const TextMap *map_ = nullptr;
  uint32_t shift_ = 0;
  mutable bool failed_ = false;
};

std::optional<std::string> View::string_literal(TSNode n) const {
  if (!is(n, S.string)) return unmodelled(n, "expected a string literal");
  python::DecodedString decoded = python::decode_string_literal(text_view(n));
  if (!decoded) {
    const python::StringLiteralProblem &problem = decoded.problem;
    if (!problem.invalid_python)
      return unmodelled(n, "a string literal the model cannot hold: " + problem.message);
    uint32_t at = ts_node_start_byte(n) + static_cast<uint32_t>(problem.offset);
    out_.syntax.push_back({span(at, at + 1), "invalid string literal: " + problem.message});
    return std::nullopt;
  }
  python::StringLiteral &literal = *decoded.literal;
  if (literal.formatted) return unmodelled(n, "an f-string is not a trace value");
  if (literal.bytes) return unmodelled(n, "a bytes literal is not a trace value");
  return std::move(literal.value);
}

std::optional<Value> View::number(TSNode n, bool negative) const {
  if (negative && is(n, S.integer) && !text_view(n).ends_with('j') &&
      !text_view(n).ends_with('J')) {
    std::optional<Value> v = parse_negated_integer(text_view(n));
    if (!v)
      return unmodelled(n, "the integer -" +
                               (text(n).size() > 24 ? text(n).substr(0, 20) + "..." : text(n)) +
                               " does not fit in 64 bits");
    return v;
  }
  std::optional<Value> v = parse_python_number(text_view(n), is(n, S.integer));
  if (!v)
    return unmodelled(n, "the integer " +
                             (text(n).size() > 24 ? text(n).substr(0, 20) + "..." : text(n)) +
                             " does not fit in 64 bits");
  if (negative) {
    if (v->kind == ValueKind::Int)
      v->integer = -v->integer;
    else if (v->kind == ValueKind::Float)
      v->real = -v->real;
    else
      v->imag = -v->imag; // -2j: the real part stays 0.0
  }
  return v;
}

std::optional<Value> View::call(TSNode n, unsigned depth) const {
  TSNode fn = field(n, F.function);
  TSNode args = field(n, F.arguments);
  if (!is(args, S.argument_list))
    return unmodelled(args, "a generator argument is not a trace value");
  std::optional<Value> callee = value(fn, depth + 1);
  if (!callee) return std::nullopt;
  // Built in place: callee, positional arguments, keyword argument values.
  NodeList arguments = named_children(args);
  Value v;
  v.kind = ValueKind::Call;
  v.items.reserve(1 + arguments.size());
  v.items.push_back(std::move(*callee));
  for (TSNode a : arguments) {
    TSSymbol symbol = ts_node_symbol(a);
    if (symbol == S.keyword_argument) {
      std::optional<Value> kv = value(field(a, F.value), depth + 1);
      if (!kv) return std::nullopt;
      v.keywords.push_back(text(field(a, F.name)));
      v.items.push_back(std::move(*kv));
    } else if (symbol == S.list_splat || symbol == S.dictionary_splat) {
      return unmodelled(a, "argument unpacking (*x, **x) is not a trace value");
    } else {
      if (!v.keywords.empty())
        return unmodelled(a, "a positional argument follows keyword arguments");
      std::optional<Value> pv = value(a, depth + 1);
      if (!pv) return std::nullopt;
      v.items.push_back(std::move(*pv));
    }
  }
  // Calls the model spells as values: slice(...), devices.Device("..."), torch.device("..."),
  // float("inf"), complex(re, im).
  const Value &f = v.items.front();
  bool plain = v.keywords.empty();
  std::size_t count = v.items.size() - 1;
  const Value *first = count > 0 ? &v.items[1] : nullptr;
  auto named = [&](const Value &x, std::string_view name) {
    return x.kind == ValueKind::Name && x.text == name;
  };
  if (!plain) return v;
  if (named(f, "slice") && count >= 1 && count <= 3) {
    if (count == 1) return Value::slice(Value::none(), std::move(v.items[1]), Value::none());
    if (count == 2)
      return Value::slice(std::move(v.items[1]), std::move(v.items[2]), Value::none());
    return Value::slice(std::move(v.items[1]), std::move(v.items[2]), std::move(v.items[3]));
  }
  bool thunder_device =
      f.kind == ValueKind::Attribute && f.text == "Device" && named(f.items.front(), "devices");
  bool torch_device =
      f.kind == ValueKind::Attribute && f.text == "device" && named(f.items.front(), "torch");
  if ((thunder_device || torch_device) && count == 1 && first->kind == ValueKind::String)
    return Value::device(std::move(v.items[1].text),
                         torch_device ? Namespace::Torch : Namespace::Thunder);
  if (named(f, "float") && count == 1 && first->kind == ValueKind::String) {
    const std::string &s = first->text;
    if (s == "inf" || s == "+inf") return Value::float_value(INFINITY);
    if (s == "-inf") return Value::float_value(-INFINITY);
    if (s == "nan") return Value::float_value(NAN);
  }
  auto is_literal = [](const Value &x) {
    return x.kind == ValueKind::Int || x.kind == ValueKind::Float;
  };
  if (named(f, "complex") && count == 2 && is_literal(v.items[1]) && is_literal(v.items[2])) {
    auto as_double = [](const Value &x) {
      return x.kind == ValueKind::Int ? static_cast<double>(x.integer) : x.real;
    };
    return Value::complex_value(as_double(v.items[1]), as_double(v.items[2]));
  }
  return v;
}

std::optional<Value> View::value(TSNode n, unsigned depth) const {
  if (ts_node_is_null(n)) return std::nullopt;
  if (depth > kMaxDepth)
    return unmodelled(n, "values nested more than " + std::to_string(kMaxDepth) +
                             " deep are not modelled");
  if (ts_node_has_error(n)) return unmodelled(n, "the expression has a syntax error");
  std::optional<Value> result;
  TSSymbol type = ts_node_symbol(n);
  auto children = [&](std::vector<Value> &out) {
    NodeList kids = named_children(n);
    out.reserve(kids.size());
    for (TSNode c : kids) {
      std::optional<Value> v = value(c, depth + 1);
      if (!v) return false;
      out.push_back(std::move(*v));
    }
    return true;
  };
  if (type == S.identifier) {
    result = Value::name(text(n));
  } else if (type == S.integer || type == S.float_) {
    result = number(n, false);
  } else if (type == S.true_ || type == S.false_) {
    result = Value::boolean_value(type == S.true_);
  } else if (type == S.none) {
    result = Value::none();
  } else if (type == S.ellipsis) {
    result = Value::ellipsis();
  } else if (type == S.string) {
    std::optional<std::string> s = string_literal(n);
    if (!s) return std::nullopt;
    result = Value::string(std::move(*s));
  } else if (type == S.unary_operator) {
    TSNode op_node = field(n, F.operator_);
    TSSymbol op = ts_node_symbol(op_node);
    TSNode arg = field(n, F.argument);
    if ((op == S.token_minus || op == S.token_plus) && (is(arg, S.integer) || is(arg, S.float_))) {
      result = number(arg, op == S.token_minus);
    } else if (op == S.token_minus) {
      std::optional<Value> inner = value(arg, depth + 1);
      if (!inner) return std::nullopt;
      if (inner->kind != ValueKind::Float)
        return unmodelled(n, "negation of a non-literal is not a trace value");
      inner->real = -inner->real;
      result = std::move(inner);
    } else {
      return unmodelled(n, "the operator '" + text(op_node) + "' is not part of the trace model");
    }
  } else if (type == S.tuple || type == S.expression_list) {
    std::vector<Value> items;
    if (!children(items)) return std::nullopt;
    result = Value::tuple(std::move(items));
    result->bare = type == S.expression_list;
  } else if (type == S.list) {
    std::vector<Value> items;
    if (!children(items)) return std::nullopt;
    result = Value::list(std::move(items));
  } else if (type == S.dictionary) {
    std::vector<std::pair<Value, Value>> entries;
    for (TSNode pair : named_children(n)) {
      if (!is(pair, S.pair))
        return unmodelled(pair, "only key: value entries are modelled in a dict");
      std::optional<Value> k = value(field(pair, F.key), depth + 1);
      if (!k) return std::nullopt;
      std::optional<Value> v = value(field(pair, F.value), depth + 1);
      if (!v) return std::nullopt;
      entries.emplace_back(std::move(*k), std::move(*v));
    }
    result = Value::dict(std::move(entries));
  } else if (type == S.parenthesized_expression) {
    NodeList inner = named_children(n);
    if (inner.size() != 1) return unmodelled(n, "unexpected parenthesized expression");
    return value(inner[0], depth + 1);
  } else if (type == S.attribute) {
    std::optional<Value> base = value(field(n, F.object), depth + 1);
    if (!base) return std::nullopt;
    std::string attr = text(field(n, F.attribute));
    if (base->kind == ValueKind::Name && base->text == "dtypes" &&
        is_dtype_name(attr, Namespace::Thunder))
      result = Value::dtype(attr, Namespace::Thunder);
    else if (base->kind == ValueKind::Name && base->text == "torch" &&
             is_dtype_name(attr, Namespace::Torch))
      result = Value::dtype(attr, Namespace::Torch);
    else
      result = Value::attribute(std::move(*base), std::move(attr));
  } else if (type == S.call) {
    result = call(n, depth);
  } else if (type == S.subscript) {
    std::optional<Value> base = value(field(n, F.value), depth + 1);
    if (!base) return std::nullopt;
    std::vector<Value> indices;
    for (TSNode c : cursor_.field_children(n, F.subscript)) {
      std::optional<Value> v;
      if (is(c, S.slice)) {
        // a[start:stop:step]: the parts present, in order, split by the ':' tokens.
        Value parts[3] = {Value::none(), Value::none(), Value::none()};
        int part = 0;
        for (TSNode t : cursor_.children(c)) {
          if (!ts_node_is_named(t)) {
            ++part;
            continue;
          }
          std::optional<Value> pv = value(t, depth + 1);
          if (!pv) return std::nullopt;
          parts[std::min(part, 2)] = std::move(*pv);
        }
        v = Value::slice(std::move(parts[0]), std::move(parts[1]), std::move(parts[2]));
      } else {
        v = value(c, depth + 1);
      }
      if (!v) return std::nullopt;
      indices.push_back(std::move(*v));
    }
    if (indices.size() == 1) {
      result = Value::subscript(std::move(*base), std::move(indices[0]));
    } else {
      Value index = Value::tuple(std::move(indices));
      index.bare = true;
      result = Value::subscript(std::move(*base), std::move(index));
    }
  } else {
    return unmodelled(n, "'" + text(n).substr(0, 40) + "' (" + python::kind_name(n) +
                             ") is not part of the trace model");
  }
  if (result) result->span = span(n);
  return result;
}

std::optional<Target> View::target(TSNode n, unsigned depth) const {
  if (depth > kMaxDepth) return unmodelled(n, "targets nested too deeply");
  TSSymbol type = ts_node_symbol(n);
  Target t;
  if (type == S.identifier) {
    t = Target::named(text(n));
  } else if (type == S.pattern_list || type == S.tuple_pattern || type == S.tuple ||
             type == S.list_pattern || type == S.list) {
    t.kind = (type == S.list_pattern || type == S.list) ? Target::Kind::List : Target::Kind::Tuple;
    NodeList kids = named_children(n);
    t.elements.reserve(kids.size());
    for (TSNode c : kids) {
      std::optional<Target> e = target(c, depth + 1);
      if (!e) return std::nullopt;
      t.elements.push_back(std::move(*e));
    }
  } else if (type == S.parenthesized_expression) {
    NodeList inner = named_children(n);
    if (inner.size() != 1) return unmodelled(n, "unexpected target");
    return target(inner[0], depth + 1);
  } else {
    return unmodelled(n, std::string("assigning to ") + python::kind_name(n) + " '" +
                             text(n).substr(0, 40) + "' is not a trace statement");
  }
  t.span = span(n);
  return t;
}

bool ends_with_comma(TSNode n) {
  uint32_t count = ts_node_child_count(n);
  return count > 0 && is(ts_node_child(n, count - 1), S.token_comma);
}

std::optional<Statement> View::statement(TSNode n) const {
  reset_failure();
  if (ts_node_has_error(n)) return std::nullopt; // reported as a syntax problem
  Statement s;
  s.span = span(n);
  TSSymbol type = ts_node_symbol(n);
  if (type == S.expression_statement) {
    NodeList parts = named_children(n);
    if (parts.size() != 1) return unmodelled(n, "an expression statement with several expressions");
    TSNode e = parts[0];
    if (is(e, S.assignment)) {
      TSNode left = field(e, F.left);
      TSNode right = field(e, F.right);
      TSNode annotation = field(e, F.type);
      if (ts_node_is_null(right))
        return unmodelled(span(e), "an annotation without a value", "annotation_only");
      if (is(right, S.assignment) || is(right, S.augmented_assignment))
        return unmodelled(span(e), "chained assignment is not a trace statement",
                          "chained_assignment");
      std::optional<Target> t = target(left);
      if (!t) return std::nullopt;
      std::optional<Value> v = value(right);
      if (!v) return std::nullopt;
      s.target = std::move(t);
      s.value = std::move(*v);
      if (is(left, S.pattern_list)) {
        s.style = ts_node_start_point(left).row != ts_node_start_point(right).row
                      ? UnpackStyle::Continued
                      : UnpackStyle::Bare;
        // A one-element or one-per-line unpack always ends in a comma.
        s.trailing_comma = s.style == UnpackStyle::Continued || ends_with_comma(left) ||
                           ts_node_named_child_count(left) == 1;
      }
      if (!ts_node_is_null(annotation)) {
        TSNode str = is(annotation, S.type) && ts_node_named_child_count(annotation) == 1
                         ? ts_node_named_child(annotation, 0)
                         : annotation;
        // Old graph printers wrote `sin: f32[10] = ...`: valid in a def body, where Python
        // does not evaluate a variable's annotation, but not a type string the model holds. The
        // statement is read without it (its reads and binding are what they are), and the
        // annotation is a model problem of its own.
        if (!is(str, S.string) && !is(str, S.concatenated_string)) {
          out_.model.push_back({span(str),
                                "an annotation that is not a string literal: `" +
                                    shorten_quoted(std::string(text_view(str))) +
                                    "` (the model holds type strings, quoted)",
                                "", false, "unquoted_annotation"});
          s.kind = Statement::Kind::BoundSymbol;
          return s;
        }
        std::optional<std::string> ann = string_literal(str);
        if (!ann) return std::nullopt;
        s.kind = Statement::Kind::AnnotatedAssign;
        Span text_span = span(str);
        s.annotation = TypeText{*ann, text_span};
        // The text inside the quotes.
        s.annotation->span = span(ts_node_start_byte(str) + 1, ts_node_end_byte(str) - 1);
      } else {
        s.kind = Statement::Kind::BoundSymbol;
      }
      return s;
    }
    if (is(e, S.augmented_assignment))
      return unmodelled(e, "augmented assignment is not a trace statement");
    std::optional<Value> v = value(e);
    if (!v) return std::nullopt;
    s.kind = Statement::Kind::BoundSymbol;
    s.value = std::move(*v);
    return s;
  }
  if (type == S.return_statement) {
    s.kind = Statement::Kind::Return;
    NodeList parts = named_children(n);
    if (parts.empty()) {
      s.has_value = false;
      return s;
    }
    std::optional<Value> v = value(parts[0]);
    if (!v) return std::nullopt;
    s.value = std::move(*v);
    return s;
  }
  if (type == S.delete_statement) {
    s.kind = Statement::Kind::Delete;
    NodeList parts = named_children(n);
    if (parts.size() != 1) return unmodelled(n, "unexpected del statement");
    TSNode what = parts[0];
    NodeList names;
    TSSymbol what_type = ts_node_symbol(what);
    if (what_type == S.identifier) {
      names.push_back(what);
    } else if (what_type == S.expression_list || what_type == S.list || what_type == S.tuple) {
      s.delete_list_form = what_type == S.list;
      if (what_type == S.tuple)
        return unmodelled(what, "del of a parenthesized tuple is not a trace statement");
      names = named_children(what);
    } else {
      return unmodelled(what, std::string("del of ") + python::kind_name(what) +
                                  " is not a trace statement");
    }
    s.deleted.reserve(names.size());
    for (TSNode name : names) {
      if (!is(name, S.identifier)) return unmodelled(name, "only names are deleted in traces");
      Target t = Target::named(text(name));
      t.span = span(name);
      s.deleted.push_back(std::move(t));
    }
    return s;
  }
  return unmodelled(n, std::string("a ") + python::kind_name(n) + " is not a trace statement");
}

// "# name: "type"" / "# name" with the positions of the name and the type text.
struct AnnotationMatch {
  std::string name;
  std::optional<std::string> type;
  std::size_t name_offset = 0;
  std::size_t type_offset = 0;
};

// Where a `# noqa` directive that ends the comment begins (`# t0: "f32[2]"  # noqa: TL003`,
// as `check --add-noqa` writes it), blanks before it included; the comment's size without one.
// Whether text at `at` spells "noqa", in any case.
bool is_noqa_word(const std::string &text, std::size_t at) {
  static constexpr std::string_view kNoqa = "noqa";
  if (at > text.size() || text.size() - at < kNoqa.size()) return false;
  for (std::size_t k = 0; k < kNoqa.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(text[at + k])) != kNoqa[k]) return false;
  return true;
}

std::size_t noqa_start(const std::string &comment) {
  for (std::size_t hash = comment.find('#', 1); hash != std::string::npos;
       hash = comment.find('#', hash + 1)) {
    std::size_t word = comment.find_first_not_of(" \t", hash + 1);
    if (word == std::string::npos) break;
    if (!is_noqa_word(comment, word)) continue;
    while (hash > 0 && (comment[hash - 1] == ' ' || comment[hash - 1] == '\t'))
      --hash;
    return hash;
  }
  return comment.size();
}

// Hand-written rather than std::regex: it runs on every comment of the file.
std::optional<AnnotationMatch> match_annotation(const std::string &comment) {
  std::size_t i = 0, n = noqa_start(comment);
  auto skip_space = [&] {
    while (i < n && std::isspace(static_cast<unsigned char>(comment[i])))
      ++i;
  };
  if (i == n || comment[i] != '#') return std::nullopt;
  ++i;
  skip_space();
  if (i == n || !(std::isalpha(static_cast<unsigned char>(comment[i])) || comment[i] == '_'))
    return std::nullopt;
  AnnotationMatch m;
  m.name_offset = i;
  while (i < n && is_word(comment[i]))
    ++i;
  m.name = comment.substr(m.name_offset, i - m.name_offset);
  skip_space();
  // "# noqa" is a directive to linters, not the old-style comment of a variable named noqa
  // (TL018 said it named another variable than the statement assigns, hidden by the noqa).
  if (i == n && m.name.size() == 4 && is_noqa_word(m.name, 0)) return std::nullopt;
  if (i == n) return m; // "# t0": untyped, old style
  if (comment[i] != ':') return std::nullopt;
  ++i;
  skip_space();
  if (i == n || comment[i] != '"') return std::nullopt;
  std::size_t close = comment.find('"', i + 1);
  if (close == std::string::npos || close >= n) return std::nullopt;
  m.type_offset = i + 1;
  m.type = comment.substr(i + 1, close - i - 1);
  i = close + 1;
  skip_space();
  if (i != n) return std::nullopt;
  return m;
}

// A comment as the bytes [begin, end) of a view's text.
struct CommentRange {
  uint32_t begin = 0, end = 0;
  TSPoint at{}; // of begin
};
CommentRange range_of(TSNode n) {
  return {ts_node_start_byte(n), ts_node_end_byte(n), ts_node_start_point(n)};
}

std::optional<TypeComment> type_comment_of(const View &view, CommentRange comment) {
  std::string text = view.text(comment.begin, comment.end);
  std::optional<AnnotationMatch> m = match_annotation(text);
  if (!m) return std::nullopt;
  TypeComment c;
  c.name = m->name;
  uint32_t base = comment.begin;
  auto point = [&](std::size_t offset) {
    return TSPoint{comment.at.row, comment.at.column + static_cast<uint32_t>(offset)};
  };
  c.name_span = view.span_on_row(base + static_cast<uint32_t>(m->name_offset),
                                 base + static_cast<uint32_t>(m->name_offset + m->name.size()),
                                 point(m->name_offset));
  if (m->type) {
    auto begin = base + static_cast<uint32_t>(m->type_offset);
    c.type =
        TypeText{*m->type, view.span_on_row(begin, begin + static_cast<uint32_t>(m->type->size()),
                                            point(m->type_offset))};
  }
  return c;
}

void attach_trailing(const View &view, Statement &s, CommentRange comment) {
  if (std::optional<TypeComment> c = type_comment_of(view, comment))
    s.type_comment = std::move(*c);
  else
    s.trailing_comment = view.text(comment.begin, comment.end);
}

// "t0 = f(...)", "(a, b) = f(x)", "prims.check_len(args, 1)": a single self-contained line.
bool looks_like_bound_symbol(std::string_view text) {
  if (text.empty()) return false;
  char first = text[0];
  if (!(std::isalpha(static_cast<unsigned char>(first)) || first == '_' || first == '(' ||
        first == '['))
    return false;
  // A target list of names, brackets, commas and spaces, then "=" (not "=="); or a dotted
  // callee then "(".
  std::size_t i = 0;
  while (i < text.size() &&
         (is_word(text[i]) || std::string_view(", ()[]").find(text[i]) != std::string_view::npos))
    ++i;
  bool assignment =
      i < text.size() && text[i] == '=' && (i + 1 == text.size() || text[i + 1] != '=');
  bool call = false;
  if (!assignment && first != '(' && first != '[') {
    std::size_t j = 0;
    while (j < text.size() && (is_word(text[j]) || text[j] == '.'))
      ++j;
    call = j < text.size() && text[j] == '(';
  }
  return (assignment || call) && lexing::self_contained(text);
}

// Bound symbols only: an assignment with a value, or a call.
bool accepted_bound_symbol(NodeCursor &cursor, TSNode n) {
  if (!is(n, S.expression_statement) || ts_node_has_error(n)) return false;
  NodeList parts = cursor.named_children(n); // a trailing comment may sit inside
  if (parts.size() != 1) return false;
  TSNode e = parts[0];
  if (is(e, S.assignment))
    return ts_node_is_null(field(e, F.type)) && !ts_node_is_null(field(e, F.right));
  return is(e, S.call);
}

// Subsymbol comments: "# t0 = prims.add(a, b)  # t0: ..." lines. Most are read in the parse of
// the code around them (FileBuilder::parse_and_build) and come here as `statements`, by index in
// `contents`; the contents of the others are parsed in one batch: each becomes one line of a
// synthetic source.
class CommentStatements {
public:
  CommentStatements(const std::vector<std::pair<uint32_t, std::string>> &contents,
                    std::vector<std::optional<Statement>> statements, const SourceText &source,
                    ParseState &state)
      : by_line_(std::move(statements)) {
    by_line_.resize(contents.size());
    std::vector<uint32_t> file_starts;
    std::vector<std::size_t> included;
    for (std::size_t i = 0; i < contents.size(); ++i) {
      const auto &[offset, text] = contents[i];
      // Only lines shaped like bound symbols go in: prose could run into the next line or
      // make tree-sitter's error recovery swallow it.
      bool include = !by_line_[i] && looks_like_bound_symbol(text);
      if (include) included.push_back(synthetic_starts_.size());
      synthetic_starts_.push_back(static_cast<uint32_t>(synthetic_.size()));
      file_starts.push_back(offset);
      if (include) synthetic_ += text;
      synthetic_ += '\n';
    }
    if (included.empty()) return;
    tree_ = parse_python(state, synthetic_);
    const std::vector<uint32_t> &starts = synthetic_starts_;
    TSNode root = ts_tree_root_node(tree_.get());
    std::vector<TSNode> comments;
    collect_comments(state.cursor, root, comments);
    std::map<uint32_t, TSNode> trailing; // synthetic row -> trailing comment
    for (TSNode c : comments)
      trailing.emplace(ts_node_start_point(c).row, c);
    // Problems found while parsing comment contents are not the file's problems: a comment
    // that is not a statement is just a comment.
    ParsedFile scratch;
    View quiet(synthetic_, source, scratch, state.cursor, [&starts, &file_starts](uint32_t o) {
      auto it = std::upper_bound(starts.begin(), starts.end(), o);
      std::size_t line = static_cast<std::size_t>(it - starts.begin()) - 1;
      return file_starts[line] + (o - starts[line]);
    });
    for (TSNode n : state.cursor.named_children(root)) {
      TSPoint start = ts_node_start_point(n);
      TSPoint end = ts_node_end_point(n);
      if (start.row != end.row || start.column != 0 || !accepted_bound_symbol(state.cursor, n))
        continue;
      std::optional<Statement> s = quiet.statement(n);
      if (!s) continue;
      if (auto it = trailing.find(start.row); it != trailing.end())
        attach_trailing(quiet, *s, range_of(it->second));
      s->commented = true;
      by_line_[start.row] = std::move(*s);
    }
    // tree-sitter's error recovery can fold a good line into the error of a bad neighbour:
    // a line that did not come out as a statement gets a parse of its own.
    for (std::size_t i : included) {
      if (by_line_[i]) continue;
      ParsedFile alone;
      alone.source = SourceText("", contents[i].second);
      std::string text = contents[i].second;
      auto tree = parse_python(state, text);
      TSNode line_root = ts_tree_root_node(tree.get());
      NodeList nodes = state.cursor.named_children(line_root);
      if (nodes.size() != 1 || !accepted_bound_symbol(state.cursor, nodes[0])) continue;
      uint32_t file_start = file_starts[i];
      View single(text, source, scratch, state.cursor,
                  [file_start](uint32_t o) { return file_start + o; });
      std::optional<Statement> s = single.statement(nodes[0]);
      if (!s) continue;
      std::vector<TSNode> line_comments;
      collect_comments(state.cursor, line_root, line_comments);
      if (!line_comments.empty()) attach_trailing(single, *s, range_of(line_comments.front()));
      s->commented = true;
      by_line_[i] = std::move(*s);
    }
  }

  // The statement spelled by the i-th comment, if it is one.
  std::optional<Statement> take(std::size_t i) {
    if (i >= by_line_.size() || !by_line_[i]) return std::nullopt;
    std::optional<Statement> s = std::move(by_line_[i]);
    by_line_[i].reset();
    return s;
  }

private:
  std::string synthetic_;
  std::vector<uint32_t> synthetic_starts_;
  python::Tree tree_;
  std::vector<std::optional<Statement>> by_line_; // by index in the contents
};

struct CommentInfo {
  CommentRange range;  // in the parsed text
  uint32_t row = 0;    // in the parsed text
  uint32_t column = 0; // 0-based byte column in the parsed text
  bool own_line = false;
  std::size_t batch_index = 0;           // own-line comments: index in CommentStatements
  std::size_t own_line_index = SIZE_MAX; // index in the own-line comments tree-sitter did not see
};

// An own-line comment read as a statement: its content [content, end) moved to the
// indentation of the statement before it, at `line_begin`, the rest of its line blank.
struct Injection {
  uint32_t line_begin = 0;        // where tree-sitter sees the content start
  uint32_t line_end = 0;          // where it sees the content end
  uint32_t shift = 0;             // the content's offset in the parsed text, less line_begin
  std::size_t comment = 0;        // index in the own-line comments
  TSNode node{};                  // the statement tree-sitter read there
  std::optional<TSNode> trailing; // its trailing comment
};

// The segments tree-sitter reads a parsed text through: own-line comments blank, injected ones
// moved to their statement's indentation.
std::vector<chunking::ShapedInput::Segment>
subsymbol_segments(const std::vector<OwnLineComment> &comments,
                   const std::vector<Injection> &injections) {
  using Segment = chunking::ShapedInput::Segment;
  std::vector<Segment> out;
  out.reserve(comments.size() + injections.size());
  auto injection = injections.begin();
  for (std::size_t i = 0; i < comments.size(); ++i) {
    if (injection != injections.end() && injection->comment == i) {
      out.push_back({injection->line_begin, injection->line_end, injection->shift});
      out.push_back({injection->line_end, comments[i].end, chunking::ShapedInput::kBlank});
      ++injection;
    } else {
      out.push_back({comments[i].begin, comments[i].end, chunking::ShapedInput::kBlank});
    }
  }
  return out;
}

class FileBuilder {
public:
  // file: the source and its repr leaks (read only); out: where the model and problems go.
  // The parsed text is the file with `prefix_len` bytes inserted in front, `skipped` bytes
  // dropped from its start, and `hole_len` bytes cut out at parsed offset `hole_at`.
  FileBuilder(const detail::ParseOptions &options, ParseState &state, const ParsedFile &file,
              ParsedFile &out, const std::string &parsed, uint32_t prefix_len, uint32_t skipped,
              uint32_t hole_at = UINT32_MAX, uint32_t hole_len = 0)
      : options_(options), state_(state), file_(file), out_(out), parsed_(parsed),
        map_(mapping(prefix_len, skipped, hole_at, hole_len)),
        view_(parsed, file.source, out, state.cursor, map_) {}

  // Parses the text and builds its model. Subsymbol comments are read in the same parse as the
  // code: tree-sitter sees the content of each own-line comment shaped like a bound symbol, after
  // a statement it can follow (CommentContext), moved to that statement's indentation, and the
  // rest of the line blank (the same length, so every other offset holds); the other own-line
  // comments are blank. Where that tree has a syntax error, or an injected line is not where it
  // was put, the text is parsed again with every own-line comment blank and their contents
  // parsed in a batch of their own (CommentStatements), so that a comment never changes how the
  // code around it is read.
  // The indented text is a printout's classes (torch.export's), read as module-level ones.
  void read_printed_classes() { printed_classes_ = true; }

  void parse_and_build(bool fragment_wrapper, uint32_t fragment_indent) {
    std::vector<chunking::CommentContext> contexts;
    std::vector<OwnLineComment> own_line = own_line_comments(parsed_, contexts);
    if (options_.subsymbols_in_code_parse) plan_injections(own_line, contexts);
    if (!injections_.empty()) {
      chunking::ShapedInput input(parsed_, subsymbol_segments(own_line, injections_));
      python::Tree tree = state_.parser.parse(input.input());
      TSNode root = ts_tree_root_node(tree.get());
      if (!ts_node_has_error(root) && find_injected(root)) {
        build(root, fragment_wrapper, fragment_indent, own_line);
        return;
      }
      injections_.clear();
    }
    python::Tree tree = parse_python(state_, parsed_, own_line);
    build(ts_tree_root_node(tree.get()), fragment_wrapper, fragment_indent, own_line);
  }

private:
  TextMap mapping(uint32_t prefix_len, uint32_t skipped, uint32_t hole_at, uint32_t hole_len) {
    TextMap map;
    map.prefix_len = prefix_len;
    map.skipped = skipped;
    map.hole_at = hole_at;
    map.hole_len = hole_len;
    if (!options_.spans_from_line_index) map.find_rows(parsed_, file_.source);
    return map;
  }

  void plan_injections(const std::vector<OwnLineComment> &own_line,
                       const std::vector<chunking::CommentContext> &contexts) {
    injections_.clear();
    for (std::size_t i = 0; i < own_line.size(); ++i) {
      const OwnLineComment &c = own_line[i];
      const chunking::CommentContext &context = contexts[i];
      if (context.indent == chunking::CommentContext::kNone || c.column <= context.indent) continue;
      std::string_view comment(parsed_.data() + c.begin, c.end - c.begin);
      uint32_t skip = comment.rfind("# ", 0) == 0 ? 2 : 1;
      std::string_view content = comment.substr(skip);
      uint32_t line_start = c.begin - c.column;
      // Its line must start with the statement's indentation, byte for byte.
      if (!looks_like_bound_symbol(content) ||
          parsed_.compare(line_start, context.indent, parsed_, context.statement_line,
                          context.indent) != 0)
        continue;
      // A repr leak in the content is read by the batch, which replaces it by its name.
      uint32_t file_begin = view_.file_offset(c.begin);
      auto leak =
          std::lower_bound(file_.leaks.begin(), file_.leaks.end(), file_begin,
                           [](const ReprLeak &l, uint32_t at) { return l.span.begin < at; });
      if (leak != file_.leaks.end() && leak->span.begin < view_.file_offset(c.end)) continue;
      Injection injection;
      injection.line_begin = line_start + context.indent;
      injection.line_end = injection.line_begin + static_cast<uint32_t>(content.size());
      injection.shift = c.begin + skip - injection.line_begin;
      injection.comment = i;
      injections_.push_back(injection);
    }
  }

  // The injection starting at `byte`, or nullptr.
  Injection *injection_at(uint32_t byte) {
    auto it = std::lower_bound(injections_.begin(), injections_.end(), byte,
                               [](const Injection &i, uint32_t at) { return i.line_begin < at; });
    return it != injections_.end() && it->line_begin == byte ? &*it : nullptr;
  }

  // Finds each injected line's statement where it was put: among the module's statements (after
  // a module-level one) or a def's (after one of its body).
  bool find_injected(TSNode root) {
    std::size_t found = 0;
    auto look_in = [&](TSNode container) {
      NodeList kids = state_.cursor.children(container);
      for (std::size_t k = 0; k < kids.size(); ++k) {
        Injection *injection = injection_at(ts_node_start_byte(kids[k]));
        if (!injection || !ts_node_is_named(kids[k]) || is(kids[k], S.comment)) continue;
        injection->node = kids[k];
        if (k + 1 < kids.size() && is(kids[k + 1], S.comment) &&
            ts_node_start_point(kids[k + 1]).row == ts_node_start_point(kids[k]).row)
          injection->trailing = kids[k + 1];
        ++found;
      }
    };
    look_in(root);
    for (TSNode n : state_.cursor.named_children(root)) {
      TSNode def = is(n, S.decorated_definition) ? field(n, F.definition) : n;
      if (!is(def, S.function_definition)) continue;
      TSNode body = field(def, F.body);
      if (!ts_node_is_null(body)) look_in(body);
    }
    return found == injections_.size();
  }

  // The statement an injected line spells, as the batch would have read it.
  std::optional<Statement> injected_statement(const Injection &injection, ParsedFile &scratch) {
    TSNode n = injection.node;
    if (ts_node_start_point(n).row != ts_node_end_point(n).row ||
        !accepted_bound_symbol(state_.cursor, n))
      return std::nullopt;
    uint32_t shift = injection.shift;
    View moved(parsed_, file_.source, scratch, state_.cursor, map_, shift);
    std::optional<Statement> s = moved.statement(n);
    if (!s) return std::nullopt;
    if (injection.trailing)
      attach_trailing(moved, *s,
                      {ts_node_start_byte(*injection.trailing),
                       std::min(ts_node_end_byte(*injection.trailing), injection.line_end),
                       ts_node_start_point(*injection.trailing)});
    s->commented = true;
    return s;
  }

  // The named children of a module or block, without the injected lines.
  NodeList statements_of(TSNode container) {
    NodeList all = view_.named_children(container);
    if (injections_.empty()) return all;
    NodeList out;
    for (TSNode n : all)
      if (!injection_at(ts_node_start_byte(n))) out.push_back(n);
    return out;
  }

  // own_line: the comments tree-sitter read as blank lines (own_line_comments), some of them
  // injected (injections_).
  void build(TSNode root, bool fragment_wrapper, uint32_t fragment_indent,
             const std::vector<OwnLineComment> &own_line) {
    std::vector<TSNode> comment_nodes;
    collect_comments(state_.cursor, root, comment_nodes, options_.comments_below_every_node);
    // The comments tree-sitter saw (trailing ones, and own-line ones inside brackets) and the
    // ones it did not, merged in source order.
    comments_.reserve(comment_nodes.size() + own_line.size());
    auto next_own = own_line.begin();
    auto take_own_line_before = [&](uint32_t byte) {
      for (; next_own != own_line.end() && next_own->begin < byte; ++next_own)
        comments_.push_back({{next_own->begin, next_own->end, {next_own->row, next_own->column}},
                             next_own->row,
                             next_own->column,
                             true,
                             0,
                             static_cast<std::size_t>(next_own - own_line.begin())});
    };
    auto next_injection = injections_.begin();
    for (TSNode c : comment_nodes) {
      uint32_t at = ts_node_start_byte(c);
      while (next_injection != injections_.end() && next_injection->line_end <= at)
        ++next_injection;
      // An injected line's trailing comment is part of that own-line comment.
      if (next_injection != injections_.end() && next_injection->line_begin <= at) continue;
      take_own_line_before(at);
      CommentInfo info{range_of(c), ts_node_start_point(c).row, ts_node_start_point(c).column,
                       false, 0};
      uint32_t line_start = ts_node_start_byte(c) - info.column;
      info.own_line = parsed_.find_first_not_of(" \t", line_start) == ts_node_start_byte(c);
      comments_.push_back(info);
    }
    take_own_line_before(UINT32_MAX);
    // Own-line comments, in order; the others trail a statement. The statements of injected ones
    // are read from this tree; the others' contents go to the batch.
    std::vector<std::pair<uint32_t, std::string>> contents;
    std::vector<std::optional<Statement>> injected;
    auto injection = injections_.begin();
    ParsedFile scratch; // what the model cannot represent in a comment is not the file's problem
    for (CommentInfo &info : comments_) {
      if (!info.own_line) continue;
      if (injection != injections_.end() && injection->comment == info.own_line_index) {
        info.batch_index = contents.size();
        contents.emplace_back(0, std::string());
        injected.resize(contents.size());
        injected.back() = injected_statement(*injection++, scratch);
        continue;
      }
      std::string text = view_.text(info.range.begin, info.range.end);
      std::size_t skip = text.rfind("# ", 0) == 0 ? 2 : 1;
      info.batch_index = contents.size();
      contents.emplace_back(view_.file_offset(info.range.begin + static_cast<uint32_t>(skip)),
                            text.substr(skip));
    }
    // Contents with a code-position repr leak are parsed with the repr replaced by its name
    // (the leaks are in source order: each content looks only at its own).
    for (auto &[offset, text] : contents) {
      auto first =
          std::lower_bound(file_.leaks.begin(), file_.leaks.end(), offset,
                           [](const ReprLeak &leak, uint32_t at) { return leak.span.begin < at; });
      for (auto leak_it = first; leak_it != file_.leaks.end(); ++leak_it) {
        const ReprLeak &leak = *leak_it;
        if (leak.span.begin >= offset + text.size()) break;
        if (leak.name.empty() || leak.span.end > offset + text.size()) continue;
        std::size_t at = leak.span.begin - offset;
        std::string_view code(text);
        if (at >= lexing::code_end(code) || lexing::in_string(code, at)) continue;
        std::size_t len = leak.span.end - leak.span.begin;
        text.replace(at, len, leak.name + std::string(len - leak.name.size(), ' '));
      }
    }
    batch_ =
        std::make_unique<CommentStatements>(contents, std::move(injected), file_.source, state_);

    for (const syntax::ErrorNode &e : syntax::find_errors(root))
      report_syntax(e.node, e.hidden_missing);

    if (fragment_wrapper) {
      NodeList top = statements_of(root);
      if (printed_classes_ && !top.empty() && is(top[0], S.function_definition) &&
          !ts_node_is_null(field(top[0], F.body))) {
        module(field(top[0], F.body));
        return;
      }
      if (!top.empty() && is(top[0], S.function_definition)) {
        Trace t = function(top[0], {});
        t.kind = Trace::Kind::Fragment;
        t.fragment_indent = fragment_indent;
        t.name.clear();
        t.parameters.clear();
        out_.file.traces.push_back(std::move(t));
      }
      return;
    }
    module(root);
  }

private:
  void report_syntax(TSNode e, bool hidden_missing) {
    Span s = view_.span(e);
    std::string message;
    if (ts_node_is_missing(e)) {
      message = std::string("missing '") + python::kind_name(e) + "'";
    } else {
      std::string text = view_.text(e);
      std::size_t nl = text.find('\n');
      std::string first = text.substr(0, std::min<std::size_t>(nl, 40));
      message = first.empty() ? "invalid syntax" : "invalid syntax near '" + first + "'";
      if (hidden_missing) message += " (a newline or an operator is missing before it)";
    }
    if (s.begin == s.end && s.end < file_.source.text().size()) {
      // Zero-width errors (a missing token) point at the next character.
      s = file_.source.span(s.begin, s.begin + 1);
    }
    out_.syntax.push_back({s, message});
  }

  // comments_ is in source order: a fragment's statements each look up their own comments
  // without reading all of them.
  std::vector<CommentInfo> comments_in(uint32_t begin_byte, uint32_t end_byte) {
    auto by_begin = [](const CommentInfo &c, uint32_t at) { return c.range.begin < at; };
    auto first = std::lower_bound(comments_.begin(), comments_.end(), begin_byte, by_begin);
    auto last = std::lower_bound(first, comments_.end(), end_byte, by_begin);
    return {first, last};
  }

  void add_blank_lines(std::vector<PreambleItem> &items, uint32_t from_row, uint32_t to_row) {
    for (uint32_t r = from_row; r < to_row; ++r)
      items.push_back({PreambleItem::Kind::Blank, {}, {}, {}});
  }

  void module(TSNode root) {
    NodeList top = statements_of(root);
    std::vector<PreambleItem> pending;
    std::optional<uint32_t> last_row;
    std::size_t next_comment = 0;
    Trace *fragment = nullptr;
    auto gap = [&](uint32_t row) {
      if (last_row && row > *last_row + 1) add_blank_lines(pending, *last_row + 1, row);
    };
    auto flush_comments_before = [&](uint32_t byte) {
      while (next_comment < comments_.size() && comments_[next_comment].range.begin < byte) {
        const CommentInfo &c = comments_[next_comment++];
        if (consumed_.count(c.range.begin)) continue;
        gap(c.row);
        if (c.own_line)
          if (std::optional<Statement> s = batch_->take(c.batch_index))
            out_.orphan_subsymbols.push_back(std::move(*s));
        PreambleItem item;
        item.kind = PreambleItem::Kind::Comment;
        item.comment = view_.text(c.range.begin, c.range.end);
        item.span = view_.span_on_row(c.range.begin, c.range.end, c.range.at);
        pending.push_back(std::move(item));
        last_row = c.row;
      }
    };
    for (std::size_t i = 0; i < top.size(); ++i) {
      TSNode n = top[i];
      flush_comments_before(ts_node_start_byte(n));
      uint32_t row = ts_node_start_point(n).row;
      TSSymbol type = ts_node_symbol(n);
      if (type == S.import_statement || type == S.import_from_statement ||
          type == S.future_import_statement) {
        gap(row);
        imports(n, pending);
        last_row = ts_node_end_point(n).row;
      } else if (is_def(n)) { // a decorated class is a statement of a fragment, below
        gap(row);
        uint32_t region_end = i + 1 < top.size() ? ts_node_start_byte(top[i + 1])
                                                 : static_cast<uint32_t>(parsed_.size());
        Trace t = function(n, std::move(pending), region_end);
        pending.clear();
        out_.file.traces.push_back(std::move(t));
        fragment = nullptr;
        last_row = last_body_row_;
      } else if (type == S.class_definition && holds_methods(n)) {
        // fx's print_readable, Dynamo's graph code: each method (of nested classes too) is a
        // trace; a class line is a line of the file, not a gap.
        uint32_t after = i + 1 < top.size() ? ts_node_start_byte(top[i + 1])
                                            : static_cast<uint32_t>(parsed_.size());
        std::vector<ClassMember> members = class_members(n);
        for (std::size_t m = 0; m < members.size(); ++m) {
          TSNode member = members[m].node;
          flush_comments_before(ts_node_start_byte(member));
          // Lines between a class line and its first member are inside the class: as the
          // trace's preamble they would print above the class line. (print_readable puts fx's
          // wrap lines, which the model does not hold, and a blank line there.)
          if (m == 0 || !members[m - 1].opens_class) gap(ts_node_start_point(member).row);
          if (members[m].opens_class) {
            last_row = members[m].header_row;
            continue;
          }
          uint32_t end = m + 1 < members.size() ? ts_node_start_byte(members[m + 1].node) : after;
          Trace t = function(member, std::move(pending), end);
          pending.clear();
          t.classes = std::move(members[m].classes);
          out_.file.traces.push_back(std::move(t));
          last_row = last_body_row_;
        }
        fragment = nullptr;
      } else if (type == S.error) {
        last_row = ts_node_end_point(n).row;
      } else {
        // Statements outside any def: a fragment of a trace.
        if (!fragment) {
          Trace t;
          t.kind = Trace::Kind::Fragment;
          t.preamble = std::move(pending);
          pending.clear();
          out_.file.traces.push_back(std::move(t));
          fragment = &out_.file.traces.back();
          fragment_last_row_.reset();
        }
        uint32_t region_end = i + 1 < top.size() ? ts_node_start_byte(top[i + 1])
                                                 : static_cast<uint32_t>(parsed_.size());
        NodeList one;
        one.push_back(n);
        body_items(*fragment, one, ts_node_start_byte(n), region_end, 0, fragment_last_row_);
        last_row = fragment_last_row_;
      }
    }
    flush_comments_before(static_cast<uint32_t>(parsed_.size()) + 1);
    out_.file.trailer = std::move(pending);
  }

  static bool is_def(TSNode n) {
    return is(n, S.function_definition) ||
           (is(n, S.decorated_definition) && is(field(n, F.definition), S.function_definition));
  }

  // A class statement whose body holds a def, or a class that does: printed graph code.
  bool holds_methods(TSNode cls) {
    std::vector<TSNode> pending{cls};
    while (!pending.empty()) {
      TSNode body = field(pending.back(), F.body);
      pending.pop_back();
      if (ts_node_is_null(body)) continue;
      for (TSNode m : statements_of(body)) {
        if (is_def(m)) return true;
        if (is(m, S.class_definition)) pending.push_back(m);
      }
    }
    return false;
  }

  // A class line, or a method, of a class statement; classes: the classes it is in (a class
  // line's own class last).
  struct ClassMember {
    TSNode node;
    bool opens_class = false;
    std::vector<ClassHeader> classes;
    uint32_t header_row = 0; // a class line's last row (of its bases' closing parenthesis)
  };

  ClassHeader class_header(TSNode cls) {
    ClassHeader header;
    header.name = view_.text(field(cls, F.name));
    TSNode bases = field(cls, F.superclasses);
    TSNode line_end = ts_node_is_null(bases) ? field(cls, F.name) : bases;
    header.span = view_.span(ts_node_start_byte(cls), ts_node_end_byte(line_end) + 1);
    if (!ts_node_is_null(bases))
      for (TSNode b : view_.named_children(bases)) {
        view_.reset_failure();
        if (is(b, S.keyword_argument)) {
          view_.unmodelled(b, "a class keyword (metaclass=...) is not part of the trace model");
          continue;
        }
        if (std::optional<Value> v = view_.value(b)) header.bases.push_back(std::move(*v));
      }
    return header;
  }

  // The class lines and methods of a class statement in source order, nested classes' included
  // (iteratively: nesting is bounded by the indentation limit, the stack is not). Other
  // statements of a class body are not part of the trace model.
  std::vector<ClassMember> class_members(TSNode cls) {
    std::vector<ClassMember> out;
    struct Level {
      NodeList members;
      std::size_t next = 0;
      std::vector<ClassHeader> classes;
    };
    std::vector<Level> open;
    auto enter = [&](TSNode c, std::vector<ClassHeader> classes) {
      classes.push_back(class_header(c));
      TSNode bases = field(c, F.superclasses);
      TSNode line_end = ts_node_is_null(bases) ? field(c, F.name) : bases;
      out.push_back({c, true, classes, ts_node_end_point(line_end).row});
      TSNode body = field(c, F.body);
      open.push_back(
          {ts_node_is_null(body) ? NodeList{} : statements_of(body), 0, std::move(classes)});
    };
    enter(cls, {});
    while (!open.empty()) {
      Level &level = open.back();
      if (level.next == level.members.size()) {
        open.pop_back();
        continue;
      }
      TSNode m = level.members[level.next++];
      if (is(m, S.class_definition)) {
        std::vector<ClassHeader> classes = level.classes;
        enter(m, std::move(classes)); // level is not used after this
      } else if (is_def(m)) {
        out.push_back({m, false, level.classes});
      } else if (is(m, S.expression_statement) && ts_node_named_child_count(m) == 1 &&
                 is(ts_node_named_child(m, 0), S.call)) {
        // print_readable puts fx's wrap lines in the class: `torch.fx._symbolic_trace.wrap(...)`
        view_.reset_failure();
        view_.unmodelled(view_.span(m), "a call in a class body is not a trace statement",
                         "call_in_class_body");
      } else {
        view_.reset_failure();
        view_.unmodelled(m, std::string("a ") + python::kind_name(m) +
                                " in a class body is not a trace statement");
      }
    }
    return out;
  }

  void imports(TSNode n, std::vector<PreambleItem> &items) {
    auto push = [&](Import import) {
      PreambleItem item;
      item.kind = PreambleItem::Kind::Import;
      import.span = view_.span(n);
      item.import = std::move(import);
      item.span = view_.span(n);
      items.push_back(std::move(item));
    };
    if (is(n, S.import_statement)) {
      for (TSNode c : view_.named_children(n)) {
        Import import;
        if (is(c, S.aliased_import)) {
          import.module = view_.text(field(c, F.name));
          import.alias = view_.text(field(c, F.alias));
        } else {
          import.module = view_.text(c);
        }
        push(std::move(import));
      }
      return;
    }
    Import import;
    import.from = true;
    if (is(n, S.future_import_statement)) { // from __future__ import annotations
      import.module = "__future__";
      for (TSNode c : view_.named_children(n))
        import.names.emplace_back(view_.text(c), "");
      push(std::move(import));
      return;
    }
    TSNode module = field(n, F.module_name);
    import.module = view_.text(module);
    for (TSNode c : view_.named_children(n)) {
      if (ts_node_start_byte(c) == ts_node_start_byte(module)) continue;
      if (is(c, S.aliased_import))
        import.names.emplace_back(view_.text(field(c, F.name)), view_.text(field(c, F.alias)));
      else if (is(c, S.wildcard_import))
        out_.model.push_back(
            {view_.span(c), "a wildcard import binds unknown names", "", false, "wildcard_import"});
      else
        import.names.emplace_back(view_.text(c), "");
    }
    push(std::move(import));
  }

  Trace function(TSNode n, std::vector<PreambleItem> preamble, uint32_t region_end = UINT32_MAX) {
    Trace t;
    t.preamble = std::move(preamble);
    TSNode def = n;
    if (is(n, S.decorated_definition)) {
      for (TSNode c : view_.named_children(n)) {
        if (is(c, S.decorator)) {
          NodeList inner = view_.named_children(c);
          view_.reset_failure();
          if (!inner.empty())
            if (std::optional<Value> v = view_.value(inner[0]))
              t.decorators.push_back(std::move(*v));
        }
      }
      def = field(n, F.definition);
    }
    t.name = view_.text(field(def, F.name));
    t.name_span = view_.span(field(def, F.name));
    TSNode body = field(def, F.body);
    TSNode params = field(def, F.parameters);
    t.def_span = view_.span(ts_node_start_byte(def), ts_node_end_byte(params) + 1);
    parameters(params, t);
    std::string line = file_.source.text().substr(t.def_span.begin, kNoSignature.size());
    if (t.name == "_" && line == kNoSignature) {
      t.kind = Trace::Kind::NoSignature;
      t.parameters.clear();
      t.name.clear();
      t.def_span = file_.source.span(t.def_span.begin,
                                     t.def_span.begin + static_cast<uint32_t>(kNoSignature.size()));
    }
    NodeList statements;
    if (!ts_node_is_null(body)) statements = statements_of(body);
    uint32_t def_row = ts_node_start_point(def).row;
    uint32_t end = region_end == UINT32_MAX ? static_cast<uint32_t>(parsed_.size()) : region_end;
    std::optional<uint32_t> last_row = def_row;
    // Comments left of the def's body (a module's, a class body's) are not the trace's.
    body_items(t, statements, ts_node_end_byte(params), end, ts_node_start_point(n).column + 1,
               last_row);
    last_body_row_ = last_row.value_or(def_row);
    return t;
  }

  void parameters(TSNode params, Trace &t) {
    bool keyword_only = false;
    for (TSNode p : view_.named_children(params)) {
      Parameter param;
      param.span = view_.span(p);
      TSSymbol type = ts_node_symbol(p);
      if (type == S.identifier) {
        param.name = view_.text(p);
        param.kind = keyword_only ? ParamKind::KeywordOnly : ParamKind::Positional;
      } else if (type == S.default_parameter) {
        param.name = view_.text(field(p, F.name));
        param.kind = keyword_only ? ParamKind::KeywordOnly : ParamKind::Positional;
        view_.reset_failure();
        param.default_value = view_.value(field(p, F.value));
      } else if (type == S.list_splat_pattern) {
        NodeList inner = view_.named_children(p);
        param.name = inner.empty() ? "" : view_.text(inner[0]);
        param.kind = ParamKind::VarArgs;
        keyword_only = true;
      } else if (type == S.dictionary_splat_pattern) {
        NodeList inner = view_.named_children(p);
        param.name = inner.empty() ? "" : view_.text(inner[0]);
        param.kind = ParamKind::VarKeywords;
      } else if (type == S.keyword_separator) {
        keyword_only = true;
        continue;
      } else {
        view_.reset_failure();
        view_.unmodelled(p, std::string("a ") + python::kind_name(p) +
                                " parameter is not part of the trace model");
        NodeList inner = view_.named_children(p);
        if (inner.empty()) continue;
        param.name = view_.text(inner[0]);
        TSNode annotation = field(p, F.type);
        if (!ts_node_is_null(annotation)) {
          TSNode inside = is(annotation, S.type) && ts_node_named_child_count(annotation) == 1
                              ? ts_node_named_child(annotation, 0)
                              : annotation;
          t.parameter_annotations.push_back(
              {param.name, view_.text(inside), view_.span(inside),
               is(inside, S.string) || is(inside, S.concatenated_string)});
        }
      }
      t.parameters.push_back(std::move(param));
    }
  }

  // Merges the statements of a body with the comments between begin and end: trailing type
  // comments, annotation comments, subsymbols (deeper comments after a statement), others.
  void body_items(Trace &t, const NodeList &statements, uint32_t begin, uint32_t end,
                  uint32_t min_column, std::optional<uint32_t> &last_row) {
    std::vector<CommentInfo> comments = comments_in(begin, end);
    std::size_t ci = 0;
    // (column, statement) from the body statement down to its deepest open subsymbol.
    std::vector<std::pair<uint32_t, Statement *>> open;
    bool flattened = false; // said once that subsymbols went past kMaxSubsymbolNesting
    auto blank_gap = [&](uint32_t row) {
      if (last_row && row > *last_row + 1)
        for (uint32_t r = *last_row + 1; r < row; ++r)
          t.body.push_back(Statement::blank());
    };
    auto take_comment = [&](const CommentInfo &c) {
      if (c.own_line && c.column < min_column)
        return; // a module-level comment after the body: not ours
      consumed_.insert(c.range.begin);
      if (!c.own_line) {
        if (!open.empty() && last_row && c.row == *last_row)
          attach_trailing(view_, *open.back().second, c.range);
        return;
      }
      while (!open.empty() && open.back().first >= c.column)
        open.pop_back();
      // Blank lines inside a block of subsymbol comments are not modelled; inserting them into
      // the body would also move the statements `open` points at.
      if (open.empty()) blank_gap(c.row);
      last_row = c.row;
      std::string text = view_.text(c.range.begin, c.range.end);
      Span span = view_.span_on_row(c.range.begin, c.range.end, c.range.at);
      if (!open.empty()) {
        std::optional<Statement> sub = batch_->take(c.batch_index);
        Statement s = sub ? std::move(*sub)
                          : Statement::comment(text.substr(text.rfind("# ", 0) == 0 ? 2 : 1));
        s.commented = true;
        if (!sub) s.span = span;
        // Printing, analysing and destroying subsymbols recurse once per level: a comment
        // deeper than the limit joins the deepest level kept (a warning, not a stack overflow).
        if (open.size() > kMaxSubsymbolNesting) {
          open.resize(kMaxSubsymbolNesting);
          if (!flattened) {
            view_.reset_failure();
            view_.unmodelled(span, "subsymbol comments nested more than " +
                                       std::to_string(kMaxSubsymbolNesting) +
                                       " deep are kept at that depth");
          }
          flattened = true;
        }
        Statement *parent = open.back().second;
        parent->subsymbols.push_back(std::move(s));
        open.emplace_back(c.column, &parent->subsymbols.back());
        return;
      }
      if (std::optional<AnnotationMatch> m = match_annotation(text)) {
        Statement s = Statement::annotation_comment(m->name, m->type);
        uint32_t base = c.range.begin;
        s.annotated_name_span =
            view_.span(base + static_cast<uint32_t>(m->name_offset),
                       base + static_cast<uint32_t>(m->name_offset + m->name.size()));
        if (m->type) {
          uint32_t b = base + static_cast<uint32_t>(m->type_offset);
          s.annotation->span = view_.span(b, b + static_cast<uint32_t>(m->type->size()));
        }
        s.span = span;
        t.body.push_back(std::move(s));
      } else {
        Statement s = Statement::comment(text);
        s.span = span;
        t.body.push_back(std::move(s));
      }
    };
    for (TSNode n : statements) {
      while (ci < comments.size() && comments[ci].range.begin < ts_node_start_byte(n))
        take_comment(comments[ci++]);
      open.clear();
      uint32_t row = ts_node_start_point(n).row;
      blank_gap(row);
      std::optional<Statement> s = view_.statement(n);
      if (!s) {
        if (ts_node_has_error(n)) {
          last_row = ts_node_end_point(n).row;
          continue;
        }
        Statement raw;
        raw.kind = Statement::Kind::Raw;
        raw.text = view_.text(n);
        raw.span = view_.span(n);
        raw.target = assigned_target(n); // what it defines still counts as defined
        chained(n, raw);
        if (is(n, S.with_statement)) with_targets(n, raw.chained_targets);
        reads(n, raw.reads);
        s = std::move(raw);
      }
      t.body.push_back(std::move(*s));
      last_row = ts_node_end_point(n).row;
      open.emplace_back(ts_node_start_point(n).column, &t.body.back());
    }
    while (ci < comments.size()) {
      const CommentInfo &c = comments[ci++];
      if (c.own_line && c.column < min_column) break;
      take_comment(c);
    }
  }

  // The target of an assignment whose value the model cannot represent. An annotation alone
  // (`x: "f32[4]"`) declares a name without binding it.
  std::optional<Target> assigned_target(TSNode n) {
    if (!is(n, S.expression_statement)) return std::nullopt;
    NodeList parts = view_.named_children(n);
    if (parts.size() != 1 || !is(parts[0], S.assignment)) return std::nullopt;
    if (ts_node_is_null(field(parts[0], F.right))) return std::nullopt;
    ParsedFile scratch;
    View quiet(parsed_, file_.source, scratch, state_.cursor, map_);
    return quiet.target(field(parts[0], F.left));
  }

  // a = b = c = value: the targets after the first, and whether value is None.
  void chained(TSNode n, Statement &raw) {
    if (!is(n, S.expression_statement)) return;
    NodeList parts = view_.named_children(n);
    if (parts.size() != 1 || !is(parts[0], S.assignment)) return;
    ParsedFile scratch;
    View quiet(parsed_, file_.source, scratch, state_.cursor, map_);
    TSNode right = field(parts[0], F.right);
    while (!ts_node_is_null(right) && is(right, S.assignment)) {
      if (std::optional<Target> t = quiet.target(field(right, F.left)))
        raw.chained_targets.push_back(std::move(*t));
      right = field(right, F.right);
    }
    raw.assigns_none = !ts_node_is_null(right) && is(right, S.none);
  }

  // with A() as fd: the names after "as".
  void with_targets(TSNode n, std::vector<Target> &out, unsigned depth = 0) {
    if (depth > 8 || ts_node_is_null(n)) return;
    if (is(n, S.block)) return;
    if (is(n, S.as_pattern_target)) {
      for (TSNode c : view_.named_children(n))
        if (is(c, S.identifier)) {
          Target t = Target::named(view_.text(c));
          t.span = view_.span(c);
          out.push_back(std::move(t));
        }
      return;
    }
    for (TSNode c : view_.named_children(n))
      with_targets(c, out, depth + 1);
  }

  // The names a statement the model does not represent reads, so that a use after a del (or
  // of a name nothing defines) is still found there. Lambdas, comprehensions, nested
  // definitions and compound statements have scopes of their own and are not read.
  void reads(TSNode n, std::vector<Value> &out, unsigned depth = 0) {
    if (depth > 64 || ts_node_is_null(n)) return;
    TSSymbol type = ts_node_symbol(n);
    if (depth == 0 && type != S.expression_statement && type != S.return_statement &&
        type != S.assert_statement && type != S.raise_statement)
      return;
    if (type == S.identifier) {
      Value v;
      v.kind = ValueKind::Name;
      v.text = view_.text(n);
      v.span = view_.span(n);
      out.push_back(std::move(v));
      return;
    }
    if (type == S.lambda || type == S.list_comprehension || type == S.set_comprehension ||
        type == S.dictionary_comprehension || type == S.generator_expression || type == S.string ||
        type == S.concatenated_string || type == S.comment || type == S.type ||
        type == S.keyword_separator)
      return;
    if (type == S.attribute) {
      reads(field(n, F.object), out, depth + 1);
      return;
    }
    if (type == S.keyword_argument) {
      reads(field(n, F.value), out, depth + 1);
      return;
    }
    if (type == S.assignment) {
      reads(field(n, F.right), out, depth + 1);
      return;
    }
    for (TSNode child : view_.named_children(n))
      reads(child, out, depth + 1);
  }

  const detail::ParseOptions &options_;
  ParseState &state_;
  const ParsedFile &file_;
  ParsedFile &out_;
  const std::string &parsed_;
  TextMap map_;
  View view_;
  std::vector<CommentInfo> comments_;
  std::set<uint32_t> consumed_;
  std::unique_ptr<CommentStatements> batch_;
  std::vector<Injection> injections_; // in source order
  uint32_t last_body_row_ = 0;
  std::optional<uint32_t> fragment_last_row_;
  bool printed_classes_ = false;
};

// A keyword that can stand before words and a colon in Python (`if x:`, `class C:`).
bool starts_compound_statement(std::string_view word) {
  for (std::string_view keyword : {"if", "elif", "while", "for", "with", "except", "class", "def",
                                   "async", "match", "case", "lambda"})
    if (word == keyword) return true;
  return false;
}

// torch.export prints an ExportedProgram as `ExportedProgram:`, its graph module's class
// indented under it, then labelled lines about it (`Graph signature: ...`, `Range constraints:
// {}`, in torch 2.5 on an indented block of their own; in torch 2.1 indented as the class is,
// `Graph signature: ExportGraphSignature(` running over several lines). Those lines are the
// printout's, not Python: the lines to blank, first to last, or none when text is not such a
// printout.
std::vector<std::pair<std::size_t, std::size_t>> export_printout_framing(const SourceText &source) {
  std::vector<std::pair<std::size_t, std::size_t>> framing;
  auto is_blank = [](std::string_view line) {
    return line.find_first_not_of(" \t\f") == std::string_view::npos;
  };
  std::size_t line = 1, lines = source.line_count();
  while (line <= lines && is_blank(source.line(line)))
    ++line;
  if (line > lines) return framing;
  std::string_view header = source.line(line);
  if (line == 1 && header.rfind("\xEF\xBB\xBF", 0) == 0) header.remove_prefix(3);
  if (header.substr(0, header.find_last_not_of(" \t\f") + 1) != "ExportedProgram:") return framing;
  std::size_t header_start = source.line_start(line) + (source.line(line).size() - header.size());
  framing.emplace_back(header_start, header.size());
  // The labels are words and a colon, at the indentation of the graph module's class or left of
  // it (its body is indented deeper): `Graph signature:`, not a statement such as `class X:`.
  std::size_t class_indent = std::string_view::npos;
  for (std::size_t l = line + 1; l <= lines; ++l) {
    std::string_view text = source.line(l);
    std::size_t first = text.find_first_not_of(" \t\f");
    if (first == std::string_view::npos) continue;
    if (class_indent == std::string_view::npos) class_indent = first;
    if (first > class_indent) continue;
    std::string_view words = text.substr(first);
    std::size_t colon = words.find(':');
    std::string_view first_word = words.substr(0, words.find_first_of(" :"));
    bool label =
        std::isalpha(static_cast<unsigned char>(words[0])) && colon != std::string_view::npos &&
        words.substr(0, colon).find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_ ") == std::string_view::npos &&
        words.substr(0, colon).find(' ') != std::string_view::npos &&
        !starts_compound_statement(first_word);
    if (!label) continue;
    for (std::size_t rest = l; rest <= lines; ++rest)
      framing.emplace_back(source.line_start(rest), source.line(rest).size());
    break;
  }
  return framing;
}

// Where an annotation is a tensor type with an empty subscript, unquoted (`x: i64[]`): the
// offset of each such `[]`, outside strings and comments, in lines up to the line limit.
std::vector<std::size_t> unquoted_empty_tensor_types(const SourceText &source) {
  std::vector<std::size_t> out;
  if (source.text().find("[]") == std::string::npos) return out;
  char triple = 0; // the triple-quoted string open at the line's start
  for (std::size_t line = 1; line <= source.line_count(); ++line) {
    std::string_view text = source.line(line);
    if (text.size() > kMaxLineBytes) continue;
    // A line without triple quotes leaves `triple` as it was: only one with `[]` outside a
    // triple-quoted string needs reading.
    bool has_triple_quote = chunking::has_triple_quote(text);
    if (!has_triple_quote && (triple || text.find("[]") == std::string_view::npos)) continue;
    lexing::walk_code_across_lines(text, triple, [&](std::size_t i, char c) {
      if (c == '#') return false;
      if (c != ':') return true;
      std::size_t word = text.find_first_not_of(" \t", i + 1);
      if (word == std::string_view::npos) return true;
      std::size_t end = word;
      while (end < text.size() && lexing::is_word(text[end]))
        ++end;
      if (end == word || text.substr(end, 2) != "[]") return true;
      if (is_unquoted_tensor_type(text.substr(word, end + 2 - word)))
        out.push_back(source.line_start(line) + end);
      return true;
    });
  }
  return out;
}

// Whether the first line of code is indented: body lines copied out of a trace.
std::optional<uint32_t> indented_fragment(const EditedText &text) {
  for (chunking::Lines lines(text, text.original().rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0);
       lines.next();) {
    std::string_view line = lines.text();
    std::size_t first = line.find_first_not_of(" \t\r\f");
    if (first != std::string_view::npos && line[first] != '#') {
      if (first == 0) return std::nullopt;
      return static_cast<uint32_t>(first);
    }
  }
  return std::nullopt;
}

} // namespace

ParsedFile parse_trace_source(std::string path, std::string text, unsigned threads) {
  return parse_trace_source(std::move(path), std::move(text), threads, nullptr);
}

ParsedFile parse_trace_source(std::string path, std::string text, unsigned threads,
                              BodyReader *reader) {
  return detail::parse_trace_source(std::move(path), std::move(text), threads, reader, {});
}

ParsedFile detail::parse_trace_source(std::string path, std::string text, unsigned threads,
                                      BodyReader *reader, const ParseOptions &options) {
  ParsedFile out;
  out.source = SourceText(std::move(path), std::move(text));
  const std::string &original = out.source.text();
  // tree-sitter reads 32-bit offsets: a larger text would be parsed truncated.
  if (original.size() > UINT32_MAX) {
    out.syntax.push_back({out.source.span(0, 0),
                          "the file is larger than 4 GiB, more than the parser can read; split "
                          "it into smaller traces"});
    return out;
  }
  out.leaks = find_repr_leaks(out.source);

  // What tree-sitter sees: the text with reprs in code replaced by their names (same
  // length, so offsets hold), "# No signature available" by a def of the same length,
  // a UTF-8 byte-order mark dropped, indented fragments wrapped in a def, and each lone "\r"
  // (a newline to CPython, a space to tree-sitter) by "\n".
  std::string lone_cr_as_newline;
  if (out.source.has_lone_cr()) lone_cr_as_newline = with_lone_cr_as_newline(original);
  EditedText edited(out.source.has_lone_cr() ? lone_cr_as_newline : original);
  for (const ReprLeak &leak : out.leaks) {
    if (!leak.in_code) continue;
    std::size_t len = leak.span.end - leak.span.begin;
    std::string name = leak.name.empty() ? "None" : leak.name;
    if (name.size() <= len) edited.replace(leak.span.begin, len, std::move(name));
  }
  for (std::size_t at = original.find(kNoSignature); at != std::string::npos;
       at = original.find(kNoSignature, at + 1)) {
    bool line_start = at == 0 || original[at - 1] == '\n' || original[at - 1] == '\r';
    std::size_t after = at + kNoSignature.size();
    bool line_end = after == original.size() || original[after] == '\n' || original[after] == '\r';
    if (line_start && line_end) edited.replace(at, kNoSignatureDef);
  }
  std::vector<std::pair<std::size_t, std::size_t>> framing = export_printout_framing(out.source);
  for (auto [at, length] : framing)
    edited.replace(at, length, "");
  // Python source is UTF-8; CPython rejects a file with an invalid byte sequence.
  if (std::optional<std::size_t> bad = first_invalid_utf8(original)) {
    out.syntax.push_back(
        {out.source.span(*bad, *bad + 1), "invalid UTF-8 byte 0x" +
                                              hex_byte(static_cast<unsigned char>(original[*bad])) +
                                              " (Python source must be UTF-8)"});
  }
  // tree-sitter recovers badly from an unterminated string (a pasted, wrapped line): report
  // it here and blank the line, so the rest of the file is still checked.
  if (!has_triple_quote(original)) {
    for (uint32_t line = 1; line <= out.source.line_count(); ++line) {
      std::string_view text = out.source.line(line);
      std::size_t code = lexing::code_end(text);
      if (code == text.size() && lexing::in_string(text, text.size()) &&
          (text.empty() || text.back() != '\\')) {
        std::size_t quote = 0;
        for (std::size_t i = 0; i < text.size(); ++i)
          if ((text[i] == '"' || text[i] == '\'') && lexing::in_string(text, i + 1) &&
              !lexing::in_string(text, i))
            quote = i;
        uint32_t begin = out.source.line_start(line);
        out.syntax.push_back({out.source.span(begin + static_cast<uint32_t>(quote),
                                              begin + static_cast<uint32_t>(text.size())),
                              "unterminated string literal"});
        edited.replace(begin, text.size(), "");
      }
    }
  }
  // Old graph printers wrote tensor types unquoted (`arg0_1: i64[]`, `full: i64[] = ...`): a
  // 0-d tensor's is an empty subscript, a SyntaxError from which tree-sitter recovers badly (the
  // statement binds nothing, a parameter list breaks off). It is reported as CPython's error, and
  // tree-sitter reads a name of the same length in its place (`i64__`), so the rest of the file
  // is checked as it is meant; TL019 quotes it.
  for (std::size_t at : unquoted_empty_tensor_types(out.source)) {
    std::size_t begin = at;
    while (begin > 0 && lexing::is_word(original[begin - 1]))
      --begin;
    std::string type = original.substr(begin, at + 2 - begin);
    out.syntax.push_back(
        {out.source.span(begin, at + 2),
         "invalid syntax: `" + type + "`, an empty subscript (a tensor type without its quotes)"});
    edited.replace(at, "__");
  }
  // A line longer than any trace prints (a generated or corrupted file) is not parsed: a model
  // of a 10 MB line of list items took 2 GB. It is reported and read as blank, so the rest of
  // the file is still checked.
  for (std::size_t line = 1; line <= out.source.line_count(); ++line) {
    std::size_t length = out.source.line(line).size();
    if (length <= kMaxLineBytes) continue;
    std::size_t begin = out.source.line_start(line);
    out.model.push_back({out.source.span(begin, begin + 1),
                         "line of " + std::to_string(length) +
                             " bytes not checked: tracelint reads lines of up to " +
                             std::to_string(kMaxLineBytes) +
                             " bytes (1 MiB); split the statement over several lines",
                         "", true, "long_line"});
    edited.replace(begin, length, "");
  }
  for (SyntaxProblem &p : tokenizer_problems(edited, out.source))
    out.syntax.push_back(std::move(p));
  bool bom = original.rfind("\xEF\xBB\xBF", 0) == 0;
  std::optional<uint32_t> fragment_indent = indented_fragment(edited);
  std::optional<BodyChunks> chunks;
  if (!fragment_indent && !bom) chunks = chunking::find_chunks(edited, original);

  // The chunks after the first are parsed by workers while this thread parses the rest of
  // the file: the file without the chunks (cut, not blanked: tree-sitter would still lex
  // every blank line).
  std::optional<chunking::ChunkPipeline<ParsedFile, ParseState>> chunk_parser;
  if (chunks)
    chunk_parser.emplace(chunks->rest.size(), threads, [&](std::size_t i, ParseState &state) {
      auto [begin, end] = chunks->rest[i];
      std::string text = chunking::kChunkPrefix + edited.substr(begin, end);
      ParsedFile part;
      FileBuilder builder(options, state, out, part, text,
                          static_cast<uint32_t>(chunking::kChunkPrefix.size()),
                          static_cast<uint32_t>(begin));
      builder.parse_and_build(true, chunks->indent);
      return part;
    });
  {
    std::string parsed;
    uint32_t skipped = 0, prefix = 0, hole_at = UINT32_MAX, hole_len = 0;
    if (chunks) {
      hole_at = static_cast<uint32_t>(chunks->rest.front().first);
      hole_len = static_cast<uint32_t>(chunks->rest.back().second) - hole_at;
      parsed = edited.substr(0, hole_at) + edited.substr(hole_at + hole_len, edited.size());
    } else {
      skipped = bom ? 3 : 0;
      parsed = edited.substr(skipped, edited.size());
      if (fragment_indent) {
        parsed.insert(0, chunking::kChunkPrefix);
        prefix = static_cast<uint32_t>(chunking::kChunkPrefix.size());
        out.fragment_was_indented = framing.empty();
      }
    }
    ParseState state;
    FileBuilder builder(options, state, out, out, parsed, prefix, skipped, hole_at, hole_len);
    if (!framing.empty() && fragment_indent) builder.read_printed_classes();
    builder.parse_and_build(fragment_indent.has_value(), fragment_indent.value_or(0));
  }

  // Bodies go to the reader trace by trace in source order, the split body chunk by chunk;
  // without a reader the chunks join their trace's body.
  const Trace *owner = nullptr;
  if (chunks)
    for (const Trace &t : out.file.traces)
      if (t.kind != Trace::Kind::Fragment && t.def_span.begin == chunks->def_offset) owner = &t;
  // Without a trace to take them (not expected), the chunks are parsed and dropped.
  auto deliver_chunks = [&](Trace *into) {
    for (std::size_t i = 0; chunk_parser && i < chunk_parser->size(); ++i) {
      ParsedFile part = chunk_parser->take(i);
      out.syntax.insert(out.syntax.end(), part.syntax.begin(), part.syntax.end());
      out.model.insert(out.model.end(), part.model.begin(), part.model.end());
      if (!part.file.traces.empty()) {
        std::vector<Statement> &body = part.file.traces.front().body;
        if (into && reader)
          reader->statements(std::move(body));
        else if (into)
          std::move(body.begin(), body.end(), std::back_inserter(into->body));
      }
      part = ParsedFile{}; // before the next chunk is started
      chunk_parser->done(i);
    }
  };
  for (Trace &t : out.file.traces) {
    if (reader) {
      reader->begin_trace(out, t);
      reader->statements(std::exchange(t.body, {}));
    }
    if (&t == owner) deliver_chunks(&t);
    if (reader) reader->end_trace();
  }
  if (!owner) deliver_chunks(nullptr);
  return out;
}

Result<TraceFile> parse_trace(const std::string &text) {
  ParsedFile parsed = parse_trace_source("<trace>", text);
  auto fail = [](const Span &s, const std::string &what) {
    Error e;
    e.message = what;
    e.path = "<trace>";
    e.line = s.line;
    e.column = s.column;
    return e;
  };
  if (!parsed.syntax.empty())
    return fail(parsed.syntax.front().span, "syntax error: " + parsed.syntax.front().message);
  if (!parsed.leaks.empty())
    return fail(parsed.leaks.front().span, "debug repr of " + parsed.leaks.front().proxy_kind);
  if (!parsed.model.empty()) return fail(parsed.model.front().span, parsed.model.front().message);
  return std::move(parsed.file);
}

} // namespace tracelint
