// The dialects: torch.fx / AOT graph code that PyTorch prints at test time, nvFuser's printed
// definitions and repros (../shared/corpus/nvfuser), detection and its overrides.
#include "support.hpp"

#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/rules/dialect.hpp"
#include "tracelint/validator/config.hpp"
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

using namespace tracelint;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

std::string joined(const std::vector<std::string> &lines) {
  std::string out;
  for (const std::string &l : lines)
    out += l + "\n";
  return out;
}

std::string describe(const FileReport &r) {
  std::string out;
  for (const Diagnostic &d : r.diagnostics)
    out += "\n  " + std::to_string(d.span.line) + ":" + std::to_string(d.span.column) + " " +
           d.code + " " + d.message;
  return out;
}

std::size_t errors(const FileReport &r) {
  return static_cast<std::size_t>(
      std::count_if(r.diagnostics.begin(), r.diagnostics.end(),
                    [](const Diagnostic &d) { return d.severity == Severity::Error; }));
}

// Graph code that PyTorch prints (tests/dialects/generate_fx.py), written under dir: its files,
// or nullopt when /usr/bin/python3 cannot import torch (the test then says it skips).
// readable: what GraphModule.print_readable prints (generate_fx.py --readable).
std::optional<std::vector<std::string>> generate_fx_code(const test::TempDir &dir,
                                                         bool readable = false) {
  struct {
    const test::TempDir &dir;
  } out{dir};
  std::string script = std::string(TRACELINT_SOURCE_DIR) + "/tests/dialects/generate_fx.py";
  std::string command = "/usr/bin/python3 " + test::shell_quote(script) + " " +
                        test::shell_quote(out.dir.path + "/code") +
                        (readable ? " --readable" : "") + " 2>" +
                        test::shell_quote(out.dir.path + "/stderr");
  int status = std::system(command.c_str());
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 77 || code == 127 || !fs::exists("/usr/bin/python3")) {
    test::skip_test("/usr/bin/python3 cannot import torch (Debian's python3-torch): " +
                    (fs::exists(out.dir.path + "/stderr")
                         ? test::read_file(out.dir.path + "/stderr")
                         : std::string("no python3")));
    return std::nullopt;
  }
  REQUIRE_MESSAGE(code == 0,
                  "generate_fx.py failed: " << test::read_file(out.dir.path + "/stderr"));
  std::vector<std::string> files = test::python_files(out.dir.path + "/code");
  std::sort(files.begin(), files.end());
  return files;
}

FileReport check_text(const std::string &name, const std::string &text) {
  return check_source(name, text, Options{});
}

} // namespace

TEST_CASE("dialects: detected from what each printer writes") {
  CHECK(detect_dialect("def forward(self, x):\n    relu = torch.relu(x);  x = None\n"
                       "    return relu\n") == Dialect::Fx);
  CHECK(detect_dialect("def forward(self, primals_1):\n"
                       "    mm = torch.ops.aten.mm.default(primals_1, primals_1)\n") ==
        Dialect::Fx);
  CHECK(detect_dialect("def nvfuser_fusion_id0(fd : FusionDefinition) -> None :\n"
                       "    T0 = fd.define_tensor(shape=[4])\n") == Dialect::Nvfuser);
  CHECK(detect_dialect("ExportedProgram:\n    class GraphModule(torch.nn.Module):\n") ==
        Dialect::Export);
  CHECK(detect_dialect("@torch.no_grad()\ndef computation(a):\n  t0 = ltorch.exp(a)\n"
                       "  return t0\n") == Dialect::Thunder);
  for (const std::string &name : dialect_names())
    CHECK(dialect_name(*parse_dialect(name)) == name);
  CHECK(parse_dialect("FX") == Dialect::Fx);
  CHECK(!parse_dialect("jax"));
}

