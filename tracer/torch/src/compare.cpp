// Comparing the traces with the eager run: seeded inputs, both runs, and the comparison;
// optionally the run written out for an independent check.
#include "blas.hpp"
#include "runtime.hpp"

#include "tracelint/tracer/cuda_driver.hpp"
#include "tracelint/tracer/nvrtc.hpp"
#include "tracelint/tracer/regions.hpp"

#include "tracelint/core/escape.hpp"
#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"

#include <c10/util/Exception.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/autograd.h>

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace tracelint::tracer {

namespace {

// Elements compared at a time (see RunMemoryEstimate: what comparing holds is bounded by it).
constexpr int64_t kCompareSlice = int64_t{1} << 20;

void compare_into(const RtValue &e, const RtValue &a, const std::string &where, Comparison &c) {
  if (!c.equal) return;
  auto fail = [&](const std::string &why) {
    c.equal = false;
    c.mismatch = (where.empty() ? "the result" : where) + ": " + why;
  };
  if (e.kind == RtValue::Kind::Tensor || a.kind == RtValue::Kind::Tensor) {
    if (e.kind != a.kind) return fail("expected " + describe(e) + ", got " + describe(a));
    if (e.tensor.sizes() != a.tensor.sizes() || e.tensor.scalar_type() != a.tensor.scalar_type())
      return fail("expected " + describe(e) + ", got " + describe(a));
    at::Tensor x = e.tensor.cpu(), y = a.tensor.cpu();
    if (at::isFloatingType(x.scalar_type())) {
      bool low = x.scalar_type() == at::kHalf || x.scalar_type() == at::kBFloat16;
      bool wide = x.scalar_type() == at::kDouble;
      double rtol = low ? 1e-2 : wide ? 1e-7 : 1e-4;
      double atol = low ? 1e-2 : wide ? 1e-9 : 1e-5;
      // A sum over many terms (a gradient of a matmul) rounds in proportion to its terms, not to
      // each result element: within this fraction of the tensor's largest magnitude, a value
      // that fails allclose alone is rounding (f32: about 80 ulps of the largest).
      double scale_tol = low ? 1e-2 : wide ? 1e-12 : 1e-5;
      // Slice by slice: the whole tensors in double and allclose's temporaries held about
      // eight times the result, most of a run's memory.
      at::Tensor flat_x = x.reshape({-1}), flat_y = y.reshape({-1});
      bool close = true;
      double largest = 0, worst = 0;
      for (int64_t start = 0; start < flat_x.numel(); start += kCompareSlice) {
        int64_t length = std::min(kCompareSlice, flat_x.numel() - start);
        at::Tensor sx = flat_x.narrow(0, start, length), sy = flat_y.narrow(0, start, length);
        at::Tensor diff = (sx.to(at::kDouble) - sy.to(at::kDouble)).abs();
        // NaN where both are NaN (equal_nan), inf where both are the same inf: no difference.
        diff =
            at::where(at::isnan(diff) & at::isnan(sx) & at::isnan(sy), at::zeros_like(diff), diff);
        diff = at::where(sx.to(at::kDouble) == sy.to(at::kDouble), at::zeros_like(diff), diff);
        worst = std::max(worst, diff.max().item<double>());
        largest = std::max(largest, sx.to(at::kDouble).abs().max().item<double>());
        close = close && at::allclose(sx, sy, rtol, atol, /*equal_nan=*/true);
      }
      if (worst > c.max_abs_diff || (worst == c.max_abs_diff && c.worst_at.empty()))
        c.worst_at = where;
      c.max_abs_diff = std::max(c.max_abs_diff, worst);
      if (flat_x.numel() > 0 && largest > 0)
        c.max_rel_diff = std::max(c.max_rel_diff, c.max_abs_diff / largest);
      bool rounding = std::isfinite(largest) && worst <= scale_tol * largest;
      if (!close && !rounding)
        return fail("values differ (max abs diff " + python_float(c.max_abs_diff) + ")");
    } else if (!at::equal(x, y)) {
      return fail("values differ");
    }
    return;
  }
  if (is_number(e) && is_number(a)) {
    if (e.kind != a.kind) return fail("expected " + describe(e) + ", got " + describe(a));
    if (e.kind == RtValue::Kind::Float ? std::fabs(e.real - a.real) > 1e-9 * (1 + std::fabs(e.real))
                                       : e.integer != a.integer)
      return fail("expected " + describe(e) + ", got " + describe(a));
    return;
  }
  if (e.kind != a.kind || e.items.size() != a.items.size())
    return fail("expected " + describe(e) + ", got " + describe(a));
  if (!e.items.empty()) {
    for (std::size_t i = 0; i < e.items.size(); ++i)
      compare_into(e.items[i], a.items[i], where + "[" + std::to_string(i) + "]", c);
    return;
  }
  if (!same_literal(e, a) && e.kind != RtValue::Kind::Tuple && e.kind != RtValue::Kind::List &&
      e.kind != RtValue::Kind::Dict)
    fail("expected " + describe(e) + ", got " + describe(a));
}

// Fresh copies of the inputs' tensors: a trace that updates an input in place (prims.copy_)
// must not change what the next run sees.
std::vector<RtValue> cloned(const std::vector<RtValue> &values) {
  std::vector<RtValue> out = values;
  std::function<void(RtValue &)> fresh = [&](RtValue &v) {
    if (v.kind == RtValue::Kind::Tensor) v.tensor = v.tensor.clone();
    for (RtValue &item : v.items)
      fresh(item);
  };
  for (RtValue &v : out)
    fresh(v);
  return out;
}

// A fresh copy of the module's state tensors, each requiring grad as the original does: a trace
// that updates a buffer in place (a running statistic, a counter) must not change the state the
// next run, or --save-io, sees.
RtValue cloned_state(const RtValue &module) {
  RtValue out = module;
  for (RtValue &item : out.items)
    if (item.kind == RtValue::Kind::Tensor)
      item.tensor = item.tensor.detach().clone().requires_grad_(item.tensor.requires_grad());
  return out;
}

// ---- the run written out: manifest.json and one raw little-endian file per tensor

// A file of the run's folder, created new: never through a link, never over another file.
void write_new_file(const std::filesystem::path &path, const char *data, std::size_t size) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw ExecError("cannot create " + path.string() + ": " + std::strerror(errno));
  for (std::size_t done = 0; done < size;) {
    ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int error = errno;
      ::close(fd);
      throw ExecError("cannot write " + path.string() + ": " + std::strerror(error));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0)
    throw ExecError("cannot write " + path.string() + ": " + std::strerror(errno));
}

class IoWriter {
public:
  explicit IoWriter(std::filesystem::path dir) : dir_(std::move(dir)) {}

  nlohmann::json value(const RtValue &v) {
    nlohmann::json j;
    switch (v.kind) {
    case RtValue::Kind::Tensor: {
      at::Tensor t = v.tensor.detach().cpu().contiguous();
      std::string file = "tensor" + std::to_string(count_++) + ".bin";
      write_new_file(dir_ / file, static_cast<const char *>(t.data_ptr()), t.nbytes());
      j["tensor"] = file;
      j["dtype"] = dtype_name(t.scalar_type());
      j["shape"] = std::vector<int64_t>(t.sizes().begin(), t.sizes().end());
      return j;
    }
    case RtValue::Kind::Int:
      j["int"] = v.integer;
      return j;
    case RtValue::Kind::Float:
      j["float"] = python_float(v.real);
      return j;
    case RtValue::Kind::Bool:
      j["bool"] = v.boolean;
      return j;
    case RtValue::Kind::None:
      j["none"] = true;
      return j;
    case RtValue::Kind::Tuple:
    case RtValue::Kind::List: {
      nlohmann::json items = nlohmann::json::array();
      for (const RtValue &item : v.items)
        items.push_back(value(item));
      j[v.kind == RtValue::Kind::Tuple ? "tuple" : "list"] = items;
      return j;
    }
    case RtValue::Kind::Dict: {
      nlohmann::json items = nlohmann::json::array();
      for (std::size_t i = 0; i + 1 < v.items.size(); i += 2)
        items.push_back({value(v.items[i]), value(v.items[i + 1])});
      j["dict"] = items;
      return j;
    }
    default:
      j["repr"] = describe(v);
      return j;
    }
  }

private:
  std::filesystem::path dir_;
  int count_ = 0;
};

// A grad run's cotangents and the backward's gradients, for --save-io.
struct GradientRun {
  std::vector<at::Tensor> cotangents; // of the output tensors GradientSignature::cotangent_of
  struct Input {
    std::string name; // an input's name, or a state tensor's path
    bool state = false;
    RtValue traced, printed;
  };
  std::vector<Input> inputs;
};

// The inputs as the caller gives them: those traced with :grad require grad (the prologue
// checks it, as Thunder's does).
std::vector<RtValue> as_given(std::vector<RtValue> inputs, const TracedProgram &program) {
  for (std::size_t i = 0; i < inputs.size() && i < program.inputs.size(); ++i)
    if (program.inputs[i].requires_grad && inputs[i].kind == RtValue::Kind::Tensor)
      inputs[i].tensor.requires_grad_(true);
  return inputs;
}

void write_run_files(const std::string &dir, const TraceRequest &request,
                     const TracedProgram &program, const std::vector<RtValue> &inputs,
                     const EagerRun &eager, const RtValue &traced,
                     const std::vector<RtValue> &inputs_after, const RtValue &printed,
                     const GradientRun &gradients, const std::string &printed_text) {
  IoWriter w(dir);
  nlohmann::json m;
  // The printed trace itself, for a runner that gives its symbols PyTorch's semantics
  // (tracer/oracle/trace_runner.py): what a user would run, not what this executor ran.
  write_new_file(std::filesystem::path(dir) / "trace.py", printed_text.data(), printed_text.size());
  m["trace"] = "trace.py";
  m["source"] = std::filesystem::absolute(request.path).string();
  m["function"] = request.function;
  m["module_class"] = request.module_class;
  m["train"] = request.train;
  m["method"] = request.method;
  nlohmann::json init = nlohmann::json::array();
  for (const ArgSpec &a : request.init)
    init.push_back({{"name", a.name}, {"expr", a.text}});
  m["init"] = init;
  nlohmann::json args = nlohmann::json::array();
  for (std::size_t i = 0; i < program.inputs.size(); ++i) {
    const InputSpec &spec = program.inputs[i];
    nlohmann::json a = {{"name", spec.name}};
    if (spec.kind != InputSpec::Kind::Literal) { // a tensor, or a collection holding some
      a["value"] = w.value(inputs[i]);
      a["after"] = w.value(inputs_after[i]);
      a["requires_grad"] = spec.requires_grad;
    } else {
      auto given = std::find_if(request.args.begin(), request.args.end(),
                                [&](const ArgSpec &g) { return g.name == spec.name; });
      a["literal"] = given == request.args.end() ? "" : given->text;
    }
    args.push_back(a);
  }
  m["args"] = args;
  nlohmann::json state = nlohmann::json::array();
  for (std::size_t i = 0; i + 1 < eager.module.items.size(); i += 2)
    state.push_back(
        {{"path", eager.module.items[i].text}, {"value", w.value(eager.module.items[i + 1])}});
  m["state"] = state;
  m["eager"] = w.value(eager.result);
  m["traced"] = w.value(traced);
  m["printed"] = w.value(printed);
  if (program.gradients) {
    nlohmann::json g;
    nlohmann::json cotangents = nlohmann::json::array();
    for (std::size_t i = 0; i < gradients.cotangents.size(); ++i)
      cotangents.push_back({{"output", program.gradients->cotangent_of[i]},
                            {"value", w.value(RtValue::of_tensor(gradients.cotangents[i]))}});
    g["cotangents"] = cotangents;
    nlohmann::json of = nlohmann::json::array();
    for (const GradientRun::Input &in : gradients.inputs)
      of.push_back({{"name", in.name},
                    {"state", in.state},
                    {"traced", w.value(in.traced)},
                    {"printed", w.value(in.printed)}});
    g["inputs"] = of;
    m["gradients"] = g;
  }
  std::string manifest = m.dump(2) + "\n";
  write_new_file(std::filesystem::path(dir) / "manifest.json", manifest.data(), manifest.size());
}

// The tensors of a runtime value (tuples, lists, dict values), in order: a traced output's
// flat_output.
void tensor_leaves(const RtValue &v, std::vector<at::Tensor> &out) {
  if (v.kind == RtValue::Kind::Tensor) {
    out.push_back(v.tensor);
    return;
  }
  bool dict = v.kind == RtValue::Kind::Dict;
  for (std::size_t i = dict ? 1 : 0; i < v.items.size(); i += dict ? 2 : 1)
    tensor_leaves(v.items[i], out);
}

// The output of an augmented forward's ({'output': ..., ...}, saved_for_backward).
Result<std::pair<RtValue, RtValue>> split_augmented(const RtValue &v) {
  if (v.kind != RtValue::Kind::Tuple || v.items.size() != 2 ||
      v.items[0].kind != RtValue::Kind::Dict || v.items[0].items.size() < 2)
    return Error{"the augmented forward returned " + describe(v) +
                     ", not ({'output': ..., ...}, saved_for_backward)",
                 "", 0, 0};
  return std::make_pair(v.items[0].items[1], v.items[1]);
}

RtValue detached(const RtValue &v) {
  RtValue out = v;
  std::function<void(RtValue &)> detach = [&](RtValue &x) {
    if (x.kind == RtValue::Kind::Tensor) x.tensor = x.tensor.detach();
    for (RtValue &item : x.items)
      detach(item);
  };
  detach(out);
  return out;
}

// The forward (prologue and augmented forward) of a file traced for grad.
TraceFile forward_of(const TraceFile &file) {
  TraceFile forward;
  forward.traces = {file.traces.at(0), file.traces.at(1)};
  return forward;
}

// Runs the backward on the forward's saved_for_backward and the cotangents: one value per
// input (None where it has no gradient).
Result<RtValue> run_backward(const Trace &backward, const RtValue &saved,
                             const std::vector<at::Tensor> &cotangents,
                             const ExecOptions &options) {
  std::vector<RtValue> cots;
  for (const at::Tensor &c : cotangents)
    cots.push_back(RtValue::of_tensor(c.clone()));
  return execute_trace(backward, {saved, RtValue::of_tuple(std::move(cots))}, options);
}
} // namespace

