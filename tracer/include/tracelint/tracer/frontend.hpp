#pragma once
// The tracer's frontend: Python source read with tree-sitter into a small syntax tree. Every
// statement and expression the grammar accepts is kept: what the interpreter cannot run is an
// Unsupported node that raises when (and only when) the interpreter reaches it, so that a class
// or function the traced path never calls cannot stop tracing. Syntax errors stop at once.
#include "tracelint/core/result.hpp"
#include "tracelint/core/source.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tracelint::tracer {

struct Loc {
  uint32_t line = 0;   // 1-based
  uint32_t column = 0; // 1-based byte column
};

// Raised inside the tracer, turned into an Error at its boundary: the construct and its place,
// then the calls it was reached through ("in `Block.forward`, model.py:105:13", innermost
// first).
struct TraceError : std::runtime_error {
  Loc loc;
  // The file of loc, once the function it was raised in has said (none: the traced file).
  std::optional<std::string> file;
  std::vector<std::string> chain;
  TraceError(Loc where, const std::string &message) : std::runtime_error(message), loc(where) {}
};

// Python's operators, read by the frontend and run by the interpreter.
enum class BinaryOp : uint8_t {
  add,      // +
  sub,      // -
  mul,      // *
  truediv,  // /
  floordiv, // //
  mod,      // %
  pow,      // **
  matmul,   // @
  bit_and,  // &
  bit_or,   // |
  bit_xor,  // ^
  lshift,   // <<
  rshift,   // >>
};
enum class CompareOp : uint8_t { lt, le, gt, ge, eq, ne, is, is_not, in, not_in };
// The unary arithmetic operations of Python's data model (-x, +x, ~x and the builtin abs(x),
// each with its special method) and `not`.
enum class UnaryOp : uint8_t { neg, pos, invert, abs, not_ };
enum class BoolOp : uint8_t { and_, or_ };
// An augmented assignment (x += y) applies its binary operator: Stmt::op is a BinaryOp.

// The one table of the operators: each one's spelling (for messages: "unsupported operand
// type(s) for +") and the special methods it calls on a user class (__add__, and the reflected
// __radd__ tried on the right operand; empty where there is none). Indexed by the enum.
struct OperatorRow {
  std::string_view spelling;
  std::string_view method;
  std::string_view reflected;
};
inline constexpr OperatorRow kBinaryOperators[] = {{"+", "__add__", "__radd__"},
                                                   {"-", "__sub__", "__rsub__"},
                                                   {"*", "__mul__", "__rmul__"},
                                                   {"/", "__truediv__", "__rtruediv__"},
                                                   {"//", "__floordiv__", "__rfloordiv__"},
                                                   {"%", "__mod__", "__rmod__"},
                                                   {"**", "__pow__", "__rpow__"},
                                                   {"@", "__matmul__", "__rmatmul__"},
                                                   {"&", "__and__", "__rand__"},
                                                   {"|", "__or__", "__ror__"},
                                                   {"^", "__xor__", "__rxor__"},
                                                   {"<<", "__lshift__", "__rlshift__"},
                                                   {">>", "__rshift__", "__rrshift__"}};
// An ordering's reflection is its mirror (a < b tries b.__gt__(a)).
inline constexpr OperatorRow kCompareOperators[] = {{"<", "__lt__", "__gt__"},
                                                    {"<=", "__le__", "__ge__"},
                                                    {">", "__gt__", "__lt__"},
                                                    {">=", "__ge__", "__le__"},
                                                    {"==", "__eq__", "__eq__"},
                                                    {"!=", "__ne__", "__ne__"},
                                                    {"is", "", ""},
                                                    {"is not", "", ""},
                                                    {"in", "__contains__", ""},
                                                    {"not in", "__contains__", ""}};
inline constexpr OperatorRow kUnaryOperators[] = {{"-", "__neg__", ""},
                                                  {"+", "__pos__", ""},
                                                  {"~", "__invert__", ""},
                                                  {"abs", "__abs__", ""},
                                                  {"not", "", ""}};
inline constexpr OperatorRow kBoolOperators[] = {{"and", "", ""}, {"or", "", ""}};

template <class Op> constexpr std::span<const OperatorRow> operator_table();
template <> constexpr std::span<const OperatorRow> operator_table<BinaryOp>() {
  return kBinaryOperators;
}
template <> constexpr std::span<const OperatorRow> operator_table<CompareOp>() {
  return kCompareOperators;
}
template <> constexpr std::span<const OperatorRow> operator_table<UnaryOp>() {
  return kUnaryOperators;
}
template <> constexpr std::span<const OperatorRow> operator_table<BoolOp>() {
  return kBoolOperators;
}

