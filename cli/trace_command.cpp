#include "trace_command.hpp"

#include "tracelint/core/escape.hpp"

#include "file_writer.hpp"
#include "io.hpp"
#include "modules.hpp"
#include "progress.hpp"

#include "tracelint/core/printer.hpp"
#include "tracelint/reports/reports.hpp"
#include "tracelint/tracer/interpreter.hpp"
#include "tracelint/tracer/run.hpp"
#include "tracelint/tracer/tracer.hpp"
#include "tracelint/validator/validator.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <thread>

namespace tracelint::cli {

namespace {

constexpr int kClean = 0;
constexpr int kFindings = 1;
constexpr int kUsage = 2;

// An unsigned 64-bit number written in decimal digits only: "-1" would wrap and a number past
// 2^64 saturate, each silently another value.
std::string check_unsigned(const std::string &text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size())
    return "`" + printable(text) + "` is not a number from 0 to 18446744073709551615";
  return "";
}

// A size, SIZE[unit] with b, k, m, g, t (powers of 1024; kb, KiB, ... too), above 0 and at most
// 2^64 - 1 bytes: 0, a sign or an overflow is refused, never read as "no limit".
std::string parse_size(std::string &text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits])))
    ++digits;
  uint64_t number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + digits, number);
  std::string unit = text.substr(digits);
  std::transform(unit.begin(), unit.end(), unit.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (unit.size() > 1 && unit.back() == 'b') unit.pop_back();
  if (unit.size() > 1 && unit.back() == 'i') unit.pop_back();
  static const std::string kUnits = "bkmgt";
  std::size_t power = unit.empty() ? 0 : kUnits.find(unit);
  const std::string usage = "`" + printable(text) + "` is not a size above 0 such as 512M or 4G";
  if (digits == 0 || ec != std::errc() || end != text.data() + digits || unit.size() > 1 ||
      power == std::string::npos || number == 0)
    return usage;
  uint64_t bytes = number;
  for (std::size_t k = 0; k < power; ++k) {
    if (bytes > UINT64_MAX / 1024) return usage + " (it does not fit in 64 bits)";
    bytes *= 1024;
  }
  text = std::to_string(bytes);
  return "";
}

// --executors: known names, each once, torch last (Thunder's list, as the help says).
std::optional<std::string> executors_problem(const std::vector<std::string> &names) {
  static const std::vector<std::string> kKnown = {"cuda_fusion", "torch"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (std::find(kKnown.begin(), kKnown.end(), names[i]) == kKnown.end())
      return "unknown executor `" + printable(names[i]) + "` (known: cuda_fusion, torch)";
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), names[i]) !=
        names.begin() + static_cast<std::ptrdiff_t>(i))
      return "`" + names[i] + "` is listed twice";
  }
  if (!names.empty() && names.back() != "torch")
    return "the list must end with torch, which runs what the others do not claim "
           "(cuda_fusion,torch)";
  return std::nullopt;
}

void print_error(const Error &e, const std::string &fallback_path) {
  std::string path = printable(e.path.empty() ? fallback_path : e.path);
  std::cerr << "tracelint: ";
  if (!path.empty() && e.line)
    std::cerr << path << ":" << e.line << ":" << e.column << ": ";
  else if (!path.empty() && !e.message.starts_with("--arg"))
    std::cerr << path << ": ";
  // A message names the file too (and quotes its lines): escaped, except its own line breaks
  // (the calls an error came through).
  std::string message;
  for (std::size_t at = 0; at <= e.message.size();) {
    std::size_t nl = std::min(e.message.find('\n', at), e.message.size());
    message += printable(std::string_view(e.message).substr(at, nl - at));
    if (nl < e.message.size()) message += "\n";
    at = nl + 1;
  }
  std::cerr << "error: " << message << "\n";
}

// libtracelint_torch.so, next to the executable or in its lib/tracelint when installed.
Result<tracer::RunAndCompareEntry> load_torch_module() {
  Result<void *> entry = load_module_entry(tracer::kTorchModule, tracer::kRunAndCompareEntry,
                                           "running traces (libtorch)");
  if (!entry) return entry.error();
  return reinterpret_cast<tracer::RunAndCompareEntry>(*entry);
}

