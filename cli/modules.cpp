#include "modules.hpp"

#include "tracelint/reports/reports.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <vector>

namespace tracelint::cli {

namespace {
std::filesystem::path executable_dir() {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}
} // namespace

std::string rules_doc_url() {
  if (!std::string_view(TRACELINT_DOCS_URL).empty())
    return std::string(TRACELINT_DOCS_URL) + "/rules.md";
  std::vector<std::filesystem::path> candidates;
  if (std::filesystem::path dir = executable_dir(); !dir.empty())
    // Installed (PREFIX/bin and PREFIX/share), and the wheel (tracelint/bin, tracelint/share).
    candidates.push_back(dir.parent_path() / "share" / "doc" / "tracelint" / "rules.md");
  // A build: the checkout it was built from.
  candidates.push_back(std::filesystem::path(TRACELINT_SOURCE_DIR) / "docs" / "rules.md");
  for (const auto &path : candidates) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec))
      return "file://" + uri_path(std::filesystem::weakly_canonical(path, ec).string());
  }
  return "";
}

Result<void *> load_module_entry(const std::string &file_name, const std::string &entry,
                                 const std::string &needed_for) {
  std::error_code ec;
  std::vector<std::filesystem::path> candidates;
  if (std::filesystem::path dir = executable_dir(); !dir.empty()) {
    candidates.push_back(dir / file_name);
    candidates.push_back(dir.parent_path() / TRACELINT_LIBDIR / "tracelint" / file_name);
  }
  for (const auto &path : candidates) {
    if (!std::filesystem::exists(path, ec)) continue;
    void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return Error{std::string("cannot load ") + path.string() + ": " + ::dlerror(), "", 0, 0};
    void *symbol = ::dlsym(handle, entry.c_str());
    if (!symbol) return Error{path.string() + " has no " + entry, "", 0, 0};
    return symbol;
  }
  std::string tried;
  for (const auto &path : candidates)
    tried += (tried.empty() ? "" : ", ") + path.string();
  return Error{needed_for + " needs " + file_name +
                   ", which is not installed (looked in: " + tried + ")",
               "", 0, 0};
}

} // namespace tracelint::cli