TEST_CASE("dialects: fx frees by rebinding to None, a later read is TL005, a rebinding no TL004") {
  std::string fx = "def forward(self, x, y):\n"
                   "    abs_1 = torch.abs(x);  x = None\n"
                   "    add = abs_1 + 1;  abs_1 = None\n"
                   "    mul = add * y;  add = y = None\n"
                   "    return mul\n";
  FileReport clean = check_text("fx.py", fx);
  CHECK_MESSAGE(clean.diagnostics.empty(), describe(clean));
  // The same text read as Thunder's: every free is a second assignment.
  Options thunder;
  thunder.dialect = Dialect::Thunder;
  FileReport as_thunder = check_source("fx.py", fx, thunder);
  CHECK(std::count_if(as_thunder.diagnostics.begin(), as_thunder.diagnostics.end(),
                      [](const Diagnostic &d) { return d.code == "TL004"; }) >= 3);
  // A read after the free, in a modelled call and in an operator expression.
  for (const char *read : {"    late = torch.relu(abs_1)\n", "    late = abs_1 * 2\n"}) {
    std::string mutated = fx;
    mutated.insert(mutated.find("    mul = "), read);
    FileReport r = check_text("fx.py", mutated);
    REQUIRE_MESSAGE(r.diagnostics.size() == 1, describe(r));
    CHECK(r.diagnostics[0].code == "TL005");
    CHECK(r.diagnostics[0].span.line == 4);
    CHECK(r.diagnostics[0].message.find("`abs_1 = None`") != std::string::npos);
  }
}

TEST_CASE("dialects: annotation-only declarations, typed and Sym parameters, __future__") {
  std::string fx = "from __future__ import annotations\n"
                   "def forward(self, s0: \"Sym(s0)\", primals_1: \"f32[s0]\"):\n"
                   "    primals_2: \"f32[10]\"\n"
                   "    primals_2 = torch.ops.aten.mm.default(primals_1, primals_1)\n"
                   "    fused = self.fused_1(primals_2, s0);  primals_2 = None\n"
                   "    getitem = fused[0];  fused = None\n"
                   "    return (getitem,)\n";
  FileReport r = check_text("fx.py", fx);
  CHECK_MESSAGE(r.diagnostics.empty(), describe(r));
  // An annotation binds nothing: reading the name it declares is undefined.
  std::string declared_only = "def forward(self, x):\n    y: \"f32[4]\"\n"
                              "    z = torch.relu(y);  x = None\n    return z\n";
  FileReport u = check_text("fx.py", declared_only);
  REQUIRE_MESSAGE(u.diagnostics.size() == 1, describe(u));
  CHECK(u.diagnostics[0].code == "TL003");
  CHECK(u.diagnostics[0].span.line == 3);
}

TEST_CASE("dialects: torch.fx and AOT graph code printed by PyTorch checks with no errors") {
  test::TempDir dir;
  std::optional<std::vector<std::string>> generated = generate_fx_code(dir);
  if (!generated) return;
  REQUIRE(generated->size() >= 3 * 12);
  std::size_t warnings = 0, fx = 0, aot = 0;
  for (const std::string &path : *generated) {
    std::string name = fs::path(path).filename().string();
    std::string text = test::read_file(path);
    REQUIRE_MESSAGE(text.find("def forward(self") != std::string::npos, name);
    CHECK_MESSAGE(detect_dialect(text) == Dialect::Fx, name);
    FileReport r = check_text(name, text);
    CHECK_MESSAGE(errors(r) == 0, name << describe(r) << "\n" << text);
    warnings += r.diagnostics.size() - errors(r);
    fx += name.rfind("fx_", 0) == 0;
    aot += name.rfind("aot_", 0) == 0;
  }
  MESSAGE(generated->size() << " files (" << fx << " fx, " << aot << " AOT), " << warnings
                            << " warnings");
  CHECK(fx >= 12);
  CHECK(aot >= 24);
  CHECK(warnings == 0);
}

