// Strata floor 4: the host-side face of a GEMM kernel.
//
//   using Kernel = strata::Sm80GemmKernel<Config, __nv_bfloat16, strata::LinearCombination>;
//   strata::Gemm<Kernel> gemm;
//   Kernel-independent arguments: sizes, pointers, leading dimensions, epilogue, batch, split-K
//   if (strata::Status s = gemm.can_implement(args); !s) { report(s.message()); }
//   gemm.initialize(args, workspace, workspace_bytes, stream);   // workspace_size(args) bytes
//   gemm.run(stream);                                            // as often as needed
//
// Matrices: A is m × k and B is k × n in the majorness of the kernel's Config; C and D are m × n
// row-major. Refused input launches nothing and writes nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "sm80_gemm.hpp"
#include "status.hpp"

namespace strata {

namespace detail {
// Raises a kernel's dynamic shared-memory limit to `bytes`, once per function and device.
inline cudaError_t allow_dynamic_smem(const void* kernel, int bytes) {
  static std::mutex mutex;
  static std::set<std::pair<const void*, int>> done;  // (kernel, device)
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(mutex);
  if (done.count({kernel, device})) return cudaSuccess;
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
      e != cudaSuccess)
    return e;
  done.insert({kernel, device});
  return cudaSuccess;
}

// The shared memory one CTA may use on the current GPU (its opt-in limit: 227 KB on an H100 or
// H200, 163 KB on an A100), or 0 when it cannot say (no GPU).
inline int max_shared_memory_per_block() {
  int device = 0, bytes = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
    cudaGetLastError();  // clear it: no GPU is not an error here
    return 0;
  }
  return bytes;
}

// Refuses a kernel whose CTA needs `needed` bytes of shared memory where the GPU grants
// `available` (0: unknown, not refused), instead of letting the launch fail.
inline Status check_shared_memory(int needed, int available) {
  if (available <= 0 || needed <= available) return Status::success();
  return {StatusCode::unsupported, "the kernel's tile needs " + std::to_string(needed) +
                                       " bytes of shared memory per CTA, and this GPU grants at most " +
                                       std::to_string(available) + " (take fewer stages or a smaller tile)"};
}
}  // namespace detail

// How the K splits of split-K are added up. serial: the last CTA of each output tile to finish
// adds the partial tiles and runs the epilogue, inside the GEMM kernel (one launch). parallel: a
// second kernel reduces the whole output after the GEMM kernel. automatic: serial for two splits,
// parallel for more (bench/RESULTS.md has the measurements behind the choice).
enum class SplitKMode { automatic, serial, parallel };

// How the work is shared out among CTAs. tiles: one CTA per output tile and K split (split_k).
// stream_k: whole waves of output tiles one CTA each, and the K iterations of the rest (the last
// partial wave and the full wave before it) spread evenly over one wave of CTAs, which add up the
// tiles they share like serial split-K (Stream-K; split_k must be 0 or 1). The wave is this GPU's
// SM count times the CTAs of this kernel one SM holds. automatic: stream_k for problems of at
// least kStreamKMinWaves waves of tiles that are not split over K, tiles otherwise (measured:
// Stream-K was +0.3 % to +2.4 % against the tile grid from 8 waves up, and lost 3.6-8 % below,
// where its shared tiles are a larger part of the work; bench/RESULTS.md).
enum class Schedule { tiles, stream_k, automatic };
inline constexpr int kStreamKMinWaves = 8;

// What a GEMM computes and where: D = epilogue(A·B, C), m × n × k, batch_count times.
template <class ElementA, class ElementB, class ElementC, class ElementD, class Functor>
struct GemmArguments {
  int m = 0, n = 0, k = 0;
  ElementA const* A = nullptr;
  int64_t lda = 0;
  ElementB const* B = nullptr;
  int64_t ldb = 0;
  ElementC const* C = nullptr;  // may be null when the epilogue does not read C (beta == 0)
  int64_t ldc = 0;
  ElementD* D = nullptr;
  int64_t ldd = 0;
  Functor epilogue = {};
  int batch_count = 1;
  int64_t batch_stride_a = 0, batch_stride_b = 0, batch_stride_c = 0, batch_stride_d = 0;
  int split_k = 1;  // K splits; 0 picks one so that the grid fills the GPU
  SplitKMode split_k_mode = SplitKMode::automatic;
  Schedule schedule = Schedule::tiles;
  // The order CTAs take output tiles in (tile_scheduler.hpp): `raster_group` tile rows walked
  // together across N (along_n), or tile columns across M (along_m), for L2 reuse.
  RasterOrder raster_order = RasterOrder::along_n;
  int raster_group = 8;
};

