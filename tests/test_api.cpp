// The library API: check_source is thread-safe and deterministic.
#include "tracelint/core/parser.hpp"
#include "tracelint/reports/reports.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <thread>

using namespace tracelint;

TEST_CASE("check_source gives the same report from many threads at once") {
  std::string text = "def computation(a, key):\n  # key: \"Collection\"\n  _, _, = key\n"
                     "  t0 = ltorch.getitem(a, (..., slice(None, i0, None)))\n  del a\n"
                     "  t1 = ltorch.mul(a, t0)\n  return t1\n";
  std::string expected = render({check_source("t.py", text, Options{})}, Format::Json);
  std::vector<std::string> results(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] {
      for (int k = 0; k < 20; ++k)
        results[i] = render({check_source("t.py", text, Options{})}, Format::Json);
    });
  for (std::thread &t : threads)
    t.join();
  for (const std::string &r : results)
    CHECK(r == expected);
}

namespace {
// One selection layer; std::nullopt select: not given.
RuleSelection layer(std::optional<std::vector<std::string>> select,
                    std::vector<std::string> extend_select = {},
                    std::vector<std::string> ignore = {}) {
  RuleSelection r;
  r.select = std::move(select);
  r.extend_select = std::move(extend_select);
  r.ignore = std::move(ignore);
  return r;
}
} // namespace

TEST_CASE("select and ignore take codes and prefixes") {
  std::string text =
      "def computation(a):\n  t0 = ltorch.mul(a, t5)\n  t0 = customOp0(t0)\n  return t0\n";
  Options only;
  only.rules = {layer(std::vector<std::string>{"TL003"})};
  FileReport r = check_source("t.py", text, only);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].code == "TL003");
  Options none;
  none.rules = {layer(std::nullopt, {}, {"TL0"})};
  CHECK(check_source("t.py", text, none).diagnostics.empty());
}

TEST_CASE("rule selection as ruff's: the most specific selector wins, later layers override") {
  auto on = [](std::vector<RuleSelection> layers, const char *code) {
    Options o;
    o.rules = std::move(layers);
    return o.enabled(code);
  };
  using V = std::vector<std::string>;
  // Within a layer: select TL003 is more specific than ignore TL0; ignore TL003 beats select TL0.
  CHECK(on({layer(V{"TL003"}, {}, {"TL0"})}, "TL003"));
  CHECK_FALSE(on({layer(V{"TL003"}, {}, {"TL0"})}, "TL005"));
  CHECK_FALSE(on({layer(V{"TL0"}, {}, {"TL003"})}, "TL003"));
  CHECK(on({layer(V{"TL0"}, {}, {"TL003"})}, "TL005"));
  // Equal specificity: ignore wins.
  CHECK_FALSE(on({layer(V{"TL003"}, {}, {"TL003"})}, "TL003"));
  // A later select starts over; a later layer without select changes the earlier result.
  CHECK(on({layer(std::nullopt, {}, {"TL003"}), layer(V{"TL003"}, {}, {})}, "TL003"));
  CHECK_FALSE(on({layer(V{"TL0"}, {}, {}), layer(V{"TL1"}, {}, {})}, "TL003"));
  CHECK(on({layer(V{"TL0"}, {}, {}), layer(std::nullopt, {"TL1"}, {})}, "TL012"));
  CHECK(on({layer(V{"TL0"}, {}, {}), layer(std::nullopt, {"TL1"}, {})}, "TL003"));
  CHECK_FALSE(on({layer(V{"TL00"}, {}, {}), layer(std::nullopt, {}, {"TL003"})}, "TL003"));
  // select = [] with extend-select: only what extend-select names.
  CHECK(on({layer(V{}, {"TL005"}, {})}, "TL005"));
  CHECK_FALSE(on({layer(V{}, {"TL005"}, {})}, "TL003"));
  // No layers: every rule.
  CHECK(on({}, "TL016"));
}

