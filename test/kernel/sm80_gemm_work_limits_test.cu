// Ampere GEMM: the limits of the work split, checked without a GPU: grids past CUDA's dimensions,
// workspaces short, null or misaligned for split-K and Stream-K, and which schedule and split count
// the automatic choice takes (the refusals of bad operands: sm80_gemm_bad_input_test.cu).
#include <cmath>

#include "sm80_bad_input.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using namespace strata::test::bad_input;

TEST(Sm80GemmBadInput, BatchCountBeyondTheGrid) {
  Args a = valid();
  a.batch_count = 65536;
  EXPECT_TRUE(refused(G::can_implement(a), StatusCode::problem_too_large, {"batch_count", "65535"}));
}

// Whole tiles run over a 1-D grid of the tiles of all batches: 65536 tiles per batch times 65535
// batches is past 2^31 - 1 (each batch alone fits), for every schedule.
TEST(Sm80GemmBadInput, TilesOverAllBatchesBeyondTheGrid) {
  for (Schedule schedule : {Schedule::tiles, Schedule::stream_k, Schedule::automatic}) {
    Args a = valid();
    a.schedule = schedule;
    a.m = Config::BM * 65536;
    a.n = Config::BN;
    a.ldc = a.ldd = a.n;
    a.batch_count = 65535;
    a.batch_stride_d = a.batch_stride_c = int64_t(a.ldd) * a.m;
    EXPECT_TRUE(refused(G::can_implement(a), StatusCode::problem_too_large, {"tiles", "batches"}));
    a.batch_count = 32767;  // 2^31 - 65536 tiles: fits
    EXPECT_TRUE(G::can_implement(a).ok()) << G::can_implement(a).message();
  }
}

// More K splits than a grid's z dimension holds (65535) would only fail at launch.
TEST(Sm80GemmBadInput, SplitKBeyondTheGrid) {
  Args a = valid();
  a.m = 8; a.n = 8; a.k = 70000 * Config::BK;
  a.lda = a.k; a.ldb = a.k; a.ldd = 8;
  a.split_k = 70000;
  EXPECT_TRUE(refused(G::can_implement(a), StatusCode::problem_too_large, {"split_k must be at most 65535"}))
      << "split_k = 70000 with 70000 K tiles: grid.z would be 70000 > 65535";
}

TEST(Sm80GemmBadInput, RunBeforeInitialize) {
  G gemm;
  EXPECT_TRUE(refused(gemm.run(), StatusCode::not_initialized, {"initialize"}));
}

TEST(Sm80GemmBadInput, SplitKWorkspaceTooSmall) {
  Args a = valid();
  a.split_k = 3;
  a.split_k_mode = SplitKMode::serial;
  // Serial split-K: a counter per output tile (rounded up to 16 bytes), then a BM x BN tile of
  // fp32 partial sums per tile and split; parallel split-K: an m x n matrix of partials per split
  // (rows padded to 8 columns).
  const size_t tiles = size_t(1000 + G::Config::BM - 1) / G::Config::BM * ((1000 + G::Config::BN - 1) / G::Config::BN);
  const size_t tile_bytes = size_t(G::Config::BM) * G::Config::BN * sizeof(float);
  const size_t needed = G::workspace_size(a);
  ASSERT_EQ(needed, (tiles * sizeof(int) + 15) / 16 * 16 + 3 * tiles * tile_bytes);
  Args parallel = a;
  parallel.split_k_mode = SplitKMode::parallel;
  EXPECT_EQ(G::workspace_size(parallel), size_t(3) * 1000 * 1000 * sizeof(float));
  // Automatic: parallel for three splits, serial for two.
  Args automatic = a;
  automatic.split_k_mode = SplitKMode::automatic;
  EXPECT_EQ(G::workspace_size(automatic), G::workspace_size(parallel));
  automatic.split_k = 2;
  EXPECT_EQ(G::workspace_size(automatic), (tiles * sizeof(int) + 15) / 16 * 16 + 2 * tiles * tile_bytes);
  G gemm;
  EXPECT_TRUE(refused(gemm.initialize(a, fake<void>(0x10000000), needed - 16), StatusCode::workspace_too_small,
                      {"split-K over 3 splits needs " + std::to_string(needed) + " bytes of workspace",
                       "got " + std::to_string(needed - 16)}));
  EXPECT_TRUE(refused(gemm.initialize(a, nullptr, needed), StatusCode::workspace_too_small,
                      {"split-K over 3 splits needs " + std::to_string(needed) + " bytes of workspace"}));
  EXPECT_TRUE(refused(gemm.run(), StatusCode::not_initialized, {"run() before a successful initialize()"}));
}

