#include "collect_writes.hpp"

#include "clang_helpers.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

namespace tracelint::analyzer {

using namespace clang;

namespace {

struct SinkState {
  LineState line;
  StreamFormat format;
  bool operator==(const SinkState &) const = default;
};

// The state of every output a function touches, on one path through it.
struct Flow {
  bool dead = false; // after return, break or throw: merges take the other path
  std::map<int, SinkState> sinks;
};

StreamFormat merge_format(const StreamFormat &a, const StreamFormat &b) {
  if (a == b) return a;
  StreamFormat out;
  out.notation = a.notation == b.notation ? a.notation : StreamFormat::Notation::General;
  // A value printed after the paths meet is as precise as the least precise path makes it.
  if (a.precision && b.precision)
    out.precision = std::min(*a.precision, *b.precision);
  else
    out.precision = a.precision ? a.precision : b.precision;
  out.boolalpha = a.boolalpha && b.boolalpha;
  out.from_entry = a.from_entry || b.from_entry;
  return out;
}

// Collects the values of the pieces of one write.
struct Pieces {
  std::vector<ValuePiece> values;
  std::vector<TextPiece> text;

  void literal(const std::string &s) {
    if (!text.empty() && text.back().literal)
      *text.back().literal += s;
    else
      text.push_back(TextPiece{s});
  }
  void indentation() {
    TextPiece t;
    t.indentation = true;
    text.push_back(t);
  }
  void value(ValuePiece v) {
    TextPiece t;
    t.value = values.size();
    t.identity = v.expr;
    values.push_back(std::move(v));
    text.push_back(t);
  }
  void hidden(ValuePiece v) { values.push_back(std::move(v)); }
};

bool named_like(const NamedDecl *d, llvm::StringRef word) {
  return d && d->getIdentifier() && d->getName().contains_insensitive(word);
}

// The expression mentions max_digits10 (`std::numeric_limits<T>::max_digits10`, a helper).
bool mentions_max_digits10(const Stmt *s) {
  if (!s) return false;
  if (const auto *r = dyn_cast<DeclRefExpr>(s); r && named_like(r->getDecl(), "max_digits10"))
    return true;
  if (const auto *m = dyn_cast<MemberExpr>(s); m && named_like(m->getMemberDecl(), "max_digits10"))
    return true;
  if (const auto *c = dyn_cast<CallExpr>(s);
      c && c->getDirectCallee() && named_like(c->getDirectCallee(), "max_digits10"))
    return true;
  for (const Stmt *child : s->children())
    if (mentions_max_digits10(child)) return true;
  return false;
}

// The names of the declarations an expression refers to (`std::ios::fixed | std::ios::showpoint`).
void referenced_names(const Stmt *s, std::set<std::string> &out) {
  if (!s) return;
  if (const auto *r = dyn_cast<DeclRefExpr>(s); r && r->getDecl()->getIdentifier())
    out.insert(r->getDecl()->getName().str());
  for (const Stmt *child : s->children())
    referenced_names(child, out);
}

const Expr *leftmost_stream_base(const Expr *e);

bool is_stream_shift(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(e))
    return op->getOperator() == OO_LessLess && op->getNumArgs() == 2;
  if (const auto *b = dyn_cast<BinaryOperator>(e); b && b->getOpcode() == BO_Shl) {
    const Expr *lhs = b->getLHS()->IgnoreParenImpCasts();
    return lhs->isTypeDependent() || lhs->getType()->isRecordType() || is_stream_shift(lhs);
  }
  return false;
}

// The operands of `os << a << b`, left to right, each with the operator<< that prints it.
const Expr *stream_operands(const Expr *e,
                            std::vector<std::pair<const Expr *, const FunctionDecl *>> &out) {
  const Expr *s = e->IgnoreParenImpCasts();
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s);
      op && op->getOperator() == OO_LessLess && op->getNumArgs() == 2) {
    const Expr *base = stream_operands(op->getArg(0), out);
    out.emplace_back(op->getArg(1), op->getDirectCallee());
    return base;
  }
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && is_stream_shift(b)) {
    const Expr *base = stream_operands(b->getLHS(), out);
    out.emplace_back(b->getRHS(), nullptr);
    return base;
  }
  return s;
}

const Expr *leftmost_stream_base(const Expr *e) {
  std::vector<std::pair<const Expr *, const FunctionDecl *>> ignored;
  return stream_operands(e, ignored);
}

LineState start_of_text() {
  LineState s;
  s.kind = LineState::Kind::Start;
  return s;
}

} // namespace

// The walk through one function's body.
class FunctionWalk {
public:
  FunctionWalk(WriteCollector &collector, const FunctionDecl *function, FunctionMarks marks)
      : c_(collector), facts_(collector.facts()), sinks_(collector.facts().sinks), fn_(function),
        marks_(marks) {}

  void run() { walk(fn_->getBody()); }
  std::vector<const LambdaExpr *> lambdas;

private:
  // --- sinks -------------------------------------------------------------------------------

  bool is_local(const Decl *d) const {
    const auto *v = dyn_cast_or_null<VarDecl>(d);
    return v && !isa<ParmVarDecl>(v) && (v->isLocalVarDecl() || fresh_locals_.count(v));
  }

  SinkState initial(int sink) const {
    SinkState s;
    SinkKind kind = sinks_.kind(sink);
    if (kind == SinkKind::Return || (kind == SinkKind::Named && is_local(sinks_.decl(sink)))) {
      s.line.kind = LineState::Kind::Start;
    } else {
      s.line.kind = LineState::Kind::Unknown;
      s.format.from_entry = true;
    }
    return s;
  }

  SinkState &state(int sink) {
    auto it = flow_.sinks.find(sink);
    if (it == flow_.sinks.end()) it = flow_.sinks.emplace(sink, initial(sink)).first;
    return it->second;
  }

  void lose_line(int sink) {
    SinkState &s = state(sink);
    s.line.kind = LineState::Kind::Unknown;
    s.line.pending.clear();
    s.line.pending_values.clear();
  }

