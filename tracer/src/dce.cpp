#include "dce.hpp"

#include "recorder.hpp"

#include "tracelint/core/name_table.hpp" // core/src

namespace tracelint::tracer {

namespace {

// A set of names (the state is unused).
using NameSet = NameTable<char>;

// The names a top-level statement reads, the symbolic dims of its annotation included: a size
// that only an annotation mentions must still be computed (TL007). Its subsymbols' reads come
// from the recorder (Recorder::take_hidden_reads).
void collect_names(const Statement &s, NameSet &names) {
  for_each_read_name(s.value, [&](const Value &v) { names.insert(v.text); });
  if (s.type_comment && s.type_comment->type)
    for_each_type_symbol(s.type_comment->type->text,
                         [&](std::string_view name) { names.insert(name); });
}

// Which statements stay: bound symbols whose outputs something uses (every symbol recorded is
// pure), and provenance comments whose statement stays.
// `inputs` keeps the names among them that the kept statements or the return read.
} // namespace

std::vector<bool>
live_statements(const std::vector<Statement> &body,
                const std::vector<std::pair<std::size_t, std::string>> &hidden_reads,
                const Value &returned, std::unordered_set<std::string> &inputs) {
  NameSet live;
  for_each_name(returned, [&](const Value &v) { live.insert(v.text); });
  std::vector<bool> keep(body.size(), true);
  std::size_t hidden = hidden_reads.size(); // hidden_reads[hidden..] are after k
  for (std::size_t k = body.size(); k-- > 0;) {
    while (hidden > 0 && hidden_reads[hidden - 1].first > k)
      --hidden;
    const Statement &s = body[k];
    if (s.kind != Statement::Kind::BoundSymbol) continue;
    bool used = !s.target;
    if (s.target)
      s.target->for_each_bound_name([&](const Target &t) { used = used || live.contains(t.name); });
    keep[k] = used;
    if (!used) continue;
    collect_names(s, live);
    for (std::size_t h = hidden; h > 0 && hidden_reads[h - 1].first == k; --h)
      live.insert(hidden_reads[h - 1].second);
  }
  std::erase_if(inputs, [&](const std::string &name) { return !live.contains(name); });
  // A comment is provenance for the statement after it: it goes when that one went.
  for (std::size_t k = body.size(), next_kept = body.size(); k-- > 0;) {
    if (!keep[k]) continue;
    if (body[k].kind == Statement::Kind::Comment &&
        (next_kept == body.size() || body[next_kept].kind == Statement::Kind::Comment))
      keep[k] = false;
    else
      next_kept = k;
  }
  return keep;
}

std::size_t count_subsymbols(const Statement &s) {
  std::size_t n = s.subsymbols.size();
  for (const Statement &sub : s.subsymbols)
    n += count_subsymbols(sub);
  return n;
}

void flatten(Statement s, std::vector<Statement> &out) {
  if (s.subsymbols.empty()) {
    s.commented = false;
    out.push_back(std::move(s));
    return;
  }
  for (Statement &sub : s.subsymbols)
    flatten(std::move(sub), out);
}

} // namespace tracelint::tracer
