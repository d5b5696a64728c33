#include "settings.hpp"

#include "io.hpp"

#include "tracelint/rules/rule.hpp"

#include <filesystem>
#include <vector>

namespace fs = std::filesystem;

namespace tracelint::cli {

std::optional<std::string> ConfigResolver::config_path_for(const std::string &path) const {
  if (!flags_.config.empty()) return flags_.config;
  if (flags_.isolated) return std::nullopt;
  std::error_code ec;
  std::string named = path == "-" ? flags_.stdin_filename : path;
  if (named == "-") return find_config(".");
  if (fs::is_directory(named, ec)) return find_config(named);
  std::string parent = fs::path(named).parent_path().string();
  return find_config(parent.empty() ? "." : parent);
}

Result<const Config *> ConfigResolver::config_for(const std::string &path) {
  std::optional<std::string> config = config_path_for(path);
  if (!config) return static_cast<const Config *>(nullptr);
  std::lock_guard lock(mutex_);
  auto it = cache_.find(*config);
  if (it == cache_.end()) it = cache_.emplace(*config, load(*config)).first;
  if (!it->second) return it->second.error();
  return &it->second.value();
}

Result<Config> ConfigResolver::load(const std::string &path) const {
  Result<Config> config = load_config(path);
  // --config names the file to use: one that configures nothing was a mistake, not a default.
  if (config && !flags_.config.empty() && !config->has_settings)
    return Error{"given to --config, it has no [tool.tracelint] table: nothing would be "
                 "configured (a pyproject.toml configures tracelint there, a tracelint.toml at "
                 "its top level)",
                 path, 0, 0};
  return config;
}

Result<Options> ConfigResolver::options_for(const std::string &path) {
  Result<const Config *> config = config_for(path);
  if (!config) return config.error();
  std::string named = path == "-" ? flags_.stdin_filename : path;
  return resolve_options(*config, named, flags_.overrides);
}

bool ConfigResolver::excluded(const std::string &root, const std::string &entry) {
  std::optional<const Config *> config;
  {
    std::lock_guard lock(mutex_);
    if (auto it = scan_roots_.find(root); it != scan_roots_.end()) config = it->second;
  }
  if (!config) { // found once per scanned directory, not per entry
    Result<const Config *> found = config_for(root);
    config = found ? *found : nullptr;
    std::lock_guard lock(mutex_);
    scan_roots_[root] = *config;
  }
  return is_excluded(*config, flags_.overrides, entry);
}

bool ConfigResolver::force_excluded(const std::string &path) {
  if (path == "-") return false; // standard input is what was asked for, whatever it stands for
  Result<const Config *> config = config_for(path);
  return config && is_force_excluded(*config, flags_.overrides, path);
}

std::string describe_config_error(const Error &e) {
  return "configuration " + e.path +
         (e.line ? ":" + std::to_string(e.line) + ":" + std::to_string(e.column) : "") + ": " +
         e.message;
}

namespace {

template <class Strings> std::string listed(const Strings &items, const std::string &none) {
  if (items.empty()) return none;
  std::string out;
  for (const std::string &item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out;
}

// The values of one key, each with where it came from: "TL003 [pyproject.toml:3:10]; TL012
// [--ignore]", or the default.
class Line {
public:
  Line(std::string key) : key_(std::move(key)) {}
  void add(const std::string &value, const std::string &origin) {
    text_ += (text_.empty() ? "" : "; ") + value + " [" + origin + "]";
  }
  std::string str(const std::string &otherwise) const {
    return "  " + key_ + ": " + (text_.empty() ? otherwise + " [default]" : text_) + "\n";
  }

private:
  std::string key_;
  std::string text_;
};

} // namespace

Result<std::string> describe_settings(const std::string &path, ConfigResolver &resolver) {
  Result<const Config *> loaded = resolver.config_for(path);
  if (!loaded) return loaded.error();
  const Config *config = *loaded;
  const FlagSettings &flags = resolver.flags();
  const Overrides &cli = flags.overrides;
  auto from_config = [&](const char *key) -> const std::string * {
    if (!config) return nullptr;
    auto it = config->origin.find(key);
    return it == config->origin.end() ? nullptr : &it->second;
  };
  auto from_flag = [&](const char *key) { return flags.origin.at(key); };
  auto flag_given = [&](const char *key) { return flags.origin.count(key) > 0; };

  std::string out = "Settings for " + path + "\n";
  out += "  config file: " +
         (config           ? config->path
          : flags.isolated ? std::string("none (--isolated)")
                           : std::string("none (no .tracelint.toml, tracelint.toml or "
                                         "pyproject.toml with [tool.tracelint] up to the "
                                         "project root)")) +
         "\n";

  Line select("select");
  if (config && config->rules.select)
    select.add(listed(*config->rules.select, "none"), *from_config("select"));
  if (cli.rules.select)
    select.add(listed(*cli.rules.select, "none") + " (replaces the configuration's)",
               from_flag("select"));
  out += select.str("ALL (every rule)");
  for (auto [key, config_list, cli_list] :
       {std::tuple<const char *, const std::vector<std::string> *,
                   const std::vector<std::string> *>{
            "extend-select", config ? &config->rules.extend_select : nullptr,
            &cli.rules.extend_select},
        {"ignore", config ? &config->rules.ignore : nullptr, &cli.rules.ignore},
        {"context-names", config ? &config->context_names : nullptr, &cli.context_names},
        {"extend-exclude", config ? &config->extend_exclude : nullptr, &cli.extend_exclude}}) {
    Line line(key);
    if (config_list && !config_list->empty()) line.add(listed(*config_list, ""), *from_config(key));
    if (!cli_list->empty()) line.add(listed(*cli_list, ""), from_flag(key));
    out += line.str("none");
  }

  Line per_file("per-file-ignores");
  if (config)
    for (const PerFileIgnore &entry : config->per_file_ignores)
      per_file.add(
          "\"" + entry.pattern + "\" = " + listed(entry.selectors, "none") +
              (path_matches(entry.pattern, path == "-" ? flags.stdin_filename : path, config->root)
                   ? " (matches this path)"
                   : ""),
          *from_config("per-file-ignores"));
  out += per_file.str("none");

  Line exclude("exclude");
  if (cli.exclude)
    exclude.add(listed(*cli.exclude, "nothing"), from_flag("exclude"));
  else if (config && config->exclude)
    exclude.add(listed(*config->exclude, "nothing"), *from_config("exclude"));
  out += exclude.str(listed(default_exclude(), ""));
  Line force("force-exclude");
  if (cli.force_exclude)
    force.add(*cli.force_exclude ? "yes" : "no", from_flag("force-exclude"));
  else if (config && config->force_exclude)
    force.add(*config->force_exclude ? "yes" : "no", *from_config("force-exclude"));
  out += force.str("no (paths given by name are checked even if excluded)");

  Line severity("severity");
  if (config && !config->severity.empty()) {
    std::vector<std::string> pairs;
    for (const auto &[code, level] : config->severity)
      pairs.push_back(code + " = " + std::string(severity_name(level)));
    severity.add(listed(pairs, ""), *from_config("severity"));
  }
  out += severity.str("each rule's own");

  Line dialect("dialect");
  if (cli.dialect)
    dialect.add(std::string(dialect_name(*cli.dialect)), from_flag("dialect"));
  else if (config && config->dialect)
    dialect.add(std::string(dialect_name(*config->dialect)), *from_config("dialect"));
  if (config)
    for (const PerFileDialect &entry : config->per_file_dialect)
      if (path_matches(entry.pattern, path == "-" ? flags.stdin_filename : path, config->root))
        dialect.add("\"" + entry.pattern + "\" = " + std::string(dialect_name(entry.dialect)) +
                        " (per-file-dialect, matches this path)",
                    *from_config("per-file-dialect"));
  out += dialect.str("detected from each file's text");

  Line fail_on("fail-on");
  if (cli.fail_on)
    fail_on.add(std::string(severity_name(*cli.fail_on)), from_flag("fail-on"));
  else if (config && config->fail_on)
    fail_on.add(std::string(severity_name(*config->fail_on)), *from_config("fail-on"));
  out += fail_on.str("error");

  Result<Options> options = resolver.options_for(path);
  if (!options) return options.error();
  std::vector<std::string> enabled;
  std::size_t trace_rules = 0;
  for (const Rule *rule : all_rules()) {
    if (!rule->checks_traces()) continue;
    ++trace_rules;
    if (options->enabled(rule->code)) enabled.emplace_back(rule->code);
  }
  out += "  rules enabled: " + listed(enabled, "none") + " (" + std::to_string(enabled.size()) +
         " of " + std::to_string(trace_rules) + ")\n";

  Line size("max-file-size"), links("follow-links");
  if (flag_given("max-file-size"))
    size.add(byte_size(flags.max_file_size), from_flag("max-file-size"));
  out += size.str(byte_size(flags.max_file_size));
  if (flag_given("follow-links")) links.add("yes", from_flag("follow-links"));
  out += links.str("no");
  return out + "\n";
}

} // namespace tracelint::cli
