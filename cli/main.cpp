// tracelint: checks Python traces printed by tracing JITs before anyone runs them.
#include "tracelint/analyzer/analyzer.hpp"
#include "tracelint/core/escape.hpp"
#include "tracelint/core/parser.hpp"
#include "tracelint/core/printer.hpp"
#include "tracelint/reports/reports.hpp"
#include "tracelint/rules/rule.hpp"
#include "tracelint/validator/validator.hpp"

#include "add_noqa.hpp"
#include "diff.hpp"
#include "file_writer.hpp"
#include "fix_files.hpp"
#include "inputs.hpp"
#include "io.hpp"
#include "modules.hpp"
#include "settings.hpp"
#include "suggest.hpp"
#include "trace_command.hpp"
#include "tracelint_commit.hpp"

#include <CLI/CLI.hpp>
#include <malloc.h>
#include <nlohmann/json.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;
using namespace tracelint;
using namespace tracelint::cli;

namespace {

constexpr int kClean = 0;
constexpr int kFindings = 1;
constexpr int kUsage = 2;

bool use_color(const std::string &mode) {
  if (mode == "always") return true;
  if (mode == "never") return false;
  const char *no_color = std::getenv("NO_COLOR");
  const char *term = std::getenv("TERM");
  return ::isatty(STDOUT_FILENO) && !(no_color && *no_color) &&
         !(term && std::string_view(term) == "dumb");
}

struct CheckArgs {
  std::vector<std::string> paths;
  std::string format = "full";
  std::vector<std::string> select, extend_select, ignore, context_names;
  std::vector<std::string> exclude, extend_exclude;
  std::string fail_on;
  std::string dialect;
  std::string config;
  bool isolated = false;
  bool fix = false;
  bool diff = false;
  bool force = false;
  bool exit_zero = false;
  bool statistics = false;
  bool quiet = false;
  unsigned jobs = 0;
  std::string output;
  std::string color = "auto";
  std::string stdin_filename = "-";
  std::uint64_t max_file_size = kDefaultMaxFileSize;
  bool follow_links = false;
  bool show_settings = false;
  bool force_exclude = false, no_force_exclude = false;
  bool add_noqa = false;
};

// The flags' part of the settings, each given key with the flag that gave it; or the usage error
// of a selector that names no rule (a typo would turn every rule off, or none).
Result<FlagSettings> flag_settings(const CheckArgs &args, const CLI::App &check) {
  FlagSettings flags;
  auto given = [&](const char *flag) { return check.count(flag) > 0; };
  for (auto [key, flag, from, into] :
       {std::tuple<const char *, const char *, const std::vector<std::string> *,
                   std::vector<std::string> *>{"select", "--select", &args.select, nullptr},
        {"extend-select", "--extend-select", &args.extend_select,
         &flags.overrides.rules.extend_select},
        {"ignore", "--ignore", &args.ignore, &flags.overrides.rules.ignore}}) {
    if (!given(flag)) continue;
    std::vector<std::string> selectors;
    for (const std::string &raw : *from) {
      std::string selector = normalize_selector(raw);
      if (std::optional<std::string> why = unknown_selector(selector))
        return Error{std::string(flag) + ": " + *why, "", 0, 0};
      selectors.push_back(std::move(selector));
    }
    if (into)
      *into = std::move(selectors);
    else
      flags.overrides.rules.select = std::move(selectors);
    flags.origin[key] = flag;
  }
  if (given("--context-name")) {
    flags.overrides.context_names = args.context_names;
    flags.origin["context-names"] = "--context-name";
  }
  if (!args.dialect.empty()) {
    flags.overrides.dialect = parse_dialect(args.dialect);
    flags.origin["dialect"] = "--dialect";
  }
  if (given("--exclude")) {
    flags.overrides.exclude = args.exclude;
    flags.origin["exclude"] = "--exclude";
  }
  if (given("--extend-exclude")) {
    flags.overrides.extend_exclude = args.extend_exclude;
    flags.origin["extend-exclude"] = "--extend-exclude";
  }
  if (args.force_exclude || args.no_force_exclude) {
    flags.overrides.force_exclude = args.force_exclude;
    flags.origin["force-exclude"] = args.force_exclude ? "--force-exclude" : "--no-force-exclude";
  }
  if (!args.fail_on.empty()) {
    flags.overrides.fail_on = parse_severity(args.fail_on);
    flags.origin["fail-on"] = "--fail-on";
  }
  if (given("--max-file-size")) flags.origin["max-file-size"] = "--max-file-size";
  if (args.follow_links) flags.origin["follow-links"] = "--follow-links";
  flags.config = args.config;
  flags.isolated = args.isolated;
  flags.stdin_filename = args.stdin_filename;
  flags.max_file_size = args.max_file_size;
  flags.follow_links = args.follow_links;
  return flags;
}

// What `check --show-settings` prints: for each path, the configuration file that applies and
// every setting resolved from it and the flags, with where each came from.
int run_show_settings(const CheckArgs &args, ConfigResolver &resolver) {
  for (const std::string &path : args.paths) {
    Result<std::string> shown = describe_settings(path, resolver);
    if (!shown) {
      std::cerr << "tracelint: " << describe_config_error(shown.error()) << "\n";
      return kUsage;
    }
    std::cout << shown.value();
  }
  return kClean;
}

// Whether the configuration of every input can be read; else each distinct error is said once
// (not once per file it configures) and nothing is checked, as ruff does.
bool configurations_usable(const std::vector<Input> &inputs, ConfigResolver &resolver) {
  std::vector<std::string> said;
  for (const Input &in : inputs) {
    if (in.error) continue;
    Result<const Config *> config = resolver.config_for(in.path);
    if (config) continue;
    std::string message = describe_config_error(config.error());
    if (std::find(said.begin(), said.end(), message) != said.end()) continue;
    std::cerr << "tracelint: " << message << "\n";
    said.push_back(std::move(message));
  }
  if (said.empty()) return true;
  std::cerr << "(nothing was checked: fix the configuration, or run with --isolated to ignore "
               "it)\n";
  return false;
}

// Says once, on standard error, how many files were read as ordinary Python (no trace), and why
// the first was: their findings are only those of the rules that hold for any Python.
void note_plain_python(const std::vector<FileReport> &reports) {
  std::size_t count = 0;
  const FileReport *first = nullptr;
  for (const FileReport &r : reports)
    if (r.plain_python && !r.error) {
      ++count;
      if (!first) first = &r;
    }
  if (!first) return;
  std::string any_python;
  for (const Rule *rule : all_rules())
    if (rule->any_python) any_python += (any_python.empty() ? "" : ", ") + std::string(rule->code);
  std::cerr << "tracelint: " << count << " file" << (count == 1 ? " is" : "s are")
            << " ordinary Python, not a printed trace (" << printable(first->source.path()) << ": "
            << *first->plain_python << "): only " << any_python
            << " checked there; --dialect (or dialect in the configuration) reads them as traces\n";
}

// The most threads a check starts: more than a few per core only adds switching, and an
// unbounded -j once overflowed the parser's chunk window.
unsigned max_jobs() {
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return std::clamp(4 * cores, 4u, 256u);
}

// `check --fix` / `--diff`: each file's safe fixes, re-checked with its own options. Returns
// whether a file could not be fixed.
bool apply_fixes(const CheckArgs &args, const std::vector<Input> &inputs,
                 std::vector<FileReport> &reports, ConfigResolver &resolver) {
  std::vector<std::string> paths;
  for (const Input &in : inputs)
    paths.push_back(in.path);
  return fix_files(paths, reports, {args.fix, args.diff, args.force, args.quiet},
                   [&](std::size_t file) {
                     Options own = resolver.options_for(inputs[file].path).value();
                     Recheck recheck;
                     recheck.own_options_are_every_rule = own.rules.empty();
                     recheck.check = [own, shown = reports[file].source.path()](
                                         const std::string &text, bool every_rule) {
                       Options options = own;
                       if (every_rule) options.rules.clear();
                       return check_source(shown, text, options);
                     };
                     return recheck;
                   });
}

// `check --add-noqa`: the comments added to each checked file; unreadable files said on stderr.
int run_add_noqa(const CheckArgs &args, const std::vector<Input> &inputs,
                 const std::vector<FileReport> &reports, ConfigResolver &resolver) {
  std::vector<std::string> paths;
  for (const Input &in : inputs)
    paths.push_back(in.path);
  AddNoqaResult added =
      add_noqa_to_files(paths, reports, args.quiet, [&](std::size_t file, const std::string &text) {
        return check_source(reports[file].source.path(), text,
                            resolver.options_for(inputs[file].path).value());
      });
  bool unreadable = false;
  for (const FileReport &r : reports)
    if (r.error) {
      std::cerr << "tracelint: " << printable(r.source.path()) << ": " << r.error->message << "\n";
      unreadable = true;
    }
  if (added.io_error || unreadable) return kUsage;
  return added.left_over && !args.exit_zero ? kFindings : kClean;
}

int run_check(CheckArgs args, const CLI::App &check) {
  if (args.paths.empty()) args.paths = {"."};
  std::optional<Format> format = parse_format(args.format);
  Result<FlagSettings> flags = flag_settings(args, check);
  if (!flags) {
    std::cerr << "tracelint: " << flags.error().message << "\n";
    return kUsage;
  }
  ConfigResolver resolver(std::move(flags.value()));
  if (args.show_settings) return run_show_settings(args, resolver);
  ScanOptions scan{args.follow_links, [&](const std::string &root, const std::string &entry) {
                     return resolver.excluded(root, entry);
                   }};
  std::vector<std::string> named;
  std::copy_if(args.paths.begin(), args.paths.end(), std::back_inserter(named),
               [&](const std::string &path) { return !resolver.force_excluded(path); });
  if (named.empty()) { // pre-commit named only excluded files: nothing to do is not an error
    if (!args.quiet)
      std::cerr << "tracelint: every path given is excluded (force-exclude); nothing checked\n";
    return kClean;
  }
  std::vector<Input> inputs = expand(named, scan);
  if (inputs.empty()) {
    std::cerr << "tracelint: no Python files found under the given paths (or all of them are "
                 "excluded: `--show-settings DIR` lists exclude)\n";
    return kUsage;
  }
  if (std::count_if(inputs.begin(), inputs.end(), [](const Input &i) { return i.path == "-"; }) >
      1) {
    std::cerr << "tracelint: '-' (standard input) can be given once\n";
    return kUsage;
  }
  if (!configurations_usable(inputs, resolver)) return kUsage;
  std::vector<FileReport> reports(inputs.size());
  std::vector<Severity> fail_on(inputs.size(), Severity::Error);
  unsigned jobs = args.jobs ? std::min(args.jobs, max_jobs())
                            : std::max(1u, std::thread::hardware_concurrency());
  // One file: its statement chunks share the cores; several: the files do.
  unsigned chunk_threads = inputs.size() == 1 ? jobs : 1;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < inputs.size(); i = next++) {
      const Input &in = inputs[i];
      std::string shown = in.path == "-" ? args.stdin_filename : in.path;
      Result<Options> options = resolver.options_for(in.path);
      Result<std::string> text =
          in.error ? Result<std::string>(*in.error) : read_input(in.path, args.max_file_size);
      if (!options || !text) {
        FileReport r;
        r.source = SourceText(shown, "");
        const Error &e = !options ? options.error() : text.error();
        r.error = e;
        if (!options) {
          r.error->message = describe_config_error(e);
          r.error->line = 0; // the place is the configuration's, said in the message
        }
        reports[i] = std::move(r);
        continue;
      }
      fail_on[i] = options->fail_on;
      Options per_file = options.value();
      per_file.threads = chunk_threads;
      reports[i] = check_source(shown, std::move(text.value()), per_file);
    }
  };
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, inputs.size()));
  std::vector<std::thread> pool;
  for (unsigned j = 1; j < jobs; ++j)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();

  if (!args.quiet) note_plain_python(reports);
  if (args.add_noqa) return run_add_noqa(args, inputs, reports, resolver);
  bool io_error = (args.fix || args.diff) && apply_fixes(args, inputs, reports, resolver);

  RenderOptions render_options;
  render_options.color =
      args.output.empty() && use_color(args.color) &&
      (*format == Format::Text || *format == Format::Concise || *format == Format::Grouped);
  render_options.summary = !args.quiet;
  if (*format == Format::Sarif) render_options.rules_doc_url = rules_doc_url();
  render_options.fail_on = args.fail_on.empty() ? Severity::Error : *parse_severity(args.fail_on);
  bool fixed_to_stdout = args.fix && std::any_of(inputs.begin(), inputs.end(),
                                                 [](const Input &i) { return i.path == "-"; });
  if (!args.diff && !fixed_to_stdout) {
    std::string report = args.statistics ? render_statistics(reports, *format)
                                         : render(reports, *format, render_options);
    if (std::optional<std::string> why = write_report(args.output, report)) {
      std::cerr << "tracelint: the report is incomplete: " << *why << "\n";
      return kUsage;
    }
  }
  // The fixed text or the diff went to standard output: it must have arrived.
  if (std::optional<std::string> why = flush_stdout()) {
    std::cerr << "tracelint: " << *why << "\n";
    return kUsage;
  }
  bool findings = false;
  for (std::size_t i = 0; i < reports.size(); ++i) {
    io_error |= reports[i].error.has_value();
    findings |= reports[i].has_at_least(fail_on[i]);
  }
  if (io_error) return kUsage;
  return findings && !args.exit_zero ? kFindings : kClean;
}

