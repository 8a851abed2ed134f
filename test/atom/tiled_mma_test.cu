// GPU tests of the sm80 MMA atoms driven through TiledMMA: each thread partitions A, B and C in
// global memory (partition_A/B/C), copies its elements into register fragments one by one
// (partition_fragment_A/B/C), runs gemm(tiled_mma, ...) and writes D = A * B + C back through
// partition_C. Fresh random data for every case; D is poisoned before the launch (0xFF bytes, NaN,
// for floating types; 0x7F bytes, a value no s8 product sum reaches, for int32), and every element
// is compared with a host reference in double. Two tilings per atom: one atom (one warp, two atoms
// deep in K) and 2 x 2 warps over a 64 x 64 CTA tile; one case also runs gemm k-block by k-block.
//
// Tolerances, as ||D - ref|| / ||ref||:
//   f16 / bf16 -> f32   1e-5   products are exact in f32, only the f32 accumulation rounds
//   f16 -> f16          2e-3   D is rounded to f16 (2^-11 relative) after every atom in K
//   tf32 -> f32         1e-5   inputs pre-rounded to tf32, so products are exact as for f16
//   s8 -> s32           0      integer arithmetic is exact
//   f64 -> f64          1e-13  IEEE double fused multiply-adds
//
// Then (ldmatrix_mma below) the Ampere atoms together: a TiledMMA over a 64 x 64 x 32 tile driven
// by ldmatrix from swizzled shared-memory tiles matches a double-precision reference.
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
// (One translation unit for both: each costs CI ~13 s before its first kernel.)
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
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

