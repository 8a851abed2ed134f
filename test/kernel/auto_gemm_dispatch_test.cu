// strata::AutoGemm's choices, on the host (no GPU needed): the path for each compute capability,
// with and without sm_90a code, for problems the Hopper kernel takes and refuses; Sm90AutoGemm's
// and Sm80AutoGemm's tile classes for representative shapes; the names of the configurations each
// class runs. This unit is compiled for the Ampere targets alone, so its own AutoGemm holds no
// Hopper path and its probe finds no sm_90a image, on any GPU.
#include <kernel/auto_gemm.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace {
using namespace strata;
using BF16 = __nv_bfloat16;

TEST(AutoGemmDispatch, PathByCapability) {
  const StatusCode refusals[] = {StatusCode::misaligned_pointer, StatusCode::misaligned_leading_dim,
                                 StatusCode::unsupported, StatusCode::invalid_problem};
  for (auto [major, minor] : {std::pair{8, 0}, {8, 6}, {8, 9}, {9, 0}, {10, 0}, {12, 0}, {0, 0}}) {
    for (bool compiled : {false, true}) {
      const bool hopper = major == 9 && minor == 0 && compiled;
      EXPECT_EQ(auto_gemm_path(major, minor, compiled, StatusCode::success),
                hopper ? AutoGemmPath::sm90 : AutoGemmPath::sm80)
          << major << "." << minor << (compiled ? " with" : " without") << " sm_90a code";
      // A problem the Hopper kernel refuses (TMA's 16-byte rule, split-K options) goes to Ampere.
      for (StatusCode refusal : refusals)
        EXPECT_EQ(auto_gemm_path(major, minor, compiled, refusal), AutoGemmPath::sm80)
            << major << "." << minor << ", Hopper refusal " << int(refusal);
    }
  }
  static_assert(auto_gemm_path(9, 0, true, StatusCode::success) == AutoGemmPath::sm90);
  static_assert(auto_gemm_path(9, 0, false, StatusCode::success) == AutoGemmPath::sm80);
  EXPECT_STREQ(auto_gemm_path_name(AutoGemmPath::sm90), "sm90");
  EXPECT_STREQ(auto_gemm_path_name(AutoGemmPath::sm80), "sm80");
}

// A tile set of the four classes alone (DecodeWide and Huge are optional).
template <class Tiles>
struct TilesWithoutDecodeWide {
  using Small = typename Tiles::Small;
  using Medium = typename Tiles::Medium;
  using Large = typename Tiles::Large;
  using Decode = typename Tiles::Decode;
  static constexpr bool kDecode = Tiles::kDecode;
};

