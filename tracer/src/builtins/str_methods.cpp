// Builtins: the methods of str.
// Each is registered by its id (builtins.def) in this family's table; dispatch.cpp reads it.
#include "builtin_family.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tracelint::tracer::builtins {

namespace {

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

Obj call_str_join(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                  const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 1, 1, loc);
  std::vector<Obj> parts = iterate(in, args[0], loc);
  uint64_t size = 0;
  for (const Obj &o : parts)
    if (o.kind == Obj::Kind::Str) size += str_of(o).size() + str_of(self).size();
  in.budget().make_room(size, loc);
  std::string out;
  bool first = true;
  for (const Obj &o : parts) {
    if (o.kind != Obj::Kind::Str)
      raise(in, "TypeError", "sequence item: expected str instance, " + type_name(o) + " found",
            loc);
    if (!first) out += str_of(self);
    out += str_of(o);
    first = false;
  }
  return Obj::str(std::move(out));
}

Obj call_str_split(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                   const Loc &loc) {
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  std::optional<Obj> sep = take_keyword(kwargs, "sep");
  std::optional<Obj> max = take_keyword(kwargs, "maxsplit");
  if (!args.empty()) sep = args[0];
  if (args.size() > 1) max = args[1];
  std::string sep_text;
  bool has_sep = sep && sep->kind == Obj::Kind::Str;
  if (has_sep) {
    sep_text = str_of(*sep);
    if (sep_text.empty()) raise(in, "ValueError", "empty separator", loc);
  }
  int64_t m = max ? concrete_int(in, *max, loc, "maxsplit") : -1;
  return strings(split(str_of(self), has_sep ? &sep_text : nullptr, m, id == Builtin::str_rsplit));
}

Obj call_str_strip(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> &args,
                   Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  const std::string *chars =
      !args.empty() && args[0].kind == Obj::Kind::Str ? &str_of(args[0]) : nullptr;
  return Obj::str(strip(str_of(self), chars, id != Builtin::str_rstrip, id != Builtin::str_lstrip));
}

Obj call_str_startswith(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                        Kwargs & /*kwargs*/, const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 1, loc);
  std::vector<Obj> options =
      args[0].kind == Obj::Kind::Tuple ? items_of(args[0]) : std::vector<Obj>{args[0]};
  for (const Obj &o : options) {
    if (o.kind != Obj::Kind::Str)
      raise(in, "TypeError", name + " arg must be str or a tuple of str", loc);
    if (id == Builtin::str_startswith ? str_of(self).starts_with(str_of(o))
                                      : str_of(self).ends_with(str_of(o)))
      return Obj::boolean_of(true);
  }
  return Obj::boolean_of(false);
}

Obj call_str_replace(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                     const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  arity(in, name, args, 2, 3, loc);
  const std::string &from = str_of(args[0]), &to = str_of(args[1]);
  int64_t count = args.size() > 2 ? concrete_int(in, args[2], loc, "count") : -1;
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
  in.budget().make_room(s.size(), loc);
  if (to.size() > from.size()) in.budget().make_room(replaced, to.size() - from.size(), loc);
  std::string out;
  std::size_t at = 0;
  int64_t done = 0;
  while (count < 0 || done < count) {
    std::size_t found = from.empty() ? (at <= s.size() ? at : std::string::npos) : s.find(from, at);
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

Obj call_str_format(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs &kwargs,
                    const Loc &loc) {
  const Obj &self = fn.self;
  return Obj::str(format_method(in, str_of(self), args, kwargs, loc));
}

Obj call_str_lower(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                   Kwargs & /*kwargs*/, const Loc &loc) {
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  return Obj::str(change_case(str_of(self), id, loc));
}

Obj call_str_find(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                  const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 1, loc);
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
    if (id == Builtin::str_index) raise(in, "ValueError", "substring not found", loc);
    return Obj::int_of(-1);
  }
  return Obj::int_of(static_cast<int64_t>(code_points(std::string_view(s).substr(0, at))));
}

