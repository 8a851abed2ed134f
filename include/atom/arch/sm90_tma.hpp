// Strata floor 2: the raw Hopper TMA instructions (cp.async.bulk.tensor and its bulk groups), one
// inline-PTX wrapper each, named after the PTX ISA instruction in the comment above it. The
// descriptor they take is built by ../tma.hpp; the copy atoms are in ../copy_sm90.hpp.
#pragma once

#include <cuda.h>  // CUtensorMap

#include <concepts>
#include <cstdint>

#include "sm90.hpp"

namespace strata::arch {

// ---------------------------------------------------------------------------------------------
// TMA: one thread moves a whole box between global and shared memory, described by a CUtensorMap
// (tma.hpp builds it). Coordinates are element indices in TMA's dimension order (dimension 0 is
// the contiguous one), never negative, and dimension 0's a multiple of 16 bytes of elements (the
// H200 raises an illegal instruction otherwise; the library's boxes start at tile corners): the
// parts of a box past the tensor's far edges read as zeros and are not written. The descriptor is a __grid_constant__
// kernel parameter (or in global/constant memory). The shared-memory box is 128-byte aligned, and aligned to its swizzle's repeat (256, 512 or
// 1024 bytes for 32, 64 or 128-byte swizzles) so that the swizzle lines up with the box's layout.
// ---------------------------------------------------------------------------------------------

template <class... Coords>
concept TmaCoordinates = (sizeof...(Coords) >= 1 && sizeof...(Coords) <= 5) &&
                         (std::convertible_to<Coords, int32_t> && ...);

namespace detail {
STRATA_DEVICE __forceinline__ uint64_t descriptor_address(const CUtensorMap* desc) {
  return reinterpret_cast<uint64_t>(desc);
}
}  // namespace detail

// cp.async.bulk.tensor.{1..5}d.shared::cluster.global.mbarrier::complete_tx::bytes: loads the box
// at `coords` into `smem_dst` and completes its bytes (the whole box, out-of-bounds parts
// included) on `bar`, whose phase must expect them (mbarrier_arrive_expect_tx).
template <class... Coords>
  requires TmaCoordinates<Coords...>
STRATA_DEVICE __forceinline__ void tma_load(const CUtensorMap* desc, uint64_t* bar, void* smem_dst, Coords... coords) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  const uint64_t map = detail::descriptor_address(desc);
  const uint32_t dst = detail::cta_shared_address(smem_dst);
  const uint32_t mbar = detail::cta_shared_address(bar);
  const int32_t c[] = {static_cast<int32_t>(coords)...};
  constexpr int rank = sizeof...(Coords);
  if constexpr (rank == 1) {
    asm volatile(
        "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3}], [%2];\n" ::"r"(dst),
        "l"(map), "r"(mbar), "r"(c[0])
        : "memory");
  } else if constexpr (rank == 2) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4}], [%2];\n" ::"r"(dst),
        "l"(map), "r"(mbar), "r"(c[0]), "r"(c[1])
        : "memory");
  } else if constexpr (rank == 3) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5}], [%2];\n" ::"r"(dst),
        "l"(map), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2])
        : "memory");
  } else if constexpr (rank == 4) {
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5, %6}], [%2];\n" ::"r"(dst),
        "l"(map), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
        : "memory");
  } else {
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%3, %4, %5, %6, %7}], [%2];\n" ::"r"(dst),
        "l"(map), "r"(mbar), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
        : "memory");
  }
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// cp.async.bulk.tensor.{1..5}d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster:
// as tma_load, but the box lands at the same shared-memory offset in every CTA of the cluster whose
// bit is set in `cta_mask` (bit r = rank r), and completes its bytes on the barrier at `bar`'s
// offset in each of them. Each receiving CTA's barrier must expect the bytes it receives.
template <class... Coords>
  requires TmaCoordinates<Coords...>
