#pragma once
// The dialects of printed Python that tracelint reads: which JIT printed a file decides which
// names its runtime provides, which idioms free a value, which statement forms are normal and
// which Thunder-only checks apply. The rules stay dialect-neutral: the dialect feeds the name
// analysis its facts (see analysis.hpp) and tells TL009 which forms are that printer's own.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

enum class Dialect {
  Thunder, // Lightning Thunder traces (the default)
  Fx,      // torch.fx symbolic_trace, Dynamo, AOT Autograd and Inductor graph code
  Export,  // torch.export's printed ExportedProgram graph modules
  Nvfuser, // nvFuser printed fusion definitions and repro scripts
};

// "thunder", "fx", "export", "nvfuser".
std::string_view dialect_name(Dialect d);
// The dialect a name spells (case-insensitive), or nullopt.
std::optional<Dialect> parse_dialect(std::string_view name);
// Every dialect's name, in the order of the enum (for help texts and errors).
const std::vector<std::string> &dialect_names();

// The dialect a text is in, from what its printer writes: nvFuser's `fd : FusionDefinition`,
// `fd.define_tensor(` and `from nvfuser import`; torch.export's `ExportedProgram` and
// `Graph signature`; fx's `def forward(self`, `torch.ops.aten.`, `class GraphModule(` and its
// provenance comments (`# File: `, `# Source Nodes: `). Anything else is Thunder's.
Dialect detect_dialect(std::string_view text);

// Why a text is ordinary Python and no printed trace ("a class statement", "a `for` loop"), or
// nullopt when it may be a trace. A trace is straight-line code: a file with control flow,
// classes, docstrings, lambdas, asserts or tests, and no printer's marker in its code
// (Thunder's `@no_autocast`/`# Constructed by`, fx's `torch.ops.aten.`/`class GraphModule(`/
// `x = None` frees, nvFuser's and torch.export's), is a program, which only the checks that
// hold for any Python apply to. A fragment of a trace (no def, no marker) is still a trace.
std::optional<std::string> plain_python_reason(std::string_view text);

// What one dialect's printed code may take for granted.
struct DialectTraits {
  // Names the printer's runtime puts in the code's globals without an import.
  std::vector<std::string_view> runtime_names;
  // `x = None` frees x (fx's way of dropping a value): a later read is a use after delete.
  bool none_frees = false;
  // Thunder's prologue and collection checks (TL006's unpack facts) apply, and names only a
  // python_ctx provides (TL011) exist: elsewhere an undefined callee is TL003.
  bool thunder_checks = true;
  // Module-level code after a definition is the script that runs it (an nvFuser repro's
  // `with FusionDefinition() as fd:` ... `fd.execute(inputs)`), not a trace fragment (TL013).
  bool driver_after_definition = false;
  // Syntax forms (tree-sitter node kinds, or "chained_assignment" / "annotation_only" /
  // "unquoted_annotation" / "call_in_class_body": core/src/parser.cpp's names) that the
  // printer writes as a matter of course: the trace model does not hold them, but TL009 does
  // not warn about them.
  std::vector<std::string_view> normal_forms;

  // Glob patterns of the names the dialect's executors generate and hand the program through
  // python_ctx (Thunder: nvFusion3, torchCompile0, clear_collection):
  // TL011 does not warn about them. Context objects (_torch_memory_format_0) follow Thunder's
  // own `_<qualified type>_<n>` convention and are never reported either.
  std::vector<std::string_view> context_conventions;

  // The code's globals hold every call target its printer could not spell through an import
  // (torch.fx's codegen names a function by its mangled qualified name, `__main___my_helper`,
  // `executorch_exir_dialects_edge__ops_aten_add_Tensor`, and puts it in the GraphModule's
  // globals): a callee nothing binds is one of them.
  bool callees_are_globals = false;
  // Module-level calls the printer writes before the definition (fx's
  // `torch.fx._symbolic_trace.wrap("__main___my_helper")` for each wrapped function): the
  // program's own preamble, not a trace fragment (TL013).
  std::vector<std::string_view> preamble_calls;

  bool provides(std::string_view name) const;
  bool follows_context_convention(const std::string &name) const;
  bool is_normal_form(std::string_view form) const;
  bool is_preamble_call(std::string_view callee) const;
};

const DialectTraits &dialect_traits(Dialect d);

} // namespace tracelint
