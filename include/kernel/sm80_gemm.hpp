// Strata floor 4: the Ampere GEMM kernel. CTAs compute output tiles (in the grouped order of the
// tile scheduler) over two grids:
//
//   1-D, entry():  tile  = scheduler.global_tile(blockIdx.x)     (the tiles of all batches)
//                  accum = mainloop(A rows of the tile, B columns of the tile, all K tiles)
//                  D     = epilogue(accum, C)
//   then, with Stream-K, one wave of CTAs sharing the K iterations of the remaining tiles evenly
//   (StreamKPartition): each adds its part of a shared tile to the workspace, and the last to
//   finish runs the epilogue.
//
//   (tiles, batches, splits), split_k_entry():  K split in `splits` ranges,
//                  W = accum (fp32/int32 partials) per split, then D = epilogue(Σ_splits W, C):
//   serially, by the last CTA of each tile to finish (a counter per tile in the workspace says
//   which one that is), or in parallel, by a second kernel over the whole output.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "../collective/epilogue_functors.hpp"
#include "../collective/sm80_epilogue.hpp"
#include "../collective/sm80_mainloop.hpp"
#include "tile_scheduler.hpp"

// Timeline hook for studies of the kernel's phases (bench/tools/sm80_trace.cu): every thread of a
// CTA passes STRATA_SM80_TRACE(event) at its start (event 0) and, for the first two segments s of
// its work (a whole tile, a K split, or a Stream-K share of a tile), before the mainloop
// (1 + 4s), after it (2 + 4s), after the partial sums are added (3 + 4s) and after the epilogue
// (4 + 4s, only where this CTA ran it). Nothing unless the includer defines it.
#ifndef STRATA_SM80_TRACE
#define STRATA_SM80_TRACE(event) ((void)0)
#endif

