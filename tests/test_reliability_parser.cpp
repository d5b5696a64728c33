// Reliability (bad inputs and faults): parser. Each case is a bad input an audit found, with what
// tracelint must do with it.
#include "support.hpp"

#include "tracelint/core/diagnostic.hpp"
#include "tracelint/core/parser.hpp"
#include "tracelint/core/source.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace {

std::string q(const std::string &s) {
  return "'" + s + "'";
}

// The text with each "\n" spelled `newline`.
std::string with_endings(const std::string &text, const std::string &newline) {
  std::string out;
  for (char c : text)
    out += c == '\n' ? newline : std::string(1, c);
  return out;
}

// Runs `check --format json` on a file holding `text`, bounded so that a hang fails.
test::Run check_json(const test::TempDir &dir, const std::string &text) {
  test::write_file(dir.path + "/t.py", text);
  return test::tracelint("check --isolated --format json " + q(dir.path + "/t.py"), "",
                         "timeout 60");
}

struct Found {
  std::string code;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
};
std::vector<Found> diagnostics(const test::Run &run) {
  std::vector<Found> out;
  nlohmann::json report = nlohmann::json::parse(run.out);
  for (const auto &d : report["files"][0]["diagnostics"])
    out.push_back(
        {d["code"], d["span"]["start"]["line"], d["span"]["start"]["column"], d["message"]});
  return out;
}
// Whether Python would refuse the file (the block tests' inputs are valid Python that is not a
// trace: TL009 warns about them).
bool syntax_error(const test::Run &run) {
  for (const Found &f : diagnostics(run))
    if (f.code == "TL001") return true;
  return false;
}
bool has(const std::vector<Found> &found, const std::string &code, unsigned line, unsigned column,
         const std::string &message_part) {
  for (const Found &f : found)
    if (f.code == code && f.line == line && f.column == column &&
        f.message.find(message_part) != std::string::npos)
      return true;
  return false;
}

// The shape of Lightning-AI/lightning-thunder#1182: comment lines, then a trace whose line 10
// holds a debug repr in code (CPython: SyntaxError at line 10).
const std::string kLeakAtLine10 =
    "# BAD TRACE SNIPPET - a slice holding a NumberProxy printed with its repr\n"
    "# ---- snippet below ----\n"
    "def computation(a, i1):\n"
    "  # a: \"cuda:0 f32[2, 2]\"\n"
    "  # i1: \"int 2\"\n"
    "\n"
    "  i8 = prims.div(i1, 2)  # i8: \"int 1\"\n"
    "  i9 = prims.convert_element_type(i8, int)  # i9: \"int 1\"\n"
    "  i10 = prims.sub(i8, i9)  # i10: \"int 0\"\n"
    "  t37 = ltorch.getitem(a, (..., slice(None, [IntegerProxy name=i10, value=1, "
    "static=CONSTRAINT.CONSTRAINABLE], None)))\n"
    "  return t37\n";

const std::string kCleanTrace = "import thunder.core.prims as prims\n"
                                "import thunder.torch as ltorch\n"
                                "\n"
                                "def computation(a):\n"
                                "  t0 = ltorch.exp(a)  # t0: \"cuda:0 f32[2]\"\n"
                                "  t1 = prims.add(t0, a)\n"
                                "  return t1\n";

} // namespace

TEST_CASE("parser: a trace with CR-only line endings is read line by line, as CPython reads it") {
  test::TempDir dir;
  // Before: the whole file was one line, a comment, and the check passed.
  test::Run leak = check_json(dir, with_endings(kLeakAtLine10, "\r"));
  CHECK(leak.exit_code == 1);
  std::vector<Found> found = diagnostics(leak);
  CHECK(has(found, "TL002", 10, 45, "debug repr of IntegerProxy `i10` in code"));

  // Before: a valid CR-only trace was one line, a syntax error.
  test::Run clean = check_json(dir, with_endings(kCleanTrace, "\r"));
  CHECK(clean.exit_code == 0);
  CHECK(diagnostics(clean).empty());

  // The excerpt under a finding is its own line, not the whole file.
  test::write_file(dir.path + "/t.py", with_endings(kLeakAtLine10, "\r"));
  test::Run text = test::tracelint("check --isolated " + q(dir.path + "/t.py"), "", "timeout 60");
  CHECK(text.out.find("t.py:10:45:") != std::string::npos);
  CHECK(text.out.find("BAD TRACE SNIPPET") == std::string::npos);
}

