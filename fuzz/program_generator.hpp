#pragma once
// Python programs for fuzz_interpreter, built from the fuzzer's bytes (each choice reads the
// next ones, so a mutation of the bytes is a mutation of the program; when they run out every
// choice is the first). The programs stay inside what the tracer's interpreter models (classes
// with __iter__/__next__, __eq__/__hash__, __repr__; lists, tuples, dicts, strings; string
// formatting; number builtins and math), so that CPython's run of the same text is an oracle:
// every statement that may raise is inside try/except printing the exception's class, and
// every variable's repr is printed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fuzzing {

class ProgramGenerator {
public:
  ProgramGenerator(const uint8_t *data, std::size_t size) : bytes_(data), left_(size) {}

  std::string module() {
    std::string out = kPrelude;
    out += "def f(a):\n"
           "    i0 = 3\n    i1 = -7\n    x0 = 0.5\n    s0 = 'ab'\n    s1 = 'x-y'\n"
           "    l0 = [1, 2, 3]\n    l1 = []\n    d0 = {1: 'a'}\n";
    for (int n = 1 + pick(12); n > 0; --n)
      out += statement(1);
    for (const char *v : {"i0", "i1", "x0", "s0", "s1", "l0", "l1", "d0"})
      out += std::string("    print(repr(") + v + "))\n";
    return out + "    return a + 1\n";
  }

private:
  static constexpr const char *kPrelude =
      "import math\n\n\n"
      "class Countdown:\n"
      "    def __init__(self, n):\n        self.n = n\n\n"
      "    def __iter__(self):\n        return self\n\n"
      "    def __next__(self):\n"
      "        if self.n <= 0:\n            raise StopIteration\n"
      "        self.n -= 1\n        return self.n\n\n\n"
      "class Squares:\n"
      "    def __getitem__(self, i):\n"
      "        if i >= 4:\n            raise IndexError(i)\n"
      "        return i * i\n\n\n"
      "class Box:\n"
      "    def __init__(self, v):\n        self.v = v\n\n"
      "    def __eq__(self, other):\n"
      "        return isinstance(other, Box) and self.v == other.v\n\n"
      "    def __hash__(self):\n        return hash(self.v)\n\n"
      "    def __repr__(self):\n        return 'Box(' + repr(self.v) + ')'\n\n\n";

  int pick(int n) {
    if (n <= 1) return 0;
    if (left_ == 0) return 0;
    --left_;
    return *bytes_++ % n;
  }
  template <std::size_t N> const char *one_of(const char *const (&options)[N]) {
    return options[pick(static_cast<int>(N))];
  }

  std::string statement(int indent) {
    std::string pad(static_cast<std::size_t>(4 * indent), ' ');
    if (indent < 3) {
      switch (pick(12)) {
      case 0:
        return pad + "for v in " + iterable(1) + ":\n" + guarded(indent + 1, "i1 = i1 + v");
      case 1:
        return pad + "if " + boolean(1) + ":\n" + statement(indent + 1) + pad + "else:\n" +
               statement(indent + 1);
      case 2:
        return pad + "print(repr(" + any(2) + "))\n";
      default:
        break;
      }
    }
    static const char *const targets[] = {"i0", "i1", "x0", "s0", "s1", "l0", "l1", "d0"};
    const char *target = one_of(targets);
    std::string value;
    switch (target[0]) {
    case 'i':
      value = integer(3);
      break;
    case 'x':
      value = real(3);
      break;
    case 's':
      value = text(3);
      break;
    case 'l':
      value = pick(4) == 0 ? "sorted(l0 + l1)" : list(3);
      break;
    default:
      value = dict(2);
    }
    switch (pick(8)) {
    case 0:
      return guarded(indent, std::string("l0.append(") + integer(2) + ")");
    case 1:
      return guarded(indent, std::string("d0[") + key(2) + "] = " + any(2));
    case 2:
      return guarded(indent, "l0.sort()");
    default:
      return guarded(indent, std::string(target) + " = " + value);
    }
  }

  // `line` inside try/except that prints what it raised.
  std::string guarded(int indent, const std::string &line) {
    std::string pad(static_cast<std::size_t>(4 * indent), ' ');
    return pad + "try:\n" + pad + "    " + line + "\n" + pad + "except Exception as e:\n" + pad +
           "    print('raised', type(e).__name__)\n";
  }

  std::string any(int depth) {
    switch (pick(6)) {
    case 0:
      return integer(depth);
    case 1:
      return real(depth);
    case 2:
      return text(depth);
    case 3:
      return list(depth);
    case 4:
      return dict(depth);
    default:
      return boolean(depth);
    }
  }

