// Strata floor 3: the Hopper mainloop, one output tile as a warp-specialized pipeline:
//
//   producer (one thread of the producer warpgroup): for each K tile, wait until the stage is empty
//     in every CTA its multicasts reach, expect the stage's bytes, TMA its share of A's and B's
//     boxes into it (multicast to the cluster CTAs sharing them; zeros past the matrix's edges)
//   consumers (one warpgroup, kWarpgroupRows rows of the tile): for each K tile, wait for the stage
//     to be full, issue its wgmma from shared memory (SS), commit, and once the batch before has
//     finished (wait_group 1) release that batch's stage to every CTA that wrote into it
//
// so one wgmma batch is always in flight while the next stages' TMA lands. With a split tail
// (Config::kSplitTail = T > 0) the last T K tiles go as two batches, the left BN / 2 columns of all
// T, then the right: mma returns once the left half is done, the right still in flight and its
// stages held, and finish_tail (before the right half's accumulators are read) waits for it and
// releases them. The stages and their barriers are the typed SharedStorage; the kernel
// (kernel/sm90_gemm.hpp) runs both sides.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <type_traits>

#include "../atom/arch/sm90.hpp"
#include "../atom/arch/sm90_tma.hpp"
#include "../atom/arch/sm90_wgmma.hpp"
#include "../atom/gmma_desc_sm90.hpp"
#include "sm90_config.hpp"
#include "sm90_pipeline.hpp"

// A study tool's per-K-tile timeline hook (bench/tools/sm90_stage_trace.cu defines it; a no-op
// otherwise): events 0 / 1 before and after the producer acquires K tile kt's stage, 2 / 3 before
// and after a consumer warpgroup finds it full, 4 / 5 after it waited for the batch before and
// after it released that batch's stage.
#ifndef STRATA_SM90_STAGE_TRACE
#define STRATA_SM90_STAGE_TRACE(event, kt) ((void)0)
#endif

namespace strata {

// The L2 hints of the producer's A and B loads (kernel/sm90_l2_hints.hpp decides them); each load
// makes its policy (arch::l2_policy) as it is issued. A split-tail configuration ignores them: with
// hinted loads in its producer, ptxas serialized its consumers' wgmma (C7511, the ptxas check).
struct Sm90L2HintPair {
  arch::L2Hint a = arch::L2Hint::none, b = arch::L2Hint::none;
  friend bool operator==(Sm90L2HintPair const&, Sm90L2HintPair const&) = default;
};

// Where this CTA sits in its cluster and whom it shares operands with (ranks along M fastest).
struct Sm90ClusterPosition {
  int m = 0, n = 0;         // this CTA's coordinates in the cluster
  uint16_t mask_a = 1;      // CTAs receiving this CTA's A boxes (one cluster row: same m)
  uint16_t mask_b = 1;      // CTAs receiving this CTA's B boxes (one cluster column: same n)
  uint32_t writers = 1;     // CTAs writing into this CTA's stages (mask_a | mask_b)

  template <int ClusterM, int ClusterN>
  STRATA_DEVICE static Sm90ClusterPosition make(uint32_t rank) {
    Sm90ClusterPosition p;
    p.m = int(rank) % ClusterM;
    p.n = int(rank) / ClusterM;
    uint32_t a = 0, b = 0;
    for (int j = 0; j < ClusterN; ++j) a |= 1u << (p.m + ClusterM * j);
    for (int i = 0; i < ClusterM; ++i) b |= 1u << (i + ClusterM * p.n);
    p.mask_a = uint16_t(a);
    p.mask_b = uint16_t(b);
    p.writers = a | b;
    return p;
  }
};

template <class Config>
struct Sm90Mainloop {
  using T = typename Config::ElementA;
  using OperandA = typename Config::OperandA;
  using OperandB = typename Config::OperandB;
  static constexpr int BM = Config::BM, BN = Config::BN, BK = Config::BK, Stages = Config::Stages;
  static constexpr int kMmaM = Config::kMmaM;
  using Pipeline = Sm90Pipeline<Stages>;
  using State = typename Pipeline::State;
  using Accumulators = float[kMmaM][BN / 2];  // one consumer thread's part of its kMmaM × 64 rows × BN
  using Mma = typename Config::Mma;
  static constexpr int kSplitTail = Config::kSplitTail;

