// Python's text of values: str(), repr(), format() with the format-spec mini-language,
// f-strings, str.format and the % operator.
#include "tracelint/tracer/interpreter.hpp"

#include "interpreter_impl.hpp"

#include "tracelint/core/value.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace tracelint::tracer {

ValueLevel::~ValueLevel() {
  --in.state().value_depth;
}

ValueLevel enter_value(Interpreter &in, const char *what, const Loc &loc) {
  // CPython's default recursion limit: deeper values raise there too.
  constexpr int kMaxValueDepth = 1000;
  if (in.state().value_depth >= kMaxValueDepth)
    raise(in, "RecursionError", std::string("maximum recursion depth exceeded ") + what, loc);
  ++in.state().value_depth;
  return ValueLevel{in};
}

// A tuple, list, set or dict: its items' reprs; one already being written (a list holding
// itself) is [...] or {...}, as CPython's Py_ReprEnter makes it.
std::string container_repr(Interpreter &in, const Obj &o, const Loc &loc) {
  const void *self = o.ref.get();
  if (std::find(in.state().in_repr.begin(), in.state().in_repr.end(), self) !=
      in.state().in_repr.end())
    return o.kind == Obj::Kind::List ? "[...]" : o.kind == Obj::Kind::Tuple ? "(...)" : "{...}";
  ValueLevel level = enter_value(in, "while getting the repr of an object", loc);
  in.state().in_repr.push_back(self);
  struct Leave {
    std::vector<const void *> &active;
    ~Leave() { active.pop_back(); }
  } leave{in.state().in_repr};
  if (o.kind == Obj::Kind::Dict) {
    const DictObj &d = o.as<DictObj>();
    bool ordered = d.flavor == DictObj::Flavor::Ordered;
    // CPython 3.11: OrderedDict([('a', 1)]), defaultdict(<class 'list'>, {'a': []}).
    std::string out = ordered ? "OrderedDict([" : "{";
    if (ordered && d.keys.empty()) return "OrderedDict()";
    for (std::size_t i = 0; i < d.keys.size(); ++i) {
      in.budget().step(loc);
      if (i) out += ", ";
      out += ordered ? "(" + repr(in, d.keys[i], loc) + ", " + repr(in, d.values[i], loc) + ")"
                     : repr(in, d.keys[i], loc) + ": " + repr(in, d.values[i], loc);
    }
    out += ordered ? "])" : "}";
    if (d.flavor == DictObj::Flavor::Default)
      out = "defaultdict(" + repr(in, d.default_factory, loc) + ", " + out + ")";
    return out;
  }
  const auto &items = items_of(o);
  if (o.kind == Obj::Kind::Set && items.empty()) return "set()";
  if (o.kind == Obj::Kind::Tuple && o.as<SeqObj>().named) { // Pair(a=1, b=2)
    const ClassObj &cls = *o.as<SeqObj>().named;
    std::string out = cls.name + "(";
    for (std::size_t i = 0; i < items.size(); ++i) {
      in.budget().step(loc);
      out += (i ? ", " : "") + cls.fields[i] + "=" + repr(in, items[i], loc);
    }
    return out + ")";
  }
  std::string out = o.kind == Obj::Kind::Tuple ? "(" : o.kind == Obj::Kind::List ? "[" : "{";
  for (std::size_t i = 0; i < items.size(); ++i) {
    in.budget().step(loc);
    if (i) out += ", ";
    out += repr(in, items[i], loc);
  }
  if (o.kind == Obj::Kind::Tuple && items.size() == 1) out += ",";
  out += o.kind == Obj::Kind::Tuple ? ")" : o.kind == Obj::Kind::List ? "]" : "}";
  return out;
}

