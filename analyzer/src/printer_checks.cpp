#include "printer_checks.hpp"

#include "clang_helpers.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Lex/Lexer.h>

#include <functional>
#include <regex>

namespace tracelint::analyzer {

using namespace clang;

namespace {

std::string type_name(int digits) {
  return digits == 9 ? "float" : digits == 21 ? "long double" : "double";
}

void string_literals(const Stmt *s, std::vector<std::string> &out) {
  if (!s) return;
  if (const auto *lit = dyn_cast<StringLiteral>(s); lit && lit->getCharByteWidth() == 1)
    out.push_back(lit->getString().str());
  for (const Stmt *child : s->children())
    string_literals(child, out);
}

// `name` with the expression's source spelling for messages: a variable's or member's name.
std::string spelled(const Expr *e) {
  const Expr *s = strip(e);
  if (const auto *ref = dyn_cast<DeclRefExpr>(s)) return ref->getDecl()->getNameAsString();
  if (const auto *m = dyn_cast<MemberExpr>(s)) return m->getMemberDecl()->getNameAsString();
  if (const auto *call = dyn_cast<CallExpr>(s); call && call->getDirectCallee())
    return call->getDirectCallee()->getNameAsString() + "(...)";
  return "the value";
}

bool is_this_member(const MemberExpr *m) {
  return isa<CXXThisExpr>(m->getBase()->IgnoreParenImpCasts());
}

// The 1/3 a precision keeps: 0.333333 for 6 digits.
std::string third(int digits) {
  return "0." + std::string(static_cast<std::size_t>(std::max(1, std::min(digits, 20))), '3');
}

} // namespace

std::string PrinterChecks::source_text(const Expr *e) const {
  const SourceManager &sm = context_.getSourceManager();
  CharSourceRange range = CharSourceRange::getTokenRange(sm.getSpellingLoc(e->getBeginLoc()),
                                                         sm.getSpellingLoc(e->getEndLoc()));
  bool invalid = false;
  llvm::StringRef text = Lexer::getSourceText(range, sm, context_.getLangOpts(), &invalid);
  if (invalid || text.empty() || text.size() > 60 || text.contains('\n')) return spelled(e);
  return text.str();
}

bool PrinterChecks::debug_text(const FunctionDecl *f, const CXXRecordDecl *printed, bool strong) {
  if (!f) return false;
  const FunctionDecl *def = f->getDefinition();
  if (!def || !def->hasBody()) return false;
  auto key = std::make_pair(def, strong);
  if (auto it = debug_text_.find(key); it != debug_text_.end()) return it->second;
  debug_text_[key] = false;
  // The names a debug repr puts after its bracket: the printed type's, its bases', the class
  // the function belongs to, the types of its parameters.
  std::vector<std::string> names;
  auto add_record = [&](const CXXRecordDecl *r) {
    if (!r || !r->getIdentifier()) return;
    names.push_back(r->getName().str());
    if (r->hasDefinition())
      for (const CXXBaseSpecifier &b : r->bases())
        if (const CXXRecordDecl *base = b.getType()->getAsCXXRecordDecl();
            base && base->getIdentifier())
          names.push_back(base->getName().str());
  };
  add_record(printed);
  if (const auto *m = dyn_cast<CXXMethodDecl>(def)) add_record(m->getParent());
  for (const ParmVarDecl *p : def->parameters())
    if (const CXXRecordDecl *r = printed_record(p->getType());
        r && !is_string_like(p->getType()) && !r->isInStdNamespace())
      add_record(r);
  std::vector<std::string> literals;
  string_literals(def->getBody(), literals);
  static const std::regex keyed(R"((^|[^\w])(name|value)=)");
  bool found = false;
  for (const std::string &lit : literals) {
    for (const std::string &n : names) {
      for (char open : {'<', '['}) {
        std::size_t at = lit.find(std::string(1, open) + n);
        if (at != std::string::npos) {
          std::size_t after = at + 1 + n.size();
          if (after >= lit.size() || !(std::isalnum(static_cast<unsigned char>(lit[after])) ||
                                       lit[after] == '_' || lit[after] == '('))
            found = true;
        }
      }
    }
    if (strong && std::regex_search(lit, keyed)) found = true;
  }
  debug_text_[key] = found;
  return found;
}

bool PrinterChecks::is_repr_function(const FunctionDecl *f) {
  if (direct_repr(f)) return true;
  std::optional<ReprChain> chain = function_chain(f);
  return chain && chain->continues_in.empty();
}

bool PrinterChecks::direct_repr(const FunctionDecl *f) {
  if (!f) return false;
  if (has_annotation(f, "tracelint::repr") ||
      has_annotation(f->getCanonicalDecl(), "tracelint::repr"))
    return true;
  if (f->getIdentifier() && repr_pattern_.match(f->getName())) return true;
  if (!is_string_like(f->getReturnType())) return false;
  return debug_text(f, nullptr, false);
}

std::optional<ReprMessage> PrinterChecks::repr_of(const Expr *e, int depth) {
  const Expr *s = strip(e);
  if (!s || depth > 4) return std::nullopt;
  if (const Expr *text = string_of_pointer(s)) return repr_of(text, depth + 1);
  if (const auto *call = dyn_cast<CallExpr>(s)) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (callee && direct_repr(callee))
      return ReprMessage{"`" + callee->getNameAsString() + "(...)` is a debug repr", {}};
    if (auto chain = function_chain(callee)) return chain_message(s, *chain);
    return std::nullopt;
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
    if (const auto *v = dyn_cast<VarDecl>(ref->getDecl())) {
      auto it = facts_.assignments.find(v);
      if (it != facts_.assignments.end())
        for (const Assignment &a : it->second)
          if (!a.element)
            if (auto inner = repr_of(a.value, depth + 1)) {
              std::size_t is = inner->text.find(" is ");
              inner->text =
                  "`" + v->getNameAsString() + "` holds " +
                  (is == std::string::npos ? inner->text // a chain: `x.toString()` → ... → `repr()`
                                           : inner->text.substr(0, is) + ", a debug repr");
              return inner;
            }
    }
  }
  if (const CXXRecordDecl *r = printed_record(s->getType());
      r && has_annotation(r, "tracelint::repr"))
    return ReprMessage{"`" + r->getNameAsString() + "` prints its debug repr", {}};
  return std::nullopt;
}