  Flow merge(const Flow &a, const Flow &b) const {
    if (a.dead) return b;
    if (b.dead) return a;
    Flow out;
    std::set<int> keys;
    for (const auto &[k, _] : a.sinks)
      keys.insert(k);
    for (const auto &[k, _] : b.sinks)
      keys.insert(k);
    for (int k : keys) {
      auto ia = a.sinks.find(k), ib = b.sinks.find(k);
      SinkState sa = ia != a.sinks.end() ? ia->second : initial(k);
      SinkState sb = ib != b.sinks.end() ? ib->second : initial(k);
      out.sinks[k] = {tracelint::analyzer::merge(sa.line, sb.line),
                      merge_format(sa.format, sb.format)};
    }
    return out;
  }

  // Where text written through this expression goes.
  std::optional<int> resolve_sink(const Expr *e, int depth = 0) {
    if (!e || depth > 8) return std::nullopt;
    const Expr *s = e->IgnoreParenImpCasts();
    if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(s))
      s = m->getSubExpr()->IgnoreParenImpCasts();
    if (is_stream_shift(s)) return resolve_sink(leftmost_stream_base(s), depth + 1);
    if (const auto *u = dyn_cast<UnaryOperator>(s); u && u->getOpcode() == UO_Deref)
      return resolve_sink(u->getSubExpr(), depth + 1);
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s);
        op && (op->getOperator() == OO_Star || op->getOperator() == OO_Arrow) &&
        op->getNumArgs() >= 1)
      return resolve_sink(op->getArg(0), depth + 1);
    if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
      const auto *v = dyn_cast<VarDecl>(ref->getDecl());
      if (!v) return std::nullopt;
      if (auto alias = aliases_.find(v); alias != aliases_.end())
        return resolve_sink(alias->second, depth + 1);
      if (const auto *p = dyn_cast<ParmVarDecl>(v)) return sinks_.parameter(p);
      llvm::StringRef name = v->getIdentifier() ? v->getName() : "";
      if ((name == "cerr" || name == "clog") && v->isInStdNamespace()) return sinks_.diagnostic();
      if (name == "stderr" || name == "_IO_2_1_stderr_") return sinks_.diagnostic();
      if (name == "stdout" || ((name == "cout") && v->isInStdNamespace()))
        return sinks_.standard_output();
      if (const CXXRecordDecl *r = v->getType()->getAsCXXRecordDecl(); r && reports_errors(r))
        return sinks_.diagnostic(); // `ErrorReport report; report << ...`
      return sinks_.named(v);
    }
    if (const auto *m = dyn_cast<MemberExpr>(s)) {
      if (const auto *f = dyn_cast<FieldDecl>(m->getMemberDecl()))
        return reports_errors(f->getParent()) ? sinks_.diagnostic() : sinks_.named(f);
      if (const auto *v = dyn_cast<VarDecl>(m->getMemberDecl())) return sinks_.named(v);
      return std::nullopt;
    }
    if (const auto *call = dyn_cast<CXXMemberCallExpr>(s)) {
      // fmt's formatter: `ctx.out()` is the context's output.
      if (const auto *m = call->getMethodDecl(); m && m->getIdentifier() && m->getName() == "out")
        return resolve_sink(call->getImplicitObjectArgument(), depth + 1);
    }
    if (const auto *call = dyn_cast<CallExpr>(s)) {
      std::string lib = library_function(call->getDirectCallee());
      if ((lib == "std::back_inserter" || lib == "fmt::appender") && call->getNumArgs() == 1)
        return resolve_sink(call->getArg(0), depth + 1);
      if (const FunctionDecl *callee = call->getDirectCallee()) {
        const auto &r = c_.returned_stream(callee);
        if (r.sink) return r.sink;
        if (r.parameter && *r.parameter < call->getNumArgs())
          return resolve_sink(call->getArg(*r.parameter), depth + 1);
      }
      return sinks_.temporary();
    }
    if (const auto *construct = dyn_cast<CXXConstructExpr>(s);
        construct && construct->getNumArgs() == 1 && !is_stream_like(construct->getType()))
      return resolve_sink(construct->getArg(0), depth + 1);
    return sinks_.temporary();
  }

  // --- values ------------------------------------------------------------------------------

  static bool is_indentation(const Expr *s) {
    if (const auto *c = dyn_cast<CXXConstructExpr>(s);
        c && c->getNumArgs() == 2 && is_string_like(c->getType()))
      if (auto ch = literal_text(c->getArg(1)); ch && (*ch == " " || *ch == "\t")) return true;
    if (!is_string_like(s->getType())) return false;
    if (const auto *ref = dyn_cast<DeclRefExpr>(s)) return named_like(ref->getDecl(), "indent");
    if (const auto *m = dyn_cast<MemberExpr>(s)) return named_like(m->getMemberDecl(), "indent");
    if (const auto *call = dyn_cast<CallExpr>(s))
      return named_like(call->getDirectCallee(), "indent");
    return false;
  }

  static bool is_format_call(const std::string &lib) {
    return lib == "fmt::format" || lib == "std::format" || lib == "fmt::sprintf";
  }

  // The expression builds text from literals and values: what a write of it adds.
  bool is_text_building(const Expr *e) const {
    const Expr *s = strip(e);
    if (!s) return false;
    if (literal_text(s) || is_indentation(s)) return true;
    if (const auto *c = dyn_cast<ConditionalOperator>(s))
      return literal_text(c->getTrueExpr()) && literal_text(c->getFalseExpr());
    if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s))
      return op->getOperator() == OO_Plus && op->getNumArgs() == 2 && is_string_like(op->getType());
    if (const auto *b = dyn_cast<BinaryOperator>(s);
        b && b->getOpcode() == BO_Add && b->isTypeDependent())
      return literal_text(b->getLHS()) || literal_text(b->getRHS());
    if (const auto *call = dyn_cast<CallExpr>(s)) {
      std::string lib = library_function(call->getDirectCallee());
      return is_format_call(lib) || lib == "std::to_string";
    }
    return false;
  }

  // Text that flows from elsewhere into the sink: a local string or stream, `ss.str()`, what a
  // function returns. Their writes then print into the same text.
  void join_source(const Expr *s, int sink) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
      if (const auto *v = dyn_cast<VarDecl>(ref->getDecl());
          v && is_local(v) && (is_string_like(v->getType()) || is_stream_like(v->getType())))
        if (auto source = resolve_sink(s)) sinks_.flow(*source, sink);
      return;
    }
    if (const auto *m = dyn_cast<CXXMemberCallExpr>(s)) {
      const CXXMethodDecl *method = m->getMethodDecl();
      llvm::StringRef name = method && method->getIdentifier() ? method->getName() : "";
      if ((name == "str" || name == "c_str" || name == "data" || name == "view") &&
          m->getImplicitObjectArgument()) {
        const Expr *object = m->getImplicitObjectArgument()->IgnoreParenImpCasts();
        if (is_stream_like(object->getType()) || isa<DeclRefExpr>(object)) {
          if (auto source = resolve_sink(object)) sinks_.flow(*source, sink);
          return;
        }
      }
    }
    if (const auto *call = dyn_cast<CallExpr>(s)) {
      const FunctionDecl *callee = call->getDirectCallee();
      if (callee && library_function(callee).empty() && !callee->getReturnType()->isVoidType() &&
          (is_string_like(callee->getReturnType()) || is_stream_like(callee->getReturnType())))
        sinks_.flow(sinks_.returned(callee), sink);
      return;
    }
    if (is_stream_like(s->getType()))
      if (auto source = resolve_sink(s)) sinks_.flow(*source, sink);
  }

  // Conditions on the path that make the value's digits exact or irrelevant.
  static bool calls_on(const Expr *cond, std::initializer_list<llvm::StringRef> names,
                       const Expr *value, const ASTContext &ctx) {
    const Expr *s = strip(cond);
    if (const auto *b = dyn_cast<BinaryOperator>(s);
        b && (b->getOpcode() == BO_LOr || b->getOpcode() == BO_LAnd))
      return calls_on(b->getLHS(), names, value, ctx) || calls_on(b->getRHS(), names, value, ctx);
    if (const auto *call = dyn_cast<CallExpr>(s); call && call->getNumArgs() == 1 &&
                                                  call->getDirectCallee() &&
                                                  call->getDirectCallee()->getIdentifier())
      for (llvm::StringRef n : names)
        if (call->getDirectCallee()->getName() == n && same_expression(ctx, call->getArg(0), value))
          return true;
    return false;
  }

  static bool integral_test(const Expr *cond, const Expr *value, const ASTContext &ctx) {
    const Expr *s = strip(cond);
    if (const auto *b = dyn_cast<BinaryOperator>(s)) {
      if (b->getOpcode() == BO_LAnd)
        return integral_test(b->getLHS(), value, ctx) || integral_test(b->getRHS(), value, ctx);
      if (b->getOpcode() != BO_EQ) return false;
      for (auto [rounded, other] :
           {std::pair{b->getLHS(), b->getRHS()}, std::pair{b->getRHS(), b->getLHS()}}) {
        if (!same_expression(ctx, other, value)) continue;
        if (calls_on(rounded, {"nearbyint", "rint", "round", "floor", "ceil", "trunc"}, value, ctx))
          return true;
        // `v == (int)v`, `v == static_cast<int64_t>(v)`
        if (const auto *cast = dyn_cast<ExplicitCastExpr>(rounded->IgnoreParenImpCasts());
            cast && cast->getType()->isIntegerType() &&
            same_expression(ctx, cast->getSubExpr(), value))
          return true;
      }
    }
    return false;
  }

  void guard(ValuePiece &v) {
    if (!v.expr || round_trip_digits(v.expr->getType()) == 0) return;
    const ASTContext &ctx = c_.context();
    for (auto [cond, positive] : conditions_) {
      if (positive && calls_on(cond, {"isinf", "isnan"}, v.expr, ctx)) v.nonfinite_guard = true;
      if (!positive && calls_on(cond, {"isfinite"}, v.expr, ctx)) v.nonfinite_guard = true;
      if (positive && integral_test(cond, v.expr, ctx)) v.integral_guard = true;
    }
  }

  void add_value(Pieces &out, const Expr *e, Conversion how, int sink,
                 const StreamFormat *format = nullptr, const FunctionDecl *op = nullptr,
                 std::optional<FormatField> field = std::nullopt) {
    ValuePiece v;
    v.expr = e ? e->IgnoreParenImpCasts() : nullptr;
    v.how = how;
    v.field = field;
    if (format) v.stream = *format;
    v.stream_operator = op;
    guard(v);
    if (v.expr) join_source(strip(v.expr), sink);
    out.value(std::move(v));
  }

  // Appends what the expression prints to the pieces.
  void flatten_text(const Expr *e, Conversion how, int sink, Pieces &out,
                    const StreamFormat *format = nullptr, const FunctionDecl *op = nullptr) {
    const Expr *s = strip(e);
    if (!s) return;
    if (auto text = literal_text(s)) return out.literal(*text);
    if (is_indentation(s)) return out.indentation();
    if (const auto *c = dyn_cast<ConditionalOperator>(s)) {
      auto a = literal_text(c->getTrueExpr()), b = literal_text(c->getFalseExpr());
      if (a && b) {
        out.literal(*a);
        ValuePiece v;
        v.expr = c;
        v.how = Conversion::Alternatives;
        v.alternatives = {*a, *b};
        out.hidden(std::move(v));
        return;
      }
    }
    if (const auto *plus = dyn_cast<CXXOperatorCallExpr>(s);
        plus && plus->getOperator() == OO_Plus && plus->getNumArgs() == 2 &&
        is_string_like(plus->getType())) {
      flatten_text(plus->getArg(0), Conversion::Concat, sink, out);
      flatten_text(plus->getArg(1), Conversion::Concat, sink, out);
      return;
    }
    if (const auto *b = dyn_cast<BinaryOperator>(s);
        b && b->getOpcode() == BO_Add && b->isTypeDependent() &&
        (literal_text(b->getLHS()) || literal_text(b->getRHS()))) {
      flatten_text(b->getLHS(), Conversion::Concat, sink, out);
      flatten_text(b->getRHS(), Conversion::Concat, sink, out);
      return;
    }
    if (const auto *call = dyn_cast<CallExpr>(s)) {
      std::string lib = library_function(call->getDirectCallee());
      if ((lib == "fmt::format" || lib == "std::format") &&
          flatten_format(call, 0, false, sink, out))
        return;
      if (lib == "fmt::sprintf" && flatten_format(call, 0, true, sink, out)) return;
      if (lib == "std::to_string" && call->getNumArgs() == 1)
        return add_value(out, call->getArg(0), Conversion::ToString, sink);
    }
    add_value(out, s, how, sink, format, op);
  }

  // A printf or fmt format string and its arguments, from argument `first` on.
  bool flatten_format(const CallExpr *call, unsigned first, bool printf_style, int sink,
                      Pieces &out) {
    if (first >= call->getNumArgs()) return false;
    std::optional<std::string> format = literal_text(call->getArg(first));
    if (!format) return false;
    auto segments = printf_style ? parse_printf_format(*format) : parse_fmt_format(*format);
    if (!segments) return false;
    unsigned next = first + 1;
    for (const FormatSegment &segment : *segments) {
      if (!segment.field) {
        out.literal(segment.literal);
        continue;
      }
      const FormatField &f = *segment.field;
      if (f.type == 'n') continue;
      unsigned index;
      if (printf_style) {
        next += f.extra_args;
        index = f.arg_index ? first + 1 + static_cast<unsigned>(*f.arg_index) : next++;
      } else {
        index = f.arg_index ? first + 1 + static_cast<unsigned>(*f.arg_index) : next++;
        next += f.extra_args;
      }
      const Expr *arg = !f.named && index < call->getNumArgs() ? call->getArg(index) : nullptr;
      bool as_text = f.type == 's' || f.type == 'c' || (!printf_style && f.type == 0);
      if (arg && as_text && is_text_building(arg) && !isa<CallExpr>(strip(arg))) {
        flatten_text(arg, printf_style ? Conversion::Printf : Conversion::Fmt, sink, out);
        continue;
      }
      add_value(out, arg, printf_style ? Conversion::Printf : Conversion::Fmt, sink, nullptr,
                nullptr, f);
    }
    return true;
  }

  // --- writes ------------------------------------------------------------------------------

  void emit(int sink, const Expr *anchor, Pieces &&pieces, bool reset) {
    SinkKind kind = sinks_.kind(sink);
    if (kind == SinkKind::Temporary || kind == SinkKind::Diagnostic) return;
    SinkState &st = state(sink);
    if (reset) st.line = start_of_text();
    Write w;
    w.function = fn_;
    w.sink = sink;
    w.anchor = anchor;
    w.values = std::move(pieces.values);
    w.text = std::move(pieces.text);
    w.printed = print_pieces(st.line, w.text);
    // A returned string is whole: a last line that ends in a newline with a bracket still
    // open is what the caller gets, not a line the next write finishes.
    if (kind == SinkKind::Return && st.line.kind == LineState::Kind::Mid &&
        !st.line.pending.empty() && st.line.pending.back() == '\n' && !st.line.lex.quote)
      w.printed.lines.push_back(st.line.pending.substr(0, st.line.pending.size() - 1));
    for (const ValueContext &ctx : w.printed.values)
      w.values[ctx.value].context = ctx;
    Sinks::Evidence &evidence = sinks_.evidence(sink);
    // Text a --codegen-pattern function spells out (a word, not only values or punctuation)
    // that parses as Python: what makes the pattern's choice a Python printer.
    bool spelled = std::any_of(w.text.begin(), w.text.end(), [](const TextPiece &t) {
      return t.literal && std::any_of(t.literal->begin(), t.literal->end(), [](char ch) {
               return std::isalpha(static_cast<unsigned char>(ch));
             });
    });
    for (const PrintedSegment &segment : w.printed.segments) {
      TextKind k =
          classify_printed_line(c_.parser(), segment.text, segment.complete, segment.at_line_start);
      if (k == TextKind::Python) ++evidence.python;
      if (k == TextKind::Cpp) ++evidence.cpp;
      if (marks_.pattern && spelled && k == TextKind::Neutral &&
          segment.text.find_first_not_of(" \t") != std::string::npos &&
          c_.parser().line_is_valid(segment.text))
        ++evidence.parses;
    }
    if (marks_.annotation) evidence.annotation = true;
    if (marks_.pattern) evidence.pattern = true;
    facts_.writes.push_back(std::move(w));
  }

  void set_format(int sink, const std::function<void(StreamFormat &)> &change) {
    StreamFormat &format = state(sink).format;
    change(format);
    format.from_entry = false; // set here: what follows prints as the function says
    sinks_.evidence(sink).sets_format = true;
  }

  std::optional<int> precision_value(const Expr *e) const {
    if (auto n = constant_int(e, c_.context())) return static_cast<int>(*n);
    if (mentions_max_digits10(e)) return kMaxDigits10;
    return std::nullopt;
  }

  static std::optional<StreamFormat::Notation> notation_of(const std::set<std::string> &names) {
    bool fixed = names.count("fixed"), scientific = names.count("scientific");
    if (fixed && scientific) return StreamFormat::Notation::Hex;
    if (fixed) return StreamFormat::Notation::Fixed;
    if (scientific) return StreamFormat::Notation::Scientific;
    return std::nullopt;
  }

  // `std::fixed`, `std::setprecision(17)`, `std::boolalpha`... in a chain: true when the
  // operand only changes the stream's format (or prints nothing).
  bool manipulator(const Expr *operand, int sink) {
    const Expr *s = strip(operand);
    if (const auto *ref = dyn_cast<DeclRefExpr>(s);
        ref && isa<FunctionDecl>(ref->getDecl()) && ref->getDecl()->isInStdNamespace()) {
      llvm::StringRef name = ref->getDecl()->getName();
      if (name == "endl" || name == "ends") return false;
      using N = StreamFormat::Notation;
      if (name == "boolalpha") set_format(sink, [](StreamFormat &f) { f.boolalpha = true; });
      if (name == "noboolalpha") set_format(sink, [](StreamFormat &f) { f.boolalpha = false; });
      if (name == "fixed") set_format(sink, [](StreamFormat &f) { f.notation = N::Fixed; });
      if (name == "scientific")
        set_format(sink, [](StreamFormat &f) { f.notation = N::Scientific; });
      if (name == "hexfloat") set_format(sink, [](StreamFormat &f) { f.notation = N::Hex; });
      if (name == "defaultfloat")
        set_format(sink, [](StreamFormat &f) { f.notation = N::General; });
      return true; // showpoint, left, flush, hex...: no text, no digits
    }
    const auto *call = dyn_cast<CallExpr>(s);
    std::string lib = call ? library_function(call->getDirectCallee()) : "";
    if (lib == "std::setprecision" && call->getNumArgs() == 1) {
      std::optional<int> p = precision_value(call->getArg(0));
      set_format(sink, [p](StreamFormat &f) { f.precision = p; });
      return true;
    }
    if ((lib == "std::setiosflags" || lib == "std::resetiosflags") && call->getNumArgs() == 1) {
      std::set<std::string> names;
      referenced_names(call->getArg(0), names);
      auto notation = notation_of(names);
      if (notation || names.count("floatfield"))
        set_format(sink, [&](StreamFormat &f) {
          f.notation = lib == "std::resetiosflags"
                           ? StreamFormat::Notation::General
                           : notation.value_or(StreamFormat::Notation::General);
        });
      return true;
    }
    if (lib == "std::setw" || lib == "std::setfill" || lib == "std::setbase") return true;
    return false;
  }

  // Inside `LOG(INFO) << ...`, `TVM_FFI_THROW(TypeError) << ...`, `CHECK(x) << ...`: a message.
  bool in_error_macro(SourceLocation loc) const {
    const SourceManager &sm = c_.context().getSourceManager();
    for (int depth = 0; loc.isMacroID() && depth < 16; ++depth) {
      llvm::StringRef name = Lexer::getImmediateMacroName(loc, sm, c_.context().getLangOpts());
      for (llvm::StringRef word : {"CHECK", "THROW", "LOG", "ERROR", "ASSERT", "WARN", "FATAL",
                                   "FAIL", "DEBUG", "TRACE", "PANIC", "ABORT", "EXPECT", "REPORT"})
        if (name.contains_insensitive(word)) return true;
      loc = sm.getImmediateMacroCallerLoc(loc);
    }
    return false;
  }

  // The stream is a member of an error or a log message (`ErrorBuilder::stream_`).
  static bool reports_errors(const RecordDecl *r) {
    if (!r || !r->getIdentifier()) return false;
    for (llvm::StringRef word :
         {"error", "exception", "log", "check", "fatal", "warn", "assert", "diagnos", "panic"})
      if (r->getName().contains_insensitive(word)) return true;
    return false;
  }

  void stream_write(const Expr *top) {
    std::vector<std::pair<const Expr *, const FunctionDecl *>> operands;
    const Expr *base = stream_operands(top, operands);
    if (in_error_macro(base->getBeginLoc())) return;
    scan_call_arguments(base);
    std::optional<int> sink = resolve_sink(base);
    if (!sink) return;
    // `indent() << "if "`: the function that returns the stream wrote to it first.
    if (const auto *call = dyn_cast<CallExpr>(base->IgnoreParenImpCasts());
        call && !isa<CXXOperatorCallExpr>(call))
      lose_line(*sink);
    Pieces pieces;
    for (const auto &[operand, op] : operands) {
      if (manipulator(operand, *sink)) continue;
      StreamFormat format = state(*sink).format;
      flatten_text(operand, Conversion::Stream, *sink, pieces, &format, op);
      scan_lambdas(operand);
    }
    emit(*sink, top, std::move(pieces), false);
  }

  // Writes through a string's member functions: `s.append(a).append(b)`, `s.push_back(c)`;
  // a stream's format: `os.precision(17)`, `os.setf(std::ios::fixed)`; `lines.push_back(text)`.
  bool member_write(const CXXMemberCallExpr *m) {
    const CXXMethodDecl *method = m->getMethodDecl();
    const Expr *object = m->getImplicitObjectArgument();
    if (!method || !method->getIdentifier() || !object) return false;
    llvm::StringRef name = method->getName();
    QualType object_type = object->getType();
    if (object_type->isPointerType()) object_type = object_type->getPointeeType();
    if (is_string_like(object_type) && (name == "append" || name == "push_back")) {
      std::vector<const CXXMemberCallExpr *> chain{m};
      const Expr *base = object;
      while (const auto *inner = dyn_cast<CXXMemberCallExpr>(base->IgnoreParenImpCasts())) {
        const CXXMethodDecl *im = inner->getMethodDecl();
        if (!im || !im->getIdentifier() || im->getName() != "append") break;
        chain.push_back(inner);
        base = inner->getImplicitObjectArgument();
      }
      std::optional<int> sink = resolve_sink(base);
      if (!sink) return true;
      Pieces pieces;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
        const CXXMemberCallExpr *call = *it;
        if (call->getNumArgs() == 2 && call->getArg(0)->getType()->isIntegerType()) {
          auto ch = literal_text(call->getArg(1));
          if (ch && (*ch == " " || *ch == "\t")) {
            pieces.indentation();
          } else if (ch) {
            auto n = constant_int(call->getArg(0), c_.context());
            if (n && *n >= 0 && *n < 256)
              pieces.literal(std::string(static_cast<std::size_t>(*n), (*ch)[0]));
            else
              add_value(pieces, call, Conversion::Concat, *sink);
          }
        } else if (call->getNumArgs() >= 1) {
          if (call->getNumArgs() == 1)
            flatten_text(call->getArg(0), Conversion::Concat, *sink, pieces);
          else
            add_value(pieces, call->getArg(0), Conversion::Concat, *sink);
        }
      }
      emit(*sink, m, std::move(pieces), false);
      return true;
    }
    if (is_string_like(object_type) && (name == "insert" || name == "replace" || name == "erase")) {
      if (auto sink = resolve_sink(object)) lose_line(*sink);
      return false; // the arguments may hold writes
    }
    if (!is_string_like(object_type) && (name == "push_back" || name == "emplace_back") &&
        m->getNumArgs() == 1 && is_string_like(m->getArg(0)->getType())) {
      if (std::optional<int> sink = resolve_sink(object)) {
        const Expr *arg = strip(m->getArg(0));
        if (is_text_building(arg)) {
          Pieces pieces;
          flatten_text(arg, Conversion::Concat, *sink, pieces);
          emit(*sink, m, std::move(pieces), true);
          return true;
        }
        join_source(arg, *sink);
      }
      return false;
    }
    if (is_stream_like(object_type) && !is_string_like(object_type)) {
      std::optional<int> sink;
      auto get = [&]() {
        if (!sink) sink = resolve_sink(object);
        return sink;
      };
      if (name == "precision" && m->getNumArgs() == 1 && get()) {
        std::optional<int> p = precision_value(m->getArg(0));
        set_format(*sink, [p](StreamFormat &f) { f.precision = p; });
        return true;
      }
      if ((name == "setf" || name == "unsetf" || name == "flags") && m->getNumArgs() >= 1 &&
          get()) {
        std::set<std::string> names;
        referenced_names(m->getArg(0), names);
        auto notation = notation_of(names);
        bool unset = name == "unsetf";
        if (names.count("boolalpha"))
          set_format(*sink, [&](StreamFormat &f) { f.boolalpha = !unset; });
        if (notation || names.count("floatfield") || (m->getNumArgs() == 2))
          set_format(*sink, [&](StreamFormat &f) {
            f.notation = unset ? StreamFormat::Notation::General
                               : notation.value_or(StreamFormat::Notation::General);
          });
        return true;
      }
      if (name == "copyfmt" && get()) {
        set_format(*sink, [](StreamFormat &f) { f.precision = std::nullopt; });
        return false;
      }
      if (name == "str" && m->getNumArgs() == 1 && get()) {
        state(*sink).line = start_of_text(); // ss.str(""): starts over
        return true;
      }
    }
    return false;
  }

  // printf, fprintf, snprintf, puts, fputs, fmt::print, fmt::format_to, std::format_to;
  // std::fixed(os) and friends.
  bool library_write(const CallExpr *call) {
    std::string lib = library_function(call->getDirectCallee());
    if (lib.empty()) return false;
    if (lib.rfind("std::", 0) == 0 && lib.find("printf") != std::string::npos) lib = lib.substr(5);
    unsigned n = call->getNumArgs();
    auto arg = [&](unsigned i) { return i < n ? call->getArg(i) : nullptr; };
    auto printed = [&](std::optional<int> sink, unsigned format, bool printf_style, bool reset) {
      if (!sink) return true;
      Pieces pieces;
      if (!flatten_format(call, format, printf_style, *sink, pieces)) {
        for (unsigned i = format; i < n; ++i)
          add_value(pieces, arg(i), printf_style ? Conversion::Printf : Conversion::Fmt, *sink);
      }
      emit(*sink, call, std::move(pieces), reset);
      return true;
    };
    if (lib == "printf") return printed(sinks_.standard_output(), 0, true, false);
    if (lib == "fprintf" || lib == "fmt::fprintf")
      return printed(resolve_sink(arg(0)), 1, true, false);
    if (lib == "sprintf") return printed(resolve_sink(arg(0)), 1, true, true);
    if (lib == "snprintf") return printed(resolve_sink(arg(0)), 2, true, true);
    if (lib == "fmt::printf") return printed(sinks_.standard_output(), 0, true, false);
    if (lib == "fmt::print") {
      bool to_stream =
          n >= 2 && (is_file_pointer(arg(0)->getType()) || is_stream_like(arg(0)->getType()));
      return to_stream ? printed(resolve_sink(arg(0)), 1, false, false)
                       : printed(sinks_.standard_output(), 0, false, false);
    }
    if (lib == "fmt::format_to" || lib == "std::format_to")
      return printed(resolve_sink(arg(0)), 1, false, false);
    if (lib == "fmt::format_to_n" || lib == "std::format_to_n")
      return printed(resolve_sink(arg(0)), 2, false, false);
    auto put = [&](std::optional<int> sink, const Expr *text, bool newline) {
      if (!sink || !text) return true;
      Pieces pieces;
      flatten_text(text, Conversion::Concat, *sink, pieces);
      if (newline) pieces.literal("\n");
      emit(*sink, call, std::move(pieces), false);
      return true;
    };
    if (lib == "fputs" || lib == "fputc" || lib == "putc")
      return put(resolve_sink(arg(1)), arg(0), false);
    if (lib == "puts") return put(sinks_.standard_output(), arg(0), true);
    if (lib == "putchar") return put(sinks_.standard_output(), arg(0), false);
    using N = StreamFormat::Notation;
    static const std::map<std::string, std::function<void(StreamFormat &)>> formats = {
        {"std::fixed", [](StreamFormat &f) { f.notation = N::Fixed; }},
        {"std::scientific", [](StreamFormat &f) { f.notation = N::Scientific; }},
        {"std::hexfloat", [](StreamFormat &f) { f.notation = N::Hex; }},
        {"std::defaultfloat", [](StreamFormat &f) { f.notation = N::General; }},
        {"std::boolalpha", [](StreamFormat &f) { f.boolalpha = true; }},
        {"std::noboolalpha", [](StreamFormat &f) { f.boolalpha = false; }}};
    if (auto it = formats.find(lib); it != formats.end() && n == 1) {
      if (auto sink = resolve_sink(arg(0))) set_format(*sink, it->second);
      return true;
    }
    if ((lib == "std::showpoint" || lib == "std::noshowpoint") && n == 1) return true;
    return false;
  }

  // A call that may write into the streams it is given, or (a method of the printer) into its
  // members: their lines go on out of our sight.
  void call_effects(const CallExpr *call) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return;
    bool library = !library_function(callee).empty();
    unsigned offset = isa<CXXOperatorCallExpr>(call) && isa<CXXMethodDecl>(callee) ? 1 : 0;
    for (unsigned i = offset; i < call->getNumArgs(); ++i) {
      unsigned p = i - offset;
      if (p >= callee->getNumParams()) break;
      const ParmVarDecl *param = callee->getParamDecl(p);
      QualType t = param->getType();
      bool out = (t->isLValueReferenceType() && !t.getNonReferenceType().isConstQualified()) ||
                 (t->isPointerType() && !t->getPointeeType().isConstQualified());
      if (!out || !(is_stream_like(t) || is_string_like(t) || is_file_pointer(t))) continue;
      std::optional<int> sink = resolve_sink(call->getArg(i));
      if (!sink) continue;
      SinkKind kind = sinks_.kind(*sink);
      if (kind == SinkKind::Temporary || kind == SinkKind::Diagnostic) continue;
      if (!library) sinks_.join(*sink, sinks_.parameter(param));
      lose_line(*sink);
    }
    const auto *member = dyn_cast<CXXMemberCallExpr>(call);
    const Expr *object = member ? member->getImplicitObjectArgument() : nullptr;
    if (object && isa<CXXThisExpr>(object->IgnoreParenImpCasts()))
      for (auto &[sink, st] : flow_.sinks)
        if (isa_and_nonnull<FieldDecl>(sinks_.decl(sink))) {
          st.line.kind = LineState::Kind::Unknown;
          st.line.pending.clear();
          st.line.pending_values.clear();
        }
    const auto &returned = c_.returned_stream(callee);
    if (returned.sink) lose_line(*returned.sink);
  }

  void scan_call_arguments(const Expr *base) {
    if (const auto *call = dyn_cast<CallExpr>(base->IgnoreParenImpCasts()))
      for (const Expr *a : call->arguments())
        scan(a);
  }

  void scan_lambdas(const Stmt *s) {
    if (!s) return;
    if (const auto *l = dyn_cast<LambdaExpr>(s)) {
      lambdas.push_back(l);
      return;
    }
    for (const Stmt *child : s->children())
      scan_lambdas(child);
  }

  void record_assignment(const Expr *target, const Expr *value) {
    if (const auto *ref = dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()))
      if (const auto *v = dyn_cast<VarDecl>(ref->getDecl()); v && is_local(v))
        facts_.assignments[v].push_back({value, false});
  }

  void assign_string(const Expr *whole, const Expr *target, const Expr *value, bool append) {
    std::optional<int> sink = resolve_sink(target);
    if (!append) record_assignment(target, value);
    if (!sink) return;
    const Expr *s = strip(value);
    if (append || is_text_building(s)) {
      Pieces pieces;
      flatten_text(value, Conversion::Concat, *sink, pieces);
      emit(*sink, whole, std::move(pieces), !append);
      return;
    }
    scan(value);
    join_source(s, *sink);
    lose_line(*sink);
  }

  // --- statements --------------------------------------------------------------------------

  void scan(const Stmt *s) {
    if (!s) return;
    if (const auto *e = dyn_cast<Expr>(s)) {
      const Expr *x = e->IgnoreParens();
      if (const auto *l = dyn_cast<LambdaExpr>(x)) {
        lambdas.push_back(l);
        return;
      }
      if (is_stream_shift(x)) return stream_write(x->IgnoreParenImpCasts());
      if (const auto *op = dyn_cast<CXXOperatorCallExpr>(x); op && op->getNumArgs() == 2) {
        if (op->getOperator() == OO_PlusEqual && is_string_like(op->getArg(0)->getType()))
          return assign_string(op, op->getArg(0), op->getArg(1), true);
        if (op->getOperator() == OO_Equal && is_string_like(op->getArg(0)->getType()))
          return assign_string(op, op->getArg(0), op->getArg(1), false);
      }
      if (const auto *b = dyn_cast<BinaryOperator>(x); b && b->getOpcode() == BO_Assign) {
        record_assignment(b->getLHS(), b->getRHS());
        scan(b->getRHS());
        return;
      }
      if (const auto *m = dyn_cast<CXXMemberCallExpr>(x); m && member_write(m)) return;
      if (const auto *call = dyn_cast<CallExpr>(x)) {
        if (library_write(call)) return;
        for (const Stmt *child : call->children())
          scan(child);
        call_effects(call);
        return;
      }
      if (isa<CXXThrowExpr>(x)) {
        for (const Stmt *child : x->children())
          scan(child);
        flow_.dead = true;
        return;
      }
    }
    for (const Stmt *child : s->children())
      scan(child);
  }

  void handle_var(const VarDecl *v) {
    const Expr *init = v->getInit();
    QualType t = v->getType();
    if (t->isReferenceType()) {
      if (init) {
        aliases_[v] = init;
        scan(init);
      }
      return;
    }
    fresh_locals_.insert(v);
    if (init) facts_.assignments[v].push_back({init, false});
    if (is_string_like(t) && !t->isPointerType() && init && !t->isArrayType()) {
      int sink = sinks_.named(v);
      flow_.sinks[sink] = initial(sink);
      const Expr *s = strip(init);
      if (is_text_building(s)) {
        Pieces pieces;
        flatten_text(init, Conversion::Concat, sink, pieces);
        emit(sink, init, std::move(pieces), true);
        return;
      }
      scan(init);
      if (!isa<CXXConstructExpr>(s) && !isa<InitListExpr>(s)) {
        join_source(s, sink);
        lose_line(sink);
      }
      return;
    }
    if (is_stream_like(t) || is_file_pointer(t) || t->isArrayType()) {
      int sink = sinks_.named(v);
      flow_.sinks[sink] = initial(sink);
      if (const auto *construct = dyn_cast_or_null<CXXConstructExpr>(init);
          construct && construct->getNumArgs() > 0 &&
          is_string_like(construct->getArg(0)->getType()))
        lose_line(sink); // std::ostringstream ss(prefix)
    }
    if (init) scan(init);
  }

  void handle_return(const ReturnStmt *ret) {
    const Expr *value = ret->getRetValue();
    if (!value) return;
    QualType rt = fn_->getReturnType();
    if (is_string_like(rt) && !rt->isReferenceType()) {
      int sink = sinks_.returned(fn_);
      const Expr *s = strip(value);
      if (is_text_building(s)) {
        Pieces pieces;
        flatten_text(value, Conversion::Concat, sink, pieces);
        emit(sink, value, std::move(pieces), true);
        return;
      }
      scan(value);
      join_source(s, sink);
      return;
    }
    scan(value);
  }

  void walk_branch(const Stmt *s, const Expr *cond, bool positive) {
    if (cond) conditions_.emplace_back(cond, positive);
    walk(s);
    if (cond) conditions_.pop_back();
  }

  void walk_loop(const Stmt *body, const Expr *inc) {
    Flow before = flow_;
    breaks_.push_back(Flow{true, {}});
    walk(body);
    scan(inc);
    Flow broke = std::move(breaks_.back());
    breaks_.pop_back();
    flow_ = merge(merge(before, flow_), broke);
  }

  void walk(const Stmt *s) {
    if (!s) return;
    if (const auto *block = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt *child : block->body())
        walk(child);
    } else if (const auto *i = dyn_cast<IfStmt>(s)) {
      walk(i->getInit());
      if (const DeclStmt *d = i->getConditionVariableDeclStmt()) walk(d);
      scan(i->getCond());
      Flow before = flow_;
      walk_branch(i->getThen(), i->getCond(), true);
      Flow then = std::move(flow_);
      flow_ = std::move(before);
      walk_branch(i->getElse(), i->getCond(), false);
      flow_ = merge(then, flow_);
    } else if (const auto *f = dyn_cast<ForStmt>(s)) {
      walk(f->getInit());
      scan(f->getCond());
      walk_loop(f->getBody(), f->getInc());
    } else if (const auto *w = dyn_cast<WhileStmt>(s)) {
      scan(w->getCond());
      walk_loop(w->getBody(), nullptr);
    } else if (const auto *d = dyn_cast<DoStmt>(s)) {
      walk_loop(d->getBody(), d->getCond());
    } else if (const auto *r = dyn_cast<CXXForRangeStmt>(s)) {
      walk(r->getInit());
      scan(r->getRangeInit());
      if (const VarDecl *v = r->getLoopVariable()) {
        fresh_locals_.insert(v);
        facts_.assignments[v].push_back({r->getRangeInit(), true});
      }
      walk_loop(r->getBody(), nullptr);
    } else if (const auto *sw = dyn_cast<SwitchStmt>(s)) {
      walk(sw->getInit());
      scan(sw->getCond());
      switch_entries_.push_back(flow_);
      breaks_.push_back(Flow{true, {}});
      flow_.dead = true; // before the first case label nothing runs
      walk(sw->getBody());
      Flow broke = std::move(breaks_.back());
      breaks_.pop_back();
      Flow entry = std::move(switch_entries_.back());
      switch_entries_.pop_back();
      bool has_default = false;
      for (const SwitchCase *c = sw->getSwitchCaseList(); c; c = c->getNextSwitchCase())
        has_default |= isa<DefaultStmt>(c);
      flow_ = merge(flow_, broke);
      if (!has_default) flow_ = merge(flow_, entry);
    } else if (const auto *c = dyn_cast<SwitchCase>(s)) {
      if (!switch_entries_.empty()) flow_ = merge(flow_, switch_entries_.back());
      walk(c->getSubStmt());
    } else if (isa<BreakStmt>(s)) {
      if (!breaks_.empty()) breaks_.back() = merge(breaks_.back(), flow_);
      flow_.dead = true;
    } else if (isa<ContinueStmt>(s)) {
      flow_.dead = true;
    } else if (const auto *ret = dyn_cast<ReturnStmt>(s)) {
      handle_return(ret);
      flow_.dead = true;
    } else if (const auto *decl = dyn_cast<DeclStmt>(s)) {
      for (const Decl *d : decl->decls())
        if (const auto *v = dyn_cast<VarDecl>(d)) handle_var(v);
    } else if (const auto *t = dyn_cast<CXXTryStmt>(s)) {
      Flow before = flow_;
      walk(t->getTryBlock());
      Flow after = std::move(flow_);
      for (unsigned h = 0; h < t->getNumHandlers(); ++h) {
        flow_ = before;
        walk(t->getHandler(h)->getHandlerBlock());
        after = merge(after, flow_);
      }
      flow_ = std::move(after);
    } else if (const auto *a = dyn_cast<AttributedStmt>(s)) {
      walk(a->getSubStmt());
    } else if (const auto *l = dyn_cast<LabelStmt>(s)) {
      walk(l->getSubStmt());
    } else if (isa<Expr>(s)) {
      scan(s);
    } else {
      for (const Stmt *child : s->children())
        walk(child);
    }
  }

  WriteCollector &c_;
  Facts &facts_;
  Sinks &sinks_;
  const FunctionDecl *fn_;
  FunctionMarks marks_;
  Flow flow_;
  std::vector<std::pair<const Expr *, bool>> conditions_;
  std::vector<Flow> breaks_;
  std::vector<Flow> switch_entries_;
  std::map<const VarDecl *, const Expr *> aliases_;
  std::set<const VarDecl *> fresh_locals_;
};

