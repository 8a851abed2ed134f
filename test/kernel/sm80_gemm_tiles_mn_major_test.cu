// The Ampere GEMM with the tiles of Sm80Tiles for column-major A and row-major B (both operands
// MN-major: shared-memory tiles stored along M and N, read with transposing ldmatrix): the ragged
// sweep on each tile (the large 256 × 128 × 64, the small 128 × 128 × 32, the sliced-K medium
// 128 × 128 × 64 and the thin 64 × 64 × 64, which also serves the narrow class: an M-major tile
// needs 64 rows), the element-aligned fallback over odd leading dimensions, and Sm80AutoGemm
// through every class. These five kernels are the ones Sm80AutoGemm<Sm80Tiles<bf16, ColumnMajor,
// RowMajor>> instantiates, and the only ones this file does (each costs seconds of nvcc per
// translation unit). Every output element is checked against a double reference; outputs are
// poisoned before each run. The K-major set, decode split-K and every path under the sanitizers
// are in sm80_gemm_tiles_test.cu.
#include <kernel/sm80_auto_gemm.hpp>

#include <type_traits>

#include "sm80_gemm_tiles.cuh"
#include "sm80_gemm_unaligned.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using namespace strata::test::tiles;
using Tiles = Sm80Tiles<T, ColumnMajor, RowMajor>;
using Unaligned = detail::Sm80UnalignedOf<Tiles>::type;

TEST(Sm80GemmTiles, Large256x128x64MnMajor) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_tile<Tiles::Large>(1400, "NT");
}

TEST(Sm80GemmTiles, Small128x128x32MnMajor) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_tile<Tiles::Small>(2500, "NT");
}

TEST(Sm80GemmTiles, Medium128x128x64SlicedKMnMajor) {
  STRATA_REQUIRE_SM(8, 0);
  static_assert(Tiles::Medium::kWarpsK == 2, "the medium tile is the sliced-K one");
  sweep_tile<Tiles::Medium>(2200, "sliced K NT");
}

TEST(Sm80GemmTiles, Thin64x64x64MnMajor) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_tile<Tiles::Thin>(2600, "NT");
}

TEST(Sm80GemmUnaligned, Bf16ColumnMajorA_RowMajorB) { unaligned_sweep<KernelOf<Unaligned>>(200, "bf16 NT"); }

// Column-major A: the narrow class runs the thin tile (an M-major tile needs 64 rows).
TEST(Sm80AutoGemm, EveryClassNT) {
  STRATA_REQUIRE_SM(8, 0);
  static_assert(std::is_same_v<Tiles::Narrow, Tiles::Thin>);
  auto_gemm_classes<ColumnMajor, RowMajor>(2100, "auto NT");
}
}  // namespace
