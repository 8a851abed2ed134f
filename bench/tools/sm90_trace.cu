// Where a Hopper GEMM's time goes, work unit by work unit: the kernel's timeline hook
// (STRATA_SM90_TRACE in include/kernel/sm90_gemm.hpp) stamps each consumer warpgroup's phases
// with the SM's cycle counter, and this tool prints, for each shape and work split that
// strata::Sm90AutoGemm runs, the event-timed median of 30 launches next to the phases of one
// traced launch, in cycles per work unit:
//   - each warpgroup's first unit and its later ones apart (the first waits for the ring to fill):
//     the mainloop, the partial-sum fixup and the epilogue (these two only where the warpgroup
//     stores the tile); for the later ones also the wait before the mainloop (the scheduler's next
//     unit; with ping-pong also the other warpgroup's mainloop) and the period from one unit to the
//     next;
//   - with whole tiles, the later mainloops' MACs per cycle against the SM's dense 16-bit wgmma
//     peak of 2048 (4096 FLOP per cycle: NVIDIA's 989 TFLOP/s for 132 SMs at 1.83 GHz), and each
//     warpgroup's share of its time spent in mainloops;
//   - the automatic serial plan once more with its CTAs launched in clusters of two they do not use
//     (detail::study_cluster): what placement alone does to the mainloops;
//   - the automatic serial plan with other leads of each tile's last K split (detail::study_split_lead).
// Stamps are clock64 (per SM), so only differences within a CTA mean anything.
//
//   scripts/trace-sm90.sh [m,n,k ...]     (default: 4096^3, 16384 x 14336 x 4096, 8192^3, 128 x 8192^2)
//
// bf16, A row-major, B column-major, random data; not a benchmark of record (bench/sm90_gemm is).
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "../gemm_bench.cuh"

namespace trace {
constexpr int kMaxCtas = 1024, kWarpgroups = 2, kUnits = 64, kEvents = 4;
__device__ long long stamps[kMaxCtas * kWarpgroups * kUnits * kEvents];
__device__ __forceinline__ void record(int event, int unit, int warpgroup) {
  if (threadIdx.x % 128 != 0 || unit >= kUnits) return;
  const unsigned cta = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  if (cta >= unsigned(kMaxCtas)) return;
  stamps[((cta * kWarpgroups + warpgroup) * kUnits + unit) * kEvents + event] = clock64();
}
}  // namespace trace

#define STRATA_SM90_TRACE(event, unit, warpgroup) trace::record(event, unit, warpgroup)
#include "kernel/sm90_auto_gemm.hpp"

// STRATA_TRACE_SPLIT_TAIL=N (scripts/trace-sm90.sh: SPLIT_TAIL=N): the tile set's Large with a
// split tail of N K tiles (Sm90GemmConfig's SplitTail), to see what it does to the epilogue.
#ifndef STRATA_TRACE_SPLIT_TAIL
#define STRATA_TRACE_SPLIT_TAIL 0
#endif

