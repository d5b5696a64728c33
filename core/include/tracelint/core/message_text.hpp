#pragma once
// Bounds on what a diagnostic repeats of the input: a message quotes names and code between
// backticks, and a name in a trace can be megabytes long.
#include "tracelint/core/diagnostic.hpp"

#include <cstddef>
#include <string>

namespace tracelint {

// The longest quoted part a message keeps, in bytes; longer ones keep their start and "...".
inline constexpr std::size_t kMaxQuotedLength = 80;

// Shortens every `quoted` part of the text longer than kMaxQuotedLength, cutting on a UTF-8
// character boundary. The span still points at the whole name.
std::string shorten_quoted(std::string text);
// The same for a diagnostic's message, its related locations' messages and its fix's text.
void shorten_quoted(Diagnostic &diagnostic);

} // namespace tracelint
