// Strata floor 4: the Ampere GEMM kernel. A grid of CTAs, one output tile each (in the grouped
// order of the tile scheduler), per batch and per K split:
//
//   tile  = scheduler.tile(blockIdx.x, batch = blockIdx.y, split = blockIdx.z)
//   accum = mainloop(A rows of the tile, B columns of the tile, this split's K tiles)
//   D     = epilogue(accum, C)                        one split
//   W     = accum  (fp32 partials, reduced later)     several splits (split-K)
//
// and the split-K reduction: D = epilogue(Σ_splits W, C).
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
      Sm80EpilogueArguments<ElementPartial, ElementPartial, StoreAccumulator> out{
          p.partials + (int64_t(tile.split) * p.scheduler.batches + tile.batch) * slice, p.partials_ld, nullptr, 0,
          {}};
      PartialEpilogue::run(out, operands.m, operands.n, m0, n0, accum, smem);
    }
  }
};


// D = functor(Σ_s partials[s], C) for every element; one thread per 4 columns of one row.
template <class TD, class P, class Functor>
static __global__ void splitk_reduce_kernel(P const* partials, int64_t partials_ld, int splits, int batches, int m, int n,
                                     Sm80EpilogueArguments<TD, TD, Functor> out, int64_t batch_stride_c,
                                     int64_t batch_stride_d) {
  static_assert(sizeof(P) == 4, "split-K partials are 4-byte accumulators (fp32 or int32)");
  using Compute = detail::compute_t<P>;
  struct alignas(16) Quad {
    P v[4];
  };
  const int quads = (n + 3) / 4;
  const int64_t idx = blockIdx.x * int64_t(blockDim.x) + threadIdx.x;
  const int batch = blockIdx.y;
  if (idx >= int64_t(m) * quads) return;
  const int row = int(idx / quads);
  const int col = int(idx % quads) * 4;
  const int64_t slice = int64_t(m) * partials_ld;
  P sum[4] = {0, 0, 0, 0};
  for (int s = 0; s < splits; ++s) {
    const Quad q = *reinterpret_cast<Quad const*>(partials + (int64_t(s) * batches + batch) * slice +
                                                  int64_t(row) * partials_ld + col);
    for (int e = 0; e < 4; ++e) sum[e] += q.v[e];
  }
  TD* d = out.D + batch * batch_stride_d + int64_t(row) * out.ldd;
  TD const* c = out.C ? out.C + batch * batch_stride_c + int64_t(row) * out.ldc : nullptr;
  const bool reads_source = out.functor.reads_source();
  for (int e = 0; e < 4 && col + e < n; ++e) {
    const Compute source = reads_source ? detail::to_compute<Compute>(c[col + e]) : Compute(0);
    d[col + e] = detail::store_as<TD>(out.functor(static_cast<Compute>(sum[e]), source, row, col + e));
  }
}

}  // namespace strata
