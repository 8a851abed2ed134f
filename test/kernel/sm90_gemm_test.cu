// The Hopper GEMM (TMA + wgmma, warp-specialized, persistent) through the shape sweep of
// sm90_gemm_sweep.cuh: shapes with 1, 7, 129, 1000 and 4097 in each dimension, batches, beta;
// fresh random operands, D poisoned, every element against a double reference, padding and batch
// gaps checked untouched. Runs only on compute capability 9.0 (the kernel is sm_90a code).
//  - tiles and types: bf16 and fp16 in, fp32 accumulation, bf16/fp16/fp32 out, 128 × 256 and
//    64 × 128; the plain-store variant over an odd ldd; C aliasing D; refusals;
//  - layouts: every operand majorness wgmma reads (MN-major A or B for 16-bit types), tf32 (fp32
//    in, K-major);
//  - schedules and clusters: ping-pong consumer warpgroups, 2 × 1 and 1 × 2 clusters whose CTAs
//    multicast the operand they share (K-major and MN-major boxes);
//  - decode: Sm90Tiles' decode configurations (m <= 16 and the wide one up to 64) on the swapped
//    problem with transposed stores, a bias per row and per column and GELU, beta, batches,
//    split-K, K = 0; tf32's decode tile on the plain problem;
//  - BK of two swizzle rows (128 16-bit elements): K-major with a cluster, MN-major ping-pong.
// (One translation unit: each costs CI ~13 s before its first kernel.)
#include <kernel/sm90_auto_gemm.hpp>  // Sm90Tiles (the decode configuration)

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

// ---- decode: A and B swapped, D stored transposed ----

// A decode configuration on the problem Sm90AutoGemm's decode classes give it (arguments_for:
// D^T = B^T · A^T, the operands trading places), with D, C and the functor in the caller's
// coordinates (Sm90Store::plain_transposed).
struct DecodeCase {
  Shape3 s;
  BiasMode mode;
  float alpha, beta;
  int batches, split_k;
};

template <class Config>
void swapped_with_bias_gelu_and_source(Sm90TileClass cls, std::span<const DecodeCase> cases, uint64_t seed) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  using Functor = LinearCombinationBiasActivation<GELU>;
  using Decode = Sm90GemmKernel<Config, BF16, Functor, Sm90Store::plain_transposed>;
  using Caller = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 64, 128>, BF16, Functor>;  // the problem as given
  for (const DecodeCase& c : cases) {
    GemmProblem<Caller> p(c.s, seed += 7,
                          ProblemLayout{.batches = c.batches, .pad_c = 3, .pad_d = 5, .gap_d = 2, .with_c = c.beta != 0.f});
    const bool per_row = c.mode == BiasMode::per_row;
    const std::vector<float> bias = random_vector<float>(size_t(std::max(1, per_row ? c.s.m : c.s.n)), seed + 3);
    DeviceBuffer<float> dbias(bias);
    auto args = p.arguments();
    args.epilogue = {{c.alpha, c.beta, dbias.get(), c.mode, GELU{}}};
    args.split_k = c.split_k;
    const auto swapped = Sm90AutoGemm<Sm90Tiles<BF16>, BF16, Functor>::arguments_for(cls, args);
    const std::string label = std::string(sm90_tile_class_name(cls)) + " " + describe(c.s) +
                              (per_row ? ", bias per row" : ", bias per column") + (c.beta != 0.f ? ", beta" : "") +
                              ", " + std::to_string(c.batches) + " batches, split_k " + std::to_string(c.split_k);
    const Status st = Gemm<Decode>::can_implement(swapped);
    ASSERT_TRUE(bool(st)) << label << ": " << st.message();
    Gemm<Decode> gemm;
    const size_t bytes = Gemm<Decode>::workspace_size(swapped);
    DeviceBuffer<char> ws(std::max<size_t>(bytes, 1));
    ASSERT_TRUE(bool(gemm.initialize(swapped, ws.get(), bytes))) << label;
    ASSERT_TRUE(bool(gemm.run())) << label;
    throw_on_error(cudaDeviceSynchronize(), "decode GEMM");
    auto gelu = [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); };
    p.check(
        [&](int i, int j, int bt, double ref) {
          double x = c.alpha * ref + bias[size_t(per_row ? i : j)];
          if (c.beta != 0.f) x += c.beta * p.source(i, j, bt);
          return gelu(x);
        },
        label, 1.2 * c.alpha);
  }
}

