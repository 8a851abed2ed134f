// The Hopper GEMM's shared-out K: serial split-K (every tile cut into K ranges, the last range to
// finish adds the others' partial tiles), Stream-K (the last wave's K iterations spread over all
// SMs), and the automatic schedule, which takes split-K sized to one wave for problems of fewer
// tiles than CTAs (decode shapes), for the cooperative and the ping-pong schedules; the sweep's
// shapes and the few-tile ones; split-K with clusters (the cluster's CTAs walk the same K ranges,
// multicasting what they share; each leaves its own partial tiles). A prepared GEMM reruns without
// initializing (the tile counters reset themselves). Refusals: parallel split-K, Stream-K with
// clusters.
#include "sm90_gemm_sweep.cuh"

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

// Run three times on one initialization: the counters each run leaves must let the next add up.
template <class Kernel>
void rerun_without_initializing(uint64_t seed, void (*tweak)(typename Gemm<Kernel>::Arguments&)) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  GemmProblem<Kernel> p({64, 1000, 4096}, seed);
  auto args = p.arguments();
  tweak(args);
  Gemm<Kernel> gemm;
  const size_t bytes = Gemm<Kernel>::workspace_size(args);
  ASSERT_GT(bytes, 0u);
  DeviceBuffer<char> ws(bytes);
  ASSERT_TRUE(bool(gemm.initialize(args, ws.get(), bytes)));
  for (int run = 0; run < 3; ++run) {
    p.poison();
    ASSERT_TRUE(bool(gemm.run()));
    throw_on_error(cudaDeviceSynchronize(), "GEMM");
    p.check([](int, int, int, double ref) { return ref; }, "rerun " + std::to_string(run));
  }
}
TEST(Sm90GemmSplit, RerunWithoutInitializing) {
  rerun_without_initializing<Coop>(360, [](Gemm<Coop>::Arguments& a) { a.schedule = Schedule::stream_k; });
  rerun_without_initializing<Coop2x1>(365, [](Gemm<Coop2x1>::Arguments& a) { a.split_k = 4; });
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
