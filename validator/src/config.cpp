#include "tracelint/validator/config.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <toml++/toml.h>

namespace tracelint {

namespace fs = std::filesystem;

namespace {

// Where a node stands, for errors and --show-settings.
struct Place {
  const std::string &path;
  // A tracelint.toml: the keys are at the top level, so messages name them without the
  // "[tool.tracelint]" table they have in a pyproject.toml ("[tool.tracelint.severity]" is
  // "[severity]").
  bool top_level = false;
  Error error(std::string message, const toml::node &node) const {
    return Error{in_file(std::move(message)), path, node.source().begin.line,
                 node.source().begin.column};
  }
  std::string in_file(std::string message) const {
    if (!top_level) return message;
    if (message.starts_with("[tool.tracelint] ")) return message.substr(17);
    if (message.starts_with("[tool.tracelint]: ")) return message.substr(18);
    if (message.starts_with("[tool.tracelint.")) return "[" + message.substr(16);
    return message;
  }
  std::string of(const toml::node &node) const {
    return path + ":" + std::to_string(node.source().begin.line) + ":" +
           std::to_string(node.source().begin.column);
  }
};

using Reader = std::function<std::optional<Error>(const toml::node &, Config &, const Place &)>;

struct KeyReader {
  ConfigKey key;
  Reader read;
};

std::optional<Error> read_strings(const toml::node &node, const Place &place, std::string_view key,
                                  std::vector<std::string> &into) {
  const toml::array *array = node.as_array();
  if (!array)
    return place.error("[tool.tracelint] " + std::string(key) + " must be an array of strings",
                       node);
  for (const toml::node &item : *array) {
    if (!item.is_string())
      return place.error("[tool.tracelint] " + std::string(key) + " must hold strings", item);
    into.push_back(*item.value<std::string>());
  }
  return std::nullopt;
}

// An array of rule codes or prefixes, normalized, each one checked.
std::optional<Error> read_selectors(const toml::node &node, const Place &place,
                                    const std::string &what, std::vector<std::string> &into) {
  std::vector<std::string> raw;
  if (std::optional<Error> e = read_strings(node, place, what, raw)) return e;
  const toml::array &array = *node.as_array();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    std::string selector = normalize_selector(raw[i]);
    if (std::optional<std::string> why = unknown_selector(selector))
      return place.error("[tool.tracelint] " + what + ": " + *why, *array.get(i));
    into.push_back(std::move(selector));
  }
  return std::nullopt;
}

std::optional<Severity> severity_value(const toml::node &node) {
  return node.is_string() ? parse_severity(*node.value<std::string>()) : std::nullopt;
}

std::string known_names(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &n : names)
    out += (out.empty() ? "" : ", ") + n;
  return out;
}

// An unknown key of a table: the closest known one, or the list of them.
Error unknown_key(const Place &place, const std::string &table, const toml::key &key,
                  const std::vector<std::string> &known) {
  std::string message = table + ": unknown key '" + std::string(key.str()) + "'";
  if (std::optional<std::string> close = did_you_mean(key.str(), known))
    message += " (did you mean " + *close + "?)";
  else
    message += " (known keys: " + known_names(known) + ")";
  return Error{place.in_file(message), place.path, key.source().begin.line,
               key.source().begin.column};
}

// {"enum": ["thunder", "fx", ...]}: the dialects a configuration may name.
std::string dialect_schema() {
  std::string out = R"({"enum": [)";
  for (const std::string &name : dialect_names())
    out += (out.back() == '[' ? "\"" : ", \"") + name + "\"";
  return out + "]}";
}

// The files that configure tracelint, besides a pyproject.toml's [tool.tracelint] (which comes
// after them in a folder): their keys are at the top level, as ruff.toml's are.
constexpr const char *kConfigFileNames[] = {".tracelint.toml", "tracelint.toml"};

// The analyzer's own keys ([tool.tracelint.analyzer]; `tracelint analyze` reads their values).
const std::vector<std::string> kAnalyzerKeys = {"codegen-pattern", "repr-pattern"};

