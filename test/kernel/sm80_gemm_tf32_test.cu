// Ampere GEMM on fp32 operands through tf32 tensor cores (fp32 out, fp32 accumulation): K-major A
// and B (ldmatrix) and both MN-major (element-wise shared -> register copies), over a shape sweep
// with 1, 7, 129, 1000 and 4097 in every dimension. Every element is checked against a double
// reference within 2^-23·|ref| + 2^-9·Σ|a·b| (the inputs are rounded to 10 mantissa bits).
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;

const Shape3 kShapes[] = {{1, 1, 1},     {7, 7, 7},       {129, 129, 129},  {1000, 7, 4097}, {7, 1000, 129},
                          {4097, 129, 7}, {129, 4097, 1000}, {1, 1000, 4097}, {1000, 129, 1}};

template <class LayoutA, class LayoutB>
void sweep(const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<float, float, LayoutA, LayoutB, 128, 128, 32, 2, 2, 3>;
  using Kernel = Sm80GemmKernel<Config, float, LinearCombination>;
  sweep_plain_gemm<Kernel>(kShapes, 23, what);
}

TEST(Sm80GemmTf32, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor>("tf32 K-major A, K-major B"); }
TEST(Sm80GemmTf32, ColumnMajorA_RowMajorB) { sweep<ColumnMajor, RowMajor>("tf32 MN-major A, MN-major B"); }
}  // namespace