// A module whose construction reads tensors' values is constructed again on libtorch: loaded
// only then, so that tracing any other module starts without it.
tracer::TraceRequest::ValueBackendMaker value_backend_of_torch_module(uint64_t seed) {
  return [seed]() -> Result<std::unique_ptr<tracer::Backend>> {
    Result<void *> entry =
        load_module_entry(tracer::kTorchModule, tracer::kValueBackendEntry,
                          "constructing a module that reads its tensors' values (libtorch)");
    if (!entry) return entry.error();
    std::unique_ptr<tracer::Backend> backend;
    reinterpret_cast<tracer::ValueBackendEntry> (*entry)(seed, backend);
    return backend;
  };
}

std::string join(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &i : items)
    out += (out.empty() ? "" : ", ") + i;
  return out;
}

// Markdown and plain text, not Python (tracelint analyze: --not-codegen-pattern).
void print_vocabulary(std::ostream &out, bool markdown) {
  std::vector<tracer::OpEntry> ops = tracer::op_vocabulary();
  if (markdown) {
    out << "# The tracer's op vocabulary\n\n"
           "Generated by `tracelint trace --list-ops=markdown` (`make docs`) from the op "
           "registry (tracer/src/ops/): each symbol with its schema, the torch spellings the "
           "tracer maps to it (a `Tensor.x_` spelling is the in-place variant, functionalised "
           "in the trace), and its tags. An ltorch symbol decomposes into prims "
           "(`--level prims`); a prim has a shape and dtype rule, a libtorch "
           "implementation, and a VJP rule for `--grad` (tag `vjp`; `no-gradient` for one "
           "whose inputs have no gradient through it). A `thunder-only` prim is one Thunder's "
           "traces call and the tracer never records: declared so that those traces validate "
           "and run. A *torch-only* parameter is one torch's function takes and Thunder's "
           "symbol does not: the tracer accepts it from the traced code and prints it only when "
           "it is given another value than its default (a trace that does so does not run "
           "under Thunder).\n\n"
           "| Symbol | Schema | Spellings | Tags |\n|---|---|---|---|\n";
    for (const tracer::OpEntry &e : ops) {
      std::string spellings;
      for (const std::string &s : e.spellings)
        spellings += (spellings.empty() ? "`" : ", `") + s + "`";
      out << "| `" << e.name << "` | `(" << e.signature << ")`"
          << (e.torch_only.empty() ? "" : "; torch-only: `" + join(e.torch_only) + "`") << " | "
          << spellings << " | " << join(e.tags) << " |\n";
    }
    return;
  }
  for (const tracer::OpEntry &e : ops) {
    out << e.name << "(" << e.signature << ")";
    if (!e.tags.empty()) out << "  [" << join(e.tags) << "]";
    out << "\n";
    if (!e.spellings.empty()) out << "    " << join(e.spellings) << "\n";
    if (!e.torch_only.empty())
      out << "    torch-only (printed only when set; Thunder's symbol lacks them): "
          << join(e.torch_only) << "\n";
  }
}

// The fusion regions' CUDA C++ kernels, one after the other (C++, not Python).
std::string kernel_listing(const tracer::TracedProgram &program) {
  std::string kernels;
  for (const tracer::FusionRegion &r : program.fusions)
    kernels += (kernels.empty() ? "" : "\n") + r.cuda_source;
  if (kernels.empty()) kernels = "// no fusion regions: no run of two or more elementwise prims\n";
  return kernels;
}

} // namespace

