// Sm90Tiles' decode configurations (m <= 16, and the wide one up to 64 rows) on the swapped problem
// Sm90AutoGemm gives them, D stored transposed: a bias per row and per column and GELU, beta,
// batches, split-K, K = 0; D's rows 16-byte aligned or not (the staged stores through shared
// memory, or element stores); tf32's decode tile on the plain problem; which problems AutoGemm
// sends to the decode classes. Fresh random operands, D poisoned, every element against a double
// reference, padding and batch gaps checked untouched; compute capability 9.0 only.
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include <kernel/sm90_auto_gemm.hpp>  // Sm90Tiles (the decode configurations), Sm90AutoGemm

#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;

// ---- decode: A and B swapped, D stored transposed ----

// A decode configuration on the problem Sm90AutoGemm's decode classes give it (arguments_for:
// D^T = B^T · A^T, the operands trading places), with D, C and the functor in the caller's
// coordinates (Sm90Store::plain_transposed).
struct DecodeCase {
  Shape3 s;
  BiasMode mode;
  float alpha, beta;
  int batches, split_k;
  bool aligned_d = false;  // D's rows (and batches) 16-byte aligned: the staged stores where C is unread
};

template <class Config>
void swapped_with_bias_gelu_and_source(Sm90TileClass cls, std::span<const DecodeCase> cases, uint64_t seed) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  using Functor = LinearCombinationBiasActivation<GELU>;
  using T = typename Config::ElementA;  // in and out
  using Decode = Sm90GemmKernel<Config, T, Functor, Sm90Store::plain_transposed>;
  using Caller = Sm90GemmKernel<Sm90TestConfig<T, R, C, 64, 128>, T, Functor>;  // the problem as given
  for (const DecodeCase& c : cases) {
    GemmProblem<Caller> p(c.s, seed += 7,
                          ProblemLayout{.batches = c.batches, .pad_c = 3, .pad_d = c.aligned_d ? 8 : 5,
                                        .gap_d = c.aligned_d ? 16 : 2, .with_c = c.beta != 0.f});
    const bool per_row = c.mode == BiasMode::per_row;
    const std::vector<float> bias = random_vector<float>(size_t(std::max(1, per_row ? c.s.m : c.s.n)), seed + 3);
    DeviceBuffer<float> dbias(bias);
    auto args = p.arguments();
    args.epilogue = {{c.alpha, c.beta, dbias.get(), c.mode, GELU{}}};
    args.split_k = c.split_k;
    const auto swapped = Sm90AutoGemm<Sm90Tiles<T>, T, Functor>::arguments_for(cls, args);
    const std::string label = std::string(sm90_tile_class_name(cls)) + " " + describe(c.s) +
                              (per_row ? ", bias per row" : ", bias per column") + (c.beta != 0.f ? ", beta" : "") +
                              ", " + std::to_string(c.batches) + " batches, split_k " + std::to_string(c.split_k);
    // Which store path the blocks inside D take is known from D alone: make sure each is exercised.
    EXPECT_EQ(Decode::Epilogue::staged(swapped.D, swapped.ldd, swapped.epilogue.reads_source()),
              c.aligned_d && c.beta == 0.f)
        << label;
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

// Aligned D without C: the blocks inside D leave through shared memory (stmatrix.trans, 16-byte
// stores), those past its last whole 64 weight rows and every one with C by element stores; bf16
// and fp16.
TEST(Sm90GemmDecode, StagedTransposedStores) {
  const DecodeCase decode[] = {{{1, 4096, 256}, BiasMode::per_column, 0.5f, 0.f, 1, 0, true},
                               {{16, 1024, 1000}, BiasMode::per_row, 0.25f, 0.f, 1, 1, true},
                               {{7, 200, 129}, BiasMode::per_column, 0.1f, 0.f, 3, 0, true},
                               {{13, 576, 700}, BiasMode::per_row, 0.1f, 0.f, 1, 3, true},
                               {{16, 320, 300}, BiasMode::per_column, 0.1f, 0.75f, 1, 1, true}};
  swapped_with_bias_gelu_and_source<Sm90Tiles<BF16>::Decode>(Sm90TileClass::decode, decode, 360);
  const DecodeCase wide[] = {{{64, 2048, 512}, BiasMode::per_column, 0.25f, 0.f, 1, 0, true},
                             {{33, 1000, 1000}, BiasMode::per_row, 0.1f, 0.f, 2, 0, true},
                             {{40, 640, 300}, BiasMode::per_column, 0.1f, 0.f, 1, 3, true},
                             {{64, 129, 129}, BiasMode::per_row, 0.1f, -0.5f, 1, 1, true},
                             {{128, 4096, 512}, BiasMode::per_column, 0.25f, 0.f, 1, 0, true},
                             {{97, 832, 300}, BiasMode::per_row, 0.1f, 0.f, 2, 0, true}};
  swapped_with_bias_gelu_and_source<Sm90Tiles<BF16>::DecodeWide>(Sm90TileClass::decode_wide, wide, 460);
  // fp16 through the same path: its own conversion in the staging.
  const DecodeCase half_decode[] = {{{16, 1024, 512}, BiasMode::per_column, 0.25f, 0.f, 2, 0, true}};
  swapped_with_bias_gelu_and_source<Sm90Tiles<__half>::Decode>(Sm90TileClass::decode, half_decode, 560);
  const DecodeCase half_wide[] = {{{48, 704, 300}, BiasMode::per_row, 0.1f, 0.f, 1, 3, true}};
  swapped_with_bias_gelu_and_source<Sm90Tiles<__half>::DecodeWide>(Sm90TileClass::decode_wide, half_wide, 660);
}

// When the staged path applies (no GPU needed): 16-bit D, BN a multiple of 16, rows 16-byte
// aligned at the batch's start and by ldd, and no C read; never for float D or plain stores.
TEST(Sm90GemmDecode, StagedPathNeedsAlignedRowsAndNoSource) {
  using Wide = Sm90GemmKernel<Sm90Tiles<BF16>::DecodeWide, BF16, LinearCombination, Sm90Store::plain_transposed>::Epilogue;
  using Narrow = Sm90GemmKernel<Sm90GemmConfig<BF16, R, C, 64, 8, 128, 4, Sm90Schedule::pingpong>, BF16,
                                LinearCombination, Sm90Store::plain_transposed>::Epilogue;
  using Float = Sm90GemmKernel<Sm90Tiles<float>::Decode, float, LinearCombination, Sm90Store::plain_transposed>::Epilogue;
  using Plain = Sm90GemmKernel<Sm90Tiles<BF16>::DecodeWide, BF16, LinearCombination, Sm90Store::plain>::Epilogue;
  static_assert(Wide::kStaged && !Narrow::kStaged && !Float::kStaged && !Plain::kStaged);
  alignas(16) static BF16 d[64];
  EXPECT_TRUE(Wide::staged(d, 4096, false));
  EXPECT_TRUE(Wide::staged(d + 8, 8, false));
  EXPECT_FALSE(Wide::staged(d, 4096, true)) << "C is read";
  EXPECT_FALSE(Wide::staged(d, 4100, false)) << "rows 8 bytes off";
  EXPECT_FALSE(Wide::staged(d + 4, 4096, false)) << "D 8 bytes off";
  EXPECT_FALSE(Narrow::staged(d, 4096, false)) << "BN 8";
  alignas(16) static float f[16];
  EXPECT_FALSE(Float::staged(f, 4096, false)) << "float D";
  EXPECT_FALSE(Plain::staged(d, 4096, false)) << "not transposed";
}

// The wide decode configuration (chosen for 33 to 64 rows of A, and up to 128 on a nearly full
// wave; the kernel takes any), the kernel's N of one 64-column tile, or two past 64 rows.
TEST(Sm90GemmDecode, WideSwappedWithBiasGeluAndSource) {
  const DecodeCase cases[] = {{{17, 129, 129}, BiasMode::per_row, 0.25f, 0.5f, 1, 1},
                              {{64, 1000, 4097}, BiasMode::per_column, 0.05f, 0.f, 1, 0},
                              {{33, 4097, 1000}, BiasMode::per_column, 0.1f, -1.25f, 2, 0},
                              {{64, 300, 1000}, BiasMode::per_row, 0.1f, 0.75f, 1, 3},
                              {{40, 100, 0}, BiasMode::per_column, 1.f, 0.5f, 2, 1},
                              {{128, 4096, 1000}, BiasMode::per_row, 0.1f, 0.5f, 1, 0},
                              {{65, 3900, 777}, BiasMode::per_column, 0.25f, -0.75f, 1, 1},
                              {{100, 1000, 2000}, BiasMode::per_row, 0.1f, 0.f, 2, 3}};
  swapped_with_bias_gelu_and_source<Sm90Tiles<BF16>::DecodeWide>(Sm90TileClass::decode_wide, cases, 160);
}

// tf32's decode tile: BK of two swizzle rows is 64 floats (two K atoms of 32 a stage), on the
// problem as given (no swap), with plain stores for its 16-column tile.
TEST(Sm90GemmDecode, Tf32DecodeTileDeepK) {
  static_assert(Sm90Tiles<float>::Decode::BK == 64);
  sm90_sweep<Sm90GemmKernel<Sm90Tiles<float>::Decode, float, LinearCombination, Sm90Store::plain>>(310,
                                                                                                   "tf32 decode tile");
}

// A 1 x 4096 x 4096 TN problem over a small static buffer: the dispatch tests below read only its
// shape and addresses, and launch nothing.
template <class Auto>
typename Auto::Arguments decode_problem() {
  alignas(16) static BF16 buffer[64];
  typename Auto::Arguments a;
  a.m = 1, a.n = 4096, a.k = 4096;
  a.A = buffer, a.B = buffer, a.D = buffer;
  a.lda = 4096, a.ldb = 4096, a.ldd = 4096;
  return a;
}

// Which problems Sm90AutoGemm sends to the decode classes (no GPU needed): m <= 16 to decode, 33 to
// 64 to decode_wide (65 to 128 too on 0.9 to 1 wave of its tiles), batched or not, the swapped
// problem within TMA's rules; anything else to small, whose refusals name the operands as the
// caller gave them.
TEST(Sm90GemmDecode, AutoGemmTakesTheDecodeClassWhereTmaAllows) {
  using Auto = Sm90AutoGemm<Sm90Tiles<BF16>, BF16>;
  Auto::Arguments a = decode_problem<Auto>();
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
  a.m = 65;  // 128 tiles of the swapped problem: 0.97 of a wave, whole tiles past 64 tokens
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::decode_wide);
  a.m = 128;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::decode_wide);
  a.m = 129;
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  a.m = 128, a.n = 2048;  // 64 tiles: below 0.9 of a wave
  EXPECT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  a.n = 4096;
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

