// Strata floor 2, raw PTX: named barriers (bar.sync / bar.arrive / bar.red.or with an id and a
// thread count), how some warps of a CTA meet without the rest: one warpgroup's epilogue, the
// ping-pong consumers' turns, a warpgroup's vote on a Stream-K tile. Part of atom/arch/sm90.hpp.
#pragma once

#include <cstdint>

#include "../../layout/config.hpp"
#include "sm90_guards.hpp"

namespace strata::arch {

// bar.sync id, threads: waits until `threads` threads (a multiple of 32, whole warps) have arrived
// at named barrier `id` (1 .. 15; 0 is __syncthreads'), ordering their shared-memory accesses.
// Every thread of a warp executes it together: how one warpgroup meets without the rest of the CTA.
STRATA_DEVICE __forceinline__ void named_barrier_sync(uint32_t id, uint32_t threads) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// bar.red.or.pred: named_barrier_sync that also ORs a predicate over the `threads` threads: how
// one thread's finding reaches its whole warpgroup without shared memory.
STRATA_DEVICE __forceinline__ bool named_barrier_or(uint32_t id, uint32_t threads, bool predicate) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t any;
  asm volatile(
      "{\n"
      "  .reg .pred p, q;\n"
      "  setp.ne.u32 p, %1, 0;\n"
      "  bar.red.or.pred q, %2, %3, p;\n"
      "  selp.u32 %0, 1, 0, q;\n"
      "}\n"
      : "=r"(any)
      : "r"(uint32_t(predicate)), "r"(id), "r"(threads)
      : "memory");
  return any != 0;
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return false;
#endif
}

// bar.arrive id, threads: counts this warp's arrival at named barrier `id` without waiting: the
// signalling half of an ordered hand-over, whose other side waits with named_barrier_sync.
STRATA_DEVICE __forceinline__ void named_barrier_arrive(uint32_t id, uint32_t threads) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

}  // namespace strata::arch
