// Ampere GEMM features beyond a plain A·B, on bf16 with fp32 accumulation, for the small tile of
// Sm80Tiles and a sliced-K tile (whose two warp groups' sums meet in shared memory, where they
// meet the split-K and Stream-K partials too): batches with padded leading dimensions and
// distinct batch strides (and a B shared by all batches), D = alpha·A·B + beta·C with ragged
// edges, C aliasing D, split-K (explicit and automatic, with and without C, batched; serial equal
// to parallel bit for bit), Stream-K, and empty problems (m, n or k = 0). Every output element is
// checked against a double reference; D outside the m × n windows must keep its poison (or C's
// values, where C is D). Two kernels only (each costs seconds of nvcc): every tile class of
// Sm80Tiles, the large one included, runs every path (batches and beta, whole tiles, serial and
// parallel split-K, Stream-K) in Sm80GemmSanitize (sm80_gemm_tiles_test.cu).
#include <algorithm>
#include <cstring>
#include <vector>

#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using T = __nv_bfloat16;
using Small = Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 128, 128, 32, 2, 2, 4>;
using SlicedK = Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4, 2>;  // 2 K slices
template <class Config>
using KernelFor = Sm80GemmKernel<Config, T, LinearCombination>;

constexpr float kAlpha = 0.5f, kBeta = -1.25f;

template <class Kernel>
void run_and_check(GemmProblem<Kernel>& p, typename Gemm<Kernel>::Arguments const& args, std::string const& what) {
  const Status st = Gemm<Kernel>::can_implement(args);
  ASSERT_TRUE(bool(st)) << what << " " << describe(p.s) << ": " << st.message();
  ASSERT_TRUE(bool(p.run(args))) << what << " " << describe(p.s);
  const double alpha = args.epilogue.params.alpha, beta = args.epilogue.params.beta;
  p.check(
      [&](int i, int j, int bt, double ref) { return alpha * ref + (beta != 0 ? beta * p.source(i, j, bt) : 0.0); },
      what, std::fabs(alpha));
}

// Three batches; every operand's leading dimension padded, gaps of different sizes between
// batches, so a wrong stride or leading dimension reads or writes the wrong place.
template <class Config>
void batched() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  const ProblemLayout layout{.batches = 3, .pad_a = 8, .pad_b = 16, .pad_c = 24, .pad_d = 8,
                             .gap_a = 40, .gap_b = 8, .gap_c = 16, .gap_d = 24, .with_c = true};
  uint64_t seed = 100;
  for (Shape3 s : {Shape3{129, 300, 77}, Shape3{1000, 7, 129}, Shape3{7, 1000, 1000}}) {
    GemmProblem<Kernel> p(s, seed += 3, layout);
    auto args = p.arguments();
    args.epilogue = {{1.f, 0.f}};
    run_and_check(p, args, "batched");
    p.poison();
    args.epilogue = {{kAlpha, kBeta}};
    run_and_check(p, args, "batched, beta");
  }
  ProblemLayout shared = layout;
  shared.shared_b = true;  // batch_stride_b = 0: one B for every batch
  GemmProblem<Kernel> p({257, 129, 129}, seed, shared);
  auto args = p.arguments();
  args.epilogue = {{kAlpha, kBeta}};
  run_and_check(p, args, "batched, shared B, beta");
}

// D = 0.5·A·B - 1.25·C on ragged shapes, C and D with different leading dimensions.
template <class Config>
void beta() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  uint64_t seed = 200;
  for (Shape3 s : {Shape3{1, 1, 1}, Shape3{7, 7, 7}, Shape3{129, 257, 129}, Shape3{1000, 129, 1000},
                   Shape3{7, 4097, 33}, Shape3{4097, 7, 129}}) {
    GemmProblem<Kernel> p(s, seed += 3, ProblemLayout{.pad_c = 8, .pad_d = 16, .with_c = true});
    auto args = p.arguments();
    args.epilogue = {{kAlpha, kBeta}};
    run_and_check(p, args, "beta");
  }
}

