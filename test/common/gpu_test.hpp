// Strata test helpers for GPU tests: skip cleanly (with the reason) where no suitable GPU is
// present, fail with CUDA's own error string, and own device memory.
//
//   TEST(Sm80Gemm, Square) {
//     STRATA_REQUIRE_SM(8, 0);
//     strata::test::DeviceBuffer<float> d(host);     // cudaMalloc + upload
//     kernel<<<g, b>>>(d.get());
//     STRATA_CUDA_CHECK(cudaDeviceSynchronize());
//     std::vector<float> out = d.download();
//   }
//
// The macros return from the calling function (as GTEST_SKIP and ASSERT_* do): use them in a
// TEST body or a function returning void.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace strata::test {

// Empty when a CUDA device can be used; otherwise why not.
inline std::string gpu_unavailable_reason() {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error so later checks start clean
    return std::string("no CUDA GPU present (cudaGetDeviceCount: ") + cudaGetErrorString(err) + ")";
  }
  if (count == 0) return "no CUDA GPU present (cudaGetDeviceCount: 0 devices)";
  return {};
}

// Empty when the current device has compute capability major.minor (exact == true) or at least
// that (exact == false); otherwise which capability was found and which was required.
inline std::string compute_capability_mismatch(int major, int minor, bool exact) {
  int device = 0, found_major = 0, found_minor = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&found_major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&found_minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess) {
    return std::string("cannot query the device: ") + cudaGetErrorString(cudaGetLastError());
  }
  const int found = found_major * 10 + found_minor, required = major * 10 + minor;
  if (exact ? found == required : found >= required) return {};
  return "needs compute capability " + std::string(exact ? "" : ">= ") + std::to_string(major) + "." +
         std::to_string(minor) + ", found " + std::to_string(found_major) + "." +
         std::to_string(found_minor);
}

// Throws std::runtime_error naming the call; GoogleTest reports it as a failure of the test.
inline void throw_on_error(cudaError_t err, const char* what) {
  if (err != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(err));
}

// Device memory for `count` elements of T, freed on destruction. Move-only.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) throw_on_error(cudaMalloc(reinterpret_cast<void**>(&data_), bytes()), "cudaMalloc");
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) { upload(host); }

  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(count_, other.count_);
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { (void)cudaFree(data_); }

  T* get() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  // Copies host[0, host.size()) to the start of the buffer; host must not be larger.
  void upload(const std::vector<T>& host) {
    if (host.size() > count_) throw std::length_error("DeviceBuffer::upload: host vector larger than buffer");
    throw_on_error(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice),
                   "cudaMemcpy to device");
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    throw_on_error(cudaMemcpy(host.data(), data_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
    return host;
  }
  // Sets every byte, e.g. 0xFF (NaN in float/half/bf16) to catch outputs left unwritten.
  void fill_bytes(unsigned char value) { throw_on_error(cudaMemset(data_, value, bytes()), "cudaMemset"); }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace strata::test

#define STRATA_REQUIRE_GPU()                                                   \
  do {                                                                         \
    if (std::string strata_reason_ = ::strata::test::gpu_unavailable_reason(); \
        !strata_reason_.empty())                                               \
      GTEST_SKIP() << strata_reason_;                                          \
  } while (0)

// Skips unless the GPU has compute capability major.minor or newer (Ampere-path code).
#define STRATA_REQUIRE_SM(major, minor)                                                      \
  do {                                                                                       \
    STRATA_REQUIRE_GPU();                                                                    \
    if (std::string strata_reason_ = ::strata::test::compute_capability_mismatch(major, minor, false); \
        !strata_reason_.empty())                                                             \
      GTEST_SKIP() << strata_reason_;                                                        \
  } while (0)

// Skips unless the GPU has exactly compute capability major.minor: for arch-specific code such
// as sm_90a (wgmma, setmaxnreg), which runs on no other GPU.
#define STRATA_REQUIRE_SM_EXACT(major, minor)                                                \
  do {                                                                                       \
    STRATA_REQUIRE_GPU();                                                                    \
    if (std::string strata_reason_ = ::strata::test::compute_capability_mismatch(major, minor, true); \
        !strata_reason_.empty())                                                             \
      GTEST_SKIP() << strata_reason_;                                                        \
  } while (0)

// Fails (and ends) the test when a CUDA call does not return cudaSuccess, naming call and error.
#define STRATA_CUDA_CHECK(expr)                                                    \
  do {                                                                             \
    const cudaError_t strata_err_ = (expr);                                        \
    ASSERT_EQ(strata_err_, cudaSuccess) << #expr << ": " << cudaGetErrorString(strata_err_); \
  } while (0)