int run_rules(const std::string &format) {
  if (format == "markdown") {
    std::cout << rules_markdown();
  } else if (format == "json") {
    nlohmann::ordered_json rules = nlohmann::ordered_json::array();
    for (const Rule *r : all_rules())
      rules.push_back({{"code", r->code},
                       {"name", r->name},
                       {"severity", severity_name(r->severity)},
                       {"summary", r->summary}});
    std::cout << rules.dump(2) << "\n";
  } else {
    // Columns as wide as their longest entry: the analyzer's codes (TLA001) are a letter longer.
    std::size_t code_width = 0, name_width = 0;
    for (const Rule *r : all_rules()) {
      code_width = std::max(code_width, r->code.size());
      name_width = std::max(name_width, r->name.size());
    }
    for (const Rule *r : all_rules())
      std::printf("%-*s  %-*s  %-8s %s\n", static_cast<int>(code_width),
                  std::string(r->code).c_str(), static_cast<int>(name_width),
                  std::string(r->name).c_str(), std::string(severity_name(r->severity)).c_str(),
                  std::string(r->summary).c_str());
  }
  return kClean;
}

// `explain CODE` (a code in any case, or a rule's name), or with every, each rule's page.
int run_explain(const std::string &code, bool every) {
  if (every) {
    for (const Rule *r : all_rules())
      std::cout << explain_rule(*r) << "\n";
    return kClean;
  }
  if (code.empty()) {
    std::cerr << "tracelint explain: name a rule (`tracelint explain TL003`) or give --all\n";
    return kUsage;
  }
  std::string wanted = normalize_selector(code);
  const Rule *rule = find_rule(wanted);
  std::vector<std::string> known;
  for (const Rule *r : all_rules()) {
    if (r->name == code) rule = r;
    known.emplace_back(r->code);
    known.emplace_back(r->name);
  }
  if (!rule) {
    // A code is compared in upper case ("tl06" is TL006), a name as written.
    std::optional<std::string> close =
        did_you_mean(wanted.rfind("TL", 0) == 0 ? wanted : code, known);
    std::cerr << "tracelint: no rule '" << printable(code) << "'"
              << (close ? " (did you mean " + *close + "?)" : "")
              << "; `tracelint rules` lists them\n";
    return kUsage;
  }
  std::cout << explain_rule(*rule);
  return kClean;
}

