#pragma once
// The tracer's torch.nn (prelude/nn.py), compiled into the library by CMake.
#include <string_view>

namespace tracelint::tracer {
std::string_view nn_prelude_source();
}
