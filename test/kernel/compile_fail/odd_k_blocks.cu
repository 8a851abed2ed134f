// expect: BK must hold an even number of MMA k-blocks
// BK = 48 with column-major (MN-major) operands is three 16-deep k-blocks.
#include <collective/sm80_config.hpp>

using OddK = strata::Sm80GemmConfig<__half, __half, strata::ColumnMajor, strata::RowMajor, 128, 128, 48, 2, 2, 3>;
int threads() { return OddK::kThreads; }
