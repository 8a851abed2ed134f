// GPU tests (H200; skipped elsewhere) of the bf16 -> f32 wgmma atoms, A and B both from shared
// memory (SS), K-major with the 128-byte swizzle: every N of the test set, the three ways the
// accumulators can start (overwritten by scale-d false, accumulated into, cleared for the generic
// gemm(tiled_mma, ...)), and two warpgroups stacked along M. Harness and tolerances:
// wgmma_sm90_harness.cuh.
#include "wgmma_sm90_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test::wgmma;
constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr double tol = 1e-5;

template <int N>
void check_n(uint64_t seed) {
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<N>, 1, 64, sw128, sw128>(tol, seed, "N = " + std::to_string(N));
}

TEST(WgmmaSm90, Bf16SsKMajorEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_n<8>(1);
  check_n<16>(2);
  check_n<32>(3);
  check_n<64>(4);
  check_n<128>(5);
  check_n<192>(6);
  check_n<256>(7);
}

TEST(WgmmaSm90, Bf16AccumulatorsStartThreeWays) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  using Atom = SM90_64xNx16_F32BF16BF16_SS<64>;
  check_wgmma<Atom, 1, 64, sw128, sw128, Start::accumulate>(tol, 11, "scale-d accumulate onto C");
  check_wgmma<Atom, 1, 64, sw128, sw128, Start::generic_gemm>(tol, 12, "generic gemm(tiled_mma, ...)");
}

TEST(WgmmaSm90, Bf16TwoWarpgroupsAlongM) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<128>, 2, 64, sw128, sw128>(tol, 21, "128 x 128, two warpgroups");
}

}  // namespace