// C aliases D (ldc = ldd, one batch stride): D starts out holding C, every output element reads
// its own C in place, and padding and batch gaps keep C's values. Whole tiles, serial and parallel
// split-K (the parallel reduction reads C and writes D element by element) and Stream-K.
template <class Config>
void c_aliases_d() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  uint64_t seed = 250;
  for (Shape3 s : {Shape3{7, 7, 7}, Shape3{129, 257, 129}, Shape3{1000, 129, 1000}, Shape3{300, 300, 4096}}) {
    for (int variant = 0; variant < 4; ++variant) {
      GemmProblem<Kernel> p(s, seed += 3,
                            ProblemLayout{.batches = 2, .pad_d = 8, .gap_d = 16, .with_c = true, .c_is_d = true});
      auto args = p.arguments();
      ASSERT_EQ(args.C, args.D);
      args.epilogue = {{kAlpha, kBeta}};
      if (variant == 1 || variant == 2) {
        args.split_k = 3;
        args.split_k_mode = variant == 1 ? SplitKMode::serial : SplitKMode::parallel;
      }
      if (variant == 3) args.schedule = Schedule::stream_k;
      const char* names[] = {"whole tiles", "serial split-K 3", "parallel split-K 3", "Stream-K"};
      run_and_check(p, args, std::string("C is D, ") + names[variant]);
    }
  }
}

// Split-K with 3 and 4 splits, with and without C; (7, 7, 129) has 5 K tiles, so with 4 splits of
// 2 tiles the last split owns none and must contribute zeros.
template <class Config>
void split_k() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  uint64_t seed = 300;
  for (SplitKMode mode : {SplitKMode::serial, SplitKMode::parallel, SplitKMode::automatic}) {
    const std::string how = mode == SplitKMode::serial ? "serial " : mode == SplitKMode::parallel ? "parallel " : "automatic ";
    for (Shape3 s : {Shape3{129, 300, 1000}, Shape3{1000, 129, 4097}, Shape3{7, 7, 129}}) {
      for (int splits : {2, 3, 4}) {
        for (bool with_c : {false, true}) {
          GemmProblem<Kernel> p(s, seed += 3, ProblemLayout{.pad_d = 8, .with_c = with_c});
          auto args = p.arguments();
          args.split_k = splits;
          args.split_k_mode = mode;
          args.epilogue = with_c ? LinearCombination{{kAlpha, kBeta}} : LinearCombination{{1.f, 0.f}};
          EXPECT_EQ(Gemm<Kernel>::effective_splits(args), std::min(splits, (s.k + Config::BK - 1) / Config::BK))
              << "no more splits than K tiles";
          EXPECT_GT(Gemm<Kernel>::workspace_size(args), 0u);
          run_and_check(p, args, how + "split-K " + std::to_string(splits) + (with_c ? ", beta" : ""));
        }
      }
    }
    // Batched split-K: the partials, the counters and the reduction are per batch.
    GemmProblem<Kernel> p({129, 136, 1000}, seed += 3,
                          ProblemLayout{.batches = 3, .pad_c = 8, .gap_c = 8, .gap_d = 16, .with_c = true});
    auto args = p.arguments();
    args.split_k = 3;
    args.split_k_mode = mode;
    args.epilogue = {{kAlpha, kBeta}};
    run_and_check(p, args, how + "batched split-K 3, beta");
  }
}

