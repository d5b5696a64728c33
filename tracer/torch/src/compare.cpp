// Comparing the traces with the eager run: seeded inputs, both runs, and the comparison;
// optionally the run written out for an independent check.
#include "runtime.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"

#include <c10/util/Exception.h>
#include <nlohmann/json.hpp>

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
      double rtol = low ? 1e-2 : x.scalar_type() == at::kDouble ? 1e-7 : 1e-4;
      double atol = low ? 1e-2 : x.scalar_type() == at::kDouble ? 1e-9 : 1e-5;
      // Slice by slice: the whole tensors in double and allclose's temporaries held about
      // eight times the result, most of a run's memory.
      at::Tensor flat_x = x.reshape({-1}), flat_y = y.reshape({-1});
      bool close = true;
      for (int64_t start = 0; start < flat_x.numel(); start += kCompareSlice) {
        int64_t length = std::min(kCompareSlice, flat_x.numel() - start);
        at::Tensor sx = flat_x.narrow(0, start, length), sy = flat_y.narrow(0, start, length);
        c.max_abs_diff = std::max(
            c.max_abs_diff, (sx.to(at::kDouble) - sy.to(at::kDouble)).abs().max().item<double>());
        close = close && at::allclose(sx, sy, rtol, atol, /*equal_nan=*/true);
      }
      if (!close) return fail("values differ (max abs diff " + python_float(c.max_abs_diff) + ")");
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

// ---- the run written out: manifest.json and one raw little-endian file per tensor

class IoWriter {
public:
  explicit IoWriter(std::filesystem::path dir) : dir_(std::move(dir)) {}

  nlohmann::json value(const RtValue &v) {
    nlohmann::json j;
    switch (v.kind) {
    case RtValue::Kind::Tensor: {
      at::Tensor t = v.tensor.detach().cpu().contiguous();
      std::string file = "tensor" + std::to_string(count_++) + ".bin";
      std::ofstream out(dir_ / file, std::ios::binary);
      out.write(static_cast<const char *>(t.data_ptr()), static_cast<std::streamsize>(t.nbytes()));
      if (!out) throw ExecError("cannot write " + (dir_ / file).string());
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

void save_io(const std::string &dir, const TraceRequest &request, const TracedProgram &program,
             const std::vector<RtValue> &inputs, const EagerRun &eager, const RtValue &traced,
             const std::vector<RtValue> &inputs_after, const RtValue &printed) {
  std::filesystem::create_directories(dir);
  IoWriter w(dir);
  nlohmann::json m;
  m["source"] = std::filesystem::absolute(request.path).string();
  m["function"] = request.function;
  m["module_class"] = request.module_class;
  m["method"] = request.method;
  nlohmann::json init = nlohmann::json::array();
  for (const ArgSpec &a : request.init)
    init.push_back({{"name", a.name}, {"expr", a.text}});
  m["init"] = init;
  nlohmann::json args = nlohmann::json::array();
  for (std::size_t i = 0; i < program.inputs.size(); ++i) {
    const InputSpec &spec = program.inputs[i];
    nlohmann::json a = {{"name", spec.name}};
    if (spec.kind == InputSpec::Kind::Tensor) {
      a["value"] = w.value(inputs[i]);
      a["after"] = w.value(inputs_after[i]);
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
  std::ofstream out(std::filesystem::path(dir) / "manifest.json");
  out << m.dump(2) << "\n";
  if (!out) throw ExecError("cannot write " + dir + "/manifest.json");
}

} // namespace

Comparison compare(const RtValue &expected, const RtValue &actual) {
  Comparison c;
  compare_into(expected, actual, "", c);
  return c;
}

std::vector<RtValue> make_inputs(const std::vector<InputSpec> &specs, uint64_t seed,
                                 const std::string &device) {
  at::manual_seed(seed);
  std::vector<RtValue> out;
  for (const InputSpec &spec : specs) {
    if (spec.kind == InputSpec::Kind::Literal) {
      out.push_back(literal(spec.literal));
      continue;
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
    out.push_back(RtValue::of_tensor(t));
  }
  return out;
}

Result<RunReport> run_and_compare(const TraceRequest &request, const TracedProgram &program,
                                  const RunOptions &options) {
  if (std::optional<Error> too_large =
          run_memory_error(program, options.max_memory, "RunOptions::max_memory"))
    return *too_large;
  RunReport report;
  bool wants_cuda = std::any_of(program.inputs.begin(), program.inputs.end(),
                                [](const InputSpec &s) {
                                  return s.kind == InputSpec::Kind::Tensor && s.device != "cpu";
                                }) ||
                    std::any_of(program.state.begin(), program.state.end(),
                                [](const StateTensor &s) { return s.device != "cpu"; });
  bool have_cuda = at::hasCUDA() && at::getNumGPUs() > 0;
  ExecOptions exec;
  if (wants_cuda && !have_cuda) {
    exec.cuda_as_cpu = true;
    report.notice =
        "note: no CUDA in this libtorch or no GPU: running on cpu; the traces keep their "
        "cuda annotations";
  }
  report.device = wants_cuda && have_cuda ? "cuda:0" : "cpu";
  std::string device = wants_cuda && have_cuda ? "cuda" : "cpu";

  std::vector<RtValue> inputs;
  try {
    inputs = make_inputs(program.inputs, options.seed, device);
  } catch (const c10::Error &e) {
    return Error{std::string("creating the random inputs: libtorch: ") + e.what_without_backtrace(),
                 request.path, 0, 0};
  } catch (const std::bad_alloc &) {
    return Error{"creating the random inputs: out of memory (are the shapes what you meant?)",
                 request.path, 0, 0};
  }
  Result<EagerRun> eager = run_eager(request, cloned(inputs), program.state, options.seed);
  if (!eager)
    return Error{"eager run: " + eager.error().message, eager.error().path, eager.error().line,
                 eager.error().column};
  std::vector<RtValue> traced_inputs = cloned(inputs);
  Result<RtValue> traced = execute_program(program.file, traced_inputs, exec, eager->module);
  if (!traced) return Error{"running the trace: " + traced.error().message, request.path, 0, 0};
  report.from_model = compare(eager->result, traced.value());

  std::string printed = print_trace_file(program.file);
  Result<TraceFile> reparsed = parse_trace(printed);
  if (!reparsed)
    return Error{"the printed trace does not parse back: " + reparsed.error().message +
                     " at line " + std::to_string(reparsed.error().line),
                 request.path, 0, 0};
  Result<RtValue> again = execute_program(reparsed.value(), cloned(inputs), exec, eager->module);
  if (!again)
    return Error{"running the printed trace: " + again.error().message, request.path, 0, 0};
  report.from_printed = compare(eager->result, again.value());
  if (!options.save_io.empty()) {
    try {
      save_io(options.save_io, request, program, inputs, eager.value(), traced.value(),
              traced_inputs, again.value());
    } catch (const std::exception &e) {
      return Error{std::string("--save-io: ") + e.what(), options.save_io, 0, 0};
    }
  }
  return report;
}

} // namespace tracelint::tracer