TEST_CASE("did you mean: the closest code, prefix or key within a few edits") {
  CHECK(unknown_selector("TL03").value().find("did you mean TL003?") != std::string::npos);
  CHECK(unknown_selector("TLL003").value().find("did you mean TL003?") != std::string::npos);
  CHECK(unknown_selector("TL9").value().find("did you mean TL0?") != std::string::npos);
  CHECK(unknown_selector("XYZ123").value().find("`tracelint rules` lists the codes") !=
        std::string::npos);
  CHECK_FALSE(unknown_selector("TL0"));
  CHECK_FALSE(unknown_selector("ALL"));
  CHECK(unknown_code("TL01").value().find("unknown rule code 'TL01'") != std::string::npos);
  CHECK(did_you_mean("selct", {"select", "ignore"}) == "select");
  CHECK(did_you_mean("per-file-ignore", {"per-file-ignores", "ignore"}) == "per-file-ignores");
  CHECK_FALSE(did_you_mean("colour", {"select", "ignore"}));
  CHECK(normalize_selector("tl003") == "TL003");
}

TEST_CASE("a large trace gets the same diagnostics whether its chunks run on one thread or many") {
  std::string text = "import thunder.torch as ltorch\n\ndef computation(x):\n";
  for (int i = 0; i < 20000; ++i) {
    std::string in = i ? "t" + std::to_string(i - 1) : "x";
    text += "  t" + std::to_string(i) + " = ltorch.mul(" + in + ", x)  # t" + std::to_string(i) +
            ": \"cpu f32[2]\"\n    # t" + std::to_string(i) + " = prims.mul(" + in + ", x)\n";
    if (i == 15000)
      text += "  t_bad = ltorch.getitem(t1, (..., slice(None, [IntegerProxy name=i7, value=1], "
              "None)))\n";
  }
  text += "  return t19999\n";
  Options one, many;
  many.threads = 4;
  FileReport a = check_source("big.py", text, one), b = check_source("big.py", text, many);
  CHECK(render({a}, Format::Json) == render({b}, Format::Json));
  REQUIRE(a.diagnostics.size() == 2); // the repr leak, and i7 that nothing defines
  CHECK(a.diagnostics[0].code == "TL002");
  CHECK(a.diagnostics[0].span.line == 4 + 2 * 15001);
  CHECK(a.diagnostics[1].code == "TL003");
}

namespace {
// A prologue, then a computation long enough to be parsed in many chunks, with a problem of
// each kind a rule can only see across statements planted far apart.
std::string chunked_trace_with_problems() {
  std::string text = "import thunder\nimport thunder.core.prims as prims\n"
                     "import thunder.core.dtypes as dtypes\nimport thunder.torch as ltorch\n\n"
                     "def prologue(*args, **kwargs):\n  x: \"cpu f32[2]\" = args[0]\n"
                     "  return ((x,), ())\n\n"
                     "def computation(x):\n  # x: \"cpu f32[2]\"\n";
  auto line = [&](const std::string &code) { text += "  " + code + "\n"; };
  for (int i = 0; i < 12000; ++i) {
    std::string t = "t" + std::to_string(i), in = i ? "t" + std::to_string(i - 1) : "x";
    line(t + " = ltorch.mul(" + in + ", x)  # " + t + ": \"cpu f32[2]\"");
    text += "    # " + t + " = prims.mul(" + in + ", x)  # " + t + ": \"cpu f32[2]\"\n";
    if (i == 100) line("prims.check_tensor_metadata(x, (2,), 'cpu', dtypes.float32, False)");
    if (i == 9000) // TL016: checked again, chunks later
      line("prims.check_tensor_metadata(x, (2,), 'cpu', dtypes.float32, False)");
    if (i == 200) line("del [t150]");
    if (i == 8000) // TL005: used long after its del
      line("u0 = ltorch.mul(t150, x)  # u0: \"cpu f32[2]\"");
    if (i == 7000) // TL004: t300 again
      line("t300 = ltorch.mul(x, x)  # t300: \"cpu f32[2]\"");
    if (i == 6000) // TL009 in a late chunk
      line("c0 = prims.convert_element_type(x, dtypes.thunder.dtypes.float16)  # c0: \"cpu "
           "f16[2]\"");
    if (i == 10000) // TL007: a dim nothing defines
      line("r0 = ltorch.reshape(x, (2,))  # r0: \"cpu f32[i99]\"");
    if (i == 11000) // TL003
      line("v0 = ltorch.mul(x, nowhere)  # v0: \"cpu f32[2]\"");
  }
  line("return t11999");
  return text;
}

// Counts how a body arrives: in how many runs, and how many statements.
struct CountingReader : BodyReader {
  std::vector<std::pair<std::size_t, std::size_t>> runs_and_statements;
  void begin_trace(const ParsedFile &, const Trace &) override {
    runs_and_statements.emplace_back(0, 0);
  }
  void statements(std::vector<Statement> &&statements) override {
    runs_and_statements.back().first += 1;
    runs_and_statements.back().second += statements.size();
  }
  void end_trace() override {}
};

// The file checked in one piece: a `"""` anywhere (here in a trailing comment, which changes no
// finding) turns chunking off.
FileReport check_whole(const std::string &path, const std::string &text) {
  return check_source(path, text + "# \"\"\"\n", Options{});
}
// The file checked as it streams, its chunks parsed on `threads` threads.
FileReport check_streamed(const std::string &path, const std::string &text, unsigned threads) {
  Options options;
  options.threads = threads;
  return check_source(path, text, options);
}
} // namespace

