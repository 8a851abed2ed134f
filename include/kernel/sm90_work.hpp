// Strata floor 4: how a persistent Hopper GEMM shares its work out, as a list of work units per
// CTA. A unit is one output tile over a range of its K tiles; a tile cut into several units
// (segments) is finished by whichever of them ends last: it adds the others' partial sums, which
// they left in the workspace, and runs the epilogue. So no CTA ever waits for another.
//
//   tiles:    every tile one unit; CTA c takes tiles c, c + grid, ...
//   split_k:  every tile `splits` units of near-equal K ranges but the last, `lead` K tiles longer;
//             CTA c takes units c, c + grid, ...
//   stream_k: whole waves of tiles one unit each (as tiles), then the K iterations of the rest cut
//             into one contiguous range per CTA (StreamKPartition): a CTA's range is a tail of a
//             tile, whole tiles, and a head of a tile, each one unit
//
// Everything is 32-bit arithmetic on values the host checked; host-tested in
// test/kernel/sm90_work_test.cpp.
#pragma once

#include <string>

#include "../layout/config.hpp"
#include "gemm_arguments.hpp"
#include "tile_scheduler.hpp"

namespace strata {

enum class Sm90WorkKind { tiles, split_k, stream_k };

// The K splits the automatic schedule (split_k = 0 or Schedule::automatic) gives a problem of
// `tiles` output tiles of `k_tiles` K tiles each on `ctas` resident CTAs: the most splits s that
// keep tiles × s within one wave and every split at least kSm90MinKTilesPerSplit K tiles long; 1
// (whole tiles) when that is 1: one wave with no partial tiles in a last one, which beat Stream-K on
// few-tile problems (bench/RESULTS.md).
inline constexpr int kSm90MinKTilesPerSplit = 4;
STRATA_HOST_DEVICE constexpr int sm90_automatic_splits(int tiles, int k_tiles, int ctas) {
  if (tiles <= 0 || ctas <= tiles) return 1;
  const int by_wave = ctas / tiles, by_depth = k_tiles / kSm90MinKTilesPerSplit;
  const int s = by_wave < by_depth ? by_wave : by_depth;
  return s > 1 ? s : 1;
}

// Whether the automatic schedule runs Stream-K on a problem it does not split over K: `tiles`
// whole output tiles over `ctas` resident CTAs, a K of `k` elements of `element_bytes` each.
// Stream-K cuts its tiles at K offsets spread over all of K, so its CTAs miss L2 where whole tiles
// walk one K slab together: it pays only where whole tiles would leave most of their last wave
// idle over a long K, and only for 16-bit operands (bench/RESULTS.md has the measurements).
inline constexpr int kSm90StreamKMinWaves = 8;
inline constexpr int kSm90StreamKMinK = 8192;
STRATA_HOST_DEVICE constexpr bool sm90_automatic_stream_k(long long tiles, int k, int ctas, int element_bytes) {
  if (element_bytes != 2 || ctas <= 0 || k < kSm90StreamKMinK) return false;
  if (tiles < static_cast<long long>(kSm90StreamKMinWaves) * ctas) return false;
  const long long last_wave = tiles % ctas;  // tiles of the partial last wave (0: whole waves only)
  return last_wave > 0 && 100 * last_wave <= 55LL * ctas;
}

// K tiles by which the last split of a split-K tile is longer than the others (Sm90WorkPlan::lead):
// that split then ends last, after the others have left their partial sums, and adds them without
// leaving its own (Sm90PartialSums::finish). At most half of an even share, so every split keeps
// at least half of k_tiles / splits; 0 for a single split.
inline constexpr int kSm90SplitLead = 6;
STRATA_HOST_DEVICE constexpr int sm90_split_lead(int k_tiles, int splits, int asked) {
  if (splits <= 1 || asked <= 0) return 0;
  const int most = k_tiles / splits / 2;
  return asked < most ? asked : most;
}

// The lead a plan takes when none is asked (kSm90PlanLead): kSm90SplitLead at two splits, none at
// more, where the finishing split's longer K range cost more than its skipped store saved (H200).
inline constexpr int kSm90PlanLead = -1;
STRATA_HOST_DEVICE constexpr int sm90_plan_lead(int splits) { return splits == 2 ? kSm90SplitLead : 0; }

namespace detail {
// Study knob (bench/tools/sm90_trace.cu varies it): the lead the Hopper kernel's split-K plans ask for.
inline int study_split_lead = kSm90PlanLead;
}  // namespace detail

struct Sm90WorkUnit {
  int tile = 0;            // global tile index (over batches; the scheduler maps it to coordinates)
  int k_begin = 0;         // K tiles [k_begin, k_end) of it
  int k_end = 0;
  int segments = 1;        // units the tile is cut into (1: this unit finishes it alone)
  int slot = 0;            // where this unit leaves its partial sum (segments > 1)
  int first_peer = 0;      // the tile's units' slots: peer_slot(i) for i < segments
};

// K tiles [begin, end) of a unit that one CTA computes.
struct Sm90KRange {
  int begin = 0, end = 0;
};

struct Sm90WorkPlan {
  Sm90WorkKind kind = Sm90WorkKind::tiles;
  int total_tiles = 0;  // over all batches
  int k_tiles = 0;      // K tiles of a whole tile
  int splits = 1;       // split_k
  int lead = 0;         // split_k: K tiles the last split is longer (sm90_split_lead)
  StreamKPartition stream_k{};
  // K pairs (kernel/sm90_pair_sums.hpp): the units are those of clusters of two CTAs, each CTA
  // taking one K half of its cluster's unit (k_range), at most one unit per cluster.
  bool pairs = false;

