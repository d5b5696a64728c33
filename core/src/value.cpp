#include "tracelint/core/value.hpp"

#include "tracelint/core/dtypes.hpp"
#include "tracelint/core/lexing.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <set>

namespace tracelint {

namespace {
Value make(ValueKind kind) {
  Value v;
  v.kind = kind;
  return v;
}
} // namespace

Value Value::none() {
  return make(ValueKind::None);
}
Value Value::ellipsis() {
  return make(ValueKind::Ellipsis);
}
Value Value::boolean_value(bool b) {
  Value v = make(ValueKind::Bool);
  v.boolean = b;
  return v;
}
Value Value::int_value(int64_t i) {
  Value v = make(ValueKind::Int);
  v.integer = i;
  return v;
}
Value Value::float_value(double d) {
  Value v = make(ValueKind::Float);
  v.real = d;
  return v;
}
Value Value::complex_value(double re, double im) {
  Value v = make(ValueKind::Complex);
  v.real = re;
  v.imag = im;
  return v;
}
Value Value::string(std::string s) {
  Value v = make(ValueKind::String);
  v.text = std::move(s);
  return v;
}
Value Value::dtype(std::string name, Namespace ns) {
  Value v = make(ValueKind::DType);
  v.text = std::move(name);
  v.ns = ns;
  return v;
}
Value Value::device(std::string spec, Namespace ns) {
  Value v = make(ValueKind::Device);
  v.text = std::move(spec);
  v.ns = ns;
  return v;
}
Value Value::name(std::string id) {
  Value v = make(ValueKind::Name);
  v.text = std::move(id);
  return v;
}
Value Value::attribute(Value base, std::string attr) {
  Value v = make(ValueKind::Attribute);
  v.text = std::move(attr);
  v.items.push_back(std::move(base));
  return v;
}
Value Value::dotted(const std::string &qualified) {
  std::size_t dot = qualified.find('.');
  Value v = name(qualified.substr(0, dot));
  while (dot != std::string::npos) {
    std::size_t next = qualified.find('.', dot + 1);
    v = attribute(std::move(v), qualified.substr(dot + 1, next - dot - 1));
    dot = next;
  }
  return v;
}
Value Value::call(Value callee, std::vector<Value> args,
                  std::vector<std::pair<std::string, Value>> kwargs) {
  Value v = make(ValueKind::Call);
  v.items.reserve(1 + args.size() + kwargs.size());
  v.keywords.reserve(kwargs.size());
  v.items.push_back(std::move(callee));
  for (Value &a : args)
    v.items.push_back(std::move(a));
  for (auto &[k, a] : kwargs) {
    v.keywords.push_back(k);
    v.items.push_back(std::move(a));
  }
  return v;
}
Value Value::call(const std::string &callee, std::vector<Value> args,
                  std::vector<std::pair<std::string, Value>> kwargs) {
  return call(dotted(callee), std::move(args), std::move(kwargs));
}
Value Value::subscript(Value base, Value index) {
  Value v = make(ValueKind::Subscript);
  v.items.reserve(2);
  v.items.push_back(std::move(base));
  v.items.push_back(std::move(index));
  return v;
}
Value Value::tuple(std::vector<Value> elements) {
  Value v = make(ValueKind::Tuple);
  v.items = std::move(elements);
  return v;
}
Value Value::list(std::vector<Value> elements) {
  Value v = make(ValueKind::List);
  v.items = std::move(elements);
  return v;
}
Value Value::dict(std::vector<std::pair<Value, Value>> entries) {
  Value v = make(ValueKind::Dict);
  v.items.reserve(2 * entries.size());
  for (auto &[k, e] : entries) {
    v.items.push_back(std::move(k));
    v.items.push_back(std::move(e));
  }
  return v;
}
Value Value::slice(Value start, Value stop, Value step) {
  Value v = make(ValueKind::Slice);
  v.items = {std::move(start), std::move(stop), std::move(step)};
  return v;
}

std::string Value::qualified_name() const {
  if (kind == ValueKind::Name) return text;
  if (kind == ValueKind::Attribute) {
    std::string base = items.front().qualified_name();
    return base.empty() ? std::string() : base + "." + text;
  }
  return {};
}

const Value *Value::root_name() const {
  if (kind == ValueKind::Name) return this;
  if (kind == ValueKind::Attribute) return items.front().root_name();
  return nullptr;
}

bool operator==(const Value &a, const Value &b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
  case ValueKind::None:
  case ValueKind::Ellipsis:
    return true;
  case ValueKind::Bool:
    return a.boolean == b.boolean;
  case ValueKind::Int:
    return a.integer == b.integer;
  case ValueKind::Float: // nan == nan here: the model compares spellings, not numbers
    return (std::isnan(a.real) && std::isnan(b.real)) || a.real == b.real;
  case ValueKind::Complex:
    return a.real == b.real && a.imag == b.imag;
  case ValueKind::DType:
  case ValueKind::Device:
    return a.text == b.text && a.ns == b.ns;
  case ValueKind::Tuple:
    return a.bare == b.bare && a.items == b.items;
  default:
    return a.text == b.text && a.items == b.items && a.keywords == b.keywords;
  }
}

