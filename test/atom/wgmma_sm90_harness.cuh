// The harness of the wgmma GPU tests (test/atom/wgmma_*_sm90_test.cu): one CTA of one or two
// warpgroups computes D = A * B (or D = A * B + C) on an M x N x BK tile through a wgmma TiledMMA,
// and every element of D is compared with a double-precision reference on the host.
//
// A (M x BK) and B (N x BK) are random in [-1, 1] (tf32 pre-rounded, so products are exact), stored
// K-contiguous in global memory; each thread copies elements into shared memory laid out by
// make_gmma_smem_layout (K- or MN-major as the atom says, with the swizzle the case names), the
// copies are made visible to the async proxy (fence.proxy.async) and the warpgroups issue one
// wgmma per (m, n, k-block) through descriptor fragments (SS) or register fragments of A (RS).
// D is poisoned (0xFF bytes: NaN) before the launch.
//
// Tolerance, per element: |D - ref| <= tol * (sum_k |a_k b_k| + |c|), with tol
//   f16 / bf16 / tf32 -> f32   1e-5   products exact in f32; only the f32 sums round (k <= 64 terms)
//   e4m3 / e5m2 -> f32         1e-3   products exact, but Hopper adds fp8 products with a narrower
//                                     accumulator than f32 (about 14 bits kept per addition)
//   f16 -> f16                 4e-3   D rounds to f16 (2^-11) once per k-block, 4 k-blocks
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cuda_fp8.h>

#include "atom/mma_sm90.hpp"
#include "atom/tiled_mma.hpp"
#include "common/gpu_test.hpp"
#include "common/reference.hpp"

namespace strata::test::wgmma {

using bf16 = __nv_bfloat16;
using e4m3 = __nv_fp8_e4m3;
using e5m2 = __nv_fp8_e5m2;

// How the accumulators start: overwritten by the first k-block (scale-d false), loaded from C and
// accumulated into (scale-d true), or cleared and run through the generic gemm(tiled_mma, ...).
enum class Start { overwrite, accumulate, generic_gemm };

// fence.proxy.async.shared::cta: the element stores below are generic-proxy writes, wgmma reads
// through the async proxy.
__device__ inline void fence_stores_for_wgmma() {
#if defined(__CUDA_ARCH__)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

template <class Mma, class LayoutSA, class LayoutSB, Start S, class TA, class TB, class TC>
__global__ void wgmma_kernel(TA const* a, TB const* b, TC const* c, TC* d) {
  using Atom = typename Mma::AtomType;
  constexpr int M = decltype(size<0>(LayoutSA{}))::value, BK = decltype(size<1>(LayoutSA{}))::value;
  constexpr int N = decltype(size<0>(LayoutSB{}))::value;
  constexpr int bytes_a = (decltype(cosize(LayoutSA{}))::value * int(sizeof(TA)) + 1023) / 1024 * 1024;
  // The swizzle patterns start at 1024-byte boundaries: round the dynamic shared memory up to one.
  extern __shared__ unsigned char smem_raw[];
  const uint32_t raw = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw));
  unsigned char* smem = smem_raw + ((1024 - raw % 1024) % 1024);
  auto sA = make_tensor(make_smem_ptr(reinterpret_cast<TA*>(smem)), LayoutSA{});
  auto sB = make_tensor(make_smem_ptr(reinterpret_cast<TB*>(smem + bytes_a)), LayoutSB{});
  for (int i = threadIdx.x; i < M * BK; i += blockDim.x) sA(i / BK, i % BK) = a[i];
  for (int i = threadIdx.x; i < N * BK; i += blockDim.x) sB(i / BK, i % BK) = b[i];
  fence_stores_for_wgmma();
  __syncthreads();

  Mma mma;
  auto thr = mma.get_slice(threadIdx.x);
  auto gC = make_tensor(make_gmem_ptr(c), Layout<Shape<Int<M>, Int<N>>>{});  // column-major M x N
  auto gD = make_tensor(make_gmem_ptr(d), Layout<Shape<Int<M>, Int<N>>>{});
  auto acc = thr.partition_fragment_C(gD);
  auto tCrB = make_gmma_desc_fragment_B(thr, sB);
  auto tCrA = [&] {
    if constexpr (std::is_same_v<typename Atom::FragmentA, GmmaDescriptor>) {
      return make_gmma_desc_fragment_A(thr, sA);
    } else {
      auto frag = thr.partition_fragment_A(sA);
      auto tCsA = thr.partition_A(sA);
      for (int i = 0; i < int(size(frag)); ++i) frag(i) = tCsA(i);
      return frag;
    }
  }();
  if constexpr (S == Start::accumulate) {
    auto tCgC = thr.partition_C(gC);
    for (int i = 0; i < int(size(acc)); ++i) acc(i) = tCgC(i);
  } else if constexpr (S == Start::generic_gemm) {
    for (int i = 0; i < int(size(acc)); ++i) acc(i) = TC(0.0f);
  }
  wgmma_fence_operands(acc);
  arch::wgmma_fence();
  if constexpr (S == Start::generic_gemm) {
    gemm(mma, tCrA, tCrB, acc);
  } else {
    wgmma_gemm(mma, tCrA, tCrB, acc,
               S == Start::accumulate ? arch::WgmmaScaleD::accumulate : arch::WgmmaScaleD::overwrite);
  }
  arch::wgmma_commit_group();
  arch::wgmma_wait_group<0>();
  wgmma_fence_operands(acc);
  auto tCgD = thr.partition_C(gD);
  for (int i = 0; i < int(size(acc)); ++i) tCgD(i) = acc(i);
}

