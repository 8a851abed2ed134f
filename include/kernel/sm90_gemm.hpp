// Strata floor 4: the Hopper GEMM kernel, persistent and warp-specialized. One CTA per SM (in
// clusters of ClusterM × ClusterN) walks the output tiles of all batches: cluster c takes the
// cluster tiles c, c + clusters, ... in the grouped order of the tile scheduler, and each CTA of
// the cluster its own tile of one:
//
//   producer warpgroup (40 registers):  one thread TMAs the K tiles of each of its tiles into the
//                                       ring of stages, multicasting what its cluster shares
//                                       (collective/sm90_mainloop.hpp)
//   consumer warpgroups (232 registers): wgmma over the ring, then the epilogue functor on the
//                                       accumulators and the stores (collective/sm90_epilogue.hpp)
//       cooperative: both warpgroups on every tile, BM / 2 rows each
//       pingpong:    warpgroup w on the CTA's tiles w, w + 2, ...; their mainloops take turns
//                    (an ordered pair of named barriers), so one's epilogue overlaps the other's
//                    mainloop
//
// The producer runs ahead across tiles, so the next tile's operands land while the consumers
// store the last one. Host side: the kernel contract of gemm.hpp (can_implement ... launch).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "../atom/tma.hpp"
#include "../collective/epilogue_functors.hpp"
#include "../collective/sm90_epilogue.hpp"
#include "../collective/sm90_epilogue_tma.hpp"
#include "../collective/sm90_mainloop.hpp"
#include "argument_checks.hpp"
#include "sm90_checks.hpp"
#include "sm90_l2_hints.hpp"
#include "gemm_arguments.hpp"
#include "launch.hpp"
#include "sm90_pair_sums.hpp"
#include "sm90_partial_sums.hpp"
#include "sm90_work.hpp"
#include "status.hpp"
#include "tile_scheduler.hpp"

// Timeline hook (bench/tools/sm90_trace.cu), nothing unless the includer defines it: every thread
// of a consumer warpgroup passes STRATA_SM90_TRACE(event, unit, warpgroup) for each work unit (a
// tile, a K split or a Stream-K share): before the mainloop (0), after it (1), after the partial
// sums are added (2, only where this warpgroup stores the tile) and after the epilogue (3). A
// ping-pong event 0's clock read may run before the turn's bar.sync has waited.
#ifndef STRATA_SM90_TRACE
#define STRATA_SM90_TRACE(event, unit, warpgroup) ((void)0)
#endif

namespace strata {

template <class Kernel>
static __global__ void __launch_bounds__(Kernel::kThreads, 1)
    sm90_gemm_kernel(const __grid_constant__ typename Kernel::Params params) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ char smem[];
  Kernel::run(params, smem);
#endif
}

