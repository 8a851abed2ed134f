// The huge class's configuration (Sm90Tiles::Huge: ping-pong 64 x 256, one staging buffer per
// warpgroup, 5 stages) on the shape sweep: bf16 out, and f32 out from half (eight 32-column
// sub-tiles per warpgroup through the one buffer), beta with C (its TMA loads land in that buffer),
// ragged N (the plain-store tail read back from it), whole tiles, split-K and Stream-K.
#include <gtest/gtest.h>

#include <kernel/sm90_auto_gemm.hpp>

#include "sm90_gemm_sweep.cuh"

using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;

template <class T, class TD>
using HugeKernel =
    Sm90GemmKernel<detail::Sm90Fitted<typename Sm90Tiles<T>::Huge, TD, LinearCombination>, TD, LinearCombination>;

static_assert(HugeKernel<BF16, BF16>::Config::kEpilogueBuffers == 1 && HugeKernel<BF16, BF16>::Config::Stages == 5,
              "the huge configuration keeps its five stages beside one staging buffer");

TEST(Sm90GemmHuge, Bf16) { sm90_sweep<HugeKernel<BF16, BF16>>(1300, "huge bf16"); }

TEST(Sm90GemmHuge, F16InF32Out) { sm90_sweep<HugeKernel<__half, float>>(1400, "huge f16->f32"); }

TEST(Sm90GemmHuge, Bf16SplitKAndStreamK) {
  using Kernel = HugeKernel<BF16, BF16>;
  sm90_sweep<Kernel>(
      1500, "huge bf16, split-K 3", [](Gemm<Kernel>::Arguments& a) { a.split_k = 3; }, kSm90FewTileShapes);
  sm90_sweep<Kernel>(
      1600, "huge bf16, Stream-K", [](Gemm<Kernel>::Arguments& a) { a.schedule = Schedule::stream_k; },
      kSm90FewTileShapes);
}