namespace tiled {

// KBlocks: run gemm one k-block at a time, gemm(mma, a(_, _, k), b(_, _, k), c), as a mainloop
// does, instead of once over all of K.
template <class Mma, class LayoutA, class LayoutB, class LayoutC, bool KBlocks, class TA, class TB, class TC>
__global__ void tiled_mma_kernel(TA const* a, TB const* b, TC const* c, TC* d) {
  Mma mma;
  auto gA = make_tensor(make_gmem_ptr(a), LayoutA{});  // (BM, BK)
  auto gB = make_tensor(make_gmem_ptr(b), LayoutB{});  // (BN, BK)
  auto gC = make_tensor(make_gmem_ptr(c), LayoutC{});  // (BM, BN)
  auto gD = make_tensor(make_gmem_ptr(d), LayoutC{});

  auto thr = mma.get_slice(threadIdx.x);
  auto tCgA = thr.partition_A(gA);  // (MMA, MMA_M, MMA_K)
  auto tCgB = thr.partition_B(gB);  // (MMA, MMA_N, MMA_K)
  auto tCgC = thr.partition_C(gC);  // (MMA, MMA_M, MMA_N)
  auto tCgD = thr.partition_C(gD);
  auto tCrA = thr.partition_fragment_A(gA);
  auto tCrB = thr.partition_fragment_B(gB);
  auto tCrC = thr.partition_fragment_C(gC);

  for (int i = 0; i < int(size(tCrA)); ++i) tCrA(i) = tCgA(i);
  for (int i = 0; i < int(size(tCrB)); ++i) tCrB(i) = tCgB(i);
  for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = tCgC(i);
  if constexpr (KBlocks) {
    for (int k = 0; k < int(size<2>(tCrA)); ++k) {
      gemm(mma, tCrA(Underscore{}, Underscore{}, k), tCrB(Underscore{}, Underscore{}, k), tCrC);
    }
  } else {
    gemm(mma, tCrA, tCrB, tCrC);
  }
  for (int i = 0; i < int(size(tCrC)); ++i) tCgD(i) = tCrC(i);
}

// tf32 keeps 10 of float's 23 mantissa bits; rounding to nearest here makes the inputs exact for
// the tensor core, so the test measures the MMA and not the truncation of its inputs.
float round_to_tf32(float x) {
  uint32_t bits;
  std::memcpy(&bits, &x, 4);
  bits += 0x0FFFu + ((bits >> 13) & 1u);
  bits &= 0xFFFFE000u;
  std::memcpy(&x, &bits, 4);
  return x;
}

template <class T>
T random_element(std::mt19937_64& rng, bool tf32) {
  if constexpr (std::is_same_v<T, int8_t>) {
    return static_cast<int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return std::uniform_int_distribution<int32_t>(-100000, 100000)(rng);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
  } else {
    float x = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
    return strata::test::from_float<T>(tf32 ? round_to_tf32(x) : x);
  }
}

template <class Layout, class T>
std::vector<T> random_tensor(std::mt19937_64& rng, bool tf32) {
  std::vector<T> data(int(cosize(Layout{})));
  for (T& x : data) x = random_element<T>(rng, tf32);
  return data;
}

// Runs one TiledMMA over the CTA tile given by the three layouts and checks D against the host.
template <class Mma, class LayoutA, class LayoutB, class LayoutC, bool KBlocks = false>
void check_tiled_mma(double tolerance, std::string const& name, uint64_t seed) {
  SCOPED_TRACE(name);
  using TA = typename Mma::ElementA;
  using TB = typename Mma::ElementB;
  using TC = typename Mma::ElementC;
  constexpr bool tf32 = std::is_same_v<typename Mma::AtomType, SM80_16x8x8_F32TF32TF32F32_TN>;
  constexpr int BM = decltype(size<0>(LayoutA{}))::value;
  constexpr int BK = decltype(size<1>(LayoutA{}))::value;
  constexpr int BN = decltype(size<0>(LayoutB{}))::value;
  static_assert(BK == decltype(size<1>(LayoutB{}))::value && BM == decltype(size<0>(LayoutC{}))::value &&
                BN == decltype(size<1>(LayoutC{}))::value);

  std::mt19937_64 rng(seed);
  auto a = random_tensor<LayoutA, TA>(rng, tf32);
  auto b = random_tensor<LayoutB, TB>(rng, tf32);
  auto c = random_tensor<LayoutC, TC>(rng, tf32);
  DeviceBuffer<TA> d_a(a);
  DeviceBuffer<TB> d_b(b);
  DeviceBuffer<TC> d_c(c);
  DeviceBuffer<TC> d_d(c.size());
  d_d.fill_bytes(std::is_integral_v<TC> ? 0x7F : 0xFF);

  tiled_mma_kernel<Mma, LayoutA, LayoutB, LayoutC, KBlocks>
      <<<1, int(size(Mma{}))>>>(d_a.get(), d_b.get(), d_c.get(), d_d.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<TC> d = d_d.download();

  using strata::test::to_double;
  std::vector<double> ref(BM * BN), out(BM * BN);
  for (int m = 0; m < BM; ++m) {
    for (int n = 0; n < BN; ++n) {
      double acc = to_double(c[LayoutC{}(m, n)]);
      for (int k = 0; k < BK; ++k) acc += to_double(a[LayoutA{}(m, k)]) * to_double(b[LayoutB{}(n, k)]);
      ref[m + BM * n] = acc;
      out[m + BM * n] = to_double(d[LayoutC{}(m, n)]);
    }
  }
  double error = strata::test::relative_error(out, ref);
  EXPECT_LE(error, tolerance) << "relative error " << error;
  if (tolerance == 0.0) {
    for (int i = 0; i < BM * BN; ++i) {
      ASSERT_EQ(out[i], ref[i]) << "D(" << i % BM << ", " << i / BM << ")";
    }
  }
}

// One atom, one warp, two atoms deep in K; A stored M-major (column-major), B K-major.
template <class Atom>
void check_one_atom(double tolerance, uint64_t seed) {
  using Mma = decltype(make_tiled_mma(Atom{}));
  using LA = Layout<Shape<Int<Atom::M>, Int<2 * Atom::K>>>;  // m + M * k
  using LB = decltype(make_layout(Shape<Int<Atom::N>, Int<2 * Atom::K>>{}, LayoutRight{}));
  using LC = decltype(make_layout(Shape<Int<Atom::M>, Int<Atom::N>>{}, LayoutRight{}));
  check_tiled_mma<Mma, LA, LB, LC>(tolerance, "one atom", seed);
}

// A 64 x 64 x BK CTA tile (2 x 2 warps in most cases), A and B K-major, C column-major.
template <class Mma, int BK, bool KBlocks = false>
void check_cta_64x64(double tolerance, std::string const& name, uint64_t seed) {
  using LA = decltype(make_layout(Shape<_64, Int<BK>>{}, LayoutRight{}));
  using LB = decltype(make_layout(Shape<_64, Int<BK>>{}, LayoutRight{}));
  using LC = Layout<Shape<_64, _64>>;
  check_tiled_mma<Mma, LA, LB, LC, KBlocks>(tolerance, name, seed);
}

using WarpContiguousN = Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>;  // each warp 16 columns in a row

TEST(TiledMmaSm80, F16InputsF32Accumulators) {
  STRATA_REQUIRE_SM(8, 0);
  using Atom = SM80_16x8x16_F32F16F16F32_TN;
  check_one_atom<Atom>(1e-5, 101);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{})), 32>(1e-5, "2x2 warps", 102);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, WarpContiguousN, _16>{})), 32>(
      1e-5, "2x2 warps, N permuted", 103);
}

