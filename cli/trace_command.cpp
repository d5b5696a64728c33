#include "trace_command.hpp"

#include "file_writer.hpp"
#include "io.hpp"
#include "modules.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/reports/reports.hpp"
#include "tracelint/tracer/run.hpp"
#include "tracelint/tracer/tracer.hpp"
#include "tracelint/validator/validator.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <thread>

namespace tracelint::cli {

namespace {

constexpr int kClean = 0;
constexpr int kFindings = 1;
constexpr int kUsage = 2;

void print_error(const Error &e, const std::string &fallback_path) {
  std::string path = e.path.empty() ? fallback_path : e.path;
  std::cerr << "tracelint: ";
  if (!path.empty() && e.line)
    std::cerr << path << ":" << e.line << ":" << e.column << ": ";
  else if (!path.empty() && !e.message.starts_with("--arg"))
    std::cerr << path << ": ";
  std::cerr << "error: " << e.message << "\n";
}

// libtracelint_torch.so, next to the executable or in its lib/tracelint when installed.
Result<tracer::RunAndCompareEntry> load_torch_module() {
  Result<void *> entry = load_module_entry(tracer::kTorchModule, tracer::kRunAndCompareEntry,
                                           "running traces (libtorch)");
  if (!entry) return entry.error();
  return reinterpret_cast<tracer::RunAndCompareEntry>(*entry);
}

} // namespace

void add_trace_options(CLI::App &command, TraceArgs &args, bool is_run) {
  command.add_option("file", args.file, "The Python file that defines the function or module")
      ->required();
  auto *function = command.add_option("-f,--function", args.function, "The function to trace");
  auto *module = command.add_option(
      "-m,--module", args.module_class,
      "The nn.Module class whose method (--method, default forward) to trace, on an instance "
      "made as CLASS(**init) in eval mode");
  function->excludes(module);
  module->excludes(function);
  command.add_option("--method", args.method, "With --module: the method to trace")
      ->capture_default_str();
  command
      .add_option("--init", args.init,
                  "With --module: a constructor argument NAME=EXPR, repeatable; EXPR is Python "
                  "evaluated in the file's namespace ('config=GPTConfig(n_layer=2, n_head=2)')")
      ->take_all();
  command
      .add_option("-a,--arg", args.args,
                  "An input, NAME=VALUE, repeatable: a tensor DTYPE[DIMS][@DEVICE][:LO..HI] "
                  "(f32[2, 3], bf16[4]@cuda, i64[], i64[2, 16]:0..64 for indices in [0, 64)) or "
                  "a Python literal "
                  "(4, 0.5, '(..., slice(None, 8, None))', '(2, 6, 3)', \"{'k': 1}\")")
      ->take_all();
  command
      .add_option("--cache", args.cache,
                  "symbolic-values (ints and tensor dims become IntegerProxy names) or "
                  "constant-values (specialised)")
      ->check(CLI::IsMember({"symbolic-values", "constant-values"}))
      ->capture_default_str();
  command
      .add_option("--level", args.level,
                  "ltorch (torch-level symbols, prims as subsymbol comments) or prims (flattened)")
      ->check(CLI::IsMember({"ltorch", "prims"}))
      ->capture_default_str();
  command.add_option("--seed", args.seed, "Seed of the random inputs of --run")
      ->capture_default_str();
  command.add_option("-j,--jobs", args.jobs,
                     "Threads that parse a large function body while it is traced, and check "
                     "the emitted trace (default: all cores)");
  command.add_flag("--no-provenance", args.no_provenance,
                   "Leave out the `# file.py:LINE: source` comments");
  command
      .add_option("--max-file-size", args.max_file_size,
                  "Refuse a Python file larger than this (exit 2) instead of reading it: the "
                  "tracer holds the file and what it parses from it in memory. A size in bytes "
                  "or with a unit: 64M, 1G (powers of 1024)")
      ->transform(CLI::AsSizeValue(false))
      ->default_str("64M");
  command
      .add_option("--max-memory", args.max_memory,
                  "With --run: refuse (exit 2, before allocating anything) a run whose "
                  "estimated memory is larger. The estimate adds the random inputs to the "
                  "tensors live at once in the eager run and in the trace's, each freed after "
                  "its last use. A size such as 512M or 4G (powers of 1024); the default is half "
                  "of this machine's physical memory")
      ->transform(CLI::AsSizeValue(false));
  if (!is_run) {
    command.add_flag("--run", args.run,
                     "Also execute the traces with libtorch and compare with an eager run of the "
                     "function (report on stderr)");
    command.add_option("-o,--output", args.output, "Write the traces to this file (atomically)");
  }
  command.add_option("--save-io", args.save_io,
                     "With --run: write the run's inputs, module state and results to this "
                     "directory (manifest.json and raw tensors), for an independent check such "
                     "as `python3 tracer/oracle/cpython_oracle.py DIR`, which runs the original "
                     "source with CPython and PyTorch");
  command.footer(
      "Python: the tracer runs the whole file (imports, classes, dataclasses, functions) and the "
      "traced call with most of Python: classes and nn.Module (its own torch.nn: Linear, "
      "Embedding, LayerNorm, Dropout, ModuleList, ModuleDict, Sequential, ...), closures, "
      "comprehensions, f-strings, *args/**kwargs, try/except, with torch.no_grad(). What it "
      "cannot run is an error where it is reached (file:line:col and the calls it came "
      "through), never before. Tensor operations are the op registry's ltorch symbols: "
      "`tracelint trace --list-ops` lists them with their torch spellings.\n\n"
      "Exit codes: 0 traced (and, with --run, equal to eager), 1 the trace differs from eager "
      "or fails validation, 2 bad input (file, --arg, a construct the tracer cannot run).\n\n"
      "Examples:\n  tracelint trace model.py -f foo -a a=f32[2,4]@cuda -a key='(..., "
      "slice(None, 8, None))' --cache symbolic-values --run\n"
      "  tracelint run model.py --module GPT --init 'config=GPTConfig(n_layer=2, n_head=2, "
      "n_embd=32, block_size=16, vocab_size=64)' -a 'idx=i64[2, 16]:0..64'");
}

int run_trace(const TraceArgs &args, bool is_run) {
  // Checked before reading where the file has a size, after where it has none (a pipe).
  auto too_large = [&](uint64_t size) {
    std::cerr << "tracelint: " << args.file << ": error: the file is " << tracer::format_bytes(size)
              << ", over --max-file-size (" << tracer::format_bytes(args.max_file_size)
              << "); raise --max-file-size to trace it\n";
    return kUsage;
  };
  struct stat st {};
  if (args.file != "-" && ::stat(args.file.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
      static_cast<uint64_t>(st.st_size) > args.max_file_size)
    return too_large(static_cast<uint64_t>(st.st_size));
  Result<std::string> source = read_input(args.file);
  if (!source) {
    print_error(source.error(), args.file);
    return kUsage;
  }
  if (source->size() > args.max_file_size) return too_large(source->size());
  tracer::TraceRequest request;
  request.path = args.file;
  request.source = source.value();
  if (args.function.empty() == args.module_class.empty()) {
    std::cerr << "tracelint: error: give the function to trace (-f NAME) or the module class "
                 "(--module CLASS)\n";
    return kUsage;
  }
  request.function = args.function;
  request.module_class = args.module_class;
  request.method = args.method;
  for (const std::string &a : args.init) {
    std::size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "tracelint: error: --init " << (a.size() > 80 ? a.substr(0, 77) + "..." : a)
                << ": expected NAME=EXPR (for example config='GPTConfig(n_layer=2)')\n";
      return kUsage;
    }
    request.init.push_back({a.substr(0, eq), a.substr(eq + 1)});
  }
  if (!args.init.empty() && args.module_class.empty()) {
    std::cerr << "tracelint: error: --init needs --module\n";
    return kUsage;
  }
  request.cache = args.cache == "constant-values" ? tracer::CacheMode::ConstantValues
                                                  : tracer::CacheMode::SymbolicValues;
  request.level = args.level == "prims" ? tracer::Level::Prims : tracer::Level::Ltorch;
  request.provenance = !args.no_provenance;
  request.threads = args.jobs ? args.jobs : std::max(1u, std::thread::hardware_concurrency());
  for (const std::string &a : args.args) {
    std::size_t eq = a.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::string shown = a.size() > 80 ? a.substr(0, 77) + "..." : a;
      std::cerr << "tracelint: error: --arg " << shown
                << ": expected NAME=VALUE (for example a=f32[2, 3] or n=4)\n";
      return kUsage;
    }
    request.args.push_back({a.substr(0, eq), a.substr(eq + 1)});
  }

