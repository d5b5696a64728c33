// Reliability (bad inputs and faults): what a report repeats of the input is bounded.
#include "support.hpp"

#include "tracelint/core/message_text.hpp"

#include <doctest/doctest.h>

#include <string>

TEST_CASE("messages: a 1 MB name is quoted shortened, and the report stays small") {
  test::TempDir dir;
  std::string name(1'000'000, 'a');
  test::write_file(dir.path + "/long.py", "import thunder.torch as ltorch\n\n"
                                          "def computation(x):\n  t0 = ltorch.add(x, " +
                                              name + ")\n  return t0\n");
  test::Run run = test::tracelint("check --isolated '" + dir.path + "/long.py'");
  CHECK(run.exit_code == 1);
  CHECK(run.out.find("error[TL003] `" + std::string(77, 'a') + "...` is used but never defined") !=
        std::string::npos);
  CHECK(run.out.size() < 4096); // 1 MB more before: the name whole in the message
  test::Run json = test::tracelint("check --isolated --format json '" + dir.path + "/long.py'");
  CHECK(json.exit_code == 1);
  CHECK(json.out.size() < 8192);
}

TEST_CASE("messages: shortening keeps short quotes and cuts on a UTF-8 boundary") {
  using tracelint::shorten_quoted;
  CHECK(shorten_quoted("`t0` is used") == "`t0` is used");
  CHECK(shorten_quoted("no quotes at all") == "no quotes at all");
  CHECK(shorten_quoted("an `unclosed quote") == "an `unclosed quote");
  std::string exact(tracelint::kMaxQuotedLength, 'x');
  CHECK(shorten_quoted("`" + exact + "`") == "`" + exact + "`");
  std::string shortened =
      shorten_quoted("`" + std::string(100, 'y') + "` and `" + std::string(200, 'z') + "` end");
  CHECK(shortened == "`" + std::string(77, 'y') + "...` and `" + std::string(77, 'z') + "...` end");
  // "é" is two bytes; a cut at byte 77 would split the one that starts at byte 76.
  std::string accented = std::string(76, 'a');
  for (int i = 0; i < 20; ++i)
    accented += "\xc3\xa9";
  std::string cut = shorten_quoted("`" + accented + "`");
  CHECK(cut == "`" + std::string(76, 'a') + "...`");
}
