// Host tests of the wgmma descriptors and atom layouts: no GPU is touched here.
//
//   - descriptor bit fields (start address, LBO, SBO, base offset, swizzle mode) of every
//     canonical layout (K- and MN-major; none, 32B, 64B, 128B; 16-bit, tf32, 8-bit), against
//     values worked out by hand from the PTX ISA's "Matrix Descriptor" and "Shared Memory Matrix
//     Layout" sections (derivations next to each case);
//   - the byte offsets a descriptor advances by per k-block and per stage;
//   - layouts no descriptor describes, with the reason;
//   - the accumulator and RS A-fragment TV layouts against the ISA's "Register Fragments"
//     figures, element by element, and a TiledMMA of two warpgroups stacked along M.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "atom/gmma_desc_sm90.hpp"
#include "atom/mma_sm90.hpp"
#include "atom/tiled_mma.hpp"

namespace {

using namespace strata;
using detail::GmmaLayoutStatus;
using bf16 = __nv_bfloat16;
using fp8 = __nv_fp8_e4m3;

constexpr uint32_t kAddr = 0x2400;  // a shared-memory address aligned to 1024 bytes

// The descriptor of the first (MN x K) wgmma operand tile of a CTA tile laid out by `l`.
template <class T, GmmaMajor Major, int MN, int K, class L>
GmmaDescriptor first_tile_desc(L const& l, uint32_t addr = kAddr) {
  return make_gmma_desc<T, Major>(gmma_tile_layout<MN, K>(l), addr);
}

TEST(GmmaDescriptor, FieldsEncodeAsTheIsaSays) {
  // matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4 in bits 0-13, 16-29, 32-45; base offset in
  // 49-51; swizzle mode in 62-63.
  auto d = make_gmma_descriptor(0x1230, 0x40, 0x400, GmmaSwizzle::sw64, 5);
  EXPECT_EQ(d.desc, (uint64_t(2) << 62) | (uint64_t(5) << 49) | (uint64_t(0x40) << 32) | (uint64_t(4) << 16) | 0x123);
  EXPECT_EQ(d.start_address(), 0x1230u);
  EXPECT_EQ(d.leading_byte_offset(), 0x40u);
  EXPECT_EQ(d.stride_byte_offset(), 0x400u);
  EXPECT_EQ(d.base_offset(), 5u);
  EXPECT_EQ(d.swizzle(), GmmaSwizzle::sw64);
  // Addresses wrap at 2^18 as the encoding masks them; advancing moves only the start address.
  EXPECT_EQ(make_gmma_descriptor(0x40010, 0, 0, GmmaSwizzle::none).start_address(), 0x10u);
  EXPECT_EQ((d + 64).start_address(), 0x1270u);
  EXPECT_EQ((d + 64).stride_byte_offset(), 0x400u);
}

// HOPPER-FACTS: 128B swizzle with SBO = 1024 B is 0x4000004000000000 | ((addr & 0x3FFFF) >> 4).
// That example leaves LBO 0; for swizzled K-major layouts the ISA says LBO is not used and
// "assumed to be 1", and Strata writes that 1 (16 bytes), as CuTe does: bits 16-29 hold 1.
TEST(GmmaDescriptor, MatchesTheCheckedExample) {
  auto layout = make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_64, _64>{});
  for (uint32_t addr : {0x0u, 0x400u, 0x2400u, 0x1FC00u}) {
    auto d = first_tile_desc<bf16, GmmaMajor::K, 64, 16>(layout, addr);
    EXPECT_EQ(d.desc & ~(uint64_t(0x3FFF) << 16), 0x4000004000000000ull | ((addr & 0x3FFFF) >> 4)) << addr;
    EXPECT_EQ(d.leading_byte_offset(), 16u);
  }
}

