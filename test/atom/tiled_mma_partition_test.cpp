// Host tests of TiledMMA's partitions of tensors: no GPU is touched here.
//
//   - on a tensor of exactly one tile, partition_A/B/C agree with the TV layouts;
//   - on a larger CTA tile the partitions of all threads together cover it (C once);
//   - modes after (M, N) are carried through, and a swizzled layout partitions through its swizzle;
//   - a whole GEMM run thread by thread on the host with the UniversalFma atom is exact, with D
//     apart from C too.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "atom/mma_sm80.hpp"
#include "atom/tiled_mma.hpp"
#include "layout/swizzle.hpp"

namespace {

using namespace strata;

// ---- TiledMMA: partitioning tensors ------------------------------------------------------------

// On a tensor of exactly one tile, partition_X(thread)(i) is the element get_layoutX_TV()(thread, i):
// the two views a TiledCopy builds on (make_tiled_copy_A/B/C) agree with what gemm consumes.
template <class Mma>
void expect_partitions_agree_with_tv_layouts(Mma const& mma, std::string const& name) {
  SCOPED_TRACE(name);
  constexpr int TM = decltype(Mma::template tile_size_mnk<0>())::value;
  constexpr int TN = decltype(Mma::template tile_size_mnk<1>())::value;
  constexpr int TK = decltype(Mma::template tile_size_mnk<2>())::value;
  // Tensors whose element is its column-major index in the tile, laid out row-major in memory so
  // that the partition goes through non-trivial strides.
  std::vector<int> a_data(TM * TK), b_data(TN * TK), c_data(TM * TN);
  auto a = make_tensor(a_data.data(), make_layout(Shape<Int<TM>, Int<TK>>{}, LayoutRight{}));
  auto b = make_tensor(b_data.data(), make_layout(Shape<Int<TN>, Int<TK>>{}, LayoutRight{}));
  auto c = make_tensor(c_data.data(), make_layout(Shape<Int<TM>, Int<TN>>{}, LayoutRight{}));
  for (int i = 0; i < TM * TK; ++i) a(i) = i;
  for (int i = 0; i < TN * TK; ++i) b(i) = i;
  for (int i = 0; i < TM * TN; ++i) c(i) = i;
  auto a_tv = Mma::get_layoutA_TV();
  auto b_tv = Mma::get_layoutB_TV();
  auto c_tv = Mma::get_layoutC_TV();
  for (int t = 0; t < int(size(mma)); ++t) {
    auto thr = mma.get_slice(t);
    auto ta = thr.partition_A(a);
    auto tb = thr.partition_B(b);
    auto tc = thr.partition_C(c);
    ASSERT_EQ(int(size(ta)), int(size<1>(a_tv)));
    ASSERT_EQ(int(size(tb)), int(size<1>(b_tv)));
    ASSERT_EQ(int(size(tc)), int(size<1>(c_tv)));
    for (int i = 0; i < int(size(ta)); ++i) EXPECT_EQ(ta(i), a_tv(t, i)) << "A thread " << t << " value " << i;
    for (int i = 0; i < int(size(tb)); ++i) EXPECT_EQ(tb(i), b_tv(t, i)) << "B thread " << t << " value " << i;
    for (int i = 0; i < int(size(tc)); ++i) EXPECT_EQ(tc(i), c_tv(t, i)) << "C thread " << t << " value " << i;
    // The fragments have the partitions' shapes.
    EXPECT_TRUE(shape(thr.partition_fragment_A(a)) == shape(ta));
    EXPECT_TRUE(shape(thr.partition_fragment_B(b)) == shape(tb));
    EXPECT_TRUE(shape(thr.partition_fragment_C(c)) == shape(tc));
    static_assert(decltype(rank(ta))::value == 3 && decltype(rank(tc))::value == 3);
  }
}

TEST(TiledMma, PartitionsOfOneTileAreTheTvLayouts) {
  using F16 = SM80_16x8x16_F32F16F16F32_TN;
  expect_partitions_agree_with_tv_layouts(make_tiled_mma(F16{}), "one atom");
  expect_partitions_agree_with_tv_layouts(make_tiled_mma(F16{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{}),
                                          "2x2 warps, N tile 32");
  expect_partitions_agree_with_tv_layouts(
      make_tiled_mma(F16{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>, _32>{}),
      "2x2 warps, N permuted, K tile 32");
  expect_partitions_agree_with_tv_layouts(make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_1, _2, _1>>{}),
                                          "s8, 1x2 warps");
  expect_partitions_agree_with_tv_layouts(make_tiled_mma(UniversalFma<float>{}, Layout<Shape<_8, _4, _1>>{},
                                                         Tile<_16, _16, _2>{}),
                                          "FMA, 8x4 threads");
}

// A CTA tile larger than the TiledMMA's tile: the partitions of all threads together cover it, C
// once per element, A once per atom in N, B once per atom in M. C is an identity tensor (its
// elements are their coordinates), A and B tensors of indices.
template <class Mma, int BM, int BN, int BK>
void expect_cta_tile_covered(Mma const& mma, std::string const& name) {
  SCOPED_TRACE(name);
  auto cC = make_identity_tensor(Shape<Int<BM>, Int<BN>>{});
  std::vector<int> a_data(BM * BK), b_data(BN * BK);
  auto gA = make_tensor(a_data.data(), make_layout(Shape<Int<BM>, Int<BK>>{}, LayoutRight{}));  // K-major
  auto gB = make_tensor(b_data.data(), make_layout(Shape<Int<BN>, Int<BK>>{}));                 // N-major
  for (int i = 0; i < BM * BK; ++i) gA(i) = i;
  for (int i = 0; i < BN * BK; ++i) gB(i) = i;
  std::vector<int> a_hits(BM * BK), b_hits(BN * BK), c_hits(BM * BN);
  for (int t = 0; t < int(size(mma)); ++t) {
    auto thr = mma.get_slice(t);
    auto tCcC = thr.partition_C(cC);
    auto tCgA = thr.partition_A(gA);
    auto tCgB = thr.partition_B(gB);
    for (int i = 0; i < int(size(tCcC)); ++i) {
      auto mn = tCcC(i);
      ++c_hits[int(get<0>(mn)) + BM * int(get<1>(mn))];
    }
    for (int i = 0; i < int(size(tCgA)); ++i) ++a_hits[tCgA(i)];
    for (int i = 0; i < int(size(tCgB)); ++i) ++b_hits[tCgB(i)];
  }
  for (int h : c_hits) EXPECT_EQ(h, Mma::thr_k);
  for (int h : a_hits) EXPECT_EQ(h, Mma::thr_n);
  for (int h : b_hits) EXPECT_EQ(h, Mma::thr_m);
}

TEST(TiledMma, PartitionsCoverALargerCtaTile) {
  using F16 = SM80_16x8x16_F32F16F16F32_TN;
  expect_cta_tile_covered<decltype(make_tiled_mma(F16{})), 32, 32, 32>(make_tiled_mma(F16{}), "one atom, 32x32x32");
  auto warps = make_tiled_mma(F16{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
  expect_cta_tile_covered<decltype(warps), 64, 64, 32>(warps, "2x2 warps, 64x64x32");
  auto permuted = make_tiled_mma(F16{}, Layout<Shape<_2, _2, _1>>{},
                                 Tile<_32, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>, _16>{});
  expect_cta_tile_covered<decltype(permuted), 128, 64, 32>(permuted, "2x2 warps permuted, 128x64x32");
  auto tf32 = make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _2, _1>>{});
  expect_cta_tile_covered<decltype(tf32), 64, 32, 16>(tf32, "tf32 2x2 warps, 64x32x16");
  auto split_k = make_tiled_mma(F16{}, Layout<Shape<_1, _2, _2>>{});
  expect_cta_tile_covered<decltype(split_k), 32, 32, 64>(split_k, "1x2x2 warps, 32x32x64");
}

// Modes after (M, N) — a pipeline's stages, say — are carried through: partition_C of an
// (M, N, P) tensor is (values, MMA_M, MMA_N, P), and its slice p is the partition of slice p.
TEST(TiledMma, PartitionsCarryExtraModes) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{});
  std::vector<int> data(32 * 32 * 3);
  auto stages = make_tensor(data.data(), Shape<_32, _32, _3>{});
  for (int i = 0; i < int(size(stages)); ++i) stages(i) = i;
  for (int t = 0; t < 128; ++t) {
    auto thr = mma.get_slice(t);
    auto all = thr.partition_C(stages);
    static_assert(decltype(rank(all))::value == 4 && decltype(size<3>(all))::value == 3);
    static_assert(decltype(rank(thr.partition_fragment_C(stages)))::value == 4);
    for (int p = 0; p < 3; ++p) {
      auto one = thr.partition_C(stages(Underscore{}, Underscore{}, p));
      ASSERT_EQ(int(size(one)) * 3, int(size(all)));
      for (int i = 0; i < int(size(one)); ++i) EXPECT_EQ(all(i + int(size(one)) * p), one(i));
    }
  }
}

// A swizzled shared-memory layout partitions like any other: element i of the partition of the
// swizzled tensor is the swizzle applied to element i of the partition of the plain one.
TEST(TiledMma, PartitionsOfASwizzledTensorGoThroughTheSwizzle) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{});
  auto plain_layout = make_layout(Shape<_64, _64>{}, LayoutRight{});  // K-major A tile, 64 x 64
  Swizzle<3, 3, 3> swizzle;
  auto swizzled_layout = composition(swizzle, plain_layout);
  std::vector<int> index(64 * 64);
  for (int i = 0; i < 64 * 64; ++i) index[i] = i;
  auto plain = make_tensor(index.data(), plain_layout);
  auto swizzled = make_tensor(index.data(), swizzled_layout);
  for (int t = 0; t < 128; ++t) {
    auto p = mma.get_slice(t).partition_A(plain);
    auto q = mma.get_slice(t).partition_A(swizzled);
    ASSERT_EQ(int(size(p)), int(size(q)));
    for (int i = 0; i < int(size(p)); ++i) EXPECT_EQ(q(i), swizzle(p(i))) << "thread " << t << " value " << i;
  }
}

