// The library API: check_source is thread-safe and deterministic.
#include "tracelint/reports/reports.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <iterator>
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

TEST_CASE("select and ignore take codes and prefixes") {
  std::string text = "def computation(a):\n  t0 = ltorch.mul(a, t5)\n  t0 = nvFusion0(t0)\n  return t0\n";
  Options only;
  only.select = {"TL003"};
  FileReport r = check_source("t.py", text, only);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].code == "TL003");
  Options none;
  none.ignore = {"TL0"};
  CHECK(check_source("t.py", text, none).diagnostics.empty());
}

TEST_CASE("a large trace gets the same diagnostics whether its chunks run on one thread or many") {
  std::string text = "import thunder.torch as ltorch\n\ndef computation(x):\n";
  for (int i = 0; i < 20000; ++i) {
    std::string in = i ? "t" + std::to_string(i - 1) : "x";
    text += "  t" + std::to_string(i) + " = ltorch.mul(" + in + ", x)  # t" + std::to_string(i) +
            ": \"cpu f32[2]\"\n    # t" + std::to_string(i) + " = prims.mul(" + in + ", x)\n";
    if (i == 15000)
      text += "  t_bad = ltorch.getitem(t1, (..., slice(None, [IntegerProxy name=i7, value=1], None)))\n";
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

TEST_CASE("fuzzer-found inputs stay fixed (tests/regressions)") {
  // Each file once crashed or tripped a sanitizer; see docs/fuzzing.md.
  for (const auto &entry : std::filesystem::directory_iterator(std::string(TRACELINT_SOURCE_DIR) + "/tests/regressions")) {
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    FileReport r = check_source(entry.path().filename().string(), text, Options{});
    for (const Diagnostic &d : r.diagnostics)
      CHECK(d.span.end <= text.size());
    CHECK(!render({r}, Format::Sarif).empty());
  }
}
