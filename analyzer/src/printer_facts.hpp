#pragma once
// The facts the analyzer collects from a translation unit, before any rule looks at them: what
// each function writes (its writes, piece by piece, with the stream's state at each value), into
// which output (a sink), and which outputs end up in the same text (one class of sinks).
#include "tracelint/analyzer/format_strings.hpp"
#include "tracelint/analyzer/printed_lines.hpp"

#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tracelint::analyzer {

// How an ostream prints floating-point values and bools.
struct StreamFormat {
  enum class Notation { General, Fixed, Scientific, Hex };
  Notation notation = Notation::General;
  std::optional<int> precision = 6; // nullopt: set to a value the analysis cannot compute
  bool boolalpha = false;
  // The stream came into the function with this format: a caller may have set another.
  bool from_entry = false;
  bool operator==(const StreamFormat &) const = default;
};
// A precision that names max_digits10 of some type without a value we can compute.
inline constexpr int kMaxDigits10 = 1000;

// How a value becomes text.
enum class Conversion {
  Stream,       // os << v
  Concat,       // s + v, s += v, s.append(v)
  ToString,     // std::to_string(v)
  Printf,       // printf's conversion (field)
  Fmt,          // fmt::format / std::format's replacement field (field)
  Alternatives, // c ? "a" : "b": one of two literals
};

struct ValuePiece {
  const clang::Expr *expr = nullptr; // the value printed
  Conversion how = Conversion::Concat;
  std::optional<FormatField> field;                     // Printf, Fmt
  StreamFormat stream;                                  // Stream
  const clang::FunctionDecl *stream_operator = nullptr; // Stream: the operator<< that prints it
  std::vector<std::string> alternatives;                // Alternatives
  // Conditions on the path to this write that make a float's digits irrelevant or exact:
  // `std::isinf(v) || std::isnan(v)` (inf and nan are printed as words), `std::nearbyint(v) ==
  // v` (an integral value prints exactly in fixed notation).
  bool nonfinite_guard = false;
  bool integral_guard = false;
  ValueContext context; // where it lands in the printed text
};

// Where written text goes. Named: a variable, parameter or member (a stream, a string, a
// FILE*, a buffer). Return: what a function returns. Temporary: an unnamed stream such as
// `LOG(INFO)` or `ErrorReport(...)` (never Python). Diagnostic: std::cerr, std::clog, stderr.
enum class SinkKind { Named, Parameter, Return, Temporary, Diagnostic };

struct Write {
  const clang::FunctionDecl *function = nullptr;
  int sink = -1;
  const clang::Expr *anchor = nullptr; // the write's expression, for locations
  std::vector<ValuePiece> values;
  std::vector<TextPiece> text;
  Printed printed;
};

// The sinks of a translation unit, in classes of the same output (a stream passed to a function
// is that function's parameter; overrides share theirs), and the flows of text between them (a
// string returned and streamed, `ss.str()` streamed, a local string appended).
class Sinks {
public:
  int named(const clang::Decl *decl); // a variable or a member
  int parameter(const clang::ParmVarDecl *parm);
  int returned(const clang::FunctionDecl *function);
  int temporary();
  int diagnostic();
  int standard_output(); // printf, puts, fmt::print without a stream

  SinkKind kind(int sink) const { return entries_[static_cast<std::size_t>(sink)].kind; }
  const clang::Decl *decl(int sink) const { return entries_[static_cast<std::size_t>(sink)].decl; }
  void join(int a, int b);           // the same output
  void flow(int source, int target); // source's text is written into target
  int root(int sink) const;

  // What the writes into a class say about it.
  struct Evidence {
    unsigned python = 0;      // lines that are Python code
    unsigned cpp = 0;         // lines that are C++
    unsigned parses = 0;      // text a --codegen-pattern function writes that parses as Python
    bool pattern = false;     // written by a function --codegen-pattern names
    bool annotation = false;  // written by a function marked tracelint::codegen
    bool sets_format = false; // some function sets its precision, notation or boolalpha
  };
  Evidence &evidence(int sink) { return evidence_[root(sink)]; }
  Evidence evidence_of(int sink) const {
    auto it = evidence_.find(root(sink));
    return it == evidence_.end() ? Evidence{} : it->second;
  }
  // Computes which outputs hold Python: those whose own writes are Python lines and no C++,
  // or that a marked function writes (an annotation always; a pattern when some of the text
  // parses as Python and none is C++, so that a `PrintCut` writing "(... 3 lines skipped ...)"
  // is not a printer of Python), those such text flows into, and every output whose text flows
  // into one of them.
  // Call it once all writes are in.
  void resolve();
  bool is_python(int sink) const;

private:
  struct Entry {
    SinkKind kind;
    const clang::Decl *decl;
  };
  int add(SinkKind kind, const clang::Decl *decl);
  std::map<std::tuple<const void *, int, unsigned>, int> ids_;
  std::vector<Entry> entries_;
  mutable std::vector<int> parent_;
  std::map<int, Evidence> evidence_; // by root, merged on join
  std::vector<std::pair<int, int>> flows_;
  std::set<int> python_; // roots, after resolve()
};

// What a function's code says about a local variable's value: each expression assigned to it
// (its initializer, `v = e`, the range of a range-for).
struct Assignment {
  const clang::Expr *value = nullptr;
  bool element = false; // a range-for variable: an element of value
};

struct Facts {
  Sinks sinks;
  std::vector<Write> writes;
  std::map<const clang::VarDecl *, std::vector<Assignment>> assignments;
};

} // namespace tracelint::analyzer
