// Strata floor 3: the static choices of an Ampere (sm_80) GEMM: tile, warps, stages, the MMA atom
// for the element types, the shared-memory layouts (swizzled so ldmatrix is free of bank
// conflicts) and the copies that fill and drain them. Everything here is a type; the mainloop
// (sm80_mainloop.hpp) and the epilogue (sm80_epilogue.hpp) only read it.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "../atom/copy_sm80.hpp"
#include "../atom/mma_sm80.hpp"
#include "../atom/tiled_copy.hpp"
#include "../atom/tiled_mma.hpp"
#include "../layout/layout.hpp"
#include "../layout/swizzle.hpp"
#include "../layout/tensor.hpp"
#include "../layout/tensor_algorithm.hpp"

namespace strata {

// Majorness of a matrix in memory: RowMajor rows are contiguous, ColumnMajor columns are.
struct RowMajor {};
struct ColumnMajor {};

namespace detail {

// The mma.sync atom for (A, B) element types, accumulating in the type the ISA offers.
template <class TA, class TB>
struct Sm80MmaFor {
  static_assert(sizeof(TA) == 0,
                "Sm80 GEMM: supported element types are half, bfloat16, float (tf32) and int8_t, "
                "with A and B of the same type");
};
template <>
struct Sm80MmaFor<__half, __half> { using type = SM80_16x8x16_F32F16F16F32_TN; };
template <>
struct Sm80MmaFor<__nv_bfloat16, __nv_bfloat16> { using type = SM80_16x8x16_F32BF16BF16F32_TN; };
template <>
struct Sm80MmaFor<float, float> { using type = SM80_16x8x8_F32TF32TF32F32_TN; };
template <>
struct Sm80MmaFor<int8_t, int8_t> { using type = SM80_16x8x32_S32S8S8S32_TN; };

// Shared-memory layout of one operand tile (Rows, BK) per stage, Rows = BM or BN:
//  - K-major (each row's K contiguous): 8-row atoms of BK elements, 16-byte chunks XOR-swizzled
//    across the rows (64- or 128-byte rows), so the 8 row addresses of one ldmatrix phase fall on
//    8 different 16-byte bank groups;
//  - MN-major (each column's rows contiguous): 8-column atoms of 64 contiguous rows... (128 bytes),
//    swizzled the same way.
template <class T, bool KMajor, int Rows, int BK, int Stages>
STRATA_HD auto sm80_smem_layout() {
  constexpr int vec_log2 = sizeof(T) == 1 ? 4 : (sizeof(T) == 2 ? 3 : 2);  // log2(elements per 16 B)
  constexpr int row_bytes = BK * int(sizeof(T));
  if constexpr (KMajor) {
    static_assert(row_bytes % 64 == 0, "Sm80 GEMM: BK * sizeof(element) must be a multiple of 64 bytes");
    constexpr int atom_cols = row_bytes % 128 == 0 ? 128 / int(sizeof(T)) : 64 / int(sizeof(T));
    constexpr int swizzle_bits = row_bytes % 128 == 0 ? 3 : 2;
    auto atom = composition(Swizzle<swizzle_bits, vec_log2, 3>{},
                            Layout<Shape<_8, Int<atom_cols>>, Stride<Int<atom_cols>, _1>>{});
    return tile_to_shape(atom, make_shape(Int<Rows>{}, Int<BK>{}, Int<Stages>{}));
  } else {
    constexpr int atom_rows = 128 / int(sizeof(T));
    static_assert(Rows % atom_rows == 0, "Sm80 GEMM: an MN-major tile needs BM (BN) a multiple of 128 bytes");
    auto atom = composition(Swizzle<3, vec_log2, 3>{},
                            Layout<Shape<Int<atom_rows>, _8>, Stride<_1, Int<atom_rows>>>{});
    return tile_to_shape(atom, make_shape(Int<Rows>{}, Int<BK>{}, Int<Stages>{}));
  }
}

// Thread arrangement of the global -> shared copy of one (Rows, BK) tile in 16-byte chunks: the
// chunks along the contiguous dimension first, so a warp reads whole 128-byte lines.
template <class T, bool KMajor, int Rows, int BK, int Threads>
STRATA_HD auto sm80_g2s_copy() {
  constexpr int vec = 16 / int(sizeof(T));
  using Atom = CopyAtom<arch::UniversalCopy<16>, T>;  // addresses only: the mainloop issues cp.async
  if constexpr (KMajor) {
    constexpr int chunks = BK / vec;  // per row
    static_assert(Threads % chunks == 0, "Sm80 GEMM: threads must tile the K chunks of a row");
    return make_tiled_copy(Atom{}, Layout<Shape<Int<Threads / chunks>, Int<chunks>>, Stride<Int<chunks>, _1>>{},
                           Layout<Shape<_1, Int<vec>>>{});
  } else {
    constexpr int chunks = (Rows / vec) < Threads ? Rows / vec : Threads;  // per column
    static_assert(Threads % chunks == 0, "Sm80 GEMM: threads must tile the chunks of a column");
    return make_tiled_copy(Atom{}, Layout<Shape<Int<chunks>, Int<Threads / chunks>>, Stride<_1, Int<chunks>>>{},
                           Layout<Shape<Int<vec>, _1>>{});
  }
}

// The shared -> register copy of an operand: ldmatrix (.trans for MN-major 16-bit data) where the
// instruction fits the element type, else one element at a time.
template <class T, bool KMajor>
struct Sm80S2RAtom {
  using type = std::conditional_t<KMajor, CopyAtom<arch::Ldsm_x4, T>,
                                  std::conditional_t<sizeof(T) == 2, CopyAtom<arch::Ldsm_x4_trans, T>,
                                                     CopyAtom<arch::UniversalCopy<sizeof(T)>, T>>>;
};

}  // namespace detail

// Sm80GemmConfig: the static shape of an Ampere GEMM kernel.
//   TA, TB: element types of A and B (half, bfloat16, float as tf32, int8_t)
//   LayoutA, LayoutB: RowMajor / ColumnMajor of A (M×K) and B (K×N)
//   BM, BN, BK: the CTA tile; WarpsM × WarpsN warps, each computing (BM/WarpsM) × (BN/WarpsN)
//   Stages: shared-memory buffers in flight
//   WarpsK: sliced K. WarpsK groups of WarpsM × WarpsN warps share each K tile, group g taking
//     the MMA k-blocks g, g + WarpsK, ... of it, so a tile with few rows of warps still has enough
//     warps to keep the tensor cores busy without shrinking the warp tile (whose size sets the
//     shared-memory reads per FLOP). The groups' accumulators are added in shared memory after
//     the mainloop, and group 0 hands the sum on.
//   Alignment: the bytes every pointer, leading dimension and batch stride of A, B, C and D is a
//     multiple of. 16: operands move in whole 16-byte chunks (the fast path). Less (down to the
//     element size): each chunk is copied with the widest instruction its address allows, found at
//     run time (arch::CopyChunkAnyAlignment), and D is stored in vectors only where aligned.
template <class TA, class TB, class LayoutA, class LayoutB, int BM_, int BN_, int BK_, int WarpsM, int WarpsN,
          int Stages_, int WarpsK = 1, int Alignment = 16>
struct Sm80GemmConfig {
  using ElementA = TA;
  using ElementB = TB;
  using LayoutTagA = LayoutA;
  using LayoutTagB = LayoutB;
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr int kWarpsK = WarpsK;
  static constexpr int alignment = Alignment;
  static_assert(Alignment == 1 || Alignment == 2 || Alignment == 4 || Alignment == 8 || Alignment == 16,
                "Sm80GemmConfig: Alignment must be 1, 2, 4, 8 or 16 bytes");
  static_assert(Alignment >= int(sizeof(TA)) && Alignment >= int(sizeof(TB)),
                "Sm80GemmConfig: Alignment cannot be below the element size of A and B");
  // The threads of one K slice (one group of WarpsM × WarpsN warps), and of the CTA.
  static constexpr int kSliceThreads = 32 * WarpsM * WarpsN;
  static constexpr int kThreads = kSliceThreads * WarpsK;
  static_assert(WarpsK >= 1, "Sm80GemmConfig: WarpsK (warp groups sharing each K tile) must be at least 1");
  // Whether `thread` holds the tile's sum after the mainloop: every thread, or with sliced K the
  // first K slice's (Sm80Mainloop::add_slices); the others only help with stores.
  STRATA_HD static bool holds_sum(int thread) { return WarpsK == 1 || thread < kSliceThreads; }
  // A is (M, K): K-major when row-major. B is used as (N, K): K-major when column-major.
  static constexpr bool a_k_major = std::is_same_v<LayoutA, RowMajor>;
  static constexpr bool b_k_major = std::is_same_v<LayoutB, ColumnMajor>;