namespace {

// An integer literal without underscores: its base (0x, 0o, 0b prefixes) and its digits.
std::pair<int, std::string> integer_base_and_digits(const std::string &raw) {
  if (raw.size() > 2 && raw[0] == '0' && std::isalpha(static_cast<unsigned char>(raw[1]))) {
    char b = static_cast<char>(std::tolower(raw[1]));
    return {b == 'x' ? 16 : b == 'o' ? 8 : b == 'b' ? 2 : 10, raw.substr(2)};
  }
  return {10, raw};
}

} // namespace

std::optional<Value> parse_python_number(std::string_view literal, bool integer_token) {
  std::string raw(literal);
  raw.erase(std::remove(raw.begin(), raw.end(), '_'), raw.end());
  bool imaginary = !raw.empty() && (raw.back() == 'j' || raw.back() == 'J');
  if (imaginary) raw.pop_back();
  if (integer_token && !imaginary) {
    auto [base, digits] = integer_base_and_digits(raw);
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(digits.c_str(), &end, base);
    if (errno == ERANGE || *end != '\0') return std::nullopt;
    return Value::int_value(v);
  }
  double d = std::strtod(raw.c_str(), nullptr);
  return imaginary ? Value::complex_value(0.0, d) : Value::float_value(d);
}

std::optional<Value> parse_negated_integer(std::string_view literal) {
  std::string raw(literal);
  raw.erase(std::remove(raw.begin(), raw.end(), '_'), raw.end());
  auto [base, digits] = integer_base_and_digits(raw);
  errno = 0;
  char *end = nullptr;
  unsigned long long magnitude = std::strtoull(digits.c_str(), &end, base);
  // INT64_MIN's magnitude, 2^63, is one past INT64_MAX: -9223372036854775808 fits.
  constexpr unsigned long long kLimit = 1ULL << 63;
  if (errno == ERANGE || *end != '\0' || digits.empty() || magnitude > kLimit) return std::nullopt;
  return Value::int_value(magnitude == kLimit ? std::numeric_limits<int64_t>::min()
                                              : -static_cast<int64_t>(magnitude));
}

std::string python_float(double d) {
  if (std::isnan(d)) return "float('nan')";
  if (std::isinf(d)) return d > 0 ? "float('inf')" : "-float('inf')";
  char buf[64];
  // Shortest round-trip digits in scientific form: d.ddde[+-]x
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  (void)ec;
  std::string sci(buf, end);
  bool negative = sci[0] == '-';
  if (negative) sci.erase(0, 1);
  std::size_t e = sci.find('e');
  std::string mantissa = sci.substr(0, e);
  int exponent = std::stoi(sci.substr(e + 1));
  std::string digits;
  for (char c : mantissa)
    if (c != '.') digits += c;
  std::string out;
  if (exponent >= -4 && exponent < 16) { // Python repr: fixed for 1e-4 <= |d| < 1e16
    if (exponent >= 0) {
      std::size_t int_len = static_cast<std::size_t>(exponent) + 1;
      if (digits.size() <= int_len) {
        out = digits + std::string(int_len - digits.size(), '0') + ".0";
      } else {
        out = digits.substr(0, int_len) + "." + digits.substr(int_len);
      }
    } else {
      out = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exp_buf[16];
    std::snprintf(exp_buf, sizeof exp_buf, "e%c%02d", exponent < 0 ? '-' : '+',
                  exponent < 0 ? -exponent : exponent);
    out += exp_buf;
  }
  return negative ? "-" + out : out;
}

namespace {

// Whether repr() escapes this code point (outside ASCII): CPython's str.isprintable() is false
// for controls (C1), format characters, separators other than ' ' and private use. The ranges
// are those of the Unicode database that text meets in practice; other code points are kept.
bool unprintable(uint32_t cp) {
  static const std::pair<uint32_t, uint32_t> ranges[] = {
      {0x80, 0xA0},     {0xAD, 0xAD},     {0x600, 0x605},     {0x61C, 0x61C},     {0x6DD, 0x6DD},
      {0x70F, 0x70F},   {0x1680, 0x1680}, {0x180E, 0x180E},   {0x2000, 0x200F},   {0x2028, 0x202F},
      {0x205F, 0x2064}, {0x2066, 0x206F}, {0x3000, 0x3000},   {0xD800, 0xF8FF},   {0xFEFF, 0xFEFF},
      {0xFFF9, 0xFFFB}, {0xFFFE, 0xFFFF}, {0xE0000, 0xE0FFF}, {0xF0000, 0x10FFFF}};
  for (const auto &[lo, hi] : ranges)
    if (cp >= lo && cp <= hi) return true;
  return false;
}

// A repr's text with the code points CPython escapes as \xNN, \uNNNN or \UNNNNNNNN.
std::string escape_unprintable(const std::string &text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0xC0 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    if (c < 0x80 || i + n > text.size()) {
      out += text[i++];
      continue;
    }
    uint32_t cp = n == 2 ? c & 0x1F : n == 3 ? c & 0x0F : c & 0x07;
    for (std::size_t k = 1; k < n; ++k)
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    if (unprintable(cp)) {
      char buf[16];
      std::snprintf(buf, sizeof buf,
                    cp <= 0xFF     ? "\\x%02x"
                    : cp <= 0xFFFF ? "\\u%04x"
                                   : "\\U%08x",
                    cp);
      out += buf;
    } else {
      out.append(text, i, n);
    }
    i += n;
  }
  return out;
}

} // namespace