Comparison compare(const RtValue &expected, const RtValue &actual) {
  Comparison c;
  compare_into(expected, actual, "", c);
  return c;
}

namespace {

// One input drawn from the seeded generator: a collection's tensors depth first.
RtValue make_input(const InputSpec &spec, const std::string &device) {
  if (spec.kind == InputSpec::Kind::Literal) return literal(spec.literal);
  if (spec.kind == InputSpec::Kind::Collection) {
    RtValue out;
    out.kind = spec.collection == ValueKind::Tuple  ? RtValue::Kind::Tuple
               : spec.collection == ValueKind::List ? RtValue::Kind::List
                                                    : RtValue::Kind::Dict;
    for (std::size_t i = 0; i < spec.items.size(); ++i) {
      if (out.kind == RtValue::Kind::Dict) out.items.push_back(literal(spec.keys[i]));
      out.items.push_back(make_input(spec.items[i], device));
    }
    return out;
  }
  at::ScalarType type = scalar_type(spec.dtype);
  at::Tensor t;
  if (spec.range)
    t = at::randint(spec.range->first, spec.range->second, spec.shape,
                    at::TensorOptions().dtype(at::kLong))
            .to(type);
  else if (at::isFloatingType(type))
    t = at::randn(spec.shape, at::TensorOptions().dtype(at::kFloat)).to(type);
  else if (type == at::kBool)
    t = at::randint(0, 2, spec.shape, at::TensorOptions().dtype(at::kLong)).to(at::kBool);
  else
    t = at::randint(-8, 9, spec.shape, at::TensorOptions().dtype(at::kLong)).to(type);
  if (device != "cpu" && spec.device != "cpu") t = t.to(at::Device(spec.device));
  return RtValue::of_tensor(t);
}

} // namespace

