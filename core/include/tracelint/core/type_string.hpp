#pragma once
// The type strings of Thunder annotations: "cuda:0 f32[4, i0]", "int 2", "bool False",
// "Collection", "Any". These describe the proxies of the trace.
#include "tracelint/core/result.hpp"
#include "tracelint/core/source.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tracelint {

struct Dim {
  bool symbolic = false;
  int64_t size = 0;
  std::string symbol; // IntegerProxy name when symbolic
  // Byte offset of the dim inside the type string.
  uint32_t offset = 0;
  uint32_t length = 0;
  bool leaked = false; // spelled as a debug repr ([IntegerProxy name=i0, ...])
  friend bool operator==(const Dim &a, const Dim &b) {
    return a.symbolic == b.symbolic && a.size == b.size && a.symbol == b.symbol;
  }
};

enum class ProxyKind { Tensor, Integer, Float, Bool, Complex, String, Collection, Any, Opaque };

// What an annotation says about a proxy.
struct ProxyType {
  ProxyKind kind = ProxyKind::Opaque;
  std::string device;         // Tensor: "cuda:0", "cpu"
  std::string dtype;          // Tensor: short name ("f32", "bf16", "b8")
  std::vector<Dim> shape;     // Tensor
  bool requires_grad = false; // Tensor: not printed in annotations (prologue checks)
  std::string value;          // Integer/Float/Bool/Complex/String: printed value
  bool symbolic = false;      // Number: value is not static
  std::string text;           // Opaque/Any/Collection: the text
  friend bool operator==(const ProxyType &a, const ProxyType &b) = default;
};

// Parses a type string (the contents of the quotes). Errors say what is wrong and the
// byte offset inside the string is in Error::column (0-based).
Result<ProxyType> parse_type_string(const std::string &text);
std::string print_type_string(const ProxyType &type);

// Whether text is a tensor type as graph printers write it outside quotes: a dtype abbreviation
// subscripted, f32[4], bf16[2, 8], i64[], b8[3], c64[1], u8[2], f8e4m3fn[4].
bool is_unquoted_tensor_type(std::string_view text);

// One dim as a type string spells it: its symbol, or its size when there is none.
struct DimSpelling {
  std::string_view symbol;
  int64_t size = 0;
};
// Appends the dim's symbol, or its size in decimal.
void append_dim(std::string &out, DimSpelling dim);

// Appends a tensor's type string, "cuda:0 f32[4, i0]", where dim_at(i) gives the i-th dim as a
// DimSpelling: print_type_string's spelling, for callers that hold the dims in a form of their
// own (the tracer writes one per recorded symbol).
template <class DimAt>
void append_tensor_type(std::string &out, std::string_view device, std::string_view dtype,
                        std::size_t rank, DimAt &&dim_at) {
  out += device;
  out += ' ';
  out += dtype;
  out += '[';
  for (std::size_t i = 0; i < rank; ++i) {
    if (i) out += ", ";
    append_dim(out, dim_at(i));
  }
  out += ']';
}

} // namespace tracelint
