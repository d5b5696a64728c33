// Executing traces with libtorch: trace(f)(x) == f(x) for every model function, before and
// after print -> parse; the comparison catches a wrong trace; prologue checks and libtorch
// errors become messages.
#include "support.hpp"
#include "tracer/cases.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/execute.hpp"

#include <doctest/doctest.h>

#include <filesystem>

// libtorch's headers bring glog's CHECK(cond), which aborts instead of reporting and is not
// counted; whichever header came last would win, so the tests say which CHECK they mean.
#undef CHECK
#define CHECK DOCTEST_CHECK

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

TracedProgram traced(const TraceRequest &r) {
  Result<TracedProgram> p = trace(r);
  REQUIRE_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
  return p.value();
}

TraceRequest request_for(const std::string &function, CacheMode cache = CacheMode::SymbolicValues,
                         Level level = Level::Ltorch) {
  for (const test::TracerCase &c : test::model_cases())
    if (c.function == function) return test::model_request(c, cache, level, test::models_source());
  FAIL("no case " << function);
  return {};
}

// Runs `def computation(params):` with `body` (its lines are 4 onward, after the prims import)
// on args; the trace must parse.
Result<RtValue> run_computation(const std::string &params, const std::string &body,
                                std::vector<RtValue> args) {
  Result<TraceFile> file = parse_trace("import thunder.core.prims as prims\n\ndef computation(" +
                                       params + "):\n" + body);
  REQUIRE(file.ok());
  return execute_trace(file->traces[0], std::move(args), {});
}

} // namespace

TEST_CASE("run: every model function matches eager, as traced and after print -> parse") {
  test::for_each_model_request([](const TraceRequest &r) {
    TracedProgram p = traced(r);
    for (uint64_t seed : {0u, 7u}) {
      Result<RunReport> report = run_and_compare(r, p, RunOptions{seed, 0, ""});
      REQUIRE_MESSAGE(report.ok(), (report.ok() ? std::string() : report.error().message));
      CHECK_MESSAGE(report->ok(), report->summary());
      CHECK(report->device == "cpu");
    }
  });
}

TEST_CASE("run: a wrong trace is caught by the comparison") {
  TraceRequest r = request_for("rms_norm", CacheMode::SymbolicValues, Level::Prims);
  TracedProgram p = traced(r);
  Trace &computation = p.file.traces[1];
  // weight * x becomes weight + x.
  bool changed = false;
  for (auto s = computation.body.rbegin(); s != computation.body.rend(); ++s)
    if (!changed && s->kind == Statement::Kind::BoundSymbol && s->value.kind == ValueKind::Call &&
        s->value.callee().qualified_name() == "prims.mul") {
      s->value.items[0] = Value::dotted("prims.add");
      changed = true;
    }
  REQUIRE(changed);
  Result<RunReport> report = run_and_compare(r, p, {});
  REQUIRE(report.ok());
  CHECK_FALSE(report->from_model.equal);
  CHECK_FALSE(report->from_printed.equal);
  CHECK(report->from_model.mismatch.find("values differ") != std::string::npos);
  CHECK(report->summary().find("DIFFERS from eager") != std::string::npos);
}

TEST_CASE("run: an annotation the value does not have fails the run at its line") {
  auto run = [](const std::string &body, ExecOptions options = {}) {
    Result<TraceFile> file =
        parse_trace("import thunder.core.prims as prims\n\ndef computation(a, i0):\n" + body);
    REQUIRE(file.ok());
    return execute_trace(file->traces[0],
                         {RtValue::of_tensor(at::ones({2, 3})), RtValue::of_int(3)}, options);
  };
  auto fails = [](const Result<RtValue> &r, const std::string &part) {
    REQUIRE_FALSE(r.ok());
    CHECK_MESSAGE(r.error().message.find(part) != std::string::npos, r.error().message);
  };
  const std::string ret = "  return t0\n";
  CHECK(run("  t0 = prims.neg(a)  # t0: \"cpu f32[2, i0]\"\n" + ret).ok());
  fails(run("  t0 = prims.neg(a)  # t0: \"cpu f32[2, 4]\"\n" + ret),
        "computation line 4 (`t0 = prims.neg(a)`): `t0` is annotated \"cpu f32[2, 4]\", but its "
        "value is cpu float32[2, 3]");
  fails(run("  t0 = prims.neg(a)  # t0: \"cpu bf16[2, 3]\"\n" + ret),
        "but its value is cpu float32");
  fails(run("  t0 = prims.neg(a)  # t0: \"cpu f32[i0, 3]\"\n" + ret),
        "annotated \"cpu f32[i0, 3]\"");
  // A parameter's `# a: ...` line, and numbers: their kind always, their value when the run's
  // inputs are the traced ones.
  fails(run("  # a: \"cpu f32[3, 3]\"\n  t0 = prims.neg(a)\n" + ret), "`a` is annotated");
  fails(run("  # i0: \"float 3.0\"\n  t0 = prims.neg(a)\n" + ret), "but its value is int 3");
  CHECK(run("  # i0: \"int 5\"\n  t0 = prims.neg(a)\n" + ret).ok());
  ExecOptions as_traced;
  as_traced.check_number_values = true;
  fails(run("  # i0: \"int 5\"\n  t0 = prims.neg(a)\n" + ret, as_traced), "but its value is int 3");
  CHECK(run("  # i0: \"int 3\"\n  t0 = prims.neg(a)\n" + ret, as_traced).ok());
}

