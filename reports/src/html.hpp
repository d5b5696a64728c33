#pragma once
#include "tracelint/reports/reports.hpp"
#include "tracelint/validator/validator.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

std::string render_html(const std::vector<FileReport> &reports, const RenderOptions &options);

// Text for XML and HTML reports: & < > " ' as entities, and the control characters XML 1.0
// cannot hold (all but tab and newline) as U+FFFD (\r as its character reference).
std::string markup_escape(std::string_view s);

} // namespace tracelint