TEST_CASE("dialects: mutated fx/AOT code gets the right code on the right line") {
  test::TempDir dir;
  std::optional<std::vector<std::string>> generated = generate_fx_code(dir);
  if (!generated) return;
  const std::regex frees(R"(^(\s+)(\w+) = .*;  (\w+) = None$)");
  const std::regex defines(R"(^\s+(\w+) = ([^;]*)(;.*)?$)");
  std::size_t read_after_free = 0, deleted_definition = 0;
  for (const std::string &path : *generated) {
    std::string name = fs::path(path).filename().string();
    std::vector<std::string> lines = lines_of(test::read_file(path));
    // A read after `x = None`: TL005 on the inserted line, at the name.
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, frees)) continue;
      std::string freed = m[3];
      std::vector<std::string> mutated = lines;
      mutated.insert(mutated.begin() + static_cast<long>(i) + 1,
                     m[1].str() + "late_read = torch.relu(" + freed + ")");
      FileReport r = check_text(name, joined(mutated));
      REQUIRE_MESSAGE(r.diagnostics.size() == 1, name << " + read of " << freed << describe(r));
      CHECK(r.diagnostics[0].code == "TL005");
      CHECK(r.diagnostics[0].span.line == i + 2);
      CHECK(r.diagnostics[0].span.column == m[1].length() + 24);
      ++read_after_free;
      break;
    }
    // A definition deleted: TL003 at the first line that reads it.
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, defines) || m[2].str() == "None") continue;
      std::string defined = m[1];
      const std::regex reads("(^|[^.\\w])" + defined + "\\b");
      std::size_t use = 0;
      for (std::size_t j = i + 1; j < lines.size() && !use; ++j) {
        std::string before_frees = lines[j].substr(0, lines[j].find(";  "));
        std::size_t eq = before_frees.find(" = ");
        std::string value = eq == std::string::npos ? before_frees : before_frees.substr(eq + 3);
        if (std::regex_search(value, reads)) use = j + 1;
      }
      if (!use) continue;
      std::vector<std::string> mutated = lines;
      mutated[i] = "";
      FileReport r = check_text(name, joined(mutated));
      REQUIRE_MESSAGE(!r.diagnostics.empty(), name << " without " << defined);
      CHECK_MESSAGE(r.diagnostics[0].code == "TL003", name << describe(r));
      CHECK_MESSAGE(r.diagnostics[0].span.line == use, name << describe(r));
      CHECK(r.diagnostics[0].message.find("`" + defined + "`") != std::string::npos);
      ++deleted_definition;
      break;
    }
  }
  // A statement after the return: TL017 there; the return dedented to module level: TL001.
  std::size_t after_return = 0;
  for (const std::string &path : *generated) {
    std::string name = fs::path(path).filename().string();
    std::vector<std::string> lines = lines_of(test::read_file(path));
    auto ret = std::find_if(lines.begin(), lines.end(),
                            [](const std::string &l) { return l.rfind("    return ", 0) == 0; });
    REQUIRE(ret != lines.end());
    std::size_t line = static_cast<std::size_t>(ret - lines.begin()) + 1;
    std::vector<std::string> mutated = lines;
    mutated.insert(mutated.begin() + static_cast<long>(line), "    dead = torch.relu(self)");
    FileReport r = check_text(name, joined(mutated));
    REQUIRE_MESSAGE(r.diagnostics.size() == 1, name << describe(r));
    CHECK(r.diagnostics[0].code == "TL017");
    CHECK(r.diagnostics[0].span.line == line + 1);
    mutated = lines;
    mutated[line - 1] = mutated[line - 1].substr(4);
    FileReport dedented = check_text(name, joined(mutated));
    bool outside = std::any_of(dedented.diagnostics.begin(), dedented.diagnostics.end(),
                               [&](const Diagnostic &d) {
                                 return d.code == "TL001" && d.span.line == line &&
                                        d.message == "SyntaxError: 'return' outside function";
                               });
    CHECK_MESSAGE(outside, name << describe(dedented));
    ++after_return;
  }
  MESSAGE(read_after_free << " reads after a free, " << deleted_definition
                          << " deleted definitions, " << after_return
                          << " statements after return");
  CHECK(read_after_free >= 12);
  CHECK(deleted_definition >= 24);
}

