#include "tracelint/core/printer.hpp"

namespace tracelint {

namespace {

std::string print_import(const Import &import) {
  if (!import.from)
    return "import " + import.module + (import.alias.empty() ? "" : " as " + import.alias);
  std::string out = "from " + import.module + " import ";
  for (std::size_t i = 0; i < import.names.size(); ++i) {
    if (i)
      out += ", ";
    out += import.names[i].first;
    if (!import.names[i].second.empty())
      out += " as " + import.names[i].second;
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
    if (i)
      out += ", ";
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
    if (p.default_value)
      out += "=" + print_value(*p.default_value);
  }
  return out;
}

std::string type_comment_text(const TypeComment &c) {
  return "# " + c.name + (c.type ? ": \"" + c.type->text + "\"" : "");
}

std::string print_code(const Statement &s, unsigned indent) {
  std::string pad(indent, ' ');
  switch (s.kind) {
  case Statement::Kind::BoundSymbol: {
    std::string lhs;
    if (s.target) {
      if (s.style == UnpackStyle::Continued && s.target->kind == Target::Kind::Tuple) {
        for (const Target &e : s.target->elements)
          lhs += print_target(e, UnpackStyle::Parenthesized, false) + ", \\\n" + pad;
        lhs += "= ";
        return lhs + print_value(s.value);
      }
      lhs = print_target(*s.target, s.style, s.trailing_comma) + " = ";
    }
    return lhs + print_value(s.value);
  }
  case Statement::Kind::AnnotatedAssign:
    return print_target(*s.target, s.style, s.trailing_comma) + ": \"" + s.annotation->text +
           "\" = " + print_value(s.value);
  case Statement::Kind::Delete: {
    std::string out = s.delete_list_form ? "del [" : "del ";
    for (std::size_t i = 0; i < s.deleted.size(); ++i)
      out += (i ? ", " : "") + s.deleted[i].name;
    return s.delete_list_form ? out + "]" : out;
  }
  case Statement::Kind::Return:
    return s.has_value ? "return " + print_value(s.value) : "return";
  case Statement::Kind::AnnotationComment:
    return "# " + s.annotated_name + (s.annotation ? ": \"" + s.annotation->text + "\"" : "");
  case Statement::Kind::Comment:
  case Statement::Kind::Raw:
    return s.text;
  case Statement::Kind::Blank:
    return "";
  }
  return {};
}

} // namespace

std::string print_target(const Target &target, UnpackStyle style, bool trailing_comma) {
  if (target.kind == Target::Kind::Name)
    return target.name;
  std::string inner;
  for (std::size_t i = 0; i < target.elements.size(); ++i)
    inner += (i ? ", " : "") + print_target(target.elements[i], UnpackStyle::Parenthesized, false);
  if (target.kind == Target::Kind::List)
    return "[" + inner + "]";
  if (style == UnpackStyle::Bare)
    return inner + (trailing_comma || target.elements.size() == 1 ? "," : "");
  return "(" + inner + (target.elements.size() == 1 ? ",)" : ")");
}

std::string print_statement(const Statement &s, unsigned indent) {
  if (s.kind == Statement::Kind::Blank)
    return "\n";
  std::string pad(indent, ' ');
  std::string line = pad + (s.commented ? "# " : "") + print_code(s, indent);
  if (s.type_comment)
    line += "  " + type_comment_text(*s.type_comment);
  else if (!s.trailing_comment.empty())
    line += "  " + s.trailing_comment;
  line += "\n";
  for (const Statement &sub : s.subsymbols)
    line += print_statement(sub, indent + 2);
  return line;
}

std::string print_trace(const Trace &trace) {
  std::string out;
  print_preamble(out, trace.preamble);
  for (const Value &d : trace.decorators)
    out += "@" + print_value(d) + "\n";
  unsigned indent = 2;
  switch (trace.kind) {
  case Trace::Kind::Function:
    out += "def " + trace.name + "(" + print_parameters(trace.parameters) + "):\n";
    break;
  case Trace::Kind::NoSignature:
    out += "# No signature available\n";
    break;
  case Trace::Kind::Fragment:
    indent = trace.fragment_indent;
    break;
  }
  for (const Statement &s : trace.body)
    out += print_statement(s, indent);
  return out;
}

std::string print_trace_file(const TraceFile &file) {
  std::string out;
  for (const Trace &t : file.traces)
    out += print_trace(t);
  print_preamble(out, file.trailer);
  return out;
}

} // namespace tracelint