std::string repr(Interpreter &in, const Obj &o, const Loc &loc) {
  switch (o.kind) {
  case Obj::Kind::None:
    return "None";
  case Obj::Kind::Ellipsis:
    return "Ellipsis";
  case Obj::Kind::NotImplemented:
    return "NotImplemented";
  case Obj::Kind::Bool:
  case Obj::Kind::Int:
  case Obj::Kind::Float:
    // The text of a symbolic number is its value: it specialises the trace.
    if (o.is_proxy()) in.backend().guard(o, loc);
    if (o.kind == Obj::Kind::Bool) return o.boolean ? "True" : "False";
    if (o.kind == Obj::Kind::Int) return std::to_string(o.integer);
    if (std::isinf(o.real)) return o.real > 0 ? "inf" : "-inf";
    if (std::isnan(o.real)) return "nan";
    return python_float(o.real);
  case Obj::Kind::Str:
    in.budget().make_room(str_of(o).size() + 2,
                          loc); // a 1 MB string's repr in a list of 1,000 of it
    return python_string(str_of(o));
  case Obj::Kind::Tuple:
  case Obj::Kind::List:
  case Obj::Kind::Set:
  case Obj::Kind::Dict:
    return container_repr(in, o, loc);
  case Obj::Kind::Slice: {
    const SliceObj &s = o.as<SliceObj>();
    return "slice(" + repr(in, s.start, loc) + ", " + repr(in, s.stop, loc) + ", " +
           repr(in, s.step, loc) + ")";
  }
  case Obj::Kind::DType:
    return std::string("torch.") + dtype_info(o.dtype()).torch_name;
  case Obj::Kind::Device: {
    const std::string &spec = o.as<DeviceObj>().spec;
    std::size_t colon = spec.find(':');
    if (colon == std::string::npos) return "device(type='" + spec + "')";
    return "device(type='" + spec.substr(0, colon) + "', index=" + spec.substr(colon + 1) + ")";
  }
  case Obj::Kind::Tensor:
    // Its values are not known while tracing.
    return "<" + describe(o) + ">";
  case Obj::Kind::Class:
    return "<class '" + o.as<ClassObj>().name + "'>";
  case Obj::Kind::Instance: {
    const InstanceObj &inst = o.as<InstanceObj>();
    if (inst.cls->lookup("__repr__")) {
      Obj r = in.call(attribute(in, o, "__repr__", loc), {}, {}, loc);
      if (r.kind == Obj::Kind::Str) return str_of(r);
    }
    if (is_enum_class(*inst.cls) && inst.dict->get("_name_")) // <Color.RED: 1>
      return "<" + inst.cls->name + "." + str_of(*inst.dict->get("_name_")) + ": " +
             repr(in, *inst.dict->get("_value_"), loc) + ">";
    if (inst.cls->builtin == static_cast<uint16_t>(Builtin::class_exception)) {
      const Obj *args = inst.dict->get("args");
      std::string inner;
      if (args && args->kind == Obj::Kind::Tuple) {
        const auto &items = items_of(*args);
        for (std::size_t i = 0; i < items.size(); ++i)
          inner += (i ? ", " : "") + repr(in, items[i], loc);
      }
      return inst.cls->name + "(" + inner + ")";
    }
    if (inst.cls->is_dataclass) {
      std::string out = inst.cls->name + "(";
      for (std::size_t i = 0; i < inst.cls->fields.size(); ++i) {
        const Obj *v = inst.dict->get(inst.cls->fields[i]);
        out += (i ? ", " : "") + inst.cls->fields[i] + "=" + (v ? repr(in, *v, loc) : "?");
      }
      return out + ")";
    }
    return "<" + inst.cls->name + " object>";
  }
  case Obj::Kind::Function:
    return "<function " + o.as<FunctionObj>().qualname + ">";
  case Obj::Kind::BoundMethod:
    return "<bound method>";
  case Obj::Kind::Builtin:
    return "<built-in function " + o.as<BuiltinObj>().name + ">";
  case Obj::Kind::Module:
    return "<module '" + o.as<ModuleObj>().name + "'>";
  case Obj::Kind::Unknown:
    unknown_used(in, o, loc, "the text of");
  default:
    return "<" + type_name(o) + " object>";
  }
}

std::string str(Interpreter &in, const Obj &o, const Loc &loc) {
  switch (o.kind) {
  case Obj::Kind::Str:
    return str_of(o);
  case Obj::Kind::Instance: {
    const InstanceObj &inst = o.as<InstanceObj>();
    if (inst.cls->lookup("__str__")) {
      Obj r = in.call(attribute(in, o, "__str__", loc), {}, {}, loc);
      if (r.kind == Obj::Kind::Str) return str_of(r);
    }
    if (is_enum_class(*inst.cls) && inst.dict->get("_name_")) // Color.RED
      return inst.cls->name + "." + str_of(*inst.dict->get("_name_"));
    if (inst.cls->builtin == static_cast<uint16_t>(Builtin::class_exception)) {
      const Obj *args = inst.dict->get("args");
      if (args && args->kind == Obj::Kind::Tuple) {
        const auto &items = items_of(*args);
        if (items.size() == 1) return str(in, items[0], loc);
        if (items.empty()) return "";
      }
    }
    return repr(in, o, loc);
  }
  case Obj::Kind::DType:
    return repr(in, o, loc);
  case Obj::Kind::Device:
    return o.as<DeviceObj>().spec;
  default:
    return repr(in, o, loc);
  }
}

