// The Ampere GEMM's bad-input tests' problem and helpers (sm80_gemm_bad_input_test.cu, the refusals;
// sm80_gemm_work_limits_test.cu, the grid, workspace and schedule limits): one tile, a legal
// problem on fake pointers that are never dereferenced (common/refusal.hpp).
#pragma once

#include "common/refusal.hpp"
#include "sm80_gemm_harness.cuh"

namespace strata::test::bad_input {
using namespace strata;
using namespace strata::test;
using T = __nv_bfloat16;
using Config = Sm80GemmConfig<T, T, RowMajor, ColumnMajor, 128, 256, 32, 2, 4, 4>;
using Kernel = Sm80GemmKernel<Config, T, LinearCombination>;
using G = Gemm<Kernel>;
using Args = G::Arguments;

inline Args valid() { return legal_problem<Args>(); }
inline void batched(Args& a) { two_batches(a); }
}  // namespace strata::test::bad_input
