// Host tests of the persistent Hopper kernel's work lists (kernel/sm90_work.hpp): over many
// problem and grid sizes, for tiles, split-K and Stream-K, the units of all CTAs cover every
// (tile, K tile) exactly once; each unit knows how many units its tile has and where all of them
// leave their partial sums; slots are distinct and inside the workspace. K pairs: which split
// plans become pairs, and the halves of their units.
#include <gtest/gtest.h>

#include <kernel/sm90_work.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {
using namespace strata;

void check_plan(Sm90WorkPlan const& plan, int grid, std::string const& what) {
  SCOPED_TRACE(what);
  std::vector<int> covered(size_t(plan.total_tiles) * plan.k_tiles, 0);
  std::map<int, std::vector<Sm90WorkUnit>> by_tile;
  std::set<int> slots;
  for (int cta = 0; cta < grid; ++cta) {
    const int n = plan.unit_count(cta, grid);
    for (int u = 0; u < n; ++u) {
      const Sm90WorkUnit w = plan.unit(cta, grid, u);
      ASSERT_GE(w.tile, 0);
      ASSERT_LT(w.tile, plan.total_tiles);
      ASSERT_LE(0, w.k_begin);
      ASSERT_LE(w.k_begin, w.k_end);
      ASSERT_LE(w.k_end, plan.k_tiles);
      for (int k = w.k_begin; k < w.k_end; ++k) ++covered[size_t(w.tile) * plan.k_tiles + k];
      by_tile[w.tile].push_back(w);
      if (w.segments > 1) {
        ASSERT_TRUE(slots.insert(w.slot).second) << "slot " << w.slot << " used twice";
        ASSERT_LT(w.slot, plan.slots());
      }
    }
  }
  for (size_t i = 0; i < covered.size(); ++i)
    ASSERT_EQ(covered[i], 1) << "tile " << i / plan.k_tiles << ", K tile " << i % plan.k_tiles;
  for (auto const& [tile, units] : by_tile) {
    std::set<int> own;
    int expected_last = 0;
    for (auto const& w : units) {
      ASSERT_EQ(w.segments, int(units.size())) << "tile " << tile;
      if (w.segments > 1) own.insert(w.slot);
      expected_last += plan.expected_last(w);
    }
    const bool split = plan.kind == Sm90WorkKind::split_k && units.size() > 1;
    EXPECT_EQ(expected_last, split ? 1 : 0) << "tile " << tile << ": the units expected to end last";
    if (units.size() > 1) {
      std::set<int> peers;
      for (int i = 0; i < units[0].segments; ++i) peers.insert(plan.peer_slot(units[0], i));
      EXPECT_EQ(peers, own) << "tile " << tile << ": the peer slots are the tile's units' slots";
    }
  }
}

TEST(Sm90WorkPlan, TilesCoverEveryTileOnce) {
  for (int total : {1, 7, 132, 133, 1000})
    for (int grid : {1, 5, 132}) {
      Sm90WorkPlan p;
      p.total_tiles = total, p.k_tiles = 3;
      check_plan(p, grid, "tiles " + std::to_string(total) + " grid " + std::to_string(grid));
    }
}

TEST(Sm90WorkPlan, SplitKCutsEveryTileIntoItsSplits) {
  for (int total : {1, 3, 40})
    for (int k_tiles : {1, 2, 7, 64})
      for (int splits : {2, 3, 16})
        for (int lead : {0, 4, 1000})
          for (int grid : {1, 7, 132}) {
            Sm90WorkPlan p;
            p.kind = Sm90WorkKind::split_k;
            p.total_tiles = total, p.k_tiles = k_tiles, p.splits = splits;
            check_plan(p.with_lead(lead), grid,
                       "split-K " + std::to_string(splits) + ", lead " + std::to_string(lead) + ", " +
                           std::to_string(total) + " tiles of " + std::to_string(k_tiles) + ", grid " +
                           std::to_string(grid));
          }
}

