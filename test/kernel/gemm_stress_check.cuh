// The device side of the GEMM stress test (gemm_stress.cuh): operands generated from a seed and
// their position (so a value can be recomputed anywhere, C's after D overwrote it), a tiled
// reference GEMM in double that checks every element of D where it computes it, and a scan of
// the cells around D's windows.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gemm_stress_problem.cuh"

namespace strata::stress {

// Element `i` of the operand generated from `seed`: uniform in [-1, 1) on a grid of 2^-23 for
// floating types (full fp32 mantissas, so tf32's truncation matters), the whole range for int8,
// [-2^20, 2^20) for int32 (C of int8 problems).
template <class T>
__host__ __device__ T random_element(uint64_t seed, int64_t i) {
  const uint64_t h = mix64(seed + uint64_t(i) * 0x9E3779B97F4A7C15ull);
  if constexpr (std::is_same_v<T, int8_t>) {
    return static_cast<int8_t>(int(h >> 56) - 128);
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return static_cast<int32_t>(int64_t(h >> 43) - (int64_t(1) << 20));
  } else {
    const float x = float(int64_t(h >> 40) - (int64_t(1) << 23)) * 0x1.0p-23f;
    if constexpr (std::is_same_v<T, __half>) return __float2half_rn(x);
    else if constexpr (std::is_same_v<T, __nv_bfloat16>) return __float2bfloat16_rn(x);
    else return x;
  }
}

template <class T>
__host__ __device__ double as_double(T x) {
  if constexpr (std::is_same_v<T, __half>) return double(__half2float(x));
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return double(__bfloat162float(x));
  else return double(x);
}
// An operand as the tensor cores read it: mma .tf32 takes fp32 registers and uses their top 19
// bits (sign, exponent, 10 mantissa bits), truncating; the kernel feeds fp32 unconverted. Other
// types are exact.
template <class T>
__device__ double mma_operand(T x) {
  if constexpr (std::is_same_v<T, float>) return double(__uint_as_float(__float_as_uint(x) & 0xFFFFE000u));
  else return as_double(x);
}

// Raw bits of an output element; every byte 0xFF is the poison.
template <class T>
using BitsOf = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
template <class T>
__host__ __device__ BitsOf<T> bits_of(T x) {
  BitsOf<T> b;
  memcpy(&b, &x, sizeof b);
  return b;
}
template <class T>
inline constexpr BitsOf<T> kPoison = BitsOf<T>(~BitsOf<T>(0));

// What the checks found; the first few of each kind are recorded.
struct BadElement {
  int batch, row, col;
  double got, want, tolerance;
};
struct BadCell {
  long long offset;  // elements from D's first element (negative: before it)
  unsigned bits, expected;
};
struct DeviceReport {
  static constexpr int kRecorded = 4;
  unsigned long long wrong_elements;
  unsigned long long touched_cells;
  unsigned int elements_recorded, cells_recorded;
  BadElement element[kRecorded];
  BadCell cell[kRecorded];
};

template <class T>
__global__ void fill_kernel(T* data, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < count; i += int64_t(gridDim.x) * blockDim.x)
    data[i] = random_element<T>(seed, i);
}

// D's m × n windows get C's values (C aliases D): the element at offset o from D is
// random_element(seed, o), as a separate C's element at offset o from C would be.
template <class T>
__global__ void fill_windows_kernel(T* d, int m, int n, int64_t ld, int64_t stride, uint64_t seed) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y, b = blockIdx.z;
  if (j >= n || i >= m) return;
  const int64_t o = b * stride + int64_t(i) * ld + j;
  d[o] = random_element<T>(seed, o);
}

template <class TA, class TB, class TD>
struct CheckArgs {
  int m, n, k;
  TA const* A;
  int64_t lda, stride_a;
  bool a_row_major;
  TB const* B;
  int64_t ldb, stride_b;
  bool b_row_major;
  TD const* D;
  int64_t ldd, stride_d;
  bool reads_c;  // C(b, i, j) = random_element(seed_c, b * stride_c + i * ldc + j)
  uint64_t seed_c;
  int64_t ldc, stride_c;
  double alpha, beta;
  // |D - want| <= eps_out·|want| + acc_tol·|alpha|·Σ|a·b| + 2^-22·(|alpha·Σa·b| + |beta·c|) + 1e-6,
  // or exactly rint(want) for integers.
  double eps_out, acc_tol;
  DeviceReport* report;
};

inline constexpr int kRefTile = 64, kRefDepth = 16, kRefThreads = 256;

