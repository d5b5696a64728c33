#include "tracelint/tracer/tracer.hpp"

#include "tracelint/tracer/interpreter.hpp"

#include "excerpt.hpp"
#include "frontend.hpp"
#include "memory_estimate.hpp"
#include "recorder.hpp"
#include "tracing.hpp"

#include "name_table.hpp" // core/src

#include <algorithm>
#include <cctype>
#include <functional>
#include <optional>
#include <set>
#include <unordered_set>

namespace tracelint::tracer {

const char *to_string(CacheMode mode) {
  return mode == CacheMode::ConstantValues ? "constant values" : "symbolic values";
}
const char *to_string(Level level) {
  return level == Level::Ltorch ? "ltorch" : "prims";
}

namespace {

Error arg_error(const ArgSpec &arg, const std::string &message) {
  return Error{"--arg " + excerpt(arg.name) + "=" + excerpt(arg.text) + ": " + message, "", 0, 0};
}

constexpr const char *kSpaces = " \t\n\r\f\v";
// A dim has at most 9 digits: sizes stay far from overflowing their products.
constexpr std::size_t kMaxDimDigits = 9;
// More dims than any model uses, and a bound on the work one spec makes.
constexpr std::size_t kMaxRank = 64;

// The parts of a tensor spec, DTYPE[DIMS][@DEVICE] (views of the --arg text).
struct TensorText {
  std::string_view dtype, dims, device;
};

bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The spec's parts, or none where the text is not a tensor spec (it is then a Python literal:
// slice[...] is a subscript, not a dtype). A scan, not a regex: std::regex matches by
// recursion, one level per character, and a spec of 20000 dims overflowed the stack.
std::optional<TensorText> split_tensor_spec(std::string_view text) {
  std::size_t first = text.find_first_not_of(kSpaces);
  if (first == std::string_view::npos) return std::nullopt;
  text = text.substr(first, text.find_last_not_of(kSpaces) + 1 - first);
  std::size_t i = 0;
  if (text.empty() || !is_alpha(text[0])) return std::nullopt;
  while (i < text.size() && (is_alpha(text[i]) || is_digit(text[i])))
    ++i;
  TensorText out;
  out.dtype = text.substr(0, i);
  if (out.dtype == "slice" || i == text.size() || text[i] != '[') return std::nullopt;
  std::size_t close = text.find(']', i + 1);
  if (close == std::string_view::npos) return std::nullopt;
  out.dims = text.substr(i + 1, close - i - 1);
  std::string_view rest = text.substr(close + 1);
  if (rest.empty()) return out;
  if (rest[0] != '@') return std::nullopt;
  std::size_t j = 1;
  while (j < rest.size() && is_alpha(rest[j]))
    ++j;
  if (j == 1) return std::nullopt;
  if (j < rest.size() && rest[j] == ':') {
    std::size_t digits = j + 1;
    while (digits < rest.size() && is_digit(rest[digits]))
      ++digits;
    if (digits == j + 1) return std::nullopt;
    j = digits;
  }
  if (j != rest.size()) return std::nullopt;
  out.device = rest.substr(1);
  return out;
}

Obj value_to_obj(const Value &v) {
  switch (v.kind) {
  case ValueKind::None:
    return Obj::none();
  case ValueKind::Ellipsis:
    return Obj::ellipsis();
  case ValueKind::Bool:
    return Obj::boolean_of(v.boolean);
  case ValueKind::Int:
    return Obj::int_of(v.integer);
  case ValueKind::Float:
    return Obj::float_of(v.real);
  case ValueKind::String:
    return Obj::str(v.text);
  case ValueKind::DType:
    return Obj::dtype_of(v.text);
  case ValueKind::Tuple:
  case ValueKind::List: {
    std::vector<Obj> items;
    for (const Value &item : v.items)
      items.push_back(value_to_obj(item));
    return v.kind == ValueKind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  case ValueKind::Dict: {
    Obj d;
    d.kind = Obj::Kind::Dict;
    for (const Value &item : v.items)
      d.items.push_back(value_to_obj(item));
    return d;
  }
  case ValueKind::Slice:
    return Obj::slice(value_to_obj(v.items[0]), value_to_obj(v.items[1]), value_to_obj(v.items[2]));
  default:
    throw TraceError(Loc{1, 1}, "this value cannot be an input");
  }
}

// Names that the traces use for modules and builtins: never a proxy's name.
const std::set<std::string> kReserved = {"prims",   "ltorch",      "torch", "thunder", "dtypes",
                                         "devices", "int",         "float", "bool",    "args",
                                         "kwargs",  "no_autocast", "_"};

class Builder {
public:
  Builder(const TraceRequest &request, Recorder &recorder)
      : request_(request), recorder_(recorder) {}

  // The proxy version of an input: tensors and (under symbolic values) ints get names.
  Obj make_input(Obj o, const std::string &top_name) {
    bool symbolic = request_.cache == CacheMode::SymbolicValues;
    switch (o.kind) {
    case Obj::Kind::Tensor:
      o.proxy = top_name.empty() ? recorder_.fresh("t") : top_name;
      recorder_.add_input_proxy(o.proxy);
      for (Obj &d : o.shape)
        if (symbolic) {
          d.proxy = recorder_.fresh("i");
          recorder_.add_input_proxy(d.proxy);
        }
      return o;
    case Obj::Kind::Int:
    case Obj::Kind::Float:
      if (symbolic) {
        o.proxy =
            top_name.empty() ? recorder_.fresh(o.kind == Obj::Kind::Int ? "i" : "f") : top_name;
        recorder_.add_input_proxy(o.proxy);
      }
      return o;
    case Obj::Kind::Tuple:
    case Obj::Kind::List:
    case Obj::Kind::Slice:
      for (Obj &item : o.items)
        item = make_input(item, "");
      return o;
    case Obj::Kind::Dict:
      for (std::size_t i = 1; i < o.items.size(); i += 2)
        o.items[i] = make_input(o.items[i], "");
      return o;
    default:
      return o;
    }
  }

  // Statements that bind `name` (already assigned) to o's parts and check them.
  void check_input(const Obj &o, const std::string &name, std::vector<Statement> &out) {
    Value self = Value::name(name);
    switch (o.kind) {
    case Obj::Kind::Tensor: {
      std::vector<Value> dims;
      std::vector<Target> targets;
      for (const Obj &d : o.shape) {
        dims.push_back(to_value(d));
        if (!d.proxy.empty()) targets.push_back(Target::named(d.proxy));
      }
      if (!targets.empty() && targets.size() == o.shape.size())
        out.push_back(Statement::bound(Target::tuple(targets), Value::call("prims.shape", {self})));
      out.push_back(Statement::bound(
          std::nullopt,
          Value::call("prims.check_tensor_shape_and_metadata",
                      {self, Value::tuple(dims), Value::string(o.device),
                       Value::dtype(o.dtype, Namespace::Torch), Value::boolean_value(false)})));
      return;
    }
    case Obj::Kind::Int:
    case Obj::Kind::Float:
    case Obj::Kind::Bool:
      if (!o.proxy.empty())
        out.push_back(Statement::bound(
            std::nullopt,
            Value::call("prims.check_number_type",
                        {self, Value::name(o.kind == Obj::Kind::Float ? "float" : "int")})));
      else
        out.push_back(Statement::bound(
            std::nullopt, Value::call("prims.check_number_type_and_value", {self, to_value(o)})));
      return;
    case Obj::Kind::Tuple:
    case Obj::Kind::List: {
      out.push_back(Statement::bound(
          std::nullopt,
          Value::call("prims.check_len",
                      {self, Value::int_value(static_cast<int64_t>(o.items.size()))})));
      if (o.items.empty()) return;
      std::vector<Target> targets;
      std::vector<std::pair<std::string, const Obj *>> named;
      std::vector<Statement> literal_checks;
      for (std::size_t i = 0; i < o.items.size(); ++i) {
        const Obj &item = o.items[i];
        if (is_literal(item)) {
          targets.push_back(Target::named("_"));
          literal_checks.push_back(literal_check(
              Value::subscript(self, Value::int_value(static_cast<int64_t>(i))), item));
        } else {
          std::string element =
              item.proxy.empty() ? recorder_.fresh(proxy_prefix(item)) : item.proxy;
          targets.push_back(Target::named(element));
          named.emplace_back(element, &item);
        }
      }
      Statement unpack = Statement::bound(Target::tuple(targets), self);
      unpack.style = UnpackStyle::Bare;
      unpack.trailing_comma = true;
      out.push_back(std::move(unpack));
      for (Statement &s : literal_checks)
        out.push_back(std::move(s));
      for (const auto &[element, item] : named)
        check_input(*item, element, out);
      return;
    }
    case Obj::Kind::Slice: {
      static const char *parts[] = {"start", "stop", "step"};
      for (std::size_t i = 0; i < 3; ++i)
        bind_part(o.items[i], Value::attribute(self, parts[i]), out);
      return;
    }
    case Obj::Kind::Dict: {
      out.push_back(Statement::bound(
          std::nullopt,
          Value::call("prims.check_len",
                      {self, Value::int_value(static_cast<int64_t>(o.items.size() / 2))})));
      for (std::size_t i = 0; i + 1 < o.items.size(); i += 2)
        bind_part(o.items[i + 1], Value::subscript(self, to_value(o.items[i])), out);
      return;
    }
    default:
      out.push_back(literal_check(self, o));
      return;
    }
  }

  void bind_part(const Obj &item, Value source, std::vector<Statement> &out) {
    if (is_literal(item)) {
      out.push_back(literal_check(std::move(source), item));
      return;
    }
    std::string element = item.proxy.empty() ? recorder_.fresh(proxy_prefix(item)) : item.proxy;
    out.push_back(annotated(element, item, std::move(source)));
    check_input(item, element, out);
  }

  static Statement annotated(const std::string &name, const Obj &o, Value source) {
    Statement s;
    s.kind = Statement::Kind::AnnotatedAssign;
    s.target = Target::named(name);
    s.value = std::move(source);
    s.annotation = TypeText{type_string(o), {}};
    return s;
  }

private:
  static bool is_literal(const Obj &o) {
    return o.kind == Obj::Kind::None || o.kind == Obj::Kind::Ellipsis || o.kind == Obj::Kind::Str ||
           o.kind == Obj::Kind::DType || o.kind == Obj::Kind::Device;
  }
  static Statement literal_check(Value source, const Obj &o) {
    return Statement::bound(
        std::nullopt, Value::call("prims.check_literal_like", {std::move(source), to_value(o)}));
  }

  const TraceRequest &request_;
  Recorder &recorder_;
};

// A set of names (the state is unused).
using NameSet = NameTable<char>;

// The names a top-level statement reads, the symbolic dims of its annotation included: a size
// that only an annotation mentions must still be computed (TL007). Its subsymbols' reads come
// from the recorder (Recorder::take_hidden_reads).
void collect_names(const Statement &s, NameSet &names) {
  for_each_read_name(s.value, [&](const Value &v) { names.insert(v.text); });
  if (s.type_comment && s.type_comment->type)
    for_each_type_symbol(s.type_comment->type->text,
                         [&](std::string_view name) { names.insert(name); });
}

// Which statements stay: bound symbols whose outputs something uses (every symbol recorded is
// pure), and provenance comments whose statement stays.
// `inputs` keeps the names among them that the kept statements or the return read.
std::vector<bool>
live_statements(const std::vector<Statement> &body,
                const std::vector<std::pair<std::size_t, std::string>> &hidden_reads,
                const Value &returned, std::unordered_set<std::string> &inputs) {
  NameSet live;
  for_each_name(returned, [&](const Value &v) { live.insert(v.text); });
  std::vector<bool> keep(body.size(), true);
  std::size_t hidden = hidden_reads.size(); // hidden_reads[hidden..] are after k
  for (std::size_t k = body.size(); k-- > 0;) {
    while (hidden > 0 && hidden_reads[hidden - 1].first > k)
      --hidden;
    const Statement &s = body[k];
    if (s.kind != Statement::Kind::BoundSymbol) continue;
    bool used = !s.target;
    if (s.target)
      s.target->for_each_bound_name([&](const Target &t) { used = used || live.contains(t.name); });
    keep[k] = used;
    if (!used) continue;
    collect_names(s, live);
    for (std::size_t h = hidden; h > 0 && hidden_reads[h - 1].first == k; --h)
      live.insert(hidden_reads[h - 1].second);
  }
  std::erase_if(inputs, [&](const std::string &name) { return !live.contains(name); });
  // A comment is provenance for the statement after it: it goes when that one went.
  for (std::size_t k = body.size(), next_kept = body.size(); k-- > 0;) {
    if (!keep[k]) continue;
    if (body[k].kind == Statement::Kind::Comment &&
        (next_kept == body.size() || body[next_kept].kind == Statement::Kind::Comment))
      keep[k] = false;
    else
      next_kept = k;
  }
  return keep;
}

std::size_t count_subsymbols(const Statement &s) {
  std::size_t n = s.subsymbols.size();
  for (const Statement &sub : s.subsymbols)
    n += count_subsymbols(sub);
  return n;
}

void flatten(Statement s, std::vector<Statement> &out) {
  if (s.subsymbols.empty()) {
    s.commented = false;
    out.push_back(std::move(s));
    return;
  }
  for (Statement &sub : s.subsymbols)
    flatten(std::move(sub), out);
}

std::vector<PreambleItem> preamble(const TraceRequest &request, const std::string &what) {
  auto import = PreambleItem::import_line;
  return {PreambleItem::comment_line("# Constructed by tracelint trace (" + what + ", cache=\"" +
                                     to_string(request.cache) + "\", level " +
                                     to_string(request.level) + ")"),
          import("thunder", "", ""),
          import("thunder.core.devices", "devices", ""),
          import("thunder.core.dtypes", "dtypes", ""),
          import("thunder.core.prims", "prims", ""),
          import("thunder.torch", "ltorch", ""),
          import("torch", "", ""),
          import("thunder.executors.torchex", "", "no_autocast"),
          PreambleItem::blank()};
}

std::vector<Value> decorators() {
  return {Value::call("torch.no_grad", {}), Value::name("no_autocast")};
}

void collect_proxies(const Obj &o, std::vector<const Obj *> &out) {
  if (!o.proxy.empty()) out.push_back(&o);
  if (o.kind == Obj::Kind::Tensor)
    for (const Obj &d : o.shape)
      collect_proxies(d, out);
  for (const Obj &item : o.items)
    collect_proxies(item, out);
}

} // namespace

Result<InputSpec> parse_arg(const ArgSpec &arg) {
  InputSpec spec;
  spec.name = arg.name;
  if (arg.text.find_first_not_of(kSpaces) == std::string::npos)
    return arg_error(arg, "the value is empty (give a tensor such as f32[2, 3] or a Python "
                          "literal such as 4)");
  std::optional<TensorText> tensor = split_tensor_spec(arg.text);
  if (tensor) {
    spec.kind = InputSpec::Kind::Tensor;
    spec.dtype = torch_dtype(std::string(tensor->dtype));
    if (spec.dtype.empty() || spec.dtype.rfind("complex", 0) == 0)
      return arg_error(arg, "unknown dtype `" + excerpt(tensor->dtype) +
                                "` (use f32, f16, bf16, f64, i64, i32, i16, i8, u8 or b8)");
    std::string_view dims = tensor->dims;
    std::size_t begin = 0;
    while (begin < dims.size()) {
      std::size_t end = dims.find(',', begin);
      std::string_view part =
          dims.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      std::size_t first = part.find_first_not_of(" \t");
      part = first == std::string_view::npos
                 ? std::string_view()
                 : part.substr(first, part.find_last_not_of(" \t") + 1 - first);
      if (part.empty() && end == std::string::npos && !spec.shape.empty()) break;
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
        return arg_error(arg,
                         "each dim must be a non-negative integer, got `" + excerpt(part) + "`");
      std::string_view digits = part.substr(std::min(part.find_first_not_of('0'), part.size()));
      if (digits.size() > kMaxDimDigits)
        return arg_error(arg, "dim " + excerpt(part) + " is too large (at most " +
                                  std::string(kMaxDimDigits, '9') + ")");
      if (spec.shape.size() == kMaxRank)
        return arg_error(arg, "too many dims (at most " + std::to_string(kMaxRank) + ")");
      int64_t dim = 0;
      for (char c : digits)
        dim = dim * 10 + (c - '0');
      spec.shape.push_back(dim);
      if (end == std::string::npos) break;
      begin = end + 1;
    }
    std::string device = tensor->device.empty() ? "cpu" : std::string(tensor->device);
    if (device == "cuda") device = "cuda:0";
    if (device != "cpu" && device.rfind("cuda:", 0) != 0)
      return arg_error(arg, "unknown device `" + excerpt(device) + "` (use cpu, cuda or cuda:N)");
    spec.device = device;
    return spec;
  }
  Result<Expr> expr = parse_expression(arg.text);
  if (!expr)
    return arg_error(arg, expr.error().message +
                              " (a tensor is DTYPE[DIMS][@DEVICE] like f32[2, 3]@cuda; anything "
                              "else is a Python literal)");
  try {
    Module empty;
    spec.kind = InputSpec::Kind::Literal;
    spec.literal = to_value(literal_object(empty, expr.value()));
  } catch (const TraceError &e) {
    return arg_error(arg, e.what());
  }
  return spec;
}

namespace {

Result<TracedProgram> trace_module(const TraceRequest &request, const Module &module) {
  auto fn = module.functions.find(request.function);
  if (fn == module.functions.end()) {
    std::string known;
    for (const auto &[name, f] : module.functions)
      known += (known.empty() ? "" : ", ") + name;
    return Error{
        "no function `" + excerpt(request.function) + "` in this file" +
            (known.empty() ? " (it defines none)" : " (it defines: " + excerpt(known) + ")"),
        request.path, 0, 0};
  }
  const Function &function = fn->second;

  std::string signature = function.name + "(";
  for (std::size_t i = 0; i < function.params.size(); ++i)
    signature += (i ? ", " : "") + function.params[i].name;
  signature = excerpt(signature + ")");
  std::set<std::string_view> named;
  for (const ArgSpec &arg : request.args) {
    bool known = std::any_of(function.params.begin(), function.params.end(),
                             [&](const auto &p) { return p.name == arg.name; });
    if (!known)
      return Error{"--arg " + excerpt(arg.name) + ": " + signature + " has no parameter `" +
                       excerpt(arg.name) + "`",
                   request.path, function.loc.line, function.loc.column};
    // Python refuses a second value for a parameter; the tracer would take the first.
    if (!named.insert(arg.name).second)
      return Error{"--arg " + excerpt(arg.name) + " is given twice (one --arg per parameter)", "",
                   0, 0};
  }

  TracedProgram program;
  Recorder recorder(request.cache, module, request.provenance);
  for (const std::string &r : kReserved)
    recorder.reserve(r);
  for (const auto &p : function.params)
    recorder.reserve(p.name);
  Builder builder(request, recorder);

  try {
    std::vector<Obj> args;
    std::vector<std::pair<std::string, Obj>> inputs; // the traced inputs, by name
    for (const auto &p : function.params) {
      auto given = std::find_if(request.args.begin(), request.args.end(),
                                [&](const ArgSpec &a) { return a.name == p.name; });
      if (given == request.args.end()) {
        if (!p.default_value)
          return Error{"missing --arg for parameter `" + excerpt(p.name) + "` of " + signature +
                           " (for example --arg " + excerpt(p.name) + "=f32[2, 3] or --arg " +
                           excerpt(p.name) + "=4)",
                       request.path, p.loc.line, p.loc.column};
        args.push_back(literal_object(module, *p.default_value));
        continue;
      }
      Result<InputSpec> spec = parse_arg(*given);
      if (!spec) return Error{spec.error().message, "", 0, 0};
      Obj o;
      if (spec->kind == InputSpec::Kind::Tensor) {
        o.kind = Obj::Kind::Tensor;
        o.dtype = spec->dtype;
        o.device = spec->device;
        for (int64_t d : spec->shape)
          o.shape.push_back(Obj::int_of(d));
      } else {
        o = value_to_obj(spec->literal);
      }
      o = builder.make_input(o, p.name);
      args.push_back(o);
      inputs.emplace_back(p.name, o);
      program.inputs.push_back(std::move(spec.value()));
    }

    Obj result = interpret(module, request.function, args, recorder);
    Value returned = to_value(result);

    // ---- computation
    std::vector<const Obj *> proxies;
    for (const auto &[name, o] : inputs)
      collect_proxies(o, proxies);
    std::unordered_set<std::string> used;
    for (const Obj *o : proxies)
      used.insert(o->proxy);
    std::vector<std::pair<std::size_t, std::string>> hidden_reads = recorder.take_hidden_reads();
    std::vector<Statement> body = recorder.take_body();
    std::vector<bool> keep = live_statements(body, hidden_reads, returned, used);
    Trace computation;
    computation.preamble = {PreambleItem::blank()};
    computation.decorators = decorators();
    computation.name = "computation";
    std::vector<Statement> header;
    std::vector<Value> passed;
    for (const Obj *o : proxies) {
      if (o->kind != Obj::Kind::Tensor && !used.count(o->proxy)) continue;
      computation.parameters.push_back(Parameter{o->proxy, ParamKind::Positional, {}, {}});
      header.push_back(Statement::annotation_comment(o->proxy, type_string(*o)));
      passed.push_back(Value::name(o->proxy));
    }
    if (!header.empty()) header.push_back(Statement::blank());
    // Each kept statement moves once, into its place after the header (a Statement is large).
    std::vector<Statement> &out = computation.body;
    out = std::move(header);
    std::size_t first = out.size();
    out.reserve(first + static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true)) + 1);
    for (std::size_t k = 0; k < body.size(); ++k) {
      if (!keep[k]) continue;
      if (request.level == Level::Prims)
        flatten(std::move(body[k]), out);
      else
        out.push_back(std::move(body[k]));
    }
    for (std::size_t k = first; k < out.size(); ++k)
      if (out[k].kind == Statement::Kind::BoundSymbol) {
        ++program.bound_symbols;
        program.all_bound_symbols += 1 + count_subsymbols(out[k]);
      }
    out.push_back(Statement::ret(returned));
    program.run_memory =
        estimate_run_memory(computation, recorder.take_tensor_bytes(), program.inputs);

