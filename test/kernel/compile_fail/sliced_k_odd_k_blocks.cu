// expect: with WarpsK > 1, BK / .WarpsK . atom K. is what must be even
// BK = 32 over two K slices of 16-deep MMAs leaves each warp one k-block per K tile: the register
// fragments alternate between two, so the configuration is refused.
#include <collective/sm80_config.hpp>

using OneKBlock = strata::Sm80GemmConfig<__half, __half, strata::RowMajor, strata::ColumnMajor, 128, 128, 32, 2, 2, 4, 2>;
int threads() { return OneKBlock::kThreads; }
