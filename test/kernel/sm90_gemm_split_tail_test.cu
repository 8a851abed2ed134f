// The split tail (Sm90GemmConfig's SplitTail, collective/sm90_mainloop.hpp): the last K tiles of
// a unit computed one column half after the other, the epilogue staging the left half while the
// right half's wgmma run. Through the shape sweep of sm90_gemm_sweep.cuh (K = 0, units shorter
// than the tail, ragged edges, beta, batches; every element against a double reference):
//  - bf16 128 × 256, K-major, tail 2, TMA stores: alone, under serial split-K 3 and Stream-K
//    (units whose other K parts are added before the epilogue), and rerun on one initialization;
//  - bf16 128 × 256 with MN-major A and B (the right half's descriptors inside 64-row blocks), tail 3;
//  - fp16 in, fp32 out, 128 × 128, tail 1 (eight 32-column sub-tiles: the right half from the third);
//  - tf32 128 × 128, tail 2 (wgmma k8; the halves 64 columns, two sub-tiles of 32 floats each).
#include <kernel/sm90_auto_gemm.hpp>  // detail::Sm90Fitted

#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;

template <class T, class LA, class LB, int BM, int BN, int Tail>
using TailConfig = typename Sm90TestConfig<T, LA, LB, BM, BN>::template WithSplitTail<Tail>;

using Bf16Tail2 = Sm90GemmKernel<TailConfig<BF16, R, C, 128, 256, 2>, BF16, LinearCombination>;

TEST(Sm90GemmSplitTail, Bf16_128x256) { sm90_sweep<Bf16Tail2>(1010, "bf16 128x256, split tail 2"); }

TEST(Sm90GemmSplitTail, Bf16_128x256_SplitKAndStreamK) {
  sm90_sweep<Bf16Tail2>(1020, "split tail 2, split-K 3",
                        [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::serial; });
  sm90_sweep<Bf16Tail2>(1030, "split tail 2, Stream-K", [](auto& a) { a.schedule = Schedule::stream_k; });
  sm90_sweep<Bf16Tail2>(1040, "split tail 2, automatic", [](auto& a) { a.split_k = 0, a.schedule = Schedule::automatic; },
                        kSm90FewTileShapes);
}

TEST(Sm90GemmSplitTail, RerunWithoutInitializing) {
  rerun_without_initializing<Bf16Tail2>(1050, [](Gemm<Bf16Tail2>::Arguments& a) { a.schedule = Schedule::stream_k; });
}

TEST(Sm90GemmSplitTail, Bf16_128x256_MnMajor) {
  using Kernel = Sm90GemmKernel<TailConfig<BF16, C, R, 128, 256, 3>, BF16, LinearCombination>;
  sm90_sweep<Kernel>(1060, "bf16 128x256 MN-major A and B, split tail 3");
}

TEST(Sm90GemmSplitTail, F16InF32Out_128x128) {
  using Kernel =
      Sm90GemmKernel<detail::Sm90Fitted<TailConfig<__half, R, C, 128, 128, 1>, float, LinearCombination>, float,
                     LinearCombination>;
  static_assert(Kernel::Config::kSplitTail == 1);
  sm90_sweep<Kernel>(1070, "f16->f32 128x128, split tail 1");
}

TEST(Sm90GemmSplitTail, Tf32_128x128) {
  using Kernel = Sm90GemmKernel<TailConfig<float, R, C, 128, 128, 2>, float, LinearCombination>;
  sm90_sweep<Kernel>(1080, "tf32 128x128, split tail 2");
}

// The configuration's name says it; a tail of 0 is the configuration without one; fitting keeps it.
TEST(Sm90GemmSplitTail, Names) {
  using Tail2 = TailConfig<BF16, R, C, 128, 256, 2>;
  EXPECT_EQ(detail::sm90_config_name<Tail2>(),
            "cooperative 128x256x64, 4 stages, cluster 1x1, split tail 2");
  static_assert(std::is_same_v<TailConfig<BF16, R, C, 128, 256, 0>, Sm90TestConfig<BF16, R, C, 128, 256>>);
  // Fewer stages (AutoGemm fitting a tile beside its epilogue) keep the tail, at most Stages - 1.
  static_assert(detail::Sm90WithStages<TailConfig<BF16, R, C, 128, 256, 3>, 3>::type::kSplitTail == 2);
  static_assert(detail::Sm90WithStages<TailConfig<BF16, R, C, 128, 256, 2>, 3>::type::kSplitTail == 2);
}

}  // namespace
