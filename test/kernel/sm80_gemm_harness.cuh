// Shared machinery of the Ampere GEMM tests: fresh random operands, poisoned outputs, a GPU
// reference in double precision, and an element-by-element comparison with a stated tolerance.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <kernel/gemm.hpp>

#include "common/gpu_test.hpp"
#include "common/reference.hpp"

namespace strata::test {

struct Shape3 {
  int m, n, k;
};
inline std::string describe(Shape3 s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

// Values of the operands: uniform in [-1, 1] for floating types, small integers for int8 (never
// all zeros: zeros hide unwritten outputs and wrong indexing).
template <class T>
std::vector<T> random_operand(size_t count, uint64_t seed) {
  if constexpr (std::is_same_v<T, int8_t>) {
    std::mt19937_64 engine(seed);
    std::uniform_int_distribution<int> uniform(-8, 8);
    std::vector<T> v(count);
    for (auto& x : v) x = int8_t(uniform(engine));
    return v;
  } else {
    return random_vector<T>(count, seed);
  }
}

template <class T>
__host__ __device__ double as_double(T x) {
  if constexpr (std::is_same_v<T, __half>) {
    return double(__half2float(x));
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return double(__bfloat162float(x));
  } else {
    return double(x);
  }
}

// ref[i*n + j] = Σ_k A(i,k) B(k,j) in double, absref = Σ |A(i,k) B(k,j)|, for any majorness.
template <class TA, class TB>
__global__ void reference_gemm_kernel(int m, int n, int k, TA const* A, int64_t lda, bool a_row_major, TB const* B,
                                      int64_t ldb, bool b_row_major, double* ref, double* absref) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y;
  if (j >= n) return;
  double sum = 0, abs_sum = 0;
  for (int p = 0; p < k; ++p) {
    const double a = as_double(a_row_major ? A[i * lda + p] : A[i + p * lda]);
    const double b = as_double(b_row_major ? B[p * ldb + j] : B[p + j * ldb]);
    sum += a * b;
    abs_sum += std::fabs(a * b);
  }
  ref[int64_t(i) * n + j] = sum;
  absref[int64_t(i) * n + j] = abs_sum;
}

// Relative accuracy of an output element type: half an ulp of its mantissa.
template <class T>
constexpr double output_epsilon() {
  if constexpr (std::is_same_v<T, __half>) return 1.0 / 2048;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return 1.0 / 256;
  else if constexpr (std::is_same_v<T, float>) return 1.0 / (1 << 23);
  else return 0.0;  // integers: exact
}
// Accumulation error allowed, relative to Σ|a·b|: fp32 accumulation of exact products (16-bit
// and int8 inputs), or tf32 rounding of the inputs (10-bit mantissa) for fp32 inputs.
template <class TA>
constexpr double accumulation_tolerance() {
  if constexpr (std::is_same_v<TA, float>) return 2.0 / 1024;
  else if constexpr (std::is_same_v<TA, int8_t>) return 0.0;
  else return 1e-4;
}

// A problem on the device: operands as the kernel's majorness says, D poisoned, and the
// double-precision reference of A·B (ref) with Σ|a·b| (absref) for the tolerance.
template <class Kernel>
struct GemmProblem {
  using G = Gemm<Kernel>;
  using TA = typename Kernel::ElementA;
  using TB = typename Kernel::ElementB;
  using TD = typename Kernel::ElementD;
  using Config = typename Kernel::Config;
  static constexpr bool a_row_major = std::is_same_v<typename Config::LayoutTagA, RowMajor>;
  static constexpr bool b_row_major = std::is_same_v<typename Config::LayoutTagB, RowMajor>;

  Shape3 s;
  int batches;
  int64_t lda, ldb, ldd, stride_a, stride_b, stride_d;
  std::vector<TA> a;
  std::vector<TB> b;
  DeviceBuffer<TA> dA;
  DeviceBuffer<TB> dB;
  DeviceBuffer<TD> dD;
  std::vector<double> ref, absref;

  static int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

