#pragma once
// The CUDA driver API, opened at run time with dlopen (libcuda.so.1 comes with the GPU's driver,
// not with the toolkit: a machine without a GPU has none, and the project must run there), for
// what the cuda_fusion executor needs: device memory, PTX modules and kernel launches on device
// 0's primary context (the one libtorch's CUDA runtime uses, so their pointers are each other's).
#include "tracelint/core/result.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace tracelint::tracer {

class CudaDriver {
public:
  // Opens `library` (default: the driver's libcuda.so.1), initialises it and retains device
  // 0's primary context. An Error says why not: no driver, a stub library (the toolkit's
  // lib64/stubs), no device.
  static Result<std::shared_ptr<CudaDriver>> open(const std::string &library = "libcuda.so.1");
  ~CudaDriver();
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  // "compute_90": device 0's compute capability, as NVRTC's --gpu-architecture takes it.
  const std::string &architecture() const { return architecture_; }
  const std::string &device_name() const { return device_name_; }

  // Device memory, freed with the object.
  class Buffer {
  public:
    Buffer() = default;
    Buffer(Buffer &&other) noexcept;
    Buffer &operator=(Buffer &&other) noexcept;
    ~Buffer();
    uint64_t pointer() const { return pointer_; }

  private:
    friend class CudaDriver;
    const CudaDriver *driver_ = nullptr;
    uint64_t pointer_ = 0;
  };
  Result<Buffer> allocate(std::size_t bytes) const;
  std::optional<Error> to_device(uint64_t destination, const void *source, std::size_t bytes) const;
  std::optional<Error> to_host(void *destination, uint64_t source, std::size_t bytes) const;

  // The copies and the launch return the error, or nothing when they succeed.
  // Loads the PTX (once per kernel name: the driver compiles it for the device) and launches
  // `kernel` on the default stream over `threads` threads, blocks of 256; `arguments` point to
  // each parameter's value, as cuLaunchKernel takes them. Then waits for it: a kernel's fault is
  // this launch's error, not a later call's.
  std::optional<Error> launch(const std::string &kernel, const std::string &ptx, int64_t threads,
                              void **arguments) const;

private:
  CudaDriver() = default;
  struct Api;
  std::optional<Error> check(int status, const std::string &what) const;
  std::optional<Error> make_current() const;

  void *library_ = nullptr;
  std::unique_ptr<Api> api_;
  int device_ = 0;
  void *context_ = nullptr;
  std::string architecture_, device_name_;
  mutable std::mutex mutex_;
  // By kernel name and PTX hash: its module and function.
  mutable std::map<std::string, std::pair<void *, void *>> loaded_;
};

} // namespace tracelint::tracer
