// tracelint's Python module: tracelint.check(source) -> Report, as a pytest harness calls it on
// str(trace) for every trace it produces.
#include "tracelint/core/printer.hpp"
#include "tracelint/rules/rule.hpp"
#include "tracelint/tracelint.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <pybind11/stl.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace tracelint;

namespace {

Severity severity_of(const std::string &name) {
  std::optional<Severity> s = parse_severity(name);
  if (!s) throw py::value_error("fail_on must be 'error', 'warning' or 'info', not '" + name + "'");
  return *s;
}

Dialect dialect_of(const std::string &name) {
  std::optional<Dialect> d = parse_dialect(name);
  if (!d) {
    std::string known;
    for (const std::string &n : dialect_names())
      known += (known.empty() ? "'" : ", '") + n + "'";
    throw py::value_error("dialect must be one of " + known + "; not '" + name + "'");
  }
  return *d;
}

Format format_of(const std::string &name) {
  std::optional<Format> f = parse_format(name);
  if (!f)
    throw py::value_error("format must be one of " + std::string(format_names()) + "; not '" +
                          name + "'");
  return *f;
}

// Selectors as the CLI takes them: any case; one that names no rule would turn every rule off
// (select) or nothing off (ignore), so it is refused with the closest code.
std::vector<std::string> rule_selectors(const char *option, const std::vector<std::string> &given) {
  std::vector<std::string> out;
  for (const std::string &raw : given) {
    std::string selector = normalize_selector(raw);
    if (std::optional<std::string> why = unknown_selector(selector))
      throw py::value_error(std::string(option) + ": " + *why);
    out.push_back(std::move(selector));
  }
  return out;
}

std::string place(const Error &e) {
  std::string where = e.path;
  if (e.line) where += ":" + std::to_string(e.line) + ":" + std::to_string(e.column);
  return where.empty() ? e.message : where + ": " + e.message;
}

// A loaded [tool.tracelint]; Python holds it to check many files with one configuration.
struct LoadedConfig {
  Config config;
};

LoadedConfig load_config_or_raise(const std::string &path) {
  Result<Config> loaded = load_config(path);
  if (!loaded) throw py::value_error("configuration " + place(loaded.error()));
  return LoadedConfig{std::move(loaded.value())};
}

py::dict related_dict(const RelatedLocation &r) {
  py::dict d;
  d["message"] = r.message;
  d["line"] = r.span.line;
  d["column"] = r.span.column;
  d["end_line"] = r.span.end_line;
  d["end_column"] = r.span.end_column;
  return d;
}

} // namespace

