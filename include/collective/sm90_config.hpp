// Strata floor 3: the static choices of a Hopper (sm_90a) GEMM: the CTA tile, the pipeline depth,
// the schedule of the consumer warpgroups and their registers, the cluster, and the operands' shared
// memory (collective/sm90_operand.hpp). Everything here is a type or a constant; the mainloop,
// the epilogue and the kernel only read it.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "../atom/arch/sm90_wgmma.hpp"
#include "sm80_config.hpp"  // RowMajor, ColumnMajor
#include "sm90_operand.hpp"

namespace strata {

// How the two consumer warpgroups share the work of a CTA:
//   cooperative: both compute one BM × BN tile, BM / 2 rows each (one wave of tiles per CTA pass)
//   pingpong:    each takes its own BM × BN tile, alternately: one runs its mainloop while the
//                other runs its epilogue, their turns at the tensor cores ordered by a barrier
enum class Sm90Schedule { cooperative, pingpong };

// How a Hopper kernel's output leaves it. tma: stmatrix into swizzled staging, asynchronous TMA
// stores (D's pointer, ldd and batch stride 16-byte aligned, refused otherwise). plain: each
// thread stores its elements (any element-aligned D). plain_transposed: the transpose, for a
// caller that swapped the operands to compute D^T = B^T · A^T: element (i, j) of the kernel's
// m × n result goes to D[j · ldd + i] (16-bit D with aligned rows through shared memory), C is
// read from the same place, and the functor sees (j, i), the caller's coordinates.
enum class Sm90Store { tma, plain, plain_transposed };

// Sm90GemmConfig: the static shape of a Hopper warp-specialized GEMM.
//   T: element type of A and B: half or bfloat16 (any majorness), or float (tf32 products,
//     K-major only: row-major A, column-major B); accumulated in fp32
//   LayoutA, LayoutB: RowMajor / ColumnMajor of A (M×K) and B (K×N)
//   BM, BN, BK: the CTA tile; BK spans 128 or 256 bytes (64 or 128 16-bit elements, 32 or 64
//     floats): one or two swizzle rows a stage
//   Stages: shared-memory stages of the TMA ring
//   Schedule: cooperative or pingpong (above)
//   ClusterM, ClusterN: CTAs of a cluster along M and N; CTAs along M share (multicast) B's
//     stages, CTAs along N share A's
//   EpilogueBuffers: shared-memory staging buffers per consumer warpgroup for the TMA-store
//     epilogue (8 KB each): 2 let a sub-tile be staged while the last one's store reads; 1 frees
//     16 KB for another stage where that pays more (ping-pong 64 × 256: 5 stages instead of 4)
//   Pairs: split-K in K pairs where the plan allows (kernel/sm90_pair_sums.hpp): the two CTAs of
//     a cluster launched two at a time take the two K halves of one unit, and the second hands
//     its accumulators to the first through distributed shared memory instead of the workspace.
//     Only without a multicast cluster; `WithPairs` names the same configuration with them.
//   SplitTail: cooperative only; 0, or the last K tiles of a unit computed one column half after
//     the other (wgmma N = BN / 2), so the epilogue stages the left half's output while the tensor
//     cores finish the right half (collective/sm90_mainloop.hpp). Those stages stay held until the
//     right half is done: at most Stages - 1. `WithSplitTail<T>` names it.
template <class T, class LayoutA, class LayoutB, int BM_, int BN_, int BK_, int Stages_,
          Sm90Schedule Schedule_ = Sm90Schedule::cooperative, int ClusterM_ = 1, int ClusterN_ = 1,
          int EpilogueBuffers_ = 2, bool Pairs_ = false, int SplitTail_ = 0>
struct Sm90GemmConfig {
  using ElementA = T;
  using ElementB = T;
  using ElementAccumulator = float;
  using LayoutTagA = LayoutA;
  using LayoutTagB = LayoutB;
  static constexpr int BM = BM_, BN = BN_, BK = BK_, Stages = Stages_;
  static constexpr Sm90Schedule schedule = Schedule_;
  static constexpr int ClusterM = ClusterM_, ClusterN = ClusterN_, kClusterSize = ClusterM_ * ClusterN_;
  static constexpr int kEpilogueBuffers = EpilogueBuffers_;
  static constexpr bool kPairs = Pairs_;
  static constexpr int kSplitTail = SplitTail_;
  using WithPairs = Sm90GemmConfig<T, LayoutA, LayoutB, BM_, BN_, BK_, Stages_, Schedule_, ClusterM_, ClusterN_,
                                   EpilogueBuffers_, true, SplitTail_>;
  template <int Tail>
  using WithSplitTail = Sm90GemmConfig<T, LayoutA, LayoutB, BM_, BN_, BK_, Stages_, Schedule_, ClusterM_, ClusterN_,
                                       EpilogueBuffers_, Pairs_, Tail>;
  static constexpr bool tf32 = std::is_same_v<T, float>;
  static constexpr GmmaMajor major_a = std::is_same_v<LayoutA, RowMajor> ? GmmaMajor::K : GmmaMajor::MN;
  static constexpr GmmaMajor major_b = std::is_same_v<LayoutB, ColumnMajor> ? GmmaMajor::K : GmmaMajor::MN;

