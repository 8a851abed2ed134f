// Ampere GEMM: bad input is refused with the Status code that names its kind and a message that
// names the problem. The can_implement / initialize checks run without a GPU (pointers are never
// dereferenced, so fake ones do); the tests that show nothing was written then run on the GPU.
#include <cmath>

#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using T = __nv_bfloat16;
using Config = Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 128, 256, 32, 2, 4, 4>;
using Kernel = Sm80GemmKernel<Config, T, LinearCombination>;
using G = Gemm<Kernel>;
using Args = G::Arguments;

// A valid 16-byte-aligned address that is never dereferenced.
template <class P>
P* fake(uintptr_t address) {
  return reinterpret_cast<P*>(address);
}

// A legal 1000 × 1000 × 512 problem (A row-major, B column-major: lda = ldb = k, ldd = ldc = n).
Args valid() {
  Args a;
  a.m = 1000; a.n = 1000; a.k = 512;
  a.A = fake<const T>(0x100000); a.lda = 512;
  a.B = fake<const T>(0x200000); a.ldb = 512;
  a.C = fake<const T>(0x300000); a.ldc = 1000;
  a.D = fake<T>(0x400000); a.ldd = 1000;
  a.epilogue = {{1.f, 0.f}};
  return a;
}

// `s` is a refusal with `code` whose message contains every one of `words`.
testing::AssertionResult refused(Status const& s, StatusCode code, std::vector<std::string> const& words) {
  if (s.ok()) return testing::AssertionFailure() << "accepted";
  if (s.code() != code)
    return testing::AssertionFailure() << "refused with code " << int(s.code()) << " instead of " << int(code)
                                       << ": " << s.message();
  for (const std::string& w : words) {
    if (s.message().find(w) == std::string::npos)
      return testing::AssertionFailure() << "message \"" << s.message() << "\" does not mention \"" << w << "\"";
  }
  return testing::AssertionSuccess();
}

// Two batches at the smallest legal batch strides (for a case to break one of them).
void batched(Args& a) {
  a.batch_count = 2;
  a.batch_stride_a = a.lda * a.m;
  a.batch_stride_b = a.ldb * a.n;
  a.batch_stride_c = a.ldc * a.m;
  a.batch_stride_d = a.ldd * a.m;
}

