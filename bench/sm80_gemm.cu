// Strata's Ampere-path GEMM (cp.async + ldmatrix + mma.sync) against cuBLAS, in the same process
// on the same buffers: random data, several input sets rotated so L2 does not flatter, CUDA
// events, median of many runs. Per shape: TFLOP/s of both and their ratio; for decode shapes
// (M <= 128) also TB/s of A + B + D moved, one launch at a time and streamed (100 back to back).
// Every variant's output is checked against cuBLAS's first: a wrong one fails the bench.
// The mma.sync ceiling of this GPU is measured first.
//
//   sm80_gemm [--benchmark_filter=<regex>]     e.g. --benchmark_filter='bf16/8192'
//   STRATA_BENCH_SHAPES="m,n,k;..." adds shapes (named <type>/extra/m<m>_n<n>_k<k>)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <kernel/sm80_auto_gemm.hpp>

#include "gemm_bench.cuh"
#include "mma_ceiling.cuh"
#include "strata_runner.cuh"

namespace {
using namespace strata;
using namespace strata::bench;

double g_ceiling_tflops = 0;  // the mma.sync loop of mma_ceiling.cuh on this GPU
bool g_wrong_results = false;  // a strata output differed from cuBLAS's: the bench fails

// Relative distance allowed between two correctly rounded outputs of one type: one ulp.
template <class TD>
constexpr double output_tolerance() {
  if constexpr (std::is_same_v<TD, __nv_bfloat16>) return 1.0 / 128;
  else if constexpr (std::is_same_v<TD, __half>) return 1.0 / 1024;
  else return 1.0 / 1024;  // tf32: inputs rounded differently by the two libraries
}

// A row-major (m × k), B column-major (k × n): both K-major, the layout LLM weights use.
template <class T, int BM, int BN, int BK, int WM, int WN, int Stages, int WK = 1>
using TnConfig = Sm80GemmConfig<T, T, RowMajor, ColumnMajor, BM, BN, BK, WM, WN, Stages, WK>;

// strata's figure is what a user of Sm80AutoGemm gets: the library's tile set (Sm80Tiles) and its
// choice per shape. The 16-bit tiles can be overridden when building, to tune: `#define
// STRATA_SM80_TILE BM, BN, BK, WM, WN, Stages[, WK]` (and _SMALL_, _MEDIUM_, _THIN_, _NARROW_) in a
// header passed with -include (nvcc splits -D values at commas); scripts/tune-sm80.sh does that.
template <class T, bool = sizeof(T) == 2>
struct BenchTiles : Sm80Tiles<T> {};
template <class T>
struct BenchTiles<T, true> : Sm80Tiles<T> {
#ifdef STRATA_SM80_TILE
  using Large = TnConfig<T, STRATA_SM80_TILE>;
#endif
#ifdef STRATA_SM80_SMALL_TILE
  using Small = TnConfig<T, STRATA_SM80_SMALL_TILE>;
#endif
#ifdef STRATA_SM80_MEDIUM_TILE
  using Medium = TnConfig<T, STRATA_SM80_MEDIUM_TILE>;
#endif
#ifdef STRATA_SM80_THIN_TILE
  using Thin = TnConfig<T, STRATA_SM80_THIN_TILE>;
#endif
#ifdef STRATA_SM80_NARROW_TILE
  using Narrow = TnConfig<T, STRATA_SM80_NARROW_TILE>;
#endif
};
template <class T>
using AutoGemmFor = Sm80AutoGemm<BenchTiles<T>, std::conditional_t<std::is_same_v<T, float>, float, T>>;

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return "bf16";
  else if constexpr (std::is_same_v<T, __half>) return "f16";
  else return "tf32";
}