TEST_CASE("dialects: print_readable's classes are read: their methods check with no findings, "
          "and defects in them are found") {
  test::TempDir dir;
  std::optional<std::vector<std::string>> generated = generate_fx_code(dir, true);
  if (!generated) return;
  REQUIRE(generated->size() >= 14);
  const std::regex frees(R"(^(\s+)(\w+) = .*;  (\w+) = None$)");
  std::size_t methods = 0, nested = 0;
  for (const std::string &path : *generated) {
    std::string name = fs::path(path).filename().string();
    std::string text = test::read_file(path);
    REQUIRE_MESSAGE(text.rfind("class ", 0) == 0, name);
    CHECK_MESSAGE(detect_dialect(text) == Dialect::Fx, name);
    FileReport r = check_text(name, text);
    CHECK_MESSAGE(r.diagnostics.empty(), name << describe(r) << "\n" << text);
    ParsedFile parsed = parse_trace_source(name, text);
    for (const Trace &t : parsed.file.traces) {
      CHECK_MESSAGE(t.kind == Trace::Kind::Function, name);
      CHECK_MESSAGE(t.name == "forward", name);
      REQUIRE_MESSAGE(!t.classes.empty(), name);
      CHECK(t.classes[0].bases.size() == 1);
      nested += t.classes.size() > 1;
      ++methods;
    }
    // The model prints back to what parses to it (the class lines included; fx's operators are
    // valid Python the model holds as written, so not parse_trace's canonical text).
    std::string printed = print_trace_file(parsed.file);
    ParsedFile again = parse_trace_source(name, printed);
    CHECK_MESSAGE(again.syntax.empty(), name << "\n" << printed);
    CHECK_MESSAGE(again.file == parsed.file, name << "\n" << printed);

    std::vector<std::string> lines = lines_of(text);
    // A read after `x = None` in the last method: TL005 on that line.
    for (std::size_t i = lines.size(); i-- > 0;) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, frees)) continue;
      std::vector<std::string> mutated = lines;
      mutated.insert(mutated.begin() + static_cast<long>(i) + 1,
                     m[1].str() + "late_read = torch.relu(" + m[3].str() + ")");
      FileReport late = check_text(name, joined(mutated));
      REQUIRE_MESSAGE(late.diagnostics.size() == 1, name << describe(late));
      CHECK(late.diagnostics[0].code == "TL005");
      CHECK(late.diagnostics[0].span.line == i + 2);
      break;
    }
    // An undefined name in the first method, and a statement after its return.
    auto ret = std::find_if(lines.begin(), lines.end(), [](const std::string &l) {
      return l.find_first_not_of(' ') == 8 && l.rfind("        return ", 0) == 0;
    });
    REQUIRE_MESSAGE(ret != lines.end(), name);
    std::size_t line = static_cast<std::size_t>(ret - lines.begin()) + 1;
    std::vector<std::string> mutated = lines;
    mutated.insert(mutated.begin() + static_cast<long>(line) - 1,
                   "        unknown_read = torch.relu(never_bound)");
    FileReport undefined = check_text(name, joined(mutated));
    REQUIRE_MESSAGE(undefined.diagnostics.size() == 1, name << describe(undefined));
    CHECK(undefined.diagnostics[0].code == "TL003");
    CHECK(undefined.diagnostics[0].span.line == line);
    mutated = lines;
    mutated.insert(mutated.begin() + static_cast<long>(line), "        dead = torch.relu(self)");
    FileReport dead = check_text(name, joined(mutated));
    REQUIRE_MESSAGE(dead.diagnostics.size() == 1, name << describe(dead));
    CHECK(dead.diagnostics[0].code == "TL017");
    CHECK(dead.diagnostics[0].span.line == line + 1);
  }
  MESSAGE(generated->size() << " files, " << methods << " methods, " << nested
                            << " in nested classes");
  CHECK(nested >= 3);
}

