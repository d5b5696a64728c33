#pragma once
// Reading inputs for the command-line tool (writing files: file_writer.hpp).
#include "tracelint/core/result.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace tracelint::cli {

// Inputs larger than this are refused unless --max-file-size raises it: a trace is text a
// person could read, and without a cap /dev/zero on stdin grew memory without end.
constexpr std::uint64_t kDefaultMaxFileSize = 64 * 1024 * 1024;

// A file's text ("-": standard input). Errors: what is not a regular file (a named pipe, a
// device, a directory; stdin may be a pipe), binary input (a NUL byte, found in the block it
// arrives in), and input larger than max_bytes (refused, never truncated).
Result<std::string> read_input(const std::string &path,
                               std::uint64_t max_bytes = kDefaultMaxFileSize);
// "64 MiB", or "1000 bytes" where the size is no whole number of MiB.
std::string byte_size(std::uint64_t bytes);

} // namespace tracelint::cli
