// GPU tests (H200; skipped elsewhere) of the 8-bit float wgmma atoms (m64nNk32 -> f32, K-major
// only): e4m3 x e4m3 and e5m2 x e5m2 for every N of the test set (SS, 128B swizzle), the two mixed
// pairs, another swizzle, and A from registers (RS). Harness and tolerances:
// wgmma_sm90_harness.cuh.
#include "wgmma_sm90_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test::wgmma;
constexpr auto sw32 = GmmaSwizzle::sw32;
constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr double tol = 1e-3;

template <template <int> class Atom, int N>
void check_n(uint64_t seed) {
  check_wgmma<Atom<N>, 1, 128, sw128, sw128>(tol, seed, "N = " + std::to_string(N));
}

TEST(WgmmaSm90, E4m3SsEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_n<SM90_64xNx32_F32E4M3E4M3_SS, 8>(401);
  check_n<SM90_64xNx32_F32E4M3E4M3_SS, 16>(402);
  check_n<SM90_64xNx32_F32E4M3E4M3_SS, 32>(403);
  check_n<SM90_64xNx32_F32E4M3E4M3_SS, 64>(404);
  check_n<SM90_64xNx32_F32E4M3E4M3_SS, 128>(405);
  check_n<SM90_64xNx32_F32E4M3E4M3_SS, 192>(406);
  check_n<SM90_64xNx32_F32E4M3E4M3_SS, 256>(407);
}

TEST(WgmmaSm90, E5m2SsEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_n<SM90_64xNx32_F32E5M2E5M2_SS, 8>(411);
  check_n<SM90_64xNx32_F32E5M2E5M2_SS, 16>(412);
  check_n<SM90_64xNx32_F32E5M2E5M2_SS, 32>(413);
  check_n<SM90_64xNx32_F32E5M2E5M2_SS, 64>(414);
  check_n<SM90_64xNx32_F32E5M2E5M2_SS, 128>(415);
  check_n<SM90_64xNx32_F32E5M2E5M2_SS, 192>(416);
  check_n<SM90_64xNx32_F32E5M2E5M2_SS, 256>(417);
}

TEST(WgmmaSm90, Fp8MixedPairsAndRegisterA) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx32_F32E4M3E5M2_SS<64>, 1, 128, sw128, sw128>(tol, 421, "e4m3 x e5m2");
  check_wgmma<SM90_64xNx32_F32E5M2E4M3_SS<128>, 1, 128, sw128, sw32>(tol, 422, "e5m2 x e4m3, B 32B");
  check_wgmma<SM90_64xNx32_F32E4M3E4M3_RS<64>, 1, 128, sw128, sw128>(tol, 423, "RS e4m3 x e4m3");
  check_wgmma<SM90_64xNx32_F32E5M2E4M3_RS<256>, 1, 128, sw128, sw128>(tol, 424, "RS e5m2 x e4m3");
}

}  // namespace
