// The GEMM stress test (gemm_stress.cuh) on the Hopper path, bf16 in / bf16 out. Row-major A,
// column-major B runs Sm90AutoGemm over Sm90Tiles (small 64x128, medium 128x128, large 128x256,
// chosen per problem; the automatic schedule takes split-K for few-tile problems); the other
// majornesses run Gemm<Sm90GemmKernel> of one configuration each, a different one per majorness
// (cooperative 128x128, ping-pong 128x128, cooperative 64x128 in 2 x 1 clusters), to keep the
// unit's compile time to six kernels. The clustered one takes no Stream-K (refused with clusters):
// its Stream-K draws run the automatic schedule, so split-K with clusters comes often.
// Differences from the Ampere runs of the same problems, each because the Hopper kernel differs:
// every split-K mode becomes serial (the Hopper kernel adds partial tiles inside the GEMM, refuses
// SplitKMode::parallel; serial also names it right in the report), except that every other TN
// problem through Sm90AutoGemm keeps SplitKMode::automatic, under which its decode classes add an
// even split's halves in K pairs (2-CTA clusters, distributed shared memory) where they can, and
// serial keeps the workspace, so both paths come often; and
// every third problem has M cut to 1..128, a decode shape (the drawn N
// and K kept), so that few-tile Stream-K and split-K problems come often. One TN problem in four
// runs Sm90Tiles' Huge configuration (ping-pong 64x256, one staging buffer) directly: AutoGemm
// takes it only from 1056 large tiles, more than the stress test's operand bound allows, and it is
// the same kernel AutoGemm instantiates, so nothing more is compiled.
#include "gemm_stress.cuh"

#include <kernel/sm90_auto_gemm.hpp>

namespace {
using namespace strata;
using namespace strata::stress;
using T = __nv_bfloat16;


template <class LayoutA, class LayoutB, int BM, Sm90Schedule S, int ClusterM = 1>
using GemmOf = Gemm<Sm90GemmKernel<Sm90GemmConfig<T, LayoutA, LayoutB, BM, 128, 64, BM == 64 ? 8 : 6, S, ClusterM>, T,
                                   LinearCombination>>;

using HugeGemm =
    Gemm<Sm90GemmKernel<strata::detail::Sm90Fitted<Sm90Tiles<T>::Huge, T, LinearCombination>, T, LinearCombination>>;

Problem on_hopper(Problem p) {
  p.split_k_mode = SplitKMode::serial;
  // Fewer rows keep every leading dimension, stride and offset valid (each was drawn for more).
  if (p.index % 3 == 0) p.m = std::min(p.m, 1 + int(mix64(p.seed ^ uint64_t(p.index)) % 128));
  return p;
}

TEST(GemmStress, Bf16Sm90) {
  if (std::string why = strata::test::compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  run_stress("GemmStress.Bf16Sm90", {TypeSet::bf16}, [](Problem const& drawn, Buffers& b, Stats& s) {
    const Problem p = on_hopper(drawn);
    if (p.a_row_major && !p.b_row_major && p.index % 4 == 1)
      return run_problem<HugeGemm>(p, "Gemm<Sm90Tiles<bf16>::Huge: ping-pong 64x256, 1 staging buffer>", false, b, s);
    if (p.a_row_major && !p.b_row_major) {
      Problem q = p;
      if (q.index % 2 == 0) q.split_k_mode = SplitKMode::automatic;  // K pairs where the decode classes split
      return run_problem<Sm90AutoGemm<Sm90Tiles<T>, T>>(q, "Sm90AutoGemm<Sm90Tiles<bf16>> TN", false, b, s);
    }
    if (p.a_row_major)
      return run_problem<GemmOf<RowMajor, RowMajor, 128, Sm90Schedule::cooperative>>(p, "Gemm<cooperative 128x128>",
                                                                                    false, b, s);
    if (p.b_row_major)
      return run_problem<GemmOf<ColumnMajor, RowMajor, 128, Sm90Schedule::pingpong>>(p, "Gemm<ping-pong 128x128>",
                                                                                    false, b, s);
    Problem q = p;
    if (q.schedule == Schedule::stream_k) q.schedule = Schedule::automatic;
    return run_problem<GemmOf<ColumnMajor, ColumnMajor, 64, Sm90Schedule::cooperative, 2>>(
        q, "Gemm<cooperative 64x128, cluster 2x1>", false, b, s);
  });
}
}  // namespace