TEST_CASE("run: a wrong annotation in a printed trace fails tracelint run's comparison") {
  // What the tracer prints is parsed and run again: an annotation edited there must fail it.
  TraceRequest r = request_for("swiglu_mlp");
  TracedProgram p = traced(r);
  std::string printed = print_trace_file(p.file);
  std::size_t at = printed.find("\"cpu f32[", printed.find("def computation"));
  REQUIRE(at != std::string::npos);
  printed.replace(at, 9, "\"cpu f16[");
  Result<TraceFile> edited = parse_trace(printed);
  REQUIRE(edited.ok());
  p.file = edited.value();
  Result<RunReport> report = run_and_compare(r, p, RunOptions{0, 0, ""});
  REQUIRE_FALSE(report.ok());
  CHECK_MESSAGE(report.error().message.find("is annotated \"cpu f16[") != std::string::npos,
                report.error().message);
}

TEST_CASE("run: the prologue rejects inputs the trace was not specialised for") {
  TraceRequest r = request_for("reshape_to", CacheMode::ConstantValues);
  TracedProgram p = traced(r);
  std::vector<RtValue> inputs = make_inputs(p.inputs, 0, "cpu");
  CHECK(execute_program(p.file, inputs, {}).ok());
  inputs[1].items[0] = RtValue::of_int(3);
  inputs[1].items[1] = RtValue::of_int(4);
  Result<RtValue> rejected = execute_program(p.file, inputs, {});
  REQUIRE_FALSE(rejected.ok());
  CHECK(rejected.error().message.find("check failed") != std::string::npos);
  CHECK(rejected.error().message.find("prologue line") != std::string::npos);

  // Symbolic values accept another shape of the same rank, and compute on it.
  TraceRequest sym = request_for("slice_half", CacheMode::SymbolicValues);
  TracedProgram ps = traced(sym);
  std::vector<RtValue> other = {RtValue::of_tensor(at::randn({3, 10}))};
  Result<RtValue> out = execute_program(ps.file, other, ExecOptions{true});
  REQUIRE_MESSAGE(out.ok(), (out.ok() ? std::string() : out.error().message));
  CHECK(out->tensor.sizes() == at::IntArrayRef({3, 5}));
  // But not another rank.
  std::vector<RtValue> rank3 = {RtValue::of_tensor(at::randn({3, 10, 2}))};
  CHECK_FALSE(execute_program(ps.file, rank3, ExecOptions{true}).ok());
}

