// Strata floor 3: one operand (A or B) of a Hopper GEMM as TMA moves it and wgmma reads it. The
// operand is an (MN, K) matrix per batch: A is (M, K), B is (N, K). A stage holds `Rows` × BK of
// it in shared memory, 128-byte swizzled, in the canonical wgmma layout of its majorness:
//
//   K-major  (A row-major, B column-major): BK / (128 bytes) K atoms one after another, each
//            Rows rows of 128 bytes; per atom one TMA box of Rows / Split rows per CTA of the
//            multicast group
//   MN-major (A column-major, B row-major; 16-bit types only): blocks of 64 MN elements (128 bytes)
//            by BK, each block one TMA box, the blocks dealt round-robin to the CTAs of the group
//
// BK is one or two 128-byte swizzle rows (64 or 128 16-bit elements, 32 or 64 floats).
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
  static_assert(BK * int(sizeof(T)) == 128 || BK * int(sizeof(T)) == 256,
                "Sm90Operand: BK must span one or two 128-byte swizzle rows");
  static_assert(k_major || sizeof(T) == 2, "Sm90Operand: wgmma reads MN-major operands only of 16-bit types");
  static_assert(k_major ? (Rows % 8 == 0 && Rows >= 8 && Rows <= 256) : (Rows % 64 == 0 && Rows <= 256),
                "Sm90Operand: the rows of a stage are a multiple of 8 (K-major: whole 8-row swizzle atoms) or of 64 "
                "(MN-major: whole 128-byte blocks of MN), at most 256");
  static_assert(Split == 1 || Split == 2 || Split == 4, "Sm90Operand: 1, 2 or 4 CTAs share an operand");

  // The 128-byte swizzle in elements of T: 16-byte chunks XORed with the row within 8.
  using Sw = gmma_swizzle_t<T, GmmaSwizzle::sw128>;
  static constexpr int kSpan = 128 / int(sizeof(T));  // elements in one swizzled row
  static constexpr int kAtomsK = k_major ? BK / kSpan : 1;  // K atoms of a K-major stage

  // One K atom of a K-major stage: Rows rows of kSpan elements (the whole stage when BK = kSpan).
  using AtomLayoutK = decltype(composition(Sw{}, Layout<Shape<Int<Rows>, Int<kSpan>>, Stride<Int<kSpan>, _1>>{}));
  // A stage, (Rows, BK) from its first element. K-major: the atoms one after another, K element
  // k of row r at atom k / kSpan (each Rows × 128 bytes, so every atom starts 1024-byte aligned).
  // MN-major: 64-row blocks one after another, each 64 × BK with MN contiguous, so every block is
  // one dense TMA box.
  using SmemLayout = std::conditional_t<
      k_major,
      std::conditional_t<kAtomsK == 1, AtomLayoutK,
                         decltype(composition(Sw{}, Layout<Shape<Int<Rows>, Shape<Int<kSpan>, Int<kAtomsK>>>,
                                                           Stride<Int<kSpan>, Stride<_1, Int<Rows * kSpan>>>>{}))>,
      decltype(composition(Sw{}, Layout<Shape<Shape<Int<kSpan>, Int<Rows / kSpan>>, Int<BK>>,
                                        Stride<Stride<_1, Int<kSpan * BK>>, Int<kSpan>>>{}))>;

  // The boxes of a stage and which CTA of the group loads each, box j at element j × kBoxElements
  // of the stage and loaded by the CTA of group rank j % Split. K-major: rows
  // [(j % Split) × kBoxRows, +kBoxRows) of K atom j / Split; MN-major: the 64-row block j.
  static constexpr int kBoxes = k_major ? Split * kAtomsK : Rows / kSpan;
  static constexpr int kBoxRows = k_major ? Rows / Split : kSpan;
  static constexpr int kBoxK = k_major ? kSpan : BK;  // K elements of a box
  static_assert(kBoxes % Split == 0, "Sm90Operand: the boxes of a stage must divide evenly among the CTAs sharing it");
  static_assert(kBoxRows % 8 == 0, "Sm90Operand: a box must hold whole 8-row swizzle groups");
  static constexpr int kBoxElements = kBoxRows * kBoxK;
  static_assert(kBoxes * kBoxElements == Rows * BK, "Sm90Operand: the boxes of a stage tile it");
  // One box with the batch mode (extent 1): the global tensor is (MN, K, batches).
  using TmaBox = std::conditional_t<
      k_major, decltype(composition(Sw{}, Layout<Shape<Int<kBoxRows>, Int<kSpan>, _1>, Stride<Int<kSpan>, _1, _0>>{})),
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
    if constexpr (k_major) return Coords{k0 + (j / Split) * kSpan, row0 + (j % Split) * kBoxRows, batch};
    return Coords{row0 + j * kBoxRows, k0, batch};
  }

  // The descriptor of the wgmma tile (X rows from row r, K = 32 bytes / element or 16 for MN-major
  // from k-block kk) of the stage at shared address `stage`. K-major: the tile lies in one K atom
  // (MmaK divides kSpan), described as in a stage of that atom alone.
  template <int X, int MmaK>
  STRATA_HOST_DEVICE static GmmaDescriptor descriptor(uint32_t stage, int r, int kk) {
    if constexpr (k_major) {
      static_assert(kSpan % MmaK == 0, "Sm90Operand: a wgmma's K must lie within one 128-byte K atom");
      constexpr int per_atom = kSpan / MmaK;
      const auto tile = gmma_tile_layout<X, MmaK>(AtomLayoutK{});
      const uint32_t offset = uint32_t((kk / per_atom) * Rows * 128) +
                              uint32_t(gmma_offset_bytes<T>(AtomLayoutK{}, make_coord(r, (kk % per_atom) * MmaK)));
      return make_gmma_desc<T, Major>(tile, stage + offset);
    } else {
      const auto tile = gmma_tile_layout<X, MmaK>(SmemLayout{});
      const uint32_t offset = uint32_t(gmma_offset_bytes<T>(SmemLayout{}, make_coord(r, kk * MmaK)));
      return make_gmma_desc<T, Major>(tile, stage + offset);
    }
  }
};

}  // namespace strata