namespace {

struct Spec {
  char fill = ' ';
  char align = 0; // < > ^ =
  char sign = '-';
  bool alternate = false;
  bool zero = false;
  int64_t width = -1;
  char grouping = 0;
  int64_t precision = -1;
  char type = 0;
};

// The decimal number at s[i] (advancing i), or -1 where there is none; a number past int64_t
// is CPython's ValueError.
int64_t spec_number(Interpreter &in, const std::string &s, std::size_t &i, const Loc &loc) {
  int64_t n = -1;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    int digit = s[i++] - '0';
    if (n > (std::numeric_limits<int64_t>::max() - digit) / 10)
      raise(in, "ValueError", "Too many decimal digits in format string", loc);
    n = std::max<int64_t>(n, 0) * 10 + digit;
  }
  return n;
}

Spec parse_spec(Interpreter &in, const std::string &s, const Loc &loc) {
  Spec spec;
  std::size_t i = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^' || c == '='; };
  if (s.size() >= 2 && is_align(s[1])) {
    spec.fill = s[0];
    spec.align = s[1];
    i = 2;
  } else if (!s.empty() && is_align(s[0])) {
    spec.align = s[0];
    i = 1;
  }
  if (i < s.size() && (s[i] == '+' || s[i] == '-' || s[i] == ' ')) spec.sign = s[i++];
  if (i < s.size() && s[i] == '#') {
    spec.alternate = true;
    ++i;
  }
  if (i < s.size() && s[i] == '0') {
    spec.zero = true;
    ++i;
  }
  spec.width = spec_number(in, s, i, loc);
  // The result is at least this wide: refused here when that is past the memory limit.
  if (spec.width > 0) in.budget().make_room(static_cast<uint64_t>(spec.width), loc);
  if (i < s.size() && (s[i] == ',' || s[i] == '_')) spec.grouping = s[i++];
  if (i < s.size() && s[i] == '.') {
    ++i;
    spec.precision = spec_number(in, s, i, loc);
    if (spec.precision < 0) raise(in, "ValueError", "Format specifier missing precision", loc);
  }
  if (i < s.size()) spec.type = s[i++];
  if (i != s.size()) raise(in, "ValueError", "Invalid format specifier '" + excerpt(s) + "'", loc);
  return spec;
}

std::string group(const std::string &digits, char sep) {
  if (!sep) return digits;
  std::string out;
  int n = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (n && n % 3 == 0) out += sep;
    out += *it;
    ++n;
  }
  return std::string(out.rbegin(), out.rend());
}

std::string pad(const std::string &body, const Spec &spec, bool numeric) {
  std::size_t length = code_points(body);
  if (spec.width < 0 || length >= static_cast<std::size_t>(spec.width)) return body;
  std::size_t missing = static_cast<std::size_t>(spec.width) - length;
  char align = spec.align ? spec.align : (numeric ? '>' : '<');
  char fill = spec.fill;
  if (spec.zero && !spec.align) {
    align = '=';
    fill = '0';
  }
  if (align == '<') return body + std::string(missing, fill);
  if (align == '>') return std::string(missing, fill) + body;
  if (align == '^')
    return std::string(missing / 2, fill) + body + std::string(missing - missing / 2, fill);
  // '=': after the sign
  std::size_t sign = !body.empty() && (body[0] == '-' || body[0] == '+' || body[0] == ' ');
  return body.substr(0, sign) + std::string(missing, fill) + body.substr(sign);
}

// Python's repr of a float as format() without a type spells it ("1.0", "1e-05").
std::string float_text(double d) {
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (std::isnan(d)) return "nan";
  return python_float(d);
}

