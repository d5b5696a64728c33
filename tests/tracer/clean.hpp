#pragma once
// What every trace the tracer prints must be: zero findings of any severity from the validator.
#include "tracelint/validator/validator.hpp"

#include <doctest/doctest.h>

#include <string>

namespace test {

inline void require_clean(const std::string &printed) {
  tracelint::Options options;
  options.fail_on = tracelint::Severity::Info;
  tracelint::FileReport report = tracelint::check_source("traced.py", printed, options);
  std::string found;
  for (const tracelint::Diagnostic &d : report.diagnostics)
    found += std::to_string(d.span.line) + ":" + std::to_string(d.span.column) + " " + d.code +
             " " + d.message + "\n";
  INFO(printed);
  DOCTEST_CHECK_MESSAGE(report.diagnostics.empty(), found);
}

} // namespace test
