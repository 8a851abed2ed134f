// Strata floor 3: one operand (A or B) of a Hopper GEMM as TMA moves it and wgmma reads it. The
// operand is an (MN, K) matrix per batch: A is (M, K), B is (N, K). A stage holds `Rows` × BK of
// it in shared memory, 128-byte swizzled, in the canonical wgmma layout of its majorness:
//
//   K-major  (A row-major, B column-major): rows of BK elements (128 bytes); one TMA box of
//            Rows / Split rows per CTA of the multicast group
//   MN-major (A column-major, B row-major; 16-bit types only): blocks of 64 MN elements (128 bytes)
//            by BK, each block one TMA box, the blocks dealt round-robin to the CTAs of the group
//
// `Split` is how many CTAs of a cluster share the operand (the cluster's extent along the other
// dimension): each loads its share of the boxes and multicasts it to all of them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../atom/gmma_desc_sm90.hpp"
#include "../layout/layout.hpp"
#include "../layout/swizzle.hpp"

namespace strata {

template <class T, GmmaMajor Major, int Rows, int BK, int Split = 1>
struct Sm90Operand {
  static constexpr GmmaMajor major = Major;
  static constexpr bool k_major = Major == GmmaMajor::K;
  static_assert(BK * int(sizeof(T)) == 128, "Sm90Operand: BK must span one 128-byte swizzle row");
  static_assert(k_major || sizeof(T) == 2, "Sm90Operand: wgmma reads MN-major operands only of 16-bit types");
  static_assert(k_major ? (Rows % 8 == 0 && Rows >= 8 && Rows <= 256) : (Rows % 64 == 0 && Rows <= 256),
                "Sm90Operand: the rows of a stage are a multiple of 8 (K-major: whole 8-row swizzle atoms) or of 64 "
                "(MN-major: whole 128-byte blocks of MN), at most 256");
  static_assert(Split == 1 || Split == 2 || Split == 4, "Sm90Operand: 1, 2 or 4 CTAs share an operand");

  // The 128-byte swizzle in elements of T: 16-byte chunks XORed with the row within 8.
  using Sw = gmma_swizzle_t<T, GmmaSwizzle::sw128>;
  static constexpr int kSpan = 128 / int(sizeof(T));  // elements in one swizzled row

  // A stage, (Rows, BK) from its first element. MN-major: 64-row blocks one after another, each
  // 64 × BK with MN contiguous, so every block is one dense TMA box.
  using SmemLayout = std::conditional_t<
      k_major, decltype(composition(Sw{}, Layout<Shape<Int<Rows>, Int<BK>>, Stride<Int<BK>, _1>>{})),
      decltype(composition(Sw{}, Layout<Shape<Shape<Int<kSpan>, Int<Rows / kSpan>>, Int<BK>>,
                                        Stride<Stride<_1, Int<kSpan * BK>>, Int<kSpan>>>{}))>;

  // The boxes of a stage and which CTA of the group loads each: box j covers rows
  // [j × kBoxRows, +kBoxRows) of the stage and is loaded by the CTA of group rank j % Split.
  static constexpr int kBoxes = k_major ? Split : Rows / kSpan;
  static constexpr int kBoxRows = Rows / kBoxes;
  static_assert(kBoxes % Split == 0, "Sm90Operand: the boxes of a stage must divide evenly among the CTAs sharing it");
  static_assert(kBoxRows % 8 == 0, "Sm90Operand: a box must hold whole 8-row swizzle groups");
  static constexpr int kBoxElements = kBoxRows * BK;
  // One box with the batch mode (extent 1): the global tensor is (MN, K, batches).
  using TmaBox = std::conditional_t<
      k_major, decltype(composition(Sw{}, Layout<Shape<Int<kBoxRows>, Int<BK>, _1>, Stride<Int<BK>, _1, _0>>{})),
      decltype(composition(Sw{}, Layout<Shape<Int<kSpan>, Int<BK>, _1>, Stride<_1, Int<kSpan>, _0>>{}))>;
  static constexpr int stage_bytes = Rows * BK * int(sizeof(T));

  // The global tensor TMA reads: (rows, k, batches) with the operand's leading dimension on the
  // strided one of rows and k; a single batch gets a batch stride that never matters.
  static auto global_layout(int rows, int k, int64_t ld, int64_t batch_stride, int batches) {
    const int64_t bs = batches > 1 ? batch_stride : (k_major ? int64_t(rows) : int64_t(k)) * ld;
    if constexpr (k_major) {
      return make_layout(make_shape(int64_t(rows), int64_t(k), int64_t(batches)), make_stride(ld, int64_t(1), bs));
    } else {
      return make_layout(make_shape(int64_t(rows), int64_t(k), int64_t(batches)), make_stride(int64_t(1), ld, bs));
    }
  }
  // The extent the leading dimension must cover: K (K-major) or the rows (MN-major).
  static int64_t contiguous_extent(int rows, int k) { return k_major ? k : rows; }

  // TMA coordinates (its dimension order: the contiguous dimension first) of box j of the stage
  // whose first row is row0 and first K element k0. Never negative.
  struct Coords {
    int c0, c1, c2;
  };
  STRATA_HOST_DEVICE static Coords box_coords(int row0, int k0, int batch, int j) {
    const int row = row0 + j * kBoxRows;
    return k_major ? Coords{k0, row, batch} : Coords{row, k0, batch};
  }

  // The descriptor of the wgmma tile (X rows from row r, K = 32 bytes / element or 16 for MN-major
  // from k-block kk) of the stage at shared address `stage`.
  template <int X, int MmaK>
  STRATA_HOST_DEVICE static GmmaDescriptor descriptor(uint32_t stage, int r, int kk) {
    const auto tile = gmma_tile_layout<X, MmaK>(SmemLayout{});
    const uint32_t offset = uint32_t(gmma_offset_bytes<T>(SmemLayout{}, make_coord(r, kk * MmaK)));
    return make_gmma_desc<T, Major>(tile, stage + offset);
  }
};

}  // namespace strata
