// Strata floor 4: how CTAs that share an Ampere output tile (serial split-K, Stream-K) add up their
// parts without waiting for each other: each publishes its accumulators to a slot of the
// workspace in fragment order and counts itself in on the tile's counter; the last to count adds
// the others' parts, in contributor order, and runs the epilogue. Which CTAs share which tile,
// and where their slots are, is the tile scheduler's (tile_scheduler.hpp, work_plan.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "../atom/arch/sm80.hpp"
#include "../atom/copy_sm80.hpp"
#include "../collective/sm80_config.hpp"

namespace strata {

// Config: the kernel's Sm80GemmConfig; Accumulators: its per-thread accumulator fragment;
// SmemBytes: the shared memory the kernel's CTA holds (all of it is free while parts are added).
template <class Config, class Accumulators, int SmemBytes>
struct Sm80PartialTiles {
  static constexpr int kThreads = Config::kThreads;
  static constexpr int smem_bytes = SmemBytes;
  static constexpr int kValues = decltype(size(std::declval<Accumulators>().layout()))::value;
  static_assert(kValues % 2 == 0, "the accumulator fragment holds pairs of values");
  using ElementPartial = typename Config::ElementAccumulator;
  // Slots come into shared memory in 16-byte chunks by cp.async, past L1 (each is read once).
  using ChunkCopy = CopyAtom<arch::CpAsync16_cg, ElementPartial>;
  static constexpr int kChunkValues = 16 / int(sizeof(ElementPartial));

  // Partial tiles in fragment order: value pair q of thread t at pair index q * kSliceThreads + t
  // of the slot, so a warp's store or load of one pair is 256 contiguous bytes. Pairs whose rows
  // are all at or past `rows_left` (below the matrix: skinny problems) are neither stored nor
  // loaded. With sliced K only the first slice's threads hold the tile (Sm80Mainloop::add_slices).
  static constexpr int kSliceThreads = Config::kSliceThreads;
  using Pair = std::conditional_t<std::is_integral_v<ElementPartial>, int2, float2>;
  STRATA_DEVICE __forceinline__ static bool pair_live(int q, int rows_left) {
    typename Config::TiledMmaType mma;
    auto coords = mma.get_slice(threadIdx.x).partition_C(
        make_identity_tensor(make_shape(Int<Config::BM>{}, Int<Config::BN>{})));
    return get<0>(coords(2 * q)) < rows_left || get<0>(coords(2 * q + 1)) < rows_left;
  }

  // One of `count` CTAs sharing a tile (this one is contributor `mine`; contributor i's partial
  // goes to slot_of(i)) has its part of the sum in `accum`. The last of the `count` to arrive
  // leaves in `accum` the sum of all the parts in contributor order, ((x0 + x1) + x2) + ..., so
  // the result does not depend on who came last, and returns true; the others return false.
  //
  // A CTA that finds every other part already published (the usual case for the last one: the
  // parts of a tile are mostly finished long before it) does not publish its own: it is last, and
  // reads the others. Otherwise it publishes its part (stores it, fences) and counts itself in;
  // the last to count reads the others. Writers publish with a fence before counting; the reader
  // fences after seeing the count (the threadfence-reduction pattern of the CUDA programming
  // guide), reads past L1, and resets the counter for the next run. Nobody waits for another CTA.
  template <class SlotOf>
  STRATA_DEVICE __forceinline__ static bool add(int* counter, int count, int mine, SlotOf const& slot_of,
                                                Accumulators& accum, int rows_left, char* smem) {
    constexpr int pairs = kValues / 2;
    const int tid = threadIdx.x;
    const bool holds_tile = Config::holds_sum(tid);
    // Thread 0's decision, to every thread (through shared memory: the mainloop and epilogue
    // are done with it, and it is free again afterwards).
    auto from_thread_0 = [&](bool decision) {
      int* flag = reinterpret_cast<int*>(smem);
      if (tid == 0) *flag = decision;
      __syncthreads();
      const bool all = *flag;
      __syncthreads();
      return all;
    };
    bool last = false;
    if (tid == 0) {
      last = *static_cast<volatile int*>(counter) == count - 1;  // every other part is in
      if (last) *counter = 0;  // nobody else counts this run: ready for the next one
    }
    last = from_thread_0(last);
    if (!last) {
      if (holds_tile) {
        const bool all_rows = rows_left >= Config::BM;
        Pair* dst = reinterpret_cast<Pair*>(slot_of(mine)) + tid;
        STRATA_UNROLL
        for (int q = 0; q < pairs; ++q) {
          if (all_rows || pair_live(q, rows_left)) __stcg(dst + q * kSliceThreads, Pair{accum(2 * q), accum(2 * q + 1)});
        }
      }
      __threadfence();
      __syncthreads();
      if (tid == 0) {
        last = atomicAdd(counter, 1) == count - 1;
        if (last) *counter = 0;  // every contributor has counted: ready for the next run
      }
      if (!from_thread_0(last)) return false;
    }
    __threadfence();
    add_other_parts(count, mine, slot_of, accum, smem);
    return true;
  }

