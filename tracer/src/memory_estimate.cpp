#include "memory_estimate.hpp"

#include "recorder.hpp"

#include <algorithm>

namespace tracelint::tracer {

namespace {

// What the executor's comparison of results holds at most: a slice of 2**20 elements as
// double, twice, their difference and its absolute value, and allclose's temporaries.
constexpr uint64_t kCompareBytes = uint64_t{48} << 20;

uint64_t element_bytes(const std::string &dtype) {
  std::optional<DType> d = dtype_from_name(dtype);
  return d ? static_cast<uint64_t>(dtype_info(*d).bits / 8) : 1;
}

uint64_t saturating_add(uint64_t a, uint64_t b) {
  uint64_t sum;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

uint64_t saturating_mul(uint64_t a, uint64_t b) {
  uint64_t product;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

// The statements the executor runs: a composite symbol runs as its subsymbols.
void leaf_statements(const std::vector<Statement> &body, std::vector<const Statement *> &out) {
  for (const Statement &s : body) {
    if (s.kind != Statement::Kind::BoundSymbol) continue;
    bool composite = !s.subsymbols.empty() && s.value.kind == ValueKind::Call &&
                     s.value.callee().qualified_name().rfind("prims.", 0) != 0;
    if (composite)
      leaf_statements(s.subsymbols, out);
    else
      out.push_back(&s);
  }
}

// The most bytes that the tensors the statements make hold at once, each freed after its last
// reader; those `returned` reads are held to the end.
uint64_t peak_of(const std::vector<const Statement *> &steps, const Value &returned,
                 const std::unordered_map<std::string, uint64_t> &bytes) {
  // Each tensor a step makes gets a slot; reads of other names (inputs, numbers) are ignored.
  struct Made {
    uint64_t bytes;
    std::size_t last_read;
  };
  std::vector<Made> made;
  std::unordered_map<std::string_view, std::size_t> slot;
  slot.reserve(steps.size() * 2);
  std::vector<std::pair<std::size_t, std::size_t>> made_at; // (step, slot)
  auto note_reads = [&](const Value &value, std::size_t step) {
    for_each_read_name(value, [&](const Value &v) {
      auto it = slot.find(v.text);
      if (it != slot.end()) made[it->second].last_read = step;
    });
  };
  for (std::size_t i = 0; i < steps.size(); ++i) {
    note_reads(steps[i]->value, i);
    if (steps[i]->target)
      steps[i]->target->for_each_bound_name([&](const Target &t) {
        auto size = bytes.find(t.name);
        if (size == bytes.end()) return;
        // Rebinding a name makes a new tensor: later reads are of the new one.
        slot[t.name] = made.size();
        made_at.emplace_back(i, made.size());
        made.push_back({size->second, i}); // never read: freed at once (counted while made)
      });
  }
  for_each_name(returned, [&](const Value &v) {
    auto it = slot.find(v.text);
    if (it != slot.end()) made[it->second].last_read = steps.size();
  });

  // Live bytes change by +made at its step and -made after its last read.
  std::vector<uint64_t> freed_after(steps.size(), 0);
  for (const Made &m : made)
    if (m.last_read < steps.size())
      freed_after[m.last_read] = saturating_add(freed_after[m.last_read], m.bytes);
  uint64_t live = 0, peak = 0;
  std::size_t next = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    for (; next < made_at.size() && made_at[next].first == i; ++next)
      live = saturating_add(live, made[made_at[next].second].bytes);
    peak = std::max(peak, live);
    live = live >= freed_after[i] ? live - freed_after[i] : 0;
  }
  return peak;
}

} // namespace

uint64_t tensor_bytes(const Obj &o) {
  const TensorObj &tensor = o.as<TensorObj>();
  uint64_t n = element_bytes(dtype_info(tensor.dtype).torch_name);
  for (const Obj &d : tensor.shape)
    n = saturating_mul(n, static_cast<uint64_t>(std::max<int64_t>(d.integer, 0)));
  return n;
}

RunMemoryEstimate estimate_run_memory(const Trace &computation,
                                      const std::unordered_map<std::string, uint64_t> &bytes,
                                      const std::vector<InputSpec> &inputs,
                                      const std::vector<StateTensor> &state) {
  RunMemoryEstimate estimate;
  for (const StateTensor &t : state) {
    uint64_t count = 1;
    for (int64_t d : t.shape)
      count = saturating_mul(count, static_cast<uint64_t>(std::max<int64_t>(d, 0)));
    estimate.inputs =
        saturating_add(estimate.inputs, saturating_mul(count, element_bytes(t.dtype)));
  }
  uint64_t drawing = 0;           // the most that drawing one random input holds besides it
  std::vector<InputSpec> tensors; // the inputs' tensors, a collection's among them
  for (const InputSpec &in : inputs)
    for_each_tensor_spec(in, [&](const InputSpec &t) { tensors.push_back(t); });
  for (const InputSpec &in : tensors) {
    uint64_t count = 1;
    for (int64_t d : in.shape)
      count = saturating_mul(count, static_cast<uint64_t>(std::max<int64_t>(d, 0)));
    estimate.inputs =
        saturating_add(estimate.inputs, saturating_mul(count, element_bytes(in.dtype)));
    // Drawn as float32 (floating dtypes) or int64 (the others), then converted.
    DType dtype = dtype_from_name(in.dtype).value_or(DType::bool_);
    bool floating = is_floating(dtype);
    if (dtype != (floating ? DType::float32 : DType::int64))
      drawing = std::max(drawing, saturating_mul(count, floating ? 4 : 8));
  }

  const Statement *ret = nullptr;
  for (const Statement &s : computation.body)
    if (s.kind == Statement::Kind::Return) ret = &s;
  Value returned = ret && ret->has_value ? ret->value : Value::none();
  uint64_t result = 0;
  for_each_name(returned, [&](const Value &v) {
    auto size = bytes.find(v.text);
    if (size != bytes.end()) result = saturating_add(result, size->second);
  });

  // Eager Python runs the symbols the trace has at top level; the executor runs their prims.
  std::vector<const Statement *> top, leaves;
  for (const Statement &s : computation.body)
    if (s.kind == Statement::Kind::BoundSymbol) top.push_back(&s);
  leaf_statements(computation.body, leaves);
  uint64_t eager = peak_of(top, returned, bytes);
  uint64_t traced = peak_of(leaves, returned, bytes);
  // Comparing holds both results and a few converted copies of a slice of them.
  uint64_t comparing = saturating_add(saturating_mul(result, 2), std::min(result, kCompareBytes));
  // The eager result is held while the trace runs twice (as traced, then printed and parsed
  // back), and the first run's result while the second runs.
  estimate.intermediates =
      std::max({drawing, eager, saturating_add(saturating_mul(result, 2), traced), comparing});
  return estimate;
}

RunMemoryEstimate run_memory(const TracedProgram &program) {
  // A name made again (in a prologue's unpack, say) holds the later tensor's size.
  std::unordered_map<std::string, uint64_t> bytes;
  bytes.reserve(program.tensor_bytes.size());
  for (const auto &[name, size] : program.tensor_bytes)
    bytes[name] = size;
  return estimate_run_memory(program.computation(), bytes, program.inputs, program.state);
}

} // namespace tracelint::tracer