// want(b, i, j) = alpha Σ_p A(i, p) B(p, j) + beta C(i, j) in double, for a 64 × 64 block of
// outputs per CTA (4 × 4 per thread, strided by 16 so the reads of D coalesce), compared with D
// where it is computed. Grid: (n / 64, m / 64, batches), rounded up.
template <class TA, class TB, class TD>
__global__ void __launch_bounds__(kRefThreads) reference_check_kernel(CheckArgs<TA, TB, TD> a) {
  __shared__ double sA[kRefDepth][kRefTile + 1];
  __shared__ double sB[kRefDepth][kRefTile + 1];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int i0 = blockIdx.y * kRefTile, j0 = blockIdx.x * kRefTile, b = blockIdx.z;
  TA const* A = a.A + b * a.stride_a;
  TB const* B = a.B + b * a.stride_b;
  double sum[4][4] = {}, abs_sum[4][4] = {};
  for (int p0 = 0; p0 < a.k; p0 += kRefDepth) {
    for (int e = threadIdx.x; e < kRefTile * kRefDepth; e += kRefThreads) {
      // Consecutive threads take consecutive addresses of each operand's contiguous dimension.
      const int a_row = a.a_row_major ? e / kRefDepth : e % kRefTile;
      const int a_k = a.a_row_major ? e % kRefDepth : e / kRefTile;
      const int i = i0 + a_row, pa = p0 + a_k;
      sA[a_k][a_row] =
          i < a.m && pa < a.k ? mma_operand(A[a.a_row_major ? int64_t(i) * a.lda + pa : i + int64_t(pa) * a.lda]) : 0.0;
      const int b_col = a.b_row_major ? e % kRefTile : e / kRefDepth;
      const int b_k = a.b_row_major ? e / kRefTile : e % kRefDepth;
      const int j = j0 + b_col, pb = p0 + b_k;
      sB[b_k][b_col] =
          j < a.n && pb < a.k ? mma_operand(B[a.b_row_major ? int64_t(pb) * a.ldb + j : pb + int64_t(j) * a.ldb]) : 0.0;
    }
    __syncthreads();
#pragma unroll 4
    for (int kk = 0; kk < kRefDepth; ++kk) {
      double av[4], bv[4];
#pragma unroll
      for (int r = 0; r < 4; ++r) av[r] = sA[kk][ty + 16 * r];
#pragma unroll
      for (int c = 0; c < 4; ++c) bv[c] = sB[kk][tx + 16 * c];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          sum[r][c] = fma(av[r], bv[c], sum[r][c]);
          abs_sum[r][c] = fma(fabs(av[r]), fabs(bv[c]), abs_sum[r][c]);
        }
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int c = 0; c < 4; ++c) {
      const int i = i0 + ty + 16 * r, j = j0 + tx + 16 * c;
      if (i >= a.m || j >= a.n) continue;
      const double source =
          a.reads_c ? as_double(random_element<TD>(a.seed_c, b * a.stride_c + int64_t(i) * a.ldc + j)) : 0.0;
      double want = a.alpha * sum[r][c] + a.beta * source;
      const double got = as_double(a.D[b * a.stride_d + int64_t(i) * a.ldd + j]);
      double tolerance = 0;
      bool ok;
      if constexpr (std::is_integral_v<TD>) {
        want = rint(want);
        ok = got == want;
      } else {
        tolerance = a.eps_out * fabs(want) + a.acc_tol * fabs(a.alpha) * abs_sum[r][c] +
                    0x1.0p-22 * (fabs(a.alpha * sum[r][c]) + fabs(a.beta * source)) + 1e-6;
        ok = fabs(got - want) <= tolerance;  // false for NaN (the poison)
      }
      if (!ok) {
        atomicAdd(&a.report->wrong_elements, 1ull);
        const unsigned slot = atomicAdd(&a.report->elements_recorded, 1u);
        if (slot < DeviceReport::kRecorded) a.report->element[slot] = {b, i, j, got, want, tolerance};
      }
    }
  }
}

// Every cell of D's allocation, `front` elements before D to `total - front` after it: cells
// outside the m × n windows of the batches (before D, the padding columns n..ldd-1, the gaps
// between batches, after the last) must hold the poison; with `check_windows` (a refused
// problem) the windows must hold what they held before: C's values when C aliases D, else the
// poison.
template <class TD>
__global__ void guard_check_kernel(TD const* region, int64_t front, int64_t total, int m, int n, int64_t ldd,
                                   int64_t stride_d, int batches, bool check_windows, bool windows_hold_c,
                                   uint64_t seed_c, DeviceReport* report) {
  for (int64_t p = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; p < total; p += int64_t(gridDim.x) * blockDim.x) {
    const int64_t o = p - front;
    bool in_window = false;
    if (o >= 0) {
      const int64_t b = batches > 1 ? o / stride_d : 0, r = o - b * stride_d;
      in_window = b < batches && r / ldd < m && r % ldd < n;
    }
    if (in_window && !check_windows) continue;
    const BitsOf<TD> expected = in_window && windows_hold_c ? bits_of(random_element<TD>(seed_c, o)) : kPoison<TD>;
    const BitsOf<TD> bits = bits_of(region[p]);
    if (bits != expected) {
      atomicAdd(&report->touched_cells, 1ull);
      const unsigned slot = atomicAdd(&report->cells_recorded, 1u);
      if (slot < DeviceReport::kRecorded) report->cell[slot] = {(long long)o, unsigned(bits), unsigned(expected)};
    }
  }
}

inline unsigned grid_for(int64_t count) {
  const int64_t blocks = (count + 255) / 256;
  return unsigned(blocks < 1 ? 1 : blocks > 8192 ? 8192 : blocks);
}

}  // namespace strata::stress
