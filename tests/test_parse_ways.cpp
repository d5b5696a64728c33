// The trace parser reads subsymbol comments in the same tree-sitter parse as the code around
// them, and falls back to parsing them in a batch of their own where that tree has a syntax
// error; it finds comments only where they can be and takes spans from tree-sitter's points. The
// batch way, with comments looked for below every node and spans from the file's line index, is
// the reference: both must give the same ParsedFile, spans included.
#include "support.hpp"

#include "tracelint/core/parse_options.hpp"
#include "tracelint/core/parser.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <sstream>

namespace {

using namespace tracelint;

void dump_span(std::ostream &out, const char *what, const Span &s) {
  out << ' ' << what << '[' << s.begin << ',' << s.end << ' ' << s.line << ':' << s.column << '-'
      << s.end_line << ':' << s.end_column << ']';
}

void dump_value(std::ostream &out, const Value &v) {
  out << '(' << static_cast<int>(v.kind) << ' ' << v.text;
  dump_span(out, "v", v.span);
  for (const Value &item : v.items)
    dump_value(out, item);
  out << ')';
}

void dump_target(std::ostream &out, const Target &t) {
  out << '<' << t.name;
  dump_span(out, "t", t.span);
  for (const Target &e : t.elements)
    dump_target(out, e);
  out << '>';
}

void dump_statement(std::ostream &out, const Statement &s, int depth) {
  out << std::string(static_cast<std::size_t>(depth) * 2, ' ') << static_cast<int>(s.kind)
      << (s.commented ? " # " : " ") << s.text << '|' << s.trailing_comment;
  dump_span(out, "s", s.span);
  if (s.target) dump_target(out, *s.target);
  dump_value(out, s.value);
  if (s.type_comment) {
    out << " tc " << s.type_comment->name;
    dump_span(out, "n", s.type_comment->name_span);
    if (s.type_comment->type) dump_span(out, "ty", s.type_comment->type->span);
  }
  if (s.annotation) dump_span(out, "a", s.annotation->span);
  dump_span(out, "an", s.annotated_name_span);
  for (const Target &d : s.deleted)
    dump_target(out, d);
  out << '\n';
  for (const Statement &sub : s.subsymbols)
    dump_statement(out, sub, depth + 1);
}

// Everything parse_trace_source found, with every span.
std::string dump(const ParsedFile &p) {
  std::ostringstream out;
  for (const Trace &t : p.file.traces) {
    out << "trace " << static_cast<int>(t.kind) << ' ' << t.name << ' ' << t.preamble.size();
    dump_span(out, "def", t.def_span);
    out << '\n';
    for (const PreambleItem &item : t.preamble) {
      out << "  pre " << static_cast<int>(item.kind) << ' ' << item.comment;
      dump_span(out, "p", item.span);
      out << '\n';
    }
    for (const Value &d : t.decorators)
      dump_value(out, d);
    for (const Statement &s : t.body)
      dump_statement(out, s, 1);
  }
  for (const PreambleItem &item : p.file.trailer) {
    out << "trailer " << static_cast<int>(item.kind) << ' ' << item.comment;
    dump_span(out, "p", item.span);
    out << '\n';
  }
  for (const Statement &s : p.orphan_subsymbols)
    dump_statement(out, s, 0);
  for (const ReprLeak &l : p.leaks) {
    out << "leak " << l.name;
    dump_span(out, "l", l.span);
    out << '\n';
  }
  for (const SyntaxProblem &s : p.syntax) {
    out << "syntax " << s.message;
    dump_span(out, "e", s.span);
    out << '\n';
  }
  for (const ModelProblem &m : p.model) {
    out << "model " << m.message << ' ' << m.unchecked;
    dump_span(out, "m", m.span);
    out << '\n';
  }
  return out.str();
}

void check_both_ways(const std::string &name, const std::string &text) {
  CAPTURE(name);
  detail::ParseOptions batch;
  batch.subsymbols_in_code_parse = false;
  batch.comments_below_every_node = true;
  batch.spans_from_line_index = true;
  for (unsigned threads : {1u, 2u}) {
    ParsedFile fast = detail::parse_trace_source(name, text, threads, nullptr, {});
    ParsedFile reference = detail::parse_trace_source(name, text, threads, nullptr, batch);
    CHECK(fast.file == reference.file);
    std::string a = dump(fast), b = dump(reference);
    if (a != b) {
      // The first differing line, readably.
      std::istringstream x(a), y(b);
      std::string lx, ly;
      while (std::getline(x, lx) && std::getline(y, ly) && lx == ly) {
      }
      CAPTURE(lx);
      CAPTURE(ly);
      CHECK(a == b);
    }
  }
}

const char *kCases[] = {
    // Subsymbols after body statements, nested two deep, with trailing type comments.
    "import thunder.torch as ltorch\n\ndef computation(x):\n  # x: \"cpu f32[2]\"\n"
    "  t0 = ltorch.add(x, x)  # t0: \"cpu f32[2]\"\n"
    "    # t0 = prims.add(x, x)  # t0: \"cpu f32[2]\"\n"
    "      # t0 = prims.deep(x)\n"
    "    # not a statement, just words\n"
    "    #t1=prims.tight(x)\n"
    "  # t9 = prims.body_level(x)\n"
    "  return t0\n",
    // After a decorator, a def line, a block opener, inside an if block, after a one-line def.
    "@torch.no_grad()\n    # t0 = prims.after_decorator(x)\ndef f(x):\n    # t1 = "
    "prims.after_def(x)\n"
    "  if x:\n    # t2 = prims.after_if(x)\n    y = g(x)\n      # t3 = prims.in_if(y)\n"
    "  else:\n    y = h(x)\n  z = k(y)\n    # t4 = prims.after_block(y)\n  return z\n"
    "def g(): return 1\n  # t5 = prims.after_one_line_def()\n",
    // Module-level statements with deeper comments: orphan subsymbols and fragments.
    "import torch\n    # t0 = prims.orphan(x)\nt1 = f(x)\n  # t1 = prims.sub(x)\n"
    "# t2 = prims.column_zero(x)\n",
    // Tabs, CRLF, trailing spaces, a comment after the last line without a newline.
    "def f(x):\r\n\tt0 = g(x)  # t0: \"cpu f32[2]\"  \r\n\t  # t0 = prims.g(x)  # t0   \r\n"
    "\t\t# t1 = prims.tab(x)\r\n\treturn t0\r\n  # t2 = prims.last(x)",
    // A repr leak inside a subsymbol comment, and one in code.
    "def f(x):\n  t0 = g(x)\n    # t0 = prims.g([IntegerProxy name=i0, value=1], x)\n"
    "  t1 = h([IntegerProxy name=i1, value=2])\n    # t1 = prims.h(t0)\n  return t1\n",
    // Comments that look like statements but are not valid Python.
    "def f(x):\n  t0 = g(x)\n    # t0 = prims.g(x) x\n    # t1 = (a, b = c\n    # t2 = lambda(x)\n"
    "    # t3 = prims.ok(x)\n    # print(x)\n    # t4 = x if y else z\n  return t0\n",
    // A syntax error in code: the fallback.
    "def f(x):\n  t0 = g(x\n    # t0 = prims.g(x)\n  t1 = h(x)\n    # t1 = prims.h(x)\n  return "
    "t1\n",
    // Keywords and soft keywords in comments; continuation lines; brackets across lines.
    "def f(x):\n  t0 = g(x,\n         y)\n    # t0 = prims.g(x)\n  t1 = h(x) \\\n    + 1\n"
    "    # match(x)\n    # type t = prims.alias(x)\n    # t2 = print(x)\n  del t0\n"
    "    # t3 = prims.after_del(x)\n  return t1\n    # t4 = prims.after_return(x)\n",
    // A nested def and a class, comments after their statements.
    "def f(x):\n  def inner(y):\n    return y\n      # t0 = prims.in_inner(y)\n  t1 = inner(x)\n"
    "    # t1 = prims.after_inner(x)\n  return t1\nclass A:\n  x = 1\n    # t2 = "
    "prims.in_class(x)\n",
    // An indented fragment (wrapped in a def by the parser) and "# No signature available".
    "  t0 = g(x)\n    # t0 = prims.g(x)\n  t1 = h(t0)\n    # t1 = prims.h(t0)\n",
    "# No signature available\n  t0 = g(x)\n    # t0 = prims.g(x)\n  return t0\n",
    // A byte-order mark (the parser drops it), lone "\r" line ends (read as newlines).
    "\xEF\xBB\xBF"
    "def f(x):\n  t0 = g(x)  # t0: \"cpu\"\n    # t0 = prims.g(x)  # t0\n  return t0\n",
    "def f(x):\r  t0 = g(x)  # t0: \"cpu\"\r    # t0 = prims.g(x)\r  return t0\r",
    // Unicode in a subsymbol comment.
    "def f(x):\n  t0 = g(x, 'é')\n    # t0 = prims.g(x, 'é\\xe9')  # t0: \"cpu f32[2]\"\n  return "
    "t0\n",
};

} // namespace