namespace strata {

// `static`: each translation unit that instantiates a kernel gets its own copy, registered with its
// own device code. With one shared (weak) instantiation across the translation units of a program,
// cudaFuncSetAttribute (the > 48 KB shared-memory opt-in) reached one module's copy while the launch
// used another's, and the launch failed (seen on the H200 with three test files using one config).
// Gemm::run therefore also sets the attribute on the very pointer it launches.
// Two entries per kernel, each with its own register allocation: a 1-D grid of whole tiles, then
// Stream-K's shared ones (no shared tiles unless the schedule asks for them), and the tile grid
// with K splits, whose reductions stay out of the first entry's registers. A third entry for whole
// tiles alone measured 1.3-1.8 % slower than the 1-D entry's data-parallel path on identical
// work (bench/RESULTS.md).
template <class Kernel>
static __global__ void __launch_bounds__(Kernel::kThreads) sm80_gemm_kernel(typename Kernel::Params const params) {
  extern __shared__ __align__(128) char smem[];
  Kernel::run_tiles(params, smem);
}
template <class Kernel>
static __global__ void __launch_bounds__(Kernel::kThreads)
    sm80_gemm_split_k_kernel(typename Kernel::Params const params) {
  extern __shared__ __align__(128) char smem[];
  Kernel::run_split_k(params, smem);
}

// Writes the raw accumulators: the epilogue functor of split-K partials.
struct StoreAccumulator {
  STRATA_HOST_DEVICE bool reads_source() const { return false; }
  template <class T>
  STRATA_HOST_DEVICE T operator()(T acc, T, int, int) const { return acc; }
};

namespace detail {
// D(row, col .. col + 3) = functor(Σ_s partials[s](row, col ..), C(row, col ..)) for the columns
// below n. `partials` points at split 0 of the batch, `split_stride` elements apart; `d` and `c`
// at the batch's D and C (c null when not read). The parallel reduction's per-element step.
template <class TD, class P, class Functor>
STRATA_DEVICE void splitk_reduce_quad(P const* partials, int64_t partials_ld, int64_t split_stride, int splits, int row,
                                      int col, int n, Sm80EpilogueArguments<TD, TD, Functor> const& out, TD* d,
                                      TD const* c) {
  static_assert(sizeof(P) == 4, "split-K partials are 4-byte accumulators (fp32 or int32)");
  using Compute = compute_t<P>;
  using Quad = std::conditional_t<std::is_integral_v<P>, int4, float4>;
  P sum[4] = {0, 0, 0, 0};
  P const* src = partials + int64_t(row) * partials_ld + col;
  for (int s = 0; s < splits; ++s) {
    const Quad q = __ldcg(reinterpret_cast<Quad const*>(src + s * split_stride));
    sum[0] += q.x;
    sum[1] += q.y;
    sum[2] += q.z;
    sum[3] += q.w;
  }
  TD* d_row = d + int64_t(row) * out.ldd;
  TD const* c_row = c ? c + int64_t(row) * out.ldc : nullptr;
  for (int e = 0; e < 4 && col + e < n; ++e) {
    const Compute source = c_row ? to_compute<Compute>(c_row[col + e]) : Compute(0);
    d_row[col + e] = store_as<TD>(out.functor(static_cast<Compute>(sum[e]), source, row, col + e));
  }
}
}  // namespace detail

template <class Config_, class TD, class Functor_>
struct Sm80GemmKernel {
  using Config = Config_;
  using Functor = Functor_;
  using ElementA = typename Config::ElementA;
  using ElementB = typename Config::ElementB;
  using ElementC = TD;
  using ElementD = TD;
  using Mainloop = Sm80Mainloop<Config>;
  using Epilogue = Sm80Epilogue<Config, TD, TD, Functor>;
  // Split-K partials keep the accumulator type: fp32, or int32 so integer results stay exact.
  using ElementPartial = typename Config::ElementAccumulator;
  using PartialEpilogue = Sm80Epilogue<Config, ElementPartial, ElementPartial, StoreAccumulator>;
  static constexpr int kThreads = Config::kThreads;
  static constexpr int smem_bytes = [] {
    int s = Config::smem_bytes_mainloop;
    s = s > Epilogue::smem_bytes ? s : Epilogue::smem_bytes;
    return s > PartialEpilogue::smem_bytes ? s : PartialEpilogue::smem_bytes;
  }();

  struct Params {
    Sm80MainloopArguments<Config> mainloop;
    Sm80EpilogueArguments<TD, TD, Functor> epilogue;
    int64_t batch_stride_a, batch_stride_b, batch_stride_c, batch_stride_d;
    GroupedTileScheduler scheduler;
    int k_tiles_per_split;  // split_k_entry(): K tiles of each split but the last
    // Parallel split-K only: splits × batches × m × partials_ld accumulators, reduced by a second
    // kernel.
    ElementPartial* partials;
    int64_t partials_ld;
    // Serial split-K and Stream-K: partial tiles of BM × BN accumulators in the MMA's fragment
    // order (value pair q of thread t at pair q × threads + t, see add_partials), and one arrival
    // counter per shared tile, zero between runs (the last arrival resets it). Null otherwise.
    ElementPartial* slots;
    int* tile_counters;
    // entry(): a 1-D grid of stream_k.first_tile CTAs computing one whole tile each (the tiles of
    // all batches, batch-major), then stream_k.ctas CTAs sharing the K iterations of the remaining
    // tiles (none unless Stream-K runs).
    StreamKPartition stream_k;
  };

  // The __global__ functions that run this kernel: whole tiles and Stream-K over a 1-D grid, and
  // the tile grid with K splits (tiles, batches, splits).
  static auto entry() { return &sm80_gemm_kernel<Sm80GemmKernel>; }
  static auto split_k_entry() { return &sm80_gemm_split_k_kernel<Sm80GemmKernel>; }

  using Accumulators = decltype(typename Config::TiledMmaType{}.get_slice(0).partition_fragment_C(
      make_shape(Int<Config::BM>{}, Int<Config::BN>{})));
  static constexpr int kValues = decltype(size(std::declval<Accumulators>().layout()))::value;
  static_assert(kValues % 2 == 0, "the accumulator fragment holds pairs of values");
  static constexpr int64_t kSlotElements = int64_t(Config::BM) * Config::BN;

