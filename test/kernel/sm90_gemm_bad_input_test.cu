// The Hopper GEMM: bad input is refused by can_implement with the Status code that names its kind
// and a message that names the operand and the rule (TMA's for A, B and, with TMA stores, C and D;
// element alignment for plain stores; the work splits the kernel takes). No GPU is needed: the
// pointers are fake and never dereferenced, and only can_implement runs (no kernel is launched,
// none instantiated). The refusals' effect on a run, nothing written, is the Ampere test's
// (sm80_gemm_bad_input_test.cu: both kernels go through Gemm<Kernel>::initialize alike).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include <kernel/gemm.hpp>
#include <kernel/sm90_gemm.hpp>

#include "common/refusal.hpp"

namespace {
using namespace strata;
using strata::test::expect_each_refused;
using strata::test::refused;
using T = __nv_bfloat16;
template <class LayoutA, Sm90Schedule S = Sm90Schedule::cooperative, int ClusterM = 1>
using Config = Sm90GemmConfig<T, LayoutA, ColumnMajor, 128, 128, 64, 4, S, ClusterM, 1>;
using TmaKernel = Sm90GemmKernel<Config<RowMajor>, T, LinearCombination>;
using Tma = Gemm<TmaKernel>;  // TMA stores
using Plain = Gemm<Sm90GemmKernel<Config<RowMajor>, T, LinearCombination, Sm90Store::plain>>;
using MnMajorA = Gemm<Sm90GemmKernel<Config<ColumnMajor>, T, LinearCombination>>;
using Clustered = Gemm<Sm90GemmKernel<Config<RowMajor, Sm90Schedule::cooperative, 2>, T, LinearCombination>>;
using Args = Tma::Arguments;
static_assert(std::is_same_v<Args, Plain::Arguments> && std::is_same_v<Args, MnMajorA::Arguments>,
              "one Arguments type for every kernel of these types");

using strata::test::fake;
Args valid() { return strata::test::legal_problem<Args>(); }
void batched(Args& a) { strata::test::two_batches(a); }
void with_beta(Args& a) { a.epilogue = {{1.f, 1.f}}; }

using BadCase = strata::test::RefusalCase<Args>;

// Refused by the TMA-store kernel (and, but for the output rules, by every kernel).
const std::vector<BadCase>& bad_cases() {
  using S = StatusCode;
  static const std::vector<BadCase> cases = {
      {"A + 1", [](Args& a) { a.A += 1; }, S::misaligned_pointer, {"A must be 16-byte aligned"}},
      {"B + 1", [](Args& a) { a.B += 1; }, S::misaligned_pointer, {"B must be 16-byte aligned"}},
      {"D + 1", [](Args& a) { a.D += 1; }, S::misaligned_pointer, {"D must be 16-byte aligned", "TMA store"}},
      {"C + 1 with beta", [](Args& a) { a.C += 1, with_beta(a); }, S::misaligned_pointer,
       {"C must be 16-byte aligned", "TMA load of C"}},
      {"lda = k + 4", [](Args& a) { a.lda += 4; }, S::misaligned_leading_dim, {"lda (516)", "multiple of 8"}},
      {"ldb = k + 4", [](Args& a) { a.ldb += 4; }, S::misaligned_leading_dim, {"ldb (516)", "multiple of 8"}},
      {"ldd = n + 4", [](Args& a) { a.ldd += 4; }, S::misaligned_leading_dim, {"ldd (1004)", "multiple of 8"}},
      {"ldc = n + 4 with beta", [](Args& a) { a.ldc += 4, with_beta(a); }, S::misaligned_leading_dim,
       {"ldc (1004)", "multiple of 8"}},
      {"lda = k - 8", [](Args& a) { a.lda -= 8; }, S::invalid_leading_dim,
       {"lda (504)", "smaller than the contiguous extent of A (512)"}},
      {"ldb = k - 8", [](Args& a) { a.ldb -= 8; }, S::invalid_leading_dim,
       {"ldb (504)", "smaller than the contiguous extent of B (512)"}},
      {"ldd = n - 8", [](Args& a) { a.ldd -= 8; }, S::invalid_leading_dim,
       {"ldd (992)", "smaller than the contiguous extent of D (1000)"}},
      {"ldc = n - 8 with beta", [](Args& a) { a.ldc -= 8, with_beta(a); }, S::invalid_leading_dim,
       {"ldc (992)", "smaller than the contiguous extent of C"}},
      {"A null", [](Args& a) { a.A = nullptr; }, S::null_pointer, {"A is null"}},
      {"B null", [](Args& a) { a.B = nullptr; }, S::null_pointer, {"B is null"}},
      {"D null", [](Args& a) { a.D = nullptr; }, S::null_pointer, {"D is null"}},
      {"C null with beta", [](Args& a) { a.C = nullptr, with_beta(a); }, S::null_pointer, {"C is null", "beta"}},
      {"m < 0", [](Args& a) { a.m = -1; }, S::invalid_problem, {"m, n and k must not be negative"}},
      {"n < 0", [](Args& a) { a.n = -8; }, S::invalid_problem, {"m, n and k must not be negative"}},
      {"k < 0", [](Args& a) { a.k = -1; }, S::invalid_problem, {"m, n and k must not be negative"}},
      {"batch_count 0", [](Args& a) { a.batch_count = 0; }, S::invalid_problem, {"batch_count must be at least 1"}},
      {"raster_group 0", [](Args& a) { a.raster_group = 0; }, S::invalid_problem, {"raster_group must be at least 1"}},
      {"split_k < 0", [](Args& a) { a.split_k = -2; }, S::invalid_problem, {"split_k must not be negative"}},
      {"split_k with Stream-K", [](Args& a) { a.split_k = 2, a.schedule = Schedule::stream_k; }, S::invalid_problem,
       {"exclude each other"}},
      {"parallel split-K", [](Args& a) { a.split_k = 2, a.split_k_mode = SplitKMode::parallel; }, S::unsupported,
       {"SplitKMode::parallel is not supported"}},
      {"batch stride of A + 4", [](Args& a) { batched(a), a.batch_stride_a += 4; }, S::misaligned_leading_dim,
       {"batch stride of A", "multiple of 8"}},
      {"batch stride of B + 4", [](Args& a) { batched(a), a.batch_stride_b += 4; }, S::misaligned_leading_dim,
       {"batch stride of B", "multiple of 8"}},
      {"batch stride of D + 4", [](Args& a) { batched(a), a.batch_stride_d += 4; }, S::misaligned_leading_dim,
       {"batch_stride_d", "multiple of 8"}},
      {"batch stride of C + 4 with beta", [](Args& a) { batched(a), a.batch_stride_c += 4, with_beta(a); },
       S::misaligned_leading_dim, {"batch_stride_c", "multiple of 8"}},
      {"batches of D overlapping", [](Args& a) { batched(a), a.batch_stride_d -= 1000; }, S::invalid_leading_dim,
       {"the batches of D overlap"}},
  };
  return cases;
}

TEST(Sm90GemmBadInput, ValidProblemsAreAccepted) {
  Args a = valid();
  EXPECT_TRUE(Tma::can_implement(a).ok()) << Tma::can_implement(a).message();
  batched(a), with_beta(a);
  EXPECT_TRUE(Tma::can_implement(a).ok()) << "two batches with beta: " << Tma::can_implement(a).message();
  a = valid();
  a.batch_count = 3, a.batch_stride_a = 0, a.batch_stride_d = int64_t(a.ldd) * a.m;
  a.batch_stride_b = int64_t(a.ldb) * a.n;
  EXPECT_TRUE(Tma::can_implement(a).ok()) << "every batch reading one A (stride 0): " << Tma::can_implement(a).message();
}

TEST(Sm90GemmBadInput, EachRefusedWithCodeAndReason) {
  expect_each_refused(bad_cases(), valid(), [](Args const& a) { return Tma::can_implement(a); });
}

// The operands' rules do not depend on the stores: every case about A, B or the work split is
// refused by the plain-store kernel too, with the same code.
TEST(Sm90GemmBadInput, PlainStoresRefuseTheSameOperands) {
  for (BadCase const& c : bad_cases()) {
    const std::string name = c.name;
    if (name.find("D") != std::string::npos || name.find("C ") != std::string::npos ||
        name.find("ldc") != std::string::npos || name.find("ldd") != std::string::npos)
      continue;
    Args a = valid();
    c.mutate(a);
    EXPECT_TRUE(refused(Plain::can_implement(a), c.code, c.words)) << c.name;
  }
}

// Plain stores write D element by element: any ldd of at least n and any element-aligned D do
// (what the TMA store refuses), a D off its element alignment does not.
TEST(Sm90GemmBadInput, PlainStoresNeedOnlyElementAlignment) {
  Args a = valid();
  a.D += 1, a.ldd = 1001;
  EXPECT_TRUE(Plain::can_implement(a).ok()) << Plain::can_implement(a).message();
  EXPECT_TRUE(refused(Tma::can_implement(a), StatusCode::misaligned_pointer, {"D must be 16-byte aligned"}));
  a.D = reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(valid().D) + 1);
  EXPECT_TRUE(refused(Plain::can_implement(a), StatusCode::misaligned_pointer, {"D must be aligned to its element size"}));
  a = valid();
  a.ldd = 999;
  EXPECT_TRUE(refused(Plain::can_implement(a), StatusCode::invalid_leading_dim,
                      {"ldd (999)", "smaller than the contiguous extent of D (1000)"}));
}

