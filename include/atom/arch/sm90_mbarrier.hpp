// Strata floor 2, raw PTX: mbarriers, the producer/consumer handshake of the Hopper kernels
// (init, arrivals, transaction bytes, parity waits bounded against hangs). Part of
// atom/arch/sm90.hpp, which includes it; the address conventions are stated there.
#pragma once

#include <cstdint>
#include <cstdio>

#include "../../layout/config.hpp"
#include "sm90_guards.hpp"

// How long mbarrier_wait_parity waits before it reports the barrier and traps: a wait that a
// correct kernel finishes in microseconds only lasts this long when an arrival will never come.
#if !defined(STRATA_MBARRIER_TIMEOUT_NS)
#define STRATA_MBARRIER_TIMEOUT_NS 4000000000ull
#endif

// Diagnosis, off by default: defined (to nanoseconds), every wait that polls longer than this prints
// its barrier, parity, block, thread and times once it completes, and the trapping variant reports
// before it traps too. Each wait becomes a call: ptxas serializes the kernel's wgmma and may ignore
// setmaxnreg. For finding which wait stalls (a suspected missing arrival), never for timing.
#if defined(STRATA_MBARRIER_SLOW_WAIT_NS)
#define STRATA_MBARRIER_DIAGNOSE_WAITS 1
#else
#define STRATA_MBARRIER_DIAGNOSE_WAITS 0
#endif

namespace strata::arch {

namespace detail {
// The 32-bit .shared::cta address of a generic pointer into this CTA's shared memory.
STRATA_DEVICE __forceinline__ uint32_t cta_shared_address(const void* smem_ptr) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr));
}
}  // namespace detail

// ---------------------------------------------------------------------------------------------
// mbarrier: a 64-bit shared-memory object that counts arrivals and transaction bytes per phase.
// A phase completes when its expected arrivals have arrived and its expected bytes have landed;
// the barrier then moves to the next phase (parity flips) and re-arms with the same arrival count.
// A barrier is 8-byte aligned shared memory.
// ---------------------------------------------------------------------------------------------

// mbarrier.init.shared::cta.b64: the barrier starts in phase 0 expecting `arrivals` arrivals per
// phase (1 .. 2^20 - 1). Before any other thread (or TMA) uses it: fence_mbarrier_init() and a
// barrier (cluster_sync() when other CTAs of the cluster use it, __syncthreads() otherwise).
STRATA_DEVICE __forceinline__ void mbarrier_init(uint64_t* bar, uint32_t arrivals) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(detail::cta_shared_address(bar)), "r"(arrivals)
               : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// fence.mbarrier_init.release.cluster: makes this thread's mbarrier.init visible to the whole
// cluster, including the TMA units that complete transactions on it.
STRATA_DEVICE __forceinline__ void fence_mbarrier_init() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// mbarrier.arrive.shared::cta.b64 (release, CTA scope): one arrival on this CTA's barrier.
STRATA_DEVICE __forceinline__ void mbarrier_arrive(uint64_t* bar) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(detail::cta_shared_address(bar)) : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// mbarrier.arrive.expect_tx.shared::cta.b64: one arrival, and `bytes` more transaction bytes
// expected in the current phase (what the TMA loads completing on this barrier will deliver).
STRATA_DEVICE __forceinline__ void mbarrier_arrive_expect_tx(uint64_t* bar, uint32_t bytes) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(detail::cta_shared_address(bar)),
               "r"(bytes)
               : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// mbarrier.expect_tx.relaxed.cta.shared::cta.b64: `bytes` more transaction bytes expected in the
// current phase, without an arrival.
STRATA_DEVICE __forceinline__ void mbarrier_expect_tx(uint64_t* bar, uint32_t bytes) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;\n" ::"r"(detail::cta_shared_address(bar)),
               "r"(bytes)
               : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// mapa.shared::cluster.u32 + mbarrier.arrive.shared::cluster.b64: one arrival on the barrier at
// the same shared-memory offset in CTA `cta_rank` of the cluster: how a consumer frees a stage
// whose data another CTA's producer multicast into it. `cta_rank` may be this CTA's own rank. The
// default (CTA-scope) release: a cluster-scope one makes each arrival wait for the thread's
// outstanding global stores, which halved a clustered GEMM (bench/RESULTS.md, eleventh session);
// what the arrival hands over is shared memory read by wgmma, whose completion the consumer has
// already waited for.
STRATA_DEVICE __forceinline__ void mbarrier_arrive_cluster(uint64_t* bar, uint32_t cta_rank) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile(
      "{\n"
      "  .reg .b32 remote;\n"
      "  mapa.shared::cluster.u32 remote, %0, %1;\n"
      "  mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(detail::cta_shared_address(bar)),
      "r"(cta_rank)
      : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// Which memory the waiting thread acquires: what this CTA's threads and TMA wrote (cta), or also
// what threads of other CTAs released into the barrier with mbarrier_arrive_cluster (cluster).
enum class WaitScope { cta, cluster };

// mbarrier.try_wait.parity.shared::cta.b64 (acquire): true once the phase of parity `parity` has
// completed (false after a hardware-chosen time limit otherwise). A barrier in phase 0 reports the
// phase before it, of parity 1, as complete: a producer's first wait on an empty stage is parity 1.
template <WaitScope Scope = WaitScope::cta>
STRATA_DEVICE __forceinline__ bool mbarrier_try_wait_parity(uint64_t* bar, uint32_t parity) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t ready;
  if constexpr (Scope == WaitScope::cta) {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(ready)
        : "r"(detail::cta_shared_address(bar)), "r"(parity)
        : "memory");
  } else {
    asm volatile(
        "{\n"
        "  .reg .pred p;\n"
        "  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
        "  selp.u32 %0, 1, 0, p;\n"
        "}\n"
        : "=r"(ready)
        : "r"(detail::cta_shared_address(bar)), "r"(parity)
        : "memory");
  }
  return ready != 0;
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return false;
#endif
}

