// Strata floor 4: the Hopper GEMM kernel, persistent and warp-specialized (cooperative: the
// consumer warpgroups share one BM × BN tile, 64 rows each). One CTA per SM walks the output tiles
// of all batches, g = blockIdx.x, blockIdx.x + gridDim.x, ..., in the grouped order of the tile
// scheduler:
//
//   producer warpgroup (40 registers):  one thread TMAs the K tiles of each of its tiles into the
//                                       ring of stages (collective/sm90_mainloop.hpp)
//   consumer warpgroups (232 registers): wgmma over the ring, then the epilogue functor on the
//                                       accumulators and the stores (collective/sm90_epilogue.hpp)
//
// The producer runs ahead across tiles, so the next tile's operands land while the consumers
// store the last one. Host side: the kernel contract of gemm.hpp (can_implement ... launch).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <string>

#include "../atom/tma.hpp"
#include "../collective/epilogue_functors.hpp"
#include "../collective/sm90_epilogue.hpp"
#include "../collective/sm90_mainloop.hpp"
#include "argument_checks.hpp"
#include "gemm_arguments.hpp"
#include "launch.hpp"
#include "status.hpp"
#include "tile_scheduler.hpp"

namespace strata {

template <class Kernel>
static __global__ void __launch_bounds__(Kernel::kThreads, 1)
    sm90_gemm_kernel(const __grid_constant__ typename Kernel::Params params) {
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  extern __shared__ char smem[];
  Kernel::run(params, smem);
#endif
}

template <class Config_, class TD, class Functor_>
struct Sm90GemmKernel {
  using Config = Config_;
  using Functor = Functor_;
  using ElementA = typename Config::ElementA;
  using ElementB = typename Config::ElementB;
  using ElementC = TD;
  using ElementD = TD;
  using Mainloop = Sm90Mainloop<Config>;
  using Epilogue = Sm90Epilogue<Config, TD, Functor>;
  using SharedStorage = typename Mainloop::SharedStorage;
  static constexpr int BM = Config::BM, BN = Config::BN, BK = Config::BK;
  static constexpr int kThreads = Config::kThreads;
  // The storage, plus room to align its start to 1024 bytes (dynamic shared memory is not).
  static constexpr int smem_bytes = int(sizeof(SharedStorage)) + 1024;

  // TMA descriptors first: CUDA 13 declares CUtensorMap alignas(128), and the parameter block
  // takes that alignment (a __grid_constant__ descriptor must stay aligned in parameter space).
  struct alignas(128) Params {
    CUtensorMap tma_a;  // (m, k, batches) of A
    CUtensorMap tma_b;  // (n, k, batches) of B
    typename Epilogue::Arguments epilogue;
    int64_t batch_stride_c, batch_stride_d;
    int m, n, k_tiles;
    int total_tiles;  // over all batches
    GroupedTileScheduler scheduler;
  };

  static auto entry() { return &sm90_gemm_kernel<Sm90GemmKernel>; }

  STRATA_DEVICE static void run(Params const& p, char* smem_raw) {
    const uint32_t raw = static_cast<uint32_t>(__cvta_generic_to_shared(smem_raw));
    auto& smem = *reinterpret_cast<SharedStorage*>(smem_raw + ((1024u - raw % 1024u) % 1024u));
    const int warpgroup = int(threadIdx.x) / 128;
    if (threadIdx.x == 0) {
      Mainloop::Pipeline::init(smem.pipeline, Mainloop::kConsumerArrivals);
      if (p.k_tiles > 0) {
        arch::prefetch_tensormap(&p.tma_a);
        arch::prefetch_tensormap(&p.tma_b);
      }
    }
    __syncthreads();
    typename Mainloop::Pipeline pipe{smem.pipeline};
    typename Mainloop::State state{};
    if (warpgroup == 0) {
      arch::setmaxnreg_dec<Config::kProducerRegisters>();
      if (threadIdx.x == 0) {
        for (int g = int(blockIdx.x); g < p.total_tiles; g += int(gridDim.x)) {
          const TileCoord tile = p.scheduler.global_tile(g);
          Mainloop::load(pipe, state, smem, &p.tma_a, &p.tma_b, tile.m * BM, tile.n * BN, tile.batch, p.k_tiles);
        }
      }
    } else {
      arch::setmaxnreg_inc<Config::kConsumerRegisters>();
      const int consumer = warpgroup - 1;
      typename Mainloop::Accumulators acc;
      for (int g = int(blockIdx.x); g < p.total_tiles; g += int(gridDim.x)) {
        const TileCoord tile = p.scheduler.global_tile(g);
        Mainloop::mma(pipe, state, smem, consumer, p.k_tiles, acc);
        auto out = p.epilogue;
        out.D += tile.batch * p.batch_stride_d;
        if (out.C != nullptr) out.C += tile.batch * p.batch_stride_c;
        Epilogue::store(out, p.m, p.n, tile.m * BM + 64 * consumer, tile.n * BN, acc, int(threadIdx.x) % 128);
      }
    }
  }

