// The Hopper GEMM's shared-out K: serial split-K (every tile cut into K ranges, the last range to
// finish adds the others' partial tiles), Stream-K (the last wave's K iterations spread over all
// SMs), and the automatic schedule, which takes split-K sized to one wave for problems of fewer
// tiles than CTAs (decode shapes), for the cooperative and the ping-pong schedules; the sweep's
// shapes and the few-tile ones; split-K with clusters (the cluster's CTAs walk the same K ranges,
// multicasting what they share; each leaves its own partial tiles). A prepared GEMM reruns without
// initializing (the tile counters reset themselves). Refusals: parallel split-K, Stream-K with
// clusters. The last split with and without its lead (which decides how it finishes). The automatic
// schedule's Stream-K on a long K (8192^3). On the host (no GPU): the partial sums' workspace
// layout with and without clusters.
#include "gemm_stress_check.cuh"  // stress::fill_kernel
#include "sm90_gemm_sweep.cuh"

#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;
using Coop = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 256>, BF16, LinearCombination>;
using Pingpong = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 128, Sm90Schedule::pingpong>, float, LinearCombination>;
// Clusters: 2 x 1 cooperative (B multicast along M), 1 x 2 ping-pong (A multicast along N).
using Coop2x1 = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 128, Sm90Schedule::cooperative, 2, 1>, BF16,
                               LinearCombination>;
using Pingpong1x2 = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 64, 128, Sm90Schedule::pingpong, 1, 2>, BF16,
                                   LinearCombination>;

TEST(Sm90GemmSplit, SerialSplitK3) {
  sm90_sweep<Coop>(310, "split-K 3", [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::serial; });
}
TEST(Sm90GemmSplit, StreamK) {
  sm90_sweep<Coop>(320, "Stream-K", [](auto& a) { a.schedule = Schedule::stream_k; });
}
TEST(Sm90GemmSplit, AutomaticOnFewTileShapes) {
  sm90_sweep<Coop>(330, "automatic", [](auto& a) { a.split_k = 0, a.schedule = Schedule::automatic; },
                   kSm90FewTileShapes);
}
TEST(Sm90GemmSplit, PingpongStreamKAndSplitK) {
  sm90_sweep<Pingpong>(340, "ping-pong Stream-K", [](auto& a) { a.schedule = Schedule::stream_k; },
                       kSm90FewTileShapes);
  sm90_sweep<Pingpong>(350, "ping-pong split-K 5", [](auto& a) { a.split_k = 5; }, kSm90FewTileShapes);
}

TEST(Sm90GemmSplit, ClusterSplitK) {
  sm90_sweep<Coop2x1>(370, "cluster 2x1 split-K 3", [](auto& a) { a.split_k = 3; }, kSm90FewTileShapes);
  sm90_sweep<Coop2x1>(375, "cluster 2x1 automatic", [](auto& a) { a.split_k = 0; }, kSm90FewTileShapes);
  sm90_sweep<Pingpong1x2>(380, "cluster 1x2 ping-pong split-K 4", [](auto& a) { a.split_k = 4; });
  sm90_sweep<Pingpong1x2>(385, "cluster 1x2 ping-pong automatic", [](auto& a) { a.split_k = 0; }, kSm90FewTileShapes);
}

TEST(Sm90GemmSplit, RerunWithoutInitializing) {
  rerun_without_initializing<Coop>(360, [](Gemm<Coop>::Arguments& a) { a.schedule = Schedule::stream_k; });
  rerun_without_initializing<Coop2x1>(365, [](Gemm<Coop2x1>::Arguments& a) { a.split_k = 4; });
}

// Which way a tile's last split finishes depends on its lead: with none it often arrives before
// the others have counted and leaves its partial sum as they do; with the most allowed (half an
// even share) it finds them all in and adds their slots without leaving its own. Both ways must add
// up and leave the counters ready for the next launch.
struct StudySplitLead {
  explicit StudySplitLead(int lead) { detail::study_split_lead = lead; }
  ~StudySplitLead() { detail::study_split_lead = kSm90PlanLead; }
};
TEST(Sm90GemmSplit, LastSplitWithoutAndWithItsLead) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  for (int lead : {0, 1000}) {
    StudySplitLead knob(lead);
    Gemm<Coop>::Arguments probe;
    probe.m = 64, probe.n = 1000, probe.k = 4096, probe.split_k = 3;  // 64 K tiles: shares of 21
    ASSERT_EQ(Coop::work_plan(probe).lead, lead == 0 ? 0 : 10) << "the study knob must reach the plan";
    const std::string what = "split-K 3, lead " + std::to_string(lead);
    sm90_sweep<Coop>(390 + lead % 7, what.c_str(), [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::serial; },
                     kSm90FewTileShapes);
    sm90_sweep<Pingpong>(395 + lead % 7, ("ping-pong " + what).c_str(), [](auto& a) { a.split_k = 2; },
                         kSm90FewTileShapes);
    rerun_without_initializing<Coop>(400 + lead % 7, [](Gemm<Coop>::Arguments& a) { a.split_k = 3; });
  }
}

