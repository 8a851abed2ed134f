// The Ampere GEMM with the tiles of Sm80Tiles (what Sm80AutoGemm and `bench/sm80_gemm` run), row-major
// A and column-major B (both operands K-major, the layout of LLM weights): 256 × 128 × 64 with 4 × 2
// warps, 128 × 128 × 32 with 2 × 2 (two CTAs per SM), and the decode tiles 128 × 128 × 64 (2 × 2
// warps in each of two K slices), 64 × 64 × 64 (1 × 4 warps, 6 stages) and 32 × 64 × 64 (1 × 4
// warps, 8 stages); the element-aligned fallback (the small tile under a 2-byte Alignment); and
// Sm80AutoGemm over all six. BK = 64 gives four k-blocks per K tile (two per warp in the sliced
// tile; both register-fragment slots reused), and K long enough for the branch-free whole-tile
// steps of the mainloop to run before the checked ones. Decode shapes go through automatic, serial
// and parallel split-K; every path of every configuration runs in Sm80GemmSanitize. Every output
// element is checked against a double reference; outputs are poisoned before each run.
//
// These six kernels are the only ones this file instantiates (each costs seconds of nvcc per
// translation unit); the MN-major tile set is in sm80_gemm_tiles_mn_major_test.cu. Mixed
// majornesses run in the f16 sweep (sm80_gemm_types_test.cu, same mainloop but for the MMA
// instruction) and for bf16 in the stress test (gemm_stress_bf16.cu); the README's 128 × 256 × 64
// tile runs, checked, in examples/gemm_sm80.
#include <kernel/sm80_auto_gemm.hpp>

#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

#include "sm80_gemm_tiles.cuh"
#include "sm80_gemm_unaligned.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using namespace strata::test::tiles;
using Tiles = Sm80Tiles<T>;  // row-major A, column-major B
using Unaligned = detail::Sm80UnalignedOf<Tiles>::type;
static_assert(std::is_same_v<Unaligned, Tiles::Small::WithAlignment<2>>);

// Decode: few rows, long K, split automatically, serially and in parallel.
template <class Kernel>
void decode_split_k(uint64_t seed, const char* what) {
  for (Shape3 s : {Shape3{1, 1000, 4097}, Shape3{16, 4103, 2048}, Shape3{100, 1000, 4097}}) {
    for (SplitKMode mode : {SplitKMode::automatic, SplitKMode::serial, SplitKMode::parallel}) {
      GemmProblem<Kernel> p(s, seed += 7);
      auto args = p.arguments();
      args.epilogue = {{1.f, 0.f}};
      args.split_k = mode == SplitKMode::automatic ? 0 : 4;
      args.split_k_mode = mode;
      const std::string label = std::string(what) + (mode == SplitKMode::automatic ? ", split-K automatic"
                                                     : mode == SplitKMode::serial  ? ", split-K 4 serial"
                                                                                   : ", split-K 4 parallel");
      ASSERT_TRUE(bool(Gemm<Kernel>::can_implement(args))) << label << " " << describe(s);
      ASSERT_TRUE(bool(p.run(args))) << label << " " << describe(s);
      p.check([](int, int, int, double ref) { return ref; }, label);
    }
  }
}

TEST(Sm80GemmTiles, Large256x128x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_tile<Tiles::Large>(1100, "TN");
}

// A tile the bench runs below one large wave or on decode shapes: the ragged sweep, then the
// decode shapes through every split-K mode.
template <class Config>
void sweep_and_decode(uint64_t seed) {
  sweep_tile<Config>(seed, "TN");
  const std::string what = std::to_string(Config::BM) + "x" + std::to_string(Config::BN) + "x" + std::to_string(Config::BK);
  decode_split_k<KernelOf<Config>>(seed + 50, what.c_str());
}

TEST(Sm80GemmTiles, Small128x128x32) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_and_decode<Tiles::Small>(1600);
}

// The medium tile, sliced K (its MN-major sweep is in sm80_gemm_tiles_mn_major_test.cu).
TEST(Sm80GemmTiles, Medium128x128x64SlicedK) {
  STRATA_REQUIRE_SM(8, 0);
  static_assert(Tiles::Medium::kWarpsK == 2, "the medium tile is the sliced-K one");
  sweep_and_decode<Tiles::Medium>(1700);
}