  static_assert(sizeof(TA) != 1 || (a_k_major && b_k_major),
                "Sm80GemmConfig: int8 GEMMs need K-major operands (row-major A, column-major B), as the "
                "8-bit tensor-core fragments and ldmatrix do");

  using MmaAtomType = typename detail::Sm80MmaFor<TA, TB>::type;
  using ElementAccumulator = typename MmaAtomType::ElementC;
  static constexpr int atom_m = MmaAtomType::M, atom_n = MmaAtomType::N, atom_k = MmaAtomType::K;
  static_assert(BM % (WarpsM * atom_m) == 0 && BN % (WarpsN * 2 * atom_n) == 0 && BK % (WarpsK * atom_k) == 0,
                "Sm80GemmConfig: the tile must be a multiple of warps x atoms (and of 2 atoms in N per warp)");
  // MMA k-blocks of one K tile that each warp multiplies.
  static constexpr int k_blocks = BK / (WarpsK * atom_k);
  static_assert(k_blocks % 2 == 0,
                "Sm80GemmConfig: BK must hold an even number of MMA k-blocks per warp (the register "
                "fragments alternate between two k-blocks); with WarpsK > 1, BK / (WarpsK * atom K) is "
                "what must be even");

  // Warps side by side; in N each warp takes pairs of adjacent atoms (16 columns), so one
  // ldmatrix.x4 feeds two MMAs: n = atom column + 16 * warp + 8 * (pair member) + ...
  using PermN = Layout<Shape<Int<atom_n>, Int<WarpsN>, _2>, Stride<_1, Int<2 * atom_n>, Int<atom_n>>>;
  // K slices: warp group g holds k-columns [16g, 16g + 16) of every WarpsK * 16 (for a 16-deep atom).
  using TiledMmaType = decltype(make_tiled_mma(MmaAtomType{}, Layout<Shape<Int<WarpsM>, Int<WarpsN>, Int<WarpsK>>>{},
                                               make_tile(Int<WarpsM * atom_m>{}, PermN{}, Int<WarpsK * atom_k>{})));

