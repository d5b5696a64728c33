#pragma once
// What the analyzer's rules (TLA001-TLA004) call a printer: one definition for their docs.

// A sentence to begin a rule's explanation with (string literals concatenate).
#define TRACELINT_ANALYZER_PRINTERS                                                                \
  "A printer is a function whose output (a stream, a string it returns or builds, a FILE*, "       \
  "a buffer) gets Python statements (`def `/`class ` headers, imports, `x = torch.add(` or "       \
  "`= fd.ops.mul(`, a keyword statement such as `return x` or `if x:`) and no C++ (lines "         \
  "ending in `;` or `) {`), a function it passes that output to, one whose text it prints "        \
  "(a returned string, `ss.str()`, a local string), one marked "                                   \
  "[[clang::annotate(\"tracelint::codegen\")]], or one matching --codegen-pattern "                \
  "(case-insensitive, default ^(print|emit|codegen)) once some text it spells out parses as "      \
  "Python. Error and log streams (LOG/CHECK/THROW macros, members of *Error* and *Log* classes, "  \
  "std::cerr, temporaries) and functions marked tracelint::not_codegen or matching "               \
  "--not-codegen-pattern are not printers."