TEST(Sm80GemmTiles, Thin64x64x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_and_decode<Tiles::Thin>(1900);
}

TEST(Sm80GemmTiles, Narrow32x64x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_and_decode<Tiles::Narrow>(1800);
}

// Every tile of the set runs on an A100 too: its CTA's shared memory fits the 163 KB (166912
// bytes) an sm_80 GPU grants one block. Checked in a function template: nvcc's host front end
// (cudafe++) passes templates through to the host compiler, whereas in the test's own body it would
// evaluate the five kernels' shared-memory sizes itself, about 15 s of compile time.
template <int Limit, class... Configs>
void expect_tiles_fit() {
  static_assert(((KernelOf<Configs>::smem_bytes <= Limit) && ...), "a tile of Sm80Tiles needs more shared memory");
  EXPECT_TRUE(detail::check_shared_memory(KernelOf<Tiles::Medium>::smem_bytes, Limit).ok());
}
TEST(Sm80Tiles, EveryTileFitsAnA100) {
  expect_tiles_fit<166912, Tiles::Large, Tiles::Small, Tiles::Medium, Tiles::Thin, Tiles::Narrow>();
}

// Sliced K: two groups of 2 × 2 warps share each 64-deep K tile (k-blocks 0 and 2 to group 0, 1
// and 3 to group 1), so thread t + 128 holds the same C elements as thread t and the A and B
// elements 16 columns of K further on. (A function template, for the reason given above.)
template <class Config>
void expect_sliced_k_partition() {
  static_assert(Config::kThreads == 256 && Config::kSliceThreads == 128 && Config::k_blocks == 2);
  static_assert(Config::smem_bytes_slices == 128 * 128 * 4, "one other slice's fp32 accumulators");
  typename Config::TiledMmaType mma;
  auto cC = make_identity_tensor(make_shape(Int<128>{}, Int<128>{}));
  auto cA = make_identity_tensor(make_shape(Int<128>{}, Int<64>{}));
  auto cB = make_identity_tensor(make_shape(Int<128>{}, Int<64>{}));
  for (int t : {0, 5, 37, 100, 127}) {
    auto c0 = mma.get_slice(t).partition_C(cC), c1 = mma.get_slice(t + 128).partition_C(cC);
    ASSERT_EQ(int(size(c0.layout())), int(size(c1.layout())));
    for (int i = 0; i < int(size(c0.layout())); ++i) EXPECT_EQ(c0(i), c1(i)) << "thread " << t << " value " << i;
    auto a0 = mma.get_slice(t).partition_A(cA), a1 = mma.get_slice(t + 128).partition_A(cA);
    auto b0 = mma.get_slice(t).partition_B(cB), b1 = mma.get_slice(t + 128).partition_B(cB);
    EXPECT_EQ(int(size<2>(a0.layout())), 2) << "two k-blocks of one K tile per thread";
    for (int i = 0; i < int(size(a0.layout())); ++i) {
      EXPECT_EQ(get<0>(a0(i)), get<0>(a1(i)));
      EXPECT_EQ(get<1>(a0(i)) + 16, get<1>(a1(i))) << "thread " << t << " value " << i;
      EXPECT_EQ((get<1>(a0(i)) / 16) % 2, 0) << "group 0 takes the even k-blocks";
    }
    for (int i = 0; i < int(size(b0.layout())); ++i) {
      EXPECT_EQ(get<0>(b0(i)), get<0>(b1(i)));
      EXPECT_EQ(get<1>(b0(i)) + 16, get<1>(b1(i))) << "thread " << t << " value " << i;
    }
  }
}
TEST(Sm80SlicedK, WarpGroupsShareCAndTakeAlternateKBlocks) {
  expect_sliced_k_partition<Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4, 2>>();
}