// The partial sums' workspace for `plan` run by `clusters` clusters of Kernel: each CTA of a
// cluster has its own counter per (tile, part) and its own slot per split unit and part; no two
// counters or slots overlap, all lie inside workspace_bytes, the slots start 256-byte aligned.
template <class Kernel>
void check_workspace_layout(Sm90WorkPlan const& plan, int clusters, std::string const& what) {
  using PS = typename Kernel::PartialSums;
  SCOPED_TRACE(what);
  const size_t bytes = PS::workspace_bytes(plan), counter_bytes = PS::counter_bytes(plan);
  if (plan.slots() == 0) {
    EXPECT_EQ(bytes, 0u) << "no tile is split: no workspace";
    return;
  }
  ASSERT_EQ(counter_bytes % 256, 0u);
  const size_t counters = counter_bytes / sizeof(int), floats = (bytes - counter_bytes) / sizeof(float);
  std::map<size_t, std::tuple<int, int, int>> counter_of;  // index -> (tile, rank, part)
  std::vector<std::pair<size_t, size_t>> ranges;           // [first, last) float of each slot part
  int split_units = 0;
  for (int c = 0; c < clusters; ++c)
    for (int u = 0, n = plan.unit_count(c, clusters); u < n; ++u) {
      const Sm90WorkUnit w = plan.unit(c, clusters, u);
      if (w.segments == 1) continue;
      ++split_units;
      for (int rank = 0; rank < Kernel::kClusterSize; ++rank)
        for (int part = 0; part < PS::kParts; ++part) {
          const size_t ci = PS::counter_index(w.tile, rank, part);
          ASSERT_LT(ci, counters);
          // The tile's units share its counter; nothing else may.
          const auto [it, fresh] = counter_of.try_emplace(ci, w.tile, rank, part);
          ASSERT_TRUE(fresh || it->second == std::make_tuple(w.tile, rank, part)) << "counter " << ci << " shared";
          const size_t first = PS::slot_offset(w.slot, rank, part);
          ASSERT_LE(first + PS::kPartFloats, floats) << "slot " << w.slot << " past the workspace";
          ranges.emplace_back(first, first + PS::kPartFloats);
        }
    }
  EXPECT_GT(split_units, 0);
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i)
    ASSERT_LE(ranges[i - 1].second, ranges[i].first) << "two slots overlap at float " << ranges[i].first;
}

TEST(Sm90GemmSplit, WorkspaceLayoutPerClusterCta) {
  for (int tiles : {1, 5, 40})
    for (int k_tiles : {8, 64})
      for (int splits : {2, 3, 4})
        for (int clusters : {1, 7, 66}) {
          Sm90WorkPlan plan;
          plan.kind = Sm90WorkKind::split_k;
          plan.total_tiles = tiles, plan.k_tiles = k_tiles, plan.splits = splits;
          const std::string what = "split " + std::to_string(splits) + ", " + std::to_string(tiles) + " tiles of " +
                                   std::to_string(k_tiles) + ", " + std::to_string(clusters) + " clusters";
          check_workspace_layout<Coop>(plan, clusters, "cooperative, " + what);
          check_workspace_layout<Pingpong>(plan, clusters, "ping-pong, " + what);
          check_workspace_layout<Coop2x1>(plan, clusters, "cooperative 2 x 1, " + what);
          check_workspace_layout<Pingpong1x2>(plan, clusters, "ping-pong 1 x 2, " + what);
        }
  for (int tiles : {3, 133, 300})
    for (int grid : {7, 132}) {
      Sm90WorkPlan plan;
      plan.kind = Sm90WorkKind::stream_k;
      plan.total_tiles = tiles, plan.k_tiles = 64;
      plan.stream_k = StreamKPartition::make(tiles, plan.k_tiles, grid);
      const std::string what = "Stream-K, " + std::to_string(tiles) + " tiles, grid " + std::to_string(grid);
      check_workspace_layout<Coop>(plan, grid, "cooperative, " + what);
      check_workspace_layout<Pingpong>(plan, grid, "ping-pong, " + what);
    }
  Sm90WorkPlan whole;
  whole.total_tiles = 10, whole.k_tiles = 64;
  check_workspace_layout<Coop2x1>(whole, 10, "whole tiles");
}

