#pragma once
// `tracelint check --show-settings`: which configuration a path gets, and what it resolves to.
#include "tracelint/validator/validator.hpp"

#include <cstdint>
#include <string>

namespace tracelint::cli {

// What the report shows besides the options: where they came from and the read settings.
struct SettingsShown {
  std::string config_source; // the pyproject.toml's path, or why there is none
  std::uint64_t max_file_size = 0;
  bool follow_links = false;
};

// One block of "key: value" lines for path, ending with a blank line.
std::string describe_settings(const std::string &path, const SettingsShown &shown,
                              const Options &options);

} // namespace tracelint::cli
