#include "tracelint/rules/dialect.hpp"

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
