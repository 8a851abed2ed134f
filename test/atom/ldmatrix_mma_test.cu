// Integration test of the Ampere atoms: a TiledMMA over a 64 x 64 x 32 tile driven by ldmatrix
// from swizzled shared-memory tiles matches a double-precision reference.
//
// One CTA of 128 threads (2 x 2 warps of mma.sync m16n8k16) computes C (64 x 64, fp32) = A * B^T
// over K = 96, three k-tiles of 32. Per k-tile:
//   global -> shared   cp.async 16 B (.cg) through make_tiled_copy into
//                      composition(Swizzle<3,3,3>, (64, 32) tile) for A and for B
//   shared -> registers ldmatrix through make_tiled_copy_A/B + retile_D into the MMA fragments
//   registers          gemm(tiled_mma, ...) accumulating in fp32
// and C is written back through partition_C. bf16 and f16 inputs; B both K-major (ldmatrix) and
// N-major (ldmatrix.trans). C is poisoned (NaN) before the launch.
//
// Tolerance per element: |C - ref| <= 2^-20 * sum_k |a_k b_k| + 1e-30. Products of 16-bit inputs
// are exact in fp32; only the fp32 accumulation of K = 96 terms rounds (each addition by at most
// 2^-24 relative to the partial sum), far below that bound, while one wrong or missing product is
// far above it.
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <string>
#include <vector>

#include "atom/copy_atom.hpp"
#include "atom/copy_sm80.hpp"
#include "atom/mma_sm80.hpp"
#include "atom/tiled_copy.hpp"
#include "atom/tiled_mma.hpp"
#include "common/gpu_test.hpp"
#include "common/reference.hpp"
#include "layout/partition.hpp"
#include "layout/swizzle.hpp"

namespace {

using namespace strata;
using strata::test::DeviceBuffer;

constexpr int kM = 64, kN = 64, kK = 96;
using BM = Int<64>;
using BN = Int<64>;
using BK = Int<32>;

template <class T>
struct MmaFor;
template <>
struct MmaFor<__half> {
  using type = SM80_16x8x16_F32F16F16F32_TN;
};
template <>
struct MmaFor<__nv_bfloat16> {
  using type = SM80_16x8x16_F32BF16BF16F32_TN;
};

// A is M x K row-major (K-major). B is N x K: K-major (row n contiguous in k) or N-major (stored
// K x N row-major, column k of B^T contiguous in n). C is M x N row-major.
template <class T, bool BNMajor>
__global__ void ldmatrix_mma_kernel(T const* a, T const* b, float* c) {
  auto tiled_mma = make_tiled_mma(typename MmaFor<T>::type{}, Layout<Shape<_2, _2, _1>>{}, Tile<BM, BN, BK>{});

  auto gA = make_tensor(make_gmem_ptr(a), make_layout(make_shape(BM{}, Int<kK>{}), LayoutRight{}));
  auto gB = [&] {
    if constexpr (BNMajor) {
      return make_tensor(make_gmem_ptr(b), make_layout(make_shape(BN{}, Int<kK>{})));
    } else {
      return make_tensor(make_gmem_ptr(b), make_layout(make_shape(BN{}, Int<kK>{}), LayoutRight{}));
    }
  }();
  auto gC = make_tensor(make_gmem_ptr(c), make_layout(make_shape(BM{}, BN{}), LayoutRight{}));
  // (BM, BK, k-tiles) and (BN, BK, k-tiles)
  auto tiles_A = local_tile(gA, make_tile(BM{}, BK{}), make_coord(0, _));
  auto tiles_B = local_tile(gB, make_tile(BN{}, BK{}), make_coord(0, _));

  __shared__ alignas(128) T smem_a[64 * 32];
  __shared__ alignas(128) T smem_b[64 * 32];
  auto sA = make_tensor(make_smem_ptr(smem_a),
                        composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(BM{}, BK{}), LayoutRight{})));
  auto sB = [&] {
    if constexpr (BNMajor) {
      return make_tensor(make_smem_ptr(smem_b), composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(BN{}, BK{}))));
    } else {
      return make_tensor(make_smem_ptr(smem_b),
                         composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(BN{}, BK{}), LayoutRight{})));
    }
  }();

  // global -> shared: 16 bytes (8 elements) per thread per call, along the contiguous mode.
  auto g2s_A = make_tiled_copy(CopyAtom<arch::CpAsync16_cg, T>{}, Layout<Shape<_32, _4>, Stride<_4, _1>>{},
                               Layout<Shape<_1, _8>>{});
  auto g2s_B = [&] {
    if constexpr (BNMajor) {
      return make_tiled_copy(CopyAtom<arch::CpAsync16_cg, T>{}, Layout<Shape<_8, _16>>{}, Layout<Shape<_8, _1>>{});
    } else {
      return g2s_A;
    }
  }();
  auto load_A = g2s_A.get_slice(threadIdx.x);
  auto load_B = g2s_B.get_slice(threadIdx.x);
  auto tAgA = load_A.partition_S(tiles_A);  // (CPY, CPY_M, CPY_K, k-tiles)
  auto tAsA = load_A.partition_D(sA);
  auto tBgB = load_B.partition_S(tiles_B);
  auto tBsB = load_B.partition_D(sB);

  // shared -> registers: ldmatrix into the MMA's fragments.
  auto thr_mma = tiled_mma.get_slice(threadIdx.x);
  auto tCrA = thr_mma.partition_fragment_A(sA);  // (MMA, MMA_M, MMA_K)
  auto tCrB = thr_mma.partition_fragment_B(sB);
  auto tCrC = thr_mma.partition_fragment_C(gC);
  for (int i = 0; i < int(size(tCrC.layout())); ++i) tCrC(i) = 0.0f;

  auto s2r_A = make_tiled_copy_A(CopyAtom<arch::Ldsm_x4, T>{}, tiled_mma);
  auto s2r_B = [&] {
    if constexpr (BNMajor) {
      return make_tiled_copy_B(CopyAtom<arch::Ldsm_x4_trans, T>{}, tiled_mma);
    } else {
      return make_tiled_copy_B(CopyAtom<arch::Ldsm_x4, T>{}, tiled_mma);
    }
  }();
  auto read_A = s2r_A.get_slice(threadIdx.x);
  auto read_B = s2r_B.get_slice(threadIdx.x);
  auto tXsA = read_A.partition_S(sA);
  auto tXrA = read_A.retile_D(tCrA);
  auto tXsB = read_B.partition_S(sB);
  auto tXrB = read_B.retile_D(tCrB);

  constexpr int k_tiles = kK / 32;
  for (int k = 0; k < k_tiles; ++k) {
    copy(g2s_A, tAgA(_, _, _, k), tAsA);
    copy(g2s_B, tBgB(_, _, _, k), tBsB);
    arch::cp_async_commit();
    arch::cp_async_wait<0>();
    __syncthreads();

    copy(s2r_A, tXsA, tXrA);
    copy(s2r_B, tXsB, tXrB);
    gemm(tiled_mma, tCrA, tCrB, tCrC);
    __syncthreads();  // everyone has read this k-tile before the next overwrites it
  }

  auto tCgC = thr_mma.partition_C(gC);
  for (int i = 0; i < int(size(tCrC.layout())); ++i) tCgC(i) = tCrC(i);
}

