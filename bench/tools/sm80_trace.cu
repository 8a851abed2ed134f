// Where a GEMM's time goes, CTA by CTA: the kernel's timeline hook (STRATA_SM80_TRACE in
// include/kernel/sm80_gemm.hpp) stamps each CTA's phases with the GPU's global timer, and this tool
// prints, for each shape and work split, the event-timed median of 30 launches next to the
// phases of the last one: when the CTAs start, how long each segment's mainloop, partial-sum
// fixup and epilogue take on average, and how the CTAs' end times spread. Also the event-timed
// launch of an empty kernel: the part of every figure that is launch, not GEMM.
//
//   scripts/trace-sm80.sh [m,n,k ...]     (default: two m = 128 decode shapes and 2048^3)
//
// bf16, A row-major, B column-major, random data; not a benchmark of record (bench/sm80_gemm is).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "../gemm_bench.cuh"

namespace trace {
constexpr int kMaxCtas = 8192;
constexpr int kEvents = 9;  // see STRATA_SM80_TRACE: 0, then 1..4 and 5..8 for two segments
__device__ unsigned long long stamps[kMaxCtas * kEvents];
__device__ __forceinline__ void record(int event) {
  if (threadIdx.x != 0) return;
  const unsigned cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (cta >= unsigned(kMaxCtas)) return;
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  stamps[cta * kEvents + event] = t;
}
}  // namespace trace

#define STRATA_SM80_TRACE(event) trace::record(event)
#include "kernel/sm80_auto_gemm.hpp"