std::string python_string(const std::string &s) {
  bool has_single = s.find('\'') != std::string::npos;
  bool has_double = s.find('"') != std::string::npos;
  char quote = (has_single && !has_double) ? '"' : '\'';
  std::string out(1, quote);
  for (unsigned char c : s) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c == static_cast<unsigned char>(quote)) {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\x%02x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += quote;
  return escape_unprintable(out);
}

bool is_python_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!lexing::is_word(c)) return false;
  return true;
}

bool is_dtype_name(const std::string &name, Namespace ns) {
  return dtype_spelled(name,
                       ns == Namespace::Thunder ? DTypeSpelling::thunder : DTypeSpelling::torch)
      .has_value();
}

namespace {
void print_list(std::string &out, const std::vector<Value> &items, std::size_t from,
                std::size_t to) {
  for (std::size_t i = from; i < to; ++i) {
    if (i > from) out += ", ";
    print_value_to(out, items[i]);
  }
}
} // namespace

std::string print_value(const Value &v) {
  std::string out;
  print_value_to(out, v);
  return out;
}

void print_value_to(std::string &out, const Value &v) {
  switch (v.kind) {
  case ValueKind::None:
    out += "None";
    return;
  case ValueKind::Ellipsis:
    out += "...";
    return;
  case ValueKind::Bool:
    out += v.boolean ? "True" : "False";
    return;
  case ValueKind::Int: {
    char digits[24];
    auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v.integer);
    out.append(digits, end);
    return;
  }
  case ValueKind::Float:
    out += python_float(v.real);
    return;
  case ValueKind::Complex:
    out += "complex(" + python_float(v.real) + ", " + python_float(v.imag) + ")";
    return;
  case ValueKind::String:
    out += python_string(v.text);
    return;
  case ValueKind::DType:
    out += v.ns == Namespace::Thunder ? "dtypes." : "torch.";
    out += v.text;
    return;
  case ValueKind::Device: {
    // Thunder spells device strings with double quotes; fall back to repr when that needs escapes.
    bool plain = v.text.find_first_of("\"\\\n\r\t") == std::string::npos;
    out += v.ns == Namespace::Thunder ? "devices.Device(" : "torch.device(";
    out += plain ? "\"" + v.text + "\"" : python_string(v.text);
    out += ")";
    return;
  }
  case ValueKind::Name:
    out += v.text;
    return;
  case ValueKind::Attribute:
    print_value_to(out, v.items.front());
    out += ".";
    out += v.text;
    return;
  case ValueKind::Call: {
    print_value_to(out, v.callee());
    out += "(";
    std::size_t positional = v.positional_count();
    print_list(out, v.items, 1, 1 + positional);
    for (std::size_t k = 0; k < v.keywords.size(); ++k) {
      if (positional + k > 0) out += ", ";
      out += v.keywords[k];
      out += "=";
      print_value_to(out, v.kwarg(k));
    }
    out += ")";
    return;
  }
  case ValueKind::Subscript:
    print_value_to(out, v.items[0]);
    out += "[";
    print_value_to(out, v.items[1]);
    out += "]";
    return;
  case ValueKind::Tuple:
    if (!v.bare) out += "(";
    print_list(out, v.items, 0, v.items.size());
    if (v.items.size() == 1) out += ",";
    if (!v.bare) out += ")";
    return;
  case ValueKind::List:
    out += "[";
    print_list(out, v.items, 0, v.items.size());
    out += "]";
    return;
  case ValueKind::Dict:
    out += "{";
    for (std::size_t i = 0; i + 1 < v.items.size(); i += 2) {
      if (i > 0) out += ", ";
      print_value_to(out, v.items[i]);
      out += ": ";
      print_value_to(out, v.items[i + 1]);
    }
    out += "}";
    return;
  case ValueKind::Slice:
    out += "slice(";
    print_list(out, v.items, 0, 3);
    out += ")";
    return;
  }
}

} // namespace tracelint