  std::string integer(int depth) {
    static const char *const leaves[] = {"0",   "1",   "2",    "3",     "-1", "7",  "10",
                                         "100", "255", "1000", "-1000", "i0", "i1", "True"};
    if (depth <= 0 || pick(3) == 0) return one_of(leaves);
    std::string a = integer(depth - 1), b = integer(depth - 1);
    static const char *const ops[] = {" + ", " - ", " * ", " // ", " % ", " & ", " | ", " ^ "};
    switch (pick(22)) {
    case 0:
      return "(" + a + one_of(ops) + b + ")";
    case 1:
      return "len(" + text(depth - 1) + ")";
    case 2:
      return "len(" + list(depth - 1) + ")";
    case 3:
      return "abs(" + a + ")";
    case 4:
      return std::string(pick(2) ? "min(" : "max(") + list(depth - 1) + ")";
    case 5:
      return "sum(" + list(depth - 1) + ")";
    case 6:
      return "round(" + real(depth - 1) + ")";
    case 7:
      return "round(" + a + ", " + one_of({"-1", "-2", "-3", "0", "2"}) + ")";
    case 8:
      return "pow(" + a + ", " + one_of({"0", "1", "2", "5", "-1"}) + ", " + b + ")";
    case 9:
      return "int(" + real(depth - 1) + ")";
    case 10: // of a number: CPython hashes str by a per-process random key (PYTHONHASHSEED)
      return pick(2) ? "hash(" + a + " + 0)" : "hash(Box(" + a + " + 0))";
    case 11:
      return list(depth - 1) + ".count(" + a + ")";
    case 12:
      return text(depth - 1) + ".find(" + text(0) + ")";
    case 13:
      return list(depth - 1) + "[" + a + "]";
    case 14:
      return "d0.get(" + key(depth - 1) + ", " + a + ")";
    case 15:
      return "sum(Countdown(" + a + " % 6))";
    case 16:
      return "len(list(Squares()))";
    case 17:
      return "int(" + text(depth - 1) + ")";
    case 18:
      return "(" + a + " ** " + one_of({"0", "1", "2", "3"}) + ")";
    case 19:
      return "divmod(" + a + ", " + b + ")[" + one_of({"0", "1"}) + "]";
    case 20:
      return "math.floor(" + real(depth - 1) + ")";
    default:
      return "max(Countdown(" + a + " % 5 + 1))";
    }
  }

  std::string real(int depth) {
    static const char *const leaves[] = {"0.5",     "-1.25", "2.0", "1e300", "1e-300", "0.1",
                                         "3.14159", "-0.0",  "x0",  "1e16",  "2.675"};
    if (depth <= 0 || pick(3) == 0) return one_of(leaves);
    std::string a = real(depth - 1), b = real(depth - 1);
    static const char *const ops[] = {" + ", " - ", " * ", " / ", " // ", " % ", " ** "};
    switch (pick(11)) {
    case 0:
      return "(" + a + one_of(ops) + b + ")";
    case 1:
      return "math.sqrt(" + a + ")";
    case 2:
      return "math.pow(" + a + ", " + b + ")";
    case 3:
      return "math.exp(" + a + ")";
    case 4:
      return "math.log(" + a + ")";
    case 5:
      return "float(" + integer(depth - 1) + ")";
    case 6:
      return "round(" + a + ", " + one_of({"-2", "0", "1", "2", "3", "12", "400", "10**9"}) + ")";
    case 7:
      return "abs(" + a + ")";
    case 8:
      return "(" + integer(depth - 1) + " / " + integer(depth - 1) + ")";
    case 9:
      return "float(" + text(0) + ")";
    default:
      return "math.pow(10, " + integer(depth - 1) + ")";
    }
  }

  std::string text(int depth) {
    static const char *const leaves[] = {"''",  "'ab'", "'x-y'",   "'A b C'", "'\\\\'", "'\"q\"'",
                                         "'é'", "'12'", "' 3.5 '", "s0",      "s1",     "'a,b,,c'"};
    if (depth <= 0 || pick(3) == 0) return one_of(leaves);
    std::string a = text(depth - 1);
    static const char *const specs[] = {"",      ">8", "<6",  "^7",  "*^9", "08.3f",
                                        ".2e",   ",",  "+d",  "x",   "#o",  ".3",
                                        "10.4g", "_",  ".0%", "=+8", "05d", ">100"};
    switch (pick(20)) {
    case 0:
      return "(" + a + " + " + text(depth - 1) + ")";
    case 1:
      return "(" + a + " * (" + integer(depth - 1) + " % 4))";
    case 2:
      return "str(" + any(depth - 1) + ")";
    case 3:
      return "repr(" + any(depth - 1) + ")";
    case 4:
      return a + (pick(2) ? ".upper()" : ".lower()");
    case 5:
      return a + ".replace(" + text(0) + ", " + text(0) + ")";
    case 6:
      return a + ".strip()";
    case 7:
      return a + ".zfill(" + integer(depth - 1) + " % 20)";
    case 8:
      return a + (pick(2) ? ".ljust(" : ".rjust(") + integer(depth - 1) + " % 20, '*')";
    case 9:
      return "'{:" + std::string(one_of(specs)) + "}'.format(" +
             (pick(2) ? integer(depth - 1) : real(depth - 1)) + ")";
    case 10:
      return "'{:" + std::string(one_of({"", ">8", "<6", "^7", ".2", "*>5"})) + "}'.format(" + a +
             ")";
    case 11:
      return "'%5d|%-4s|%.2f|%r' % (" + integer(depth - 1) + ", " + a + ", " + real(depth - 1) +
             ", " + text(0) + ")";
    case 12:
      // Names and numbers only: a quote inside an f-string's braces is 3.12's syntax.
      return "f'{" + integer(0) + ":>6}{" + one_of({"s0", "s1"}) + "!r}{" + real(0) + ":.3e}'";
    case 13:
      return "','.join(" + strings(depth - 1) + ")";
    case 14:
      return a + "[" + one_of({"1:3", "::-1", ":-1", "2:", "::2"}) + "]";
    case 15:
      return "str(" + list(depth - 1) + ")";
    case 16:
      return "repr(Box(" + any(depth - 1) + "))";
    case 17:
      return "format(" + real(depth - 1) + ", '" + one_of({".1f", ".20f", ".400f", "e", "g", "%"}) +
             "')";
    case 18:
      return "chr(" + integer(depth - 1) + " % 200 + 32)";
    default:
      return "'-'.join(" + a + ".split(" + one_of({"", "','", "' '", "'-'"}) + "))";
    }
  }

