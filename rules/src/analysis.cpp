#include "tracelint/rules/analysis.hpp"

#include "tracelint/core/type_string.hpp"

#include <cctype>
#include <map>

namespace tracelint {

namespace {

const std::map<std::string, std::string> &module_imports() {
  static const std::map<std::string, std::string> modules = {
      {"torch", "import torch"},
      {"thunder", "import thunder"},
      {"ltorch", "import thunder.torch as ltorch"},
      {"prims", "import thunder.core.prims as prims"},
      {"clang", "import thunder.clang as clang"},
      {"devices", "import thunder.core.devices as devices"},
      {"dtypes", "import thunder.core.dtypes as dtypes"},
      {"operator", "import operator"},
      {"math", "import math"},
      {"Tensor", "from torch import Tensor"},
      {"no_autocast", "from thunder.executors.torchex import no_autocast"},
  };
  return modules;
}

// Thunder names context objects <qualified type>_<n>: _torch_memory_format_0.
bool looks_like_context_object(const std::string &name) {
  if (name.size() < 4 || name[0] != '_')
    return false;
  std::size_t underscore = name.rfind('_');
  if (underscore == 0 || underscore + 1 == name.size())
    return false;
  for (std::size_t i = underscore + 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i])))
      return false;
  return true;
}

// Thunder's generated proxy names: a letter and a number (i0, t12, C0).
bool looks_like_proxy_name(const std::string &name) {
  if (name.size() < 2 || !std::isalpha(static_cast<unsigned char>(name[0])))
    return false;
  for (std::size_t i = 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i])))
      return false;
  return true;
}

class TraceWalker {
public:
  TraceWalker(const SourceText &source, const AnalysisOptions &options, TraceFacts &facts)
      : source_(source), options_(options), facts_(facts) {}

  void define_import(const std::string &name, Span span) { defined_[name] = span; }

  void decorators(const Trace &t) {
    for (const Value &d : t.decorators)
      use(d, true);
  }

  void parameters(const Trace &t) {
    for (const Parameter &p : t.parameters)
      defined_[p.name] = p.span;
  }

  void body(const std::vector<Statement> &statements) {
    for (const Statement &s : statements)
      statement(s);
  }

  // Subsymbol lines alone: only their own bindings count as definitions.
  void orphans(const std::vector<Statement> &statements) {
    duplicate_siblings(statements);
    for (const Statement &s : statements)
      bind_subsymbol_names(s);
    for_each_statement(statements, [&](const Statement &s) { check_type_comment(s); });
  }

private:
  void statement(const Statement &s) {
    switch (s.kind) {
    case Statement::Kind::AnnotationComment:
      annotation_comment(s);
      break;
    case Statement::Kind::AnnotatedAssign:
      use(s.value, false);
      define(*s.target);
      annotate(s.target->name, *s.annotation);
      break;
    case Statement::Kind::BoundSymbol:
      use(s.value, false);
      if (s.target) {
        arity(s);
        unpack_source(s);
        define(*s.target);
      }
      duplicate_siblings(s.subsymbols, s.target ? &*s.target : nullptr);
      for (const Statement &sub : s.subsymbols)
        bind_subsymbol_names(sub);
      check_type_comment(s);
      for_each_statement(s.subsymbols, [&](const Statement &sub) { check_type_comment(sub); });
      if (s.target && s.target->kind == Target::Kind::Name && s.type_comment &&
          s.type_comment->type)
        remember_type(s.target->name, *s.type_comment->type);
      remember_shape_alias(s);
      break;
    case Statement::Kind::Delete:
      for (const Target &t : s.deleted) {
        check(t.name, t.span, false);
        defined_.erase(t.name);
        deleted_[t.name] = s.span;
      }
      break;
    case Statement::Kind::Return:
      if (s.has_value)
        use(s.value, false);
      break;
    case Statement::Kind::Raw: // not modelled (TL009), but what it assigns is defined
      if (s.target)
        define(*s.target);
      break;
    default:
      break;
    }
  }

  void annotation_comment(const Statement &s) {
    if (!s.annotation)
      return; // untyped old-style "# a": nothing to check
    if (!defined_.count(s.annotated_name) && !options_.context_names.count(s.annotated_name))
      facts_.stray_annotations.push_back({s.annotated_name, s.annotated_name_span});
    annotate(s.annotated_name, *s.annotation);
  }

  // An input's annotation: its symbolic dims are carried by the input, and a Collection
  // must be unpacked before its elements are used.
  void annotate(const std::string &name, const TypeText &text) {
    Result<ProxyType> type = parse_type_string(text.text);
    if (!type)
      return;
    types_[name] = *type;
    if (type->kind == ProxyKind::Collection && defined_.count(name))
      collections_[name] = text.span;
    for (const Dim &d : type->shape)
      if (d.symbolic && !defined_.count(d.symbol))
        shape_symbols_.emplace(d.symbol, std::make_pair(dim_span(text, d), name));
  }