// Serial split-K leaves its tile counters at zero: one GEMM initialized once and run several
// times on one workspace (D poisoned before each run) is right every time. A GEMM with another
// split count then initialized on that workspace (whose counters now hold the first one's
// partial sums) is right, and so is the first one initialized again. A counter left non-zero
// would make no CTA, or the wrong one, reduce its tile: poison or partial sums in D.
template <class Config>
void split_k_serial_reruns() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  GemmProblem<Kernel> p({300, 257, 4097}, 360, ProblemLayout{.pad_d = 8, .with_c = true});
  auto args = p.arguments();
  args.epilogue = {{kAlpha, kBeta}};
  args.split_k = 4;
  args.split_k_mode = SplitKMode::serial;
  auto args3 = args;
  args3.split_k = 3;
  const size_t ws = std::max(Gemm<Kernel>::workspace_size(args), Gemm<Kernel>::workspace_size(args3));
  DeviceBuffer<char> workspace(ws);
  auto run_and_check_once = [&](Gemm<Kernel>& gemm, std::string const& what) {
    p.poison();
    ASSERT_TRUE(bool(gemm.run())) << what;
    throw_on_error(cudaDeviceSynchronize(), "split-K rerun");
    p.check([&](int i, int j, int bt, double ref) { return kAlpha * ref + kBeta * p.source(i, j, bt); }, what,
            std::fabs(kAlpha));
  };
  Gemm<Kernel> gemm4, gemm3;
  ASSERT_TRUE(bool(gemm4.initialize(args, workspace.get(), ws)));
  for (int run = 0; run < 3; ++run) run_and_check_once(gemm4, "serial split-K 4, run " + std::to_string(run));
  ASSERT_TRUE(bool(gemm3.initialize(args3, workspace.get(), ws)));
  run_and_check_once(gemm3, "serial split-K 3 after 4");
  run_and_check_once(gemm3, "serial split-K 3 after 4, again");
  ASSERT_TRUE(bool(gemm4.initialize(args, workspace.get(), ws)));
  run_and_check_once(gemm4, "serial split-K 4 after 3");
}

// split_k = 0 on a problem with one output tile and a long K must split, and still be right.
template <class Config>
void split_k_automatic() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  for (bool with_c : {false, true}) {
    GemmProblem<Kernel> p({64, 256, 8192}, with_c ? 401 : 400, ProblemLayout{.with_c = with_c});
    auto args = p.arguments();
    args.split_k = 0;
    args.epilogue = with_c ? LinearCombination{{kAlpha, kBeta}} : LinearCombination{{1.f, 0.f}};
    EXPECT_GT(Gemm<Kernel>::effective_splits(args), 1) << "automatic split-K did not split 64x256x8192";
    run_and_check(p, args, std::string("split-K automatic") + (with_c ? ", beta" : ""));
  }
}

// Serial and parallel split-K add the same partial sums in the same order (split 0 first), so they
// must agree bit for bit; and serial split-K must not depend on which CTA of a tile arrives last.
template <class Config>
void split_k_serial_matches_parallel() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  uint64_t seed = 800;
  for (Shape3 s : {Shape3{129, 300, 1000}, Shape3{1000, 129, 4097}}) {
    for (int splits : {3, 7}) {
      GemmProblem<Kernel> p(s, seed += 3, ProblemLayout{.pad_d = 8});
      auto args = p.arguments();
      args.split_k = splits;
      args.epilogue = {{1.f, 0.f}};
      std::vector<std::vector<T>> results;
      for (SplitKMode mode : {SplitKMode::parallel, SplitKMode::serial, SplitKMode::serial}) {
        args.split_k_mode = mode;
        p.poison();
        ASSERT_TRUE(bool(p.run(args))) << describe(s);
        results.push_back(p.dD.download());
      }
      p.check([](int, int, int, double ref) { return ref; }, "serial split-K " + std::to_string(splits));
      for (size_t r = 1; r < results.size(); ++r) {
        EXPECT_EQ(0, std::memcmp(results[0].data(), results[r].data(), results[0].size() * sizeof(T)))
            << describe(s) << ", " << splits << " splits: serial run " << r << " differs from parallel split-K";
      }
    }
  }
}