namespace {
using T = __nv_bfloat16;
struct Tiles : strata::Sm90Tiles<T> {
  using Large = typename strata::Sm90Tiles<T>::Large::template WithSplitTail<STRATA_TRACE_SPLIT_TAIL>;
};
using Auto = strata::Sm90AutoGemm<Tiles, T>;
using strata::bench::check;
constexpr double kPeakMacsPerCycle = 2048;

// BM × BN × BK and the schedule of the configuration of class c.
struct TileShape {
  int bm, bn, bk;
  bool pingpong;
};
TileShape tile_of(strata::Sm90TileClass c) {
  using C = strata::Sm90TileClass;
  auto dims = [](auto cfg) {
    using Cfg = decltype(cfg);
    return TileShape{Cfg::BM, Cfg::BN, Cfg::BK, Cfg::pingpong};
  };
  switch (c) {
    case C::small: return dims(Tiles::Small{});
    case C::medium: return dims(Tiles::Medium{});
    case C::decode: return dims(Tiles::Decode{});
    case C::decode_wide: return dims(Tiles::DecodeWide{});
    case C::huge: return dims(Tiles::Huge{});
    default: return dims(Tiles::Large{});
  }
}

struct Variant {
  const char* name;
  strata::Schedule schedule;
  int split_k;
  strata::SplitKMode mode = strata::SplitKMode::automatic;  // serial: split K through the workspace, never in K pairs
  int placement = 1;  // > 1: a plan of single CTAs launched in clusters of this many (detail::study_cluster)
  int lead = strata::kSm90PlanLead;  // K tiles the last split of a split-K tile is longer (detail::study_split_lead)
};

// Mean of the values added, or -1 when none were.
struct Mean {
  double sum = 0;
  long count = 0;
  void add(double v) { sum += v, ++count; }
  double get() const { return count ? sum / double(count) : -1; }
};

void trace_one(int m, int n, int k, T* a, T* b, T* d, Variant const& v) {
  auto x = strata::bench::plain_gemm_arguments<Auto::Arguments>(m, n, k, a, b, d);
  x.schedule = v.schedule;
  x.split_k = v.split_k;
  x.split_k_mode = v.mode;
  strata::bench::DeviceArray<char> ws(int64_t(std::max<size_t>(Auto::workspace_size(x), 16)));
  Auto gemm;
  strata::detail::study_cluster = v.placement;
  strata::detail::study_split_lead = v.lead;  // read by initialize, into the plan
  struct Restore {
    ~Restore() { strata::detail::study_cluster = 1, strata::detail::study_split_lead = strata::kSm90PlanLead; }
  } restore;
  if (strata::Status s = gemm.initialize(x, ws.ptr, size_t(ws.count)); !s) {
    std::printf("  %-12s refused: %s\n", v.name, s.message().c_str());
    return;
  }
  auto run = [&] {
    if (strata::Status r = gemm.run(); !r) throw std::runtime_error("run: " + r.message());
  };
  // Half a second of launches first: the clocks settle under the power limit, which moves a median
  // timed from idle by up to 15 %.
  check(cudaDeviceSynchronize(), "before the warm-up");
  for (auto t0 = std::chrono::steady_clock::now(); std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(500);) {
    for (int i = 0; i < 10; ++i) run();
    check(cudaDeviceSynchronize(), "warm-up");
  }
  const double us = strata::bench::median_ms([&](int) { run(); }) * 1e3;
  std::vector<long long> st(size_t(trace::kMaxCtas) * trace::kWarpgroups * trace::kUnits * trace::kEvents, 0);
  check(cudaMemcpyToSymbol(trace::stamps, st.data(), st.size() * sizeof(st[0])), "clear stamps");
  run();
  check(cudaDeviceSynchronize(), "traced run");
  check(cudaMemcpyFromSymbol(st.data(), trace::stamps, st.size() * sizeof(st[0])), "read stamps");

  struct Phases {
    Mean mainloop, fixup, epilogue;
  } first, later;
  Mean before, period, duty;
  int traced = 0, most_units = 0;
  const bool pingpong = tile_of(gemm.chosen()).pingpong;
  for (int w = 0; w < trace::kMaxCtas * trace::kWarpgroups; ++w) {
    auto stamp = [&](int wg, int u, int e) {
      return st[(size_t(wg) * trace::kUnits + size_t(u)) * trace::kEvents + size_t(e)];
    };
    // A ping-pong mainloop starts once the other warpgroup (w ^ 1, same CTA) has ended the one
    // before: its own event 0 follows bar.sync in the program, but the SM reads the clock before
    // that wait ends (BAR.SYNC.DEFER_BLOCKING; seen with a two-warpgroup probe on the H200).
    auto at = [&](int u, int e) {
      const long long t = stamp(w, u, e);
      if (!pingpong || e != 0 || u == 0 || t == 0) return t;
      return std::max(t, stamp(w ^ 1, u - 1, 1));
    };
    auto end = [&](int u) { return std::max({at(u, 1), at(u, 2), at(u, 3)}); };
    std::vector<int> units;  // this warpgroup's units in order (ping-pong: every other one)
    for (int u = 0; u < trace::kUnits; ++u)
      if (at(u, 0) && at(u, 1)) units.push_back(u);
    if (units.empty()) continue;
    ++traced, most_units = std::max(most_units, int(units.size()));
    long long busy = 0;
    for (size_t i = 0; i < units.size(); ++i) {
      const int u = units[i];
      Phases& p = i == 0 ? first : later;
      p.mainloop.add(double(at(u, 1) - at(u, 0)));
      busy += at(u, 1) - at(u, 0);
      if (at(u, 2) && at(u, 3)) {
        p.fixup.add(double(at(u, 2) - at(u, 1)));
        p.epilogue.add(double(at(u, 3) - at(u, 2)));
      }
      if (i == 0) continue;
      before.add(double(at(u, 0) - end(units[i - 1])));
      period.add(double(at(u, 0) - at(units[i - 1], 0)));
    }
    if (units.size() < size_t(trace::kUnits))  // else more units than traced: no end known
      duty.add(double(busy) / double(end(units.back()) - at(units[0], 0)));
  }
  const double flops = 2.0 * m * n * k;
  std::printf("  %-12s %8.1f us, %6.1f TFLOP/s; %s; %d warpgroups traced, up to %d units each\n", v.name, us,
              flops / us / 1e6, gemm.name().c_str(), traced, most_units);
  if (v.placement > 1)
    std::printf("  %-12s   %s\n", "",
                strata::detail::study_cluster_used > 1 ? "placed in clusters as asked"
                                                       : "NOT placed in clusters (a clustered plan, an odd grid, or "
                                                         "clusters that would not all fit at once): as the row above");
  auto phases = [](const char* what, Phases const& p) {
    std::printf("  %-12s   %s (%ld): mainloop %.0f", "", what, p.mainloop.count, p.mainloop.get());
    if (p.epilogue.count) std::printf(", fixup %.0f, epilogue %.0f", p.fixup.get(), p.epilogue.get());
  };
  phases("first units", first);
  std::printf(" cycles\n");
  if (later.mainloop.count == 0) return;
  phases("later units", later);
  std::printf(", before the mainloop %.0f; period %.0f cycles\n", before.get(), period.get());
  if (v.schedule == strata::Schedule::tiles && v.split_k == 1) {
    const auto tile = tile_of(gemm.chosen());
    const double k_tiles = double((k + tile.bk - 1) / tile.bk);
    const double macs = double(tile.bm) * tile.bn * tile.bk * k_tiles;
    std::printf("  %-12s   later mainloops %.0f MACs per cycle (%.1f %% of %.0f); warpgroups in mainloops %.1f %% of "
                "their time\n",
                "", macs / later.mainloop.get(), 100 * macs / later.mainloop.get() / kPeakMacsPerCycle,
                kPeakMacsPerCycle, 100 * duty.get());
  }
}
}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::array<int, 3>> shapes;
  if (!strata::bench::shapes_from_args(argc, argv, 1,
                                       {{4096, 4096, 4096}, {16384, 14336, 4096}, {8192, 8192, 8192}, {128, 8192, 8192}},
                                       "[m,n,k ...]   (each dimension at least 1)", shapes))
    return 2;
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  if (prop.major != 9 || prop.minor != 0) {
    std::printf("sm90_trace: %s is not compute capability 9.0, nothing to trace\n", prop.name);
    return 77;
  }
  std::printf("GPU: %s, %d SMs; cycles are SM clocks\n", prop.name, prop.multiProcessorCount);
  const Variant variants[] = {
      {"automatic", strata::Schedule::automatic, 0},
      {"automatic, serial", strata::Schedule::automatic, 0, strata::SplitKMode::serial},
      {"whole tiles", strata::Schedule::tiles, 1},
      {"Stream-K", strata::Schedule::stream_k, 1},
      {"split-K 2", strata::Schedule::tiles, 2},
      // The serial plan's CTAs placed in clusters of two that they do not use (where the grid is
      // even): does co-scheduling alone slow the mainloops, as K pairs on the small tile did?
      {"serial, CTAs in clusters of 2", strata::Schedule::automatic, 0, strata::SplitKMode::serial, 2},
      // The automatic serial plan with other leads of each tile's last K split (the default is
      // sm90_plan_lead's): equal splits, and longer leads.
      {"serial, lead 0", strata::Schedule::automatic, 0, strata::SplitKMode::serial, 1, 0},
      {"serial, lead 2", strata::Schedule::automatic, 0, strata::SplitKMode::serial, 1, 2},
      {"serial, lead 4", strata::Schedule::automatic, 0, strata::SplitKMode::serial, 1, 4},
      {"serial, lead 8", strata::Schedule::automatic, 0, strata::SplitKMode::serial, 1, 8},
  };
  for (auto const& s : shapes) {
    const int m = s[0], n = s[1], k = s[2];
    strata::bench::DeviceArray<T> a(int64_t(m) * k), b(int64_t(k) * n), d(int64_t(m) * n);
    strata::bench::fill_random(a.ptr, a.count, 1);
    strata::bench::fill_random(b.ptr, b.count, 2);
    std::printf("m%d n%d k%d\n", m, n, k);
    for (auto const& v : variants) trace_one(m, n, k, a.ptr, b.ptr, d.ptr, v);
  }
  return 0;
} catch (std::exception const& e) {
  std::fprintf(stderr, "sm90_trace: %s\n", e.what());
  return 1;
}
