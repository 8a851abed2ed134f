// Ampere GEMM, f16 in, fp32 out and accumulation: all four majorness combinations of A and B over
// kEdgeShapes. Fresh random operands, poisoned D, every element checked against a double
// reference within 2^-23·|ref| plus 1e-4·Σ|a·b|.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using F16 = __half;

template <class LayoutA, class LayoutB>
void sweep(const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<F16, F16, LayoutA, LayoutB, 128, 256, 32, 2, 4, 4>;
  sweep_plain_gemm<Sm80GemmKernel<Config, float, LinearCombination>>(kEdgeShapes, 13, what);
}

TEST(Sm80GemmF16F32Out, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor>("f16->f32 K-major A, K-major B"); }
TEST(Sm80GemmF16F32Out, RowMajorA_RowMajorB) { sweep<RowMajor, RowMajor>("f16->f32 K-major A, MN-major B"); }
TEST(Sm80GemmF16F32Out, ColumnMajorA_ColumnMajorB) { sweep<ColumnMajor, ColumnMajor>("f16->f32 MN-major A, K-major B"); }
TEST(Sm80GemmF16F32Out, ColumnMajorA_RowMajorB) { sweep<ColumnMajor, RowMajor>("f16->f32 MN-major A, MN-major B"); }
}  // namespace