template <class T, bool BNMajor>
void check_ldmatrix_mma(std::string const& what, std::uint64_t seed) {
  SCOPED_TRACE(what);
  auto a = strata::test::random_vector<T>(kM * kK, seed);
  auto b = strata::test::random_vector<T>(kN * kK, seed + 1);  // N x K or K x N, as the kernel reads it
  auto b_at = [&](int n, int k) { return strata::test::to_double(BNMajor ? b[k * kN + n] : b[n * kK + k]); };

  DeviceBuffer<T> d_a(a), d_b(b);
  DeviceBuffer<float> d_c(kM * kN);
  d_c.fill_bytes(0xFF);
  ldmatrix_mma_kernel<T, BNMajor><<<1, 128>>>(d_a.get(), d_b.get(), d_c.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  auto c = d_c.download();

  int wrong = 0;
  std::vector<double> ref(kM * kN);
  for (int m = 0; m < kM; ++m) {
    for (int n = 0; n < kN; ++n) {
      double sum = 0.0, magnitude = 0.0;
      for (int k = 0; k < kK; ++k) {
        const double p = strata::test::to_double(a[m * kK + k]) * b_at(n, k);
        sum += p;
        magnitude += std::fabs(p);
      }
      ref[m * kN + n] = sum;
      const double got = c[m * kN + n];
      if (!(std::fabs(got - sum) <= std::ldexp(magnitude, -20) + 1e-30)) {
        if (++wrong <= 5) ADD_FAILURE() << "C(" << m << ", " << n << ") = " << got << ", reference " << sum;
      }
    }
  }
  EXPECT_EQ(wrong, 0) << wrong << " of " << kM * kN << " elements outside the tolerance";
  EXPECT_LT(strata::test::relative_error(c, ref), 1e-6);
}

TEST(LdmatrixMma, Tile64x64x32FromSwizzledSharedMemoryF16) {
  STRATA_REQUIRE_SM(8, 0);
  check_ldmatrix_mma<__half, false>("f16, A and B K-major (ldmatrix)", 101);
  check_ldmatrix_mma<__half, true>("f16, B N-major (ldmatrix.trans)", 103);
}

TEST(LdmatrixMma, Tile64x64x32FromSwizzledSharedMemoryBf16) {
  STRATA_REQUIRE_SM(8, 0);
  check_ldmatrix_mma<__nv_bfloat16, false>("bf16, A and B K-major (ldmatrix)", 105);
  check_ldmatrix_mma<__nv_bfloat16, true>("bf16, B N-major (ldmatrix.trans)", 107);
}

}  // namespace