template <class Kernel>
class Gemm {
 public:
  using Config = typename Kernel::Config;
  using ElementA = typename Kernel::ElementA;
  using ElementB = typename Kernel::ElementB;
  using ElementC = typename Kernel::ElementC;
  using ElementD = typename Kernel::ElementD;
  using Functor = typename Kernel::Functor;

  // The same type for every kernel with these element types and epilogue, so one Arguments
  // value can go to any of them (Sm80AutoGemm picks among several).
  using Arguments = GemmArguments<ElementA, ElementB, ElementC, ElementD, Functor>;

  // Whether this kernel can compute `args`, and if not, why.
  static Status can_implement(Arguments const& a) {
    if (a.m < 0 || a.n < 0 || a.k < 0) return {StatusCode::invalid_problem, "m, n and k must not be negative"};
    if (a.batch_count < 1) return {StatusCode::invalid_problem, "batch_count must be at least 1"};
    if (a.split_k < 0) return {StatusCode::invalid_problem, "split_k must be 0 (automatic) or positive"};
    if (a.split_k > 65535) return {StatusCode::problem_too_large, "split_k must be at most 65535 (grid z)"};
    if (a.batch_count > 65535) return {StatusCode::problem_too_large, "batch_count must be at most 65535 (grid y)"};
    if (a.raster_group < 1) return {StatusCode::invalid_problem, "raster_group must be at least 1"};
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
    if (a.batch_count > 1 && a.batch_stride_d < a.ldd * (a.m - 1) + a.n)
      return {StatusCode::invalid_leading_dim, "the batches of D overlap: batch_stride_d (" +
                                                   std::to_string(a.batch_stride_d) + ") < ldd * (m - 1) + n"};
    if constexpr (requires { a.epilogue.invalid_reason(); }) {
      if (const char* why = a.epilogue.invalid_reason()) return {StatusCode::invalid_problem, why};
    }
    if (a.epilogue.reads_source()) {
      if (a.C == nullptr) return {StatusCode::null_pointer, "C is null but the epilogue reads it (beta != 0)"};
      if (Status s = check_operand("C", a.C, a.ldc, a.batch_stride_c, a.n, vec_d, true, a.batch_count); !s) return s;
    }
    // Whole tiles run over a 1-D grid of the tiles of all batches.
    if (tile_count(a) * a.batch_count > std::numeric_limits<int>::max())
      return {StatusCode::problem_too_large, "more output tiles over all batches than a grid holds (2^31 - 1)"};
    return detail::check_shared_memory(Kernel::smem_bytes, detail::max_shared_memory_per_block());
  }

  // The split count run() will use for `args` (split_k, or the automatic choice for 0).
  static int effective_splits(Arguments const& a) { return plan(a).splits; }

  // Whether `args` runs Stream-K: Schedule::stream_k, or Schedule::automatic on a problem of at
  // least kStreamKMinWaves waves that split_k does not split.
  static bool uses_stream_k(Arguments const& a) { return plan(a).runs_stream_k; }

  // Output tiles of one batch (BM × BN each, ragged ones included).
  static long long tile_count(Arguments const& a) {
    return (static_cast<long long>(a.m) + Config::BM - 1) / Config::BM *
           ((static_cast<long long>(a.n) + Config::BN - 1) / Config::BN);
  }

  // CTAs of this kernel's 1-D entry (whole tiles and Stream-K) the current GPU holds at once (SMs
  // × CTAs per SM); 132 if it cannot say (no GPU).
  static int wave() { return wave_of(reinterpret_cast<const void*>(Kernel::entry())); }
  // The same for the tile grid's split-K entry: what automatic split-K counts waves in.
  static int split_k_wave() { return wave_of(reinterpret_cast<const void*>(Kernel::split_k_entry())); }

