#pragma once
// The trace model: a Thunder-style trace is a Python function whose body is a list of
// bound symbols (with nested subsymbols printed as comments), unpack lines, del lines,
// annotation comments and a return.
#include "tracelint/core/source.hpp"
#include "tracelint/core/value.hpp"

#include <optional>
#include <string>
#include <vector>

namespace tracelint {

// The left side of an assignment: a name ("_" included) or a nested tuple/list of them.
struct Target {
  enum class Kind : uint8_t { Name, Tuple, List };
  Kind kind = Kind::Name;
  std::string name;
  std::vector<Target> elements;
  Span span;

  static Target named(std::string n) { return Target{Kind::Name, std::move(n), {}, {}}; }
  static Target tuple(std::vector<Target> e) { return Target{Kind::Tuple, {}, std::move(e), {}}; }
  static Target list(std::vector<Target> e) { return Target{Kind::List, {}, std::move(e), {}}; }
  bool is_placeholder() const { return kind == Kind::Name && name == "_"; }
  // Names bound by this target in order, "_" excluded.
  std::vector<const Target *> bound_names() const;
  // The same names passed to f(const Target &) one by one: the hot paths' way, without a vector.
  template <class F> void for_each_bound_name(F &&f) const {
    if (kind != Kind::Name) {
      for (const Target &e : elements)
        e.for_each_bound_name(f);
    } else if (!is_placeholder()) {
      f(*this);
    }
  }
  friend bool operator==(const Target &a, const Target &b) {
    return a.kind == b.kind && a.name == b.name && a.elements == b.elements;
  }
};

// How a tuple target is spelled.
enum class UnpackStyle : uint8_t {
  Parenthesized, // (t0, t1) = f(x)
  Bare,          // C0, C1, = saved_for_backward
  Continued,     // one "name, \" per line, then "= source" (pre-2024 Thunder)
};

// A type string in quotes: "cuda:0 f32[2, 2]"; untyped old-style annotations have none.
struct TypeText {
  std::string text; // without the quotes
  Span span;        // of the text inside the quotes
  friend bool operator==(const TypeText &a, const TypeText &b) { return a.text == b.text; }
};

// The trailing "# t1: "cpu f32[3]"" (or old "# t1") after a statement.
struct TypeComment {
  std::string name;
  std::optional<TypeText> type;
  Span name_span;
  friend bool operator==(const TypeComment &a, const TypeComment &b) {
    return a.name == b.name && a.type == b.type;
  }
};

// Fields in order of use: what every bound symbol has first, then what only some kinds have.
// The small fields are packed at the front: a trace holds many statements.
struct Statement {
  enum class Kind : uint8_t {
    BoundSymbol,       // [targets =] value, e.g. t1 = prims.add(a, b) or prims.check_len(args, 1)
    AnnotatedAssign,   // x: "cuda:0 f32[4, 128]" = args[0]
    Delete,            // del a, b  /  del [a, b]
    Return,            // return value
    AnnotationComment, // # a: "cuda:0 f32[2, 2]"   (or old "# a")
    Comment,           // any other comment line, kept verbatim
    Blank,             // an empty line
    Raw,               // valid Python the model does not represent; kept verbatim
  };
  Kind kind = Kind::BoundSymbol;
  UnpackStyle style = UnpackStyle::Parenthesized;
  bool trailing_comma = false;   // Bare style: "a, b, = x" vs "a, b = x"
  bool has_value = true;         // Return: false for a bare "return"
  bool delete_list_form = false; // del [a, b]
  bool commented = false;        // this statement is itself a subsymbol comment

  std::optional<Target> target;            // BoundSymbol / AnnotatedAssign
  Value value;                             // the right side, the expression, or the returned value
  std::optional<TypeComment> type_comment; // trailing "# t1: ..."
  std::vector<Statement> subsymbols;       // commented nested bound symbols, one level deeper
  Span span;

  std::optional<TypeText> annotation; // AnnotatedAssign / AnnotationComment
  std::string annotated_name;         // AnnotationComment
  Span annotated_name_span;           // AnnotationComment
  std::string trailing_comment;       // a trailing comment that is not a type comment
  std::vector<Target> deleted;        // Delete
  std::string text; // Comment: the line after its indentation; Raw: the statement's source
  // Raw: the names its expressions read (outside lambdas and comprehensions), as Name values
  // with their spans; the targets of a chained assignment after the first (a = b = None); and
  // whether the value it assigns is the literal None.
  std::vector<Value> reads;
  std::vector<Target> chained_targets;
  bool assigns_none = false;

