// The Ampere GEMM under an Alignment below 16 bytes (Sm80GemmConfig's last parameter, what
// Sm80AutoGemm falls back to): leading dimensions, batch strides and so batch base pointers that
// are odd numbers of elements, so the rows of one matrix start at every alignment (2, 4, 8 and 16
// bytes for 16-bit elements) and each 16-byte chunk takes a different copy. Every element is
// checked against a double reference, D poisoned before, padding and gaps checked untouched. The
// 16-byte configurations refuse the same problems, with their message.
#include <kernel/gemm.hpp>

#include <string>
#include <type_traits>

#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using F16 = __half;

template <class TA, class LayoutA, class LayoutB, int Alignment>
using SmallConfig = Sm80GemmConfig<TA, TA, LayoutA, LayoutB, 128, 128, 32, 2, 2, 4, 1, Alignment>;

// Odd pads and gaps: no row or batch of any operand keeps the 16-byte rule by construction.
constexpr ProblemLayout kOdd{.batches = 2, .pad_a = 1, .pad_b = 3, .pad_c = 5, .pad_d = 1,
                             .gap_a = 3, .gap_b = 1, .gap_c = 7, .gap_d = 3, .with_c = true};

const Shape3 kShapes[] = {{1, 1, 1}, {7, 13, 9}, {129, 257, 129}, {300, 77, 1000}, {64, 1000, 4097}};

// D = alpha A·B + beta C for each shape, then serial and parallel split-K and Stream-K on one.
// Integer outputs get integer alpha and beta, so the exact result is an integer too.
template <class Kernel>
void unaligned_sweep(uint64_t seed, const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  constexpr bool integer = std::is_integral_v<typename Kernel::ElementD>;
  const float alpha = integer ? 2.f : 0.5f, beta = integer ? -3.f : -1.25f;
  auto run_case = [&](Shape3 s, const char* how, auto&& tweak) {
    GemmProblem<Kernel> p(s, seed += 11, kOdd);
    auto args = p.arguments();
    args.epilogue = LinearCombination{{alpha, beta}};
    tweak(args);
    const std::string label = std::string(what) + how;
    const Status st = Gemm<Kernel>::can_implement(args);
    ASSERT_TRUE(bool(st)) << label << " " << describe(s) << ": " << st.message();
    ASSERT_TRUE(bool(p.run(args))) << label << " " << describe(s);
    p.check([&](int i, int j, int bt, double ref) { return alpha * ref + beta * p.source(i, j, bt); }, label, alpha);
  };
  for (Shape3 s : kShapes) run_case(s, "", [](auto&) {});
  const Shape3 split{100, 300, 2000};
  run_case(split, ", split-K 3 serial", [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::serial; });
  run_case(split, ", split-K 3 parallel", [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::parallel; });
  run_case({1000, 1000, 300}, ", Stream-K", [](auto& a) { a.schedule = Schedule::stream_k; });
}

TEST(Sm80GemmUnaligned, Bf16RowMajorA_ColumnMajorB) {
  unaligned_sweep<Sm80GemmKernel<SmallConfig<BF16, RowMajor, ColumnMajor, 2>, BF16, LinearCombination>>(100, "bf16 TN");
}
TEST(Sm80GemmUnaligned, Bf16ColumnMajorA_RowMajorB) {
  unaligned_sweep<Sm80GemmKernel<SmallConfig<BF16, ColumnMajor, RowMajor, 2>, BF16, LinearCombination>>(200, "bf16 NT");
}
TEST(Sm80GemmUnaligned, F16InF32Out) {
  unaligned_sweep<Sm80GemmKernel<SmallConfig<F16, RowMajor, RowMajor, 2>, float, LinearCombination>>(300, "f16->f32 TT");
}
TEST(Sm80GemmUnaligned, Tf32) {
  unaligned_sweep<Sm80GemmKernel<SmallConfig<float, ColumnMajor, ColumnMajor, 4>, float, LinearCombination>>(
      400, "tf32 NN");
}

TEST(Sm80GemmUnaligned, Int8) {
  using Config = Sm80GemmConfig<int8_t, int8_t, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4, 1, 1>;
  unaligned_sweep<Sm80GemmKernel<Config, int32_t, LinearCombination>>(500, "int8 TN");
}

// The 16-byte configuration refuses the same layout, naming the first operand that breaks it, and
// the element-aligned one still refuses a pointer that is not even element-aligned.
TEST(Sm80GemmUnaligned, SixteenByteRuleStillRefuses) {
  using Aligned = Gemm<Sm80GemmKernel<SmallConfig<BF16, RowMajor, ColumnMajor, 16>, BF16, LinearCombination>>;
  using Unaligned = Gemm<Sm80GemmKernel<SmallConfig<BF16, RowMajor, ColumnMajor, 2>, BF16, LinearCombination>>;
  alignas(16) static BF16 buffer[64];
  Aligned::Arguments a;
  a.m = 16, a.n = 16, a.k = 16;
  a.A = buffer, a.B = buffer, a.D = buffer;
  a.lda = 17, a.ldb = 16, a.ldd = 16;
  a.epilogue = {{1.f, 0.f}};
  Status st = Aligned::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_leading_dim) << st.message();
  EXPECT_NE(st.message().find("lda (17) must be a multiple of 8 elements (16 bytes)"), std::string::npos)
      << st.message();
  EXPECT_TRUE(bool(Unaligned::can_implement(a))) << Unaligned::can_implement(a).message();

  a.lda = 16;
  a.D = buffer + 1;  // 2-byte aligned: enough for element stores
  st = Aligned::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_pointer) << st.message();
  EXPECT_NE(st.message().find("D must be 16-byte aligned"), std::string::npos) << st.message();
  EXPECT_TRUE(bool(Unaligned::can_implement(a))) << Unaligned::can_implement(a).message();

  a.D = buffer;
  a.A = reinterpret_cast<BF16 const*>(reinterpret_cast<char const*>(buffer) + 1);  // not element-aligned
  st = Unaligned::can_implement(a);
  EXPECT_EQ(st.code(), StatusCode::misaligned_pointer) << st.message();
  EXPECT_NE(st.message().find("A must be 2-byte aligned"), std::string::npos) << st.message();
}

}  // namespace
