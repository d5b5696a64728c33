#pragma once
// Typos on the command line, answered as ruff and git answer them: the unknown command or
// option, and the closest one that exists.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace tracelint::cli {

// "unknown command 'chek' (did you mean check?)" when args' first word is neither an option nor
// one of app's subcommands; nullopt otherwise.
std::optional<std::string> unknown_command(const CLI::App &app,
                                           const std::vector<std::string> &args);

// For a parse error over args (without the program name): a message naming each unknown
// option of the subcommand in use with the closest known one, or nullopt when no option is
// unknown (CLI11's own message says it better then).
std::optional<std::string> unknown_options(const CLI::App &app,
                                           const std::vector<std::string> &args);

} // namespace tracelint::cli