  // Bytes of device workspace initialize() needs for `args` (0 unless K is split): for serial
  // split-K and Stream-K one counter per shared output tile, which initialize() zeroes and every
  // run leaves zero again, then the partial tiles (a BM × BN tile of accumulators per split and
  // tile, or two per Stream-K CTA); for parallel split-K the partial outputs, one m × n matrix of
  // accumulators per split. One initialize() serves any number of runs, one at a time; after
  // another GEMM has run on the same workspace, initialize() again before running this one.
  static size_t workspace_size(Arguments const& a) { return plan(a).workspace_bytes(); }

  // Checks `args` and prepares the launch; for serial split-K and Stream-K it zeroes the
  // workspace's tile counters on `stream`. Nothing is launched or written on refusal.
  Status initialize(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    initialized_ = false;
    if (Status s = can_implement(a); !s) return s;
    const Plan pl = plan(a);
    const size_t needed = pl.workspace_bytes();
    if (needed > 0 && (workspace == nullptr || workspace_bytes < needed)) {
      const std::string what = pl.runs_stream_k
                                   ? std::string("Stream-K over ") + std::to_string(pl.stream_k.ctas) + " CTAs"
                                   : "split-K over " + std::to_string(pl.splits) + " splits";
      return {StatusCode::workspace_too_small, what + " needs " + std::to_string(needed) +
                                                   " bytes of workspace, got " + std::to_string(workspace_bytes)};
    }
    if (needed > 0 && reinterpret_cast<uintptr_t>(workspace) % 16 != 0)
      return {StatusCode::misaligned_pointer, "the workspace must be 16-byte aligned"};
    args_ = a;
    const int splits = pl.splits;
    const int k_tiles = k_tile_count(a);
    auto& p = params_;
    p.mainloop = {a.A, a.lda, a.B, a.ldb, a.m, a.n, a.k};
    p.epilogue = {a.D, a.ldd, a.epilogue.reads_source() ? a.C : nullptr, a.ldc, a.epilogue};
    p.batch_stride_a = a.batch_stride_a;
    p.batch_stride_b = a.batch_stride_b;
    p.batch_stride_c = a.batch_stride_c;
    p.batch_stride_d = a.batch_stride_d;
    p.scheduler = GroupedTileScheduler::make(a.m, a.n, Config::BM, Config::BN, a.batch_count, splits, a.raster_group,
                                             a.raster_order);
    p.k_tiles_per_split = (k_tiles + splits - 1) / splits;  // read by the split-K entry only
    char* ws = static_cast<char*>(workspace);
    using Partial = typename Kernel::ElementPartial;
    p.tile_counters = pl.counters_bytes > 0 ? reinterpret_cast<int*>(ws) : nullptr;
    p.slots = pl.slots_bytes > 0 ? reinterpret_cast<Partial*>(ws + pl.counters_bytes) : nullptr;
    p.partials = pl.partials_bytes > 0 ? reinterpret_cast<Partial*>(ws + pl.counters_bytes) : nullptr;
    p.partials_ld = partials_ld(a);
    p.stream_k = pl.stream_k;
    if (pl.counters_bytes > 0) {
      if (cudaError_t e = cudaMemsetAsync(p.tile_counters, 0, pl.counters_bytes, stream); e != cudaSuccess)
        return {StatusCode::cuda_error, std::string("zeroing the tile counters: ") + cudaGetErrorString(e)};
    }
    initialized_ = true;
    return Status::success();
  }

  // How `args` is shared out among CTAs when it runs Stream-K (tile_scheduler.hpp); all tiles
  // data parallel (ctas == 0) when it does not.
  static StreamKPartition stream_k_partition(Arguments const& a) { return plan(a).stream_k; }

