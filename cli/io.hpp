#pragma once
// Reading inputs and writing files for the command-line tool.
#include "tracelint/core/result.hpp"

#include <optional>
#include <string>

namespace tracelint::cli {

// A file's text ("-": standard input); binary files and directories are errors.
Result<std::string> read_input(const std::string &path);
// Writes next to the file, then renames over it: a failure leaves the original intact.
// Returns the reason on failure.
std::optional<std::string> write_atomically(const std::string &path, const std::string &text);

} // namespace tracelint::cli
