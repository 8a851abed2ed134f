// Strata: which output tile each CTA computes, in an order that reuses L2.
//
// Tiles are visited in groups: along-N rasterization walks `group` tile rows of M together, all
// across N, before moving to the next group of rows, so the A rows of a group and the B columns
// in flight stay in L2 while they are reused (along-M is the transpose). The snake orders are
// space-filling versions of the same groups: every other column of a group is walked backwards and
// every other group from the far end, so each tile is a neighbour of the one before it within a
// group, and a group starts in the column (along_n) the one before ended in, whose B is in L2.
// The grid is (tiles of one batch and split, batch, split).
//
// StreamKPartition is the arithmetic of Stream-K: the last tiles' K iterations spread evenly over
// a fixed number of CTAs, so no CTA waits on a half-empty last wave.
#pragma once

#include "../layout/config.hpp"

namespace strata {

enum class RasterOrder { along_n, along_m, snake_along_n, snake_along_m };

constexpr const char* raster_order_name(RasterOrder order) {
  switch (order) {
    case RasterOrder::along_m: return "along_m";
    case RasterOrder::snake_along_n: return "snake_along_n";
    case RasterOrder::snake_along_m: return "snake_along_m";
    default: return "along_n";
  }
}

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
  // Over all i this visits every (m, n) tile exactly once. 32-bit arithmetic (no 64-bit division
  // in the kernel): tiles_per_batch() must be below 2^31, which Gemm::can_implement ensures.
  STRATA_HOST_DEVICE constexpr TileCoord tile(long long linear, int batch = 0, int split = 0) const {
    const bool along_n = order == RasterOrder::along_n || order == RasterOrder::snake_along_n;
    const bool snake = order == RasterOrder::snake_along_n || order == RasterOrder::snake_along_m;
    const int major = along_n ? tiles_m : tiles_n;  // the dimension grouped together
    const int minor = along_n ? tiles_n : tiles_m;  // the dimension walked within a group
    const int width_max = group < major ? group : major;  // so per_group <= tiles_per_batch()
    const int per_group = width_max * minor;
    const int i = static_cast<int>(linear);
    const int g = i / per_group;
    const int within = i - g * per_group;
    const int first = g * width_max;
    const int width = major - first < width_max ? major - first : width_max;
    const int column = within / width, row = within % width;  // within the group
    const int major_idx = first + (snake && column % 2 == 1 ? width - 1 - row : row);
    const int minor_idx = snake && g % 2 == 1 ? minor - 1 - column : column;
    return along_n ? TileCoord{major_idx, minor_idx, batch, split}
                   : TileCoord{minor_idx, major_idx, batch, split};
  }

  // The tile of global index g over all batches (the tiles of batch 0, then of batch 1, ...), as
  // Stream-K counts them; 0 <= g < tiles_per_batch() * batches < 2^31.
  STRATA_HOST_DEVICE constexpr TileCoord global_tile(int g) const {
    const int per_batch = static_cast<int>(tiles_per_batch());
    const int batch = g / per_batch;
    return tile(g - batch * per_batch, batch, 0);
  }
};

// Stream-K over the tiles [first_tile, first_tile + tiles) of a GEMM (global tile indices: the
// tiles of all batches one after another, batch-major). Each of those tiles is k_tiles iterations
// (one BK-deep step each); the iterations of all of them, tile after tile, are cut into `ctas`
// contiguous ranges as even as integers make them (the first iterations() % ctas ranges one
// longer): CTA j runs [begin(j), begin(j + 1)). A range starts and ends anywhere inside a tile, so
// a tile is shared by the CTAs from first_cta(t) to last_cta(t) (t counted from first_tile); each
// adds its partial sum, and a tile one CTA covers whole is finished by it alone. A CTA's range
// crosses at most two tiles partially (its first and its last; every tile between is whole), so
// two partial-tile slots per CTA suffice: slot(j, t). The tiles before first_tile are data
// parallel: one whole tile per CTA. All of it is 32-bit arithmetic (the kernel does it per
// segment): make() keeps iterations() below 2^31.
struct StreamKPartition {
  int first_tile = 0;  // tiles before the stream-K ones (computed whole, one CTA each)
  int tiles = 0;       // stream-K tiles
  int k_tiles = 1;     // iterations per tile, >= 1
  int ctas = 0;        // stream-K CTAs, 1 <= ctas <= iterations(); 0: no stream-K tiles

  STRATA_HOST_DEVICE constexpr int iterations() const { return tiles * k_tiles; }
  // First iteration of CTA j (0 <= j <= ctas; begin(ctas) == iterations()).
  STRATA_HOST_DEVICE constexpr int begin(int j) const {
    const int q = iterations() / ctas, r = iterations() % ctas;
    return j * q + (j < r ? j : r);
  }
  // The CTA whose range holds iteration `it`: the largest j with begin(j) <= it.
  STRATA_HOST_DEVICE constexpr int cta_of(int it) const {
    const int q = iterations() / ctas, r = iterations() % ctas;
    const int long_part = r * (q + 1);  // the first r ranges are q + 1 long
    return it < long_part ? it / (q + 1) : r + (it - long_part) / q;
  }
  STRATA_HOST_DEVICE constexpr int first_cta(int t) const { return cta_of(t * k_tiles); }
  STRATA_HOST_DEVICE constexpr int last_cta(int t) const { return cta_of((t + 1) * k_tiles - 1); }
  // Which of CTA j's two slots holds its partial sum of tile t: 0 for the tile its range starts
  // in, 1 for the tile it ends in (when that is another one).
  STRATA_HOST_DEVICE constexpr int slot(int j, int t) const { return 2 * j + (begin(j) / k_tiles == t ? 0 : 1); }

  // The split of `total_tiles` tiles of k_tiles iterations over a GPU holding `wave` CTAs at once:
  // whole waves data parallel except the last full one, which joins the partial wave in stream-K
  // (so the stream-K CTAs each run between one and two tiles' worth); fewer tiles than one wave
  // all go to stream-K. A whole number of waves, k_tiles == 0, or more stream-K iterations than
  // 32 bits count stays data parallel.
  STRATA_HOST_DEVICE static constexpr StreamKPartition make(long long total_tiles, int k_tiles, int wave) {
    StreamKPartition s;
    s.first_tile = static_cast<int>(total_tiles);
    if (k_tiles <= 0 || wave <= 0 || total_tiles <= 0 || total_tiles % wave == 0) return s;
    const long long full = total_tiles / wave;
    const long long first = full == 0 ? 0 : (full - 1) * wave;
    const long long iterations = (total_tiles - first) * k_tiles;
    if (iterations >= (1LL << 31)) return s;
    s.first_tile = static_cast<int>(first);
    s.tiles = static_cast<int>(total_tiles - first);
    s.k_tiles = k_tiles;
    s.ctas = static_cast<int>(wave < iterations ? wave : iterations);
    return s;
  }
};

}  // namespace strata