  static Statement bound(std::optional<Target> target, Value value);
  static Statement ret(Value value);
  static Statement del(std::vector<std::string> names);
  static Statement annotation_comment(std::string name, std::optional<std::string> type);
  static Statement comment(std::string text);
  static Statement blank();

  friend bool operator==(const Statement &a, const Statement &b);
};

enum class ParamKind { Positional, VarArgs, KeywordOnly, VarKeywords };

struct Parameter {
  std::string name;
  ParamKind kind = ParamKind::Positional;
  std::optional<Value> default_value;
  Span span;
  friend bool operator==(const Parameter &a, const Parameter &b) {
    return a.name == b.name && a.kind == b.kind && a.default_value == b.default_value;
  }
};

// A typed parameter's annotation as written (`"f32[4]"`, `f32[4]`, `FusionDefinition`): not part
// of the model (TL009 says so), kept for the rules that read it.
struct ParameterAnnotation {
  std::string parameter;
  std::string text;
  Span span;
  bool quoted = false; // a string literal
};

struct Import {
  std::string module;                                     // thunder.torch
  std::vector<std::pair<std::string, std::string>> names; // from-import: (name, alias or "")
  std::string alias;                                      // import thunder.torch as ltorch
  bool from = false;
  Span span;
  // Names this import binds in the module's namespace.
  std::vector<std::string> bound_names() const;
  friend bool operator==(const Import &a, const Import &b) {
    return a.module == b.module && a.names == b.names && a.alias == b.alias && a.from == b.from;
  }
};

// Module-level lines before a trace's function: header comments, imports, blank lines.
struct PreambleItem {
  enum class Kind { Comment, Import, Blank };
  Kind kind = Kind::Comment;
  std::string comment; // the whole comment, "#" included
  Import import;
  Span span;

  static PreambleItem comment_line(std::string text); // text starts with "#"
  // import module [as alias], or from module import name (name non-empty).
  static PreambleItem import_line(std::string module, std::string alias = "",
                                  std::string name = "");
  static PreambleItem blank();
  friend bool operator==(const PreambleItem &a, const PreambleItem &b) {
    return a.kind == b.kind && a.comment == b.comment && a.import == b.import;
  }
};

// A class a trace is printed in as a method: fx's print_readable and Dynamo's graph code
// (`class GraphModule(torch.nn.Module):` around `def forward(self, ...)`), and the classes of
// the subgraphs Dynamo nests in it (`class wrap_body_0(torch.nn.Module):`).
struct ClassHeader {
  std::string name;
  std::vector<Value> bases; // torch.nn.Module is an Attribute
  Span span;                // the `class ...:` line
  friend bool operator==(const ClassHeader &a, const ClassHeader &b) {
    return a.name == b.name && a.bases == b.bases;
  }
};

struct Trace {
  enum class Kind {
    Function,    // def name(params): body
    NoSignature, // "# No signature available" in place of the def line
    Fragment,    // body lines without a def (copied out of a larger trace)
  };
  Kind kind = Kind::Function;
  std::vector<PreambleItem> preamble;
  // The classes the def is a method of, outermost first; empty for a module-level def. Traces
  // in a row with the same classes are methods of the same class statements.
  std::vector<ClassHeader> classes;
  std::vector<Value> decorators; // @torch.no_grad() is a Call, @no_autocast a Name
  std::string name;
  std::vector<Parameter> parameters;
  std::vector<ParameterAnnotation> parameter_annotations;
  std::vector<Statement> body;
  uint32_t fragment_indent = 0; // Fragment: the indentation its lines had
  Span def_span;                // the def line (or the "# No signature" line)
  Span name_span;

  // The imports of the preamble.
  std::vector<const Import *> imports() const;
  friend bool operator==(const Trace &a, const Trace &b) {
    return a.kind == b.kind && a.preamble == b.preamble && a.classes == b.classes &&
           a.decorators == b.decorators && a.name == b.name && a.parameters == b.parameters &&
           a.body == b.body && a.fragment_indent == b.fragment_indent;
  }
};

// Everything in one source file: usually one trace, sometimes a prologue and a
// computation printed together.
struct TraceFile {
  std::vector<Trace> traces;
  std::vector<PreambleItem> trailer; // module-level lines after the last function
  friend bool operator==(const TraceFile &a, const TraceFile &b) = default;
};

} // namespace tracelint
