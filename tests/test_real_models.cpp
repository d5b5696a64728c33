// Public model files, unmodified (tests/models/, provenance and licences in SOURCES.md), traced
// as a user would: `tracelint trace FILE --module CLASS --init ... -a ... --run --save-io DIR
// -o DIR/trace.py`, for inference and with --grad, under both cache modes; each printed trace
// checked with `tracelint check --isolated` (nothing found), and the runs compared with CPython
// and PyTorch running the original files (tracer/oracle/cpython_oracle.py): outputs, and with
// --grad the gradients of the parameters and inputs.
#include "support.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kModels = std::string(TRACELINT_SOURCE_DIR) + "/tests/models";

struct ModelCase {
  std::string file, module;
  std::vector<std::pair<std::string, std::string>> init, args;
  bool needs_pytorch2 = false; // uses a torch.nn class PyTorch 1.13 lacks (models.json says which)
  bool train = false;          // traced in training mode (--train): batch norm on the batch
};

std::vector<ModelCase> model_cases() {
  nlohmann::json cases = nlohmann::json::parse(test::read_file(kModels + "/models.json"));
  std::vector<ModelCase> out;
  for (const nlohmann::json &j : cases) {
    ModelCase c{j.at("file"),           j.at("module"), {}, {}, j.contains("pytorch2_only"),
                j.value("train", false)};
    for (const nlohmann::json &p : j.at("init"))
      c.init.emplace_back(p.at(0), p.at(1));
    for (const nlohmann::json &p : j.at("args"))
      c.args.emplace_back(p.at(0), p.at(1));
    out.push_back(std::move(c));
  }
  return out;
}

// The CLI arguments of one traced run; with grad, floating inputs require grad too.
std::string trace_arguments(const ModelCase &c, bool grad, const std::string &cache,
                            const std::string &dir) {
  std::string a = "trace " + test::shell_quote(kModels + "/" + c.file) + " --module " + c.module +
                  " --cache " + cache + " --run --save-io " + test::shell_quote(dir) + " -o " +
                  test::shell_quote(dir + ".py") + (grad ? " --grad" : "") +
                  (c.train ? " --train" : "");
  for (const auto &[name, value] : c.init)
    a += " --init " + test::shell_quote(name + "=" + value);
  for (const auto &[name, value] : c.args)
    a += " -a " +
         test::shell_quote(name + "=" + value + (grad && value.starts_with("f") ? ":grad" : ""));
  return a;
}

void trace_check_and_compare(bool grad) {
  test::TempDir tmp;
  std::vector<std::string> dirs, dirs_pytorch2;
  int n = 0;
  for (const ModelCase &c : model_cases())
    for (const char *cache : {"symbolic-values", "constant-values"}) {
      std::string dir = tmp.path + "/" + std::to_string(n++) + "-" + c.module;
      std::string name = c.file + " " + c.module + (c.train ? " train " : " ") + cache;
      CAPTURE(name);
      test::Run traced = test::tracelint(trace_arguments(c, grad, cache, dir));
      CHECK_MESSAGE(traced.exit_code == 0, traced.err);
      if (traced.exit_code != 0) continue;
      CHECK_MESSAGE(traced.err.find("result: all ") != std::string::npos, traced.err);
      test::Run checked = test::tracelint("check --isolated " + test::shell_quote(dir + ".py"));
      CHECK_MESSAGE(checked.exit_code == 0, (checked.out + checked.err));
      (c.needs_pytorch2 ? dirs_pytorch2 : dirs).push_back(dir);
    }
  // What the model files import for their training scripts and tokenizers, not installed
  // here: stand-ins that fail if the model uses them (cpython_oracle.py --stub).
  const std::string stubs =
      " --stub torch.utils.tensorboard,tiktoken,requests,lightning,sentencepiece,torchvision";
  const std::string debian = "/usr/bin/python3";
  if (!test::can_import_torch(debian)) {
    test::skip_test("/usr/bin/python3 has no torch: the model runs were not compared with CPython "
                    "(scripts/bootstrap.sh installs python3-torch)");
    return;
  }
  // PyTorch 1.13 lacks scaled_dot_product_attention: the oracle's documented reference.
  test::expect_cpython_matches(dirs, debian, " --polyfill" + stubs);
  std::string tools = std::string(TRACELINT_SOURCE_DIR) + "/.venv-tools/bin/python";
  if (!test::can_import_torch(tools)) {
    test::skip_test("no PyTorch 2.x in the tools venv (.venv-tools; scripts/bootstrap.sh makes "
                    "it): the models were compared with PyTorch 1.13 only");
    return;
  }
  dirs.insert(dirs.end(), dirs_pytorch2.begin(), dirs_pytorch2.end());
  test::expect_cpython_matches(dirs, tools, stubs);
}

} // namespace

TEST_CASE("real models: each collected public model file, unmodified, traces for inference in "
          "both cache modes, checks clean, runs equal to eager, and matches CPython PyTorch") {
  trace_check_and_compare(false);
}

TEST_CASE("real models: each collected public model file, unmodified, traces with --grad in both "
          "cache modes, checks clean, and its outputs and gradients match libtorch autograd and "
          "CPython PyTorch") {
  trace_check_and_compare(true);
}