const FunctionDecl *PrinterChecks::printing_function(const ValuePiece &v) const {
  const CXXRecordDecl *record = printed_record(v.expr->getType());
  if (!record || is_string_like(v.expr->getType())) return nullptr;
  if (v.how == Conversion::Stream && v.stream_operator &&
      library_function(v.stream_operator).empty() && !v.stream_operator->isInStdNamespace())
    return v.stream_operator;
  if (v.how == Conversion::Fmt)
    if (auto it = formatters_.find(record->getCanonicalDecl()); it != formatters_.end())
      return it->second;
  return nullptr;
}

std::optional<ReprMessage> PrinterChecks::repr_source(const ValuePiece &v) {
  if (!v.expr) return std::nullopt;
  if (auto r = repr_of(v.expr, 0)) return r;
  const FunctionDecl *printer = printing_function(v);
  if (!printer) return std::nullopt;
  const CXXRecordDecl *record = printed_record(v.expr->getType());
  if (has_annotation(printer, "tracelint::repr") || debug_text(printer, record, true))
    return ReprMessage{"`" + record->getNameAsString() + "`'s " +
                           (v.how == Conversion::Stream ? "operator<<" : "formatter") +
                           " prints a debug repr",
                       {}};
  if (auto chain = function_chain(printer)) return chain_message(v.expr, *chain);
  return std::nullopt;
}