TEST_CASE("run: libtorch errors become messages naming the statement") {
  Result<RtValue> r = run_computation(
      "a, b", "  t0 = prims.matmul(a, b)  # t0: \"cpu f32[2, 2]\"\n  return t0\n",
      {RtValue::of_tensor(at::randn({2, 3})), RtValue::of_tensor(at::randn({2, 3}))});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message.find("computation line 4") != std::string::npos);
  CHECK(r.error().message.find("libtorch: ") != std::string::npos);
  CHECK(r.error().message.find("cannot be multiplied") != std::string::npos);

  Result<RtValue> u = run_computation("a", "  t0 = ltorch.frobnicate(a)\n  return t0\n",
                                      {RtValue::of_tensor(at::randn({2}))});
  REQUIRE_FALSE(u.ok());
  CHECK(u.error().message.find("ltorch.frobnicate cannot be executed") != std::string::npos);

  // A prim the executor does not know: the run says which, at its statement; the prims before
  // it and a known prim with the wrong arity still get their own messages.
  Result<RtValue> up = run_computation("a",
                                       "  t0 = prims.neg(a)  # t0: \"cpu f32[2]\"\n"
                                       "  t1 = prims.frobnicate(t0)  # t1: \"cpu f32[2]\"\n"
                                       "  return t1\n",
                                       {RtValue::of_tensor(at::randn({2}))});
  REQUIRE_FALSE(up.ok());
  CHECK(up.error().message.find("computation line 5") != std::string::npos);
  CHECK(up.error().message.find(
            "prims.frobnicate cannot be executed: it is no symbol of the op registry") !=
        std::string::npos);
  Result<RtValue> ar =
      run_computation("a", "  t0 = prims.reshape(a)  # t0: \"cpu f32[2]\"\n  return t0\n",
                      {RtValue::of_tensor(at::randn({2}))});
  REQUIRE_FALSE(ar.ok());
  CHECK(ar.error().message.find("prims.reshape takes 2 arguments, got 1") != std::string::npos);

  // A broadcast dim past the result's rank: the statement and what is wrong.
  Result<RtValue> b = run_computation(
      "a", "  t0 = prims.broadcast_in_dim(a, [2, 3], [2])  # t0: \"cpu f32[2, 3]\"\n  return t0\n",
      {RtValue::of_tensor(at::randn({3}))});
  REQUIRE_FALSE(b.ok());
  CHECK(b.error().message.find("computation line 4") != std::string::npos);
  CHECK(b.error().message.find("broadcast_in_dim: dim 2 is out of range for a shape of rank 2") !=
        std::string::npos);

  // Inputs too large to allocate: an error, not an abort.
  TraceRequest huge = request_for("slice_half");
  huge.args = {{"a", "f32[100000000, 100000000]"}};
  Result<RunReport> report = run_and_compare(huge, traced(huge), {});
  REQUIRE_FALSE(report.ok());
  CHECK(report.error().message.find("creating the random inputs") != std::string::npos);
}

TEST_CASE("run: del lines free their names, a later read of one is an error at its line") {
  const std::string body = "  t0 = prims.neg(a)  # t0: \"cpu f32[2]\"\n"
                           "  t1 = prims.neg(t0)  # t1: \"cpu f32[2]\"\n"
                           "  del t0, a\n";
  at::Tensor a = at::randn({2});
  Result<RtValue> r = run_computation("a", body + "  return t1\n", {RtValue::of_tensor(a)});
  REQUIRE(r.ok());
  CHECK(at::equal(r->tensor, a));

  for (const char *name : {"t0", "a"}) {
    Result<RtValue> b =
        run_computation("a", body + "  return " + name + "\n", {RtValue::of_tensor(a)});
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().message.find("computation line 7") != std::string::npos);
    CHECK(b.error().message.find(std::string("name `") + name + "` is not defined") !=
          std::string::npos);
  }
}

TEST_CASE("run: cuda annotations on a machine without CUDA run on cpu with a notice") {
  TraceRequest r = request_for("slice_half");
  TracedProgram p = traced(r);
  Result<RunReport> report = run_and_compare(r, p, {});
  REQUIRE(report.ok());
  if (at::hasCUDA() && at::getNumGPUs() > 0) {
    CHECK(report->device == "cuda:0");
    CHECK(report->notice.empty());
  } else {
    CHECK(report->device == "cpu");
    CHECK(report->notice.find("the traces keep their cuda annotations") != std::string::npos);
    CHECK(print_trace_file(p.file).find("cuda:0 f32[i0, i1]") != std::string::npos);
  }
  CHECK(report->ok());
}

