// Tensors made from numbers: arange, full, zeros, ones, empty, *_like, tensor; and the prims
// they record (full, iota, tensor_from_sequence, uniform), copy_, and the prologue's checks.
#include "common.hpp"

#include <cmath>

namespace tracelint::tracer::ops {

namespace {

std::string device_of(const Obj &d, const Loc &loc) {
  if (d.kind == Obj::Kind::None) return "cpu";
  std::string spec;
  if (d.kind == Obj::Kind::Device)
    spec = d.as<DeviceObj>().spec;
  else if (d.kind == Obj::Kind::Str)
    spec = d.as<StrObj>().value;
  else
    throw TraceError(loc, "device must be a torch.device or a string, not " + describe(d));
  if (spec == "cuda") spec = "cuda:0";
  if (spec != "cpu" && !spec.starts_with("cuda:"))
    throw TraceError(loc, "unsupported device `" + spec + "` (cpu, cuda or cuda:N)");
  return spec;
}

std::optional<DType> dtype_of(const Obj &d, const Loc &loc) {
  if (d.kind == Obj::Kind::None) return std::nullopt;
  if (d.kind != Obj::Kind::DType)
    throw TraceError(loc, "dtype must be a torch dtype, not " + describe(d));
  return d.dtype();
}

// ---- shape rules

Obj full_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  if (!args[0].is_sequence()) throw TraceError(loc, "prims.full takes a shape");
  return make_tensor(args[3].dtype(), args[2].as<DeviceObj>().spec, items(args[0]));
}

Obj iota_meta(Recorder &, const std::vector<Obj> &args, const Loc &) {
  return make_tensor(args[4].dtype(), args[3].as<DeviceObj>().spec, {args[0]});
}

std::vector<Obj> nested_shape(const Obj &seq, const Loc &loc) {
  std::vector<Obj> shape;
  const Obj *level = &seq;
  while (level->is_sequence()) {
    shape.push_back(Obj::int_of(static_cast<int64_t>(items(*level).size())));
    if (items(*level).empty()) break;
    level = &items(*level)[0];
  }
  (void)loc;
  return shape;
}

Obj tensor_from_sequence_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  return make_tensor(args[1].dtype(), args[2].as<DeviceObj>().spec, nested_shape(args[0], loc));
}

Obj uniform_meta(Recorder &, const std::vector<Obj> &args, const Loc &) {
  return make_tensor(args[4].dtype(), args[3].as<DeviceObj>().spec, items(args[0]));
}

Obj copy_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "copy_from", "prims.copy_", loc);
  require_tensor(args[1], "copy_to", "prims.copy_", loc);
  return like(args[1], tensor(args[1]).shape);
}

Obj shape_meta(Recorder &, const std::vector<Obj> &args, const Loc &loc) {
  require_tensor(args[0], "the input", "prims.shape", loc);
  return Obj::tuple(tensor(args[0]).shape);
}

Obj nothing(Recorder &, const std::vector<Obj> &, const Loc &) {
  return Obj::none();
}

// ---- decompositions

Obj full_tensor(Recorder &r, std::vector<Obj> shape, const Obj &value, const Obj &dtype,
                const Obj &device, const Loc &loc) {
  if (!value.is_number())
    throw TraceError(loc, "the fill value must be a number, not " + describe(value));
  DType d = dtype_of(dtype, loc).value_or(number_dtype(value));
  for (const Obj &s : shape)
    if (!s.is_proxy() && s.integer < 0)
      throw TraceError(loc, "Trying to create tensor with negative dimension " +
                                std::to_string(s.integer));
  Obj v = convert(r, value, d, loc);
  return r.prim(
      Sym::prims_full,
      {Obj::tuple(std::move(shape)), v, Obj::device_of(device_of(device, loc)), Obj::dtype_of(d)},
      loc);
}

Obj full(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // size, fill_value, dtype, layout, device, requires_grad
  return full_tensor(r, size_arg(r, a[0], loc, "full"), a[1], a[2], a[4], loc);
}

template <int Fill> Obj filled(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // *size, dtype, layout, device, requires_grad
  Obj dtype = a[1].kind == Obj::Kind::None ? Obj::dtype_of(kDefaultFloat) : a[1];
  return full_tensor(r, size_arg(r, a[0], loc, "zeros/ones"), Obj::int_of(Fill), dtype, a[3], loc);
}

