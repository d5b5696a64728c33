#pragma once
#include "tracelint/reports/reports.hpp"
#include "tracelint/validator/validator.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

std::string render_html(const std::vector<FileReport> &reports, const RenderOptions &options);

// Text for XML and HTML reports: & < > " ' as entities, the control characters XML 1.0 cannot
// hold (all but tab and newline) as U+FFFD (\r as its character reference), and each byte that
// is not part of well-formed UTF-8 (a file name in Latin-1, say) as U+FFFD.
std::string markup_escape(std::string_view s);

} // namespace tracelint