// torch.export's print(exported_program), as torch 2.1-2.4 print it and as torch 2.5 prints the
// signature (Debian's torch 1.13 has no torch.export to print one at test time).
const char *const kExportPrintout =
    "ExportedProgram:\n"
    "    class GraphModule(torch.nn.Module):\n"
    "        def forward(self, x: \"f32[3, 4]\", y: \"f32[3, 4]\"):\n"
    "             # File: /tmp/m.py:5 in forward, code: return x.sin() + y\n"
    "            sin: \"f32[3, 4]\" = torch.ops.aten.sin.default(x);  x = None\n"
    "            add: \"f32[3, 4]\" = torch.ops.aten.add.Tensor(sin, y);  sin = y = None\n"
    "            return (add,)\n"
    "            \n"
    "Graph signature: ExportGraphSignature(input_specs=[InputSpec(kind=<InputKind.USER_INPUT: "
    "1>, arg=TensorArgument(name='x'), target=None, persistent=None)], output_specs=[])\n"
    "Range constraints: {}\n";
const char *const kExportPrintout25 =
    "ExportedProgram:\n"
    "    class GraphModule(torch.nn.Module):\n"
    "        def forward(self, x: \"f32[3]\"):\n"
    "            cos: \"f32[3]\" = torch.ops.aten.cos.default(x);  "
    "x = None\n"
    "            return (cos,)\n"
    "            \n"
    "Graph signature: \n"
    "    # inputs\n"
    "    x: USER_INPUT\n"
    "    \n"
    "    # outputs\n"
    "    cos: USER_OUTPUT\n"
    "    \n"
    "Range constraints: {}\n";

TEST_CASE("dialects: torch.export's printout: its graph module is checked, its framing is not "
          "Python") {
  for (const char *printout : {kExportPrintout, kExportPrintout25}) {
    std::string text = printout;
    CHECK(detect_dialect(text) == Dialect::Export);
    FileReport r = check_text("ep.txt", text);
    CHECK_MESSAGE(r.diagnostics.empty(), describe(r));
    ParsedFile parsed = parse_trace_source("ep.txt", text);
    REQUIRE(parsed.file.traces.size() == 1);
    CHECK(parsed.file.traces[0].name == "forward");
    REQUIRE(parsed.file.traces[0].classes.size() == 1);
    CHECK(parsed.file.traces[0].classes[0].name == "GraphModule");
    CHECK(parsed.file.traces[0].def_span.line == 3);
    // A read after the free, and an undefined name, on their lines.
    std::vector<std::string> lines = lines_of(text);
    std::size_t ret = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].rfind("            return ", 0) == 0) ret = i;
    REQUIRE(ret > 0);
    std::vector<std::string> mutated = lines;
    mutated.insert(mutated.begin() + static_cast<long>(ret),
                   "            late = torch.ops.aten.relu.default(x)");
    FileReport late = check_text("ep.txt", joined(mutated));
    REQUIRE_MESSAGE(late.diagnostics.size() == 1, describe(late));
    CHECK(late.diagnostics[0].code == "TL005");
    CHECK(late.diagnostics[0].span.line == ret + 1);
    mutated = lines;
    mutated.insert(mutated.begin() + static_cast<long>(ret),
                   "            late = torch.ops.aten.relu.default(never_bound)");
    FileReport undefined = check_text("ep.txt", joined(mutated));
    REQUIRE_MESSAGE(undefined.diagnostics.size() == 1, describe(undefined));
    CHECK(undefined.diagnostics[0].code == "TL003");
    CHECK(undefined.diagnostics[0].span.line == ret + 1);
    CHECK(undefined.diagnostics[0].span.column == 48);
  }
  // Without its `ExportedProgram:` line the indented class is a fragment, as before.
  std::string headless =
      std::string(kExportPrintout).substr(std::string("ExportedProgram:\n").size());
  FileReport fragment = check_text("ep.txt", headless);
  CHECK_MESSAGE(!fragment.diagnostics.empty(), describe(fragment));
}