  // One K split of one output tile per CTA: the grid is (tiles, batches, splits), splits >= 2
  // (one split runs through run_tiles).
  STRATA_DEVICE static void run_split_k(Params const& p, char* smem) {
    STRATA_SM80_TRACE(0);
    const TileCoord tile = p.scheduler.tile(blockIdx.x, blockIdx.y, blockIdx.z);
    const int k_tiles = (p.mainloop.k + Config::BK - 1) / Config::BK;
    const int k_begin = tile.split * p.k_tiles_per_split;
    const int k_end = k_begin + p.k_tiles_per_split < k_tiles ? k_begin + p.k_tiles_per_split : k_tiles;

    Accumulators accum;
    STRATA_SM80_TRACE(1);
    mainloop(p, tile, k_begin, k_end, accum, smem);
    STRATA_SM80_TRACE(2);

    if (p.tile_counters != nullptr) {
      // Serial split-K: the splits of a tile are its contributors, in K order.
      const long long g = tile.batch * p.scheduler.tiles_per_batch() + blockIdx.x;
      const int splits = p.scheduler.splits;
      auto slot_of = [&](int s) { return p.slots + (g * splits + s) * kSlotElements; };
      const bool finish = add_partials(p.tile_counters + g, splits, tile.split, slot_of, accum,
                                       p.mainloop.m - tile.m * Config::BM, smem);
      STRATA_SM80_TRACE(3);
      if (finish) {
        epilogue(p, tile, accum, smem);
        STRATA_SM80_TRACE(4);
      }
    } else {
      const int64_t slice = int64_t(p.mainloop.m) * p.partials_ld;
      const int64_t split_stride = slice * p.scheduler.batches;
      ElementPartial* batch_partials = p.partials + int64_t(tile.batch) * slice;
      Sm80EpilogueArguments<ElementPartial, ElementPartial, StoreAccumulator> out{
          batch_partials + tile.split * split_stride, p.partials_ld, nullptr, 0, {}};
      PartialEpilogue::run(out, p.mainloop.m, p.mainloop.n, tile.m * Config::BM, tile.n * Config::BN, accum, smem);
      STRATA_SM80_TRACE(3);
    }
  }

  // accum = A(tile rows, K tiles [k_begin, k_end)) · B(tile columns, same K tiles).
  STRATA_DEVICE __forceinline__ static void mainloop(Params const& p, TileCoord const& tile, int k_begin,
                                                     int k_end, Accumulators& accum, char* smem) {
    Sm80MainloopArguments<Config> operands = p.mainloop;
    operands.A += tile.batch * p.batch_stride_a;
    operands.B += tile.batch * p.batch_stride_b;
    clear(accum);
    Mainloop::run(operands, tile.m * Config::BM, tile.n * Config::BN, k_begin, k_end, accum, smem);
  }

  STRATA_DEVICE __forceinline__ static void epilogue(Params const& p, TileCoord const& tile,
                                                     Accumulators const& accum, char* smem) {
    auto out = p.epilogue;
    out.D += tile.batch * p.batch_stride_d;
    if (out.C != nullptr) out.C += tile.batch * p.batch_stride_c;
    Epilogue::run(out, p.mainloop.m, p.mainloop.n, tile.m * Config::BM, tile.n * Config::BN, accum, smem);
  }

