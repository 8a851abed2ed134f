// Strata floor 3: the Hopper mainloop, one CTA's output tile as a warp-specialized pipeline:
//
//   producer (one thread of the producer warpgroup): for each K tile, wait for an empty stage,
//     expect its bytes, TMA A (BM × BK) and B (BN × BK) into it (zeros past the matrix's edges)
//   consumers (warpgroup w of BM / 64): for each K tile, wait for the stage to be full, issue the
//     BK / 16 wgmma of rows [64w, 64w + 64) × BN from shared memory (SS), commit, and once the
//     batch before it has finished (wait_group 1) release that batch's stage to the producer
//
// so one wgmma batch is always in flight while the next stage's TMA lands. The stages and their
// barriers are the typed SharedStorage; the kernel (kernel/sm90_gemm.hpp) runs both sides.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "../atom/arch/sm90.hpp"
#include "../atom/arch/sm90_tma.hpp"
#include "../atom/arch/sm90_wgmma.hpp"
#include "../atom/gmma_desc_sm90.hpp"
#include "sm90_config.hpp"
#include "sm90_pipeline.hpp"

namespace strata {

template <class Config>
struct Sm90Mainloop {
  using T = typename Config::ElementA;
  static constexpr int BM = Config::BM, BN = Config::BN, BK = Config::BK, Stages = Config::Stages;
  using Pipeline = Sm90Pipeline<Stages>;
  using State = typename Pipeline::State;
  using Accumulators = float[BN / 2];  // one consumer thread's part of its 64 × BN rows
  using Mma = arch::Wgmma_m64nNk16_f32_16bit_SS<BN, T>;  // K-major A and B from shared memory

  // Stages 1024-byte aligned: the 128-byte swizzle pattern repeats every 8 rows of 128 bytes, and
  // TMA and wgmma agree on it only from such an address.
  struct SharedStorage {
    alignas(1024) T a[Stages][BM * BK];
    alignas(1024) T b[Stages][BN * BK];
    Sm90PipelineStorage<Stages> pipeline;
  };

  static constexpr uint32_t kStageBytes = Config::stage_bytes_a + Config::stage_bytes_b;
  // Every consumer warp releases each stage it read (a warp's wgmma are its own to wait for).
  static constexpr uint32_t kConsumerArrivals = 4 * Config::kConsumers;

  // Producer: the K tiles [0, k_tiles) of the output tile at rows m0, columns n0 of `batch`.
  STRATA_DEVICE static void load(Pipeline const& pipe, State& state, SharedStorage& smem, CUtensorMap const* tma_a,
                                 CUtensorMap const* tma_b, int m0, int n0, int batch, int k_tiles) {
    for (int kt = 0; kt < k_tiles; ++kt) {
      pipe.producer_acquire(state);
      pipe.producer_expect(state, kStageBytes);
      // TMA coordinates in the boxes' dimension order: K (contiguous), rows, batch.
      arch::tma_load(tma_a, pipe.full_barrier(state), smem.a[state.index], kt * BK, m0, batch);
      arch::tma_load(tma_b, pipe.full_barrier(state), smem.b[state.index], kt * BK, n0, batch);
      state.advance();
    }
  }

  // Consumer warpgroup `wg`: acc = A(rows 64 wg .. + 64 of the tile) · B(the tile's BN columns)
  // over the K tiles [0, k_tiles); zero when k_tiles == 0.
  STRATA_DEVICE static void mma(Pipeline const& pipe, State& state, SharedStorage& smem, int wg, int k_tiles,
                                Accumulators& acc) {
    const bool signals = threadIdx.x % 32 == 0;
    STRATA_UNROLL
    for (int i = 0; i < BN / 2; ++i) acc[i] = 0.f;
    State previous = state;
    for (int kt = 0; kt < k_tiles; ++kt) {
      pipe.consumer_wait(state);
      const uint32_t a_base = smem_address(smem.a[state.index]) + uint32_t(wg * 64 * BK * int(sizeof(T)));
      const GmmaDescriptor desc_a = make_gmma_descriptor(a_base, 16, Config::kSmemStrideBytes, GmmaSwizzle::sw128);
      const GmmaDescriptor desc_b =
          make_gmma_descriptor(smem_address(smem.b[state.index]), 16, Config::kSmemStrideBytes, GmmaSwizzle::sw128);
      arch::wgmma_fence();
      // k-block kk starts kk × 16 elements (32 bytes) into each swizzled row: the hardware applies
      // the swizzle to the full address, so stepping the start address is how K advances.
      STRATA_UNROLL
      for (int kk = 0; kk < BK / Config::kMmaK; ++kk) {
        constexpr int step = Config::kMmaK * int(sizeof(T));
        Mma::fma(acc, (desc_a + kk * step).desc, (desc_b + kk * step).desc, arch::WgmmaScaleD::accumulate);
      }
      arch::wgmma_commit_group();
      arch::wgmma_wait_group<1>();  // the batch before this one is done: its stage is free
      if (kt > 0 && signals) pipe.consumer_release(previous);
      previous = state;
      state.advance();
    }
    arch::wgmma_wait_group<0>();
    if (k_tiles > 0 && signals) pipe.consumer_release(previous);
    STRATA_UNROLL
    for (int i = 0; i < BN / 2; ++i) arch::wgmma_fence_operand(acc[i]);
  }

 private:
  STRATA_DEVICE static uint32_t smem_address(void const* p) { return static_cast<uint32_t>(__cvta_generic_to_shared(p)); }
};

}  // namespace strata
