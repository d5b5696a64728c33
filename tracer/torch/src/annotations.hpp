#pragma once
// What a trace's annotations claim, checked against what a run computes: each `t1 = ...  # t1:
// "cpu f32[2, i0]"`, annotated assignment and `# x: "..."` line says a value's kind, shape,
// dtype and device (numbers: kind and value). The executor asserts them after each step, so a
// wrong annotation fails every run that reaches it.
#include "runtime.hpp"

#include "tracelint/core/type_string.hpp"

#include <functional>
#include <optional>
#include <string>

namespace tracelint::tracer {

struct AnnotationCheck {
  std::string name;           // the annotated name, for messages
  std::string text;           // the annotation as written (inside the quotes)
  ProxyType type;             // parsed
  std::vector<int> dim_slots; // for each dim of a tensor: the slot of its symbol, or -1
};

// The check of an annotation, or none when there is nothing a run can check (Any, Collection,
// a type string that does not parse: the validator reports that).
std::optional<AnnotationCheck> annotation_check(const std::string &name, const std::string &text);

// How a value differs from its annotation ("" when it agrees). `symbol` gives the current value
// of a dim's symbol (nullptr when it is not defined); numbers' values are compared when
// `number_values` (a run on the inputs the trace was made for).
std::string annotation_mismatch(const RtValue &value, const AnnotationCheck &check,
                                const std::function<const RtValue *(int slot)> &symbol,
                                const ExecOptions &options);

} // namespace tracelint::tracer