// Small problems that reach every path of a configuration, for compute-sanitizer
// (scripts/gpu-check.sh runs Sm80GemmSanitize.* under memcheck, racecheck, synccheck and
// initcheck): ragged tiles with beta and two batches, whole tiles, serial split-K over three
// parts (a prefix, the CTA's own part and a suffix for the middle one), parallel split-K and
// Stream-K (several CTAs per tile). `layout` may break the 16-byte rule (unaligned configuration).
template <class Kernel>
void every_path(uint64_t seed, const char* what, ProblemLayout layout = {}) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = typename Kernel::Config;
  const Shape3 ragged{Config::BM + 37, Config::BN + 9, 5 * Config::BK + 3};
  const Shape3 whole{2 * Config::BM, Config::BN, 4 * Config::BK};
  auto run_case = [&](Shape3 s, int batches, bool with_c, const char* how, auto&& tweak) {
    ProblemLayout l = layout;
    l.batches = batches, l.with_c = with_c;
    GemmProblem<Kernel> p(s, seed += 13, l);
    auto args = p.arguments();
    const float alpha = 1.25f, beta = with_c ? 0.5f : 0.f;
    args.epilogue = LinearCombination{{alpha, beta}};
    tweak(args);
    const std::string label = std::string(what) + how;
    ASSERT_TRUE(bool(Gemm<Kernel>::can_implement(args))) << label << ": " << Gemm<Kernel>::can_implement(args).message();
    ASSERT_TRUE(bool(p.run(args))) << label;
    p.check([&](int i, int j, int bt, double ref) { return alpha * ref + (with_c ? beta * p.source(i, j, bt) : 0.0); },
            label, alpha);
  };
  auto none = [](auto&) {};
  run_case(ragged, 2, true, ", ragged, beta, 2 batches", none);
  run_case(whole, 1, false, ", whole tiles", none);
  run_case(ragged, 1, true, ", serial split-K 3",
           [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::serial; });
  run_case(ragged, 2, false, ", parallel split-K 3",
           [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::parallel; });
  run_case(ragged, 1, true, ", Stream-K", [](auto& a) { a.schedule = Schedule::stream_k; });
}

TEST(Sm80GemmSanitize, Large) { every_path<KernelOf<Tiles::Large>>(3000, "large"); }
TEST(Sm80GemmSanitize, Small) { every_path<KernelOf<Tiles::Small>>(3100, "small"); }
TEST(Sm80GemmSanitize, MediumSlicedK) { every_path<KernelOf<Tiles::Medium>>(3200, "medium (sliced K)"); }
TEST(Sm80GemmSanitize, Thin) { every_path<KernelOf<Tiles::Thin>>(3300, "thin"); }
TEST(Sm80GemmSanitize, Narrow) { every_path<KernelOf<Tiles::Narrow>>(3400, "narrow"); }
TEST(Sm80GemmSanitize, Unaligned) {
  every_path<KernelOf<Unaligned>>(
      3500, "unaligned", {.pad_a = 1, .pad_b = 3, .pad_c = 5, .pad_d = 7, .gap_a = 1, .gap_b = 3, .gap_d = 1});
}

// The element-aligned fallback over odd leading dimensions and batch strides
// (sm80_gemm_unaligned.cuh); the other element types are in sm80_gemm_unaligned_test.cu.
TEST(Sm80GemmUnaligned, Bf16RowMajorA_ColumnMajorB) { unaligned_sweep<KernelOf<Unaligned>>(100, "bf16 TN"); }

TEST(Sm80AutoGemm, EveryClassTN) {
  STRATA_REQUIRE_SM(8, 0);
  auto_gemm_classes<RowMajor, ColumnMajor>(2000, "auto TN");
}

