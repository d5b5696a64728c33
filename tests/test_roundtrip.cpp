// Property test: random traces built through the model API print, parse back to the same
// model, and print again to the same text.
#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"

#include "trace_generator.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <random>

using namespace tracelint;

TEST_CASE("property: parse(print(t)) == t and print(parse(s)) == s for generated traces") {
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    test::TraceGenerator gen(seed);
    Trace trace = gen.trace();
    std::string printed = print_trace(trace);
    Result<TraceFile> parsed = parse_trace(printed);
    REQUIRE_MESSAGE(parsed.ok(), "seed " << seed << ": " << parsed.error().line << ":"
                                         << parsed.error().column << " " << parsed.error().message
                                         << "\n"
                                         << printed);
    REQUIRE(parsed->traces.size() == 1);
    CHECK_MESSAGE(parsed->traces[0] == trace, "seed " << seed << "\n"
                                                      << printed << "\nreprinted:\n"
                                                      << print_trace(parsed->traces[0]));
    CHECK_MESSAGE(print_trace_file(*parsed) == printed, "seed " << seed);
  }
}

TEST_CASE("a trace file holding a prologue and a computation round-trips") {
  std::string text =
      "import torch\n\ndef prologue(*args, **kwargs):\n  # args: \"Any\"\n"
      "  x: \"cpu f32[3]\" = args[0]\n  return (x,)\n\n"
      "def computation(x):\n  # x: \"cpu f32[3]\"\n  t0 = torch.exp(x)  # t0: \"cpu f32[3]\"\n"
      "  return t0\n";
  Result<TraceFile> f = parse_trace(text);
  REQUIRE(f.ok());
  CHECK(f->traces.size() == 2);
  CHECK(print_trace_file(*f) == text);
}

TEST_CASE("a docstring's lines that look like subsymbol comments stay docstring text") {
  // Own-line comments reach tree-sitter as blank text, also in a file with triple-quoted
  // strings: a line inside one is string text, whatever it starts with.
  std::string text = "\"\"\"Traces.\n# t7 = prims.mul(a, b)\n\"\"\"\nimport thunder.torch as "
                     "ltorch\nimport thunder.core.prims as prims\n\n"
                     "def computation(a, b):\n  '''Adds.\n  # t9 = prims.mul(a, b)\n  '''\n"
                     "  t0 = ltorch.add(a, b)\n    # t0 = prims.add(a, b)\n  return t0\n";
  Result<TraceFile> f = parse_trace(text);
  REQUIRE(f.ok());
  auto computation = std::find_if(f->traces.begin(), f->traces.end(),
                                  [](const Trace &t) { return t.name == "computation"; });
  REQUIRE(computation != f->traces.end());
  std::size_t subsymbols = 0;
  for (const Statement &s : computation->body) {
    subsymbols += s.subsymbols.size();
    for (const Statement &sub : s.subsymbols)
      CHECK(sub.target->name == "t0");
  }
  CHECK(subsymbols == 1);
  // The docstrings print as string literals of the same text (not in their triple quotes).
  std::string printed = print_trace_file(*f);
  CHECK(printed.find("'Adds.\\n  # t9 = prims.mul(a, b)\\n  '") != std::string::npos);
  Result<TraceFile> again = parse_trace(printed);
  REQUIRE(again.ok());
  CHECK(print_trace_file(*again) == printed);
}

TEST_CASE("a large first trace is parsed in chunks and the blank line after it stays the next "
          "trace's") {
  // A prologue of a model with many inputs is the first body past the chunk size; its last
  // chunk took the blank line before `def computation` with it, and print(parse(s)) lost it.
  std::string prologue = "import torch\n\ndef prologue(*args, **kwargs):\n";
  for (int i = 0; i < 3000; ++i)
    prologue += "  a" + std::to_string(i) + ": \"cpu f32[3]\" = args[" + std::to_string(i) + "]\n";
  prologue += "  return (a0,)\n";
  std::string computation = "def computation(a0):\n  t0 = torch.exp(a0)\n  return t0\n";
  for (std::string gap : {"\n", "\n\n", "\n# between the traces\n\n"}) {
    std::string text = prologue + gap + computation;
    for (unsigned threads : {1u, 2u}) {
      ParsedFile chunked = parse_trace_source("p.py", text, threads);
      CHECK(chunked.syntax.empty());
      REQUIRE(chunked.file.traces.size() == 2);
      CHECK(print_trace_file(chunked.file) == text);
      Result<TraceFile> whole = parse_trace(text);
      REQUIRE(whole.ok());
      CHECK(chunked.file.traces[1].preamble == whole->traces[1].preamble);
      CHECK(chunked.file.traces[1].preamble.size() ==
            static_cast<std::size_t>(std::count(gap.begin(), gap.end(), '\n')));
    }
  }
}

TEST_CASE("a large trace is parsed in statement chunks to the same model, spans intact") {
  Trace trace;
  trace.name = "computation";
  trace.parameters = {Parameter{"x", ParamKind::Positional, {}, {}}};
  trace.body.push_back(Statement::annotation_comment("x", "cuda:0 f32[4, 4096]"));
  std::string previous = "x";
  for (int i = 0; i < 12000; ++i) {
    std::string out = "t" + std::to_string(i);
    Statement s = Statement::bound(
        Target::named(out), Value::call("ltorch.add", {Value::name(previous), Value::name("x")},
                                        {{"alpha", Value::none()}}));
    s.type_comment = TypeComment{out, TypeText{"cuda:0 f32[4, 4096]", {}}, {}};
    Statement sub = Statement::bound(
        Target::named(out), Value::call("prims.add", {Value::name(previous), Value::name("x")}));
    sub.commented = true;
    s.subsymbols.push_back(sub);
    trace.body.push_back(s);
    if (i % 7 == 6)
      trace.body.push_back(Statement::del({previous}));
    else if (i % 97 == 0)
      trace.body.push_back(Statement::comment("# /tmp/model.py:12: \treturn x + y"));
    previous = out;
  }
  trace.body.push_back(Statement::ret(Value::name(previous)));
  std::string text = print_trace(trace);
  REQUIRE(text.size() > 1024 * 1024);
  for (unsigned threads : {1u, 3u}) {
    ParsedFile parsed = parse_trace_source("big.py", text, threads);
    CHECK(parsed.syntax.empty());
    CHECK(parsed.model.empty());
    REQUIRE(parsed.file.traces.size() == 1);
    CHECK(parsed.file.traces[0].body.size() == trace.body.size());
    CHECK(parsed.file.traces[0] == trace);
    CHECK(print_trace_file(parsed.file) == text);
    // Spans of statements far into the file point at their own lines.
    const Statement &last = parsed.file.traces[0].body.back();
    CHECK(last.span.line == SourceText("", text).line_count() - 1);
    CHECK(text.compare(last.span.begin, 6, "return") == 0);
  }
  // Printed in parts on several threads, the body is the same text.
  TraceFile file;
  file.traces.push_back(trace);
  for (unsigned threads : {2u, 3u, 5u})
    CHECK(print_trace_file(file, threads) == text);
}