  // The plan of `tiles` output tiles (cluster tiles, over all batches) of `k_tiles` K tiles each, K
  // being `k` elements of `element_bytes`, over `ctas` resident CTAs (clusters; read only when
  // there is work): split-K or Stream-K when asked; automatically (split_k = 0 or
  // Schedule::automatic) split-K sized to one wave when the tiles are fewer than the CTAs
  // (sm90_automatic_splits), Stream-K where sm90_automatic_stream_k says so and the kernel has no
  // clusters (whose CTAs walk the same K ranges), whole tiles otherwise. A split-K plan's last
  // split is `lead` K tiles longer (with_lead; kSm90PlanLead: sm90_plan_lead's).
  STRATA_HOST_DEVICE static constexpr Sm90WorkPlan make(int tiles, int k_tiles, int k, int element_bytes, int ctas,
                                                        Schedule schedule, int split_k, bool clusters,
                                                        int lead = kSm90PlanLead) {
    Sm90WorkPlan plan;
    plan.total_tiles = tiles, plan.k_tiles = k_tiles;
    if (k_tiles == 0 || tiles == 0) return plan;
    const bool automatic = schedule == Schedule::automatic || split_k == 0;
    if (schedule == Schedule::stream_k ||
        (automatic && split_k <= 1 && !clusters && sm90_automatic_stream_k(tiles, k, ctas, element_bytes))) {
      plan.kind = Sm90WorkKind::stream_k;
      plan.stream_k = StreamKPartition::make(tiles, k_tiles, ctas);
      return plan;
    }
    const int splits = split_k > 1 ? split_k : automatic ? sm90_automatic_splits(tiles, k_tiles, ctas) : 1;
    plan.splits = splits < k_tiles ? splits : k_tiles;
    if (plan.splits > 1) plan.kind = Sm90WorkKind::split_k;
    else plan.splits = 1;
    return plan.with_lead(lead < 0 ? sm90_plan_lead(plan.splits) : lead);
  }

  // This plan with its last split `asked` K tiles longer than the others where sm90_split_lead
  // allows (less where it does not; 0 asks for equal splits).
  STRATA_HOST_DEVICE constexpr Sm90WorkPlan with_lead(int asked) const {
    Sm90WorkPlan plan = *this;
    plan.lead = kind == Sm90WorkKind::split_k ? sm90_split_lead(k_tiles, splits, asked) : 0;
    return plan;
  }

  // Whether unit w is its tile's last split, which by its lead is expected to end after the others.
  STRATA_HOST_DEVICE constexpr bool expected_last(Sm90WorkUnit const& w) const {
    return kind == Sm90WorkKind::split_k && w.segments > 1 && w.k_end == k_tiles;
  }

  // This split-K plan in K pairs, on `pair_clusters` resident clusters of two CTAs: every two
  // splits of a tile become one unit of a pair, whose CTAs compute its two K halves. Only an even
  // number of splits whose units then fit in one wave of pairs (one unit per cluster, so that
  // a pair's hand-over never waits for an earlier unit's); unchanged otherwise. Pairs split evenly
  // (no lead).
  STRATA_HOST_DEVICE constexpr Sm90WorkPlan paired(int pair_clusters) const {
    if (kind != Sm90WorkKind::split_k || splits % 2 != 0) return *this;
    if (static_cast<long long>(total_tiles) * (splits / 2) > pair_clusters) return *this;
    Sm90WorkPlan plan = *this;
    plan.splits = splits / 2;
    plan.kind = plan.splits > 1 ? Sm90WorkKind::split_k : Sm90WorkKind::tiles;
    plan.pairs = true;
    return plan.with_lead(0);  // the decode tiles' small partials: a lead was measured on Small's only
  }

