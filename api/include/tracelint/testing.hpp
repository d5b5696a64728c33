#pragma once
// TRACELINT_REQUIRE_VALID(source): fails the current test with the rendered diagnostics when
// the trace has an error. Include after doctest or gtest; elsewhere it throws.
#include "tracelint/tracelint.hpp"

#include <stdexcept>

#if defined(DOCTEST_VERSION)
#define TRACELINT_REQUIRE_VALID(source)                                                            \
  do {                                                                                             \
    ::tracelint::Report tracelint_report_ = ::tracelint::check(source);                            \
    REQUIRE_MESSAGE(tracelint_report_.ok(), tracelint_report_.render());                           \
  } while (0)
#elif defined(GTEST_INCLUDE_GTEST_GTEST_H_) || defined(GOOGLETEST_INCLUDE_GTEST_GTEST_H_)
#define TRACELINT_REQUIRE_VALID(source)                                                            \
  do {                                                                                             \
    ::tracelint::Report tracelint_report_ = ::tracelint::check(source);                            \
    ASSERT_TRUE(tracelint_report_.ok()) << tracelint_report_.render();                             \
  } while (0)
#else
#define TRACELINT_REQUIRE_VALID(source)                                                            \
  do {                                                                                             \
    ::tracelint::Report tracelint_report_ = ::tracelint::check(source);                            \
    if (!tracelint_report_.ok()) throw std::runtime_error(tracelint_report_.render());             \
  } while (0)
#endif
