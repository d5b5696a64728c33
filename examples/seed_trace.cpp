// Builds, through the model API, the computation trace Thunder prints for
//   def foo(a): return a[..., : (a.shape[-1] // 2)]
// under cache="symbolic values" (Thunder issue #1182), with the slice printed correctly.
#include "tracelint/core/printer.hpp"

#include <iostream>

using namespace tracelint;

namespace {

Statement bsym(const std::string &out, const std::string &symbol, std::vector<Value> args,
               const std::string &type) {
  Statement s = Statement::bound(Target::named(out), Value::call(symbol, std::move(args)));
  s.type_comment = TypeComment{out, TypeText{type, {}}, {}};
  return s;
}

Value n(const std::string &name) {
  return Value::name(name);
}
Value i(int64_t v) {
  return Value::int_value(v);
}

} // namespace

int main() {
  Trace t;
  auto comment = PreambleItem::comment_line;
  auto import = PreambleItem::import_line;
  t.preamble = {comment("# Constructed by Delete Last Used (took 0 milliseconds)"),
                import("thunder", "", ""),
                import("thunder.core.prims", "prims", ""),
                import("thunder.torch", "ltorch", ""),
                import("torch", "", ""),
                import("thunder.executors.torchex", "", "no_autocast"),
                PreambleItem::blank()};
  t.decorators = {Value::call("torch.no_grad", {}), n("no_autocast")};
  t.name = "computation";
  t.parameters = {Parameter{"a", ParamKind::Positional, {}, {}},
                  Parameter{"i1", ParamKind::Positional, {}, {}}};
  t.body.push_back(Statement::annotation_comment("a", "cuda:0 f32[i0, i1]"));
  t.body.push_back(Statement::annotation_comment("i1", "int 2"));
  t.body.push_back(Statement::blank());
  t.body.push_back(
      Statement::comment("# /tmp/foo.py:2:         return a[..., : (a.shape[-1] // 2)]"));
  t.body.push_back(bsym("b2", "prims.signbit", {n("i1")}, "bool False"));
  t.body.push_back(bsym("b3", "prims.ne", {n("b2"), Value::boolean_value(false)}, "bool False"));
  t.body.push_back(bsym("f4", "prims.fmod", {n("i1"), i(2)}, "float 0.0"));
  t.body.push_back(bsym("i5", "prims.convert_element_type", {n("f4"), n("int")}, "int 0"));
  t.body.push_back(bsym("b6", "prims.ne", {n("i5"), i(0)}, "bool False"));
  t.body.push_back(bsym("b7", "prims.bitwise_and", {n("b3"), n("b6")}, "bool False"));
  t.body.push_back(bsym("i8", "prims.div", {n("i1"), i(2)}, "int 1"));
  t.body.push_back(bsym("i9", "prims.convert_element_type", {n("b7"), n("int")}, "int 0"));
  t.body.push_back(bsym("i10", "prims.sub", {n("i8"), n("i9")}, "int 1"));
  // The seed bug: this slice holds the IntegerProxy i10 and must print its name.
  Value key =
      Value::tuple({Value::ellipsis(), Value::slice(Value::none(), n("i10"), Value::none())});
  t.body.push_back(bsym("t37", "ltorch.getitem", {n("a"), key}, "cuda:0 f32[i0, i10]"));
  t.body.push_back(Statement::del({"a", "i1"}));
  t.body.push_back(Statement::ret(n("t37")));
  std::cout << print_trace(t);
}