// Every [tool.tracelint] key with its reader. A new key is one more row here (and a field in
// Config); the error for a key not listed names the closest of these.
const std::vector<KeyReader> &key_readers() {
  static const std::vector<KeyReader> readers = {
      {{"select", "rule codes or prefixes to check (replaces the default: every rule)",
        R"({"type": "array", "items": {"type": "string", "pattern": "^([A-Za-z]+[0-9]*|ALL|all)$"}})"},
       [](const toml::node &n, Config &c, const Place &p) -> std::optional<Error> {
         c.rules.select.emplace();
         return read_selectors(n, p, "select", *c.rules.select);
       }},
      {{"extend-select", "rule codes or prefixes added to select",
        R"({"type": "array", "items": {"type": "string", "pattern": "^([A-Za-z]+[0-9]*|ALL|all)$"}})"},
       [](const toml::node &n, Config &c, const Place &p) {
         return read_selectors(n, p, "extend-select", c.rules.extend_select);
       }},
      {{"ignore", "rule codes or prefixes not to check",
        R"({"type": "array", "items": {"type": "string", "pattern": "^([A-Za-z]+[0-9]*|ALL|all)$"}})"},
       [](const toml::node &n, Config &c, const Place &p) {
         return read_selectors(n, p, "ignore", c.rules.ignore);
       }},
      {{"per-file-ignores", "a table: glob pattern = [codes or prefixes] those files skip",
        R"({"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}})"},
       [](const toml::node &n, Config &c, const Place &p) -> std::optional<Error> {
         const toml::table *table = n.as_table();
         if (!table)
           return p.error("[tool.tracelint] per-file-ignores must be a table of "
                          "\"pattern\" = [\"TL003\", ...]",
                          n);
         for (auto &&[pattern, codes] : *table) {
           PerFileIgnore entry{std::string(pattern.str()), {}};
           if (std::optional<Error> e = read_selectors(
                   codes, p, "per-file-ignores \"" + entry.pattern + "\"", entry.selectors))
             return e;
           c.per_file_ignores.push_back(std::move(entry));
         }
         return std::nullopt;
       }},
      {{"exclude", "glob patterns a directory scan leaves out (replaces the default list)",
        R"({"type": "array", "items": {"type": "string"}})"},
       [](const toml::node &n, Config &c, const Place &p) {
         c.exclude.emplace();
         return read_strings(n, p, "exclude", *c.exclude);
       }},
      {{"extend-exclude", "glob patterns a directory scan also leaves out",
        R"({"type": "array", "items": {"type": "string"}})"},
       [](const toml::node &n, Config &c, const Place &p) {
         return read_strings(n, p, "extend-exclude", c.extend_exclude);
       }},
      {{"force-exclude",
        "true: exclude and extend-exclude apply to paths given by name too (as "
        "pre-commit gives them)",
        R"({"type": "boolean"})"},
       [](const toml::node &n, Config &c, const Place &p) -> std::optional<Error> {
         c.force_exclude = n.value<bool>();
         if (!n.is_boolean())
           return p.error("[tool.tracelint] force-exclude must be true or false", n);
         return std::nullopt;
       }},
      {{"context-names",
        "names the traces' python_ctx provides, exactly or as glob patterns (\"apex_*\")",
        R"({"type": "array", "items": {"type": "string"}})"},
       [](const toml::node &n, Config &c, const Place &p) {
         return read_strings(n, p, "context-names", c.context_names);
       }},
      {{"dialect",
        "the printer the files come from: \"thunder\", \"fx\", \"export\" or "
        "\"nvfuser\" (default: detected from each file's text)",
        dialect_schema()},
       [](const toml::node &n, Config &c, const Place &p) -> std::optional<Error> {
         std::optional<Dialect> d =
             n.is_string() ? parse_dialect(*n.value<std::string>()) : std::nullopt;
         if (!d)
           return p.error("[tool.tracelint] dialect must be one of " + known_names(dialect_names()),
                          n);
         c.dialect = d;
         return std::nullopt;
       }},
      {{"per-file-dialect", "a table: glob pattern = dialect of the files it matches",
        R"({"type": "object", "additionalProperties": )" + dialect_schema() + "}"},
       [](const toml::node &n, Config &c, const Place &p) -> std::optional<Error> {
         const toml::table *table = n.as_table();
         if (!table)
           return p.error("[tool.tracelint] per-file-dialect must be a table of "
                          "\"pattern\" = \"fx\"",
                          n);
         for (auto &&[pattern, value] : *table) {
           std::optional<Dialect> d =
               value.is_string() ? parse_dialect(*value.value<std::string>()) : std::nullopt;
           if (!d)
             return p.error("[tool.tracelint] per-file-dialect \"" + std::string(pattern.str()) +
                                "\" must be one of " + known_names(dialect_names()),
                            value);
           c.per_file_dialect.push_back({std::string(pattern.str()), *d});
         }
         return std::nullopt;
       }},
      {{"severity", "a table: rule code = \"error\" | \"warning\" | \"info\"",
        R"({"type": "object", "propertyNames": {"pattern": "^[A-Za-z]+[0-9]+$"}, )"
        R"("additionalProperties": {"enum": ["error", "warning", "info"]}})"},
       [](const toml::node &n, Config &c, const Place &p) -> std::optional<Error> {
         const toml::table *table = n.as_table();
         if (!table)
           return p.error("[tool.tracelint] severity must be a table of TL003 = \"warning\"", n);
         for (auto &&[key, value] : *table) {
           std::string code = normalize_selector(key.str());
           if (std::optional<std::string> why = unknown_code(code))
             return p.error("[tool.tracelint.severity] " + *why, value);
           std::optional<Severity> s = severity_value(value);
           if (!s)
             return p.error("[tool.tracelint.severity] " + code +
                                " must be \"error\", \"warning\" or \"info\"",
                            value);
           c.severity[code] = *s;
         }
         return std::nullopt;
       }},
      {{"fail-on", "the lowest severity that fails the check: \"error\", \"warning\" or \"info\"",
        R"({"enum": ["error", "warning", "info"]})"},
       [](const toml::node &n, Config &c, const Place &p) -> std::optional<Error> {
         c.fail_on = severity_value(n);
         if (!c.fail_on)
           return p.error("[tool.tracelint] fail-on must be \"error\", \"warning\" or \"info\"", n);
         return std::nullopt;
       }},
      {{"analyzer", "a table for `tracelint analyze`: codegen-pattern, repr-pattern",
        R"({"type": "object", "properties": {"codegen-pattern": {"type": "string"}, "repr-pattern": {"type": "string"}}, "additionalProperties": false})"},
       [](const toml::node &n, Config &, const Place &p) -> std::optional<Error> {
         const toml::table *table = n.as_table();
         if (!table) return p.error("[tool.tracelint] analyzer must be a table", n);
         for (auto &&[key, value] : *table) {
           if (std::find(kAnalyzerKeys.begin(), kAnalyzerKeys.end(), key.str()) ==
               kAnalyzerKeys.end())
             return unknown_key(p, "[tool.tracelint.analyzer]", key, kAnalyzerKeys);
           if (!value.is_string())
             return p.error("[tool.tracelint.analyzer] " + std::string(key.str()) +
                                " must be a string",
                            value);
         }
         return std::nullopt;
       }},
  };
  return readers;
}

