// The GEMM stress test (gemm_stress.cuh) for the element types beside bf16, one translation unit
// (the stress harness's host code is compiled once for all three):
//  - fp16 in with fp16 out (row-major A, column-major B: both K-major) and fp32 out (column-major
//    A, row-major B: both MN-major), through Gemm<Kernel> of Sm80Tiles' Small tile (128 x 128 x
//    32, 4 stages). Not every majorness nor Sm80AutoGemm here: the tile classes and majornesses
//    run in the bf16 file, whose mainloop differs from fp16's only in the MMA instruction;
//  - tf32 (fp32 in / fp32 out) and int8 in / int32 out, both row-major A and column-major B
//    (int8's only layout), through Gemm<Kernel> of Sm80Tiles' one tile for each type (128 x 128 x
//    32 with 3 stages, and 128 x 128 x 64 with 4): problems that break the 16-byte rule are
//    refused here, and counted. One majorness and no Sm80AutoGemm (whose element-aligned
//    fallback would add a configuration each): a tf32 configuration costs about twice the nvcc
//    time of a 16-bit one (twice the MMAs per K tile). sm80_gemm_tf32_test.cu and
//    sm80_gemm_unaligned_test.cu sweep the other majornesses and the element-aligned
//    configurations.
// Each configuration costs seconds of nvcc, and the stress test's share of CI's compile time on 2
// cores is kept to about two minutes.
#include "gemm_stress.cuh"

namespace {
using namespace strata;
using namespace strata::stress;
using F16 = __half;
template <class LayoutA, class LayoutB, class TD>
using SmallGemm = Gemm<Sm80GemmKernel<typename Sm80Tiles<F16, LayoutA, LayoutB>::Small, TD, LinearCombination>>;

TEST(GemmStress, F16) {
  STRATA_REQUIRE_SM(8, 0);
  run_stress("GemmStress.F16", {TypeSet::f16, TypeSet::f16_f32}, [](Problem const& p, Buffers& b, Stats& s) {
    const char* name = "Gemm<Small 128x128x32>";
    if (p.types == TypeSet::f16 && p.a_row_major && !p.b_row_major)
      return run_problem<SmallGemm<RowMajor, ColumnMajor, F16>>(p, name, false, b, s);
    if (p.types == TypeSet::f16_f32 && !p.a_row_major && p.b_row_major)
      return run_problem<SmallGemm<ColumnMajor, RowMajor, float>>(p, name, false, b, s);
    throw std::logic_error("GemmStress.F16: no GEMM for this problem's types and majorness");
  });
}

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