// One kind of bad input: what to break, and how the refusal must read (words that hold for any
// problem the case is applied to: valid() here, a real one on the GPU).
struct BadCase {
  const char* name;
  std::function<void(Args&)> mutate;
  StatusCode code;
  std::vector<std::string> words;
};
const std::vector<BadCase>& bad_cases() {
  static const std::vector<BadCase> cases = {
      {"A + 1", [](Args& a) { a.A += 1; }, StatusCode::misaligned_pointer, {"A must be 16-byte aligned"}},
      {"B + 1", [](Args& a) { a.B += 1; }, StatusCode::misaligned_pointer, {"B must be 16-byte aligned"}},
      {"D + 1", [](Args& a) { a.D += 1; }, StatusCode::misaligned_pointer, {"D must be 16-byte aligned"}},
      {"C + 1 with beta", [](Args& a) { a.C += 1; a.epilogue = {{1.f, 1.f}}; }, StatusCode::misaligned_pointer,
       {"C must be 16-byte aligned"}},
      {"lda = k + 4", [](Args& a) { a.lda = a.k + 4; }, StatusCode::misaligned_leading_dim,
       {"lda (", "must be a multiple of 8 elements"}},
      {"ldb = k + 4", [](Args& a) { a.ldb = a.k + 4; }, StatusCode::misaligned_leading_dim,
       {"ldb (", "must be a multiple of 8 elements"}},
      {"ldc = n + 4 with beta", [](Args& a) { a.ldc = a.n + 4; a.epilogue = {{1.f, 1.f}}; },
       StatusCode::misaligned_leading_dim, {"ldc (", "must be a multiple of 8 elements"}},
      {"ldd = n + 1", [](Args& a) { a.ldd = a.n + 1; }, StatusCode::misaligned_leading_dim,
       {"ldd (", "must be a multiple of 8 elements"}},
      {"ldb = k - 8", [](Args& a) { a.ldb = a.k - 8; }, StatusCode::invalid_leading_dim,
       {"ldb (", "smaller than the contiguous extent of B"}},
      {"ldd = n - 8", [](Args& a) { a.ldd = a.n - 8; }, StatusCode::invalid_leading_dim,
       {"ldd (", "smaller than the contiguous extent of D"}},
      {"ldc = n - 8 with beta", [](Args& a) { a.ldc = a.n - 8; a.epilogue = {{1.f, 1.f}}; },
       StatusCode::invalid_leading_dim, {"ldc (", "smaller than the contiguous extent of C"}},
      {"A null", [](Args& a) { a.A = nullptr; }, StatusCode::null_pointer, {"A is null"}},
      {"B null", [](Args& a) { a.B = nullptr; }, StatusCode::null_pointer, {"B is null"}},
      {"D null", [](Args& a) { a.D = nullptr; }, StatusCode::null_pointer, {"D is null"}},
      {"C null with beta", [](Args& a) { a.C = nullptr; a.epilogue = {{1.f, -1.f}}; }, StatusCode::null_pointer,
       {"C is null", "beta"}},
      {"m < 0", [](Args& a) { a.m = -1; }, StatusCode::invalid_problem, {"m, n and k must not be negative"}},
      {"n < 0", [](Args& a) { a.n = -5; }, StatusCode::invalid_problem, {"m, n and k must not be negative"}},
      {"k < 0", [](Args& a) { a.k = -1; }, StatusCode::invalid_problem, {"m, n and k must not be negative"}},
      {"batch_count 0", [](Args& a) { a.batch_count = 0; }, StatusCode::invalid_problem,
       {"batch_count must be at least 1"}},
      {"split_k < 0", [](Args& a) { a.split_k = -2; }, StatusCode::invalid_problem, {"split_k must be 0", "positive"}},
      {"batch stride of A not a multiple of 8", [](Args& a) { batched(a); a.batch_stride_a += 4; },
       StatusCode::misaligned_leading_dim, {"batch stride of A", "multiple of 8 elements"}},
      {"batch stride of B not a multiple of 8", [](Args& a) { batched(a); a.batch_stride_b += 4; },
       StatusCode::misaligned_leading_dim, {"batch stride of B", "multiple of 8 elements"}},
      {"batch stride of C not a multiple of 8, with beta",
       [](Args& a) { batched(a); a.batch_stride_c += 4; a.epilogue = {{1.f, 1.f}}; },
       StatusCode::misaligned_leading_dim, {"batch stride of C", "multiple of 8 elements"}},
      {"batch stride of D not a multiple of 8", [](Args& a) { batched(a); a.batch_stride_d += 4; },
       StatusCode::misaligned_leading_dim, {"batch stride of D", "multiple of 8 elements"}},
  };
  return cases;
}

// ---- without a GPU -------------------------------------------------------------------------------

TEST(Sm80GemmBadInput, ValidProblemIsAccepted) {
  EXPECT_TRUE(bool(G::can_implement(valid()))) << G::can_implement(valid()).message();
  Args a = valid();
  batched(a);
  a.epilogue = {{1.f, 1.f}};
  EXPECT_TRUE(bool(G::can_implement(a))) << "two batches with beta: " << G::can_implement(a).message();
}

TEST(Sm80GemmBadInput, EachRefusedWithCodeAndReason) {
  for (const BadCase& c : bad_cases()) {
    Args a = valid();
    c.mutate(a);
    EXPECT_TRUE(refused(G::can_implement(a), c.code, c.words)) << c.name;
  }
}