// The last split of a split-K tile is `lead` K tiles longer than the others, which share the rest
// evenly; the lead is at most half of an even share (sm90_split_lead) and only split-K has one.
TEST(Sm90WorkPlan, LastSplitLeadsByAtMostHalfAShare) {
  EXPECT_EQ(sm90_split_lead(64, 2, 4), 4);
  EXPECT_EQ(sm90_split_lead(64, 2, 100), 16) << "half of a share of 32";
  EXPECT_EQ(sm90_split_lead(8, 2, 4), 2);
  EXPECT_EQ(sm90_split_lead(3, 2, 4), 0) << "a share of 1 K tile";
  EXPECT_EQ(sm90_split_lead(64, 1, 4), 0) << "one split";
  EXPECT_EQ(sm90_split_lead(64, 2, -1), 0);
  for (int k_tiles : {8, 9, 64, 224})
    for (int splits : {2, 3, 4}) {
      Sm90WorkPlan p;
      p.kind = Sm90WorkKind::split_k, p.total_tiles = 1, p.k_tiles = k_tiles, p.splits = splits;
      const Sm90WorkPlan q = p.with_lead(kSm90SplitLead);
      const int lead = sm90_split_lead(k_tiles, splits, kSm90SplitLead);
      ASSERT_EQ(q.lead, lead);
      int shortest = k_tiles, longest_other = 0;
      for (int s = 0; s + 1 < splits; ++s) {
        const Sm90WorkUnit w = q.unit(s, splits, 0);
        EXPECT_FALSE(q.expected_last(w));
        shortest = std::min(shortest, w.k_end - w.k_begin);
        longest_other = std::max(longest_other, w.k_end - w.k_begin);
      }
      const Sm90WorkUnit last = q.unit(splits - 1, splits, 0);
      EXPECT_TRUE(q.expected_last(last));
      EXPECT_LE(longest_other - shortest, 1) << k_tiles << " K tiles in " << splits << ": the others share evenly";
      EXPECT_GE(last.k_end - last.k_begin, shortest + lead);
      EXPECT_LE(last.k_end - last.k_begin, longest_other + lead + 1);
      EXPECT_GE(2 * shortest, k_tiles / splits) << "every split keeps half a share";
    }
  Sm90WorkPlan tiles;
  tiles.total_tiles = 4, tiles.k_tiles = 64;
  EXPECT_EQ(tiles.with_lead(4).lead, 0) << "whole tiles have no splits to lead";
  EXPECT_EQ(Sm90WorkPlan::make(64, 64, 4096, 2, 132, Schedule::automatic, 0, false).lead, kSm90SplitLead);
  EXPECT_EQ(Sm90WorkPlan::make(64, 64, 4096, 2, 132, Schedule::automatic, 0, false, 0).lead, 0);
  // The plan's own lead: kSm90SplitLead at two splits only; an asked lead holds at any count.
  EXPECT_EQ(sm90_plan_lead(2), kSm90SplitLead);
  for (int splits : {1, 3, 4, 8}) EXPECT_EQ(sm90_plan_lead(splits), 0) << splits << " splits";
  const Sm90WorkPlan four = Sm90WorkPlan::make(8, 128, 8192, 2, 132, Schedule::tiles, 4, false);
  EXPECT_EQ(four.splits, 4);
  EXPECT_EQ(four.lead, 0) << "4 splits take no lead by default";
  EXPECT_EQ(Sm90WorkPlan::make(8, 128, 8192, 2, 132, Schedule::tiles, 4, false, kSm90SplitLead).lead, kSm90SplitLead);
  EXPECT_EQ(Sm90WorkPlan::make(8, 128, 8192, 2, 132, Schedule::tiles, 2, false).lead, kSm90SplitLead);
}

TEST(Sm90WorkPlan, StreamKSharesTheLastWavesIterations) {
  for (int total : {1, 5, 131, 132, 133, 300, 1000})
    for (int k_tiles : {1, 3, 64, 100})
      for (int grid : {1, 8, 132}) {
        Sm90WorkPlan p;
        p.kind = Sm90WorkKind::stream_k;
        p.total_tiles = total, p.k_tiles = k_tiles;
        p.stream_k = StreamKPartition::make(total, k_tiles, grid);
        check_plan(p, grid, "stream-K " + std::to_string(total) + " tiles of " + std::to_string(k_tiles) +
                                ", grid " + std::to_string(grid));
      }
}

TEST(Sm90WorkPlan, FewTilesAllGoToStreamKWhenAsked) {
  Sm90WorkPlan p;
  p.kind = Sm90WorkKind::stream_k;
  p.total_tiles = 4, p.k_tiles = 64;
  p.stream_k = StreamKPartition::make(4, 64, 132);
  EXPECT_EQ(p.stream_k.first_tile, 0);
  EXPECT_EQ(p.stream_k.ctas, 132);
  int units = 0;
  for (int c = 0; c < 132; ++c) units += p.unit_count(c, 132);
  EXPECT_GE(units, 132) << "every CTA gets work";
}