// The rule on an H200 (132 SMs), 16-bit tiles: Large 128 x 256 (Huge, ping-pong 64 x 256, from 8
// waves of them: 1056 tiles), Medium 128 x 128, Small 64 x 128, Decode 64 x 16 and DecodeWide
// 64 x 64 (from 33 rows) of the swapped problem.
TEST(AutoGemmDispatch, Sm90TileClass) {
  using Tiles = Sm90Tiles<BF16, RowMajor, ColumnMajor>;
  constexpr int sms = 132;
  struct Case {
    long long m, n, k, batches;
    Sm90TileClass want;
  };
  const Case cases[] = {
      {8192, 8192, 4096, 1, Sm90TileClass::huge},      // 2048 large tiles: 15.5 waves
      {8192, 8192, 8192, 1, Sm90TileClass::large},     // the same past kSm90HugeMaxK
      {16384, 14336, 4097, 1, Sm90TileClass::large},   // one past it
      {16384, 14336, 64, 1, Sm90TileClass::huge},      // a short K: the epilogue weighs most
      {4096, 4096, 4096, 1, Sm90TileClass::large},     // 512
      {4096, 14336, 4096, 1, Sm90TileClass::huge},     // 1792
      {4096, 8448, 4096, 1, Sm90TileClass::huge},      // 32 x 33 = 1056: eight waves exactly
      {4096, 8193, 4096, 1, Sm90TileClass::huge},      // 32 x 33 as well, the last column of tiles partial
      {4096, 8192, 4096, 1, Sm90TileClass::large},     // 1024: below eight waves
      {4097, 1000, 4096, 1, Sm90TileClass::large},     // 33 x 4 = 132: one wave exactly
      {2048, 2048, 4096, 1, Sm90TileClass::large},     // 128 large tiles (one wave), 256 medium ones (two)
      {2048, 1200, 4096, 1, Sm90TileClass::large},     // 80 large (0.6 of a wave), 160 medium (two waves)
      {2048, 1024, 4096, 1, Sm90TileClass::medium},    // 64 large tiles, below 0.6 of a wave; 128 medium, from 0.9
      {1408, 1280, 4096, 1, Sm90TileClass::small},     // 11 x 10 = 110 medium tiles: below 0.9 of a wave
      {2048, 2304, 4096, 1, Sm90TileClass::medium},    // 144 large tiles (two waves, 1.8 x 2), 288 medium (three)
      {2560, 2304, 4096, 1, Sm90TileClass::medium},    // 180 large, 360 medium
      {3072, 3072, 4096, 1, Sm90TileClass::medium},    // 288 large (three waves), 576 medium (five)
      {3072, 4096, 4096, 1, Sm90TileClass::large},     // 384 large (three), 768 medium (six)
      {16896, 16384, 4096, 1, Sm90TileClass::huge},    // 8448 large tiles: 64 waves
      {1000, 4097, 4096, 1, Sm90TileClass::medium},    // 136 large tiles, 264 medium: two waves of each
      {1024, 1024, 4096, 1, Sm90TileClass::small},     // 64 medium tiles
      {129, 1000, 4096, 1, Sm90TileClass::small},      // 16 medium tiles
      {128, 4096, 4096, 1, Sm90TileClass::decode_wide},  // swapped: 64 x 2 = 128 tiles, 0.97 of a wave
      {65, 4224, 4096, 1, Sm90TileClass::decode_wide},   // 66 x 2 = 132: one wave exactly
      {128, 4225, 4096, 1, Sm90TileClass::small},        // 134: past one wave; 68 small tiles
      {128, 3800, 4096, 1, Sm90TileClass::decode_wide},  // 60 x 2 = 120: from 0.9 of a wave (118.8)
      {128, 3776, 4096, 1, Sm90TileClass::small},        // 59 x 2 = 118: below it
      {128, 2048, 4096, 2, Sm90TileClass::decode_wide},  // 32 x 2 a batch, 128 in all
      {128, 4096, 8192, 1, Sm90TileClass::decode_wide},  // kSm90DecodeWideFullMaxK
      {128, 4096, 8193, 1, Sm90TileClass::small},        // past it: small's split K amortizes its fixup
      {64, 4096, 14336, 1, Sm90TileClass::decode_wide},  // up to 64 tokens any K
      {129, 4096, 4096, 1, Sm90TileClass::small},        // past kDecodeWideMaxRows: 64 small tiles
      {128, 8192, 4096, 1, Sm90TileClass::small},      // 128 small tiles: within a wave
      {128, 8448, 4096, 1, Sm90TileClass::small},      // 132 small tiles: one wave exactly
      {128, 8449, 4096, 1, Sm90TileClass::medium},     // 134 small tiles, 67 medium ones
      {128, 14336, 4096, 1, Sm90TileClass::medium},    // 224 small tiles, 112 medium ones
      {128, 20224, 4096, 1, Sm90TileClass::medium},    // 79 large tiles: below 0.6 of a wave
      {128, 20480, 4096, 1, Sm90TileClass::large},     // 80 large tiles: one row of them from 0.6 of a wave
      {128, 28672, 4096, 1, Sm90TileClass::large},     // 112 large tiles (224 medium ones)
      {65, 20480, 4096, 2, Sm90TileClass::medium},     // 160 large tiles (two waves), 320 medium (three)
      {65, 14336, 4096, 1, Sm90TileClass::medium},     // one row past DecodeWide's 64 tokens: the same tiles
      {128, 4096, 4096, 3, Sm90TileClass::medium},     // 64 small tiles a batch, 192 in all
      {129, 14336, 4096, 1, Sm90TileClass::large},     // 112 large tiles (one wave), 224 medium (two)
      {129, 8192, 4096, 1, Sm90TileClass::medium},     // 128 medium tiles past one row: from 0.9 of a wave
      {129, 7000, 4096, 1, Sm90TileClass::small},      // 110 medium tiles: below 0.9 of a wave
      {64, 8192, 4096, 1, Sm90TileClass::decode_wide},   // A and B swapped: 128 tiles of 64 weight rows by 64 tokens
      {64, 8448, 4096, 1, Sm90TileClass::decode_wide},   // 132 such tiles: one wave exactly
      {64, 8449, 4096, 1, Sm90TileClass::small},         // 133: past one wave, small's 67 tiles run faster
      {64, 14336, 4096, 1, Sm90TileClass::small},        // 224 DecodeWide tiles, 112 small ones
      {64, 65536, 4096, 1, Sm90TileClass::small},
      {64, 4096, 4096, 2, Sm90TileClass::decode_wide},   // 64 tiles a batch, 128 in all
      {64, 4096, 4096, 3, Sm90TileClass::small},         // 192 in all
      {33, 4096, 4096, 1, Sm90TileClass::decode_wide},   // DecodeWide's first row
      {32, 14336, 4096, 1, Sm90TileClass::small},        // below it: small (measured faster there)
      {17, 14336, 4096, 1, Sm90TileClass::small},        // one row past Decode's 16 tokens
      {16, 14336, 4096, 1, Sm90TileClass::decode},     // A and B swapped: the 16 rows are the kernel's N
      {1, 4096, 4096, 8, Sm90TileClass::decode},
      {1, 1, 4096, 1, Sm90TileClass::decode},
      {512, 512, 4096, 20, Sm90TileClass::medium},     // 8 large tiles per batch, 160 in all (two waves), 320 medium
      {512, 512, 4096, 33, Sm90TileClass::large},      // 264 large tiles (two waves), 528 medium (four)
      {512, 512, 4096, 12, Sm90TileClass::large},      // 96 large, 192 medium
      {512, 512, 4096, 132, Sm90TileClass::huge},      // 1056 large tiles over the batches
      {512, 512, 4096, 4, Sm90TileClass::small},       // 64 medium
  };
  for (const Case& c : cases) {
    const Sm90TileClass got = sm90_tile_class<Tiles>(c.m, c.n, c.k, c.batches, sms);
    EXPECT_EQ(got, c.want) << c.m << " x " << c.n << " x " << c.k << ", " << c.batches
                           << " batches: " << sm90_tile_class_name(got);
  }
  // Decode needs a row-major A (its rows become the K-major narrow operand); tf32 a K-major B too.
  static_assert(Tiles::kDecode && Sm90Tiles<float>::kDecode && Sm90Tiles<__half, RowMajor, RowMajor>::kDecode);
  static_assert(!Sm90Tiles<BF16, ColumnMajor, ColumnMajor>::kDecode &&
                !Sm90Tiles<__half, ColumnMajor, RowMajor>::kDecode);
  EXPECT_EQ((sm90_tile_class<Sm90Tiles<BF16, ColumnMajor, ColumnMajor>>(1, 4096, 4096, 1, sms)), Sm90TileClass::small);
  EXPECT_EQ((sm90_tile_class<Sm90Tiles<BF16, ColumnMajor, ColumnMajor>>(40, 4096, 4096, 1, sms)), Sm90TileClass::small);
  // A tile set without a DecodeWide keeps 17 to 64 rows on small.
  using NoWide = TilesWithoutDecodeWide<Tiles>;
  static_assert(detail::sm90_decode_wide_rows<NoWide> == 0 && detail::sm90_decode_wide_rows<Tiles> == 64);
  static_assert(detail::sm90_decode_wide_min_rows<NoWide> == 1 && detail::sm90_decode_wide_min_rows<Tiles> == 33);
  static_assert(detail::sm90_decode_wide_max_rows<NoWide> == 0 && detail::sm90_decode_wide_max_rows<Tiles> == 128);
  EXPECT_EQ(sm90_tile_class<NoWide>(128, 4096, 4096, 1, sms), Sm90TileClass::small);
  EXPECT_EQ(sm90_tile_class<NoWide>(17, 14336, 4096, 1, sms), Sm90TileClass::small);
  EXPECT_EQ(sm90_tile_class<NoWide>(40, 14336, 4096, 1, sms), Sm90TileClass::small);
  EXPECT_EQ(sm90_tile_class<NoWide>(16, 14336, 4096, 1, sms), Sm90TileClass::decode);
  // A set without a Huge configuration keeps many-wave problems on large; tf32's set names none.
  static_assert(detail::sm90_has_huge<Tiles> && !detail::sm90_has_huge<NoWide> && !detail::sm90_has_huge<Sm90Tiles<float>>);
  EXPECT_EQ(sm90_tile_class<NoWide>(8192, 8192, 4096, 1, sms), Sm90TileClass::large);
  EXPECT_EQ(sm90_tile_class<Sm90Tiles<float>>(8192, 8192, 4096, 1, sms), Sm90TileClass::large);
  EXPECT_STREQ(sm90_tile_class_name(Sm90TileClass::huge), "huge");
  EXPECT_STREQ(sm90_tile_class_name(Sm90TileClass::decode_wide), "decode_wide");
  static_assert(sm90_swaps_operands(Sm90TileClass::decode_wide) && !sm90_swaps_operands(Sm90TileClass::small));
  // The SM count moves the waves: 60 large tiles are below 0.6 of 132 SMs' wave (medium's 120 run),
  // one wave of 100.
  EXPECT_EQ(sm90_tile_class<Tiles>(1536, 1200, 4096, 1, 132), Sm90TileClass::medium);
  EXPECT_EQ(sm90_tile_class<Tiles>(1536, 1200, 4096, 1, 100), Sm90TileClass::large);
  // 128 large tiles are one wave on 132 SMs, a wave and a bit on 114 (as are medium's 256: three).
  EXPECT_EQ(sm90_tile_class<Tiles>(2048, 2048, 4096, 1, 114), Sm90TileClass::medium);
  static_assert(detail::sm90_waves(132, 132) == 1 && detail::sm90_waves(133, 132) == 2 && detail::sm90_waves(0, 7) == 0);
  static_assert(detail::sm90_large_pays(128, 256, 132) && !detail::sm90_large_pays(144, 288, 132) &&
                !detail::sm90_large_pays(79, 1000, 132) && detail::sm90_large_pays(80, 160, 132));
  // A set whose Large and Medium tiles are the same size: large wherever it runs at all.
  static_assert(detail::sm90_large_pays(144, 144, 132, 1.0) && !detail::sm90_large_pays(144, 288, 132, 2.0));
  // Sizes can_implement refuses still choose, without overflow.
  constexpr long long big = std::numeric_limits<int>::max();
  EXPECT_EQ(sm90_tile_class<Tiles>(big, big, 4096, big, sms), Sm90TileClass::huge);
  EXPECT_EQ(sm90_tile_class<Tiles>(big, big, big, big, sms), Sm90TileClass::large);
  static_assert(sm90_tile_count(big, big, big, 64, 128) == std::numeric_limits<long long>::max());
  static_assert(sm90_tile_count(0, 100, 3, 128, 128) == 0);
  static_assert(sm90_tile_count(129, 257, 2, 128, 256) == 2 * 2 * 2);
}