// A whole GEMM, thread by thread, on the host: every thread partitions global A, B, C, copies its
// elements into fragments, runs gemm(tiled_mma, ...), and writes D back. The UniversalFma atom
// makes this runnable without a GPU; integer-valued doubles make the result exact.
template <class Mma, int BM, int BN, int BK>
void expect_host_gemm_exact(Mma const& mma, std::string const& name) {
  SCOPED_TRACE(name);
  std::vector<double> a_data(BM * BK), b_data(BN * BK), c_data(BM * BN), d_data(BM * BN, -12345.0);
  for (int i = 0; i < BM * BK; ++i) a_data[i] = double((i * 7) % 11) - 5.0;
  for (int i = 0; i < BN * BK; ++i) b_data[i] = double((i * 5) % 13) - 6.0;
  for (int i = 0; i < BM * BN; ++i) c_data[i] = double(i % 17) - 8.0;
  auto gA = make_tensor(a_data.data(), make_layout(Shape<Int<BM>, Int<BK>>{}, LayoutRight{}));
  auto gB = make_tensor(b_data.data(), make_layout(Shape<Int<BN>, Int<BK>>{}, LayoutRight{}));
  auto gC = make_tensor(c_data.data(), make_layout(Shape<Int<BM>, Int<BN>>{}));
  auto gD = make_tensor(d_data.data(), make_layout(Shape<Int<BM>, Int<BN>>{}));
  for (int t = 0; t < int(size(mma)); ++t) {
    auto thr = mma.get_slice(t);
    auto tCgA = thr.partition_A(gA);
    auto tCgB = thr.partition_B(gB);
    auto tCgC = thr.partition_C(gC);
    auto tCgD = thr.partition_C(gD);
    auto tCrA = thr.partition_fragment_A(gA);
    auto tCrB = thr.partition_fragment_B(gB);
    auto tCrC = thr.partition_fragment_C(gC);
    for (int i = 0; i < int(size(tCrA)); ++i) tCrA(i) = tCgA(i);
    for (int i = 0; i < int(size(tCrB)); ++i) tCrB(i) = tCgB(i);
    for (int i = 0; i < int(size(tCrC)); ++i) tCrC(i) = tCgC(i);
    gemm(mma, tCrA, tCrB, tCrC);
    for (int i = 0; i < int(size(tCrC)); ++i) tCgD(i) = tCrC(i);
  }
  for (int m = 0; m < BM; ++m) {
    for (int n = 0; n < BN; ++n) {
      double ref = gC(m, n);
      for (int k = 0; k < BK; ++k) ref += gA(m, k) * gB(n, k);
      EXPECT_EQ(gD(m, n), ref) << "D(" << m << ", " << n << ")";
    }
  }
}

