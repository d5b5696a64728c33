#include "tracelint/rules/analysis.hpp"

#include "tracelint/core/type_string.hpp"

#include "tracelint/core/name_table.hpp"

#include <fnmatch.h>

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

} // namespace

// Follows one trace's names statement by statement.
class TraceWalker {
public:
  TraceWalker(const SourceText &source, const AnalysisOptions &options, TraceFacts &facts)
      : source_(source), options_(options), traits_(dialect_traits(options.dialect)),
        facts_(facts) {}

  void define_import(const std::string &name, Span span) { set_defined(name, span); }

  void decorators(const Trace &t) {
    for (const Value &d : t.decorators)
      use(d, true);
  }

  void parameters(const Trace &t) {
    for (const Parameter &p : t.parameters)
      set_defined(p.name, p.span);
  }

  void body(const std::vector<Statement> &statements) {
    for (const Statement &s : statements)
      statement(s);
  }

  // Subsymbol lines alone: only their own bindings count as definitions.
  void orphans(const std::vector<Statement> &statements) {
    duplicate_siblings(statements);
    std::vector<Typed> typed;
    for_each_statement(statements, [&](const Statement &s) { typed.push_back(typed_of(s)); });
    for (const Typed &t : typed)
      bind_subsymbol_names(t);
    for (const Typed &t : typed)
      check_type_comment(t);
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
    case Statement::Kind::BoundSymbol: {
      if (frees(s)) {
        free(*s.target, s.span);
        break;
      }
      use(s.value, false);
      if (s.target) {
        unpack_length(s);
        unpack_source(s);
        define(*s.target);
      }
      duplicate_siblings(s.subsymbols, s.target ? &*s.target : nullptr);
      // The statement, then its subsymbols depth first, each type comment parsed once.
      std::vector<Typed> typed;
      for_each_statement(s, [&](const Statement &t) { typed.push_back(typed_of(t)); });
      for (std::size_t i = 1; i < typed.size(); ++i)
        bind_subsymbol_names(typed[i]);
      for (const Typed &t : typed)
        check_type_comment(t);
      if (s.target && s.target->kind == Target::Kind::Name && typed.front().type)
        remember_rank(s.target->name, *typed.front().type);
      remember_shape_alias(s);
      break;
    }
    case Statement::Kind::Delete:
      for (const Target &t : s.deleted) {
        check(t.name, t.span, false);
        NameState &state = names_[t.name];
        state.defined = {};
        state.deleted = Where::of(s.span);
        state.freed_by_none = false;
      }
      break;
    case Statement::Kind::Return:
      if (s.has_value) use(s.value, false);
      break;
    case Statement::Kind::Raw: // not modelled (TL009), but what it reads and assigns counts
      if (traits_.none_frees && s.assigns_none && s.target) {
        free(*s.target, s.span);
        for (const Target &t : s.chained_targets)
          free(t, s.span);
        break;
      }
      for (const Value &read : s.reads)
        check(read.text, read.span, false);
      if (s.target) define(*s.target);
      for (const Target &t : s.chained_targets)
        define(t);
      break;
    default:
      break;
    }
  }

  // fx frees a value by rebinding its name to None: `add = abs_1 + 1;  abs_1 = None`.
  bool frees(const Statement &s) const {
    return traits_.none_frees && s.target && s.target->kind == Target::Kind::Name &&
           s.value.kind == ValueKind::None && !s.type_comment;
  }
  void free(const Target &t, Span where) {
    t.for_each_bound_name([&](const Target &n) {
      NameState &state = names_[n.name];
      state.defined = {};
      state.deleted = Where::of(where);
      state.freed_by_none = true;
    });
  }

  void annotation_comment(const Statement &s) {
    if (!s.annotation) return; // untyped old-style "# a": nothing to check
    if (!is_defined(s.annotated_name) && !options_.is_context_name(s.annotated_name))
      facts_.unbound_annotations.push_back({s.annotated_name, s.annotated_name_span});
    annotate(s.annotated_name, *s.annotation);
  }

  // An input's annotation: its symbolic dims are carried by the input, and a Collection
  // must be unpacked before its elements are used.
  void annotate(const std::string &name, const TypeText &text) {
    Result<ProxyType> type = parse_type_string(text.text);
    if (!type) return;
    remember_rank(name, *type);
    if (type->kind == ProxyKind::Collection && is_defined(name))
      collections_[name] = add_place(text.span, name);
    for (const Dim &d : type->shape)
      if (d.symbolic && !is_defined(d.symbol) && !shape_symbols_.count(d.symbol))
        shape_symbols_.emplace(d.symbol, add_place(dim_span(text, d), name));
  }

  // A statement with the type its trailing type comment gives, when there is one that parses.
  struct Typed {
    const Statement *statement;
    std::optional<ProxyType> type;
  };
  static Typed typed_of(const Statement &s) {
    Typed t{&s, std::nullopt};
    if (s.type_comment && s.type_comment->type)
      if (Result<ProxyType> type = parse_type_string(s.type_comment->type->text))
        t.type = std::move(type.value());
    return t;
  }

  // Of a type, only a tensor's rank is ever needed (the length of its shape).
  void remember_rank(const std::string &name, const ProxyType &type) {
    int rank = type.kind == ProxyKind::Tensor && type.shape.size() <= INT16_MAX
                   ? static_cast<int>(type.shape.size())
                   : -1;
    if (rank >= 0 || names_.find(name)) names_[name].rank = static_cast<int16_t>(rank);
  }

  Span dim_span(const TypeText &text, const Dim &d) const {
    return source_.span(text.span.begin + d.offset, text.span.begin + d.offset + d.length);
  }

  // obj = a.shape: obj has a's rank.
  void remember_shape_alias(const Statement &s) {
    if (!s.target || s.target->kind != Target::Kind::Name) return;
    if (std::optional<std::size_t> n = known_length(s.value))
      lengths_[s.target->name] = {*n, length_span(s.value)};
  }

  std::optional<std::size_t> rank_of(const Value &v) const {
    if (v.kind != ValueKind::Name) return std::nullopt;
    const NameState *state = names_.find(v.text);
    if (!state || state->rank < 0) return std::nullopt;
    return static_cast<std::size_t>(state->rank);
  }

  std::optional<std::size_t> known_length(const Value &v) const {
    if (v.kind == ValueKind::Tuple || v.kind == ValueKind::List) return v.items.size();
    if (v.kind == ValueKind::Attribute && v.text == "shape") return rank_of(v.items.front());
    if (v.kind == ValueKind::Call && v.positional_count() == 1) {
      std::string callee = v.callee().qualified_name();
      if (callee == "prims.shape" || callee == "ltorch.shape") return rank_of(v.arg(0));
    }
    if (v.kind == ValueKind::Name) {
      auto it = lengths_.find(v.text);
      if (it != lengths_.end()) return it->second.first;
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

  void unpack_length(const Statement &s) {
    if (s.target->kind == Target::Kind::Name) return;
    if (std::optional<std::size_t> length = known_length(s.value))
      facts_.unpacks.push_back(
          {s.target->span, s.target->elements.size(), *length,
           s.value.kind == ValueKind::Name ? s.value.text : print_value(s.value),
           length_span(s.value)});
  }

  void unpack_source(const Statement &s) {
    if (s.target->kind == Target::Kind::Name || s.value.kind != ValueKind::Name) return;
    collections_.erase(s.value.text);
    bool placeholder = false;
    for (const Target &e : s.target->elements)
      placeholder |= e.is_placeholder();
    if (placeholder && dropping_unpack_ < 0) dropping_unpack_ = add_place(s.span, s.value.text);
  }

  int32_t add_place(Span span, const std::string &name) {
    facts_.places.push_back({span, name});
    return static_cast<int32_t>(facts_.places.size() - 1);
  }

  void define(const Target &t) {
    t.for_each_bound_name([&](const Target &n) {
      NameState &state = names_[n.name];
      if (state.defined)
        facts_.rebindings.push_back(
            {n.name, n.span, span(state.defined), Rebinding::Previous::Bound, false, false});
      else if (state.deleted)
        facts_.rebindings.push_back({n.name, n.span, span(state.deleted),
                                     state.freed_by_none
                                         ? Rebinding::Previous::FreedByNoneAssignment
                                         : Rebinding::Previous::Deleted,
                                     false, false});
      state.defined = Where::of(n.span);
      state.deleted = {};
      state.freed_by_none = false;
    });
  }

  // Names the subsymbols of one bound symbol assign more than once.
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
          if (!fresh)
            facts_.rebindings.push_back({n->name, n->span, it->second, Rebinding::Previous::Bound,
                                         true, outputs.count(n->name) > 0});
        }
      duplicate_siblings(s.subsymbols, s.target ? &*s.target : nullptr);
    }
  }

  // What subsymbols bind only matters as a dim symbol, and a dim is a number: a name the
  // subsymbol's own type comment calls a tensor is left out (a large trace has tens of
  // thousands of those).
  void bind_subsymbol_names(const Typed &t) {
    const Statement &s = *t.statement;
    if (!s.target) return;
    bool names_a_tensor = s.target->kind == Target::Kind::Name && t.type &&
                          t.type->kind == ProxyKind::Tensor &&
                          s.type_comment->name == s.target->name;
    if (!names_a_tensor)
      s.target->for_each_bound_name(
          [&](const Target &n) { names_[n.name].subsymbol_bound = true; });
  }

  void check_type_comment(const Typed &t) {
    if (!t.type) return;
    const Statement &s = *t.statement;
    for (const Dim &d : t.type->shape) {
      if (!d.symbolic || is_defined(d.symbol) || options_.is_context_name(d.symbol)) continue;
      facts_.unresolved_dims.push_back({d.symbol, dim_span(*s.type_comment->type, d),
                                        s.type_comment->name, shape_symbols_.count(d.symbol) > 0,
                                        is_subsymbol_bound(d.symbol)});
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
      if (v.callee().kind == ValueKind::Name)
        check(v.callee().text, v.callee().span, true, true);
      else
        use(v.callee(), true);
      for (std::size_t i = 1; i < v.items.size(); ++i)
        use(v.items[i], false);
      return;
    default:
      for (const Value &child : v.items)
        use(child, false);
    }
  }

  // Resolves a read: a live binding, or one the environment provides (the project's context
  // names, Python's builtins, the dialect's runtime names); else records what is known of it.
  void check(const std::string &name, Span span, bool callee, bool called_by_name = false) {
    const NameState *state = names_.find(name);
    if ((state && state->defined) || options_.is_context_name(name)) return;
    UnresolvedRead read;
    if (state && state->deleted) {
      read.freed = state->freed_by_none ? UnresolvedRead::Freed::ByNoneAssignment
                                        : UnresolvedRead::Freed::ByDel;
      read.freed_at = this->span(state->deleted);
    } else if (is_python_builtin(name) || traits_.provides(name)) {
      return;
    }
    read.name = name;
    read.span = span;
    read.callee = callee;
    read.called_by_name = called_by_name;
    if (read.freed == UnresolvedRead::Freed::No) {
      if (auto s = shape_symbols_.find(name); s != shape_symbols_.end())
        read.shape_annotation = s->second;
      read.placeholder_unpack = dropping_unpack_;
      if (!collections_.empty()) read.open_collection = collections_.begin()->second;
    }
    facts_.unresolved.push_back(std::move(read));
  }

  const SourceText &source_;
  const AnalysisOptions &options_;
  const DialectTraits &traits_;
  TraceFacts &facts_;
  // A span kept as its byte range (the lines are found again when it is reported): a large
  // trace has tens of thousands of names. 32 bits: the parser reads no file past 4 GiB.
  struct Where {
    static constexpr uint32_t kAbsent = UINT32_MAX, kNoSpan = UINT32_MAX - 1;
    uint32_t begin = kAbsent, end = 0;
    static Where of(const Span &s) {
      return s.valid() ? Where{static_cast<uint32_t>(s.begin), static_cast<uint32_t>(s.end)}
                       : Where{kNoSpan};
    }
    explicit operator bool() const { return begin != kAbsent; }
  };
  struct NameState {
    Where defined;     // its live definition
    Where deleted;     // the del since which it is undefined
    int16_t rank = -1; // a tensor's rank, from its type (-1: unknown)
    bool subsymbol_bound = false;
    bool freed_by_none = false; // deleted by `x = None` (fx), not by a del
  };

  Span span(Where w) const {
    return w && w.begin != Where::kNoSpan ? source_.span(w.begin, w.end) : Span{};
  }
  void set_defined(const std::string &name, const Span &s) { names_[name].defined = Where::of(s); }
  bool is_defined(const std::string &name) const {
    const NameState *state = names_.find(name);
    return state && state->defined;
  }
  bool is_subsymbol_bound(const std::string &name) const {
    const NameState *state = names_.find(name);
    return state && state->subsymbol_bound;
  }

  // Indexes into facts_.places: the dim of the first input annotation that mentions a symbol,
  // and each collection input not yet unpacked.
  std::map<std::string, int32_t> shape_symbols_;
  std::map<std::string, int32_t> collections_;
  std::map<std::string, std::pair<std::size_t, Span>> lengths_;
  NameTable<NameState> names_;
  int32_t dropping_unpack_ = -1; // in facts_.places
};

