// Strata floor 3: the static choices of a Hopper (sm_90a) GEMM: the CTA tile, the pipeline depth,
// the warpgroups and their registers, the swizzled shared-memory layouts TMA writes and wgmma
// reads. Everything here is a type or a constant; the mainloop, the epilogue and the kernel only
// read it.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "../layout/layout.hpp"
#include "../layout/swizzle.hpp"
#include "sm80_config.hpp"  // RowMajor, ColumnMajor

namespace strata {

// Sm90GemmConfig: the static shape of a Hopper warp-specialized GEMM.
//   T: element type of A and B (half or bfloat16), accumulated in fp32
//   LayoutA, LayoutB: RowMajor / ColumnMajor of A (M×K) and B (K×N); both K-major (row-major A,
//     column-major B, the layout of LLM weights) for now
//   BM, BN, BK: the CTA tile; BM / 64 consumer warpgroups each compute 64 rows × BN
//   Stages: shared-memory stages of the TMA ring
template <class T, class LayoutA, class LayoutB, int BM_, int BN_, int BK_, int Stages_>
struct Sm90GemmConfig {
  using ElementA = T;
  using ElementB = T;
  using ElementAccumulator = float;
  using LayoutTagA = LayoutA;
  using LayoutTagB = LayoutB;
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr bool a_k_major = std::is_same_v<LayoutA, RowMajor>;
  static constexpr bool b_k_major = std::is_same_v<LayoutB, ColumnMajor>;

  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>,
                "Sm90GemmConfig: the element type must be half or bfloat16");
  static_assert(a_k_major && b_k_major,
                "Sm90GemmConfig: A must be row-major and B column-major (K-major operands); other "
                "majorness is not implemented yet");
  static_assert(BM == 64 || BM == 128, "Sm90GemmConfig: BM must be 64 or 128 (one or two consumer warpgroups)");
  static_assert(BN % 16 == 0 && BN >= 16 && BN <= 256, "Sm90GemmConfig: BN must be a multiple of 16 from 16 to 256");
  static_assert(BK * int(sizeof(T)) == 128,
                "Sm90GemmConfig: BK must span one 128-byte swizzle row (64 elements of 16 bits)");
  static_assert(Stages >= 2, "Sm90GemmConfig: the ring needs at least two stages");

  // One producer warpgroup (TMA) and BM / 64 consumer warpgroups (wgmma), 128 threads each.
  static constexpr int kConsumers = BM / 64;
  static constexpr int kThreads = 128 * (1 + kConsumers);
  // Registers per thread after setmaxnreg: the producer needs few, the consumers hold BN / 2
  // accumulators each; (40 + kConsumers × 232) × 128 stays within the SM's 64 K.
  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = kConsumers == 2 ? 232 : 240;
  static constexpr int kMmaK = 16;  // wgmma k for 16-bit inputs

  // A stage of A (BM, BK) and of B (BN, BK), K-major: rows of BK elements, 128 bytes, with the
  // 16-byte chunks of each row XORed with the row within 8 (TMA's and wgmma's 128-byte swizzle).
  using SmemLayoutA = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<Int<BM>, Int<BK>>, Stride<Int<BK>, _1>>{}));
  using SmemLayoutB = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<Int<BN>, Int<BK>>, Stride<Int<BK>, _1>>{}));
  // TMA boxes: a stage plus a batch mode of extent 1 (the global tensors are (rows, K, batches)).
  using TmaBoxA =
      decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<Int<BM>, Int<BK>, _1>, Stride<Int<BK>, _1, _0>>{}));
  using TmaBoxB =
      decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<Int<BN>, Int<BK>, _1>, Stride<Int<BK>, _1, _0>>{}));
  static constexpr int stage_bytes_a = BM * BK * int(sizeof(T));
  static constexpr int stage_bytes_b = BN * BK * int(sizeof(T));
  // wgmma's descriptor for a 128-byte-swizzled K-major tile: 8-row groups 1024 bytes apart.
  static constexpr uint32_t kSmemStrideBytes = 8 * 128;

  // TMA and the descriptors need 16-byte aligned rows: leading dimensions are multiples of 8.
  static constexpr int vector_a = 16 / int(sizeof(T));
  static constexpr int vector_b = 16 / int(sizeof(T));
};

}  // namespace strata
