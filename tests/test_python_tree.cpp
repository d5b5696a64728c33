// The core tree-sitter layer (tracelint/core/python_tree.hpp): string literals decoded as CPython
// decodes them (CPython itself is the oracle), symbol and field ids, child lists.
#include "support.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/python_tree.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <sstream>

namespace {

std::string hex(std::string_view bytes) {
  static const char *digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 0xF];
  }
  return out;
}

// What /usr/bin/python3 makes of each literal: "ok HEX" (the str's UTF-8 bytes or the bytes
// object) or "error".
std::vector<std::string> cpython_values(const std::vector<std::string> &literals) {
  test::TempDir dir;
  std::string script = "import ast, sys, warnings\nwarnings.simplefilter('ignore')\n"
                       "for h in open(sys.argv[1]).read().split():\n"
                       "    lit = bytes.fromhex(h).decode('utf-8')\n"
                       "    try:\n"
                       "        v = ast.literal_eval(lit)\n"
                       "    except (SyntaxError, ValueError):\n"
                       "        print('error'); continue\n"
                       "    b = v if isinstance(v, bytes) else v.encode('utf-8')\n"
                       "    print('ok', b.hex())\n";
  std::string literal_list;
  for (const std::string &l : literals)
    literal_list += hex(l) + "\n";
  test::write_file(dir.path + "/oracle.py", script);
  test::write_file(dir.path + "/literals", literal_list);
  std::string out = dir.path + "/out";
  std::string command = "/usr/bin/python3 '" + dir.path + "/oracle.py' '" + dir.path +
                        "/literals' > '" + out + "' 2>/dev/null";
  REQUIRE(std::system(command.c_str()) == 0);
  std::vector<std::string> values;
  std::istringstream lines(test::read_file(out));
  for (std::string line; std::getline(lines, line);)
    values.push_back(line);
  return values;
}

} // namespace

TEST_CASE("python tree: string literals decode as CPython decodes them") {
  std::vector<std::string> literals = {
      R"('plain')",
      R"("a\rb")",
      R"('\x41\x7f')",
      R"('\xe9')",
      R"('\xff\x80')",
      R"('\x4')",
      R"('\xg0')",
      R"('\u00e9\u20ac')",
      R"('\u12')",
      R"('\U0001F600')",
      R"('\U00110000')",
      R"('\101\0\01\7\777')",
      R"('\8\q\ ')",
      R"('\a\b\f\v\t\n\\\'\"')",
      R"("it's")",
      R"(r'\n\x4\'')",
      R"(R"a\"b")",
      R"(u'\u00e9')",
      R"(b'\xff\x00\101\u1234\N')",
      R"(b'\x4')",
      R"(rb'\xff')",
      "b'\xc3\xa9'",
      "'caf\xc3\xa9'",
      "'''a\r\nb\rc'''",
      "'a\\\r\nb'",
      "\"\"\"x\"y\"\"\"",
      R"('')",
  };
  std::vector<std::string> expected = cpython_values(literals);
  REQUIRE(expected.size() == literals.size());
  for (std::size_t i = 0; i < literals.size(); ++i) {
    CAPTURE(literals[i]);
    tracelint::python::DecodedString got = tracelint::python::decode_string_literal(literals[i]);
    if (expected[i] == "error") {
      REQUIRE_FALSE(got);
      CHECK(got.problem.invalid_python);
    } else {
      REQUIRE(got);
      CHECK("ok " + hex(got.literal->value) == expected[i]);
    }
  }
}