  // Whole tiles, then Stream-K (tile_scheduler.hpp): CTAs below first_tile compute one whole tile
  // each; the others walk their range of iterations tile by tile. A tile covered whole goes
  // straight to the epilogue; a shared one is added up by add_partials, and whichever of its CTAs
  // finishes last runs its epilogue. Nobody waits on another CTA, so any number of CTAs may be
  // resident.
  STRATA_DEVICE static void run_tiles(Params const& p, char* smem) {
    StreamKPartition const& sk = p.stream_k;
    const int k_tiles = (p.mainloop.k + Config::BK - 1) / Config::BK;  // 0 when k == 0
    const int c = static_cast<int>(blockIdx.x);
    Accumulators accum;
    STRATA_SM80_TRACE(0);
    // Segment s of this CTA's work: one tile, or the part of one tile its range holds. Everything
    // is recomputed from blockIdx and s, so that only s lives across the mainloop.
    for (int s = 0;; ++s) {
      int g, k_begin, k_end, j = c - sk.first_tile;
      if (j < 0) {  // data parallel: one whole tile
        if (s > 0) break;
        g = c, k_begin = 0, k_end = k_tiles;
      } else {
        const int b = sk.begin(j), e = sk.begin(j + 1);
        const int t = b / sk.k_tiles + s;
        const int start = s == 0 ? b : t * sk.k_tiles;
        if (start >= e) break;
        g = sk.first_tile + t;
        k_begin = start - t * sk.k_tiles;
        k_end = e - t * sk.k_tiles < sk.k_tiles ? e - t * sk.k_tiles : sk.k_tiles;
      }
      if (s > 0) __syncthreads();  // the previous tile's epilogue is done with shared memory
      const TileCoord tile = p.scheduler.global_tile(g);
      if (s < 2) STRATA_SM80_TRACE(1 + 4 * s);
      mainloop(p, tile, k_begin, k_end, accum, smem);
      if (s < 2) STRATA_SM80_TRACE(2 + 4 * s);
      bool finish = true;
      if (j >= 0) {
        const int t = g - sk.first_tile;
        const int first = sk.first_cta(t), last = sk.last_cta(t);
        auto slot_of = [&](int i) { return p.slots + int64_t(sk.slot(first + i, t)) * kSlotElements; };
        if (first != last)
          finish = add_partials(p.tile_counters + t, last - first + 1, j - first, slot_of, accum,
                                p.mainloop.m - tile.m * Config::BM, smem);
      }
      if (s < 2) STRATA_SM80_TRACE(3 + 4 * s);
      if (finish) {
        epilogue(p, tile, accum, smem);
        if (s < 2) STRATA_SM80_TRACE(4 + 4 * s);
      }
    }
  }

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
  STRATA_DEVICE __forceinline__ static bool add_partials(int* counter, int count, int mine, SlotOf const& slot_of,
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

  // The reading half of add_partials: accum = ((x0 + x1) + ...) + x_{count-1}, where x_mine is
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
    static_assert(row_bytes % 16 == 0, "add_partials: partial tiles move in 16-byte pieces");
    static_assert(2 * row_bytes <= smem_bytes, "add_partials: two pairs per slice thread must fit shared memory");
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
          arch::cp_async<16, arch::CacheLevel::Global>(
              smem + (at + b) * piece_bytes + c * 16,
              reinterpret_cast<char const*>(slot_of(first + b)) + int64_t(p0) * row_bytes + c * 16);
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

// Parallel split-K: D = functor(Σ_s partials[s], C) for every element; one thread per 4 columns
// of one row.
template <class TD, class P, class Functor>
static __global__ void splitk_reduce_kernel(P const* partials, int64_t partials_ld, int splits, int batches, int m, int n,
                                     Sm80EpilogueArguments<TD, TD, Functor> out, int64_t batch_stride_c,
                                     int64_t batch_stride_d) {
  const int quads = (n + 3) / 4;
  const int64_t idx = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int batch = blockIdx.y;
  if (idx >= int64_t(m) * quads) return;
  const int64_t slice = int64_t(m) * partials_ld;
  const bool reads_source = out.functor.reads_source();
  detail::splitk_reduce_quad(partials + int64_t(batch) * slice, partials_ld, slice * batches, splits, int(idx / quads),
                             int(idx % quads) * 4, n, out, out.D + batch * batch_stride_d,
                             reads_source ? out.C + batch * batch_stride_c : nullptr);
}

}  // namespace strata
