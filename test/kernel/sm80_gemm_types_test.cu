// Ampere GEMM over the element types beside bf16 (bf16: sm80_gemm_tiles_test.cu and
// sm80_gemm_tiles_mn_major_test.cu; tf32: sm80_gemm_tf32_test.cu). Fresh random operands,
// poisoned D, every element checked against a double reference.
//
// f16 in, fp32 accumulation: f16 out in all four majorness combinations of A and B, and fp32 out
// with both operands K-major, over kEdgeShapes, within half an ulp of the output (f16 or fp32)
// plus 1e-4·Σ|a·b|. The same tile, 128 × 256 × 32 with 2 × 4 warps, in every layout: the mainloop
// of bf16 differs from this one only in the MMA instruction, so this is also the sweep of the
// mixed majornesses that bf16 runs only in the stress test. The output type changes the epilogue
// alone, which does not depend on A's and B's majorness: fp32 out runs in one layout here (and
// column-major A, row-major B in the stress test; tf32's sweeps write fp32 too).
//
// int8 in, int32 out (int32 accumulation, exact), over kEdgeShapes, and exact beyond float
// precision. int8 takes only row-major A and column-major B (Sm80GemmConfig refuses the others at
// compile time). One kernel per configuration below (each costs seconds of nvcc); one translation
// unit for both types (each costs CI ~13 s before its first kernel).
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;

using F16 = __half;

template <class LayoutA, class LayoutB, class TD>
void sweep(uint64_t seed, const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<F16, F16, LayoutA, LayoutB, 128, 256, 32, 2, 4, 4>;
  sweep_plain_gemm<Sm80GemmKernel<Config, TD, LinearCombination>>(kEdgeShapes, seed, what);
}

TEST(Sm80GemmF16, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor, F16>(11, "f16->f16 K-major A, K-major B"); }
TEST(Sm80GemmF16, RowMajorA_RowMajorB) { sweep<RowMajor, RowMajor, F16>(11, "f16->f16 K-major A, MN-major B"); }
TEST(Sm80GemmF16, ColumnMajorA_ColumnMajorB) { sweep<ColumnMajor, ColumnMajor, F16>(11, "f16->f16 MN-major A, K-major B"); }
TEST(Sm80GemmF16, ColumnMajorA_RowMajorB) { sweep<ColumnMajor, RowMajor, F16>(11, "f16->f16 MN-major A, MN-major B"); }
TEST(Sm80GemmF16F32Out, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor, float>(13, "f16->f32 K-major A, K-major B"); }

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
