#pragma once
// Loading the optional modules that carry heavy dependencies (libtorch for `run`, Clang for
// `analyze`), so that `tracelint check` starts and stays small without them.
#include "tracelint/core/result.hpp"

#include <string>

namespace tracelint::cli {

// dlopens `file_name` next to the executable, or in ../LIBDIR/tracelint when installed, and
// returns its symbol `entry`. `needed_for` completes "... needs FILE (needed_for), which is
// not installed".
Result<void *> load_module_entry(const std::string &file_name, const std::string &entry,
                                 const std::string &needed_for);

// Where SARIF's helpUri points: TRACELINT_DOCS_URL/rules.md when the build names where the docs
// are published, else the installed docs/rules.md as a file:// URI (PREFIX/share/doc/tracelint,
// the wheel's copy, or this build's source tree), else "" (no helpUri).
std::string rules_doc_url();

} // namespace tracelint::cli
