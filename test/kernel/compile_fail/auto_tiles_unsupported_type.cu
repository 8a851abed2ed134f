// expect: the element type must be half, bfloat16, float
// Sm80Tiles has no tiles for double: the Ampere tensor-core path has no fp64 GEMM here.
#include <kernel/sm80_auto_gemm.hpp>

using DoubleTiles = strata::Sm80Tiles<double>;
int rows() { return DoubleTiles::Large::BM; }
