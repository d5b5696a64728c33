#pragma once
// `tracelint analyze`: Clang LibTooling checks over C++ code that prints Python.

namespace tracelint {

// Runs with clang-tidy's command-line conventions (CommonOptionsParser): FILES..., -p BUILD_DIR
// or `-- FLAGS`, plus --format, --codegen-pattern, --repr-pattern. Prints the report to stdout.
// Returns 0 clean, 1 findings (errors), 2 usage, I/O or compile errors.
int analyze_main(int argc, const char **argv);

} // namespace tracelint
