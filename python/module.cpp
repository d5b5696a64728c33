// tracelint's Python module: tracelint.check(source) -> Report, as a pytest harness calls it on
// str(trace) for every trace it produces.
#include "tracelint/core/printer.hpp"
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

Format format_of(const std::string &name) {
  std::optional<Format> f = parse_format(name);
  if (!f)
    throw py::value_error("format must be one of text, json, sarif, junit, github; not '" + name +
                          "'");
  return *f;
}

// A selector that names no rule would turn every rule off (select) or nothing off (ignore).
std::vector<std::string> rule_selectors(const char *option,
                                        const std::optional<std::vector<std::string>> &given) {
  if (!given) return {};
  if (std::optional<std::string> unknown = unknown_rule_selector(*given))
    throw py::value_error(std::string(option) + ": unknown rule code or prefix '" + *unknown +
                          "' (`tracelint rules` lists the codes)");
  return *given;
}

} // namespace

PYBIND11_MODULE(_tracelint, m) {
  m.doc() = "Checks Python traces printed by tracing JITs (Lightning Thunder, torch.fx).";

  py::class_<Diagnostic>(m, "Diagnostic")
      .def_readonly("code", &Diagnostic::code)
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
      .def("__repr__", [](const Diagnostic &d) {
        return "<Diagnostic " + d.code + " " + std::to_string(d.span.line) + ":" +
               std::to_string(d.span.column) + " " + d.message + ">";
      });

  py::class_<Report>(m, "Report")
      .def_property_readonly("ok", &Report::ok)
      .def_property_readonly(
          "diagnostics",
          [](const Report &r) { return std::vector<Diagnostic>(r.begin(), r.end()); })
      .def(
          "render",
          [](const Report &r, const std::string &fmt) { return r.render(format_of(fmt)); },
          py::arg("fmt") = "text")
      .def("__len__", &Report::size)
      .def("__bool__", &Report::ok);

  m.def(
      "check",
      [](const std::string &source, const std::string &path,
         std::optional<std::vector<std::string>> select,
         std::optional<std::vector<std::string>> ignore,
         std::optional<std::vector<std::string>> context_names, const std::string &fail_on) {
        Options options;
        options.select = rule_selectors("select", select);
        options.ignore = rule_selectors("ignore", ignore);
        if (context_names)
          options.context_names.insert(context_names->begin(), context_names->end());
        options.fail_on = severity_of(fail_on);
        py::gil_scoped_release release; // checks are thread-safe
        return check(source, options, path);
      },
      py::arg("source"), py::arg("path") = "<trace>", py::arg("select") = py::none(),
      py::arg("ignore") = py::none(), py::arg("context_names") = py::none(),
      py::arg("fail_on") = "error",
      "Checks one trace; select/ignore take rule codes or prefixes (TL003, TL0).");

  m.def(
      "trace",
      [](const std::string &source, const std::string &function,
         const std::map<std::string, std::string> &args, const std::string &cache,
         const std::string &level, const std::string &path, unsigned threads,
         std::uint64_t max_source_bytes) {
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
      py::arg("max_source_bytes") = std::uint64_t{64} << 20,
      "Traces `function` of a Python source into Thunder-style prologue and computation traces "
      "(the text `tracelint trace` prints). args maps parameter names to inputs: 'f32[2, 3]', "
      "'bf16[4]@cuda', or a Python literal such as '(..., slice(None, 8, None))'. Raises "
      "ValueError (with file:line:col) outside the supported subset. threads: a large function "
      "body is parsed on this many threads while it is traced (the same traces for any number). "
      "A source longer than max_source_bytes (64 MiB) is refused with ValueError.");
}
