#include "tracelint/core/printer.hpp"

#include <algorithm>
#include <thread>

namespace tracelint {

namespace {

std::string print_import(const Import &import) {
  if (!import.from)
    return "import " + import.module + (import.alias.empty() ? "" : " as " + import.alias);
  std::string out = "from " + import.module + " import ";
  for (std::size_t i = 0; i < import.names.size(); ++i) {
    if (i) out += ", ";
    out += import.names[i].first;
    if (!import.names[i].second.empty()) out += " as " + import.names[i].second;
  }
  return out;
}

void print_preamble(std::string &out, const std::vector<PreambleItem> &items) {
  for (const PreambleItem &item : items) {
    switch (item.kind) {
    case PreambleItem::Kind::Comment:
      out += item.comment + "\n";
      break;
    case PreambleItem::Kind::Import:
      out += print_import(item.import) + "\n";
      break;
    case PreambleItem::Kind::Blank:
      out += "\n";
      break;
    }
  }
}

std::string print_parameters(const std::vector<Parameter> &params) {
  std::string out;
  bool star_seen = false;
  for (std::size_t i = 0; i < params.size(); ++i) {
    const Parameter &p = params[i];
    if (i) out += ", ";
    switch (p.kind) {
    case ParamKind::Positional:
      out += p.name;
      break;
    case ParamKind::VarArgs:
      out += "*" + p.name;
      star_seen = true;
      break;
    case ParamKind::KeywordOnly:
      if (!star_seen) {
        out += "*, ";
        star_seen = true;
      }
      out += p.name;
      break;
    case ParamKind::VarKeywords:
      out += "**" + p.name;
      break;
    }
    if (p.default_value) { // two appends: GCC 12's -Wrestrict misreads "=" + string (PR105329)
      out += '=';
      out += print_value(*p.default_value);
    }
  }
  return out;
}

void print_target_to(std::string &out, const Target &target, UnpackStyle style,
                     bool trailing_comma) {
  if (target.kind == Target::Kind::Name) {
    out += target.name;
    return;
  }
  bool list = target.kind == Target::Kind::List, bare = !list && style == UnpackStyle::Bare;
  out += list ? "[" : bare ? "" : "(";
  for (std::size_t i = 0; i < target.elements.size(); ++i) {
    if (i) out += ", ";
    print_target_to(out, target.elements[i], UnpackStyle::Parenthesized, false);
  }
  bool one = target.elements.size() == 1;
  if (list)
    out += "]";
  else if (bare)
    out += trailing_comma || one ? "," : "";
  else
    out += one ? ",)" : ")";
}

// `# name: "type"`, or `# name` for an untyped old-style annotation: annotation comments and
// trailing type comments are spelled alike.
void print_name_comment(std::string &out, const std::string &name,
                        const std::optional<TypeText> &type) {
  out += "# ";
  out += name;
  if (type) {
    out += ": \"";
    out += type->text;
    out += "\"";
  }
}

void print_code_to(std::string &out, const Statement &s, unsigned indent) {
  switch (s.kind) {
  case Statement::Kind::BoundSymbol:
    if (s.target && s.style == UnpackStyle::Continued && s.target->kind == Target::Kind::Tuple) {
      for (const Target &e : s.target->elements) {
        print_target_to(out, e, UnpackStyle::Parenthesized, false);
        out += ", \\\n";
        out.append(indent, ' ');
      }
      out += "= ";
    } else if (s.target) {
      print_target_to(out, *s.target, s.style, s.trailing_comma);
      out += " = ";
    }
    print_value_to(out, s.value);
    return;
  case Statement::Kind::AnnotatedAssign:
    print_target_to(out, *s.target, s.style, s.trailing_comma);
    out += ": \"";
    out += s.annotation->text;
    out += "\" = ";
    print_value_to(out, s.value);
    return;
  case Statement::Kind::Delete:
    out += s.delete_list_form ? "del [" : "del ";
    for (std::size_t i = 0; i < s.deleted.size(); ++i) {
      if (i) out += ", ";
      out += s.deleted[i].name;
    }
    if (s.delete_list_form) out += "]";
    return;
  case Statement::Kind::Return:
    out += s.has_value ? "return " : "return";
    if (s.has_value) print_value_to(out, s.value);
    return;
  case Statement::Kind::AnnotationComment:
    print_name_comment(out, s.annotated_name, s.annotation);
    return;
  case Statement::Kind::Comment:
  case Statement::Kind::Raw:
    out += s.text;
    return;
  case Statement::Kind::Blank:
    return;
  }
}

void print_statement_to(std::string &out, const Statement &s, unsigned indent) {
  if (s.kind == Statement::Kind::Blank) {
    out += "\n";
    return;
  }
  out.append(indent, ' ');
  if (s.commented) out += "# ";
  print_code_to(out, s, indent);
  if (s.type_comment) {
    out += "  ";
    print_name_comment(out, s.type_comment->name, s.type_comment->type);
  } else if (!s.trailing_comment.empty()) {
    out += "  ";
    out += s.trailing_comment;
  }
  out += "\n";
  for (const Statement &sub : s.subsymbols)
    print_statement_to(out, sub, indent + 2);
}

} // namespace

std::string print_target(const Target &target, UnpackStyle style, bool trailing_comma) {
  std::string out;
  print_target_to(out, target, style, trailing_comma);
  return out;
}

std::string print_statement(const Statement &s, unsigned indent) {
  std::string out;
  print_statement_to(out, s, indent);
  return out;
}

namespace {

// Below this many statements a body is printed on one thread: a thread costs more than it saves.
constexpr std::size_t kStatementsPerThread = 2048;

// Each level (a class, a def) indents what it holds by two spaces.
constexpr unsigned kLevelIndent = 2;

// The `class ...:` lines of trace's classes from the first one the previous trace was not in
// (`open`: the previous trace's classes).
void print_class_headers(std::string &out, const Trace &trace,
                         const std::vector<ClassHeader> &open) {
  std::size_t shared = 0;
  while (shared < open.size() && shared < trace.classes.size() &&
         open[shared] == trace.classes[shared])
    ++shared;
  for (std::size_t level = shared; level < trace.classes.size(); ++level) {
    const ClassHeader &c = trace.classes[level];
    out.append(level * kLevelIndent, ' ');
    out += "class " + c.name;
    if (!c.bases.empty()) {
      out += "(";
      for (std::size_t i = 0; i < c.bases.size(); ++i) {
        if (i) out += ", ";
        print_value_to(out, c.bases[i]);
      }
      out += ")";
    }
    out += ":\n";
  }
}

void print_trace_to(std::string &out, const Trace &trace, unsigned threads,
                    const std::vector<ClassHeader> &open_classes) {
  print_preamble(out, trace.preamble);
  print_class_headers(out, trace, open_classes);
  unsigned def_indent = static_cast<unsigned>(trace.classes.size()) * kLevelIndent;
  for (const Value &d : trace.decorators) {
    out.append(def_indent, ' ');
    out += "@";
    print_value_to(out, d);
    out += "\n";
  }
  unsigned indent = def_indent + kLevelIndent;
  switch (trace.kind) {
  case Trace::Kind::Function:
    out.append(def_indent, ' ');
    out += "def " + trace.name + "(" + print_parameters(trace.parameters) + "):\n";
    break;
  case Trace::Kind::NoSignature:
    out.append(def_indent, ' ');
    out += "# No signature available\n";
    break;
  case Trace::Kind::Fragment:
    indent = trace.fragment_indent;
    break;
  }
  const std::vector<Statement> &body = trace.body;
  std::size_t parts =
      std::max<std::size_t>(1, std::min<std::size_t>(threads, body.size() / kStatementsPerThread));
  // Contiguous ranges printed side by side, joined in order: the same text as one thread's.
  std::vector<std::string> printed(parts - 1);
  std::vector<std::thread> workers;
  auto range = [&](std::size_t part, std::string &into) {
    std::size_t begin = body.size() * part / parts, end = body.size() * (part + 1) / parts;
    for (std::size_t i = begin; i < end; ++i)
      print_statement_to(into, body[i], indent);
  };
  for (std::size_t part = 1; part < parts; ++part)
    workers.emplace_back([&, part] { range(part, printed[part - 1]); });
  range(0, out);
  for (std::size_t part = 1; part < parts; ++part) {
    workers[part - 1].join();
    out += printed[part - 1];
  }
}

} // namespace

std::string print_trace(const Trace &trace) {
  std::string out;
  print_trace_to(out, trace, 1, {});
  return out;
}

std::string print_trace_file(const TraceFile &file) {
  return print_trace_file(file, 1);
}

std::string print_trace_file(const TraceFile &file, unsigned threads) {
  std::string out;
  const std::vector<ClassHeader> none;
  const std::vector<ClassHeader> *open = &none;
  for (const Trace &t : file.traces) {
    print_trace_to(out, t, threads, *open);
    open = &t.classes;
  }
  print_preamble(out, file.trailer);
  return out;
}

} // namespace tracelint