TEST(Sm80GemmBadInput, LeadingDimensionsFollowMajorness) {
  // Column-major A is m × k with columns of m: lda must cover m, not k. int8 rows move in
  // 16-element vectors.
  using ColA = Gemm<Sm80GemmKernel<Sm80GemmConfig<T, T, ColumnMajor, ColumnMajor, 128, 256, 32, 2, 4, 4>, T,
                                   LinearCombination>>;
  ColA::Arguments a;
  a.m = 1000; a.n = 64; a.k = 512;
  a.A = fake<const T>(0x100000); a.lda = 512;
  a.B = fake<const T>(0x200000); a.ldb = 512;
  a.D = fake<T>(0x400000); a.ldd = 64;
  EXPECT_TRUE(refused(ColA::can_implement(a), StatusCode::invalid_leading_dim, {"lda", "1000"}));
  a.lda = 1000;
  EXPECT_TRUE(bool(ColA::can_implement(a))) << ColA::can_implement(a).message();

  using S8 = Gemm<Sm80GemmKernel<Sm80GemmConfig<int8_t, int8_t, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4>,
                                 int32_t, LinearCombination>>;
  S8::Arguments b;
  b.m = 64; b.n = 64; b.k = 64;
  b.A = fake<const int8_t>(0x100000); b.lda = 72;
  b.B = fake<const int8_t>(0x200000); b.ldb = 64;
  b.D = fake<int32_t>(0x400000); b.ldd = 64;
  EXPECT_TRUE(refused(S8::can_implement(b), StatusCode::misaligned_leading_dim, {"lda", "multiple of 16"}));
  b.lda = 80;
  EXPECT_TRUE(bool(S8::can_implement(b))) << S8::can_implement(b).message();
  b.ldd = 66;  // int32 D: 4-element vectors
  EXPECT_TRUE(refused(S8::can_implement(b), StatusCode::misaligned_leading_dim, {"ldd", "multiple of 4"}));

  // Row-major B is k × n with rows of n: ldb must cover n, in whole 16-byte vectors.
  using RowB = Gemm<Sm80GemmKernel<Sm80GemmConfig<T, T, RowMajor, RowMajor, 128, 256, 32, 2, 4, 4>, T,
                                   LinearCombination>>;
  RowB::Arguments c;
  c.m = 64; c.n = 1000; c.k = 512;
  c.A = fake<const T>(0x100000); c.lda = 512;
  c.B = fake<const T>(0x200000); c.ldb = 512;
  c.D = fake<T>(0x400000); c.ldd = 1000;
  EXPECT_TRUE(refused(RowB::can_implement(c), StatusCode::invalid_leading_dim,
                      {"ldb (512)", "smaller than the contiguous extent of B (1000)"}));
  c.ldb = 1004;
  EXPECT_TRUE(refused(RowB::can_implement(c), StatusCode::misaligned_leading_dim,
                      {"ldb (1004)", "must be a multiple of 8 elements"}));
  c.ldb = 1008;
  EXPECT_TRUE(bool(RowB::can_implement(c))) << RowB::can_implement(c).message();
}

TEST(Sm80GemmBadInput, NothingToComputeIsAccepted) {
  Args a = valid();
  a.m = 0;
  a.D = nullptr;  // nothing is written, so no D is needed
  EXPECT_TRUE(bool(G::can_implement(a))) << G::can_implement(a).message();
  a = valid();
  a.k = 0;
  a.A = nullptr;  // nothing is read from A and B
  a.B = nullptr;
  EXPECT_TRUE(bool(G::can_implement(a))) << G::can_implement(a).message();
}

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

// ---- on the GPU: refused input writes nothing ------------------------------------------------------

TEST(Sm80GemmBadInput, RefusedInputWritesNothing) {
  STRATA_REQUIRE_SM(8, 0);
  GemmProblem<Kernel> p({257, 264, 200}, 900, ProblemLayout{.with_c = true});
  const Args good = [&] {
    Args a = p.arguments();
    a.epilogue = {{1.f, 0.f}};
    return a;
  }();
  DeviceBuffer<char> small_workspace(1024);
  auto expect_refused_writes_nothing = [&](std::string const& name, Args const& a, void* workspace, size_t bytes,
                                           StatusCode code, std::vector<std::string> const& words) {
    G gemm;
    // A successful initialize first: the refused one after it must leave nothing to run.
    ASSERT_TRUE(bool(gemm.initialize(good))) << name;
    EXPECT_TRUE(refused(gemm.initialize(a, workspace, bytes), code, words)) << name;
    EXPECT_TRUE(refused(gemm.run(), StatusCode::not_initialized, {"run() before a successful initialize()"}))
        << name << ": run() after a refusal";
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(p.written_elements(), 0) << name << ": D was written";
  };
  for (const BadCase& c : bad_cases()) {
    Args a = good;
    c.mutate(a);
    expect_refused_writes_nothing(c.name, a, small_workspace.get(), small_workspace.bytes(), c.code, c.words);
  }
  // Problems that need a workspace, given too small a one, then none (while claiming enough bytes).
  struct WorkspaceCase {
    const char* name;
    std::function<void(Args&)> mutate;
    std::string what;  // how the refusal names the plan
  };
  const WorkspaceCase workspace_cases[] = {
      {"serial split-K 3", [](Args& a) { a.split_k = 3; a.split_k_mode = SplitKMode::serial; },
       "split-K over 3 splits needs"},
      {"parallel split-K 3", [](Args& a) { a.split_k = 3; a.split_k_mode = SplitKMode::parallel; },
       "split-K over 3 splits needs"},
      {"Stream-K", [](Args& a) { a.schedule = Schedule::stream_k; }, "Stream-K over"},
  };
  for (const WorkspaceCase& c : workspace_cases) {
    Args a = good;
    c.mutate(a);
    const size_t needed = G::workspace_size(a);
    ASSERT_GT(needed, small_workspace.bytes()) << c.name;
    expect_refused_writes_nothing(std::string(c.name) + ", 1024-byte workspace", a, small_workspace.get(),
                                  small_workspace.bytes(), StatusCode::workspace_too_small,
                                  {c.what, std::to_string(needed) + " bytes of workspace, got 1024"});
    expect_refused_writes_nothing(std::string(c.name) + ", null workspace", a, nullptr, needed,
                                  StatusCode::workspace_too_small, {c.what, std::to_string(needed) + " bytes"});
  }
  // The poison check can see a write: the valid problem overwrites all of D.
  ASSERT_TRUE(bool(p.run(good)));
  EXPECT_EQ(p.written_elements(), int64_t(257) * 264);
  p.check([](int, int, int, double ref) { return ref; }, "after the refusals");
}
}  // namespace

