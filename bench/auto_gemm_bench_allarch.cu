// strata::AutoGemm (one call for every GPU: the Hopper tile set on an sm_90a GPU, the Ampere one
// elsewhere) against cuBLAS, bf16 in and out, A row-major (activations), B column-major
// (weights), on the same buffers in the same run, each output checked against cuBLAS's first.
// Per shape it prints the kernel AutoGemm chose and its ratio to cuBLAS:
//   decode shapes (M = 1..128): bandwidth-bound; TB/s of the bytes A + B + D move, one launch at
//     a time (each library timed alone; the ratio interleaved too) and streamed (100 dependent
//     launches back to back, as a model's layers run; strata with and without programmatic
//     dependent launch, the weights declared independent with it; batches interleaved);
//   few-tile shapes (fewer tiles than SMs, long K: split through the workspace in 2 to 8 parts)
//     and large shapes: TFLOP/s.
// Decode shapes also time the dispatch with split K through the workspace (SplitKMode::serial)
// against its default, where the Hopper tiles add K halves in pairs: pairs_gain, strm_pairs_gain;
// decode and few-tile shapes time equal K splits against the last split's lead (lead_gain,
// strm_lead_gain): the decode rows' default has the lead at two splits, the few-tile rows' default
// (4 and 8 splits) has none and the lead is forced.
// Every run rewrites a chart of the ratios (SVG): STRATA_CHART=<path>, default
// auto_gemm_bench_allarch.svg in the working directory.
//
//   auto_gemm_bench_allarch [--benchmark_filter=<regex>]     e.g. --benchmark_filter=decode/m16
#include <benchmark/benchmark.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <kernel/auto_gemm.hpp>
#include <kernel/sm90_work.hpp>

#include "chart_svg.hpp"
#include "gemm_bench.cuh"
#include "strata_runner.cuh"

