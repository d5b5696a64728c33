#pragma once
// The settings of `tracelint check`: which configuration file configures each path, the options
// each file gets from it and from the flags, what a directory scan leaves out, and
// `--show-settings`, which prints all of it with where each value came from.
#include "tracelint/validator/validator.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace tracelint::cli {

// The command line's part of the settings.
struct FlagSettings {
  Overrides overrides;
  // Each key the flags set -> the flag that set it ("select" -> "--select").
  std::map<std::string, std::string> origin;
  std::string config;               // --config: this configuration file for every path
  bool isolated = false;            // --isolated: no configuration file at all
  std::string stdin_filename = "-"; // --stdin-filename: the path standard input stands for
  std::uint64_t max_file_size = 0;  // for --show-settings
  bool follow_links = false;        // for --show-settings
};

// Options for a file: the flags over its pyproject.toml over the defaults. Thread-safe: each
// configuration file is read once.
class ConfigResolver {
public:
  explicit ConfigResolver(FlagSettings flags) : flags_(std::move(flags)) {}

  // The configuration file that configures path (a file, a directory, or "-": the folder of
  // --stdin-filename, else the current one), if any.
  std::optional<std::string> config_path_for(const std::string &path) const;
  // That configuration, read (nullptr: none applies), or why it cannot be used.
  Result<const Config *> config_for(const std::string &path);
  // The options of the file at path ("-": standard input, matched as --stdin-filename).
  Result<Options> options_for(const std::string &path);
  // Whether entry, met while scanning the directory root, is left out by exclude and
  // extend-exclude (those of root's configuration; a configuration error leaves nothing out,
  // and is reported for the files).
  bool excluded(const std::string &root, const std::string &entry);
  // Whether a path given by name is left out (force-exclude; a configuration error leaves it
  // in, and is reported for it).
  bool force_excluded(const std::string &path);

  const FlagSettings &flags() const { return flags_; }

private:
  Result<Config> load(const std::string &path) const;

  FlagSettings flags_;
  std::mutex mutex_;
  std::map<std::string, Result<Config>> cache_;
  std::map<std::string, const Config *> scan_roots_;
};

// "path:line:column: message" (or without the place) for a configuration error.
std::string describe_config_error(const Error &e);

// What `check --show-settings PATH` prints: one block of "key: value [origin]" lines for path,
// ending with a blank line; or the configuration's error.
Result<std::string> describe_settings(const std::string &path, ConfigResolver &resolver);

} // namespace tracelint::cli
