// The GEMM stress test (gemm_stress.cuh), bf16 in / bf16 out. Row-major A, column-major B runs
// Sm80AutoGemm over Sm80Tiles: all six of its configurations (the five tile classes and the
// element-aligned fallback), chosen per problem. The other majornesses run Gemm<Kernel> of one
// tile each, a different one per majorness so that MN-major operands meet tiles of several
// shapes (Small, Thin, sliced-K Medium). Why not Sm80AutoGemm in all four: each configuration
// costs 13-30 s of nvcc (mostly cicc), and the stress test's budget is about 4 minutes of compile
// on CI's 2 cores.
#include "gemm_stress.cuh"

namespace {
using namespace strata;
using namespace strata::stress;
using T = __nv_bfloat16;
template <class LayoutA, class LayoutB>
using Tiles = Sm80Tiles<T, LayoutA, LayoutB>;
template <class Config>
using GemmOf = Gemm<Sm80GemmKernel<Config, T, LinearCombination>>;

TEST(GemmStress, Bf16) {
  STRATA_REQUIRE_SM(8, 0);
  run_stress("GemmStress.Bf16", {TypeSet::bf16}, [](Problem const& p, Buffers& b, Stats& s) {
    if (p.a_row_major && !p.b_row_major)
      return run_problem<Sm80AutoGemm<Tiles<RowMajor, ColumnMajor>, T>>(p, "Sm80AutoGemm<Sm80Tiles<bf16>>", true, b, s);
    if (p.a_row_major)
      return run_problem<GemmOf<Tiles<RowMajor, RowMajor>::Small>>(p, "Gemm<Small 128x128x32>", false, b, s);
    if (p.b_row_major)
      return run_problem<GemmOf<Tiles<ColumnMajor, RowMajor>::Thin>>(p, "Gemm<Thin 64x64x64>", false, b, s);
    return run_problem<GemmOf<Tiles<ColumnMajor, ColumnMajor>::Medium>>(p, "Gemm<Medium 128x128x64, 2 K slices>",
                                                                         false, b, s);
  });
}
}  // namespace
