// The tracer's orchestration: run the module, make the traced callable (a function, or a
// module's method on an instance built from --init), bind its inputs to proxies, interpret it
// with the recorder, and assemble the prologue and the computation.
#include "tracelint/tracer/tracer.hpp"

#include "binding.hpp"
#include "dce.hpp"
#include "excerpt.hpp"
#include "fusion.hpp"
#include "grad.hpp"
#include "interpreter_impl.hpp"
#include "memory_estimate.hpp"
#include "recorder.hpp"
#include "tracelint/tracer/frontend.hpp"
#include "tracelint/tracer/interpreter.hpp"
#include "tracelint/tracer/module_state.hpp"
#include "tracelint/tracer/traced_callable.hpp"
#include "tracelint/tracer/tracing.hpp"

#include <algorithm>
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

// Names that the traces use for modules and builtins: never a proxy's name.
const std::set<std::string> kReserved = {"prims",   "ltorch", "torch",       "thunder", "dtypes",
                                         "devices", "int",    "float",       "bool",    "args",
                                         "kwargs",  "fn",     "no_autocast", "globals", "_"};

Value symbol_call(Sym s, std::vector<Value> args,
                  std::vector<std::pair<std::string, Value>> keywords = {}) {
  const SymbolName &n = symbol_name(s);
  return Value::call(Value::attribute(Value::name(module_name(n.module)), std::string(n.name)),
                     std::move(args), std::move(keywords));
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

Error error_of(const TraceError &e, const std::string &path) {
  std::string message = e.what();
  for (const std::string &c : e.chain)
    message += "\n  " + c;
  return Error{message, path, e.loc.line, e.loc.column};
}

// The statements of the prologue that unpack the module's state from the function object.
void state_prologue(const std::vector<StateTensor> &state, std::vector<Statement> &pb,
                    Binder &binder, const std::vector<Obj> &tensors) {
  if (state.empty()) return;
  Statement fn = Binder::annotated(
      "fn", Obj::none(),
      Value::subscript(Value::call("globals", {}), Value::string("__function_obj")));
  pb.push_back(std::move(fn));
  for (std::size_t i = 0; i < state.size(); ++i) {
    const StateTensor &s = state[i];
    Value source;
    if (s.kind == StateTensor::Kind::Attribute) {
      source = Value::name("fn");
      std::size_t begin = 0;
      while (true) {
        std::size_t dot = s.path.find('.', begin);
        std::string part =
            s.path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin);
        source = Value::attribute(std::move(source), part);
        if (dot == std::string::npos) break;
        begin = dot + 1;
      }
    } else {
      source = Value::call(
          Value::attribute(Value::name("fn"),
                           s.kind == StateTensor::Kind::Parameter ? "get_parameter" : "get_buffer"),
          {Value::string(s.path)});
    }
    pb.push_back(Binder::annotated(s.name, tensors[i], std::move(source)));
    binder.check_input(tensors[i], s.name, pb);
  }
}

// PyTorch refuses an in-place update of a leaf tensor that requires grad; so does the grad
// transform (the update would rename the input the gradient is of).
void refuse_leaf_updates(const std::vector<std::pair<std::string, Obj>> &inputs,
                         const std::vector<StateEntry> &state, const Loc &loc) {
  auto refuse = [&](const Obj &o, const std::string &what) {
    if (o.kind != Obj::Kind::Tensor) return;
    const TensorObj &t = o.as<TensorObj>();
    if (t.requires_grad && t.name != t.input_name)
      throw TraceError(loc, what + " requires grad and is updated in place, which PyTorch "
                                   "refuses for a leaf tensor: update a copy (x = x.clone()) or "
                                   "trace without --grad");
  };
  for (const auto &[name, o] : inputs)
    refuse(o, "`" + name + "`");
  for (const StateEntry &e : state)
    refuse(e.tensor, "`" + e.path + "`");
}

StateTensor describe_state(const StateEntry &e, const std::string &name) {
  StateTensor s;
  const TensorObj &t = e.tensor.as<TensorObj>();
  s.kind = e.kind;
  s.path = e.path;
  s.name = name;
  s.dtype = dtype_info(t.dtype).torch_name;
  s.device = t.device;
  for (const Obj &d : t.shape)
    s.shape.push_back(d.integer);
  s.requires_grad = t.requires_grad;
  return s;
}

