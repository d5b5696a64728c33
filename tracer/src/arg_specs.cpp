// --arg values: a tensor spec DTYPE[DIMS][@DEVICE][:LO..HI][:grad] or a Python literal.
#include "tracelint/tracer/tracer.hpp"

#include "tracelint/core/escape.hpp"

#include "excerpt.hpp"
#include "recorder.hpp"
#include "tracelint/tracer/frontend.hpp"
#include "tracelint/tracer/interpreter.hpp"

#include <cctype>
#include <charconv>
#include <optional>

namespace tracelint::tracer {

namespace {

Error arg_error(const ArgSpec &arg, const std::string &message) {
  return Error{"--arg " + excerpt(arg.name) + "=" + excerpt(arg.text) + ": " + message, "", 0, 0};
}

constexpr const char *kSpaces = " \t\n\r\f\v";
// A dim has at most 9 digits: sizes stay far from overflowing their products.
constexpr std::size_t kMaxDimDigits = 9;
// More dims than any model uses, and a bound on the work one spec makes.
constexpr std::size_t kMaxRank = 64;

// The parts of a tensor spec, DTYPE[DIMS][@DEVICE][:LO..HI][:grad] (views of the --arg text).
struct TensorText {
  std::string_view dtype, dims, device, range;
  bool requires_grad = false;
};

bool is_alpha(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}
bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The spec's parts, or none where the text is not a tensor spec (it is then a Python literal:
// slice[...] is a subscript, not a dtype). A scan, not a regex: std::regex matches by
// recursion, one level per character, and a spec of 20000 dims overflowed the stack.
std::optional<TensorText> split_tensor_spec(std::string_view text) {
  std::size_t first = text.find_first_not_of(kSpaces);
  if (first == std::string_view::npos) return std::nullopt;
  text = text.substr(first, text.find_last_not_of(kSpaces) + 1 - first);
  std::size_t i = 0;
  if (text.empty() || !is_alpha(text[0])) return std::nullopt;
  while (i < text.size() && (is_alpha(text[i]) || is_digit(text[i])))
    ++i;
  TensorText out;
  out.dtype = text.substr(0, i);
  if (out.dtype == "slice" || i == text.size() || text[i] != '[') return std::nullopt;
  std::size_t close = text.find(']', i + 1);
  if (close == std::string_view::npos) return std::nullopt;
  out.dims = text.substr(i + 1, close - i - 1);
  std::string_view rest = text.substr(close + 1);
  // :grad, last: the input requires grad.
  constexpr std::string_view grad = ":grad";
  if (rest.ends_with(grad)) {
    out.requires_grad = true;
    rest.remove_suffix(grad.size());
  }
  // A value range: the last `:` before `..` (a device has its own `:`).
  if (std::size_t dots = rest.find(".."); dots != std::string_view::npos) {
    std::size_t colon = rest.rfind(':', dots);
    if (colon == std::string_view::npos) return std::nullopt;
    out.range = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
  }
  if (rest.empty()) return out;
  if (rest[0] != '@') return std::nullopt;
  std::size_t j = 1;
  while (j < rest.size() && is_alpha(rest[j]))
    ++j;
  if (j == 1) return std::nullopt;
  if (j < rest.size() && rest[j] == ':') {
    std::size_t digits = j + 1;
    while (digits < rest.size() && is_digit(rest[digits]))
      ++digits;
    if (digits == j + 1) return std::nullopt;
    j = digits;
  }
  if (j != rest.size()) return std::nullopt;
  out.device = rest.substr(1);
  return out;
}

// The values an integer dtype holds, [min, max]; none for a floating one.
std::optional<std::pair<int64_t, int64_t>> integer_range(const std::string &dtype) {
  std::optional<DType> d = dtype_from_name(dtype);
  // int64 holds every LO..HI that parses; floats hold them as values.
  if (!d || !is_integral(*d) || *d == DType::bool_ || dtype_info(*d).bits >= 64)
    return std::nullopt;
  int bits = dtype_info(*d).bits;
  if (*d == DType::uint8) return std::make_pair(int64_t{0}, (int64_t{1} << bits) - 1);
  return std::make_pair(-(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1);
}

// A collection's text with each tensor spec in it (f32[2, 5]@cuda:0..9) replaced by a name
// `__tensor_spec_N`, and the specs by N: what remains parses as Python. Strings are skipped.
struct SpecsReplaced {
  std::string text;
  std::vector<std::string> specs;
};

constexpr std::string_view kSpecName = "__tensor_spec_";

SpecsReplaced replace_tensor_specs(std::string_view text) {
  SpecsReplaced out;
  // The first `]` at or after each position, found once: a long text of words and brackets is
  // scanned in linear time, each candidate spec at most kMaxSpecLength long.
  constexpr std::size_t kMaxSpecLength = 1024;
  std::vector<std::size_t> next_close(text.size() + 1, std::string_view::npos);
  for (std::size_t k = text.size(); k-- > 0;)
    next_close[k] = text[k] == ']' ? k : next_close[k + 1];
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\'' || c == '"') { // a string literal, copied as it is
      std::size_t j = i + 1;
      while (j < text.size() && text[j] != c)
        j += text[j] == '\\' ? 2 : 1;
      j = std::min(j + 1, text.size());
      out.text.append(text.substr(i, j - i));
      i = j;
      continue;
    }
    bool starts_word = is_alpha(c) && (i == 0 || !(is_alpha(text[i - 1]) || is_digit(text[i - 1]) ||
                                                   text[i - 1] == '_' || text[i - 1] == '.'));
    std::size_t close = starts_word ? next_close[i] : std::string_view::npos;
    if (close != std::string_view::npos && close - i < kMaxSpecLength) {
      // The spec's end: the dims' `]`, then @DEVICE, :LO..HI and :grad where they follow.
      std::size_t end = close + 1;
      auto take = [&](auto allowed) {
        while (end < text.size() && allowed(text[end]))
          ++end;
      };
      // :DIGITS after a device is its index unless `..` follows (then it starts :LO..HI).
      auto index_follows = [&] {
        std::size_t j = end + 1;
        while (j < text.size() && is_digit(text[j]))
          ++j;
        return j > end + 1 && !text.substr(j).starts_with("..");
      };
      if (end < text.size() && text[end] == '@') {
        ++end;
        take([](char x) { return is_alpha(x); });
        if (end < text.size() && text[end] == ':' && index_follows()) {
          ++end;
          take([](char x) { return is_digit(x); });
        }
      }
      if (end < text.size() && text[end] == ':') { // :LO..HI, or not part of the spec
        std::size_t at = end++;
        take([](char x) { return is_digit(x) || x == '-' || x == ' '; });
        if (text.substr(end).starts_with("..")) {
          end += 2;
          take([](char x) { return is_digit(x) || x == '-' || x == ' '; });
        } else {
          end = at;
        }
      }
      if (text.substr(end).starts_with(":grad")) end += 5;
      std::string_view spec = text.substr(i, end - i);
      if (split_tensor_spec(spec)) {
        out.text += std::string(kSpecName) + std::to_string(out.specs.size());
        out.specs.emplace_back(spec);
        i = end;
        continue;
      }
    }
    out.text += c;
    ++i;
  }
  return out;
}

Result<InputSpec> parse_single(const ArgSpec &arg);

// The spec of one part of a collection: a tensor where a spec was replaced, a collection, or a
// literal.
Result<InputSpec> collection_part(const Expr &e, const SpecsReplaced &replaced,
                                  const ArgSpec &arg) {
  InputSpec spec;
  spec.name = arg.name;
  std::size_t n = replaced.specs.size();
  if (e.kind == Expr::Kind::Name && e.text.starts_with(kSpecName)) { // else a name the user wrote
    std::string_view digits = std::string_view(e.text).substr(kSpecName.size());
    std::from_chars(digits.data(), digits.data() + digits.size(), n);
  }
  if (n < replaced.specs.size()) {
    Result<InputSpec> tensor = parse_single(ArgSpec{arg.name, replaced.specs[n]});
    if (tensor && tensor->requires_grad)
      return arg_error(arg, "a tensor inside a collection cannot take :grad yet (pass it as an "
                            "input of its own)");
    return tensor;
  }
  if (e.kind == Expr::Kind::Tuple || e.kind == Expr::Kind::List || e.kind == Expr::Kind::Dict) {
    spec.kind = InputSpec::Kind::Collection;
    spec.collection = e.kind == Expr::Kind::Tuple  ? ValueKind::Tuple
                      : e.kind == Expr::Kind::List ? ValueKind::List
                                                   : ValueKind::Dict;
    bool dict = e.kind == Expr::Kind::Dict;
    for (std::size_t i = 0; i < e.items.size(); i += dict ? 2 : 1) {
      if (dict) {
        if (e.items[i].kind == Expr::Kind::Name)
          return arg_error(arg, "dictionary keys must be str or int constants");
        Obj key = literal_object(e.items[i]);
        if (key.kind != Obj::Kind::Str && key.kind != Obj::Kind::Int)
          return arg_error(arg, "dictionary keys must be str or int constants");
        spec.keys.push_back(to_value(key));
      }
      Result<InputSpec> item = collection_part(e.items[i + (dict ? 1 : 0)], replaced, arg);
      if (!item) return item;
      spec.items.push_back(std::move(*item));
    }
    return spec;
  }
  spec.kind = InputSpec::Kind::Literal;
  spec.literal = to_value(literal_object(e));
  return spec;
}

} // namespace