template <class T>
void bench_gemm(benchmark::State& state, int m, int n, int k) {
  using TD = std::conditional_t<std::is_same_v<T, float>, float, T>;
  const InputSets<T> inputs(m, n, k, 100);
  const int sets = inputs.size();
  std::vector<T*> const& a = inputs.a;
  std::vector<T*> const& b = inputs.b;
  DeviceArray<TD> d(int64_t(m) * n), d_ref(int64_t(m) * n);

  const CublasHandle handle;
  const bool tf32 = std::is_same_v<T, float>;
  auto cublas = [&](int i) {
    cublas_gemm(handle, m, n, k, a[size_t(i) % a.size()], true, k, b[size_t(i) % b.size()], false, k, d_ref.ptr, n, tf32);
  };

  std::string why;
  // strata's figure is Schedule::automatic with automatic split-K (what a user would run).
  // Stream-K forced, and the tile grid forced (m > 128) or each split-K reduction forced (decode
  // shapes), are timed too, for the record, interleaved with it (median_ms_interleaved). cuBLAS is timed on its own, back to back: interleaved with strata's
  // kernels it measured 5-20 % slower (2048^3-4096^3 and decode shapes), a cost of alternating
  // kernels that its usual figure does not carry; timed alone it is the stronger baseline.
  // Decode shapes are also timed streamed (streamed_ms: 100 launches back to back), how a model's
  // layers run them; both libraries alike.
  double strata_ms = 0, stream_k_ms = 0, tiles_ms = 0, serial_ms = 0, parallel_ms = 0, cublas_ms = 0;
  double strata_streamed_ms = 0, cublas_streamed_ms = 0;
  auto time_all = [&](auto prototype) -> bool {
    using Runner = decltype(prototype);
    std::vector<Runner> runners(m <= 128 ? 4 : 3);
    runners[1].schedule = Schedule::stream_k;
    if (m <= 128) {
      runners[2].split_k_mode = SplitKMode::serial;
      runners[3].split_k_mode = SplitKMode::parallel;
    } else {
      runners[2].schedule = Schedule::tiles;
    }
    for (auto& r : runners)
      if (!r.prepare(m, n, k, a, b, d.ptr, why)) return false;
    // Speed only for right answers: every variant's output, on the first and the last input set,
    // against cuBLAS's on the same buffers, before anything is timed.
    for (size_t v = 0; v < runners.size(); ++v) {
      for (int set : {0, sets - 1}) {
        check(cudaMemset(d.ptr, 0xFF, size_t(m) * n * sizeof(TD)), "poison D");
        runners[v].launch(set);
        cublas(set);
        check(cudaDeviceSynchronize(), "strata and cuBLAS outputs");
        const OutputComparison c = compare_outputs(d.ptr, d_ref.ptr, int64_t(m) * n, output_tolerance<TD>(), 1e-2);
        if (c.relative_error > 1e-2 || c.far_elements > 0) {
          why = "variant " + std::to_string(v) + " on input set " + std::to_string(set) +
                " differs from cuBLAS: relative error " + std::to_string(c.relative_error) + ", " +
                std::to_string(c.far_elements) + " elements off";
          g_wrong_results = true;
          return false;
        }
      }
    }
    std::vector<std::function<void(int)>> launches;
    for (auto& r : runners) launches.push_back([&r](int i) { r.launch(i); });
    // STRATA_BENCH_REVERSE=1 times the variants in the opposite order (and so on the other input
    // sets), to check that the order does not decide the comparison.
    const bool reverse = std::getenv("STRATA_BENCH_REVERSE") != nullptr;
    if (reverse) std::reverse(launches.begin(), launches.end());
    std::vector<double> ms = median_ms_interleaved(launches);
    if (reverse) std::reverse(ms.begin(), ms.end());
    strata_ms = ms[0], stream_k_ms = ms[1];
    if (m <= 128) serial_ms = ms[2], parallel_ms = ms[3];
    else tiles_ms = ms[2];
    cublas_ms = median_ms(cublas);
    if (m <= 128) {
      const auto both = streamed_ms_interleaved({[&](int i) { runners[0].launch(i); }, cublas});
      strata_streamed_ms = both[0], cublas_streamed_ms = both[1];
    }
    return true;
  };
  using Auto = AutoGemmFor<T>;
  const bool ok = time_all(StrataRunner<Auto, T, TD>{});
  if (!ok) {
    state.SkipWithError(("strata refused or wrong: " + why).c_str());
    return;
  }
  for (auto _ : state) state.SetIterationTime(strata_ms / 1e3);
  // The class the timed problem ran on (its pointers and leading dimensions decide `unaligned`).
  typename Auto::Arguments shape;
  shape.m = m, shape.n = n, shape.k = k;
  shape.A = a[0], shape.lda = k, shape.B = b[0], shape.ldb = k, shape.D = d.ptr, shape.ldd = n;
  shape.epilogue = {{1.f, 0.f}};
  state.SetLabel(sm80_tile_class_name(Auto::tile_class(shape)));

  const double flops = 2.0 * m * n * k;
  const double bytes =
      double((int64_t(m) * k + int64_t(k) * n) * int64_t(sizeof(T))) + double(m) * n * double(sizeof(TD));
  state.counters["strata_TFLOPs"] = flops / strata_ms / 1e9;
  state.counters["cublas_TFLOPs"] = flops / cublas_ms / 1e9;
  state.counters["ratio"] = cublas_ms / strata_ms;
  state.counters["streamk_TFLOPs"] = flops / stream_k_ms / 1e9;
  if (m > 128) state.counters["tiles_TFLOPs"] = flops / tiles_ms / 1e9;
  if (!tf32 && g_ceiling_tflops > 0) state.counters["of_ceiling"] = flops / strata_ms / 1e9 / g_ceiling_tflops;
  if (m <= 128) {
    state.counters["strata_TBs"] = bytes / strata_ms / 1e9;
    state.counters["cublas_TBs"] = bytes / cublas_ms / 1e9;
    state.counters["serial_TBs"] = bytes / serial_ms / 1e9;
    state.counters["parallel_TBs"] = bytes / parallel_ms / 1e9;
    state.counters["streamk_TBs"] = bytes / stream_k_ms / 1e9;
    state.counters["strata_TBs_streamed"] = bytes / strata_streamed_ms / 1e9;
    state.counters["cublas_TBs_streamed"] = bytes / cublas_streamed_ms / 1e9;
  }
}