bool PrinterChecks::raw_container(const Expr *e, int depth) {
  const Expr *s = strip(e);
  if (!s || depth > 4) return false;
  if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
    const auto *v = dyn_cast<VarDecl>(ref->getDecl());
    if (!v) return false;
    if (isa<ParmVarDecl>(v)) return true;
    auto it = facts_.assignments.find(v);
    if (it == facts_.assignments.end()) return false;
    for (const Assignment &a : it->second)
      if (!a.element && raw_container(a.value, depth + 1)) return true;
    return false;
  }
  if (const auto *m = dyn_cast<MemberExpr>(s)) return is_this_member(m);
  if (const auto *call = dyn_cast<CallExpr>(s)) { // split(comment, '\n')
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee || isa<CXXMemberCallExpr>(call)) return false;
    for (const Expr *a : call->arguments())
      if (is_string_like(a->getType()))
        if (auto inner = raw_text(a, depth + 1); inner && inner->own) return true;
  }
  return false;
}

std::optional<PrinterChecks::RawText> PrinterChecks::raw_text(const Expr *e, int depth) {
  const Expr *s = strip(e);
  if (!s || depth > 4 || literal_text(s)) return std::nullopt;
  if (const auto *m = dyn_cast<CXXMemberCallExpr>(s)) {
    const CXXMethodDecl *method = m->getMethodDecl();
    llvm::StringRef name = method && method->getIdentifier() ? method->getName() : "";
    const Expr *object = m->getImplicitObjectArgument();
    if (object && is_string_like(object->getType()) &&
        (name == "c_str" || name == "data" || name == "substr" || name == "view" || name == "str"))
      return raw_text(object, depth + 1);
    return std::nullopt;
  }
  if (!is_string_like(s->getType())) return std::nullopt; // a template's T may be a number
  if (const auto *ref = dyn_cast<DeclRefExpr>(s)) {
    const auto *v = dyn_cast<VarDecl>(ref->getDecl());
    if (!v) return std::nullopt;
    if (isa<ParmVarDecl>(v)) return RawText{v->getNameAsString(), true};
    auto it = facts_.assignments.find(v);
    if (it == facts_.assignments.end()) return std::nullopt;
    for (const Assignment &a : it->second) {
      if (a.element) {
        if (raw_container(a.value, depth + 1)) return RawText{v->getNameAsString(), true};
      } else if (auto inner = raw_text(a.value, depth + 1)) {
        return RawText{v->getNameAsString(), inner->own};
      }
    }
    return std::nullopt;
  }
  if (const auto *m = dyn_cast<MemberExpr>(s))
    return RawText{is_this_member(m) ? m->getMemberDecl()->getNameAsString() : source_text(m),
                   is_this_member(m)};
  if (const auto *op = dyn_cast<CXXOperatorCallExpr>(s);
      op && op->getOperator() == OO_Subscript && op->getNumArgs() == 2)
    return raw_container(op->getArg(0), depth + 1)
               ? std::optional(RawText{spelled(op->getArg(0)) + "[...]", true})
               : std::nullopt;
  if (const auto *call = dyn_cast<CallExpr>(s); call && !isa<CXXOperatorCallExpr>(call)) {
    const FunctionDecl *callee = call->getDirectCallee();
    if (!callee) return std::nullopt;
    llvm::StringRef name = callee->getIdentifier() ? callee->getName() : "";
    for (llvm::StringRef safe :
         {"escape", "quote", "repr", "sanitize", "literal", "identifier", "python"})
      if (name.contains_insensitive(safe)) return std::nullopt;
    for (const Expr *a : call->arguments())
      if (is_string_like(a->getType()))
        if (auto inner = raw_text(a, depth + 1)) return RawText{name.str() + "(...)", inner->own};
  }
  return std::nullopt;
}

