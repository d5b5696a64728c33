#pragma once
// The `# noqa` comments of a checked file, as facts: the validator finds them
// (validator/src/validator.cpp), the rules about them read them (rules/src/TL021_unused_noqa.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tracelint {

// A `# noqa` comment of the checked file (byte offsets into its text): the facts the rules about
// noqa comments read. Codes are upper case; a bare `# noqa` has none.
struct NoqaCode {
  std::string code;
  std::size_t begin = 0, end = 0;
};
struct NoqaComment {
  uint32_t line = 0;
  std::size_t begin = 0, end = 0;           // "# noqa: TL003, TL005"
  std::size_t list_begin = 0, list_end = 0; // "TL003, TL005" (empty for a bare one)
  std::vector<NoqaCode> codes;
};

} // namespace tracelint