// K-major bf16 (E = 8 elements in 16 bytes), an A tile of 64 x 16 cut from a 64 x 64 CTA tile.
// Rows of the swizzle atom are W * 16 bytes; tile_to_shape stacks atoms down M first, so the next
// group of 8 rows (SBO) is one atom further: 8 rows * W * 16 bytes.
TEST(GmmaDescriptor, KMajorBf16EverySwizzle) {
  // 128B: atom Sw<3,3,3> o (8,64):(64,1); tiled ((8,8),64):((64,512),1): SBO 512 el = 1024 B.
  auto sw128 = make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::K, 64, 16>(sw128).desc), 0x4000004000010000ull | (kAddr >> 4));
  // 64B: atom Sw<2,3,3> o (8,32):(32,1); tiled ((8,8),(32,2)):((32,256),(1,2048)): SBO 256 el = 512 B.
  auto sw64 = make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw64>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::K, 64, 16>(sw64).desc), 0x8000002000010000ull | (kAddr >> 4));
  // 32B: atom Sw<1,3,3> o (8,16):(16,1); tiled ((8,8),(16,4)):((16,128),(1,1024)): SBO 128 el = 256 B.
  auto sw32 = make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw32>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::K, 64, 16>(sw32).desc), 0xC000001000010000ull | (kAddr >> 4));
  // None: the atom is one core matrix (8,8):(8,1); tiled ((8,8),(8,8)):((8,64),(1,512)): the next
  // 8 rows 64 el = 128 B on (SBO), the next 8 columns of K 512 el = 1024 B on (LBO).
  auto none = make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::none>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::K, 64, 16>(none).desc), 0x0000000800400000ull | (kAddr >> 4));
}

// MN-major bf16: the contiguous direction is M (or N). A swizzle row holds W * 8 elements of MN;
// 8 rows of K make the atom. LBO is the step to the next swizzle row in MN, SBO to the next 8 rows
// of K (swizzled); for none, SBO steps to the next core matrix in MN, LBO to the next 8 of K.
TEST(GmmaDescriptor, MnMajorBf16EverySwizzle) {
  // 128B, B of N = 128 from a 128 x 64 tile: atom Sw<3,3,3> o (64,8):(1,64), tiled
  // ((64,2),(8,8)):((1,512),(64,1024)): LBO 512 el = 1024 B, SBO 1024 el = 2048 B.
  auto sw128 = make_gmma_smem_layout<bf16, GmmaMajor::MN, GmmaSwizzle::sw128>(Shape<_128, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::MN, 128, 16>(sw128).desc), 0x4000008000400000ull | (kAddr >> 4));
  // 128B with MN = 64, one swizzle row: LBO is not needed; written as one atom, 1024 B.
  auto sw128_64 = make_gmma_smem_layout<bf16, GmmaMajor::MN, GmmaSwizzle::sw128>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::MN, 64, 16>(sw128_64).desc), 0x4000004000400000ull | (kAddr >> 4));
  // 64B, 64 x 64: atom (32,8):(1,32); tiled ((32,2),(8,8)):((1,256),(32,512)): LBO 512 B, SBO 1024 B.
  auto sw64 = make_gmma_smem_layout<bf16, GmmaMajor::MN, GmmaSwizzle::sw64>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::MN, 64, 16>(sw64).desc), 0x8000004000200000ull | (kAddr >> 4));
  // 32B, 64 x 64: atom (16,8):(1,16); tiled ((16,4),(8,8)):((1,128),(16,512)): LBO 256 B, SBO 1024 B.
  auto sw32 = make_gmma_smem_layout<bf16, GmmaMajor::MN, GmmaSwizzle::sw32>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::MN, 64, 16>(sw32).desc), 0xC000004000100000ull | (kAddr >> 4));
  // None, 64 x 64: atom (8,8):(1,8); tiled ((8,8),(8,8)):((1,64),(8,512)): SBO 64 el = 128 B,
  // LBO 512 el = 1024 B.
  auto none = make_gmma_smem_layout<bf16, GmmaMajor::MN, GmmaSwizzle::none>(Shape<_64, _64>{});
  EXPECT_EQ((first_tile_desc<bf16, GmmaMajor::MN, 64, 16>(none).desc), 0x0000000800400000ull | (kAddr >> 4));
}