  using SmemLayoutA = decltype(detail::sm80_smem_layout<TA, a_k_major, BM, BK, Stages>());
  using SmemLayoutB = decltype(detail::sm80_smem_layout<TB, b_k_major, BN, BK, Stages>());
  using G2SCopyA = decltype(detail::sm80_g2s_copy<TA, a_k_major, BM, BK, kThreads>());
  using G2SCopyB = decltype(detail::sm80_g2s_copy<TB, b_k_major, BN, BK, kThreads>());
  using S2RAtomA = typename detail::Sm80S2RAtom<TA, a_k_major>::type;
  using S2RAtomB = typename detail::Sm80S2RAtom<TB, b_k_major>::type;

  static constexpr int smem_bytes_a = BM * BK * Stages * int(sizeof(TA));
  static constexpr int smem_bytes_b = BN * BK * Stages * int(sizeof(TB));
  // Sliced K: the accumulators of groups 1.. WarpsK-1, in shared memory after the mainloop.
  static constexpr int smem_bytes_slices = (WarpsK - 1) * BM * BN * int(sizeof(ElementAccumulator));
  static constexpr int smem_bytes_mainloop =
      smem_bytes_a + smem_bytes_b > smem_bytes_slices ? smem_bytes_a + smem_bytes_b : smem_bytes_slices;
  // Global -> shared copy of one 16-byte chunk: a byte count zero-fills past the matrix's edges.
  template <class T>
  using G2SAtom = std::conditional_t<Alignment == 16, CopyAtom<arch::CpAsyncZfillBytes16_cg, T>,
                                     CopyAtom<arch::CopyChunkAnyAlignment<int(sizeof(T))>, T>>;
  using G2SAtomA = G2SAtom<TA>;
  using G2SAtomB = G2SAtom<TB>;
  // Elements per aligned unit of A and B: leading dimensions and batch strides must be multiples
  // of it (8 halves for the 16-byte rule).
  static constexpr int vector_a = Alignment / int(sizeof(TA));
  static constexpr int vector_b = Alignment / int(sizeof(TB));
  // This configuration under another alignment rule (Sm80AutoGemm's fallback for unaligned data).
  template <int OtherAlignment>
  using WithAlignment = Sm80GemmConfig<TA, TB, LayoutA, LayoutB, BM_, BN_, BK_, WarpsM, WarpsN, Stages_, WarpsK,
                                       OtherAlignment>;
};

}  // namespace strata
