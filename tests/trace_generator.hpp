#pragma once
#include "tracelint/core/trace.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace test {

using namespace tracelint;

// Random traces built through the model API, for the round-trip property test and fuzzer.
// Seeded, its choices come from a Mersenne twister; given bytes (the fuzzer's input), each
// choice reads the next ones, so a mutation of the bytes is a mutation of the trace, and when
// they run out every choice is the first (the smallest trace from there on).
class TraceGenerator {
public:
  explicit TraceGenerator(uint32_t seed) : rng_(seed) {}
  TraceGenerator(const uint8_t *data, std::size_t size) : bytes_(data), left_(size) {}

  int pick(int n) {
    if (!bytes_) return std::uniform_int_distribution<int>(0, n - 1)(rng_);
    return n <= 1 ? 0 : static_cast<int>(take(n <= 256 ? 1 : 2) % static_cast<uint32_t>(n));
  }
  bool coin() { return pick(2) == 0; }

  std::string proxy() {
    static const char prefixes[] = {'t', 'i', 'f', 'b', 'C'};
    return std::string(1, prefixes[pick(5)]) + std::to_string(pick(40));
  }

  std::string text() {
    static const std::string alphabet = "abc XYZ019_-:'\"\\\n\t.,[]()";
    std::string s;
    for (int i = pick(8); i > 0; --i)
      s += alphabet[static_cast<std::size_t>(pick(static_cast<int>(alphabet.size())))];
    return s;
  }

  double real() {
    switch (pick(6)) {
    case 0:
      return INFINITY;
    case 1:
      return -INFINITY;
    case 2:
      return static_cast<double>(pick(1000)) / 8.0;
    case 3:
      return std::ldexp(uniform(-1, 1), pick(120) - 60);
    default:
      return uniform(-1e6, 1e6);
    }
  }

  Value value(int depth) {
    int choice = pick(depth > 3 ? 10 : 17);
    switch (choice) {
    case 0:
      return Value::none();
    case 1:
      return Value::ellipsis();
    case 2:
      return Value::boolean_value(coin());
    case 3:
      return Value::int_value(pick(2000) - 1000);
    case 4:
      return Value::float_value(real());
    case 5:
      return Value::string(text());
    case 6:
      return Value::dtype(coin() ? "float32" : "bfloat16",
                          coin() ? Namespace::Thunder : Namespace::Torch);
    case 7:
      return Value::device(coin() ? "cuda:0" : "cpu",
                           coin() ? Namespace::Thunder : Namespace::Torch);
    case 8:
    case 9:
      return Value::name(proxy());
    case 10:
      return Value::complex_value(static_cast<double>(pick(9)) - 4.0, real());
    case 11:
      return Value::slice(slice_part(depth), slice_part(depth), slice_part(depth));
    case 12:
    case 13: {
      std::vector<Value> items;
      for (int i = pick(4); i > 0; --i)
        items.push_back(value(depth + 1));
      return choice == 12 ? Value::tuple(std::move(items)) : Value::list(std::move(items));
    }
    case 14: {
      std::vector<std::pair<Value, Value>> entries;
      for (int i = pick(3); i > 0; --i)
        entries.emplace_back(Value::string(text()), value(depth + 1));
      return Value::dict(std::move(entries));
    }
    case 15:
      return Value::attribute(Value::name(proxy()), coin() ? "shape" : "ndim");
    default:
      return call(depth + 1);
    }
  }

  Value slice_part(int depth) {
    switch (pick(3)) {
    case 0:
      return Value::none();
    case 1:
      return Value::int_value(pick(16) - 8);
    default:
      return depth > 5 ? Value::name(proxy()) : Value::name("i" + std::to_string(pick(20)));
    }
  }

  Value call(int depth) {
    static const char *symbols[] = {"prims.add",
                                    "ltorch.getitem",
                                    "ltorch.reshape",
                                    "nvFusion0",
                                    "thunder.distributed.prims.wait",
                                    "torch.nn.functional.linear"};
    std::vector<Value> args;
    for (int i = pick(4); i > 0; --i)
      args.push_back(value(depth + 1));
    std::vector<std::pair<std::string, Value>> kwargs;
    for (int i = pick(3); i > 0; --i)
      kwargs.emplace_back(i == 1 ? "alpha" : "dtype", value(depth + 1));
    return Value::call(symbols[pick(6)], std::move(args), std::move(kwargs));
  }

  Target target(int depth) {
    if (depth > 1 || pick(3) != 0) return Target::named(coin() || depth == 0 ? proxy() : "_");
    std::vector<Target> elements;
    for (int i = 1 + pick(3); i > 0; --i)
      elements.push_back(target(depth + 1));
    return coin() ? Target::tuple(std::move(elements)) : Target::list(std::move(elements));
  }