// tf32 (E = 4) and 8-bit (E = 16) K-major: the same bytes, other element counts.
TEST(GmmaDescriptor, KMajorTf32AndFp8) {
  // tf32 128B: atom Sw<3,2,3> o (8,32):(32,1); 64 x 32 tiled ((8,8),32):((32,256),1): SBO
  // 256 el * 4 B = 1024 B. An A tile is 64 x 8 (k8 = 32 bytes).
  auto tf32 = make_gmma_smem_layout<float, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_64, _32>{});
  EXPECT_EQ((first_tile_desc<float, GmmaMajor::K, 64, 8>(tf32).desc), 0x4000004000010000ull | (kAddr >> 4));
  // tf32 none: atom (8,4):(4,1); 64 x 32 tiled ((8,8),(4,8)):((4,32),(1,256)): SBO 32 el = 128 B,
  // LBO 256 el = 1024 B.
  auto tf32_none = make_gmma_smem_layout<float, GmmaMajor::K, GmmaSwizzle::none>(Shape<_64, _32>{});
  EXPECT_EQ((first_tile_desc<float, GmmaMajor::K, 64, 8>(tf32_none).desc), 0x0000000800400000ull | (kAddr >> 4));
  // e4m3 128B: atom Sw<3,4,3> o (8,128):(128,1); 64 x 128 tiled ((8,8),128):((128,1024),1): SBO
  // 1024 B; a tile is 64 x 32 (k32 = 32 bytes).
  auto e4m3 = make_gmma_smem_layout<fp8, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_64, _128>{});
  EXPECT_EQ((first_tile_desc<fp8, GmmaMajor::K, 64, 32>(e4m3).desc), 0x4000004000010000ull | (kAddr >> 4));
  // e4m3 32B, B of N = 8: one group of 8 rows, SBO unused and written as one atom, 8 * 32 = 256 B.
  auto e4m3_32 = make_gmma_smem_layout<fp8, GmmaMajor::K, GmmaSwizzle::sw32>(Shape<_8, _64>{});
  EXPECT_EQ((first_tile_desc<fp8, GmmaMajor::K, 8, 32>(e4m3_32).desc), 0xC000001000010000ull | (kAddr >> 4));
}

TEST(GmmaDescriptor, AtomsAreTheSwizzlesOfTheIsa) {
  // In elements of T the 128B swizzle is Swizzle<3, log2(16 / sizeof T), 3>: Swizzle<3,4,3> on bytes.
  static_assert(std::is_same_v<gmma_swizzle_t<fp8, GmmaSwizzle::sw128>, Swizzle<3, 4, 3>>);
  static_assert(std::is_same_v<gmma_swizzle_t<bf16, GmmaSwizzle::sw128>, Swizzle<3, 3, 3>>);
  static_assert(std::is_same_v<gmma_swizzle_t<float, GmmaSwizzle::sw64>, Swizzle<2, 2, 3>>);
  static_assert(std::is_same_v<gmma_swizzle_t<bf16, GmmaSwizzle::sw32>, Swizzle<1, 3, 3>>);
  // Element (row r, 16-byte chunk c) of the K-major 128B atom lands in chunk c ^ (r % 8): the 8
  // rows of each column of chunks hit 8 different chunks (bank groups).
  auto atom = gmma_layout_atom<bf16, GmmaMajor::K, GmmaSwizzle::sw128>();
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c) EXPECT_EQ(int(atom(r, 8 * c)), 64 * r + 8 * (c ^ r)) << r << ", " << c;
  auto mn = gmma_layout_atom<bf16, GmmaMajor::MN, GmmaSwizzle::sw64>();  // (32, 8), 4 chunks a row
  for (int k = 0; k < 8; ++k)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(int(mn(8 * c, k)), 32 * k + 8 * (c ^ ((k >> 1) & 3))) << k << ", " << c;
}