  // The K tiles of unit w that CTA `rank` of its pair computes: the first half (rank 0, the one
  // that adds both and finishes the unit) or the second (rank 1); all of w without pairs.
  STRATA_HOST_DEVICE constexpr Sm90KRange k_range(Sm90WorkUnit const& w, int rank) const {
    if (!pairs) return {w.k_begin, w.k_end};
    const int middle = w.k_begin + (w.k_end - w.k_begin) / 2;
    return rank == 0 ? Sm90KRange{w.k_begin, middle} : Sm90KRange{middle, w.k_end};
  }

  // CTAs per cluster of the launch: the configuration's cluster, twice that with pairs.
  STRATA_HOST_DEVICE constexpr int ctas_per_cluster(int config_cluster_size) const {
    return pairs ? 2 * config_cluster_size : config_cluster_size;
  }

  // Units of CTA `cta` of a grid of `grid` CTAs.
  STRATA_HOST_DEVICE constexpr int unit_count(int cta, int grid) const {
    switch (kind) {
      case Sm90WorkKind::split_k: return strided_count(total_tiles * splits, cta, grid);
      case Sm90WorkKind::stream_k: {
        const int whole = strided_count(stream_k.first_tile, cta, grid);
        if (cta >= stream_k.ctas) return whole;
        const int begin = stream_k.begin(cta), end = stream_k.begin(cta + 1);
        return whole + (end > begin ? (end - 1) / k_tiles - begin / k_tiles + 1 : 0);
      }
      default: return strided_count(total_tiles, cta, grid);
    }
  }

  // Unit u (0 <= u < unit_count(cta, grid)) of CTA `cta`.
  STRATA_HOST_DEVICE constexpr Sm90WorkUnit unit(int cta, int grid, int u) const {
    Sm90WorkUnit w;
    if (kind == Sm90WorkKind::split_k) {
      const int v = cta + u * grid;
      const int split = v % splits;
      w.tile = v / splits;
      const long long shared = k_tiles - lead;  // the last split's lead aside, shared out evenly
      w.k_begin = int(split * shared / splits);
      w.k_end = split + 1 == splits ? k_tiles : int((split + 1) * shared / splits);
      w.segments = splits;
      w.slot = v;
      w.first_peer = w.tile * splits;
      return w;
    }
    const int whole = kind == Sm90WorkKind::stream_k ? strided_count(stream_k.first_tile, cta, grid) : 0x7fffffff;
    if (u < whole) {
      w.tile = cta + u * grid;
      w.k_end = k_tiles;
      return w;
    }
    // Segment q of CTA cta's stream-K range, in tile t (counted from the first stream-K tile).
    const int q = u - whole;
    const int begin = stream_k.begin(cta), end = stream_k.begin(cta + 1);
    const int t = begin / k_tiles + q;
    w.tile = stream_k.first_tile + t;
    w.k_begin = q == 0 ? begin - t * k_tiles : 0;
    w.k_end = end - t * k_tiles < k_tiles ? end - t * k_tiles : k_tiles;
    w.first_peer = stream_k.first_cta(t);
    w.segments = stream_k.last_cta(t) - w.first_peer + 1;
    w.slot = stream_k.slot(cta, t);
    return w;
  }

  // The slot of unit i (0 <= i < segments) of the tile of `w`.
  STRATA_HOST_DEVICE constexpr int peer_slot(Sm90WorkUnit const& w, int i) const {
    if (kind == Sm90WorkKind::split_k) return w.first_peer + i;
    return stream_k.slot(w.first_peer + i, w.tile - stream_k.first_tile);
  }

  // Partial-sum slots the workspace holds.
  STRATA_HOST_DEVICE constexpr int slots() const {
    return kind == Sm90WorkKind::split_k ? total_tiles * splits : kind == Sm90WorkKind::stream_k ? 2 * stream_k.ctas : 0;
  }

 private:
  // How many of first, first + stride, ... lie below `count`.
  STRATA_HOST_DEVICE static constexpr int strided_count(int count, int first, int stride) {
    return first < count ? (count - first + stride - 1) / stride : 0;
  }
};

// The plan in words, for logs and benches: "whole tiles", "split-K 3", "Stream-K", "K pairs" (each
// tile's two K halves on a cluster of two CTAs) or "K pairs under split-K 2" (a split of 4).
inline std::string sm90_work_plan_name(Sm90WorkPlan const& p) {
  if (p.kind == Sm90WorkKind::stream_k) return "Stream-K";
  const std::string split = "split-K " + std::to_string(p.splits);
  if (p.pairs) return p.kind == Sm90WorkKind::split_k ? "K pairs under " + split : "K pairs";
  return p.kind == Sm90WorkKind::split_k ? split : "whole tiles";
}

}  // namespace strata
