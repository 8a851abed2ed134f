// Strata floor 4: the Ampere GEMM kernel. A grid of CTAs, one output tile each (in the grouped
// order of the tile scheduler), per batch and per K split:
//
//   tile  = scheduler.tile(blockIdx.x, batch = blockIdx.y, split = blockIdx.z)
//   accum = mainloop(A rows of the tile, B columns of the tile, this split's K tiles)
//   D     = epilogue(accum, C)                        one split
//   W     = accum  (fp32/int32 partials)              several splits (split-K)
//
// and the split-K reduction, D = epilogue(Σ_splits W, C): serial, by the last CTA of each tile to
// finish (a counter per tile in the workspace says which one that is), or parallel, by a second
// kernel over the whole output.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "../collective/epilogue_functors.hpp"
#include "../collective/sm80_epilogue.hpp"
#include "../collective/sm80_mainloop.hpp"
#include "tile_scheduler.hpp"

namespace strata {

// `static`: each translation unit that instantiates a kernel gets its own copy, registered with its
// own device code. With one shared (weak) instantiation across the translation units of a program,
// cudaFuncSetAttribute (the > 48 KB shared-memory opt-in) reached one module's copy while the launch
// used another's, and the launch failed (seen on the H200 with three test files using one config).
// Gemm::run therefore also sets the attribute on the very pointer it launches.
template <class Kernel>
static __global__ void __launch_bounds__(Kernel::kThreads) sm80_gemm_kernel(typename Kernel::Params const params) {
  extern __shared__ __align__(128) char smem[];
  Kernel::run(params, smem);
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
    int k_tiles_per_split;
    ElementPartial* partials;  // split-K only: splits × batches × m × partials_ld accumulators
    int64_t partials_ld;
    // Serial split-K only: one arrival counter per tile and batch, zero between runs (the last
    // arrival resets it). Null for parallel split-K, where a second kernel reduces.
    int* tile_counters;
  };

  // The __global__ function that runs this kernel.
  static auto entry() { return &sm80_gemm_kernel<Sm80GemmKernel>; }

  STRATA_DEVICE static void run(Params const& p, char* smem) {
    const TileCoord tile = p.scheduler.tile(blockIdx.x, blockIdx.y, blockIdx.z);
    const int m0 = tile.m * Config::BM, n0 = tile.n * Config::BN;

    Sm80MainloopArguments<Config> operands = p.mainloop;
    operands.A += tile.batch * p.batch_stride_a;
    operands.B += tile.batch * p.batch_stride_b;
    const int k_tiles = (operands.k + Config::BK - 1) / Config::BK;
    const int k_begin = tile.split * p.k_tiles_per_split;
    const int k_end = k_begin + p.k_tiles_per_split < k_tiles ? k_begin + p.k_tiles_per_split : k_tiles;

    typename Config::TiledMmaType mma;
    auto accum = mma.get_slice(threadIdx.x).partition_fragment_C(make_shape(Int<Config::BM>{}, Int<Config::BN>{}));
    clear(accum);
    Mainloop::run(operands, m0, n0, k_begin, k_end, accum, smem);

    if (p.scheduler.splits == 1) {
      auto out = p.epilogue;
      out.D += tile.batch * p.batch_stride_d;
      if (out.C != nullptr) out.C += tile.batch * p.batch_stride_c;
      Epilogue::run(out, operands.m, operands.n, m0, n0, accum, smem);
    } else {
      const int64_t slice = int64_t(operands.m) * p.partials_ld;
      const int64_t split_stride = slice * p.scheduler.batches;
      ElementPartial* batch_partials = p.partials + int64_t(tile.batch) * slice;
      Sm80EpilogueArguments<ElementPartial, ElementPartial, StoreAccumulator> out{
          batch_partials + tile.split * split_stride, p.partials_ld, nullptr, 0, {}};
      PartialEpilogue::run(out, operands.m, operands.n, m0, n0, accum, smem);
      if (p.tile_counters != nullptr) serial_reduce(p, tile, m0, n0, batch_partials, split_stride, accum, smem);
    }
  }

  // Serial split-K: every split has written its partial tile; the last one to arrive adds the
  // others' partials to its own accumulators (still in registers) and runs the tile's epilogue.
  // Writers publish with a fence before counting; the last arrival fences again before reading
  // (the threadfence-reduction pattern of the CUDA programming guide). The partials are read past
  // L1 (ld.global.cg), 16 of a thread's loads in flight at a time.
  template <class Accum>
  STRATA_DEVICE static void serial_reduce(Params const& p, TileCoord const& tile, int m0, int n0,
                                          ElementPartial const* batch_partials, int64_t split_stride, Accum& accum,
                                          char* smem) {
    int* is_last = reinterpret_cast<int*>(smem);  // the partial epilogue is done with shared memory
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) {
      int* counter = p.tile_counters + int64_t(tile.batch) * p.scheduler.tiles_per_batch() + blockIdx.x;
      const int arrived = atomicAdd(counter, 1);
      const bool last = arrived == p.scheduler.splits - 1;
      if (last) *counter = 0;  // every split of this tile has counted: ready for the next run
      *is_last = last;
    }
    __syncthreads();
    const bool last = *is_last;
    __syncthreads();  // the epilogue below reuses shared memory
    if (!last) return;
    __threadfence();

    const int m = p.mainloop.m, n = p.mainloop.n;
    typename Config::TiledMmaType mma;
    auto coords = mma.get_slice(threadIdx.x).partition_C(make_identity_tensor(make_shape(Int<Config::BM>{}, Int<Config::BN>{})));
    constexpr int values = decltype(size(accum.layout()))::value;
    const bool whole = m0 + Config::BM <= m && n0 + Config::BN <= n;
    ElementPartial const* tile_partials = batch_partials + int64_t(m0) * p.partials_ld + n0;
    // In groups of 16 accumulators, every other split's values loaded (16 loads in flight per
    // thread) and added; the group's offsets are computed once and reused across the splits.
    constexpr int group = values % 16 == 0 ? 16 : 1;
    STRATA_UNROLL
    for (int g = 0; g < values; g += group) {
      int offset[group];  // within the tile: Gemm::initialize keeps BM * partials_ld below 2^31
      bool inside[group];
      STRATA_UNROLL
      for (int i = 0; i < group; ++i) {
        const int r = get<0>(coords(g + i)), c = get<1>(coords(g + i));
        offset[i] = r * int(p.partials_ld) + c;
        inside[i] = whole || (m0 + r < m && n0 + c < n);
      }
      for (int s = 0; s < p.scheduler.splits; ++s) {
        if (s == tile.split) continue;
        ElementPartial const* src = tile_partials + s * split_stride;
        ElementPartial loaded[group];
        STRATA_UNROLL
        for (int i = 0; i < group; ++i) loaded[i] = inside[i] ? __ldcg(src + offset[i]) : ElementPartial(0);
        STRATA_UNROLL
        for (int i = 0; i < group; ++i) accum(g + i) += loaded[i];
      }
    }
    auto out = p.epilogue;
    out.D += tile.batch * p.batch_stride_d;
    if (out.C != nullptr) out.C += tile.batch * p.batch_stride_c;
    Epilogue::run(out, m, n, m0, n0, accum, smem);
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
