// The GEMM stress test (gemm_stress.cuh), fp16 in with fp16 out (row-major A, column-major B:
// both K-major) and fp32 out (column-major A, row-major B: both MN-major), through Gemm<Kernel> of
// Sm80Tiles' Small tile (128 x 128 x 32, 4 stages). Not every majorness nor Sm80AutoGemm here:
// the tile classes and majornesses run in the bf16 file, whose mainloop differs from fp16's only
// in the MMA instruction, and each configuration costs 13-30 s of nvcc (the stress test's budget
// is about 4 minutes of compile on CI's 2 cores).
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
}  // namespace