bool looks_like_context_object(const std::string &name) {
  if (name.size() < 4 || name[0] != '_') return false;
  std::size_t underscore = name.rfind('_');
  if (underscore == 0 || underscore + 1 == name.size()) return false;
  for (std::size_t i = underscore + 1; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  return true;
}

bool is_glob_pattern(std::string_view text) {
  return text.find_first_of("*?[") != std::string_view::npos;
}

bool AnalysisOptions::is_context_name(const std::string &name) const {
  if (context_names.count(name)) return true;
  for (const std::string &pattern : context_names)
    if (is_glob_pattern(pattern) && ::fnmatch(pattern.c_str(), name.c_str(), 0) == 0) return true;
  return false;
}

const std::string *known_module_import(const std::string &name) {
  auto it = module_imports().find(name);
  return it == module_imports().end() ? nullptr : &it->second;
}

bool is_python_builtin(const std::string &name) {
  static const std::set<std::string> builtins = {
      "abs",       "all",        "any",       "bool",         "bytes",
      "callable",  "chr",        "complex",   "dict",         "dir",
      "divmod",    "enumerate",  "Ellipsis",  "False",        "filter",
      "float",     "frozenset",  "getattr",   "globals",      "hasattr",
      "hash",      "id",         "int",       "isinstance",   "issubclass",
      "iter",      "len",        "list",      "locals",       "map",
      "max",       "min",        "next",      "None",         "object",
      "ord",       "pow",        "print",     "range",        "repr",
      "reversed",  "round",      "set",       "setattr",      "slice",
      "sorted",    "str",        "sum",       "super",        "True",
      "tuple",     "type",       "vars",      "zip",          "NotImplemented",
      "Exception", "ValueError", "TypeError", "RuntimeError", "AssertionError",
      "__import__"};
  return builtins.count(name) > 0;
}

NameAnalysis::NameAnalysis(AnalysisOptions options) : options_(std::move(options)) {
  analysis_.dialect = options_.dialect;
}
NameAnalysis::~NameAnalysis() = default;

void NameAnalysis::begin_trace(const ParsedFile &file, const Trace &trace) {
  source_ = &file.source;
  for (const Import *import : trace.imports())
    for (const std::string &name : import->bound_names())
      module_names_.emplace_back(name, import->span);
  analysis_.traces.emplace_back();
  analysis_.traces.back().trace = &trace;
  walker_ = std::make_unique<TraceWalker>(*source_, options_, analysis_.traces.back());
  for (auto &[name, span] : module_names_)
    walker_->define_import(name, span);
  walker_->decorators(trace);
  walker_->parameters(trace);
}

void NameAnalysis::statements(std::vector<Statement> &&statements) {
  walker_->body(statements);
}

void NameAnalysis::end_trace() {
  walker_.reset();
}

Analysis NameAnalysis::finish(const ParsedFile &parsed) {
  TraceWalker orphans(parsed.source, options_, analysis_.orphans);
  orphans.orphans(parsed.orphan_subsymbols);
  return std::move(analysis_);
}

} // namespace tracelint