PYBIND11_MODULE(_tracelint, m) {
  m.doc() = "Checks Python traces printed by tracing JITs (Lightning Thunder, torch.fx).";
  // The dialects check(dialect=...) and the pytest plugin's --tracelint-dialect take.
  m.attr("DIALECTS") = py::tuple(py::cast(dialect_names()));
  m.attr("__version__") = TRACELINT_VERSION;

  py::class_<Diagnostic>(m, "Diagnostic")
      .def_readonly("code", &Diagnostic::code)
      .def_property_readonly("name",
                             [](const Diagnostic &d) -> std::string {
                               const Rule *rule = find_rule(d.code);
                               return rule ? std::string(rule->name) : std::string();
                             })
      .def_property_readonly(
          "severity", [](const Diagnostic &d) { return std::string(severity_name(d.severity)); })
      .def_readonly("message", &Diagnostic::message)
      .def_property_readonly("line", [](const Diagnostic &d) { return d.span.line; })
      .def_property_readonly("end_line", [](const Diagnostic &d) { return d.span.end_line; })
      // Columns are 1-based byte columns here; Report.render("json") also gives code points.
      .def_property_readonly("column", [](const Diagnostic &d) { return d.span.column; })
      .def_property_readonly("end_column", [](const Diagnostic &d) { return d.span.end_column; })
      .def_property_readonly("fix",
                             [](const Diagnostic &d) -> py::object {
                               if (!d.fix) return py::none();
                               return py::str(d.fix->description);
                             })
      // The other places the finding refers to ("defined here"): dicts of message, line,
      // column, end_line, end_column.
      .def_property_readonly("related",
                             [](const Diagnostic &d) {
                               py::list out;
                               for (const RelatedLocation &r : d.related)
                                 out.append(related_dict(r));
                               return out;
                             })
      .def("__repr__", [](const Diagnostic &d) {
        return "<Diagnostic " + d.code + " " + std::to_string(d.span.line) + ":" +
               std::to_string(d.span.column) + " " + d.message + ">";
      });

  // A Report is a sequence of its diagnostics: len(r), r[i], `for d in r`, and bool(r) is
  // "has findings" (there is no __bool__ of its own: it follows len). r.ok says whether the
  // check passes (nothing at or above fail_on, and the file could be checked).
  py::class_<Report>(m, "Report")
      .def_property_readonly("ok", &Report::ok)
      .def_property_readonly("path", [](const Report &r) { return r.file().source.path(); })
      .def_property_readonly("error",
                             [](const Report &r) -> py::object {
                               if (!r.file().error) return py::none();
                               return py::str(place(*r.file().error));
                             })
      .def_property_readonly(
          "diagnostics",
          [](const Report &r) { return std::vector<Diagnostic>(r.begin(), r.end()); })
      .def(
          "render",
          [](const Report &r, const std::string &fmt) {
            Format format = format_of(fmt);
            py::gil_scoped_release release; // html runs Graphviz
            return r.render(format);
          },
          py::arg("fmt") = "full",
          ("The report as text: " + std::string(format_names()) + " (text is full)").c_str())
      .def("__len__", &Report::size)
      .def("__getitem__",
           [](const Report &r, std::ptrdiff_t i) {
             auto n = static_cast<std::ptrdiff_t>(r.size());
             if (i < 0) i += n;
             if (i < 0 || i >= n) throw py::index_error("report index out of range");
             return *(r.begin() + i);
           })
      .def(
          "__iter__", [](const Report &r) { return py::make_iterator(r.begin(), r.end()); },
          py::keep_alive<0, 1>())
      .def("__repr__", [](const Report &r) {
        return "<Report " + r.file().source.path() + ": " + std::to_string(r.size()) + " finding" +
               (r.size() == 1 ? "" : "s") + (r.ok() ? ", ok>" : ", failing>");
      });

  py::class_<LoadedConfig>(m, "Config",
                           "A pyproject.toml's [tool.tracelint], read with the CLI's strictness "
                           "(load_config).")
      .def_property_readonly("path", [](const LoadedConfig &c) { return c.config.path; })
      .def("__repr__",
           [](const LoadedConfig &c) { return "<tracelint.Config " + c.config.path + ">"; });

  m.def("load_config", &load_config_or_raise, py::arg("path"),
        "Reads a configuration file as `tracelint check` does (a pyproject.toml's "
        "[tool.tracelint], or a tracelint.toml's top-level keys); ValueError with "
        "path:line:column on an unknown key, rule code or value.");
  m.def(
      "find_config",
      [](const std::string &dir) -> py::object {
        std::optional<std::string> found = find_config(dir);
        if (!found) return py::none();
        return py::str(*found);
      },
      py::arg("dir"),
      "The configuration file that `tracelint check` uses for files in dir (.tracelint.toml, "
      "tracelint.toml or a pyproject.toml with [tool.tracelint], searched up to the project "
      "root), or None.");

  m.def(
      "is_excluded",
      [](const std::string &path, const LoadedConfig *config) {
        return is_excluded(config ? &config->config : nullptr, Overrides{}, path);
      },
      py::arg("path"), py::arg("config") = py::none(),
      "Whether a directory scan leaves path out: config's exclude (default: .git, .venv, build, "
      "dist, node_modules, ...) and extend-exclude, relative to its folder.");

  m.def(
      "check",
      [](const std::string &source, const std::string &path,
         std::optional<std::vector<std::string>> select,
         std::optional<std::vector<std::string>> extend_select,
         std::optional<std::vector<std::string>> ignore,
         std::optional<std::vector<std::string>> context_names, std::optional<std::string> fail_on,
         std::optional<std::string> dialect, const LoadedConfig *config) {
        Overrides overrides;
        if (select) overrides.rules.select = rule_selectors("select", *select);
        if (extend_select)
          overrides.rules.extend_select = rule_selectors("extend_select", *extend_select);
        if (ignore) overrides.rules.ignore = rule_selectors("ignore", *ignore);
        if (context_names) overrides.context_names = *context_names;
        if (fail_on) overrides.fail_on = severity_of(*fail_on);
        if (dialect) overrides.dialect = dialect_of(*dialect);
        Options options = resolve_options(config ? &config->config : nullptr, path, overrides);
        py::gil_scoped_release release; // checks are thread-safe
        return check(source, options, path);
      },
      py::arg("source"), py::arg("path") = "<trace>", py::arg("select") = py::none(),
      py::arg("extend_select") = py::none(), py::arg("ignore") = py::none(),
      py::arg("context_names") = py::none(), py::arg("fail_on") = py::none(),
      py::arg("dialect") = py::none(), py::arg("config") = py::none(),
      "Checks one trace. select/extend_select/ignore take rule codes or prefixes (TL003, TL0, "
      "any case) and apply over config (a tracelint.Config: its select, ignore, severity, "
      "fail-on, context-names and the per-file-ignores that match path), as the CLI's flags "
      "over pyproject.toml. fail_on: 'error' (default), 'warning' or 'info'. dialect: the printer "
      "the trace comes from, 'thunder', 'fx', 'export' or 'nvfuser' (default: the config's "
      "dialect or per-file-dialect for path, else detected from the text, as the CLI's "
      "--dialect).");

  m.def(
      "trace",
      [](const std::string &source, const std::string &function,
         const std::map<std::string, std::string> &args, const std::string &cache,
         const std::string &level, const std::string &path, unsigned threads,
         std::uint64_t max_source_bytes, bool grad, const std::vector<std::string> &executors) {
        if (threads == 0) throw py::value_error("threads must be at least 1");
        // What the tracer holds grows with the module (its statements, their constants): the
        // same cap as `tracelint trace --max-file-size`, so a huge string is refused, not an
        // out-of-memory kill of the interpreter.
        if (source.size() > max_source_bytes)
          throw py::value_error(path + ": the source is " + std::to_string(source.size()) +
                                " bytes, over max_source_bytes (" +
                                std::to_string(max_source_bytes) +
                                "); raise max_source_bytes to trace it");
        tracer::TraceRequest request;
        request.threads = threads;
        request.source = source;
        request.function = function;
        request.path = path;
        for (const auto &[name, value] : args)
          request.args.push_back({name, value});
        if (cache != "symbolic-values" && cache != "constant-values")
          throw py::value_error("cache must be 'symbolic-values' or 'constant-values', not '" +
                                cache + "'");
        if (level != "ltorch" && level != "prims")
          throw py::value_error("level must be 'ltorch' or 'prims', not '" + level + "'");
        request.cache = cache == "constant-values" ? tracer::CacheMode::ConstantValues
                                                   : tracer::CacheMode::SymbolicValues;
        request.level = level == "prims" ? tracer::Level::Prims : tracer::Level::Ltorch;
        request.grad = grad;
        request.executors = executors;
        Result<tracer::TracedProgram> program = [&] {
          py::gil_scoped_release release; // tracing is thread-safe
          return tracer::trace(request);
        }();
        if (!program) {
          const Error &e = program.error();
          std::string where = e.line ? (e.path.empty() ? path : e.path) + ":" +
                                           std::to_string(e.line) + ":" + std::to_string(e.column) +
                                           ": "
                                     : "";
          throw py::value_error(where + e.message);
        }
        return print_trace_file(program->file);
      },
      py::arg("source"), py::arg("function"), py::arg("args"), py::arg("cache") = "symbolic-values",
      py::arg("level") = "ltorch", py::arg("path") = "<source>", py::arg("threads") = 1,
      py::arg("max_source_bytes") = std::uint64_t{64} << 20, py::arg("grad") = false,
      py::arg("executors") = std::vector<std::string>{},
      "Traces `function` of a Python source into Thunder-style prologue and computation traces "
      "(the text `tracelint trace` prints). args maps parameter names to inputs: 'f32[2, 3]', "
      "'bf16[4]@cuda', 'f32[2, 8]:grad' (requires grad), or a Python literal such as '(..., "
      "slice(None, 8, None))'. grad=True: the training traces (augmented_forward_fn and "
      "backward_fn), as `tracelint trace --grad`. executors=['cuda_fusion', 'torch']: fusion "
      "regions, as --executors. Raises ValueError (with file:line:col) outside the supported "
      "subset. threads: a large function body is parsed on this many threads while it is traced "
      "(the same traces for any number). A source longer than max_source_bytes (64 MiB) is "
      "refused with ValueError.");
}
