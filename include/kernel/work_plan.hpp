// Strata floor 4: how a GEMM's work is shared out among CTAs, decided on the host for any kernel
// that computes BM × BN output tiles over BK-deep K tiles: the K split (split-K, its count and
// how its parts are added up), Stream-K's partition, and the workspace either needs. Kernels of
// both architectures take their plan from here, so one Arguments value means the same split on
// each; the device side of the fixup (adding partial tiles) is the kernel's.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "gemm_arguments.hpp"
#include "tile_scheduler.hpp"

namespace strata {

// The tile a kernel computes, and the bytes of one partial tile of its accumulators.
struct PlanTile {
  int bm, bn, bk;
  size_t slot_bytes;     // bm × bn accumulators: a serial split-K or Stream-K partial tile
  size_t partial_bytes;  // one accumulator: parallel split-K's partial outputs are made of them
};

struct WorkPlan {
  bool runs_stream_k = false;
  int splits = 1;
  bool serial = false;           // split-K partials added by the last CTA of each tile (else in parallel)
  StreamKPartition stream_k;     // ctas == 0: no Stream-K tiles
  size_t counters_bytes = 0;     // tile counters (a multiple of 16, so what follows stays aligned)
  size_t slots_bytes = 0;        // fragment-order partial tiles (serial split-K, Stream-K)
  size_t partials_bytes = 0;     // partial outputs (parallel split-K)
  size_t workspace_bytes() const { return counters_bytes + slots_bytes + partials_bytes; }

  // Output tiles of one batch (ragged ones included), and K tiles (0 when k == 0).
  template <class Args>
  static long long tile_count(Args const& a, PlanTile const& t) {
    return (static_cast<long long>(a.m) + t.bm - 1) / t.bm * ((static_cast<long long>(a.n) + t.bn - 1) / t.bn);
  }
  template <class Args>
  static int k_tile_count(Args const& a, PlanTile const& t) {
    return (a.k + t.bk - 1) / t.bk;
  }
  // Leading dimension of parallel split-K's partial outputs: rows stay 32-byte aligned.
  template <class Args>
  static int64_t partials_ld(Args const& a) {
    return (int64_t(a.n) + 7) / 8 * 8;
  }

  // The split count of the tile grid: split_k, or the automatic choice for 0. `gpu` answers
  // sms() and split_k_wave() (CTAs of the split-K grid's kernel the GPU holds at once).
  template <class Args, class Gpu>
  static int tile_splits(Args const& a, PlanTile const& t, Gpu const& gpu) {
    const int k_tiles = k_tile_count(a, t);
    int splits = a.split_k;
    if (splits == 0) {
      // Double the splits while tiles × splits stays within two CTAs per SM, each split keeps
      // at least 8 K tiles so the pipeline fills, and the doubling shortens the run counted as
      // waves × K tiles per split. The last condition keeps a full wave of one-CTA-per-SM tiles
      // whole: 2 splits would run as two waves of half the K, no faster, plus the reduction
      // (bench/RESULTS.md).
      const int sms = gpu.sms();
      const long long tiles = tile_count(a, t) * a.batch_count;
      const long long w = gpu.split_k_wave();
      auto cost = [&](long long s) { return (tiles * s + w - 1) / w * ((k_tiles + s - 1) / s); };
      splits = 1;
      while (tiles * splits * 2 <= 2LL * sms && k_tiles / (splits * 2) >= 8 && splits < 64 &&
             cost(2 * splits) < cost(splits))
        splits *= 2;
    }
    if (splits > k_tiles) splits = k_tiles;
    if (splits > 65535) splits = 65535;
    return splits < 1 ? 1 : splits;
  }

  // The wave Stream-K runs `a` over, or 0 when it does not run Stream-K: Schedule::stream_k, or
  // automatic on a problem of at least kStreamKMinWaves waves that K does not split. `gpu`
  // answers wave() (CTAs of the 1-D grid's kernel the GPU holds at once).
  template <class Args, class Gpu>
  static int stream_k_wave(Args const& a, PlanTile const& t, int splits, Gpu const& gpu) {
    if (a.schedule == Schedule::stream_k) return gpu.wave();
    if (a.schedule != Schedule::automatic) return 0;
    if (a.m <= 0 || a.n <= 0 || a.k <= 0 || a.batch_count < 1 || a.split_k > 1 || splits > 1) return 0;
    const long long tiles = tile_count(a, t) * a.batch_count;
    if (tiles > std::numeric_limits<int>::max()) return 0;
    const int w = gpu.wave();
    return tiles >= static_cast<long long>(kStreamKMinWaves) * w ? w : 0;
  }

  // Where the work of `a` goes, and the workspace that takes: one counter per shared output tile
  // and a partial tile per split and tile (serial split-K), or per Stream-K CTA two (the tiles its
  // range starts and ends in); one m × n matrix of accumulators per split (parallel split-K).
  template <class Args, class Gpu>
  static WorkPlan make(Args const& a, PlanTile const& t, Gpu const& gpu) {
    WorkPlan pl;
    const int splits = tile_splits(a, t, gpu);
    const int stream_k_wave_ctas = stream_k_wave(a, t, splits, gpu);
    pl.runs_stream_k = stream_k_wave_ctas > 0;
    pl.splits = pl.runs_stream_k ? 1 : splits;
    if (a.m == 0 || a.n == 0) return pl;
    const long long tiles = tile_count(a, t) * a.batch_count;
    if (pl.runs_stream_k) {
      pl.stream_k = StreamKPartition::make(tiles, k_tile_count(a, t), stream_k_wave_ctas);
      if (pl.stream_k.ctas > 0) {
        pl.counters_bytes = counters_for(pl.stream_k.tiles);
        pl.slots_bytes = 2 * size_t(pl.stream_k.ctas) * t.slot_bytes;
      }
      return pl;
    }
    pl.stream_k.first_tile = static_cast<int>(tiles);  // can_implement refuses more than an int holds
    if (pl.splits <= 1) return pl;
    pl.serial = a.split_k_mode == SplitKMode::serial || (a.split_k_mode == SplitKMode::automatic && pl.splits <= 2);
    if (pl.serial) {
      pl.counters_bytes = counters_for(tiles);
      pl.slots_bytes = size_t(tiles) * pl.splits * t.slot_bytes;
    } else {
      pl.partials_bytes = size_t(pl.splits) * a.batch_count * a.m * partials_ld(a) * t.partial_bytes;
    }
    return pl;
  }

 private:
  static size_t counters_for(long long tiles) { return (size_t(tiles) * sizeof(int) + 15) / 16 * 16; }
};

}  // namespace strata
