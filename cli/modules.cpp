#include "modules.hpp"

#include <dlfcn.h>

#include <filesystem>
#include <vector>

namespace tracelint::cli {

Result<void *> load_module_entry(const std::string &file_name, const std::string &entry,
                                 const std::string &needed_for) {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::vector<std::filesystem::path> candidates;
  if (!ec) {
    candidates.push_back(exe.parent_path() / file_name);
    candidates.push_back(exe.parent_path().parent_path() / TRACELINT_LIBDIR / "tracelint" /
                         file_name);
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
