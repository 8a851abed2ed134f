// Host tests of the MMA atoms and of TiledMMA: no GPU is touched here.
//
//   - every sm80 atom's TV layouts reproduce the PTX ISA's fragment tables: for each lane and
//     value, the row and column of A, B and C/D, written below from the ISA's own formulas (in
//     groupID / threadID_in_group, independently of the strides in mma_sm80.hpp);
//   - MmaAtom::call packs element fragments into registers as the ISA orders them (low first);
//   - TiledMMA: every element of the tile is held by exactly the right number of (thread, value)
//     pairs for several atom layouts and permutations (C once, A once per atom in N, B once per
//     atom in M), and explicit formulas for a 2 x 2-warp tiling. TiledMMA's partitions of tensors
//     are tested in tiled_mma_partition_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "atom/mma_sm80.hpp"
#include "atom/tiled_mma.hpp"

namespace {

using namespace strata;

struct RowCol {
  int row;
  int col;
  bool operator==(RowCol const&) const = default;
};

// ---- the ISA's tables, as the ISA writes them --------------------------------------------------
// groupID = lane >> 2, threadID_in_group = lane % 4; "row"/"col" of the matrix as the ISA names
// them: A is M x K (row m, col k), B is K x N (row k, col n), C/D is M x N (row m, col n).

int group_id(int lane) { return lane >> 2; }
int thread_in_group(int lane) { return lane % 4; }

// Accumulators of every m16n8 shape (f32, f16, s32).
RowCol isa_c_m16n8(int lane, int i) {
  return {group_id(lane) + (i < 2 ? 0 : 8), thread_in_group(lane) * 2 + (i & 0x1)};
}

// mma.m16n8k16, .f16 / .bf16 multiplicands.
RowCol isa_a_m16n8k16_f16(int lane, int i) {
  int row = ((0 <= i && i < 2) || (4 <= i && i < 6)) ? group_id(lane) : group_id(lane) + 8;
  int col = thread_in_group(lane) * 2 + (i & 0x1) + (i < 4 ? 0 : 8);
  return {row, col};
}
RowCol isa_b_m16n8k16_f16(int lane, int i) {
  int row = thread_in_group(lane) * 2 + (i & 0x1) + (i < 2 ? 0 : 8);
  return {row, group_id(lane)};
}

// mma.m16n8k8, .tf32 multiplicands.
RowCol isa_a_m16n8k8_tf32(int lane, int i) {
  int row = (i == 0 || i == 2) ? group_id(lane) : group_id(lane) + 8;
  int col = (i == 0 || i == 1) ? thread_in_group(lane) : thread_in_group(lane) + 4;
  return {row, col};
}
RowCol isa_b_m16n8k8_tf32(int lane, int i) {
  return {i == 0 ? thread_in_group(lane) : thread_in_group(lane) + 4, group_id(lane)};
}

// mma.m16n8k32, .s8 / .u8 multiplicands.
RowCol isa_a_m16n8k32_s8(int lane, int i) {
  int row = ((0 <= i && i < 4) || (8 <= i && i < 12)) ? group_id(lane) : group_id(lane) + 8;
  int col = thread_in_group(lane) * 4 + (i & 0x3) + (i < 8 ? 0 : 16);
  return {row, col};
}
RowCol isa_b_m16n8k32_s8(int lane, int i) {
  return {thread_in_group(lane) * 4 + (i & 0x3) + (i < 4 ? 0 : 16), group_id(lane)};
}

// mma.m8n8k4, .f64.
RowCol isa_a_m8n8k4_f64(int lane, int) { return {group_id(lane), thread_in_group(lane)}; }
RowCol isa_b_m8n8k4_f64(int lane, int) { return {thread_in_group(lane), group_id(lane)}; }
RowCol isa_c_m8n8k4_f64(int lane, int i) { return {group_id(lane), thread_in_group(lane) * 2 + (i & 0x1)}; }

// Compares an atom's three TV layouts with the ISA formulas for every (lane, value), and checks
// that each operand's tile is covered exactly once.
template <class Atom, class FA, class FB, class FC>
void expect_atom_matches_isa(FA isa_a, FB isa_b, FC isa_c) {
  constexpr int M = Atom::M, N = Atom::N, K = Atom::K;
  ASSERT_EQ(Atom::num_threads, 32);
  ASSERT_EQ(32 * Atom::num_values_a, M * K);
  ASSERT_EQ(32 * Atom::num_values_b, N * K);
  ASSERT_EQ(32 * Atom::num_values_c, M * N);
  typename Atom::LayoutA_TV a_tv;
  typename Atom::LayoutB_TV b_tv;
  typename Atom::LayoutC_TV c_tv;
  std::vector<int> a_hits(M * K), b_hits(N * K), c_hits(M * N);
  for (int lane = 0; lane < 32; ++lane) {
    for (int i = 0; i < Atom::num_values_a; ++i) {
      int idx = a_tv(lane, i);  // m + M * k
      EXPECT_EQ((RowCol{idx % M, idx / M}), isa_a(lane, i)) << "A, lane " << lane << ", a" << i;
      ++a_hits[idx];
    }
    for (int i = 0; i < Atom::num_values_b; ++i) {
      int idx = b_tv(lane, i);  // n + N * k; the ISA's B row is k, its column n
      EXPECT_EQ((RowCol{idx / N, idx % N}), isa_b(lane, i)) << "B, lane " << lane << ", b" << i;
      ++b_hits[idx];
    }
    for (int i = 0; i < Atom::num_values_c; ++i) {
      int idx = c_tv(lane, i);  // m + M * n
      EXPECT_EQ((RowCol{idx % M, idx / M}), isa_c(lane, i)) << "C, lane " << lane << ", c" << i;
      ++c_hits[idx];
    }
  }
  for (int h : a_hits) EXPECT_EQ(h, 1);
  for (int h : b_hits) EXPECT_EQ(h, 1);
  for (int h : c_hits) EXPECT_EQ(h, 1);
}

TEST(MmaAtomSm80, M16N8K16F16F32MatchesIsaFragmentTables) {
  expect_atom_matches_isa<SM80_16x8x16_F32F16F16F32_TN>(isa_a_m16n8k16_f16, isa_b_m16n8k16_f16, isa_c_m16n8);
  static_assert(std::is_same_v<SM80_16x8x16_F32F16F16F32_TN::ElementA, __half>);
  static_assert(std::is_same_v<SM80_16x8x16_F32F16F16F32_TN::ElementC, float>);
}
TEST(MmaAtomSm80, M16N8K16Bf16F32MatchesIsaFragmentTables) {
  expect_atom_matches_isa<SM80_16x8x16_F32BF16BF16F32_TN>(isa_a_m16n8k16_f16, isa_b_m16n8k16_f16, isa_c_m16n8);
  static_assert(std::is_same_v<SM80_16x8x16_F32BF16BF16F32_TN::ElementB, __nv_bfloat16>);
}
TEST(MmaAtomSm80, M16N8K16F16F16MatchesIsaFragmentTables) {
  expect_atom_matches_isa<SM80_16x8x16_F16F16F16F16_TN>(isa_a_m16n8k16_f16, isa_b_m16n8k16_f16, isa_c_m16n8);
  static_assert(std::is_same_v<SM80_16x8x16_F16F16F16F16_TN::ElementC, __half>);
}
TEST(MmaAtomSm80, M16N8K8Tf32MatchesIsaFragmentTables) {
  expect_atom_matches_isa<SM80_16x8x8_F32TF32TF32F32_TN>(isa_a_m16n8k8_tf32, isa_b_m16n8k8_tf32, isa_c_m16n8);
}
TEST(MmaAtomSm80, M16N8K32S8MatchesIsaFragmentTables) {
  expect_atom_matches_isa<SM80_16x8x32_S32S8S8S32_TN>(isa_a_m16n8k32_s8, isa_b_m16n8k32_s8, isa_c_m16n8);
}
TEST(MmaAtomSm80, M8N8K4F64MatchesIsaFragmentTables) {
  expect_atom_matches_isa<SM80_8x8x4_F64F64F64F64_TN>(isa_a_m8n8k4_f64, isa_b_m8n8k4_f64, isa_c_m8n8k4_f64);
}

// ---- register packing --------------------------------------------------------------------------

// A host-callable stand-in for a 16-bit mma: it records the registers it is given and returns a
// known D, so the packing of MmaAtom::call can be read back. 1 thread; A 4 values (2 registers),
// B 2 values (1 register), C/D 2 values (1 register).
struct RecordingOp16 {
  using ARegisters = uint32_t[2];
  using BRegisters = uint32_t[1];
  using CRegisters = uint32_t[1];
  using DRegisters = uint32_t[1];
  static inline uint32_t seen_a[2], seen_b[1], seen_c[1];
  static void fma(DRegisters& d, ARegisters const& a, BRegisters const& b, CRegisters const& c) {
    seen_a[0] = a[0];
    seen_a[1] = a[1];
    seen_b[0] = b[0];
    seen_c[0] = c[0];
    d[0] = 0xBBBBAAAAu;
  }
};
// The same for 8-bit multiplicands: four to a register.
struct RecordingOp8 {
  using ARegisters = uint32_t[1];
  using BRegisters = uint32_t[1];
  using CRegisters = int32_t[1];
  using DRegisters = int32_t[1];
  static inline uint32_t seen_a;
  static void fma(DRegisters& d, ARegisters const& a, BRegisters const&, CRegisters const& c) {
    seen_a = a[0];
    d[0] = c[0] + 1;
  }
};

}  // namespace