std::string format_float(double x, const Spec &spec) {
  char type = spec.type;
  int64_t precision = spec.precision;
  std::string body;
  bool negative = std::signbit(x) && !std::isnan(x);
  double a = std::fabs(x);
  if (std::isinf(a) || std::isnan(a)) {
    body = std::isnan(a) ? "nan" : "inf";
    if (type == 'F' || type == 'E' || type == 'G')
      for (char &c : body)
        c = static_cast<char>(std::toupper(c));
  } else if (type == 0 && precision < 0) {
    body = float_text(a);
  } else {
    char c = type == 0 ? 'g' : type == '%' ? 'f' : type == 'n' ? 'g' : type;
    if (type == '%') a *= 100;
    int64_t p = precision < 0 ? 6 : precision;
    if (type == 0 && precision >= 0) c = 'g';
    char format[32];
    std::snprintf(format, sizeof format, "%%%s.%lld%c", spec.alternate ? "#" : "",
                  static_cast<long long>(p), c);
    // As long as the number needs (1e300 with 20 decimals is over 300 characters).
    int length = std::snprintf(nullptr, 0, format, a);
    std::vector<char> buffer(static_cast<std::size_t>(std::max(length, 0)) + 1);
    std::snprintf(buffer.data(), buffer.size(), format, a);
    body = buffer.data();
    // No type but a precision ("{:.3}") is 'g' that keeps a ".0" on whole numbers, as repr;
    // as CPython (Py_DTSF_ADD_DOT_0), a whole number whose digits reach the precision switches
    // to exponent notation instead: '{:.3}'.format(691.0) is '6.91e+02'.
    if (type == 0 && body.find_first_of(".e") == std::string::npos) {
      int64_t digits = static_cast<int64_t>(body.size());
      if (digits > std::max<int64_t>(p, 1) - 1) {
        std::string e(64, '\0');
        e.resize(static_cast<std::size_t>(std::snprintf(
            e.data(), e.size(), "%.*e", static_cast<int>(std::max<int64_t>(p, 1) - 1), a)));
        std::size_t mark = e.find('e');
        std::string mantissa = e.substr(0, mark);
        if (mantissa.find('.') != std::string::npos) {
          mantissa.erase(mantissa.find_last_not_of('0') + 1);
          if (mantissa.back() == '.') mantissa.pop_back();
        }
        body = mantissa + e.substr(mark);
      } else {
        body += ".0";
      }
    }
    if (type == '%') body += '%';
  }
  if (spec.grouping) { // the integer part, in every form ('{:,}'.format(15486.3) too)
    std::size_t end = body.find_first_not_of("0123456789");
    body = group(body.substr(0, end), spec.grouping) +
           (end == std::string::npos ? "" : body.substr(end));
  }
  std::string sign = negative ? "-" : spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "";
  return pad(sign + body, spec, true);
}

std::string format_int(int64_t v, const Spec &spec) {
  char type = spec.type ? spec.type : 'd';
  bool negative = v < 0;
  uint64_t a =
      negative ? static_cast<uint64_t>(0) - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  std::string digits;
  if (type == 'x' || type == 'X' || type == 'o' || type == 'b') {
    unsigned base = type == 'o' ? 8 : type == 'b' ? 2 : 16;
    const char *alphabet = type == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
      digits.insert(digits.begin(), alphabet[a % base]);
      a /= base;
    } while (a);
    if (spec.alternate)
      digits = std::string("0") +
               (type == 'o'   ? "o"
                : type == 'b' ? "b"
                : type == 'X' ? "X"
                              : "x") +
               digits;
  } else if (type == 'c') {
    digits = std::string(1, static_cast<char>(a));
  } else {
    digits = group(std::to_string(a), spec.grouping);
  }
  std::string sign = negative ? "-" : spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "";
  return pad(sign + digits, spec, true);
}

} // namespace