TEST_CASE("parser: mixed line endings count lines and columns as CPython does") {
  test::TempDir dir;
  // Lines 1-3 end in "\n", "\r\n" and "\r"; `t9` on line 6 is undefined.
  std::string text = "import thunder.torch as ltorch\n"
                     "\r\n"
                     "def computation(a):\r"
                     "  t0 = ltorch.exp(a)\r\n"
                     "  t1 = ltorch.exp(t0)\n"
                     "  t2 = ltorch.add(t1, t9)\r"
                     "  return t2\r\n";
  test::Run run = check_json(dir, text);
  CHECK(run.exit_code == 1);
  std::vector<Found> found = diagnostics(run);
  REQUIRE(found.size() == 1);
  CHECK(has(found, "TL003", 6, 23, "`t9` is used but never defined"));
}

TEST_CASE("parser: a fix inserts lines with the file's own line ending") {
  test::TempDir dir;
  // TL012's fix adds the missing import line.
  const std::string trace = "import torch\n\ndef computation(a):\n  t0 = ltorch.exp(a)\n"
                            "  return t0\n";
  for (const std::string newline : {"\r\n", "\r"}) {
    CAPTURE(newline.size());
    std::string path = dir.path + "/fix.py";
    test::write_file(path, with_endings(trace, newline));
    test::Run run = test::tracelint("check --isolated --fix " + q(path), "", "timeout 60");
    CHECK(run.exit_code == 0);
    std::string fixed = test::read_file(path);
    CHECK(fixed == with_endings("import thunder.torch as ltorch\n" + trace, newline));
  }
}

TEST_CASE("parser: a tab/space mix whose meaning depends on the tab size is Python's TabError") {
  test::TempDir dir;
  // Line 3's tab is 8 columns with tab size 8, like line 2's spaces, but not with tab size 1
  // (python3 -c 'compile(...)': TabError at line 3).
  test::Run run = check_json(dir, "def computation(a):\n"
                                  "        t0 = ltorch.exp(a)\n"
                                  "\treturn t0\n");
  CHECK(run.exit_code == 1);
  CHECK(has(diagnostics(run), "TL001", 3, 1, "inconsistent use of tabs and spaces in indentation"));
  // Tabs alone, or a tab after the same spaces on every line, mean the same at any tab size.
  CHECK(check_json(dir, "import thunder.torch as ltorch\n\ndef computation(a):\n"
                        "\tt0 = ltorch.exp(a)\n\treturn t0\n")
            .exit_code == 0);
  CHECK(check_json(dir, "import thunder.torch as ltorch\n\ndef computation(a):\n"
                        "  \tt0 = ltorch.exp(a)\n  \treturn t0\n")
            .exit_code == 0);
}

TEST_CASE("parser: brackets nested past Python's 200 levels are a syntax error") {
  test::TempDir dir;
  auto nested = [](int depth) {
    return "import thunder.torch as ltorch\n\ndef computation(a):\n  t0 = ltorch.exp(" +
           std::string(static_cast<std::size_t>(depth), '(') + "a" +
           std::string(static_cast<std::size_t>(depth), ')') + ")\n  return t0\n";
  };
  // The exp call's bracket is the first level; CPython allows 200.
  CHECK(check_json(dir, nested(199)).exit_code == 0);
  test::Run over = check_json(dir, nested(200));
  CHECK(over.exit_code == 1);
  CHECK(has(diagnostics(over), "TL001", 4, 218, "too many nested parentheses"));
  // Before: exit 0 with a warning that the value is too deep to model.
  test::Run deep = check_json(dir, nested(100000));
  CHECK(deep.exit_code == 1);
  CHECK(has(diagnostics(deep), "TL001", 4, 218, "too many nested parentheses"));
}