bool glob(const std::string &pattern, const std::string &text) {
  if (::fnmatch(pattern.c_str(), text.c_str(), 0) == 0) return true;
  // "a/**/b" also matches "a/b": ** stands for any number of folders, none included.
  std::size_t at = pattern.find("**/");
  return at != std::string::npos && glob(pattern.substr(0, at) + pattern.substr(at + 3), text);
}

// toml++ parses a dotted key by recursion, a level per part: 40,000 parts overflow the stack.
// No configuration nests this deep; a key past it is refused before parsing.
constexpr std::size_t kMaxKeyParts = 128;

// The most parts of a dotted key on any line of a TOML text: the header of a table (`[a.b]`,
// `[[a.b]]`) or the key before a line's `=`, dots inside quotes not counted.
std::size_t deepest_key(std::string_view text) {
  std::size_t deepest = 0;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    std::size_t first = line.find_first_not_of(" \t");
    bool header = first != std::string_view::npos && line[first] == '[';
    std::size_t parts = 1;
    char quote = 0;
    for (std::size_t i = first == std::string_view::npos ? line.size() : first; i < line.size();
         ++i) {
      char c = line[i];
      if (quote) {
        if (c == quote) quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '.') {
        ++parts;
      } else if (c == '#' || (!header && c == '=') || (header && c == ']')) {
        break;
      }
    }
    deepest = std::max(deepest, parts);
    begin = end + 1;
  }
  return deepest;
}