namespace {
using namespace strata;
using namespace strata::bench;
using T = __nv_bfloat16;
using Auto = AutoGemm<T, RowMajor, ColumnMajor, T>;

bool g_wrong_results = false;
std::vector<ChartRow> g_chart;

enum class Group { decode, few_tile, large };
constexpr const char* group_name(Group g) {
  return g == Group::decode ? "decode" : g == Group::few_tile ? "fewtile" : "large";
}

struct Shape {
  int m, n, k;
  Group group;
  std::string name() const {
    return "m" + std::to_string(m) + " n" + std::to_string(n) + " k" + std::to_string(k);
  }
};

void bench_shape(benchmark::State& state, Shape shape) {
  const int m = shape.m, n = shape.n, k = shape.k;
  const bool decode = shape.group == Group::decode;
  const InputSets<T> inputs(m, n, k, 300);
  const int sets = inputs.size();
  std::vector<T*> const& a = inputs.a;
  std::vector<T*> const& b = inputs.b;
  DeviceArray<T> d(int64_t(m) * n), d_ref(int64_t(m) * n);
  const CublasHandle handle;
  auto cublas = [&](int i) {
    cublas_gemm(handle, m, n, k, a[size_t(i) % a.size()], true, k, b[size_t(i) % b.size()], false, k, d_ref.ptr, n);
  };
  StrataRunner<Auto, T, T> runner;
  std::string why;
  if (!runner.prepare(m, n, k, a, b, d.ptr, why)) {
    state.SkipWithError(("strata refused: " + why).c_str());
    return;
  }
  // Checked with and without programmatic dependent launch (the weights independent with it), each
  // after poisoning D.
  for (bool pdl : {false, true}) {
    runner.options.programmatic_dependent_launch = pdl;
    runner.options.b_independent = pdl;
    if (const std::string wrong = differs_from_cublas(runner, cublas, d.ptr, d_ref.ptr, int64_t(m) * n, sets, 1.0 / 128);
        !wrong.empty()) {
      g_wrong_results = true;
      state.SkipWithError((wrong + (pdl ? " (with PDL)" : "")).c_str());
      return;
    }
  }
  runner.options = {};
  // One launch at a time, each library timed alone (the ratio and the chart): alternating with
  // strata's kernels slowed cuBLAS 5-20 % on the Ampere bench (bench/sm80_gemm.cu), so alone is the
  // stronger baseline. Timed interleaved too (ratio_interleaved), to show what the order moves.
  const auto strata = [&](int i) { runner.launch(i); };
  const double one[2] = {median_ms(strata), median_ms(cublas)};
  const std::vector<double> alternating = median_ms_interleaved({strata, cublas});
  // Streamed (decode shapes): without and with PDL, as a model's layers run with it: the weights (B)
  // are written long before, so they are declared independent of the kernel before
  // (LaunchOptions::b_independent), the tokens (A) are not. Batches of the three interleaved.
  LaunchOptions pdl;
  pdl.programmatic_dependent_launch = true;
  pdl.b_independent = true;
  const auto strata_pdl = [&](int i) {
    runner.options = pdl;
    runner.launch(i);
    runner.options = {};
  };
  double streamed = 0, streamed_pdl = 0, streamed_cublas = 0;
  if (decode) {
    const std::vector<double> three = streamed_ms_interleaved({strata, strata_pdl, cublas}, 100, 7);
    streamed = three[0], streamed_pdl = three[1], streamed_cublas = three[2];
  }
  // The same dispatch prepared another way (`how` sets up its runner, `undo` follows its prepare),
  // checked, then timed against the default: its time over the default's, one launch
  // (interleaved) and streamed with PDL. False (the benchmark skipped) where it was refused or wrong.
  struct Gain {
    double one = 0, streamed = 0;
  };
  const auto gain_of = [&](const char* what, auto how, auto undo, Gain& gain) {
    StrataRunner<Auto, T, T> other;
    how(other);
    const bool prepared = other.prepare(m, n, k, a, b, d.ptr, why);
    undo();
    std::string wrong = prepared ? differs_from_cublas(other, cublas, d.ptr, d_ref.ptr, int64_t(m) * n, sets, 1.0 / 128)
                                 : "strata refused: " + why;
    if (!wrong.empty()) {
      g_wrong_results = g_wrong_results || prepared;
      state.SkipWithError((wrong + " (" + what + ")").c_str());
      return false;
    }
    const auto launch = [&](int i) { other.launch(i); };
    const std::vector<double> both = median_ms_interleaved({strata, launch});
    gain.one = both[1] / both[0];
    if (decode) {  // streamed with PDL, batches of the default's and the other's interleaved
      other.options = pdl;
      const std::vector<double> two = streamed_ms_interleaved({strata_pdl, launch}, 100, 7);
      gain.streamed = two[1] / two[0];
    }
    return true;
  };
  // Split K through the workspace (SplitKMode::serial) instead of the Hopper tiles' K pairs
  // (pairs_gain), and the last split's lead of kSm90SplitLead K tiles against equal K splits
  // (lead_gain: time without over time with): on decode rows, whose plans take the lead at two
  // splits, equal splits are the other way; on few-tile rows, whose 4 and 8 splits take none
  // (sm90_plan_lead), the lead forced is. A shape that runs neither times the same kernel twice:
  // its gain is the noise.
  // On decode rows also the TMA loads without L2 hints (l2_gain: time without over time with).
  Gain pairs, lead, l2;
  if (decode) {
    const auto nothing = [] {};
    if (!gain_of("serial split-K", [](auto& r) { r.split_k_mode = SplitKMode::serial; }, nothing, pairs)) return;
    if (!gain_of("no L2 hints", [](auto& r) { r.l2_hints = L2Hints::off; }, nothing, l2)) return;
  }
  if (shape.group != Group::large) {
    const int other = decode ? 0 : kSm90SplitLead;
    const auto knob = [other](auto&) { strata::detail::study_split_lead = other; };
    if (!gain_of(decode ? "equal K splits" : "lead forced", knob, [] { strata::detail::study_split_lead = kSm90PlanLead; },
                 lead))
      return;
    if (!decode) lead.one = 1 / lead.one;  // the default is the equal splits here
  }
  for (auto _ : state) state.SetIterationTime(one[0] / 1e3);
  const std::string kernel = runner.gemms[0].kernel_name();
  state.SetLabel(kernel);
  const double flops = 2.0 * m * n * k;
  const double bytes = double(int64_t(m) * k + int64_t(k) * n + int64_t(m) * n) * double(sizeof(T));
  state.counters["ratio"] = one[1] / one[0];
  state.counters["ratio_interleaved"] = alternating[1] / alternating[0];
  if (decode) {
    state.counters["strata_TBps"] = bytes / one[0] / 1e9;
    state.counters["cublas_TBps"] = bytes / one[1] / 1e9;
    state.counters["strm_TBps"] = bytes / streamed_pdl / 1e9;
    state.counters["strm_nopdl_TBps"] = bytes / streamed / 1e9;
    state.counters["strm_cublas_TBps"] = bytes / streamed_cublas / 1e9;
    state.counters["strm_ratio"] = streamed_cublas / streamed_pdl;
    state.counters["pairs_gain"] = pairs.one;
    state.counters["strm_pairs_gain"] = pairs.streamed;
    state.counters["lead_gain"] = lead.one;
    state.counters["strm_lead_gain"] = lead.streamed;
    state.counters["l2_gain"] = l2.one;
    state.counters["strm_l2_gain"] = l2.streamed;
    g_chart.push_back({shape.name(), kernel, {one[1] / one[0], streamed_cublas / streamed_pdl}});
  } else {
    state.counters["strata_TFLOPs"] = flops / one[0] / 1e9;
    state.counters["cublas_TFLOPs"] = flops / one[1] / 1e9;
    if (shape.group == Group::few_tile) state.counters["lead_gain"] = lead.one;
    g_chart.push_back({shape.name(), kernel, {one[1] / one[0], std::nan("")}});
  }
}

void register_shapes() {
  std::vector<Shape> shapes;
  const std::pair<int, int> nk[] = {{4096, 4096}, {14336, 4096}, {4096, 14336}, {8192, 8192}};
  for (int m : {1, 16, 64, 128})
    for (auto [n, k] : nk) shapes.push_back({m, n, k, Group::decode});
  // On the H100/H200's 132 SMs the small tile splits these 4 (the first three) and 8 ways.
  for (auto [m, n, k] : {std::array{256, 1024, 8192}, {512, 512, 16384}, {128, 2048, 8192}, {128, 1024, 14336}})
    shapes.push_back({m, n, k, Group::few_tile});
  for (int s : {2048, 4096, 8192}) shapes.push_back({s, s, s, Group::large});
  for (int m : {4096, 16384}) {  // the LLM shapes; those with K = 4096 and N = 14336 or M = 16384 run the huge class
    shapes.push_back({m, 14336, 4096, Group::large});
    shapes.push_back({m, 4096, 14336, Group::large});
  }
  shapes.push_back({16384, 4096, 4096, Group::large});
  for (Shape const& s : shapes) {
    const std::string name = std::string("bf16/") + group_name(s.group) + "/m" + std::to_string(s.m) + "_n" +
                             std::to_string(s.n) + "_k" + std::to_string(s.k);
    benchmark::RegisterBenchmark(name.c_str(), bench_shape, s)
        ->UseManualTime()->Iterations(1)->Unit(benchmark::kMicrosecond);
  }
}
}  // namespace

int main(int argc, char** argv) {
  int devices = 0, major = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess || major < 8) {
    std::printf("auto_gemm_bench_allarch: no GPU of compute capability 8.0 or newer present, nothing to measure\n");
    return 77;
  }
  register_shapes();
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  const char* env = std::getenv("STRATA_CHART");
  const std::string chart = env != nullptr && *env != '\0' ? env : "auto_gemm_bench_allarch.svg";
  if (!g_chart.empty()) {
    if (write_ratio_chart(chart, "strata::AutoGemm vs cuBLAS, bf16 (ratio of times, same run, same buffers)",
                          {"one launch at a time", "100 launches streamed (PDL, weights independent)"}, g_chart))
      std::printf("auto_gemm_bench_allarch: chart written to %s\n", chart.c_str());
    else
      std::printf("auto_gemm_bench_allarch: could not write the chart to %s\n", chart.c_str());
  }
  if (g_wrong_results) {
    std::printf("auto_gemm_bench_allarch: FAILED: a strata output differed from cuBLAS's (see the errors above)\n");
    return 1;
  }
  return 0;
}
