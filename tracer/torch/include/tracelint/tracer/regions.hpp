#pragma once
// Running the cuda_fusion executor's regions as their kernels: how a region's kernel is
// launched on given inputs (its shape, meta array and arguments), and the runner that launches
// them on the GPU through the CUDA driver. Without a runner the executor runs a region as its
// prims (ExecOptions::regions).
#include "tracelint/core/result.hpp"
#include "tracelint/tracer/execute.hpp"
#include "tracelint/tracer/tracer.hpp"

#include <ATen/ATen.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tracelint::tracer {

class CudaDriver;
class KernelCache;

// One launch of a region's kernel, from the region's inputs (the call's arguments, in the
// order of FusionRegion::inputs).
struct KernelLaunch {
  std::vector<int64_t> shape;    // the region's sizes
  int64_t elements = 0;          // threads: one per element of the shape
  std::vector<int64_t> meta;     // the element count, the sizes, then each view's strides
  std::vector<at::Tensor> views; // per FusionRegion::KernelParam::Kind::View, in order
  std::vector<at::ScalarType> outputs;
  std::vector<RtValue> numbers; // per Kind::Number
};

// The launch for these inputs: each view's strides in elements over the region's dims (0 where
// it is broadcast: a dim broadcast_in_dim adds, or one of size 1 stretched), the shape resolved
// from the sizes and int proxies the trace spells. An Error names what does not fit.
Result<KernelLaunch> plan_launch(const FusionRegion &region,
                                 const std::vector<const RtValue *> &inputs);

// A kernel's argument list as cuLaunchKernel takes it: a pointer to each parameter's value, in
// the kernel's order. Addresses are device (or, for a host build of a kernel, host) pointers.
class KernelArguments {
public:
  KernelArguments(const FusionRegion &region, const std::vector<uint64_t> &view_addresses,
                  const std::vector<uint64_t> &output_addresses,
                  const std::vector<RtValue> &numbers, uint64_t meta_address);
  void **get() { return pointers_.data(); }

private:
  // One 8-byte slot per parameter (pointers, long long, double; bool in its first byte).
  std::vector<uint64_t> storage_;
  std::vector<void *> pointers_;
};

// Runs the regions of one traced program as CUDA kernels on device 0: their PTX compiled by
// NVRTC once, inputs on the GPU read in place (a libtorch with CUDA) or copied there and the
// outputs back (a CPU libtorch: the prims between regions run on the CPU). Thread-safe.
class GpuRegions : public RegionRunner {
public:
  // The regions' kernels compiled through `kernels` (for driver->architecture()); an Error
  // when one does not compile, or this build has no NVRTC.
  static Result<std::unique_ptr<GpuRegions>> open(const std::vector<FusionRegion> &regions,
                                                  std::shared_ptr<CudaDriver> driver,
                                                  KernelCache &kernels);
  ~GpuRegions() override;
  bool runs(const std::string &region) const override;
  Result<std::vector<at::Tensor>> run(const std::string &region,
                                      const std::vector<const RtValue *> &inputs) const override;
  // "NVIDIA H100 80GB HBM3 (compute_90)"
  std::string device() const;
  // Launches so far, and of those the ones whose tensors were copied to the GPU and back.
  std::size_t launches() const;
  std::size_t copied_launches() const;

private:
  struct Impl;
  explicit GpuRegions(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace tracelint::tracer