TEST_CASE("parse ways: subsymbols read with the code or in a batch give the same model") {
  int i = 0;
  for (const char *text : kCases)
    check_both_ways("case" + std::to_string(i++), text);
}

TEST_CASE("parse ways: the same model on the fixtures, examples and real traces") {
  std::vector<std::string> dirs = {std::string(TRACELINT_SOURCE_DIR) + "/rules/fixtures",
                                   std::string(TRACELINT_SOURCE_DIR) + "/examples"};
  for (const char *sub : {"thunder/real", "thunder/bad", "nvfuser"}) {
    if (std::optional<std::string> dir = test::shared_corpus(sub)) dirs.push_back(*dir);
  }
  std::size_t files = 0;
  for (const std::string &dir : dirs)
    for (const std::string &path : test::python_files(dir)) {
      check_both_ways(path, test::read_file(path));
      ++files;
    }
  CHECK(files > 20);
}

TEST_CASE("parse ways: the same model on randomly edited chunked traces, syntax errors included") {
  std::vector<std::string> lines = {"import thunder.torch as ltorch", "",
                                    "def computation(x):", "  # x: \"cpu f32[2]\""};
  const int statements = 1500;
  for (int i = 0; i < statements; ++i) {
    std::string t = "t" + std::to_string(i), in = i ? "t" + std::to_string(i - 1) : "x";
    lines.push_back("  " + t + " = ltorch.mul(" + in + ", x)  # " + t + ": \"cpu f32[2]\"");
    lines.push_back("    # " + t + "_b = prims.broadcast(" + in + ")  # " + t + "_b: \"cpu\"");
    lines.push_back("    # " + t + " = prims.mul(" + in + ", x)  # " + t + ": \"cpu f32[2]\"");
  }
  lines.push_back("  return t" + std::to_string(statements - 1));
  const std::vector<std::string> extras = {"  if x:",
                                           "    y = 1",
                                           "      # t = prims.z(y)",
                                           "  (",
                                           "  # words",
                                           "",
                                           "  del t1",
                                           "    # t0 = prims.bad(",
                                           "@decorator",
                                           "  x: int = 1",
                                           "      # deeper = f(x)",
                                           "\t# tab"};
  std::mt19937 random(20261203);
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(random);
  };
  for (int round = 0; round < 8; ++round) {
    std::vector<std::string> edited = lines;
    for (int e = 0; e < 30; ++e) {
      std::size_t at = 4 + pick(edited.size() - 5);
      switch (pick(4)) {
      case 0:
        edited.erase(edited.begin() + static_cast<long>(at));
        break;
      case 1:
        std::swap(edited[at], edited[4 + pick(edited.size() - 5)]);
        break;
      default:
        // Syntax errors only in half of the rounds, so that most chunks take the fast way.
        std::string extra = extras[pick(extras.size())];
        if (round % 2 == 0 && (extra == "  (" || extra == "  if x:" || extra == "@decorator"))
          extra = "  # " + extra;
        edited.insert(edited.begin() + static_cast<long>(at), extra);
      }
    }
    std::string text;
    for (const std::string &l : edited)
      text += l + "\n";
    check_both_ways("round" + std::to_string(round), text);
  }
}
