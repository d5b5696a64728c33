#include "tracelint/rules/dialect.hpp"

#include "tracelint/core/lexing.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>

namespace tracelint {

namespace {

bool contains(std::string_view text, std::string_view what) {
  return text.find(what) != std::string_view::npos;
}

// "fd : FusionDefinition" or "fd: FusionDefinition" in a parameter list.
bool has_fusion_definition_parameter(std::string_view text) {
  for (std::size_t at = text.find("FusionDefinition"); at != std::string_view::npos;
       at = text.find("FusionDefinition", at + 1)) {
    std::size_t i = at;
    while (i > 0 && text[i - 1] == ' ')
      --i;
    if (i > 0 && text[i - 1] == ':') return true;
  }
  return false;
}

// A line of fx's printed code that frees values: "...;  x = None" or "x = y = None".
bool has_fx_free(std::string_view text) {
  for (std::size_t at = text.find(" = None"); at != std::string_view::npos;
       at = text.find(" = None", at + 1)) {
    std::size_t end = at + 7;
    if (end != text.size() && text[end] != '\n' && text[end] != '\r') continue;
    std::size_t line = text.rfind('\n', at);
    line = line == std::string_view::npos ? 0 : line + 1;
    if (contains(text.substr(line, at - line), ";  ")) return true;
  }
  return false;
}

} // namespace

std::string_view dialect_name(Dialect d) {
  switch (d) {
  case Dialect::Thunder:
    return "thunder";
  case Dialect::Fx:
    return "fx";
  case Dialect::Export:
    return "export";
  case Dialect::Nvfuser:
    return "nvfuser";
  }
  return "thunder";
}

const std::vector<std::string> &dialect_names() {
  static const std::vector<std::string> names = {"thunder", "fx", "export", "nvfuser"};
  return names;
}

std::optional<Dialect> parse_dialect(std::string_view name) {
  std::string lower;
  for (char c : name)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (Dialect d : {Dialect::Thunder, Dialect::Fx, Dialect::Export, Dialect::Nvfuser})
    if (dialect_name(d) == lower) return d;
  return std::nullopt;
}

namespace {

// What only printers write, in code or comments (not in strings): one of these and the file is
// read as a trace even with statements of ordinary Python, which repro scripts (nvFuser's,
// Dynamo's minifier's) and print_readable's classes hold. Names any program may use (`prims.`,
// `import thunder`) are no marker: a test of Thunder is a program.
bool has_printer_marker(std::string_view head) {
  for (std::string_view marker :
       {"@no_autocast", "# Constructed by", "torch.ops.aten.", "class GraphModule(",
        "ExportedProgram", "Graph signature:", "from nvfuser import", "import nvfuser",
        "fd.define_tensor(", "fd.add_output("})
    if (contains(head, marker)) return true;
  return has_fusion_definition_parameter(head) || has_fx_free(head);
}

// The first statement of a line that no trace printer writes, named for the note.
std::optional<std::string> ordinary_statement(std::string_view line) {
  static const std::vector<std::pair<std::string_view, std::string_view>> kStatements = {
      {"for ", "a `for` loop"},
      {"while ", "a `while` loop"},
      {"if ", "an `if` statement"},
      {"try:", "a `try` statement"},
      {"class ", "a class statement"},
      {"async ", "an `async` definition"},
      {"yield", "a `yield`"},
      {"global ", "a `global` statement"},
      {"nonlocal ", "a `nonlocal` statement"},
      {"def __init__(", "an `__init__` method"},
      {"\"\"\"", "a docstring"},
      {"'''", "a docstring"},
      {"assert ", "an `assert` statement"},
      {"def test_", "a test function"},
      {"import pytest", "an import of pytest"}};
  std::size_t first = line.find_first_not_of(" \t");
  if (first == std::string_view::npos) return std::nullopt;
  line.remove_prefix(first);
  // print_readable's classes are printed code: `class <name>(torch.nn.Module):` with only
  // forward methods (a model's classes have an __init__, which is a signal of its own).
  if (line.starts_with("class ") && contains(line, "(torch.nn.Module):")) return std::nullopt;
  for (const auto &[start, said] : kStatements)
    if (line.starts_with(start)) return std::string(said);
  if (contains(line, "lambda ") || contains(line, "lambda:")) return std::string("a lambda");
  return std::nullopt;
}

} // namespace

std::optional<std::string> plain_python_reason(std::string_view text) {
  constexpr std::size_t kWindow = 1 << 16; // as detect_dialect: the markers come first
  // Markers count in code and comments, not in strings: a test that holds a trace in a string
  // is a program.
  const std::string code = lexing::without_strings(text.substr(0, std::min(text.size(), kWindow)));
  std::string_view head = text.substr(0, code.size());
  if (has_printer_marker(code)) return std::nullopt;
  for (std::size_t begin = 0; begin < head.size();) {
    std::size_t end = std::min(head.find('\n', begin), head.size());
    if (std::optional<std::string> said = ordinary_statement(head.substr(begin, end - begin)))
      return said;
    begin = end + 1;
  }
  return std::nullopt;
}

Dialect detect_dialect(std::string_view text) {
  // The markers are in a file's first lines; a large trace is not searched to its end.
  constexpr std::size_t kWindow = 1 << 16;
  std::string_view head = text.substr(0, std::min(text.size(), kWindow));
  if (has_fusion_definition_parameter(head) || contains(head, "from nvfuser import") ||
      contains(head, "import nvfuser") || contains(head, "fd.define_tensor(") ||
      contains(head, "fd.add_output("))
    return Dialect::Nvfuser;
  if (contains(head, "ExportedProgram") || contains(head, "Graph signature:"))
    return Dialect::Export;
  if (contains(head, "def forward(self") || contains(head, "torch.ops.aten.") ||
      contains(head, "class GraphModule(") || contains(head, "# File: ") ||
      contains(head, "# Source Nodes: ") || contains(head, "torch.fx") || has_fx_free(head))
    return Dialect::Fx;
  return Dialect::Thunder;
}

bool DialectTraits::provides(std::string_view name) const {
  return std::find(runtime_names.begin(), runtime_names.end(), name) != runtime_names.end();
}

bool DialectTraits::follows_context_convention(const std::string &name) const {
  for (std::string_view pattern : context_conventions)
    if (::fnmatch(std::string(pattern).c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

bool DialectTraits::is_normal_form(std::string_view form) const {
  return std::find(normal_forms.begin(), normal_forms.end(), form) != normal_forms.end();
}

bool DialectTraits::is_preamble_call(std::string_view callee) const {
  return std::find(preamble_calls.begin(), preamble_calls.end(), callee) != preamble_calls.end();
}

const DialectTraits &dialect_traits(Dialect d) {
  // fx's codegen puts these in the globals of every GraphModule's forward (torch.fx.graph's
  // _custom_builtins and the modules its printed calls name).
  static const DialectTraits fx{{"torch", "operator", "_operator", "math", "builtins", "inf", "nan",
                                 "NoneType", "device", "fx_pytree", "pytree", "annotations"},
                                true,
                                false,
                                false,
                                {"binary_operator", "unary_operator", "comparison_operator",
                                 "boolean_operator", "not_operator", "conditional_expression",
                                 "subscript", "chained_assignment", "annotation_only",
                                 "typed_parameter", "typed_default_parameter",
                                 "future_import_statement", "augmented_assignment", "list_splat",
                                 "dictionary_splat", "unquoted_annotation", "call_in_class_body"},
                                {},
                                true,
                                {"torch.fx._symbolic_trace.wrap", "torch.fx.wrap"}};
  static const DialectTraits exported{fx.runtime_names, true, false, false,
                                      fx.normal_forms,  {},   true,  fx.preamble_calls};
  // A printed fusion definition names nvFuser's classes without the import a repro script has.
  static const DialectTraits nvfuser{
      {"FusionDefinition", "DataType"},
      false,
      false,
      true,
      {"typed_parameter", "typed_default_parameter", "with_statement"},
      {},
      false,
      {}};
  // Thunder's executors name their regions and helpers so (nvFuser's nvFusion<n>, torch.compile's
  // torchCompile<n> and TorchCompile<n>, the collection helpers of the "Delete Last Used" pass),
  // and so does tracelint's own cuda_fusion executor (cudaFusion<n>).
  // The torch executor's <prim>_prim_impl is not among them: Thunder's maintainers call a printed
  // trace that uses one without importing it a bug (issue #160, ../shared/corpus/thunder/bad).
  static const DialectTraits thunder{{},
                                     false,
                                     true,
                                     false,
                                     {},
                                     {"nvFusion[0-9]*", "cudaFusion[0-9]*", "torchCompile[0-9]*",
                                      "TorchCompile[0-9]*", "clear_collection",
                                      "clear_mutable_collection"},
                                     false,
                                     {}};
  switch (d) {
  case Dialect::Fx:
    return fx;
  case Dialect::Export:
    return exported;
  case Dialect::Nvfuser:
    return nvfuser;
  case Dialect::Thunder:
    break;
  }
  return thunder;
}

} // namespace tracelint
