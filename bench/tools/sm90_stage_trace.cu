// Where each K tile's time goes in a Hopper mainloop, unclustered against a 2 × 1 cluster: the
// mainloop's stage hook (STRATA_SM90_STAGE_TRACE in include/collective/sm90_mainloop.hpp) stamps,
// per CTA and K tile, the producer's acquire of the stage (before / after: waiting for every
// consumer it feeds to release it), a consumer's wait for it to be full (before / after), its wait
// for the batch before to finish and its release of that batch's stage. The tool prints, over the
// CTAs of one traced launch and the K tiles past the ring's first fill (cycles of the SM's clock;
// each as median, then 10th / 90th percentile and mean):
//   empty wait   the producer waiting for a stage to be released
//   load         from the producer holding the stage (then expect, TMA) to a consumer finding it
//                full: the TMA's latency plus, clustered, the peer's multicast half
//   full wait    the consumer waiting for the stage to be full
//   issue+drain  from finding the stage full to the batch before done (issuing this batch's wgmma,
//                then waiting for the one before)
//   release      the consumer's release of the batch before's stage (local or to every CTA whose
//                producer wrote it)
//   period       one K tile to the next at the consumer (from finding one full to the next)
// What it asks (bench/RESULTS.md, 39th session): strata's 2 × 1 cluster at whole 64 × 64 tiles
// moves the same bytes as cuBLAS's kernel and as the unclustered tile yet runs 30–35 % longer than
// the latter, about 190 cycles more per K tile; which of these holds them.
//
//   scripts/stage-trace-sm90.sh [m,n,k ...]     (default: 128 x 4096 x 4096, 128 x 4096 x 14336)
//
// bf16, A row-major, B column-major, whole tiles (one work unit a CTA); a study tool.
#include <cuda_bf16.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

namespace stage_trace {
// Which events are stamped (bit e: event e): fewer stamps, less of the trace's own cost in the
// loop it times (each is a clock read and a global store). NVCC_DEFINES=-DSTAGE_TRACE_EVENTS=0xc
// stamps only the consumer's full wait; 0 none (the kernel's own time).
#ifndef STAGE_TRACE_EVENTS
#define STAGE_TRACE_EVENTS 0x3f
#endif
constexpr unsigned kMask = STAGE_TRACE_EVENTS;
constexpr int kMaxCtas = 264, kKTiles = 256, kEvents = 6;
__device__ long long stamps[kMaxCtas * kKTiles * kEvents];
// One thread per warpgroup records (the producer thread is thread 0; a consumer's first thread).
__device__ __forceinline__ void record(int event, int kt) {
  if (!((kMask >> event) & 1u)) return;
  if (threadIdx.x % 128 != 0 || kt >= kKTiles || blockIdx.x >= unsigned(kMaxCtas)) return;
  stamps[(blockIdx.x * kKTiles + kt) * kEvents + event] = clock64();
}
}  // namespace stage_trace

#define STRATA_SM90_STAGE_TRACE(event, kt) stage_trace::record(event, kt)
#include <kernel/sm90_gemm.hpp>

#include "../gemm_bench.cuh"
#include "../strata_runner.cuh"

