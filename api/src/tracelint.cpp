#include "tracelint/tracelint.hpp"

namespace tracelint {

std::string Report::render(Format format) const {
  RenderOptions options;
  options.fail_on = fail_on_;
  return tracelint::render({file_}, format, options);
}

Report check(std::string_view source, const Options &options, std::string_view path) {
  return Report(check_source(std::string(path), std::string(source), options), options.fail_on);
}

} // namespace tracelint