namespace strata {
template <>
struct MmaTraits<RecordingOp16> {
  using ElementA = uint16_t;
  using ElementB = uint16_t;
  using ElementC = uint16_t;
  using ShapeMNK = Shape<_2, _1, _2>;
  using ThrID = Layout<_1>;
  using LayoutA_TV = Layout<Shape<_1, _4>>;
  using LayoutB_TV = Layout<Shape<_1, _2>>;
  using LayoutC_TV = Layout<Shape<_1, _2>>;
};
template <>
struct MmaTraits<RecordingOp8> {
  using ElementA = int8_t;
  using ElementB = int8_t;
  using ElementC = int32_t;
  using ShapeMNK = Shape<_1, _1, _4>;
  using ThrID = Layout<_1>;
  using LayoutA_TV = Layout<Shape<_1, _4>>;
  using LayoutB_TV = Layout<Shape<_1, _4>>;
  using LayoutC_TV = Layout<Shape<_1, _1>>;
};
}  // namespace strata

namespace {

TEST(MmaAtom, CallPacksElementsIntoRegistersLowFirstAsTheIsaOrdersThem) {
  using Atom16 = MmaAtom<RecordingOp16>;
  uint16_t a[4] = {0x1111, 0x2222, 0x3333, 0x4444}, b[2] = {0x5555, 0x6666}, c[2] = {0x7777, 0x8888}, d[2] = {};
  Atom16::call(d, a, b, c);
  EXPECT_EQ(RecordingOp16::seen_a[0], 0x22221111u);  // a0 in the low half of the first register
  EXPECT_EQ(RecordingOp16::seen_a[1], 0x44443333u);
  EXPECT_EQ(RecordingOp16::seen_b[0], 0x66665555u);
  EXPECT_EQ(RecordingOp16::seen_c[0], 0x88887777u);
  EXPECT_EQ(d[0], 0xAAAA);  // and D is unpacked the same way
  EXPECT_EQ(d[1], 0xBBBB);

  using Atom8 = MmaAtom<RecordingOp8>;
  int8_t a8[4] = {0x01, 0x02, 0x03, -1}, b8[4] = {};
  int32_t c8[1] = {41}, d8[1] = {};
  Atom8::call(d8, a8, b8, c8);
  EXPECT_EQ(RecordingOp8::seen_a, 0xFF030201u);  // a0 in the lowest byte
  EXPECT_EQ(d8[0], 42);
}

TEST(MmaAtom, UniversalFmaIsOneThreadOneMultiplyAdd) {
  using Atom = MmaAtom<UniversalFma<float>>;
  static_assert(Atom::num_threads == 1 && Atom::M == 1 && Atom::N == 1 && Atom::K == 1);
  float a[1] = {3.0f}, b[1] = {-2.0f}, c[1] = {10.0f}, d[1] = {0.0f};
  Atom::call(d, a, b, c);
  EXPECT_EQ(d[0], 4.0f);
  Atom::call(c, a, b, c);  // d may be c
  EXPECT_EQ(c[0], 4.0f);
}

// ---- TiledMMA: TV layouts ----------------------------------------------------------------------

// Counts, for each element of the operand tile, the (thread, value) pairs that hold it, and checks
// that no thread holds an element twice. Returns the counts, column-major over the tile.
template <class TV>
std::vector<int> count_holders(TV const& tv, int tile_elements, int num_threads, int num_values) {
  std::vector<int> hits(tile_elements);
  for (int t = 0; t < num_threads; ++t) {
    std::vector<int> mine(tile_elements);
    for (int v = 0; v < num_values; ++v) {
      int idx = tv(t, v);
      EXPECT_TRUE(0 <= idx && idx < tile_elements) << "thread " << t << " value " << v << " -> " << idx;
      if (idx < 0 || idx >= tile_elements) continue;
      EXPECT_EQ(++mine[idx], 1) << "thread " << t << " holds element " << idx << " twice";
      ++hits[idx];
    }
  }
  return hits;
}

template <class Mma>
void expect_tiles_covered(Mma const& mma, std::string const& name) {
  SCOPED_TRACE(name);
  constexpr int TM = decltype(Mma::template tile_size_mnk<0>())::value;
  constexpr int TN = decltype(Mma::template tile_size_mnk<1>())::value;
  constexpr int TK = decltype(Mma::template tile_size_mnk<2>())::value;
  constexpr int T = decltype(size(mma))::value;
  auto a = Mma::get_layoutA_TV();
  auto b = Mma::get_layoutB_TV();
  auto c = Mma::get_layoutC_TV();
  ASSERT_EQ(int(size<0>(a)), T);
  ASSERT_EQ(int(size<0>(b)), T);
  ASSERT_EQ(int(size<0>(c)), T);
  // Threads that differ only in their atom's N place hold the same A, and so on.
  ASSERT_EQ(int(size<1>(a)) * T, TM * TK * Mma::thr_n);
  ASSERT_EQ(int(size<1>(b)) * T, TN * TK * Mma::thr_m);
  ASSERT_EQ(int(size<1>(c)) * T, TM * TN * Mma::thr_k);
  for (int h : count_holders(a, TM * TK, T, size<1>(a))) EXPECT_EQ(h, Mma::thr_n);
  for (int h : count_holders(b, TN * TK, T, size<1>(b))) EXPECT_EQ(h, Mma::thr_m);
  for (int h : count_holders(c, TM * TN, T, size<1>(c))) EXPECT_EQ(h, Mma::thr_k);
}

TEST(TiledMma, TvLayoutsCoverEveryTileTheRightNumberOfTimes) {
  using F16 = SM80_16x8x16_F32F16F16F32_TN;
  expect_tiles_covered(make_tiled_mma(F16{}), "one atom");
  expect_tiles_covered(make_tiled_mma(F16{}, Layout<Shape<_2, _2, _1>>{}), "2x2 warps");
  expect_tiles_covered(make_tiled_mma(F16{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{}),
                       "2x2 warps, N tile 32");
  expect_tiles_covered(make_tiled_mma(F16{}, Layout<Shape<_2, _2, _1>>{},
                                      Tile<_32, Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>, _16>{}),
                       "2x2 warps, N permuted so each warp owns 16 contiguous columns");
  expect_tiles_covered(make_tiled_mma(F16{}, make_layout(Shape<_2, _2, _1>{}, LayoutRight{})),
                       "2x2 warps numbered row-major");
  expect_tiles_covered(make_tiled_mma(F16{}, Layout<Shape<_4, _1, _1>>{}, Tile<Underscore, Underscore, _32>{}), "4x1 warps, K tile 32");
  expect_tiles_covered(make_tiled_mma(F16{}, Layout<Shape<_1, _1, _2>>{}), "K split over 2 warps");
  expect_tiles_covered(make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN{}, Layout<Shape<_2, _1, _1>>{},
                                      Tile<_32, _16, _8>{}),
                       "tf32, 2x1 warps");
  expect_tiles_covered(make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN{}, Layout<Shape<_1, _2, _1>>{}), "s8, 1x2 warps");
  expect_tiles_covered(make_tiled_mma(SM80_8x8x4_F64F64F64F64_TN{}, Layout<Shape<_2, _2, _1>>{}), "f64, 2x2 warps");
  expect_tiles_covered(make_tiled_mma(UniversalFma<float>{}, Layout<Shape<_16, _8, _1>>{}), "FMA, 16x8 threads");
  expect_tiles_covered(make_tiled_mma(UniversalFma<float>{}, Layout<Shape<_16, _8, _1>>{}, Tile<_64, _32, _4>{}),
                       "FMA, 16x8 threads, 4x4x4 values each");
}