TEST_CASE("cli: tracelint run and trace --run compare with eager") {
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/examples/tracer/models.py";
  auto run = test::tracelint("run '" + path + "' -f rotate_half -a 'x=f32[2, 4, 8]' --level prims");
  CHECK(run.exit_code == 0);
  CHECK(run.out.find("computation trace (printed, parsed back): matches eager") !=
        std::string::npos);
  // The report says what eager is: not CPython's run of the source, and where that one is.
  CHECK(run.out.find("reference: eager is tracelint's interpreter running the source on "
                     "libtorch; CPython's PyTorch: --save-io DIR, then "
                     "tracer/oracle/cpython_oracle.py DIR\n") != std::string::npos);
  auto both = test::tracelint("trace '" + path + "' -f slice_half -a 'a=f32[2, 6]@cuda' --run");
  CHECK(both.exit_code == 0);
  CHECK(both.out.find("def computation(") != std::string::npos);
  CHECK(both.err.find("matches eager") != std::string::npos);
}

TEST_CASE("run: the prologue checks each tensor input's dtype, device and requires_grad") {
  TracedProgram p = traced(request_for("slice_half")); // a=f32[2, 6]@cuda
  ExecOptions cpu_for_cuda;
  cpu_for_cuda.cuda_as_cpu = true;
  auto run = [&](at::Tensor a, const ExecOptions &options) {
    return execute_program(p.file, {RtValue::of_tensor(std::move(a))}, options);
  };
  auto rejected = [](const Result<RtValue> &r, const std::string &part) {
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("prologue line") != std::string::npos);
    CHECK_MESSAGE(r.error().message.find(part) != std::string::npos, r.error().message);
  };
  CHECK(run(at::randn({2, 6}), cpu_for_cuda).ok());
  rejected(run(at::randn({2, 6}, at::kDouble), cpu_for_cuda), "expected float32");
  rejected(run(at::randn({2, 6}), ExecOptions{}), "on cpu, expected float32 of rank 2 on cuda:0");
  rejected(run(at::randn({2, 6}).requires_grad_(), cpu_for_cuda),
           "got a tensor with requires_grad=True, expected requires_grad=False");
  // Traced for training, the input must require grad.
  TraceRequest grad =
      test::model_request({"slice_half", {{"a", "f32[2, 6]:grad"}}}, CacheMode::SymbolicValues,
                          Level::Ltorch, test::models_source());
  grad.grad = true;
  TracedProgram g = traced(grad);
  TraceFile forward;
  forward.traces = {g.file.traces.at(0), g.file.traces.at(1)};
  rejected(execute_program(forward, {RtValue::of_tensor(at::randn({2, 6}))}, {}),
           "got a tensor with requires_grad=False, expected requires_grad=True");
  CHECK(
      execute_program(forward, {RtValue::of_tensor(at::randn({2, 6}).requires_grad_())}, {}).ok());
}

TEST_CASE("cli: --seed picks the run's random inputs: the same seed the same, another another") {
  test::TempDir dir;
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/examples/tracer/models.py";
  auto inputs_with = [&](const std::string &seed, const std::string &name) {
    std::string io = dir.path + "/" + name;
    auto r = test::tracelint("run '" + path + "' -f rotate_half -a 'x=f32[2, 4, 8]' --seed " +
                             seed + " --save-io '" + io + "'");
    REQUIRE(r.exit_code == 0);
    return test::read_file(io + "/tensor0.bin");
  };
  std::string a = inputs_with("3", "a"), b = inputs_with("3", "b"), c = inputs_with("4", "c");
  CHECK(a.size() == 2 * 4 * 8 * sizeof(float));
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("cli: --save-io never writes through a link planted in its folder, and refuses a "
          "folder others could plant one in") {
  test::TempDir dir;
  const std::string f = dir.path + "/f.py", io = dir.path + "/io", victim = dir.path + "/victim";
  test::write_file(f, "def f(a):\n    return a + 1\n");
  test::write_file(victim, "precious\n");
  std::filesystem::create_directory(io);
  std::filesystem::create_symlink(victim, io + "/tensor0.bin");
  std::filesystem::create_symlink(dir.path + "/new", io + "/manifest.json");
  auto save = [&](const std::string &folder, const std::string &more = "--run") {
    return test::tracelint("trace '" + f + "' -f f -a 'a=f32[3]' " + more + " --save-io '" +
                           folder + "'");
  };
  auto r = save(io);
  CHECK(r.exit_code == 0);
  CHECK(test::read_file(victim) == "precious\n");
  CHECK_FALSE(std::filesystem::exists(dir.path + "/new"));
  CHECK_FALSE(std::filesystem::is_symlink(io + "/manifest.json"));
  CHECK(test::read_file(io + "/manifest.json").find("\"trace\": \"trace.py\"") !=
        std::string::npos);
  // Refused, exit 2, with what is refused: a folder others can write, a link to a folder, an
  // empty path, and a save without a run.
  std::filesystem::permissions(io, std::filesystem::perms::others_write,
                               std::filesystem::perm_options::add);
  r = save(io);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is writable by others") != std::string::npos);
  std::filesystem::create_directory_symlink(io, dir.path + "/link");
  r = save(dir.path + "/link");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("is a symbolic link") != std::string::npos);
  r = save("");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("an empty path names no folder") != std::string::npos);
  r = save(dir.path + "/other", "");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--save-io saves a run: add --run") != std::string::npos);
  // A new folder is made private, and nothing is left beside it.
  r = save(dir.path + "/fresh");
  CHECK(r.exit_code == 0);
  CHECK((std::filesystem::status(dir.path + "/fresh").permissions() &
         std::filesystem::perms::all) == std::filesystem::perms::owner_all);
  for (const auto &entry : std::filesystem::directory_iterator(dir.path))
    CHECK(entry.path().filename().string().find(".tracelint-") == std::string::npos);
}

