#pragma once
// The evaluator: Python's statements and expressions over the interpreter's objects. It runs
// blocks in frames (a call's, a class body's, the module's), evaluates expressions, makes
// functions and classes, binds and deletes names, and calls Python functions (their depth
// bounded by InterpreterLimits::max_depth). Defined in evaluator.cpp; generators (make_generator,
// yield_value, yield_from) in generators.cpp.
#include "tracelint/tracer/interpreter.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tracelint::tracer {

// A running scope: a call's, a class body's or the module's.
struct Frame {
  std::shared_ptr<Env> locals;
  std::shared_ptr<Env> globals;
  const Module *module = nullptr; // whose statements run here (provenance: the traced one's)
  const FunctionObj *function = nullptr;
  Obj first_argument; // for super()
  std::vector<std::string> global_names;
  std::vector<std::string> nonlocal_names;
  std::vector<std::string> annotations; // a class body's annotated names, in order
  Obj result;
  bool is_module = false;
  bool is_class = false;
};

class Evaluator {
public:
  explicit Evaluator(Interpreter &interpreter) : in(interpreter) {}
  Evaluator(const Evaluator &) = delete;
  Evaluator &operator=(const Evaluator &) = delete;

  enum class Flow : uint8_t { Normal, Break, Continue, Return };

  // ---- statements
  Flow run_block(const std::vector<Stmt> &block, Frame &frame);
  Flow run(const Stmt &s, Frame &frame);
  Flow run_try(const Stmt &s, Frame &frame);
  Flow run_aug_assign(const Stmt &s, Frame &frame);
  Flow run_with(const Stmt &s, Frame &frame);
  void define_class(const Stmt &s, Frame &frame);
  Obj make_function(const FunctionDef &def, Frame &frame, const std::string &qualname);

  // ---- expressions
  Obj eval(const Expr &e, Frame &frame);
  Obj eval_call(const Expr &e, Frame &frame);
  Obj eval_fstring(const Expr &e, Frame &frame);
  Obj eval_comprehension(const Expr &e, Frame &frame);

  // ---- names and targets
  Obj lookup(const Expr &name, Frame &frame);
  void assign(const Expr &target, Obj value, Frame &frame);
  void bind_name(const std::string &name, Obj value, Frame &frame);
  void delete_target(const Expr &target, Frame &frame);

  // ---- calls of Python functions
  Obj call_function(const FunctionObj &f, std::vector<Obj> args, Kwargs kwargs, const Loc &loc);
  void call_chain_note(TraceError &e, const std::string &where);
  // generators.cpp: a call of a generator function (its arguments bound in `bound`), and what
  // `yield` and `yield from` do in its body.
  Obj make_generator(const FunctionObj &f, Frame &&bound);
  Obj yield_value(Obj value, const Loc &loc);
  Obj yield_from(const Obj &iterable, const Loc &loc);

  Interpreter &in;
  int depth = 0;                            // Python calls nested now
  std::vector<const Module *> call_modules; // the module of each function being run
};

} // namespace tracelint::tracer