    // ---- prologue
    Trace prologue;
    prologue.preamble = preamble(request, "prologue and computation");
    prologue.decorators = decorators();
    prologue.name = "prologue";
    prologue.parameters = {Parameter{"args", ParamKind::VarArgs, {}, {}},
                           Parameter{"kwargs", ParamKind::VarKeywords, {}, {}}};
    std::vector<Statement> &pb = prologue.body;
    pb.push_back(Statement::annotation_comment("args", "Any"));
    pb.push_back(Statement::bound(
        std::nullopt,
        Value::call("prims.check_len",
                    {Value::name("args"), Value::int_value(static_cast<int64_t>(inputs.size()))})));
    pb.push_back(Statement::annotation_comment("kwargs", "Any"));
    pb.push_back(
        Statement::bound(std::nullopt, Value::call("prims.check_len",
                                                   {Value::name("kwargs"), Value::int_value(0)})));
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const auto &[name, o] = inputs[i];
      pb.push_back(Builder::annotated(
          name, o,
          Value::subscript(Value::name("args"), Value::int_value(static_cast<int64_t>(i)))));
      builder.check_input(o, name, pb);
    }
    for (Statement &s : recorder.guard_statements())
      pb.push_back(std::move(s));
    pb.push_back(Statement::ret(Value::tuple({Value::tuple(passed), Value::tuple({})})));

    // Not an initializer list: that would copy both traces.
    program.file.traces.reserve(2);
    program.file.traces.push_back(std::move(prologue));
    program.file.traces.push_back(std::move(computation));
  } catch (const TraceError &e) {
    return Error{e.what(), request.path, e.loc.line, e.loc.column};
  } catch (const BodyRest::Failed &) {
    return Error{"part of a function body does not parse", request.path, 0, 0}; // see trace()
  }
  return program;
}

} // namespace

Result<TracedProgram> trace(const TraceRequest &request) {
  Result<Module> parsed = parse_module_chunked(request.path, request.source, request.threads);
  if (!parsed) return parsed.error();
  Result<TracedProgram> traced = trace_module(request, parsed.value());
  // A trace from a chunked body stands only if all of the body parses (a function may return
  // before its end, or not be the one traced); otherwise the whole file's error is the answer.
  for (const auto &[name, f] : parsed->functions)
    if (f.rest && !f.rest->parses_cleanly()) return trace_unchunked(request);
  return traced;
}

Result<TracedProgram> trace_unchunked(const TraceRequest &request) {
  Result<Module> whole = parse_module(request.path, request.source);
  if (!whole) return whole.error();
  return trace_module(request, whole.value());
}

} // namespace tracelint::tracer