std::optional<std::string> argument_text_problem(const std::string &text) {
  if (text.find_first_not_of(kSpaces) == std::string::npos)
    return "the value is empty (give a tensor such as f32[2, 3] or a Python expression such as 4)";
  // Python source is UTF-8: a raw byte such as 0xff would reach the printed trace as one.
  if (std::optional<std::size_t> at = first_invalid_utf8(text)) {
    return "the value is not valid UTF-8 (byte 0x" +
           hex_byte(static_cast<unsigned char>(text[*at])) + " at offset " + std::to_string(*at) +
           "); write the character as a Python escape, such as '\\xe9'";
  }
  return std::nullopt;
}

Result<InputSpec> parse_arg(const ArgSpec &arg) {
  if (std::optional<std::string> bad = argument_text_problem(arg.text)) return arg_error(arg, *bad);
  if (split_tensor_spec(arg.text)) return parse_single(arg);
  // A name the user wrote cannot pass for a replaced spec.
  if (arg.text.find(kSpecName) != std::string::npos) return parse_single(arg);
  SpecsReplaced replaced = replace_tensor_specs(arg.text);
  if (replaced.specs.empty()) return parse_single(arg);
  Result<Expr> expr = parse_expression(replaced.text);
  if (!expr)
    return arg_error(arg, expr.error().message +
                              " (a collection holds tensors DTYPE[DIMS][@DEVICE][:LO..HI] and "
                              "Python literals: [f32[2, 5], f32[2, 5]], {2: f32[2, 3, 8]})");
  try {
    Result<InputSpec> spec = collection_part(expr.value(), replaced, arg);
    if (spec && spec->kind != InputSpec::Kind::Collection)
      return arg_error(arg, "a tensor spec can only stand alone or inside a list, tuple or dict");
    return spec;
  } catch (const TraceError &e) {
    return arg_error(arg, e.what());
  }
}