TEST(TiledMmaSm80, Bf16InputsF32Accumulators) {
  STRATA_REQUIRE_SM(8, 0);
  using Atom = SM80_16x8x16_F32BF16BF16F32_TN;
  check_one_atom<Atom>(1e-5, 201);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{})), 32>(
      1e-5, "2x2 warps, N tile 32", 202);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{})), 32, true>(
      1e-5, "2x2 warps, N tile 32, one k-block at a time", 203);
}

TEST(TiledMmaSm80, F16InputsF16Accumulators) {
  STRATA_REQUIRE_SM(8, 0);
  using Atom = SM80_16x8x16_F16F16F16F16_TN;
  check_one_atom<Atom>(2e-3, 301);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{})), 32>(2e-3, "2x2 warps", 302);
}

TEST(TiledMmaSm80, Tf32InputsF32Accumulators) {
  STRATA_REQUIRE_SM(8, 0);
  using Atom = SM80_16x8x8_F32TF32TF32F32_TN;
  check_one_atom<Atom>(1e-5, 401);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{})), 32>(1e-5, "2x2 warps", 402);
}

TEST(TiledMmaSm80, S8InputsS32AccumulatorsExactly) {
  STRATA_REQUIRE_SM(8, 0);
  using Atom = SM80_16x8x32_S32S8S8S32_TN;
  check_one_atom<Atom>(0.0, 501);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{})), 64>(0.0, "2x2 warps", 502);
}

TEST(TiledMmaSm80, F64) {
  STRATA_REQUIRE_SM(8, 0);
  using Atom = SM80_8x8x4_F64F64F64F64_TN;
  check_one_atom<Atom>(1e-13, 601);
  check_cta_64x64<decltype(make_tiled_mma(Atom{}, Layout<Shape<_2, _2, _1>>{})), 16>(1e-13, "2x2 warps", 602);
}

// The CUDA-core path: UniversalFma over 16 x 8 threads, 4 x 8 values each, on the same harness.
TEST(TiledMmaSm80, UniversalFmaF32) {
  STRATA_REQUIRE_GPU();
  using Mma = decltype(make_tiled_mma(UniversalFma<float>{}, Layout<Shape<_16, _8, _1>>{}, Tile<_64, _64, _1>{}));
  check_cta_64x64<Mma, 16>(1e-6, "FMA 16x8 threads", 701);
}

}  // namespace tiled

// ---- ldmatrix -> mma integration ----

namespace ldmatrix_mma {

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

}  // namespace ldmatrix_mma

}  // namespace
