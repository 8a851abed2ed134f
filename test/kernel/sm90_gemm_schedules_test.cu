// The Hopper GEMM's schedules and clusters: ping-pong consumer warpgroups, and 2 × 1 and 1 × 2
// clusters whose CTAs multicast the operand they share (K-major and MN-major boxes), through the
// shape sweep of sm90_gemm_sweep.cuh. Cluster launches need a GPU that supports them (any 9.0).
#include "sm90_gemm_sweep.cuh"

namespace {
using namespace strata;
using namespace strata::test;
using BF16 = __nv_bfloat16;
using C = ColumnMajor;
using R = RowMajor;
constexpr auto pingpong = Sm90Schedule::pingpong;
constexpr auto cooperative = Sm90Schedule::cooperative;

TEST(Sm90GemmSchedules, Pingpong_Bf16_128x128) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 128, pingpong>, BF16, LinearCombination>>(210,
                                                                                                       "ping-pong");
}
TEST(Sm90GemmSchedules, Cluster2x1_Bf16_128x256) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, C, 128, 256, cooperative, 2, 1>, BF16, LinearCombination>>(
      220, "cluster 2x1");
}
TEST(Sm90GemmSchedules, Cluster1x2_Pingpong_BRowMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<BF16, R, R, 64, 256, pingpong, 1, 2>, BF16, LinearCombination>>(
      230, "cluster 1x2 ping-pong, B row-major");
}
TEST(Sm90GemmSchedules, Cluster2x1_F16_AColumnMajor) {
  sm90_sweep<Sm90GemmKernel<Sm90TestConfig<__half, C, C, 128, 128, cooperative, 2, 1>, float, LinearCombination>>(
      240, "cluster 2x1, A column-major, f32 out");
}

}  // namespace