// Every configuration of the tile set keeps its own stages beside the epilogue of the common
// output types: a byte more of shared memory (an unused member of the kernel's storage rounds it
// up by 1 KB) cost Large, Medium and Small a stage each once, unnoticed (bench/RESULTS.md,
// twenty-ninth session).
TEST(AutoGemmDispatch, TileSetKeepsItsStagesBesideTheEpilogue) {
  using Tiles = Sm90Tiles<BF16, RowMajor, ColumnMajor>;
  using LC = LinearCombination;
  static_assert(detail::sm90_fitting_stages<Tiles::Large, BF16, LC>() == Tiles::Large::Stages);
  static_assert(detail::sm90_fitting_stages<Tiles::Medium, BF16, LC>() == Tiles::Medium::Stages);
  static_assert(detail::sm90_fitting_stages<Tiles::Small, BF16, LC>() == Tiles::Small::Stages);
  static_assert(detail::sm90_fitting_stages<Tiles::Huge, BF16, LC>() == Tiles::Huge::Stages);
  static_assert(detail::sm90_fitting_stages<Tiles::Large, float, LC>() == Tiles::Large::Stages);
  using Half = Sm90Tiles<__half, ColumnMajor, RowMajor>;
  static_assert(detail::sm90_fitting_stages<Half::Large, __half, LC>() == Half::Large::Stages);
  using Tf32 = Sm90Tiles<float, RowMajor, ColumnMajor>;
  static_assert(detail::sm90_fitting_stages<Tf32::Large, float, LC>() == Tf32::Large::Stages);
  static_assert(detail::sm90_fitting_stages<Tf32::Small, float, LC>() == Tf32::Small::Stages);
  EXPECT_EQ((Sm90GemmKernel<Tiles::Large, BF16, LC>::smem_bytes), 227 * 1024) << "Large fills the SM's 227 KB exactly";
}

