// expect: every configuration of the tile set must have the same element types and layouts
// A tile set whose small tile reads A column-major while the others read it row-major: one
// Arguments value cannot describe both, so Sm80AutoGemm refuses the set.
#include <kernel/sm80_auto_gemm.hpp>

struct MixedTiles : strata::Sm80Tiles<__half> {
  using Small = strata::Sm80GemmConfig<__half, __half, strata::ColumnMajor, strata::ColumnMajor, 128, 128, 32, 2, 2, 4>;
};
using Mixed = strata::Sm80AutoGemm<MixedTiles, __half>;
int tile_class() { return int(Mixed::tile_class(Mixed::Arguments{})); }