void PrinterChecks::check_bool(const Write &w, const ValuePiece &v, std::vector<Finding> &out) {
  if (v.how == Conversion::Alternatives) {
    if (v.alternatives.size() == 2 &&
        ((v.alternatives[0] == "true" && v.alternatives[1] == "false") ||
         (v.alternatives[0] == "false" && v.alternatives[1] == "true")))
      out.push_back({"TLA003", v.expr,
                     "prints `true` or `false` into Python, where they are undefined names; "
                     "Python's are `True` and `False`"});
    return;
  }
  if (!v.expr || !is_bool(v.expr->getType())) return;
  const Sinks &sinks = facts_.sinks;
  switch (v.how) {
  case Conversion::Stream:
    if (v.stream.boolalpha) return;
    if (v.stream.from_entry && sinks.evidence_of(w.sink).sets_format) return;
    out.push_back({"TLA003", v.expr,
                   "a bool streamed without std::boolalpha prints 0 or 1, not False or True"});
    return;
  case Conversion::ToString:
    out.push_back({"TLA003", v.expr, "std::to_string of a bool prints 0 or 1, not False or True"});
    return;
  case Conversion::Printf:
    if (v.field && std::string_view("diuxXc").find(v.field->type) != std::string_view::npos)
      out.push_back({"TLA003", v.expr,
                     std::string("%") + v.field->type +
                         " of a bool prints 0 or 1, not False or True; print "
                         "`b ? \"True\" : \"False\"` with %s"});
    return;
  case Conversion::Fmt:
    if (v.field && (v.field->type == 0 || v.field->type == 's'))
      out.push_back({"TLA003", v.expr,
                     "`{}` of a bool prints `true` or `false`, undefined names in Python; print "
                     "`b ? \"True\" : \"False\"`"});
    else if (v.field && std::string_view("dxXbBo").find(v.field->type) != std::string_view::npos)
      out.push_back(
          {"TLA003", v.expr, "an integer format of a bool prints 0 or 1, not False or True"});
    return;
  default:
    return;
  }
}

// The function parses the buffer it printed the value into and compares the result with the
// value (`if (strtof(buffer, 0) != f)`, then prints it again with more digits): pnnx's
// float_to_string keeps a short text only where it round-trips.
bool PrinterChecks::round_trip_checked(const Write &w, const ValuePiece &v) const {
  const auto *buffer = dyn_cast_or_null<VarDecl>(facts_.sinks.decl(w.sink));
  if (!buffer || !w.function || !w.function->hasBody()) return false;
  bool found = false;
  std::function<void(const Stmt *)> walk = [&](const Stmt *s) {
    if (!s || found) return;
    if (const auto *cmp = dyn_cast<BinaryOperator>(s);
        cmp && (cmp->getOpcode() == BO_NE || cmp->getOpcode() == BO_EQ)) {
      for (auto [parsed, value] :
           {std::pair(cmp->getLHS(), cmp->getRHS()), std::pair(cmp->getRHS(), cmp->getLHS())}) {
        const auto *call = dyn_cast<CallExpr>(strip(parsed));
        const FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
        if (!callee || !callee->getIdentifier() || call->getNumArgs() == 0) continue;
        llvm::StringRef name = callee->getName();
        bool parses = name == "strtof" || name == "strtod" || name == "strtold" || name == "atof" ||
                      name == "stof" || name == "stod" || name == "stold";
        const auto *arg = dyn_cast<DeclRefExpr>(strip(call->getArg(0)));
        if (parses && arg && arg->getDecl() == buffer && same_expression(context_, value, v.expr))
          found = true;
      }
    }
    for (const Stmt *child : s->children())
      walk(child);
  };
  walk(w.function->getBody());
  return found;
}

