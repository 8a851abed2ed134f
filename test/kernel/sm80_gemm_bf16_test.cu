// Ampere GEMM, bf16 in, bf16 out, fp32 accumulation: all four majorness combinations of A and B
// over a shape sweep with ragged edges in every dimension. Every output element is checked.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using T = __nv_bfloat16;

const Shape3 kShapes[] = {{1, 1, 1},     {7, 7, 7},      {129, 129, 129}, {1000, 7, 129}, {7, 1000, 4097},
                          {129, 4097, 7}, {4097, 129, 1}, {1000, 1000, 1000}, {1, 4097, 1000}, {4097, 1, 129}};

template <class LayoutA, class LayoutB>
void sweep() {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<T, T, LayoutA, LayoutB, 128, 256, 32, 2, 4, 4>;
  sweep_plain_gemm<Sm80GemmKernel<Config, T, LinearCombination>>(kShapes, 1, "bf16");
}

TEST(Sm80GemmBf16, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor>(); }
TEST(Sm80GemmBf16, RowMajorA_RowMajorB) { sweep<RowMajor, RowMajor>(); }
TEST(Sm80GemmBf16, ColumnMajorA_ColumnMajorB) { sweep<ColumnMajor, ColumnMajor>(); }
TEST(Sm80GemmBf16, ColumnMajorA_RowMajorB) { sweep<ColumnMajor, RowMajor>(); }
}  // namespace
