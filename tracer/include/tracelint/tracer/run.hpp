#pragma once
// Running traced programs against an eager interpretation, without libtorch's headers: the
// command-line tool loads the libtorch part (libtracelint_torch.so) only when it runs a trace,
// so that checking traces never pays for loading libtorch.
#include "tracelint/core/result.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tracelint::tracer {

struct Comparison {
  bool equal = true;
  double max_abs_diff = 0;
  // The largest difference over the largest magnitude of the expected tensor.
  double max_rel_diff = 0;
  std::string mismatch; // where and how they differ, "" when equal
  std::string worst_at; // where in the result max_abs_diff is ("[1]"), "" for the whole result
};
struct RunOptions {
  uint64_t seed = 0;
  // Refuse, before allocating, a run whose estimate (TracedProgram::run_memory) is larger;
  // 0: no limit.
  uint64_t max_memory = 0;
  // Where to write the run's inputs, module state and results (manifest.json and raw tensor
  // files) for an independent check, such as tracer/oracle/cpython_oracle.py; "" for nowhere.
  std::string save_io;
  // Whether the inputs are those the trace was made for, so that the numbers its annotations
  // print ("int 8") are the run's: then they are checked too (false for a program whose inputs
  // were changed to reuse a symbolic trace).
  bool inputs_as_traced = true;
};

// --save-io DIR: why the folder cannot take a run's files (a symbolic link, not a folder,
// another user's, writable by others: any of them could have links planted in it), or none.
// A folder that does not exist yet is fine: the run makes it, private (0700).
std::optional<Error> save_io_folder_error(const std::string &dir);
// A new private folder (0700) beside dir: a run's files are written there first.
Result<std::string> private_folder_beside(const std::string &dir);
// Moves the private folder's files into dir (the folder itself when dir is not there yet),
// each replacing the entry of its name without following it; removes the private folder.
std::optional<Error> move_into(const std::string &private_dir, const std::string &dir);

// The default limit of a run's memory: half of this machine's physical memory.
uint64_t default_max_memory();
// "512 MiB", "4.0 GiB".
std::string format_bytes(uint64_t bytes);
// The error for a program whose run would take more than `limit` bytes (named `limit_name` in
// the message, e.g. --max-memory), or none.
std::optional<Error> run_memory_error(const TracedProgram &program, uint64_t limit,
                                      const std::string &limit_name);

// A gradient of a program traced for grad: the backward's, against libtorch autograd's on the
// eager run, from the same seeded cotangents.
struct GradientComparison {
  std::string input;       // the input's name, or the state tensor's path
  Comparison from_model;   // the backward as traced
  Comparison from_printed; // the backward after print -> parse
};

// How long a phase of the run took ("eager", "the trace", "autograd", ...).
struct PhaseTime {
  std::string phase;
  double seconds = 0;
};

struct RunReport {
  std::string device;      // "cpu" or "cuda:0"
  std::string notice;      // one line, e.g. the cuda annotations kept on a CPU-only machine
  Comparison from_model;   // the computation as traced
  Comparison from_printed; // the computation after print -> parse
  std::vector<GradientComparison> gradients; // traced for grad: one per input with a gradient
  // With the cuda_fusion executor: how its kernels were compiled and where the regions ran.
  std::string fusion;
  std::vector<PhaseTime> timings; // in the order they ran
  bool ok() const {
    bool grads = true;
    for (const GradientComparison &g : gradients)
      grads = grads && g.from_model.equal && g.from_printed.equal;
    return from_model.equal && from_printed.equal && grads;
  }
  // What the run found: the forward's comparisons, each gradient's (all with verbose, else only
  // those that differ), a one-line result (the largest differences over everything compared,
  // and where) and the time of each phase.
  std::string summary(bool verbose = false) const;
};

// Traced program vs eager: on CUDA when libtorch has it and a device is present, else CPU.
// request.progress is told each phase (constructing, the eager run, the traces' runs with the
// statements run so far, autograd, the backwards).
Result<RunReport> run_and_compare(const TraceRequest &request, const TracedProgram &program,
                                  const RunOptions &options);

// The entry point of the loadable module libtracelint_torch.so (extern "C", same compiler).
using RunAndCompareEntry = void (*)(const TraceRequest &, const TracedProgram &, const RunOptions &,
                                    std::optional<Result<RunReport>> &);
inline constexpr const char *kRunAndCompareEntry = "tracelint_torch_run_and_compare";
// Its maker of TraceRequest::value_backend's backend (libtorch's eager one, seeded).
using ValueBackendEntry = void (*)(uint64_t seed, std::unique_ptr<Backend> &);
inline constexpr const char *kValueBackendEntry = "tracelint_torch_make_value_backend";
inline constexpr const char *kTorchModule = "libtracelint_torch.so";

} // namespace tracelint::tracer
