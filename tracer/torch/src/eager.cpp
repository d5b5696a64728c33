// The eager run: the traced Python interpreted with libtorch as its backend. Every ltorch
// symbol runs as torch computes it (the registry's libtorch implementation), not as its
// decomposition, so comparing the traces with this run checks the decompositions; a module is
// constructed with its parameters initialised by libtorch.
#include "runtime.hpp"

#include "tracelint/tracer/frontend.hpp"
#include "tracelint/tracer/interpreter.hpp"
#include "tracelint/tracer/module_state.hpp"
#include "tracelint/tracer/traced_callable.hpp"

#include <c10/util/Exception.h>

namespace tracelint::tracer {

namespace {

struct EagerTensor : TensorData {
  at::Tensor tensor;
  explicit EagerTensor(at::Tensor t) : tensor(std::move(t)) {}
};

Obj wrap(at::Tensor t) {
  auto o = std::make_shared<TensorObj>();
  o->dtype = *dtype_from_name(dtype_name(t.scalar_type()));
  o->device = device_name(t.device());
  for (int64_t d = 0; d < t.dim(); ++d)
    o->shape.push_back(Obj::int_of(t.size(d)));
  o->data = std::make_shared<EagerTensor>(std::move(t));
  return Obj::heap(Obj::Kind::Tensor, std::move(o));
}

const at::Tensor &unwrap(const Obj &o) {
  const TensorObj &t = o.as<TensorObj>();
  if (!t.data) throw ExecError("a tensor without a value in the eager run");
  return static_cast<const EagerTensor &>(*t.data).tensor;
}

RtValue from_obj(const Obj &o, const Loc &loc) {
  RtValue v;
  switch (o.kind) {
  case Obj::Kind::Tensor:
    return RtValue::of_tensor(unwrap(o));
  case Obj::Kind::Int:
    return RtValue::of_int(o.integer);
  case Obj::Kind::Float:
    return RtValue::of_float(o.real);
  case Obj::Kind::Bool:
    return RtValue::of_bool(o.boolean);
  case Obj::Kind::None:
    return v;
  case Obj::Kind::Ellipsis:
    v.kind = RtValue::Kind::Ellipsis;
    return v;
  case Obj::Kind::Str:
    v.kind = RtValue::Kind::Str;
    v.text = o.as<StrObj>().value;
    return v;
  case Obj::Kind::DType:
    v.kind = RtValue::Kind::DType;
    v.text = dtype_info(o.dtype()).torch_name;
    return v;
  case Obj::Kind::Device:
    v.kind = RtValue::Kind::Device;
    v.text = o.as<DeviceObj>().spec;
    return v;
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
    v.kind = o.kind == Obj::Kind::Tuple ? RtValue::Kind::Tuple : RtValue::Kind::List;
    for (const Obj &item : o.as<SeqObj>().items)
      v.items.push_back(from_obj(item, loc));
    return v;
  case Obj::Kind::Dict: {
    v.kind = RtValue::Kind::Dict;
    const DictObj &d = o.as<DictObj>();
    for (std::size_t i = 0; i < d.keys.size(); ++i) {
      v.items.push_back(from_obj(d.keys[i], loc));
      v.items.push_back(from_obj(d.values[i], loc));
    }
    return v;
  }
  case Obj::Kind::Slice: {
    v.kind = RtValue::Kind::Slice;
    const SliceObj &s = o.as<SliceObj>();
    for (const Obj *p : {&s.start, &s.stop, &s.step})
      v.items.push_back(from_obj(*p, loc));
    return v;
  }
  default:
    throw TraceError(loc, describe(o) + " is not a value the eager run can pass to libtorch");
  }
}

Obj to_obj(const RtValue &v) {
  switch (v.kind) {
  case RtValue::Kind::Tensor:
    return wrap(v.tensor);
  case RtValue::Kind::Int:
    return Obj::int_of(v.integer);
  case RtValue::Kind::Float:
    return Obj::float_of(v.real);
  case RtValue::Kind::Bool:
    return Obj::boolean_of(v.boolean);
  case RtValue::Kind::None:
    return Obj::none();
  case RtValue::Kind::Ellipsis:
    return Obj::ellipsis();
  case RtValue::Kind::Str:
    return Obj::str(v.text);
  case RtValue::Kind::DType:
    return Obj::dtype_of(*dtype_from_name(v.text));
  case RtValue::Kind::Device:
    return Obj::device_of(v.text);
  case RtValue::Kind::Tuple:
  case RtValue::Kind::List: {
    std::vector<Obj> items;
    for (const RtValue &item : v.items)
      items.push_back(to_obj(item));
    return v.kind == RtValue::Kind::Tuple ? Obj::tuple(std::move(items))
                                          : Obj::list(std::move(items));
  }
  case RtValue::Kind::Dict: {
    Obj d = Obj::dict();
    for (std::size_t i = 0; i + 1 < v.items.size(); i += 2)
      d.as<DictObj>().set(to_obj(v.items[i]), to_obj(v.items[i + 1]));
    return d;
  }
  case RtValue::Kind::Slice:
    return Obj::slice(to_obj(v.items[0]), to_obj(v.items[1]), to_obj(v.items[2]));
  default:
    throw ExecError("a runtime value of this kind is not an interpreter object");
  }
}

class EagerBackend : public Backend {
public:
  explicit EagerBackend(const ExecOptions &options) : options_(options) {}

