#pragma once
// Binding the traced call's inputs: the proxies the interpreter runs on (tensors with dims,
// numbers under symbolic values, collections of these), and the prologue statements that
// unpack each input from *args and check what the computation was specialised for.
#include "recorder.hpp"

#include <string>
#include <vector>

namespace tracelint::tracer {

class Binder {
public:
  Binder(CacheMode cache, Recorder &recorder) : cache_(cache), recorder_(recorder) {}

  // The proxy version of an input as given: tensors and (under symbolic values) ints get names.
  Obj make_input(const InputSpec &spec, const std::string &name);
  // A tensor of the module's state: constant dims, its own name.
  Obj name_state(const Obj &tensor, const std::string &name);

  // Statements that bind `name` (already assigned) to o's parts and check them.
  void check_input(const Obj &o, const std::string &name, std::vector<Statement> &out);
  // `name: "type" = source`
  static Statement annotated(const std::string &name, const Obj &o, Value source);

private:
  Obj proxied(Obj o, const std::string &top_name);
  void bind_part(const Obj &item, Value source, std::vector<Statement> &out);

  CacheMode cache_;
  Recorder &recorder_;
};

// The proxies in an input (the tensor, its dims, the numbers of a collection), outermost first.
void collect_proxies(const Obj &o, std::vector<const Obj *> &out);
// A literal model Value as an interpreter Obj (an --arg literal).
Obj value_to_obj(const Value &v);
// The name a proxy has in the trace ("" for none).
const std::string &proxy_name(const Obj &o);

} // namespace tracelint::tracer