namespace {
using namespace strata;
using namespace strata::bench;
using T = __nv_bfloat16;
using LC = LinearCombination;
template <int ClusterM, int BN = 64, int Stages = 12>
using Config = Sm90GemmConfig<T, RowMajor, ColumnMajor, 64, BN, 64, Stages, Sm90Schedule::pingpong, ClusterM>;
using Whole = Gemm<Sm90GemmKernel<Config<1>, T, LC>>;
using Clustered = Gemm<Sm90GemmKernel<Config<2>, T, LC>>;
// Twice the tensor work a K tile for the same consumer loop: a period that stays put is the loop's.
using Wide = Gemm<Sm90GemmKernel<Config<1, 128, 8>, T, LC>>;
constexpr int kStages = 12;

// "median (p10 / p90, mean)" of v.
std::string spread(std::vector<double> v) {
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  char text[96];
  std::snprintf(text, sizeof text, "%5.0f (%4.0f / %5.0f, %5.0f)", v[v.size() / 2], v[v.size() / 10],
                v[v.size() * 9 / 10], sum / double(v.size()));
  return text;
}

template <class G>
void trace(char const* name, int m, int n, int k, InputSets<T> const& in, T* d) {
  StrataRunner<G, T, T> runner;
  runner.schedule = Schedule::tiles, runner.split_k = 1;
  std::string why;
  if (!runner.prepare(m, n, k, in.a, in.b, d, why)) {
    std::printf("  %-22s refused: %s\n", name, why.c_str());
    return;
  }
  const double ms = median_ms([&](int i) { runner.launch(i); });
  std::vector<long long> zero(size_t(stage_trace::kMaxCtas) * stage_trace::kKTiles * stage_trace::kEvents, 0);
  check(cudaMemcpyToSymbol(stage_trace::stamps, zero.data(), zero.size() * sizeof(long long)), "clear stamps");
  runner.launch(0);
  check(cudaDeviceSynchronize(), "traced launch");
  std::vector<long long> s(zero.size());
  check(cudaMemcpyFromSymbol(s.data(), stage_trace::stamps, s.size() * sizeof(long long)), "read stamps");
  const int k_tiles = std::min((k + 63) / 64, stage_trace::kKTiles);
  const int ctas = std::min(int(runner.gemms[0].grid().x), stage_trace::kMaxCtas);
  // Each figure: from event `from` of K tile kt to event `to` of K tile kt + next, where both are stamped.
  struct Figure {
    char const* name;
    int from, to, next;
    std::vector<double> v;
  };
  Figure figures[] = {{"empty wait", 0, 1, 0, {}}, {"load", 1, 3, 0, {}},    {"full wait", 2, 3, 0, {}},
                      {"issue+drain", 3, 4, 0, {}}, {"release", 4, 5, 0, {}}, {"period", 3, 3, 1, {}}};
  for (int c = 0; c < ctas; ++c) {
    auto at = [&](int kt, int e) { return s[(size_t(c) * stage_trace::kKTiles + size_t(kt)) * stage_trace::kEvents + size_t(e)]; };
    for (int kt = kStages; kt + 1 < k_tiles; ++kt)
      for (Figure& f : figures) {
        const long long a = at(kt, f.from), b = at(kt + f.next, f.to);
        if (a != 0 && b != 0) f.v.push_back(double(b - a));  // 0: not stamped, or a CTA without this K tile
      }
  }
  std::printf("  %s: %.2f us, %d CTAs (events 0x%x stamped)\n", name, ms * 1e3, ctas, stage_trace::kMask);
  for (Figure const& f : figures)
    if (!f.v.empty()) std::printf("    %-12s %s  (%zu samples)\n", f.name, spread(f.v).c_str(), f.v.size());
}

void trace_shape(int m, int n, int k) {
  const InputSets<T> in(m, n, k, 3900);
  DeviceArray<T> d(int64_t(m) * n);
  std::printf("%d x %d x %d, 64 x 64 x 64 ping-pong, %d stages, whole tiles (cycles over CTAs and K tiles: median (p10 / p90, mean))\n",
              m, n, k, kStages);
  trace<Whole>("unclustered", m, n, k, in, d.ptr);
  trace<Clustered>("2 x 1 cluster", m, n, k, in, d.ptr);
  trace<Wide>("64 x 128 x 64, 8 stages, unclustered", m, n, k, in, d.ptr);
}
}  // namespace

int main(int argc, char** argv) {
  std::vector<std::array<int, 3>> shapes;
  if (!shapes_from_args(argc, argv, 1, {{128, 4096, 4096}, {128, 4096, 14336}}, "[m,n,k ...]", shapes)) return 2;
  int devices = 0, major = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("sm90_stage_trace: no GPU\n");
    return 0;
  }
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0), "compute capability");
  if (major != 9) {
    std::printf("sm90_stage_trace: needs a compute capability 9.0 GPU (this one is %d.x)\n", major);
    return 0;
  }
  for (auto const& s : shapes) trace_shape(s[0], s[1], s[2]);
  return 0;
}