template <class T>
void register_type() {
  const std::string t = type_name<T>();
  std::vector<int> squares = {1024, 2048, 4096, 8192};
  if (!std::is_same_v<T, float>) squares.push_back(16384);
  for (int s : squares) {
    benchmark::RegisterBenchmark((t + "/square/" + std::to_string(s)).c_str(), bench_gemm<T>, s, s, s)
        ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  }
  // Extra shapes from the environment, for tuning: STRATA_BENCH_SHAPES="m,n,k;m,n,k".
  if (const char* extra = std::getenv("STRATA_BENCH_SHAPES")) {
    std::string list(extra);
    for (size_t at = 0; at < list.size();) {
      const size_t end = std::min(list.find(';', at), list.size());
      int m = 0, n = 0, k = 0;
      if (std::sscanf(list.substr(at, end - at).c_str(), "%d,%d,%d", &m, &n, &k) == 3 && m > 0 && n > 0 && k > 0) {
        const std::string name = t + "/extra/m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k);
        benchmark::RegisterBenchmark(name.c_str(), bench_gemm<T>, m, n, k)
            ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
      }
      at = end + 1;
    }
  }
  // Leading dimensions off the 16-byte rule (odd n and k): Sm80AutoGemm's unaligned configuration.
  if (!std::is_same_v<T, float>) {
    benchmark::RegisterBenchmark((t + "/unaligned/4095").c_str(), bench_gemm<T>, 4095, 4095, 4095)
        ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  }
  const std::pair<int, int> nk[] = {{4096, 4096}, {14336, 4096}, {4096, 14336}, {8192, 8192}};
  for (int m : {1, 16, 64, 128, 4096, 16384}) {
    for (auto [n, k] : nk) {
      if (m == 16384 && std::is_same_v<T, float>) continue;
      benchmark::RegisterBenchmark((t + "/llm/m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k)).c_str(),
                                   bench_gemm<T>, m, n, k)
          ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("sm80_gemm: no CUDA GPU present, nothing to measure\n");
    return 77;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  g_ceiling_tflops = measure_mma_sync_ceiling_tflops();
  std::printf("GPU: %s, %d SMs; mma.sync m16n8k16 bf16 ceiling (register-only loop): %.1f TFLOP/s\n", prop.name,
              prop.multiProcessorCount, g_ceiling_tflops);
  register_type<__nv_bfloat16>();
  register_type<__half>();
  register_type<float>();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_wrong_results) {
    std::printf("sm80_gemm: FAILED: a strata output differed from cuBLAS's (see the errors above)\n");
    return 1;
  }
  return 0;
}
