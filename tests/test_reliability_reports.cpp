// Reliability (bad inputs and faults): reports. Each case is a bad input an audit found, with what
// tracelint must do with it.
#include "support.hpp"

#include "tracelint/reports/reports.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;
using namespace tracelint;

namespace {

// A word for a shell command line, whatever it holds.
std::string shell_quote(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string buggy_trace_path() {
  return std::string(TRACELINT_SOURCE_DIR) + "/examples/buggy_trace.py";
}

void write_script(const std::string &path, const std::string &text) {
  test::write_file(path, text);
  fs::permissions(path, fs::perms::owner_all);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr double kSlowdown = 4;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr double kSlowdown = 4;
#else
constexpr double kSlowdown = 1;
#endif
#else
constexpr double kSlowdown = 1;
#endif

// Whether the text is well-formed UTF-8 (what JSON, XML and an HTML page with charset=utf-8 hold).
bool is_utf8(const std::string &s) {
  try {
    (void)nlohmann::json(s).dump(); // the strict handler throws on an ill-formed sequence
    return true;
  } catch (const nlohmann::json::exception &) {
    return false;
  }
}

// Python's XML parser (expat) accepts the document.
bool well_formed_xml(const std::string &xml) {
  test::TempDir dir;
  test::write_file(dir.path + "/doc.xml", xml);
  std::string command =
      "python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' " +
      shell_quote(dir.path + "/doc.xml") + " 2>&1";
  return std::system(command.c_str()) == 0;
}

} // namespace

// Issue 15, item 3: Graphviz ran through std::system with a command line built from TMPDIR.
TEST_CASE("reliability reports: a TMPDIR with quotes runs no shell command, the HTML is produced") {
  test::TempDir dir;
  std::string pwned = dir.path + "/PWNED";
  // The temporary folder exists (else there is nothing to run dot on) and its name closes the
  // quote the old command line put around it.
  std::string tmpdir = dir.path + "/x';id>\"$PWNED_AT\";'";
  fs::create_directory(tmpdir);
  auto run = test::tracelint("check --format html " + shell_quote(buggy_trace_path()), "",
                             "PWNED_AT=" + shell_quote(pwned) + " TMPDIR=" + shell_quote(tmpdir) +
                                 " timeout 60");
  CHECK_MESSAGE(!fs::exists(pwned), "a shell ran `id` from TMPDIR: " << test::read_file(pwned));
  CHECK_MESSAGE(run.exit_code == 1, run.err);
  CHECK(run.out.find("<h3>Dataflow of the flagged names</h3>") != std::string::npos);
  CHECK(run.out.find("<svg") != std::string::npos); // Graphviz drew it all the same
}

TEST_CASE("reliability reports: a `dot` first on PATH is not run, the system's draws the graph") {
  test::TempDir dir;
  fs::create_directory(dir.path + "/bin");
  std::string ran = dir.path + "/FAKE_DOT_RAN";
  write_script(dir.path + "/bin/dot",
               "#!/bin/sh\ntouch " + shell_quote(ran) + "\necho '<svg>fake</svg>'\nsleep 30\n");
  const char *path = std::getenv("PATH");
  auto run = test::tracelint("check --format html " + shell_quote(buggy_trace_path()), "",
                             "PATH=" + shell_quote(dir.path + "/bin:" + (path ? path : "")) +
                                 " timeout 60");
  CHECK(run.exit_code != 124);
  CHECK_MESSAGE(!fs::exists(ran), "the dot found on PATH ran");
  CHECK_MESSAGE(run.exit_code == 1, run.err);
  CHECK(run.out.find("<svg>fake</svg>") == std::string::npos);
  CHECK(run.out.find("<title>i2&#45;&gt;t1</title>") != std::string::npos); // the real dot's SVG
}

TEST_CASE("reliability reports: a dot that hangs is stopped at the timeout, the page shows DOT") {
  test::TempDir dir;
  std::string script = dir.path + "/dot";
  // A child of the script sleeps too: the whole process group goes.
  write_script(script, "#!/bin/sh\nsleep 30\necho '<svg></svg>'\n");
  std::string text = test::read_file(buggy_trace_path());
  RenderOptions options;
  options.graphviz_dot = script;
  options.graphviz_timeout = std::chrono::milliseconds(300);
  auto start = std::chrono::steady_clock::now();
  std::string html =
      render({check_source("examples/buggy_trace.py", text, Options{})}, Format::Html, options);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_MESSAGE(seconds < 10 * kSlowdown, "rendering took " << seconds << " s");
  CHECK(html.find("Graphviz (dot) did not finish within 0.3 s and was stopped; the graph in "
                  "DOT:</p>") != std::string::npos);
  CHECK(html.find("<pre class=\"dot\">digraph dataflow {") != std::string::npos);
  CHECK(html.find("&quot;i2&quot; -&gt; &quot;t1&quot;") != std::string::npos);
  CHECK(html.find("<svg") == std::string::npos);
  // The rest of the report is there.
  CHECK(html.find("data-code=\"TL005\"") != std::string::npos);
  CHECK(html.rfind("</html>\n") == html.size() - 8);
}

TEST_CASE("reliability reports: a dot that fails or cannot start leaves the DOT source") {
  test::TempDir dir;
  std::string failing = dir.path + "/dot";
  write_script(failing, "#!/bin/sh\necho 'Error: syntax' >&2\nexit 3\n");
  std::string text = test::read_file(buggy_trace_path());
  FileReport report = check_source("examples/buggy_trace.py", text, Options{});
  RenderOptions options;
  options.graphviz_dot = failing;
  std::string html = render({report}, Format::Html, options);
  CHECK(html.find("Graphviz (dot) failed (exit status 3); the graph in DOT:") != std::string::npos);
  CHECK(html.find("<pre class=\"dot\">digraph dataflow {") != std::string::npos);
  options.graphviz_dot = dir.path + "/no-such-dot";
  html = render({report}, Format::Html, options);
  CHECK(html.find("cannot run Graphviz (" + dir.path +
                  "/no-such-dot): No such file or directory; the graph in DOT:") !=
        std::string::npos);
}

TEST_CASE("reliability reports: 2000 flagged names draw a bounded graph, quickly") {
  test::TempDir dir;
  std::string trace = "import thunder\nimport thunder.torch as ltorch\n\ndef computation(a):\n";
  for (int i = 0; i < 2000; ++i)
    trace += "  t" + std::to_string(i) + " = ltorch.add(a, u" + std::to_string(i) + ")\n";
  trace += "  return t0\n";
  test::write_file(dir.path + "/many.py", trace);
  auto start = std::chrono::steady_clock::now();
  auto run = test::tracelint("check --format html " + shell_quote(dir.path + "/many.py"), "",
                             "timeout 60");
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE_MESSAGE(run.exit_code != 124, "the HTML report of 2000 flagged names took over 60 s");
  CHECK(run.exit_code == 1);
  // The old report drew all 4000 names: 25 s of dot alone.
  CHECK_MESSAGE(seconds < 8 * kSlowdown, "the HTML report took " << seconds << " s");
  CHECK(run.out.find("The graph draws 150 of the 4001 names around the findings") !=
        std::string::npos);
  std::size_t nodes = 0;
  for (std::size_t at = run.out.find("class=\"node\""); at != std::string::npos;
       at = run.out.find("class=\"node\"", at + 1))
    ++nodes;
  CHECK(nodes == 150);
}

// Issue 15, item 10: a file name that is not UTF-8 made the JUnit XML and the HTML ill-formed.
TEST_CASE("reliability reports: a file name with byte 0xff gives well-formed JUnit, HTML, JSON, "
          "SARIF") {
  test::TempDir dir;
  std::string path = dir.path + "/bad\xff.py";
  test::write_file(path, test::read_file(buggy_trace_path()));
  for (std::string format : {"junit", "html", "json", "sarif"}) {
    CAPTURE(format);
    auto run = test::tracelint("check --format " + format + " " + shell_quote(path));
    CHECK_MESSAGE(run.exit_code == 1, run.err);
    CHECK(is_utf8(run.out));
    if (format == "junit") {
      CHECK(well_formed_xml(run.out));
      CHECK(run.out.find("bad\xEF\xBF\xBD.py") != std::string::npos); // U+FFFD for the byte
    }
    if (format == "html") CHECK(run.out.find("bad\xEF\xBF\xBD.py") != std::string::npos);
    if (format == "json" || format == "sarif") {
      nlohmann::json doc;
      CHECK_NOTHROW(doc = nlohmann::json::parse(run.out));
    }
  }
}

TEST_CASE("reliability reports: ill-formed UTF-8 of every kind is replaced in JUnit and HTML") {
  // A lone continuation byte, an overlong '/', an encoded surrogate, a truncated sequence,
  // U+FFFF and a code point above U+10FFFF.
  std::string path = "a\x80"
                     "b\xC0\xAF"
                     "c\xED\xA0\x80"
                     "d\xE2\x82"
                     "e\xEF\xBF\xBF"
                     "f\xF5\x80\x80\x80.py";
  FileReport report = check_source(path, "def f(a):\n  return b\n", Options{});
  std::string junit = render({report}, Format::Junit);
  std::string html = render({report}, Format::Html);
  CHECK(is_utf8(junit));
  CHECK(is_utf8(html));
  CHECK(well_formed_xml(junit));
  CHECK(junit.find("\xEF\xBF\xBF") == std::string::npos);
  CHECK(junit.find("\xED\xA0\x80") == std::string::npos);
  CHECK(junit.find("name=\"a\xEF\xBF\xBD"
                   "b") != std::string::npos);
}

// Issue 15, item 10: `analyze` took its compile flags from a compile_commands.json found above the
// scanned file (`-include /etc/hostname` was read and echoed).
TEST_CASE("reliability reports: analyze takes no flags from a compile_commands.json above the "
          "file unless asked") {
  test::TempDir dir;
  fs::create_directory(dir.path + "/sub");
  test::write_file(dir.path + "/secret.txt", "SECRET_TOKEN_42 is not C++\n");
  test::write_file(dir.path + "/sub/x.cpp", "void print_x() {}\n");
  nlohmann::json db = nlohmann::json::array(
      {{{"directory", dir.path},
        {"file", dir.path + "/sub/x.cpp"},
        {"arguments", {"clang++", "-include", dir.path + "/secret.txt", "-c", "sub/x.cpp"}}}});
  test::write_file(dir.path + "/compile_commands.json", db.dump());
  std::string file = shell_quote(dir.path + "/sub/x.cpp");

  auto walked = test::tracelint("analyze " + file, "", "timeout 60");
  CHECK(walked.exit_code == 2);
  CHECK_MESSAGE(walked.out.find("SECRET_TOKEN_42") == std::string::npos, walked.out);
  CHECK_MESSAGE(walked.err.find("SECRET_TOKEN_42") == std::string::npos, walked.err);
  CHECK_MESSAGE(walked.err.find("tracelint analyze: no compile flags: pass -p BUILD_DIR") !=
                    std::string::npos,
                walked.err);
  CHECK(walked.err.find("--find-compile-db") != std::string::npos);

  // -p names the folder that holds the database; the folders above it are not searched.
  auto above_p = test::tracelint("analyze -p " + shell_quote(dir.path + "/sub") + " " + file, "",
                                 "timeout 60");
  CHECK(above_p.exit_code == 2);
  CHECK(above_p.err.find("SECRET_TOKEN_42") == std::string::npos);
  CHECK_MESSAGE(above_p.err.find("no compilation database (compile_commands.json) in " + dir.path +
                                 "/sub:") != std::string::npos,
                above_p.err);

  // Flags after -- are the only ones used.
  auto dashes = test::tracelint("analyze " + file + " -- -std=c++17", "", "timeout 60");
  CHECK_MESSAGE(dashes.exit_code == 0, dashes.err);
  CHECK(dashes.err.find("SECRET_TOKEN_42") == std::string::npos);

  // Asked for, the search finds it (and the flags are used: the "header" is not C++).
  auto asked = test::tracelint("analyze --find-compile-db " + file, "", "timeout 60");
  CHECK(asked.exit_code == 2);
  CHECK(asked.err.find("SECRET_TOKEN_42") != std::string::npos);
}

// Issue 15, item 10: a file that failed to compile exited 2 under "All checks passed (1 file)".
TEST_CASE("reliability reports: analyze reports a file that does not compile as failed, with the "
          "first error, in every format") {
  test::TempDir dir;
  test::write_file(dir.path + "/broken.cpp",
                   "#include \"missing_header_xyz.h\"\nvoid print_x() {}\nint y = ;\n");
  test::write_file(dir.path + "/fine.cpp", "void print_y() {}\n");
  std::string files =
      shell_quote(dir.path + "/broken.cpp") + " " + shell_quote(dir.path + "/fine.cpp");
  std::string first_error = dir.path + "/broken.cpp:1:10: 'missing_header_xyz.h' file not found";
  for (std::string format : {"text", "json", "sarif", "junit", "github", "html"}) {
    CAPTURE(format);
    auto run = test::tracelint("analyze --format " + format + " " + files + " -- -std=c++17", "",
                               "timeout 60");
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("could not be compiled") != std::string::npos);
    if (format == "text") {
      CHECK(run.out.find("All checks passed") == std::string::npos);
      CHECK_MESSAGE(run.out.find(dir.path + "/broken.cpp: error: does not compile: " + first_error +
                                 "\n") != std::string::npos,
                    run.out);
      CHECK(run.out.find("1 file could not be checked.") != std::string::npos);
    } else if (format == "json") {
      auto doc = nlohmann::json::parse(run.out);
      REQUIRE(doc["files"].size() == 2);
      CHECK(doc["files"][0]["error"] == "does not compile: " + first_error);
      CHECK(doc["files"][1]["error"].is_null());
      CHECK(doc["summary"]["unreadable"] == 1);
    } else if (format == "sarif") {
      auto doc = nlohmann::json::parse(run.out);
      CHECK(doc["runs"][0]["invocations"][0]["executionSuccessful"] == false);
      CHECK(doc["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"] ==
            "does not compile: " + first_error);
    } else if (format == "junit") {
      CHECK(well_formed_xml(run.out));
      CHECK(run.out.find("errors=\"1\"") != std::string::npos);
      CHECK(run.out.find("<error message=\"does not compile: " + dir.path +
                         "/broken.cpp:1:10: &apos;missing_header_xyz.h&apos; file not found\"/>") !=
            std::string::npos);
    } else if (format == "github") {
      CHECK(run.out.find("::error file=" + dir.path + "/broken.cpp::does not compile: ") == 0);
    } else {
      CHECK(run.out.find("<p class=\"unreadable\">does not compile: " + dir.path +
                         "/broken.cpp:1:10: &apos;missing_header_xyz.h&apos; file not found") !=
            std::string::npos);
    }
  }
  // A file that is not there is not one that passed either.
  auto missing = test::tracelint("analyze --format json " + shell_quote(dir.path + "/nope.cpp") +
                                     " -- -std=c++17",
                                 "", "timeout 60");
  CHECK(missing.exit_code == 2);
  CHECK(nlohmann::json::parse(missing.out)["files"][0]["error"] == "no such file or directory");
}