Result<TracedProgram> trace_module(const TraceRequest &request,
                                   std::shared_ptr<const Module> module) {
  TracedProgram program;
  Result<bool> wants_fusion = wants_cuda_fusion(request.executors);
  if (!wants_fusion) return wants_fusion.error();
  const bool fusion = wants_fusion.value();
  Recorder recorder(request.cache, *module, request.provenance);
  for (const std::string &r : kReserved)
    recorder.reserve(r);
  Interpreter in(module, recorder, limits_of(request));
  Binder binder(request.cache, recorder);
  recorder.set_recording(false);
  const std::string what =
      request.module_class.empty() ? request.function : request.module_class + "." + request.method;
  const std::string tracing = "tracing " + what;
  try {
    report_progress(request.progress, "running the module's top level");
    in.run_module();
    if (!request.module_class.empty())
      report_progress(request.progress, "constructing " + request.module_class);
    Result<TracedCallable> found = traced_callable(request, *module, in);
    if (!found) return found.error();
    TracedCallable &target = found.value();
    const FunctionDef &def = *target.def;

    // ---- the inputs
    std::set<std::string_view> named;
    for (const ArgSpec &arg : request.args) {
      bool known = false;
      for (std::size_t i = target.first_param; i < def.params.size(); ++i)
        known = known || def.params[i].name == arg.name;
      if (!known)
        return Error{"--arg " + excerpt(arg.name) + ": " + target.signature +
                         " has no parameter `" + excerpt(arg.name) + "`",
                     request.path, def.loc.line, def.loc.column};
      if (!named.insert(arg.name).second)
        return Error{"--arg " + excerpt(arg.name) + " is given twice (one --arg per parameter)", "",
                     0, 0};
    }
    for (std::size_t i = target.first_param; i < def.params.size(); ++i)
      recorder.reserve(def.params[i].name);
    std::vector<StateEntry> state;
    if (target.instance.kind == Obj::Kind::Instance)
      state = module_state(in, target.instance, def.loc);
    std::vector<std::string> state_names;
    {
      std::set<std::string> taken;
      for (const StateEntry &e : state) {
        std::string name = state_name(e.path);
        for (int k = 1; taken.count(name) || kReserved.count(name); ++k)
          name = state_name(e.path) + "_" + std::to_string(k);
        taken.insert(name);
        recorder.reserve(name);
        state_names.push_back(name);
      }
    }
    std::vector<Obj> args;
    std::vector<std::pair<std::string, Obj>> inputs; // the traced inputs, by name
    for (std::size_t i = target.first_param; i < def.params.size(); ++i) {
      const Param &p = def.params[i];
      if (p.kind == Param::Kind::VarArgs || p.kind == Param::Kind::VarKeywords) {
        if (std::any_of(request.args.begin(), request.args.end(),
                        [&](const ArgSpec &a) { return a.name == p.name; }))
          return Error{"--arg " + excerpt(p.name) +
                           ": a *args or **kwargs parameter takes no --arg "
                           "(the tracer gives each input its own parameter)",
                       request.path, p.loc.line, p.loc.column};
        continue;
      }
      auto given = std::find_if(request.args.begin(), request.args.end(),
                                [&](const ArgSpec &a) { return a.name == p.name; });
      if (given == request.args.end()) {
        if (!target.function->defaults[i])
          return Error{"missing --arg for parameter `" + excerpt(p.name) + "` of " +
                           target.signature + " (for example --arg " + excerpt(p.name) +
                           "=f32[2, 3] or --arg " + excerpt(p.name) + "=4)",
                       request.path, p.loc.line, p.loc.column};
        args.push_back(*target.function->defaults[i]);
        continue;
      }
      Result<InputSpec> spec = parse_arg(*given);
      if (!spec) return Error{spec.error().message, "", 0, 0};
      Obj o = binder.make_input(spec.value(), p.name);
      args.push_back(o);
      inputs.emplace_back(p.name, o);
      program.inputs.push_back(std::move(spec.value()));
    }
    for (std::size_t i = 0; i < state.size(); ++i)
      binder.name_state(state[i].tensor, state_names[i]);

    // ---- the call
    recorder.set_recording(true);
    recorder.set_taping(request.grad);
    recorder.set_progress(
        [&](std::size_t recorded) { report_progress(request.progress, tracing, recorded); });
    Obj result = in.call_top(target.callable, args, {}, def.loc);
    Value returned;
    try {
      returned = to_value(result, def.loc);
    } catch (const TraceError &) {
      throw TraceError(def.loc, "the traced function returns " + describe(result) +
                                    ", which a trace cannot return (tensors, numbers, and "
                                    "tuples, lists and dicts of them)");
    }
    // An input updated in place is copied back, as eager PyTorch leaves the caller's tensor
    // updated (prims.copy_ is never removed as dead code).
    auto copy_back = [&](const Obj &o) {
      const TensorObj &t = o.as<TensorObj>();
      if (t.name != t.input_name)
        // grad_enabled: the grad mode Thunder records (the traced call runs with grad on; a
        // copy into an input that requires grad is refused above).
        recorder.append(Statement::bound(
            std::nullopt,
            symbol_call(Sym::prims_copy_, {Value::name(t.name), Value::name(t.input_name)},
                        {{"grad_enabled", Value::boolean_value(true)}})));
    };
    if (request.grad) refuse_leaf_updates(inputs, state, def.loc);
    for (const auto &[name, o] : inputs)
      if (o.kind == Obj::Kind::Tensor) copy_back(o);
    for (const StateEntry &e : state)
      copy_back(e.tensor);
    program.printed = in.printed();

    // ---- computation
    std::vector<const Obj *> proxies;
    for (const auto &[name, o] : inputs)
      collect_proxies(o, proxies);
    std::unordered_set<std::string> used;
    for (const Obj *o : proxies)
      used.insert(o->kind == Obj::Kind::Tensor ? o->as<TensorObj>().input_name : proxy_name(*o));
    for (const std::string &n : state_names)
      used.insert(n);
    std::vector<std::pair<std::size_t, std::string>> hidden_reads = recorder.take_hidden_reads();
    std::vector<Statement> body = recorder.take_body();
    program.tensor_bytes = recorder.take_tensor_bytes();
    std::optional<Training> training;
    if (request.grad) {
      std::vector<ForwardInput> forward_inputs;
      for (const Obj *o : proxies)
        forward_inputs.push_back(o->kind == Obj::Kind::Tensor
                                     ? ForwardInput{o->as<TensorObj>().input_name, true}
                                     : ForwardInput{proxy_name(*o), false});
      std::unordered_set<std::string> requires_grad;
      for (const auto &[name, o] : inputs)
        if (o.kind == Obj::Kind::Tensor && o.as<TensorObj>().requires_grad)
          requires_grad.insert(name);
      for (std::size_t i = 0; i < state.size(); ++i) {
        forward_inputs.push_back(ForwardInput{state_names[i], true});
        if (state[i].tensor.as<TensorObj>().requires_grad) requires_grad.insert(state_names[i]);
      }
      report_progress(request.progress, "differentiating (the grad transform)");
      training = record_training(recorder, body, hidden_reads, result, forward_inputs,
                                 requires_grad, request.level, def.loc);
      std::vector<Value> flat_args, flat_output;
      for (const auto &[name, o] : inputs)
        if (o.kind == Obj::Kind::Tensor) flat_args.push_back(Value::name(name));
      std::vector<Obj> output_tensors;
      tensors_of(result, output_tensors);
      for (const Obj &t : output_tensors)
        flat_output.push_back(Value::name(t.as<TensorObj>().name));
      // Thunder's augmented forward: the outputs, then what the backward needs.
      returned = Value::tuple(
          {Value::dict({{Value::string("output"), std::move(returned)},
                        {Value::string("flat_args"), Value::list(std::move(flat_args))},
                        {Value::string("flat_output"), Value::tuple(std::move(flat_output))}}),
           training->saved_for_backward});
    }
    std::vector<bool> keep = live_statements(body, hidden_reads, returned, used);
    Trace computation;
    computation.preamble = {PreambleItem::blank()};
    computation.decorators = decorators();
    computation.name = request.grad ? "augmented_forward_fn" : "computation";
    std::vector<Statement> header;
    std::vector<Value> passed;
    auto take = [&](const std::string &name, const Obj &o, bool always) {
      if (!always && !used.count(name)) return;
      computation.parameters.push_back(Parameter{name, ParamKind::Positional, {}, {}});
      header.push_back(Statement::annotation_comment(name, type_string(o)));
      passed.push_back(Value::name(name));
    };
    for (const Obj *o : proxies)
      take(o->kind == Obj::Kind::Tensor ? o->as<TensorObj>().input_name : proxy_name(*o), *o,
           o->kind == Obj::Kind::Tensor);
    std::vector<Obj> state_tensors;
    for (std::size_t i = 0; i < state.size(); ++i) {
      if (!used.count(state_names[i])) continue;
      // Annotated with what it was when the computation took it.
      Obj at_entry = state[i].tensor;
      take(state_names[i], at_entry, true);
      program.state.push_back(describe_state(state[i], state_names[i]));
      state_tensors.push_back(at_entry);
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

    // ---- prologue
    Trace prologue;
    prologue.preamble = preamble(request, request.grad ? "prologue, augmented forward and backward"
                                                       : "prologue and computation");
    prologue.decorators = decorators();
    prologue.name = "prologue";
    prologue.parameters = {Parameter{"args", ParamKind::VarArgs, {}, {}},
                           Parameter{"kwargs", ParamKind::VarKeywords, {}, {}}};
    std::vector<Statement> &pb = prologue.body;
    pb.push_back(Statement::annotation_comment("args", "Any"));
    pb.push_back(Statement::bound(
        std::nullopt,
        symbol_call(Sym::prims_check_len,
                    {Value::name("args"), Value::int_value(static_cast<int64_t>(inputs.size()))})));
    pb.push_back(Statement::annotation_comment("kwargs", "Any"));
    pb.push_back(
        Statement::bound(std::nullopt, symbol_call(Sym::prims_check_len,
                                                   {Value::name("kwargs"), Value::int_value(0)})));
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const auto &[name, o] = inputs[i];
      // The input as it came in (an in-place update renamed the tensor since).
      Obj entry = o;
      if (o.kind == Obj::Kind::Tensor && o.as<TensorObj>().name != name) {
        entry = Interpreter::alias_tensor(o.as<TensorObj>());
        entry.as<TensorObj>().name = name;
      }
      pb.push_back(Binder::annotated(
          name, entry,
          Value::subscript(Value::name("args"), Value::int_value(static_cast<int64_t>(i)))));
      binder.check_input(entry, name, pb);
    }
    state_prologue(program.state, pb, binder, state_tensors);
    for (Statement &s : recorder.guard_statements())
      pb.push_back(std::move(s));
    pb.push_back(Statement::ret(Value::tuple({Value::tuple(passed), Value::tuple({})})));

    program.file.traces.reserve(3);
    program.file.traces.push_back(std::move(prologue));
    program.file.traces.push_back(std::move(computation));
    if (training) {
      // One gradient per input and state tensor the computation takes, None where it has none.
      GradientSignature signature;
      signature.cotangent_of = training->cotangent_of;
      std::vector<Value> gradients;
      auto gradient_of = [&](const std::string &name) {
        auto g = training->gradients.find(name);
        signature.has_gradient.push_back(g != training->gradients.end());
        gradients.push_back(g != training->gradients.end() ? g->second : Value::none());
      };
      for (const InputSpec &spec : program.inputs)
        gradient_of(spec.kind == InputSpec::Kind::Tensor ? spec.name : std::string());
      for (const StateTensor &t : program.state)
        gradient_of(t.name);
      training->backward.body.push_back(Statement::ret(Value::tuple(std::move(gradients))));
      training->backward.decorators = decorators();
      program.file.traces.push_back(std::move(training->backward));
      program.gradients = std::move(signature);
    }
    if (fusion) {
      report_progress(request.progress, "grouping prims into fusion regions");
      int next_region = 0;
      std::vector<const Trace *> fused;
      for (std::size_t t = 1; t < program.file.traces.size(); ++t) {
        fuse_regions(program.file.traces[t], next_region, program.fusions, fused);
        fused.push_back(&program.file.traces[t]);
      }
    }
  } catch (const TraceError &e) {
    return error_of(e, request.path);
  } catch (const PyError &e) {
    return error_of(in.uncaught(e), request.path);
  } catch (const BodyRest::Failed &) {
    return Error{"part of a function body does not parse", request.path, 0, 0}; // see trace()
  }
  return program;
}

} // namespace

Result<TracedProgram> trace(const TraceRequest &request) {
  Result<Module> parsed = parse_module_chunked(request.path, request.source, request.threads);
  if (!parsed) return parsed.error();
  auto module = std::make_shared<const Module>(std::move(parsed.value()));
  Result<TracedProgram> traced = trace_module(request, module);
  // A trace from a chunked body stands only if all of the body parses (a function may return
  // before its end, or not be the one traced); otherwise the whole file's error is the answer.
  for (const Stmt &s : module->body)
    if (s.kind == Stmt::Kind::Def && s.function->rest && !s.function->rest->parses_cleanly())
      return trace_unchunked(request);
  return traced;
}

Result<TracedProgram> trace_unchunked(const TraceRequest &request) {
  Result<Module> whole = parse_module(request.path, request.source);
  if (!whole) return whole.error();
  return trace_module(request, std::make_shared<const Module>(std::move(whole.value())));
}

} // namespace tracelint::tracer
