// The Ampere GEMM's bad-input tests' problem and helpers (sm80_gemm_bad_input_test.cu, the refusals;
// sm80_gemm_work_limits_test.cu, the grid, workspace and schedule limits): one tile, a legal
// problem on fake pointers that are never dereferenced (refused(): common/refusal.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

// A valid 16-byte-aligned address that is never dereferenced.
template <class P>
P* fake(uintptr_t address) {
  return reinterpret_cast<P*>(address);
}

// A legal 1000 × 1000 × 512 problem (A row-major, B column-major: lda = ldb = k, ldd = ldc = n).
inline Args valid() {
  Args a;
  a.m = 1000; a.n = 1000; a.k = 512;
  a.A = fake<const T>(0x100000); a.lda = 512;
  a.B = fake<const T>(0x200000); a.ldb = 512;
  a.C = fake<const T>(0x300000); a.ldc = 1000;
  a.D = fake<T>(0x400000); a.ldd = 1000;
  a.epilogue = {{1.f, 0.f}};
  return a;
}

// Two batches at the smallest legal batch strides (for a case to break one of them).
inline void batched(Args& a) {
  a.batch_count = 2;
  a.batch_stride_a = a.lda * a.m;
  a.batch_stride_b = a.ldb * a.n;
  a.batch_stride_c = a.ldc * a.m;
  a.batch_stride_d = a.ldd * a.m;
}
}  // namespace strata::test::bad_input
