// The Hopper GEMM's K pairs (kernel/sm90_pair_sums.hpp): a split-K plan run by clusters of two
// CTAs, rank 1 handing its K half's accumulators to rank 0 through distributed shared memory. The
// ping-pong 64 × 128 tile with TMA stores (Small's shape, its sums over the TMA staging) and a
// cooperative 128 × 64 tile with float D (two warpgroup parts, each its own barrier): the
// automatic split on the few-tile shapes, explicit splits of 2 and 4 (pairs alone, and pairs under
// the workspace's fixup), the sweep's shapes; which plans take pairs (serial keeps the workspace,
// odd splits and plans past one wave of pairs too); three runs on one initialization. Fresh random
// operands, D poisoned, every element against the double reference; compute capability 9.0 only.
#include "sm90_gemm_sweep.cuh"

#include <string>

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;
using Pingpong =
    Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 64, 128, Sm90Schedule::pingpong>::WithPairs, BF16, LinearCombination>;
using Coop = Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 64>::WithPairs, float, LinearCombination>;

static_assert(Pingpong::kPairs && Pingpong::PairSums::kParts == 1 && Coop::PairSums::kParts == 2);

// Few tiles and a deep K: the automatic split takes pairs, alone or under a workspace split.
inline constexpr Shape3 kPairShapes[] = {{1, 4096, 4096}, {16, 1000, 4097}, {64, 2048, 1000}, {128, 4096, 2048},
                                         {300, 300, 4096}, {129, 7, 1000},  {7, 7, 7},        {129, 1, 0}};

TEST(Sm90GemmPairs, PingpongAutomatic) {
  sm90_sweep<Pingpong>(910, "ping-pong pairs, automatic", [](auto& a) { a.split_k = 0; }, kPairShapes);
}
TEST(Sm90GemmPairs, PingpongExplicitSplits) {
  sm90_sweep<Pingpong>(920, "ping-pong pairs, split-K 2", [](auto& a) { a.split_k = 2; }, kPairShapes);
  sm90_sweep<Pingpong>(930, "ping-pong pairs, split-K 4", [](auto& a) { a.split_k = 4; });
}
TEST(Sm90GemmPairs, CooperativeFloatOut) {
  sm90_sweep<Coop>(940, "cooperative pairs, automatic", [](auto& a) { a.split_k = 0; }, kPairShapes);
  sm90_sweep<Coop>(950, "cooperative pairs, split-K 4", [](auto& a) { a.split_k = 4; }, kPairShapes);
}

// Which plans run in pairs on this GPU, and that both ways give the same D: serial keeps the
// workspace, an odd split cannot pair, a split too wide for one wave of pairs stays in the workspace.
TEST(Sm90GemmPairs, WhichPlansPair) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  GemmProblem<Pingpong> p({128, 4096, 2048}, 960);  // 64 tiles of 32 K tiles: automatic split 2
  auto args = p.arguments();
  args.split_k = 0;
  const Sm90WorkPlan automatic = Pingpong::work_plan(args);
  EXPECT_TRUE(automatic.pairs);
  EXPECT_EQ(automatic.kind, Sm90WorkKind::tiles) << "split 2 in pairs: whole units per pair";
  EXPECT_EQ(Pingpong::workspace_size(args), 0u) << "pairs alone need no workspace";
  const Pingpong::Params params = Pingpong::to_params(args, nullptr);
  EXPECT_EQ(Pingpong::cluster(params).x, 2u);
  EXPECT_EQ(Pingpong::grid(params).x, 2u * 64u);
  ASSERT_TRUE(bool(p.run(args)));
  p.check([](int, int, int, double ref) { return ref; }, "automatic, in pairs");

  args.split_k_mode = SplitKMode::serial;
  const Sm90WorkPlan serial = Pingpong::work_plan(args);
  EXPECT_FALSE(serial.pairs);
  EXPECT_EQ(serial.splits, 2);
  EXPECT_GT(Pingpong::workspace_size(args), 0u);
  EXPECT_EQ(Pingpong::cluster(Pingpong::to_params(args, nullptr)).x, 1u);
  p.poison();
  ASSERT_TRUE(bool(p.run(args)));
  p.check([](int, int, int, double ref) { return ref; }, "serial, through the workspace");

  args.split_k_mode = SplitKMode::automatic;
  args.split_k = 3;
  EXPECT_FALSE(Pingpong::work_plan(args).pairs) << "an odd split";
  args.split_k = 4;  // 64 tiles × 2 pair units > one wave of pairs
  EXPECT_FALSE(Pingpong::work_plan(args).pairs) << "more pair units than pairs";
  p.poison();
  ASSERT_TRUE(bool(p.run(args)));
  p.check([](int, int, int, double ref) { return ref; }, "split 4, through the workspace");
}

// Three runs on one initialization of pairs under a workspace split: the tile counters reset
// themselves and each pair's barrier is armed anew by each launch.
TEST(Sm90GemmPairs, RerunWithoutInitializing) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  Gemm<Pingpong>::Arguments probe;
  probe.m = 64, probe.n = 1000, probe.k = 4096, probe.split_k = 4;  // 8 tiles: 16 pair units of two halves
  ASSERT_TRUE(Pingpong::work_plan(probe).pairs);
  rerun_without_initializing<Pingpong>(970, [](Gemm<Pingpong>::Arguments& a) { a.split_k = 4; });
}

}  // namespace
