#pragma once
// enum.Enum: the members of a class deriving from it, made once its body has run, and the
// lookup of a member by value (Color(1)). Defined in enums.cpp.
#include "tracelint/tracer/interpreter.hpp"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tracelint::tracer {

bool is_enum_class(const ClassObj &cls);
std::vector<Obj> enum_members(const ClassObj &cls);
void make_enum_members(Interpreter &in, const std::shared_ptr<ClassObj> &cls,
                       const std::vector<std::pair<std::string, Obj>> &body, const Loc &loc);
Obj enum_lookup(Interpreter &in, const std::shared_ptr<ClassObj> &cls, const std::vector<Obj> &args,
                const Loc &loc);

} // namespace tracelint::tracer
