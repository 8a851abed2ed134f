// Strata floor 4: how the units of a split tile (kernel/sm90_work.hpp) add up in a Hopper GEMM.
// Each unit's consumer warpgroup leaves its accumulators in its slot of the workspace, in register
// order (value i of thread t at i × 128 + t: every store and load is coalesced), then counts itself
// on the tile's counter; the unit that counts last adds the other units' slots to its own
// registers and runs the epilogue; the others run none. Nothing waits for another CTA. A split-K
// tile's last split, which its lead makes end last, first looks whether the others have counted:
// then it adds their sums without leaving its own.
//
// Workspace: one counter per (tile, warpgroup part), zero at the start of a launch (the last unit
// of each tile sets it back to zero, so a prepared GEMM reruns without initializing), then the
// slots, one tile each (kParts parts of kPartFloats floats). With clusters the plan's tiles and
// units are the cluster's (its CTAs walk the same K ranges, which their multicast needs): each
// CTA of it has its own counters and slots, at index × kClusterSize + its rank.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../atom/arch/sm90.hpp"
#include "sm90_work.hpp"

namespace strata {

template <class Config>
struct Sm90PartialSums {
  static constexpr int BN = Config::BN, kMmaM = Config::kMmaM;
  // Parts of a tile held by different warpgroups: both halves when cooperative, one when ping-pong.
  static constexpr int kParts = Config::pingpong ? 1 : Config::kConsumers;
  static constexpr int kPartFloats = kMmaM * (BN / 2) * 128;
  static constexpr int kClusterSize = Config::kClusterSize;
  // Named barriers of the consumer warpgroups' hand-over (0: __syncthreads, 1-2: epilogue, 3-4: turns).
  static constexpr int kBarrier = 5;
  // Whether the unit expected last looks first (finish). Not with a split tail: ptxas then
  // serializes those kernels' wgmma for want of registers (test/kernel/ptxas/sm90_split_tail.cu).
  static constexpr bool kLookFirst = Config::kSplitTail == 0;

  // Bytes of the workspace for `plan` (0 when no tile is split): the counters (to 256 bytes),
  // then the slots, each as far as the first index past the last one (counter_index, slot_offset).
  static size_t workspace_bytes(Sm90WorkPlan const& plan) {
    if (plan.slots() == 0) return 0;
    return counter_bytes(plan) + slot_offset(plan.slots(), 0, 0) * sizeof(float);
  }
  static size_t counter_bytes(Sm90WorkPlan const& plan) {
    return (counter_index(plan.total_tiles, 0, 0) * sizeof(int) + 255) / 256 * 256;
  }

  // Where the CTA of cluster rank `rank` keeps its own of the cluster's counter or slot `index`.
  STRATA_HOST_DEVICE static constexpr size_t per_cta(int index, int rank) {
    return size_t(index) * kClusterSize + size_t(rank);
  }
  // The counter (in ints from the workspace's start) of part `part` of tile `tile` in that CTA.
  STRATA_HOST_DEVICE static constexpr size_t counter_index(int tile, int rank, int part) {
    return per_cta(tile, rank) * kParts + size_t(part);
  }
  // The first float of part `part` of slot `slot` in that CTA (from the slots' start).
  STRATA_HOST_DEVICE static constexpr size_t slot_offset(int slot, int rank, int part) {
    return (per_cta(slot, rank) * kParts + size_t(part)) * kPartFloats;
  }

  struct Workspace {
    int* counters = nullptr;
    float* slots = nullptr;
  };
  static Workspace carve(void* workspace, Sm90WorkPlan const& plan) {
    if (plan.slots() == 0) return {};
    auto* bytes = static_cast<char*>(workspace);
    return {reinterpret_cast<int*>(bytes), reinterpret_cast<float*>(bytes + counter_bytes(plan))};
  }

  // By the consumer warpgroup `wg` holding part `part` of unit w's tile, thread t of 128, in the
  // CTA of cluster rank `rank`: leaves acc in the unit's slot and counts it; true when this unit is
  // the tile's last, its acc then the whole sum. The unit the plan expects to end last (its split's
  // lead, Sm90WorkPlan::expected_last) looks first: when every other unit has counted, it adds their
  // sums without leaving its own.
  template <class Accumulators>
  STRATA_DEVICE static bool finish(Workspace const& ws, Sm90WorkPlan const& plan, Sm90WorkUnit const& w, int rank,
                                   int part, int wg, int t, Accumulators& acc) {
    int* counter = ws.counters + counter_index(w.tile, rank, part);
    const bool others_in = kLookFirst && plan.expected_last(w) &&
                           arch::named_barrier_or(kBarrier + wg, 128,
                                                  t == 0 && *static_cast<volatile int*>(counter) == w.segments - 1);
    if (!others_in) {
      float* mine = ws.slots + slot_offset(w.slot, rank, part);
      STRATA_UNROLL
      for (int mi = 0; mi < kMmaM; ++mi) {
        STRATA_UNROLL
        for (int i = 0; i < BN / 2; ++i) __stcg(mine + (mi * (BN / 2) + i) * 128 + t, acc[mi][i]);
      }
      __threadfence();  // this thread's partial sum before the count that publishes it
      arch::named_barrier_sync(kBarrier + wg, 128);
      const bool counted_last = t == 0 && atomicAdd(counter, 1) == w.segments - 1;
      if (!arch::named_barrier_or(kBarrier + wg, 128, counted_last)) return false;
    }
    __threadfence();  // the other units' partial sums after their counts
    for (int s = 0; s < w.segments; ++s) {
      const int slot = plan.peer_slot(w, s);
      if (slot == w.slot) continue;
      const float* theirs = ws.slots + slot_offset(slot, rank, part);
      STRATA_UNROLL
      for (int mi = 0; mi < kMmaM; ++mi) {
        STRATA_UNROLL
        for (int i = 0; i < BN / 2; ++i) acc[mi][i] += __ldcg(theirs + (mi * (BN / 2) + i) * 128 + t);
      }
    }
    if (t == 0) *counter = 0;  // every unit has counted: ready for the next launch
    return true;
  }
};

}  // namespace strata
