// expect: Sm90Tiles: tf32 \(float\) needs K-major operands
// wgmma reads 32-bit operands only K-major: Sm90Tiles has no tf32 tiles for a column-major A
// (strata::AutoGemm sends that layout to the Ampere path instead).
#include <kernel/sm90_auto_gemm.hpp>

using Tf32Tiles = strata::Sm90Tiles<float, strata::ColumnMajor, strata::ColumnMajor>;
int rows() { return Tf32Tiles::Large::BM; }
