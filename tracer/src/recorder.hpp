#pragma once
// The tracing backend: records every operation as a bound symbol of the computation trace
// (ltorch symbols with their prims as subsymbols; number operations on proxies as prims),
// and the guards the prologue must check.
#include "tracelint/tracer/interpreter.hpp"
#include "tracelint/tracer/tracer.hpp"

#include "frontend.hpp"
#include "lexing.hpp"

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tracelint::tracer {

class Recorder : public Backend {
public:
  Recorder(CacheMode cache, const Module &module, bool provenance)
      : cache_(cache), module_(module), provenance_(provenance) {
    // About a symbol per source line, and its provenance comment: fewer moves of the body.
    body_.reserve(module.source->line_count() * (provenance ? 2 : 1));
  }

  Obj tensor_op(const std::string &op, const std::vector<Obj> &args, const Loc &loc) override;
  Obj number_op(const std::string &op, const std::vector<Obj> &args, Obj result,
                const Loc &loc) override;
  void guard(const Obj &value, const Loc &loc) override;
  void at_statement(const Stmt &s) override;

  // A fresh name with Thunder's prefixes: t (tensors), i, f, b (numbers), C (collections).
  std::string fresh(const std::string &prefix);
  void reserve(const std::string &name) { reserved_.insert(name); }
  // An input proxy: defined by the prologue, passed to the computation when it is used.
  void add_input_proxy(const std::string &name) { inputs_.insert(name); }

  std::vector<Statement> take_body() { return std::move(body_); }
  // For dead-code elimination, which then reads only top-level statements: the names that the
  // subsymbols of the top-level symbol at a body index read and that neither its call nor its
  // subsymbols provide (a size recorded at top level during its decomposition, an input's
  // dim), by body index in increasing order. Collected as each symbol is recorded.
  std::vector<std::pair<std::size_t, std::string>> take_hidden_reads() {
    return std::move(hidden_reads_);
  }
  // The bytes of each tensor recorded, by name (for the memory estimate of a run).
  std::unordered_map<std::string, uint64_t> take_tensor_bytes() { return std::move(tensor_bytes_); }
  // The statements that compute each guarded value from the inputs, then the checks.
  std::vector<Statement> guard_statements() const;

private:
  Obj prim(const std::string &name, std::vector<Value> args, Obj out);
  template <class F> Obj composite(const std::string &name, std::vector<Value> args, F &&decompose);
  // A new statement at the end of the body, after the provenance comment it waits for.
  Statement &top_statement();
  // `name = value  # name: "type of out"`, built where it goes (a Statement is large to move):
  // in the composite being recorded, or the body. Valid until the next statement is recorded.
  Statement &bind(const std::string &name, Value value, const Obj &out);
  void note_hidden_reads(const Statement &composite);
  Obj num(const std::string &op, const Obj &a, const Obj &b, const Loc &loc);
  Obj record_number(const std::string &prim_name, std::vector<Value> args, Obj result);

  Obj elementwise(const std::string &op, const Obj &a, const Obj &b, const Loc &loc);
  Obj broadcast_to(const Obj &t, const std::vector<Obj> &shape, const Loc &loc);
  Obj reduce(const std::string &op, const Obj &a, const Obj &dims, bool keepdim, const Loc &loc);
  Obj reduce_prims(const std::string &prim_name, const Obj &a, const std::vector<int64_t> &dims,
                   bool keepdim);
  Obj keep_dims(const Obj &reduced, const Obj &a, const std::vector<int64_t> &dims);
  Obj reshape(const std::string &name, const Obj &a, const Obj &shape, const Loc &loc);
  Obj getitem(const Obj &a, const Obj &key, const Loc &loc);
  Obj matmul(const Obj &a, const Obj &b, const Loc &loc);
  Obj linear(const Obj &x, const Obj &w, const Obj &bias, const Loc &loc);
  Obj cat(const Obj &tensors, int64_t dim, const Loc &loc);
  Obj softmax(const Obj &a, int64_t dim, const Loc &loc);
  Obj unary(const std::string &op, const Obj &a, const Loc &loc);

  Obj like(const Obj &t, std::vector<Obj> shape) const;
  Obj like(const Obj &t, std::vector<Obj> shape, const std::string &dtype) const;
  int64_t dim_index(int64_t d, std::size_t rank, const Loc &loc) const;

  CacheMode cache_;
  const Module &module_;
  bool provenance_;
  int counter_ = 0;
  std::unordered_set<std::string> reserved_;
  std::set<std::string> inputs_;
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
  std::vector<std::pair<std::string, Obj>> guards_;
  std::unordered_map<std::string, uint64_t> tensor_bytes_;
};

std::string type_string(const Obj &o);

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
// a module's symbol (prims.add, ltorch.mul; the recorder calls nothing else through an
// attribute), never a name the trace defines: it is left out.
template <class F> void for_each_read_name(const Value &v, F &&f) {
  if (v.kind != ValueKind::Call || v.callee().kind != ValueKind::Attribute) {
    for_each_name(v, f);
    return;
  }
  for (std::size_t i = 1; i < v.items.size(); ++i)
    for_each_name(v.items[i], f);
}

// Thunder's name prefixes: t (tensors), i (ints), f (floats), b (bools), C (collections).
std::string proxy_prefix(const Obj &o);

} // namespace tracelint::tracer
