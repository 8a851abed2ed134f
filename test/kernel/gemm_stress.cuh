// The random-shape stress test of the Ampere GEMM through its public API (issue 16): problems of
// every size from 1 to 4100 (mostly small, odd or one off a tile edge), every majorness and
// element-type set, alpha and beta, C aliased to D or not, padded leading dimensions and some that
// break the 16-byte rule, batches with strides, every split-K mode and schedule. Each problem:
//
//   operands generated on the GPU from (seed, index); D's allocation poisoned (every byte 0xFF:
//   NaN, or -1 for int32), C's values written into D's windows when C aliases D;
//   can_implement, workspace_size, initialize, run (every odd-numbered problem with programmatic
//   dependent launch where the GEMM takes launch options: right after the kernels that fill its
//   operands, which a GEMM reading before its griddepcontrol.wait could see half written);
//   ran:     every element of D against a double reference (gemm_stress_check.cuh), within
//            eps_out·|want| + acc·|alpha|·Σ|a·b| + 2^-22·(|alpha·Σa·b| + |beta·c|) + 1e-6: the
//            output's rounding (half an ulp), the fp32 accumulation of products that are exact in
//            fp32 (acc = (k + 8)·2^-22: each product rounded at most twice by 2^-23 of a partial
//            sum below Σ|a·b|, a rigorous bound, capped at the harness's 1e-4 from k ≈ 400 on,
//            where the bound grows loose enough to hide a dropped product and the real error stays
//            near 1e-6), and the epilogue's float arithmetic; int32 exactly. Every cell around the
//            windows (before and after D, the columns n..ldd-1, the gaps between batches) still
//            poisoned;
//   refused: only a problem that breaks the 16-byte rule, by a GEMM that needs it; counted by
//            reason, and D's whole allocation (windows too) must be untouched, also after run().
//
// Environment: STRATA_STRESS_SEED=<seed> (default: a fresh random one, printed),
// STRATA_STRESS_CASES=<N> problems (over all type sets; each test runs its share),
// STRATA_STRESS_ONLY=<index> runs that problem alone. A failure prints the problem and the line
// that replays it.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <initializer_list>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <kernel/gemm.hpp>
#include <kernel/sm80_auto_gemm.hpp>

#include "common/gpu_test.hpp"
#include "gemm_stress_check.cuh"
#include "gemm_stress_problem.cuh"

namespace strata::stress {

using strata::test::throw_on_error;

// The default problem count over all type sets, sized for about a minute on an H200 (the mean
// problem is small: most of the time goes to the rare ones near 4100^3), and the time after
// which a default-sized run stops early rather than reach ctest's timeout.
inline constexpr long long kDefaultCases = 100000;
inline constexpr double kDefaultRunCapSeconds = 240;

struct Settings {
  uint64_t seed = 0;
  bool seed_given = false;
  long long cases = kDefaultCases;
  bool cases_given = false;
  long long only = -1;  // >= 0: replay that problem alone
};

inline long long parse_env(const char* name, long long fallback, bool* given = nullptr) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 0);
  if (end == text || *end != '\0') throw std::invalid_argument(std::string(name) + " is not a number: " + text);
  if (given) *given = true;
  return static_cast<long long>(v);
}

// Read once per process, so every test of a run uses the same seed.
inline Settings const& settings() {
  static const Settings s = [] {
    Settings r;
    r.seed = static_cast<uint64_t>(parse_env("STRATA_STRESS_SEED", 0, &r.seed_given));
    if (!r.seed_given) r.seed = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
    r.cases = parse_env("STRATA_STRESS_CASES", kDefaultCases, &r.cases_given);
    r.only = parse_env("STRATA_STRESS_ONLY", -1);
    return r;
  }();
  return s;
}

struct Stats {
  std::string test;  // the GoogleTest name, for the replay line
  long long problems = 0, ran = 0, ran_breaking_rule = 0, refused = 0, failed = 0;
  long long elements = 0, guard_cells = 0;
  long long with_pdl = 0;  // run with LaunchOptions::programmatic_dependent_launch (the Ampere kernels ignore it)
  std::map<std::string, long long> refusals;  // reason (numbers as #) -> count
  std::map<std::string, long long> ran_on;    // GEMM (and tile class) -> problems
};