// Without a GPU too: the class follows sm80_tile_class over the large tiles of all batches, and a
// refusal comes from the chosen configuration, with its message, before anything runs. (A function
// template, as expect_tiles_fit: in a test's own body cudafe++ would instantiate the six kernels'
// host interfaces itself, about 12 s of compile time.)
template <class Tiles>
void expect_choices_and_refusals() {
  using Auto = Sm80AutoGemm<Tiles, T>;
  const long long wave = Gemm<KernelOf<typename Tiles::Large>>::split_k_wave();
  typename Auto::Arguments a;
  a.k = 4096;
  for (int m : {1, 32, 33, 64, 65, 128, 129, 1000, 8192}) {
    for (int n : {64, 4096, 14336}) {
      for (int batches : {1, 4, 100}) {
        a.m = m, a.n = n, a.batch_count = batches;
        const long long tiles = (m + 255LL) / 256 * ((n + 127LL) / 128) * batches;
        EXPECT_EQ(Auto::tile_class(a), sm80_tile_class(m, tiles, wave)) << m << " x " << n << " x " << batches;
      }
    }
  }
  // Sizes can_implement refuses (too many tiles over all batches) still choose, without overflow.
  a.m = a.n = std::numeric_limits<int>::max(), a.batch_count = std::numeric_limits<int>::max();
  EXPECT_EQ(Auto::tile_class(a), Sm80TileClass::large);
  EXPECT_EQ(Auto::can_implement(a).code(), StatusCode::problem_too_large) << Auto::can_implement(a).message();

  // Each class answers with its own configuration: serial split-K's workspace holds a partial
  // tile per split, so its size tells the tile apart.
  a = {};
  a.k = 4096, a.split_k = 4, a.split_k_mode = SplitKMode::serial;
  auto workspace_of = [&](auto gemm_type, int m, int n) {
    using G = typename decltype(gemm_type)::type;
    a.m = m, a.n = n;
    return std::pair{Auto::workspace_size(a), G::workspace_size(a)};
  };
  const int n = 4000;  // 63 thin tiles against 32 medium: different workspaces
  const std::pair<size_t, size_t> per_class[] = {
      workspace_of(std::type_identity<Gemm<KernelOf<typename Tiles::Narrow>>>{}, 16, n),
      workspace_of(std::type_identity<Gemm<KernelOf<typename Tiles::Thin>>>{}, 48, n),
      workspace_of(std::type_identity<Gemm<KernelOf<typename Tiles::Medium>>>{}, 100, n),
      workspace_of(std::type_identity<Gemm<KernelOf<typename Tiles::Small>>>{}, 129, n),
      workspace_of(std::type_identity<Gemm<KernelOf<typename Tiles::Large>>>{}, 8192, n)};
  for (size_t c = 0; c < std::size(per_class); ++c) {
    EXPECT_EQ(per_class[c].first, per_class[c].second) << "class " << c;
    if (c > 0) EXPECT_NE(per_class[c].second, per_class[c - 1].second) << "classes " << c - 1 << " and " << c;
  }

  a = {};
  a.m = 16, a.n = 4096, a.k = 4096;
  alignas(16) static T dummy[16];
  a.A = dummy, a.B = dummy, a.D = dummy;
  a.lda = 4100, a.ldb = 4096, a.ldd = 4096;  // lda not a multiple of 8 elements
  // The narrow class's 16-byte configuration refuses it, naming lda; the automatic GEMM takes it
  // on its unaligned configuration instead.
  const Status narrow = Gemm<KernelOf<typename Tiles::Narrow>>::can_implement(a);
  EXPECT_EQ(narrow.code(), StatusCode::misaligned_leading_dim) << narrow.message();
  EXPECT_NE(narrow.message().find("lda"), std::string::npos) << narrow.message();
  EXPECT_EQ(Auto::tile_class(a), Sm80TileClass::unaligned);
  EXPECT_TRUE(bool(Auto::can_implement(a))) << Auto::can_implement(a).message();
  a.A = reinterpret_cast<T const*>(reinterpret_cast<char const*>(dummy) + 1);  // not even element-aligned
  const Status st = Auto::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_pointer) << st.message();
  EXPECT_NE(st.message().find("A must be 2-byte aligned"), std::string::npos) << st.message();
  Auto gemm;
  EXPECT_EQ(gemm.initialize(a).code(), StatusCode::misaligned_pointer);
  EXPECT_EQ(gemm.run().code(), StatusCode::not_initialized);
}
TEST(Sm80AutoGemm, ChoosesAndRefusesOnTheHost) { expect_choices_and_refusals<Tiles>(); }
}  // namespace