std::vector<RtValue> make_inputs(const std::vector<InputSpec> &specs, uint64_t seed,
                                 const std::string &device) {
  at::manual_seed(seed);
  std::vector<RtValue> out;
  for (const InputSpec &spec : specs)
    out.push_back(make_input(spec, device));
  return out;
}

RtValue make_module_state(const std::vector<StateTensor> &state, uint64_t seed,
                          const at::Device &device) {
  RtValue module;
  if (state.empty()) return module;
  module.kind = RtValue::Kind::Module;
  at::manual_seed(seed);
  for (const StateTensor &s : state) {
    RtValue key;
    key.kind = RtValue::Kind::Str;
    key.text = s.path;
    module.items.push_back(std::move(key));
    // Requiring grad as the trace's prologue checks (a parameter does).
    module.items.push_back(
        RtValue::of_tensor((at::randn(s.shape) * 0.1).to(device).requires_grad_(s.requires_grad)));
  }
  return module;
}

namespace {

// The run's phases, one after another: each is told to request.progress as it starts (with the
// executor's statements as its steps) and timed into the report's timings as it ends.
class Phases {
public:
  Phases(const ProgressFn &progress, ExecOptions &exec, RunReport &report)
      : progress_(progress), report_(report) {
    if (progress_)
      exec.on_step = [this](std::size_t done, std::size_t total) {
        report_progress(progress_, running_, done, total);
      };
  }
  Phases(const Phases &) = delete;
  Phases &operator=(const Phases &) = delete;

