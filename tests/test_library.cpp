// The stable C++ interface and the test-harness macro.
#include <doctest/doctest.h>

#include "tracelint/testing.hpp"

TEST_CASE("tracelint::check returns an iterable, renderable report") {
  tracelint::Report clean = tracelint::check("def computation(a):\n  return a\n");
  CHECK(clean.ok());
  CHECK(clean.empty());
  TRACELINT_REQUIRE_VALID(
      "import torch\n\ndef computation(a):\n  t0 = torch.exp(a)\n  return t0\n");

  tracelint::Report bad =
      tracelint::check("def computation(a):\n  del a\n  return a\n", {}, "t.py");
  CHECK_FALSE(bad.ok());
  std::size_t n = 0;
  for (const tracelint::Diagnostic &d : bad) {
    CHECK(d.code == "TL005");
    ++n;
  }
  CHECK(n == bad.size());
  CHECK(bad.render().find("t.py:3:10: error[TL005]") != std::string::npos);
  CHECK(bad.render(tracelint::Format::Json).find("\"code\": \"TL005\"") != std::string::npos);

  tracelint::Options strict;
  strict.fail_on = tracelint::Severity::Warning;
  CHECK_FALSE(
      tracelint::check("def computation(a):\n  t0 = customOp0(a)\n  return t0\n", strict).ok());
}
