// Swizzle<B, M, S>: bijection, agreement with an independent bit-level reference, static evaluation,
// re-expression between byte and element units, and what a swizzle is for: the 128-byte pattern of
// Hopper's TMA/wgmma and conflict-free ldmatrix phases on a half-precision tile.
#include <layout/swizzle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace strata;

namespace {

// The reference: for b < B, bit (M + max(0,S) + b) of x, when set, flips bit (M - min(0,S) + b).
// Written bit by bit from the definition, independently of the mask arithmetic in the header.
long long reference_swizzle(long long x, int B, int M, int S) {
  long long r = x;
  for (int b = 0; b < B; ++b) {
    int const read = M + (S > 0 ? S : 0) + b;
    int const flip = M - (S < 0 ? S : 0) + b;
    if ((x >> read) & 1) r ^= 1LL << flip;
  }
  return r;
}

template <class T>
std::string text(T const& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

template <int B, int M, int S>
void expect_bijection_matching_reference() {
  Swizzle<B, M, S> sw;
  long long const n = size(sw);
  ASSERT_EQ(n, 1LL << (M + B + (S < 0 ? -S : S)));
  std::vector<bool> hit(std::size_t(n), false);
  for (long long x = 0; x < n; ++x) {
    long long const y = sw(x);
    ASSERT_EQ(y, reference_swizzle(x, B, M, S)) << text(sw) << " at " << x;
    ASSERT_TRUE(0 <= y && y < n) << text(sw) << " leaves its period at " << x;
    ASSERT_FALSE(hit[std::size_t(y)]) << text(sw) << " is not injective: " << y << " hit twice";
    hit[std::size_t(y)] = true;
    ASSERT_EQ(sw(sw(x)), x) << text(sw) << " does not undo itself at " << x;
  }
  // Higher bits pass through: every aligned period is permuted onto itself.
  for (long long k : {1LL, 3LL, 1000LL}) {
    for (long long x = 0; x < n; x += 7) {
      ASSERT_EQ(sw(x + k * n), sw(x) + k * n) << text(sw);
      ASSERT_EQ(sw(int(x)), int(reference_swizzle(x, B, M, S)));
    }
  }
}

TEST(Swizzle, BijectionsMatchingTheBitReference) {
  expect_bijection_matching_reference<3, 3, 3>();
  expect_bijection_matching_reference<3, 4, 3>();
  expect_bijection_matching_reference<2, 3, 3>();
  expect_bijection_matching_reference<3, 2, 3>();
  expect_bijection_matching_reference<2, 4, 3>();
  expect_bijection_matching_reference<1, 4, 3>();
  expect_bijection_matching_reference<1, 0, 1>();
  expect_bijection_matching_reference<1, 3, 2>();
  expect_bijection_matching_reference<3, 0, 3>();
  expect_bijection_matching_reference<2, 0, 4>();
  expect_bijection_matching_reference<0, 4, 3>();
  // A negative S reads the low bits and flips the high ones.
  expect_bijection_matching_reference<2, 1, -2>();
  expect_bijection_matching_reference<3, 4, -3>();
}

TEST(Swizzle, StaticMembers) {
  using Sw = Swizzle<3, 3, 3>;
  static_assert(Sw::num_bits == 3 && Sw::num_base == 3 && Sw::num_shft == 3);
  static_assert(Sw::yyy_mask == 0b111'000'000);
  static_assert(Sw::zzz_mask == 0b000'111'000);
  static_assert(Sw::swizzle_code == 0b111'111'000);
  static_assert(Sw::period_bits == 9);
  using Neg = Swizzle<2, 1, -3>;
  static_assert(Neg::yyy_mask == 0b00'0110 && Neg::zzz_mask == 0b11'0000);
  static_assert(decltype(size(Sw{}))::value == 512 && decltype(cosize(Sw{}))::value == 512);
  static_assert(std::is_empty_v<Sw>);
  static_assert(is_swizzle_v<Sw> && !is_swizzle_v<int>);
  static_assert(Sw{} == Sw{});
  EXPECT_FALSE(Sw{} == (Swizzle<3, 4, 3>{}));
  EXPECT_EQ(text(Sw{}), "Sw<3,3,3>");
  EXPECT_EQ(text(Neg{}), "Sw<2,1,-3>");
}

TEST(Swizzle, StaticInStaticOutAndTypesKept) {
  constexpr Swizzle<3, 3, 3> sw;
  // 72 = row 1, column 8: row bit 6 flips column-chunk bit 3.
  static_assert(std::is_same_v<decltype(sw(_64{} + _8{})), Int<64>>);
  static_assert(decltype(sw(Int<0b101'011'111>{}))::value == 0b101'110'111);
  static_assert(sw(72) == 64);
  static_assert(std::is_same_v<decltype(sw(int64_t{5})), int64_t>);
  static_assert(std::is_same_v<decltype(sw(5u)), unsigned>);
  static_assert(std::is_same_v<decltype(sw(5)), int>);
  int64_t const big = (int64_t(1) << 40) + 72;
  EXPECT_EQ(sw(big), (int64_t(1) << 40) + 64);
  static_assert(right_inverse(sw)(sw(123)) == 123 && left_inverse(sw)(sw(456)) == 456);
}

TEST(Swizzle, UpcastAndDowncastShiftM) {
  // The 128-byte swizzle: on bytes Sw<3,4,3>, on halves Sw<3,3,3>, on 16-byte vectors Sw<3,0,3>.
  static_assert(std::is_same_v<decltype(upcast<2>(Swizzle<3, 4, 3>{})), Swizzle<3, 3, 3>>);
  static_assert(std::is_same_v<decltype(upcast<16>(Swizzle<3, 4, 3>{})), Swizzle<3, 0, 3>>);
  static_assert(std::is_same_v<decltype(downcast<2>(Swizzle<3, 3, 3>{})), Swizzle<3, 4, 3>>);
  static_assert(std::is_same_v<decltype(downcast<8>(Swizzle<3, 0, 3>{})), Swizzle<3, 3, 3>>);
  // Below the new unit: the pairs whose flipped bit is inside one new element are dropped.
  static_assert(std::is_same_v<decltype(upcast<4>(Swizzle<3, 1, 3>{})), Swizzle<2, 0, 3>>);
  static_assert(std::is_same_v<decltype(upcast<16>(Swizzle<2, 1, 3>{})), Swizzle<0, 0, 3>>);

  auto check_up = [](auto big, auto small, long long n, long long range) {
    // small(x) == big(n * x) / n: the first old element of every new element.
    for (long long x = 0; x < range; ++x) ASSERT_EQ(small(x), big(n * x) / n) << text(big) << " -> " << text(small);
  };
  using Byte128 = Swizzle<3, 4, 3>;
  using Low = Swizzle<3, 1, 3>;
  using Negative = Swizzle<2, 3, -3>;
  check_up(Byte128{}, upcast<2>(Byte128{}), 2, 4096);
  check_up(Byte128{}, upcast<16>(Byte128{}), 16, 4096);
  check_up(Low{}, upcast<4>(Low{}), 4, 4096);
  check_up(Negative{}, upcast<2>(Negative{}), 2, 4096);
  // downcast<n>(sw)(n * x + r) == n * sw(x) + r: every byte of an element follows its element.
  Swizzle<3, 3, 3> halves;
  auto down = downcast<2>(halves);
  for (long long x = 0; x < 4096; ++x) {
    ASSERT_EQ(down(2 * x), 2 * halves(x));
    ASSERT_EQ(down(2 * x + 1), 2 * halves(x) + 1);
  }
}

// ---- what the 128-byte swizzle is for ----------------------------------------------------------

using HalfTile = Layout<Shape<_8, _64>, Stride<_64, _1>>;  // 8 rows of 128 bytes, in halves

// The shared-memory byte a 128-byte-swizzled tile puts the half at (row, col) on, as the TMA
// (CU_TENSOR_MAP_SWIZZLE_128B) and wgmma documentation describe it: within each 1024-byte group of
// eight 128-byte rows, the 16-byte chunk index is XORed with the row index modulo 8.
long long tma_128b_byte(long long row, long long col_bytes) {
  long long const chunk = (col_bytes / 16) ^ (row % 8);
  return row * 128 + chunk * 16 + col_bytes % 16;
}

TEST(SwizzleHopper, HalfTileIsThe128ByteTmaPattern) {
  auto tile = composition(Swizzle<3, 3, 3>{}, HalfTile{});
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(2 * tile(r, c), tma_128b_byte(r, 2 * c)) << r << ',' << c;

  // The same pattern on byte offsets is Swizzle<3,4,3>.
  auto bytes = composition(Swizzle<3, 4, 3>{}, Layout<Shape<_8, _128>, Stride<_128, _1>>{});
  for (int r = 0; r < 8; ++r)
    for (int b = 0; b < 128; ++b) ASSERT_EQ(bytes(r, b), tma_128b_byte(r, b)) << r << ',' << b;

  // A kernel's tile, built from the atom, follows it row after row.
  auto smem = tile_to_shape(tile, make_shape(_128{}, _64{}));
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(2 * smem(r, c), tma_128b_byte(r, 2 * c)) << r << ',' << c;
}

// Eight threads of one ldmatrix phase each read one 16-byte chunk: the same column chunk of the
// eight rows. A 16-byte read covers four consecutive banks, a "4-bank group"; 32 banks make eight.
TEST(SwizzleHopper, LdmatrixPhaseBankConflicts) {
  auto plain = HalfTile{};
  auto swizzled = composition(Swizzle<3, 3, 3>{}, HalfTile{});
  auto bank_of = [](long long element) { return (element * 2 / 4) % 32; };
  auto group_of = [&](long long element) { return bank_of(element) / 4; };

  for (int chunk = 0; chunk < 8; ++chunk) {
    std::set<long long> groups_swizzled, groups_plain;
    std::vector<int> bank_use_swizzled(32, 0), bank_use_plain(32, 0);
    for (int row = 0; row < 8; ++row) {
      int const col = chunk * 8;
      // Each thread's eight halves stay one aligned 16-byte chunk under the swizzle.
      for (int e = 0; e < 8; ++e) ASSERT_EQ(swizzled(row, col + e), swizzled(row, col) + e);
      ASSERT_EQ(swizzled(row, col) % 8, 0);
      groups_swizzled.insert(group_of(swizzled(row, col)));
      groups_plain.insert(group_of(plain(row, col)));
      for (int e = 0; e < 8; e += 2) {  // two halves per 4-byte bank
        ++bank_use_swizzled[std::size_t(bank_of(swizzled(row, col + e)))];
        ++bank_use_plain[std::size_t(bank_of(plain(row, col + e)))];
      }
    }
    EXPECT_EQ(groups_swizzled.size(), 8u) << "chunk " << chunk;
    EXPECT_EQ(groups_plain.size(), 1u) << "chunk " << chunk;
    // Swizzled: every bank serves one request (no conflict); plain: eight-way conflicts.
    EXPECT_EQ(*std::max_element(bank_use_swizzled.begin(), bank_use_swizzled.end()), 1);
    EXPECT_EQ(*std::max_element(bank_use_plain.begin(), bank_use_plain.end()), 8);
  }
}

TEST(SwizzleHopper, ElementAndByteUnitsAgree) {
  // The half tile and the byte tile describe the same bytes: recast between them agrees
  // element-wise, the first byte of half (r, c) is byte 2 * (its element offset).
  auto halves = composition(Swizzle<3, 3, 3>{}, HalfTile{});
  auto bytes = composition(Swizzle<3, 4, 3>{}, Layout<Shape<_8, _128>, Stride<_128, _1>>{});
  auto halves_from_bytes = upcast<2>(bytes);
  static_assert(std::is_same_v<decltype(halves_from_bytes), decltype(halves)>);
  auto halves_recast = recast_layout<uint8_t, uint16_t>(bytes);
  static_assert(std::is_same_v<decltype(halves_recast), decltype(halves)>);
  static_assert(std::is_same_v<decltype(downcast<2>(halves).layout_a()), Swizzle<3, 4, 3>>);
  for (int r = 0; r < 8; ++r) {
    for (int c = 0; c < 64; ++c) {
      ASSERT_EQ(bytes(r, 2 * c), 2 * halves(r, c));
      ASSERT_EQ(bytes(r, 2 * c + 1), 2 * halves(r, c) + 1);
      ASSERT_EQ(halves_from_bytes(r, c), halves(r, c));
    }
  }
  // Rank 1: a 512-half swizzled run downcast to its 1024 bytes, every byte following its element.
  auto run = composition(Swizzle<3, 3, 3>{}, Layout<_512, _1>{});
  auto run_bytes = downcast<2>(run);
  EXPECT_EQ(text(run_bytes), "Sw<3,4,3> o _0 o _1024:_1");
  for (int i = 0; i < 512; ++i) {
    ASSERT_EQ(run_bytes(2 * i), 2 * run(i));
    ASSERT_EQ(run_bytes(2 * i + 1), 2 * run(i) + 1);
  }
  // 16-byte vectors (ldmatrix's unit): 8 vectors per row, the swizzle on vector indices.
  struct alignas(16) Vec16 { unsigned char b[16]; };
  auto vectors = recast_layout<uint16_t, Vec16>(halves);
  EXPECT_EQ(text(vectors), "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
  for (int r = 0; r < 8; ++r)
    for (int v = 0; v < 8; ++v) ASSERT_EQ(8 * vectors(r, v), halves(r, 8 * v));
}

}  // namespace