namespace {
// Batches of D that overlap in memory would race; they are refused.
TEST(Sm80GemmBadInput, OverlappingBatchesOfD) {
  Args a = valid();
  a.batch_count = 2;
  a.batch_stride_a = 512 * 1000; a.batch_stride_b = 512 * 1000;
  a.batch_stride_d = a.ldd * (a.m - 1) + a.n - 8;
  EXPECT_TRUE(refused(G::can_implement(a), StatusCode::invalid_leading_dim, {"batches of D overlap"}));
  a.batch_stride_d = a.ldd * a.m;
  EXPECT_TRUE(G::can_implement(a).ok()) << G::can_implement(a).message();
}

// The epilogue's own parameters are checked too: a bias mode without a bias is refused.
TEST(Sm80GemmBadInput, EpilogueWithoutItsBias) {
  using BiasKernel = Sm80GemmKernel<Config, T, LinearCombinationBiasActivation<ReLU>>;
  using GB = Gemm<BiasKernel>;
  GB::Arguments a;
  Args v = valid();
  a.m = v.m; a.n = v.n; a.k = v.k;
  a.A = v.A; a.lda = v.lda; a.B = v.B; a.ldb = v.ldb; a.D = v.D; a.ldd = v.ldd;
  a.epilogue.params.bias_mode = BiasMode::per_column;
  EXPECT_TRUE(refused(GB::can_implement(a), StatusCode::invalid_problem, {"bias", "null"}));
  a.epilogue.params.bias = fake<const float>(0x500000);
  EXPECT_TRUE(GB::can_implement(a).ok()) << GB::can_implement(a).message();
}
}  // namespace

namespace {
// A tile whose CTA needs more shared memory than the GPU grants is refused by can_implement,
// saying how much it needs and how much there is, instead of failing at launch. The rule itself
// runs without a GPU; the GPU's own limit only with one.
TEST(Sm80GemmBadInput, SharedMemoryBeyondTheGpu) {
  EXPECT_TRUE(detail::check_shared_memory(232448, 232448).ok());
  EXPECT_TRUE(detail::check_shared_memory(300000, 0).ok()) << "an unknown limit (no GPU) refuses nothing";
  EXPECT_TRUE(refused(detail::check_shared_memory(245760, 232448), StatusCode::unsupported,
                      {"shared memory", "245760", "232448", "stages"}));
  // 256 x 128 x 64 in six stages: 288 KB, more than any GPU of this generation grants a CTA.
  using DeepKernel =
      Sm80GemmKernel<Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 256, 128, 64, 4, 2, 6>, T, LinearCombination>;
  using Deep = Gemm<DeepKernel>;
  static_assert(DeepKernel::smem_bytes > 232448);
  STRATA_REQUIRE_SM(8, 0);
  EXPECT_TRUE(refused(Deep::can_implement(valid()), StatusCode::unsupported,
                      {"shared memory", std::to_string(DeepKernel::smem_bytes)}));
  EXPECT_TRUE(G::can_implement(valid()).ok()) << "the 128 x 256 x 32 tile (4 stages, 96 KB) fits";
}

TEST(Sm80GemmBadInput, RasterGroupMustBePositive) {
  Args a = valid();
  a.raster_group = 0;
  EXPECT_TRUE(refused(G::can_implement(a), StatusCode::invalid_problem, {"raster_group"}));
  a.raster_group = 3;
  a.raster_order = RasterOrder::along_m;
  EXPECT_TRUE(G::can_implement(a).ok()) << G::can_implement(a).message();
}
}  // namespace
