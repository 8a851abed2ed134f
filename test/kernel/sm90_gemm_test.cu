// The Hopper GEMM (TMA + wgmma, warp-specialized, persistent) through the shape sweep of
// sm90_gemm_sweep.cuh: shapes with 1, 7, 129, 1000 and 4097 in each dimension, batches, beta;
// fresh random operands, D poisoned, every element against a double reference, padding and batch
// gaps checked untouched. Runs only on compute capability 9.0 (the kernel is sm_90a code).
//  - tiles and types: bf16 and fp16 in, fp32 accumulation, bf16/fp16/fp32 out, 128 × 256 and
//    64 × 128; the plain-store variant over an odd ldd; C aliasing D; refusals; the L2 hints'
//    rule and their loads, on and off;
//  - layouts: every operand majorness wgmma reads (MN-major A or B for 16-bit types), tf32 (fp32
//    in, K-major);
//  - schedules and clusters: ping-pong consumer warpgroups, 2 × 1 and 1 × 2 clusters whose CTAs
//    multicast the operand they share (K-major and MN-major boxes);
//  - BK of two swizzle rows (128 16-bit elements): K-major with a cluster, MN-major ping-pong.
// (The decode configurations are in sm90_gemm_decode_test.cu.)
#include <kernel/sm90_auto_gemm.hpp>  // detail::Sm90Fitted

#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;

template <class T, int BM, int BN>
using Config = Sm90TestConfig<T, RowMajor, ColumnMajor, BM, BN>;

TEST(Sm90Gemm, Bf16_128x256) { sm90_sweep<Sm90GemmKernel<Config<BF16, 128, 256>, BF16, LinearCombination>>(10, "bf16 128x256"); }
TEST(Sm90Gemm, F16InF32Out_128x128) {
  sm90_sweep<Sm90GemmKernel<Config<__half, 128, 128>, float, LinearCombination>>(20, "f16->f32 128x128");
}
TEST(Sm90Gemm, Bf16_64x128) { sm90_sweep<Sm90GemmKernel<Config<BF16, 64, 128>, BF16, LinearCombination>>(30, "bf16 64x128"); }
// The space-filling tile orders over the same kernel (the order is a run-time argument).
TEST(Sm90Gemm, Bf16_64x128_SnakeOrders) {
  using Kernel = Sm90GemmKernel<Config<BF16, 64, 128>, BF16, LinearCombination>;
  sm90_sweep<Kernel>(33, "bf16 64x128, snake along N, groups of 3", [](Gemm<Kernel>::Arguments& a) {
    a.raster_order = RasterOrder::snake_along_n;
    a.raster_group = 3;
  });
  sm90_sweep<Kernel>(36, "bf16 64x128, snake along M, groups of 2", [](Gemm<Kernel>::Arguments& a) {
    a.raster_order = RasterOrder::snake_along_m;
    a.raster_group = 2;
  });
}

// D whose rows TMA cannot store (ldd odd): refused by the TMA-store kernel, computed by its
// plain-store variant, same checks.
TEST(Sm90Gemm, Bf16_OddLddTakesPlainStores) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  using Kernel = Sm90GemmKernel<Config<BF16, 128, 256>, BF16, LinearCombination, Sm90Store::plain>;
  using TmaKernel = Sm90GemmKernel<Config<BF16, 128, 256>, BF16, LinearCombination>;
  uint64_t seed = 40;
  for (Shape3 s : {Shape3{129, 257, 129}, Shape3{1000, 77, 1000}, Shape3{7, 7, 7}}) {
    GemmProblem<Kernel> p(s, seed += 3, ProblemLayout{.batches = 2, .pad_c = 1, .pad_d = 1, .with_c = true});
    auto args = p.arguments();
    args.epilogue = LinearCombination{{0.5f, 2.f}};
    const Status refused = Gemm<TmaKernel>::can_implement(args);
    EXPECT_EQ(refused.code(), StatusCode::misaligned_leading_dim) << refused.message();
    EXPECT_NE(refused.message().find("Sm90Store::plain"), std::string::npos) << refused.message();
    ASSERT_TRUE(bool(p.run(args))) << describe(s);
    p.check([&](int i, int j, int bt, double ref) { return 0.5 * ref + 2.0 * p.source(i, j, bt); }, "odd ldd", 0.5);
  }
}