TEST(TiledMma, HostGemmWithUniversalFmaIsExact) {
  auto plain = make_tiled_mma(UniversalFma<double>{}, Layout<Shape<_8, _4, _1>>{});
  expect_host_gemm_exact<decltype(plain), 32, 16, 8>(plain, "8x4 threads");
  auto permuted = make_tiled_mma(UniversalFma<double>{}, Layout<Shape<_8, _4, _1>>{},
                                 Tile<_16, Layout<Shape<_4, _2>, Stride<_2, _1>>, _2>{});
  expect_host_gemm_exact<decltype(permuted), 32, 16, 8>(permuted, "8x4 threads, permuted N, 2 values in K");
  auto split_k = make_tiled_mma(UniversalFma<double>{}, Layout<Shape<_4, _4, _1>>{}, Tile<_8, _8, _4>{});
  expect_host_gemm_exact<decltype(split_k), 16, 24, 12>(split_k, "4x4 threads, 2x2x4 values");
}

// gemm(tiled_mma, d, a, b, c) leaves c alone and writes d; k-blocks may also be given one by one.
TEST(TiledMma, GemmWithSeparateDestination) {
  auto mma = make_tiled_mma(UniversalFma<int>{}, Layout<Shape<_1, _1, _1>>{}, Tile<_2, _3, _2>{});
  auto thr = mma.get_slice(0);
  std::vector<int> a_data = {1, 2, 3, 4}, b_data = {1, 0, 2, 1, 1, 3};  // A 2x2, B 3x2, column-major
  auto gA = make_tensor(a_data.data(), Shape<_2, _2>{});
  auto gB = make_tensor(b_data.data(), Shape<_3, _2>{});
  auto c = make_tensor<int>(Shape<_1, _2, _3>{});
  auto d = make_tensor<int>(Shape<_1, _2, _3>{});
  auto ta = thr.partition_fragment_A(gA);
  auto tb = thr.partition_fragment_B(gB);
  auto pa = thr.partition_A(gA);
  auto pb = thr.partition_B(gB);
  for (int i = 0; i < 4; ++i) ta(i) = pa(i);
  for (int i = 0; i < 6; ++i) tb(i) = pb(i);
  for (int i = 0; i < 6; ++i) c(i) = 100;
  gemm(mma, d, ta, tb, c);
  for (int m = 0; m < 2; ++m) {
    for (int n = 0; n < 3; ++n) {
      EXPECT_EQ(d(0, m, n), 100 + gA(m, 0) * gB(n, 0) + gA(m, 1) * gB(n, 1)) << m << ", " << n;
      EXPECT_EQ(c(0, m, n), 100);
    }
  }
  // One k-block at a time, as a mainloop interleaves loads with MMAs: a(_, _, k), b(_, _, k).
  for (int k = 0; k < 2; ++k) gemm(mma, ta(Underscore{}, Underscore{}, k), tb(Underscore{}, Underscore{}, k), c);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(c(i), d(i));
}

}  // namespace