// A column-major (MN-major) A is m × k in columns of m: lda must cover m and be a 16-byte multiple.
TEST(Sm90GemmBadInput, LeadingDimensionsFollowMajorness) {
  Args a = valid();
  a.lda = 1000;
  EXPECT_TRUE(MnMajorA::can_implement(a).ok()) << MnMajorA::can_implement(a).message();
  EXPECT_TRUE(Tma::can_implement(a).ok()) << "row-major A: any lda from k on, in 16-byte steps";
  a.lda = 512;
  EXPECT_TRUE(refused(MnMajorA::can_implement(a), StatusCode::invalid_leading_dim,
                      {"lda (512)", "smaller than the contiguous extent of A (1000)"}));
  a.lda = 1004;
  EXPECT_TRUE(refused(MnMajorA::can_implement(a), StatusCode::misaligned_leading_dim, {"lda (1004)", "multiple of 8"}));
}

// Nothing to compute needs no operand: m or n zero takes no pointer at all; k zero needs D (it
// is written: alpha · 0 + beta · C) but not A or B.
TEST(Sm90GemmBadInput, NothingToComputeIsAccepted) {
  Args a;
  a.m = 0, a.n = 64, a.k = 64;
  EXPECT_TRUE(Tma::can_implement(a).ok()) << Tma::can_implement(a).message();
  a.m = 64, a.n = 0;
  EXPECT_TRUE(Tma::can_implement(a).ok()) << Tma::can_implement(a).message();
  a = valid();
  a.k = 0, a.A = nullptr, a.B = nullptr;
  EXPECT_TRUE(Tma::can_implement(a).ok()) << Tma::can_implement(a).message();
  a.D = nullptr;
  EXPECT_TRUE(refused(Tma::can_implement(a), StatusCode::null_pointer, {"D is null"}));
}