// C aliases D (ldc = ldd, one batch stride): D starts out holding C, every output element reads
// its own C before its tile is stored, and padding and batch gaps keep C's values. Whole tiles,
// split-K and Stream-K (only the unit that finishes a split tile reads C and stores) with TMA
// loads of C and TMA stores; plain stores on an odd ldd.
template <class Kernel, class Tweak>
void sweep_c_aliases_d(int64_t pad_d, Tweak tweak, const char* what, uint64_t seed) {
  for (Shape3 s : {Shape3{129, 257, 129}, Shape3{1000, 77, 1000}, Shape3{7, 7, 7}, Shape3{300, 300, 4096}}) {
    GemmProblem<Kernel> p(s, seed += 3,
                          ProblemLayout{.batches = 2, .pad_d = pad_d, .gap_d = 8, .with_c = true, .c_is_d = true});
    auto args = p.arguments();
    ASSERT_EQ(args.C, args.D);
    args.epilogue = LinearCombination{{0.75f, -1.5f}};
    tweak(args);
    const Status st = Gemm<Kernel>::can_implement(args);
    ASSERT_TRUE(bool(st)) << what << " " << describe(s) << ": " << st.message();
    ASSERT_TRUE(bool(p.run(args))) << what << " " << describe(s);
    p.check([&](int i, int j, int bt, double ref) { return 0.75 * ref - 1.5 * p.source(i, j, bt); }, what, 0.75);
  }
}
TEST(Sm90Gemm, CAliasesD) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  using Kernel = Sm90GemmKernel<Config<BF16, 128, 256>, BF16, LinearCombination>;
  using Plain = Sm90GemmKernel<Config<BF16, 128, 256>, BF16, LinearCombination, Sm90Store::plain>;
  using Args = Gemm<Kernel>::Arguments;
  sweep_c_aliases_d<Kernel>(8, [](Args&) {}, "C is D, whole tiles", 50);
  sweep_c_aliases_d<Kernel>(8, [](Args& a) { a.split_k = 3; }, "C is D, split-K 3", 60);
  sweep_c_aliases_d<Kernel>(8, [](Args& a) { a.schedule = Schedule::stream_k; }, "C is D, Stream-K", 70);
  sweep_c_aliases_d<Plain>(1, [](Gemm<Plain>::Arguments&) {}, "C is D, plain stores, odd ldd", 80);
}

// Refusals before anything runs, in words (no GPU needed).
TEST(Sm90Gemm, RefusesWhatTmaCannotRead) {
  using G = Gemm<Sm90GemmKernel<Config<BF16, 128, 256>, BF16, LinearCombination>>;
  alignas(16) static BF16 buffer[64];
  G::Arguments a;
  a.m = 16, a.n = 16, a.k = 16;
  a.A = buffer, a.B = buffer, a.D = buffer;
  a.lda = 20, a.ldb = 16, a.ldd = 16;
  Status st = G::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_leading_dim) << st.message();
  EXPECT_NE(st.message().find("lda (20) must be a multiple of 8 elements"), std::string::npos) << st.message();
  a.lda = 16;
  a.B = buffer + 1;
  st = G::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_pointer) << st.message();
  EXPECT_NE(st.message().find("B must be 16-byte aligned"), std::string::npos) << st.message();
  a.B = buffer;
  EXPECT_TRUE(bool(G::can_implement(a))) << G::can_implement(a).message();
}

// The L2 hints (no GPU needed): the operand each of whose blocks one CTA reads is evict_first and
// the one at least eight read, over at least 128 rows, evict_last, either way round; nothing where
// a block is read twice, the re-read operand is smaller, both are reused, or the hints are off;
// the study knob's pair instead of the rule's while it is set.
TEST(Sm90Gemm, L2HintsMarkTheOperandReadOnce) {
  using H = arch::L2Hint;
  const Sm90L2HintPair none{}, b_once{H::evict_last, H::evict_first}, a_once{H::evict_first, H::evict_last};
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 128, 14336, 128, 128), b_once) << "weights in B, one tile row";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 3000, 200, 128, 256), a_once) << "weights in A, one tile column";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 128, 8192, 64, 128), none) << "two tile rows";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 4096, 128, 64, 64), none) << "swapped, two tile columns";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 4096, 64, 64, 64), none) << "swapped, 64 rows of activations";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 1000, 1, 64, 8), none) << "one column";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 127, 4096, 128, 128), none) << "127 rows";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 129, 4096, 128, 128), none) << "two tile rows of 128";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 128, 896, 128, 128), none) << "seven tile columns";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 128, 1024, 128, 128), b_once) << "eight tile columns";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 4096, 4096, 128, 256), none) << "both reused";
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 0, 4096, 128, 256), none) << "empty";
  EXPECT_EQ(sm90_l2_hints(L2Hints::off, 128, 14336, 128, 128), none) << "off";
  const Sm90L2HintPair studied{H::evict_last, H::none};
  detail::study_l2_hints = studied;
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 4096, 4096, 128, 256), studied) << "the study knob's pair";
  EXPECT_EQ(sm90_l2_hints(L2Hints::off, 4096, 4096, 128, 256), none) << "the study knob, hints off";
  detail::study_l2_hints.reset();
  EXPECT_EQ(sm90_l2_hints(L2Hints::automatic, 4096, 4096, 128, 256), none) << "the study knob reset";
}