TEST_CASE("cli: INT64_MIN in a traced function runs, with and without fusion regions") {
  test::TempDir dir;
  const std::string f = dir.path + "/f.py";
  test::write_file(f, "def f(a):\n    return a + (-9223372036854775807 - 1)\n");
  for (const char *more : {"", " --executors cuda_fusion,torch"}) {
    CAPTURE(more);
    auto r = test::tracelint("trace '" + f + "' -f f -a 'a=i64[2]' --run" + std::string(more));
    CHECK(r.exit_code == 0);
    CHECK(r.err.find("computation trace (printed, parsed back): matches eager") !=
          std::string::npos);
  }
}

TEST_CASE("run: int ** and + give Python's result or error, traced, executed and eager alike") {
  // Traced on small ints (symbolic values: the trace computes prims.pow(a, b) and
  // prims.add(a, b) itself), then run on others by the executor and by the eager interpreter:
  // 3 ** 39 is exact (a double rounds it), 2 ** 62 + 2 ** 62 is past int64 (wrapping it would be
  // a wrong answer) and fails alike in both, as it fails while tracing.
  auto request = [](const std::string &body) {
    TraceRequest r;
    r.path = "numbers.py";
    r.source = "def f(a, b):\n    return " + body + "\n";
    r.function = "f";
    r.args = {{"a", "3"}, {"b", "2"}};
    return r;
  };
  auto traced_with = [&](const std::string &body, int64_t a, int64_t b) {
    TraceRequest r = request(body);
    r.args = {{"a", std::to_string(a)}, {"b", std::to_string(b)}};
    return trace(r);
  };
  auto outcome = [](const auto &result, auto value_of) -> std::string {
    if (!result.ok()) return "error: " + result.error().message;
    return value_of(result.value());
  };
  auto number = [](const RtValue &v) {
    return v.kind == RtValue::Kind::Int ? "int " + std::to_string(v.integer) : "not an int";
  };
  struct Case {
    std::string body;
    int64_t a, b;
    std::string expected; // the value, or a part of each error
  };
  for (const Case &c :
       {Case{"a ** b", 3, 39, "int 4052555153018976267"},
        Case{"a + b", int64_t{1} << 62, int64_t{1} << 62, "integer overflow in `+`"}}) {
    CAPTURE(c.body);
    TraceRequest r = request(c.body);
    TracedProgram p = traced(r);
    REQUIRE(print_trace_file(p.file).find(c.body == "a ** b" ? "prims.pow" : "prims.add") !=
            std::string::npos);
    std::vector<RtValue> inputs = {RtValue::of_int(c.a), RtValue::of_int(c.b)};
    std::string executed =
        outcome(execute_program(p.file, inputs, {}), [&](const RtValue &v) { return number(v); });
    std::string eager =
        outcome(run_eager(r, inputs, {}, 0), [&](const EagerRun &e) { return number(e.result); });
    Result<TracedProgram> at_trace_time = traced_with(c.body, c.a, c.b);
    std::string traced_value = outcome(at_trace_time, [&](const TracedProgram &t) {
      Result<RtValue> out = execute_program(t.file, inputs, {});
      return out.ok() ? number(out.value()) : "error: " + out.error().message;
    });
    for (const std::string *seen : {&executed, &eager, &traced_value}) {
      CHECK_MESSAGE(seen->find(c.expected) != std::string::npos, *seen);
      CHECK((seen->rfind("error: ", 0) == 0) == (c.expected.rfind("int ", 0) != 0));
    }
  }
}