// `tracelint config`: the configuration's keys and what each means (ruff config); one key's
// help and schema; or the JSON schema of them all.
int run_config(const std::string &key, bool schema) {
  if (schema) {
    std::cout << config_schema();
    return kClean;
  }
  std::vector<std::string> names;
  for (const ConfigKey &k : config_keys()) {
    names.emplace_back(k.name);
    if (!key.empty() && k.name != key) continue;
    std::cout << k.name << ": " << k.help << "\n";
    if (!key.empty()) std::cout << "  value: " << k.schema << "\n";
  }
  if (!key.empty() && std::find(names.begin(), names.end(), key) == names.end()) {
    std::optional<std::string> close = did_you_mean(key, names);
    std::cerr << "tracelint config: no key '" << printable(key) << "'"
              << (close ? " (did you mean " + *close + "?)" : "")
              << "; `tracelint config` lists them\n";
    return kUsage;
  }
  return kClean;
}

// Parses a trace into the model and prints it back the canonical way.
int run_print(const std::string &path) {
  Result<std::string> text = read_input(path);
  if (!text) {
    std::cerr << "tracelint: " << printable(path) << ": " << text.error().message << "\n";
    return kUsage;
  }
  Result<TraceFile> parsed = parse_trace(text.value());
  if (!parsed) {
    std::cerr << printable(path) << ":" << parsed.error().line << ":" << parsed.error().column
              << ": cannot model the trace: " << printable(parsed.error().message)
              << "\n(run `tracelint check " << printable(path) << "` for every finding)\n";
    return kFindings;
  }
  std::cout << print_trace_file(parsed.value());
  return kClean;
}