  // Runs the prepared GEMM on `stream`.
  Status run(cudaStream_t stream = nullptr) const {
    if (!initialized_) return {StatusCode::not_initialized, "run() before a successful initialize()"};
    if (args_.m == 0 || args_.n == 0) return Status::success();
    const auto& s = params_.scheduler;
    const StreamKPartition& sk = params_.stream_k;
    // One split: whole tiles, then Stream-K's shared ones if any, over a 1-D grid.
    const bool split = s.splits > 1;
    const dim3 grid = split ? dim3(unsigned(s.tiles_per_batch()), unsigned(s.batches), unsigned(s.splits))
                            : dim3(unsigned(sk.first_tile + sk.ctas));
    // The shared-memory opt-in goes to the very function pointer launched: a kernel instantiated
    // in several translation units has one copy per unit (see sm80_gemm.hpp).
    const auto kernel = split ? Kernel::split_k_entry() : Kernel::entry();
    if (cudaError_t e = detail::allow_dynamic_smem(reinterpret_cast<const void*>(kernel), Kernel::smem_bytes);
        e != cudaSuccess) {
      return {StatusCode::cuda_error, std::string("cudaFuncSetAttribute: ") + cudaGetErrorString(e)};
    }
    kernel<<<grid, Kernel::kThreads, Kernel::smem_bytes, stream>>>(params_);
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
      return {StatusCode::cuda_error, std::string("GEMM launch: ") + cudaGetErrorString(e)};
    if (params_.partials != nullptr) {
      const int64_t threads = int64_t(args_.m) * ((args_.n + 3) / 4);
      dim3 reduce_grid(unsigned((threads + 255) / 256), unsigned(s.batches));
      splitk_reduce_kernel<ElementD, typename Kernel::ElementPartial, Functor><<<reduce_grid, 256, 0, stream>>>(
          params_.partials, params_.partials_ld, s.splits, s.batches, args_.m, args_.n, params_.epilogue,
          params_.batch_stride_c, params_.batch_stride_d);
      if (cudaError_t e = cudaGetLastError(); e != cudaSuccess)
        return {StatusCode::cuda_error, std::string("split-K reduction launch: ") + cudaGetErrorString(e)};
    }
    return Status::success();
  }

  // initialize + run.
  Status operator()(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    if (Status s = initialize(a, workspace, workspace_bytes, stream); !s) return s;
    return run(stream);
  }

 private:
  // BK-deep K tiles (0 when k == 0).
  static int k_tile_count(Arguments const& a) { return (a.k + Config::BK - 1) / Config::BK; }