Obj call_str_isdigit(Interpreter & /*in*/, BuiltinObj &fn, std::vector<Obj> & /*args*/,
                     Kwargs & /*kwargs*/, const Loc & /*loc*/) {
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
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

Obj call_str_partition(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                       const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 1, loc);
  const std::string &s = str_of(self), &sep = str_of(args[0]);
  std::size_t at = id == Builtin::str_partition ? s.find(sep) : s.rfind(sep);
  if (at == std::string::npos)
    return id == Builtin::str_partition ? Obj::tuple({Obj::str(s), Obj::str(""), Obj::str("")})
                                        : Obj::tuple({Obj::str(""), Obj::str(""), Obj::str(s)});
  return Obj::tuple(
      {Obj::str(s.substr(0, at)), Obj::str(sep), Obj::str(s.substr(at + sep.size()))});
}

Obj call_str_zfill(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args, Kwargs & /*kwargs*/,
                   const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 2, loc);
  std::string s = str_of(self);
  std::size_t width =
      static_cast<std::size_t>(std::max<int64_t>(0, concrete_int(in, args[0], loc, "width")));
  std::string fill = id == Builtin::str_zfill ? "0" : " ";
  if (args.size() > 1) {
    if (args[1].kind != Obj::Kind::Str || code_points(str_of(args[1])) != 1)
      raise(in, "TypeError", "The fill character must be exactly one character long", loc);
    fill = str_of(args[1]);
  }
  std::size_t length = code_points(s);
  if (length >= width) return self;
  in.budget().make_room(width - length, fill.size(), loc);
  std::string pad;
  for (std::size_t i = length; i < width; ++i)
    pad += fill;
  if (id == Builtin::str_ljust) return Obj::str(s + pad);
  if (id == Builtin::str_zfill && !s.empty() && (s[0] == '-' || s[0] == '+'))
    return Obj::str(s.substr(0, 1) + pad + s.substr(1));
  return Obj::str(pad + s);
}

Obj call_str_removeprefix(Interpreter &in, BuiltinObj &fn, std::vector<Obj> &args,
                          Kwargs & /*kwargs*/, const Loc &loc) {
  const std::string &name = fn.name;
  const Obj &self = fn.self;
  auto id = static_cast<Builtin>(fn.id);
  arity(in, name, args, 1, 1, loc);
  const std::string &s = str_of(self), &a = str_of(args[0]);
  if (id == Builtin::str_removeprefix) return Obj::str(s.starts_with(a) ? s.substr(a.size()) : s);
  return Obj::str(s.ends_with(a) ? s.substr(0, s.size() - a.size()) : s);
}

} // namespace

std::span<const Entry> str_methods() {
  static constexpr Entry kEntries[] = {
      {Builtin::str_join, call_str_join},
      {Builtin::str_split, call_str_split},
      {Builtin::str_rsplit, call_str_split},
      {Builtin::str_strip, call_str_strip},
      {Builtin::str_lstrip, call_str_strip},
      {Builtin::str_rstrip, call_str_strip},
      {Builtin::str_startswith, call_str_startswith},
      {Builtin::str_endswith, call_str_startswith},
      {Builtin::str_replace, call_str_replace},
      {Builtin::str_format, call_str_format},
      {Builtin::str_lower, call_str_lower},
      {Builtin::str_upper, call_str_lower},
      {Builtin::str_title, call_str_lower},
      {Builtin::str_capitalize, call_str_lower},
      {Builtin::str_find, call_str_find},
      {Builtin::str_rfind, call_str_find},
      {Builtin::str_index, call_str_find},
      {Builtin::str_count, call_str_find},
      {Builtin::str_isdigit, call_str_isdigit},
      {Builtin::str_isnumeric, call_str_isdigit},
      {Builtin::str_isalpha, call_str_isdigit},
      {Builtin::str_isidentifier, call_str_isdigit},
      {Builtin::str_partition, call_str_partition},
      {Builtin::str_rpartition, call_str_partition},
      {Builtin::str_zfill, call_str_zfill},
      {Builtin::str_ljust, call_str_zfill},
      {Builtin::str_rjust, call_str_zfill},
      {Builtin::str_removeprefix, call_str_removeprefix},
      {Builtin::str_removesuffix, call_str_removeprefix},
  };
  return kEntries;
}

} // namespace tracelint::tracer::builtins