void PrinterChecks::check_float(const Write &w, const ValuePiece &v, std::vector<Finding> &out) {
  if (!v.expr || v.nonfinite_guard || round_trip_checked(w, v)) return;
  int digits = round_trip_digits(v.expr->getType());
  if (digits == 0) return;
  std::string type = type_name(digits);
  enum class Kind { General, Fixed, Scientific, Lossless, Unknown } kind = Kind::Unknown;
  int precision = 6;
  std::string how, fix;
  switch (v.how) {
  case Conversion::Stream: {
    const StreamFormat &f = v.stream;
    if (f.from_entry && facts_.sinks.evidence_of(w.sink).sets_format) return;
    if (!f.precision) return; // set to something we cannot compute
    precision = *f.precision;
    if (precision >= kMaxDigits10) return;
    using N = StreamFormat::Notation;
    kind = f.notation == N::Hex          ? Kind::Lossless
           : f.notation == N::Fixed      ? Kind::Fixed
           : f.notation == N::Scientific ? Kind::Scientific
                                         : Kind::General;
    how = precision == 6 && f.notation == N::General
              ? "streamed with the default precision (6)"
              : "streamed with precision " + std::to_string(precision);
    if (f.notation == N::Fixed) how += " in std::fixed";
    if (f.notation == N::Scientific) how += " in std::scientific";
    fix = "use std::setprecision(std::numeric_limits<" + type +
          ">::max_digits10), std::to_chars or std::format(\"{}\")";
    break;
  }
  case Conversion::ToString:
    kind = Kind::Fixed;
    how = "printed by std::to_string (%f: 6 decimals)";
    fix = "use std::to_chars or std::format(\"{}\") (shortest round trip)";
    break;
  case Conversion::Printf: {
    if (!v.field || v.field->dynamic_precision) return;
    char t = v.field->type;
    precision = v.field->precision.value_or(6);
    how = std::string("printed with %") +
          (v.field->precision ? "." + std::to_string(*v.field->precision) : std::string()) +
          v.field->length + t;
    fix = "use %.17g (or %a)";
    if (t == 'f' || t == 'F') kind = Kind::Fixed;
    if (t == 'e' || t == 'E') kind = Kind::Scientific;
    if (t == 'g' || t == 'G') kind = Kind::General;
    if (t == 'a' || t == 'A') kind = Kind::Lossless;
    break;
  }
  case Conversion::Fmt: {
    if (!v.field || v.field->dynamic_precision) return;
    char t = v.field->type;
    if (t == 0 && !v.field->precision) return; // `{}`: the shortest text that round-trips
    precision = v.field->precision.value_or(6);
    how = "printed with {:" +
          (v.field->precision ? "." + std::to_string(*v.field->precision) : std::string()) +
          (t ? std::string(1, t) : std::string()) + "}";
    fix = "use {} (shortest round trip) or {:.17g}";
    if (t == 'f' || t == 'F') kind = Kind::Fixed;
    if (t == 'e' || t == 'E') kind = Kind::Scientific;
    if (t == 'g' || t == 'G' || t == 0) kind = Kind::General;
    if (t == 'a' || t == 'A') kind = Kind::Lossless;
    break;
  }
  default:
    return;
  }
  std::string message;
  switch (kind) {
  case Kind::Lossless:
  case Kind::Unknown:
    return;
  case Kind::General: {
    int kept = std::max(precision, 1);
    if (kept >= digits) return;
    message = "a " + type + " " + how + " does not round-trip: it keeps " + std::to_string(kept) +
              " of the " + std::to_string(digits) + " significant digits a " + type +
              " needs (1/3 prints " + third(kept) + "), digits " + std::to_string(kept + 1) + "-" +
              std::to_string(digits) + " are lost; " + fix;
    break;
  }
  case Kind::Scientific: {
    int kept = precision + 1;
    if (kept >= digits) return;
    message = "a " + type + " " + how + " does not round-trip: it keeps " + std::to_string(kept) +
              " of the " + std::to_string(digits) + " significant digits a " + type +
              " needs, digits " + std::to_string(kept + 1) + "-" + std::to_string(digits) +
              " are lost; " + fix;
    break;
  }
  case Kind::Fixed:
    // An integral value (checked on the path) prints exactly in fixed notation.
    if (v.integral_guard || precision >= 17) return;
    message = "a " + type + " " + how + " does not round-trip: it keeps " +
              std::to_string(precision) + (precision == 1 ? " digit" : " digits") +
              " after the point (1/3 prints " + third(precision) + ", 1e-" +
              std::to_string(precision + 1) + " prints " +
              (precision ? "0." + std::string(static_cast<std::size_t>(precision), '0') : "0") +
              "); " + fix;
    break;
  }
  out.push_back({"TLA003", v.expr, message});
}

