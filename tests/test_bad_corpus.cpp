// Broken traces from Thunder's issues (../shared/corpus/thunder/bad): each bug its header
// describes is reported with the right code, span and message, and nothing else is an error.
#include "support.hpp"

#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <filesystem>

using namespace tracelint;

namespace {

struct Expected {
  const char *code;
  uint32_t line;
  uint32_t column;
  const char *message; // a part of the message
};

struct Case {
  const char *file;
  std::vector<Expected> expected;
};

const std::vector<Case> kCases = {
    {"001_issue1182_slice_numberproxy_repr.py",
     {{"TL002", 23, 45, "debug repr of IntegerProxy `i10` in code"},
      {"TL002", 9, 20, "debug repr of IntegerProxy `i0` in an annotation"}}},
    {"002_pr1201_unpack_key_underscores_undefined_name.py",
     {{"TL006", 13, 43, "`i0` is never defined: `key` was unpacked with `_` placeholders"}}},
    {"003_issue1253_implicit_shape_numberproxy.py",
     {{"TL001", 10, 3, "syntax error"}, {"TL002", 8, 17, "`i0` in an annotation"}}},
    {"004_issue471_numberproxy_without_producer.py",
     {{"TL007", 5, 94, "mentions `i42`, which nothing in the trace defines"},
      {"TL002", 5, 94, "`i42` in an annotation"}}},
    {"005_issue160_undefined_impl_name_no_import.py",
     {{"TL011", 5, 10, "`torch_slice_prim_impl` is called but neither imported nor defined"},
      {"TL013", 5, 3, "a fragment of a trace"},
      {"TL003", 5, 32, "`t53` is used but never defined"}}},
    {"006_pr704_dtype_double_prefix.py",
     {{"TL009", 16, 44, "`dtypes.thunder.dtypes.float16` is not a dtype path"}}},
    {"007_pr1061_renamed_unpack_signature_mismatch.py",
     {{"TL014", 10, 5, "annotation for `i4`"}, {"TL014", 11, 5, "annotation for `i5`"}}},
    {"008_pr1061_augmented_forward_wrapped_annotation.py",
     {{"TL001", 10, 20, "unterminated string literal"}, {"TL002", 9, 20, "`i0` in an annotation"}}},
    {"009_issue2728_duplicate_shape_subsymbols.py",
     {{"TL004", 13, 8, "subsymbol assigns `i0` again"}, {"TL004", 13, 12, "`i1` again"}}},
    {"010_issue1133_no_signature_symbolic_body.py",
     {{"TL010", 8, 1, "no signature"},
      {"TL003", 10, 20, "`t_0` is used but never defined"},
      {"TL003", 10, 25, "`t_1` is used but never defined"},
      {"TL004", 12, 8, "subsymbol assigns `i0` again"}}},
    {"011_issue526_numberproxy_math_baked_constant.py",
     {{"TL015", 12, 3, "returns the constant `1.2`"}}},
    {"012_issue528_prologue_duplicate_checks_module.py",
     {{"TL016", 21, 3, "the metadata of `input` is checked again"}}},
    // Issue #1464's bug is semantic (a global baked in with no guard) and the excerpt is cut
    // before the computation, so nothing in the text shows it; the prologue's ctx callees are
    // what the snippet itself gets.
    {"013_issue1464_prologue_missing_global_guard.py",
     {{"TL011", 10, 3, "`check_len` is called but neither imported nor defined"}}},
};

} // namespace

TEST_CASE("bad Thunder traces: the bug is reported with the right rule, span and message") {
  std::optional<std::string> dir = test::shared_corpus("thunder/bad");
  if (!dir) return;
  CHECK(test::python_files(*dir).size() == kCases.size());
  for (const Case &c : kCases) {
    std::string path = *dir + "/" + c.file;
    REQUIRE_MESSAGE(std::filesystem::exists(path), path);
    FileReport report = check_source(c.file, test::read_file(path), Options{});
    for (const Expected &e : c.expected) {
      bool found = std::any_of(
          report.diagnostics.begin(), report.diagnostics.end(), [&](const Diagnostic &d) {
            return d.code == e.code && d.span.line == e.line && d.span.column == e.column &&
                   d.message.find(e.message) != std::string::npos;
          });
      CHECK_MESSAGE(found, c.file << ": expected " << e.code << " at " << e.line << ":" << e.column
                                  << " '" << e.message << "'");
    }
    for (const Diagnostic &d : report.diagnostics) {
      if (d.severity != Severity::Error) continue;
      bool listed = std::any_of(c.expected.begin(), c.expected.end(), [&](const Expected &e) {
        return d.code == e.code && d.span.line == e.line && d.span.column == e.column;
      });
      CHECK_MESSAGE(listed, c.file << ": unexpected error " << d.code << " at " << d.span.line
                                   << ":" << d.span.column << " " << d.message);
    }
  }
}

TEST_CASE("bad Thunder traces: the repr leak's fix turns the seed bug into valid Python") {
  std::optional<std::string> dir = test::shared_corpus("thunder/bad");
  if (!dir) return;
  std::string text = test::read_file(*dir + "/001_issue1182_slice_numberproxy_repr.py");
  FileReport report = check_source("001.py", text, Options{});
  std::vector<const Fix *> fixes;
  for (const Diagnostic &d : report.diagnostics)
    if (d.code == "TL002" && d.fix) fixes.push_back(&*d.fix);
  auto [fixed, applied] = apply_fixes(text, fixes);
  CHECK(applied == fixes.size());
  CHECK(fixed.find("slice(None, i10, None)") != std::string::npos);
  CHECK(fixed.substr(fixed.find("# ---- snippet below ----")).find("IntegerProxy") ==
        std::string::npos);
  FileReport after = check_source("001.py", fixed, Options{});
  for (const Diagnostic &d : after.diagnostics)
    CHECK_MESSAGE(d.severity != Severity::Error, d.code << " " << d.message);
}
