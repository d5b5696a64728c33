#pragma once
// Values of the trace model: Python literals, Thunder dtypes and devices, names (proxies and
// context names), and the few expression forms Thunder prints (calls, attributes, subscripts).
#include "tracelint/core/source.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tracelint {

enum class ValueKind : uint8_t {
  None,
  Ellipsis,
  Bool,
  Int,
  Float,
  Complex,
  String,
  DType,     // dtypes.float32 (Thunder) or torch.float32 (torch)
  Device,    // devices.Device("cuda:0") (Thunder) or torch.device("cuda:0") (torch)
  Name,      // a proxy, a parameter, an import or a context name
  Attribute, // base.attr
  Call,      // callee(args..., kw=value...)
  Subscript, // base[index]
  Tuple,
  List,
  Dict,
  Slice, // always printed as slice(start, stop, step)
};

enum class Namespace : uint8_t { Thunder, Torch };

// The small fields come first, packed: a trace holds many values (136 bytes each).
struct Value {
  ValueKind kind = ValueKind::None;
  Namespace ns = Namespace::Thunder;
  bool boolean = false;
  // Tuple only: printed without parentheses (return a, b / x[1, 2]).
  bool bare = false;
  int64_t integer = 0;
  double real = 0.0;
  double imag = 0.0;
  // String: the decoded contents. Name: the identifier. Attribute: the attribute name.
  // DType: the dtype name (float32). Device: the device string (cuda:0).
  std::string text;
  // Children. Tuple/List: elements. Dict: key0, value0, key1, value1, ...
  // Slice: start, stop, step. Attribute: base. Subscript: base, index.
  // Call: callee, then positional arguments, then keyword argument values.
  std::vector<Value> items;
  std::vector<std::string> keywords; // Call: names of the trailing keyword arguments
  Span span;                         // where it was parsed from; ignored by ==

  static Value none();
  static Value ellipsis();
  static Value boolean_value(bool b);
  static Value int_value(int64_t i);
  static Value float_value(double d);
  static Value complex_value(double re, double im);
  static Value string(std::string s);
  static Value dtype(std::string name, Namespace ns = Namespace::Thunder);
  static Value device(std::string spec, Namespace ns = Namespace::Thunder);
  static Value name(std::string id);
  static Value attribute(Value base, std::string attr);
  // A dotted name (prims.add) as a Name or a chain of Attributes.
  static Value dotted(const std::string &qualified);
  static Value call(Value callee, std::vector<Value> args,
                    std::vector<std::pair<std::string, Value>> kwargs = {});
  static Value call(const std::string &callee, std::vector<Value> args,
                    std::vector<std::pair<std::string, Value>> kwargs = {});
  static Value subscript(Value base, Value index);
  static Value tuple(std::vector<Value> elements);
  static Value list(std::vector<Value> elements);
  static Value dict(std::vector<std::pair<Value, Value>> entries);
  static Value slice(Value start, Value stop, Value step);

  // Call accessors.
  const Value &callee() const { return items.front(); }
  std::size_t positional_count() const { return items.size() - 1 - keywords.size(); }
  const Value &arg(std::size_t i) const { return items.at(1 + i); }
  const Value &kwarg(std::size_t i) const { return items.at(1 + positional_count() + i); }

  // The dotted spelling of a Name/Attribute chain (prims.add), or "" for anything else.
  std::string qualified_name() const;
  // The leftmost Name of a Name/Attribute chain, or nullptr.
  const Value *root_name() const;

  friend bool operator==(const Value &a, const Value &b);
  friend bool operator!=(const Value &a, const Value &b) { return !(a == b); }
};

// Python's repr of a float (shortest round-trip digits, 1e-05, 1e+16, 2.0), and
// float('inf') / float('nan') for the values repr cannot spell as literals.
std::string python_float(double d);
// A Python number literal as tree-sitter-python tokenizes it (an `integer` token: 1_000, 0x1F,
// 0o17, 0b101, 2j; a `float` token: 1.5, 1e-05, 2.5j), without a sign, as an Int, Float or
// Complex value; nullopt for an integer that does not fit in 64 bits.
std::optional<Value> parse_python_number(std::string_view literal, bool integer_token);
// -literal for an integer literal: its negation, when that fits in 64 bits (INT64_MIN, whose
// magnitude does not fit alone, too).
std::optional<Value> parse_negated_integer(std::string_view literal);
// Python's repr of a str: single quotes unless only double quotes avoid escapes.
std::string python_string(const std::string &s);
// Python source for a value, never a debug repr.
std::string print_value(const Value &v);
// Appends print_value(v) to out: the printer's way, without a string per sub-value.
void print_value_to(std::string &out, const Value &v);

// A Python identifier (ASCII): a letter or underscore, then letters, digits, underscores.
bool is_python_identifier(std::string_view s);

// Whether a name is a dtype Thunder (thunder.dtypes) or torch knows.
bool is_dtype_name(const std::string &name, Namespace ns);

// Calls f on every Name reference inside v that is read as a variable: callee roots and
// attribute bases included, attribute names and keyword names excluded.
template <class F> void for_each_name(const Value &v, F &&f) {
  if (v.kind == ValueKind::Name) {
    f(v);
    return;
  }
  for (const Value &child : v.items)
    for_each_name(child, f);
}

} // namespace tracelint