// The [tool.tracelint] tables of a pyproject, alone: the lines from a `[tool.tracelint...]`
// header to the next header of another table.
std::string tracelint_tables(std::string_view text) {
  std::string out;
  bool inside = false;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = std::min(text.find('\n', begin), text.size());
    std::string_view line = text.substr(begin, end - begin);
    std::size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] == '[') {
      std::string_view name = line.substr(first + (line.substr(first).starts_with("[[") ? 2 : 1));
      name.remove_prefix(std::min(name.find_first_not_of(" \t"), name.size()));
      inside = name.starts_with("tool.tracelint") &&
               (name.size() == 14 || name[14] == ']' || name[14] == '.' || name[14] == ' ');
    }
    out += inside ? std::string(line) + "\n" : "\n"; // line numbers stay the file's
    begin = end + 1;
  }
  return out;
}

} // namespace

const std::vector<ConfigKey> &config_keys() {
  static const std::vector<ConfigKey> keys = [] {
    std::vector<ConfigKey> out;
    for (const KeyReader &r : key_readers())
      out.push_back(r.key);
    return out;
  }();
  return keys;
}

namespace {

// Whether a token is a TOML integer or float as the spec spells them (so that only a number
// toml++ cannot hold is read as 0, never a malformed one, which tomllib refuses too).
bool toml_number(std::string_view token) {
  static const std::regex number(
      R"([+-]?(0|[1-9](_?[0-9])*)(\.[0-9](_?[0-9])*)?([eE][+-]?[0-9](_?[0-9])*)?)"
      R"(|0x[0-9A-Fa-f](_?[0-9A-Fa-f])*|0o[0-7](_?[0-7])*|0b[01](_?[01])*)");
  return std::regex_match(token.begin(), token.end(), number);
}

// Whether the token at [begin, end) of a line is a key, not a value: followed by `=` or by the
// `.` of a dotted key, or in a table header (`[a.+0]`). A key spelled as a number is not a
// number toml++ refused: `+0 = ""` is an error for tomllib too.
bool in_key_position(const std::string &text, std::size_t line_start, std::size_t line_end,
                     std::size_t end) {
  std::size_t next = text.find_first_not_of(" \t", end);
  if (next < line_end && (text[next] == '=' || text[next] == '.')) return true;
  std::size_t first = text.find_first_not_of(" \t", line_start);
  return first < line_end && text[first] == '[' &&
         text.substr(line_start, end - line_start).find('=') == std::string::npos;
}

// Whether a TOML number is one toml++ refuses for its size: an integer past 64 bits, a float
// past a double's range, or one spelled in more than 126 characters or 128 digits. Any other
// token at a parse error is not what toml++ refused for its size (`+0 = ""` is a bad key).
bool too_large_for_toml_plus_plus(const std::string &token) {
  std::string digits;
  for (char c : token)
    if (c != '_') digits += c;
  std::size_t digit_count = std::count_if(digits.begin(), digits.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c));
  });
  if (token.size() > 126 || digit_count > 128) return true;
  errno = 0;
  char *end = nullptr;
  bool prefixed = digits.size() > 2 && digits[0] == '0' && std::isalpha(digits[1]);
  if (prefixed) {
    int base = digits[1] == 'x' ? 16 : digits[1] == 'o' ? 8 : 2;
    unsigned long long value = std::strtoull(digits.c_str() + 2, &end, base);
    return errno == ERANGE || value > static_cast<unsigned long long>(INT64_MAX);
  }
  if (digits.find_first_of(".eE") == std::string::npos) {
    (void)std::strtoll(digits.c_str(), &end, 10);
    return errno == ERANGE;
  }
  (void)std::strtod(digits.c_str(), &end);
  return errno == ERANGE;
}