// Stream-K: shapes with fewer tiles than one wave (every tile shared, in one case by 32 CTAs of one
// K tile each), one K tile per output tile (nothing shared), and more than two waves (data-parallel
// waves, then shared tiles, some by three CTAs); ragged edges, with and without C, batched (the
// shared tiles span batches). One GEMM is then run three times on one workspace: the tile
// counters must return to zero, and the result must not change by a bit.
template <class Config>
void stream_k() {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Config>;
  using G = Gemm<Kernel>;
  uint64_t seed = 900;
  bool saw_both = false;
  for (Shape3 s : {Shape3{129, 300, 1000}, Shape3{7, 4097, 129}, Shape3{1000, 1000, 17}, Shape3{3000, 2900, 200}}) {
    for (bool with_c : {false, true}) {
      GemmProblem<Kernel> p(s, seed += 3, ProblemLayout{.pad_d = 8, .with_c = with_c});
      auto args = p.arguments();
      args.schedule = Schedule::stream_k;
      args.split_k = with_c ? 0 : 1;
      args.epilogue = with_c ? LinearCombination{{kAlpha, kBeta}} : LinearCombination{{1.f, 0.f}};
      const StreamKPartition sk = G::stream_k_partition(args);
      saw_both = saw_both || (sk.first_tile > 0 && sk.ctas > 0);
      run_and_check(p, args, "stream-K (" + std::to_string(sk.first_tile) + " whole tiles, " +
                                 std::to_string(sk.tiles) + " shared by " + std::to_string(sk.ctas) + " CTAs)" +
                                 (with_c ? ", beta" : ""));
    }
  }
  EXPECT_TRUE(saw_both) << "no shape had both data-parallel and Stream-K tiles on this GPU";

  GemmProblem<Kernel> b({300, 264, 1000}, seed += 3,
                        ProblemLayout{.batches = 3, .pad_c = 8, .gap_c = 8, .gap_d = 16, .with_c = true});
  auto args = b.arguments();
  args.schedule = Schedule::stream_k;
  args.epilogue = {{kAlpha, kBeta}};
  run_and_check(b, args, "batched stream-K, beta");

  GemmProblem<Kernel> p({3000, 2900, 200}, seed += 3, ProblemLayout{.pad_d = 8});
  args = p.arguments();
  args.schedule = Schedule::stream_k;
  args.epilogue = {{1.f, 0.f}};
  G gemm;
  DeviceBuffer<char> workspace(G::workspace_size(args));
  ASSERT_TRUE(bool(gemm.initialize(args, workspace.get(), workspace.bytes())));
  std::vector<T> first;
  for (int run = 0; run < 3; ++run) {
    p.poison();
    ASSERT_TRUE(bool(gemm.run()));
    throw_on_error(cudaDeviceSynchronize(), "stream-K rerun");
    p.check([](int, int, int, double ref) { return ref; }, "stream-K run " + std::to_string(run));
    auto d = p.dD.download();
    if (run == 0) first = d;
    else
      EXPECT_EQ(0, std::memcmp(first.data(), d.data(), d.size() * sizeof(T))) << "stream-K run " << run << " differs";
  }
}

TEST(Sm80GemmFeatures, SplitKSerialMatchesParallelSmallTile) { split_k_serial_matches_parallel<Small>(); }
TEST(Sm80GemmFeatures, StreamKSmallTile) { stream_k<Small>(); }
TEST(Sm80GemmFeatures, BatchedSmallTile) { batched<Small>(); }
TEST(Sm80GemmFeatures, BetaSmallTile) { beta<Small>(); }
TEST(Sm80GemmFeatures, SplitKSmallTile) { split_k<Small>(); }
TEST(Sm80GemmFeatures, SplitKSerialRerunsSmallTile) { split_k_serial_reruns<Small>(); }
TEST(Sm80GemmFeatures, SplitKAutomaticSmallTile) { split_k_automatic<Small>(); }
TEST(Sm80GemmFeatures, CAliasesDSmallTile) { c_aliases_d<Small>(); }
TEST(Sm80GemmFeatures, SlicedK) {
  c_aliases_d<SlicedK>();
  split_k_serial_matches_parallel<SlicedK>();
  stream_k<SlicedK>();
  batched<SlicedK>();
  beta<SlicedK>();
  split_k<SlicedK>();
}