// The automatic schedule takes Stream-K on a long K whose last wave of whole tiles would be mostly
// idle (sm90_automatic_stream_k): 8192^3 is 2048 tiles of 128 x 256, 68 in the last wave of an
// H200's 132. It must run the very plan Stream-K asked for runs (the same bits out; StreamK above
// checks that plan against the reference), agree with a double reference on sampled elements,
// and leave a clustered kernel (no Stream-K) on whole tiles.
TEST(Sm90GemmSplit, AutomaticStreamKOnLongK) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  const int m = 8192, n = 8192, k = 8192;
  DeviceBuffer<BF16> a(size_t(m) * k), b(size_t(n) * k), d_auto(size_t(m) * n), d_forced(size_t(m) * n);
  stress::fill_kernel<BF16><<<1024, 256>>>(a.get(), int64_t(m) * k, 11u);  // uniform in [-1, 1)
  stress::fill_kernel<BF16><<<1024, 256>>>(b.get(), int64_t(n) * k, 12u);
  throw_on_error(cudaGetLastError(), "fill_kernel");
  Gemm<Coop>::Arguments args;
  args.m = m, args.n = n, args.k = k;
  args.A = a.get(), args.lda = k, args.B = b.get(), args.ldb = k;  // A row-major, B column-major
  args.ldd = n;
  args.epilogue = {{1.f, 0.f}};
  args.split_k = 0, args.schedule = Schedule::automatic;
  const int sms = detail::sm_count();
  const bool expected = sm90_automatic_stream_k((m / 128) * (n / 256), k, sms, 2);
  if (sms == 132) EXPECT_TRUE(expected) << "the H100/H200 SXM's 132 SMs leave 68 of 132 tiles in the last wave";
  EXPECT_EQ(Coop::uses_stream_k(args), expected) << sms << " SMs";
  {
    Gemm<Coop2x1>::Arguments clustered = args;
    EXPECT_FALSE(Coop2x1::uses_stream_k(clustered)) << "Stream-K takes no clusters";
  }
  auto run = [&](Schedule schedule, DeviceBuffer<BF16>& d) {
    auto x = args;
    x.schedule = schedule;
    x.D = d.get();
    d.fill_bytes(0xFF);
    const size_t bytes = Gemm<Coop>::workspace_size(x);
    DeviceBuffer<char> ws(bytes);
    Gemm<Coop> gemm;
    ASSERT_TRUE(bool(gemm.initialize(x, ws.get(), bytes)));
    ASSERT_TRUE(bool(gemm.run()));
    throw_on_error(cudaDeviceSynchronize(), "GEMM");
  };
  run(Schedule::automatic, d_auto);
  run(expected ? Schedule::stream_k : Schedule::tiles, d_forced);
  const std::vector<BF16> got = d_auto.download(), forced = d_forced.download();
  EXPECT_EQ(0, std::memcmp(got.data(), forced.data(), got.size() * sizeof(BF16)))
      << "the automatic schedule ran another plan than " << (expected ? "Stream-K" : "whole tiles");
  const std::vector<BF16> ha = a.download(), hb = b.download();
  std::mt19937 rng(13);
  for (int sample = 0; sample < 512; ++sample) {
    const int i = int(rng() % m), j = int(rng() % n);
    double ref = 0, abs_ref = 0;
    for (int p = 0; p < k; ++p) {
      const double x = double(__bfloat162float(ha[size_t(i) * k + p])) * __bfloat162float(hb[size_t(j) * k + p]);
      ref += x, abs_ref += std::fabs(x);
    }
    const double out = __bfloat162float(got[size_t(i) * n + j]);
    ASSERT_LE(std::fabs(out - ref), abs_ref / 128 + 1e-3) << "D(" << i << ", " << j << ")";
  }
}

TEST(Sm90GemmSplit, Refusals) {
  using G = Gemm<Coop>;
  alignas(16) static BF16 buffer[64];
  G::Arguments a;
  a.m = 16, a.n = 16, a.k = 16;
  a.A = buffer, a.B = buffer, a.D = buffer;
  a.lda = 16, a.ldb = 16, a.ldd = 16;
  a.split_k = 2;
  a.split_k_mode = SplitKMode::parallel;
  Status st = G::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  EXPECT_NE(st.message().find("SplitKMode::parallel is not supported"), std::string::npos) << st.message();
  a.split_k_mode = SplitKMode::serial;
  EXPECT_TRUE(bool(G::can_implement(a))) << G::can_implement(a).message();
  a.schedule = Schedule::stream_k;
  EXPECT_EQ(G::can_implement(a).code(), StatusCode::invalid_problem);
  using Clustered = Gemm<Coop2x1>;
  Clustered::Arguments b;
  b.m = 16, b.n = 16, b.k = 16;
  b.A = buffer, b.B = buffer, b.D = buffer;
  b.lda = 16, b.ldb = 16, b.ldd = 16;
  b.split_k = 3;
  EXPECT_TRUE(bool(Clustered::can_implement(b))) << Clustered::can_implement(b).message();
  b.split_k = 1;
  b.schedule = Schedule::stream_k;
  st = Clustered::can_implement(b);
  EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  EXPECT_NE(st.message().find("without clusters"), std::string::npos) << st.message();
}

}  // namespace