// The bounds of the run of number characters (digits, letters, '_', sign, '.') at or just
// before `at` in text, within [begin, end).
std::pair<std::size_t, std::size_t> token_at(const std::string &text, std::size_t begin,
                                             std::size_t end, std::size_t at) {
  auto part = [&](std::size_t i) {
    char c = text[i];
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '+' || c == '-' ||
           c == '.';
  };
  if ((at >= end || !part(at)) && at > begin && part(at - 1)) --at;
  std::size_t b = at, e = at;
  while (b > begin && part(b - 1))
    --b;
  while (e < end && part(e))
    ++e;
  return {b, e};
}

// toml++ refuses a number past 64 bits, a float past a double's range, and one spelled in more
// than 126 characters or 128 digits (TOML's spec lets a reader refuse them); tomllib, which
// Python's tools read pyproject.toml with, reads them (a Python int, inf). So any number
// spelled as TOML spells one that toml++ refuses is read as 0 and parsed again, so that another
// tool's `x = 10**30` does not stop tracelint: tracelint's own keys take no numbers, so one
// there is still an error (of type). Other errors are the file's.
toml::table parse_pyproject(std::string text, const std::string &path) {
  std::string last; // the same number refused twice: it was not what toml++ refused
  while (true) {
    try {
      return toml::parse(text, path);
    } catch (const toml::parse_error &e) {
      // The token at the error's line and column (a column counts characters, not bytes).
      std::size_t line_start = 0;
      for (uint32_t line = 1; line < e.source().begin.line; ++line) {
        std::size_t newline = text.find('\n', line_start);
        if (newline == std::string::npos) throw;
        line_start = newline + 1;
      }
      std::size_t line_end = std::min(text.find('\n', line_start), text.size());
      std::size_t at = line_start;
      for (uint32_t column = 1; column < e.source().begin.column && at < line_end; ++column) {
        ++at;
        while (at < line_end && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
          ++at;
      }
      auto [begin, end] = token_at(text, line_start, line_end, at);
      std::string token = text.substr(begin, end - begin);
      // A number spelled as TOML spells one that toml++ still refuses is past what it holds.
      if (!toml_number(token) || !too_large_for_toml_plus_plus(token) ||
          in_key_position(text, line_start, line_end, end) || token == last)
        throw;
      last = "0";
      text.replace(begin, end - begin, "0");
    }
  }
}

} // namespace

Result<std::string> pyproject_text(const std::string &path) {
  std::error_code kind_error;
  if (fs::is_directory(path, kind_error))
    return Error{"is a folder, not a pyproject.toml", path, 0, 0};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read the file", path, 0, 0};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (deepest_key(text) <= kMaxKeyParts) return text;
  // The deep key is another tool's: only tracelint's tables are read, which must not have one.
  text = tracelint_tables(text);
  if (deepest_key(text) > kMaxKeyParts)
    return Error{"[tool.tracelint] has a dotted key of more than " + std::to_string(kMaxKeyParts) +
                     " parts",
                 path, 0, 0};
  return text;
}

