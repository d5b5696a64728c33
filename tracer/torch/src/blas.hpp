#pragma once
// Which BLAS libtorch multiplies matrices with: Debian's libtorch uses whatever libblas.so.3 the
// alternatives system points at, and the reference (netlib) one is 10-50x slower than OpenBLAS.
#include <optional>
#include <string>

namespace tracelint::tracer {

// The path of the libblas.so loaded in this process when it is the reference implementation
// (none of OpenBLAS, BLIS or MKL answers in it); none when libtorch brings its own BLAS or the
// one loaded is a tuned one.
std::optional<std::string> reference_blas_in_use();

} // namespace tracelint::tracer