  // ---- The host side: the kernel contract (gemm.hpp calls these in order) --------------------

  using Arguments = GemmArguments<ElementA, ElementB, ElementC, ElementD, Functor>;

  static Status can_implement(Arguments const& a) {
    if (Status s = detail::check_problem_shape(a); !s) return s;
    if (a.split_k > 1 || a.schedule == Schedule::stream_k)
      return {StatusCode::unsupported, "the Hopper kernel does not split K yet (split_k must be 0 or 1, the "
                                       "schedule tiles or automatic)"};
    if (a.m == 0 || a.n == 0) return Status::success();
    if (a.D == nullptr) return {StatusCode::null_pointer, "D is null"};
    if (a.k > 0) {
      if (Status s = check_tma_operand("A", a.A, a.lda, a.batch_stride_a, a.k, a.batch_count); !s) return s;
      if (Status s = check_tma_operand("B", a.B, a.ldb, a.batch_stride_b, a.k, a.batch_count); !s) return s;
      // The boxes against TMA's own rules (no GPU needed).
      TmaEncodeArgs ta, tb;
      if (Status s = make_tma_args(ta, a.A, global_layout(a.m, a.k, a.lda, a.batch_stride_a, a.batch_count),
                                   typename Config::TmaBoxA{});
          !s)
        return {s.code(), "A: " + s.message()};
      if (Status s = make_tma_args(tb, a.B, global_layout(a.n, a.k, a.ldb, a.batch_stride_b, a.batch_count),
                                   typename Config::TmaBoxB{});
          !s)
        return {s.code(), "B: " + s.message()};
    }
    if (Status s = check_output("D", a.D, a.ldd, a.batch_stride_d, a.n, a.batch_count); !s) return s;
    if (Status s = detail::check_output_and_epilogue(a); !s) return s;
    if (a.epilogue.reads_source()) {
      if (Status s = check_output("C", a.C, a.ldc, a.batch_stride_c, a.n, a.batch_count); !s) return s;
    }
    if (tile_count(a) * a.batch_count > std::numeric_limits<int>::max())
      return {StatusCode::problem_too_large, "more output tiles over all batches than an int counts (2^31 - 1)"};
    return detail::check_shared_memory(smem_bytes, detail::max_shared_memory_per_block());
  }

  static size_t workspace_size(Arguments const&) { return 0; }
  static Status initialize_workspace(Arguments const&, void*, size_t, cudaStream_t) { return Status::success(); }

  // The TMA descriptors are encoded here; can_implement has checked every rule they follow, so a
  // failure left is the driver's own, reported by launch().
  static Params to_params(Arguments const& a, void*) {
    Params p{};
    p.epilogue = {a.D, a.ldd, a.epilogue.reads_source() ? a.C : nullptr, a.ldc, a.epilogue};
    p.batch_stride_c = a.batch_stride_c;
    p.batch_stride_d = a.batch_stride_d;
    p.m = a.m, p.n = a.n;
    p.k_tiles = (a.k + BK - 1) / BK;
    p.scheduler = GroupedTileScheduler::make(a.m, a.n, BM, BN, a.batch_count, 1, a.raster_group, a.raster_order);
    p.total_tiles = int(tile_count(a) * a.batch_count);
    if (p.k_tiles > 0 && p.total_tiles > 0) {
      const Status sa = make_tma_descriptor(p.tma_a, a.A, global_layout(a.m, a.k, a.lda, a.batch_stride_a, a.batch_count),
                                            typename Config::TmaBoxA{});
      const Status sb = make_tma_descriptor(p.tma_b, a.B, global_layout(a.n, a.k, a.ldb, a.batch_stride_b, a.batch_count),
                                            typename Config::TmaBoxB{});
      if (!sa || !sb) p.total_tiles = -1;  // launch() refuses
    }
    return p;
  }