std::string config_schema() {
  nlohmann::ordered_json properties = nlohmann::ordered_json::object();
  for (const ConfigKey &key : config_keys()) {
    nlohmann::ordered_json property = {{"description", key.help}};
    property.update(nlohmann::ordered_json::parse(key.schema));
    properties[std::string(key.name)] = std::move(property);
  }
  nlohmann::ordered_json schema = {
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"title", "tracelint configuration"},
      {"description", "The keys of a tracelint.toml or .tracelint.toml (at the top level) and of "
                      "pyproject.toml's [tool.tracelint] table. Generated by `tracelint config "
                      "--schema` from the settings code."},
      {"type", "object"},
      {"properties", std::move(properties)},
      {"additionalProperties", false}};
  return schema.dump(2) + "\n";
}

bool is_pyproject(const std::string &path) {
  return fs::path(path).filename() == "pyproject.toml";
}

Result<Config> load_config(const std::string &path) {
  Config config;
  config.path = path;
  std::error_code ec;
  config.root = fs::absolute(path, ec).parent_path().lexically_normal().string();
  Result<std::string> text = pyproject_text(path);
  if (!text) return text.error();
  toml::table table;
  try {
    table = parse_pyproject(text.value(), path);
  } catch (const toml::parse_error &e) {
    return Error{std::string(e.description()), path, e.source().begin.line,
                 e.source().begin.column};
  }
  bool pyproject = is_pyproject(path);
  Place place{path, !pyproject};
  const toml::node *section = pyproject ? table["tool"]["tracelint"].node() : &table;
  if (!section) return config;
  if (!section->is_table()) return place.error("[tool.tracelint] must be a table", *section);
  config.has_settings = true;
  std::vector<std::string> known;
  for (const ConfigKey &k : config_keys())
    known.emplace_back(k.name);
  for (auto &&[key, value] : *section->as_table()) {
    // A named copy: clang 14 (the fuzz and sanitizer builds) cannot capture a structured binding.
    const std::string_view key_name = key.str();
    auto reader = std::find_if(key_readers().begin(), key_readers().end(),
                               [&](const KeyReader &r) { return r.key.name == key_name; });
    if (reader == key_readers().end() && !pyproject && key_name == "tool")
      return place.error("a [tool.tracelint] table in a " + fs::path(path).filename().string() +
                             ": its keys are at the top level, without a [tool.tracelint] "
                             "header (that table is for pyproject.toml)",
                         value);
    if (reader == key_readers().end()) return unknown_key(place, "[tool.tracelint]", key, known);
    if (std::optional<Error> e = reader->read(value, config, place)) return *e;
    config.origin[std::string(key.str())] = place.of(value);
  }
  return config;
}

std::optional<std::string> find_config(const std::string &dir) {
  std::error_code ec;
  fs::path at = fs::absolute(dir, ec).lexically_normal();
  if (ec) return std::nullopt;
  if (at.filename().empty()) at = at.parent_path(); // "/p/." is "/p/": its folder is /p
  while (true) {
    // ruff's order within a folder: .tracelint.toml, tracelint.toml (whatever they hold), then a
    // pyproject.toml that has [tool.tracelint].
    for (const char *name : kConfigFileNames)
      if (fs::is_regular_file(at / name, ec)) return (at / name).string();
    fs::path candidate = at / "pyproject.toml";
    if (fs::is_regular_file(candidate, ec)) {
      try {
        Result<std::string> text = pyproject_text(candidate.string());
        if (!text) return candidate.string(); // let load_config report the error
        toml::table table = parse_pyproject(text.value(), candidate.string());
        if (table["tool"]["tracelint"]) return candidate.string();
      } catch (const toml::parse_error &) {
        return candidate.string(); // let load_config report the error
      }
    }
    // The project root ends the search, as in ruff: the directory a checkout starts at.
    if (fs::exists(at / ".git", ec)) return std::nullopt;
    if (!at.has_parent_path() || at.parent_path() == at) return std::nullopt;
    at = at.parent_path();
  }
}

