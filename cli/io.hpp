#pragma once
// Reading inputs for the command-line tool (writing files: file_writer.hpp).
#include "tracelint/core/result.hpp"

#include <optional>
#include <string>

namespace tracelint::cli {

// A file's text ("-": standard input); binary files and directories are errors.
Result<std::string> read_input(const std::string &path);

} // namespace tracelint::cli