TEST(AutoGemmDispatch, ConfigurationNames) {
  using Tiles = Sm90Tiles<BF16, RowMajor, ColumnMajor>;
  EXPECT_EQ(detail::sm90_config_name<Tiles::Large>(), "cooperative 128x256x64, 4 stages, cluster 1x1");
  EXPECT_EQ(detail::sm90_config_name<Tiles::Medium>(), "cooperative 128x128x64, 6 stages, cluster 1x1");
  EXPECT_EQ(detail::sm90_config_name<Tiles::Small>(), "ping-pong 64x128x64, 8 stages, cluster 1x1");
  EXPECT_EQ(detail::sm90_config_name<Tiles::Decode>(), "ping-pong 64x16x128, 8 stages, cluster 1x1, K pairs");
  EXPECT_EQ(detail::sm90_config_name<Tiles::DecodeWide>(), "ping-pong 64x64x128, 5 stages, cluster 1x1, K pairs");
  EXPECT_EQ(detail::sm90_config_name<Tiles::Huge>(), "ping-pong 64x256x64, 5 stages, cluster 1x1, 1 staging buffer");
  // tf32: BK spans the same 128 bytes, 32 floats (the decode tiles' 256 bytes, 64 floats).
  using Tf32 = Sm90Tiles<float, RowMajor, ColumnMajor>;
  EXPECT_EQ(detail::sm90_config_name<Tf32::Large>(), "cooperative 128x256x32, 4 stages, cluster 1x1");
  EXPECT_EQ(detail::sm90_config_name<Tf32::Small>(), "ping-pong 64x128x32, 8 stages, cluster 1x1");
  EXPECT_EQ(detail::sm90_config_name<Tf32::Decode>(), "ping-pong 64x16x64, 8 stages, cluster 1x1, K pairs");
  static_assert(sm90_tiles_cover<__half, ColumnMajor, RowMajor> && !sm90_tiles_cover<float, ColumnMajor, ColumnMajor> &&
                !sm90_tiles_cover<int8_t, RowMajor, ColumnMajor>);

  using Ampere = Sm80Tiles<BF16, RowMajor, ColumnMajor>;
  EXPECT_EQ(detail::sm80_tile_config_name<Ampere>(Sm80TileClass::large), "256x128x64, 8 warps, 3 stages");
  EXPECT_EQ(detail::sm80_tile_config_name<Ampere>(Sm80TileClass::medium),
            "128x128x64, 8 warps, 5 stages, K in 2 slices");
  EXPECT_EQ(detail::sm80_tile_config_name<Ampere>(Sm80TileClass::unaligned),
            "128x128x32, 4 warps, 4 stages, 2-byte alignment");
}

