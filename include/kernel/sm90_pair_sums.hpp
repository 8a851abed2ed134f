// Strata floor 4: how the two K halves of a unit add up in a Hopper GEMM run in K pairs
// (Sm90WorkPlan::paired). The kernel is launched in clusters of two CTAs; both walk the same units,
// rank 0 the first K half of each and rank 1 the second (Sm90WorkPlan::k_range). After its
// mainloop, each consumer warpgroup of rank 1 writes its accumulators straight into rank 0's shared
// memory (st.async, 16 bytes a store), and their bytes complete a barrier there; rank 0's warpgroup
// holding the same part waits for it, adds the floats to its own and finishes the unit (the
// workspace's split-K fixup when the plan still splits the tile, then the epilogue). No global
// memory, fence or counter lies on that path, only the SM-to-SM network.
//
// Each part's barrier is armed once, at the kernel's start (phase 0, its bytes expected), and the
// plan gives a cluster at most one unit, so it is used at most once. The sums' buffer shares the
// epilogue's shared memory (the kernel's SharedStorage): rank 0 reads it into registers before its
// epilogue begins, and no epilogue ran before on that CTA.
//
// Layout: part p (the warpgroup's rows of the tile), float4 j of thread t at sums[p][(j × 128 + t)
// × 4]: each warp's stores and loads cover 512 contiguous bytes, so none meet in a bank.
#pragma once

#include <cstdint>

#include "../atom/arch/sm90.hpp"
#include "sm90_partial_sums.hpp"

namespace strata {

template <class Config>
struct Sm90PairSums {
  static constexpr int BN = Config::BN, kMmaM = Config::kMmaM;
  static constexpr int kParts = Sm90PartialSums<Config>::kParts;  // the tile's warpgroup parts
  static constexpr int kFloats = kMmaM * (BN / 2);  // accumulators per thread
  static_assert(kFloats % 4 == 0, "Sm90PairSums: a thread's accumulators go out four at a time");
  static constexpr int kPartBytes = kFloats * 128 * int(sizeof(float));

  struct alignas(128) Storage {
    float sums[kParts][kFloats * 128];
  };
  struct Barriers {
    uint64_t full[kParts];
  };

  // By one thread of rank 0 before the cluster's first barrier: each part's barrier expects one
  // arrival (this one) and kPartBytes of rank 1's stores.
  STRATA_DEVICE static void init(Barriers& b) {
    for (int part = 0; part < kParts; ++part) {
      arch::mbarrier_init(&b.full[part], 1);
    }
    arch::fence_mbarrier_init();
    for (int part = 0; part < kParts; ++part) arch::mbarrier_arrive_expect_tx(&b.full[part], uint32_t(kPartBytes));
  }

  // By every thread t of rank 1's warpgroup holding `part`: its accumulators into rank 0's buffer.
  template <class Accumulators>
  STRATA_DEVICE static void send(Storage& s, Barriers& b, int part, int t, Accumulators const& acc) {
    const uint32_t remote = arch::cluster_map_shared(&s.sums[part][0], 0);
    const uint32_t barrier = arch::cluster_map_shared(&b.full[part], 0);
    STRATA_UNROLL
    for (int j = 0; j < kFloats / 4; ++j) {
      const int i = 4 * j;
      arch::st_async_v4(remote + uint32_t((j * 128 + t) * 16), value(acc, i), value(acc, i + 1), value(acc, i + 2),
                        value(acc, i + 3), barrier);
    }
  }

  // By every thread t of rank 0's warpgroup holding `part`: waits for rank 1's accumulators and
  // adds them to acc.
  template <class Accumulators>
  STRATA_DEVICE static void receive(Storage const& s, Barriers& b, int part, int t, Accumulators& acc) {
    arch::mbarrier_wait_parity_or_trap<arch::WaitScope::cluster>(&b.full[part], 0);
    STRATA_UNROLL
    for (int j = 0; j < kFloats / 4; ++j) {
      const float4 v = reinterpret_cast<float4 const*>(s.sums[part])[j * 128 + t];
      const int i = 4 * j;
      value(acc, i) += v.x;
      value(acc, i + 1) += v.y;
      value(acc, i + 2) += v.z;
      value(acc, i + 3) += v.w;
    }
  }

 private:
  // Accumulator i of a thread, counted over its m64 blocks (acc[mi][·], BN / 2 each).
  template <class Accumulators>
  STRATA_DEVICE static auto& value(Accumulators& acc, int i) {
    return acc[i / (BN / 2)][i % (BN / 2)];
  }
};

}  // namespace strata
