#pragma once
// The tracing backend: records every ltorch symbol the interpreter calls as a bound symbol of
// the computation trace, with its decomposition (read from the op registry) as subsymbols, every
// number operation on proxies as prims, and the guards the prologue must check. The
// decompositions record through it too (prim, call, num, decide).
#include "tracelint/core/lexing.hpp"
#include "tracelint/core/trace.hpp"
#include "tracelint/tracer/interpreter.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <cctype>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tracelint::tracer {

// A prim as the forward recorded it, for the grad transform: its arguments and output as they
// were then (an in-place update renames a tensor later).
struct TapeEntry {
  Sym prim;
  std::vector<Obj> args;
  Obj out;
  Loc loc;
};

class Recorder : public Backend {
public:
  Recorder(CacheMode cache, const Module &module, bool provenance);

  // ---- Backend
  Obj call_symbol(Sym symbol, std::vector<Obj> args, const Loc &loc) override;
  Obj number_op(NumOp op, const std::vector<Obj> &args, Obj result, const Loc &loc) override;
  void guard(const Obj &value, const Loc &loc) override;
  void at_statement(const Stmt &s, const Module &m) override;
  bool tracing() const override { return recording_; }

  // While false (a module being constructed), operations compute their results' shapes and
  // record nothing; their tensors have no names.
  void set_recording(bool on) { recording_ = on; }
  // While on, each prim recorded is also kept on the tape (TapeEntry), for the grad transform.
  void set_taping(bool on) { taping_ = on; }
  std::vector<TapeEntry> take_tape() { return std::move(tape_); }
  // Called with the number of statements recorded so far, after each symbol the traced code
  // calls (for a progress display).
  void set_progress(std::function<void(std::size_t)> progress) { progress_ = std::move(progress); }
  // Whether statements get "# file.py:3: <source line>" comments (none for a backward).
  void set_provenance(bool on) {
    provenance_ = on;
    pending_provenance_.clear();
  }
  CacheMode cache() const { return cache_; }

  // ---- for the decompositions
  // A prim on these arguments (its schema's order): its shape rule gives the output, which is
  // bound to fresh names.
  Obj prim(Sym prim, std::vector<Obj> args, const Loc &loc);
  // A nested ltorch symbol (arguments in its schema's order, all of them).
  Obj call(Sym symbol, std::vector<Obj> args, const Loc &loc);
  // Python's arithmetic on numbers; on a proxy it records prims (once per operation and
  // operands).
  Obj num(NumOp op, const Obj &a, const Obj &b, const Loc &loc);
  // A comparison whose result decides what is recorded: its value, guarded.
  bool decide(NumOp comparison, const Obj &a, const Obj &b, const Loc &loc);
  // Whether two sizes are equal (guarded when one is a proxy).
  bool same_size(const Obj &a, const Obj &b, const Loc &loc);
  // A concrete int where a decomposition needs one (a dim); a proxy is guarded.
  int64_t concrete(const Obj &o, const Loc &loc, const std::string &what);

  // A fresh name with Thunder's prefixes: t (tensors), i, f, b (numbers), C (collections).
  std::string fresh(const std::string &prefix);
  void reserve(const std::string &name) { reserved_.insert(name); }

  std::vector<Statement> take_body() { return std::move(body_); }
  // For dead-code elimination, which then reads only top-level statements: the names that the
  // subsymbols of the top-level symbol at a body index read and that neither its call nor its
  // subsymbols provide (a size recorded at top level during its decomposition, an input's
  // dim), by body index in increasing order. Collected as each symbol is recorded.
  std::vector<std::pair<std::size_t, std::string>> take_hidden_reads() {
    return std::move(hidden_reads_);
  }
  // The bytes of each tensor recorded, by name (for the memory estimate of a run).
  std::vector<std::pair<std::string, uint64_t>> take_tensor_bytes() {
    return std::move(tensor_bytes_);
  }
  // The statements that compute each guarded value from the inputs, then the checks.
  std::vector<Statement> guard_statements() const;
  // Appends a statement to the computation at top level (the copy of an updated input).
  void append(Statement s) { top_statement() = std::move(s); }

private:
  template <class F> Obj composite(Value call, F &&decompose);
  Value call_value(Sym symbol, const std::vector<Obj> &args) const;
  Statement &top_statement();
  Statement &bind_statement();
  void bind_output(Statement &s, Value value, Obj &out);
  void note_hidden_reads(const Statement &composite);
  Obj record_number(Sym prim, std::vector<Value> args, Obj result);
  // An integer operation whose result is an operand or 0: x + 0, x * 1, x + (z - x), x - x.
  std::optional<Obj> simplified(NumOp op, const Obj &a, const Obj &b) const;

  CacheMode cache_;
  const Module &module_;
  bool provenance_;
  bool recording_ = true;
  bool taping_ = false;
  std::function<void(std::size_t)> progress_;
  std::vector<TapeEntry> tape_;
  int counter_ = 0;
  std::unordered_set<std::string> reserved_;
  std::vector<Statement> body_;
  std::vector<Statement> *sink_ = &body_;
  std::vector<std::pair<std::size_t, std::string>> hidden_reads_;
  // note_hidden_reads' scratch: the call's names, then each name its subsymbols read or bind.
  std::vector<std::string_view> names_seen_;
  std::string pending_provenance_;
  // Number proxies computed by the trace: their defining statement, in creation order.
  std::unordered_map<std::string, std::size_t> number_index_;
  std::vector<Statement> number_defs_;
  std::unordered_map<std::string, Obj> number_memo_;    // by the printed call
  std::unordered_map<std::string, Obj> number_results_; // num's, by op and operands
  // Each proxy made by num as z - x: (z, x), for simplified().
  std::unordered_map<std::string, std::pair<Obj, Obj>> differences_;
  std::vector<std::pair<std::string, Obj>> guards_;
  std::vector<std::pair<std::string, uint64_t>> tensor_bytes_;
};

// Obj -> model Value: proxies print as their names, never as a repr. Throws a TraceError for
// what a trace cannot hold (a function, an unnamed tensor).
Value to_value(const Obj &o, const Loc &loc = {});

// The annotation of a proxy: "cpu f32[2, i0]", "int 8", "Collection".
std::string type_string(const Obj &o);

// Thunder's name prefixes: t (tensors), i (ints), f (floats), b (bools), C (collections).
std::string proxy_prefix(const Obj &o);

// Calls f(name) for each symbol of a type string the tracer printed: the identifiers inside
// the brackets ("cpu f32[i0, 4]" -> i0).
template <class F> void for_each_type_symbol(std::string_view text, F &&f) {
  std::size_t open = text.find('[');
  for (std::size_t i = open == std::string_view::npos ? text.size() : open + 1; i < text.size();) {
    if (!lexing::is_word(text[i]) || std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    std::size_t begin = i;
    while (i < text.size() && lexing::is_word(text[i]))
      ++i;
    f(text.substr(begin, i - begin));
  }
}
// Calls f(const Value &) for each name a recorded value reads. The callee of a recorded call is
// a module's symbol (prims.add, ltorch.mul) or a method of the function object, never a name
// the computation defines: it is left out.
template <class F> void for_each_read_name(const Value &v, F &&f) {
  if (v.kind != ValueKind::Call || v.callee().kind != ValueKind::Attribute) {
    for_each_name(v, f);
    return;
  }
  for (std::size_t i = 1; i < v.items.size(); ++i)
    for_each_name(v.items[i], f);
}

} // namespace tracelint::tracer