void WriteCollector::collect(const FunctionDecl *function, FunctionMarks marks) {
  if (!function || !function->hasBody()) return;
  FunctionWalk walk(*this, function, marks);
  walk.run();
  for (const LambdaExpr *lambda : walk.lambdas)
    collect(lambda->getCallOperator(), marks);
}

const WriteCollector::ReturnedStream &
WriteCollector::returned_stream(const FunctionDecl *function) {
  const FunctionDecl *definition = function->getDefinition();
  if (!definition) definition = function;
  auto [it, fresh] = returned_.try_emplace(definition);
  if (!fresh) return it->second;
  QualType rt = definition->getReturnType();
  if (!definition->hasBody() || !(rt->isLValueReferenceType() || rt->isPointerType()) ||
      !is_stream_like(rt))
    return it->second;
  std::vector<const ReturnStmt *> returns;
  collect_returns(definition->getBody(), returns);
  ReturnedStream result;
  bool agreed = !returns.empty();
  for (const ReturnStmt *r : returns) {
    const Expr *v = r->getRetValue();
    if (!v) continue;
    const Expr *base = v->IgnoreParenImpCasts();
    if (is_stream_shift(base)) base = leftmost_stream_base(base)->IgnoreParenImpCasts();
    if (const auto *u = dyn_cast<UnaryOperator>(base); u && u->getOpcode() == UO_Deref)
      base = u->getSubExpr()->IgnoreParenImpCasts();
    ReturnedStream one;
    if (const auto *ref = dyn_cast<DeclRefExpr>(base)) {
      if (const auto *p = dyn_cast<ParmVarDecl>(ref->getDecl()))
        one.parameter = p->getFunctionScopeIndex();
      else if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()); var && !var->isLocalVarDecl())
        one.sink = facts_.sinks.named(var);
    } else if (const auto *m = dyn_cast<MemberExpr>(base)) {
      if (isa<FieldDecl>(m->getMemberDecl())) one.sink = facts_.sinks.named(m->getMemberDecl());
    }
    if (!one.sink && !one.parameter) agreed = false;
    if (result.sink || result.parameter) {
      if (result.sink != one.sink || result.parameter != one.parameter) agreed = false;
    } else {
      result = one;
    }
  }
  if (agreed) it->second = result;
  return it->second;
}

} // namespace tracelint::analyzer
