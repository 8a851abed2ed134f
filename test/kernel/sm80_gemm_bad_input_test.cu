// Ampere GEMM: bad input is refused with the Status code that names its kind and a message that
// names the problem. The can_implement / initialize checks run without a GPU (pointers are never
// dereferenced, so fake ones do); the tests that show nothing was written then run on the GPU.
#include <functional>

#include "sm80_bad_input.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using namespace strata::test::bad_input;

// One kind of bad input: what to break, and how the refusal must read (words that hold for any
// problem the case is applied to: valid() here, a real one on the GPU).
using BadCase = strata::test::RefusalCase<Args>;
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
  expect_each_refused(bad_cases(), valid(), [](Args const& a) { return G::can_implement(a); });
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
