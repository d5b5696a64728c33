#pragma once
// `tracelint analyze`: Clang LibTooling checks over C++ code that prints Python.

#include <type_traits>

namespace tracelint {

// Runs with clang-tidy's command-line conventions (CommonOptionsParser): FILES..., -p BUILD_DIR
// or `-- FLAGS`, plus --format, --codegen-pattern, --repr-pattern. Prints the report to stdout.
// Returns 0 clean, 1 findings (errors), 2 usage, I/O or compile errors.
int analyze_main(int argc, const char **argv);

// The CLI loads the analyzer as a module (Clang is large): its file and entry point.
using AnalyzeMainEntry = int (*)(int argc, const char **argv);
inline constexpr const char *kAnalyzerModule = "libtracelint_analyzer.so";
inline constexpr const char *kAnalyzeMainEntry = "tracelint_analyze_main";

} // namespace tracelint
