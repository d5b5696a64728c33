#include "printer_facts.hpp"

#include <clang/AST/DeclCXX.h>

namespace tracelint::analyzer {

namespace {

// Overrides of a virtual method share its parameters and its result: a stream passed to
// `Record::print(os)` is the one each override prints to.
const clang::FunctionDecl *root_function(const clang::FunctionDecl *f) {
  const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(f);
  while (method && method->size_overridden_methods() > 0)
    method = *method->begin_overridden_methods();
  return (method ? method : f)->getCanonicalDecl();
}

enum Role { kNamed, kParameter, kReturn, kTemporary, kDiagnostic, kStandardOutput };

} // namespace

int Sinks::add(SinkKind kind, const clang::Decl *decl) {
  entries_.push_back({kind, decl});
  parent_.push_back(static_cast<int>(parent_.size()));
  return static_cast<int>(entries_.size() - 1);
}

int Sinks::named(const clang::Decl *decl) {
  decl = decl->getCanonicalDecl();
  auto [it, fresh] = ids_.try_emplace({decl, kNamed, 0}, 0);
  if (fresh) it->second = add(SinkKind::Named, decl);
  return it->second;
}

int Sinks::parameter(const clang::ParmVarDecl *parm) {
  const auto *owner = llvm::dyn_cast<clang::FunctionDecl>(parm->getDeclContext());
  if (!owner) return named(parm);
  auto [it, fresh] =
      ids_.try_emplace({root_function(owner), kParameter, parm->getFunctionScopeIndex()}, 0);
  if (fresh) it->second = add(SinkKind::Parameter, parm);
  return it->second;
}

int Sinks::returned(const clang::FunctionDecl *function) {
  auto [it, fresh] = ids_.try_emplace({root_function(function), kReturn, 0}, 0);
  if (fresh) it->second = add(SinkKind::Return, function);
  return it->second;
}

int Sinks::temporary() {
  return add(SinkKind::Temporary, nullptr);
}

int Sinks::diagnostic() {
  auto [it, fresh] = ids_.try_emplace({nullptr, kDiagnostic, 0}, 0);
  if (fresh) it->second = add(SinkKind::Diagnostic, nullptr);
  return it->second;
}

int Sinks::standard_output() {
  auto [it, fresh] = ids_.try_emplace({nullptr, kStandardOutput, 0}, 0);
  if (fresh) it->second = add(SinkKind::Named, nullptr);
  return it->second;
}

int Sinks::root(int sink) const {
  auto s = static_cast<std::size_t>(sink);
  while (parent_[s] != static_cast<int>(s)) {
    parent_[s] = parent_[static_cast<std::size_t>(parent_[s])]; // path halving
    s = static_cast<std::size_t>(parent_[s]);
  }
  return static_cast<int>(s);
}

void Sinks::join(int a, int b) {
  // Unnamed streams and std::cerr never print Python: they join nothing.
  for (int s : {a, b})
    if (kind(s) == SinkKind::Temporary || kind(s) == SinkKind::Diagnostic) return;
  int ra = root(a), rb = root(b);
  if (ra == rb) return;
  parent_[static_cast<std::size_t>(rb)] = ra;
  auto from = evidence_.find(rb);
  if (from == evidence_.end()) return;
  Evidence &to = evidence_[ra];
  to.python += from->second.python;
  to.cpp += from->second.cpp;
  to.parses += from->second.parses;
  to.pattern |= from->second.pattern;
  to.annotation |= from->second.annotation;
  to.sets_format |= from->second.sets_format;
  evidence_.erase(from);
}

void Sinks::flow(int source, int target) {
  for (int s : {source, target})
    if (kind(s) == SinkKind::Temporary || kind(s) == SinkKind::Diagnostic) return;
  if (root(source) != root(target)) flows_.emplace_back(source, target);
}

void Sinks::resolve() {
  python_.clear();
  auto cpp = [&](int r) {
    auto it = evidence_.find(r);
    return it != evidence_.end() && it->second.cpp > 0 && !it->second.annotation;
  };
  // Outputs that hold Python text, and those their text flows into.
  std::set<int> holds;
  for (const auto &[r, e] : evidence_)
    if (e.annotation || (e.cpp == 0 && (e.python > 0 || (e.pattern && e.parses > 0))))
      holds.insert(r);
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [source, target] : flows_)
      if (holds.count(root(source)) && !cpp(root(target)) && holds.insert(root(target)).second)
        changed = true;
  }
  // Outputs whose text ends up in Python text: what the printer checks.
  python_ = holds;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto [source, target] : flows_)
      if (python_.count(root(target)) && !cpp(root(source)) && python_.insert(root(source)).second)
        changed = true;
  }
}

bool Sinks::is_python(int sink) const {
  if (kind(sink) == SinkKind::Temporary || kind(sink) == SinkKind::Diagnostic) return false;
  return python_.count(root(sink)) > 0;
}

} // namespace tracelint::analyzer