TEST_CASE("parser: blocks nested past CPython's limits are a syntax error") {
  test::TempDir dir;
  // n nested `kind` blocks, each one column deeper, the innermost holding a pass.
  // n nested blocks opened by `header`, each one column deeper than the last, from column
  // `from`; the innermost holds a pass.
  auto headers = [](int n, const std::string &header, int from = 0) {
    std::string text;
    for (int i = from; i < from + n; ++i)
      text += std::string(static_cast<std::size_t>(i), ' ') + header + "\n";
    return text;
  };
  auto nest = [&](int n, const std::string &header, int from = 0) {
    return headers(n, header, from) + std::string(static_cast<std::size_t>(from + n), ' ') +
           "pass\n";
  };
  // The tokenizer's 100 levels of indentation: 99 nested blocks are fine, the 100th indent is
  // an IndentationError at its line.
  CHECK(!syntax_error(check_json(dir, nest(99, "if x:"))));
  test::Run levels = check_json(dir, nest(100, "if x:"));
  CHECK(levels.exit_code == 1);
  CHECK(has(diagnostics(levels), "TL001", 101, 1, "too many levels of indentation"));

  // The compiler's 20 statically nested blocks (loops, try, with): the 21st loop is refused.
  CHECK(!syntax_error(check_json(dir, nest(20, "for x in y:"))));
  test::Run loops = check_json(dir, nest(21, "for x in y:"));
  CHECK(loops.exit_code == 1);
  CHECK(has(diagnostics(loops), "TL001", 21, 21, "too many statically nested blocks"));
  test::Run withs = check_json(dir, nest(21, "with x:"));
  CHECK(has(diagnostics(withs), "TL001", 21, 21, "too many statically nested blocks"));
  // A with of two items opens two blocks: 19 loops and it make 21.
  test::Run items = check_json(dir, headers(19, "for x in y:") + std::string(19, ' ') +
                                        "with a, b:\n" + std::string(20, ' ') + "pass\n");
  CHECK(has(diagnostics(items), "TL001", 20, 20, "too many statically nested blocks"));
  // A def starts counting again: 19 loops, a def, 20 loops in it.
  CHECK(!syntax_error(check_json(dir, headers(19, "for x in y:") + std::string(19, ' ') +
                                          "def g():\n" + nest(20, "for x in y:", 20))));
}

TEST_CASE("parser: spans and edits hold offsets past 4 GiB") {
  // A text past 4 GiB wrapped 32-bit offsets (and SourceText's line loop never ended).
  const std::size_t past_4gib = (std::size_t{1} << 32) + 7;
  tracelint::Span span;
  span.begin = past_4gib;
  span.end = past_4gib + 1;
  CHECK(span.begin == past_4gib);
  CHECK(span.end - span.begin == 1);
  tracelint::Edit edit;
  edit.begin = past_4gib;
  CHECK(edit.begin == past_4gib);
}

TEST_CASE("source: code-point columns at the end of a text whose size is a multiple of 4 KB") {
  // fuzz_validator found it (a SARIF region ending at the end of a 20 KB non-ASCII file): the
  // per-block counts had no entry for the block that starts at the text's end, and the column
  // of a span ending there read past them (heap-buffer-overflow under ASan).
  for (std::size_t blocks : {1, 2, 5}) {
    // One line of "é" (2 bytes, 1 code point) filling `blocks` 4 KB blocks exactly.
    std::string text;
    for (std::size_t i = 0; i < blocks * 4096 / 2; ++i)
      text += "\xC3\xA9";
    REQUIRE(text.size() == blocks * 4096);
    tracelint::SourceText source("e.py", text);
    CHECK(source.codepoint_column(1, text.size() + 1) == blocks * 4096 / 2 + 1);
    CHECK(source.codepoint_column(1, text.size() + 3) == blocks * 4096 / 2 + 3);
    CHECK(source.codepoint_column(1, 4097) == 2049);
  }
}

TEST_CASE("parser: an indented line that no block header opens is Python's IndentationError") {
  test::TempDir dir;
  // Before: tree-sitter took line 5 as more of the body and the check passed.
  test::Run run = check_json(dir, "import thunder.torch as ltorch\n\ndef computation(a):\n"
                                  "  t0 = ltorch.exp(a)\n    t1 = ltorch.exp(t0)\n  return t1\n");
  CHECK(run.exit_code == 1);
  CHECK(has(diagnostics(run), "TL001", 5, 1, "unexpected indent"));
}