STRATA_DEVICE __forceinline__ void tma_load_multicast(const CUtensorMap* desc, uint64_t* bar, uint16_t cta_mask,
                                                      void* smem_dst, Coords... coords) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  const uint64_t map = detail::descriptor_address(desc);
  const uint32_t dst = detail::cta_shared_address(smem_dst);
  const uint32_t mbar = detail::cta_shared_address(bar);
  const int32_t c[] = {static_cast<int32_t>(coords)...};
  constexpr int rank = sizeof...(Coords);
  if constexpr (rank == 1) {
    asm volatile(
        "cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
        "[%0], [%1, {%4}], [%2], %3;\n" ::"r"(dst),
        "l"(map), "r"(mbar), "h"(cta_mask), "r"(c[0])
        : "memory");
  } else if constexpr (rank == 2) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
        "[%0], [%1, {%4, %5}], [%2], %3;\n" ::"r"(dst),
        "l"(map), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1])
        : "memory");
  } else if constexpr (rank == 3) {
    asm volatile(
        "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
        "[%0], [%1, {%4, %5, %6}], [%2], %3;\n" ::"r"(dst),
        "l"(map), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2])
        : "memory");
  } else if constexpr (rank == 4) {
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
        "[%0], [%1, {%4, %5, %6, %7}], [%2], %3;\n" ::"r"(dst),
        "l"(map), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
        : "memory");
  } else {
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
        "[%0], [%1, {%4, %5, %6, %7, %8}], [%2], %3;\n" ::"r"(dst),
        "l"(map), "r"(mbar), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
        : "memory");
  }
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// How a load asks the L2 to keep the lines it brings in (a hint; results never depend on it).
enum class L2Hint : uint8_t { none, evict_first, evict_last };

// createpolicy.fractional.L2::{evict_first,evict_last}.b64 with fraction 1.0: the cache policy of
// every line a load with .L2::cache_hint touches. L2Hint::none gives evict_normal's.
STRATA_DEVICE __forceinline__ uint64_t l2_policy(L2Hint hint) {
  uint64_t policy = 0;
#if defined(STRATA_ARCH_SM90_ENABLED)
  if (hint == L2Hint::evict_first)
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;\n" : "=l"(policy));
  else if (hint == L2Hint::evict_last)
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;\n" : "=l"(policy));
  else
    asm volatile("createpolicy.fractional.L2::evict_normal.b64 %0, 1.0;\n" : "=l"(policy));
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
  return policy;
}

// tma_load and tma_load_multicast with .L2::cache_hint: the same copy, its lines cached under
// `policy` (l2_policy). The coordinates past the rank are passed as unused zero operands.
#define STRATA_TMA_HINTED_LOAD(RANK, MULTICAST, OPERANDS)                                                     \
  asm volatile("cp.async.bulk.tensor." #RANK "d.shared::cluster.global.mbarrier::complete_tx::bytes" MULTICAST \
               ".L2::cache_hint " OPERANDS ";\n" ::"r"(dst),                                                   \
               "l"(map), "r"(mbar), "l"(policy), "h"(cta_mask), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]),  \
               "r"(c[4])                                                                                     \
               : "memory")
template <bool Multicast, class... Coords>
  requires TmaCoordinates<Coords...>
STRATA_DEVICE __forceinline__ void tma_load_hinted_impl(const CUtensorMap* desc, uint64_t* bar, uint16_t cta_mask,
                                                        uint64_t policy, void* smem_dst, Coords... coords) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  const uint64_t map = detail::descriptor_address(desc);
  const uint32_t dst = detail::cta_shared_address(smem_dst);
  const uint32_t mbar = detail::cta_shared_address(bar);
  const int32_t c[5] = {static_cast<int32_t>(coords)...};
  constexpr int rank = sizeof...(Coords);
  if constexpr (!Multicast) {
    if constexpr (rank == 1) STRATA_TMA_HINTED_LOAD(1, "", "[%0], [%1, {%5}], [%2], %3");
    else if constexpr (rank == 2) STRATA_TMA_HINTED_LOAD(2, "", "[%0], [%1, {%5, %6}], [%2], %3");
    else if constexpr (rank == 3) STRATA_TMA_HINTED_LOAD(3, "", "[%0], [%1, {%5, %6, %7}], [%2], %3");
    else if constexpr (rank == 4) STRATA_TMA_HINTED_LOAD(4, "", "[%0], [%1, {%5, %6, %7, %8}], [%2], %3");
    else STRATA_TMA_HINTED_LOAD(5, "", "[%0], [%1, {%5, %6, %7, %8, %9}], [%2], %3");
  } else {
    if constexpr (rank == 1) STRATA_TMA_HINTED_LOAD(1, ".multicast::cluster", "[%0], [%1, {%5}], [%2], %4, %3");
    else if constexpr (rank == 2) STRATA_TMA_HINTED_LOAD(2, ".multicast::cluster", "[%0], [%1, {%5, %6}], [%2], %4, %3");
    else if constexpr (rank == 3)
      STRATA_TMA_HINTED_LOAD(3, ".multicast::cluster", "[%0], [%1, {%5, %6, %7}], [%2], %4, %3");
    else if constexpr (rank == 4)
      STRATA_TMA_HINTED_LOAD(4, ".multicast::cluster", "[%0], [%1, {%5, %6, %7, %8}], [%2], %4, %3");
    else STRATA_TMA_HINTED_LOAD(5, ".multicast::cluster", "[%0], [%1, {%5, %6, %7, %8, %9}], [%2], %4, %3");
  }
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}
#undef STRATA_TMA_HINTED_LOAD

