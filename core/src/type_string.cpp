#include "tracelint/core/type_string.hpp"

#include "tracelint/core/dtypes.hpp"
#include "tracelint/core/value.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <regex>

namespace tracelint {

namespace {

Error type_error(std::string message, std::size_t offset) {
  Error e;
  e.message = std::move(message);
  e.column = static_cast<unsigned>(offset);
  return e;
}

bool is_integer(const std::string &s) {
  std::size_t i = (!s.empty() && s[0] == '-') ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

std::string trim(const std::string &s) {
  std::size_t b = s.find_first_not_of(' ');
  if (b == std::string::npos) return {};
  std::size_t e = s.find_last_not_of(' ');
  return s.substr(b, e - b + 1);
}

// Splits "a, [X name=i0, value=2], b" at top-level commas.
std::vector<std::pair<std::string, std::size_t>> split_dims(const std::string &s,
                                                            std::size_t base) {
  std::vector<std::pair<std::string, std::size_t>> parts;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || (s[i] == ',' && depth == 0)) {
      std::string raw = s.substr(start, i - start);
      std::size_t lead = raw.find_first_not_of(' ');
      parts.emplace_back(trim(raw), base + start + (lead == std::string::npos ? 0 : lead));
      start = i + 1;
    } else if (s[i] == '[') {
      ++depth;
    } else if (s[i] == ']') {
      --depth;
    }
  }
  return parts;
}

} // namespace

bool is_unquoted_tensor_type(std::string_view text) {
  std::size_t bracket = text.find('[');
  if (bracket == std::string_view::npos || bracket == 0 || text.back() != ']') return false;
  std::string_view head = text.substr(0, bracket);
  if (dtype_spelled(head, DTypeSpelling::short_name)) return true;
  if (head[0] != 'f' && head[0] != 'i' && head[0] != 'u' && head[0] != 'c') return false;
  if (head.size() < 2 || !std::isdigit(static_cast<unsigned char>(head[1]))) return false;
  for (char c : head)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  return true;
}

Result<ProxyType> parse_type_string(const std::string &text) {
  ProxyType type;
  if (text == "Collection") {
    type.kind = ProxyKind::Collection;
    type.text = text;
    return type;
  }
  if (text == "Any") {
    type.kind = ProxyKind::Any;
    type.text = text;
    return type;
  }
  static const std::pair<const char *, ProxyKind> numbers[] = {{"int", ProxyKind::Integer},
                                                               {"float", ProxyKind::Float},
                                                               {"bool", ProxyKind::Bool},
                                                               {"complex", ProxyKind::Complex},
                                                               {"str", ProxyKind::String}};
  for (auto [word, kind] : numbers) {
    std::string prefix = std::string(word) + " ";
    if (text == word || text.rfind(prefix, 0) == 0) {
      type.kind = kind;
      type.value = text.size() > prefix.size() ? text.substr(prefix.size()) : "";
      return type;
    }
  }
  std::size_t open = text.find('[');
  std::size_t space = text.find(' ');
  if (open == std::string::npos || space == std::string::npos || space > open) {
    type.kind = ProxyKind::Opaque;
    type.text = text;
    return type;
  }
  type.kind = ProxyKind::Tensor;
  type.device = text.substr(0, space);
  type.dtype = text.substr(space + 1, open - space - 1);
  if (type.dtype.empty() || !is_python_identifier(type.dtype))
    return type_error("expected a dtype such as f32 after the device '" + type.device + "'",
                      space + 1);
  if (text.back() != ']') return type_error("a tensor type ends with ']'", text.size());
  std::string inner = text.substr(open + 1, text.size() - open - 2);
  if (trim(inner).empty()) return type;
  static const std::regex leaked(R"(^\[\w*Proxy name=([A-Za-z_]\w*)(,[^\]]*)?\]$)");
  for (auto &[dim_text, offset] : split_dims(inner, open + 1)) {
    Dim dim;
    dim.offset = static_cast<uint32_t>(offset);
    dim.length = static_cast<uint32_t>(dim_text.size());
    std::smatch m;
    if (is_integer(dim_text)) {
      errno = 0;
      dim.size = std::strtoll(dim_text.c_str(), nullptr, 10);
      if (errno == ERANGE)
        return type_error("the dimension " + dim_text.substr(0, 20) + "... does not fit in 64 bits",
                          offset);
    } else if (is_python_identifier(dim_text)) {
      dim.symbolic = true;
      dim.symbol = dim_text;
    } else if (std::regex_match(dim_text, m, leaked)) {
      dim.symbolic = true;
      dim.symbol = m[1];
      dim.leaked = true;
    } else {
      return type_error("'" + dim_text + "' is not a dimension (an int or a symbol name)", offset);
    }
    type.shape.push_back(dim);
  }
  return type;
}

void append_dim(std::string &out, DimSpelling dim) {
  if (!dim.symbol.empty()) {
    out += dim.symbol;
    return;
  }
  char digits[24];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, dim.size).ptr);
}

std::string print_type_string(const ProxyType &type) {
  static const char *number_words[] = {"int", "float", "bool", "complex", "str"};
  switch (type.kind) {
  case ProxyKind::Tensor: {
    std::string out;
    append_tensor_type(out, type.device, type.dtype, type.shape.size(), [&](std::size_t i) {
      const Dim &d = type.shape[i];
      return DimSpelling{d.symbolic ? std::string_view(d.symbol) : std::string_view(), d.size};
    });
    return out;
  }
  case ProxyKind::Integer:
  case ProxyKind::Float:
  case ProxyKind::Bool:
  case ProxyKind::Complex:
  case ProxyKind::String: {
    std::string word = number_words[static_cast<int>(type.kind) - 1];
    return type.value.empty() ? word : word + " " + type.value;
  }
  default:
    return type.text;
  }
}

} // namespace tracelint
