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

// A sentence for TLA003 and TLA004: where a helper of another translation unit is reported.
#define TRACELINT_ANALYZER_OTHER_UNITS                                                             \
  " A helper defined in another file of the same run (`tracelint analyze a.cpp b.cpp`, or -p "     \
  "with the project's files), whose returned text has this problem there without going into "      \
  "Python in that file, is reported where its result is printed into Python, named with its "      \
  "place: `number_text(alpha)` \u2192 `number_text()` at helpers.cpp:7."