// Programmatic dependent launch per class: the caller's independent operands follow the swap, and
// the automatic trigger is after the loads for the decode classes (which then load early), at exit
// for the others (which load nothing early); explicit triggers keep the operands as given.
TEST(AutoGemmDispatch, Sm90LaunchOptions) {
  LaunchOptions weights;
  weights.programmatic_dependent_launch = true;
  weights.b_independent = true;
  for (Sm90TileClass c : {Sm90TileClass::decode, Sm90TileClass::decode_wide}) {
    const LaunchOptions o = sm90_launch_options(c, weights);
    EXPECT_TRUE(o.programmatic_dependent_launch);
    EXPECT_TRUE(o.a_independent) << sm90_tile_class_name(c) << ": the caller's B is the kernel's A";
    EXPECT_FALSE(o.b_independent) << sm90_tile_class_name(c);
    EXPECT_EQ(o.pdl_trigger, PdlTrigger::after_loads) << sm90_tile_class_name(c);
  }
  for (Sm90TileClass c : {Sm90TileClass::small, Sm90TileClass::medium, Sm90TileClass::large, Sm90TileClass::huge}) {
    const LaunchOptions o = sm90_launch_options(c, weights);
    EXPECT_TRUE(o.programmatic_dependent_launch);
    EXPECT_FALSE(o.a_independent || o.b_independent) << sm90_tile_class_name(c) << ": measured slower";
    EXPECT_EQ(o.pdl_trigger, PdlTrigger::at_exit) << sm90_tile_class_name(c);
    LaunchOptions asked = weights;
    asked.pdl_trigger = PdlTrigger::after_loads;
    const LaunchOptions kept = sm90_launch_options(c, asked);
    EXPECT_TRUE(kept.b_independent && !kept.a_independent) << sm90_tile_class_name(c);
    EXPECT_EQ(kept.pdl_trigger, PdlTrigger::after_loads) << sm90_tile_class_name(c);
  }
  LaunchOptions tokens = weights;
  tokens.b_independent = false, tokens.a_independent = true, tokens.pdl_trigger = PdlTrigger::at_exit;
  const LaunchOptions o = sm90_launch_options(Sm90TileClass::decode, tokens);
  EXPECT_TRUE(o.b_independent && !o.a_independent);
  EXPECT_EQ(o.pdl_trigger, PdlTrigger::at_exit);
  static_assert(sm90_launch_options(Sm90TileClass::large, LaunchOptions{}).pdl_trigger == PdlTrigger::at_exit);
}

