// Calls of the builtin functions, of the builtin types' methods and constructors, and of the
// dataclasses/functools helpers the interpreter provides.
#include "tracelint/tracer/interpreter.hpp"

#include "interpreter_impl.hpp"
#include "list_sort.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tracelint::tracer {

namespace {

void arity(Interpreter &in, const std::string &name, const std::vector<Obj> &args, std::size_t lo,
           std::size_t hi, const Loc &loc) {
  if (args.size() < lo || args.size() > hi)
    in.raise(
        "TypeError",
        name + "() takes " +
            (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
            " positional arguments but " + std::to_string(args.size()) + " were given",
        loc);
}

void no_keywords(Interpreter &in, const std::string &name, const Kwargs &kwargs, const Loc &loc) {
  if (!kwargs.empty())
    in.raise("TypeError",
             name + "() got an unexpected keyword argument '" + excerpt(kwargs[0].first) + "'",
             loc);
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

// The bytes of the code point at s[i] (UTF-8), and where the one that ends at e begins.
std::size_t point_length(const std::string &s, std::size_t i) {
  unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return std::min(n, s.size() - i);
}
std::size_t point_start(const std::string &s, std::size_t e) {
  std::size_t b = e - 1;
  while (b > 0 && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80)
    --b;
  return b;
}

// str.isspace() of one code point: ASCII's, the separators \x1c-\x1f, and Unicode's spaces.
bool python_space(std::string_view cp) {
  if (cp.size() == 1) {
    char c = cp[0];
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
  }
  static const std::string_view spaces[] = {
      "\xc2\x85",     "\xc2\xa0",     "\xe1\x9a\x80", "\xe2\x80\x80", "\xe2\x80\x81",
      "\xe2\x80\x82", "\xe2\x80\x83", "\xe2\x80\x84", "\xe2\x80\x85", "\xe2\x80\x86",
      "\xe2\x80\x87", "\xe2\x80\x88", "\xe2\x80\x89", "\xe2\x80\x8a", "\xe2\x80\xa8",
      "\xe2\x80\xa9", "\xe2\x80\xaf", "\xe2\x81\x9f", "\xe3\x80\x80"};
  return std::find(std::begin(spaces), std::end(spaces), cp) != std::end(spaces);
}

// str.strip: whole code points, white space (str.isspace) or those of chars.
std::string strip(const std::string &s, const std::string *chars, bool left, bool right) {
  auto is_strip = [&](std::size_t at, std::size_t n) {
    std::string_view cp(s.data() + at, n);
    return chars ? chars->find(cp) != std::string::npos : python_space(cp);
  };
  std::size_t b = 0, e = s.size();
  if (left)
    while (b < e && is_strip(b, point_length(s, b)))
      b += point_length(s, b);
  if (right)
    while (e > b && is_strip(point_start(s, e), e - point_start(s, e)))
      e = point_start(s, e);
  return s.substr(b, e - b);
}

std::vector<std::string> split(const std::string &s, const std::string *sep, int64_t max,
                               bool from_right) {
  std::vector<std::string> out;
  if (!sep) {
    std::vector<std::pair<std::size_t, std::size_t>> words;
    auto space = [&](std::size_t at) {
      return python_space(std::string_view(s.data() + at, point_length(s, at)));
    };
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && space(i))
        i += point_length(s, i);
      if (i >= s.size()) break;
      std::size_t j = i;
      while (j < s.size() && !space(j))
        j += point_length(s, j);
      words.emplace_back(i, j);
      i = j;
    }
    std::size_t n = words.size();
    if (max >= 0 && n > static_cast<std::size_t>(max) + 1) {
      std::size_t m = static_cast<std::size_t>(max);
      if (!from_right) {
        for (std::size_t k = 0; k < m; ++k)
          out.push_back(s.substr(words[k].first, words[k].second - words[k].first));
        out.push_back(s.substr(words[m].first)); // the rest as it is, its end's spaces kept
      } else {
        std::size_t keep = n - m;
        out.push_back(s.substr(0, words[keep - 1].second));
        for (std::size_t k = keep; k < n; ++k)
          out.push_back(s.substr(words[k].first, words[k].second - words[k].first));
      }
      return out;
    }
    for (auto [b, e] : words)
      out.push_back(s.substr(b, e - b));
    return out;
  }
  if (!from_right) {
    std::size_t at = 0;
    while (max < 0 || static_cast<int64_t>(out.size()) < max) {
      std::size_t found = s.find(*sep, at);
      if (found == std::string::npos) break;
      out.push_back(s.substr(at, found - at));
      at = found + sep->size();
    }
    out.push_back(s.substr(at));
    return out;
  }
  std::size_t end = s.size();
  std::vector<std::string> reversed;
  while (max < 0 || static_cast<int64_t>(reversed.size()) < max) {
    if (end < sep->size()) break;
    std::size_t found = s.rfind(*sep, end - sep->size());
    if (found == std::string::npos) break;
    reversed.push_back(s.substr(found + sep->size(), end - found - sep->size()));
    end = found;
  }
  out.push_back(s.substr(0, end));
  out.insert(out.end(), reversed.rbegin(), reversed.rend());
  return out;
}

Obj strings(const std::vector<std::string> &parts) {
  std::vector<Obj> out;
  out.reserve(parts.size());
  for (const std::string &p : parts)
    out.push_back(Obj::str(p));
  return Obj::list(std::move(out));
}

// Latin-1's letters (str.isalpha() for the code points below 256).
bool latin1_letter(uint32_t cp) {
  return (cp < 0x80 && std::isalpha(static_cast<int>(cp))) || cp == 0xAA || cp == 0xB5 ||
         cp == 0xBA || (cp >= 0xC0 && cp <= 0xFF && cp != 0xD7 && cp != 0xF7);
}

// One code point (below 256) in upper case, lower case, or title case (str.title's first letter).
std::string case_of(uint32_t cp, int to /* 1 upper, 0 lower, 2 title */) {
  auto utf8 = [](uint32_t c) {
    std::string out;
    if (c < 0x80) return std::string(1, static_cast<char>(c));
    if (c < 0x800)
      return out + static_cast<char>(0xC0 | (c >> 6)) + static_cast<char>(0x80 | (c & 0x3F));
    return out + static_cast<char>(0xE0 | (c >> 12)) + static_cast<char>(0x80 | ((c >> 6) & 0x3F)) +
           static_cast<char>(0x80 | (c & 0x3F));
  };
  if (to == 0) {
    if (cp < 0x80) return utf8(static_cast<uint32_t>(std::tolower(static_cast<int>(cp))));
    return utf8(cp >= 0xC0 && cp <= 0xDE && cp != 0xD7 ? cp + 0x20 : cp);
  }
  if (cp < 0x80) return utf8(static_cast<uint32_t>(std::toupper(static_cast<int>(cp))));
  if (cp == 0xDF) return to == 1 ? "SS" : "Ss"; // sharp s
  if (cp == 0xB5) return utf8(0x39C);           // micro sign: Greek capital mu
  if (cp == 0xFF) return utf8(0x178);
  return utf8(cp >= 0xE0 && cp <= 0xFE && cp != 0xF7 ? cp - 0x20 : cp);
}

// str.lower, upper, title and capitalize, as CPython's for Latin-1; past U+00FF the tracer
// has no case tables and says so.
std::string change_case(const std::string &s, Builtin id, const Loc &loc) {
  std::string out;
  bool start = true;
  for (std::size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    if (cp > 0xFF)
      throw TraceError(loc, "str case conversion of a character past U+00FF: the tracer does not "
                            "model Unicode's case tables beyond Latin-1");
    int to = 0;
    if (id == Builtin::str_upper)
      to = 1;
    else if (id == Builtin::str_title)
      to = start ? 2 : 0;
    else if (id == Builtin::str_capitalize)
      to = i == 0 ? 2 : 0;
    out += case_of(cp, to);
    start = !latin1_letter(cp);
    i += n;
  }
  return out;
}

// CPython's hash of numbers (Python/pyhash.c): modulo the prime 2**61 - 1, the sign kept, and
// -1 (the C API's error value) made -2, so that hash(-1) == -2 and an integral float hashes as
// its int.
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
  int64_t i = in.concrete_int(value, loc, "round()'s argument");
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
      in.raise("TypeError", "pow() 3rd argument not allowed unless all arguments are integers",
               loc);
  int64_t base = in.concrete_int(args[0], loc, "pow()'s base");
  int64_t exp = in.concrete_int(args[1], loc, "pow()'s exponent");
  int64_t mod = in.concrete_int(args[2], loc, "pow()'s modulus");
  if (mod == 0) in.raise("ValueError", "pow() 3rd argument cannot be 0", loc);
  __int128 m = mod < 0 ? -static_cast<__int128>(mod) : mod;
  auto reduce = [&](__int128 v) { return ((v % m) + m) % m; };
  __int128 b = reduce(base);
  if (exp < 0) { // the inverse of b modulo m, by the extended Euclidean algorithm
    __int128 r0 = m, r1 = b, t0 = 0, t1 = 1;
    while (r1 != 0) {
      __int128 q = r0 / r1, r2 = r0 - q * r1, t2 = t0 - q * t1;
      r0 = r1, r1 = r2, t0 = t1, t1 = t2;
    }
    if (r0 != 1) in.raise("ValueError", "base is not invertible for the given modulus", loc);
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

int64_t parse_int(Interpreter &in, const std::string &text, int base, const Loc &loc) {
  std::string t = text;
  t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
  std::size_t b = 0, e = t.size();
  while (b < e && std::isspace(static_cast<unsigned char>(t[b])))
    ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(t[e - 1])))
    --e;
  std::string_view v(t.data() + b, e - b);
  bool negative = false;
  if (!v.empty() && (v[0] == '+' || v[0] == '-')) {
    negative = v[0] == '-';
    v.remove_prefix(1);
  }
  int64_t out = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out, base);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size())
    in.raise("ValueError",
             "invalid literal for int() with base " + std::to_string(base) + ": '" + excerpt(text) +
                 "'",
             loc);
  return negative ? -out : out;
}

} // namespace