Obj format_value(Interpreter &in, const Obj &value, const std::string &spec_text, const Loc &loc) {
  if (value.kind == Obj::Kind::Instance && value.as<InstanceObj>().cls->lookup("__format__"))
    return in.call(attribute(in, value, "__format__", loc), {Obj::str(spec_text)}, {}, loc);
  if (spec_text.empty()) return Obj::str(str(in, value, loc));
  Spec spec = parse_spec(in, spec_text, loc);
  if (value.is_number()) {
    if (value.is_proxy()) in.backend().guard(value, loc);
    bool as_float = value.kind == Obj::Kind::Float ||
                    (spec.type && std::string("eEfFgG%").find(spec.type) != std::string::npos);
    if (as_float) {
      if (spec.type && std::string("eEfFgGn%").find(spec.type) == std::string::npos)
        raise(in, "ValueError",
              std::string("Unknown format code '") + spec.type + "' for object of type 'float'",
              loc);
      // Fixed or exponent notation writes `precision` digits.
      if (spec.precision > std::numeric_limits<int>::max())
        raise(in, "ValueError", "precision too big", loc);
      if (spec.precision > 0) in.budget().make_room(static_cast<uint64_t>(spec.precision), loc);
      return Obj::str(format_float(value.as_double(), spec));
    }
    if (spec.type && std::string("dxXobcn").find(spec.type) == std::string::npos)
      raise(in, "ValueError",
            std::string("Unknown format code '") + spec.type + "' for object of type 'int'", loc);
    if (spec.precision >= 0)
      raise(in, "ValueError", "Precision not allowed in integer format specifier", loc);
    return Obj::str(format_int(value.integer, spec));
  }
  if (spec.type && spec.type != 's')
    raise(in, "ValueError",
          std::string("Unknown format code '") + spec.type + "' for object of type '" +
              type_name(value) + "'",
          loc);
  std::string text = str(in, value, loc);
  if (spec.precision >= 0) { // at most `precision` code points
    std::size_t end = 0;
    for (int64_t kept = 0; end < text.size(); ++end)
      if ((static_cast<unsigned char>(text[end]) & 0xC0) != 0x80 && kept++ == spec.precision) break;
    text.resize(end);
  }
  return Obj::str(pad(text, spec, false));
}

std::string percent_format(Interpreter &in, const std::string &format, const Obj &args,
                           const Loc &loc) {
  std::vector<Obj> values = args.kind == Obj::Kind::Tuple ? items_of(args) : std::vector<Obj>{args};
  std::size_t next = 0;
  std::string out;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    if (++i >= format.size()) raise(in, "ValueError", "incomplete format", loc);
    if (format[i] == '%') {
      out += '%';
      continue;
    }
    const Obj *value = nullptr;
    Obj keyed;
    if (format[i] == '(') {
      std::size_t close = format.find(')', i);
      if (close == std::string::npos) raise(in, "ValueError", "incomplete format key", loc);
      if (args.kind != Obj::Kind::Dict) raise(in, "TypeError", "format requires a mapping", loc);
      const Obj *v = args.as<DictObj>().get(format.substr(i + 1, close - i - 1));
      if (!v) raise(in, "KeyError", "'" + format.substr(i + 1, close - i - 1) + "'", loc);
      keyed = *v;
      value = &keyed;
      i = close + 1;
    }
    std::string flags;
    while (i < format.size() && std::string("-+ #0").find(format[i]) != std::string::npos)
      flags += format[i++];
    std::string width, precision;
    bool has_precision = false;
    while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i])))
      width += format[i++];
    if (i < format.size() && format[i] == '.') {
      has_precision = true;
      ++i;
      while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i])))
        precision += format[i++];
    }
    while (i < format.size() && (format[i] == 'l' || format[i] == 'h' || format[i] == 'L'))
      ++i;
    if (i >= format.size()) raise(in, "ValueError", "incomplete format", loc);
    char type = format[i];
    if (!value) {
      if (next >= values.size())
        raise(in, "TypeError", "not enough arguments for format string", loc);
      value = &values[next++];
    }
    // As a format spec: flags, width, precision, type.
    std::string spec;
    if (flags.find('-') != std::string::npos)
      spec += '<';
    else if (type != 's' && type != 'r' && type != 'a')
      spec += '>';
    if (flags.find('+') != std::string::npos)
      spec += '+';
    else if (flags.find(' ') != std::string::npos)
      spec += ' ';
    if (flags.find('#') != std::string::npos) spec += '#';
    if (flags.find('0') != std::string::npos && flags.find('-') == std::string::npos)
      spec = spec.empty() || spec == ">" ? "0" : spec + "0";
    if (spec == "0>") spec = "0";
    spec += width;
    if (has_precision) spec += "." + (precision.empty() ? std::string("0") : precision);
    switch (type) {
    case 's':
      out += format_value(in, Obj::str(str(in, *value, loc)), spec, loc).as<StrObj>().value;
      break;
    case 'r':
    case 'a':
      out += format_value(in, Obj::str(repr(in, *value, loc)), spec, loc).as<StrObj>().value;
      break;
    case 'd':
    case 'i':
    case 'u': {
      if (!value->is_number())
        raise(in, "TypeError", "%d format: a real number is required, not " + type_name(*value),
              loc);
      Obj as_int =
          value->kind == Obj::Kind::Float ? compute_number(NumOp::to_int, {*value}, loc) : *value;
      out += format_value(in, as_int, spec + "d", loc).as<StrObj>().value;
      break;
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
      if (!value->is_number())
        raise(in, "TypeError", std::string("must be real number, not ") + type_name(*value), loc);
      out +=
          format_value(in, Obj::float_of(concrete_float(in, *value, loc, "a %-formatted number")),
                       spec + (has_precision ? "" : ".6") + type, loc)
              .as<StrObj>()
              .value;
      break;
    case 'x':
    case 'X':
    case 'o':
    case 'c':
      out += format_value(in, *value, spec + type, loc).as<StrObj>().value;
      break;
    default:
      raise(in, "ValueError", std::string("unsupported format character '") + type + "'", loc);
    }
  }
  // CPython's rule: arguments left over are an error, unless they are a mapping (anything with
  // __getitem__ but a tuple or str: 'ab' % [] is 'ab', 'ab' % 2 is the TypeError).
  bool mapping =
      args.kind == Obj::Kind::Dict || args.kind == Obj::Kind::List ||
      (args.kind == Obj::Kind::Instance && args.as<InstanceObj>().cls->lookup("__getitem__"));
  if (next < values.size() && !mapping)
    raise(in, "TypeError", "not all arguments converted during string formatting", loc);
  return out;
}

