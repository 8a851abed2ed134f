// Where each K tile's time goes in a Hopper mainloop, unclustered against a 2 × 1 cluster: the
// mainloop's stage hook (STRATA_SM90_STAGE_TRACE in include/collective/sm90_mainloop.hpp) stamps,
// per CTA and K tile, the producer's acquire of the stage (before / after: waiting for every
// consumer it feeds to release it) and a consumer's wait for it to be full (before / after). The
// tool prints, over the CTAs of one traced launch and the K tiles past the ring's first fill
// (medians, cycles of the SM's clock):
//   empty wait   the producer waiting for a stage to be released
//   load         from the producer holding the stage (then expect, TMA) to a consumer finding it
//                full: the TMA's latency plus, clustered, the peer's multicast half
//   full wait    the consumer waiting for the stage to be full
//   period       one K tile to the next at the consumer
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
constexpr int kMaxCtas = 264, kKTiles = 256, kEvents = 4;
__device__ long long stamps[kMaxCtas * kKTiles * kEvents];
// One thread per warpgroup records (the producer thread is thread 0; a consumer's first thread).
__device__ __forceinline__ void record(int event, int kt) {
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
template <int ClusterM>
using Config = Sm90GemmConfig<T, RowMajor, ColumnMajor, 64, 64, 64, 12, Sm90Schedule::pingpong, ClusterM>;
using Whole = Gemm<Sm90GemmKernel<Config<1>, T, LC>>;
using Clustered = Gemm<Sm90GemmKernel<Config<2>, T, LC>>;
constexpr int kStages = 12;

double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
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
  std::vector<double> empty, load, full, period;
  for (int c = 0; c < ctas; ++c) {
    auto at = [&](int kt, int e) { return s[(size_t(c) * stage_trace::kKTiles + size_t(kt)) * 4 + size_t(e)]; };
    for (int kt = kStages; kt + 1 < k_tiles; ++kt) {
      if (at(kt, 0) == 0 || at(kt, 3) == 0 || at(kt + 1, 2) == 0) continue;  // a CTA without this K tile
      empty.push_back(double(at(kt, 1) - at(kt, 0)));
      load.push_back(double(at(kt, 3) - at(kt, 1)));
      full.push_back(double(at(kt, 3) - at(kt, 2)));
      period.push_back(double(at(kt + 1, 2) - at(kt, 2)));
    }
  }
  std::printf("  %-22s %8.2f us  %4d CTAs  empty wait %6.0f  load %6.0f  full wait %6.0f  period %6.0f  (%zu samples)\n",
              name, ms * 1e3, ctas, median(empty), median(load), median(full), median(period), period.size());
}

void trace_shape(int m, int n, int k) {
  const InputSets<T> in(m, n, k, 3900);
  DeviceArray<T> d(int64_t(m) * n);
  std::printf("%d x %d x %d, 64 x 64 x 64 ping-pong, %d stages, whole tiles (cycles, medians over CTAs and K tiles)\n",
              m, n, k, kStages);
  trace<Whole>("unclustered", m, n, k, in, d.ptr);
  trace<Clustered>("2 x 1 cluster", m, n, k, in, d.ptr);
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
