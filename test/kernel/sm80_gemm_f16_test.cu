// Ampere GEMM, f16 in, fp32 accumulation: f16 out in all four majorness combinations of A and B,
// and fp32 out with both operands K-major, over kEdgeShapes. Fresh random operands, poisoned D,
// every element checked against a double reference within half an ulp of the output (f16 or
// fp32) plus 1e-4·Σ|a·b|.
//
// The same tile, 128 × 256 × 32 with 2 × 4 warps, in every layout: the mainloop of bf16 differs
// from this one only in the MMA instruction, so this is also the sweep of the mixed majornesses
// that bf16 runs only in the stress test (its K-major and MN-major tiles are in
// sm80_gemm_tiles_test.cu and sm80_gemm_tiles_mn_major_test.cu). The output type changes the
// epilogue alone, which does not depend on A's and B's majorness: fp32 out runs in one layout here
// (and column-major A, row-major B in the stress test; tf32's sweeps write fp32 too). One kernel
// per line below (each costs seconds of nvcc).
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using F16 = __half;

template <class LayoutA, class LayoutB, class TD>
void sweep(uint64_t seed, const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  using Config = Sm80GemmConfig<F16, F16, LayoutA, LayoutB, 128, 256, 32, 2, 4, 4>;
  sweep_plain_gemm<Sm80GemmKernel<Config, TD, LinearCombination>>(kEdgeShapes, seed, what);
}

TEST(Sm80GemmF16, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor, F16>(11, "f16->f16 K-major A, K-major B"); }
TEST(Sm80GemmF16, RowMajorA_RowMajorB) { sweep<RowMajor, RowMajor, F16>(11, "f16->f16 K-major A, MN-major B"); }
TEST(Sm80GemmF16, ColumnMajorA_ColumnMajorB) { sweep<ColumnMajor, ColumnMajor, F16>(11, "f16->f16 MN-major A, K-major B"); }
TEST(Sm80GemmF16, ColumnMajorA_RowMajorB) { sweep<ColumnMajor, RowMajor, F16>(11, "f16->f16 MN-major A, MN-major B"); }
TEST(Sm80GemmF16F32Out, RowMajorA_ColumnMajorB) { sweep<RowMajor, ColumnMajor, float>(13, "f16->f32 K-major A, K-major B"); }
}  // namespace