  GemmProblem(Shape3 shape, uint64_t seed, int batch_count = 1) : s(shape), batches(batch_count) {
    // Leading dimensions: the smallest legal ones (padded to 16 bytes), so edges are exercised.
    lda = round_up(std::max(1, a_row_major ? s.k : s.m), Config::vector_a);
    ldb = round_up(std::max(1, b_row_major ? s.n : s.k), Config::vector_b);
    ldd = round_up(std::max(1, s.n), 16 / int(sizeof(TD)));
    stride_a = round_up(lda * (a_row_major ? s.m : s.k), 8);
    stride_b = round_up(ldb * (b_row_major ? s.k : s.n), 8);
    stride_d = ldd * s.m;
    a = random_operand<TA>(size_t(std::max<int64_t>(stride_a * batches, 1)), seed);
    b = random_operand<TB>(size_t(std::max<int64_t>(stride_b * batches, 1)), seed + 1);
    dA = DeviceBuffer<TA>(a);
    dB = DeviceBuffer<TB>(b);
    dD = DeviceBuffer<TD>(size_t(std::max<int64_t>(stride_d * batches, 1)));
    poison();
    compute_reference();
  }

  void poison() { dD.fill_bytes(0xFF); }

  void compute_reference() {
    const int64_t mn = int64_t(s.m) * s.n;
    ref.assign(size_t(mn * batches), 0.0);
    absref.assign(size_t(mn * batches), 0.0);
    if (mn == 0) return;
    DeviceBuffer<double> dref{static_cast<size_t>(mn)}, dabs{static_cast<size_t>(mn)};
    for (int bt = 0; bt < batches; ++bt) {
      dim3 grid((s.n + 127) / 128, s.m);
      reference_gemm_kernel<<<grid, 128>>>(s.m, s.n, s.k, dA.get() + bt * stride_a, lda, a_row_major,
                                           dB.get() + bt * stride_b, ldb, b_row_major, dref.get(), dabs.get());
      throw_on_error(cudaGetLastError(), "reference_gemm_kernel");
      auto r = dref.download();
      auto ab = dabs.download();
      std::copy(r.begin(), r.end(), ref.begin() + bt * mn);
      std::copy(ab.begin(), ab.end(), absref.begin() + bt * mn);
    }
  }

  typename G::Arguments arguments() const {
    typename G::Arguments args;
    args.m = s.m; args.n = s.n; args.k = s.k;
    args.A = dA.get(); args.lda = lda;
    args.B = dB.get(); args.ldb = ldb;
    args.D = dD.get(); args.ldd = ldd;
    args.batch_count = batches;
    args.batch_stride_a = stride_a; args.batch_stride_b = stride_b; args.batch_stride_d = stride_d;
    return args;
  }

  // Runs `args` (with a workspace if it needs one) and synchronizes; returns the status.
  Status run(typename G::Arguments const& args) {
    G gemm;
    const size_t ws = G::workspace_size(args);
    DeviceBuffer<char> workspace(ws);
    Status st = gemm.initialize(args, workspace.get(), ws);
    if (!st) return st;
    st = gemm.run();
    if (!st) return st;
    throw_on_error(cudaDeviceSynchronize(), "GEMM");
    return st;
  }

  // Checks every element of D against expected(i, j, batch, ref) within the type's tolerance.
  void check(std::function<double(int, int, int, double)> const& expected, std::string const& what) {
    auto d = dD.download();
    const double eps = output_epsilon<TD>(), acc_tol = accumulation_tolerance<TA>();
    int64_t bad = 0;
    double num = 0, den = 0;
    for (int bt = 0; bt < batches; ++bt) {
      for (int i = 0; i < s.m; ++i) {
        for (int j = 0; j < s.n; ++j) {
          const size_t r = size_t(bt) * s.m * s.n + size_t(i) * s.n + j;
          const double want = expected(i, j, bt, ref[r]);
          const double got = as_double(d[size_t(bt * stride_d + i * ldd + j)]);
          const double tol = eps * std::fabs(want) + acc_tol * absref[r] + 1e-6;
          num += (got - want) * (got - want);
          den += want * want;
          if (!(std::fabs(got - want) <= tol)) {
            if (++bad <= 5) {
              ADD_FAILURE() << what << " " << describe(s) << " batch " << bt << ": D(" << i << "," << j << ") = " << got
                            << ", expected " << want << " (tolerance " << tol << ")";
            }
          }
        }
      }
    }
    EXPECT_EQ(bad, 0) << what << " " << describe(s) << ": " << bad << " wrong elements, relative error "
                      << std::sqrt(num / (den > 0 ? den : 1));
  }
};

}  // namespace strata::test
