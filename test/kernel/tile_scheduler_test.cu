// Host tests of the tile scheduler's arithmetic (no GPU needed).
#include <gtest/gtest.h>

#include <kernel/tile_scheduler.hpp>

#include <vector>

using strata::GroupedTileScheduler;
using strata::RasterOrder;

namespace {
// Every tile is visited exactly once, for both orders and many group widths and grid shapes.
TEST(GroupedTileScheduler, VisitsEveryTileOnce) {
  for (RasterOrder order : {RasterOrder::along_n, RasterOrder::along_m}) {
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
}  // namespace
