// Tiles 112 columns wide (a wgmma N that is no multiple of the TMA epilogue's 64-column sub-tile,
// so they store through Sm90Store::plain): the candidates bench/tools/sm90_tile_probe.cu times for
// decode-side problems, where 112 columns make n = 14336 one wave of 128 tiles. The shape sweep
// (1, 7, 129, 1000, 4097 in each dimension, batches, beta) with whole tiles, and the few-tile
// shapes with split-K and Stream-K, on the ping-pong 64 × 112 and the cooperative 128 × 112 tile.
#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;

template <int BM, Sm90Schedule S>
using WaveKernel =
    Sm90GemmKernel<Sm90GemmConfig<BF16, RowMajor, ColumnMajor, BM, 112, 64, BM == 64 ? 8 : 6, S>, BF16,
                   LinearCombination, Sm90Store::plain>;
using Pingpong = WaveKernel<64, Sm90Schedule::pingpong>;
using Cooperative = WaveKernel<128, Sm90Schedule::cooperative>;

TEST(Sm90GemmWave, Pingpong64x112) { sm90_sweep<Pingpong>(3900, "ping-pong 64x112, plain stores"); }

TEST(Sm90GemmWave, Cooperative128x112) { sm90_sweep<Cooperative>(3910, "cooperative 128x112, plain stores"); }

TEST(Sm90GemmWave, SplitKAndStreamK) {
  sm90_sweep<Pingpong>(
      3920, "ping-pong 64x112, split-K 3", [](Gemm<Pingpong>::Arguments& a) { a.split_k = 3; }, kSm90FewTileShapes);
  sm90_sweep<Cooperative>(
      3930, "cooperative 128x112, Stream-K", [](Gemm<Cooperative>::Arguments& a) { a.schedule = Schedule::stream_k; },
      kSm90FewTileShapes);
}
}  // namespace
