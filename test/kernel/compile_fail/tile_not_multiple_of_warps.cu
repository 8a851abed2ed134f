// expect: the tile must be a multiple of warps x atoms
// BN = 96 is not a multiple of 4 warps x 2 atoms x 8 columns (64).
#include <collective/sm80_config.hpp>

using Ragged = strata::Sm80GemmConfig<__half, __half, strata::RowMajor, strata::ColumnMajor, 128, 96, 32, 2, 4, 3>;
int threads() { return Ragged::kThreads; }
