// The tracer against an independent oracle: each function of tests/tracer/ops_cases.py (the
// vocabulary) and nanoGPT's GPT.forward is traced at both levels, validated (zero findings),
// run by libtorch as traced and after print -> parse, and compared with CPython and PyTorch
// running the original source on the same inputs and state (tracer/oracle/cpython_oracle.py).
// The printed traces are then run by Lightning Thunder itself (cpython_oracle.py --thunder, in
// the tools venv) and compared with eager PyTorch 2.x: a trace that only runs under tracelint's
// executor fails.
#include "support.hpp"
#include "tracer/cases.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/tracer/execute.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

// libtorch's headers bring glog's CHECK(cond); the tests mean doctest's.
#undef CHECK
#define CHECK DOCTEST_CHECK

using namespace tracelint;
using namespace tracelint::tracer;

namespace {

const std::string kPython = "/usr/bin/python3";

bool cpython_has_torch() {
  static const bool has = test::can_import_torch(kPython);
  return has;
}

// PyTorch 2.x in the tools venv (deps/tools.txt, scripts/bootstrap.sh): it has
// scaled_dot_product_attention and rms_norm, which the 1.13 oracle takes from its polyfill, and
// nanoGPT takes its flash-attention branch there, as the tracer does.
std::string tools_python() {
  return std::string(TRACELINT_SOURCE_DIR) + "/.venv-tools/bin/python";
}

bool tools_have_torch() {
  static const bool has = test::can_import_torch(tools_python());
  return has;
}

bool tools_have_thunder() {
  static const bool has =
      std::system(
          (test::shell_quote(tools_python()) + " -c 'import thunder' > /dev/null 2>&1").c_str()) ==
      0;
  return has;
}

const char *const kNoCPythonTorch =
    "/usr/bin/python3 has no torch: nothing compared with CPython (scripts/bootstrap.sh installs "
    "python3-torch)";

const char *const kNoTools =
    "no PyTorch 2.x in the tools venv (.venv-tools; scripts/bootstrap.sh makes it)";

std::string oracle_script() {
  return std::string(TRACELINT_SOURCE_DIR) + "/tracer/oracle/cpython_oracle.py";
}

struct Case {
  std::string function;
  std::vector<ArgSpec> args;
  bool polyfill = false; // uses functions PyTorch 1.13 lacks (the oracle's documented references)
  // Why only PyTorch 2.x runs the source (a parameter 1.13's modules lack); "" for every case
  // CPython's PyTorch 1.13 runs.
  std::string pytorch2;
  std::string module_class;
  std::vector<ArgSpec> init;
  std::string no_grad; // why the case is not run for training, "" when it is
  // A difference Thunder itself makes running the printed trace (its bug, said in `why`), and
  // what the oracle's verdict shows of it: the case must still differ so, or the note goes.
  std::string thunder_why, thunder_shows;
  // The runs it shows in: "ltorch", "prims" (the level, for inference), "grad ltorch", "grad
  // prims" (for training); empty for all.
  std::set<std::string> thunder_runs;