// Moving a descriptor: the unswizzled byte offset of the next tile's origin.
TEST(GmmaDescriptor, AdvancePerKBlockAndStage) {
  // K-major 128B bf16, 128 x 128 x 3 stages: atoms stack 16 deep in M, then 2 along K, then stages.
  auto k_major = make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_128, _128, _3>{});
  EXPECT_EQ(gmma_offset_bytes<bf16>(k_major, make_coord(0, 16, 0)), 32);      // next k16 inside a 128-byte row
  EXPECT_EQ(gmma_offset_bytes<bf16>(k_major, make_coord(0, 48, 0)), 96);
  EXPECT_EQ(gmma_offset_bytes<bf16>(k_major, make_coord(0, 64, 0)), 16384);   // next atom column: 128 rows * 128 B
  EXPECT_EQ(gmma_offset_bytes<bf16>(k_major, make_coord(64, 0, 0)), 8192);    // the second warpgroup's rows
  EXPECT_EQ(gmma_offset_bytes<bf16>(k_major, make_coord(0, 0, 1)), 32768);    // next stage: 128 * 128 * 2 B
  // MN-major 128B bf16, 64 x 64: a k-block is 16 rows of K, two groups of 8 rows of 128 bytes each.
  auto mn_major = make_gmma_smem_layout<bf16, GmmaMajor::MN, GmmaSwizzle::sw128>(Shape<_64, _64>{});
  EXPECT_EQ(gmma_offset_bytes<bf16>(mn_major, make_coord(0, 16)), 2048);
  // The descriptor of k-block 1 is that of k-block 0 moved by that offset.
  auto tile0 = first_tile_desc<bf16, GmmaMajor::K, 64, 16>(k_major);
  auto sub = make_tensor(make_smem_ptr(static_cast<bf16*>(nullptr)), k_major)(Underscore{}, Underscore{}, 0);
  EXPECT_EQ((make_gmma_desc<bf16, GmmaMajor::K>(gmma_tile_layout<64, 16>(sub.layout()), kAddr)), tile0);
  EXPECT_EQ((tile0 + gmma_offset_bytes<bf16>(k_major, make_coord(0, 16, 0))).start_address(), kAddr + 32);
}

template <GmmaMajor Major, class T, class L>
constexpr GmmaLayoutStatus status_of(L const&) {
  return detail::gmma_layout_fields<Major, int(sizeof(T)), L>().status;
}

// Layouts no descriptor describes, and why. (test/kernel/compile_fail/gmma_desc_*_sm90.cu check
// that make_gmma_desc refuses them at compile time with these words.)
TEST(GmmaDescriptor, RefusesWhatNoDescriptorDescribes) {
  // A plain row-major 64 x 16 bf16 tile: rows of 32 bytes, but without a swizzle a core-matrix row
  // must be 16 bytes from the next.
  EXPECT_EQ((status_of<GmmaMajor::K, bf16>(Layout<Shape<_64, _16>, Stride<_16, _1>>{})), GmmaLayoutStatus::not_canonical);
  // The same with the 32B swizzle is canonical.
  EXPECT_EQ((status_of<GmmaMajor::K, bf16>(composition(Swizzle<1, 3, 3>{}, Layout<Shape<_64, _16>, Stride<_16, _1>>{}))),
            GmmaLayoutStatus::ok);
  // A K-major layout read as MN-major.
  auto k_major = gmma_tile_layout<64, 16>(
      make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_64, _64>{}));
  EXPECT_EQ((status_of<GmmaMajor::MN, bf16>(k_major)), GmmaLayoutStatus::not_canonical);
  // The 16-bit 128B swizzle on 8-bit data: chunks of 8 bytes.
  EXPECT_EQ((status_of<GmmaMajor::K, fp8>(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _32>, Stride<_64, _1>>{}))),
            GmmaLayoutStatus::wrong_swizzle);
  // A K-major tile 64 bytes deep: two k-blocks at once.
  EXPECT_EQ((status_of<GmmaMajor::K, bf16>(Layout<Shape<_64, _32>, Stride<_32, _1>>{})), GmmaLayoutStatus::wrong_k_depth);
  // MN-major 128B needs whole 64-element swizzle rows in MN.
  EXPECT_EQ((status_of<GmmaMajor::MN, bf16>(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_32, _16>, Stride<_1, _64>>{}))),
            GmmaLayoutStatus::wrong_mn_extent);
  // Rows 8 apart with a gap: an 8-row group stride of 1004 elements (2008 bytes) is not a multiple of 16.
  EXPECT_EQ((status_of<GmmaMajor::K, bf16>(
                Layout<Shape<Shape<_8, _8>, Shape<_8, _2>>, Stride<Stride<_8, Int<1004>>, Stride<_1, _64>>>{})),
            GmmaLayoutStatus::offset_out_of_range);
}