  // Persistent: one CTA per SM (the tile holds an SM's shared memory), never more than the tiles.
  static dim3 grid(Params const& p) {
    const int sms = detail::sm_count();
    return dim3(unsigned(p.total_tiles < sms ? p.total_tiles : sms));
  }
  static dim3 block() { return dim3(kThreads); }
  static dim3 cluster() { return dim3(1, 1, 1); }

  static Status launch(Params const& p, cudaStream_t stream, LaunchOptions const& = {}) {
    if (p.total_tiles < 0) return {StatusCode::cuda_error, "the driver refused to encode a TMA descriptor"};
    if (p.total_tiles == 0) return Status::success();
    const auto kernel = entry();
    if (cudaError_t e = detail::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem_bytes); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("cudaFuncSetAttribute: ") + cudaGetErrorString(e)};
    kernel<<<grid(p), block(), smem_bytes, stream>>>(p);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("GEMM launch: ") + cudaGetErrorString(e)};
    return Status::success();
  }

  static long long tile_count(Arguments const& a) {
    return (static_cast<long long>(a.m) + BM - 1) / BM * ((static_cast<long long>(a.n) + BN - 1) / BN);
  }

 private:
  // A K-major operand as TMA's global tensor: (rows, K, batches), strides (ld, 1, batch stride).
  static auto global_layout(int rows, int k, int64_t ld, int64_t batch_stride, int batches) {
    return make_layout(make_shape(int64_t(rows), int64_t(k), int64_t(batches)),
                       make_stride(ld, int64_t(1), batches > 1 ? batch_stride : int64_t(rows) * ld));
  }

  template <class T>
  static Status check_tma_operand(const char* name, T const* ptr, int64_t ld, int64_t batch_stride, int k, int batches) {
    const std::string n(name), ld_name = "ld" + std::string(1, char(name[0] + 32));
    if (ptr == nullptr) return {StatusCode::null_pointer, n + " is null while k > 0"};
    if (reinterpret_cast<uintptr_t>(ptr) % 16 != 0)
      return {StatusCode::misaligned_pointer, n + " must be 16-byte aligned (TMA reads it)"};
    if (ld < k) return {StatusCode::invalid_leading_dim, ld_name + " (" + std::to_string(ld) +
                                                             ") is smaller than the contiguous extent of " + n + " (" +
                                                             std::to_string(k) + ")"};
    if ((ld * int64_t(sizeof(T))) % 16 != 0)
      return {StatusCode::misaligned_leading_dim, ld_name + " (" + std::to_string(ld) + ") must be a multiple of " +
                                                      std::to_string(16 / sizeof(T)) + " elements (16 bytes: TMA)"};
    if (batches > 1 && (batch_stride * int64_t(sizeof(T))) % 16 != 0)
      return {StatusCode::misaligned_leading_dim, "the batch stride of " + n + " must be a multiple of " +
                                                      std::to_string(16 / sizeof(T)) + " elements (16 bytes: TMA)"};
    return Status::success();
  }

  // C and D go through plain stores: element alignment and a leading dimension of at least n.
  template <class T>
  static Status check_output(const char* name, T const* ptr, int64_t ld, int64_t, int n, int) {
    const std::string nm(name), ld_name = "ld" + std::string(1, char(name[0] + 32));
    if (reinterpret_cast<uintptr_t>(ptr) % alignof(T) != 0)
      return {StatusCode::misaligned_pointer, nm + " must be aligned to its element size"};
    if (ld < (n > 1 ? n : 1))
      return {StatusCode::invalid_leading_dim, ld_name + " (" + std::to_string(ld) +
                                                   ") is smaller than the contiguous extent of " + nm + " (" +
                                                   std::to_string(n) + ")"};
    return Status::success();
  }
};

}  // namespace strata
