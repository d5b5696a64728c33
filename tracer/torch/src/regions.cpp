// Fusion regions run as their kernels: the launch of a region's kernel on given inputs, and
// the GPU runner (CUDA driver API, PTX from NVRTC).
#include "tracelint/tracer/regions.hpp"

#include "runtime.hpp"

#include "tracelint/tracer/cuda_driver.hpp"
#include "tracelint/tracer/nvrtc.hpp"
#include "tracelint/tracer/object.hpp"

#include <atomic>
#include <charconv>
#include <cstring>
#include <map>

namespace tracelint::tracer {

namespace {

using Param = FusionRegion::KernelParam;

std::string shape_text(c10::IntArrayRef sizes) {
  std::string out = "[";
  for (std::size_t i = 0; i < sizes.size(); ++i)
    out += (i ? ", " : "") + std::to_string(sizes[i]);
  return out + "]";
}

std::optional<at::ScalarType> scalar_type_of(const std::string &short_name) {
  std::optional<DType> d = dtype_from_name(short_name);
  if (!d) return std::nullopt;
  return scalar_type(dtype_info(*d).torch_name);
}

} // namespace

Result<KernelLaunch> plan_launch(const FusionRegion &region,
                                 const std::vector<const RtValue *> &inputs) {
  auto fail = [&](const std::string &why) { return Error{region.name + ": " + why, "", 0, 0}; };
  if (inputs.size() != region.inputs.size())
    return fail("takes " + std::to_string(region.inputs.size()) + " inputs, got " +
                std::to_string(inputs.size()));
  auto input = [&](const std::string &name) -> const RtValue * {
    for (std::size_t i = 0; i < region.inputs.size(); ++i)
      if (region.inputs[i] == name) return inputs[i];
    return nullptr;
  };
  KernelLaunch launch;
  std::vector<const Param *> views;
  for (const Param &p : region.params) {
    if (p.kind == Param::Kind::View) {
      const RtValue *v = input(p.name);
      if (!v || v->kind != RtValue::Kind::Tensor)
        return fail("its input `" + p.name + "` is " + (v ? describe(*v) : "missing") +
                    ", not a tensor");
      std::optional<at::ScalarType> type = scalar_type_of(p.dtype);
      if (!type || v->tensor.scalar_type() != *type)
        return fail("`" + p.name + "` is " + dtype_name(v->tensor.scalar_type()) +
                    "; the kernel reads " + p.dtype);
      launch.views.push_back(v->tensor);
      views.push_back(&p);
    } else if (p.kind == Param::Kind::Output) {
      std::optional<at::ScalarType> type = scalar_type_of(p.dtype);
      if (!type) return fail("unknown dtype " + p.dtype + " of `" + p.name + "`");
      launch.outputs.push_back(*type);
    } else if (p.kind == Param::Kind::Number) {
      const RtValue *v = input(p.name);
      if (!v || !is_number(*v))
        return fail("its input `" + p.name + "` is " + (v ? describe(*v) : "missing") +
                    ", not a number");
      launch.numbers.push_back(*v);
    }
  }
  // The shape: sizes as printed, int proxies from the inputs, else from a view of the region's
  // shape (a region over x: f32[i0, i1] need not take i0).
  const std::size_t rank = region.shape.size();
  for (std::size_t d = 0; d < rank; ++d) {
    const std::string &spelled = region.shape[d];
    int64_t size = -1;
    auto [end, ec] = std::from_chars(spelled.data(), spelled.data() + spelled.size(), size);
    if (ec == std::errc() && end == spelled.data() + spelled.size()) {
      launch.shape.push_back(size);
      continue;
    }
    if (const RtValue *v = input(spelled); v && v->kind == RtValue::Kind::Int) {
      launch.shape.push_back(v->integer);
      continue;
    }
    size = -1;
    for (std::size_t k = 0; k < views.size() && size < 0; ++k)
      if (!views[k]->broadcast && launch.views[k].dim() == static_cast<int64_t>(rank))
        size = launch.views[k].size(static_cast<int64_t>(d));
    if (size < 0)
      return fail("cannot tell the size of dim " + std::to_string(d) + " (" + spelled + ")");
    launch.shape.push_back(size);
  }
  launch.elements = 1;
  for (int64_t s : launch.shape)
    launch.elements *= s;
  launch.meta.push_back(launch.elements);
  launch.meta.insert(launch.meta.end(), launch.shape.begin(), launch.shape.end());
  for (std::size_t k = 0; k < views.size(); ++k) {
    const Param &p = *views[k];
    const at::Tensor &t = launch.views[k];
    std::vector<int64_t> strides(rank, 0);
    if (!p.broadcast) {
      if (t.sizes() != c10::IntArrayRef(launch.shape))
        return fail("`" + p.name + "` has shape " + shape_text(t.sizes()) + ", the region " +
                    shape_text(launch.shape));
      for (std::size_t d = 0; d < rank; ++d)
        strides[d] = t.stride(static_cast<int64_t>(d));
    } else {
      if (static_cast<std::size_t>(t.dim()) != p.broadcast_dims.size())
        return fail("`" + p.name + "` has " + std::to_string(t.dim()) + " dims, broadcast as " +
                    std::to_string(p.broadcast_dims.size()));
      for (std::size_t j = 0; j < p.broadcast_dims.size(); ++j) {
        auto d = static_cast<std::size_t>(p.broadcast_dims[j]);
        int64_t size = t.size(static_cast<int64_t>(j));
        if (d >= rank || (size != launch.shape[d] && size != 1))
          return fail("`" + p.name + "` of shape " + shape_text(t.sizes()) +
                      " does not broadcast to " + shape_text(launch.shape));
        // A dim of size 1 stretched over the region's is read at its one element.
        strides[d] = size == 1 ? 0 : t.stride(static_cast<int64_t>(j));
      }
    }
    launch.meta.insert(launch.meta.end(), strides.begin(), strides.end());
  }
  return launch;
}

KernelArguments::KernelArguments(const FusionRegion &region,
                                 const std::vector<uint64_t> &view_addresses,
                                 const std::vector<uint64_t> &output_addresses,
                                 const std::vector<RtValue> &numbers, uint64_t meta_address) {
  storage_.assign(region.params.size(), 0);
  std::size_t view = 0, output = 0, number = 0;
  for (std::size_t k = 0; k < region.params.size(); ++k) {
    const Param &p = region.params[k];
    uint64_t &slot = storage_[k];
    switch (p.kind) {
    case Param::Kind::View:
      slot = view_addresses.at(view++);
      break;
    case Param::Kind::Output:
      slot = output_addresses.at(output++);
      break;
    case Param::Kind::Meta:
      slot = meta_address;
      break;
    case Param::Kind::Number: {
      const RtValue &v = numbers.at(number++);
      if (p.c_type == "double") {
        double d = as_double(v);
        std::memcpy(&slot, &d, sizeof d);
      } else if (p.c_type == "bool") {
        bool b = v.kind == RtValue::Kind::Bool ? v.boolean : as_double(v) != 0;
        std::memcpy(&slot, &b, sizeof b);
      } else {
        int64_t i = v.kind == RtValue::Kind::Float  ? static_cast<int64_t>(v.real)
                    : v.kind == RtValue::Kind::Bool ? int64_t{v.boolean}
                                                    : v.integer;
        std::memcpy(&slot, &i, sizeof i);
      }
      break;
    }
    }
  }
  for (uint64_t &slot : storage_)
    pointers_.push_back(&slot);
}

// ---- the GPU runner

struct GpuRegions::Impl {
  std::shared_ptr<CudaDriver> driver;
  struct Compiled {
    FusionRegion region;
    std::string ptx;
  };
  std::map<std::string, Compiled> by_name;
  mutable std::atomic<std::size_t> launches{0}, copied{0};
};

GpuRegions::GpuRegions(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
GpuRegions::~GpuRegions() = default;

Result<std::unique_ptr<GpuRegions>> GpuRegions::open(const std::vector<FusionRegion> &regions,
                                                     std::shared_ptr<CudaDriver> driver,
                                                     KernelCache &kernels) {
  auto impl = std::make_unique<Impl>();
  impl->driver = std::move(driver);
  for (const FusionRegion &r : regions) {
    Result<Ptx> ptx = kernels.get(r.name, r.cuda_source);
    if (!ptx) return ptx.error();
    impl->by_name.emplace(r.name, Impl::Compiled{r, ptx->ptx});
  }
  return std::unique_ptr<GpuRegions>(new GpuRegions(std::move(impl)));
}

bool GpuRegions::runs(const std::string &region) const {
  return impl_->by_name.count(region) != 0;
}

std::string GpuRegions::device() const {
  const CudaDriver &d = *impl_->driver;
  return (d.device_name().empty() ? "GPU 0" : d.device_name()) + " (" + d.architecture() + ")";
}
std::size_t GpuRegions::launches() const {
  return impl_->launches;
}
std::size_t GpuRegions::copied_launches() const {
  return impl_->copied;
}

Result<std::vector<at::Tensor>> GpuRegions::run(const std::string &name,
                                                const std::vector<const RtValue *> &inputs) const {
  auto found = impl_->by_name.find(name);
  if (found == impl_->by_name.end()) return Error{"no fusion region " + name, "", 0, 0};
  const FusionRegion &region = found->second.region;
  const CudaDriver &driver = *impl_->driver;
  // A tensor not on the GPU (a CPU libtorch) is copied there whole: read contiguously.
  std::vector<RtValue> local;
  local.reserve(inputs.size());
  std::vector<const RtValue *> adjusted;
  for (const RtValue *v : inputs) {
    if (v->kind == RtValue::Kind::Tensor && !v->tensor.is_cuda()) {
      local.push_back(RtValue::of_tensor(v->tensor.contiguous()));
      adjusted.push_back(&local.back());
    } else {
      adjusted.push_back(v);
    }
  }
  Result<KernelLaunch> plan = plan_launch(region, adjusted);
  if (!plan) return plan.error();
  KernelLaunch &launch = plan.value();
  std::optional<at::Device> gpu;
  for (const at::Tensor &t : launch.views)
    if (t.is_cuda()) gpu = t.device();
  std::vector<CudaDriver::Buffer> buffers;
  auto upload = [&](const void *data, std::size_t bytes) -> Result<uint64_t> {
    Result<CudaDriver::Buffer> b = driver.allocate(bytes);
    if (!b) return b.error();
    if (auto e = driver.to_device(b->pointer(), data, bytes)) return *e;
    buffers.push_back(std::move(b.value()));
    return buffers.back().pointer();
  };
  std::vector<uint64_t> view_addresses, output_addresses;
  bool copied = false;
  for (const at::Tensor &t : launch.views) {
    if (t.is_cuda()) {
      view_addresses.push_back(reinterpret_cast<uint64_t>(t.data_ptr()));
      continue;
    }
    Result<uint64_t> address = upload(t.data_ptr(), t.nbytes());
    if (!address) return address.error();
    view_addresses.push_back(address.value());
    copied = true;
  }
  std::vector<at::Tensor> outputs;
  std::vector<std::size_t> output_buffers; // in `buffers`, of each output copied back
  for (at::ScalarType type : launch.outputs) {
    if (gpu) {
      outputs.push_back(at::empty(launch.shape, at::TensorOptions().dtype(type).device(*gpu)));
      output_addresses.push_back(reinterpret_cast<uint64_t>(outputs.back().data_ptr()));
      continue;
    }
    outputs.push_back(at::empty(launch.shape, at::TensorOptions().dtype(type)));
    Result<CudaDriver::Buffer> b = driver.allocate(outputs.back().nbytes());
    if (!b) return b.error();
    buffers.push_back(std::move(b.value()));
    output_buffers.push_back(buffers.size() - 1);
    output_addresses.push_back(buffers.back().pointer());
    copied = true;
  }
  Result<uint64_t> meta = upload(launch.meta.data(), launch.meta.size() * sizeof(int64_t));
  if (!meta) return meta.error();
  KernelArguments arguments(region, view_addresses, output_addresses, launch.numbers, meta.value());
  if (auto e = driver.launch(region.name, found->second.ptx, launch.elements, arguments.get()))
    return *e;
  for (std::size_t o = 0; o < output_buffers.size(); ++o)
    if (auto e = driver.to_host(outputs[o].data_ptr(), buffers[output_buffers[o]].pointer(),
                                outputs[o].nbytes()))
      return *e;
  ++impl_->launches;
  if (copied) ++impl_->copied;
  return outputs;
}

} // namespace tracelint::tracer