Obj like_filled(Recorder &r, const std::vector<Obj> &a, const Obj &value, const Obj &dtype,
                const Obj &device, const Loc &loc) {
  require_tensor(a[0], "the input", "*_like", loc);
  const TensorObj &t = tensor(a[0]);
  Obj d = dtype.kind == Obj::Kind::None ? Obj::dtype_of(t.dtype) : dtype;
  Obj dev = device.kind == Obj::Kind::None ? Obj::device_of(t.device) : device;
  return full_tensor(r, t.shape, value, d, dev, loc);
}

Obj full_like(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, fill_value, dtype, layout, device, requires_grad, memory_format
  return like_filled(r, a, a[1], a[2], a[4], loc);
}
template <int Fill> Obj filled_like(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // a, dtype, layout, device, requires_grad, memory_format
  return like_filled(r, a, Obj::int_of(Fill), a[1], a[3], loc);
}

Obj arange(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // start, end, step, out, dtype, layout, device, requires_grad
  Obj start = a[0], end = a[1], step = a[2];
  if (end.kind == Obj::Kind::None) {
    end = start;
    start = Obj::int_of(0);
  }
  for (const Obj *x : {&start, &end, &step})
    if (!x->is_number()) throw TraceError(loc, "arange takes numbers, not " + describe(*x));
  bool floats = start.kind == Obj::Kind::Float || end.kind == Obj::Kind::Float ||
                step.kind == Obj::Kind::Float;
  DType d = dtype_of(a[4], loc).value_or(floats ? kDefaultFloat : DType::int64);
  if (d == DType::bool_) throw TraceError(loc, "\"arange_cpu\" not implemented for 'Bool'");
  std::string device = device_of(a[6], loc);
  // PyTorch's check, on the values traced (an error needs no guard).
  double sign = step.as_double();
  if ((sign > 0 && end.as_double() < start.as_double()) ||
      (sign < 0 && end.as_double() > start.as_double()))
    throw TraceError(loc, "upper bound and larger bound inconsistent with step sign");
  Obj length;
  if (!floats) {
    int64_t s = r.concrete(step, loc, "the step");
    if (s == 0) throw TraceError(loc, "step must be nonzero");
    Obj span = r.num(NumOp::sub, end, start, loc);
    Obj rounded = r.num(NumOp::add, span, Obj::int_of(s > 0 ? s - 1 : s + 1), loc);
    length = r.num(NumOp::floordiv, rounded, step, loc);
    if (r.decide(NumOp::lt, length, Obj::int_of(0), loc)) length = Obj::int_of(0);
  } else {
    double s = step.as_double(), b = start.as_double(), e = end.as_double();
    if (start.is_proxy()) r.guard(start, loc);
    if (end.is_proxy()) r.guard(end, loc);
    if (step.is_proxy()) r.guard(step, loc);
    if (s == 0) throw TraceError(loc, "step must be nonzero");
    length = Obj::int_of(std::max<int64_t>(0, static_cast<int64_t>(std::ceil((e - b) / s))));
  }
  Obj first = convert(r, start, d, loc), stride = convert(r, step, d, loc);
  return r.prim(Sym::prims_iota, {length, first, stride, Obj::device_of(device), Obj::dtype_of(d)},
                loc);
}

void sequence_dtype(const Obj &seq, bool &any_float, bool &all_bool, const Loc &loc) {
  if (seq.is_sequence()) {
    for (const Obj &o : items(seq))
      sequence_dtype(o, any_float, all_bool, loc);
    return;
  }
  if (!seq.is_number())
    throw TraceError(loc,
                     "torch.tensor takes numbers or nested lists of them, not " + describe(seq));
  any_float = any_float || seq.kind == Obj::Kind::Float;
  all_bool = all_bool && seq.kind == Obj::Kind::Bool;
}

Obj tensor_of(Recorder &r, const std::vector<Obj> &a, const Loc &loc) {
  // data, dtype, device, requires_grad
  if (is_tensor(a[0])) throw TraceError(loc, "torch.tensor of a tensor: use clone() or detach()");
  bool any_float = false, all_bool = true;
  sequence_dtype(a[0], any_float, all_bool, loc);
  DType d = dtype_of(a[1], loc).value_or(all_bool    ? DType::bool_
                                         : any_float ? kDefaultFloat
                                                     : DType::int64);
  Obj data = a[0].is_sequence() ? a[0] : a[0];
  return r.prim(Sym::prims_tensor_from_sequence,
                {data, Obj::dtype_of(d), Obj::device_of(device_of(a[2], loc))}, loc);
}

} // namespace