namespace {
using T = __nv_bfloat16;
using Auto = strata::Sm80AutoGemm<strata::Sm80Tiles<T>, T>;
using strata::bench::check;

__global__ void empty_kernel() {}

// Event-timed median of 30 launches after 5 warm-up ones, in µs (bench/gemm_bench.cuh).
template <class F>
double median_us(F&& launch) {
  return strata::bench::median_ms([&](int) { launch(); }) * 1e3;
}

struct Variant {
  const char* name;
  strata::Schedule schedule;
  int split_k;
  strata::SplitKMode mode;
};

void trace_one(int m, int n, int k, T* a, T* b, T* d, Variant const& v) {
  auto x = strata::bench::plain_gemm_arguments<Auto::Arguments>(m, n, k, a, b, d);
  x.schedule = v.schedule;
  x.split_k = v.split_k;
  x.split_k_mode = v.mode;
  strata::bench::DeviceArray<char> ws(int64_t(Auto::workspace_size(x)));
  Auto gemm;
  strata::Status s = gemm.initialize(x, ws.ptr, size_t(ws.count));
  if (!s) {
    std::printf("  %-22s refused: %s\n", v.name, s.message().c_str());
    return;
  }
  auto run = [&] {
    strata::Status r = gemm.run();
    if (!r) throw std::runtime_error("run: " + r.message());
  };
  const double median = median_us(run);
  std::vector<unsigned long long> zero(size_t(trace::kMaxCtas) * trace::kEvents, 0), st(zero.size());
  check(cudaMemcpyToSymbol(trace::stamps, zero.data(), zero.size() * sizeof(zero[0])), "clear stamps");
  run();
  check(cudaDeviceSynchronize(), "traced run");
  check(cudaMemcpyFromSymbol(st.data(), trace::stamps, st.size() * sizeof(st[0])), "read stamps");

  unsigned long long t0 = ~0ULL;
  int ctas = 0;
  for (int c = 0; c < trace::kMaxCtas; ++c)
    if (st[size_t(c) * trace::kEvents]) ++ctas, t0 = std::min(t0, st[size_t(c) * trace::kEvents]);
  if (ctas == 0) {
    std::printf("  %-22s %7.1f us (nothing traced)\n", v.name, median);
    return;
  }
  auto us = [&](unsigned long long later, unsigned long long earlier) { return double(later - earlier) / 1e3; };
  double sum[2][4] = {}, start_spread = 0;
  int count[2][4] = {};
  std::vector<double> ends;
  for (int c = 0; c < trace::kMaxCtas; ++c) {
    unsigned long long const* e = &st[size_t(c) * trace::kEvents];
    if (!e[0]) continue;
    start_spread = std::max(start_spread, us(e[0], t0));
    unsigned long long last = e[0];
    for (int seg = 0; seg < 2; ++seg) {
      unsigned long long const* u = e + 1 + 4 * seg;
      const unsigned long long before = seg == 0 ? e[0] : std::max(e[3], e[4]);
      for (int phase = 0; phase < 4; ++phase) {
        if (!u[phase]) continue;
        const unsigned long long from = phase == 0 ? before : u[phase - 1];
        if (!from) continue;
        sum[seg][phase] += us(u[phase], from);
        ++count[seg][phase];
        last = std::max(last, u[phase]);
      }
    }
    ends.push_back(us(last, t0));
  }
  std::sort(ends.begin(), ends.end());
  const size_t q = ends.size();
  std::printf("  %-22s %7.1f us event-timed; %d CTAs start within %.1f us, end at %.1f / %.1f / %.1f us "
              "(min / median / max)\n",
              v.name, median, ctas, start_spread, ends[0], ends[q / 2], ends[q - 1]);
  static const char* phases[4] = {"setup", "mainloop", "fixup", "epilogue"};
  for (int seg = 0; seg < 2; ++seg) {
    if (!count[seg][1]) continue;
    std::printf("  %-22s   segment %d (%d CTAs):", "", seg, count[seg][1]);
    for (int phase = 0; phase < 4; ++phase)
      if (count[seg][phase])
        std::printf(" %s %.2f%s", phases[phase], sum[seg][phase] / count[seg][phase],
                    count[seg][phase] != count[seg][1] ? (" (" + std::to_string(count[seg][phase]) + ")").c_str() : "");
    std::printf(" us\n");
  }
}
}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::array<int, 3>> shapes;
  if (!strata::bench::shapes_from_args(argc, argv, 1, {{128, 14336, 4096}, {128, 8192, 8192}, {2048, 2048, 2048}},
                                       "[m,n,k ...]   (each dimension at least 1)", shapes))
    return 2;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  std::printf("GPU: %s, %d SMs; event-timed empty kernel launch: %.1f us\n", prop.name, prop.multiProcessorCount,
              median_us([&] { empty_kernel<<<prop.multiProcessorCount, 256>>>(); }));
  const Variant variants[] = {
      {"automatic", strata::Schedule::automatic, 0, strata::SplitKMode::automatic},
      {"tile grid, no split", strata::Schedule::tiles, 1, strata::SplitKMode::automatic},
      {"Stream-K", strata::Schedule::stream_k, 1, strata::SplitKMode::automatic},
      {"split-K 2 serial", strata::Schedule::tiles, 2, strata::SplitKMode::serial},
      {"split-K 2 parallel", strata::Schedule::tiles, 2, strata::SplitKMode::parallel},
  };
  for (auto const& s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    strata::bench::DeviceArray<T> a(int64_t(m) * k), b(int64_t(k) * n), d(int64_t(m) * n);
    strata::bench::fill_random(a.ptr, a.count, 1);
    strata::bench::fill_random(b.ptr, b.count, 2);
    Auto::Arguments shape;
    shape.m = m, shape.n = n, shape.k = k;
    std::printf("m%d n%d k%d (%s tile class)\n", m, n, k, strata::sm80_tile_class_name(Auto::tile_class(shape)));
    for (auto const& v : variants) trace_one(m, n, k, a.ptr, b.ptr, d.ptr, v);
  }
  return 0;
} catch (std::exception const& e) {
  std::fprintf(stderr, "sm80_trace: %s\n", e.what());
  return 1;
}