TEST(TiledMma, SizesAndThreadCoordinates) {
  [[maybe_unused]] auto mma =
      make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
  using Mma = decltype(mma);
  static_assert(decltype(size(mma))::value == 128 && Mma::num_threads == 128);
  static_assert(decltype(Mma::tile_size_mnk<0>())::value == 32);
  static_assert(decltype(Mma::tile_size_mnk<1>())::value == 32);
  static_assert(decltype(Mma::tile_size_mnk<2>())::value == 16);
  static_assert(decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}))::tile_size_mnk<1>() == 16);
  // thread 100 = lane 4 of warp 3; warps are numbered M first: warp 3 is (m 1, n 1).
  EXPECT_EQ(Mma::thread_coord(100), make_coord(4, 1, 1, 0));
  [[maybe_unused]] auto row_major = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, make_layout(Shape<_2, _2, _1>{}, LayoutRight{}));
  EXPECT_EQ(decltype(row_major)::thread_coord(32 + 5), make_coord(5, 0, 1, 0));  // warp 1 is (m 0, n 1)
  // A bare instruction is wrapped into its atom.
  static_assert(std::is_same_v<decltype(make_tiled_mma(arch::Mma_m16n8k16_f32_f16_f16_f32{}))::AtomType,
                               SM80_16x8x16_F32F16F16F32_TN>);
}

