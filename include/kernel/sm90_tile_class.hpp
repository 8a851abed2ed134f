// Strata floor 4: which of a Hopper tile set's configurations a problem runs on (the rule of
// Sm90AutoGemm, kernel/sm90_auto_gemm.hpp), host-side arithmetic on the problem's shape, the SM
// count and the tile sizes a set names; and the launch options each class runs with.
#pragma once

#include <limits>

#include "gemm_arguments.hpp"

namespace strata {

// The shape classes a Hopper tile set covers, by how many tiles each configuration makes.
// decode: A and B swapped (D^T = B^T · A^T), so the few rows of A are a narrow N of the kernel
// and the weights (B) its 64-row M side; decode_wide: the same swap for more rows of A, on a tile
// with more tokens (64); huge: problems of many waves of large tiles, on the set's Huge
// configuration.
enum class Sm90TileClass { small, medium, large, decode, decode_wide, huge };

// Whether class c runs the swapped problem.
constexpr bool sm90_swaps_operands(Sm90TileClass c) {
  return c == Sm90TileClass::decode || c == Sm90TileClass::decode_wide;
}

// The launch options class c's kernel runs with, from the caller's: the operands called
// independent are the caller's A and B, so they trade places for the swapped classes. With
// pdl_trigger automatic, the decode classes let the next kernel start after their last loads and
// load their independent operands before griddepcontrol.wait (faster streamed at most decode
// shapes); the other classes let it start at exit and load nothing early (either cost them time,
// bench/RESULTS.md). An explicit trigger is kept, with the independent operands as given.
constexpr LaunchOptions sm90_launch_options(Sm90TileClass c, LaunchOptions o) {
  if (sm90_swaps_operands(c)) {
    const bool a = o.a_independent;
    o.a_independent = o.b_independent;
    o.b_independent = a;
  }
  if (o.pdl_trigger == PdlTrigger::automatic) {
    o.pdl_trigger = sm90_swaps_operands(c) ? PdlTrigger::after_loads : PdlTrigger::at_exit;
    if (!sm90_swaps_operands(c)) o.a_independent = o.b_independent = false;
  }
  return o;
}

constexpr const char* sm90_tile_class_name(Sm90TileClass c) {
  switch (c) {
    case Sm90TileClass::small: return "small";
    case Sm90TileClass::medium: return "medium";
    case Sm90TileClass::decode: return "decode";
    case Sm90TileClass::decode_wide: return "decode_wide";
    case Sm90TileClass::huge: return "huge";
    default: return "large";
  }
}

// When the large tile runs (every configuration runs one CTA per SM, so a wave is a tile per SM):
// from kSm90LargeMinWaves waves of its tiles (below that the split-K it would take to fill the GPU
// costs more than medium's whole tiles), and only where its whole waves take no longer than
// medium's, a large tile taking kSm90LargeTimePerFlop of the time per FLOP a medium one takes (so a
// wave of 128 × 256 tiles lasts 1.8 waves of 128 × 128 ones). So 128 large tiles (one wave) beat
// medium's 256 (two), and 144 (two waves, the second a partial one) lose to medium's 288 (three).
// The measurements behind these thresholds and the ones below: bench/RESULTS.md.
inline constexpr double kSm90LargeMinWaves = 0.6;
inline constexpr double kSm90LargeTimePerFlop = 0.9;
// From this many waves of large tiles the partial last wave no longer decides (0.9 a · ceil(w) <=
// ceil(a w) for every w >= 10, a the tiles' area ratio): large without comparing.
inline constexpr long long kSm90LargeAlwaysWaves = 16;
// Waves of medium tiles from which medium runs past one row of them (below, small, with its split
// K): 0.9, so a nearly full wave takes medium; at half a wave small's split K leads where K is
// short.
inline constexpr double kSm90MediumMinWaves = 0.9;
// Waves of DecodeWide's tiles (64 weight rows each) up to which decode_wide runs: past one, the
// small class's tiles, twice as wide in the weights and so half as many, run faster.
inline constexpr double kSm90DecodeWideMaxWaves = 1.0;
// Past DecodeWide's BN tokens (up to the set's kDecodeWideMaxRows), waves of its tiles from which
// decode_wide runs, and the longest K: one nearly full wave of whole tiles beats small's half wave
// split in two while the split's fixup weighs (k 4096, 8192); by k 14336 the fixup is amortized
// and the narrower tiles' extra reads of A cost more.
inline constexpr double kSm90DecodeWideFullMinWaves = 0.9;
inline constexpr long long kSm90DecodeWideFullMaxK = 8192;
// Problems of one row of Medium's tiles (Small::BM < m <= Medium::BM), bound by the weights'
// bandwidth, take medium where the large tile does not run once Small's tiles exceed
// kSm90SmallOneRowMaxWaves waves: a partial second wave costs more than idle SMs.
inline constexpr double kSm90SmallOneRowMaxWaves = 1.0;
// Waves of large tiles from which a set's Huge configuration (where it names one) takes over from
// Large: the ping-pong 64 × 256 tile hides each tile's epilogue behind the other warpgroup's
// mainloop, which pays once a CTA walks many tiles; with few, its last partial turn costs more.
inline constexpr double kSm90HugeMinWaves = 8.0;
// Longest K at which Huge takes over: the epilogue it hides is a fixed cost per tile, so its share
// shrinks as K grows while the 64-row tiles' extra operand traffic per MAC does not.
inline constexpr long long kSm90HugeMaxK = 4096;

// Output tiles of bm × bn over `batches` m × n problems, saturated at the largest long long (so
// sizes can_implement refuses still choose without overflow).
constexpr long long sm90_tile_count(long long m, long long n, long long batches, int bm, int bn) {
  constexpr long long kMax = std::numeric_limits<long long>::max();
  const long long rows = (m + bm - 1) / bm, cols = (n + bn - 1) / bn, b = batches > 1 ? batches : 1;
  if (rows == 0 || cols == 0) return 0;
  if (rows > kMax / cols) return kMax;
  const long long per_batch = rows * cols;
  return per_batch > kMax / b ? kMax : per_batch * b;
}

namespace detail {
// Waves `tiles` take on `sms` SMs at one tile per SM: ceil(tiles / sms).
constexpr long long sm90_waves(long long tiles, long long sms) {
  return tiles / sms + (tiles % sms != 0 ? 1 : 0);
}
// Whether the large tile runs (kSm90LargeMinWaves, kSm90LargeTimePerFlop, kSm90LargeAlwaysWaves);
// `area_ratio`: a large tile's elements over a medium one's.
constexpr bool sm90_large_pays(long long large_tiles, long long medium_tiles, int sm_count, double area_ratio = 2.0) {
  const long long sms = sm_count > 0 ? sm_count : 1;
  if (double(large_tiles) < kSm90LargeMinWaves * double(sms)) return false;
  if (large_tiles / sms >= kSm90LargeAlwaysWaves) return true;
  return kSm90LargeTimePerFlop * area_ratio * double(sm90_waves(large_tiles, sms)) <=
         double(sm90_waves(medium_tiles, sms));
}
// DecodeWide's tiles of the swapped problem (n weight rows by m tokens), 0 for a set without one.
template <class Tiles>
constexpr long long sm90_decode_wide_tiles(long long m, long long n, long long batches) {
  if constexpr (requires { typename Tiles::DecodeWide; }) {
    return sm90_tile_count(n, m, batches, Tiles::DecodeWide::BM, Tiles::DecodeWide::BN);
  } else {
    return 0;
  }
}
// Whether a tile set names a Huge configuration.
template <class Tiles>
inline constexpr bool sm90_has_huge = requires { typename Tiles::Huge; };
// Rows of A up to which a tile set's DecodeWide runs (0 for a set without one).
template <class Tiles>
inline constexpr int sm90_decode_wide_rows = 0;
template <class Tiles>
  requires requires { typename Tiles::DecodeWide; }
inline constexpr int sm90_decode_wide_rows<Tiles> = Tiles::DecodeWide::BN;
// Rows of A up to which it runs on a nearly full wave (kSm90DecodeWideFullMinWaves): the set's
// kDecodeWideMaxRows, else DecodeWide's BN (no such range).
template <class Tiles>
inline constexpr int sm90_decode_wide_max_rows = sm90_decode_wide_rows<Tiles>;
template <class Tiles>
  requires requires { Tiles::kDecodeWideMaxRows; }
inline constexpr int sm90_decode_wide_max_rows<Tiles> = Tiles::kDecodeWideMaxRows;
// Rows of A from which it runs: Tiles::kDecodeWideMinRows, else every row past Decode's BN.
template <class Tiles>
inline constexpr int sm90_decode_wide_min_rows = 1;
template <class Tiles>
  requires requires { Tiles::kDecodeWideMinRows; }
inline constexpr int sm90_decode_wide_min_rows<Tiles> = Tiles::kDecodeWideMinRows;
}  // namespace detail

// The class of `batches` m × n × k problems on a GPU of `sm_count` SMs, for the tiles of `Tiles`:
//   m <= Decode's BN, where the set has a decode configuration (A row-major): decode;
//   kDecodeWideMinRows <= m <= DecodeWide's BN, where it has that one too, while its tiles fill at
//     most kSm90DecodeWideMaxWaves waves, and on to kDecodeWideMaxRows while they fill
//     kSm90DecodeWideFullMinWaves to 1 wave with k <= kSm90DecodeWideFullMaxK: decode_wide;
//   m <= Small's BM: small (a taller tile spends its MMAs on rows that do not exist);
//   large from kSm90LargeMinWaves waves of its tiles where its waves are no slower than medium's
//     (the most efficient tile: detail::sm90_large_pays), and huge instead from kSm90HugeMinWaves
//     waves with k <= kSm90HugeMaxK where the set names a Huge configuration;
//   m <= Medium's BM (one row of its tiles): medium once Small's tiles exceed
//     kSm90SmallOneRowMaxWaves waves, else small;
//   medium once Medium's tiles fill kSm90MediumMinWaves waves;
//   small below that: few tiles, so the smallest one keeps the most SMs busy.
// K enters only there and between large and huge.
template <class Tiles>
constexpr Sm90TileClass sm90_tile_class(long long m, long long n, long long k, long long batches, int sm_count) {
  using Large = typename Tiles::Large;
  using Medium = typename Tiles::Medium;
  using Small = typename Tiles::Small;
  const double sms = sm_count > 0 ? double(sm_count) : 1.0;
  if (Tiles::kDecode && m <= Tiles::Decode::BN) return Sm90TileClass::decode;
  if (Tiles::kDecode && m >= detail::sm90_decode_wide_min_rows<Tiles> && m <= detail::sm90_decode_wide_max_rows<Tiles>) {
    const double wide = double(detail::sm90_decode_wide_tiles<Tiles>(m, n, batches));
    if (wide <= kSm90DecodeWideMaxWaves * sms &&
        (m <= detail::sm90_decode_wide_rows<Tiles> ||
         (wide >= kSm90DecodeWideFullMinWaves * sms && k <= kSm90DecodeWideFullMaxK)))
      return Sm90TileClass::decode_wide;
  }
  if (m <= Small::BM) return Sm90TileClass::small;
  const long long medium_tiles = sm90_tile_count(m, n, batches, Medium::BM, Medium::BN);
  constexpr double area_ratio = double(Large::BM * Large::BN) / double(Medium::BM * Medium::BN);
  const long long large_tiles = sm90_tile_count(m, n, batches, Large::BM, Large::BN);
  if (detail::sm90_large_pays(large_tiles, medium_tiles, sm_count, area_ratio))
    return detail::sm90_has_huge<Tiles> && double(large_tiles) >= kSm90HugeMinWaves * sms && k <= kSm90HugeMaxK
               ? Sm90TileClass::huge
               : Sm90TileClass::large;
  if (m <= Medium::BM)
    return double(sm90_tile_count(m, n, batches, Small::BM, Small::BN)) > kSm90SmallOneRowMaxWaves * sms
               ? Sm90TileClass::medium
               : Sm90TileClass::small;
  if (double(medium_tiles) >= kSm90MediumMinWaves * sms)
    return Sm90TileClass::medium;
  return Sm90TileClass::small;
}

}  // namespace strata
