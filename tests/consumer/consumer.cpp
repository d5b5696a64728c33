#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <tracelint/testing.hpp>

TEST_CASE("an installed tracelint checks traces") {
  TRACELINT_REQUIRE_VALID("def computation(a):\n  return a\n");
  tracelint::Report r =
      tracelint::check("def computation(a):\n  t0 = ltorch.getitem(a, (slice(None, [IntegerProxy "
                       "name=i0, value=1], None),))\n  return t0\n");
  CHECK_FALSE(r.ok());
  CHECK(r.render().find("error[TL002]") != std::string::npos);
}