// The automatic schedule's split: the decode shapes of the H200 (132 CTAs of the 64 × 128 tile) get
// the splits measured best, and in general the most splits within one wave and the K depth.
TEST(Sm90WorkPlan, AutomaticSplitsFillOneWave) {
  EXPECT_EQ(sm90_automatic_splits(32, 64, 132), 4) << "m 1, n 4096, k 4096";
  EXPECT_EQ(sm90_automatic_splits(64, 128, 132), 2) << "m 1, n 8192, k 8192";
  EXPECT_EQ(sm90_automatic_splits(112, 64, 132), 1) << "m 1, n 14336, k 4096: the tiles nearly fill the GPU";
  EXPECT_EQ(sm90_automatic_splits(224, 64, 132), 1) << "more tiles than CTAs";
  EXPECT_EQ(sm90_automatic_splits(32, 8, 132), 2) << "every split keeps 4 K tiles";
  EXPECT_EQ(sm90_automatic_splits(32, 7, 132), 1);
  EXPECT_EQ(sm90_automatic_splits(0, 64, 132), 1);
  for (int tiles = 1; tiles <= 300; tiles += 7)
    for (int k_tiles : {1, 4, 9, 64, 225})
      for (int ctas : {1, 66, 132, 264}) {
        const int s = sm90_automatic_splits(tiles, k_tiles, ctas);
        SCOPED_TRACE(std::to_string(tiles) + " tiles of " + std::to_string(k_tiles) + ", " + std::to_string(ctas) +
                     " CTAs: " + std::to_string(s) + " splits");
        ASSERT_GE(s, 1);
        const auto fits = [&](int splits) {
          return tiles * splits <= ctas && k_tiles / splits >= kSm90MinKTilesPerSplit;
        };
        if (s > 1) {
          EXPECT_TRUE(fits(s));
        }
        EXPECT_FALSE(fits(s + 1)) << "one more split would still fit";
        Sm90WorkPlan p;
        p.kind = s > 1 ? Sm90WorkKind::split_k : Sm90WorkKind::tiles;
        p.total_tiles = tiles, p.k_tiles = k_tiles, p.splits = s;
        check_plan(p, ctas, "automatic");
      }
}

// The automatic schedule's Stream-K (H200: 132 CTAs): the shapes measured on the H200, 16-bit
// operands; where whole tiles leave most of the last wave idle over a long K, and nowhere else.
TEST(Sm90WorkPlan, AutomaticStreamKOnlyWhereTheLastWaveIsMostlyIdle) {
  auto tiles = [](long long m, long long n, int bm, int bn) { return (m + bm - 1) / bm * ((n + bn - 1) / bn); };
  EXPECT_TRUE(sm90_automatic_stream_k(tiles(8192, 8192, 128, 256), 8192, 132, 2)) << "8192^3: 68 of 132 in the last wave";
  EXPECT_TRUE(sm90_automatic_stream_k(tiles(16384, 8192, 128, 256), 8192, 132, 2)) << "16384 x 8192^2: 4 of 132";
  EXPECT_TRUE(sm90_automatic_stream_k(tiles(8192, 8192, 128, 128), 8192, 132, 2)) << "ping-pong 128 x 128, 8192^3";
  EXPECT_FALSE(sm90_automatic_stream_k(tiles(4096, 8192, 128, 256), 8192, 132, 2)) << "7.8 waves, last 3/4 full";
  EXPECT_FALSE(sm90_automatic_stream_k(tiles(4096, 4096, 128, 256), 14336, 132, 2)) << "3.9 waves";
  EXPECT_FALSE(sm90_automatic_stream_k(tiles(16384, 14336, 128, 256), 4096, 132, 2)) << "K 4096";
  EXPECT_FALSE(sm90_automatic_stream_k(tiles(8192, 8192, 128, 256), 8192, 132, 4)) << "tf32 lost";
  EXPECT_FALSE(sm90_automatic_stream_k(132 * 16, 8192, 132, 2)) << "whole waves need no Stream-K";
  EXPECT_FALSE(sm90_automatic_stream_k(132 * 16 + 73, 8192, 132, 2)) << "73 of 132: the last wave over 55 % full";
  EXPECT_TRUE(sm90_automatic_stream_k(132 * 16 + 72, 8192, 132, 2));
  EXPECT_FALSE(sm90_automatic_stream_k(132 * 7 + 1, 8192, 132, 2)) << "fewer than 8 waves";
  EXPECT_FALSE(sm90_automatic_stream_k(132 * 8 + 1, 8191, 132, 2)) << "K below 8192";
  EXPECT_FALSE(sm90_automatic_stream_k(1000, 8192, 0, 2));
  // Where it says yes, Stream-K's partition exists and covers every tile once.
  for (long long t : {132LL * 8 + 1, 132LL * 16 + 68, 132LL * 31 + 4}) {
    ASSERT_TRUE(sm90_automatic_stream_k(t, 8192, 132, 2));
    Sm90WorkPlan p;
    p.kind = Sm90WorkKind::stream_k;
    p.total_tiles = int(t), p.k_tiles = 128;
    p.stream_k = StreamKPartition::make(t, p.k_tiles, 132);
    ASSERT_GT(p.stream_k.ctas, 0);
    check_plan(p, 132, "automatic Stream-K");
  }
}

}  // namespace

