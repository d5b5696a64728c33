#pragma once
// One translation unit through the printer analysis: the writes of every function in it (but
// those of system headers), the outputs that hold Python, and the rules' findings on them in
// the main file.
#include "unit_summaries.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/SourceLocation.h>
#include <llvm/Support/Regex.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracelint::analyzer {

struct PrinterSettings {
  // Functions that print Python whatever they write; not_codegen: functions that never do
  // (their writes are neither checked nor evidence).
  std::optional<llvm::Regex> codegen;
  std::optional<llvm::Regex> not_codegen;
  llvm::Regex repr;
};

struct LocatedFinding {
  std::string code;
  clang::SourceLocation begin, end; // in the main file
  std::string message;
};

// units: the run's summaries across translation units (several files analysed), or none.
std::unique_ptr<clang::ASTConsumer> make_printer_consumer(const PrinterSettings &settings,
                                                          std::vector<LocatedFinding> &findings,
                                                          UnitSummaries *units = nullptr);

} // namespace tracelint::analyzer
