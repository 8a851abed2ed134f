// Shared machinery of the GEMM benches: several input sets on the device (rotated so L2 does not
// flatter), fresh random data, cuBLAS on the same buffers, CUDA-event timing with a median.
#pragma once

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace strata::bench {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
inline void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}

// Uniform values in [-1, 1) from a counter-based hash: fast to generate on the device for
// gigabytes of operands, different for every (seed, index).
template <class T>
__global__ void fill_random_kernel(T* data, int64_t count, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t x = (uint64_t(seed) << 40) ^ uint64_t(i);
    x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33;
    float u = float(x >> 40) * (1.0f / float(1 << 24)) * 2.0f - 1.0f;
    data[i] = T(u);
  }
}

template <class T>
void fill_random(T* data, int64_t count, uint32_t seed) {
  fill_random_kernel<<<1024, 256>>>(data, count, seed);
  check(cudaGetLastError(), "fill_random");
}

// Device memory freed on destruction.
template <class T>
struct DeviceArray {
  T* ptr = nullptr;
  int64_t count = 0;
  explicit DeviceArray(int64_t n) : count(n) { check(cudaMalloc(&ptr, std::max<int64_t>(n, 1) * sizeof(T)), "cudaMalloc"); }
  ~DeviceArray() { cudaFree(ptr); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

// Enough (A, B) sets that one pass over them is several times the L2 (50 MB on an H200), at most 8.
inline int input_sets_for(int64_t bytes_per_set) {
  const int64_t target = int64_t(256) << 20;
  int64_t sets = (target + bytes_per_set - 1) / std::max<int64_t>(bytes_per_set, 1);
  return int(std::clamp<int64_t>(sets, 2, 8));
}

// The (A, B) input sets of an m × n × k problem, input_sets_for of them: A m × k and B k × n of
// fresh random values, set s from seeds seed + 2s and seed + 2s + 1.
template <class T>
struct InputSets {
  std::vector<std::unique_ptr<DeviceArray<T>>> owned;
  std::vector<T*> a, b;
  InputSets(int m, int n, int k, uint32_t seed) {
    const int sets = input_sets_for((int64_t(m) * k + int64_t(k) * n) * int64_t(sizeof(T)));
    for (int s = 0; s < sets; ++s) {
      owned.push_back(std::make_unique<DeviceArray<T>>(int64_t(m) * k));
      fill_random(owned.back()->ptr, int64_t(m) * k, seed + 2 * uint32_t(s));
      a.push_back(owned.back()->ptr);
      owned.push_back(std::make_unique<DeviceArray<T>>(int64_t(k) * n));
      fill_random(owned.back()->ptr, int64_t(k) * n, seed + 2 * uint32_t(s) + 1);
      b.push_back(owned.back()->ptr);
    }
  }
  int size() const { return int(a.size()); }
};

// Median time in ms of each launch, timed interleaved: every round launches each once, in turn,
// so clock changes (the GPU runs at its power limit under these kernels, and slows as it warms)
// reach them all alike instead of whichever was timed last. launches[v](i) runs with input set i
// (modulo the sets there are); consecutive launches get consecutive i, so none finds its inputs in
// L2 from the launch before it.
inline std::vector<double> median_ms_interleaved(std::vector<std::function<void(int)>> const& launches,
                                                 int warmup = 5, int reps = 30) {
  const int variants = static_cast<int>(launches.size());
  for (int i = 0; i < warmup; ++i)
    for (int v = 0; v < variants; ++v) launches[size_t(v)](i * variants + v);
  check(cudaDeviceSynchronize(), "warm-up");
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<std::vector<float>> ms(launches.size(), std::vector<float>(size_t(reps)));
  for (int r = 0; r < reps; ++r) {
    for (size_t v = 0; v < launches.size(); ++v) {
      check(cudaEventRecord(start), "cudaEventRecord");
      launches[v]((warmup + r) * variants + int(v));
      check(cudaEventRecord(stop), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      check(cudaEventElapsedTime(&ms[v][size_t(r)], start, stop), "cudaEventElapsedTime");
    }
  }
  check(cudaGetLastError(), "timed launches");
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::vector<double> medians;
  for (auto& m : ms) {
    std::nth_element(m.begin(), m.begin() + reps / 2, m.end());
    medians.push_back(m[size_t(reps / 2)]);
  }
  return medians;
}

// The same for one launch: each timing is one launch bracketed by events.
inline double median_ms(const std::function<void(int)>& launch, int warmup = 5, int reps = 30) {
  return median_ms_interleaved({launch}, warmup, reps)[0];
}

// Mean time in ms per launch of each of `launches` when `batch` launches of it go back to back on
// the stream with nothing in between (as a model's GEMMs do), between two events; the median over
// `reps` batches. Launch latency and a kernel's ramp-up and tail then overlap the neighbouring
// launches, which the one-at-a-time figure of median_ms charges in full. Each rep runs a batch of
// every launch in turn (as median_ms_interleaved does single launches): one timed after another
// ran 1-7 % slower for it when each was timed in a block of its own (bench/RESULTS.md, 36th).
inline std::vector<double> streamed_ms_interleaved(std::vector<std::function<void(int)>> const& launches,
                                                   int batch = 100, int reps = 5) {
  std::vector<std::function<void(int)>> batches;
  for (auto const& launch : launches)
    batches.push_back([&launch, batch](int i) {
      for (int j = 0; j < batch; ++j) launch(i * batch + j);
    });
  std::vector<double> ms = median_ms_interleaved(batches, 1, reps);
  for (double& t : ms) t /= batch;
  return ms;
}
// The same for one launch.
inline double streamed_ms(const std::function<void(int)>& launch, int batch = 100, int reps = 5) {
  return streamed_ms_interleaved({launch}, batch, reps)[0];
}

// The benches' problem in a kernel's Arguments: D (m × n, row-major) = A (m × k, row-major) ·
// B (k × n, column-major), alpha 1, beta 0.
template <class Arguments, class TA, class TB, class TD>
Arguments plain_gemm_arguments(int m, int n, int k, TA const* a, TB const* b, TD* d) {
  Arguments x;
  x.m = m, x.n = n, x.k = k;
  x.A = a, x.lda = k, x.B = b, x.ldb = k, x.D = d, x.ldd = n;
  x.epilogue = {{1.f, 0.f}};
  return x;
}

// A tool's shapes: arguments argv[first], argv[first + 1], ... each "m,n,k" with every dimension at
// least 1, or `defaults` when there are none; false, after printing "usage: <tool> <usage>" to
// stderr, at the first argument that is not a shape.
inline bool shapes_from_args(int argc, char** argv, int first, std::vector<std::array<int, 3>> const& defaults,
                             const char* usage, std::vector<std::array<int, 3>>& shapes) {
  shapes.clear();
  for (int i = first; i < argc; ++i) {
    std::array<int, 3> s{};
    char tail = 0;
    if (std::sscanf(argv[i], "%d,%d,%d%c", &s[0], &s[1], &s[2], &tail) != 3 || s[0] < 1 || s[1] < 1 || s[2] < 1) {
      std::fprintf(stderr, "usage: %s %s\n", argv[0], usage);
      return false;
    }
    shapes.push_back(s);
  }
  if (shapes.empty()) shapes = defaults;
  return true;
}

// A cuBLAS handle destroyed when its scope ends, early returns of a bench included.
struct CublasHandle {
  cublasHandle_t handle{};
  CublasHandle() { check(cublasCreate(&handle), "cublasCreate"); }
  ~CublasHandle() { cublasDestroy(handle); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  operator cublasHandle_t() const { return handle; }
};

template <class T> struct CublasType;
template <> struct CublasType<__half> { static constexpr cudaDataType_t value = CUDA_R_16F; };
template <> struct CublasType<__nv_bfloat16> { static constexpr cudaDataType_t value = CUDA_R_16BF; };
template <> struct CublasType<float> { static constexpr cudaDataType_t value = CUDA_R_32F; };

// D (m×n, row-major, ldd) = A · B with A m×k and B k×n given by their majorness, through
// cublasGemmEx, accumulating in fp32 (tf32 tensor cores for fp32 inputs when `tf32`).
// cuBLAS is column-major: a row-major D is the column-major D^T = B^T · A^T, so the operands swap;
// a row-major operand seen column-major is its own transpose.
template <class TA, class TB, class TD>
void cublas_gemm(cublasHandle_t handle, int m, int n, int k, const TA* A, bool a_row_major, int64_t lda,
                 const TB* B, bool b_row_major, int64_t ldb, TD* D, int64_t ldd, bool tf32 = false) {
  const float alpha = 1.f, beta = 0.f;
  // D^T (n×m) = op(B') · op(A'), where B' is B's buffer read column-major: k×n column-major is B
  // itself (we need B^T: op T), k×n row-major reads as B^T already (op N). Likewise for A.
  check(cublasGemmEx(handle, b_row_major ? CUBLAS_OP_N : CUBLAS_OP_T, a_row_major ? CUBLAS_OP_N : CUBLAS_OP_T,
                     n, m, k, &alpha, B, CublasType<TB>::value, int(ldb), A, CublasType<TA>::value, int(lda),
                     &beta, D, CublasType<TD>::value, int(ldd),
                     tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
        "cublasGemmEx");
}

namespace detail {
template <class T>
__device__ double bench_as_double(T x) {
  if constexpr (std::is_same_v<T, __half>) return double(__half2float(x));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return double(__bfloat162float(x));
  else return double(x);
}
// sums[0] += Σ (got - want)^2, sums[1] += Σ want^2, over `count` elements.
template <class T>
__global__ void squared_error_kernel(T const* got, T const* want, int64_t count, double* sums) {
  double diff = 0, norm = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    const double g = bench_as_double(got[i]), w = bench_as_double(want[i]);
    // NaN or infinity anywhere makes the error infinite, so it cannot pass.
    diff += (g == g && w == w && g - g == 0) ? (g - w) * (g - w) : INFINITY;
    norm += w * w;
  }
  atomicAdd(&sums[0], diff);
  atomicAdd(&sums[1], norm);
}
// Elements with |got - want| > tolerance(want): abs_tol + rel_tol * |want|.
template <class T>
__global__ void count_far_kernel(T const* got, T const* want, int64_t count, double abs_tol, double rel_tol,
                                 unsigned long long* far) {
  unsigned long long n = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x) {
    const double g = bench_as_double(got[i]), w = bench_as_double(want[i]);
    if (!(fabs(g - w) <= abs_tol + rel_tol * fabs(w))) ++n;
  }
  atomicAdd(far, n);
}
}  // namespace detail

// How far strata's output `got` is from cuBLAS's `want` (both m × n, contiguous): the relative
// error ‖got − want‖ / ‖want‖, and the elements off by more than `rel_tol`·|want| plus
// `abs_tol_of_rms`·rms(want) (two roundings of the output type apart, plus what two accumulation
// orders may differ by). A race or an indexing bug shows as elements far off; NaN never passes.
struct OutputComparison {
  double relative_error = 0;
  unsigned long long far_elements = 0;
};
template <class T>
OutputComparison compare_outputs(T const* got, T const* want, int64_t count, double rel_tol, double abs_tol_of_rms) {
  double* sums = nullptr;
  unsigned long long* far = nullptr;
  check(cudaMalloc(&sums, 2 * sizeof(double)), "cudaMalloc");
  check(cudaMalloc(&far, sizeof(unsigned long long)), "cudaMalloc");
  check(cudaMemset(sums, 0, 2 * sizeof(double)), "cudaMemset");
  check(cudaMemset(far, 0, sizeof(unsigned long long)), "cudaMemset");
  detail::squared_error_kernel<<<264, 256>>>(got, want, count, sums);
  double host[2] = {0, 0};
  check(cudaMemcpy(host, sums, sizeof(host), cudaMemcpyDeviceToHost), "compare_outputs");
  const double rms = std::sqrt(host[1] / double(std::max<int64_t>(count, 1)));
  detail::count_far_kernel<<<264, 256>>>(got, want, count, abs_tol_of_rms * rms, rel_tol, far);
  OutputComparison c;
  check(cudaMemcpy(&c.far_elements, far, sizeof(c.far_elements), cudaMemcpyDeviceToHost), "compare_outputs");
  c.relative_error = std::sqrt(host[0] / (host[1] > 0 ? host[1] : 1.0));
  cudaFree(sums);
  cudaFree(far);
  return c;
}

}  // namespace strata::bench
