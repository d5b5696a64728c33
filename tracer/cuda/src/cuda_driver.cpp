#include "tracelint/tracer/cuda_driver.hpp"

#include <dlfcn.h>

#include <functional>

namespace tracelint::tracer {

// The driver API's entry points, by the ABI cuda.h declares (CUresult is an int, handles are
// pointers, CUdeviceptr a 64-bit integer): the project builds without the toolkit's headers.
struct CudaDriver::Api {
  int (*init)(unsigned);
  int (*device_get)(int *, int);
  int (*device_count)(int *);
  int (*device_attribute)(int *, int, int);
  int (*device_name)(char *, int, int);
  int (*primary_retain)(void **, int);
  int (*primary_release)(int);
  int (*context_set_current)(void *);
  int (*context_synchronize)();
  int (*module_load_data)(void **, const void *);
  int (*module_get_function)(void **, void *, const char *);
  int (*module_unload)(void *);
  int (*memory_allocate)(uint64_t *, std::size_t);
  int (*memory_free)(uint64_t);
  int (*copy_to_device)(uint64_t, const void *, std::size_t);
  int (*copy_to_host)(void *, uint64_t, std::size_t);
  int (*launch_kernel)(void *, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                       void *, void **, void **);
  int (*error_name)(int, const char **);
  int (*error_string)(int, const char **);
};

namespace {

// cuda.h's values of the few constants used here.
constexpr int kStubLibrary = 34;           // CUDA_ERROR_STUB_LIBRARY
constexpr int kNoDevice = 100;             // CUDA_ERROR_NO_DEVICE
constexpr int kComputeMajor = 75;          // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
constexpr int kComputeMinor = 76;          // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
constexpr unsigned kThreadsPerBlock = 256; // a multiple of the warp, as nvFuser's defaults

template <class F> bool resolve(void *library, F &entry, const char *name) {
  entry = reinterpret_cast<F>(dlsym(library, name));
  return entry != nullptr;
}

} // namespace

Result<std::shared_ptr<CudaDriver>> CudaDriver::open(const std::string &library) {
  void *handle = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *why = dlerror();
    return Error{"no CUDA driver: cannot open " + library +
                     (why ? std::string(" (") + why + ")" : "") +
                     "; it comes with the GPU's driver",
                 "", 0, 0};
  }
  std::shared_ptr<CudaDriver> driver(new CudaDriver());
  driver->library_ = handle;
  driver->api_ = std::make_unique<Api>();
  Api &a = *driver->api_;
  // The _v2 names are the 64-bit pointer versions cuda.h maps the plain names to.
  const char *missing = nullptr;
  auto need = [&](auto &entry, const char *name) {
    if (!missing && !resolve(handle, entry, name)) missing = name;
  };
  need(a.init, "cuInit");
  need(a.device_get, "cuDeviceGet");
  need(a.device_count, "cuDeviceGetCount");
  need(a.device_attribute, "cuDeviceGetAttribute");
  need(a.device_name, "cuDeviceGetName");
  need(a.primary_retain, "cuDevicePrimaryCtxRetain");
  need(a.primary_release, "cuDevicePrimaryCtxRelease_v2");
  need(a.context_set_current, "cuCtxSetCurrent");
  need(a.context_synchronize, "cuCtxSynchronize");
  need(a.module_load_data, "cuModuleLoadData");
  need(a.module_get_function, "cuModuleGetFunction");
  need(a.module_unload, "cuModuleUnload");
  need(a.memory_allocate, "cuMemAlloc_v2");
  need(a.memory_free, "cuMemFree_v2");
  need(a.copy_to_device, "cuMemcpyHtoD_v2");
  need(a.copy_to_host, "cuMemcpyDtoH_v2");
  need(a.launch_kernel, "cuLaunchKernel");
  need(a.error_name, "cuGetErrorName");
  need(a.error_string, "cuGetErrorString");
  if (missing)
    return Error{library + " has no " + missing + ": not a CUDA driver of version 11 or later", "",
                 0, 0};
  int status = a.init(0);
  if (status == kStubLibrary)
    return Error{library + " is the toolkit's stub of the driver (lib64/stubs), for linking only: "
                           "no CUDA driver is installed",
                 "", 0, 0};
  if (status == kNoDevice) return Error{"the CUDA driver finds no GPU", "", 0, 0};
  if (auto e = driver->check(status, "cuInit")) return *e;
  int devices = 0;
  if (auto e = driver->check(a.device_count(&devices), "cuDeviceGetCount")) return *e;
  if (devices < 1) return Error{"the CUDA driver finds no GPU", "", 0, 0};
  if (auto e = driver->check(a.device_get(&driver->device_, 0), "cuDeviceGet")) return *e;
  int major = 0, minor = 0;
  if (auto e = driver->check(a.device_attribute(&major, kComputeMajor, driver->device_),
                             "cuDeviceGetAttribute"))
    return *e;
  if (auto e = driver->check(a.device_attribute(&minor, kComputeMinor, driver->device_),
                             "cuDeviceGetAttribute"))
    return *e;
  driver->architecture_ = "compute_" + std::to_string(major) + std::to_string(minor);
  char name[256] = {};
  if (a.device_name(name, sizeof name - 1, driver->device_) == 0) driver->device_name_ = name;
  if (auto e = driver->check(a.primary_retain(&driver->context_, driver->device_),
                             "cuDevicePrimaryCtxRetain"))
    return *e;
  return driver;
}

