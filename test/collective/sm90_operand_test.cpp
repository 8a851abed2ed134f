// Host tests of Sm90Operand (collective/sm90_operand.hpp), no GPU touched: for stages of one and
// two 128-byte swizzle rows of K (BK 64 / 128 of 16-bit types, 32 / 64 floats), K- and MN-major,
// shared by 1, 2 or 4 CTAs:
//   - the stage layout is a bijection onto its Rows × BK elements;
//   - every element a TMA box brings lands where the stage layout puts that (row, k);
//   - every element a wgmma reads through the operand's descriptor, at the address the PTX ISA's
//     canonical 128-byte-swizzled layouts give for the descriptor's fields, is the element the
//     stage layout put there.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "atom/arch/numeric_types.hpp"
#include "collective/sm90_operand.hpp"

namespace {

using namespace strata;
using bf16 = __nv_bfloat16;

constexpr uint32_t kStage = 0x4400;  // a stage's shared-memory address, 1024-byte aligned

// The shared-memory byte address a wgmma reads element (i of MN, k of K) of its tile from, for the
// 128-byte swizzle: the canonical layout of the ISA ("Shared Memory Matrix Layout") at the
// descriptor's start address and byte offsets, then the swizzle on address bits [4, 7) ^ [7, 10).
uint32_t wgmma_address(GmmaDescriptor d, GmmaMajor major, int i, int k, int bytes) {
  const int row_elements = 128 / bytes;
  uint32_t a = d.start_address();
  if (major == GmmaMajor::K) {
    a += uint32_t((i % 8) * 128 + (i / 8) * int(d.stride_byte_offset()) + k * bytes);
  } else {
    a += uint32_t((i % row_elements) * bytes + (i / row_elements) * int(d.leading_byte_offset()) + (k % 8) * 128 +
                  (k / 8) * int(d.stride_byte_offset()));
  }
  return a ^ (((a >> 7) & 7u) << 4);
}

// Checks the wgmma tiles of X rows at rows r, r + X, ... of every k-block of the stage.
template <class Op, int X, int MmaK>
void check_descriptors(std::string const& name) {
  using T = typename Op::value_type_for_test;
  constexpr int Rows = Op::kRowsForTest, BK = Op::kBkForTest;
  const typename Op::SmemLayout stage{};
  int mismatches = 0;
  for (int r = 0; r < Rows; r += X)
    for (int kk = 0; kk < BK / MmaK; ++kk) {
      const GmmaDescriptor d = Op::template descriptor<X, MmaK>(kStage, r, kk);
      EXPECT_EQ(d.swizzle(), GmmaSwizzle::sw128) << name;
      for (int i = 0; i < X; ++i)
        for (int k = 0; k < MmaK; ++k) {
          const uint32_t want = kStage + uint32_t(stage(r + i, kk * MmaK + k)) * uint32_t(sizeof(T));
          const uint32_t got = wgmma_address(d, Op::major, i, k, int(sizeof(T)));
          if (got != want && ++mismatches <= 4)
            ADD_FAILURE() << name << ": tile rows " << r << ", k-block " << kk << ", element (" << i << ", " << k
                          << ") read at " << got << ", stored at " << want;
        }
    }
  EXPECT_EQ(mismatches, 0) << name;
}

// The stage layout is a bijection, and TMA's boxes fill it as the layout says.
template <class Op>
void check_stage_and_boxes(std::string const& name) {
  constexpr int Rows = Op::kRowsForTest, BK = Op::kBkForTest;
  const typename Op::SmemLayout stage{};
  std::vector<int> hits(size_t(Rows) * BK, 0);
  for (int r = 0; r < Rows; ++r)
    for (int k = 0; k < BK; ++k) {
      const int at = int(stage(r, k));
      ASSERT_TRUE(at >= 0 && at < Rows * BK) << name << ": (" << r << ", " << k << ") at " << at;
      ++hits[size_t(at)];
    }
  for (size_t e = 0; e < hits.size(); ++e) ASSERT_EQ(hits[e], 1) << name << ": stage element " << e;
  const typename Op::TmaBox box{};
  constexpr int box_mn = Op::k_major ? Op::kBoxRows : Op::kSpan;
  constexpr int box_k = Op::kBoxElements / Op::kBoxRows;
  std::vector<int> landed(size_t(Rows) * BK, 0);
  int mismatches = 0;
  for (int j = 0; j < Op::kBoxes; ++j) {
    const auto c = Op::box_coords(0, 0, 0, j);
    for (int b = 0; b < box_mn; ++b)
      for (int k = 0; k < box_k; ++k) {
        // TMA's coordinates list the contiguous dimension first: (k, row) K-major, (row, k) MN-major.
        const int row = Op::k_major ? c.c1 + b : c.c0 + b;
        const int kg = Op::k_major ? c.c0 + k : c.c1 + k;
        ASSERT_TRUE(row < Rows && kg < BK) << name << ": box " << j << " reaches (" << row << ", " << kg << ")";
        const int at = j * Op::kBoxElements + int(box(b, k, 0));
        ++landed[size_t(at)];
        if (at != int(stage(row, kg)) && ++mismatches <= 4)
          ADD_FAILURE() << name << ": box " << j << " puts (" << row << ", " << kg << ") at " << at
                        << ", the stage layout at " << int(stage(row, kg));
      }
  }
  EXPECT_EQ(mismatches, 0) << name;
  for (size_t e = 0; e < landed.size(); ++e) ASSERT_EQ(landed[e], 1) << name << ": stage element " << e;
  EXPECT_EQ(Op::kBoxes * Op::kBoxElements, Rows * BK) << name;
  EXPECT_EQ(Op::stage_bytes, Rows * BK * int(sizeof(typename Op::value_type_for_test))) << name;
}

// Sm90Operand with its parameters visible to the checks above.
template <class T, GmmaMajor Major, int Rows, int BK, int Split = 1>
struct Op : Sm90Operand<T, Major, Rows, BK, Split> {
  using value_type_for_test = T;
  static constexpr int kRowsForTest = Rows, kBkForTest = BK;
};

constexpr GmmaMajor K = GmmaMajor::K, MN = GmmaMajor::MN;

TEST(Sm90Operand, KMajorOneSwizzleRowOfK) {
  check_stage_and_boxes<Op<bf16, K, 64, 64>>("bf16 K 64x64");
  check_stage_and_boxes<Op<bf16, K, 128, 64, 2>>("bf16 K 128x64 split 2");
  check_stage_and_boxes<Op<bf16, K, 16, 64>>("bf16 K 16x64");
  check_stage_and_boxes<Op<bf16, K, 64, 64, 4>>("bf16 K 64x64 split 4");
  check_stage_and_boxes<Op<float, K, 64, 32>>("tf32 K 64x32");
  check_descriptors<Op<bf16, K, 128, 64>, 64, 16>("bf16 K 128x64, m64 tiles");
  check_descriptors<Op<bf16, K, 16, 64>, 16, 16>("bf16 K 16x64, n16 tile");
  check_descriptors<Op<float, K, 64, 32>, 64, 8>("tf32 K 64x32");
}

TEST(Sm90Operand, KMajorTwoSwizzleRowsOfK) {
  using A = Op<bf16, K, 128, 128>;
  static_assert(A::kAtomsK == 2 && A::kBoxes == 2 && A::kBoxK == 64 && A::kBoxRows == 128);
  check_stage_and_boxes<A>("bf16 K 128x128");
  check_stage_and_boxes<Op<bf16, K, 128, 128, 2>>("bf16 K 128x128 split 2");
  check_stage_and_boxes<Op<bf16, K, 64, 128, 4>>("bf16 K 64x128 split 4");
  check_stage_and_boxes<Op<bf16, K, 16, 128>>("bf16 K 16x128");
  check_stage_and_boxes<Op<float, K, 64, 64>>("tf32 K 64x64");
  check_descriptors<A, 64, 16>("bf16 K 128x128, m64 tiles");
  check_descriptors<Op<bf16, K, 256, 128>, 256, 16>("bf16 K 256x128, n256 tile");
  check_descriptors<Op<bf16, K, 16, 128>, 16, 16>("bf16 K 16x128, n16 tile");
  check_descriptors<Op<float, K, 64, 64>, 64, 8>("tf32 K 64x64");
  // Box j of split s: rows of CTA j % s, K atom j / s.
  using S = Op<bf16, K, 128, 128, 2>;
  EXPECT_EQ(S::box_coords(256, 1024, 3, 3).c0, 1024 + 64);
  EXPECT_EQ(S::box_coords(256, 1024, 3, 3).c1, 256 + 64);
  EXPECT_EQ(S::box_coords(256, 1024, 3, 3).c2, 3);
}

TEST(Sm90Operand, MnMajorOneAndTwoSwizzleRowsOfK) {
  check_stage_and_boxes<Op<bf16, MN, 128, 64>>("bf16 MN 128x64");
  check_stage_and_boxes<Op<bf16, MN, 128, 64, 2>>("bf16 MN 128x64 split 2");
  check_stage_and_boxes<Op<bf16, MN, 256, 64>>("bf16 MN 256x64");
  check_stage_and_boxes<Op<bf16, MN, 128, 128, 2>>("bf16 MN 128x128 split 2");
  check_stage_and_boxes<Op<bf16, MN, 256, 128>>("bf16 MN 256x128");
  check_descriptors<Op<bf16, MN, 128, 64>, 64, 16>("bf16 MN 128x64, m64 tiles");
  check_descriptors<Op<bf16, MN, 256, 64>, 256, 16>("bf16 MN 256x64, n256 tile");
  check_descriptors<Op<bf16, MN, 128, 128>, 64, 16>("bf16 MN 128x128, m64 tiles");
  check_descriptors<Op<bf16, MN, 256, 128>, 256, 16>("bf16 MN 256x128, n256 tile");
}

}  // namespace
