// Shared parts of the tests of Sm80Tiles (sm80_gemm_tiles_test.cu: both operands K-major, row-major
// A and column-major B; sm80_gemm_tiles_mn_major_test.cu: both MN-major): the ragged shape sweep
// and Sm80AutoGemm run through every class of its rule. Each file instantiates one layout's tile
// set (six kernels: five tile classes and the element-aligned fallback) and runs everything it has
// on those, since a kernel costs seconds of nvcc in every translation unit that instantiates it.
#pragma once

#include <kernel/sm80_auto_gemm.hpp>

#include <string>

#include "sm80_gemm_harness.cuh"

namespace strata::test::tiles {

using T = __nv_bfloat16;

template <class Config>
using KernelOf = Sm80GemmKernel<Config, T, LinearCombination>;

// Ragged in every dimension; 1000 and 2048 in K are 16 and 32 K tiles of 64 (whole-tile steps),
// 77 a single ragged one.
inline constexpr Shape3 kShapes[] = {{1, 1, 1},        {7, 7, 7},      {129, 257, 129}, {257, 129, 1000},
                                     {1000, 1000, 1000}, {4097, 129, 77}, {1, 4097, 1000}, {300, 300, 2048}};

// The ragged sweep of kShapes on one configuration, labelled by its tile, "BMxBNxBK <what>".
template <class Config>
void sweep_tile(uint64_t seed, const char* what) {
  const std::string label = std::to_string(Config::BM) + "x" + std::to_string(Config::BN) + "x" +
                            std::to_string(Config::BK) + " " + what;
  sweep_plain_gemm<KernelOf<Config>>(kShapes, seed, label.c_str());
}

// Sm80AutoGemm: each class of its rule, chosen and run with automatic split-K and schedule, the
// way the bench runs it; beta != 0 and batches on some; every element checked.
template <class Auto, class Kernel>
void auto_gemm_case(Shape3 s, ProblemLayout layout, Sm80TileClass want, uint64_t seed, const char* what) {
  GemmProblem<Kernel, Auto> p(s, seed, layout);
  auto args = p.arguments();
  const float alpha = 1.5f, beta = layout.with_c ? -0.75f : 0.f;
  args.epilogue = LinearCombination{{alpha, beta}};
  args.split_k = 0;
  args.schedule = Schedule::automatic;
  const std::string label = std::string(what) + ", " + std::to_string(layout.batches) + " batch(es)" +
                            (layout.with_c ? ", beta" : "");
  EXPECT_EQ(Auto::tile_class(args), want) << label << " " << describe(s);
  const Status st = Auto::can_implement(args);
  ASSERT_TRUE(bool(st)) << label << " " << describe(s) << ": " << st.message();
  ASSERT_TRUE(bool(p.run(args))) << label << " " << describe(s);
  p.check([&](int i, int j, int bt, double ref) { return alpha * ref + (beta != 0 ? beta * p.source(i, j, bt) : 0.0); },
          label, alpha);
}

// One problem per class. The large class needs half a wave of 256 × 128 tiles, so its problems
// are sized from this GPU's wave (132 CTAs without a GPU, one per SM on an H200).
template <class LayoutA, class LayoutB>
void auto_gemm_classes(uint64_t seed, const char* what) {
  using Set = Sm80Tiles<T, LayoutA, LayoutB>;
  using Auto = Sm80AutoGemm<Set, T>;
  using Kernel = KernelOf<typename Set::Large>;
  const int wave = Gemm<Kernel>::split_k_wave();
  const int large_n = ((wave + 1) / 2 + 7) / 8 * 128;  // 8 tile rows of 256: at least half a wave
  auto_gemm_case<Auto, Kernel>({17, 1000, 2048}, {}, Sm80TileClass::narrow, seed + 1, what);
  auto_gemm_case<Auto, Kernel>({48, 777, 4097}, {.with_c = true}, Sm80TileClass::thin, seed + 2, what);
  auto_gemm_case<Auto, Kernel>({100, 1000, 1000}, {.batches = 3, .with_c = true}, Sm80TileClass::medium, seed + 3,
                               what);
  auto_gemm_case<Auto, Kernel>({300, 300, 2048}, {.with_c = true}, Sm80TileClass::small, seed + 4, what);
  auto_gemm_case<Auto, Kernel>({2048 - 5, large_n - 3, 333}, {}, Sm80TileClass::large, seed + 5, what);
  // Small problems that are many: their tiles over all batches count.
  const int batches = (wave + 1) / 2;  // one 256 × 128 tile each
  auto_gemm_case<Auto, Kernel>({129, 128, 64}, {.batches = batches}, Sm80TileClass::large, seed + 6, what);
  // Leading dimensions and batch strides off the 16-byte rule: the unaligned configuration.
  auto_gemm_case<Auto, Kernel>({100, 333, 1001},
                               {.batches = 2, .pad_a = 1, .pad_b = 5, .pad_c = 3, .pad_d = 7, .gap_a = 1, .with_c = true},
                               Sm80TileClass::unaligned, seed + 7, what);
}

}  // namespace strata::test::tiles
