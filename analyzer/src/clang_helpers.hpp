#pragma once
// Small questions about Clang's AST that the collector and the checks share.
#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>

#include <optional>
#include <string>
#include <vector>

namespace tracelint::analyzer {

// The expression without parentheses, implicit conversions, temporaries and one-argument
// constructions (`std::string(x)`, a format-string wrapper).
const clang::Expr *strip(const clang::Expr *e);

// The text of a string or character literal, `std::endl`, or a constant initialised with a
// literal (`static constexpr const char *kTab = "    "`).
std::optional<std::string> literal_text(const clang::Expr *e);

bool has_annotation(const clang::Decl *d, llvm::StringRef annotation);

// std::string, std::string_view, llvm::StringRef, c10::string_view, tvm's String, `const
// char *`, `char[N]`.
bool is_string_like(clang::QualType t);
// A class (a stream, a buffer, a string builder) or a type not known yet in a template.
bool is_stream_like(clang::QualType t);
bool is_file_pointer(clang::QualType t);
bool is_bool(clang::QualType t);
// float, double, long double: the significant digits it needs to round-trip (9, 17, 21), or 0.
int round_trip_digits(clang::QualType t);

// The callee's name when it is a function of the C library, of std, fmt or c10 (not one of
// the printer's own), else "".
std::string library_function(const clang::FunctionDecl *f);

// Two expressions compute the same value (the same tree, canonically).
bool same_expression(const clang::ASTContext &ctx, const clang::Expr *a, const clang::Expr *b);

// The integer the expression evaluates to at compile time.
std::optional<long> constant_int(const clang::Expr *e, const clang::ASTContext &ctx);

// The string whose characters `s.c_str()`, `s.data()` or `s.view()` gives, or nullptr.
const clang::Expr *string_of_pointer(const clang::Expr *e);

// The class of a value, a reference or a pointer to one.
const clang::CXXRecordDecl *printed_record(clang::QualType t);

// The return statements of a body, not those of the lambdas in it.
void collect_returns(const clang::Stmt *s, std::vector<const clang::ReturnStmt *> &out);

// The function whose body encloses a lambda's, or f itself.
const clang::FunctionDecl *enclosing_named_function(const clang::FunctionDecl *f);

} // namespace tracelint::analyzer