TEST_CASE("a chunked trace checked as it streams gets the diagnostics of the whole file") {
  std::string text = chunked_trace_with_problems();
  REQUIRE(text.size() > 1024 * 1024);

  // The computation (the second def) arrives in many runs; the prologue in one.
  CountingReader counting;
  ParsedFile streamed = parse_trace_source("big.py", text, 2, &counting);
  REQUIRE(counting.runs_and_statements.size() == 2);
  CHECK(counting.runs_and_statements[0].first == 1);
  CHECK(counting.runs_and_statements[1].first > 20);
  CHECK(streamed.file.traces[1].body.empty()); // the reader had them
  ParsedFile whole = parse_trace_source("big.py", text, 2);
  CHECK(counting.runs_and_statements[1].second == whole.file.traces[1].body.size());

  FileReport reference = check_whole("big.py", text);
  std::set<std::string> codes;
  for (const Diagnostic &d : reference.diagnostics)
    codes.insert(d.code);
  CHECK(codes == std::set<std::string>{"TL003", "TL004", "TL005", "TL007", "TL009", "TL016"});
  for (unsigned threads : {1u, 2u, 3u}) {
    CAPTURE(threads);
    FileReport streamed_report = check_streamed("big.py", text, threads);
    CHECK(render({streamed_report}, Format::Json) == render({reference}, Format::Json));
  }
}

TEST_CASE("streamed and whole-file checks agree on randomly edited chunked traces") {
  // Line edits that keep the file valid Python but move definitions, uses and dels across
  // chunk boundaries; syntax errors are left out (tree-sitter's recovery may differ between
  // one parse and many).
  std::vector<std::string> lines;
  lines.push_back("import thunder.torch as ltorch");
  lines.push_back("");
  lines.push_back("def computation(x):");
  lines.push_back("  # x: \"cpu f32[2]\"");
  const int statements = 2500;
  for (int i = 0; i < statements; ++i) {
    std::string t = "t" + std::to_string(i), in = i ? "t" + std::to_string(i - 1) : "x";
    lines.push_back("  " + t + " = ltorch.mul(" + in + ", x)  # " + t + ": \"cpu f32[2]\"");
    lines.push_back("    # " + t + " = prims.mul(" + in + ", x)  # " + t + ": \"cpu f32[2]\"");
  }
  lines.push_back("  return t" + std::to_string(statements - 1));
  std::mt19937 random(20261202);
  auto body_line = [&](std::size_t size) {
    return 4 + std::uniform_int_distribution<std::size_t>(0, size - 6)(random);
  };
  for (int round = 0; round < 12; ++round) {
    std::vector<std::string> edited = lines;
    for (int e = 0; e < 40; ++e) {
      std::size_t at = body_line(edited.size());
      std::string victim =
          "t" + std::to_string(std::uniform_int_distribution<int>(0, statements - 1)(random));
      switch (std::uniform_int_distribution<int>(0, 5)(random)) {
      case 0:
        edited.erase(edited.begin() + static_cast<long>(at));
        break;
      case 1:
        edited.insert(edited.begin() + static_cast<long>(at), edited[at]);
        break;
      case 2:
        std::swap(edited[at], edited[body_line(edited.size())]);
        break;
      case 3:
        edited.insert(edited.begin() + static_cast<long>(at), "  del " + victim);
        break;
      case 4:
        edited.insert(edited.begin() + static_cast<long>(at), "");
        break;
      default:
        edited.insert(edited.begin() + static_cast<long>(at),
                      "  u" + std::to_string(e) + " = ltorch.mul(" + victim +
                          ", [IntegerProxy name=i" + std::to_string(e) + ", value=1])");
      }
    }
    std::string text;
    for (const std::string &l : edited)
      text += l + "\n";
    REQUIRE(text.size() > 64 * 1024); // large enough to be chunked
    CAPTURE(round);
    FileReport whole = check_whole("e.py", text);
    FileReport streamed = check_streamed("e.py", text, 2);
    CHECK(whole.diagnostics.size() > 10);
    CHECK(render({streamed}, Format::Json) == render({whole}, Format::Json));
  }
}