void define_factory_ops(std::vector<OpSpec> &out) {
  // Factories make tensors from numbers: nothing to differentiate. copy_ writes an input updated
  // in place back; the grad transform refuses in-place updates of what requires grad.
  out.push_back(
      prim_spec(Sym::prims_full, "shape, fill_value, /, *, device, dtype", full_meta, no_gradient));
  out.push_back(prim_spec(Sym::prims_iota, "length, /, *, start, step, device, dtype", iota_meta,
                          no_gradient));
  out.push_back(prim_spec(Sym::prims_tensor_from_sequence, "seq, /, *, dtype, device",
                          tensor_from_sequence_meta, no_gradient));
  out.push_back(prim_spec(Sym::prims_uniform, "shape, minval, maxval, /, *, device, dtype",
                          uniform_meta, no_gradient));
  out.push_back(prim_spec(Sym::prims_copy_, "copy_from, copy_to, /, *, grad_enabled", copy_meta,
                          no_gradient));
  add_ltorch(out, Sym::ltorch_arange,
             "start, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, "
             "requires_grad=False",
             {"torch.arange"}, arange);
  add_ltorch(out, Sym::ltorch_full,
             "size, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False",
             {"torch.full"}, full);
  add_ltorch(out, Sym::ltorch_zeros,
             "*size, dtype=None, layout=None, device=None, requires_grad=False", {"torch.zeros"},
             filled<0>);
  add_ltorch(out, Sym::ltorch_ones,
             "*size, dtype=None, layout=None, device=None, requires_grad=False", {"torch.ones"},
             filled<1>);
  add_ltorch(out, Sym::ltorch_empty,
             "*size, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None",
             {"torch.empty"}, filled<0>);
  add_ltorch(out, Sym::ltorch_full_like,
             "input, fill_value, /, *, dtype=None, layout=None, device=None, requires_grad=False, "
             "memory_format=None",
             {"torch.full_like"}, full_like);
  add_ltorch(
      out, Sym::ltorch_zeros_like,
      "input, /, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None",
      {"torch.zeros_like"}, filled_like<0>);
  add_ltorch(
      out, Sym::ltorch_ones_like,
      "input, /, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None",
      {"torch.ones_like"}, filled_like<1>);
  add_ltorch(out, Sym::ltorch_tensor, "data, /, *, dtype=None, device=None, requires_grad=False",
             {"torch.tensor", "torch.as_tensor"}, tensor_of);
  // Thunder's factories take shape, device and dtype only (and its empty, torch.strided and
  // contiguous_format defaults where ours are None).
  torch_only(out, Sym::ltorch_arange, "out, layout, requires_grad");
  torch_only(out, Sym::ltorch_full, "layout, requires_grad");
  torch_only(out, Sym::ltorch_zeros, "layout, requires_grad");
  torch_only(out, Sym::ltorch_ones, "layout, requires_grad");
  torch_only(out, Sym::ltorch_empty, "layout, requires_grad, memory_format");
  for (Sym like : {Sym::ltorch_full_like, Sym::ltorch_zeros_like, Sym::ltorch_ones_like})
    torch_only(out, like, "layout, requires_grad, memory_format");
}

void define_check_ops(std::vector<OpSpec> &out) {
  auto check = [&](Sym s, const char *sig, ShapeRule meta) {
    out.push_back(prim_spec(s, sig, meta, no_gradient));
  };
  check(Sym::prims_check_len, "a, n, /", nothing);
  check(Sym::prims_check_tensor_shape_and_metadata, "t, shape, device, dtype, requires_grad, /",
        nothing);
  check(Sym::prims_check_tensor_metadata, "t, shape, device, dtype, requires_grad, /", nothing);
  check(Sym::prims_assert_tensor_metadata, "t, shape, device, dtype, requires_grad, /", nothing);
  check(Sym::prims_check_type, "x, typ, /", nothing);
  check(Sym::prims_check_number_type_and_value, "x, value, /", nothing);
  check(Sym::prims_check_literal_like, "x, value, /", nothing);
  check(Sym::prims_check_none, "x, /", nothing);
  check(Sym::prims_shape, "a, /", shape_meta);
  check(Sym::prims_unpack_parameter, "module, name, /", nothing);
  check(Sym::prims_unpack_buffer, "module, name, /", nothing);
}

} // namespace tracelint::tracer::ops
