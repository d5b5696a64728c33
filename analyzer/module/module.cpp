// libtracelint_analyzer.so: what `tracelint analyze` loads, so that the other commands start
// without Clang and LLVM (mapping and relocating them costs ~60 MB of resident memory).
#include "tracelint/analyzer/analyzer.hpp"

extern "C" int tracelint_analyze_main(int argc, const char **argv) {
  return tracelint::analyze_main(argc, argv);
}

// The entry point must match the type the loader casts it to.
static_assert(std::is_same_v<decltype(&tracelint_analyze_main), tracelint::AnalyzeMainEntry>);