  // The stages a split tail still holds when mma returns (count 0: none; finish_tail releases them).
  struct Tail {
    State first;
    int count = 0;
  };

  // Stages 1024-byte aligned: the 128-byte swizzle pattern repeats every 8 rows of 128 bytes, and
  // TMA and wgmma agree on it only from such an address.
  struct SharedStorage {
    alignas(1024) T a[Stages][BM * BK];
    alignas(1024) T b[Stages][BN * BK];
    Sm90PipelineStorage<Stages> pipeline;
  };

  // Every byte of a stage lands in every CTA, from its own TMA or its peers' multicasts.
  static constexpr uint32_t kStageBytes = Config::stage_bytes_a + Config::stage_bytes_b;
  // Releases a stage's empty barrier waits for: every warp of the warpgroups that read a stage
  // (both when cooperative, one when ping-pong), in each CTA that reads what this CTA's producer
  // writes (a warp's wgmma are its own to wait for).
  static constexpr int kReadersPerStage = Config::pingpong ? 1 : Config::kConsumers;
  static constexpr uint32_t consumer_arrivals(int writers) { return uint32_t(4 * kReadersPerStage * writers); }
  static constexpr int kWriters = Config::ClusterM + Config::ClusterN - 1;

  // Which operands a load issues (bit mask).
  static constexpr unsigned kLoadA = 1, kLoadB = 2, kLoadBoth = kLoadA | kLoadB;

  // Producer: the K tiles [k_begin, k_end) of the output tile at rows m0, columns n0, from batch
  // batch_a of A and batch_b of B; of the operands in `parts`. A stage is taken (acquired, all its
  // bytes expected) when `take`; a load with take == false fills in the other operands of stages
  // an earlier load of the same K tiles took (a stage is full once both operands have landed).
  STRATA_DEVICE static void load(Pipeline const& pipe, State& state, SharedStorage& smem, CUtensorMap const* tma_a,
                                 CUtensorMap const* tma_b, Sm90ClusterPosition const& at, int m0, int n0, int batch_a,
                                 int batch_b, int k_begin, int k_end, Sm90L2HintPair const& l2, unsigned parts = kLoadBoth,
                                 bool take = true) {
    for (int kt = k_begin; kt < k_end; ++kt) {
      if (take) {
        STRATA_SM90_STAGE_TRACE(0, kt);
        pipe.producer_acquire(state);
        STRATA_SM90_STAGE_TRACE(1, kt);
        pipe.producer_expect(state, kStageBytes);
      }
      uint64_t* full = pipe.full_barrier(state);
      if (parts & kLoadA)
        load_boxes<OperandA, Config::ClusterN>(tma_a, full, smem.a[state.index], at.n, at.mask_a, m0, kt * BK, batch_a,
                                               l2.a);
      if (parts & kLoadB)
        load_boxes<OperandB, Config::ClusterM>(tma_b, full, smem.b[state.index], at.m, at.mask_b, n0, kt * BK, batch_b,
                                               l2.b);
      state.advance();
    }
  }