// tf32 keeps 10 of float's 23 mantissa bits: rounding to nearest here makes the inputs exact for
// the tensor core, so the test measures the MMA and not the truncation of its inputs.
inline float round_to_tf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  bits += 0x0FFFu + ((bits >> 13) & 1u);
  bits &= 0xFFFFE000u;
  std::memcpy(&x, &bits, 4);
  return x;
}

template <class T>
T element_from(float x, bool tf32) {
  if constexpr (std::is_same_v<T, e4m3> || std::is_same_v<T, e5m2>) {
    return T(x);
  } else if constexpr (std::is_same_v<T, float>) {
    return tf32 ? round_to_tf32(x) : x;
  } else {
    return from_float<T>(x);
  }
}
template <class T>
double value_of(T x) {
  if constexpr (std::is_same_v<T, e4m3> || std::is_same_v<T, e5m2>) {
    return double(float(x));
  } else {
    return to_double(x);
  }
}

template <class T>
std::vector<T> random_elements(std::size_t count, std::mt19937_64& rng, bool tf32) {
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<T> v(count);
  for (T& x : v) x = element_from<T>(uniform(rng), tf32);
  return v;
}

// Runs one case: `Atom` tiled over `WGs` warpgroups along M (M = 64 WGs), K depth BK, A and B in
// shared memory with swizzles SwA and SwB in the atom's majorness.
template <class Atom, int WGs, int BK, GmmaSwizzle SwA, GmmaSwizzle SwB, Start S = Start::overwrite>
void check_wgmma(double tol, uint64_t seed, std::string const& name) {
  SCOPED_TRACE(name);
  using Op = typename Atom::Operation;
  using TA = typename Atom::ElementA;
  using TB = typename Atom::ElementB;
  using TC = typename Atom::ElementC;
  constexpr int M = 64 * WGs, N = Atom::N;
  constexpr bool tf32 = Atom::K == 8;
  using Mma = decltype(make_tiled_mma(Atom{}, Layout<Shape<Int<WGs>, _1, _1>>{}));
  using LayoutSA = decltype(make_gmma_smem_layout<TA, Op::major_a, SwA>(Shape<Int<M>, Int<BK>>{}));
  using LayoutSB = decltype(make_gmma_smem_layout<TB, Op::major_b, SwB>(Shape<Int<N>, Int<BK>>{}));

  std::mt19937_64 rng(seed);
  auto a = random_elements<TA>(std::size_t(M) * BK, rng, tf32);  // a[m * BK + k]
  auto b = random_elements<TB>(std::size_t(N) * BK, rng, tf32);  // b[n * BK + k]
  auto c = random_elements<TC>(std::size_t(M) * N, rng, false);  // c[m + M n]
  DeviceBuffer<TA> d_a(a);
  DeviceBuffer<TB> d_b(b);
  DeviceBuffer<TC> d_c(c);
  DeviceBuffer<TC> d_d(c.size());
  d_d.fill_bytes(0xFF);

  const int bytes_a = (int(cosize(LayoutSA{})) * int(sizeof(TA)) + 1023) / 1024 * 1024;
  const int smem_bytes = 1024 + bytes_a + int(cosize(LayoutSB{})) * int(sizeof(TB));
  auto kernel = wgmma_kernel<Mma, LayoutSA, LayoutSB, S, TA, TB, TC>;
  STRATA_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes));
  kernel<<<1, 128 * WGs, smem_bytes>>>(d_a.get(), d_b.get(), d_c.get(), d_d.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<TC> d = d_d.download();

  int failures = 0;
  for (int n = 0; n < N; ++n) {
    for (int m = 0; m < M; ++m) {
      double ref = S == Start::accumulate ? value_of(c[m + M * n]) : 0.0;
      double bound = std::abs(ref);
      for (int k = 0; k < BK; ++k) {
        double p = value_of(a[m * BK + k]) * value_of(b[n * BK + k]);
        ref += p;
        bound += std::abs(p);
      }
      double got = value_of(d[m + M * n]);
      if (!(std::abs(got - ref) <= tol * bound) && ++failures <= 8) {
        ADD_FAILURE() << "D(" << m << ", " << n << ") = " << got << ", reference " << ref << ", allowed error "
                      << tol * bound;
      }
    }
  }
  EXPECT_EQ(failures, 0) << "elements of D outside the tolerance";
}

// Every N of the test set (8, 16, 32, 64, 128, 192, 256) of the atom family Atom<N> on one
// warpgroup, K depth BK, both operands with the 128-byte swizzle; seeds first_seed, first_seed + 1,
// ... in that order, each case named "N = <N>".
template <template <int> class Atom, int BK>
void check_every_n(double tol, uint64_t first_seed) {
  uint64_t seed = first_seed;
  [&]<int... N>(std::integer_sequence<int, N...>) {
    (check_wgmma<Atom<N>, 1, BK, GmmaSwizzle::sw128, GmmaSwizzle::sw128>(tol, seed++, "N = " + std::to_string(N)),
     ...);
  }(std::integer_sequence<int, 8, 16, 32, 64, 128, 192, 256>{});
}

}  // namespace strata::test::wgmma
