// The GEMM stress test (gemm_stress.cuh), tf32 (fp32 in / fp32 out) and int8 in / int32 out, both
// row-major A and column-major B (int8's only layout), through Gemm<Kernel> of Sm80Tiles' one tile
// for each type (128 x 128 x 32 with 3 stages, and 128 x 128 x 64 with 4): problems that break the
// 16-byte rule are refused here, and counted. One majorness and no Sm80AutoGemm (whose
// element-aligned fallback would add a configuration each) to keep within the stress test's
// compile budget (about 4 minutes on CI's 2 cores): a tf32 configuration costs about 25 s of
// nvcc, twice a 16-bit one (twice the MMAs per K tile). sm80_gemm_tf32_test.cu and
// sm80_gemm_unaligned_test.cu sweep the other majornesses and the element-aligned configurations.
#include "gemm_stress.cuh"

namespace {
using namespace strata;
using namespace strata::stress;

TEST(GemmStress, Tf32) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80Tiles<float, RowMajor, ColumnMajor>::Small;
  run_stress("GemmStress.Tf32", {TypeSet::tf32}, [](Problem const& p, Buffers& b, Stats& s) {
    return run_problem<Gemm<Sm80GemmKernel<Config, float, LinearCombination>>>(p, "Gemm<128x128x32>", false, b, s);
  });
}

TEST(GemmStress, Int8) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80Tiles<int8_t, RowMajor, ColumnMajor>::Small;
  run_stress("GemmStress.Int8", {TypeSet::int8}, [](Problem const& p, Buffers& b, Stats& s) {
    return run_problem<Gemm<Sm80GemmKernel<Config, int32_t, LinearCombination>>>(p, "Gemm<128x128x64>", false, b, s);
  });
}
}  // namespace
