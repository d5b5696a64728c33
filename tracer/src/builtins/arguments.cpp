// The argument checks every family of builtins shares.
#include "builtin_family.hpp"

namespace tracelint::tracer::builtins {

void arity(Interpreter &in, const std::string &name, const std::vector<Obj> &args, std::size_t lo,
           std::size_t hi, const Loc &loc) {
  if (args.size() < lo || args.size() > hi)
    raise(in, "TypeError",
          name + "() takes " +
              (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
              " positional arguments but " + std::to_string(args.size()) + " were given",
          loc);
}

void no_keywords(Interpreter &in, const std::string &name, const Kwargs &kwargs, const Loc &loc) {
  if (!kwargs.empty())
    raise(in, "TypeError",
          name + "() got an unexpected keyword argument '" + excerpt(kwargs[0].first) + "'", loc);
}

bool is_callable(const Obj &o) {
  switch (o.kind) {
  case Obj::Kind::Function:
  case Obj::Kind::BoundMethod:
  case Obj::Kind::Builtin:
  case Obj::Kind::Class:
  case Obj::Kind::StaticMethod:
  case Obj::Kind::ClassMethod:
  case Obj::Kind::Unknown:
    return true;
  case Obj::Kind::Instance:
    return o.as<InstanceObj>().cls->lookup("__call__") != nullptr;
  default:
    return false;
  }
}

} // namespace tracelint::tracer::builtins
