// Strata floor 3: the producer/consumer ring of a Hopper CTA over mbarriers. Each stage of shared
// memory has a full barrier (the producer's TMA bytes landed) and an empty barrier (every consumer
// is done reading it). Both sides walk the stages with a PipelineState (stage index, phase bit):
//
//   producer: acquire(s)  wait until stage s is empty, then expect(s, bytes) and issue the TMA
//   consumer: wait(s)     wait until stage s is full, read it, then release(s)
//
// Waits are on the parity of a barrier's phase (raw try_wait.parity, bounded: a wait that a bug
// made endless traps with the barrier's address instead of hanging). A fresh barrier is in phase
// 0, so the producer's first pass waits for parity 1, "the phase before", which passes at once.
#pragma once

#include <cstdint>

#include "../atom/arch/sm90.hpp"
#include "../layout/config.hpp"

namespace strata {

// Where a side of the ring is: the stage it uses next and the parity of that stage's phase.
template <int Stages>
struct PipelineState {
  static_assert(Stages >= 1, "PipelineState: a ring needs at least one stage");
  int index = 0;
  uint32_t phase = 0;
  // The next stage; the phase flips each time the ring wraps.
  STRATA_HOST_DEVICE constexpr void advance() {
    if (++index == Stages) {
      index = 0;
      phase ^= 1u;
    }
  }
  // The state `count` stages on.
  STRATA_HOST_DEVICE constexpr PipelineState advanced(int count) const {
    PipelineState s = *this;
    for (int i = 0; i < count; ++i) s.advance();
    return s;
  }
};

// The barriers of a ring: a typed part of the CTA's shared storage.
template <int Stages>
struct Sm90PipelineStorage {
  uint64_t full[Stages];
  uint64_t empty[Stages];
};

template <int Stages>
struct Sm90Pipeline {
  using State = PipelineState<Stages>;
  Sm90PipelineStorage<Stages>& barriers;
  // The cluster CTAs (bit r: rank r) whose producers write into this CTA's stages, this one
  // included: a consumer releases each stage to all of them. 1: no cluster, releases stay local.
  uint32_t release_mask = 1;

  // By one thread before any use (then a CTA or cluster barrier): full barriers complete on the
  // producer's one arrival plus its transaction bytes (its own TMA and its peers' multicasts), empty
  // ones on `consumer_arrivals` releases (every consumer warp of every CTA writing into it).
  STRATA_DEVICE static void init(Sm90PipelineStorage<Stages>& b, uint32_t consumer_arrivals) {
    for (int s = 0; s < Stages; ++s) {
      arch::mbarrier_init(&b.full[s], 1);
      arch::mbarrier_init(&b.empty[s], consumer_arrivals);
    }
    arch::fence_mbarrier_init();
  }

  // Producer: waits until every consumer released stage s (in every CTA its multicasts reach:
  // their releases arrive here, acquired at cluster scope).
  STRATA_DEVICE void producer_acquire(State s) const {
    if (release_mask == 1u)
      wait<arch::WaitScope::cta>(&barriers.empty[s.index], s.phase ^ 1u);
    else
      wait<arch::WaitScope::cluster>(&barriers.empty[s.index], s.phase ^ 1u);
  }
  // Producer: arrives on stage s's full barrier, expecting `bytes` of TMA transactions.
  STRATA_DEVICE void producer_expect(State s, uint32_t bytes) const {
    arch::mbarrier_arrive_expect_tx(&barriers.full[s.index], bytes);
  }
  // The barrier a TMA into stage s completes on.
  STRATA_DEVICE uint64_t* full_barrier(State s) const { return &barriers.full[s.index]; }

  // Consumer: waits until stage s is full.
  STRATA_DEVICE void consumer_wait(State s) const { wait<arch::WaitScope::cta>(&barriers.full[s.index], s.phase); }

  // Consumer, a ring without a cluster: one of the consumer_arrivals releases of stage s, by one
  // lane of a consumer warp.
  STRATA_DEVICE void consumer_release(State s) const { arch::mbarrier_arrive(&barriers.empty[s.index]); }
  // Consumer, a clustered ring: the releases of stage s to every CTA of release_mask, by all 32
  // lanes of a consumer warp together: lane r arrives at rank r, so they leave as one instruction
  // (one lane's loop over the ranks cost 250 cycles a K tile against 80 unclustered;
  // bench/RESULTS.md, 40th session).
  STRATA_DEVICE void consumer_release_warp(State s) const {
    const uint32_t lane = threadIdx.x % 32;
    if ((release_mask >> lane) & 1u) arch::mbarrier_arrive_cluster(&barriers.empty[s.index], lane);
  }

  // The bounded wait without the out-of-line report: a call anywhere in a kernel with wgmma makes
  // ptxas serialize them (C7510).
  template <arch::WaitScope Scope>
  STRATA_DEVICE static void wait(uint64_t* bar, uint32_t parity) {
    arch::mbarrier_wait_parity_or_trap<Scope>(bar, parity);
  }
};

}  // namespace strata
