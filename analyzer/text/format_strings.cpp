#include "tracelint/analyzer/format_strings.hpp"

#include <cctype>

namespace tracelint::analyzer {

namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// Reads the digits at text[i], if any.
std::optional<int> read_number(std::string_view text, std::size_t &i) {
  if (i >= text.size() || !is_digit(text[i])) return std::nullopt;
  long value = 0;
  while (i < text.size() && is_digit(text[i])) {
    value = value * 10 + (text[i] - '0');
    if (value > 100000) value = 100000; // a precision that large is as good as any
    ++i;
  }
  return static_cast<int>(value);
}

void add_literal(std::vector<FormatSegment> &out, std::string_view text) {
  if (text.empty()) return;
  if (!out.empty() && !out.back().field)
    out.back().literal += text;
  else
    out.push_back({std::string(text), std::nullopt});
}

} // namespace

std::optional<std::vector<FormatSegment>> parse_printf_format(std::string_view format) {
  std::vector<FormatSegment> out;
  std::size_t i = 0;
  while (i < format.size()) {
    std::size_t percent = format.find('%', i);
    if (percent == std::string_view::npos) {
      add_literal(out, format.substr(i));
      break;
    }
    add_literal(out, format.substr(i, percent - i));
    i = percent + 1;
    if (i >= format.size()) return std::nullopt;
    if (format[i] == '%') {
      add_literal(out, "%");
      ++i;
      continue;
    }
    FormatField field;
    // %N$: a positional argument (POSIX).
    std::size_t save = i;
    if (std::optional<int> n = read_number(format, i); n && i < format.size() && format[i] == '$')
      field.arg_index = static_cast<std::size_t>(*n > 0 ? *n - 1 : 0), ++i;
    else
      i = save;
    while (i < format.size() &&
           std::string_view("-+ #0'").find(format[i]) != std::string_view::npos)
      ++i;
    if (i < format.size() && format[i] == '*')
      ++field.extra_args, ++i;
    else
      read_number(format, i);
    if (i < format.size() && format[i] == '.') {
      ++i;
      if (i < format.size() && format[i] == '*') {
        ++field.extra_args, ++i;
        field.dynamic_precision = true;
      } else {
        field.precision = read_number(format, i).value_or(0); // "%.f" is precision 0
      }
    }
    while (i < format.size() &&
           std::string_view("hlLqjzt").find(format[i]) != std::string_view::npos)
      field.length += format[i++];
    if (i >= format.size()) return std::nullopt;
    char conversion = format[i++];
    if (std::string_view("diouxXeEfFgGaAcspn").find(conversion) == std::string_view::npos)
      return std::nullopt;
    field.type = conversion;
    out.push_back({"", field});
  }
  return out;
}

std::optional<std::vector<FormatSegment>> parse_fmt_format(std::string_view format) {
  std::vector<FormatSegment> out;
  std::size_t i = 0;
  while (i < format.size()) {
    char c = format[i];
    if (c == '}') {
      if (i + 1 < format.size() && format[i + 1] == '}') {
        add_literal(out, "}");
        i += 2;
        continue;
      }
      return std::nullopt;
    }
    if (c != '{') {
      std::size_t next = format.find_first_of("{}", i);
      if (next == std::string_view::npos) next = format.size();
      add_literal(out, format.substr(i, next - i));
      i = next;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '{') {
      add_literal(out, "{");
      i += 2;
      continue;
    }
    std::size_t close = i + 1;
    int depth = 1; // the spec may hold nested `{}` for a dynamic width or precision
    while (close < format.size() && depth > 0) {
      if (format[close] == '{') ++depth;
      if (format[close] == '}') --depth;
      if (depth > 0) ++close;
    }
    if (close >= format.size()) return std::nullopt;
    std::string_view inside = format.substr(i + 1, close - i - 1);
    i = close + 1;
    FormatField field;
    std::size_t colon = inside.find(':');
    std::string_view id = inside.substr(0, colon);
    if (!id.empty()) {
      std::size_t j = 0;
      if (std::optional<int> n = read_number(id, j); n && j == id.size())
        field.arg_index = static_cast<std::size_t>(*n);
      else
        field.named = true;
    }
    if (colon != std::string_view::npos) {
      std::string_view spec = inside.substr(colon + 1);
      std::size_t j = 0;
      auto is_align = [](char a) { return a == '<' || a == '>' || a == '^'; };
      if (spec.size() >= 2 && is_align(spec[1]))
        j = 2; // fill and align: `{:.<10}` fills with '.'
      else if (!spec.empty() && is_align(spec[0]))
        j = 1;
      while (j < spec.size() && (spec[j] == '+' || spec[j] == '-' || spec[j] == ' ' ||
                                 spec[j] == '#' || spec[j] == '0'))
        ++j;
      auto skip_nested = [&]() {
        if (j < spec.size() && spec[j] == '{') {
          std::size_t end = spec.find('}', j);
          if (end == std::string_view::npos) return false;
          if (end == j + 1) ++field.extra_args; // `{}` takes the next argument
          j = end + 1;
          return true;
        }
        return false;
      };
      if (!skip_nested()) read_number(spec, j);
      if (j < spec.size() && spec[j] == '.') {
        ++j;
        if (skip_nested())
          field.dynamic_precision = true;
        else
          field.precision = read_number(spec, j).value_or(0);
      }
      if (j < spec.size() && spec[j] == 'L') ++j;
      if (j < spec.size()) {
        char type = spec[j];
        if (std::string_view("aAbBcdeEfFgGopsxX?").find(type) != std::string_view::npos)
          field.type = type;
      }
    }
    out.push_back({"", field});
  }
  return out;
}

} // namespace tracelint::analyzer