// The options of `tracelint check`, read into args.
// A list option takes one value per occurrence (comma-separated items, or the option again):
// otherwise `--select TL003 t.py` would read t.py as a code, there being no required path.
void add_check_options(CLI::App &command, CheckArgs &args) {
  command.add_option("paths", args.paths,
                     "Files, directories (searched for *.py) or - for stdin; none: the current "
                     "directory, as `tracelint check .`");
  command
      .add_option("--output-format,--format", args.format,
                  "full (each finding with its source line, caret, notes and fix), concise (one "
                  "line each), grouped (by file), json, sarif, junit, github or html; text is "
                  "full")
      ->check(CLI::IsMember(
          {"full", "text", "concise", "grouped", "json", "sarif", "junit", "github", "html"}))
      ->capture_default_str();
  command
      .add_option("--select", args.select,
                  "Only these rule codes or prefixes (TL003, TL0, ALL; any case), replacing "
                  "the configuration's select")
      ->delimiter(',')
      ->allow_extra_args(false);
  command
      .add_option("--extend-select", args.extend_select,
                  "Rule codes or prefixes to check in addition to select")
      ->delimiter(',')
      ->allow_extra_args(false);
  command.add_option("--ignore", args.ignore, "Skip these rule codes or prefixes")
      ->delimiter(',')
      ->allow_extra_args(false);
  command
      .add_option("--context-name", args.context_names,
                  "A name the trace's python_ctx provides, or a glob pattern of such names "
                  "(apex_*, my_op?); repeatable")
      ->delimiter(',')
      ->allow_extra_args(false);
  command
      .add_option("--dialect", args.dialect,
                  "Read every file as printed by thunder, fx (torch.fx, Dynamo, AOT, Inductor), "
                  "export or nvfuser, instead of detecting each file's dialect from its text")
      ->check(CLI::IsMember(dialect_names(), CLI::ignore_case));
  command
      .add_option("--exclude", args.exclude,
                  "Glob patterns a directory scan leaves out, replacing the configuration's "
                  "and the default list (.git, .venv, build, dist, node_modules, ...)")
      ->delimiter(',')
      ->allow_extra_args(false);
  command
      .add_option("--extend-exclude", args.extend_exclude,
                  "Glob patterns a directory scan also leaves out")
      ->delimiter(',')
      ->allow_extra_args(false);
  CLI::Option *force = command.add_flag(
      "--force-exclude", args.force_exclude,
      "Apply exclude and extend-exclude to paths given by name too, as pre-commit gives every "
      "file by name (the configuration's force-exclude = true)");
  command
      .add_flag("--no-force-exclude", args.no_force_exclude,
                "Check paths given by name even "
                "if excluded")
      ->excludes(force);
  command
      .add_option("--fail-on", args.fail_on,
                  "Lowest severity that exits 1: error (default), warning, info")
      ->check(CLI::IsMember({"error", "warning", "info"}));
  command
      .add_option("--config", args.config,
                  "Use this configuration file for every path instead of searching: a "
                  "tracelint.toml (keys at the top level) or a pyproject.toml with "
                  "[tool.tracelint]")
      ->check(CLI::ExistingFile);
  command.add_flag("--isolated", args.isolated,
                   "Ignore every configuration file (.tracelint.toml, tracelint.toml, "
                   "pyproject.toml)");
  CLI::Option *fix_flag = command.add_flag(
      "--fix", args.fix,
      "Apply the fixes that leave the file valid (each is re-checked; the others are listed "
      "with why). The file is replaced atomically, through a symbolic link, keeping its hard "
      "links, owner and mode (less setuid/setgid); a file edited since the check is left alone. "
      "With -, prints the fixed text");
  command
      .add_flag("--force", args.force,
                "With --fix, also fix read-only files and files owned by another user (their "
                "owner and mode are kept)")
      ->needs(fix_flag);
  CLI::Option *diff_flag =
      command.add_flag("--diff", args.diff, "Print the fixes as a unified diff; write nothing");
  command
      .add_flag("--add-noqa", args.add_noqa,
                "Silence every finding where it stands with a `# noqa: CODE` comment at the end "
                "of its line (adopting tracelint on existing traces); files are replaced as "
                "--fix replaces them. Exit 0 when every finding was silenced (syntax errors "
                "never are)")
      ->excludes(fix_flag)
      ->excludes(diff_flag);
  command.add_flag("--exit-zero", args.exit_zero, "Exit 0 even with findings");
  command.add_flag("--statistics", args.statistics,
                   "Print how many findings of each code (and whether --fix can fix them) "
                   "instead of the findings; a JSON array with --output-format json");
  command.add_flag("-q,--quiet", args.quiet,
                   "Print the findings only: no summary line, no fix hint, no \"applied N "
                   "fixes\"");
  command.add_option("-j,--jobs", args.jobs,
                     "Files checked in parallel (default: all cores; at most 4 per core, "
                     "and 256)");
  command.add_option("-o,--output", args.output, "Write the report to this file");
  command.add_option("--color", args.color, "auto (TTY and no NO_COLOR), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  command.add_option("--stdin-filename", args.stdin_filename,
                     "The path standard input (-) stands for: reported, and used to find its "
                     "configuration and match per-file-ignores");
  command
      .add_option("--max-file-size", args.max_file_size,
                  "Refuse (exit 2) a file or standard input larger than this, in bytes or with "
                  "a unit: 64MiB (the default), 1GiB")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Validator(
          [](std::string &bytes) -> std::string {
            return std::strtoull(bytes.c_str(), nullptr, 10) == 0
                       ? "must be at least 1 byte (64MiB by default)"
                       : "";
          },
          "SIZE>0"));
  command.add_flag("--follow-links", args.follow_links,
                   "Under a directory, also check files that symbolic links point to outside "
                   "it (without it they are errors, exit 2, and are not read)");
  command.add_flag("--show-settings", args.show_settings,
                   "Check nothing: print the configuration file used for each path (or none) and "
                   "every setting resolved from it and the flags, with where each came from");
}

} // namespace

