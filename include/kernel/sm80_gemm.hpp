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
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "../collective/epilogue_functors.hpp"
#include "../collective/sm80_epilogue.hpp"
#include "../collective/sm80_mainloop.hpp"
#include "argument_checks.hpp"
#include "gemm_arguments.hpp"
#include "launch.hpp"
#include "sm80_partial_tiles.hpp"
#include "status.hpp"
#include "tile_scheduler.hpp"
#include "work_plan.hpp"

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
// tiles alone was slower than the 1-D entry's data-parallel path (bench/RESULTS.md).
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
  if (col + 4 <= n) {
    for (int s = 0; s < splits; ++s) {
      const Quad q = __ldcg(reinterpret_cast<Quad const*>(src + s * split_stride));
      sum[0] += q.x;
      sum[1] += q.y;
      sum[2] += q.z;
      sum[3] += q.w;
    }
  } else {  // the row's last quad: its padding columns were never written, so they are not read
    for (int s = 0; s < splits; ++s) {
      for (int e = 0; e < n - col; ++e) sum[e] += __ldcg(src + s * split_stride + e);
    }
  }
  TD* d_row = d + int64_t(row) * out.ldd;
  TD const* c_row = c ? c + int64_t(row) * out.ldc : nullptr;
  for (int e = 0; e < 4 && col + e < n; ++e) {
    const Compute source = c_row ? to_compute<Compute>(c_row[col + e]) : Compute(0);
    d_row[col + e] = store_as<TD>(out.functor(static_cast<Compute>(sum[e]), source, row, col + e));
  }
}
}  // namespace detail

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
    // order (value pair q of thread t at pair q × threads + t, see Sm80PartialTiles), and one arrival
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
  using PartialTiles = Sm80PartialTiles<Config, Accumulators, smem_bytes>;
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
      const bool finish = PartialTiles::add(p.tile_counters + g, splits, tile.split, slot_of, accum,
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
  // straight to the epilogue; a shared one is added up by PartialTiles::add, and whichever of its CTAs
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
          finish = PartialTiles::add(p.tile_counters + t, last - first + 1, j - first, slot_of, accum,
                                     p.mainloop.m - tile.m * Config::BM, smem);
      }
      if (s < 2) STRATA_SM80_TRACE(3 + 4 * s);
      if (finish) {
        epilogue(p, tile, accum, smem);
        if (s < 2) STRATA_SM80_TRACE(4 + 4 * s);
      }
    }
  }


  // ---- The host side: the kernel contract (gemm.hpp calls these in order) --------------------

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, ElementD, Functor>;

  // Whether this kernel can compute `a`, and if not, why: every rule of its launch and its copies.
  static Status can_implement(Arguments const& a) {
    if (Status s = detail::check_problem_shape(a); !s) return s;
    if (a.split_k < 0) return {StatusCode::invalid_problem, "split_k must be 0 (automatic) or positive"};
    if (a.split_k > 65535) return {StatusCode::problem_too_large, "split_k must be at most 65535 (grid z)"};
    if (a.batch_count > 65535) return {StatusCode::problem_too_large, "batch_count must be at most 65535 (grid y)"};
    if (a.schedule == Schedule::stream_k && a.split_k > 1)
      return {StatusCode::invalid_problem,
              "split_k must be 0 or 1 with Schedule::stream_k, which chooses the K ranges itself"};
    if (a.m == 0 || a.n == 0) return Status::success();  // nothing to compute, nothing is touched
    if (a.D == nullptr) return {StatusCode::null_pointer, "D is null"};
    if (a.k > 0 && a.A == nullptr) return {StatusCode::null_pointer, "A is null while k > 0"};
    if (a.k > 0 && a.B == nullptr) return {StatusCode::null_pointer, "B is null while k > 0"};
    if (Status s = check_operand("A", a.A, a.lda, a.batch_stride_a, Config::a_k_major ? a.k : a.m,
                                 Config::vector_a, a.k > 0, a.batch_count);
        !s)
      return s;
    if (Status s = check_operand("B", a.B, a.ldb, a.batch_stride_b, Config::b_k_major ? a.k : a.n,
                                 Config::vector_b, a.k > 0, a.batch_count);
        !s)
      return s;
    // Below the 16-byte rule the epilogue checks each vector's alignment itself: elements suffice.
    constexpr int vec_d = Config::alignment >= 16 ? 16 / int(sizeof(ElementD)) : 1;
    if (Status s = check_operand("D", a.D, a.ldd, a.batch_stride_d, a.n, vec_d, true, a.batch_count); !s) return s;
    if (Status s = detail::check_output_and_epilogue(a); !s) return s;
    if (a.epilogue.reads_source()) {
      if (Status s = check_operand("C", a.C, a.ldc, a.batch_stride_c, a.n, vec_d, true, a.batch_count); !s) return s;
    }
    // Whole tiles run over a 1-D grid of the tiles of all batches.
    if (tile_count(a) * a.batch_count > std::numeric_limits<int>::max())
      return {StatusCode::problem_too_large, "more output tiles over all batches than a grid holds (2^31 - 1)"};
    return detail::check_shared_memory(smem_bytes, detail::max_shared_memory_per_block());
  }

  // How `a` is shared out among CTAs (work_plan.hpp), and the workspace bytes that takes.
  static WorkPlan plan(Arguments const& a) { return WorkPlan::make(a, plan_tile(), Gpu{}); }
  static size_t workspace_size(Arguments const& a) { return plan(a).workspace_bytes(); }

  // Checks the workspace against the plan and zeroes it on `stream` (every run leaves the tile
  // counters zero again). Nothing is written on refusal.
  static Status initialize_workspace(Arguments const& a, void* workspace, size_t workspace_bytes, cudaStream_t stream) {
    const WorkPlan pl = plan(a);
    const size_t needed = pl.workspace_bytes();
    if (needed > 0 && (workspace == nullptr || workspace_bytes < needed)) {
      const std::string what = pl.runs_stream_k
                                   ? std::string("Stream-K over ") + std::to_string(pl.stream_k.ctas) + " CTAs"
                                   : "split-K over " + std::to_string(pl.splits) + " splits";
      const std::string got = workspace == nullptr && workspace_bytes > 0 ? "a null pointer (claiming " +
                                                                                 std::to_string(workspace_bytes) + " bytes)"
                                                                           : std::to_string(workspace_bytes);
      return {StatusCode::workspace_too_small, what + " needs " + std::to_string(needed) + " bytes of workspace, got " + got};
    }
    if (needed > 0 && reinterpret_cast<uintptr_t>(workspace) % 16 != 0)
      return {StatusCode::misaligned_pointer, "the workspace must be 16-byte aligned"};
    // Counters zeroed, and the partial tiles after them too, so that the parts of a slot no CTA
    // stores (rows below the matrix), which move with the rest, read as zeros rather than as
    // uninitialized memory (compute-sanitizer initcheck). Parallel split-K's partial outputs
    // need nothing: each is written before it is read.
    if (const size_t bytes = pl.counters_bytes + pl.slots_bytes; bytes > 0) {
      if (cudaError_t e = cudaMemsetAsync(workspace, 0, bytes, stream); e != cudaSuccess)
        return {StatusCode::cuda_error, std::string("zeroing the tile counters and partial tiles: ") +
                                            cudaGetErrorString(e)};
    }
    return Status::success();
  }

  // The device-side parameters of `a` over a workspace that initialize_workspace accepted.
  static Params to_params(Arguments const& a, void* workspace) {
    const WorkPlan pl = plan(a);
    Params p{};
    p.mainloop = {a.A, a.lda, a.B, a.ldb, a.m, a.n, a.k};
    p.epilogue = {a.D, a.ldd, a.epilogue.reads_source() ? a.C : nullptr, a.ldc, a.epilogue};
    p.batch_stride_a = a.batch_stride_a;
    p.batch_stride_b = a.batch_stride_b;
    p.batch_stride_c = a.batch_stride_c;
    p.batch_stride_d = a.batch_stride_d;
    p.scheduler = GroupedTileScheduler::make(a.m, a.n, Config::BM, Config::BN, a.batch_count, pl.splits,
                                             a.raster_group, a.raster_order);
    const int k_tiles = WorkPlan::k_tile_count(a, plan_tile());
    p.k_tiles_per_split = (k_tiles + pl.splits - 1) / pl.splits;  // read by the split-K entry only
    char* ws = static_cast<char*>(workspace);
    p.tile_counters = pl.counters_bytes > 0 ? reinterpret_cast<int*>(ws) : nullptr;
    p.slots = pl.slots_bytes > 0 ? reinterpret_cast<ElementPartial*>(ws + pl.counters_bytes) : nullptr;
    p.partials = pl.partials_bytes > 0 ? reinterpret_cast<ElementPartial*>(ws + pl.counters_bytes) : nullptr;
    p.partials_ld = WorkPlan::partials_ld(a);
    p.stream_k = pl.stream_k;
    return p;
  }

  // The launch shape: one split runs whole tiles, then Stream-K's shared ones, over a 1-D grid;
  // K splits run the grid (tiles, batches, splits). No clusters on Ampere.
  static dim3 grid(Params const& p) {
    const auto& s = p.scheduler;
    return s.splits > 1 ? dim3(unsigned(s.tiles_per_batch()), unsigned(s.batches), unsigned(s.splits))
                        : dim3(unsigned(p.stream_k.first_tile + p.stream_k.ctas));
  }
  static dim3 block() { return dim3(kThreads); }
  static dim3 cluster(Params const&) { return dim3(1, 1, 1); }

  // Launches the kernel on `stream`, and parallel split-K's reduction after it.
  static Status launch(Params const& p, cudaStream_t stream, LaunchOptions const& = {}) {
    if (p.mainloop.m == 0 || p.mainloop.n == 0) return Status::success();
    // The shared-memory opt-in goes to the very function pointer launched: a kernel instantiated
    // in several translation units has one copy per unit (see above).
    const auto kernel = p.scheduler.splits > 1 ? split_k_entry() : entry();
    if (cudaError_t e = detail::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem_bytes); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("cudaFuncSetAttribute: ") + cudaGetErrorString(e)};
    kernel<<<grid(p), block(), smem_bytes, stream>>>(p);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("GEMM launch: ") + cudaGetErrorString(e)};
    if (p.partials != nullptr) {
      const int m = p.mainloop.m, n = p.mainloop.n;
      const int64_t threads = int64_t(m) * ((n + 3) / 4);
      dim3 reduce_grid(unsigned((threads + 255) / 256), unsigned(p.scheduler.batches));
      splitk_reduce_kernel<ElementD, ElementPartial, Functor><<<reduce_grid, 256, 0, stream>>>(
          p.partials, p.partials_ld, p.scheduler.splits, p.scheduler.batches, m, n, p.epilogue, p.batch_stride_c,
          p.batch_stride_d);
      if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        return {StatusCode::cuda_error, std::string("split-K reduction launch: ") + cudaGetErrorString(e)};
    }
    return Status::success();
  }

  // Queries of the plan, for Sm80AutoGemm, benches and tests.
  static int effective_splits(Arguments const& a) { return plan(a).splits; }
  static bool uses_stream_k(Arguments const& a) { return plan(a).runs_stream_k; }
  static StreamKPartition stream_k_partition(Arguments const& a) { return plan(a).stream_k; }
  static long long tile_count(Arguments const& a) { return WorkPlan::tile_count(a, plan_tile()); }
  // CTAs of the 1-D entry (whole tiles and Stream-K), and of the split-K entry, that the current
  // GPU holds at once; 132 if it cannot say (no GPU).
  static int wave() { return detail::wave_of(reinterpret_cast<const void*>(entry()), kThreads, smem_bytes); }
  static int split_k_wave() {
    return detail::wave_of(reinterpret_cast<const void*>(split_k_entry()), kThreads, smem_bytes);
  }

 private:
  static constexpr PlanTile plan_tile() {
    return {Config::BM, Config::BN, Config::BK, size_t(kSlotElements) * sizeof(ElementPartial), sizeof(ElementPartial)};
  }
  // What WorkPlan asks of the GPU, answered lazily: occupancy is queried only where a choice needs it.
  struct Gpu {
    int sms() const { return detail::sm_count(); }
    int wave() const { return Sm80GemmKernel::wave(); }
    int split_k_wave() const { return Sm80GemmKernel::split_k_wave(); }
  };

  template <class T>
  static Status check_operand(const char* name, T const* ptr, int64_t ld, int64_t batch_stride, int contiguous_extent,
                              int vector, bool used, int batches) {
    if (!used) return Status::success();
    const std::string n(name);
    const std::string ld_name = "ld" + std::string(1, char(name[0] + 32));
    const int alignment = vector * int(sizeof(T));  // bytes
    if (reinterpret_cast<uintptr_t>(ptr) % alignment != 0)
      return {StatusCode::misaligned_pointer, n + " must be " + std::to_string(alignment) +
                                                  "-byte aligned (the kernel moves " + std::to_string(alignment) +
                                                  "-byte vectors)"};
    if (ld < (contiguous_extent > 1 ? contiguous_extent : 1))
      return {StatusCode::invalid_leading_dim, ld_name + " (" + std::to_string(ld) +
                                                   ") is smaller than the contiguous extent of " + n + " (" +
                                                   std::to_string(contiguous_extent) + ")"};
    if (ld % vector != 0)
      return {StatusCode::misaligned_leading_dim, ld_name + " (" + std::to_string(ld) + ") must be a multiple of " +
                                                      std::to_string(vector) + " elements (" +
                                                      std::to_string(alignment) + " bytes)"};
    if (batches > 1 && batch_stride % vector != 0)
      return {StatusCode::misaligned_leading_dim, "the batch stride of " + n + " must be a multiple of " +
                                                      std::to_string(vector) + " elements (" +
                                                      std::to_string(alignment) + " bytes)"};
    return Status::success();
  }
};

}  // namespace strata