Obj Interpreter::alias_tensor(const TensorObj &t) {
  auto copy = std::make_shared<TensorObj>(t);
  copy->base.reset();
  copy->views.clear();
  copy->input_name.clear();
  return Obj::heap(Obj::Kind::Tensor, std::move(copy));
}

Obj Interpreter::call_builtin_class(const ClassObj &cls, std::vector<Obj> &args, Kwargs &kwargs,
                                    const Loc &loc) {
  auto b = static_cast<Builtin>(cls.builtin);
  const std::string &name = cls.name;
  switch (b) {
  case Builtin::int_: {
    if (args.empty()) return Obj::int_of(0);
    std::optional<Obj> base_arg = take_keyword(kwargs, "base");
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 2, loc);
    const Obj &x = args[0];
    if (x.kind == Obj::Kind::Str) {
      int base = args.size() > 1 ? static_cast<int>(concrete_int(args[1], loc, "base"))
                 : base_arg      ? static_cast<int>(concrete_int(*base_arg, loc, "base"))
                                 : 10;
      return Obj::int_of(parse_int(*this, str_of(x), base, loc));
    }
    if (x.kind == Obj::Kind::Tensor)
      throw TraceError(loc, "int() of a tensor depends on its data, which cannot be traced");
    if (x.kind == Obj::Kind::Instance && x.as<InstanceObj>().cls->lookup("__int__"))
      return call(attribute(x, "__int__", loc), {}, {}, loc);
    if (!x.is_number())
      raise("TypeError", "int() argument must be a string or a number, not '" + type_name(x) + "'",
            loc);
    if (x.kind == Obj::Kind::Int) return x;
    return number(NumOp::to_int, {x}, loc);
  }
  case Builtin::float_: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 0, 1, loc);
    if (args.empty()) return Obj::float_of(0.0);
    const Obj &x = args[0];
    if (x.kind == Obj::Kind::Str) {
      std::string t = x.as<StrObj>().value;
      std::string lower;
      for (char c : t)
        if (!std::isspace(static_cast<unsigned char>(c)))
          lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "inf" || lower == "+inf" || lower == "infinity" || lower == "+infinity")
        return Obj::float_of(INFINITY);
      if (lower == "-inf" || lower == "-infinity") return Obj::float_of(-INFINITY);
      if (lower == "nan" || lower == "+nan" || lower == "-nan") return Obj::float_of(NAN);
      double d = 0;
      auto [ptr, ec] = std::from_chars(lower.data(), lower.data() + lower.size(), d);
      if (lower.empty() || ec != std::errc() || ptr != lower.data() + lower.size())
        raise("ValueError", "could not convert string to float: '" + excerpt(t) + "'", loc);
      return Obj::float_of(d);
    }
    if (x.kind == Obj::Kind::Tensor)
      throw TraceError(loc, "float() of a tensor depends on its data, which cannot be traced");
    if (!x.is_number())
      raise("TypeError",
            "float() argument must be a string or a number, not '" + type_name(x) + "'", loc);
    if (x.kind == Obj::Kind::Float) return x;
    return number(NumOp::to_float, {x}, loc);
  }
  case Builtin::bool_:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 0, 1, loc);
    return Obj::boolean_of(!args.empty() && truth(args[0], loc));
  case Builtin::str_:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 0, 1, loc);
    return Obj::str(args.empty() ? "" : str(args[0], loc));
  case Builtin::tuple:
  case Builtin::list:
  case Builtin::set:
  case Builtin::frozenset: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 0, 1, loc);
    std::vector<Obj> items = args.empty() ? std::vector<Obj>{} : iterate(args[0], loc);
    if (b == Builtin::tuple) return Obj::tuple(std::move(items));
    if (b == Builtin::list) return Obj::list(std::move(items));
    std::vector<Obj> unique;
    for (Obj &o : items) {
      bool seen = false;
      // A set is a vector searched item by item: its construction is quadratic, where CPython's
      // hash table is linear, so each comparison is a step (at 1/16 a set of 100,000 ran 60 s
      // under ASan before the limit stopped it).
      charge(static_cast<int64_t>(unique.size()), loc);
      for (const Obj &u : unique)
        seen = seen || equal(u, o, loc);
      if (!seen) unique.push_back(std::move(o));
    }
    return Obj::set(std::move(unique));
  }
  case Builtin::dict: {
    arity(*this, name, args, 0, 1, loc);
    Obj d = Obj::dict();
    DictObj &out = d.as<DictObj>();
    if (!args.empty()) {
      if (args[0].kind == Obj::Kind::Dict) {
        const DictObj &src = args[0].as<DictObj>();
        out.keys = src.keys;
        out.values = src.values;
      } else {
        for (const Obj &pair : iterate(args[0], loc)) {
          std::vector<Obj> kv = iterate(pair, loc);
          if (kv.size() != 2)
            raise("ValueError",
                  "dictionary update sequence element has length " + std::to_string(kv.size()) +
                      "; 2 is required",
                  loc);
          dict_set(out, kv[0], kv[1], loc);
        }
      }
    }
    for (auto &[k, v] : kwargs)
      dict_set(out, Obj::str(k), std::move(v), loc);
    return d;
  }
  case Builtin::object:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 0, 0, loc);
    {
      auto inst = std::make_shared<InstanceObj>();
      inst->cls = builtin_class(Builtin::object);
      return Obj::heap(Obj::Kind::Instance, std::move(inst));
    }
  case Builtin::class_type: {
    no_keywords(*this, name, kwargs, loc);
    if (args.size() != 1)
      throw TraceError(loc, "unsupported construct: type() with three arguments (making a class)");
    Obj t = make_builtin(Builtin::type, "type");
    return call_builtin(t.as<BuiltinObj>(), args, kwargs, loc);
  }
  case Builtin::class_parameter: {
    std::optional<Obj> requires_grad = take_keyword(kwargs, "requires_grad");
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 0, 2, loc);
    if (args.empty() || args[0].kind != Obj::Kind::Tensor)
      raise("TypeError", "nn.Parameter takes a tensor", loc);
    Obj p = alias_tensor(args[0].as<TensorObj>());
    TensorObj &t = p.as<TensorObj>();
    t.is_parameter = true;
    t.requires_grad = args.size() > 1 ? truth(args[1], loc)
                      : requires_grad ? truth(*requires_grad, loc)
                                      : true;
    return p;
  }
  case Builtin::class_device: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 2, loc);
    if (args[0].kind == Obj::Kind::Device) return args[0];
    if (args[0].kind != Obj::Kind::Str) raise("TypeError", "torch.device() takes a string", loc);
    std::string spec = str_of(args[0]);
    if (args.size() > 1)
      spec += ":" + std::to_string(concrete_int(args[1], loc, "the device index"));
    if (spec == "cuda") spec = "cuda:0";
    if (spec != "cpu" && !spec.starts_with("cuda:") && spec != "meta")
      throw TraceError(loc, "unsupported device `" + excerpt(spec) + "` (cpu, cuda or cuda:N)");
    return Obj::device_of(spec);
  }
  case Builtin::class_tensor:
    throw TraceError(loc, "unsupported construct: torch.Tensor(...) (use torch.tensor, "
                          "torch.zeros, torch.empty, ...)");
  default:
    break;
  }
  raise("TypeError", "cannot create '" + name + "' instances", loc);
}