  // The reading half of add(): accum = ((x0 + x1) + ...) + x_{count-1}, where x_mine is
  // `accum` and the others are read from their slots. Every thread brings the slots into shared
  // memory with cp.async, as many at a time as fit, so that loads of up to all of shared memory
  // are in flight together (register loads, a few pairs per thread in flight, made the reader
  // wait an L2 round trip per 8 KB); the threads holding the tile then add them up, each only the
  // values it holds, so no thread reads another's. The parts before `mine` are summed in shared
  // memory, in place in the first one (prefix), and added to `accum` (x_mine + prefix equals
  // prefix + x_mine); the parts after it are added to `accum` in order. Values of rows below the
  // matrix are left unsummed: they are never stored. Pieces of the tile (`piece` pairs of every
  // thread, contiguous in a slot) go through in turn when the tile is too large for two of them
  // to fit shared memory.
  template <class SlotOf>
  STRATA_DEVICE __forceinline__ static void add_other_parts(int count, int mine, SlotOf const& slot_of,
                                                            Accumulators& accum, char* smem) {
    constexpr int pairs = kValues / 2;
    constexpr int row_bytes = kSliceThreads * int(sizeof(Pair));  // pair q of every slice thread
    static_assert(row_bytes % 16 == 0, "Sm80PartialTiles: partial tiles move in 16-byte pieces");
    static_assert(2 * row_bytes <= smem_bytes, "Sm80PartialTiles: two pairs per slice thread must fit shared memory");
    constexpr int piece = pairs < smem_bytes / (2 * row_bytes) ? pairs : smem_bytes / (2 * row_bytes);
    constexpr int piece_bytes = piece * row_bytes;
    constexpr int places = smem_bytes / piece_bytes;  // >= 2
    const int tid = threadIdx.x;
    const bool holds_tile = Config::holds_sum(tid);
    auto place = [&](int k) { return reinterpret_cast<Pair*>(smem + k * piece_bytes) + tid; };
    // Every 8 pairs, a compiler-level memory barrier: without it the fully unrolled additions
    // hoist all their shared-memory loads ahead, which takes registers the accumulators hold.
    auto load_fence = [](int q) {
      if (q % 8 == 7) asm volatile("" ::: "memory");
    };

    STRATA_UNROLL
    for (int p0 = 0; p0 < pairs; p0 += piece) {
      const int chunks = (pairs - p0 < piece ? pairs - p0 : piece) * (row_bytes / 16);
      // Parts [first, first + n) into places [at, at + n), all threads; then a barrier.
      auto fetch = [&](int first, int n, int at) {
        for (int x = tid; x < n * chunks; x += kThreads) {
          const int b = x / chunks, c = x % chunks;
          // One 16-byte chunk of accumulators, slot to shared memory.
          auto src = make_tensor(make_gmem_ptr(reinterpret_cast<ElementPartial const*>(
                                     reinterpret_cast<char const*>(slot_of(first + b)) + int64_t(p0) * row_bytes + c * 16)),
                                 Layout<Int<kChunkValues>>{});
          auto dst = make_tensor(make_smem_ptr(reinterpret_cast<ElementPartial*>(smem + (at + b) * piece_bytes + c * 16)),
                                 Layout<Int<kChunkValues>>{});
          copy(ChunkCopy{}, src, dst);
        }
        arch::cp_async_commit();
        arch::cp_async_wait<0>();
        __syncthreads();
      };
      // Prefix: x0 + ... + x_{mine-1}, in place 0.
      for (int i = 0; i < mine;) {
        const int at = i == 0 ? 0 : 1;
        const int n = mine - i < places - at ? mine - i : places - at;
        fetch(i, n, at);
        if (holds_tile) {
          Pair* sum = place(0);
          for (int b = i == 0 ? 1 : 0; b < n; ++b) {
            Pair const* part = place(at + b);
            STRATA_UNROLL
            for (int q = 0; q < piece; ++q) {
              if (p0 + q >= pairs) break;
              sum[q * kSliceThreads].x += part[q * kSliceThreads].x;
              sum[q * kSliceThreads].y += part[q * kSliceThreads].y;
              load_fence(q);
            }
          }
        }
        i += n;
        __syncthreads();  // before the next fetch overwrites places 1..
      }
      // accum += this thread's values of the part at `part` (this piece of it).
      auto add_to_accum = [&](Pair const* part) {
        STRATA_UNROLL
        for (int q = 0; q < piece; ++q) {
          if (p0 + q >= pairs) break;
          accum(2 * (p0 + q)) += part[q * kSliceThreads].x;
          accum(2 * (p0 + q) + 1) += part[q * kSliceThreads].y;
          load_fence(q);
        }
      };
      if (mine > 0) {
        if (holds_tile) add_to_accum(place(0));
        __syncthreads();  // place 0 is read before the suffix's fetch, the next piece or the epilogue reuses it
      }
      // Suffix: x_{mine+1}, ..., in order.
      for (int i = mine + 1; i < count;) {
        const int n = count - i < places ? count - i : places;
        fetch(i, n, 0);
        if (holds_tile) {
          for (int b = 0; b < n; ++b) add_to_accum(place(b));
        }
        i += n;
        __syncthreads();  // before the next fetch, or the epilogue, reuses shared memory
      }
    }
  }
};

}  // namespace strata
