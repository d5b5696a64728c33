#include "tracelint/rules/rule.hpp"

namespace tracelint {

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out);
}

extern const Rule kTL002{
    "TL002",
    "repr-leak",
    Severity::Error,
    "A proxy's debug repr was printed where its name belongs.",
    "Printers must print a proxy by its name. Thunder's NumberProxy repr "
    "`[IntegerProxy name=i10, value=1, static=CONSTRAINT.CONSTRAINABLE]` inside code is a list "
    "display holding invalid syntax, so the trace cannot even be compiled (Thunder issue #1182). "
    "In code this is an error; inside an annotation (`# a: \"cuda:0 f32[[IntegerProxy name=i0, "
    "...]]\"`) the program still runs but the type string is not one, so it is a warning. The fix "
    "replaces the repr with the proxy's name; `tracelint check --fix` applies it. A repr that "
    "names no proxy (`<object at 0x...>`) has no automatic fix.",
    "t37 = ltorch.getitem(a, (..., slice(None, [IntegerProxy name=i10, value=1, "
    "static=CONSTRAINT.CONSTRAINABLE], None)))\n",
    "t37 = ltorch.getitem(a, (..., slice(None, i10, None)))\n",
    check};

namespace {
void check(const CheckContext &ctx, std::vector<Diagnostic> &out) {
  for (const ReprLeak &leak : ctx.parsed.leaks) {
    std::string who = leak.proxy_kind + (leak.name.empty() ? "" : " `" + leak.name + "`");
    Diagnostic d = kTL002.diagnostic(
        leak.span, leak.in_code ? "debug repr of " + who + " in code: this is not Python"
                                : "debug repr of " + who + " in an annotation: a type string " +
                                      "names the proxy");
    if (!leak.in_code) d.severity = Severity::Warning;
    if (!leak.name.empty())
      d.fix = Fix{"replace the repr with `" + leak.name + "`",
                  {Edit{leak.span.begin, leak.span.end, leak.name}}};
    out.push_back(std::move(d));
  }
}
} // namespace

} // namespace tracelint