// As torch 2.1 printed an ExportedProgram: types unquoted (a parameter's is evaluated when the
// def runs, an assignment's in a def body is not), `# code:` comments, statements ending in `;`,
// and the labels indented as the class is, the signature running over several lines.
const char *const kExportPrintout21 =
    "ExportedProgram:\n"
    "    class GraphModule(torch.nn.Module):\n"
    "        def forward(self, arg0_1: f32[2, 3], arg1_1: f32[s0, 3]):\n"
    "            # code: a = torch.sin(x)\n"
    "            sin: f32[2, 3] = torch.ops.aten.sin.default(arg0_1);\n"
    "\n"
    "            # code: return a.sum() + y\n"
    "            sum_1: f32[] = torch.ops.aten.sum.default(sin);\n"
    "            add: f32[s0, 3] = torch.ops.aten.add.Tensor(arg1_1, sum_1);\n"
    "            return (add,)\n"
    "\n"
    "    Graph signature: ExportGraphSignature(\n"
    "        parameters=[],\n"
    "        user_inputs=['arg0_1', 'arg1_1'],\n"
    "        user_outputs=['add'],\n"
    "    )\n"
    "    Range constraints: {s0: RangeConstraint(min_val=2, max_val=9223372036854775806)}\n"
    "    Equality constraints: []\n";

TEST_CASE("dialects: torch 2.1's export printout: framing skipped, unquoted types, a 0-d one "
          "is a syntax error TL019 quotes") {
  std::string text = kExportPrintout21;
  CHECK(detect_dialect(text) == Dialect::Export);
  FileReport r = check_text("ep21.txt", text);
  // The parameters' types (NameError when the def runs) and the empty subscript `f32[]`
  // (CPython's SyntaxError); nothing from the framing, nothing from the other assignments.
  std::vector<std::string> found;
  for (const Diagnostic &d : r.diagnostics) {
    found.push_back(d.code + "@" + std::to_string(d.span.line) + ":" +
                    std::to_string(d.span.column));
    if (d.code == "TL019") CHECK(d.fix.has_value());
  }
  std::vector<std::string> expected = {"TL019@3:35", "TL019@3:54", "TL001@8:20", "TL019@8:20"};
  std::sort(found.begin(), found.end());
  std::sort(expected.begin(), expected.end());
  CHECK_MESSAGE(found == expected, describe(r));
  // The 0-d type's statement still binds its name: no TL003 at `sum_1`'s read.
  CHECK(std::none_of(r.diagnostics.begin(), r.diagnostics.end(),
                     [](const Diagnostic &d) { return d.code == "TL003"; }));
}

TEST_CASE("dialects: a class body's own statements and a class of no methods stay unmodelled") {
  FileReport r = check_text("g.py", "class GraphModule(torch.nn.Module):\n"
                                    "    scale = 2\n"
                                    "    def forward(self, x):\n"
                                    "        mul = x * 2;  x = None\n"
                                    "        return mul\n");
  REQUIRE_MESSAGE(r.diagnostics.size() == 1, describe(r));
  CHECK(r.diagnostics[0].code == "TL009");
  CHECK(r.diagnostics[0].span.line == 2);
  CHECK(r.diagnostics[0].message.find("class body") != std::string::npos);
  // Read as a trace (a dialect named), a class of no methods is an unmodelled form; detected,
  // it is ordinary Python, which only the checks of any Python apply to.
  Options as_trace;
  as_trace.dialect = Dialect::Thunder;
  FileReport empty = check_source("e.py", "class Empty:\n    pass\n", as_trace);
  REQUIRE_MESSAGE(!empty.diagnostics.empty(), describe(empty));
  CHECK(empty.diagnostics[0].message.find("class_definition") != std::string::npos);
  FileReport plain = check_text("e.py", "class Empty:\n    pass\n");
  CHECK(plain.diagnostics.empty());
  CHECK(plain.plain_python == "a class statement");
}