// K pairs (Sm90WorkPlan::paired): an even split whose halved units fit one wave of pairs becomes a
// plan of half the splits in pairs; each pair unit's two K halves (k_range of ranks 0 and 1) cover
// its K tiles exactly once, and every cluster has at most one unit. Anything else is unchanged.
TEST(Sm90WorkPlan, PairsHalveEvenSplitsThatFitOneWaveOfPairs) {
  for (int tiles : {1, 3, 16, 33, 64, 65})
    for (int k_tiles : {1, 2, 7, 64})
      for (int splits : {2, 3, 4, 8})
        for (int pairs : {1, 32, 66}) {
          Sm90WorkPlan p;
          p.kind = Sm90WorkKind::split_k;
          p.total_tiles = tiles, p.k_tiles = k_tiles, p.splits = splits;
          p = p.with_lead(kSm90SplitLead);
          const Sm90WorkPlan q = p.paired(pairs);
          const std::string what = std::to_string(tiles) + " tiles of " + std::to_string(k_tiles) + ", split " +
                                   std::to_string(splits) + ", " + std::to_string(pairs) + " pairs";
          SCOPED_TRACE(what);
          const bool expected = splits % 2 == 0 && tiles * (splits / 2) <= pairs;
          ASSERT_EQ(q.pairs, expected);
          EXPECT_EQ(q.ctas_per_cluster(1), expected ? 2 : 1);
          if (!expected) {
            EXPECT_EQ(q.kind, p.kind);
            EXPECT_EQ(q.splits, p.splits);
            EXPECT_EQ(q.lead, p.lead) << "a plan not paired keeps its lead";
            continue;
          }
          EXPECT_EQ(q.splits, splits / 2);
          EXPECT_EQ(q.lead, 0) << "pairs split evenly";
          EXPECT_EQ(q.kind, splits == 2 ? Sm90WorkKind::tiles : Sm90WorkKind::split_k);
          // Every K tile of every tile exactly once over both ranks of every cluster.
          std::vector<int> covered(size_t(tiles) * k_tiles, 0);
          for (int c = 0; c < pairs; ++c) {
            const int n = q.unit_count(c, pairs);
            ASSERT_LE(n, 1) << "cluster " << c;
            for (int u = 0; u < n; ++u) {
              const Sm90WorkUnit w = q.unit(c, pairs, u);
              const Sm90KRange first = q.k_range(w, 0), second = q.k_range(w, 1);
              EXPECT_EQ(first.begin, w.k_begin);
              EXPECT_EQ(first.end, second.begin);
              EXPECT_EQ(second.end, w.k_end);
              EXPECT_LE(first.end - first.begin, second.end - second.begin) << "rank 0 takes the shorter half";
              for (int k = w.k_begin; k < w.k_end; ++k) ++covered[size_t(w.tile) * k_tiles + k];
            }
          }
          for (size_t i = 0; i < covered.size(); ++i) ASSERT_EQ(covered[i], 1) << "tile " << i / k_tiles;
        }
  Sm90WorkPlan tiles;
  tiles.total_tiles = 4, tiles.k_tiles = 64;
  EXPECT_FALSE(tiles.paired(66).pairs) << "whole tiles stay whole";
  Sm90WorkPlan sk;
  sk.kind = Sm90WorkKind::stream_k, sk.total_tiles = 4, sk.k_tiles = 64;
  EXPECT_FALSE(sk.paired(66).pairs) << "Stream-K has no pairs";
  const Sm90WorkUnit w{.tile = 0, .k_begin = 3, .k_end = 10};
  const Sm90KRange all = tiles.k_range(w, 1);
  EXPECT_EQ(all.begin, 3);
  EXPECT_EQ(all.end, 10) << "without pairs a CTA computes its whole unit";
}

// The plans in words, as Sm90AutoGemm::name() and the benches print them.
TEST(Sm90WorkPlan, NamesSayHowTheWorkIsShared) {
  Sm90WorkPlan p = Sm90WorkPlan::make(64, 64, 4096, 2, 132, Schedule::tiles, 1, false);
  EXPECT_EQ(sm90_work_plan_name(p), "whole tiles");
  p = Sm90WorkPlan::make(64, 64, 4096, 2, 132, Schedule::automatic, 0, false);
  ASSERT_EQ(p.splits, 2);
  EXPECT_EQ(sm90_work_plan_name(p), "split-K 2");
  EXPECT_EQ(sm90_work_plan_name(p.paired(66)), "K pairs");
  p = Sm90WorkPlan::make(16, 64, 4096, 2, 132, Schedule::tiles, 4, false);
  EXPECT_EQ(sm90_work_plan_name(p.paired(66)), "K pairs under split-K 2");
  EXPECT_EQ(sm90_work_plan_name(Sm90WorkPlan::make(64, 64, 4096, 2, 132, Schedule::stream_k, 1, false)), "Stream-K");
}
