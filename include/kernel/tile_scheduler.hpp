// Strata: which output tile each CTA computes, in an order that reuses L2.
//
// Tiles are visited in groups: along-N rasterization walks `group` tile rows of M together, all
// across N, before moving to the next group of rows, so the A rows of a group and the B columns
// in flight stay in L2 while they are reused (along-M is the transpose). The grid is
// (tiles of one batch and split, batch, split).
#pragma once

#include "../layout/config.hpp"

namespace strata {

enum class RasterOrder { along_n, along_m };

struct TileCoord {
  int m;      // tile index along M
  int n;      // tile index along N
  int batch;  // batch index
  int split;  // K-split index
};

struct GroupedTileScheduler {
  int tiles_m = 0;
  int tiles_n = 0;
  int batches = 1;
  int splits = 1;
  int group = 8;  // tile rows (along_n) or columns (along_m) walked together; >= 1
  RasterOrder order = RasterOrder::along_n;

  // Tiles of shape tile_m × tile_n covering an m × n output (edges round up).
  STRATA_HOST_DEVICE static constexpr GroupedTileScheduler make(int m, int n, int tile_m, int tile_n,
                                                                int batches = 1, int splits = 1,
                                                                int group = 8,
                                                                RasterOrder order = RasterOrder::along_n) {
    GroupedTileScheduler s;
    s.tiles_m = (m + tile_m - 1) / tile_m;
    s.tiles_n = (n + tile_n - 1) / tile_n;
    s.batches = batches;
    s.splits = splits;
    s.group = group < 1 ? 1 : group;
    s.order = order;
    return s;
  }

  STRATA_HOST_DEVICE constexpr long long tiles_per_batch() const {
    return static_cast<long long>(tiles_m) * tiles_n;
  }

  // tile(i, b, s): the tile of linear index i (0 <= i < tiles_per_batch()) of batch b, split s.
  // Over all i this visits every (m, n) tile exactly once.
  STRATA_HOST_DEVICE constexpr TileCoord tile(long long linear, int batch = 0, int split = 0) const {
    const bool along_n = order == RasterOrder::along_n;
    const int major = along_n ? tiles_m : tiles_n;  // the dimension grouped together
    const int minor = along_n ? tiles_n : tiles_m;  // the dimension walked within a group
    const long long per_group = static_cast<long long>(group) * minor;
    const int g = static_cast<int>(linear / per_group);
    const int within = static_cast<int>(linear % per_group);
    const int first = g * group;
    const int width = major - first < group ? major - first : group;
    const int major_idx = first + within % width;
    const int minor_idx = within / width;
    return along_n ? TileCoord{major_idx, minor_idx, batch, split}
                   : TileCoord{minor_idx, major_idx, batch, split};
  }
};

}  // namespace strata
