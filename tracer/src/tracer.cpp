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
  return Error{message, e.file.value_or(path), e.loc.line, e.loc.column};
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

// A copy of an input's structure (its lists, tuples and dicts) holding copies of its tensors as
// they are now: what the prologue unpacks, whatever the call does to the original.
Obj as_entered(const Obj &o) {
  switch (o.kind) {
  case Obj::Kind::Tensor: {
    auto copy = std::make_shared<TensorObj>(o.as<TensorObj>());
    copy->views.clear();
    return Obj::heap(Obj::Kind::Tensor, std::move(copy));
  }
  case Obj::Kind::Tuple:
  case Obj::Kind::List: {
    std::vector<Obj> items;
    for (const Obj &item : o.as<SeqObj>().items)
      items.push_back(as_entered(item));
    return o.kind == Obj::Kind::Tuple ? Obj::tuple(std::move(items)) : Obj::list(std::move(items));
  }
  case Obj::Kind::Dict: {
    Obj d = Obj::dict();
    const DictObj &src = o.as<DictObj>();
    for (std::size_t i = 0; i < src.keys.size(); ++i)
      d.as<DictObj>().set(src.keys[i], as_entered(src.values[i]));
    return d;
  }
  default:
    return o;
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

// One traced call of a function or a module's method, in its steps: find the callable, bind the
// inputs, call it, build the computation (with the grad transform's augmented forward when
// --grad), build the prologue, add the backward, group fusion regions. Each step reads what the
// steps before it left in the members.
class ModuleTracing {
public:
  // `construction`: the backend the module's top level and construction run on (one that
  // computes values; the recorder, shapes only, where null).
  ModuleTracing(const TraceRequest &request, std::shared_ptr<const Module> module,
                Backend *construction = nullptr)
      : request_(request), module_(std::move(module)), construction_(construction),
        recorder_(request.cache, *module_, request.provenance),
        in_(module_, recorder_, limits_of(request)), binder_(request.cache, recorder_) {
    for (const std::string &r : kReserved)
      recorder_.reserve(r);
    recorder_.set_recording(false);
  }

  Result<TracedProgram> run(bool fusion) {
    try {
      report_progress(request_.progress, "running the module's top level");
      if (construction_) in_.set_backend(*construction_);
      in_.run_module();
      if (!request_.module_class.empty())
        report_progress(request_.progress, "constructing " + request_.module_class);
      Result<TracedCallable> found = traced_callable(request_, *module_, in_);
      in_.set_backend(recorder_);
      if (!found) return found.error();
      target_ = std::move(found.value());
      if (std::optional<Error> wrong = check_args()) return *wrong;
      name_state();
      if (std::optional<Error> wrong = bind_inputs()) return *wrong;
      call();
      Trace computation = build_computation();
      Trace prologue = build_prologue();
      program_.file.traces.reserve(3);
      program_.file.traces.push_back(std::move(prologue));
      program_.file.traces.push_back(std::move(computation));
      if (training_) add_backward();
      if (fusion) fuse();
    } catch (const ConstructionReadsValues &e) {
      reads_values_ = true;
      return error_of(e, request_.path);
    } catch (const TraceError &e) {
      return error_of(e, request_.path);
    } catch (const PyError &e) {
      return error_of(in_.uncaught(e), request_.path);
    } catch (const BodyRest::Failed &) {
      return Error{"part of a function body does not parse", request_.path, 0, 0}; // see trace()
    }
    return std::move(program_);
  }

  // Whether construction stopped at a read of a tensor's values (on the recorder, which has
  // none).
  bool reads_values() const { return reads_values_; }

private:
  const FunctionDef &def() const { return *target_.def; }

  // Every --arg names a parameter of the traced callable, once.
  std::optional<Error> check_args() const {
    std::set<std::string_view> named;
    for (const ArgSpec &arg : request_.args) {
      bool known = false;
      for (std::size_t i = target_.first_param; i < def().params.size(); ++i)
        known = known || def().params[i].name == arg.name;
      if (!known)
        return Error{"--arg " + excerpt(arg.name) + ": " + target_.signature +
                         " has no parameter `" + excerpt(arg.name) + "`",
                     request_.path, def().loc.line, def().loc.column};
      if (!named.insert(arg.name).second)
        return Error{"--arg " + excerpt(arg.name) + " is given twice (one --arg per parameter)", "",
                     0, 0};
    }
    return std::nullopt;
  }

  // The module's tensors and the names the traces give them (never a parameter's or a reserved
  // name).
  void name_state() {
    for (std::size_t i = target_.first_param; i < def().params.size(); ++i)
      recorder_.reserve(def().params[i].name);
    if (target_.instance.kind == Obj::Kind::Instance)
      state_ = module_state(in_, target_.instance, def().loc);
    std::set<std::string> taken;
    for (const StateEntry &e : state_) {
      std::string name = state_name(e.path);
      for (int k = 1; taken.count(name) || kReserved.count(name); ++k)
        name = state_name(e.path) + "_" + std::to_string(k);
      taken.insert(name);
      recorder_.reserve(name);
      state_names_.push_back(name);
    }
  }

  // Each parameter's value: a proxy made from its --arg, or its default.
  std::optional<Error> bind_inputs() {
    for (std::size_t i = target_.first_param; i < def().params.size(); ++i) {
      const Param &p = def().params[i];
      auto given = std::find_if(request_.args.begin(), request_.args.end(),
                                [&](const ArgSpec &a) { return a.name == p.name; });
      if (p.kind == Param::Kind::VarArgs || p.kind == Param::Kind::VarKeywords) {
        if (given != request_.args.end())
          return Error{"--arg " + excerpt(p.name) +
                           ": a *args or **kwargs parameter takes no --arg "
                           "(the tracer gives each input its own parameter)",
                       request_.path, p.loc.line, p.loc.column};
        continue;
      }
      if (given == request_.args.end()) {
        if (!target_.function->defaults[i])
          return Error{"missing --arg for parameter `" + excerpt(p.name) + "` of " +
                           target_.signature + " (for example --arg " + excerpt(p.name) +
                           "=f32[2, 3] or --arg " + excerpt(p.name) + "=4)",
                       request_.path, p.loc.line, p.loc.column};
        args_.push_back(*target_.function->defaults[i]);
        continue;
      }
      Result<InputSpec> spec = parse_arg(*given);
      if (!spec) return Error{spec.error().message, "", 0, 0};
      Obj o = binder_.make_input(spec.value(), p.name);
      args_.push_back(o);
      inputs_.emplace_back(p.name, o);
      // A collection as it came in (the call may rename its tensors by updating them in place,
      // or add to it), and its tensors, to copy back what the call updates. A tensor input is
      // itself: its input_name keeps what it came in as.
      if (o.kind == Obj::Kind::Tensor) {
        entered_.push_back(o);
      } else {
        entered_.push_back(as_entered(o));
        tensors_of(o, nested_tensors_);
      }
      program_.inputs.push_back(std::move(spec.value()));
    }
    for (std::size_t i = 0; i < state_.size(); ++i)
      binder_.name_state(state_[i].tensor, state_names_[i]);
    return std::nullopt;
  }

  // Interprets the call with the recorder on; what it returns, as the trace returns it.
  void call() {
    recorder_.set_recording(true);
    recorder_.set_taping(request_.grad);
    const std::string what = request_.module_class.empty()
                                 ? request_.function
                                 : request_.module_class + "." + request_.method;
    const std::string tracing = "tracing " + what;
    recorder_.set_progress(
        [&](std::size_t recorded) { report_progress(request_.progress, tracing, recorded); });
    result_ = in_.call_top(target_.callable, args_, {}, def().loc);
    try {
      returned_ = to_value(result_, def().loc);
    } catch (const TraceError &) {
      throw TraceError(def().loc, "the traced function returns " + describe(result_) +
                                      ", which a trace cannot return (tensors, numbers, and "
                                      "tuples, lists and dicts of them)");
    }
    if (request_.grad) refuse_leaf_updates(inputs_, state_, def().loc);
    copy_back_updates();
    program_.printed = in_.printed();
  }

  // An input updated in place is copied back, as eager PyTorch leaves the caller's tensor
  // updated (prims.copy_ is never removed as dead code).
  void copy_back_updates() {
    auto copy_back = [&](const Obj &o) {
      const TensorObj &t = o.as<TensorObj>();
      if (t.name != t.input_name)
        // grad_enabled: the grad mode Thunder records (the traced call runs with grad on; a
        // copy into an input that requires grad is refused above).
        recorder_.append(Statement::bound(
            std::nullopt,
            symbol_call(Sym::prims_copy_, {Value::name(t.name), Value::name(t.input_name)},
                        {{"grad_enabled", Value::boolean_value(true)}})));
    };
    for (const auto &[name, o] : inputs_)
      if (o.kind == Obj::Kind::Tensor) copy_back(o);
    for (const Obj &t : nested_tensors_)
      copy_back(t);
    for (const StateEntry &e : state_)
      copy_back(e.tensor);
  }

  // The grad transform: the backward of what was recorded, and the augmented forward's return.
  void differentiate(std::vector<Statement> &body,
                     std::vector<std::pair<std::size_t, std::string>> &hidden_reads) {
    std::vector<ForwardInput> forward_inputs;
    for (const Obj *o : proxies_)
      forward_inputs.push_back(o->kind == Obj::Kind::Tensor
                                   ? ForwardInput{o->as<TensorObj>().input_name, true}
                                   : ForwardInput{proxy_name(*o), false});
    std::unordered_set<std::string> requires_grad;
    for (const auto &[name, o] : inputs_)
      if (o.kind == Obj::Kind::Tensor && o.as<TensorObj>().requires_grad)
        requires_grad.insert(name);
    for (std::size_t i = 0; i < state_.size(); ++i) {
      forward_inputs.push_back(ForwardInput{state_names_[i], true});
      if (state_[i].tensor.as<TensorObj>().requires_grad) requires_grad.insert(state_names_[i]);
    }
    report_progress(request_.progress, "differentiating (the grad transform)");
    training_ = record_training(recorder_, body, hidden_reads, result_, forward_inputs,
                                requires_grad, request_.level, def().loc);
    std::vector<Value> flat_args, flat_output;
    for (const auto &[name, o] : inputs_)
      if (o.kind == Obj::Kind::Tensor) flat_args.push_back(Value::name(name));
    std::vector<Obj> output_tensors;
    tensors_of(result_, output_tensors);
    for (const Obj &t : output_tensors)
      flat_output.push_back(Value::name(t.as<TensorObj>().name));
    // Thunder's augmented forward: the outputs, then what the backward needs.
    returned_ = Value::tuple(
        {Value::dict({{Value::string("output"), std::move(returned_)},
                      {Value::string("flat_args"), Value::list(std::move(flat_args))},
                      {Value::string("flat_output"), Value::tuple(std::move(flat_output))}}),
         training_->saved_for_backward});
  }

  // The parameters the computation takes (the proxies and state tensors it uses), each with
  // its annotation comment; what the prologue passes it.
  std::vector<Statement> computation_parameters(Trace &computation) {
    std::vector<Statement> header;
    auto take = [&](const std::string &name, const Obj &o, bool always) {
      if (!always && !used_.count(name)) return;
      computation.parameters.push_back(Parameter{name, ParamKind::Positional, {}, {}});
      header.push_back(Statement::annotation_comment(name, type_string(o)));
      passed_.push_back(Value::name(name));
    };
    for (const Obj *o : proxies_)
      take(o->kind == Obj::Kind::Tensor ? o->as<TensorObj>().input_name : proxy_name(*o), *o,
           o->kind == Obj::Kind::Tensor);
    for (std::size_t i = 0; i < state_.size(); ++i) {
      if (!used_.count(state_names_[i])) continue;
      // Annotated with what it was when the computation took it.
      Obj at_entry = state_[i].tensor;
      take(state_names_[i], at_entry, true);
      program_.state.push_back(describe_state(state_[i], state_names_[i]));
      state_tensors_.push_back(at_entry);
    }
    if (!header.empty()) header.push_back(Statement::blank());
    return header;
  }

  Trace build_computation() {
    for (const Obj &o : entered_)
      collect_proxies(o, proxies_);
    for (const Obj *o : proxies_)
      used_.insert(o->kind == Obj::Kind::Tensor ? o->as<TensorObj>().input_name : proxy_name(*o));
    for (const std::string &n : state_names_)
      used_.insert(n);
    std::vector<std::pair<std::size_t, std::string>> hidden_reads = recorder_.take_hidden_reads();
    std::vector<Statement> body = recorder_.take_body();
    program_.tensor_bytes = recorder_.take_tensor_bytes();
    if (request_.grad) differentiate(body, hidden_reads);
    std::vector<bool> keep = live_statements(body, hidden_reads, returned_, used_);
    Trace computation;
    computation.preamble = {PreambleItem::blank()};
    computation.decorators = decorators();
    computation.name = request_.grad ? "augmented_forward_fn" : "computation";
    // Each kept statement moves once, into its place after the header (a Statement is large).
    std::vector<Statement> &out = computation.body;
    out = computation_parameters(computation);
    std::size_t first = out.size();
    out.reserve(first + static_cast<std::size_t>(std::count(keep.begin(), keep.end(), true)) + 1);
    for (std::size_t k = 0; k < body.size(); ++k) {
      if (!keep[k]) continue;
      if (request_.level == Level::Prims)
        flatten(std::move(body[k]), out);
      else
        out.push_back(std::move(body[k]));
    }
    for (std::size_t k = first; k < out.size(); ++k)
      if (out[k].kind == Statement::Kind::BoundSymbol) {
        ++program_.bound_symbols;
        program_.all_bound_symbols += 1 + count_subsymbols(out[k]);
      }
    out.push_back(Statement::ret(returned_));
    return computation;
  }

  // Checks the call's arguments and unpacks the module's state; returns what the computation
  // takes.
  Trace build_prologue() {
    Trace prologue;
    prologue.preamble =
        preamble(request_, request_.grad ? "prologue, augmented forward and backward"
                                         : "prologue and computation");
    prologue.decorators = decorators();
    prologue.name = "prologue";
    prologue.parameters = {Parameter{"args", ParamKind::VarArgs, {}, {}},
                           Parameter{"kwargs", ParamKind::VarKeywords, {}, {}}};
    std::vector<Statement> &pb = prologue.body;
    pb.push_back(Statement::annotation_comment("args", "Any"));
    pb.push_back(Statement::bound(
        std::nullopt, symbol_call(Sym::prims_check_len,
                                  {Value::name("args"),
                                   Value::int_value(static_cast<int64_t>(inputs_.size()))})));
    pb.push_back(Statement::annotation_comment("kwargs", "Any"));
    pb.push_back(
        Statement::bound(std::nullopt, symbol_call(Sym::prims_check_len,
                                                   {Value::name("kwargs"), Value::int_value(0)})));
    for (std::size_t i = 0; i < inputs_.size(); ++i) {
      const auto &[name, o] = inputs_[i];
      // The input as it came in (an in-place update renamed the tensor since).
      Obj entry = entered_[i];
      if (o.kind == Obj::Kind::Tensor && o.as<TensorObj>().name != name) {
        entry = alias_tensor(o.as<TensorObj>());
        entry.as<TensorObj>().name = name;
      }
      pb.push_back(Binder::annotated(
          name, entry,
          Value::subscript(Value::name("args"), Value::int_value(static_cast<int64_t>(i)))));
      binder_.check_input(entry, name, pb);
    }
    state_prologue(program_.state, pb, binder_, state_tensors_);
    for (Statement &s : recorder_.guard_statements())
      pb.push_back(std::move(s));
    pb.push_back(Statement::ret(Value::tuple({Value::tuple(passed_), Value::tuple({})})));
    return prologue;
  }

  // backward_fn: one gradient per input and state tensor the computation takes, None where it
  // has none.
  void add_backward() {
    GradientSignature signature;
    signature.cotangent_of = training_->cotangent_of;
    std::vector<Value> gradients;
    auto gradient_of = [&](const std::string &name) {
      auto g = training_->gradients.find(name);
      signature.has_gradient.push_back(g != training_->gradients.end());
      gradients.push_back(g != training_->gradients.end() ? g->second : Value::none());
    };
    for (const InputSpec &spec : program_.inputs)
      gradient_of(spec.kind == InputSpec::Kind::Tensor ? spec.name : std::string());
    for (const StateTensor &t : program_.state)
      gradient_of(t.name);
    training_->backward.body.push_back(Statement::ret(Value::tuple(std::move(gradients))));
    training_->backward.decorators = decorators();
    program_.file.traces.push_back(std::move(training_->backward));
    program_.gradients = std::move(signature);
  }

  void fuse() {
    report_progress(request_.progress, "grouping prims into fusion regions");
    int next_region = 0;
    std::vector<const Trace *> fused;
    for (std::size_t t = 1; t < program_.file.traces.size(); ++t) {
      fuse_regions(program_.file.traces[t], next_region, program_.fusions, fused);
      fused.push_back(&program_.file.traces[t]);
    }
  }

  const TraceRequest &request_;
  std::shared_ptr<const Module> module_;
  Backend *construction_;
  bool reads_values_ = false;
  Recorder recorder_;
  Interpreter in_; // records into recorder_
  Binder binder_;
  TracedProgram program_;
  TracedCallable target_;
  std::vector<StateEntry> state_;
  std::vector<std::string> state_names_;
  std::vector<Obj> args_;
  std::vector<std::pair<std::string, Obj>> inputs_; // the traced inputs, by name
  std::vector<Obj> entered_;        // each input as it came in (a collection: as_entered)
  std::vector<Obj> nested_tensors_; // the tensors inside the inputs that are collections
  Obj result_;
  Value returned_;
  std::vector<const Obj *> proxies_;     // the inputs' proxies, in order
  std::unordered_set<std::string> used_; // the names the computation may take
  std::optional<Training> training_;
  std::vector<Value> passed_;      // what the prologue returns for the computation
  std::vector<Obj> state_tensors_; // the state tensors the computation takes
};

Result<TracedProgram> trace_module(const TraceRequest &request,
                                   std::shared_ptr<const Module> module) {
  Result<bool> wants_fusion = wants_cuda_fusion(request.executors);
  if (!wants_fusion) return wants_fusion.error();
  ModuleTracing tracing(request, module);
  Result<TracedProgram> traced = tracing.run(wants_fusion.value());
  if (!tracing.reads_values() || !request.value_backend) return traced;
  // Construction read a tensor's values: from the top again, constructing on libtorch. Declared
  // first, the backend outlives the objects that hold its tensors.
  Result<std::unique_ptr<Backend>> values = request.value_backend();
  if (!values) return values.error();
  ModuleTracing again(request, std::move(module), values.value().get());
  return again.run(wants_fusion.value());
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
