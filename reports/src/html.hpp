#pragma once
#include "tracelint/validator/validator.hpp"

#include <string>
#include <vector>

namespace tracelint {

std::string render_html(const std::vector<FileReport> &reports);

} // namespace tracelint