  TypeComment type_comment(const std::string &name) {
    if (coin()) return TypeComment{name, std::nullopt, {}};
    return TypeComment{name, TypeText{coin() ? "cuda:0 f32[2, i0]" : "int 3", {}}, {}};
  }

  Statement bound(int depth) {
    Statement s = Statement::bound(std::nullopt, call(0));
    if (pick(4) != 0) {
      s.target = target(0);
      if (s.target->kind == Target::Kind::Tuple && depth == 0) {
        int style = pick(3);
        s.style = style == 0   ? UnpackStyle::Parenthesized
                  : style == 1 ? UnpackStyle::Bare
                               : UnpackStyle::Continued;
        s.trailing_comma =
            s.style == UnpackStyle::Continued ||
            (s.style == UnpackStyle::Bare && (coin() || s.target->elements.size() == 1));
        if (s.style == UnpackStyle::Continued) // one "name, \" line per element
          for (Target &e : s.target->elements)
            e = Target::named(proxy());
      }
      if (s.target->kind == Target::Kind::Name && coin())
        s.type_comment = type_comment(s.target->name);
    }
    s.commented = depth > 0;
    if (depth < 3)
      for (int i = pick(3); i > 0; --i)
        s.subsymbols.push_back(bound(depth + 1));
    return s;
  }

  Trace trace() {
    Trace t;
    if (coin()) {
      PreambleItem header;
      header.comment = "# Constructed by Delete Last Used (took 0 milliseconds)";
      t.preamble.push_back(header);
    }
    PreambleItem import;
    import.kind = PreambleItem::Kind::Import;
    import.import.module = "thunder.torch";
    import.import.alias = "ltorch";
    t.preamble.push_back(import);
    PreambleItem from = import;
    from.import = Import{"thunder.executors.torchex", {{"no_autocast", ""}}, "", true, {}};
    t.preamble.push_back(from);
    t.preamble.push_back(PreambleItem{PreambleItem::Kind::Blank, {}, {}, {}});
    t.decorators = {Value::call("torch.no_grad", {}), Value::name("no_autocast")};
    if (pick(4) == 0) { // a method, as print_readable prints graph code
      t.classes.push_back({"GraphModule", {Value::dotted("torch.nn.Module")}, {}});
      if (coin()) t.classes.push_back({"wrap_body_0", {Value::dotted("torch.nn.Module")}, {}});
    }
    t.name = coin() ? "computation" : "prologue";
    for (int i = pick(3); i > 0; --i)
      t.parameters.push_back(
          Parameter{proxy() + "p" + std::to_string(i), ParamKind::Positional, {}, {}});
    if (coin()) t.parameters.push_back(Parameter{"args", ParamKind::VarArgs, {}, {}});
    if (coin())
      t.parameters.push_back(Parameter{"x", ParamKind::KeywordOnly, Value::int_value(pick(5)), {}});
    if (coin()) t.parameters.push_back(Parameter{"kwargs", ParamKind::VarKeywords, {}, {}});
    for (const Parameter &p : t.parameters)
      if (coin())
        t.body.push_back(Statement::annotation_comment(
            p.name, coin() ? std::optional<std::string>("Collection") : std::nullopt));
    for (int i = 1 + pick(8); i > 0; --i) {
      switch (pick(8)) {
      case 0:
        t.body.push_back(Statement::blank());
        break;
      case 1:
        t.body.push_back(Statement::comment("# /tmp/model.py:7: \treturn a[..., :8]"));
        break;
      case 2:
        t.body.push_back(Statement::del({proxy(), proxy()}));
        t.body.back().delete_list_form = coin();
        break;
      case 3: {
        Statement s =
            Statement::bound(Target::named(proxy()),
                             Value::subscript(Value::name("args"), Value::int_value(pick(4))));
        s.kind = Statement::Kind::AnnotatedAssign;
        s.annotation = TypeText{"cuda:0 f32[4, 128]", {}};
        t.body.push_back(s);
        break;
      }
      default:
        t.body.push_back(bound(0));
      }
    }
    Value ret = value(0);
    if (ret.kind == ValueKind::Tuple && !ret.items.empty() && coin()) ret.bare = true;
    t.body.push_back(Statement::ret(ret));
    return t;
  }

private:
  // The next `count` bytes, little-endian; zeros once they run out.
  uint32_t take(int count) {
    uint32_t v = 0;
    for (int i = 0; i < count && left_ > 0; ++i, --left_)
      v |= static_cast<uint32_t>(*bytes_++) << (8 * i);
    return v;
  }

  double uniform(double lo, double hi) {
    if (!bytes_) return std::uniform_real_distribution<double>(lo, hi)(rng_);
    return lo + (hi - lo) * (static_cast<double>(take(4)) / 4294967296.0);
  }

  std::mt19937 rng_;
  const uint8_t *bytes_ = nullptr; // the fuzzer's input, when it drives the choices
  std::size_t left_ = 0;
};

} // namespace test
