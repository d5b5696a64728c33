#pragma once
// The tracer's frontend: the subset of Python it interprets, read with tree-sitter into a
// small syntax tree. Anything outside the subset is an error naming file:line:col.
#include "tracelint/core/result.hpp"
#include "tracelint/core/source.hpp"

#include <cstdint>
#include <map>
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

// Raised inside the tracer, turned into an Error at its boundary.
struct TraceError : std::runtime_error {
  Loc loc;
  TraceError(Loc where, const std::string &message) : std::runtime_error(message), loc(where) {}
};

struct Expr {
  enum class Kind {
    Name,
    Int,
    Float,
    Str,
    Bool,
    None,
    Ellipsis,
    Tuple,
    List,
    Dict,      // items: key0, value0, key1, value1, ...
    Attribute, // items[0].text
    Call,      // items[0] callee, then positional args, then keyword values
    Subscript, // items[0][items[1]]
    Slice,     // items: start, stop, step (None where absent)
    BinOp,     // items: operands left to right; ops: + - * / // % ** @ between each pair
    UnaryOp,   // text: - + not
    Compare,   // items compared pairwise with ops
    BoolOp,    // items: operands left to right; ops: and / or between each pair
    IfExp,     // items: body, condition, orelse
    Starred,   // *items[0] in a call
  };
  Kind kind = Kind::None;
  std::string text;
  int64_t integer = 0;
  double real = 0;
  bool boolean = false;
  std::vector<Expr> items;
  std::vector<std::string> keywords; // Call: names of the trailing keyword arguments
  std::vector<std::string> ops;      // Compare, BinOp, BoolOp
  Loc loc;
};

struct Stmt {
  enum class Kind { Expr, Assign, AugAssign, Return, If, For, Pass, Def };
  Kind kind = Kind::Expr;
  std::vector<Expr> targets; // Assign: one or more (a = b = x); AugAssign/For: one
  Expr value;                // the right side, the returned value, the condition, the iterable
  bool has_value = true;     // Return
  std::string op;            // AugAssign: + - * ...
  std::vector<Stmt> body;
  // If: the elif clauses in order (each an If without elifs or orelse), side by side rather than
  // nested so that a long chain costs neither stack nor recursive destruction; then the else.
  std::vector<Stmt> elifs;
  std::vector<Stmt> orelse;
  Loc loc;
  std::string def_name; // Def: a nested function's name (see Module::functions)
};

// The statements of a large function body after its first chunk: parsed on other threads
// while the interpreter runs the first ones, and taken in order (see core/src/chunking.hpp).
// Used by one thread at a time.
class BodyRest {
public:
  struct Impl;
  // A chunk that tree-sitter or the subset rejects: the caller parses the whole file again,
  // whose error is the one to report (a cut file can fail where the whole one would not).
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
  std::string name;
  std::optional<Expr> default_value;
  Loc loc;
};

struct Function {
  std::string name;
  std::vector<Param> params;
  std::vector<Stmt> body;
  std::shared_ptr<BodyRest> rest; // the body goes on here where it was parsed in chunks
  Loc loc;
};

struct Module {
  std::string path;
  std::map<std::string, std::string> imports; // bound name -> module (torch, torch.nn.functional)
  std::map<std::string, Function> functions;
  std::map<std::string, Expr> constants; // module-level NAME = literal
  // The source with its line index (provenance comments), one copy shared with the rest of a
  // chunked body.
  std::shared_ptr<const SourceText> source;
};

// Parses a module: imports, function definitions and constant assignments at top level.
Result<Module> parse_module(const std::string &path, const std::string &source);
// The same, except that a large function body may be left partly unparsed in `rest`, whose
// chunks `threads` threads parse while the caller goes on. Whoever uses such a module must
// call rest->parses_cleanly() before trusting what it did with it, and use parse_module's
// result where that is false.
Result<Module> parse_module_chunked(const std::string &path, const std::string &source,
                                    unsigned threads);
// Parses one Python expression (an --arg value).
Result<Expr> parse_expression(const std::string &source);

} // namespace tracelint::tracer