template <class Op> constexpr const OperatorRow &operator_row(Op op) {
  return operator_table<Op>()[static_cast<std::size_t>(op)];
}
template <class Op> constexpr std::string_view spelling(Op op) {
  return operator_row(op).spelling;
}
// The operator of this kind spelled so, if Python has one ("+=" is not: an augmented
// assignment's operator is read without its "=").
template <class Op> constexpr std::optional<Op> operator_spelled(std::string_view spelled) {
  std::span<const OperatorRow> rows = operator_table<Op>();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (rows[i].spelling == spelled) return static_cast<Op>(i);
  return std::nullopt;
}

// What Python's operator syntax asks of an operand's special methods: a binary, comparison or
// unary operator, or a subscript (x[i], __getitem__). The interpreter hands it to a tensor.
struct TensorOperator {
  enum class Kind : uint8_t { binary, comparison, unary, subscript };
  Kind kind;
  uint8_t op; // the BinaryOp, CompareOp or UnaryOp's value; 0 for a subscript

  constexpr TensorOperator(BinaryOp o) : kind(Kind::binary), op(static_cast<uint8_t>(o)) {}
  constexpr TensorOperator(CompareOp o) : kind(Kind::comparison), op(static_cast<uint8_t>(o)) {}
  constexpr TensorOperator(UnaryOp o) : kind(Kind::unary), op(static_cast<uint8_t>(o)) {}
  static constexpr TensorOperator subscript() { return TensorOperator(Kind::subscript); }
  friend constexpr bool operator==(TensorOperator, TensorOperator) = default;

  // "+", "<", "-", and "[]" for a subscript.
  constexpr std::string_view spelling() const { return row().spelling; }
  // The special method: "__add__", "__lt__", "__neg__", "__getitem__".
  constexpr std::string_view method() const { return row().method; }

private:
  static constexpr OperatorRow kSubscript{"[]", "__getitem__", ""};
  constexpr explicit TensorOperator(Kind k) : kind(k), op(0) {}
  constexpr const OperatorRow &row() const {
    switch (kind) {
    case Kind::binary:
      return operator_row(static_cast<BinaryOp>(op));
    case Kind::comparison:
      return operator_row(static_cast<CompareOp>(op));
    case Kind::unary:
      return operator_row(static_cast<UnaryOp>(op));
    case Kind::subscript:
      break;
    }
    return kSubscript;
  }
};

struct FunctionDef;
struct CompFor;

struct Expr {
  enum class Kind : uint8_t {
    Name,
    Int,
    Float,
    Str,
    FString,        // items: Str parts and FormattedValue parts
    FormattedValue, // items[0] the value, items[1] the format spec (an FString) or absent;
                    // text: the conversion ("r", "s", "a" or "")
    Bool,
    None,
    Ellipsis,
    Tuple,
    List,
    Set,
    Dict,          // items: key0, value0, ...; a **d entry is a DoubleStarred key with a None value
    Attribute,     // items[0].text
    Call,          // items[0] callee, then positional args (Starred too), then keyword values;
                   // keywords names them ("**" for a **d argument)
    Subscript,     // items[0][items[1]]
    Slice,         // items: start, stop, step (None where absent)
    BinOp,         // items: operands left to right; binary_ops(): the operator between each pair
    UnaryOp,       // unary_op applied to items[0]
    Compare,       // items compared pairwise with compare_ops()
    BoolOp,        // items: operands left to right; bool_ops(): and / or between each pair
    IfExp,         // items: body, condition, orelse
    Starred,       // *items[0]
    DoubleStarred, // **items[0]
    Lambda,        // function
    ListComp,      // items[0] the element; generators
    SetComp,
    DictComp, // items[0] key, items[1] value; generators
    GeneratorExp,
    NamedExpr,   // items[0] := items[1] (items[0] a Name)
    Yield,       // yield items[0] (a None expression for a bare yield)
    YieldFrom,   // yield from items[0]
    Unsupported, // text: what it is; raises when evaluated
  };
  Kind kind = Kind::None;
  std::string text;
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::vector<Expr> items;
  std::vector<std::string> keywords; // Call
  // BinOp, Compare, BoolOp: the operators between the items (one vector of the node's kind,
  // as small as a vector of one type).
  std::variant<std::vector<BinaryOp>, std::vector<CompareOp>, std::vector<BoolOp>> ops;
  UnaryOp unary_op = UnaryOp::neg; // UnaryOp
  // Lambda: its function. Comprehensions: their for/if clauses, outermost first.
  std::shared_ptr<const FunctionDef> function;
  std::shared_ptr<const std::vector<CompFor>> generators;
  Loc loc;

  const std::vector<BinaryOp> &binary_ops() const { return std::get<0>(ops); }
  const std::vector<CompareOp> &compare_ops() const { return std::get<1>(ops); }
  const std::vector<BoolOp> &bool_ops() const { return std::get<2>(ops); }
};

struct CompFor {
  Expr target;
  Expr iter;
  std::vector<Expr> ifs;
};

struct Stmt;

struct ExceptHandler {
  std::optional<Expr> type; // absent: a bare except
  std::string name;         // except E as name
  std::vector<Stmt> body;
  Loc loc;
};

