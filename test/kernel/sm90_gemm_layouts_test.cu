// The Hopper GEMM over every operand majorness wgmma reads (MN-major A or B for 16-bit types)
// and over tf32 (fp32 in, K-major), through the shape sweep of sm90_gemm_sweep.cuh.
#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;

TEST(Sm90GemmLayouts, Bf16_AColumnMajor_BColumnMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, C, C, 128, 256>, BF16, LinearCombination>>(110, "bf16 A col B col");
}
TEST(Sm90GemmLayouts, Bf16_ARowMajor_BRowMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, R, 128, 128>, BF16, LinearCombination>>(120, "bf16 A row B row");
}
TEST(Sm90GemmLayouts, F16_AColumnMajor_BRowMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<__half, C, R, 128, 192>, __half, LinearCombination>>(130, "f16 A col B row");
}
TEST(Sm90GemmLayouts, Tf32_128x128) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<float, R, C, 128, 128>, float, LinearCombination>>(140, "tf32 128x128");
}

}  // namespace