Options resolve_options(const Config *config, const std::string &path, const Overrides &overrides) {
  Options options;
  if (config) {
    if (!config->rules.empty()) options.rules.push_back(config->rules);
    options.context_names.insert(config->context_names.begin(), config->context_names.end());
    options.severity = config->severity;
    if (config->fail_on) options.fail_on = *config->fail_on;
    options.dialect = config->dialect;
    for (const PerFileDialect &entry : config->per_file_dialect)
      if (path_matches(entry.pattern, path, config->root)) options.dialect = entry.dialect;
  }
  if (overrides.dialect) options.dialect = overrides.dialect;
  if (!overrides.rules.empty()) options.rules.push_back(overrides.rules);
  options.context_names.insert(overrides.context_names.begin(), overrides.context_names.end());
  if (overrides.fail_on) options.fail_on = *overrides.fail_on;
  if (config) {
    RuleSelection per_file;
    for (const PerFileIgnore &entry : config->per_file_ignores)
      if (path_matches(entry.pattern, path, config->root))
        per_file.ignore.insert(per_file.ignore.end(), entry.selectors.begin(),
                               entry.selectors.end());
    if (!per_file.empty()) options.rules.push_back(std::move(per_file));
  }
  return options;
}

const std::vector<std::string> &default_exclude() {
  static const std::vector<std::string> list = {
      ".bzr",        ".direnv",      ".eggs",          ".git",    ".git-rewrite", ".hg",
      ".mypy_cache", ".nox",         ".pants.d",       ".pytype", ".ruff_cache",  ".svn",
      ".tox",        ".venv",        "__pypackages__", "_build",  "buck-out",     "build",
      "dist",        "node_modules", "site-packages",  "venv"};
  return list;
}

bool is_excluded(const Config *config, const Overrides &overrides, const std::string &path) {
  std::string root = config ? config->root : fs::current_path().string();
  const std::vector<std::string> &base = overrides.exclude           ? *overrides.exclude
                                         : config && config->exclude ? *config->exclude
                                                                     : default_exclude();
  auto matches = [&](const std::string &candidate) {
    auto any = [&](const std::vector<std::string> &patterns) {
      return std::any_of(patterns.begin(), patterns.end(),
                         [&](const std::string &p) { return path_matches(p, candidate, root); });
    };
    return any(base) || (config && any(config->extend_exclude)) || any(overrides.extend_exclude);
  };
  // The path, or a folder it is in below root (a scan meets those first; a single path, from
  // the pytest plugin say, must be left out all the same).
  std::error_code ec;
  fs::path at = fs::absolute(path, ec).lexically_normal();
  fs::path top = fs::path(root).lexically_normal();
  for (fs::path p = at; !p.empty() && p != top && p.has_relative_path(); p = p.parent_path()) {
    if (matches(p.string())) return true;
    fs::path relative = p.parent_path().lexically_relative(top);
    if (relative.empty() || *relative.begin() == "..") break; // left root
  }
  return false;
}

const std::vector<std::string> &config_file_names() {
  static const std::vector<std::string> names = {kConfigFileNames[0], kConfigFileNames[1],
                                                 "pyproject.toml"};
  return names;
}

bool is_force_excluded(const Config *config, const Overrides &overrides, const std::string &path) {
  bool force = overrides.force_exclude.value_or(config && config->force_exclude.value_or(false));
  return force && is_excluded(config, overrides, path);
}

bool path_matches(std::string_view pattern, const std::string &path, const std::string &root) {
  std::string p(pattern);
  while (p.size() > 1 && p.back() == '/')
    p.pop_back(); // "build/" names the folder build
  fs::path file(path);
  if (p.find('/') == std::string::npos) return glob(p, file.filename().string());
  std::error_code ec;
  fs::path absolute = fs::absolute(file, ec).lexically_normal();
  fs::path relative = absolute.lexically_relative(root);
  bool inside = !relative.empty() && *relative.begin() != "..";
  if (p.rfind("./", 0) == 0) p = p.substr(2);
  return glob(p, inside ? relative.string() : absolute.string()) ||
         (!p.empty() && p[0] == '/' && glob(p, absolute.string()));
}

} // namespace tracelint