struct ImportName {
  std::string name;  // import a.b / from m import name
  std::string alias; // as alias, or ""
};

struct ClassDef;

struct Stmt {
  enum class Kind : uint8_t {
    Expr,
    Assign,    // targets = value (a = b = x: two targets)
    AugAssign, // targets[0] op= value
    AnnAssign, // targets[0]: annotation [= value]; has_value
    Return,
    If,
    For,   // for targets[0] in value: body else: orelse
    While, // while value: body else: orelse
    Break,
    Continue,
    Pass,
    Def,
    Class,
    Import,     // names
    ImportFrom, // module (text), names; a star import has the name "*"
    Assert,     // value, and the message in exprs[0] if any
    Raise,      // value (the exception) if has_value; exprs[0] the cause if any
    Try,        // body, handlers, orelse, finalbody
    With,       // exprs: the context managers; targets: their `as` targets (a None Expr for
                // none); body
    Delete,     // targets
    Global,     // names
    Nonlocal,   // names
    Unsupported // text: what it is; raises when run
  };
  Kind kind = Kind::Expr;
  bool has_value = true;     // Return, Raise, AnnAssign
  std::vector<Expr> targets; // Assign: one or more; AugAssign/For/AnnAssign: one
  Expr value;
  BinaryOp op = BinaryOp::add; // AugAssign: += is add
  std::string text;            // ImportFrom: the module (with its leading dots); Unsupported: what
  std::vector<Expr> exprs;
  std::vector<Stmt> body;
  // If: the elif clauses in order (each an If without elifs or orelse), side by side rather than
  // nested so that a long chain costs neither stack nor recursive destruction; then the else.
  std::vector<Stmt> elifs;
  std::vector<Stmt> orelse;
  std::vector<Stmt> finalbody;
  std::vector<ExceptHandler> handlers;
  std::vector<ImportName> names; // Import, ImportFrom; Global/Nonlocal (name only)
  std::shared_ptr<const FunctionDef> function;
  std::shared_ptr<const ClassDef> cls;
  Loc loc;
};

// The statements of a large function body after its first chunk: parsed on other threads
// while the interpreter runs the first ones, and taken in order (see core/src/chunking.hpp).
// Used by one thread at a time.
class BodyRest {
public:
  struct Impl;
  // A chunk that tree-sitter rejects: the caller parses the whole file again, whose error is
  // the one to report (a cut file can fail where the whole one would not).
  struct Failed {};

  explicit BodyRest(std::unique_ptr<Impl> impl);
  ~BodyRest();
  std::size_t size() const;
  // Chunk i's statements, parsing them if no thread has; throws Failed.
  const std::vector<Stmt> &chunk(std::size_t i);
  // Parses what is left: whether every chunk parsed without error.
  bool parses_cleanly();

private:
  std::unique_ptr<Impl> impl_;
};

struct Param {
  enum class Kind : uint8_t { Positional, PositionalOnly, VarArgs, KeywordOnly, VarKeywords };
  Kind kind = Kind::Positional;
  std::string name;
  std::optional<Expr> default_value;
  Loc loc;
};

struct FunctionDef {
  std::string name; // "<lambda>" for a lambda
  std::vector<Param> params;
  std::vector<Stmt> body;
  std::vector<Expr> decorators;
  std::shared_ptr<BodyRest> rest; // the body goes on here where it was parsed in chunks
  // Holds a yield: calling it makes a generator.
  bool is_generator = false;
  Loc loc;
};

struct ClassDef {
  std::string name;
  std::vector<Expr> bases;
  std::vector<std::string> keywords; // class C(Base, metaclass=M): keyword names ...
  std::vector<Expr> keyword_values;  // ... and their values
  std::vector<Stmt> body;
  std::vector<Expr> decorators;
  Loc loc;
};

struct Module {
  std::string path;
  std::vector<Stmt> body;
  // The source with its line index (provenance comments), one copy shared with the rest of a
  // chunked body.
  std::shared_ptr<const SourceText> source;
  // The top-level def with this name (the last one), or nullptr.
  const FunctionDef *function(const std::string &name) const;
  // The names of its top-level defs and classes, in order (error messages).
  std::vector<std::string> definitions() const;
};

// Parses a module: every top-level statement.
Result<Module> parse_module(const std::string &path, const std::string &source);
// The same, except that a large function body may be left partly unparsed in `rest`, whose
// chunks `threads` threads parse while the caller goes on. Whoever uses such a module must
// call rest->parses_cleanly() before trusting what it did with it, and use parse_module's
// result where that is false.
Result<Module> parse_module_chunked(const std::string &path, const std::string &source,
                                    unsigned threads);
// Parses one Python expression (an --arg value, an --init expression, a schema's default).
Result<Expr> parse_expression(const std::string &source);
// Parses a parameter list as Python writes it between a def's parentheses
// ("a, /, dim=None, *, dtype=None"): the op registry's schemas.
Result<std::vector<Param>> parse_parameters(const std::string &source);

} // namespace tracelint::tracer