// CPython's unhashable builtins: a list, dict or set, alone or inside a tuple.
void Interpreter::require_hashable(const Obj &o, const Loc &loc) {
  if (o.kind == Obj::Kind::List || o.kind == Obj::Kind::Dict || o.kind == Obj::Kind::Set)
    raise("TypeError", "unhashable type: '" + type_name(o) + "'", loc);
  if (o.kind != Obj::Kind::Tuple) return;
  ValueLevel level = enter_value("while calling a Python object", loc);
  for (const Obj &item : items_of(o))
    require_hashable(item, loc);
}

namespace {

// The work a builtin does on its operands, at most: one step per 64 characters of a string and
// per 16 items of a collection (find, count, split, sum, extend read them all).
int64_t operand_work(const Obj &self, const std::vector<Obj> &args) {
  uint64_t work = 0;
  auto add = [&](const Obj &o) {
    if (o.kind == Obj::Kind::Str)
      work += str_of(o).size() / 64;
    else if (o.kind == Obj::Kind::Tuple || o.kind == Obj::Kind::List || o.kind == Obj::Kind::Set)
      work += items_of(o).size() / 16;
    else if (o.kind == Obj::Kind::Dict)
      work += o.as<DictObj>().keys.size() / 16;
  };
  add(self);
  for (const Obj &o : args)
    add(o);
  return static_cast<int64_t>(std::min<uint64_t>(work, std::numeric_limits<int64_t>::max()));
}

} // namespace