  // Consumer warpgroup with rows [row0, row0 + kWarpgroupRows) of the tile: acc = A · B over
  // `k_tiles` stages from `state` on; zero when k_tiles == 0. With a split tail, the right half of
  // acc (columns BN / 2 ..) is final only after finish_tail(the Tail returned).
  STRATA_DEVICE static Tail mma(Pipeline const& pipe, State& state, SharedStorage& smem, int row0, int k_tiles,
                                Accumulators& acc) {
    const bool signals = threadIdx.x % 32 == 0;
    STRATA_UNROLL
    for (int mi = 0; mi < kMmaM; ++mi) {
      STRATA_UNROLL
      for (int i = 0; i < BN / 2; ++i) acc[mi][i] = 0.f;
    }
    // A unit shorter than the tail runs whole: the split path's batches are of fixed length.
    const bool split = kSplitTail > 0 && k_tiles >= kSplitTail;
    const int whole = split ? k_tiles - kSplitTail : k_tiles;
    State previous = state;
    for (int kt = 0; kt < whole; ++kt) {
      STRATA_SM90_STAGE_TRACE(2, kt);
      pipe.consumer_wait(state);
      STRATA_SM90_STAGE_TRACE(3, kt);
      if constexpr (kSplitTail > 0) {
        // The stage's addresses after the fence: computed before it, as below, ptxas serialized
        // every wgmma of a split-tail kernel ("insufficient register resources").
        arch::wgmma_fence();
        issue<BN, 0>(smem, state, row0, acc);
      } else {
        const uint32_t a_stage = smem_address(smem.a[state.index]);
        const uint32_t b_stage = smem_address(smem.b[state.index]);
        arch::wgmma_fence();
        STRATA_UNROLL
        for (int kk = 0; kk < BK / Config::kMmaK; ++kk) {
          const GmmaDescriptor desc_b = OperandB::template descriptor<BN, Config::kMmaK>(b_stage, 0, kk);
          STRATA_UNROLL
          for (int mi = 0; mi < kMmaM; ++mi) {
            const GmmaDescriptor desc_a = OperandA::template descriptor<64, Config::kMmaK>(a_stage, row0 + 64 * mi, kk);
            Mma::fma(acc[mi], desc_a.desc, desc_b.desc, arch::WgmmaScaleD::accumulate);
          }
        }
      }
      arch::wgmma_commit_group();
      arch::wgmma_wait_group<1>();  // the batch before this one is done: its stage is free
      STRATA_SM90_STAGE_TRACE(4, kt);
      if (kt > 0) release(pipe, previous, signals);
      STRATA_SM90_STAGE_TRACE(5, kt);
      previous = state;
      state.advance();
    }
    if constexpr (kSplitTail > 0) {
      if (split) {
        // Every tail stage full first: a batch's wgmma must not straddle a wait's divergent loop
        // (ptxas would serialize all of the kernel's wgmma).
        State s = state;
        STRATA_UNROLL
        for (int j = 0; j < kSplitTail; ++j) {
          pipe.consumer_wait(s);
          s.advance();
        }
        // The last whole K tile's batch done before the halves start: with it in flight at the
        // wait below, beside batches over a half of its registers, ptxas serialized every wgmma
        // of the kernel (so did a wait between the halves). A drain of the tensor pipe per unit.
        arch::wgmma_wait_group<0>();
        if (whole > 0) release(pipe, previous, signals);
        s = state;
        arch::wgmma_fence();
        STRATA_UNROLL
        for (int j = 0; j < kSplitTail; ++j) {
          issue<BN / 2, 0>(smem, s, row0, acc);
          s.advance();
        }
        arch::wgmma_commit_group();
        s = state;
        STRATA_UNROLL
        for (int j = 0; j < kSplitTail; ++j) {
          issue<BN / 2, BN / 2>(smem, s, row0, acc);
          s.advance();
        }
        arch::wgmma_commit_group();
        arch::wgmma_wait_group<1>();  // the left half is done; the right half stays in flight
        fence_half<0>(acc);
        const Tail held{state, kSplitTail};
        state = s;
        return held;
      }
    }
    arch::wgmma_wait_group<0>();
    if (k_tiles > 0) release(pipe, previous, signals);
    fence_half<0>(acc);
    fence_half<1>(acc);
    return {};
  }

  // The right half of a split tail done, its stages released; a second call waits for nothing and
  // releases nothing. All threads of the warpgroup call it together.
  STRATA_DEVICE static void finish_tail(Pipeline const& pipe, Tail& tail, Accumulators& acc) {
    if constexpr (kSplitTail > 0) {
      arch::wgmma_wait_group<0>();
      fence_half<1>(acc);
      // Every lane with a cluster (one rank each), lane 0 alone without (see release()).
      if (Config::kClusterSize > 1 || threadIdx.x % 32 == 0) {
        State s = tail.first;
        for (int j = 0; j < tail.count; ++j) {
          release(pipe, s, true);
          s.advance();
        }
      }
      tail.count = 0;
    }
  }