template <class Config_, class TD, class Functor_, Sm90Store Store = Sm90Store::tma>
struct Sm90GemmKernel {
  using Config = Config_;
  using Functor = Functor_;
  using ElementA = typename Config::ElementA;
  using ElementB = typename Config::ElementB;
  using ElementC = TD;
  using ElementD = TD;
  using Mainloop = Sm90Mainloop<Config>;
  using Epilogue = Sm90Epilogue<Config, TD, Functor, Store == Sm90Store::plain_transposed>;  // plain stores
  static constexpr bool kTmaStores = Store == Sm90Store::tma;
  // D as TMA reads it: stmatrix + TMA stores. Plain stores name only its (empty) types, so the TMA
  // epilogue's own rules (e.g. BN a multiple of its sub-tile) bind only the kernels that use it.
  struct NoTmaEpilogue {
    struct Params {};
    struct State {};
    struct SharedStorage {};
  };
  using TmaEpilogue = std::conditional_t<kTmaStores, Sm90TmaEpilogue<Config, TD, Functor>, NoTmaEpilogue>;
  struct NoStorage {};
  using PartialSums = Sm90PartialSums<Config>;
  using PairSums = Sm90PairSums<Config>;
  static constexpr bool kPairs = Config::kPairs;
  // Members a kernel does not use take no bytes: one more byte would round the storage up by 1 KB
  // (its 1024-byte alignment) and cost a tile that fits exactly one of its stages.
  struct EpilogueStorage {
    [[no_unique_address]] std::conditional_t<kTmaStores, typename TmaEpilogue::SharedStorage, NoStorage> epilogue;
    [[no_unique_address]] std::conditional_t<Epilogue::kStaged, typename Epilogue::Staging[Config::kConsumers],
                                             NoStorage> staged;
  };
  struct SharedStorage {
    typename Mainloop::SharedStorage mainloop;
    union {  // K pairs' sums in the epilogue's place: read before the CTA's one epilogue (sm90_pair_sums.hpp)
      EpilogueStorage out;
      std::conditional_t<kPairs, typename PairSums::Storage, NoStorage> pair;
    };
    [[no_unique_address]] std::conditional_t<kPairs, typename PairSums::Barriers, NoStorage> pair_full;
  };
  // The sums may cover the TMA epilogue's staging (its first member), never its barriers after it.
  static constexpr bool pair_sums_fit() {
    if constexpr (kPairs && kTmaStores)
      return sizeof(typename PairSums::Storage) <= offsetof(typename TmaEpilogue::SharedStorage, c_loaded);
    else
      return true;
  }
  static_assert(pair_sums_fit(), "Sm90GemmKernel: K pairs' sums (the tile's accumulators, 4 bytes each) must fit in "
                                 "the TMA epilogue's staging buffers: take a configuration without pairs");
  static_assert(Config::kSplitTail == 0 || kTmaStores,
                "Sm90GemmKernel: a split tail overlaps the TMA epilogue's left-half sub-tiles with the right half's "
                "wgmma; plain stores read every accumulator at once (and ptxas serialized that kernel's wgmma): take "
                "Sm90Store::tma or a configuration without a split tail");
  static constexpr int BM = Config::BM, BN = Config::BN, BK = Config::BK;
  static constexpr int ClusterM = Config::ClusterM, ClusterN = Config::ClusterN;
  static constexpr int kClusterSize = Config::kClusterSize;
  static constexpr int kThreads = Config::kThreads;
  static constexpr bool kPingpong = Config::pingpong;
  // The storage, plus room to align its start to 1024 bytes (dynamic shared memory is not).
  static constexpr int smem_bytes = int(sizeof(SharedStorage)) + 1024;
  // Named barriers: 0 __syncthreads', 1 and 2 the epilogue's (TMA or staged stores), then the turns'.
  static constexpr int kTurnBarrier = 3;

  // TMA descriptors first: CUDA 13 declares CUtensorMap alignas(128), and the parameter block
  // takes that alignment (a __grid_constant__ descriptor must stay aligned in parameter space).
  struct alignas(128) Params {
    CUtensorMap tma_a;  // (m, k, batches) of A
    CUtensorMap tma_b;  // (n, k, batches) of B
    typename TmaEpilogue::Params tma_epilogue;  // with TMA stores
    typename Epilogue::Arguments epilogue;     // with plain stores
    int64_t batch_stride_c, batch_stride_d;
    int m, n, k_tiles;
    int batched_a, batched_b;  // 0: every batch reads batch 0 of the operand (batch stride 0)
    int total_tiles;  // cluster tiles over all batches
    GroupedTileScheduler scheduler;  // over cluster tiles (BM · ClusterM) × (BN · ClusterN)
    Sm90WorkPlan plan;               // the units of the clusters (one CTA each without clusters)
    typename PartialSums::Workspace workspace;
    int clusters;                    // the grid, in clusters
    Sm90L2HintPair l2;               // the operands' L2 hints (sm90_l2_hints)
    unsigned early_operands;         // Mainloop::kLoad* bits loaded before griddepcontrol.wait (launch() sets them)
    bool trigger_after_loads;        // PdlTrigger::after_loads (launch() sets it)
  };

  static auto entry() { return &sm90_gemm_kernel<Sm90GemmKernel>; }