void add_trace_options(CLI::App &command, TraceArgs &args, bool is_run) {
  command.add_option("file", args.file,
                     is_run ? "The Python file that defines the function or module"
                            : "The Python file that defines the function or module (not with "
                              "--list-ops)");
  if (!is_run)
    command
        .add_option("--list-ops", args.list_ops,
                    "Print the op registry instead of tracing: every ltorch symbol and prim "
                    "with its schema, the torch spellings that reach it and its tags; "
                    "--list-ops=markdown is docs/ops.md")
        ->expected(0, 1)
        ->default_str("text")
        ->check(CLI::IsMember({"text", "markdown"}));
  if (!is_run)
    command.add_flag("--list-names", args.list_names,
                     "Print every name a traced program can use instead of tracing (Python's "
                     "builtins and methods, torch, torch.nn.functional, torch.cuda, math, "
                     "dataclasses, typing and functools names, tensor methods and attributes, "
                     "operators), each with what the tracer makes of it");
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
                  "An input, NAME=VALUE, repeatable: a tensor DTYPE[DIMS][@DEVICE][:LO..HI][:grad] "
                  "(f32[2, 3], bf16[4]@cuda, i64[], i64[2, 16]:0..64 for indices in [0, 64), "
                  "f32[2, 8]:grad for an input that requires grad), a Python literal "
                  "(4, 0.5, '(..., slice(None, 8, None))', '(2, 6, 3)', \"{'k': 1}\"), or a "
                  "list, tuple or dict holding tensors ('[f32[2, 5], f32[2, 5]]', "
                  "'{2: f32[2, 3, 8], 5: f32[4, 8]}'), which the prologue unpacks and checks")
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
  command.add_option("--seed", args.seed, "Seed of the random inputs of --run (0 to 2^64 - 1)")
      ->check(CLI::Validator(check_unsigned, "UINT"))
      ->capture_default_str();
  command.add_option("-j,--jobs", args.jobs,
                     "Threads that parse a large function body while it is traced, and check "
                     "the emitted trace (default: all cores)");
  command.add_flag(
      "--grad", args.grad,
      "Trace for training, as Thunder's grad transform: the prologue, the augmented forward "
      "(augmented_forward_fn: the outputs and saved_for_backward) and the backward "
      "(backward_fn(saved_for_backward, cotangents): one gradient per input, None where it "
      "has none). Gradients are of the inputs given with :grad and of the module's "
      "parameters; with --run they are compared with libtorch autograd");
  command.add_flag(
      "--train", args.train,
      "With --module: put the module in training mode (module.train()) instead of eval mode: "
      "batch norm normalises by the batch's statistics and writes its running statistics back "
      "(prims.copy_ into the buffers at the end); dropout with p > 0 is refused, since it draws "
      "random numbers (construct the model with dropout 0). With --grad, the trace of a training "
      "step");
  command.add_option(
      "--executors", args.executors,
      "Thunder's executor list, comma-separated, last torch: cuda_fusion,torch groups each run of "
      "elementwise prims of one shape into a fusion region (`[t3, t5] = cudaFusion0(a, b)`, "
      "the prims as its subsymbols, then `del` of what dies), each one CUDA kernel (see "
      "--show-kernels); the traces are then execution traces (prims and regions). With a GPU, "
      "--run launches each region's kernel (CPU tensors copied to the GPU and back); without "
      "one, it runs each region as its prims with libtorch");
  if (!is_run)
    command.add_flag("--show-kernels", args.show_kernels,
                     "With --executors cuda_fusion,torch: print the fusion regions' CUDA C++ "
                     "kernels (one per region) instead of the traces");
  command.add_flag("-v,--verbose", args.verbose,
                   "With --run: a line for each gradient compared with autograd (otherwise only "
                   "those that differ; the result line gives the largest differences over all "
                   "of them, and where)");
  command.add_flag("--no-provenance", args.no_provenance,
                   "Leave out the `# file.py:LINE: source` comments");
  command
      .add_option("--max-file-size", args.max_file_size,
                  "Refuse a Python file larger than this (exit 2) instead of reading it: the "
                  "tracer holds the file and what it parses from it in memory. A size in bytes "
                  "or with a unit: 64M, 1G (powers of 1024)")
      ->transform(CLI::Validator(parse_size, "SIZE"))
      ->default_str("64M");
  command
      .add_option("--max-memory", args.max_memory,
                  "With --run: refuse (exit 2, before allocating anything) a run whose "
                  "estimated memory is larger. The estimate adds the random inputs to the "
                  "tensors live at once in the eager run and in the trace's, each freed after "
                  "its last use. A size such as 512M or 4G (powers of 1024); the default is half "
                  "of this machine's physical memory")
      ->transform(CLI::Validator(parse_size, "SIZE"));
  command
      .add_option("--max-python-memory", args.max_python_memory,
                  "Stop tracing (exit 2, at the line) when the strings, lists, tuples and dicts "
                  "the traced program makes add up to more than this, counted before each is "
                  "made: a format width of 10**9 is refused, not allocated. What is made is "
                  "counted, not what is still held. A size such as 256M or 2G")
      ->transform(CLI::Validator(parse_size, "SIZE"))
      ->default_str("512M");
  if (!is_run) {
    command.add_flag("--run", args.run,
                     "Also execute the traces with libtorch and compare with an eager run of the "
                     "function (report on stderr)");
    command.add_option("-o,--output", args.output, "Write the traces to this file (atomically)");
  }
  command
      .add_option("--save-io", args.save_io,
                  "With --run: write the run's inputs, module state, results and printed trace "
                  "to this directory (manifest.json, raw tensors, trace.py), for an independent "
                  "check such as `/usr/bin/python3 tracer/oracle/cpython_oracle.py DIR`, which "
                  "runs the original source with CPython and PyTorch. The directory is made "
                  "private (0700) if missing; an existing one must be yours and writable by you "
                  "alone, and is never written through a link")
      ->each([&args](const std::string &) { args.save_io_given = true; });
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
  if (args.list_names) {
    if (!args.file.empty() || !args.list_ops.empty()) {
      std::cerr << "tracelint: error: --list-names takes no file and no --list-ops (it prints "
                   "the names the tracer accepts)\n";
      return kUsage;
    }
    for (const tracer::NameEntry &e : tracer::name_vocabulary())
      std::cout << e.name << "\t" << e.means << "\n";
    return kClean;
  }
  if (!args.list_ops.empty()) {
    if (!args.file.empty()) {
      std::cerr << "tracelint: error: --list-ops takes no file (it prints the op registry)\n";
      return kUsage;
    }
    print_vocabulary(std::cout, args.list_ops == "markdown");
    return kClean;
  }
  if (args.file.empty()) {
    std::cerr << "tracelint: error: give the Python file to trace: tracelint " +
                     std::string(is_run ? "run" : "trace") +
                     " FILE -f FUNCTION -a NAME=VALUE (see --help)\n";
    return kUsage;
  }
  if (args.save_io_given) {
    if (!is_run && !args.run) {
      std::cerr << "tracelint: error: --save-io saves a run: add --run (or use tracelint run)\n";
      return kUsage;
    }
    if (std::optional<Error> refused = tracer::save_io_folder_error(args.save_io)) {
      std::cerr << "tracelint: error: " << printable(refused->message) << "\n";
      return kUsage;
    }
  }
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
  if (args.train && args.module_class.empty()) {
    std::cerr << "tracelint: error: --train needs --module (a function has no training mode)\n";
    return kUsage;
  }
  request.train = args.train;
  request.cache = args.cache == "constant-values" ? tracer::CacheMode::ConstantValues
                                                  : tracer::CacheMode::SymbolicValues;
  request.level = args.level == "prims" ? tracer::Level::Prims : tracer::Level::Ltorch;
  request.provenance = !args.no_provenance;
  request.grad = args.grad;
  request.max_python_memory = args.max_python_memory;
  request.max_file_size = args.max_file_size;
  for (std::size_t begin = 0; begin < args.executors.size();) {
    std::size_t comma = std::min(args.executors.find(',', begin), args.executors.size());
    std::string name = args.executors.substr(begin, comma - begin);
    name.erase(0, name.find_first_not_of(' '));
    name.erase(name.find_last_not_of(' ') + 1);
    request.executors.push_back(name);
    begin = comma + 1;
  }
  if (std::optional<std::string> bad = executors_problem(request.executors)) {
    std::cerr << "tracelint: error: --executors " << printable(args.executors) << ": " << *bad
              << "\n";
    return kUsage;
  }
  if (args.show_kernels && std::find(request.executors.begin(), request.executors.end(),
                                     "cuda_fusion") == request.executors.end()) {
    std::cerr << "tracelint: error: --show-kernels needs --executors cuda_fusion,torch\n";
    return kUsage;
  }
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

  ProgressLine progress;
  request.progress = progress.callback();
  request.value_backend = value_backend_of_torch_module(args.seed);
  Result<tracer::TracedProgram> program = tracer::trace(request);
  progress.clear();
  if (!program) {
    print_error(program.error(), args.file);
    return kUsage;
  }
  for (const std::string &line : program->printed)
    std::cerr << "tracelint: the traced code printed: " << line;
  if (program->gradients &&
      std::none_of(program->gradients->has_gradient.begin(), program->gradients->has_gradient.end(),
                   [](bool g) { return g; }))
    std::cerr << "tracelint: note: --grad, but no input has a gradient: mark the tensors to "
                 "differentiate with :grad (-a 'x=f32[2, 3]:grad'), or trace a module, whose "
                 "parameters require grad\n";
  std::string printed = print_trace_file(program->file, request.threads);

  // The tracer's output must pass the validator: a finding here is a tracer bug, shown as such.
  Options options;
  options.threads = request.threads;
  progress.update({"checking the emitted trace"});
  FileReport report =
      check_source("<traced " + (args.function.empty() ? args.module_class : args.function) + ">",
                   printed, options);
  progress.clear();
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

  if (args.show_kernels) printed = kernel_listing(program.value());
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
    progress.clear();
    const Result<tracer::RunReport> &run = *outcome;
    if (!run) {
      print_error(run.error(), args.file);
      return kUsage;
    }
    (is_run ? std::cout : std::cerr) << run->summary(args.verbose);
    if (!run->ok()) rc = kFindings;
  }
  return rc;
}

} // namespace tracelint::cli
