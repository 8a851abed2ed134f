// Ampere GEMM, int8 in with int32 out (int32 accumulation, exact), over kEdgeShapes, and exact
// beyond float precision. int8 takes only row-major A and column-major B (Sm80GemmConfig refuses
// the others at compile time). f16 (f16 and fp32 out) is in sm80_gemm_f16_test.cu, tf32 in
// sm80_gemm_tf32_test.cu, bf16 in sm80_gemm_tiles_test.cu and sm80_gemm_tiles_mn_major_test.cu.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;

// int8: a K-major row of BK bytes must fill 64-byte swizzle atoms, so BK = 64.
TEST(Sm80GemmTypes, Int8InInt32Out_RowMajorA_ColumnMajorB) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<int8_t, int8_t, RowMajor, ColumnMajor, 128, 128, 64, 2, 2, 4>;
  sweep_plain_gemm<Sm80GemmKernel<Config, int32_t, LinearCombination>>(kEdgeShapes, 11, "s8->s32");
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