// A refusal's message with its numbers as '#', so equal reasons count together.
inline std::string reason_of(Status const& s) {
  std::string out;
  for (char c : s.message()) {
    const bool digit = c >= '0' && c <= '9';
    if (!digit) out += c;
    else if (out.empty() || out.back() != '#') out += '#';
  }
  return out;
}

// Device memory that only grows: the problems reuse it.
class Arena {
 public:
  Arena() = default;
  Arena(Arena const&) = delete;
  Arena& operator=(Arena const&) = delete;
  ~Arena() { (void)cudaFree(data_); }
  template <class T = char>
  T* get(size_t bytes) {
    if (bytes > bytes_) {
      (void)cudaFree(data_);
      data_ = nullptr;
      bytes_ = 0;
      const size_t want = (bytes + bytes / 4 + (1 << 20) - 1) / (1 << 20) * (1 << 20);
      throw_on_error(cudaMalloc(&data_, want), "cudaMalloc (stress arena)");
      bytes_ = want;
    }
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};
struct Buffers {
  Arena a, b, c, d, workspace, report;
};

template <class Args>
struct ArgumentTypes;
template <class TA, class TB, class TC, class TD, class F>
struct ArgumentTypes<GemmArguments<TA, TB, TC, TD, F>> {
  using A = TA;
  using B = TB;
  using D = TD;
};

inline constexpr int64_t kGuardElements = 256;  // poisoned cells before and after D

template <class T>
void fill(T* data, int64_t count, uint64_t seed) {
  fill_kernel<<<grid_for(count), 256>>>(data, count, seed);
  throw_on_error(cudaGetLastError(), "fill_kernel");
}

// Runs problem `p` on GEMM type G (Gemm<Kernel> or Sm80AutoGemm), named `gemm_name`;
// `element_alignment`: G runs problems that break the 16-byte rule (Sm80AutoGemm), so refusing one
// is a failure. Returns false after a CUDA error (the context is lost: stop).
template <class G>
bool run_problem(Problem const& p, const char* gemm_name, bool element_alignment, Buffers& buf, Stats& stats) {
  using Args = typename G::Arguments;
  using TA = typename ArgumentTypes<Args>::A;
  using TB = typename ArgumentTypes<Args>::B;
  using TD = typename ArgumentTypes<Args>::D;
  static_assert(std::is_same_v<TA, TB>, "stress: A and B of one element type");
  if (int(sizeof(TA)) != input_bytes(p.types) || int(sizeof(TD)) != output_bytes(p.types))
    throw std::logic_error(std::string("stress: ") + gemm_name + " does not match the problem's types");

  // Operands, each at its offset from an allocation aligned to 256 bytes.
  TA* A = buf.a.get<TA>((p.offset_a + p.span_a()) * sizeof(TA)) + p.offset_a;
  TB* B = buf.b.get<TB>((p.offset_b + p.span_b()) * sizeof(TB)) + p.offset_b;
  fill(A, p.span_a(), p.data_seed(0));
  fill(B, p.span_b(), p.data_seed(1));
  const uint64_t seed_c = p.data_seed(2);
  const int64_t front = kGuardElements + p.offset_d, total = front + p.span_d() + kGuardElements;
  TD* region = buf.d.get<TD>(total * sizeof(TD));
  TD* D = region + front;
  throw_on_error(cudaMemsetAsync(region, 0xFF, total * sizeof(TD)), "poisoning D");
  TD* C = nullptr;
  if (p.c_aliases_d) {
    C = D;
    fill_windows_kernel<<<dim3((p.n + 255) / 256, p.m, p.batches), 256>>>(D, p.m, p.n, p.ldd, p.stride_d, seed_c);
    throw_on_error(cudaGetLastError(), "fill_windows_kernel");
  } else if (!p.c_null) {
    C = buf.c.get<TD>((p.offset_c + p.span_c()) * sizeof(TD)) + p.offset_c;
    fill(C, p.span_c(), seed_c);
  }
  auto* report = buf.report.get<DeviceReport>(sizeof(DeviceReport));
  throw_on_error(cudaMemsetAsync(report, 0, sizeof(DeviceReport)), "clearing the report");

  Args args;
  args.m = p.m, args.n = p.n, args.k = p.k;
  args.A = A, args.lda = p.lda;
  args.B = B, args.ldb = p.ldb;
  args.C = C, args.ldc = p.ldc;
  args.D = D, args.ldd = p.ldd;
  args.epilogue = LinearCombination{{p.alpha, p.beta}};
  args.batch_count = p.batches;
  args.batch_stride_a = p.stride_a, args.batch_stride_b = p.stride_b;
  args.batch_stride_c = p.stride_c, args.batch_stride_d = p.stride_d;
  args.split_k = p.split_k;
  args.split_k_mode = p.split_k_mode;
  args.schedule = p.schedule;
  args.raster_order = p.raster_order;
  args.raster_group = p.raster_group;

  // Majorness as the other tests name it: T row-major, N column-major, A then B (TN: both K-major).
  std::string ran_on = std::string(type_set_name(p.types)) + (p.a_row_major ? " T" : " N") +
                       (p.b_row_major ? "T" : "N") + ": " + gemm_name;
  if constexpr (requires { G::tile_class(args); }) {
    // An Ampere or a Hopper tile set; sm90_tile_class_name is found (by argument-dependent lookup)
    // only where a Hopper unit included sm90_auto_gemm.hpp and instantiates this branch.
    if constexpr (std::is_same_v<decltype(G::tile_class(args)), Sm80TileClass>)
      ran_on += std::string(" class ") + sm80_tile_class_name(G::tile_class(args));
    else
      ran_on += std::string(" class ") + sm90_tile_class_name(G::tile_class(args));
  }
  if constexpr (requires { G::effective_splits(args); }) {  // Gemm<Kernel> says how it shares the work out
    const int splits = G::effective_splits(args);
    // The Hopper kernels (those that answer uses_pairs) add their splits serially in any mode.
    bool pairs = false, hopper = false;
    if constexpr (requires { G::uses_pairs(args); }) pairs = G::uses_pairs(args), hopper = true;
    const bool serial = hopper || args.split_k_mode == SplitKMode::serial ||
                        (args.split_k_mode == SplitKMode::automatic && splits <= 2);
    ran_on += G::uses_stream_k(args) ? ", Stream-K"
              : pairs                ? (splits == 1 ? ", K pairs" : ", K pairs under serial split-K")
              : splits == 1          ? ", whole tiles"
              : serial               ? ", serial split-K"
                                     : ", parallel split-K";
  }

  std::string failure;
  G gemm;
  const Status can = G::can_implement(args);
  const size_t ws_bytes = can ? G::workspace_size(args) : 0;
  void* ws = ws_bytes > 0 ? buf.workspace.get(ws_bytes) : nullptr;
  const Status init = gemm.initialize(args, ws, ws_bytes);
  // Every other problem of a kernel that takes launch options runs with programmatic dependent
  // launch: it may start while the kernels that just filled A, B, C and D's guard cells drain, and
  // must not read or write before they are done (griddepcontrol.wait); every other one of those
  // lets the kernel after it start once its loads are issued (PdlTrigger::after_loads).
  Status run;  // after a refused initialize: must refuse too, launching nothing
  if constexpr (requires { gemm.run(cudaStream_t{}, LaunchOptions{}); }) {
    LaunchOptions options;
    options.programmatic_dependent_launch = p.index % 2 == 1;
    if (p.index % 4 == 3) options.pdl_trigger = PdlTrigger::after_loads;
    run = gemm.run(nullptr, options);
    stats.with_pdl += options.programmatic_dependent_launch && bool(init);
  } else {
    run = gemm.run();
  }
  const bool accepted = bool(init);
  if (bool(can) != accepted)
    failure += "can_implement (" + (can ? std::string("ok") : can.message()) + ") and initialize (" +
               (init ? std::string("ok") : init.message()) + ") disagree\n";
  if (accepted) {
    if (!run) failure += "run() failed: " + run.message() + "\n";
    CheckArgs<TA, TB, TD> c{.m = p.m, .n = p.n, .k = p.k,
                            .A = A, .lda = p.lda, .stride_a = p.stride_a, .a_row_major = p.a_row_major,
                            .B = B, .ldb = p.ldb, .stride_b = p.stride_b, .b_row_major = p.b_row_major,
                            .D = D, .ldd = p.ldd, .stride_d = p.stride_d,
                            .reads_c = p.reads_c(), .seed_c = seed_c, .ldc = p.ldc, .stride_c = p.stride_c,
                            .alpha = double(p.alpha), .beta = double(p.beta), .eps_out = 0, .acc_tol = 0,
                            .report = report};
    if constexpr (!std::is_integral_v<TD>) {
      c.eps_out = std::is_same_v<TD, __half> ? 0x1.0p-11 : std::is_same_v<TD, __nv_bfloat16> ? 0x1.0p-8 : 0x1.0p-23;
      c.acc_tol = std::min((p.k + 8) * 0x1.0p-22, 1e-4);
    }
    const dim3 grid((p.n + kRefTile - 1) / kRefTile, (p.m + kRefTile - 1) / kRefTile, p.batches);
    reference_check_kernel<<<grid, kRefThreads>>>(c);
    throw_on_error(cudaGetLastError(), "reference_check_kernel");
  } else {
    if (run) failure += "run() after a refused initialize returned success\n";
    if (p.keeps_16_byte_rule() || element_alignment)
      failure += "refused a problem it must run: " + init.message() + "\n";
  }
  guard_check_kernel<<<grid_for(total), 256>>>(region, front, total, p.m, p.n, p.ldd, p.stride_d, p.batches, !accepted,
                                               p.c_aliases_d, seed_c, report);
  throw_on_error(cudaGetLastError(), "guard_check_kernel");

  const cudaError_t e = cudaDeviceSynchronize();
  DeviceReport r{};
  if (e == cudaSuccess) throw_on_error(cudaMemcpy(&r, report, sizeof r, cudaMemcpyDeviceToHost), "reading the report");
  else failure += std::string("CUDA error: ") + cudaGetErrorString(e) + "\n";

  ++stats.problems;
  if (accepted) {
    ++stats.ran;
    stats.ran_breaking_rule += !p.keeps_16_byte_rule();
    stats.elements += int64_t(p.m) * p.n * p.batches;
    stats.guard_cells += total - int64_t(p.m) * p.n * p.batches;
    ++stats.ran_on[ran_on];
  } else {
    ++stats.refused;
    ++stats.refusals[reason_of(init)];
    stats.guard_cells += total;
  }
  char line[256];
  if (r.wrong_elements > 0) {
    failure += std::to_string(r.wrong_elements) + " wrong elements of " +
               std::to_string(int64_t(p.m) * p.n * p.batches) + ":\n";
    for (unsigned s = 0; s < std::min<unsigned>(r.elements_recorded, DeviceReport::kRecorded); ++s) {
      const BadElement& b = r.element[s];
      std::snprintf(line, sizeof line, "    batch %d D(%d, %d) = %.9g, expected %.9g (tolerance %.3g)\n", b.batch,
                    b.row, b.col, b.got, b.want, b.tolerance);
      failure += line;
    }
  }
  if (r.touched_cells > 0) {
    failure += std::to_string(r.touched_cells) + (accepted ? " guard cells written (outside the m x n windows):\n"
                                                           : " cells changed by a refused problem:\n");
    for (unsigned s = 0; s < std::min<unsigned>(r.cells_recorded, DeviceReport::kRecorded); ++s) {
      const BadCell& b = r.cell[s];
      std::snprintf(line, sizeof line, "    D[%lld] bits 0x%x, expected 0x%x\n", b.offset, b.bits, b.expected);
      failure += line;
    }
  }
  if (!failure.empty()) {
    ++stats.failed;
    const std::string text = describe(p) + "\n  on " + ran_on + (accepted ? "" : " (refused: " + init.message() + ")") +
                             "\n  " + failure + "  replay: STRATA_STRESS_SEED=" + std::to_string(p.seed) +
                             " STRATA_STRESS_ONLY=" + std::to_string(p.index) +
                             " strata_stress_tests --gtest_filter=" + stats.test;
    if (stats.failed <= 20) ADD_FAILURE() << text;
  }
  return e == cudaSuccess;
}

inline void print_summary(const char* test, Settings const& s, Stats const& st, long long first, long long last,
                          double seconds, bool capped) {
  std::printf("[stress] %s: seed %llu (%s), problems %lld..%lld%s\n", test, (unsigned long long)s.seed,
              s.seed_given ? "STRATA_STRESS_SEED" : "random; STRATA_STRESS_SEED=<seed> replays", first, last - 1,
              capped ? " (stopped early: the default run's time cap)" : "");
  std::printf("[stress]   problems run %lld (%lld of them breaking the 16-byte rule), elements checked %lld, "
              "guard cells checked %lld\n",
              st.ran, st.ran_breaking_rule, st.elements, st.guard_cells);
  for (auto const& [gemm, count] : st.ran_on) std::printf("[stress]     %7lld on %s\n", count, gemm.c_str());
  std::printf("[stress]   launched with programmatic dependent launch %lld\n", st.with_pdl);
  std::printf("[stress]   refusals %lld\n", st.refused);
  for (auto const& [reason, count] : st.refusals) std::printf("[stress]     %7lld %s\n", count, reason.c_str());
  std::printf("[stress]   failures %lld, %.1f s\n", st.failed, seconds);
  std::fflush(stdout);
}

// The test of the type sets `mine`: runs every problem of the seed's range whose type set is one
// of them, through `dispatch(problem, buffers, stats)` (which picks the GEMM for its majorness
// and returns run_problem's result).
template <class Dispatch>
void run_stress(const char* test, std::initializer_list<TypeSet> mine, Dispatch&& dispatch) {
  Settings const& s = settings();
  const bool replay = s.only >= 0;
  const long long first = replay ? s.only : 0;
  long long last = replay ? s.only + 1 : s.cases;
  const auto owned = [&](TypeSet t) { return std::find(mine.begin(), mine.end(), t) != mine.end(); };
  Buffers buffers;
  Stats stats;
  stats.test = test;
  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  bool capped = false;
  for (long long i = first; i < last; ++i) {
    const Problem p = make_problem(s.seed, i);
    if (!owned(p.types)) {
      if (replay) std::printf("[stress] problem %lld of seed %llu is %s: another test runs it\n", i,
                              (unsigned long long)s.seed, type_set_name(p.types));
      continue;
    }
    if (replay) std::printf("[stress] %s\n", describe(p).c_str());
    bool go_on = false;
    try {
      go_on = dispatch(p, buffers, stats);
    } catch (std::exception const& e) {  // a CUDA error surfacing in a launch or copy
      ++stats.failed;
      ADD_FAILURE() << describe(p) << "\n  " << e.what() << "\n  replay: STRATA_STRESS_SEED=" << p.seed
                    << " STRATA_STRESS_ONLY=" << p.index << " strata_stress_tests --gtest_filter=" << test;
    }
    if (!go_on) {
      ADD_FAILURE() << "stopped after problem " << i << ": the CUDA context may be lost";
      break;
    }
    if (!s.cases_given && !replay && (i & 63) == 0 && seconds() > kDefaultRunCapSeconds) {
      capped = true;
      last = i + 1;
      break;
    }
  }
  print_summary(test, s, stats, first, last, seconds(), capped);
  EXPECT_EQ(stats.failed, 0) << stats.failed << " of " << stats.problems << " problems failed (seed " << s.seed
                             << "; the first 20 are described above)";
}

}  // namespace strata::stress