TEST_CASE("dialects: nvFuser's printed definitions and repros have no errors") {
  std::optional<std::string> dir = test::shared_corpus("nvfuser");
  if (!dir) return;
  auto files = test::python_files(*dir);
  REQUIRE(files.size() >= 4);
  for (const std::string &path : files) {
    std::string name = fs::path(path).filename().string();
    std::string text = test::read_file(path);
    CHECK_MESSAGE(detect_dialect(text) == Dialect::Nvfuser, name);
    FileReport r = check_text(name, text);
    CHECK_MESSAGE(r.diagnostics.empty(), name << describe(r));
    // A planted defect: the first definition removed; its first reader gets TL003.
    std::vector<std::string> lines = lines_of(text);
    const std::regex defines(R"(^\s+(\w+) = fd\.define_tensor\(.*$)");
    for (std::size_t i = 0; i < lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(lines[i], m, defines)) continue;
      std::string defined = m[1];
      std::size_t use = 0;
      for (std::size_t j = i + 1; j < lines.size() && !use; ++j)
        if (std::regex_search(lines[j], std::regex("\\(" + defined + "[,)]"))) use = j + 1;
      lines[i] = "";
      FileReport planted = check_text(name, joined(lines));
      REQUIRE_MESSAGE(!planted.diagnostics.empty(), name);
      CHECK(planted.diagnostics[0].code == "TL003");
      CHECK(planted.diagnostics[0].span.line == use);
      break;
    }
  }
}

TEST_CASE("dialects: an nvFuser repro's inputs must match its definition, outputs must exist") {
  std::optional<std::string> dir = test::shared_corpus("nvfuser");
  if (!dir) return;
  std::string path = *dir + "/n11_fuser_llama_inf_graph0_embedding_fwd_repro.py";
  REQUIRE(fs::exists(path));
  std::vector<std::string> lines = lines_of(test::read_file(path));
  auto inputs = std::find(lines.begin(), lines.end(), "inputs = [");
  REQUIRE(inputs != lines.end());
  std::size_t at = static_cast<std::size_t>(inputs - lines.begin()) + 1;
  // One entry dropped: TL020 at `inputs`.
  std::vector<std::string> fewer = lines;
  fewer.erase(fewer.begin() + static_cast<long>(at));
  FileReport r = check_text("repro.py", joined(fewer));
  REQUIRE_MESSAGE(r.diagnostics.size() == 1, describe(r));
  CHECK(r.diagnostics[0].code == "TL020");
  CHECK(r.diagnostics[0].span.line == at);
  CHECK(r.diagnostics[0].message == "`inputs` has 2 entries but the fusion defines 3 inputs "
                                    "(define_tensor, and define_scalar without a value)");
  // An output that names nothing defined: TL003 there.
  auto output = std::find_if(lines.begin(), lines.end(), [](const std::string &l) {
    return l.find("fd.add_output(") != std::string::npos;
  });
  REQUIRE(output != lines.end());
  std::vector<std::string> undefined = lines;
  std::size_t output_line = static_cast<std::size_t>(output - lines.begin()) + 1;
  undefined[output_line - 1] = "    fd.add_output(T999)";
  FileReport u = check_text("repro.py", joined(undefined));
  REQUIRE_MESSAGE(u.diagnostics.size() == 1, describe(u));
  CHECK(u.diagnostics[0].code == "TL003");
  CHECK(u.diagnostics[0].span.line == output_line);
}

TEST_CASE("dialects: an unquoted tensor annotation in fx code is TL019, unless postponed") {
  std::string fx = "def forward(self, x: f32[4], y: \"f32[4]\"):\n"
                   "    mul = torch.mul(x, y);  x = y = None\n    return (mul,)\n";
  FileReport r = check_text("fx.py", fx);
  REQUIRE_MESSAGE(r.diagnostics.size() == 1, describe(r));
  CHECK(r.diagnostics[0].code == "TL019");
  CHECK(r.diagnostics[0].span.column == 22);
  REQUIRE(r.diagnostics[0].fix);
  FileReport postponed = check_text("fx.py", "from __future__ import annotations\n" + fx);
  CHECK_MESSAGE(postponed.diagnostics.empty(), describe(postponed));
}