  Result<tracer::TracedProgram> program = tracer::trace(request);
  if (!program) {
    print_error(program.error(), args.file);
    return kUsage;
  }
  for (const std::string &line : program->printed)
    std::cerr << "tracelint: the traced code printed: " << line;
  std::string printed = print_trace_file(program->file, request.threads);

  // The tracer's output must pass the validator: a finding here is a tracer bug, shown as such.
  Options options;
  options.threads = request.threads;
  FileReport report =
      check_source("<traced " + (args.function.empty() ? args.module_class : args.function) + ">",
                   printed, options);
  int rc = kClean;
  if (report.has_at_least(Severity::Error)) {
    std::cerr << "tracelint: internal error: the emitted trace has errors (please report):\n"
              << render({report}, Format::Text);
    rc = kFindings;
  } else if (!report.diagnostics.empty()) {
    // e.g. TL015 for a computation that constant values reduced to a constant.
    std::cerr << "tracelint: note: what the validator says about the emitted trace:\n"
              << render({report}, Format::Text);
  }

  if (!is_run) {
    if (args.output.empty()) {
      std::cout << printed;
    } else if (auto failed = write_atomically(args.output, printed)) {
      std::cerr << "tracelint: error: cannot write " << args.output << ": " << *failed << "\n";
      return kUsage;
    }
  }
  if (is_run || args.run) {
    // Before libtorch loads or allocates anything.
    uint64_t max_memory = args.max_memory ? args.max_memory : tracer::default_max_memory();
    if (std::optional<Error> too_large =
            tracer::run_memory_error(program.value(), max_memory, "--max-memory")) {
      print_error(*too_large, args.file);
      return kUsage;
    }
    Result<tracer::RunAndCompareEntry> entry = load_torch_module();
    if (!entry) {
      print_error(entry.error(), "");
      return kUsage;
    }
    std::optional<Result<tracer::RunReport>> outcome;
    entry.value()(request, program.value(), tracer::RunOptions{args.seed, max_memory, args.save_io},
                  outcome);
    const Result<tracer::RunReport> &run = *outcome;
    if (!run) {
      print_error(run.error(), args.file);
      return kUsage;
    }
    (is_run ? std::cout : std::cerr) << run->summary();
    if (!run->ok()) rc = kFindings;
  }
  return rc;
}

} // namespace tracelint::cli