  // From now on, each symbol run is reported to progress as a step of `phase`.
  void count_symbols(const ProgressFn *progress, std::string phase) {
    progress_ = progress;
    phase_ = std::move(phase);
  }

  Obj call_symbol(Sym symbol, std::vector<Obj> args, const Loc &loc) override {
    if (progress_) report_progress(*progress_, phase_, ++symbols_run_);
    try {
      std::vector<RtValue> values;
      values.reserve(args.size());
      for (const Obj &a : args)
        values.push_back(from_obj(a, loc));
      std::vector<const RtValue *> pointers;
      for (const RtValue &v : values)
        pointers.push_back(&v);
      Obj result = to_obj(implement(symbol, pointers.data(), pointers.size(), options_));
      if (options_.cuda_as_cpu) label_cuda(result, args);
      return result;
    } catch (const c10::Error &e) {
      throw TraceError(loc, "libtorch (eager " + qualified_name(symbol) +
                                "): " + e.what_without_backtrace());
    } catch (const ExecError &e) {
      throw TraceError(loc, "eager " + qualified_name(symbol) + ": " + e.what());
    }
  }
  Obj number_op(NumOp, const std::vector<Obj> &, Obj result, const Loc &) override {
    return result;
  }
  void guard(const Obj &, const Loc &) override {}
  std::optional<Obj> values(const TensorObj &t, bool as_list) override {
    if (!t.data) return std::nullopt;
    at::Tensor x = static_cast<EagerTensor &>(*t.data).tensor.detach().cpu();
    if (!as_list) return number_of(x.reshape({}));
    return list_of(x);
  }
  std::shared_ptr<TensorData> copy_values(const TensorObj &t) override {
    if (!t.data) return nullptr;
    return std::make_shared<EagerTensor>(static_cast<const EagerTensor &>(*t.data).tensor.clone());
  }

  void initialize(TensorObj &t, InitKind kind, double a, double b) override {
    if (!t.data) return;
    at::Tensor &x = static_cast<EagerTensor &>(*t.data).tensor;
    if (kind == InitKind::Normal)
      x.normal_(a, b);
    else if (kind == InitKind::Uniform)
      x.uniform_(a, b);
    else if (kind == InitKind::RandomInt)
      x.random_(static_cast<int64_t>(a), static_cast<int64_t>(b));
    else
      x.fill_(a);
  }

private:
  static Obj number_of(const at::Tensor &scalar) {
    if (scalar.scalar_type() == at::kBool) return Obj::boolean_of(scalar.item<bool>());
    if (at::isIntegralType(scalar.scalar_type(), false)) return Obj::int_of(scalar.item<int64_t>());
    return Obj::float_of(scalar.item<double>());
  }
  // Tensor.tolist(): nested lists of Python numbers, a number for a 0-d tensor.
  static Obj list_of(const at::Tensor &x) {
    if (x.dim() == 0) return number_of(x);
    std::vector<Obj> items;
    for (int64_t i = 0; i < x.size(0); ++i)
      items.push_back(list_of(x[i]));
    return Obj::list(std::move(items));
  }
  // Without a GPU (cuda_as_cpu), a cuda tensor is made on the CPU; it keeps the device the
  // program named (a device argument, else its first tensor argument's), which traces annotate.
  static void label_cuda(Obj &result, const std::vector<Obj> &args) {
    std::string named;
    for (const Obj &a : args)
      if (a.kind == Obj::Kind::Device)
        named = a.as<DeviceObj>().spec;
      else if (a.kind == Obj::Kind::Str &&
               (a.as<StrObj>().value == "cpu" || a.as<StrObj>().value.starts_with("cuda")))
        named = a.as<StrObj>().value; // device='cuda'

    for (const Obj &a : args)
      if (named.empty() && a.kind == Obj::Kind::Tensor) named = a.as<TensorObj>().device;
    if (!named.starts_with("cuda")) return;
    if (named == "cuda") named = "cuda:0";
    if (result.kind == Obj::Kind::Tensor) result.as<TensorObj>().device = named;
    if (result.kind == Obj::Kind::Tuple || result.kind == Obj::Kind::List)
      for (Obj &item : result.as<SeqObj>().items)
        label_cuda(item, args);
  }

