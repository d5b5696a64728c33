#include "tracelint/core/trace.hpp"

#include "tracelint/core/escape.hpp"

namespace tracelint {

std::vector<const Target *> Target::bound_names() const {
  std::vector<const Target *> out;
  for_each_bound_name([&](const Target &t) { out.push_back(&t); });
  return out;
}

std::vector<std::string> Import::bound_names() const {
  if (from) {
    std::vector<std::string> out;
    for (auto &[name, alias] : names)
      out.push_back(alias.empty() ? name : alias);
    return out;
  }
  if (!alias.empty()) return {alias};
  return {module.substr(0, module.find('.'))};
}

PreambleItem PreambleItem::comment_line(std::string text) {
  PreambleItem item;
  item.comment = std::move(text);
  return item;
}

PreambleItem PreambleItem::import_line(std::string module, std::string alias, std::string name) {
  PreambleItem item;
  item.kind = Kind::Import;
  item.import.module = std::move(module);
  item.import.alias = std::move(alias);
  if (!name.empty()) {
    item.import.from = true;
    item.import.names = {{std::move(name), ""}};
  }
  return item;
}

PreambleItem PreambleItem::blank() {
  PreambleItem item;
  item.kind = Kind::Blank;
  return item;
}

Statement Statement::bound(std::optional<Target> target, Value value) {
  Statement s;
  s.kind = Kind::BoundSymbol;
  s.target = std::move(target);
  s.value = std::move(value);
  return s;
}

Statement Statement::ret(Value value) {
  Statement s;
  s.kind = Kind::Return;
  s.value = std::move(value);
  return s;
}

Statement Statement::del(std::vector<std::string> names) {
  Statement s;
  s.kind = Kind::Delete;
  for (std::string &n : names)
    s.deleted.push_back(Target::named(std::move(n)));
  return s;
}

Statement Statement::annotation_comment(std::string name, std::optional<std::string> type) {
  Statement s;
  s.kind = Kind::AnnotationComment;
  s.annotated_name = std::move(name);
  if (type) s.annotation = TypeText{*type, {}};
  return s;
}

Statement Statement::comment(std::string text) {
  Statement s;
  s.kind = Kind::Comment;
  // What a comment quotes (a path, a source line) stays inside it: it can never become code.
  s.text = one_line_comment(text);
  return s;
}

Statement Statement::blank() {
  Statement s;
  s.kind = Kind::Blank;
  return s;
}

bool operator==(const Statement &a, const Statement &b) {
  return a.kind == b.kind && a.target == b.target && a.style == b.style &&
         a.trailing_comma == b.trailing_comma && a.value == b.value && a.has_value == b.has_value &&
         a.annotation == b.annotation && a.annotated_name == b.annotated_name &&
         a.type_comment == b.type_comment && a.trailing_comment == b.trailing_comment &&
         a.deleted == b.deleted && a.delete_list_form == b.delete_list_form && a.text == b.text &&
         a.subsymbols == b.subsymbols && a.commented == b.commented;
}

std::vector<const Import *> Trace::imports() const {
  std::vector<const Import *> out;
  for (const PreambleItem &item : preamble)
    if (item.kind == PreambleItem::Kind::Import) out.push_back(&item.import);
  return out;
}

} // namespace tracelint