// This unit is built for the Ampere targets alone: its AutoGemm instantiates no Hopper kernel (every
// problem takes the Ampere path), and the probe finds no sm_90a image whatever the GPU.
TEST(AutoGemmDispatch, AmpereOnlyUnit) {
  static_assert(!detail::compiles_for_sm90(), "this test must be compiled without a compute_90 target");
  static_assert(!auto_gemm_compiles_hopper<BF16, RowMajor, ColumnMajor, BF16>);
  EXPECT_FALSE(detail::auto_gemm_device<detail::ThisTranslationUnit>().sm90a_loaded);
}

// Decode problems by their rows; above 128 rows the large tile from half a wave of its tiles up.
TEST(Sm80TileClass, RowsThenHalfAWave) {
  using strata::Sm80TileClass;
  using strata::sm80_tile_class;
  for (long long tiles : {1LL, 65LL, 66LL, 1000000LL}) {
    EXPECT_EQ(sm80_tile_class(0, tiles, 132), Sm80TileClass::narrow);
    EXPECT_EQ(sm80_tile_class(1, tiles, 132), Sm80TileClass::narrow);
    EXPECT_EQ(sm80_tile_class(32, tiles, 132), Sm80TileClass::narrow);
    EXPECT_EQ(sm80_tile_class(33, tiles, 132), Sm80TileClass::thin);
    EXPECT_EQ(sm80_tile_class(64, tiles, 132), Sm80TileClass::thin);
    EXPECT_EQ(sm80_tile_class(65, tiles, 132), Sm80TileClass::medium);
    EXPECT_EQ(sm80_tile_class(128, tiles, 132), Sm80TileClass::medium);
  }
  EXPECT_EQ(sm80_tile_class(129, 65, 132), Sm80TileClass::small);
  EXPECT_EQ(sm80_tile_class(129, 66, 132), Sm80TileClass::large);
  EXPECT_EQ(sm80_tile_class(8192, 2048, 132), Sm80TileClass::large);
  EXPECT_EQ(sm80_tile_class(1024, 32, 132), Sm80TileClass::small);
  // An odd wave: half of 133 is 66.5, so 67 tiles.
  EXPECT_EQ(sm80_tile_class(4096, 66, 133), Sm80TileClass::small);
  EXPECT_EQ(sm80_tile_class(4096, 67, 133), Sm80TileClass::large);
  EXPECT_EQ(sm80_tile_class(4096, std::numeric_limits<long long>::max(), 132), Sm80TileClass::large);
}

}  // namespace
