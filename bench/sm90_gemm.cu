// Strata's Hopper GEMM (TMA + wgmma, warp-specialized, persistent) against cuBLAS, in the same
// process on the same buffers: random data, several input sets rotated so L2 does not flatter,
// CUDA events, median of many runs; each strata output checked against cuBLAS's before it is
// timed (a wrong one fails the bench). Per shape: TFLOP/s of both, their ratio, the CTAs launched
// and the fraction of the wgmma ceiling; without clusters also how Stream-K forced compares with
// the automatic schedule (streamk_vs_auto, the two timed interleaved) and whether the automatic
// schedule itself took Stream-K (auto_stream_k).
//
//   sm90_gemm [--benchmark_filter=<regex>]     e.g. --benchmark_filter='bf16/coop128x256/square/8192'
#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <kernel/gemm.hpp>
#include <kernel/sm90_auto_gemm.hpp>  // detail::Sm90Fitted
#include <kernel/sm90_gemm.hpp>

#include "gemm_bench.cuh"
#include "strata_runner.cuh"

namespace {
using namespace strata;
using namespace strata::bench;

bool g_wrong_results = false;
// bench/wgmma_ceiling_sm90 on the H200 (m64n256k16 bf16 SS from shared memory, all SMs; tenth
// session, bench/RESULTS.md): what a kernel's TFLOP/s are a fraction of.
constexpr double kWgmmaCeilingTflops = 975.5;

// The timed configurations (A row-major, B column-major: the layout of LLM weights); BK spans
// 128 bytes (64 16-bit elements, 32 floats), at most 4 stages, fewer where D's staging leaves less.
template <class T, int BM, int BN, Sm90Schedule S, int CM, int CN>
using ConfigOf = Sm90GemmConfig<T, RowMajor, ColumnMajor, BM, BN, 128 / int(sizeof(T)), 4, S, CM, CN>;
template <class T, int BM, int BN, Sm90Schedule S, int CM, int CN>
using KernelOf = Sm90GemmKernel<strata::detail::Sm90Fitted<ConfigOf<T, BM, BN, S, CM, CN>, T, LinearCombination>, T,
                                LinearCombination>;
template <class T>
using Cooperative128x256 = KernelOf<T, 128, 256, Sm90Schedule::cooperative, 1, 1>;
template <class T>
using Cooperative128x256Cluster2x1 = KernelOf<T, 128, 256, Sm90Schedule::cooperative, 2, 1>;
template <class T>
using Pingpong128x128 = KernelOf<T, 128, 128, Sm90Schedule::pingpong, 1, 1>;
template <class T>
using Pingpong128x128Cluster2x1 = KernelOf<T, 128, 128, Sm90Schedule::pingpong, 2, 1>;

// AutoGemm's huge class (Sm90Tiles' Huge): each consumer warpgroup its own 64 x 256 tile, 5 stages
// beside one staging buffer per warpgroup. Its benchmarks also time it interleaved with
// cooperative 128 x 256 and cuBLAS (vs_coop128x256, ratio_interleaved): which of the two AutoGemm
// should run rests on that comparison, and timed one after the other they drift with the board's
// power state.
template <class T>
using Pingpong64x256 = Sm90GemmKernel<strata::detail::Sm90Fitted<typename Sm90Tiles<T>::Huge, T, LinearCombination>,
                                      T, LinearCombination>;
template <class Kernel>
constexpr bool kIsHuge = false;  // tf32 has no huge configuration
template <class Kernel>
  requires(sizeof(typename Kernel::ElementA) == 2)
constexpr bool kIsHuge<Kernel> = std::is_same_v<Kernel, Pingpong64x256<typename Kernel::ElementA>>;

// Cooperative 128 x 256 with a split tail of `Tail` K tiles (the epilogue stages the left half
// while the right half's wgmma run). Timed interleaved with the same tile without one, as huge is.
template <class T, int Tail>
using Cooperative128x256Tail = Sm90GemmKernel<
    strata::detail::Sm90Fitted<typename ConfigOf<T, 128, 256, Sm90Schedule::cooperative, 1, 1>::template WithSplitTail<Tail>,
                               T, LinearCombination>,
    T, LinearCombination>;
// Whether a kernel's benchmarks time it interleaved with cooperative 128 x 256 and cuBLAS.
template <class Kernel>
constexpr bool kAgainstCooperative = kIsHuge<Kernel> || Kernel::Config::kSplitTail > 0;

template <class T>
const char* type_name() {
  return std::is_same_v<T, __nv_bfloat16> ? "bf16" : std::is_same_v<T, float> ? "tf32" : "f16";
}

template <class Kernel>
void bench_gemm(benchmark::State& state, int m, int n, int k) {
  using T = typename Kernel::ElementA;
  using G = Gemm<Kernel>;
  const InputSets<T> inputs(m, n, k, 100);
  const int sets = inputs.size();
  std::vector<T*> const& a = inputs.a;
  std::vector<T*> const& b = inputs.b;
  DeviceArray<T> d(int64_t(m) * n), d_ref(int64_t(m) * n);
  const CublasHandle handle;
  auto cublas = [&](int i) {
    cublas_gemm(handle, m, n, k, a[size_t(i) % a.size()], true, k, b[size_t(i) % b.size()], false, k, d_ref.ptr, n,
                std::is_same_v<T, float>);  // fp32 operands: cuBLAS on tf32 tensor cores (FAST_TF32)
  };
  StrataRunner<G, T, T> runner;
  std::string why;
  if (!runner.prepare(m, n, k, a, b, d.ptr, why)) {
    state.SkipWithError(("strata refused: " + why).c_str());
    return;
  }
  // bf16 keeps 8 significant bits, tf32 11 (strata truncates fp32 to tf32, cuBLAS may round), f16 11.
  const double rel_tol = std::is_same_v<T, __nv_bfloat16> ? 1.0 / 128
                         : std::is_same_v<T, float>       ? 1.0 / 256
                                                          : 1.0 / 1024;
  if (const std::string wrong = differs_from_cublas(runner, cublas, d.ptr, d_ref.ptr, int64_t(m) * n, sets, rel_tol);
      !wrong.empty()) {
    g_wrong_results = true;
    state.SkipWithError(wrong.c_str());
    return;
  }
  const auto strata = [&](int i) { runner.launch(i); };
  const double strata_ms = median_ms(strata);
  const double cublas_ms = median_ms(cublas);
  // Without clusters, Stream-K forced too (checked the same way), timed interleaved with the
  // automatic schedule so that the two compare under the same clocks: where it wins, and by how
  // much, is what the automatic schedule's choice would rest on.
  double stream_k_gain = 0;
  if constexpr (Kernel::kClusterSize == 1) {
    StrataRunner<G, T, T> stream_k;
    stream_k.schedule = Schedule::stream_k;
    if (!stream_k.prepare(m, n, k, a, b, d.ptr, why)) {
      state.SkipWithError(("strata refused Stream-K: " + why).c_str());
      return;
    }
    if (const std::string wrong = differs_from_cublas(stream_k, cublas, d.ptr, d_ref.ptr, int64_t(m) * n, sets, rel_tol);
        !wrong.empty()) {
      g_wrong_results = true;
      state.SkipWithError(("Stream-K: " + wrong).c_str());
      return;
    }
    const std::vector<double> pair =
        median_ms_interleaved({strata, [&](int i) { stream_k.launch(i); }});
    stream_k_gain = pair[0] / pair[1];
  }
  if constexpr (kAgainstCooperative<Kernel>) {
    StrataRunner<Gemm<Cooperative128x256<T>>, T, T> large;
    if (!large.prepare(m, n, k, a, b, d.ptr, why)) {
      state.SkipWithError(("strata refused cooperative 128x256: " + why).c_str());
      return;
    }
    const std::vector<double> three =
        median_ms_interleaved({strata, [&](int i) { large.launch(i); }, cublas});
    state.counters["vs_coop128x256"] = three[1] / three[0];  // > 1: this configuration faster
    state.counters["ratio_interleaved"] = three[2] / three[0];
  }
  for (auto _ : state) state.SetIterationTime(strata_ms / 1e3);
  const double flops = 2.0 * m * n * k;
  state.counters["strata_TFLOPs"] = flops / strata_ms / 1e9;
  state.counters["cublas_TFLOPs"] = flops / cublas_ms / 1e9;
  state.counters["ratio"] = cublas_ms / strata_ms;
  state.counters["ctas"] = double(runner.gemms[0].grid().x);
  if (stream_k_gain > 0) state.counters["streamk_vs_auto"] = stream_k_gain;  // > 1: Stream-K faster
  {
    typename G::Arguments plan_of;  // what the automatic schedule chose: 1 for Stream-K, 0 otherwise
    plan_of.m = m, plan_of.n = n, plan_of.k = k;
    plan_of.split_k = 0, plan_of.schedule = runner.schedule;
    state.counters["auto_stream_k"] = Kernel::uses_stream_k(plan_of) ? 1 : 0;
  }
  // The ceiling was measured for 16-bit operands; tf32 runs at another rate, so it has no fraction.
  if constexpr (!std::is_same_v<T, float>)
    state.counters["of_wgmma_ceiling"] = flops / strata_ms / 1e9 / kWgmmaCeilingTflops;
}

template <class Kernel>
void register_kernel(const char* variant) {
  const std::string t = std::string(type_name<typename Kernel::ElementA>()) + "/" + variant;
  for (int s : {1024, 2048, 4096, 8192, 16384}) {
    benchmark::RegisterBenchmark((t + "/square/" + std::to_string(s)).c_str(), bench_gemm<Kernel>, s, s, s)
        ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  }
  const std::pair<int, int> nk[] = {{4096, 4096}, {14336, 4096}, {4096, 14336}, {8192, 8192}};
  for (int m : {4096, 16384}) {
    for (auto [n, k] : nk) {
      benchmark::RegisterBenchmark(
          (t + "/llm/m" + std::to_string(m) + "_n" + std::to_string(n) + "_k" + std::to_string(k)).c_str(),
          bench_gemm<Kernel>, m, n, k)
          ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
    }
  }
}
}  // namespace