TEST_CASE(
    "dialects: --dialect and [tool.tracelint] dialect / per-file-dialect override detection") {
  const std::string fx = "def forward(self, x):\n    relu = torch.relu(x);  x = None\n"
                         "    return relu\n";
  test::TempDir dir;
  fs::create_directories(dir.path + "/.git");
  fs::create_directories(dir.path + "/thunder");
  test::write_file(dir.path + "/graph.py", fx);
  test::write_file(dir.path + "/thunder/graph.py", fx);
  std::string graph = test::shell_quote(dir.path + "/graph.py");
  CHECK(test::tracelint("check --isolated " + graph).exit_code == 0);
  test::Run as_thunder = test::tracelint("check --isolated --dialect thunder " + graph);
  CHECK(as_thunder.exit_code == 1);
  CHECK(as_thunder.out.find("TL004") != std::string::npos);
  test::Run bogus = test::tracelint("check --isolated --dialect jax " + graph);
  CHECK(bogus.exit_code == 2);

  test::write_file(dir.path + "/pyproject.toml",
                   "[tool.tracelint]\ndialect = \"fx\"\n"
                   "per-file-dialect = { \"thunder/*.py\" = \"thunder\" }\n");
  Result<Config> config = load_config(dir.path + "/pyproject.toml");
  REQUIRE(config);
  CHECK(config->dialect == Dialect::Fx);
  CHECK(resolve_options(&*config, dir.path + "/graph.py", {}).dialect == Dialect::Fx);
  CHECK(resolve_options(&*config, dir.path + "/thunder/graph.py", {}).dialect == Dialect::Thunder);
  Overrides flag;
  flag.dialect = Dialect::Nvfuser;
  CHECK(resolve_options(&*config, dir.path + "/thunder/graph.py", flag).dialect ==
        Dialect::Nvfuser);
  CHECK(test::tracelint("check " + graph).exit_code == 0);
  CHECK(test::tracelint("check " + test::shell_quote(dir.path + "/thunder/graph.py")).exit_code ==
        1);
  test::Run settings = test::tracelint("check --show-settings " + graph);
  CHECK(settings.out.find("dialect: fx") != std::string::npos);

  test::write_file(dir.path + "/pyproject.toml", "[tool.tracelint]\ndialect = \"jax\"\n");
  Result<Config> bad = load_config(dir.path + "/pyproject.toml");
  REQUIRE(!bad);
  CHECK(bad.error().message.find("thunder, fx, export, nvfuser") != std::string::npos);
  CHECK(bad.error().line == 2);
}

TEST_CASE("context names: exact names and glob patterns, from the flag and the configuration") {
  const std::string trace = "def computation(t0):\n  t1 = apex_cross_entropy(t0, 0.0)\n"
                            "  t2 = apex_xentropy_backward(t1)\n  t3 = my_op(t2)\n  return t3\n";
  auto codes = [&](std::set<std::string> names) {
    Options options;
    options.context_names = std::move(names);
    std::vector<std::string> out;
    for (const Diagnostic &d : check_source("t.py", trace, options).diagnostics)
      out.push_back(d.code + "@" + std::to_string(d.span.line));
    return out;
  };
  CHECK(codes({}) == std::vector<std::string>{"TL011@2", "TL011@3", "TL011@4"});
  CHECK(codes({"apex_*"}) == std::vector<std::string>{"TL011@4"});
  CHECK(codes({"apex_cross_entropy", "my_?p"}) == std::vector<std::string>{"TL011@3"});
  CHECK(codes({"*"}).empty());
  test::TempDir dir;
  fs::create_directories(dir.path + "/.git");
  test::write_file(dir.path + "/t.py", trace);
  std::string t = test::shell_quote(dir.path + "/t.py");
  test::Run flag = test::tracelint("check --isolated --output-format concise "
                                   "--context-name 'apex_*' --context-name my_op " +
                                   t);
  CHECK(flag.exit_code == 0);
  CHECK(flag.out.find("TL011") == std::string::npos);
  test::write_file(dir.path + "/pyproject.toml",
                   "[tool.tracelint]\ncontext-names = [\"apex_x*\", \"my_op\"]\n");
  test::Run config = test::tracelint("check --output-format concise " + t);
  CHECK(config.out.find("apex_cross_entropy") != std::string::npos);
  CHECK(config.out.find("apex_xentropy_backward") == std::string::npos);
  CHECK(config.out.find("my_op") == std::string::npos);
}