namespace {

// A module whose __init__ runs `init_line` (then builds a Linear), traced with or without a
// backend that computes values.
TraceRequest constructs(const std::string &init_line, bool with_values,
                        const std::string &forward = "return self.proj(x)") {
  TraceRequest r;
  r.path = "model.py";
  r.source = "import torch\nimport torch.nn as nn\n\nclass M(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n        " +
             init_line +
             "\n        self.proj = nn.Linear(4, 4)\n\n    def forward(self, x):\n"
             "        " +
             forward + "\n";
  r.module_class = "M";
  r.args = {{"x", "f32[2, 4]"}};
  if (with_values) r.value_backend = libtorch_values(0);
  return r;
}

} // namespace

TEST_CASE("construction: reading a tensor's values constructs on libtorch, seeded as the eager "
          "run, and forward still refuses it") {
  // The values reach the trace as Python numbers: 7 from int(), 3 from tolist(), 0.5 from
  // float(), a branch on any() taken.
  TracedProgram p = traced(constructs(
      "self.k = int(torch.tensor([3, 4]).sum()) * torch.tensor([[1, 2], [3, 4]]).tolist()[1][0] "
      "* float(torch.ones(1) * 0.5) if torch.arange(4).gt(2).sum() > 0 else 0.0",
      true, "return self.proj(x) * self.k"));
  CHECK(print_trace_file(p.file).find(" = ltorch.mul(t3, 10.5)") != std::string::npos);

  // Without a backend of values: an error at the read, saying what is missing.
  Result<TracedProgram> shapes_only = trace(constructs("self.k = torch.ones(2)[0].item()", false));
  REQUIRE_FALSE(shapes_only.ok());
  CHECK(shapes_only.error().line == 7);
  CHECK(shapes_only.error().column == 18);
  CHECK(shapes_only.error().message.find("`Tensor.item()` reads a tensor's values while the module "
                                         "is constructed: that needs libtorch") !=
        std::string::npos);

  // What PyTorch raises for more than one element, catchable, at its line.
  for (const auto &[line, message] : std::vector<std::pair<std::string, std::string>>{
           {"self.k = torch.ones(2).item()",
            "RuntimeError: a Tensor with 2 elements cannot be converted to Scalar"},
           {"self.k = 1 if torch.ones(2) else 0",
            "RuntimeError: Boolean value of Tensor with more than one value is ambiguous"},
           {"self.k = float(torch.ones(0))",
            "ValueError: only one element tensors can be converted to Python scalars"}}) {
    Result<TracedProgram> wrong = trace(constructs(line, true));
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().line == 7);
    CHECK_MESSAGE(wrong.error().message.find(message) != std::string::npos, wrong.error().message);
  }
  Result<TracedProgram> caught = trace(
      constructs("try:\n            self.k = torch.ones(2).item()\n        except RuntimeError:\n"
                 "            self.k = 2.0",
                 true, "return self.proj(x) * self.k"));
  REQUIRE_MESSAGE(caught.ok(), (caught.ok() ? "" : caught.error().message));
  CHECK(print_trace_file(caught->file).find(" = ltorch.mul(t3, 2.0)") != std::string::npos);

  // In forward a tensor's values stay data-dependent, with values at hand or not.
  Result<TracedProgram> in_forward =
      trace(constructs("self.k = torch.ones(1).item()", true, "return x * x.sum().item()"));
  REQUIRE_FALSE(in_forward.ok());
  CHECK(in_forward.error().line == 11);
  CHECK(in_forward.error().message.find("cannot be traced (data-dependent)") != std::string::npos);

  // Without a GPU, a cuda tensor made on the CPU keeps its cuda device in the traces.
  TraceRequest cuda =
      constructs("self.w = nn.Parameter(torch.ones(4, device='cuda') * torch.ones(1).item())", true,
                 "return x * self.w");
  cuda.args = {{"x", "f32[2, 4]@cuda"}};
  CHECK(print_trace_file(traced(cuda).file).find("t_w: \"cuda:0 f32[4]\"") != std::string::npos);
}