// The epilogue's own parameters: a bias mode without its bias is refused.
TEST(Sm90GemmBadInput, EpilogueWithoutItsBias) {
  using Bias = Gemm<Sm90GemmKernel<Config<RowMajor>, T, LinearCombinationBiasActivation<ReLU>>>;
  Bias::Arguments a;
  const Args v = valid();
  a.m = v.m, a.n = v.n, a.k = v.k;
  a.A = v.A, a.lda = v.lda, a.B = v.B, a.ldb = v.ldb, a.D = v.D, a.ldd = v.ldd;
  a.epilogue.params.bias_mode = BiasMode::per_column;
  EXPECT_TRUE(refused(Bias::can_implement(a), StatusCode::invalid_problem, {"bias", "null"}));
  a.epilogue.params.bias = fake<const float>(0x500000);
  EXPECT_TRUE(Bias::can_implement(a).ok()) << Bias::can_implement(a).message();
}

// Clusters take split-K but not Stream-K (a cluster's CTAs walk the same K ranges).
TEST(Sm90GemmBadInput, ClustersTakeSplitKNotStreamK) {
  Args a = valid();
  a.split_k = 3;
  EXPECT_TRUE(Clustered::can_implement(a).ok()) << Clustered::can_implement(a).message();
  a.split_k = 1, a.schedule = Schedule::stream_k;
  EXPECT_TRUE(refused(Clustered::can_implement(a), StatusCode::unsupported, {"Stream-K", "without clusters"}));
  EXPECT_TRUE(Tma::can_implement(a).ok()) << "without a cluster Stream-K is taken: " << Tma::can_implement(a).message();
}

// Split-K's partial tiles need the workspace workspace_size names: none, or one byte short, is
// refused with both sizes, before any memory is touched (the kernel zeroes the tile counters
// only once the workspace is big enough; initialize_workspace is what Gemm::initialize calls).
TEST(Sm90GemmBadInput, SplitKWorkspaceTooSmall) {
  Args a = valid();
  a.split_k = 3;
  const size_t need = Tma::workspace_size(a);
  ASSERT_GT(need, 0u) << "split-K 3 keeps partial tiles";
  EXPECT_TRUE(refused(TmaKernel::initialize_workspace(a, nullptr, need, nullptr), StatusCode::workspace_too_small,
                      {"the workspace holds", std::to_string(need), "workspace_size"}));
  EXPECT_TRUE(refused(TmaKernel::initialize_workspace(a, fake<void>(0x600000), need - 1, nullptr),
                      StatusCode::workspace_too_small, {std::to_string(need - 1) + " bytes", std::to_string(need)}));
  a.split_k = 1;
  EXPECT_EQ(Tma::workspace_size(a), 0u) << "whole tiles need no workspace";
  EXPECT_TRUE(TmaKernel::initialize_workspace(a, nullptr, 0, nullptr).ok());
}

// The tile scheduler counts units in an int: more tiles times K splits than 2^31 - 1 is refused,
// not wrapped (2^21 square in 128 x 128 tiles is 2^28 tiles: 7 splits fit, 8 make 2^31).
TEST(Sm90GemmBadInput, MoreUnitsThanAnIntCounts) {
  Args a = valid();
  a.m = a.n = 1 << 21, a.k = 64;
  a.lda = a.ldb = 64, a.ldd = a.ldc = 1 << 21;
  a.split_k = 7;
  EXPECT_TRUE(Plain::can_implement(a).ok()) << "7 * 2^28 units: " << Plain::can_implement(a).message();
  a.split_k = 8;
  EXPECT_TRUE(refused(Plain::can_implement(a), StatusCode::problem_too_large, {"more output tiles", "2^31 - 1"}));
}
}  // namespace
