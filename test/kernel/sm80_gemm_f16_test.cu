// Ampere GEMM, f16 in, f16 out, fp32 accumulation: all four majorness combinations of A and B over
// kEdgeShapes. Fresh random operands, poisoned D, every element checked against a double
// reference within half an f16 ulp plus 1e-4·Σ|a·b|.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using F16 = __half;

template <class LayoutA, class LayoutB>
void sweep(const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<F16, F16, LayoutA, LayoutB, 128, 256, 32, 2, 4, 4>;
  sweep_plain_gemm<Sm80GemmKernel<Config, F16, LinearCombination>>(kEdgeShapes, 11, what);
}

TEST(Sm80GemmF16, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor>("f16->f16 K-major A, K-major B"); }
TEST(Sm80GemmF16, RowMajorA_RowMajorB) { sweep<RowMajor, RowMajor>("f16->f16 K-major A, MN-major B"); }
TEST(Sm80GemmF16, ColumnMajorA_ColumnMajorB) { sweep<ColumnMajor, ColumnMajor>("f16->f16 MN-major A, K-major B"); }
TEST(Sm80GemmF16, ColumnMajorA_RowMajorB) { sweep<ColumnMajor, RowMajor>("f16->f16 MN-major A, MN-major B"); }
}  // namespace
