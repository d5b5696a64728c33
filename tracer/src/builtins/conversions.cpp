// Builtins: the number builtins and conversions: int/float/bool/str and the collections'
// constructors called as functions, chr, ord, hash, format, round, pow, divmod, abs,
// float.is_integer. Each is registered by its id (builtins.def) in this family's table;
// dispatch.cpp reads it.
#include "builtin_family.hpp"

#include "tracelint/core/escape.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tracelint::tracer::builtins {

namespace {

constexpr uint64_t kHashModulus = (uint64_t{1} << 61) - 1;

int64_t python_int_hash(int64_t n) {
  uint64_t magnitude = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  auto h = static_cast<int64_t>(magnitude % kHashModulus);
  if (n < 0) h = -h;
  return h == -1 ? -2 : h;
}

int64_t python_float_hash(double v) {
  if (std::isinf(v)) return v > 0 ? 314159 : -314159;
  if (std::isnan(v)) return 0; // CPython hashes a NaN by its identity
  int e = 0;
  double m = std::frexp(v, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m != 0) {
    x = ((x << 28) & kHashModulus) | x >> (61 - 28);
    m *= 268435456.0;
    e -= 28;
    auto y = static_cast<uint64_t>(m);
    m -= static_cast<double>(y);
    x += y;
    if (x >= kHashModulus) x -= kHashModulus;
  }
  e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
  x = ((x << e) & kHashModulus) | x >> (61 - e);
  int64_t h = static_cast<int64_t>(x) * sign;
  return h == -1 ? -2 : h;
}

// round(x, n) of a float as CPython's: the nearest of the decimals with n digits, ties to even,
// from x's exact binary value (printf's %.*f rounds that way); x itself past 323 digits, a zero
// of x's sign before -308.
double round_float(double x, int64_t n) {
  if (!std::isfinite(x) || n > 323) return x;
  if (n < -308) return std::copysign(0.0, x);
  if (n >= 0) {
    std::vector<char> text(
        static_cast<std::size_t>(std::snprintf(nullptr, 0, "%.*f", static_cast<int>(n), x)) + 1);
    std::snprintf(text.data(), text.size(), "%.*f", static_cast<int>(n), x);
    return std::strtod(text.data(), nullptr);
  }
  double scale = std::pow(10.0, static_cast<double>(-n));
  double r = std::nearbyint(x / scale) * scale;
  return r == 0 ? std::copysign(0.0, x) : r;
}

// round(i, n) of an int: i for n >= 0, else to a multiple of 10**-n, ties to even.
Obj round_int(Interpreter &in, const Obj &value, int64_t n, const Loc &loc) {
  int64_t i = concrete_int(in, value, loc, "round()'s argument");
  if (n >= 0) return value.kind == Obj::Kind::Bool ? Obj::int_of(i) : value;
  if (n < -18) return Obj::int_of(0);
  int64_t unit = 1;
  for (int64_t k = 0; k < -n; ++k)
    unit *= 10;
  int64_t q = i / unit, r = i % unit;
  if (r < 0) {
    r += unit;
    --q;
  }
  if (2 * static_cast<__int128>(r) > unit || (2 * static_cast<__int128>(r) == unit && q % 2 != 0))
    ++q;
  __int128 out = static_cast<__int128>(q) * unit;
  if (out > INT64_MAX || out < INT64_MIN)
    throw TraceError(loc, "round() of an int outside the 64-bit range that the tracer supports");
  return Obj::int_of(static_cast<int64_t>(out));
}

// pow(base, exp, mod) on ints, as CPython's: exp < 0 takes base's inverse modulo mod.
Obj modular_pow(Interpreter &in, const std::vector<Obj> &args, const Loc &loc) {
  for (const Obj &a : args)
    if (a.kind != Obj::Kind::Int && a.kind != Obj::Kind::Bool)
      raise(in, "TypeError", "pow() 3rd argument not allowed unless all arguments are integers",
            loc);
  int64_t base = concrete_int(in, args[0], loc, "pow()'s base");
  int64_t exp = concrete_int(in, args[1], loc, "pow()'s exponent");
  int64_t mod = concrete_int(in, args[2], loc, "pow()'s modulus");
  if (mod == 0) raise(in, "ValueError", "pow() 3rd argument cannot be 0", loc);
  __int128 m = mod < 0 ? -static_cast<__int128>(mod) : mod;
  auto reduce = [&](__int128 v) { return ((v % m) + m) % m; };
  __int128 b = reduce(base);
  if (exp < 0) { // the inverse of b modulo m, by the extended Euclidean algorithm
    __int128 r0 = m, r1 = b, t0 = 0, t1 = 1;
    while (r1 != 0) {
      __int128 q = r0 / r1, r2 = r0 - q * r1, t2 = t0 - q * t1;
      r0 = r1, r1 = r2, t0 = t1, t1 = t2;
    }
    if (r0 != 1) raise(in, "ValueError", "base is not invertible for the given modulus", loc);
    b = reduce(t0);
  }
  __int128 acc = 1 % m;
  for (unsigned __int128 e = exp < 0 ? -static_cast<__int128>(exp) : exp; e; e >>= 1) {
    if (e & 1) acc = acc * b % m;
    b = b * b % m;
  }
  // The result has the sign of mod, as Python's %.
  if (mod < 0 && acc != 0) acc -= m;
  return Obj::int_of(static_cast<int64_t>(acc));
}

Obj call_abs(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 1, loc);
  if (args[0].kind == Obj::Kind::Tensor) return unary(in, UnaryOp::abs, args[0], loc);
  if (args[0].kind == Obj::Kind::Instance && args[0].as<InstanceObj>().cls->lookup("__abs__"))
    return in.call(attribute(in, args[0], "__abs__", loc), {}, {}, loc);
  return number(in, NumOp::abs, {args[0]}, loc);
}

