#pragma once
// [tool.tracelint] in pyproject.toml, as ruff reads [tool.ruff]: found from a file's folder up to
// the project root, read strictly (an unknown key, rule code or prefix is an error naming its
// line and column and the closest valid name), and turned into the options each file gets.
#include "tracelint/core/result.hpp"
#include "tracelint/validator/options.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

// per-file-ignores: the codes or prefixes that files matching pattern do not get.
struct PerFileIgnore {
  std::string pattern;
  std::vector<std::string> selectors;
};

// per-file-dialect: the dialect files matching pattern are read in.
struct PerFileDialect {
  std::string pattern;
  Dialect dialect = Dialect::Thunder;
};

// What one pyproject.toml's [tool.tracelint] says. Rule selectors are normalized (upper case).
struct Config {
  std::string path; // the configuration file: tracelint.toml, .tracelint.toml or pyproject.toml
  // Whether the file configures tracelint: a tracelint.toml always does, a pyproject.toml when
  // it has [tool.tracelint] (`--config` refuses one without it).
  bool has_settings = false;
  std::string root; // its folder: relative patterns (exclude, per-file-ignores) start there
  RuleSelection rules;
  std::vector<PerFileIgnore> per_file_ignores;
  std::optional<std::vector<std::string>> exclude; // nullopt: default_exclude()
  std::vector<std::string> extend_exclude;
  // force-exclude: exclude applies to paths given by name too (pre-commit names every file).
  std::optional<bool> force_exclude;
  std::vector<std::string> context_names;
  std::optional<Dialect> dialect; // nullopt: each file's is detected from its text
  std::vector<PerFileDialect> per_file_dialect;
  std::map<std::string, Severity> severity;
  std::optional<Severity> fail_on;
  // Where each key that the file gives stands: key -> "path:line:column".
  std::map<std::string, std::string> origin;
};

// The keys [tool.tracelint] accepts, in the order `--show-settings` and the docs list them. Each
// has its reader in config.cpp's table; a key not there is an error.
struct ConfigKey {
  std::string_view name;
  std::string_view help;
  std::string schema; // the JSON schema of its value, as docs/tracelint.schema.json holds it
};
const std::vector<ConfigKey> &config_keys();
// The JSON schema of a configuration (a tracelint.toml, or pyproject.toml's [tool.tracelint]),
// from config_keys(): docs/tracelint.schema.json, for editors and `tracelint config --schema`.
std::string config_schema();

// Reads a configuration file: a pyproject.toml's [tool.tracelint] (none there: an empty Config),
// or, for any other name (tracelint.toml, .tracelint.toml, a file given to --config), the same
// keys at the top level. Errors carry the path, line and column: a TOML syntax error, an unknown
// key ("did you mean select?"), a value of the wrong type, an unknown rule code or prefix, an
// unknown severity.
Result<Config> load_config(const std::string &path);
// Whether path names a pyproject.toml (whose settings are its [tool.tracelint] table).
bool is_pyproject(const std::string &path);
// The names find_config looks for in each folder, in its order.
const std::vector<std::string> &config_file_names();
// The text of a pyproject.toml as tracelint parses it: whole, or only its [tool.tracelint]
// tables when another table has a dotted key too deep to parse (toml++ recurses once per part
// of a key, and 40,000 parts overflow the stack). An error for a folder, an unreadable file,
// or a [tool.tracelint] key that deep.
Result<std::string> pyproject_text(const std::string &path);

// The nearest configuration, from dir up to the project root (the first directory holding .git),
// never past it: a stray pyproject in /tmp or / must not configure someone else's project. In
// each folder, as ruff: .tracelint.toml, then tracelint.toml, then a pyproject.toml with a
// [tool.tracelint] table.
std::optional<std::string> find_config(const std::string &dir);

// What a command line (or the pytest plugin, or the Python API) sets over a configuration.
struct Overrides {
  RuleSelection rules;
  std::vector<std::string> context_names;
  std::optional<Dialect> dialect;
  std::optional<Severity> fail_on;
  std::optional<std::vector<std::string>> exclude;
  std::vector<std::string> extend_exclude;
  std::optional<bool> force_exclude;
};

// The options a file gets: every rule, then config's selection (when there is a config), then the
// overrides', then config's per-file-ignores that match path. Its dialect: the overrides', else
// the last per-file-dialect pattern that matches path, else config's dialect, else detected.
Options resolve_options(const Config *config, const std::string &path, const Overrides &overrides);

// The folders and files a directory scan leaves out unless exclude replaces the list (ruff's,
// for the same reasons: version control, virtual environments, caches, build output).
const std::vector<std::string> &default_exclude();
// Whether a path met while scanning a directory is left out by exclude and extend-exclude (the
// overrides' replace or extend the config's). Paths given by name are never left out.
bool is_excluded(const Config *config, const Overrides &overrides, const std::string &path);
// Whether a path given by name is left out: force-exclude is on (the overrides' over the
// config's) and exclude or extend-exclude match it.
bool is_force_excluded(const Config *config, const Overrides &overrides, const std::string &path);

// A glob as ruff matches exclude and per-file-ignores patterns: one without a '/' against the
// file or folder name, one with a '/' against the path relative to root (or, outside root, the
// absolute path); '*' and '?' as in fnmatch(3), '**/' also matching no folder.
bool path_matches(std::string_view pattern, const std::string &path, const std::string &root);

} // namespace tracelint