  void remember_type(const std::string &name, const TypeText &text) {
    if (Result<ProxyType> type = parse_type_string(text.text))
      types_[name] = *type;
  }

  Span dim_span(const TypeText &text, const Dim &d) const {
    return source_.span(text.span.begin + d.offset, text.span.begin + d.offset + d.length);
  }

  // obj = a.shape: obj has a's rank.
  void remember_shape_alias(const Statement &s) {
    if (!s.target || s.target->kind != Target::Kind::Name)
      return;
    if (std::optional<std::size_t> n = known_length(s.value))
      lengths_[s.target->name] = {*n, length_span(s.value)};
  }

  std::optional<std::size_t> rank_of(const Value &v) const {
    if (v.kind != ValueKind::Name)
      return std::nullopt;
    auto it = types_.find(v.text);
    if (it == types_.end() || it->second.kind != ProxyKind::Tensor)
      return std::nullopt;
    return it->second.shape.size();
  }

  std::optional<std::size_t> known_length(const Value &v) const {
    if (v.kind == ValueKind::Tuple || v.kind == ValueKind::List)
      return v.items.size();
    if (v.kind == ValueKind::Attribute && v.text == "shape")
      return rank_of(v.items.front());
    if (v.kind == ValueKind::Call && v.positional_count() == 1) {
      std::string callee = v.callee().qualified_name();
      if (callee == "prims.shape" || callee == "ltorch.shape")
        return rank_of(v.arg(0));
    }
    if (v.kind == ValueKind::Name) {
      auto it = lengths_.find(v.text);
      if (it != lengths_.end())
        return it->second.first;
    }
    return std::nullopt;
  }

  Span length_span(const Value &v) const {
    const Value *tensor = nullptr;
    if (v.kind == ValueKind::Attribute)
      tensor = &v.items.front();
    else if (v.kind == ValueKind::Call && v.positional_count() == 1)
      tensor = &v.arg(0);
    else if (v.kind == ValueKind::Name && lengths_.count(v.text))
      return lengths_.at(v.text).second;
    return tensor ? tensor->span : v.span;
  }

  void arity(const Statement &s) {
    if (s.target->kind == Target::Kind::Name)
      return;
    std::optional<std::size_t> expected = known_length(s.value);
    if (expected && *expected != s.target->elements.size())
      facts_.arity.push_back({s.target->span, s.target->elements.size(), *expected,
                              s.value.kind == ValueKind::Name ? s.value.text
                                                              : print_value(s.value),
                              length_span(s.value)});
  }

  void unpack_source(const Statement &s) {
    if (s.target->kind == Target::Kind::Name || s.value.kind != ValueKind::Name)
      return;
    collections_.erase(s.value.text);
    bool placeholder = false;
    for (const Target &e : s.target->elements)
      placeholder |= e.is_placeholder();
    if (placeholder && !dropping_unpack_)
      dropping_unpack_ = std::make_pair(s.span, s.value.text);
  }

  void define(const Target &t) {
    for (const Target *n : t.bound_names()) {
      if (auto it = defined_.find(n->name); it != defined_.end())
        facts_.redefinitions.push_back({n->name, n->span, it->second, false, false});
      else if (auto d = deleted_.find(n->name); d != deleted_.end())
        facts_.redefinitions.push_back({n->name, n->span, d->second, false, true});
      defined_[n->name] = n->span;
      deleted_.erase(n->name);
    }
  }

  // Subsymbols of one bound symbol assign each name once, except the parent's own outputs,
  // which the decomposition may produce in steps.
  void duplicate_siblings(const std::vector<Statement> &subs, const Target *parent = nullptr) {
    std::set<std::string> outputs;
    if (parent)
      for (const Target *n : parent->bound_names())
        outputs.insert(n->name);
    std::map<std::string, Span> seen;
    for (const Statement &s : subs) {
      if (s.target)
        for (const Target *n : s.target->bound_names()) {
          auto [it, fresh] = seen.emplace(n->name, n->span);
          if (!fresh && !outputs.count(n->name))
            facts_.redefinitions.push_back({n->name, n->span, it->second, true, false});
        }
      duplicate_siblings(s.subsymbols, s.target ? &*s.target : nullptr);
    }
  }

  void bind_subsymbol_names(const Statement &s) {
    if (s.target)
      for (const Target *n : s.target->bound_names())
        subsymbol_bound_.insert(n->name);
    for (const Statement &sub : s.subsymbols)
      bind_subsymbol_names(sub);
  }

  void check_type_comment(const Statement &s) {
    if (!s.type_comment || !s.type_comment->type)
      return;
    Result<ProxyType> type = parse_type_string(s.type_comment->type->text);
    if (!type)
      return;
    for (const Dim &d : type->shape) {
      if (!d.symbolic || defined_.count(d.symbol) || shape_symbols_.count(d.symbol) ||
          subsymbol_bound_.count(d.symbol) || options_.context_names.count(d.symbol))
        continue;
      facts_.undefined_symbols.push_back(
          {d.symbol, dim_span(*s.type_comment->type, d), s.type_comment->name});
    }
  }