// The same problems with the hints on and off give the same answers: each operand loaded
// evict_first (a 128-row A on one tile row, a 200-column B on one tile column), unicast and with
// the other operand multicast to a 2 x 1 cluster.
TEST(Sm90Gemm, L2HintsOnAndOff) {
  static constexpr Shape3 shapes[] = {{128, 2100, 1000}, {3000, 200, 1000}};
  for (Shape3 s : shapes)
    ASSERT_NE(sm90_l2_hints(L2Hints::automatic, s.m, s.n, 128, 256), Sm90L2HintPair{}) << describe(s);
  using Kernel = Sm90GemmKernel<Config<BF16, 128, 256>, BF16, LinearCombination>;
  using Cluster = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 256, Sm90Schedule::cooperative, 2, 1>, BF16,
                                 LinearCombination>;
  const auto no_hints = [](auto& a) { a.l2_hints = L2Hints::off; };
  sm90_sweep<Kernel>(270, "128x256, L2 hints", [](auto&) {}, shapes);
  sm90_sweep<Kernel>(280, "128x256, no L2 hints", no_hints, shapes);
  sm90_sweep<Cluster>(290, "cluster 2x1, L2 hints", [](auto&) {}, shapes);
}

// ---- layouts ----

TEST(Sm90GemmLayouts, Bf16_AColumnMajor_BColumnMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, C, C, 128, 256>, BF16, LinearCombination>>(110, "bf16 A col B col");
}
TEST(Sm90GemmLayouts, Bf16_ARowMajor_BRowMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, R, 128, 128>, BF16, LinearCombination>>(120, "bf16 A row B row");
}
TEST(Sm90GemmLayouts, F16_AColumnMajor_BRowMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<__half, C, R, 128, 192>, __half, LinearCombination>>(130, "f16 A col B row");
}
TEST(Sm90GemmLayouts, Tf32_128x128) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<float, R, C, 128, 128>, float, LinearCombination>>(140, "tf32 128x128");
}

// ---- schedules and clusters ----

constexpr auto pingpong = Sm90Schedule::pingpong;
constexpr auto cooperative = Sm90Schedule::cooperative;

TEST(Sm90GemmSchedules, Pingpong_Bf16_128x128) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 128, pingpong>, BF16, LinearCombination>>(210,
                                                                                                       "ping-pong");
}
TEST(Sm90GemmSchedules, Cluster2x1_Bf16_128x256) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 256, cooperative, 2, 1>, BF16, LinearCombination>>(
      220, "cluster 2x1");
}
TEST(Sm90GemmSchedules, Cluster1x2_Pingpong_BRowMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, R, 64, 256, pingpong, 1, 2>, BF16, LinearCombination>>(
      230, "cluster 1x2 ping-pong, B row-major");
}
TEST(Sm90GemmSchedules, Cluster2x1_F16_AColumnMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<__half, C, C, 128, 128, cooperative, 2, 1>, float, LinearCombination>>(
      240, "cluster 2x1, A column-major, f32 out");
}

// ---- BK of two 128-byte swizzle rows (128 16-bit elements a stage: two TMA boxes per K-major
// operand and CTA, wgmma descriptors across both) ----

template <class LA, class LB, int BM, int BN, int Stages, Sm90Schedule S, int CM = 1>
using DeepK = detail::Sm90Fitted<Sm90GemmConfig<BF16, LA, LB, BM, BN, 128, Stages, S, CM, 1>, BF16, LinearCombination>;

TEST(Sm90GemmDeepK, Bf16_KMajor_128x128x128_Cluster2x1) {
  sm90_sweep<Sm90GemmKernel<DeepK<R, C, 128, 128, 3, cooperative, 2>, BF16, LinearCombination>>(
      250, "BK 128, K-major, cluster 2x1");
}
TEST(Sm90GemmDeepK, Bf16_MnMajor_128x128x128_Pingpong) {
  sm90_sweep<Sm90GemmKernel<DeepK<C, R, 128, 128, 3, pingpong>, BF16, LinearCombination>>(260,
                                                                                          "BK 128, MN-major, ping-pong");
}

}  // namespace