// Parallel split-K keeps one m x n matrix of fp32 partial outputs per split: a workspace 16 bytes
// short of it, or none, is refused; exactly that much is enough (the parallel mode zeroes no
// counters, so initialize touches no memory and a fake address does).
TEST(Sm80GemmBadInput, ParallelSplitKWorkspaceTooSmall) {
  Args a = valid();
  a.split_k = 3;
  a.split_k_mode = SplitKMode::parallel;
  const size_t needed = G::workspace_size(a);
  ASSERT_EQ(needed, size_t(3) * 1000 * 1000 * sizeof(float));
  G gemm;
  EXPECT_TRUE(refused(gemm.initialize(a, fake<void>(0x10000000), needed - 16), StatusCode::workspace_too_small,
                      {"split-K over 3 splits needs " + std::to_string(needed) + " bytes of workspace",
                       "got " + std::to_string(needed - 16)}));
  EXPECT_TRUE(refused(gemm.run(), StatusCode::not_initialized, {"run() before a successful initialize()"}));
  EXPECT_TRUE(refused(gemm.initialize(a, nullptr, 0), StatusCode::workspace_too_small,
                      {"split-K over 3 splits needs " + std::to_string(needed) + " bytes of workspace", "got 0"}));
  EXPECT_TRUE(refused(gemm.initialize(a, nullptr, needed), StatusCode::workspace_too_small,
                      {"split-K over 3 splits needs " + std::to_string(needed) + " bytes of workspace"}));
  const Status enough = gemm.initialize(a, fake<void>(0x10000000), needed);
  EXPECT_TRUE(enough.ok()) << enough.message();
}

// Stream-K picks its own K ranges: an explicit split count is refused, as is a workspace short of
// what workspace_size says (counters of the shared tiles and two partial tiles per Stream-K CTA).
TEST(Sm80GemmBadInput, StreamKSplitAndWorkspace) {
  Args a = valid();
  a.schedule = Schedule::stream_k;
  a.split_k = 3;
  EXPECT_TRUE(refused(G::can_implement(a), StatusCode::invalid_problem, {"split_k", "stream_k"}));
  a.split_k = 1;
  EXPECT_TRUE(G::can_implement(a).ok());
  const StreamKPartition sk = G::stream_k_partition(a);
  const size_t needed = G::workspace_size(a);
  if (sk.ctas == 0) {
    EXPECT_EQ(needed, 0u) << "all tiles data parallel need no workspace";
    return;
  }
  EXPECT_EQ(needed, (size_t(sk.tiles) * sizeof(int) + 15) / 16 * 16 +
                        2 * size_t(sk.ctas) * G::Config::BM * G::Config::BN * sizeof(float));
  G gemm;
  EXPECT_TRUE(refused(gemm.initialize(a, fake<void>(0x10000000), needed - 16), StatusCode::workspace_too_small,
                      {"Stream-K over " + std::to_string(sk.ctas) + " CTAs needs " + std::to_string(needed) +
                           " bytes of workspace",
                       "got " + std::to_string(needed - 16)}));
  EXPECT_TRUE(refused(gemm.run(), StatusCode::not_initialized, {"run() before a successful initialize()"}));
}

// A null Stream-K workspace is refused however many bytes it claims: the tile counters and the
// partial tiles have nowhere to go. The problem has 32 tiles (8 x 4) of 16 K tiles each: unless
// the wave (132 CTAs without a GPU) divides 32, some of them are Stream-K tiles, so the workspace
// is not empty.
TEST(Sm80GemmBadInput, StreamKNullWorkspace) {
  Args a = valid();
  a.schedule = Schedule::stream_k;
  const StreamKPartition sk = G::stream_k_partition(a);
  ASSERT_GT(sk.ctas, 0) << "32 tiles over a wave of " << G::wave() << " CTAs: no Stream-K tiles";
  const size_t needed = G::workspace_size(a);
  ASSERT_GT(needed, 0u);
  const std::string what = "Stream-K over " + std::to_string(sk.ctas) + " CTAs needs " + std::to_string(needed) +
                           " bytes of workspace";
  G gemm;
  EXPECT_TRUE(refused(gemm.initialize(a, nullptr, 0), StatusCode::workspace_too_small, {what, "got 0"}));
  EXPECT_TRUE(refused(gemm.initialize(a, nullptr, needed), StatusCode::workspace_too_small, {what}));
  EXPECT_TRUE(refused(gemm.run(), StatusCode::not_initialized, {"run() before a successful initialize()"}));
}