  static_assert(std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, float>,
                "Sm90GemmConfig: the element type must be half, bfloat16 or float (tf32)");
  static_assert((std::is_same_v<LayoutA, RowMajor> || std::is_same_v<LayoutA, ColumnMajor>) &&
                    (std::is_same_v<LayoutB, RowMajor> || std::is_same_v<LayoutB, ColumnMajor>),
                "Sm90GemmConfig: LayoutA and LayoutB are RowMajor or ColumnMajor");
  static_assert(!tf32 || (major_a == GmmaMajor::K && major_b == GmmaMajor::K),
                "Sm90GemmConfig: tf32 needs K-major operands (row-major A, column-major B): wgmma reads "
                "32-bit operands only K-major");
  static_assert(BK * int(sizeof(T)) == 128 || BK * int(sizeof(T)) == 256,
                "Sm90GemmConfig: BK must span one or two 128-byte swizzle rows (64 or 128 elements of 16 bits, 32 or "
                "64 floats)");
  static_assert(major_b == GmmaMajor::K ? (BN % 8 == 0 && BN >= 8 && BN <= 256)
                                        : (BN % 64 == 0 && BN >= 64 && BN <= 256),
                "Sm90GemmConfig: BN must be 64, 128, 192 or 256 for a row-major B, a multiple of 8 from 8 to 256 for a "
                "column-major (K-major) B");
  static_assert(Stages >= 2, "Sm90GemmConfig: the ring needs at least two stages");
  static_assert(EpilogueBuffers_ == 1 || EpilogueBuffers_ == 2,
                "Sm90GemmConfig: the epilogue stages through one or two buffers per consumer warpgroup");
  static_assert(kClusterSize == 1 || kClusterSize == 2 || kClusterSize == 4,
                "Sm90GemmConfig: a cluster holds 1, 2 or 4 CTAs");
  static_assert(SplitTail_ >= 0 && SplitTail_ < Stages_,
                "Sm90GemmConfig: SplitTail holds that many stages until a unit's right half is done: 0 to Stages - 1");
  static_assert(SplitTail_ == 0 || (Schedule_ == Sm90Schedule::cooperative && BN_ % 16 == 0 &&
                                    (std::is_same_v<LayoutB, ColumnMajor> || BN_ % 128 == 0)),
                "Sm90GemmConfig: SplitTail needs the cooperative schedule and a BN whose half is a wgmma N (a multiple "
                "of 8; of 64 for a row-major B)");
  static_assert(!Pairs_ || kClusterSize == 1,
                "Sm90GemmConfig: K pairs launch their own clusters of two CTAs, so the configuration must not "
                "have a multicast cluster (ClusterM = ClusterN = 1)");

  // One producer warpgroup (TMA) and two consumer warpgroups (wgmma), 128 threads each; a
  // cooperative tile of 64 rows has one consumer.
  static constexpr bool pingpong = Schedule_ == Sm90Schedule::pingpong;
  static constexpr int kConsumers = (!pingpong && BM == 64) ? 1 : 2;
  static constexpr int kThreads = 128 * (1 + kConsumers);
  // Rows of a tile one consumer warpgroup computes, in m64 wgmma blocks.
  static constexpr int kWarpgroupRows = pingpong ? BM : BM / kConsumers;
  static constexpr int kMmaM = kWarpgroupRows / 64;
  static_assert(pingpong ? (BM == 64 || BM == 128) : (BM == 64 || BM == 128 || BM == 256),
                "Sm90GemmConfig: BM must be 64 or 128 (ping-pong), 64, 128 or 256 (cooperative)");
  static_assert(kMmaM * BN / 2 <= 128,
                "Sm90GemmConfig: a consumer thread holds at most 128 accumulators (its rows × BN / 128)");
  // Registers per thread after setmaxnreg: the producer needs few, the consumers hold the
  // accumulators; (40 + kConsumers × 232) × 128 stays within the SM's 64 K.
  static constexpr int kProducerRegisters = 40;
  static constexpr int kConsumerRegisters = kConsumers == 2 ? 232 : 240;
  static constexpr int kMmaK = tf32 ? 8 : 16;  // wgmma k: 32 bytes of the element

  // The operands' stages: A shared by the ClusterN CTAs of a cluster row, B by the ClusterM of a
  // cluster column.
  using OperandA = Sm90Operand<T, major_a, BM, BK, ClusterN>;
  using OperandB = Sm90Operand<T, major_b, BN, BK, ClusterM>;
  static constexpr int stage_bytes_a = OperandA::stage_bytes;
  static constexpr int stage_bytes_b = OperandB::stage_bytes;

  // The wgmma of one consumer m64 block: A and B from shared memory, f32 accumulators.
  using Mma = std::conditional_t<tf32, arch::Wgmma_m64nNk8_f32_tf32_tf32_SS<BN>,
                                 arch::Wgmma_m64nNk16_f32_16bit_SS<BN, std::conditional_t<tf32, __half, T>,
                                                                   major_a, major_b>>;
  // The same over BN / 2 columns: a split tail's halves (named only; a BN of 8 names N 8 instead).
  static constexpr int kHalfN = BN >= 16 ? BN / 2 : BN;
  using MmaHalf = std::conditional_t<tf32, arch::Wgmma_m64nNk8_f32_tf32_tf32_SS<kHalfN>,
                                     arch::Wgmma_m64nNk16_f32_16bit_SS<kHalfN, std::conditional_t<tf32, __half, T>,
                                                                       major_a, major_b>>;

  // TMA needs 16-byte aligned rows: leading dimensions are multiples of this many elements.
  static constexpr int vector_a = 16 / int(sizeof(T));
  static constexpr int vector_b = 16 / int(sizeof(T));
};

}  // namespace strata
