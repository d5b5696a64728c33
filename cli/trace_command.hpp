#pragma once
// `tracelint trace` and `tracelint run`: trace a Python function or an nn.Module's forward into
// Thunder-style traces, validate them, and (run) execute them against an eager run.
#include "tracelint/tracer/tracer.hpp"

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tracelint::cli {

struct TraceArgs {
  std::string file;
  std::string function;
  std::string module_class;
  std::string method = "forward";
  std::vector<std::string> init;
  std::vector<std::string> args;
  std::string cache = "symbolic-values";
  std::string level = "ltorch";
  bool run = false;
  bool no_provenance = false;
  bool grad = false;
  bool train = false;
  std::string executors; // --executors cuda_fusion,torch
  bool show_kernels = false;
  bool verbose = false; // --run: every gradient's comparison, not only those that differ
  uint64_t seed = 0;
  unsigned jobs = 0; // 0: all cores
  std::string output;
  std::string save_io;
  bool save_io_given = false; // --save-io '' is refused, not ignored
  uint64_t max_file_size = 64ull << 20;
  uint64_t max_memory = 0; // 0: half of physical memory
  uint64_t max_python_memory = tracer::kDefaultMaxPythonMemory;
  std::string list_ops;    // trace --list-ops: "text" or "markdown"; "" to trace
  bool list_names = false; // trace --list-names
};

// Adds the options of `trace` (and `run`, which executes and prints only the comparison).
void add_trace_options(CLI::App &command, TraceArgs &args, bool is_run);
int run_trace(const TraceArgs &args, bool is_run);

} // namespace tracelint::cli
