#include "settings.hpp"

#include "io.hpp"

#include <iterator>

namespace tracelint::cli {

namespace {

template <class Strings> std::string listed(const Strings &items, const std::string &none) {
  if (items.empty()) return none;
  std::string out;
  for (const std::string &item : items)
    out += (out.empty() ? "" : ", ") + item;
  return out;
}

} // namespace

std::string describe_settings(const std::string &path, const SettingsShown &shown,
                              const Options &options) {
  std::string severity;
  for (const auto &[code, level] : options.severity)
    severity += (severity.empty() ? "" : ", ") + code + " = " + std::string(severity_name(level));
  std::string out = "Settings for " + path + "\n";
  out += "  config file: " + shown.config_source + "\n";
  out += "  select: " + listed(options.select, "ALL (every rule)") + "\n";
  out += "  ignore: " + listed(options.ignore, "none") + "\n";
  out += "  context-names: " + listed(options.context_names, "none") + "\n";
  out += "  severity: " + (severity.empty() ? std::string("each rule's own") : severity) + "\n";
  out += "  fail-on: " + std::string(severity_name(options.fail_on)) + "\n";
  out += "  max-file-size: " + byte_size(shown.max_file_size) + "\n";
  out += std::string("  follow-links: ") + (shown.follow_links ? "yes" : "no") + "\n\n";
  return out;
}

} // namespace tracelint::cli