// ---- TV layouts against the ISA's figures ------------------------------------------------------

struct RowCol {
  int row;
  int col;
  bool operator==(RowCol const&) const = default;
};

// Figure "WGMMA .m64nNk16 register fragment layout for accumulator matrix D": warp w of the
// warpgroup owns rows 16w..16w+15; in it lane l holds, for each 8 columns j, d(4j), d(4j+1) at row
// 16w + l/4, columns 8j + 2(l%4) + {0, 1}, and d(4j+2), d(4j+3) 8 rows lower.
RowCol isa_d(int thread, int i) {
  int w = thread / 32, lane = thread % 32;
  return {16 * w + lane / 4 + 8 * ((i / 2) % 2), 8 * (i / 4) + 2 * (lane % 4) + i % 2};
}
// Figure "WGMMA .m64nNk16 register fragment layout for matrix A": per warp the 16 x 16 block of
// mma.m16n8k16's A: a0,a1 row l/4, columns 2(l%4)+{0,1}; a2,a3 8 rows lower; a4..a7 8 columns right.
RowCol isa_a_k16(int thread, int i) {
  int w = thread / 32, lane = thread % 32;
  return {16 * w + lane / 4 + 8 * ((i / 2) % 2), 2 * (lane % 4) + i % 2 + 8 * (i / 4)};
}
// m64nNk8 (tf32): a0 row l/4, column l%4; a1 8 rows lower; a2, a3 4 columns right.
RowCol isa_a_k8(int thread, int i) {
  int w = thread / 32, lane = thread % 32;
  return {16 * w + lane / 4 + 8 * (i % 2), lane % 4 + 4 * (i / 2)};
}
// m64nNk32 (8-bit): a0..a3 row l/4, columns 4(l%4)+{0..3}; a4..a7 8 rows lower; a8..a15 16 columns right.
RowCol isa_a_k32(int thread, int i) {
  int w = thread / 32, lane = thread % 32;
  return {16 * w + lane / 4 + 8 * ((i / 4) % 2), 4 * (lane % 4) + i % 4 + 16 * (i / 8)};
}

// Checks a TV layout over a 64 x cols tile (index row + 64 col) against a formula, every element
// held exactly once.
template <class TV, class F>
void expect_tv_matches(TV const& tv, int cols, F isa, const char* what) {
  std::vector<int> hits(64 * cols);
  ASSERT_EQ(int(size<0>(tv)), 128) << what;
  ASSERT_EQ(int(size<1>(tv)) * 128, 64 * cols) << what;
  for (int t = 0; t < 128; ++t) {
    for (int i = 0; i < int(size<1>(tv)); ++i) {
      int idx = tv(t, i);
      ASSERT_TRUE(0 <= idx && idx < 64 * cols) << what << " thread " << t << " value " << i;
      EXPECT_EQ((RowCol{idx % 64, idx / 64}), isa(t, i)) << what << ", thread " << t << ", value " << i;
      ++hits[idx];
    }
  }
  for (int h : hits) EXPECT_EQ(h, 1) << what;
}

template <int N>
void expect_accumulator_matches() {
  using Atom = SM90_64xNx16_F32BF16BF16_SS<N>;
  static_assert(Atom::num_threads == 128 && Atom::M == 64 && Atom::N == N && Atom::K == 16);
  static_assert(Atom::num_values_c == N / 2 && Atom::num_values_a == 1 && Atom::num_values_b == 1);
  expect_tv_matches(typename Atom::LayoutC_TV{}, N, isa_d, "D");
}

TEST(WgmmaAtom, AccumulatorMatchesIsaFigure) {
  expect_accumulator_matches<8>();
  expect_accumulator_matches<16>();
  expect_accumulator_matches<24>();
  expect_accumulator_matches<64>();
  expect_accumulator_matches<256>();
  // Every type shares the accumulator layout; f16 accumulators pair its values in registers.
  static_assert(std::is_same_v<SM90_64xNx8_F32TF32TF32_SS<32>::LayoutC_TV, SM90_64xNx16_F32F16F16_SS<32>::LayoutC_TV>);
  static_assert(std::is_same_v<SM90_64xNx32_F32E5M2E4M3_RS<32>::LayoutC_TV, SM90_64xNx16_F16F16F16_SS<32>::LayoutC_TV>);
  static_assert(std::is_same_v<SM90_64xNx16_F16F16F16_SS<32>::FragmentC, __half>);
}