int main(int argc, char** argv) {
  int devices = 0, major = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess || major != 9) {
    std::printf("sm90_gemm: no compute capability 9.0 GPU present, nothing to measure\n");
    return 77;
  }
  register_kernel<Cooperative128x256<__nv_bfloat16>>("coop128x256");
  register_kernel<Cooperative128x256Cluster2x1<__nv_bfloat16>>("coop128x256_c2x1");
  register_kernel<Pingpong128x128<__nv_bfloat16>>("pingpong128x128");
  register_kernel<Pingpong128x128Cluster2x1<__nv_bfloat16>>("pingpong128x128_c2x1");
  register_kernel<Pingpong64x256<__nv_bfloat16>>("pingpong64x256");
  register_kernel<Cooperative128x256Tail<__nv_bfloat16, 1>>("coop128x256_tail1");
  register_kernel<Cooperative128x256Tail<__nv_bfloat16, 2>>("coop128x256_tail2");
  register_kernel<Cooperative128x256Tail<__nv_bfloat16, 3>>("coop128x256_tail3");
  register_kernel<Cooperative128x256<__half>>("coop128x256");
  register_kernel<Cooperative128x256Tail<__half, 2>>("coop128x256_tail2");
  register_kernel<Pingpong64x256<__half>>("pingpong64x256");
  register_kernel<Cooperative128x256<float>>("coop128x256");  // tf32, against CUBLAS_COMPUTE_32F_FAST_TF32
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_wrong_results) {
    std::printf("sm90_gemm: FAILED: a strata output differed from cuBLAS's (see the errors above)\n");
    return 1;
  }
  return 0;
}
