// Host tests of the tile scheduler's arithmetic and of WorkPlan (no GPU needed; g++ alone).
// Sm80AutoGemm's tile-class rule is tested in auto_gemm_dispatch_test.cu, which has its kernels.
#include <gtest/gtest.h>

#include <kernel/tile_scheduler.hpp>
#include <kernel/work_plan.hpp>

#include <limits>
#include <set>
#include <tuple>
#include <vector>

using strata::GroupedTileScheduler;
using strata::RasterOrder;
using strata::StreamKPartition;

namespace {
constexpr RasterOrder kOrders[] = {RasterOrder::along_n, RasterOrder::along_m, RasterOrder::snake_along_n,
                                   RasterOrder::snake_along_m};

// Every tile is visited exactly once, for every order and many group widths and grid shapes.
TEST(GroupedTileScheduler, VisitsEveryTileOnce) {
  for (RasterOrder order : kOrders) {
    for (int tm : {1, 2, 3, 7, 16, 33}) {
      for (int tn : {1, 4, 5, 9, 32}) {
        for (int group : {1, 2, 3, 8, 64}) {
          auto s = GroupedTileScheduler::make(tm * 128, tn * 128, 128, 128, 1, 1, group, order);
          ASSERT_EQ(s.tiles_m, tm);
          ASSERT_EQ(s.tiles_n, tn);
          std::vector<int> seen(tm * tn, 0);
          for (long long i = 0; i < s.tiles_per_batch(); ++i) {
            auto t = s.tile(i);
            ASSERT_GE(t.m, 0); ASSERT_LT(t.m, tm);
            ASSERT_GE(t.n, 0); ASSERT_LT(t.n, tn);
            ++seen[t.m * tn + t.n];
          }
          for (int v : seen) ASSERT_EQ(v, 1);
        }
      }
    }
  }
}

// Along N, consecutive CTAs stay inside one group of `group` tile rows until it is exhausted.
TEST(GroupedTileScheduler, GroupsTileRowsAlongN) {
  auto s = GroupedTileScheduler::make(1000, 1000, 128, 128, 1, 1, 4, RasterOrder::along_n);
  EXPECT_EQ(s.tiles_m, 8);
  EXPECT_EQ(s.tiles_n, 8);
  for (long long i = 0; i < 32; ++i) EXPECT_LT(s.tile(i).m, 4) << i;
  for (long long i = 32; i < 64; ++i) EXPECT_GE(s.tile(i).m, 4) << i;
  EXPECT_EQ(s.tile(0).n, 0);
  EXPECT_EQ(s.tile(1).m, 1);  // rows of a group first, then the next column
  EXPECT_EQ(s.tile(4).n, 1);
}

TEST(GroupedTileScheduler, EdgesRoundUpAndCarryBatchAndSplit) {
  auto s = GroupedTileScheduler::make(129, 7, 128, 64, 3, 2);
  EXPECT_EQ(s.tiles_m, 2);
  EXPECT_EQ(s.tiles_n, 1);
  auto t = s.tile(1, 2, 1);
  EXPECT_EQ(t.batch, 2);
  EXPECT_EQ(t.split, 1);
}

// The snake orders: the same groups as the plain ones (a tile's group is unchanged), each tile a
// neighbour of the one before inside a group, and a group's first tile in the column (along N;
// row along M) the group before ended in.
TEST(GroupedTileScheduler, SnakeOrdersArePathsThroughTheGroups) {
  for (bool along_n : {true, false}) {
    for (int tm : {1, 2, 5, 16}) {
      for (int tn : {1, 3, 8, 9}) {
        for (int group : {1, 2, 3, 8}) {
          const auto plain = GroupedTileScheduler::make(tm * 64, tn * 64, 64, 64, 1, 1, group,
                                                        along_n ? RasterOrder::along_n : RasterOrder::along_m);
          auto snake = plain;
          snake.order = along_n ? RasterOrder::snake_along_n : RasterOrder::snake_along_m;
          const int major = along_n ? tm : tn, width = group < major ? group : major;
          const int per_group = width * (along_n ? tn : tm);
          for (long long i = 0; i < plain.tiles_per_batch(); ++i) {
            const auto t = snake.tile(i), p = plain.tile(i);
            const int group_of_t = (along_n ? t.m : t.n) / width, group_of_p = (along_n ? p.m : p.n) / width;
            ASSERT_EQ(group_of_t, group_of_p) << "tile " << i;
            if (i == 0) {
              EXPECT_EQ(t.m, 0);
              EXPECT_EQ(t.n, 0);
              continue;
            }
            const auto before = snake.tile(i - 1);
            const int dm = t.m > before.m ? t.m - before.m : before.m - t.m;
            const int dn = t.n > before.n ? t.n - before.n : before.n - t.n;
            if (i % per_group != 0) {
              EXPECT_EQ(dm + dn, 1) << "tile " << i << " is not next to tile " << i - 1;
            } else {
              EXPECT_EQ(along_n ? dn : dm, 0) << "group starting at tile " << i << " changed column";
            }
          }
        }
      }
    }
  }
}

TEST(GroupedTileScheduler, OrderNames) {
  EXPECT_STREQ(strata::raster_order_name(RasterOrder::along_n), "along_n");
  EXPECT_STREQ(strata::raster_order_name(RasterOrder::along_m), "along_m");
  EXPECT_STREQ(strata::raster_order_name(RasterOrder::snake_along_n), "snake_along_n");
  EXPECT_STREQ(strata::raster_order_name(RasterOrder::snake_along_m), "snake_along_m");
}

// Global tile indices run batch after batch and reach every (batch, tile) exactly once.
TEST(GroupedTileScheduler, GlobalTilesCoverEveryBatch) {
  for (RasterOrder order : kOrders) {
    auto s = GroupedTileScheduler::make(1000, 700, 128, 64, 3, 1, 4, order);
    const int per_batch = static_cast<int>(s.tiles_per_batch());
    std::set<std::tuple<int, int, int>> seen;
    for (int g = 0; g < per_batch * 3; ++g) {
      const auto t = s.global_tile(g);
      EXPECT_EQ(t.batch, g / per_batch);
      const auto same = s.tile(g % per_batch, t.batch);
      EXPECT_EQ(t.m, same.m);
      EXPECT_EQ(t.n, same.n);
      EXPECT_TRUE(seen.insert({t.batch, t.m, t.n}).second) << "global tile " << g;
    }
    EXPECT_EQ(seen.size(), size_t(per_batch) * 3);
  }
}

// Stream-K: whole waves but the last full one stay data parallel; the rest go to one wave of CTAs.
TEST(StreamKPartition, SplitsWavesFromTheRest) {
  // 8192^3 on 256 x 128 tiles: 2048 tiles, 132 per wave: 14 waves data parallel, 200 tiles shared.
  auto s = StreamKPartition::make(2048, 128, 132);
  EXPECT_EQ(s.first_tile, 14 * 132);
  EXPECT_EQ(s.tiles, 200);
  EXPECT_EQ(s.ctas, 132);
  // Fewer tiles than a wave: all of them shared.
  s = StreamKPartition::make(56, 64, 264);
  EXPECT_EQ(s.first_tile, 0);
  EXPECT_EQ(s.tiles, 56);
  EXPECT_EQ(s.ctas, 264);
  // Fewer iterations than a wave: one per CTA.
  s = StreamKPartition::make(3, 2, 132);
  EXPECT_EQ(s.ctas, 6);
  // A whole number of waves, or nothing to iterate over: all data parallel, no Stream-K CTAs.
  for (auto [tiles, k_tiles, wave] : {std::tuple{264LL, 10, 132}, std::tuple{100LL, 0, 132}, std::tuple{0LL, 8, 132}}) {
    s = StreamKPartition::make(tiles, k_tiles, wave);
    EXPECT_EQ(s.first_tile, tiles);
    EXPECT_EQ(s.ctas, 0);
  }
}

// Every iteration of every Stream-K tile belongs to exactly one CTA, the ranges are as even as
// integers allow, cta_of inverts begin, each tile's sharers are exactly the CTAs whose ranges
// meet it, and no two partial tiles of a tile's sharers land in one slot.
TEST(StreamKPartition, RangesCoverEveryIterationOnce) {
  for (long long tiles : {1LL, 2LL, 5LL, 68LL, 200LL, 333LL}) {
    for (int k_tiles : {1, 2, 3, 7, 64, 129}) {
      for (int wave : {1, 4, 132, 264}) {
        auto s = StreamKPartition::make(tiles + wave, k_tiles, wave);  // one full wave data parallel
        if (s.ctas == 0) continue;
        ASSERT_EQ(s.first_tile + s.tiles, tiles + wave);
        const long long q = s.iterations();
        ASSERT_EQ(s.begin(0), 0);
        ASSERT_EQ(s.begin(s.ctas), q);
        const long long lo = q / s.ctas;
        std::vector<int> owner(size_t(q), -1);
        for (int j = 0; j < s.ctas; ++j) {
          const long long b = s.begin(j), e = s.begin(j + 1);
          ASSERT_TRUE(e - b == lo || e - b == lo + 1) << "uneven range " << b << ".." << e;
          for (long long it = b; it < e; ++it) {
            ASSERT_EQ(owner[size_t(it)], -1);
            owner[size_t(it)] = j;
            ASSERT_EQ(s.cta_of(it), j) << "iteration " << it;
          }
        }
        for (long long t = 0; t < s.tiles; ++t) {
          std::set<long long> slots;
          ASSERT_EQ(s.first_cta(t), owner[size_t(t * k_tiles)]);
          ASSERT_EQ(s.last_cta(t), owner[size_t((t + 1) * k_tiles - 1)]);
          for (int j = s.first_cta(t); j <= s.last_cta(t); ++j) {
            ASSERT_TRUE(slots.insert(s.slot(j, t)).second) << "tile " << t << " CTA " << j;
            ASSERT_GE(s.slot(j, t), 2LL * j);
            ASSERT_LE(s.slot(j, t), 2LL * j + 1);
          }
        }
        // A CTA's two slots serve different tiles: its first partial tile and its last.
        for (int j = 0; j < s.ctas; ++j) {
          const long long t0 = s.begin(j) / k_tiles, t1 = (s.begin(j + 1) - 1) / k_tiles;
          if (t0 != t1) {
            EXPECT_NE(s.slot(j, t0), s.slot(j, t1));
          }
        }
      }
    }
  }
}

// WorkPlan, the split and workspace of any kernel's problem, against a GPU of fixed answers.
struct FixedGpu {
  int sm = 132, w = 132, split_w = 264;
  int sms() const { return sm; }
  int wave() const { return w; }
  int split_k_wave() const { return split_w; }
};
using Args = strata::GemmArguments<float, float, float, float, int>;
constexpr strata::PlanTile kTile{128, 256, 64, 128 * 256 * 4, 4};

Args problem(int m, int n, int k, int split_k = 1, strata::SplitKMode mode = strata::SplitKMode::automatic,
             strata::Schedule schedule = strata::Schedule::tiles, int batches = 1) {
  Args a;
  a.m = m, a.n = n, a.k = k, a.split_k = split_k, a.split_k_mode = mode, a.schedule = schedule, a.batch_count = batches;
  return a;
}

// An explicit split count: serial for two (automatic), parallel above, as asked; workspaces of
// one counter per tile plus a partial tile per split, or an m × n slice per split.
TEST(WorkPlan, ExplicitSplitsAndTheirWorkspace) {
  using strata::SplitKMode;
  using strata::WorkPlan;
  const FixedGpu gpu;
  const Args two = problem(300, 600, 4096, 2);  // 3 × 3 tiles
  WorkPlan p = WorkPlan::make(two, kTile, gpu);
  EXPECT_EQ(p.splits, 2);
  EXPECT_TRUE(p.serial);
  EXPECT_EQ(p.counters_bytes, 48u) << "9 counters of 4 bytes, rounded up to 16";
  EXPECT_EQ(p.slots_bytes, 9u * 2 * kTile.slot_bytes);
  EXPECT_EQ(p.partials_bytes, 0u);
  p = WorkPlan::make(problem(300, 600, 4096, 4), kTile, gpu);
  EXPECT_FALSE(p.serial) << "automatic adds more than two splits in parallel";
  EXPECT_EQ(p.partials_bytes, 4u * 300 * 600 * 4) << "n = 600 is already a multiple of 8";
  EXPECT_EQ(p.counters_bytes + p.slots_bytes, 0u);
  p = WorkPlan::make(problem(300, 601, 4096, 4, SplitKMode::parallel, strata::Schedule::tiles, 3), kTile, gpu);
  EXPECT_EQ(p.partials_bytes, 4u * 3 * 300 * 608 * 4) << "rows of the partial outputs padded to 8 elements";
  p = WorkPlan::make(problem(300, 600, 4096, 4, SplitKMode::serial), kTile, gpu);
  EXPECT_TRUE(p.serial);
  EXPECT_EQ(p.workspace_bytes(), 48u + 9u * 4 * kTile.slot_bytes);
  // Never more splits than K tiles; one split needs no workspace.
  EXPECT_EQ(WorkPlan::make(problem(300, 600, 100, 16), kTile, gpu).splits, 2);
  EXPECT_EQ(WorkPlan::make(problem(300, 600, 4096, 1), kTile, gpu).workspace_bytes(), 0u);
}

// split_k = 0 doubles while the grid stays within two CTAs per SM, each split keeps 8 K tiles and
// the run gets shorter; a full wave of tiles stays whole.
TEST(WorkPlan, AutomaticSplitsFillTheGpu) {
  using strata::WorkPlan;
  const FixedGpu gpu{.split_w = 132};  // one CTA of the split-K entry per SM
  // 1 tile, 8192 deep (128 K tiles): doubling to 16 keeps 8 K tiles per split.
  EXPECT_EQ(WorkPlan::make(problem(128, 256, 8192, 0), kTile, gpu).splits, 16);
  // 132 tiles: one full wave already, no split.
  EXPECT_EQ(WorkPlan::make(problem(128 * 12, 256 * 11, 8192, 0), kTile, gpu).splits, 1);
  // Short K: 8 K tiles cannot split and keep 8 each.
  EXPECT_EQ(WorkPlan::make(problem(128, 256, 512, 0), kTile, gpu).splits, 1);
}

// Stream-K when asked, or automatically from kStreamKMinWaves waves of unsplit tiles; its
// workspace is a counter per shared tile and two partial tiles per Stream-K CTA.
TEST(WorkPlan, StreamKByScheduleAndWaves) {
  using strata::Schedule;
  using strata::WorkPlan;
  const FixedGpu gpu;
  WorkPlan p = WorkPlan::make(problem(1000, 1000, 1000, 1, strata::SplitKMode::automatic, Schedule::stream_k), kTile, gpu);
  EXPECT_TRUE(p.runs_stream_k);
  EXPECT_EQ(p.splits, 1);
  EXPECT_EQ(p.stream_k.first_tile, 0) << "32 tiles, less than a wave: all of them Stream-K";
  EXPECT_EQ(p.stream_k.tiles, 32);
  EXPECT_EQ(p.stream_k.ctas, 132);
  EXPECT_EQ(p.slots_bytes, 2u * 132 * kTile.slot_bytes);
  EXPECT_EQ(p.counters_bytes, 128u);
  // Automatic: 8 waves of tiles (8 × 132 = 1056 tiles of 128 × 256) and more run Stream-K.
  const int n = 256 * 33;  // 33 tile columns
  EXPECT_FALSE(WorkPlan::make(problem(128 * 31, n, 4096, 1, strata::SplitKMode::automatic, Schedule::automatic), kTile, gpu)
                   .runs_stream_k) << "1023 tiles";
  p = WorkPlan::make(problem(128 * 33, n, 4096, 1, strata::SplitKMode::automatic, Schedule::automatic), kTile, gpu);
  EXPECT_TRUE(p.runs_stream_k) << "1089 tiles";
  EXPECT_EQ(p.stream_k.first_tile, 7 * 132) << "whole waves but the last full one stay data parallel";
  EXPECT_EQ(p.stream_k.tiles, 1089 - 7 * 132);
  // An explicit split count keeps the tile grid.
  EXPECT_FALSE(WorkPlan::make(problem(128 * 33, n, 4096, 2, strata::SplitKMode::automatic, Schedule::automatic), kTile, gpu)
                   .runs_stream_k);
}

}  // namespace
