// Ampere GEMM, element types other than bf16: f16 in with f32 and f16 out, int8 in with int32 out
// (fp32 and int32 accumulation), over a shape sweep with 1, 7, 129, 1000 and 4097 in every
// dimension. Fresh random operands, poisoned D, every element checked against a double reference:
// f16 out within half an ulp plus 1e-4·Σ|a·b|, f32 out within 2^-23 plus the same, int32 exactly.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;

const Shape3 kShapes[] = {{1, 1, 1},     {7, 7, 7},       {129, 129, 129},  {1000, 7, 4097}, {7, 1000, 129},
                          {4097, 129, 7}, {129, 4097, 1000}, {1, 1000, 4097}, {1000, 129, 1}};

template <class Kernel>
void sweep(const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_plain_gemm<Kernel>(kShapes, 11, what);
}

using F16 = __half;

TEST(Sm80GemmTypes, F16InF32Out_RowMajorA_ColumnMajorB) {
  using Config = Sm80GemmConfig<F16, F16, RowMajor, ColumnMajor, 128, 256, 32, 2, 4, 4>;
  sweep<Sm80GemmKernel<Config, float, LinearCombination>>("f16->f32");
}

TEST(Sm80GemmTypes, F16InF16Out_RowMajorA_ColumnMajorB) {
  using Config = Sm80GemmConfig<F16, F16, RowMajor, ColumnMajor, 128, 256, 32, 2, 4, 4>;
  sweep<Sm80GemmKernel<Config, F16, LinearCombination>>("f16->f16");
}

// int8: a K-major row of BK bytes must fill 64-byte swizzle atoms, so BK = 64.
TEST(Sm80GemmTypes, Int8InInt32Out_RowMajorA_ColumnMajorB) {
  using Config = Sm80GemmConfig<int8_t, int8_t, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4>;
  sweep<Sm80GemmKernel<Config, int32_t, LinearCombination>>("s8->s32");
}

// int32 outputs must be exact however large: here every dot product is 127 · 127 · 4097 =
// 66,080,513, which needs 26 significant bits (a float carries 24).
TEST(Sm80GemmTypes, Int8InInt32Out_ExactBeyondFloatPrecision) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<int8_t, int8_t, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4>;
  using Kernel = Sm80GemmKernel<Config, int32_t, LinearCombination>;
  GemmProblem<Kernel> p({130, 136, 4097}, 5);
  std::fill(p.a.begin(), p.a.end(), int8_t(127));
  std::fill(p.b.begin(), p.b.end(), int8_t(127));
  p.dA.upload(p.a);
  p.dB.upload(p.b);
  p.compute_reference();
  auto args = p.arguments();
  args.epilogue = {{1.f, 0.f}};
  ASSERT_TRUE(bool(p.run(args)));
  p.check([](int, int, int, double ref) { return ref; }, "s8->s32 beyond 2^24");
}
}  // namespace