// How Sm90AutoGemm says it shares a problem out (for logs and the stress report), on the plans of
// 132 SMs (an H100 / H200's count; 132 without a GPU, so this runs everywhere): a decode problem
// of 64 weight tiles splits K in two, in K pairs, with no workspace; SplitKMode::serial keeps the
// workspace; so does the small tile at m 128; 4096^3 runs whole tiles.
TEST(Sm90GemmDecode, AutoGemmSaysHowItSharesTheWork) {
  if (const int sms = detail::sm_count(); sms != 132)
    GTEST_SKIP() << "the plans expected are those of 132 SMs; this GPU has " << sms;
  using Auto = Sm90AutoGemm<Sm90Tiles<BF16>, BF16>;
  Auto::Arguments a = decode_problem<Auto>();
  a.split_k = 0, a.schedule = Schedule::automatic;
  ASSERT_EQ(Auto::tile_class(a), Sm90TileClass::decode);
  EXPECT_TRUE(Auto::uses_pairs(a));
  EXPECT_EQ(Auto::effective_splits(a), 1) << "a pair's unit is a whole tile";
  EXPECT_FALSE(Auto::uses_stream_k(a));
  EXPECT_EQ(Auto::workspace_size(a), 0u) << "pairs alone need no workspace";
  a.split_k_mode = SplitKMode::serial;
  EXPECT_FALSE(Auto::uses_pairs(a));
  EXPECT_EQ(Auto::effective_splits(a), 2);
  EXPECT_GT(Auto::workspace_size(a), 0u);
  a.split_k_mode = SplitKMode::automatic;
  a.m = 128;  // DecodeWide's 128 whole tiles, one nearly full wave
  ASSERT_EQ(Auto::tile_class(a), Sm90TileClass::decode_wide);
  EXPECT_FALSE(Auto::uses_pairs(a));
  EXPECT_EQ(Auto::effective_splits(a), 1);
  EXPECT_EQ(Auto::workspace_size(a), 0u);
  a.n = 2048;  // 32 small tiles
  ASSERT_EQ(Auto::tile_class(a), Sm90TileClass::small);
  EXPECT_FALSE(Auto::uses_pairs(a)) << "Small keeps the workspace";
  EXPECT_EQ(Auto::effective_splits(a), 4);
  a.n = 4096;
  a.m = 4096;
  ASSERT_EQ(Auto::tile_class(a), Sm90TileClass::large);
  EXPECT_FALSE(Auto::uses_pairs(a));
  EXPECT_EQ(Auto::effective_splits(a), 1);
  EXPECT_FALSE(Auto::uses_stream_k(a)) << "under 4 waves of large tiles";
}

}  // namespace
