// Ampere GEMM on fp32 operands through tf32 tensor cores, the mixed majorness: one operand K-major
// (ldmatrix), the other MN-major (element-wise shared -> register copies), over kEdgeShapes, with
// the reference and tolerance of sm80_gemm_tf32_test.cu (inputs truncated to tf32, k·2^-23·Σ|a·b|).
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;

template <class LayoutA, class LayoutB>
void sweep(const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<float, float, LayoutA, LayoutB, 128, 128, 32, 2, 2, 3>;
  sweep_plain_gemm<Sm80GemmKernel<Config, float, LinearCombination>>(kEdgeShapes, 29, what);
}

TEST(Sm80GemmTf32, RowMajorA_RowMajorB) { sweep<RowMajor, RowMajor>("tf32 K-major A, MN-major B"); }
TEST(Sm80GemmTf32, ColumnMajorA_ColumnMajorB) { sweep<ColumnMajor, ColumnMajor>("tf32 MN-major A, K-major B"); }
}  // namespace
