#include "clang_helpers.hpp"

#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <llvm/ADT/FoldingSet.h>

namespace tracelint::analyzer {

using namespace clang;

namespace {
// A construction from one value: `std::string(buf)` is std::string(buf, allocator()) in
// libstdc++, its other arguments defaulted; `std::string(buf, n)` is buf's text too.
bool one_argument(const CXXConstructExpr *c) {
  if (c->getNumArgs() == 0) return false;
  // std::string(buf, n): the buffer's text, cut to a length.
  if (c->getNumArgs() >= 2 && is_string_like(c->getType()) &&
      is_string_like(c->getArg(0)->IgnoreParenImpCasts()->getType()) &&
      c->getArg(1)->getType()->isIntegerType() &&
      (c->getNumArgs() == 2 || isa<CXXDefaultArgExpr>(c->getArg(2))))
    return true;
  for (unsigned i = 1; i < c->getNumArgs(); ++i)
    if (!isa<CXXDefaultArgExpr>(c->getArg(i))) return false;
  return true;
}
} // namespace

const Expr *strip(const Expr *e) {
  while (e) {
    e = e->IgnoreParenImpCasts();
    if (const auto *c = dyn_cast<CXXConstructExpr>(e); c && one_argument(c))
      e = c->getArg(0);
    else if (const auto *b = dyn_cast<CXXBindTemporaryExpr>(e))
      e = b->getSubExpr();
    else if (const auto *m = dyn_cast<MaterializeTemporaryExpr>(e))
      e = m->getSubExpr();
    else if (const auto *f = dyn_cast<CXXFunctionalCastExpr>(e))
      e = f->getSubExpr();
    else if (const auto *k = dyn_cast<ConstantExpr>(e))
      e = k->getSubExpr();
    else if (const auto *x = dyn_cast<ExprWithCleanups>(e))
      e = x->getSubExpr();
    else if (const auto *m = dyn_cast<CXXMemberCallExpr>(e);
             m && isa_and_nonnull<CXXConversionDecl>(m->getMethodDecl()) &&
             m->getImplicitObjectArgument())
      e = m->getImplicitObjectArgument(); // an implicit `operator std::string()`
    else
      return e;
  }
  return e;
}

std::optional<std::string> literal_text(const Expr *e) {
  e = strip(e);
  if (!e) return std::nullopt;
  if (const auto *s = dyn_cast<StringLiteral>(e)) {
    if (s->getCharByteWidth() != 1) return std::nullopt;
    return s->getString().str();
  }
  if (const auto *c = dyn_cast<CharacterLiteral>(e)) {
    if (c->getValue() > 0x7f) return std::nullopt;
    return std::string(1, static_cast<char>(c->getValue()));
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const ValueDecl *d = ref->getDecl();
    if (d->getName() == "endl" && d->isInStdNamespace()) return std::string("\n");
    if (const auto *v = dyn_cast<VarDecl>(d);
        v && v->getInit() && (v->isConstexpr() || v->getType().isConstQualified()))
      if (const auto *s = dyn_cast<StringLiteral>(strip(v->getInit()));
          s && s->getCharByteWidth() == 1)
        return s->getString().str();
  }
  return std::nullopt;
}

bool has_annotation(const Decl *d, llvm::StringRef annotation) {
  if (!d) return false;
  for (const auto *attr : d->specific_attrs<AnnotateAttr>())
    if (attr->getAnnotation() == annotation) return true;
  return false;
}

namespace {
QualType plain(QualType t) {
  return t.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}
} // namespace

bool is_string_like(QualType t) {
  t = plain(t);
  if (t.isNull()) return false;
  if (const auto *p = t->getAs<PointerType>()) return p->getPointeeType()->isAnyCharacterType();
  if (const auto *a = t->getAsArrayTypeUnsafe()) return a->getElementType()->isAnyCharacterType();
  const CXXRecordDecl *r = t->getAsCXXRecordDecl();
  if (!r || !r->getIdentifier()) return false;
  llvm::StringRef name = r->getName();
  return name == "basic_string" || name == "basic_string_view" || name == "StringRef" ||
         name == "string_view" || name == "String" || name == "basic_string_ref";
}

bool is_stream_like(QualType t) {
  t = plain(t);
  if (t.isNull()) return false;
  if (t->isDependentType()) return true;
  if (const auto *p = t->getAs<PointerType>()) t = p->getPointeeType();
  return t->isRecordType() && !is_string_like(t);
}

bool is_file_pointer(QualType t) {
  t = plain(t);
  const auto *p = t.isNull() ? nullptr : t->getAs<PointerType>();
  if (!p) return false;
  QualType pointee = p->getPointeeType().getUnqualifiedType();
  if (const auto *td = pointee->getAs<TypedefType>()) return td->getDecl()->getName() == "FILE";
  const RecordDecl *r = pointee->getAsRecordDecl();
  return r && (r->getName() == "_IO_FILE" || r->getName() == "__sFILE" || r->getName() == "FILE");
}

bool is_bool(QualType t) {
  t = plain(t);
  return !t.isNull() && t->isBooleanType();
}

int round_trip_digits(QualType t) {
  t = plain(t);
  if (t.isNull()) return 0;
  const auto *b = t->getAs<BuiltinType>();
  if (!b) return 0;
  switch (b->getKind()) {
  case BuiltinType::Float:
  case BuiltinType::Half:
  case BuiltinType::Float16:
    return 9;
  case BuiltinType::Double:
    return 17;
  case BuiltinType::LongDouble:
  case BuiltinType::Float128:
    return 21;
  default:
    return 0;
  }
}

std::string library_function(const FunctionDecl *f) {
  if (!f) return "";
  const DeclContext *dc = f->getDeclContext();
  while (dc && (dc->isInlineNamespace() || isa<LinkageSpecDecl>(dc)))
    dc = dc->getParent();
  if (dc && dc->isTranslationUnit())
    return f->isExternC() ? f->getNameAsString() : ""; // the C library
  for (const DeclContext *outer = dc; outer; outer = outer->getParent()) {
    const auto *ns = dyn_cast<NamespaceDecl>(outer);
    if (!ns || ns->isInline() || !ns->getIdentifier()) continue;
    const DeclContext *up = ns->getParent();
    while (up && (up->isInlineNamespace() || isa<LinkageSpecDecl>(up)))
      up = up->getParent();
    // std's functions and its classes' methods, fmt's, c10's
    if (up && up->isTranslationUnit() &&
        (ns->getName() == "std" || ns->getName() == "fmt" || ns->getName() == "c10"))
      return ns->getName().str() + "::" + f->getNameAsString();
  }
  return "";
}

bool same_expression(const ASTContext &ctx, const Expr *a, const Expr *b) {
  if (!a || !b) return false;
  llvm::FoldingSetNodeID x, y;
  strip(a)->Profile(x, ctx, true);
  strip(b)->Profile(y, ctx, true);
  return x == y;
}

std::optional<long> constant_int(const Expr *e, const ASTContext &ctx) {
  if (!e || e->isValueDependent() || e->isTypeDependent()) return std::nullopt;
  Expr::EvalResult result;
  if (!e->EvaluateAsInt(result, ctx)) return std::nullopt;
  return result.Val.getInt().getExtValue();
}

const FunctionDecl *enclosing_named_function(const FunctionDecl *f) {
  while (f) {
    const auto *m = dyn_cast<CXXMethodDecl>(f);
    if (!m || !m->getParent()->isLambda()) return f;
    const DeclContext *dc = m->getParent()->getDeclContext();
    while (dc && !isa<FunctionDecl>(dc))
      dc = dc->getParent();
    f = dyn_cast_or_null<FunctionDecl>(dc);
  }
  return f;
}

const Expr *string_of_pointer(const Expr *e) {
  const auto *m = dyn_cast_or_null<CXXMemberCallExpr>(e);
  const CXXMethodDecl *method = m ? m->getMethodDecl() : nullptr;
  if (!method || !method->getIdentifier()) return nullptr;
  llvm::StringRef name = method->getName();
  return name == "c_str" || name == "data" || name == "view" ? m->getImplicitObjectArgument()
                                                             : nullptr;
}

const CXXRecordDecl *printed_record(QualType t) {
  t = t.getNonReferenceType();
  if (const auto *p = t->getAs<PointerType>()) t = p->getPointeeType();
  return t->getAsCXXRecordDecl();
}

void collect_returns(const Stmt *s, std::vector<const ReturnStmt *> &out) {
  if (!s || isa<LambdaExpr>(s)) return;
  if (const auto *r = dyn_cast<ReturnStmt>(s)) out.push_back(r);
  for (const Stmt *child : s->children())
    collect_returns(child, out);
}

} // namespace tracelint::analyzer