CudaDriver::~CudaDriver() {
  if (api_ && context_) {
    if (api_->context_set_current(context_) == 0)
      for (auto &[kernel, loaded] : loaded_)
        api_->module_unload(loaded.first);
    api_->primary_release(device_);
  }
  // The library stays loaded: libtorch's CUDA runtime holds the same driver, and unloading a
  // driver a process still uses is what its documentation warns against.
}

std::optional<Error> CudaDriver::check(int status, const std::string &what) const {
  if (status == 0) return std::nullopt;
  const char *name = nullptr, *text = nullptr;
  if (api_ && api_->error_name) api_->error_name(status, &name);
  if (api_ && api_->error_string) api_->error_string(status, &text);
  return Error{"CUDA driver: " + what + " failed: " + (name ? name : std::to_string(status)) +
                   (text ? std::string(" (") + text + ")" : ""),
               "", 0, 0};
}

// The driver's current context is per thread: each call sets it on the thread it runs on.
std::optional<Error> CudaDriver::make_current() const {
  return check(api_->context_set_current(context_), "cuCtxSetCurrent");
}

CudaDriver::Buffer::Buffer(Buffer &&other) noexcept
    : driver_(other.driver_), pointer_(other.pointer_) {
  other.pointer_ = 0;
}

CudaDriver::Buffer &CudaDriver::Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    if (pointer_) driver_->api_->memory_free(pointer_);
    driver_ = other.driver_;
    pointer_ = other.pointer_;
    other.pointer_ = 0;
  }
  return *this;
}

CudaDriver::Buffer::~Buffer() {
  if (pointer_ && driver_->make_current() == std::nullopt) driver_->api_->memory_free(pointer_);
}

Result<CudaDriver::Buffer> CudaDriver::allocate(std::size_t bytes) const {
  if (auto e = make_current()) return *e;
  Buffer b;
  b.driver_ = this;
  // cuMemAlloc refuses 0 bytes: an empty tensor still gets a pointer the kernel never reads.
  if (auto e = check(api_->memory_allocate(&b.pointer_, bytes ? bytes : 1),
                     "cuMemAlloc of " + std::to_string(bytes) + " bytes"))
    return *e;
  return b;
}

std::optional<Error> CudaDriver::to_device(uint64_t destination, const void *source,
                                           std::size_t bytes) const {
  if (auto e = make_current()) return e;
  if (!bytes) return std::nullopt;
  return check(api_->copy_to_device(destination, source, bytes), "cuMemcpyHtoD");
}

std::optional<Error> CudaDriver::to_host(void *destination, uint64_t source,
                                         std::size_t bytes) const {
  if (auto e = make_current()) return e;
  if (!bytes) return std::nullopt;
  return check(api_->copy_to_host(destination, source, bytes), "cuMemcpyDtoH");
}

std::optional<Error> CudaDriver::launch(const std::string &kernel, const std::string &ptx,
                                        int64_t threads, void **arguments) const {
  if (auto e = make_current()) return e;
  void *function = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // By name and the whole code: two programs' regions may share a name (cudaFusion0), not a
    // kernel, and a hash of the code could collide.
    std::string key = kernel + "\n" + ptx;
    auto found = loaded_.find(key);
    if (found == loaded_.end()) {
      void *module = nullptr;
      if (auto e = check(api_->module_load_data(&module, ptx.c_str()),
                         "cuModuleLoadData (" + kernel + "'s PTX for " + architecture_ + ")"))
        return e;
      void *f = nullptr;
      if (auto e = check(api_->module_get_function(&f, module, kernel.c_str()),
                         "cuModuleGetFunction " + kernel)) {
        api_->module_unload(module);
        return e;
      }
      found = loaded_.emplace(key, std::make_pair(module, f)).first;
    }
    function = found->second.second;
  }
  if (threads <= 0) return std::nullopt;
  int64_t blocks = (threads + kThreadsPerBlock - 1) / kThreadsPerBlock;
  if (blocks > int64_t{0x7fffffff})
    return Error{kernel + ": " + std::to_string(threads) +
                     " elements are more than one launch "
                     "of blocks of 256 covers",
                 "", 0, 0};
  if (auto e = check(api_->launch_kernel(function, static_cast<unsigned>(blocks), 1, 1,
                                         kThreadsPerBlock, 1, 1, 0, nullptr, arguments, nullptr),
                     "cuLaunchKernel " + kernel))
    return e;
  return check(api_->context_synchronize(), kernel + " (cuCtxSynchronize after its launch)");
}

} // namespace tracelint::tracer