TEST_CASE("chunks never start at an else, an except or a decorated def") {
  // Such a line continues the statement before it: a chunk starting there is a syntax error.
  std::string text = "import thunder.torch as ltorch\n\ndef computation(x):\n";
  for (int i = 0; i < 1500; ++i) {
    std::string n = std::to_string(i);
    text += "  if x:\n    a" + n + " = ltorch.neg(x)\n  elif x:\n    b" + n +
            " = ltorch.neg(x)\n  else:\n    c" + n + " = ltorch.neg(x)\n";
    text += "  try:\n    d" + n +
            " = ltorch.neg(x)\n  except Exception:\n    pass\n"
            "  finally:\n    pass\n";
    text += "  @no_autocast\n  def f" + n + "():\n    return x\n";
  }
  text += "  return x\n";
  REQUIRE(text.size() > 256 * 1024);
  FileReport whole = check_whole("c.py", text);
  FileReport streamed = check_streamed("c.py", text, 2);
  auto syntax_errors = std::count_if(streamed.diagnostics.begin(), streamed.diagnostics.end(),
                                     [](const Diagnostic &d) { return d.code == "TL001"; });
  CHECK(syntax_errors == 0);
  CHECK(render({streamed}, Format::Json) == render({whole}, Format::Json));
}

TEST_CASE("a large body with a dedent to no enclosing level loses no statement when streamed") {
  // Found by fuzz_streaming: tree-sitter ends the def at `  return t0` (4-space body), so it is
  // a fragment after the def; a chunk parsed inside its own wrapper def used to drop it.
  std::string text = "def computation(x):\n";
  for (int i = 0; text.size() < 128 * 1024; ++i)
    text += "    t" + std::to_string(i) + " = ltorch.neg(x)\n";
  text += "  return t0\n";
  FileReport whole = check_whole("d.py", text);
  FileReport streamed = check_streamed("d.py", text, 2);
  CHECK(render({streamed}, Format::Json) == render({whole}, Format::Json));
  CHECK(std::any_of(streamed.diagnostics.begin(), streamed.diagnostics.end(),
                    [](const Diagnostic &d) { return d.code == "TL013"; }));
}

TEST_CASE("fuzzer-found inputs stay fixed (tests/regressions)") {
  // Each file once crashed or tripped a sanitizer; see docs/fuzzing.md.
  for (const auto &entry : std::filesystem::directory_iterator(std::string(TRACELINT_SOURCE_DIR) +
                                                               "/tests/regressions")) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    FileReport r = check_source(entry.path().filename().string(), text, Options{});
    for (const Diagnostic &d : r.diagnostics)
      CHECK(d.span.end <= text.size());
    CHECK(!render({r}, Format::Sarif).empty());
  }
}