namespace detail {
// %globaltimer: nanoseconds of a global clock (the resolution may be coarser than 1 ns).
STRATA_DEVICE __forceinline__ uint64_t global_timer_ns() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;\n" : "=l"(t));
  return t;
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return 0;
#endif
}

// The time a bounded wait has spent polling: %globaltimer's steps between two polls, each counted
// up to kWaitStepLimitNs, so a kernel paused from outside (a sanitizer stopping it to analyse, a
// debugger, preemption) does not use up STRATA_MBARRIER_TIMEOUT_NS while a real hang still does.
inline constexpr uint64_t kWaitStepLimitNs = 50'000'000;
struct WaitClock {
  uint64_t last, waited = 0;
  STRATA_DEVICE __forceinline__ WaitClock() : last(global_timer_ns()) {}
  // Counts the step since the last poll; whether the wait is past STRATA_MBARRIER_TIMEOUT_NS.
  STRATA_DEVICE __forceinline__ bool expired() {
    const uint64_t now = global_timer_ns(), step = now - last;
    last = now;
    waited += step < kWaitStepLimitNs ? step : kWaitStepLimitNs;
    return waited > STRATA_MBARRIER_TIMEOUT_NS;
  }
};

// Out of line and cold: the waits stay small, and a hang becomes a report instead.
STRATA_DEVICE inline __noinline__ void report_mbarrier_timeout(uint64_t* bar, uint32_t parity) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  printf(
      "strata: mbarrier wait timed out after %llu ns: barrier at shared::cta address 0x%x, waiting for the "
      "phase of parity %u; block (%d, %d, %d), thread (%d, %d, %d)\n",
      static_cast<unsigned long long>(STRATA_MBARRIER_TIMEOUT_NS), cta_shared_address(bar), parity, int(blockIdx.x),
      int(blockIdx.y), int(blockIdx.z), int(threadIdx.x), int(threadIdx.y), int(threadIdx.z));
#endif
  __trap();
}

#if STRATA_MBARRIER_DIAGNOSE_WAITS
// A wait that completed after more than STRATA_MBARRIER_SLOW_WAIT_NS of counted polling.
STRATA_DEVICE inline __noinline__ void report_slow_wait(uint64_t* bar, uint32_t parity, uint64_t counted_ns,
                                                        uint64_t wall_ns) {
  printf(
      "strata: slow mbarrier wait: %llu ns counted, %llu ns of wall time: barrier at shared::cta address 0x%x, "
      "phase of parity %u; block (%d, %d, %d), thread (%d, %d, %d)\n",
      static_cast<unsigned long long>(counted_ns), static_cast<unsigned long long>(wall_ns), cta_shared_address(bar),
      parity, int(blockIdx.x), int(blockIdx.y), int(blockIdx.z), int(threadIdx.x), int(threadIdx.y),
      int(threadIdx.z));
}
#endif

// The bounded wait of both variants below; past the bound it reports and traps (kReport) or traps.
template <WaitScope Scope, bool kReport>
STRATA_DEVICE __forceinline__ void bounded_wait_parity(uint64_t* bar, uint32_t parity) {
  if (mbarrier_try_wait_parity<Scope>(bar, parity)) return;
  WaitClock clock;
#if STRATA_MBARRIER_DIAGNOSE_WAITS
  const uint64_t start = clock.last;
#endif
  while (!mbarrier_try_wait_parity<Scope>(bar, parity)) {
    if (clock.expired()) {
      if constexpr (kReport || STRATA_MBARRIER_DIAGNOSE_WAITS) report_mbarrier_timeout(bar, parity);
      else __trap();
    }
  }
#if STRATA_MBARRIER_DIAGNOSE_WAITS
  clock.expired();  // counts the last step
  if (clock.waited > STRATA_MBARRIER_SLOW_WAIT_NS) report_slow_wait(bar, parity, clock.waited, clock.last - start);
#endif
}
}  // namespace detail

// Waits until the phase of parity `parity` has completed (see mbarrier_try_wait_parity). Bounded:
// after STRATA_MBARRIER_TIMEOUT_NS of polling (detail::WaitClock) it prints the barrier's address and parity and traps, so a
// missing arrival (a bug) ends the kernel with a message instead of hanging the GPU.
template <WaitScope Scope = WaitScope::cta>
STRATA_DEVICE __forceinline__ void mbarrier_wait_parity(uint64_t* bar, uint32_t parity) {
  detail::bounded_wait_parity<Scope, true>(bar, parity);
}

// As mbarrier_wait_parity, bounded the same way, but a timeout traps at once, without the report:
// no function call, so a caller holding many live registers (an epilogue's accumulators) spills
// none of them around the wait.
template <WaitScope Scope = WaitScope::cta>
STRATA_DEVICE __forceinline__ void mbarrier_wait_parity_or_trap(uint64_t* bar, uint32_t parity) {
  detail::bounded_wait_parity<Scope, false>(bar, parity);
}

}  // namespace strata::arch