Obj Interpreter::call_builtin(BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                              const Loc &loc) {
  auto id = static_cast<Builtin>(fn.id);
  const std::string &name = fn.name;
  // A bound method of a builtin type: its receiver.
  const Obj &self = fn.self;
  charge(1 + operand_work(self, args), loc);
  switch (id) {
  case Builtin::torch_symbol:
  case Builtin::tensor_symbol:
  case Builtin::tensor_method:
  case Builtin::torch_special:
  case Builtin::math_function:
  case Builtin::no_grad:
  case Builtin::null_context:
    return call_torch(fn, args, kwargs, loc);
  case Builtin::print: {
    std::optional<Obj> sep = take_keyword(kwargs, "sep");
    std::optional<Obj> end = take_keyword(kwargs, "end");
    take_keyword(kwargs, "file");
    take_keyword(kwargs, "flush");
    no_keywords(*this, name, kwargs, loc);
    std::string line;
    std::string separator = sep && sep->kind == Obj::Kind::Str ? str_of(*sep) : " ";
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (i) line += separator;
      line += str(args[i], loc);
    }
    if (end && end->kind == Obj::Kind::Str)
      line += str_of(*end);
    else
      line += "\n";
    // Kept for the caller (the CLI shows them on stderr); a flood is cut.
    if (printed_.size() < 10000) printed_.push_back(line);
    return Obj::none();
  }
  case Builtin::len: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    const Obj &x = args[0];
    switch (x.kind) {
    case Obj::Kind::Tensor:
      if (x.as<TensorObj>().shape.empty()) raise("TypeError", "len() of a 0-d tensor", loc);
      return x.as<TensorObj>().shape[0];
    case Obj::Kind::Str:
      return Obj::int_of(static_cast<int64_t>(code_points(str_of(x))));
    case Obj::Kind::Tuple:
    case Obj::Kind::List:
    case Obj::Kind::Set:
      return Obj::int_of(static_cast<int64_t>(items_of(x).size()));
    case Obj::Kind::Dict:
      return Obj::int_of(static_cast<int64_t>(x.as<DictObj>().keys.size()));
    case Obj::Kind::Instance:
      if (x.as<InstanceObj>().cls->lookup("__len__"))
        return call(attribute(x, "__len__", loc), {}, {}, loc);
      break;
    case Obj::Kind::Unknown:
      unknown_used(x, loc, "len() of");
    default:
      break;
    }
    raise("TypeError", "object of type '" + type_name(x) + "' has no len()", loc);
  }
  case Builtin::range: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 3, loc);
    int64_t start = 0, stop = 0, stride = 1;
    if (args.size() == 1) {
      stop = concrete_int(args[0], loc, "range's bound");
    } else {
      start = concrete_int(args[0], loc, "range's start");
      stop = concrete_int(args[1], loc, "range's stop");
      if (args.size() == 3) stride = concrete_int(args[2], loc, "range's step");
    }
    if (stride == 0) raise("ValueError", "range() arg 3 must not be zero", loc);
    std::vector<Obj> items;
    for (int64_t i = start; stride > 0 ? i < stop : i > stop; i += stride) {
      step(loc);
      items.push_back(Obj::int_of(i));
    }
    return Obj::tuple(std::move(items));
  }
  case Builtin::repr:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    return Obj::str(repr(args[0], loc));
  case Builtin::abs:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    if (args[0].kind == Obj::Kind::Tensor) return unary("abs", args[0], loc);
    if (args[0].kind == Obj::Kind::Instance && args[0].as<InstanceObj>().cls->lookup("__abs__"))
      return call(attribute(args[0], "__abs__", loc), {}, {}, loc);
    return number(NumOp::abs, {args[0]}, loc);
  case Builtin::min:
  case Builtin::max: {
    std::optional<Obj> key = take_keyword(kwargs, "key");
    std::optional<Obj> dflt = take_keyword(kwargs, "default");
    no_keywords(*this, name, kwargs, loc);
    if (args.empty()) raise("TypeError", name + " expected at least 1 argument, got 0", loc);
    std::vector<Obj> items = args.size() == 1 ? iterate(args[0], loc) : args;
    if (items.empty()) {
      if (dflt) return *dflt;
      raise("ValueError", name + "() arg is an empty sequence", loc);
    }
    for (const Obj &o : items)
      if (o.kind == Obj::Kind::Tensor)
        throw TraceError(loc, "the builtin " + name +
                                  "() of tensors compares their values, "
                                  "which cannot be traced (use torch.maximum/torch.minimum)");
    std::size_t best = 0;
    Obj best_key = key ? call(*key, {items[0]}, {}, loc) : items[0];
    for (std::size_t i = 1; i < items.size(); ++i) {
      Obj k = key ? call(*key, {items[i]}, {}, loc) : items[i];
      if (truth(compare(id == Builtin::min ? "<" : ">", k, best_key, loc), loc)) {
        best = i;
        best_key = k;
      }
    }
    return items[best];
  }
  case Builtin::sum: {
    std::optional<Obj> start = take_keyword(kwargs, "start");
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 2, loc);
    Obj total = args.size() > 1 ? args[1] : start ? *start : Obj::int_of(0);
    for (Obj &o : iterate(args[0], loc)) {
      step(loc);
      total = binary("+", std::move(total), std::move(o), loc);
    }
    return total;
  }
  case Builtin::any:
  case Builtin::all: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    for (const Obj &o : iterate(args[0], loc)) {
      bool t = truth(o, loc);
      if (id == Builtin::any && t) return Obj::boolean_of(true);
      if (id == Builtin::all && !t) return Obj::boolean_of(false);
    }
    return Obj::boolean_of(id == Builtin::all);
  }
  case Builtin::enumerate: {
    std::optional<Obj> start_kw = take_keyword(kwargs, "start");
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 2, loc);
    int64_t i = args.size() > 1 ? concrete_int(args[1], loc, "start")
                : start_kw      ? concrete_int(*start_kw, loc, "start")
                                : 0;
    std::vector<Obj> out;
    for (Obj &o : iterate(args[0], loc))
      out.push_back(Obj::tuple({Obj::int_of(i++), std::move(o)}));
    return Obj::list(std::move(out));
  }
  case Builtin::zip: {
    std::optional<Obj> strict = take_keyword(kwargs, "strict");
    no_keywords(*this, name, kwargs, loc);
    std::vector<std::vector<Obj>> its;
    std::size_t n = SIZE_MAX;
    for (const Obj &a : args) {
      its.push_back(iterate(a, loc));
      n = std::min(n, its.back().size());
    }
    if (its.empty()) return Obj::list({});
    if (strict && truth(*strict, loc))
      for (const auto &it : its)
        if (it.size() != n) raise("ValueError", "zip() arguments have different lengths", loc);
    std::vector<Obj> out;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<Obj> row;
      for (auto &it : its)
        row.push_back(it[i]);
      out.push_back(Obj::tuple(std::move(row)));
    }
    return Obj::list(std::move(out));
  }
  case Builtin::reversed: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    std::vector<Obj> items = iterate(args[0], loc);
    std::reverse(items.begin(), items.end());
    return Obj::list(std::move(items));
  }
  case Builtin::sorted:
  case Builtin::list_sort: {
    std::optional<Obj> key = take_keyword(kwargs, "key");
    std::optional<Obj> reverse = take_keyword(kwargs, "reverse");
    no_keywords(*this, name, kwargs, loc);
    std::vector<Obj> items;
    if (id == Builtin::sorted) {
      arity(*this, name, args, 1, 1, loc);
      items = iterate(args[0], loc);
    } else {
      arity(*this, name, args, 0, 0, loc);
      items = items_of(self);
    }
    std::vector<Obj> keys;
    for (const Obj &o : items)
      keys.push_back(key ? call(*key, {o}, {}, loc) : o);
    std::vector<std::size_t> order(items.size());
    for (std::size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    auto in_order = [&] {
      std::vector<Obj> out;
      for (std::size_t i : order)
        out.push_back(items[i]);
      return out;
    };
    try {
      cpython_sort(order, reverse && truth(*reverse, loc), [&](std::size_t x, std::size_t y) {
        step(loc); // a comparison is one step (n log n in all)
        return truth(compare("<", keys[x], keys[y], loc), loc);
      });
    } catch (...) {
      // A comparison raised: list.sort leaves its list as far as CPython's sort had got.
      if (id == Builtin::list_sort) items_of(self) = in_order();
      throw;
    }
    if (id == Builtin::sorted) return Obj::list(in_order());
    items_of(self) = in_order();
    return Obj::none();
  }
  case Builtin::map: {
    no_keywords(*this, name, kwargs, loc);
    if (args.size() < 2) raise("TypeError", "map() must have at least two arguments", loc);
    std::vector<std::vector<Obj>> its;
    std::size_t n = SIZE_MAX;
    for (std::size_t i = 1; i < args.size(); ++i) {
      its.push_back(iterate(args[i], loc));
      n = std::min(n, its.back().size());
    }
    std::vector<Obj> out;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<Obj> call_args;
      for (auto &it : its)
        call_args.push_back(it[i]);
      out.push_back(call(args[0], std::move(call_args), {}, loc));
    }
    return Obj::list(std::move(out));
  }
  case Builtin::filter: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, 2, loc);
    std::vector<Obj> out;
    for (Obj &o : iterate(args[1], loc)) {
      bool keep =
          args[0].kind == Obj::Kind::None ? truth(o, loc) : truth(call(args[0], {o}, {}, loc), loc);
      if (keep) out.push_back(std::move(o));
    }
    return Obj::list(std::move(out));
  }
  case Builtin::iter:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    // An iterator is a fresh list that next() consumes from the front.
    return Obj::list(iterate(args[0], loc));
  case Builtin::next: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 2, loc);
    const Obj &it = args[0];
    if (it.kind == Obj::Kind::List || it.kind == Obj::Kind::Tuple) {
      auto &items = items_of(it);
      if (items.empty()) {
        if (args.size() > 1) return args[1];
        raise("StopIteration", "", loc);
      }
      Obj first = items.front();
      if (it.kind == Obj::Kind::List) items.erase(items.begin());
      return first;
    }
    if (it.kind == Obj::Kind::Instance && it.as<InstanceObj>().cls->lookup("__next__"))
      return call(attribute(it, "__next__", loc), {}, {}, loc);
    raise("TypeError", "'" + type_name(it) + "' object is not an iterator", loc);
  }
  case Builtin::isinstance:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, 2, loc);
    return Obj::boolean_of(isinstance(args[0], args[1], loc));
  case Builtin::issubclass: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, 2, loc);
    if (args[0].kind != Obj::Kind::Class)
      raise("TypeError", "issubclass() arg 1 must be a class", loc);
    std::vector<Obj> classes =
        args[1].kind == Obj::Kind::Tuple ? items_of(args[1]) : std::vector<Obj>{args[1]};
    for (const Obj &c : classes)
      if (c.kind == Obj::Kind::Class && args[0].as<ClassObj>().is_subclass_of(c.as<ClassObj>()))
        return Obj::boolean_of(true);
    return Obj::boolean_of(false);
  }
  case Builtin::hasattr:
  case Builtin::getattr: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, id == Builtin::getattr ? 3 : 2, loc);
    if (args[1].kind != Obj::Kind::Str) raise("TypeError", "attribute name must be string", loc);
    std::optional<Obj> found;
    try {
      found = find_attribute(args[0], str_of(args[1]), loc);
    } catch (const PyError &e) {
      if (!(e.exception.kind == Obj::Kind::Instance &&
            e.exception.as<InstanceObj>().cls->is_subclass_of(
                *impl_->exception_classes.at("AttributeError"))))
        throw;
    }
    if (id == Builtin::hasattr) return Obj::boolean_of(found.has_value());
    if (found) return *found;
    if (args.size() > 2) return args[2];
    return attribute(args[0], str_of(args[1]), loc);
  }
  case Builtin::setattr:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 3, 3, loc);
    if (args[1].kind != Obj::Kind::Str) raise("TypeError", "attribute name must be string", loc);
    set_attribute(args[0], str_of(args[1]), args[2], loc);
    return Obj::none();
  case Builtin::delattr:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, 2, loc);
    if (args[0].kind == Obj::Kind::Instance && args[1].kind == Obj::Kind::Str &&
        args[0].as<InstanceObj>().dict.erase(args[1]))
      return Obj::none();
    raise("AttributeError", excerpt(args[1].kind == Obj::Kind::Str ? str_of(args[1]) : "?"), loc);
  case Builtin::type: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    const Obj &x = args[0];
    Builtin b;
    switch (x.kind) {
    case Obj::Kind::Instance:
      return Obj::heap(Obj::Kind::Class, x.as<InstanceObj>().cls);
    case Obj::Kind::Bool:
      b = Builtin::bool_;
      break;
    case Obj::Kind::Int:
      b = Builtin::int_;
      break;
    case Obj::Kind::Float:
      b = Builtin::float_;
      break;
    case Obj::Kind::Str:
      b = Builtin::str_;
      break;
    case Obj::Kind::Tuple:
      b = Builtin::tuple;
      break;
    case Obj::Kind::List:
      b = Builtin::list;
      break;
    case Obj::Kind::Dict:
      b = Builtin::dict;
      break;
    case Obj::Kind::Set:
      b = Builtin::set;
      break;
    case Obj::Kind::Class:
      b = Builtin::class_type;
      break;
    case Obj::Kind::Tensor:
      b = x.as<TensorObj>().is_parameter ? Builtin::class_parameter : Builtin::class_tensor;
      break;
    case Obj::Kind::DType:
      b = Builtin::class_dtype;
      break;
    case Obj::Kind::Device:
      b = Builtin::class_device;
      break;
    case Obj::Kind::None:
      b = Builtin::class_nonetype;
      break;
    default:
      return make_unknown("type(" + describe(x) + ")", loc);
    }
    if (auto c = builtin_class(b)) return Obj::heap(Obj::Kind::Class, c);
    (void)provided_module("torch"); // registers torch's classes
    if (auto c = builtin_class(b)) return Obj::heap(Obj::Kind::Class, c);
    return make_unknown("type(" + describe(x) + ")", loc);
  }
  case Builtin::id: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    const Obj &x = args[0];
    if (x.ref && !x.is_number())
      return Obj::int_of(static_cast<int64_t>(reinterpret_cast<uintptr_t>(x.ref.get())));
    return Obj::int_of(static_cast<int64_t>(std::hash<std::string>{}(repr(x, loc)) >> 1));
  }
  case Builtin::callable:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    return Obj::boolean_of(is_callable(args[0]));
  case Builtin::round: {
    std::optional<Obj> digits_kw = take_keyword(kwargs, "ndigits");
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 2, loc);
    double x = concrete_float(args[0], loc, "round()'s argument");
    const Obj *digits = args.size() > 1 ? &args[1] : digits_kw ? &*digits_kw : nullptr;
    if (!digits || digits->kind == Obj::Kind::None) {
      if (args[0].kind != Obj::Kind::Float) return args[0];
      if (std::isnan(x)) raise("ValueError", "cannot convert float NaN to integer", loc);
      if (std::isinf(x)) raise("OverflowError", "cannot convert float infinity to integer", loc);
      std::optional<int64_t> r = truncate_to_int64(std::nearbyint(x));
      if (!r)
        throw TraceError(loc, "round(" + python_float(x) +
                                  ") is outside the 64-bit integer range that the tracer supports");
      return Obj::int_of(*r);
    }
    int64_t n = concrete_int(*digits, loc, "ndigits");
    if (args[0].kind != Obj::Kind::Float) return round_int(*this, args[0], n, loc);
    return Obj::float_of(round_float(x, n));
  }
  case Builtin::pow:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, 3, loc);
    if (args.size() == 3 && args[2].kind != Obj::Kind::None) return modular_pow(*this, args, loc);
    return binary("**", args[0], args[1], loc);
  case Builtin::divmod:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, 2, loc);
    return Obj::tuple({binary("//", args[0], args[1], loc), binary("%", args[0], args[1], loc)});
  case Builtin::slice:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 3, loc);
    if (args.size() == 1) return Obj::slice(Obj::none(), args[0], Obj::none());
    return Obj::slice(args[0], args[1], args.size() > 2 ? args[2] : Obj::none());
  case Builtin::super: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 2, 2, loc);
    if (args[0].kind != Obj::Kind::Class)
      raise("TypeError", "super() argument 1 must be a type", loc);
    auto s = std::make_shared<SuperObj>();
    s->start = std::static_pointer_cast<ClassObj>(args[0].ref);
    s->self = args[1];
    return Obj::heap(Obj::Kind::Super, std::move(s));
  }
  case Builtin::property: {
    std::optional<Obj> fget = take_keyword(kwargs, "fget");
    if (!args.empty()) fget = args[0];
    if (!fget) throw TraceError(loc, "unsupported construct: a property without a getter");
    auto p = std::make_shared<PropertyObj>();
    p->getter = *fget;
    return Obj::heap(Obj::Kind::Property, std::move(p));
  }
  case Builtin::classmethod:
  case Builtin::staticmethod: {
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 1, loc);
    auto w = std::make_shared<MethodWrapperObj>();
    w->function = args[0];
    return Obj::heap(id == Builtin::classmethod ? Obj::Kind::ClassMethod : Obj::Kind::StaticMethod,
                     std::move(w));
  }
  case Builtin::format:
    no_keywords(*this, name, kwargs, loc);
    arity(*this, name, args, 1, 2, loc);
    return format_value(args[0], args.size() > 1 ? str(args[1], loc) : "", loc);
  case Builtin::chr: {
    int64_t c = concrete_int(args.at(0), loc, "chr()'s argument");
    if (c < 0 || c > 0x10FFFF) raise("ValueError", "chr() arg not in range(0x110000)", loc);
    std::string out;
    uint32_t cp = static_cast<uint32_t>(c);
    if (cp < 0x80)
      out += static_cast<char>(cp);
    else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return Obj::str(std::move(out));
  }
  case Builtin::ord: {
    if (args.size() != 1 || args[0].kind != Obj::Kind::Str)
      raise("TypeError", "ord() expected a character", loc);
    const std::string &s = str_of(args[0]);
    if (s.empty())
      raise("TypeError", "ord() expected a character, but string of length 0 found", loc);
    unsigned char c = static_cast<unsigned char>(s[0]);
    uint32_t cp = c < 0x80 ? c : c < 0xE0 ? c & 0x1F : c < 0xF0 ? c & 0x0F : c & 0x07;
    for (std::size_t i = 1; i < s.size(); ++i)
      cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
    return Obj::int_of(cp);
  }
  case Builtin::hash:
    arity(*this, name, args, 1, 1, loc);
    if (args[0].kind == Obj::Kind::Int || args[0].kind == Obj::Kind::Bool)
      return Obj::int_of(python_int_hash(concrete_int(args[0], loc, "hash()'s argument")));
    if (args[0].kind == Obj::Kind::Float)
      return Obj::int_of(python_float_hash(concrete_float(args[0], loc, "hash()'s argument")));
    require_hashable(args[0], loc);
    if (args[0].kind == Obj::Kind::Instance) {
      const ClassObj &cls = *args[0].as<InstanceObj>().cls;
      if (cls.lookup("__hash__") || cls.lookup("__eq__"))
        return Obj::int_of(user_hash(args[0], loc));
      // object.__hash__: by identity.
      return Obj::int_of(static_cast<int64_t>(reinterpret_cast<uintptr_t>(args[0].ref.get()) >> 4));
    }
    return Obj::int_of(static_cast<int64_t>(std::hash<std::string>{}(repr(args[0], loc)) >> 1));
  case Builtin::vars: {
    arity(*this, name, args, 1, 1, loc);
    if (args[0].kind != Obj::Kind::Instance)
      raise("TypeError", "vars() argument must have __dict__ attribute", loc);
    Obj d = Obj::dict();
    const DictObj &src = args[0].as<InstanceObj>().dict;
    d.as<DictObj>().keys = src.keys;
    d.as<DictObj>().values = src.values;
    return d;
  }
  case Builtin::object_setattr:
    arity(*this, name, args, 3, 3, loc);
    if (args[0].kind != Obj::Kind::Instance || args[1].kind != Obj::Kind::Str)
      raise("TypeError", "object.__setattr__ takes an object, a name and a value", loc);
    args[0].as<InstanceObj>().dict.set(args[1], args[2]);
    return Obj::none();
  case Builtin::object_getattribute: {
    arity(*this, name, args, 2, 2, loc);
    if (args[0].kind != Obj::Kind::Instance || args[1].kind != Obj::Kind::Str)
      raise("TypeError", "object.__getattribute__ takes an object and a name", loc);
    const InstanceObj &inst = args[0].as<InstanceObj>();
    if (const Obj *v = inst.dict.get(args[1])) return *v;
    if (const Obj *c = inst.cls->lookup(str_of(args[1]))) {
      if (c->kind == Obj::Kind::Function) {
        auto m = std::make_shared<BoundMethodObj>();
        m->self = args[0];
        m->function = *c;
        return Obj::heap(Obj::Kind::BoundMethod, std::move(m));
      }
      return *c;
    }
    raise("AttributeError",
          "'" + inst.cls->name + "' object has no attribute '" + excerpt(str_of(args[1])) + "'",
          loc);
  }
  case Builtin::object_init:
    // BaseException.__init__ keeps its arguments; object's takes none that matter.
    if (!args.empty() && args[0].kind == Obj::Kind::Instance &&
        args[0].as<InstanceObj>().cls->builtin == static_cast<uint16_t>(Builtin::class_exception))
      args[0].as<InstanceObj>().dict.set(
          Obj::str("args"), Obj::tuple(std::vector<Obj>(args.begin() + 1, args.end())));
    return Obj::none();
  case Builtin::object_new: {
    if (args.empty() || args[0].kind != Obj::Kind::Class)
      raise("TypeError", "object.__new__(X): X is not a type object", loc);
    auto inst = std::make_shared<InstanceObj>();
    inst->cls = std::static_pointer_cast<ClassObj>(args[0].ref);
    return Obj::heap(Obj::Kind::Instance, std::move(inst));
  }

  // ---- str
  case Builtin::str_join: {
    arity(*this, name, args, 1, 1, loc);
    std::vector<Obj> parts = iterate(args[0], loc);
    uint64_t size = 0;
    for (const Obj &o : parts)
      if (o.kind == Obj::Kind::Str) size += str_of(o).size() + str_of(self).size();
    make_room(size, loc);
    std::string out;
    bool first = true;
    for (const Obj &o : parts) {
      if (o.kind != Obj::Kind::Str)
        raise("TypeError", "sequence item: expected str instance, " + type_name(o) + " found", loc);
      if (!first) out += str_of(self);
      out += str_of(o);
      first = false;
    }
    return Obj::str(std::move(out));
  }
  case Builtin::str_split:
  case Builtin::str_rsplit: {
    std::optional<Obj> sep = take_keyword(kwargs, "sep");
    std::optional<Obj> max = take_keyword(kwargs, "maxsplit");
    if (!args.empty()) sep = args[0];
    if (args.size() > 1) max = args[1];
    std::string sep_text;
    bool has_sep = sep && sep->kind == Obj::Kind::Str;
    if (has_sep) {
      sep_text = str_of(*sep);
      if (sep_text.empty()) raise("ValueError", "empty separator", loc);
    }
    int64_t m = max ? concrete_int(*max, loc, "maxsplit") : -1;
    return strings(
        split(str_of(self), has_sep ? &sep_text : nullptr, m, id == Builtin::str_rsplit));
  }
  case Builtin::str_strip:
  case Builtin::str_lstrip:
  case Builtin::str_rstrip: {
    const std::string *chars =
        !args.empty() && args[0].kind == Obj::Kind::Str ? &str_of(args[0]) : nullptr;
    return Obj::str(
        strip(str_of(self), chars, id != Builtin::str_rstrip, id != Builtin::str_lstrip));
  }
  case Builtin::str_startswith:
  case Builtin::str_endswith: {
    arity(*this, name, args, 1, 1, loc);
    std::vector<Obj> options =
        args[0].kind == Obj::Kind::Tuple ? items_of(args[0]) : std::vector<Obj>{args[0]};
    for (const Obj &o : options) {
      if (o.kind != Obj::Kind::Str)
        raise("TypeError", name + " arg must be str or a tuple of str", loc);
      if (id == Builtin::str_startswith ? str_of(self).starts_with(str_of(o))
                                        : str_of(self).ends_with(str_of(o)))
        return Obj::boolean_of(true);
    }
    return Obj::boolean_of(false);
  }
  case Builtin::str_replace: {
    arity(*this, name, args, 2, 3, loc);
    const std::string &from = str_of(args[0]), &to = str_of(args[1]);
    int64_t count = args.size() > 2 ? concrete_int(args[2], loc, "count") : -1;
    const std::string &s = str_of(self);
    // The result's size before it is made: `s` with each replaced occurrence grown.
    uint64_t replaced = 0;
    if (from.empty())
      replaced = code_points(s) + 1;
    else
      for (std::size_t at = s.find(from); at != std::string::npos;
           at = s.find(from, at + from.size()))
        ++replaced;
    if (count >= 0) replaced = std::min(replaced, static_cast<uint64_t>(count));
    make_room(s.size(), loc);
    if (to.size() > from.size()) make_room(replaced, to.size() - from.size(), loc);
    std::string out;
    std::size_t at = 0;
    int64_t done = 0;
    while (count < 0 || done < count) {
      std::size_t found =
          from.empty() ? (at <= s.size() ? at : std::string::npos) : s.find(from, at);
      if (found == std::string::npos) break;
      out.append(s, at, found - at);
      out += to;
      if (from.empty()) { // between code points, not bytes
        std::size_t next = found + 1;
        while (next < s.size() && (static_cast<unsigned char>(s[next]) & 0xC0) == 0x80)
          ++next;
        if (found < s.size()) out.append(s, found, next - found);
        at = next;
      } else {
        at = found + from.size();
      }
      ++done;
    }
    if (at <= s.size()) out.append(s, at, std::string::npos);
    return Obj::str(std::move(out));
  }
  case Builtin::str_format:
    return Obj::str(format_method(str_of(self), args, kwargs, loc));
  case Builtin::str_lower:
  case Builtin::str_upper:
  case Builtin::str_title:
  case Builtin::str_capitalize:
    return Obj::str(change_case(str_of(self), id, loc));
  case Builtin::str_find:
  case Builtin::str_rfind:
  case Builtin::str_index:
  case Builtin::str_count: {
    arity(*this, name, args, 1, 1, loc);
    const std::string &s = str_of(self), &sub = str_of(args[0]);
    if (id == Builtin::str_count) {
      int64_t n = 0;
      if (sub.empty()) return Obj::int_of(static_cast<int64_t>(code_points(s)) + 1);
      for (std::size_t at = s.find(sub); at != std::string::npos; at = s.find(sub, at + sub.size()))
        ++n;
      return Obj::int_of(n);
    }
    std::size_t at = id == Builtin::str_rfind ? s.rfind(sub) : s.find(sub);
    if (at == std::string::npos) {
      if (id == Builtin::str_index) raise("ValueError", "substring not found", loc);
      return Obj::int_of(-1);
    }
    return Obj::int_of(static_cast<int64_t>(code_points(std::string_view(s).substr(0, at))));
  }
  case Builtin::str_isdigit:
  case Builtin::str_isnumeric:
  case Builtin::str_isalpha:
  case Builtin::str_isidentifier: {
    const std::string &s = str_of(self);
    if (s.empty()) return Obj::boolean_of(false);
    bool ok = true;
    for (std::size_t i = 0; i < s.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (id == Builtin::str_isalpha)
        ok = ok && std::isalpha(c);
      else if (id == Builtin::str_isidentifier)
        ok = ok && (c == '_' || std::isalpha(c) || (i > 0 && std::isdigit(c)) || c >= 0x80);
      else
        ok = ok && std::isdigit(c);
    }
    return Obj::boolean_of(ok);
  }
  case Builtin::str_partition:
  case Builtin::str_rpartition: {
    arity(*this, name, args, 1, 1, loc);
    const std::string &s = str_of(self), &sep = str_of(args[0]);
    std::size_t at = id == Builtin::str_partition ? s.find(sep) : s.rfind(sep);
    if (at == std::string::npos)
      return id == Builtin::str_partition ? Obj::tuple({Obj::str(s), Obj::str(""), Obj::str("")})
                                          : Obj::tuple({Obj::str(""), Obj::str(""), Obj::str(s)});
    return Obj::tuple(
        {Obj::str(s.substr(0, at)), Obj::str(sep), Obj::str(s.substr(at + sep.size()))});
  }
  case Builtin::str_zfill:
  case Builtin::str_ljust:
  case Builtin::str_rjust: {
    arity(*this, name, args, 1, 2, loc);
    std::string s = str_of(self);
    std::size_t width =
        static_cast<std::size_t>(std::max<int64_t>(0, concrete_int(args[0], loc, "width")));
    std::string fill = id == Builtin::str_zfill ? "0" : " ";
    if (args.size() > 1) {
      if (args[1].kind != Obj::Kind::Str || code_points(str_of(args[1])) != 1)
        raise("TypeError", "The fill character must be exactly one character long", loc);
      fill = str_of(args[1]);
    }
    std::size_t length = code_points(s);
    if (length >= width) return self;
    make_room(width - length, fill.size(), loc);
    std::string pad;
    for (std::size_t i = length; i < width; ++i)
      pad += fill;
    if (id == Builtin::str_ljust) return Obj::str(s + pad);
    if (id == Builtin::str_zfill && !s.empty() && (s[0] == '-' || s[0] == '+'))
      return Obj::str(s.substr(0, 1) + pad + s.substr(1));
    return Obj::str(pad + s);
  }
  case Builtin::str_removeprefix:
  case Builtin::str_removesuffix: {
    arity(*this, name, args, 1, 1, loc);
    const std::string &s = str_of(self), &a = str_of(args[0]);
    if (id == Builtin::str_removeprefix) return Obj::str(s.starts_with(a) ? s.substr(a.size()) : s);
    return Obj::str(s.ends_with(a) ? s.substr(0, s.size() - a.size()) : s);
  }

  // ---- list, tuple, dict, set
  case Builtin::list_append:
    arity(*this, name, args, 1, 1, loc);
    items_of(self).push_back(args[0]);
    return Obj::none();
  case Builtin::list_extend:
  case Builtin::set_update:
    arity(*this, name, args, 1, 1, loc);
    for (Obj &o : iterate(args[0], loc)) {
      if (id == Builtin::set_update) {
        bool seen = false;
        charge(static_cast<int64_t>(items_of(self).size() / 16), loc);
        for (const Obj &u : items_of(self))
          seen = seen || equal(u, o, loc);
        if (seen) continue;
      }
      items_of(self).push_back(std::move(o));
    }
    return Obj::none();
  case Builtin::list_insert: {
    arity(*this, name, args, 2, 2, loc);
    auto &items = items_of(self);
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = concrete_int(args[0], loc, "an index");
    if (i < 0) i = std::max<int64_t>(0, i + n);
    i = std::min(i, n);
    items.insert(items.begin() + i, args[1]);
    return Obj::none();
  }
  case Builtin::list_pop: {
    arity(*this, name, args, 0, 1, loc);
    auto &items = items_of(self);
    int64_t n = static_cast<int64_t>(items.size());
    if (n == 0) raise("IndexError", "pop from empty list", loc);
    int64_t i = args.empty() ? n - 1 : concrete_int(args[0], loc, "an index");
    if (i < 0) i += n;
    if (i < 0 || i >= n) raise("IndexError", "pop index out of range", loc);
    Obj out = items[static_cast<std::size_t>(i)];
    items.erase(items.begin() + i);
    return out;
  }
  case Builtin::list_remove:
  case Builtin::set_discard: {
    arity(*this, name, args, 1, 1, loc);
    auto &items = items_of(self);
    for (auto it = items.begin(); it != items.end(); ++it)
      if (equal(*it, args[0], loc)) {
        items.erase(it);
        return Obj::none();
      }
    if (id == Builtin::list_remove) raise("ValueError", "list.remove(x): x not in list", loc);
    return Obj::none();
  }
  case Builtin::list_reverse:
    std::reverse(items_of(self).begin(), items_of(self).end());
    return Obj::none();
  case Builtin::list_clear:
    items_of(self).clear();
    return Obj::none();
  case Builtin::seq_index:
  case Builtin::seq_count: {
    arity(*this, name, args, 1, 1, loc);
    int64_t count = 0;
    const auto &items = items_of(self);
    for (std::size_t i = 0; i < items.size(); ++i)
      if (equal(items[i], args[0], loc)) {
        if (id == Builtin::seq_index) return Obj::int_of(static_cast<int64_t>(i));
        ++count;
      }
    if (id == Builtin::seq_index)
      raise("ValueError", "the value is not in the " + type_name(self), loc);
    return Obj::int_of(count);
  }
  case Builtin::seq_copy:
    if (self.kind == Obj::Kind::Dict) {
      Obj d = Obj::dict();
      d.as<DictObj>().keys = self.as<DictObj>().keys;
      d.as<DictObj>().values = self.as<DictObj>().values;
      return d;
    }
    return self.kind == Obj::Kind::Set ? Obj::set(items_of(self)) : Obj::list(items_of(self));
  case Builtin::set_add: {
    arity(*this, name, args, 1, 1, loc);
    charge(static_cast<int64_t>(items_of(self).size()), loc); // as in set(): a step a comparison
    for (const Obj &u : items_of(self))
      if (equal(u, args[0], loc)) return Obj::none();
    items_of(self).push_back(args[0]);
    return Obj::none();
  }
  case Builtin::dict_get: {
    arity(*this, name, args, 1, 2, loc);
    if (args[0].is_proxy()) backend_->guard(args[0], loc);
    if (const Obj *v = dict_get(self.as<DictObj>(), args[0], loc)) return *v;
    return args.size() > 1 ? args[1] : Obj::none();
  }
  case Builtin::dict_keys:
    return Obj::list(self.as<DictObj>().keys);
  case Builtin::dict_values:
    return Obj::list(self.as<DictObj>().values);
  case Builtin::dict_items: {
    const DictObj &d = self.as<DictObj>();
    std::vector<Obj> out;
    for (std::size_t i = 0; i < d.keys.size(); ++i)
      out.push_back(Obj::tuple({d.keys[i], d.values[i]}));
    return Obj::list(std::move(out));
  }
  case Builtin::dict_pop: {
    arity(*this, name, args, 1, 2, loc);
    DictObj &d = self.as<DictObj>();
    std::ptrdiff_t at = dict_find(d, args[0], loc);
    if (at >= 0) {
      Obj out = d.values[static_cast<std::size_t>(at)];
      d.keys.erase(d.keys.begin() + at);
      d.values.erase(d.values.begin() + at);
      return out;
    }
    if (args.size() > 1) return args[1];
    raise("KeyError", repr(args[0], loc), loc);
  }
  case Builtin::dict_setdefault: {
    arity(*this, name, args, 1, 2, loc);
    DictObj &d = self.as<DictObj>();
    if (const Obj *v = dict_get(d, args[0], loc)) return *v;
    Obj value = args.size() > 1 ? args[1] : Obj::none();
    dict_set(d, args[0], value, loc);
    return value;
  }
  case Builtin::dict_update: {
    arity(*this, name, args, 0, 1, loc);
    DictObj &d = self.as<DictObj>();
    if (!args.empty()) {
      if (args[0].kind == Obj::Kind::Dict) {
        const DictObj &src = args[0].as<DictObj>();
        for (std::size_t i = 0; i < src.keys.size(); ++i)
          dict_set(d, src.keys[i], src.values[i], loc);
      } else {
        for (const Obj &pair : iterate(args[0], loc)) {
          std::vector<Obj> kv = iterate(pair, loc);
          if (kv.size() != 2)
            raise("ValueError", "dictionary update sequence element has the wrong length", loc);
          dict_set(d, kv[0], kv[1], loc);
        }
      }
    }
    for (auto &[k, v] : kwargs)
      dict_set(d, Obj::str(k), std::move(v), loc);
    return Obj::none();
  }
  case Builtin::dict_clear:
    self.as<DictObj>().keys.clear();
    self.as<DictObj>().values.clear();
    return Obj::none();
  case Builtin::float_is_integer:
    return Obj::boolean_of(std::isfinite(self.real) && self.real == std::floor(self.real));
  case Builtin::exception_with_traceback:
    return self;

  // ---- dataclasses, functools
  case Builtin::dataclass: {
    if (args.empty()) return make_builtin(Builtin::dataclass, name); // @dataclass(frozen=True)
    arity(*this, name, args, 1, 1, loc);
    if (args[0].kind != Obj::Kind::Class) raise("TypeError", "dataclass() takes a class", loc);
    ClassObj &cls = args[0].as<ClassObj>();
    cls.is_dataclass = true;
    if (!cls.attributes.get("__init__"))
      cls.attributes.set(Obj::str("__init__"),
                         make_builtin(Builtin::dataclass_init, cls.name + ".__init__"));
    return args[0];
  }
  case Builtin::dataclass_field: {
    arity(*this, name, args, 0, 0, loc);
    auto inst = std::make_shared<InstanceObj>();
    auto cls = std::make_shared<ClassObj>();
    cls->name = "Field";
    cls->mro.push_back(cls.get());
    inst->cls = cls;
    for (auto &[k, v] : kwargs)
      inst->dict.set(Obj::str(k), std::move(v));
    return Obj::heap(Obj::Kind::Instance, std::move(inst));
  }
  case Builtin::dataclass_init: {
    if (args.empty() || args[0].kind != Obj::Kind::Instance)
      raise("TypeError", "__init__ needs self", loc);
    Obj self_obj = args[0];
    InstanceObj &inst = self_obj.as<InstanceObj>();
    const ClassObj &cls = *inst.cls;
    if (args.size() - 1 > cls.fields.size())
      raise("TypeError",
            cls.name + ".__init__() takes " + std::to_string(cls.fields.size() + 1) +
                " positional arguments but " + std::to_string(args.size()) + " were given",
            loc);
    for (std::size_t i = 0; i < cls.fields.size(); ++i) {
      const std::string &f = cls.fields[i];
      std::optional<Obj> value;
      if (i + 1 < args.size()) value = args[i + 1];
      if (std::optional<Obj> kw = take_keyword(kwargs, f)) {
        if (value)
          raise("TypeError", cls.name + ".__init__() got multiple values for argument '" + f + "'",
                loc);
        value = *kw;
      }
      if (!value) {
        const Obj *dflt = cls.lookup(f);
        if (dflt && dflt->kind == Obj::Kind::Instance &&
            dflt->as<InstanceObj>().cls->name == "Field") {
          const InstanceObj &field = dflt->as<InstanceObj>();
          if (const Obj *d = field.dict.get("default"))
            value = *d;
          else if (const Obj *factory = field.dict.get("default_factory"))
            value = call(*factory, {}, {}, loc);
        } else if (dflt) {
          value = *dflt;
        }
      }
      if (!value)
        raise("TypeError",
              cls.name + ".__init__() missing 1 required positional argument: '" + f + "'", loc);
      inst.dict.set(Obj::str(f), std::move(*value));
    }
    if (!kwargs.empty())
      raise("TypeError",
            cls.name + ".__init__() got an unexpected keyword argument '" +
                excerpt(kwargs[0].first) + "'",
            loc);
    if (cls.lookup("__post_init__")) call(attribute(self_obj, "__post_init__", loc), {}, {}, loc);
    return Obj::none();
  }
  case Builtin::identity_decorator:
    if (args.size() == 1 && kwargs.empty() && is_callable(args[0])) return args[0];
    return make_builtin(Builtin::identity_decorator, name); // @lru_cache(maxsize=None)
  case Builtin::partial: {
    if (args.empty()) raise("TypeError", "partial() takes a callable", loc);
    Obj f = args[0];
    Obj bound_args = Obj::tuple(std::vector<Obj>(args.begin() + 1, args.end()));
    Obj bound_kwargs = Obj::dict();
    for (auto &[k, v] : kwargs)
      bound_kwargs.as<DictObj>().set(Obj::str(k), v);
    return bound_builtin(Builtin::partial_call, "functools.partial",
                         Obj::tuple({f, bound_args, bound_kwargs}));
  }
  case Builtin::partial_call: {
    const auto &parts = items_of(self);
    std::vector<Obj> all = items_of(parts[1]);
    all.insert(all.end(), args.begin(), args.end());
    Kwargs kw;
    const DictObj &d = parts[2].as<DictObj>();
    for (std::size_t i = 0; i < d.keys.size(); ++i)
      kw.emplace_back(str_of(d.keys[i]), d.values[i]);
    for (auto &p : kwargs)
      kw.push_back(p);
    return call(parts[0], std::move(all), std::move(kw), loc);
  }
  case Builtin::reduce: {
    arity(*this, name, args, 2, 3, loc);
    std::vector<Obj> items = iterate(args[1], loc);
    std::size_t i = 0;
    Obj acc;
    if (args.size() > 2)
      acc = args[2];
    else if (items.empty())
      raise("TypeError", "reduce() of empty iterable with no initial value", loc);
    else
      acc = items[i++];
    for (; i < items.size(); ++i)
      acc = call(args[0], {acc, items[i]}, {}, loc);
    return acc;
  }
  default:
    break;
  }
  throw TraceError(loc, "the builtin `" + excerpt(name) + "` is not supported");
}

} // namespace tracelint::tracer