  ExecOptions options_;
  const ProgressFn *progress_ = nullptr;
  std::string phase_;
  std::size_t symbols_run_ = 0;
};

} // namespace

std::unique_ptr<Backend> make_value_backend(uint64_t seed) {
  ExecOptions options;
  options.cuda_as_cpu = !(at::hasCUDA() && at::getNumGPUs() > 0);
  // As run_eager: the module's parameters are drawn from the seed, after the inputs were.
  at::manual_seed(seed + 1);
  return std::make_unique<EagerBackend>(options);
}

TraceRequest::ValueBackendMaker libtorch_values(uint64_t seed) {
  return [seed]() -> Result<std::unique_ptr<Backend>> { return make_value_backend(seed); };
}

Result<EagerRun> run_eager(const TraceRequest &request, const std::vector<RtValue> &inputs,
                           const std::vector<StateTensor> &state, uint64_t seed) {
  Result<Module> parsed = parse_module(request.path, request.source);
  if (!parsed) return parsed.error();
  auto module = std::make_shared<const Module>(std::move(parsed.value()));
  ExecOptions options;
  bool have_cuda = at::hasCUDA() && at::getNumGPUs() > 0;
  options.cuda_as_cpu = !have_cuda;
  EagerBackend eager(options);
  Interpreter in(module, eager, limits_of(request));
  EagerRun out;
  try {
    // The module's parameters are drawn from the seed, after the inputs were.
    at::manual_seed(seed + 1);
    report_progress(request.progress, "eager: running the module's top level");
    in.run_module();
    if (!request.module_class.empty())
      report_progress(request.progress,
                      "eager: constructing " + request.module_class + " (parameters initialised)");
    Result<TracedCallable> target = traced_callable(request, *module, in);
    if (!target) return target.error();
    const FunctionDef &def = *target->def;
    std::vector<Obj> args;
    std::size_t next = 0;
    for (std::size_t i = target->first_param; i < def.params.size(); ++i) {
      const Param &p = def.params[i];
      if (p.kind == Param::Kind::VarArgs || p.kind == Param::Kind::VarKeywords) continue;
      bool given = std::any_of(request.args.begin(), request.args.end(),
                               [&](const ArgSpec &a) { return a.name == p.name; });
      if (given) {
        if (next >= inputs.size()) return Error{"fewer inputs than --args", "", 0, 0};
        args.push_back(to_obj(inputs[next++]));
      } else if (target->function->defaults[i]) {
        args.push_back(*target->function->defaults[i]);
      } else {
        return Error{"missing --arg for `" + p.name + "`", request.path, p.loc.line, p.loc.column};
      }
    }
    if (target->instance.kind == Obj::Kind::Instance) {
      // The state the traces take, before the call can update it.
      std::vector<StateEntry> entries = module_state(in, target->instance, def.loc);
      out.module.kind = RtValue::Kind::Module;
      for (const StateTensor &s : state) {
        auto it = std::find_if(entries.begin(), entries.end(),
                               [&](const StateEntry &e) { return e.path == s.path; });
        if (it == entries.end())
          return Error{"the eager run's module has no tensor `" + s.path + "`", request.path, 0, 0};
        RtValue key;
        key.kind = RtValue::Kind::Str;
        key.text = s.path;
        out.module.items.push_back(std::move(key));
        if (request.grad) {
          // A leaf of autograd where it requires grad: what its gradient is of.
          at::Tensor live = unwrap(it->tensor);
          if (s.requires_grad) live.requires_grad_(true);
          out.state_leaves.push_back(live);
        }
        // The state the traces run on: a copy, requiring grad as the trace's prologue checks.
        out.module.items.push_back(RtValue::of_tensor(
            unwrap(it->tensor).detach().clone().requires_grad_(s.requires_grad)));
      }
    }
    eager.count_symbols(&request.progress, "running eager");
    out.result = from_obj(in.call_top(target->callable, std::move(args), {}, def.loc), def.loc);
  } catch (const PyError &py) {
    TraceError e = in.uncaught(py);
    std::string message = e.what();
    for (const std::string &c : e.chain)
      message += "\n  " + c;
    return Error{message, e.file.value_or(request.path), e.loc.line, e.loc.column};
  } catch (const TraceError &e) {
    std::string message = e.what();
    for (const std::string &c : e.chain)
      message += "\n  " + c;
    return Error{message, e.file.value_or(request.path), e.loc.line, e.loc.column};
  } catch (const ExecError &e) {
    return Error{e.what(), request.path, 0, 0};
  } catch (const c10::Error &e) {
    return Error{std::string("libtorch: ") + e.what_without_backtrace(), request.path, 0, 0};
  }
  return out;
}

} // namespace tracelint::tracer