  // SMs of the current GPU; 132 if it cannot say (no GPU).
  static int sm_count() {
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms <= 0) {
      cudaGetLastError();  // clear it: the launch reports real errors
      return 132;
    }
    return sms;
  }

  // SMs × the CTAs of `kernel` one SM holds; 132 if the GPU cannot say.
  static int wave_of(const void* kernel) {
    int per_sm = 0;
    if (detail::allow_dynamic_smem(kernel, Kernel::smem_bytes) != cudaSuccess ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, Kernel::kThreads, Kernel::smem_bytes) !=
            cudaSuccess ||
        per_sm <= 0) {
      cudaGetLastError();  // clear it: the launch reports real errors
      return 132;
    }
    return sm_count() * per_sm;
  }

  // The wave Stream-K runs `args` over (see uses_stream_k), or 0 when it does not run Stream-K;
  // `splits` is tile_splits(args).
  static int stream_k_wave_for(Arguments const& a, int splits) {
    if (a.schedule == Schedule::stream_k) return wave();
    if (a.schedule != Schedule::automatic) return 0;
    if (a.m <= 0 || a.n <= 0 || a.k <= 0 || a.batch_count < 1 || a.split_k > 1 || splits > 1) return 0;
    const long long tiles = tile_count(a) * a.batch_count;
    if (tiles > std::numeric_limits<int>::max()) return 0;
    const int w = wave();
    return tiles >= static_cast<long long>(kStreamKMinWaves) * w ? w : 0;
  }

  // The split count of the tile grid: split_k, or the automatic choice for 0.
  static int tile_splits(Arguments const& a) {
    const int k_tiles = k_tile_count(a);
    int splits = a.split_k;
    if (splits == 0) {
      // Double the splits while tiles × splits stays within two CTAs per SM, each split keeps
      // at least 8 K tiles so the pipeline fills, and the doubling shortens the run counted as
      // waves × K tiles per split. The last condition keeps a full wave of one-CTA-per-SM tiles
      // whole: 2 splits would run as two waves of half the K, no faster, plus the reduction
      // (measured 11 % slower on 132 tiles of 256 × 128, 3072 × 1408 × 8192).
      const int sms = sm_count();
      const long long tiles = tile_count(a) * a.batch_count;
      const long long w = split_k_wave();
      auto cost = [&](long long s) { return (tiles * s + w - 1) / w * ((k_tiles + s - 1) / s); };
      splits = 1;
      while (tiles * splits * 2 <= 2LL * sms && k_tiles / (splits * 2) >= 8 && splits < 64 &&
             cost(2 * splits) < cost(splits))
        splits *= 2;
    }
    if (splits > k_tiles) splits = k_tiles;
    if (splits > 65535) splits = 65535;
    return splits < 1 ? 1 : splits;
  }

  static int64_t partials_ld(Arguments const& a) { return (int64_t(a.n) + 7) / 8 * 8; }

  // Where the work of `args` goes, and the workspace that takes.
  struct Plan {
    bool runs_stream_k = false;    // uses_stream_k(args)
    int splits = 1;
    StreamKPartition stream_k;     // ctas == 0: no Stream-K tiles
    size_t counters_bytes = 0;     // tile counters (a multiple of 16, so what follows stays aligned)
    size_t slots_bytes = 0;        // fragment-order partial tiles (serial split-K, Stream-K)
    size_t partials_bytes = 0;     // partial outputs (parallel split-K)
    size_t workspace_bytes() const { return counters_bytes + slots_bytes + partials_bytes; }
  };
  static size_t counters_for(long long tiles) { return (size_t(tiles) * sizeof(int) + 15) / 16 * 16; }

  static Plan plan(Arguments const& a) {
    Plan pl;
    const int splits = tile_splits(a);
    const int stream_k_wave = stream_k_wave_for(a, splits);
    pl.runs_stream_k = stream_k_wave > 0;
    pl.splits = pl.runs_stream_k ? 1 : splits;
    if (a.m == 0 || a.n == 0) return pl;
    const long long tiles = tile_count(a) * a.batch_count;
    constexpr size_t slot_bytes = size_t(Kernel::kSlotElements) * sizeof(typename Kernel::ElementPartial);
    if (pl.runs_stream_k) {
      pl.stream_k = StreamKPartition::make(tiles, k_tile_count(a), stream_k_wave);
      if (pl.stream_k.ctas > 0) {
        pl.counters_bytes = counters_for(pl.stream_k.tiles);
        pl.slots_bytes = 2 * size_t(pl.stream_k.ctas) * slot_bytes;
      }
      return pl;
    }
    pl.stream_k.first_tile = tiles;
    if (pl.splits <= 1) return pl;
    const bool serial = a.split_k_mode == SplitKMode::serial ||
                        (a.split_k_mode == SplitKMode::automatic && pl.splits <= 2);
    if (serial) {
      pl.counters_bytes = counters_for(tiles);
      pl.slots_bytes = size_t(tiles) * pl.splits * slot_bytes;
    } else {
      pl.partials_bytes = size_t(pl.splits) * a.batch_count * a.m * partials_ld(a) *
                          sizeof(typename Kernel::ElementPartial);
    }
    return pl;
  }

  template <class T>
  static Status check_operand(const char* name, T const* ptr, int64_t ld, int64_t batch_stride, int contiguous_extent,
                              int vector, bool used, int batches) {
    if (!used) return Status::success();
    const std::string n(name);
    const int alignment = vector * int(sizeof(T));  // bytes
    if (reinterpret_cast<uintptr_t>(ptr) % alignment != 0)
      return {StatusCode::misaligned_pointer, n + " must be " + std::to_string(alignment) + "-byte aligned (the kernel moves " +
                                                  std::to_string(alignment) + "-byte vectors)"};
    if (ld < (contiguous_extent > 1 ? contiguous_extent : 1))
      return {StatusCode::invalid_leading_dim, "ld" + std::string(1, char(name[0] + 32)) + " (" + std::to_string(ld) +
                                                      ") is smaller than the contiguous extent of " + n + " (" +
                                                      std::to_string(contiguous_extent) + ")"};
    if (ld % vector != 0)
      return {StatusCode::misaligned_leading_dim, "ld" + std::string(1, char(name[0] + 32)) + " (" + std::to_string(ld) +
                                                      ") must be a multiple of " + std::to_string(vector) +
                                                      " elements (" + std::to_string(alignment) + " bytes)"};
    if (batches > 1 && batch_stride % vector != 0)
      return {StatusCode::misaligned_leading_dim, "the batch stride of " + n + " must be a multiple of " +
                                                      std::to_string(vector) + " elements (" + std::to_string(alignment) +
                                                      " bytes)"};
    return Status::success();
  }

  Arguments args_{};
  typename Kernel::Params params_{};
  bool initialized_ = false;
};

}  // namespace strata