  // phase names the timing ("the trace"); doing, the progress ("running the trace" unless given).
  void start(const std::string &phase, const std::string &doing = "") {
    end();
    phase_ = phase;
    running_ = doing.empty() ? "running " + phase : doing;
    started_ = std::chrono::steady_clock::now();
    report_progress(progress_, running_);
  }
  void end() {
    if (phase_.empty()) return;
    std::chrono::duration<double> took = std::chrono::steady_clock::now() - started_;
    report_.timings.push_back({phase_, took.count()});
    phase_.clear();
  }

private:
  const ProgressFn &progress_;
  RunReport &report_;
  std::string phase_, running_;
  std::chrono::steady_clock::time_point started_;
};

// The fusion regions' kernels: with a GPU, opened to run as kernels (exec.regions); without one,
// compiled all the same, and the regions run as their prims. Says which in report.fusion.
struct Regions {
  std::unique_ptr<GpuRegions> gpu;
  std::string no_gpu; // why they run as prims
};

Result<Regions> prepare_regions(const TraceRequest &request, const TracedProgram &program,
                                ExecOptions &exec, RunReport &report) {
  Regions regions;
  if (program.fusions.empty()) return regions;
  Result<std::shared_ptr<CudaDriver>> driver = CudaDriver::open();
  KernelCache kernels(driver ? driver.value()->architecture() : kDefaultArchitecture);
  if (driver) {
    Result<std::unique_ptr<GpuRegions>> opened =
        GpuRegions::open(program.fusions, driver.value(), kernels);
    if (!opened) return Error{opened.error().message, request.path, 0, 0};
    regions.gpu = std::move(opened.value());
    exec.regions = regions.gpu.get();
  } else {
    regions.no_gpu = driver.error().message;
    for (const FusionRegion &region : program.fusions) {
      Result<Ptx> ptx = kernels.get(region.name, region.cuda_source);
      if (!ptx) return Error{ptx.error().message, request.path, 0, 0};
    }
  }
  report.fusion = "cuda_fusion: " + std::to_string(program.fusions.size()) +
                  " regions, their kernels compiled by NVRTC to PTX for " + kernels.architecture() +
                  " (" + std::to_string(kernels.compiled()) + " compiled, " +
                  std::to_string(kernels.hits()) + " from the cache); ";
  return regions;
}

// How the regions ran, after the run: as kernels (and what was copied), or as their prims.
std::string regions_ran(const Regions &regions, const TracedProgram &program,
                        const std::string &device) {
  if (regions.gpu) {
    std::size_t launches = regions.gpu->launches(), copied = regions.gpu->copied_launches();
    std::string text = "the regions ran as CUDA kernels on " + regions.gpu->device() + " (" +
                       std::to_string(launches) + " launches)";
    if (copied)
      text += "; the other prims ran with libtorch on " + device +
              (device == "cpu" ? " (this libtorch has no CUDA)" : "") +
              ", so each region's tensors were copied to the GPU and back (" +
              std::to_string(copied) + " launches)";
    return text;
  }
  if (program.fusions.empty()) return "";
  return "the regions ran as their prims with libtorch on " + device + " (" + regions.no_gpu + ")";
}

// A trace's output, and for a forward traced for grad what it saved for the backward.
struct ForwardRun {
  RtValue output, saved;
};

Result<ForwardRun> run_forward(const TraceFile &file, const TracedProgram &program,
                               std::vector<RtValue> inputs, const ExecOptions &exec,
                               const RtValue &module, const std::string &what,
                               const std::string &path) {
  Result<RtValue> ran =
      execute_program(program.gradients ? forward_of(file) : file, std::move(inputs), exec, module);
  if (!ran) return Error{what + ": " + ran.error().message, path, 0, 0};
  if (!program.gradients) return ForwardRun{ran.value(), {}};
  Result<std::pair<RtValue, RtValue>> parts = split_augmented(ran.value());
  if (!parts) return Error{parts.error().message, path, 0, 0};
  return ForwardRun{parts->first, parts->second};
}

// What autograd is asked for: each input with a gradient, its leaf in the eager run, by name.
struct Leaves {
  std::vector<at::Tensor> tensors;
  std::vector<std::string> names;
};

Result<Leaves> gradient_leaves(const TracedProgram &program, const EagerRun &eager,
                               const std::vector<RtValue> &eager_inputs, const std::string &path) {
  Leaves leaves;
  const std::vector<bool> &has = program.gradients->has_gradient;
  for (std::size_t i = 0; i < has.size(); ++i) {
    if (!has[i]) continue;
    if (i < program.inputs.size()) {
      leaves.tensors.push_back(eager_inputs[i].tensor);
      leaves.names.push_back(program.inputs[i].name);
      continue;
    }
    std::size_t j = i - program.inputs.size();
    if (j >= eager.state_leaves.size())
      return Error{"the eager run has no tensor for " + program.state[j].path, path, 0, 0};
    leaves.tensors.push_back(eager.state_leaves[j]);
    leaves.names.push_back(program.state[j].path);
  }
  return leaves;
}

// The backward, of the trace and of the printed trace, against autograd on the eager run with
// the same seeded cotangents; each gradient's comparison goes into report.
Result<GradientRun> compare_gradients(const TracedProgram &program, const TraceFile &reparsed,
                                      const EagerRun &eager,
                                      const std::vector<RtValue> &eager_inputs,
                                      const ForwardRun &traced, const ForwardRun &again,
                                      const ExecOptions &exec, uint64_t seed,
                                      const std::string &path, RunReport &report, Phases &phases) {
  GradientRun run;
  std::vector<at::Tensor> eager_outputs;
  tensor_leaves(eager.result, eager_outputs);
  at::manual_seed(seed + 2);
  std::vector<at::Tensor> outputs, cotangents;
  for (std::size_t k : program.gradients->cotangent_of) {
    if (k >= eager_outputs.size())
      return Error{"the eager run returned fewer tensors than the trace", path, 0, 0};
    outputs.push_back(eager_outputs[k]);
    cotangents.push_back(at::randn_like(eager_outputs[k].detach()));
  }
  Result<Leaves> leaves = gradient_leaves(program, eager, eager_inputs, path);
  if (!leaves) return leaves.error();
  run.cotangents = cotangents;
  std::vector<at::Tensor> autograd_grads;
  if (!leaves->tensors.empty()) {
    for (const at::Tensor &o : outputs)
      if (!o.requires_grad())
        return Error{"the eager run's output does not require grad, though the trace "
                     "differentiates it",
                     path, 0, 0};
    phases.start("autograd");
    autograd_grads = torch::autograd::grad(outputs, leaves->tensors, cotangents,
                                           /*retain_graph=*/false, /*create_graph=*/false,
                                           /*allow_unused=*/true);
  }
  phases.start("the backward");
  Result<RtValue> grads = run_backward(program.backward(), traced.saved, cotangents, exec);
  if (!grads) return Error{"running the backward: " + grads.error().message, path, 0, 0};
  phases.start("the printed backward");
  Result<RtValue> grads_again = run_backward(reparsed.traces.at(2), again.saved, cotangents, exec);
  phases.end();
  if (!grads_again)
    return Error{"running the printed backward: " + grads_again.error().message, path, 0, 0};
  phases.start("comparing the gradients", "comparing the gradients");
  const std::vector<bool> &has = program.gradients->has_gradient;
  for (const RtValue *g : {&grads.value(), &grads_again.value()})
    if (g->kind != RtValue::Kind::Tuple || g->items.size() != has.size())
      return Error{"the backward returned " + describe(*g) + ", not one value per input", path, 0,
                   0};
  for (std::size_t i = 0, n = 0; i < has.size(); ++i) {
    if (!has[i]) continue;
    // An input autograd finds unused has a zero gradient.
    at::Tensor reference = autograd_grads[n].defined()
                               ? autograd_grads[n].detach()
                               : at::zeros_like(leaves->tensors[n].detach());
    RtValue expected_grad = RtValue::of_tensor(reference);
    GradientComparison c;
    c.input = leaves->names[n];
    c.from_model = compare(expected_grad, grads->items[i]);
    c.from_printed = compare(expected_grad, grads_again->items[i]);
    report.gradients.push_back(std::move(c));
    run.inputs.push_back(
        {leaves->names[n], i >= program.inputs.size(), grads->items[i], grads_again->items[i]});
    ++n;
  }
  return run;
}

// --save-io: the run's files, written in a private folder beside the one asked for and moved
// into it (nothing planted there is followed).
std::optional<Error> save_run_io(const RunOptions &options, const TraceRequest &request,
                                 const TracedProgram &program, const std::vector<RtValue> &inputs,
                                 const EagerRun &eager, const ForwardRun &traced,
                                 const std::vector<RtValue> &traced_inputs, const ForwardRun &again,
                                 const GradientRun &gradient_run, const std::string &printed) {
  try {
    if (std::optional<Error> refused = save_io_folder_error(options.save_io)) return refused;
    Result<std::string> private_dir = private_folder_beside(options.save_io);
    if (!private_dir) return private_dir.error();
    try {
      write_run_files(*private_dir, request, program, inputs, eager, traced.output, traced_inputs,
                      again.output, gradient_run, printed);
    } catch (...) {
      std::error_code ignored;
      std::filesystem::remove_all(*private_dir, ignored);
      throw;
    }
    return move_into(*private_dir, options.save_io);
  } catch (const std::exception &e) {
    return Error{std::string("--save-io: ") + e.what(), options.save_io, 0, 0};
  }
}

bool wants_cuda(const TracedProgram &program) {
  bool cuda_input = false;
  for (const InputSpec &s : program.inputs)
    for_each_tensor_spec(s, [&](const InputSpec &t) { cuda_input |= t.device != "cpu"; });
  return cuda_input || std::any_of(program.state.begin(), program.state.end(),
                                   [](const StateTensor &s) { return s.device != "cpu"; });
}

// The run's setting, made before anything runs: where it runs (and the notices that says), the
// fusion regions' kernels compiled, and the seeded inputs.
struct Execution {
  RunReport report;
  ExecOptions exec;
  Regions regions;
  std::vector<RtValue> inputs;
};

Result<Execution> prepare_execution(const TraceRequest &request, const TracedProgram &program,
                                    const RunOptions &options) {
  Execution run;
  bool cuda = wants_cuda(program), have_cuda = at::hasCUDA() && at::getNumGPUs() > 0;
  run.exec.check_number_values = options.inputs_as_traced;
  if (cuda && !have_cuda) {
    run.exec.cuda_as_cpu = true;
    run.report.notice =
        "note: no CUDA in this libtorch or no GPU: running on cpu; the traces keep their "
        "cuda annotations";
  }
  run.report.device = cuda && have_cuda ? "cuda:0" : "cpu";
  if (std::optional<std::string> slow = reference_blas_in_use())
    run.report.notice += std::string(run.report.notice.empty() ? "" : "\n") +
                         "note: libtorch multiplies matrices with the reference BLAS (" +
                         printable(*slow) +
                         "), one core and 10-50x slower than OpenBLAS: install Debian's "
                         "libopenblas0-pthread (scripts/bootstrap.sh does) for larger models";
  // Every region's kernel compiles before anything runs.
  Result<Regions> regions = prepare_regions(request, program, run.exec, run.report);
  if (!regions) return regions.error();
  run.regions = std::move(regions.value());
  try {
    run.inputs = make_inputs(program.inputs, options.seed, cuda && have_cuda ? "cuda" : "cpu");
  } catch (const c10::Error &e) {
    return Error{std::string("creating the random inputs: libtorch: ") + e.what_without_backtrace(),
                 request.path, 0, 0};
  } catch (const std::bad_alloc &) {
    return Error{"creating the random inputs: out of memory (are the shapes what you meant?)",
                 request.path, 0, 0};
  }
  return run;
}

// The reference: the eager run, on its own copy of the inputs.
struct Reference {
  std::vector<RtValue> inputs; // traced for grad: those that require grad are autograd leaves
  EagerRun eager;
  RtValue expected; // the eager result, detached
};

Result<Reference> run_reference(const TraceRequest &request, const TracedProgram &program,
                                const std::vector<RtValue> &inputs, uint64_t seed) {
  Reference reference;
  reference.inputs = cloned(inputs);
  if (program.gradients)
    for (std::size_t i = 0; i < program.inputs.size(); ++i)
      if (program.inputs[i].requires_grad) reference.inputs[i].tensor.requires_grad_(true);
  Result<EagerRun> eager = run_eager(request, reference.inputs, program.state, seed);
  if (!eager)
    return Error{"eager run: " + eager.error().message, eager.error().path, eager.error().line,
                 eager.error().column};
  reference.eager = std::move(eager.value());
  reference.expected = detached(reference.eager.result);
  return reference;
}

// The variants of the traces compared with the reference: as traced, and printed then parsed
// back (what the validator and Thunder read). Each runs on its own copy of the inputs.
struct Variants {
  std::string printed;
  TraceFile reparsed;
  std::vector<RtValue> traced_inputs; // the traced variant's, as --save-io writes them
  ForwardRun traced, again;
};

Result<Variants> run_variants(const TraceRequest &request, const TracedProgram &program,
                              const Execution &run, const Reference &reference, RunReport &report,
                              Phases &phases) {
  struct Variant {
    const char *phase;
    Comparison RunReport::*comparison;
    ForwardRun Variants::*output;
  };
  static constexpr Variant variants[] = {
      {"the trace", &RunReport::from_model, &Variants::traced},
      {"the printed trace", &RunReport::from_printed, &Variants::again},
  };
  Variants out;
  for (const Variant &variant : variants) {
    const TraceFile *file = &program.file;
    std::vector<RtValue> inputs = as_given(cloned(run.inputs), program);
    if (variant.output == &Variants::traced) {
      out.traced_inputs = inputs;
    } else {
      out.printed = print_trace_file(program.file);
      Result<TraceFile> reparsed = parse_trace(out.printed);
      if (!reparsed)
        return Error{"the printed trace does not parse back: " + reparsed.error().message +
                         " at line " + std::to_string(reparsed.error().line),
                     request.path, 0, 0};
      out.reparsed = std::move(reparsed.value());
      file = &out.reparsed;
    }
    phases.start(variant.phase);
    Result<ForwardRun> ran = run_forward(*file, program, std::move(inputs), run.exec,
                                         cloned_state(reference.eager.module),
                                         std::string("running ") + variant.phase, request.path);
    if (!ran) return ran.error();
    report.*variant.comparison = compare(reference.expected, ran->output);
    out.*variant.output = std::move(ran.value());
  }
  phases.end();
  return out;
}

// Traced for grad: the backwards of both variants against autograd (compare_gradients), with
// libtorch's and autograd's exceptions as errors.
Result<GradientRun> run_gradients(const TraceRequest &request, const TracedProgram &program,
                                  const Execution &run, const Reference &reference,
                                  const Variants &variants, uint64_t seed, RunReport &report,
                                  Phases &phases) {
  try {
    return compare_gradients(program, variants.reparsed, reference.eager, reference.inputs,
                             variants.traced, variants.again, run.exec, seed, request.path, report,
                             phases);
  } catch (const c10::Error &e) {
    return Error{std::string("the gradients: libtorch: ") + e.what_without_backtrace(),
                 request.path, 0, 0};
  } catch (const std::runtime_error &e) {
    // autograd's own errors (a derivative PyTorch does not implement) are not c10::Errors.
    return Error{std::string("the gradients: libtorch autograd: ") + e.what(), request.path, 0, 0};
  }
}

} // namespace

