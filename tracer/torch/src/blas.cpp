#include "blas.hpp"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <string_view>

namespace tracelint::tracer {

namespace {
int find_libblas(dl_phdr_info *info, std::size_t, void *found) {
  std::string_view path = info->dlpi_name ? info->dlpi_name : "";
  std::size_t slash = path.rfind('/');
  std::string_view file = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (file.rfind("libblas.so", 0) != 0) return 0;
  *static_cast<std::string *>(found) = std::string(path);
  return 1;
}
} // namespace

std::optional<std::string> reference_blas_in_use() {
  std::string path;
  dl_iterate_phdr(find_libblas, &path);
  if (path.empty()) return std::nullopt;
  void *handle = ::dlopen(path.c_str(), RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) return std::nullopt;
  // Searched in the library and what it loads: Debian's OpenBLAS libblas.so.3 is a thin one
  // over libopenblas.so.0.
  bool tuned = false;
  for (const char *symbol : {"openblas_get_config", "bli_info_get_version_str", "MKL_Get_Version"})
    tuned = tuned || ::dlsym(handle, symbol) != nullptr;
  ::dlclose(handle);
  if (tuned) return std::nullopt;
  char *real = ::realpath(path.c_str(), nullptr);
  std::string shown = real ? real : path;
  std::free(real);
  return shown;
}

} // namespace tracelint::tracer