// m = 0 or n = 0: success, nothing launched, D (even a null one) untouched.
TEST(Sm80GemmFeatures, EmptyOutputLaunchesNothing) {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Small>;
  using G = Gemm<Kernel>;
  for (Shape3 s : {Shape3{0, 100, 64}, Shape3{100, 0, 64}, Shape3{0, 0, 0}}) {
    for (int splits : {1, 0, 3, -1}) {  // -1: Stream-K
      GemmProblem<Kernel> p(s, 500);
      DeviceBuffer<T> d(4096);
      d.fill_bytes(0xFF);
      auto args = p.arguments();
      args.D = d.get();
      args.ldd = 128;
      args.split_k = splits < 0 ? 1 : splits;
      if (splits < 0) args.schedule = Schedule::stream_k;
      args.epilogue = {{1.f, 0.f}};
      EXPECT_EQ(G::workspace_size(args), 0u) << describe(s);
      const Status st = p.run(args);
      EXPECT_TRUE(bool(st)) << describe(s) << ": " << st.message();
      auto after = d.download();
      const auto* bytes = reinterpret_cast<const unsigned char*>(after.data());
      EXPECT_TRUE(std::all_of(bytes, bytes + after.size() * sizeof(T), [](unsigned char b) { return b == 0xFF; }))
          << describe(s) << ", split_k " << splits << ": D was written";
      args.D = nullptr;
      EXPECT_TRUE(bool(G::can_implement(args))) << describe(s) << ": a null D with nothing to write is fine";
    }
  }
}

// k = 0: A·B is the empty sum, so D = beta·C, or D = 0 when beta is 0 (A and B may be null).
TEST(Sm80GemmFeatures, EmptyKWritesBetaC) {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Small>;
  for (Shape3 s : {Shape3{129, 300, 0}, Shape3{7, 1, 0}}) {
    for (int splits : {1, 4, 0, -1}) {  // -1: Stream-K
      GemmProblem<Kernel> p(s, 600, ProblemLayout{.pad_d = 8, .with_c = true});
      auto args = p.arguments();
      args.A = nullptr;
      args.B = nullptr;
      args.split_k = splits < 0 ? 1 : splits;
      if (splits < 0) args.schedule = Schedule::stream_k;
      args.epilogue = {{kAlpha, 0.f}};
      run_and_check(p, args, "k = 0, beta = 0, split_k " + std::to_string(splits));
      p.poison();
      args.epilogue = {{kAlpha, kBeta}};
      run_and_check(p, args, "k = 0, beta, split_k " + std::to_string(splits));
    }
  }
}
}  // namespace

namespace {
// The tile order is free to choose: along M and the snake orders, in groups of 3, cover D as well.
TEST(Sm80GemmFeatures, RasterOrdersInGroups) {
  STRATA_REQUIRE_SM(8, 0);
  using Kernel = KernelFor<Small>;
  for (RasterOrder order : {RasterOrder::along_m, RasterOrder::snake_along_n, RasterOrder::snake_along_m}) {
    for (Shape3 s : {Shape3{1000, 1000, 129}, Shape3{4097, 129, 7}}) {
      GemmProblem<Kernel> p(s, 97);
      auto args = p.arguments();
      args.epilogue = {{1.f, 0.f}};
      args.raster_order = order;
      args.raster_group = 3;
      ASSERT_TRUE(bool(p.run(args))) << describe(s);
      p.check([](int, int, int, double ref) { return ref; }, std::string("raster ") + raster_order_name(order));
    }
  }
}
}  // namespace