TEST(WgmmaAtom, RegisterAFragmentsMatchIsaFigures) {
  expect_tv_matches(SM90_64xNx16_F32BF16BF16_RS<64>::LayoutA_TV{}, 16, isa_a_k16, "A k16");
  expect_tv_matches(SM90_64xNx16_F16F16F16_RS<8>::LayoutA_TV{}, 16, isa_a_k16, "A k16, f16 accumulators");
  expect_tv_matches(SM90_64xNx8_F32TF32TF32_RS<64>::LayoutA_TV{}, 8, isa_a_k8, "A k8 tf32");
  expect_tv_matches(SM90_64xNx32_F32E4M3E5M2_RS<64>::LayoutA_TV{}, 32, isa_a_k32, "A k32 8-bit");
  // SS operands: one descriptor per thread, the tile's origin.
  static_assert(std::is_same_v<SM90_64xNx16_F32BF16BF16_SS<64>::FragmentA, GmmaDescriptor>);
  static_assert(std::is_same_v<SM90_64xNx16_F32BF16BF16_RS<64>::FragmentA, __nv_bfloat16>);
  static_assert(std::is_same_v<SM90_64xNx16_F32BF16BF16_RS<64>::FragmentB, GmmaDescriptor>);
  static_assert(SM90_64xNx16_F32BF16BF16_RS<64>::num_values_a == 8);
  static_assert(SM90_64xNx32_F32E4M3E4M3_RS<64>::num_values_a == 16 && SM90_64xNx8_F32TF32TF32_RS<64>::num_values_a == 4);
}

// Two consumer warpgroups stacked along M: a 128 x N tile, warpgroup 1 (threads 128-255) the lower
// 64 rows; partition_A of a K-major 128 x 64 tile gives each warpgroup its 4 k-blocks' origins.
TEST(WgmmaAtom, TwoWarpgroupsAlongM) {
  auto mma = make_tiled_mma(SM90_64xNx16_F32BF16BF16_SS<128>{}, Layout<Shape<_2, _1, _1>>{});
  using Mma = decltype(mma);
  static_assert(decltype(size(mma))::value == 256);
  static_assert(decltype(Mma::tile_size_mnk<0>())::value == 128 && decltype(Mma::tile_size_mnk<1>())::value == 128);
  auto c = Mma::get_layoutC_TV();
  std::vector<int> hits(128 * 128);
  for (int t = 0; t < 256; ++t) {
    for (int i = 0; i < 64; ++i) {
      int idx = c(t, i);
      RowCol want = isa_d(t % 128, i);
      EXPECT_EQ((RowCol{idx % 128, idx / 128}), (RowCol{want.row + 64 * (t / 128), want.col})) << t << ", " << i;
      ++hits[idx];
    }
  }
  for (int h : hits) EXPECT_EQ(h, 1);

  std::vector<int> index(128 * 64);
  for (int i = 0; i < int(index.size()); ++i) index[i] = i;
  auto layout = make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_128, _64>{});
  auto sA = make_tensor(index.data(), layout);  // element (m, k) holds its own swizzled offset
  for (int t : {0, 77, 128, 255}) {
    auto tCsA = mma.get_slice(t).partition_A(sA);
    ASSERT_EQ(int(size(tCsA)), 4);  // (1, MMA_M = 1, MMA_K = 4)
    for (int k = 0; k < 4; ++k) EXPECT_EQ(tCsA(0, 0, k), int(layout(64 * (t / 128), 16 * k))) << t << ", " << k;
    auto frag = mma.get_slice(t).partition_fragment_A(sA);
    static_assert(std::is_same_v<typename decltype(frag)::value_type, GmmaDescriptor>);
    EXPECT_EQ(int(size(frag)), 4);
    EXPECT_EQ(int(size(mma.get_slice(t).partition_fragment_C(make_layout(Shape<_128, _128>{})))), 64);
  }
}

}  // namespace