template <class... Coords>
  requires TmaCoordinates<Coords...>
STRATA_DEVICE __forceinline__ void tma_load_hinted(const CUtensorMap* desc, uint64_t* bar, uint64_t policy,
                                                   void* smem_dst, Coords... coords) {
  tma_load_hinted_impl<false>(desc, bar, 0, policy, smem_dst, coords...);
}
template <class... Coords>
  requires TmaCoordinates<Coords...>
STRATA_DEVICE __forceinline__ void tma_load_multicast_hinted(const CUtensorMap* desc, uint64_t* bar, uint16_t cta_mask,
                                                             uint64_t policy, void* smem_dst, Coords... coords) {
  tma_load_hinted_impl<true>(desc, bar, cta_mask, policy, smem_dst, coords...);
}

// cp.async.bulk.tensor.{1..5}d.global.shared::cta.bulk_group: stores the box at `smem_src` to the
// tensor at `coords`; elements outside the tensor are not written. Joins this thread's current
// bulk group: bulk_commit_group(), then bulk_wait_group_read<N>() before the shared memory is
// reused, bulk_wait_group<N>() before the global writes must be complete.
template <class... Coords>
  requires TmaCoordinates<Coords...>
STRATA_DEVICE __forceinline__ void tma_store(const CUtensorMap* desc, const void* smem_src, Coords... coords) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  const uint64_t map = detail::descriptor_address(desc);
  const uint32_t src = detail::cta_shared_address(smem_src);
  const int32_t c[] = {static_cast<int32_t>(coords)...};
  constexpr int rank = sizeof...(Coords);
  if constexpr (rank == 1) {
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [%0, {%2}], [%1];\n" ::"l"(map), "r"(src),
                 "r"(c[0])
                 : "memory");
  } else if constexpr (rank == 2) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%2, %3}], [%1];\n" ::"l"(map), "r"(src),
                 "r"(c[0]), "r"(c[1])
                 : "memory");
  } else if constexpr (rank == 3) {
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group [%0, {%2, %3, %4}], [%1];\n" ::"l"(map),
                 "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2])
                 : "memory");
  } else if constexpr (rank == 4) {
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5}], [%1];\n" ::"l"(map),
                 "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])
                 : "memory");
  } else {
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group [%0, {%2, %3, %4, %5, %6}], [%1];\n" ::"l"(map),
                 "r"(src), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4])
                 : "memory");
  }
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// cp.async.bulk.commit_group: closes this thread's bulk group (the TMA stores since the last one).
STRATA_DEVICE __forceinline__ void bulk_commit_group() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// cp.async.bulk.wait_group.read N: waits until at most N of this thread's bulk groups still read
// their shared-memory source; the shared memory of the others may then be overwritten.
template <int PendingGroups>
STRATA_DEVICE __forceinline__ void bulk_wait_group_read() {
  static_assert(PendingGroups >= 0 && PendingGroups <= 63,
                "bulk_wait_group_read: the number of groups left in flight is 0 .. 63");
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(PendingGroups) : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// cp.async.bulk.wait_group N: waits until at most N of this thread's bulk groups are incomplete
// (their global writes performed).
template <int PendingGroups>
STRATA_DEVICE __forceinline__ void bulk_wait_group() {
  static_assert(PendingGroups >= 0 && PendingGroups <= 63,
                "bulk_wait_group: the number of groups left in flight is 0 .. 63");
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(PendingGroups) : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// prefetch.tensormap: brings the descriptor into the cache ahead of the first TMA that uses it.
STRATA_DEVICE __forceinline__ void prefetch_tensormap(const CUtensorMap* desc) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("prefetch.tensormap [%0];\n" ::"l"(detail::descriptor_address(desc)) : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

}  // namespace strata::arch