  STRATA_DEVICE static void run(Params const& p, char* smem_raw) {
    const uint32_t raw = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw));
    auto& smem = *reinterpret_cast<SharedStorage*>(smem_raw + ((1024u - raw % 1024u) % 1024u));
    const int warpgroup = int(threadIdx.x) / 128;
    const int rank = kClusterSize == 1 ? 0 : int(arch::cluster_cta_rank());  // the partial sums are per CTA
    const bool pairs = kPairs && p.plan.pairs;
    const int pair_rank = pairs ? int(arch::cluster_cta_rank()) : 0;  // the K half this CTA computes
    const Sm90ClusterPosition at =
        kClusterSize == 1 ? Sm90ClusterPosition{} : Sm90ClusterPosition::make<ClusterM, ClusterN>(uint32_t(rank));
    if constexpr (kTmaStores) TmaEpilogue::init(smem.out.epilogue, int(threadIdx.x));
    if (threadIdx.x == 0) {
      Mainloop::Pipeline::init(smem.mainloop.pipeline, Mainloop::consumer_arrivals(Mainloop::kWriters));
      if (p.k_tiles > 0) {
        arch::prefetch_tensormap(&p.tma_a);
        arch::prefetch_tensormap(&p.tma_b);
      }
      if constexpr (kPairs) {
        if (pairs && pair_rank == 0) PairSums::init(smem.pair_full);
      }
    }
    // Every CTA's barriers exist before a peer multicasts into them, releases a stage or sends sums.
    if (kClusterSize > 1 || pairs)
      arch::cluster_sync();
    else
      __syncthreads();
    // Programmatic dependent launch: the set-up above may overlap the previous kernel of the
    // stream; no thread reads or writes global memory (operands, C, D, workspace) before that
    // kernel's results are visible (griddepcontrol.wait, a no-op for a launch without the
    // attribute), but the operands it does not write (p.early_operands) may fill the first stages.
    typename Mainloop::Pipeline pipe{smem.mainloop.pipeline, at.writers};
    typename Mainloop::State state{};
    const int group = p.plan.ctas_per_cluster(kClusterSize);
    const int cluster = int(blockIdx.x) / group, clusters = int(gridDim.x) / group;
    const int units = p.plan.unit_count(cluster, clusters);
    if (warpgroup == 0) {
      arch::setmaxnreg_dec<Config::kProducerRegisters>();
      if (threadIdx.x == 0) produce(p, pipe, state, smem, at, pair_rank, cluster, clusters, units);
    } else {
      arch::griddepcontrol_wait();
      arch::setmaxnreg_inc<Config::kConsumerRegisters>();
      const int consumer = warpgroup - 1;
      const int t = int(threadIdx.x) % 128;
      typename Mainloop::Accumulators acc;
      typename TmaEpilogue::State out{};
      if constexpr (kPingpong) {
        // Warpgroup 1 gives warpgroup 0 the first turn; each passes the turn on after its mainloop
        // unless the other has no unit left.
        if (consumer == 1) arch::named_barrier_arrive(kTurnBarrier + 0, 256);
        for (int u = 0; u < units; ++u) {
          const Sm90WorkUnit w = p.plan.unit(cluster, clusters, u);
          const Sm90KRange k = p.plan.k_range(w, pair_rank);
          if (u % 2 != consumer) {
            state = state.advanced(k.end - k.begin);  // the other warpgroup's stages
            continue;
          }
          arch::named_barrier_sync(kTurnBarrier + consumer, 256);
          STRATA_SM90_TRACE(0, u, consumer);
          Mainloop::mma(pipe, state, smem.mainloop, 0, k.end - k.begin, acc);  // no split tail: ping-pong
          STRATA_SM90_TRACE(1, u, consumer);
          if (u + 1 < units) arch::named_barrier_arrive(kTurnBarrier + (1 - consumer), 256);
          if (!add_other_parts(p, smem, w, pair_rank, rank, 0, consumer, t, acc)) continue;
          STRATA_SM90_TRACE(2, u, consumer);
          store_tile(p, smem, out, cta_tile(p, w.tile, at), consumer, 0, acc, t);
          STRATA_SM90_TRACE(3, u, consumer);
        }
      } else {
        const int row0 = consumer * Config::kWarpgroupRows;
        for (int u = 0; u < units; ++u) {
          const Sm90WorkUnit w = p.plan.unit(cluster, clusters, u);
          const Sm90KRange k = p.plan.k_range(w, pair_rank);
          STRATA_SM90_TRACE(0, u, consumer);
          auto tail = Mainloop::mma(pipe, state, smem.mainloop, row0, k.end - k.begin, acc);
          STRATA_SM90_TRACE(1, u, consumer);
          // A split tail's right half: final before the other K parts are added, else before the
          // epilogue first reads it.
          const auto finish_tail = [&] { Mainloop::finish_tail(pipe, tail, acc); };
          if (w.segments != 1 || (kPairs && p.plan.pairs)) finish_tail();
          if (!add_other_parts(p, smem, w, pair_rank, rank, consumer, consumer, t, acc)) continue;
          STRATA_SM90_TRACE(2, u, consumer);
          store_tile(p, smem, out, cta_tile(p, w.tile, at), consumer, row0, acc, t, finish_tail);
          finish_tail();  // where the epilogue stopped short of the right half
          STRATA_SM90_TRACE(3, u, consumer);
        }
      }
      if constexpr (kTmaStores) TmaEpilogue::drain(t);
    }
    // No CTA leaves while a peer may still multicast into it or release one of its stages. (A K
    // pair's rank 1 may leave: rank 0 waits for every byte it sent, and nothing reads rank 1.)
    if constexpr (kClusterSize > 1) arch::cluster_sync();
  }

  // Unit w's other K parts added to acc by consumer warpgroup `wg`, holding part `part` of the
  // tile: rank 1 of a K pair sends its half to rank 0, which adds it; then, where the plan still
  // splits the tile, the workspace's fixup. True where acc is then the whole sum, to be stored.
  STRATA_DEVICE static bool add_other_parts(Params const& p, SharedStorage& smem, Sm90WorkUnit const& w,
                                            int pair_rank, int rank, int part, int wg, int t,
                                            typename Mainloop::Accumulators& acc) {
    if constexpr (kPairs) {
      if (p.plan.pairs) {
        if (pair_rank != 0) {
          PairSums::send(smem.pair, smem.pair_full, part, t, acc);
          return false;
        }
        PairSums::receive(smem.pair, smem.pair_full, part, t, acc);
      }
    }
    return w.segments == 1 || PartialSums::finish(p.workspace, p.plan, w, rank, part, wg, t, acc);
  }

  // The producer thread: every K tile of this CTA's units, in order. The first stages (at most
  // the pipeline's depth, which are empty, so nothing waits for a consumer) take their
  // early_operands before griddepcontrol.wait and the rest after it.
  STRATA_DEVICE static void produce(Params const& p, typename Mainloop::Pipeline const& pipe,
                                    typename Mainloop::State& state, SharedStorage& smem, Sm90ClusterPosition const& at,
                                    int pair_rank, int cluster, int clusters, int units) {
    const unsigned early = p.early_operands;
    int early_tiles = 0;  // K tiles, from the first unit on, whose early operands were loaded
    if (early != 0) {
      typename Mainloop::State s = state;
      for (int u = 0; u < units && early_tiles < Mainloop::Stages; ++u) {
        const Sm90WorkUnit w = p.plan.unit(cluster, clusters, u);
        const Sm90KRange k = p.plan.k_range(w, pair_rank);
        const TileCoord tile = cta_tile(p, w.tile, at);
        const int end = min(k.end, k.begin + (Mainloop::Stages - early_tiles));
        Mainloop::load(pipe, s, smem.mainloop, &p.tma_a, &p.tma_b, at, tile.m * BM, tile.n * BN,
                       tile.batch * p.batched_a, tile.batch * p.batched_b, k.begin, end, p.l2, early);
        early_tiles += end - k.begin;
      }
    }
    arch::griddepcontrol_wait();
    for (int u = 0; u < units; ++u) {
      const Sm90WorkUnit w = p.plan.unit(cluster, clusters, u);
      const Sm90KRange k = p.plan.k_range(w, pair_rank);
      const TileCoord tile = cta_tile(p, w.tile, at);
      const int m0 = tile.m * BM, n0 = tile.n * BN, ba = tile.batch * p.batched_a, bb = tile.batch * p.batched_b;
      const int taken = min(k.end, k.begin + early_tiles);
      early_tiles -= taken - k.begin;
      if (taken > k.begin)
        Mainloop::load(pipe, state, smem.mainloop, &p.tma_a, &p.tma_b, at, m0, n0, ba, bb, k.begin, taken, p.l2,
                       Mainloop::kLoadBoth & ~early, false);
      Mainloop::load(pipe, state, smem.mainloop, &p.tma_a, &p.tma_b, at, m0, n0, ba, bb, taken, k.end, p.l2);
    }
    // One thread's launch_dependents stands for its CTA (the PTX ISA: later ones add nothing).
    if (p.trigger_after_loads) arch::griddepcontrol_launch_dependents();
  }

  // This CTA's tile of cluster tile g.
  STRATA_DEVICE static TileCoord cta_tile(Params const& p, int g, Sm90ClusterPosition const& at) {
    TileCoord tile = p.scheduler.global_tile(g);
    tile.m = tile.m * ClusterM + at.m;
    tile.n = tile.n * ClusterN + at.n;
    return tile;
  }

  // Consumer warpgroup `wg`'s rows [row0, row0 + kWarpgroupRows) of `tile` out through the
  // epilogue: by TMA stores where D allows them, else by plain stores. before_right(): see
  // Sm90TmaEpilogue::store (plain stores call it first).
  struct NoHook {
    STRATA_DEVICE void operator()() const {}
  };
  template <class BeforeRight = NoHook>
  STRATA_DEVICE static void store_tile(Params const& p, SharedStorage& smem, typename TmaEpilogue::State& state,
                                       TileCoord const& tile, int wg, int row0,
                                       typename Mainloop::Accumulators const& acc, int t,
                                       BeforeRight&& before_right = {}) {
    if constexpr (kTmaStores) {
      STRATA_UNROLL
      for (int mi = 0; mi < Config::kMmaM; ++mi)
        TmaEpilogue::store(p.tma_epilogue, smem.out.epilogue, state, acc[mi], wg, tile.m * BM + row0 + 64 * mi,
                           tile.n * BN, tile.batch, t, before_right);
    } else {
      before_right();  // a no-op: plain stores take no split tail
      auto out = p.epilogue;
      out.D += tile.batch * p.batch_stride_d;
      if (out.C != nullptr) out.C += tile.batch * p.batch_stride_c;
      STRATA_UNROLL
      for (int mi = 0; mi < Config::kMmaM; ++mi) {
        const int m0 = tile.m * BM + row0 + 64 * mi;
        if constexpr (Epilogue::kStaged)
          Epilogue::store_staged(out, p.m, p.n, m0, tile.n * BN, acc[mi], t, smem.out.staged[wg], 1u + uint32_t(wg));
        else
          Epilogue::store(out, p.m, p.n, m0, tile.n * BN, acc[mi], t);
      }
    }
  }

  // ---- The host side: the kernel contract (gemm.hpp calls these in order) --------------------

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, ElementD, Functor>;
  using OperandA = typename Config::OperandA;
  using OperandB = typename Config::OperandB;

  static Status can_implement(Arguments const& a) {
    if (Status s = detail::check_problem_shape(a); !s) return s;
    if (Status s = detail::sm90_check_work_split(a, kClusterSize); !s) return s;
    if (a.m == 0 || a.n == 0) return Status::success();
    if (a.D == nullptr) return {StatusCode::null_pointer, "D is null"};
    if (a.k > 0) {
      if (Status s = detail::sm90_check_tma_operand<OperandA>("A", a.A, a.lda, a.batch_stride_a, a.m, a.k, a.batch_count); !s)
        return s;
      if (Status s = detail::sm90_check_tma_operand<OperandB>("B", a.B, a.ldb, a.batch_stride_b, a.n, a.k, a.batch_count); !s)
        return s;
    }
    Arguments out = a;  // D's extents as stored: transposed stores write an n × m D
    if constexpr (Store == Sm90Store::plain_transposed) out.m = a.n, out.n = a.m;
    if (Status s = detail::sm90_check_output("D", a.D, a.ldd, out.n); !s) return s;
    if (Status s = detail::check_output_and_epilogue(out); !s) return s;
    if (a.epilogue.reads_source()) {
      if (Status s = detail::sm90_check_output("C", a.C, a.ldc, out.n); !s) return s;
    }
    if constexpr (kTmaStores) {
      if (Status s = TmaEpilogue::check(a.D, a.ldd, a.batch_stride_d, a.C, a.ldc, a.batch_stride_c, a.m, a.n,
                                        a.batch_count, a.epilogue);
          !s)
        return {s.code(), s.message() + " (or take the kernel's Sm90Store::plain variant)"};
    }
    if (cluster_tile_count(a) * a.batch_count * (a.split_k > 1 ? a.split_k : 1) > std::numeric_limits<int>::max())
      return {StatusCode::problem_too_large, "more output tiles (times K splits) over all batches than an int counts "
                                             "(2^31 - 1)"};
    return detail::check_shared_memory(smem_bytes, detail::max_shared_memory_per_block());
  }

  // How the work is shared out (Sm90WorkPlan::make); the GPU is asked for its resident clusters
  // only when there is work.
  // A configuration with pairs runs a split-K plan in K pairs where it can (Sm90WorkPlan::paired)
  // unless split_k_mode is serial.
  static Sm90WorkPlan work_plan(Arguments const& a) {
    const int tiles = int(cluster_tile_count(a) * a.batch_count), k_tiles = (a.k + BK - 1) / BK;
    const int ctas = tiles == 0 || k_tiles == 0 ? 0 : resident_clusters();
    const Sm90WorkPlan plan = Sm90WorkPlan::make(tiles, k_tiles, a.k, int(sizeof(ElementA)), ctas, a.schedule,
                                                 a.split_k, kClusterSize > 1, detail::study_split_lead);
    if constexpr (kPairs) {
      if (a.split_k_mode != SplitKMode::serial && plan.kind == Sm90WorkKind::split_k)
        return plan.paired(resident_pairs());
    }
    return plan;
  }
  // Whether `a` runs Stream-K: when asked for, or automatically (sm90_automatic_stream_k).
  static bool uses_stream_k(Arguments const& a) { return work_plan(a).kind == Sm90WorkKind::stream_k; }
  // The K splits of each tile `a` runs with (1: whole tiles or Stream-K), always added serially;
  // in K pairs, those of each pair's unit (whose two K halves add up in shared memory).
  static int effective_splits(Arguments const& a) { return work_plan(a).splits; }
  static bool uses_pairs(Arguments const& a) { return work_plan(a).pairs; }

  static size_t workspace_size(Arguments const& a) { return PartialSums::workspace_bytes(work_plan(a)); }
  static Status initialize_workspace(Arguments const& a, void* workspace, size_t bytes, cudaStream_t stream) {
    const Sm90WorkPlan plan = work_plan(a);
    const size_t need = PartialSums::workspace_bytes(plan);
    if (need == 0) return Status::success();
    if (workspace == nullptr || bytes < need)
      return {StatusCode::workspace_too_small, "the workspace holds " + std::to_string(bytes) + " bytes; this problem's "
                                               "partial tiles need " + std::to_string(need) + " (workspace_size)"};
    if (cudaError_t e = cudaMemsetAsync(workspace, 0, PartialSums::counter_bytes(plan), stream); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("zeroing the tile counters: ") + cudaGetErrorString(e)};
    return Status::success();
  }

  // The TMA descriptors are encoded here; can_implement has checked every rule they follow, so a
  // failure left is the driver's own, reported by launch().
  static Params to_params(Arguments const& a, void* workspace) {
    Params p{};
    p.plan = work_plan(a);
    p.workspace = PartialSums::carve(workspace, p.plan);
    const int resident = p.plan.pairs ? resident_pairs() : resident_clusters();
    // The clusters with work: every CTA of a Stream-K plan, else one per unit.
    const int units = p.plan.kind == Sm90WorkKind::stream_k ? resident
                      : p.plan.kind == Sm90WorkKind::split_k ? p.plan.total_tiles * p.plan.splits
                                                             : p.plan.total_tiles;
    p.clusters = units < resident ? units : resident;
    p.epilogue = {a.D, a.ldd, a.epilogue.reads_source() ? a.C : nullptr, a.ldc, a.epilogue};
    p.batch_stride_c = a.batch_stride_c;
    p.batch_stride_d = a.batch_stride_d;
    p.m = a.m, p.n = a.n;
    p.k_tiles = (a.k + BK - 1) / BK;
    p.l2 = sm90_l2_hints(a.l2_hints, a.m, a.n, BM, BN);
    p.batched_a = a.batch_count > 1 && a.batch_stride_a != 0;
    p.batched_b = a.batch_count > 1 && a.batch_stride_b != 0;
    p.scheduler = GroupedTileScheduler::make(a.m, a.n, BM * ClusterM, BN * ClusterN, a.batch_count, 1, a.raster_group,
                                             a.raster_order);
    p.total_tiles = int(cluster_tile_count(a) * a.batch_count);
    if (p.k_tiles > 0 && p.total_tiles > 0) {
      const Status sa = make_tma_descriptor(
          p.tma_a, a.A,
          OperandA::global_layout(a.m, a.k, a.lda, a.batch_stride_a, detail::sm90_operand_batches(a.batch_count, a.batch_stride_a)),
          typename OperandA::TmaBox{});
      const Status sb = make_tma_descriptor(
          p.tma_b, a.B,
          OperandB::global_layout(a.n, a.k, a.ldb, a.batch_stride_b, detail::sm90_operand_batches(a.batch_count, a.batch_stride_b)),
          typename OperandB::TmaBox{});
      if (!sa || !sb) p.total_tiles = -1;  // launch() refuses
    }
    if constexpr (kTmaStores) {
      if (p.total_tiles > 0 &&
          !TmaEpilogue::make_params(p.tma_epilogue, a.D, a.ldd, a.batch_stride_d, a.C, a.ldc, a.batch_stride_c, a.m,
                                    a.n, a.batch_count, a.epilogue))
        p.total_tiles = -1;
    }
    return p;
  }

  // Persistent: as many clusters as the GPU holds at once (one CTA per SM: the tile holds an SM's
  // shared memory), never more than the cluster tiles.
  static dim3 grid(Params const& p) { return dim3(unsigned(p.clusters * p.plan.ctas_per_cluster(kClusterSize))); }
  static dim3 block() { return dim3(kThreads); }
  static dim3 cluster(Params const& p) { return dim3(unsigned(p.plan.ctas_per_cluster(kClusterSize)), 1, 1); }

  static Status launch(Params const& p, cudaStream_t stream, LaunchOptions const& options = {}) {
    if (p.total_tiles < 0) return {StatusCode::cuda_error, "the driver refused to encode a TMA descriptor"};
    if (p.total_tiles == 0) return Status::success();
    const auto kernel = entry();
    if (cudaError_t e = detail::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem_bytes); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("cudaFuncSetAttribute: ") + cudaGetErrorString(e)};
    cudaLaunchConfig_t config{};
    config.gridDim = grid(p);
    config.blockDim = block();
    config.dynamicSmemBytes = size_t(smem_bytes);
    config.stream = stream;
    detail::LaunchAttributes attributes(p.plan.ctas_per_cluster(kClusterSize), options.programmatic_dependent_launch);
    attributes.apply(config, kernel);
    Params q = p;
    q.early_operands = options.programmatic_dependent_launch
                           ? (options.a_independent ? Mainloop::kLoadA : 0u) | (options.b_independent ? Mainloop::kLoadB : 0u)
                           : 0u;
    q.trigger_after_loads = options.programmatic_dependent_launch && options.pdl_trigger == PdlTrigger::after_loads;
    if (cudaError_t e = cudaLaunchKernelEx(&config, kernel, q); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("GEMM launch: ") + cudaGetErrorString(e)};
    return Status::success();
  }

  // Output tiles of one batch, counted in clusters' tiles (each CTA of a cluster takes one; those
  // past the matrix's edge load zeros and store nothing).
  static long long cluster_tile_count(Arguments const& a) {
    const long long cm = (static_cast<long long>(a.m) + BM * ClusterM - 1) / (BM * ClusterM);
    const long long cn = (static_cast<long long>(a.n) + BN * ClusterN - 1) / (BN * ClusterN);
    return cm * cn;
  }

 private:
  // Clusters of this kernel the GPU runs at once (SMs for single CTAs), and pairs of them.
  static int resident_clusters() {
    if constexpr (kClusterSize == 1) {
      return detail::sm_count();
    } else {
      static const int clusters = detail::resident_clusters_of(entry(), kThreads, smem_bytes, kClusterSize);
      return clusters;
    }
  }
  static int resident_pairs() {
    static const int pairs = detail::resident_clusters_of(entry(), kThreads, smem_bytes, 2 * kClusterSize);
    return pairs;
  }
};

}  // namespace strata