  void use(const Value &v, bool callee) {
    switch (v.kind) {
    case ValueKind::Name:
      check(v.text, v.span, callee);
      return;
    case ValueKind::Attribute:
      use(v.items.front(), callee);
      return;
    case ValueKind::Call:
      use(v.callee(), true);
      for (std::size_t i = 1; i < v.items.size(); ++i)
        use(v.items[i], false);
      return;
    default:
      for (const Value &child : v.items)
        use(child, false);
    }
  }

  void check(const std::string &name, Span span, bool callee) {
    if (defined_.count(name) || options_.context_names.count(name))
      return;
    if (auto d = deleted_.find(name); d != deleted_.end()) {
      facts_.undefined.push_back({name, span, UseProblem::AfterDelete, d->second, ""});
      return;
    }
    if (is_python_builtin(name))
      return;
    if (module_imports().count(name)) {
      facts_.context.push_back({ContextName::Kind::Module, name, span});
      return;
    }
    if (callee) {
      facts_.context.push_back({ContextName::Kind::Callable, name, span});
      return;
    }
    if (looks_like_context_object(name)) {
      facts_.context.push_back({ContextName::Kind::Object, name, span});
      return;
    }
    if (auto s = shape_symbols_.find(name); s != shape_symbols_.end()) {
      facts_.undefined.push_back(
          {name, span, UseProblem::ImplicitShapeSymbol, s->second.first, s->second.second});
      return;
    }
    if (dropping_unpack_ && looks_like_proxy_name(name)) {
      facts_.undefined.push_back({name, span, UseProblem::DroppedByUnpack, dropping_unpack_->first,
                                  dropping_unpack_->second});
      return;
    }
    if (!collections_.empty() && looks_like_proxy_name(name)) {
      auto first = collections_.begin();
      facts_.undefined.push_back(
          {name, span, UseProblem::CollectionNotUnpacked, first->second, first->first});
      return;
    }
    facts_.undefined.push_back({name, span, UseProblem::NeverDefined, {}, ""});
  }

  const SourceText &source_;
  const AnalysisOptions &options_;
  TraceFacts &facts_;
  std::map<std::string, Span> defined_;
  std::map<std::string, Span> deleted_;
  std::map<std::string, std::pair<Span, std::string>> shape_symbols_;
  std::map<std::string, Span> collections_;
  std::map<std::string, ProxyType> types_;
  std::map<std::string, std::pair<std::size_t, Span>> lengths_;
  std::set<std::string> subsymbol_bound_;
  std::optional<std::pair<Span, std::string>> dropping_unpack_;
};

} // namespace

const std::string *known_module_import(const std::string &name) {
  auto it = module_imports().find(name);
  return it == module_imports().end() ? nullptr : &it->second;
}

bool is_python_builtin(const std::string &name) {
  static const std::set<std::string> builtins = {
      "abs",      "all",       "any",        "bool",      "bytes",    "callable", "chr",
      "complex",  "dict",      "dir",        "divmod",    "enumerate", "Ellipsis", "False",
      "filter",   "float",     "frozenset",  "getattr",   "globals",  "hasattr",  "hash",
      "id",       "int",       "isinstance", "issubclass", "iter",    "len",      "list",
      "locals",   "map",       "max",        "min",       "next",     "None",     "object",
      "ord",      "pow",       "print",      "range",     "repr",     "reversed", "round",
      "set",      "setattr",   "slice",      "sorted",    "str",      "sum",      "super",
      "True",     "tuple",     "type",       "vars",      "zip",      "NotImplemented",
      "Exception", "ValueError", "TypeError", "RuntimeError", "AssertionError", "__import__"};
  return builtins.count(name) > 0;
}

Analysis analyze(const ParsedFile &parsed, const AnalysisOptions &options) {
  Analysis analysis;
  std::vector<std::pair<std::string, Span>> module_names; // imports seen so far in the file
  for (const Trace &trace : parsed.file.traces) {
    for (const Import *import : trace.imports())
      for (const std::string &name : import->bound_names())
        module_names.emplace_back(name, import->span);
    TraceFacts facts;
    facts.trace = &trace;
    TraceWalker walker(parsed.source, options, facts);
    for (auto &[name, span] : module_names)
      walker.define_import(name, span);
    walker.decorators(trace);
    walker.parameters(trace);
    walker.body(trace.body);
    analysis.traces.push_back(std::move(facts));
  }
  TraceWalker orphans(parsed.source, options, analysis.orphans);
  orphans.orphans(parsed.orphan_subsymbols);
  return analysis;
}

} // namespace tracelint
