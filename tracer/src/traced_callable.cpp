#include "tracelint/tracer/traced_callable.hpp"

#include "excerpt.hpp"
#include "object_model.hpp"

namespace tracelint::tracer {

namespace {

std::string signature_of(const std::string &name, const FunctionDef &def, std::size_t first) {
  std::string s = name + "(";
  for (std::size_t i = first; i < def.params.size(); ++i)
    s += (i > first ? ", " : "") + def.params[i].name;
  return excerpt(s + ")");
}

} // namespace

Result<TracedCallable> traced_callable(const TraceRequest &request, const Module &module,
                                       Interpreter &in) {
  TracedCallable t;
  auto known = [&] {
    std::string list;
    for (const std::string &n : module.definitions())
      list += (list.empty() ? "" : ", ") + n;
    return list.empty() ? std::string(" (it defines none)")
                        : " (it defines: " + excerpt(list) + ")";
  };
  if (request.module_class.empty()) {
    const Obj *f = in.global(request.function);
    if (!f || f->kind != Obj::Kind::Function)
      return Error{"no function `" + excerpt(request.function) + "` in this file" + known(),
                   request.path, 0, 0};
    t.callable = *f;
    t.function = &f->as<FunctionObj>();
    t.def = t.function->def;
    t.signature = signature_of(request.function, *t.def, 0);
    return t;
  }
  const Obj *cls = in.global(request.module_class);
  if (!cls || cls->kind != Obj::Kind::Class)
    return Error{"no class `" + excerpt(request.module_class) + "` in this file" + known(),
                 request.path, 0, 0};
  const ClassDef *def = nullptr;
  for (const Stmt &s : module.body)
    if (s.kind == Stmt::Kind::Class && s.cls->name == request.module_class) def = s.cls.get();
  Loc at = def ? def->loc : Loc{1, 1};
  Kwargs init;
  for (const ArgSpec &a : request.init) {
    if (std::optional<std::string> bad = argument_text_problem(a.text))
      return Error{"--init " + excerpt(a.name) + "=" + excerpt(a.text) + ": " + *bad, "", 0, 0};
    Result<Expr> e = parse_expression(a.text);
    if (!e)
      return Error{"--init " + excerpt(a.name) + "=" + excerpt(a.text) + ": " + e.error().message,
                   "", 0, 0};
    try {
      init.emplace_back(a.name, in.eval_top(e.value()));
    } catch (const TraceError &err) {
      return Error{"--init " + excerpt(a.name) + "=" + excerpt(a.text) + ": " + err.what(), "", 0,
                   0};
    }
  }
  t.instance = in.call_top(*cls, {}, std::move(init), at);
  if (std::optional<Obj> mode =
          find_attribute(in, t.instance, request.train ? "train" : "eval", at))
    in.call_top(*mode, {}, {}, at);
  std::optional<Obj> method = find_attribute(in, t.instance, request.method, at);
  if (!method || method->kind != Obj::Kind::BoundMethod ||
      method->as<BoundMethodObj>().function.kind != Obj::Kind::Function)
    return Error{"class `" + excerpt(request.module_class) + "` has no method `" +
                     excerpt(request.method) + "`",
                 request.path, at.line, at.column};
  t.callable = *method;
  t.function = &method->as<BoundMethodObj>().function.as<FunctionObj>();
  t.def = t.function->def;
  t.first_param = 1;
  t.signature = signature_of(request.module_class + "." + request.method, *t.def, 1);
  return t;
}

} // namespace tracelint::tracer
