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
#include <stdexcept>
#include <string>
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
  std::vector<std::string> chain;
  TraceError(Loc where, const std::string &message) : std::runtime_error(message), loc(where) {}
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
    BinOp,         // items: operands left to right; ops: the operator between each pair
    UnaryOp,       // text: - + not ~
    Compare,       // items compared pairwise with ops (< <= == != > >= is, is not, in, not in)
    BoolOp,        // items: operands left to right; ops: and / or between each pair
    IfExp,         // items: body, condition, orelse
    Starred,       // *items[0]
    DoubleStarred, // **items[0]
    Lambda,        // function
    ListComp,      // items[0] the element; generators
    SetComp,
    DictComp, // items[0] key, items[1] value; generators
    GeneratorExp,
    NamedExpr,   // items[0] := items[1] (items[0] a Name)
    Unsupported, // text: what it is; raises when evaluated
  };
  Kind kind = Kind::None;
  std::string text;
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::vector<Expr> items;
  std::vector<std::string> keywords; // Call
  std::vector<std::string> ops;      // Compare, BinOp, BoolOp
  // Lambda: its function. Comprehensions: their for/if clauses, outermost first.
  std::shared_ptr<const FunctionDef> function;
  std::shared_ptr<const std::vector<CompFor>> generators;
  Loc loc;
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
  std::string op;   // AugAssign: + - * ...
  std::string text; // ImportFrom: the module (with its leading dots); Unsupported: what
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
  // Holds a yield: calling it would make a generator, which the tracer does not run.
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