 private:
  // A consumer warp's release of stage s: by its lane 0 (`signals`) alone without a cluster, as
  // the split tail's kernels need (a lane test in every call cost them the registers that keep
  // their wgmma pipelined, C7511); by all lanes, one rank each, with one.
  STRATA_DEVICE static void release(Pipeline const& pipe, State s, bool signals) {
    if constexpr (Config::kClusterSize == 1) {
      if (signals) pipe.consumer_release(s);
    } else {
      pipe.consumer_release_warp(s);
    }
  }

  STRATA_DEVICE static uint32_t smem_address(void const* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }

  // One K tile's wgmma (from stage s) over columns [Col0, Col0 + N) of the tile, N = BN or BN / 2,
  // into those columns' registers of acc, from Col0 / 2 on (the accumulator layout orders
  // registers by 8-column groups, so a column range is a contiguous run). The caller fences
  // before a batch.
  template <int N, int Col0>
  STRATA_DEVICE static void issue(SharedStorage& smem, State const& s, int row0, Accumulators& acc) {
    using PartMma = std::conditional_t<N == BN, Mma, typename Config::MmaHalf>;
    static_assert(PartMma::N == N && Col0 % 8 == 0 && Col0 + N <= BN,
                  "a K tile's wgmma cover BN columns, or BN / 2 from column 0 or BN / 2");
    const uint32_t a_stage = smem_address(smem.a[s.index]);
    const uint32_t b_stage = smem_address(smem.b[s.index]);
    STRATA_UNROLL
    for (int kk = 0; kk < BK / Config::kMmaK; ++kk) {
      const GmmaDescriptor desc_b = OperandB::template descriptor<N, Config::kMmaK>(b_stage, Col0, kk);
      STRATA_UNROLL
      for (int mi = 0; mi < kMmaM; ++mi) {
        const GmmaDescriptor desc_a = OperandA::template descriptor<64, Config::kMmaK>(a_stage, row0 + 64 * mi, kk);
        auto& d = *reinterpret_cast<typename PartMma::DRegisters*>(&acc[mi][Col0 / 2]);
        PartMma::fma(d, desc_a.desc, desc_b.desc, arch::WgmmaScaleD::accumulate);
      }
    }
  }

  // Orders the reads of acc's half `Half` after the wgmma wait that made it final.
  template <int Half>
  STRATA_DEVICE static void fence_half(Accumulators& acc) {
    STRATA_UNROLL
    for (int mi = 0; mi < kMmaM; ++mi) {
      STRATA_UNROLL
      for (int i = Half * (BN / 4); i < (Half + 1) * (BN / 4); ++i) arch::wgmma_fence_operand(acc[mi][i]);
    }
  }

  // This CTA's share (group rank `rank` of `Split`) of one operand's boxes of a stage.
  template <class Operand, int Split>
  STRATA_DEVICE static void load_boxes(CUtensorMap const* map, uint64_t* full, T* stage, int rank, uint16_t mask,
                                       int row0, int k0, int batch, arch::L2Hint hint) {
    if constexpr (Config::kSplitTail > 0) hint = arch::L2Hint::none;
    STRATA_UNROLL
    for (int j = 0; j < Operand::kBoxes; ++j) {
      if (j % Split != rank) continue;
      const auto c = Operand::box_coords(row0, k0, batch, j);
      T* dst = stage + j * Operand::kBoxElements;
      if constexpr (Split == 1) {
        if (hint != arch::L2Hint::none)
          arch::tma_load_hinted(map, full, arch::l2_policy(hint), dst, c.c0, c.c1, c.c2);
        else
          arch::tma_load(map, full, dst, c.c0, c.c1, c.c2);
      } else if (hint != arch::L2Hint::none) {
        arch::tma_load_multicast_hinted(map, full, mask, arch::l2_policy(hint), dst, c.c0, c.c1, c.c2);
      } else {
        arch::tma_load_multicast(map, full, mask, dst, c.c0, c.c1, c.c2);
      }
    }
  }
};

}  // namespace strata