TEST(Sm90GemmDecode, SwappedWithBiasGeluAndSource) {
  const DecodeCase cases[] = {{{1, 1, 1}, BiasMode::per_row, 1.f, 0.f, 1, 1},
                              {{1, 1000, 4097}, BiasMode::per_column, 0.05f, 0.f, 1, 0},
                              {{16, 129, 129}, BiasMode::per_row, 0.25f, 0.5f, 1, 1},
                              {{7, 4097, 1000}, BiasMode::per_column, 0.1f, -1.25f, 2, 0},
                              {{5, 300, 1000}, BiasMode::per_row, 0.1f, 0.75f, 1, 3},
                              {{3, 100, 0}, BiasMode::per_column, 1.f, 0.5f, 2, 1}};
  swapped_with_bias_gelu_and_source<Sm90Tiles<BF16>::Decode>(Sm90TileClass::decode, cases, 60);
}

// The wide decode configuration (chosen for 33 to 64 rows of A; the kernel takes any up to 64),
// the kernel's N of one 64-column tile.
TEST(Sm90GemmDecode, WideSwappedWithBiasGeluAndSource) {
  const DecodeCase cases[] = {{{17, 129, 129}, BiasMode::per_row, 0.25f, 0.5f, 1, 1},
                              {{64, 1000, 4097}, BiasMode::per_column, 0.05f, 0.f, 1, 0},
                              {{33, 4097, 1000}, BiasMode::per_column, 0.1f, -1.25f, 2, 0},
                              {{64, 300, 1000}, BiasMode::per_row, 0.1f, 0.75f, 1, 3},
                              {{40, 100, 0}, BiasMode::per_column, 1.f, 0.5f, 2, 1}};
  swapped_with_bias_gelu_and_source<Sm90Tiles<BF16>::DecodeWide>(Sm90TileClass::decode_wide, cases, 160);
}

// tf32's decode tile: BK of two swizzle rows is 64 floats (two K atoms of 32 a stage), on the
// problem as given (no swap), with plain stores for its 16-column tile.
TEST(Sm90GemmDecode, Tf32DecodeTileDeepK) {
  static_assert(Sm90Tiles<float>::Decode::BK == 64);
  sm90_sweep<Sm90GemmKernel<Sm90Tiles<float>::Decode, float, LinearCombination, Sm90Store::plain>>(310,
                                                                                                   "tf32 decode tile");
}

// Which problems Sm90AutoGemm sends to the decode classes (no GPU needed): m <= 16 to decode, 33 to
// 64 to decode_wide, batched or not, the swapped problem within TMA's rules; anything else to
// small, whose refusals name the operands as the caller gave them.
TEST(Sm90GemmDecode, AutoGemmTakesTheDecodeClassWhereTmaAllows) {
  using Auto = Sm90AutoGemm<Sm90Tiles<BF16>, BF16>;
  alignas(16) static BF16 buffer[64];
  Auto::Arguments a;
  a.m = 1, a.n = 4096, a.k = 4096;
  a.A = buffer, a.B = buffer, a.D = buffer;
  a.lda = 4096, a.ldb = 4096, a.ldd = 4096;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::decode);
  a.m = 16;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::decode);
  a.m = 17;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  a.m = 32;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  a.m = 33;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::decode_wide);
  a.m = 64;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::decode_wide);
  a.m = 65;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  a.m = 40, a.lda = 4100;  // the tokens' rows off TMA's rule: the wide decode kernel refuses them too
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  a.lda = 4096;
  a.m = 1, a.batch_count = 2;
  a.batch_stride_a = 4096, a.batch_stride_b = 4096LL * 4096, a.batch_stride_d = 4096;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::decode) << "batched decode problems";
  a.batch_stride_a = 4100;  // the swapped problem's B batches off TMA's 16-byte rule
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  a.batch_stride_a = 4096;
  a.batch_count = 1, a.lda = 4100;  // the tokens' rows off TMA's 16-byte rule
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  const Status st = Auto::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_leading_dim) << st.message();
  EXPECT_NE(st.message().find("lda (4100)"), std::string::npos) << st.message();
  EXPECT_NE(Auto::config_name(Sm90TileClass::decode).find("A and B swapped"), std::string::npos);
  EXPECT_NE(Auto::config_name(Sm90TileClass::decode_wide).find("A and B swapped, ping-pong 64x64x128"),
            std::string::npos);
}

}  // namespace