// Schedule::automatic runs Stream-K on problems of kStreamKMinWaves waves or more that split_k
// does not split, and the tile grid otherwise; the workspace follows the choice.
TEST(Sm80GemmBadInput, AutomaticScheduleChoosesByWaves) {
  Args a = valid();
  a.schedule = Schedule::automatic;
  EXPECT_FALSE(G::uses_stream_k(a)) << "1000 x 1000 is far below 8 waves";
  EXPECT_EQ(G::workspace_size(a), 0u);
  a.split_k = 3;
  EXPECT_FALSE(G::uses_stream_k(a)) << "an explicit split goes to split-K";
  EXPECT_EQ(G::effective_splits(a), 3);
  a.split_k = 1;
  // Square problems just below and at 8 waves of tiles.
  const long long wave = G::wave();
  const int side_tiles = int(std::ceil(std::sqrt(double(kStreamKMinWaves * wave))));
  a.m = side_tiles * G::Config::BM;
  a.n = side_tiles * G::Config::BN;
  a.lda = a.ldb = a.k;
  a.ldc = a.ldd = a.n;
  ASSERT_TRUE(G::can_implement(a).ok()) << G::can_implement(a).message();
  EXPECT_TRUE(G::uses_stream_k(a)) << side_tiles << "^2 tiles, wave " << wave;
  EXPECT_EQ(G::effective_splits(a), 1);
  EXPECT_EQ(G::workspace_size(a), G::workspace_size([&] {
              Args b = a;
              b.schedule = Schedule::stream_k;
              return b;
            }()));
  a.m = ((kStreamKMinWaves * wave - 1) / side_tiles) * G::Config::BM;  // side_tiles columns: below 8 waves
  EXPECT_FALSE(G::uses_stream_k(a)) << a.m / G::Config::BM << " x " << side_tiles << " tiles, wave " << wave;
  a.schedule = Schedule::tiles;
  a.m = side_tiles * G::Config::BM;
  EXPECT_FALSE(G::uses_stream_k(a)) << "Schedule::tiles never runs Stream-K";
}

// Whole tiles run over the 1-D grid of entry(): without Stream-K or a K split, the partition the
// launch reads must put every tile of every batch before first_tile and share none.
TEST(Sm80GemmBadInput, WholeTilesCoverEveryBatch) {
  for (int batches : {1, 3}) {
    Args a = valid();
    a.split_k = 1;
    a.batch_count = batches;
    a.batch_stride_a = a.lda * a.m;
    a.batch_stride_b = a.ldb * a.n;
    a.batch_stride_c = a.batch_stride_d = int64_t(a.ldd) * a.m;
    ASSERT_TRUE(G::can_implement(a).ok()) << G::can_implement(a).message();
    const long long tiles = (a.m + Config::BM - 1) / Config::BM * ((a.n + Config::BN - 1) / Config::BN);
    const StreamKPartition sk = G::stream_k_partition(a);
    EXPECT_EQ(sk.first_tile, tiles * batches) << batches << " batches";
    EXPECT_EQ(sk.ctas, 0);
    EXPECT_EQ(G::effective_splits(a), 1);
    EXPECT_EQ(G::workspace_size(a), 0u);
  }
}

// Automatic split-K splits only when that shortens the run in waves × K tiles per split: a full
// wave of tiles stays whole (two splits would be two waves of half the K, plus the reduction),
// half a wave splits in two, and tiles × splits never passes one wave for long K.
TEST(Sm80GemmBadInput, AutomaticSplitKCountsWaves) {
  const int wave = G::split_k_wave();
  ASSERT_GT(wave, 1);
  ASSERT_EQ(wave % 2, 0) << "the test wants an even wave";
  Args a = valid();
  a.split_k = 0;
  a.k = 8192;  // 256 K tiles of 32
  a.lda = a.ldb = a.k;
  auto with_tiles = [&](int tiles) {  // one row of `tiles` tiles
    a.m = G::Config::BM;
    a.n = tiles * G::Config::BN;
    a.ldc = a.ldd = a.n;
    EXPECT_TRUE(G::can_implement(a).ok()) << G::can_implement(a).message();
    return G::effective_splits(a);
  };
  EXPECT_EQ(with_tiles(wave), 1) << "a full wave of " << wave << " tiles";
  EXPECT_EQ(with_tiles(wave - 1), 1) << "one tile short of a full wave";
  EXPECT_EQ(with_tiles(wave / 2), 2) << "half a wave";
  EXPECT_EQ(with_tiles(wave / 2 + 1), 1) << "just over half a wave: two splits would take two waves";
  const int one = with_tiles(1);
  EXPECT_GE(one, 32) << "one tile with 256 K tiles";
  EXPECT_LE(one, wave);
  a.k = 8 * G::Config::BK;  // too short to split
  a.lda = a.ldb = a.k;
  EXPECT_EQ(with_tiles(1), 1) << "8 K tiles are not split";
}

// The partials are written and read as 16-byte vectors: a workspace off 16-byte alignment must
// be refused, not fault in the kernel (a misaligned access is a sticky error that ends the
// process's CUDA context).
TEST(Sm80GemmBadInput, SplitKWorkspaceMisaligned) {
  Args a = valid();
  a.split_k = 3;
  const size_t needed = G::workspace_size(a);
  G gemm;
  const Status s = gemm.initialize(a, fake<void>(0x10000004), needed + 16);
  EXPECT_TRUE(refused(s, StatusCode::misaligned_pointer, {"the workspace must be 16-byte aligned"}));
}
}  // namespace