namespace {

Result<InputSpec> parse_single(const ArgSpec &arg) {
  InputSpec spec;
  spec.name = arg.name;
  std::optional<TensorText> tensor = split_tensor_spec(arg.text);
  if (tensor) {
    spec.kind = InputSpec::Kind::Tensor;
    std::optional<DType> dtype = dtype_from_name(tensor->dtype);
    spec.dtype = dtype ? dtype_info(*dtype).torch_name : "";
    if (spec.dtype.empty() || spec.dtype.rfind("complex", 0) == 0)
      return arg_error(arg, "unknown dtype `" + excerpt(tensor->dtype) +
                                "` (use f32, f16, bf16, f64, i64, i32, i16, i8, u8 or b8)");
    std::string_view dims = tensor->dims;
    std::size_t begin = 0;
    while (begin < dims.size()) {
      std::size_t end = dims.find(',', begin);
      std::string_view part =
          dims.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
      std::size_t first = part.find_first_not_of(" \t");
      part = first == std::string_view::npos
                 ? std::string_view()
                 : part.substr(first, part.find_last_not_of(" \t") + 1 - first);
      if (part.empty() && end == std::string::npos && !spec.shape.empty()) break;
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos)
        return arg_error(arg,
                         "each dim must be a non-negative integer, got `" + excerpt(part) + "`");
      std::string_view digits = part.substr(std::min(part.find_first_not_of('0'), part.size()));
      if (digits.size() > kMaxDimDigits)
        return arg_error(arg, "dim " + excerpt(part) + " is too large (at most " +
                                  std::string(kMaxDimDigits, '9') + ")");
      if (spec.shape.size() == kMaxRank)
        return arg_error(arg, "too many dims (at most " + std::to_string(kMaxRank) + ")");
      int64_t dim = 0;
      for (char c : digits)
        dim = dim * 10 + (c - '0');
      spec.shape.push_back(dim);
      if (end == std::string::npos) break;
      begin = end + 1;
    }
    std::string device = tensor->device.empty() ? "cpu" : std::string(tensor->device);
    if (device == "cuda") device = "cuda:0";
    if (device != "cpu" && device.rfind("cuda:", 0) != 0)
      return arg_error(arg, "unknown device `" + excerpt(device) + "` (use cpu, cuda or cuda:N)");
    // A device index is a small number (CUDA's are below 2^31): no longer than 9 digits.
    if (device.size() > std::string("cuda:").size() + kMaxDimDigits)
      return arg_error(arg, "the device index of `" + excerpt(device) + "` is too large");
    spec.device = device;
    spec.requires_grad = tensor->requires_grad;
    if (spec.requires_grad && !is_floating(dtype_from_name(spec.dtype).value_or(DType::bool_)))
      return arg_error(arg, "only a floating tensor can require grad (f32, f16, bf16, f64), got " +
                                excerpt(tensor->dtype));
    if (!tensor->range.empty()) {
      std::string_view range = tensor->range;
      std::size_t dots = range.find("..");
      auto number = [&](std::string_view part, int64_t &out) {
        std::size_t first = part.find_first_not_of(" \t");
        if (first == std::string_view::npos) return false;
        part = part.substr(first, part.find_last_not_of(" \t") + 1 - first);
        auto [ptr, ec] = std::from_chars(part.data(), part.data() + part.size(), out);
        return ec == std::errc() && ptr == part.data() + part.size();
      };
      int64_t lo = 0, hi = 0;
      if (!number(range.substr(0, dots), lo) || !number(range.substr(dots + 2), hi))
        return arg_error(arg, "a value range is LO..HI with integers, as in i64[2, 16]:0..64");
      if (lo >= hi)
        return arg_error(arg, "the value range " + excerpt(range) +
                                  " is empty (LO..HI takes LO <= x < HI)");
      if (spec.dtype == "bool") return arg_error(arg, "a bool tensor takes no value range");
      if (std::optional<std::pair<int64_t, int64_t>> holds = integer_range(spec.dtype))
        if (lo < holds->first || hi - 1 > holds->second)
          return arg_error(arg, "the value range " + excerpt(range) + " does not fit in " +
                                    spec.dtype + " (" + std::to_string(holds->first) + ".." +
                                    std::to_string(holds->second + 1) + " does)");
      spec.range = std::make_pair(lo, hi);
    }
    return spec;
  }
  Result<Expr> expr = parse_expression(arg.text);
  if (!expr)
    return arg_error(arg, expr.error().message +
                              " (a tensor is DTYPE[DIMS][@DEVICE] like f32[2, 3]@cuda; anything "
                              "else is a Python literal)");
  try {
    spec.kind = InputSpec::Kind::Literal;
    spec.literal = to_value(literal_object(expr.value()));
  } catch (const TraceError &e) {
    return arg_error(arg, e.what());
  }
  return spec;
}

} // namespace

} // namespace tracelint::tracer