TEST_CASE("python tree: what tracelint's UTF-8 text cannot hold, and f-strings, are errors") {
  using tracelint::python::decode_string_literal;
  // CPython accepts these; tracelint has no Unicode name table and holds text as UTF-8.
  auto named = decode_string_literal(R"('\N{BULLET}')");
  REQUIRE_FALSE(named);
  CHECK(named.problem.message.find("\\N{") != std::string::npos);
  CHECK(named.problem.offset == 1); // the backslash
  CHECK_FALSE(named.problem.invalid_python);
  auto surrogate = decode_string_literal(R"('\ud800')");
  REQUIRE_FALSE(surrogate);
  CHECK_FALSE(surrogate.problem.invalid_python);
  // f-strings: literal braces decode; a replacement field is not a constant.
  auto braces = decode_string_literal("f'a{{b}}'");
  REQUIRE(braces);
  CHECK(braces.literal->formatted);
  CHECK(braces.literal->value == "a{b}");
  auto field = decode_string_literal("f'{x}'");
  REQUIRE_FALSE(field);
  CHECK_FALSE(field.problem.invalid_python);
  auto truncated = decode_string_literal(R"('ab\x4')");
  REQUIRE_FALSE(truncated);
  CHECK(truncated.problem.message == "truncated \\xXX escape");
  CHECK(truncated.problem.offset == 3);
  CHECK(truncated.problem.invalid_python);
}

TEST_CASE("python tree: symbol and field ids name the nodes tree-sitter returns") {
  using namespace tracelint::python;
  const Symbols &s = symbols();
  const Fields &f = fields();
  Parser parser;
  std::string text = "t0 = prims.add(a, b)  # t0\nx[1, 2:3]\n";
  Tree tree = parser.parse(text);
  TSNode root = ts_tree_root_node(tree.get());
  CHECK(is(root, s.module));
  NodeCursor cursor;
  NodeList top = cursor.named_children(root);
  REQUIRE(top.size() == 2); // the comment is left out
  CHECK(cursor.children(root).size() == 3);
  CHECK(is(top[0], s.expression_statement));
  TSNode assignment = cursor.named_children(top[0])[0];
  CHECK(is(assignment, s.assignment));
  TSNode call = field(assignment, f.right);
  CHECK(is(call, s.call));
  CHECK(text_of(field(call, f.function), text) == "prims.add");
  CHECK(is(field(field(call, f.function), f.object), s.identifier));
  NodeList args = cursor.named_children(field(call, f.arguments));
  REQUIRE(args.size() == 2);
  CHECK(text_of(args[1], text) == "b");
  TSNode subscript = cursor.named_children(top[1])[0];
  CHECK(is(subscript, s.subscript));
  NodeList indices = cursor.field_children(subscript, f.subscript);
  REQUIRE(indices.size() == 2);
  CHECK(is(indices[0], s.integer));
  CHECK(is(indices[1], s.slice));
  // More children than NodeList holds inline.
  Tree list = parser.parse("[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n");
  TSNode list_node =
      cursor.named_children(cursor.named_children(ts_tree_root_node(list.get()))[0])[0];
  NodeList items = cursor.named_children(list_node);
  REQUIRE(items.size() == 11);
  CHECK(is(items[10], s.integer));
  int visited = 0;
  cursor.walk(ts_tree_root_node(list.get()), [&](TSNode n) {
    visited += is(n, s.integer);
    return true;
  });
  CHECK(visited == 11);
}

TEST_CASE("python tree: the trace parser reads escapes as CPython does") {
  tracelint::ParsedFile parsed = tracelint::parse_trace_source(
      "<t>", "def f(a):\n  t0 = g(a, '\\xe9\\r', '\\101')\n  t1 = g(a, '\\x4')\n  return t0\n");
  REQUIRE(parsed.file.traces.size() == 1);
  const auto &body = parsed.file.traces[0].body;
  REQUIRE(body.size() == 3);
  REQUIRE(body[0].kind == tracelint::Statement::Kind::BoundSymbol);
  CHECK(body[0].value.arg(1).text == "\xc3\xa9\r");
  CHECK(body[0].value.arg(2).text == "A");
  // A truncated \x escape is a syntax error to CPython, reported as one, at its backslash.
  CHECK(body[1].kind == tracelint::Statement::Kind::Raw);
  REQUIRE(parsed.syntax.size() == 1);
  CHECK(parsed.syntax[0].message == "invalid string literal: truncated \\xXX escape");
  CHECK(parsed.syntax[0].span.line == 3);
  CHECK(parsed.syntax[0].span.column == 14);
}
