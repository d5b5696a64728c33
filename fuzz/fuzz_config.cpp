// The configuration reader on arbitrary pyproject.toml bytes and a file path (the input's first
// line): never a crash, a hang or a sanitizer report; what it reads resolves for the path; and,
// against CPython's tomllib (fuzz/python_oracle.py), text tomllib refuses is an error and a
// pyproject without [tool.tracelint] that tomllib reads is an empty configuration; where the
// table is read, its `select` holds the strings tomllib reads there.
#include "python_oracle.hpp"

#include "tracelint/validator/config.hpp"
#include "tracelint/validator/options.hpp"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace tracelint;

namespace {

// A folder of this process's own, made once: each input is written there as pyproject.toml.
const std::string &work_dir() {
  static const std::string dir = [] {
    char name[] = "/tmp/fuzz-config-XXXXXX";
    if (!mkdtemp(name)) std::abort();
    std::string d = name;
    std::ofstream(d + "/.git"); // the project root: find_config stops here
    return d;
  }();
  return dir;
}

// The path part of the input: a relative file name, or t.py where it would leave the folder.
std::string file_path(const std::string &line) {
  bool plain = !line.empty() && line[0] != '/' && line.find("..") == std::string::npos &&
               line.find('\0') == std::string::npos && line.size() < 200;
  return work_dir() + "/" + (plain ? line : std::string("t.py"));
}

void check_against_tomllib(const std::string &pyproject, const std::string &text,
                           const Result<Config> &config) {
  static fuzzing::PythonOracle oracle;
  nlohmann::json answer = oracle.ask('t', text);
  if (answer.contains("skip")) return;
  Result<std::string> read = pyproject_text(pyproject);
  // A key too deep for toml++ makes tracelint read only its own tables: the rest is not checked.
  bool whole = read && read.value() == text;
  if (!answer["valid"].get<bool>()) {
    if (whole && config) __builtin_trap(); // TOML that tomllib refuses was read
    return;
  }
  const nlohmann::json &table = answer["tracelint"];
  if (table.is_null()) {
    if (!config) __builtin_trap(); // a valid pyproject without our table is refused
    return;
  }
  if (!config || !table.is_object() || !table.contains("select")) return;
  const nlohmann::json &select = table["select"];
  if (!select.is_array() || !config.value().rules.select) return;
  std::vector<std::string> expected;
  for (const nlohmann::json &code : select) {
    if (!code.is_string()) return;
    // The string tomllib read, normalized as every selector is (upper case): the TOML reading
    // is what is compared.
    expected.push_back(normalize_selector(code.get<std::string>()));
  }
  if (expected != *config.value().rules.select) __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string input(reinterpret_cast<const char *>(data), size);
  std::size_t newline = input.find('\n');
  std::string path = file_path(input.substr(0, newline));
  std::string text = newline == std::string::npos ? "" : input.substr(newline + 1);
  std::string pyproject = work_dir() + "/pyproject.toml";
  std::ofstream(pyproject, std::ios::binary | std::ios::trunc) << text;

  Result<Config> config = load_config(pyproject);
  if (!config && config.error().message.empty()) __builtin_trap();
  if (config) {
    Options options = resolve_options(&config.value(), path, Overrides{});
    (void)options;
    (void)is_excluded(&config.value(), Overrides{}, path);
  }
  (void)find_config(work_dir());
  check_against_tomllib(pyproject, text, config);
  return 0;
}