void PrinterChecks::check_strings(const Write &w, std::size_t index, std::vector<Finding> &out) {
  const ValuePiece &v = w.values[index];
  if (!v.expr || v.how == Conversion::Alternatives) return;
  const ValueContext &ctx = v.context;
  if (!ctx.known || ctx.comment) return;
  bool text_conversion =
      v.how == Conversion::Stream || v.how == Conversion::Concat ||
      (v.how == Conversion::Printf && v.field && v.field->type == 's') ||
      (v.how == Conversion::Fmt && v.field && (v.field->type == 0 || v.field->type == 's'));
  if (!text_conversion) return;
  std::optional<RawText> raw = raw_text(v.expr, 0);
  if (!raw) return;
  // Where the value sits in the write: between two literals that quote it (`'%s'`).
  std::string before, after;
  for (std::size_t k = 0; k < w.text.size(); ++k)
    if (!w.text[k].literal && !w.text[k].indentation && w.text[k].value == index) {
      if (k > 0 && w.text[k - 1].literal) before = *w.text[k - 1].literal;
      if (k + 1 < w.text.size() && w.text[k + 1].literal) after = *w.text[k + 1].literal;
      break;
    }
  bool quoted_here = ctx.quote && !before.empty() && !after.empty() && before.back() == ctx.quote &&
                     after.front() == ctx.quote;
  if (ctx.quote && (raw->own || (quoted_here && !ctx.triple))) {
    if (ctx.triple)
      out.push_back({"TLA004", v.expr,
                     "`" + raw->name +
                         "` is printed inside a \"\"\" docstring without escaping: a `\"\"\"` or a "
                         "trailing backslash in it ends the string early and the rest runs as "
                         "code; escape backslashes and `\"\"\"` first"});
    else
      out.push_back({"TLA004", v.expr,
                     "`" + raw->name + "` is printed inside a " + std::string(1, ctx.quote) +
                         "..." + std::string(1, ctx.quote) +
                         " Python string without escaping: a quote, backslash or newline in it "
                         "breaks the literal; print an escaped repr of it instead"});
    return;
  }
  // A variable named for a Python name or expression (`weight_name`, `rhs_expr`) holds
  // Python text: printed bare after `name=` it is right.
  bool python_text = false;
  for (llvm::StringRef word : {"name", "expr", "code", "python", "repr", "ident", "var", "proxy",
                               "tensor", "arg", "input", "output", "result", "symbol"})
    python_text |= llvm::StringRef(raw->name).contains_insensitive(word);
  if (!ctx.quote && ctx.after_equals && !ctx.before_quote && !python_text) {
    std::size_t tail = before.size() > 16 ? before.size() - 16 : 0;
    out.push_back({"TLA003", v.expr,
                   "a std::string streamed unquoted after '" + before.substr(tail) +
                       "' prints a bare word where Python expects a string literal; quote it "
                       "(an escaped repr)"});
  }
}

void PrinterChecks::check(const Write &w, std::vector<Finding> &out) {
  // A debug repr's own text: where it is printed into Python is the finding (TLA001).
  if (is_repr_function(enclosing_named_function(w.function))) return;
  for (std::size_t i = 0; i < w.values.size(); ++i) {
    const ValuePiece &v = w.values[i];
    if (auto repr = repr_source(v))
      out.push_back({"TLA001", v.expr, repr->continues ? repr->text : repr->text + kReprAdvice,
                     repr->continues});
    check_bool(w, v, out);
    check_float(w, v, out);
    check_strings(w, i, out);
    if (auto pending = result_elsewhere(v.expr))
      out.push_back({"", v.expr, "`" + source_text(v.expr) + "`", pending, true});
  }
  for (const std::string &line : w.printed.lines)
    if (!parser_.line_is_valid(line))
      out.push_back({"TLA002", w.anchor,
                     "this printer's template is not valid Python: `" + line +
                         "` (each printed value shown as `x`)"});
}

} // namespace tracelint::analyzer
