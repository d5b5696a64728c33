// Reliability (bad inputs and faults): reports. Each case is a bad input an audit found, with what
// tracelint must do with it.
#include "support.hpp"

#include <doctest/doctest.h>