Result<RunReport> run_and_compare(const TraceRequest &request, const TracedProgram &program,
                                  const RunOptions &options) {
  if (std::optional<Error> too_large =
          run_memory_error(program, options.max_memory, "RunOptions::max_memory"))
    return *too_large;
  Result<Execution> prepared = prepare_execution(request, program, options);
  if (!prepared) return prepared.error();
  Execution &run = prepared.value();
  RunReport &report = run.report;
  Phases phases(request.progress, run.exec, report);
  phases.start("eager");
  Result<Reference> reference = run_reference(request, program, run.inputs, options.seed);
  if (!reference) return reference.error();
  Result<Variants> variants = run_variants(request, program, run, *reference, report, phases);
  if (!variants) return variants.error();
  GradientRun gradient_run;
  if (program.gradients) {
    Result<GradientRun> ran =
        run_gradients(request, program, run, *reference, *variants, options.seed, report, phases);
    if (!ran) return ran.error();
    gradient_run = std::move(ran.value());
  }
  phases.end(); // before the report is returned: its timings are complete
  report.fusion += regions_ran(run.regions, program, report.device);
  if (!options.save_io.empty())
    if (std::optional<Error> failed =
            save_run_io(options, request, program, run.inputs, reference->eager, variants->traced,
                        variants->traced_inputs, variants->again, gradient_run, variants->printed))
      return *failed;
  return report;
}

} // namespace tracelint::tracer
