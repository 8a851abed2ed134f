// expect: int8 GEMMs need K-major operands
// An int8 GEMM with a column-major A: the 8-bit tensor-core fragments want K-major operands.
#include <collective/sm80_config.hpp>

using ColumnMajorInt8 =
    strata::Sm80GemmConfig<int8_t, int8_t, strata::ColumnMajor, strata::ColumnMajor, 128, 128, 64, 2, 2, 4>;
int threads() { return ColumnMajorInt8::kThreads; }