  std::string strings(int depth) {
    switch (pick(3)) {
    case 0:
      return "[" + text(depth) + ", " + text(depth) + "]";
    case 1:
      return text(depth) + ".split(',')";
    default:
      return "[str(v) for v in " + list(depth) + "]";
    }
  }

  std::string list(int depth) {
    static const char *const leaves[] = {"[]", "[1, 2, 3]", "[3, -1, 2, -1]", "l0", "l1"};
    if (depth <= 0 || pick(3) == 0) return one_of(leaves);
    std::string a = list(depth - 1);
    switch (pick(14)) {
    case 0:
      return "[" + integer(depth - 1) + ", " + integer(depth - 1) + "]";
    case 1:
      return "list(range(" + integer(depth - 1) + " % 10))";
    case 2:
      return std::string(pick(2) ? "sorted(" : "sorted(") + a + (pick(2) ? ", reverse=True)" : ")");
    case 3:
      return "(" + a + " + " + list(depth - 1) + ")";
    case 4:
      return "(" + a + " * (" + integer(depth - 1) + " % 3))";
    case 5:
      return "[v * 2 for v in " + a + "]";
    case 6:
      return "[v for v in " + a + " if v % 2]";
    case 7:
      return "list(Countdown(" + integer(depth - 1) + " % 6))";
    case 8:
      return "list(reversed(" + a + "))";
    case 9:
      return a + "[" + one_of({"1:", ":2", "::-1", "-2:"}) + "]";
    case 10:
      return "list(d0.keys())";
    case 11:
      return "[p + q for p, q in zip(" + a + ", Squares())]";
    case 12:
      return "list(map(abs, " + a + "))";
    default:
      return "sorted(set(" + a + "))";
    }
  }

  std::string key(int depth) {
    switch (pick(4)) {
    case 0:
      return integer(depth);
    case 1:
      return text(0);
    case 2:
      return "Box(" + integer(0) + ")";
    default:
      return "(" + integer(0) + ", " + text(0) + ")";
    }
  }

  std::string dict(int depth) {
    if (depth <= 0) return pick(2) ? "{}" : "d0";
    switch (pick(6)) {
    case 0:
      return "{" + key(depth - 1) + ": " + any(depth - 1) + ", " + key(depth - 1) + ": " +
             any(depth - 1) + "}";
    case 1:
      return "{v: v * v for v in " + list(depth - 1) + "}";
    case 2:
      return "dict(zip(" + list(depth - 1) + ", " + strings(depth - 1) + "))";
    case 3:
      return "(d0 | " + dict(depth - 1) + ")";
    case 4:
      return "{**d0, " + key(depth - 1) + ": " + integer(depth - 1) + "}";
    default:
      return "d0";
    }
  }

  std::string boolean(int depth) {
    static const char *const compare[] = {" < ", " <= ", " == ", " != ", " > ", " >= "};
    switch (pick(8)) {
    case 0:
      return "(" + integer(depth) + one_of(compare) + integer(depth) + ")";
    case 1:
      return "(" + integer(depth) + " in " + list(depth) + ")";
    case 2:
      return "(" + key(depth) + " in d0)";
    case 3:
      return "(" + list(depth) + " == " + list(depth) + ")";
    case 4:
      return "(" + text(depth) + one_of(compare) + text(depth) + ")";
    case 5:
      return "(not " + any(depth - 1) + ")";
    case 6:
      return "isinstance(" + any(depth - 1) + ", " +
             one_of({"int", "str", "list", "dict", "float"}) + ")";
    default:
      return "(" + real(depth) + one_of(compare) + real(depth) + ")";
    }
  }

  std::string iterable(int depth) {
    switch (pick(4)) {
    case 0:
      return list(depth);
    case 1:
      return "Countdown(" + integer(depth) + " % 8)";
    case 2:
      return "Squares()";
    default:
      return "range(" + integer(depth) + " % 8)";
    }
  }

  const uint8_t *bytes_;
  std::size_t left_;
};

} // namespace fuzzing