TEST_CASE("parser: the tracer reads CR-only source as CPython does") {
  test::TempDir dir;
  const std::string seed = "import torch\n\ndef f(a):\n  b = torch.exp(a)\n  return b\n";
  test::write_file(dir.path + "/cr.py", with_endings(seed, "\r"));
  // Before: one line, a syntax error at 1:27.
  test::Run ok = test::tracelint("trace " + q(dir.path + "/cr.py") + " -f f -a 'a=f32[2, 2]@cuda'",
                                 "", "timeout 60");
  CHECK(ok.exit_code == 0);
  CHECK(ok.out.find("ltorch.exp(a)") != std::string::npos);
  // Errors name the line CPython names.
  test::write_file(dir.path + "/bad.py",
                   with_endings("import torch\n\ndef f(a):\n  b = torch.exp(a)\n    c = b\n"
                                "  return b\n",
                                "\r"));
  test::Run bad = test::tracelint(
      "trace " + q(dir.path + "/bad.py") + " -f f -a 'a=f32[2, 2]@cuda'", "", "timeout 60");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("bad.py:5:1: error: syntax error: unexpected indent") != std::string::npos);
}

TEST_CASE("parser: subsymbol comments nest no deeper than the limit") {
  // Printing, analysing and destroying subsymbols recurse once per level: nesting that follows
  // the input's comment columns would let a file overflow the stack.
  std::string text = "def computation(a):\n  t0 = ltorch.exp(a)\n";
  const int levels = 300;
  for (int i = 0; i < levels; ++i)
    text += std::string(static_cast<std::size_t>(4 + i), ' ') + "# t" + std::to_string(i + 1) +
            " = prims.exp(a)\n";
  text += "  return t0\n";
  tracelint::ParsedFile parsed = tracelint::parse_trace_source("t.py", text);
  REQUIRE(parsed.file.traces.size() == 1);
  REQUIRE(!parsed.file.traces[0].body.empty());
  std::size_t depth = 0, count = 0;
  for (const tracelint::Statement *s = &parsed.file.traces[0].body[0]; !s->subsymbols.empty();) {
    ++depth;
    count += s->subsymbols.size();
    s = &s->subsymbols.back();
  }
  CHECK(depth <= 100);
  CHECK(count == static_cast<std::size_t>(levels)); // none lost: the deep ones are siblings
  bool said = false;
  for (const tracelint::ModelProblem &p : parsed.model)
    said = said || p.message.find("nested more than 100 deep") != std::string::npos;
  CHECK(said);
}

TEST_CASE("parser: the tracer refuses brackets nested past 200 levels instead of recursing") {
  test::TempDir dir;
  test::write_file(dir.path + "/deep.py", "import torch\n\ndef f(a):\n  b = torch.exp(" +
                                              std::string(100000, '(') + "a" +
                                              std::string(100000, ')') + ")\n  return b\n");
  // Before: the frontend recursed once per bracket and overflowed the stack (exit 139).
  test::Run run = test::tracelint(
      "trace " + q(dir.path + "/deep.py") + " -f f -a 'a=f32[2, 2]@cuda'", "", "timeout 60");
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("deep.py:4:216: error: syntax error: too many nested parentheses") !=
        std::string::npos);
}

TEST_CASE("parser: comments of a CRLF file end before the \\r") {
  test::TempDir dir;
  const std::string trace = "import thunder.torch as ltorch\n\n# a comment\ndef computation(a):\n"
                            "  # a: \"cuda:0 f32[2]\"\n"
                            "  t0 = ltorch.exp(a)  # t0: \"cuda:0 f32[2]\"\n"
                            "    # t1 = prims.exp(a)\n"
                            "  return t0\n";
  test::write_file(dir.path + "/crlf.py", with_endings(trace, "\r\n"));
  // Before: "# a comment\r" came out of the model, a stray "\r" in "\n"-ended output.
  test::Run print = test::tracelint("print " + q(dir.path + "/crlf.py"), "", "timeout 60");
  CHECK(print.exit_code == 0);
  CHECK(print.out == trace);
}

TEST_CASE("parser: a repr cut by a lone \\r ends at that line's end") {
  test::TempDir dir;
  // A pasted trace wrapped inside a repr: the repr's span stops where its line does.
  test::Run run = check_json(dir, "def computation(a):\r"
                                  "  t0 = ltorch.getitem(a, (..., slice(None, [IntegerProxy "
                                  "name=i10, value=1,\r"
                                  "  static=CONSTRAINT.CONSTRAINABLE], None)))\r"
                                  "  return t0\r");
  nlohmann::json report = nlohmann::json::parse(run.out);
  bool found = false;
  for (const auto &d : report["files"][0]["diagnostics"])
    if (d["code"] == "TL002") {
      found = true;
      CHECK(d["span"]["start"]["line"] == 2);
      CHECK(d["span"]["end"]["line"] == 2);
      CHECK(d["span"]["end"]["column"] == 76);
    }
  CHECK(found);
}
