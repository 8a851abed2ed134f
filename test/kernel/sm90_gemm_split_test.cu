// The Hopper GEMM's shared-out K: serial split-K (every tile cut into K ranges, the last range to
// finish adds the others' partial tiles), Stream-K (the last wave's K iterations spread over all
// SMs), and the automatic schedule, which takes split-K sized to one wave for problems of fewer
// tiles than CTAs (decode shapes), for the cooperative and the ping-pong schedules; the sweep's
// shapes and the few-tile ones. A prepared GEMM reruns without initializing (the tile counters
// reset themselves). Refusals: parallel split-K, split-K with clusters.
#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;
using Coop = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 256>, BF16, LinearCombination>;
using Pingpong = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 128, Sm90Schedule::pingpong>, float, LinearCombination>;

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

// Run twice on one initialization: the counters the first run leaves must let the second add up.
TEST(Sm90GemmSplit, RerunWithoutInitializing) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  GemmProblem<Coop> p({64, 1000, 4096}, 360);
  auto args = p.arguments();
  args.schedule = Schedule::stream_k;
  Gemm<Coop> gemm;
  const size_t bytes = Gemm<Coop>::workspace_size(args);
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
  using Clustered = Gemm<Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 256, Sm90Schedule::cooperative, 2, 1>, BF16,
                                        LinearCombination>>;
  Clustered::Arguments b;
  b.m = 16, b.n = 16, b.k = 16;
  b.A = buffer, b.B = buffer, b.D = buffer;
  b.lda = 16, b.ldb = 16, b.ldd = 16;
  b.schedule = Schedule::stream_k;
  st = Clustered::can_implement(b);
  EXPECT_EQ(st.code(), StatusCode::unsupported) << st.message();
  EXPECT_NE(st.message().find("without clusters"), std::string::npos) << st.message();
}

}  // namespace