std::string format_method(Interpreter &in, const std::string &format, const std::vector<Obj> &args,
                          const Kwargs &kwargs, const Loc &loc) {
  std::string out;
  std::size_t auto_index = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    char c = format[i];
    if (c == '}') {
      if (i + 1 < format.size() && format[i + 1] == '}') ++i;
      out += '}';
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    // {field!conv:spec}, the spec possibly holding {nested} fields.
    int depth = 1;
    std::size_t j = i + 1;
    while (j < format.size() && depth) {
      if (format[j] == '{') ++depth;
      if (format[j] == '}') --depth;
      if (depth) ++j;
    }
    if (j >= format.size()) raise(in, "ValueError", "Single '{' encountered in format string", loc);
    std::string field = format.substr(i + 1, j - i - 1);
    i = j;
    std::string spec, conversion;
    std::size_t colon = field.find(':');
    if (colon != std::string::npos) {
      spec = format_method(in, field.substr(colon + 1), args, kwargs, loc);
      field = field.substr(0, colon);
    }
    std::size_t bang = field.find('!');
    if (bang != std::string::npos) {
      conversion = field.substr(bang + 1);
      field = field.substr(0, bang);
    }
    // The field: a name or index, then .attr and [key] parts.
    std::size_t end = field.find_first_of(".[");
    std::string head = field.substr(0, end);
    Obj value;
    if (head.empty()) {
      if (auto_index >= args.size())
        raise(in, "IndexError", "Replacement index " + std::to_string(auto_index) + " out of range",
              loc);
      value = args[auto_index++];
    } else if (std::isdigit(static_cast<unsigned char>(head[0]))) {
      std::size_t k = std::stoul(head);
      if (k >= args.size())
        raise(in, "IndexError", "Replacement index " + head + " out of range", loc);
      value = args[k];
    } else {
      bool found = false;
      for (const auto &[name, v] : kwargs)
        if (name == head) {
          value = v;
          found = true;
        }
      if (!found) raise(in, "KeyError", "'" + head + "'", loc);
    }
    while (end != std::string::npos && end < field.size()) {
      if (field[end] == '.') {
        std::size_t next = field.find_first_of(".[", end + 1);
        value = attribute(in, value, field.substr(end + 1, next - end - 1), loc);
        end = next;
      } else {
        std::size_t close = field.find(']', end);
        std::string key = field.substr(end + 1, close - end - 1);
        Obj index = !key.empty() && std::isdigit(static_cast<unsigned char>(key[0]))
                        ? Obj::int_of(std::stoll(key))
                        : Obj::str(key);
        value = subscript(in, value, index, loc);
        end = close == std::string::npos ? close : close + 1;
      }
    }
    if (conversion == "r" || conversion == "a")
      value = Obj::str(repr(in, value, loc));
    else if (conversion == "s")
      value = Obj::str(str(in, value, loc));
    out += str_of(format_value(in, value, spec, loc));
  }
  return out;
}

} // namespace tracelint::tracer
