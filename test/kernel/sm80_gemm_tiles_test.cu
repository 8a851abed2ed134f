// The Ampere GEMM with the tiles `bench/sm80_gemm` runs (and the README's): 256 × 128 × 64 with
// 4 × 2 warps, 128 × 256 × 64 with 2 × 4, 128 × 128 × 32 with 2 × 2 (two CTAs per SM),
// and the decode tiles 64 × 128 × 64, 64 × 64 × 64 (1 × 4 warps, 6 stages) and 32 × 64 × 64 (1 × 4
// warps, 8 stages). BK = 64 gives four k-blocks per K tile
// (both register-fragment slots reused twice), and K long enough for the branch-free whole-tile
// steps of the mainloop to run before the checked ones; the large tile also in all four operand
// layouts. Decode shapes go through automatic, serial and parallel split-K. Every output element
// is checked against a double reference; outputs are poisoned before each run.
#include "sm80_gemm_harness.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using T = __nv_bfloat16;

template <class LayoutA, class LayoutB, int BM, int BN, int BK, int WM, int WN, int Stages>
using KernelFor = Sm80GemmKernel<Sm80GemmConfig<T, T, LayoutA, LayoutB, BM, BN, BK, WM, WN, Stages>, T, LinearCombination>;

// Ragged in every dimension; 1000 and 2048 in K are 16 and 32 K tiles of 64 (whole-tile steps),
// 77 a single ragged one.
const Shape3 kShapes[] = {{1, 1, 1},        {7, 7, 7},      {129, 257, 129}, {257, 129, 1000},
                          {1000, 1000, 1000}, {4097, 129, 77}, {1, 4097, 1000}, {300, 300, 2048}};

// Decode: few rows, long K, split automatically, serially and in parallel.
template <class Kernel>
void decode_split_k(uint64_t seed, const char* what) {
  for (Shape3 s : {Shape3{1, 1000, 4097}, Shape3{16, 4103, 2048}, Shape3{100, 1000, 4097}}) {
    for (SplitKMode mode : {SplitKMode::automatic, SplitKMode::serial, SplitKMode::parallel}) {
      GemmProblem<Kernel> p(s, seed += 7);
      auto args = p.arguments();
      args.epilogue = {{1.f, 0.f}};
      args.split_k = mode == SplitKMode::automatic ? 0 : 4;
      args.split_k_mode = mode;
      const std::string label = std::string(what) + (mode == SplitKMode::automatic ? ", split-K automatic"
                                                     : mode == SplitKMode::serial  ? ", split-K 4 serial"
                                                                                   : ", split-K 4 parallel");
      ASSERT_TRUE(bool(Gemm<Kernel>::can_implement(args))) << label << " " << describe(s);
      ASSERT_TRUE(bool(p.run(args))) << label << " " << describe(s);
      p.check([](int, int, int, double ref) { return ref; }, label);
    }
  }
}

TEST(Sm80GemmTiles, Large256x128x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_plain_gemm<KernelFor<RowMajor, ColumnMajor, 256, 128, 64, 4, 2, 3>>(kShapes, 1100, "256x128x64 TN");
  sweep_plain_gemm<KernelFor<RowMajor, RowMajor, 256, 128, 64, 4, 2, 3>>(kShapes, 1200, "256x128x64 TT");
  sweep_plain_gemm<KernelFor<ColumnMajor, ColumnMajor, 256, 128, 64, 4, 2, 3>>(kShapes, 1300, "256x128x64 NN");
  sweep_plain_gemm<KernelFor<ColumnMajor, RowMajor, 256, 128, 64, 4, 2, 3>>(kShapes, 1400, "256x128x64 NT");
}

TEST(Sm80GemmTiles, Large128x256x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_plain_gemm<KernelFor<RowMajor, ColumnMajor, 128, 256, 64, 2, 4, 3>>(kShapes, 1500, "128x256x64 TN");
}

// A TN tile the bench runs below one large wave or on decode shapes: the ragged sweep, then the
// decode shapes through every split-K mode.
template <int BM, int BN, int BK, int WM, int WN, int Stages>
void sweep_and_decode(uint64_t seed, const char* what) {
  using Kernel = KernelFor<RowMajor, ColumnMajor, BM, BN, BK, WM, WN, Stages>;
  sweep_plain_gemm<Kernel>(kShapes, seed, what);
  decode_split_k<Kernel>(seed + 50, what);
}

TEST(Sm80GemmTiles, Small128x128x32) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_and_decode<128, 128, 32, 2, 2, 4>(1600, "128x128x32");
}

TEST(Sm80GemmTiles, Medium64x128x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_and_decode<64, 128, 64, 2, 2, 4>(1700, "64x128x64");
}

TEST(Sm80GemmTiles, Thin64x64x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_and_decode<64, 64, 64, 1, 4, 6>(1900, "64x64x64");
}

TEST(Sm80GemmTiles, Narrow32x64x64) {
  STRATA_REQUIRE_SM(8, 0);
  sweep_and_decode<32, 64, 64, 1, 4, 8>(1800, "32x64x64");
}
}  // namespace
