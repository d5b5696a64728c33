#pragma once
// `import` and `from ... import`: the provided modules (torch, math, ...), and the model's own
// modules read from disk beside the traced file and run once each with the same interpreter.
// Defined in imports.cpp.
#include "evaluator.hpp"

#include <memory>
#include <string>
#include <vector>

namespace tracelint::tracer {

void do_import(Interpreter &in, const Stmt &s, Frame &frame);
// The modules `import dotted` (with `level` leading dots) runs, outermost first; none when
// it names no file or folder there.
std::vector<Obj> local_module(Interpreter &in, const std::string &dotted, std::size_t level,
                              Frame &frame, const Loc &loc);
Obj namespace_module(Interpreter &in, const std::string &folder, const std::string &dotted);
void import_names(Interpreter &in, const Obj &module, const std::string &dotted, std::size_t level,
                  const Stmt &s, Frame &frame);
Obj load_local(Interpreter &in, const std::string &file, const std::string &dotted,
               const Frame &importer, const Loc &loc);
std::shared_ptr<const Module> owner_of(Interpreter &in, const Module *m);

} // namespace tracelint::tracer