// The 2 x 2-warp tiling with a 32 x 32 x 16 tile, written out by hand: thread 32w + lane is warp
// (w % 2, w / 2), the warp's atom sits at (16 * (w % 2), 8 * (w / 2)) and repeats once more 16
// columns to the right; within an atom the ISA table holds. With the permuted N mode, the
// repeated atom's columns are instead the 8 next to the warp's first 8.
TEST(TiledMma, TwoByTwoWarpsPlaceEachAtomWhereTheTilingSays) {
  using Perm = Layout<Shape<_8, _2, _2>, Stride<_1, _16, _8>>;
  using Plain = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{}));
  using Permuted = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, Perm, _16>{}));
  auto c_plain = Plain::get_layoutC_TV();
  auto c_perm = Permuted::get_layoutC_TV();
  auto a_plain = Plain::get_layoutA_TV();
  auto b_plain = Plain::get_layoutB_TV();
  auto b_perm = Permuted::get_layoutB_TV();
  ASSERT_EQ(int(size<1>(c_plain)), 8);  // 4 values of the atom x 2 atoms in N
  ASSERT_EQ(int(size<1>(b_plain)), 8);
  ASSERT_EQ(int(size<1>(a_plain)), 8);
  for (int thread = 0; thread < 128; ++thread) {
    int warp = thread / 32, lane = thread % 32, warp_m = warp % 2, warp_n = warp / 2;
    for (int v = 0; v < 8; ++v) {
      int i = v % 4, repeat_n = v / 4;  // value mode ((atom values), 1, 2): atom value, then N repeat
      RowCol c = isa_c_m16n8(lane, i);
      int m = 16 * warp_m + c.row;
      int n_tile = 8 * warp_n + c.col + 16 * repeat_n;
      EXPECT_EQ(c_plain(thread, v), m + 32 * n_tile) << "thread " << thread << " value " << v;
      int n_perm = n_tile % 8 + 16 * ((n_tile / 8) % 2) + 8 * (n_tile / 16);
      EXPECT_EQ(c_perm(thread, v), m + 32 * n_perm) << "permuted, thread " << thread << " value " << v;
      EXPECT_EQ(n_perm / 16, warp_n) << "each warp owns 16 contiguous columns";

      RowCol b = isa_b_m16n8k16_f16(lane, i);  // (k, n)
      int bn = 8 * warp_n + b.col + 16 * repeat_n;
      EXPECT_EQ(b_plain(thread, v), bn + 32 * b.row);
      EXPECT_EQ(b_perm(thread, v), (bn % 8 + 16 * ((bn / 8) % 2) + 8 * (bn / 16)) + 32 * b.row);

      RowCol a = isa_a_m16n8k16_f16(lane, v);  // one atom in M per warp: the 8 atom values
      EXPECT_EQ(a_plain(thread, v), (16 * warp_m + a.row) + 32 * a.col);
    }
  }
}

}  // namespace