  Case(std::string f, std::vector<ArgSpec> a, bool needs_polyfill = false)
      : function(std::move(f)), args(std::move(a)), polyfill(needs_polyfill) {}
  static Case module(std::string cls, std::vector<ArgSpec> init, std::vector<ArgSpec> args) {
    Case c("", std::move(args));
    c.module_class = std::move(cls);
    c.init = std::move(init);
    return c;
  }
};

std::vector<ArgSpec> arg_specs(const nlohmann::json &pairs) {
  std::vector<ArgSpec> out;
  for (const nlohmann::json &p : pairs)
    out.push_back({p.at(0).get<std::string>(), p.at(1).get<std::string>()});
  return out;
}

// The vocabulary's cases: tests/tracer/oracle_cases.json, which
// scripts/check_oracle_coverage.py also reads (every registry symbol must be reached by one).
std::vector<Case> op_cases() {
  nlohmann::json cases = nlohmann::json::parse(
      test::read_file(std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/oracle_cases.json"));
  std::vector<Case> out;
  for (const nlohmann::json &j : cases) {
    Case c = j.contains("module")
                 ? Case::module(j.at("module"), arg_specs(j.at("init")), arg_specs(j.at("args")))
                 : Case(j.at("function"), arg_specs(j.at("args")));
    c.polyfill = j.value("polyfill", false);
    c.pytorch2 = j.value("pytorch2", "");
    c.no_grad = j.value("no_grad", "");
    if (j.contains("thunder_differs")) {
      c.thunder_why = j.at("thunder_differs").at("why");
      c.thunder_shows = j.at("thunder_differs").at("shows");
      for (const std::string &run :
           j.at("thunder_differs").value("runs", std::vector<std::string>{}))
        c.thunder_runs.insert(run);
    }
    out.push_back(std::move(c));
  }
  return out;
}

std::string case_name(const Case &c) {
  return c.module_class.empty() ? c.function : c.module_class;
}

// The seed of the runs, and of a construction on libtorch (TraceRequest::value_backend).
constexpr uint64_t kSeed = 3;

TraceRequest request_of(const Case &c, const std::string &path, const std::string &source,
                        Level level, CacheMode cache) {
  TraceRequest r;
  r.path = path;
  r.source = source;
  r.function = c.function;
  r.module_class = c.module_class;
  r.init = c.init;
  r.args = c.args;
  r.level = level;
  r.cache = cache;
  r.value_backend = libtorch_values(kSeed);
  return r;
}

// Traces, validates and runs the request, writing its run to dir; returns whether all held.
bool trace_validate_run(const TraceRequest &r, const std::string &dir) {
  Result<TracedProgram> p = trace(r);
  CHECK_MESSAGE(p.ok(), (p.ok() ? std::string() : p.error().message));
  if (!p.ok()) return false;
  std::string printed = print_trace_file(p->file);
  FileReport report = check_source("<traced>", printed, Options{});
  CHECK_MESSAGE(report.diagnostics.empty(), printed);
  Result<RunReport> run = run_and_compare(r, p.value(), RunOptions{kSeed, 0, dir});
  CHECK_MESSAGE(run.ok(), (run.ok() ? std::string() : run.error().message));
  if (!run.ok()) return false;
  CHECK_MESSAGE(run->ok(), run->summary());
  return report.diagnostics.empty() && run->ok();
}

// Runs the oracle on the directories; every one must match CPython.
// The oracle's exit status and its verdicts (stdout) on the run directories.
std::pair<int, std::string> run_oracle(const std::vector<std::string> &dirs, bool polyfill,
                                       const std::string &python = kPython) {
  std::string command = test::shell_quote(python) + " " + test::shell_quote(oracle_script()) +
                        (polyfill ? " --polyfill" : "");
  for (const std::string &d : dirs)
    command += " " + test::shell_quote(d);
  return test::run_capturing(command + " 2>/dev/null"); // stderr: what the model itself prints
}

void oracle(const std::vector<std::string> &dirs, bool polyfill,
            const std::string &python = kPython) {
  test::expect_cpython_matches(dirs, python, polyfill ? " --polyfill" : "");
}

// What the Thunder run of a directory must show instead of a match: a known Thunder bug.
using KnownThunderDifferences = std::map<std::string, std::string>;

// Lightning Thunder runs the printed trace of each directory (cpython_oracle.py --thunder): each
// must match eager PyTorch 2.x, but those in `known`, which must still differ as noted.
void thunder_oracle(const std::vector<std::string> &dirs,
                    const KnownThunderDifferences &known = {}) {
  if (dirs.empty()) return;
  if (const char *why = std::getenv("TRACELINT_NO_THUNDER")) {
    // Left to the other suite on purpose (make test-sanitize): not a skip.
    MESSAGE("the printed traces were not run by Thunder here: " << why);
    return;
  }
  if (!tools_have_thunder()) {
    test::skip_test("no Lightning Thunder in the tools venv (.venv-tools; scripts/bootstrap.sh "
                    "makes it): the printed traces were not run by Thunder");
    return;
  }
  std::string command =
      test::shell_quote(tools_python()) + " " + test::shell_quote(oracle_script()) + " --thunder";
  for (const std::string &d : dirs)
    command += " " + test::shell_quote(d);
  auto [status, out] = test::run_capturing(command + " 2>/dev/null");
  CAPTURE(out);
  CHECK(status == (known.empty() ? 0 : 1));
  std::istringstream lines(out);
  std::size_t verdicts = 0;
  for (std::string line; std::getline(lines, line); ++verdicts) {
    std::string dir = line.substr(0, line.find(": "));
    auto noted = known.find(dir);
    if (noted == known.end()) {
      CHECK_MESSAGE(line.find("matches CPython") != std::string::npos, line);
      CHECK_MESSAGE(line.find("ran under lightning-thunder") != std::string::npos, line);
    } else {
      std::string gone = "a known Thunder difference is gone, drop its note: " + line;
      CHECK_MESSAGE(line.find("DIFFERS") != std::string::npos, gone);
      CHECK_MESSAGE(line.find(noted->second) != std::string::npos, line);
    }
  }
  CHECK(verdicts == dirs.size());
}

// The case for training: every floating tensor input requires grad (:grad), and so do a
// module's parameters.
Case with_grad(Case c) {
  for (ArgSpec &a : c.args)
    if (a.text.starts_with("f") || a.text.starts_with("bf")) a.text += ":grad";
  return c;
}

// Every op case at both levels (and both cache modes at ltorch), traced (for training with
// `grad`), validated, run, and compared with CPython: those of oracle_cases.json whose index is
// `half` modulo 2, so that ctest runs the two halves side by side.
void all_op_cases(bool grad, std::size_t half) {
  test::TempDir dir;
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/ops_cases.py";
  std::string source = test::read_file(path);
  std::vector<std::string> plain, polyfilled, pytorch2;
  KnownThunderDifferences known;
  int n = 0;
  std::vector<Case> cases = op_cases();
  for (std::size_t index = half; index < cases.size(); index += 2) {
    const Case &given = cases[index];
    // For training, unless the case says why not (oracle_cases.json's no_grad).
    if (grad && !given.no_grad.empty()) continue;
    Case c = grad ? with_grad(given) : given;
    for (Level level : {Level::Ltorch, Level::Prims})
      for (CacheMode cache : {CacheMode::SymbolicValues, CacheMode::ConstantValues}) {
        if (level == Level::Prims && cache == CacheMode::ConstantValues) continue;
        std::string name = case_name(c), level_name = to_string(level),
                    cache_name = to_string(cache);
        CAPTURE(name);
        CAPTURE(level_name);
        CAPTURE(cache_name);
        TraceRequest r = request_of(c, path, source, level, cache);
        r.grad = grad;
        std::string out = dir.path + "/" + std::to_string(n++) + "-" + name;
        if (!trace_validate_run(r, out)) continue;
        (!c.pytorch2.empty() ? pytorch2 : c.polyfill ? polyfilled : plain).push_back(out);
        std::string run_kind = (grad ? "grad " : "") + level_name;
        if (!c.thunder_shows.empty() && (c.thunder_runs.empty() || c.thunder_runs.count(run_kind)))
          known.emplace(out, c.thunder_shows);
      }
  }
  // Tracing, validating and running need no Python; only the comparison with CPython does.
  if (!cpython_has_torch()) {
    test::skip_test(kNoCPythonTorch);
    return;
  }
  oracle(plain, false);
  oracle(polyfilled, true);
  // The polyfilled cases again, against PyTorch's own SDPA and rms_norm; the PyTorch 2 ones.
  if (!tools_have_torch()) {
    test::skip_test(std::string(kNoTools) + ": SDPA and rms_norm met only the polyfill, and " +
                    std::to_string(pytorch2.size()) + " runs of PyTorch 2 cases nothing");
    return;
  }
  oracle(polyfilled, false, tools_python());
  oracle(pytorch2, false, tools_python());
  std::vector<std::string> all = plain;
  all.insert(all.end(), polyfilled.begin(), polyfilled.end());
  all.insert(all.end(), pytorch2.begin(), pytorch2.end());
  thunder_oracle(all, known);
}

} // namespace

TEST_CASE("oracle: every op of the vocabulary, at both levels, matches CPython PyTorch (the "
          "even-numbered cases)") {
  all_op_cases(false, 0);
}

TEST_CASE("oracle: every op of the vocabulary, at both levels, matches CPython PyTorch (the "
          "odd-numbered cases)") {
  all_op_cases(false, 1);
}

TEST_CASE("oracle: the gradients of every op of the vocabulary, at both levels, match libtorch "
          "autograd and CPython PyTorch's (the even-numbered cases)") {
  all_op_cases(true, 0);
}

TEST_CASE("oracle: the gradients of every op of the vocabulary, at both levels, match libtorch "
          "autograd and CPython PyTorch's (the odd-numbered cases)") {
  all_op_cases(true, 1);
}

TEST_CASE("oracle: the README's model functions (examples/tracer/models.py), at both levels, "
          "forward and for training, match CPython PyTorch") {
  // tracelint run compares them with its own eager interpreter; here CPython runs the source,
  // and the printed traces run with PyTorch's semantics (tracer/oracle/trace_runner.py).
  test::TempDir dir;
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/examples/tracer/models.py";
  std::string source = test::read_file(path);
  std::vector<std::string> dirs;
  int n = 0;
  for (bool grad : {false, true})
    for (const test::TracerCase &model : test::model_cases())
      for (Level level : {Level::Ltorch, Level::Prims}) {
        std::string name = model.function, level_name = to_string(level);
        CAPTURE(name);
        CAPTURE(level_name);
        CAPTURE(grad);
        std::string out = dir.path + "/" + std::to_string(n++) + "-" + name;
        Case c(model.function, model.args);
        TraceRequest r =
            request_of(grad ? with_grad(c) : c, path, source, level, CacheMode::SymbolicValues);
        r.grad = grad;
        if (trace_validate_run(r, out)) dirs.push_back(out);
      }
  CHECK(dirs.size() == 4 * test::model_cases().size());
  if (!cpython_has_torch()) {
    test::skip_test(kNoCPythonTorch);
    return;
  }
  oracle(dirs, false);
  thunder_oracle(dirs);
}

TEST_CASE("oracle: an output changed after the run is a DIFFERS from CPython, exit 1") {
  // The oracle's negative case: the same run passes, then one value of the saved result of the
  // traced run is replaced, and the oracle must say so.
  test::TempDir dir;
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/ops_cases.py";
  Case c = op_cases().front();
  std::string out = dir.path + "/run";
  REQUIRE(trace_validate_run(
      request_of(c, path, test::read_file(path), Level::Ltorch, CacheMode::SymbolicValues), out));
  if (!cpython_has_torch()) {
    test::skip_test(kNoCPythonTorch);
    return;
  }
  auto [clean_status, clean_text] = run_oracle({out}, false);
  CHECK_MESSAGE(clean_status == 0, clean_text);
  std::smatch traced;
  std::string manifest = test::read_file(out + "/manifest.json");
  REQUIRE(std::regex_search(manifest, traced,
                            std::regex(R"re("traced":\s*\{[^}]*"tensor":\s*"([^"]+)")re")));
  std::string tensor = test::read_file(out + "/" + traced[1].str());
  REQUIRE(tensor.size() >= sizeof(float));
  const float wrong = 12345.0f;
  tensor.replace(0, sizeof wrong, reinterpret_cast<const char *>(&wrong), sizeof wrong);
  test::write_file(out + "/" + traced[1].str(), tensor);
  auto [status, text] = run_oracle({out}, false);
  CHECK(status == 1);
  CHECK_MESSAGE(text.find("DIFFERS from CPython") != std::string::npos, text);
  CHECK_MESSAGE(text.find("traced") != std::string::npos, text);
}

TEST_CASE("oracle: the printed trace runs with PyTorch's semantics: without its contiguous, "
          "PyTorch's view of the transposed tensor fails it, exit 1") {
  // What the tracer printed before contiguous() was recorded: our executor ran such a trace
  // (its view reshapes any layout), PyTorch does not.
  test::TempDir dir;
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/ops_cases.py";
  std::string out = dir.path + "/run";
  REQUIRE(trace_validate_run(request_of(Case("transpose_contiguous_view", {{"x", "f32[2, 3, 8]"}}),
                                        path, test::read_file(path), Level::Ltorch,
                                        CacheMode::SymbolicValues),
                             out));
  if (!cpython_has_torch()) {
    test::skip_test(kNoCPythonTorch);
    return;
  }
  auto [clean_status, clean_text] = run_oracle({out}, false);
  CHECK_MESSAGE(clean_status == 0, clean_text);
  std::string trace = test::read_file(out + "/trace.py");
  std::regex contiguous(R"re((t\d+) = ltorch\.contiguous\((t\d+)\))re");
  REQUIRE(std::regex_search(trace, contiguous));
  test::write_file(out + "/trace.py", std::regex_replace(trace, contiguous, "$1 = $2"));
  auto [status, text] = run_oracle({out}, false);
  CHECK(status == 1);
  CHECK_MESSAGE(text.find("the printed trace, run with PyTorch's semantics, fails") !=
                    std::string::npos,
                text);
  CHECK_MESSAGE(text.find("ltorch.view") != std::string::npos, text);
  CHECK_MESSAGE(text.find("view size is not compatible") != std::string::npos, text);
}

TEST_CASE("oracle: Thunder itself refuses a trace only tracelint's executor and the stand-in run: "
          "ltorch.add(..., alpha=None), as Thunder before 0.2 printed it, exit 1 at its line") {
  test::TempDir dir;
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/ops_cases.py";
  std::string out = dir.path + "/run";
  REQUIRE(trace_validate_run(request_of(Case("activations", {{"x", "f32[2, 4]"}}), path,
                                        test::read_file(path), Level::Ltorch,
                                        CacheMode::SymbolicValues),
                             out));
  if (const char *why = std::getenv("TRACELINT_NO_THUNDER")) {
    MESSAGE("Thunder not run here: " << why);
    return;
  }
  if (!cpython_has_torch() || !tools_have_thunder()) {
    test::skip_test("needs /usr/bin/python3's torch and Thunder in the tools venv");
    return;
  }
  std::string trace = test::read_file(out + "/trace.py");
  std::regex add(R"re(ltorch\.add\((t\d+), (t\d+), alpha=1\))re");
  REQUIRE(std::regex_search(trace, add));
  test::write_file(out + "/trace.py",
                   std::regex_replace(trace, add, "ltorch.add($1, $2, alpha=None)"));
  // The stand-in (PyTorch's semantics) and tracelint's executor take alpha=None...
  auto [stand_in_status, stand_in_text] = run_oracle({out}, false);
  CHECK_MESSAGE(stand_in_status == 0, stand_in_text);
  // ...Thunder 0.2's ltorch.add does not (its alpha defaults to 1 and must be a number).
  auto [status, text] = test::run_capturing(test::shell_quote(tools_python()) + " " +
                                            test::shell_quote(oracle_script()) + " --thunder " +
                                            test::shell_quote(out) + " 2>/dev/null");
  CHECK(status == 1);
  CHECK_MESSAGE(text.find("the printed trace, run under lightning-thunder") != std::string::npos,
                text);
  CHECK_MESSAGE(text.find("alpha=None)") != std::string::npos, text);
}

TEST_CASE("oracle: values that hold themselves print and compare as CPython's do") {
  // Not in oracle_cases.json: the tracer has no cycle collector, so the list that holds itself
  // is freed only when the process exits, which the sanitizer suite's leak check reports; the
  // CLI runs it here with that check off.
  test::TempDir dir;
  std::string path = std::string(TRACELINT_SOURCE_DIR) + "/tests/tracer/ops_cases.py";
  std::string out = dir.path + "/run";
  auto r = test::tracelint("run '" + path + "' -f self_referential -a 'x=f32[2, 3]' --save-io '" +
                               out + "'",
                           "", "ASAN_OPTIONS=detect_leaks=0");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  if (!cpython_has_torch()) {
    test::skip_test(kNoCPythonTorch);
    return;
  }
  oracle({out}, false);
}

TEST_CASE("oracle: nanoGPT's GPT.forward, with and without targets, both cache modes, matches "
          "CPython PyTorch") {
  std::optional<std::string> model = test::nanogpt_model();
  if (!model) return;
  std::string path = *model;
  if (!cpython_has_torch()) {
    test::skip_test(kNoCPythonTorch);
    return;
  }
  test::TempDir dir;
  std::string source = test::read_file(path);
  std::vector<ArgSpec> init = {
      {"config", "GPTConfig(n_layer=2, n_head=2, n_embd=32, block_size=16, vocab_size=64)"}};
  std::vector<std::string> dirs;
  int n = 0;
  for (bool targets : {false, true})
    for (CacheMode cache : {CacheMode::SymbolicValues, CacheMode::ConstantValues})
      for (Level level : {Level::Ltorch, Level::Prims}) {
        Case c = Case::module("GPT", init, {{"idx", "i64[2, 12]:0..64"}});
        if (targets) c.args.push_back({"targets", "i64[2, 12]:-1..64"});
        std::string cache_name = to_string(cache), level_name = to_string(level);
        CAPTURE(targets);
        CAPTURE(cache_name);
        CAPTURE(level_name);
        std::string out = dir.path + "/gpt" + std::to_string(n++);
        if (trace_validate_run(request_of(c, path, source, level, cache), out)) dirs.push_back(out);
      }
  oracle(dirs, false); // 1.13: no SDPA, so CPython takes nanoGPT's other attention branch
  if (!tools_have_torch()) {
    test::skip_test(std::string(kNoTools) + ": nanoGPT's flash branch not met in CPython");
    return;
  }
  oracle(dirs, false, tools_python()); // 2.x: the flash branch, as traced
  thunder_oracle(dirs);
}
