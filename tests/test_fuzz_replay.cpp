// fuzz_tracer's corpus executed: the libFuzzer target (built with ASan and UBSan) checks that a
// trace prints, parses back and validates, but libtorch is not built with those sanitizers, so
// the execution half of the property runs here: every corpus program that traces must run, as
// traced, as eager computes it (tracer/torch's run_and_compare: eager, the trace, the printed
// trace, and with --grad the backward against autograd).
#include "support.hpp"
#include "tracer_inputs.hpp"

#include "tracelint/tracer/run.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#undef CHECK
#define CHECK DOCTEST_CHECK

using namespace tracelint;
using namespace tracelint::tracer;

TEST_CASE("fuzz replay: every program of fuzz_tracer's corpus that traces runs as eager computes "
          "it") {
  std::filesystem::path corpus =
      std::filesystem::path(TRACELINT_SOURCE_DIR) / "fuzz" / "corpus" / "fuzz_tracer";
  REQUIRE(std::filesystem::is_directory(corpus));
  std::vector<std::filesystem::path> files;
  for (const auto &entry : std::filesystem::directory_iterator(corpus))
    files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::size_t traced = 0, compared = 0;
  for (const std::filesystem::path &file : files) {
    std::string source = test::read_file(file.string());
    std::optional<TraceRequest> request = fuzzing::request_for(source);
    if (!request) continue;
    Result<TracedProgram> program = trace(*request);
    if (!program) continue;
    ++traced;
    std::string name = file.filename().string();
    CAPTURE(name);
    CAPTURE(source);
    Result<RunReport> run = run_and_compare(*request, program.value(), RunOptions{0, 1u << 28, ""});
    if (!run) {
      // The program itself fails when eager runs it (a shape error PyTorch raises too): the
      // trace has nothing to agree with. Any other failure is the trace's.
      CHECK_MESSAGE(run.error().message.rfind("eager run: ", 0) == 0, run.error().message);
      continue;
    }
    ++compared;
    CHECK_MESSAGE(run->ok(), run->summary());
  }
  MESSAGE(traced << " corpus programs traced, " << compared << " compared with eager");
  // Most of the corpus is mutated text that does not trace (what fuzzing the frontend keeps);
  // 18 programs traced when this test was written: far fewer means the replay broke.
  CHECK(compared >= 10);
}