Obj call_round(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
               const Loc &loc) {
  const std::string &name = fn.name;
  std::optional<Obj> digits_kw = take_keyword(kwargs, "ndigits");
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 2, loc);
  double x = concrete_float(in, args[0], loc, "round()'s argument");
  const Obj *digits = args.size() > 1 ? &args[1] : digits_kw ? &*digits_kw : nullptr;
  if (!digits || digits->kind == Obj::Kind::None) {
    if (args[0].kind != Obj::Kind::Float) return args[0];
    if (std::isnan(x)) raise(in, "ValueError", "cannot convert float NaN to integer", loc);
    if (std::isinf(x)) raise(in, "OverflowError", "cannot convert float infinity to integer", loc);
    std::optional<int64_t> r = truncate_to_int64(std::nearbyint(x));
    if (!r)
      throw TraceError(loc, "round(" + python_float(x) +
                                ") is outside the 64-bit integer range that the tracer supports");
    return Obj::int_of(*r);
  }
  int64_t n = concrete_int(in, *digits, loc, "ndigits");
  if (args[0].kind != Obj::Kind::Float) return round_int(in, args[0], n, loc);
  return Obj::float_of(round_float(x, n));
}

Obj call_pow(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
             const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, 3, loc);
  if (args.size() == 3 && args[2].kind != Obj::Kind::None) return modular_pow(in, args, loc);
  return binary(in, BinaryOp::pow, args[0], args[1], loc);
}

Obj call_divmod(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 2, 2, loc);
  return Obj::tuple({binary(in, BinaryOp::floordiv, args[0], args[1], loc),
                     binary(in, BinaryOp::mod, args[0], args[1], loc)});
}

Obj call_format(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                const Loc &loc) {
  const std::string &name = fn.name;
  no_keywords(in, name, kwargs, loc);
  arity(in, name, args, 1, 2, loc);
  return format_value(in, args[0], args.size() > 1 ? str(in, args[1], loc) : "", loc);
}

Obj call_chr(Interpreter &in, BuiltinObj & /*fn*/, std::vector<Obj> &args, Kwargs & /*kwargs*/,
             const Loc &loc) {
  int64_t c = concrete_int(in, args.at(0), loc, "chr()'s argument");
  if (c < 0 || c > 0x10FFFF) raise(in, "ValueError", "chr() arg not in range(0x110000)", loc);
  std::string out;
  append_utf8(out, static_cast<uint32_t>(c));
  return Obj::str(std::move(out));
}

Obj call_ord(Interpreter &in, BuiltinObj & /*fn*/, std::vector<Obj> &args, Kwargs & /*kwargs*/,
             const Loc &loc) {
  if (args.size() != 1 || args[0].kind != Obj::Kind::Str)
    raise(in, "TypeError", "ord() expected a character", loc);
  const std::string &s = str_of(args[0]);
  if (s.empty())
    raise(in, "TypeError", "ord() expected a character, but string of length 0 found", loc);
  unsigned char c = static_cast<unsigned char>(s[0]);
  uint32_t cp = c < 0x80 ? c : c < 0xE0 ? c & 0x1F : c < 0xF0 ? c & 0x0F : c & 0x07;
  for (std::size_t i = 1; i < s.size(); ++i)
    cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return Obj::int_of(cp);
}

Obj call_hash(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
              const Loc &loc) {
  const std::string &name = fn.name;
  arity(in, name, args, 1, 1, loc);
  if (args[0].kind == Obj::Kind::Int || args[0].kind == Obj::Kind::Bool)
    return Obj::int_of(python_int_hash(concrete_int(in, args[0], loc, "hash()'s argument")));
  if (args[0].kind == Obj::Kind::Float)
    return Obj::int_of(python_float_hash(concrete_float(in, args[0], loc, "hash()'s argument")));
  require_hashable(in, args[0], loc);
  if (args[0].kind == Obj::Kind::Instance) {
    const ClassObj &cls = *args[0].as<InstanceObj>().cls;
    if (cls.lookup("__hash__") || cls.lookup("__eq__"))
      return Obj::int_of(user_hash(in, args[0], loc));
    // object.__hash__: by identity.
    return Obj::int_of(static_cast<int64_t>(reinterpret_cast<uintptr_t>(args[0].ref.get()) >> 4));
  }
  return Obj::int_of(static_cast<int64_t>(std::hash<std::string>{}(repr(in, args[0], loc)) >> 1));
}

Obj call_float_is_integer(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                          Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  return Obj::boolean_of(std::isfinite(self.real) && self.real == std::floor(self.real));
}

} // namespace

std::span<const Entry> conversion_functions() {
  static constexpr Entry kEntries[] = {
      {Builtin::abs, call_abs},
      {Builtin::round, call_round},
      {Builtin::pow, call_pow},
      {Builtin::divmod, call_divmod},
      {Builtin::format, call_format},
      {Builtin::chr, call_chr},
      {Builtin::ord, call_ord},
      {Builtin::hash, call_hash},
      {Builtin::float_is_integer, call_float_is_integer},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