int main(int argc, char **argv) {
  // Large buffers (a file's text, its tree) come from mmap and go back to the system when freed:
  // glibc's default raises that threshold to the largest block freed so far, after which such
  // buffers reuse touched heap pages and a 10 MB input's peak grew by a third.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
  // analyze follows clang-tidy's conventions (-p, --), so LLVM's option parser takes it.
  if (argc > 1 && std::string_view(argv[1]) == "analyze") {
    std::vector<const char *> args = {"tracelint analyze"};
    for (int i = 2; i < argc; ++i)
      args.push_back(argv[i]);
    tracelint::Result<void *> entry = tracelint::cli::load_module_entry(
        tracelint::kAnalyzerModule, tracelint::kAnalyzeMainEntry, "tracelint analyze (Clang)");
    if (!entry) {
      std::cerr << "tracelint: error: " << entry.error().message << "\n";
      return 2;
    }
    auto analyze_main = reinterpret_cast<tracelint::AnalyzeMainEntry>(*entry);
    return analyze_main(static_cast<int>(args.size()), args.data());
  }
  CLI::App app{"tracelint: finds what breaks in printed PyTorch traces (Lightning Thunder, "
               "torch.fx, nvFuser repros) before anyone runs them.\n\n"
               "Exit codes: 0 clean, 1 findings (at or above --fail-on), 2 usage or I/O error.",
               "tracelint"};
  app.set_version_flag("--version", std::string("tracelint ") + TRACELINT_VERSION + " (commit " +
                                        TRACELINT_COMMIT + ")");
  app.require_subcommand(1);

  CheckArgs check;
  CLI::App *check_cmd = app.add_subcommand(
      "check", "Validate trace files: `tracelint check traces/ --format sarif > out.sarif`");
  add_check_options(*check_cmd, check);

  std::string rules_format = "text";
  CLI::App *rules_cmd = app.add_subcommand("rules", "List the rules");
  rules_cmd->add_option("--format", rules_format, "text, markdown (docs/rules.md) or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));

  std::string code;
  bool explain_all = false;
  CLI::App *explain_cmd =
      app.add_subcommand("explain", "Show a rule's documentation: `tracelint explain TL003`");
  CLI::Option *code_arg =
      explain_cmd->add_option("code", code, "A rule code (TL003) or name (undefined-name)");
  explain_cmd->add_flag("--all", explain_all, "Every rule's documentation, in code order")
      ->excludes(code_arg);

  std::string config_key;
  bool config_schema_flag = false;
  CLI::App *config_cmd = app.add_subcommand(
      "config", "List the configuration keys (.tracelint.toml, tracelint.toml, or [tool.tracelint] "
                "in pyproject.toml): `tracelint config`, `tracelint config select`");
  config_cmd->add_option("key", config_key, "One key: its meaning and the values it takes");
  config_cmd->add_flag("--schema", config_schema_flag,
                       "Print the JSON schema of the configuration (docs/tracelint.schema.json)");

  app.add_subcommand(
      "analyze", "Check C++ code that prints Python (Clang): "
                 "`tracelint analyze -p build src/printer.cpp`; see `tracelint analyze --help`");

  TraceArgs trace_args;
  CLI::App *trace_cmd = app.add_subcommand(
      "trace", "Trace a Python function into Thunder-style prologue and computation traces: "
               "`tracelint trace f.py -f foo -a a=f32[2,4] --run`");
  add_trace_options(*trace_cmd, trace_args, false);
  TraceArgs run_args;
  CLI::App *run_cmd = app.add_subcommand(
      "run", "Trace a function, execute the traces with libtorch and compare with eager: "
             "`tracelint run f.py -f foo -a a=f32[2,4]`");
  add_trace_options(*run_cmd, run_args, true);

  std::string print_path;
  CLI::App *print_cmd = app.add_subcommand(
      "print", "Parse a trace into the model and print it back in Thunder's canonical form");
  print_cmd->add_option("file", print_path, "A trace file or - for stdin")->required();

  std::vector<std::string> words(argv + 1, argv + argc);
  if (std::optional<std::string> why = unknown_command(app, words)) {
    std::cerr << "tracelint: " << *why << "\n";
    return kUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    if (dynamic_cast<const CLI::ExtrasError *>(&e))
      if (std::optional<std::string> why = unknown_options(app, words)) {
        std::cerr << *why << "\n";
        return kUsage;
      }
    int rc = app.exit(e);
    return rc == 0 ? kClean : kUsage;
  }
  int rc = kUsage;
  try {
    if (*check_cmd) rc = run_check(check, *check_cmd);
    if (*rules_cmd) rc = run_rules(rules_format);
    if (*explain_cmd) rc = run_explain(code, explain_all);
    if (*config_cmd) rc = run_config(config_key, config_schema_flag);
    if (*print_cmd) rc = run_print(print_path);
    if (*trace_cmd) rc = run_trace(trace_args, false);
    if (*run_cmd) rc = run_trace(run_args, true);
  } catch (const std::exception &e) {
    std::cerr << "tracelint: internal error: " << e.what() << "\n";
    return kUsage;
  }
  // What a command printed must have arrived (a full disk fails at the flush, not the write).
  if (std::optional<std::string> why = flush_stdout()) {
    std::cerr << "tracelint: " << *why << "\n";
    return kUsage;
  }
  return rc;
}
