// GPU tests (H200; skipped elsewhere) of the f16 wgmma atoms: f16 -> f32 for every N of the test
// set (SS, K-major, 128B swizzle), MN-major and RS once; f16 -> f16 accumulators (two halves per
// register) SS and RS, overwritten and accumulated into. Harness and tolerances:
// wgmma_sm90_harness.cuh.
#include "wgmma_sm90_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test::wgmma;
constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr auto MN = GmmaMajor::MN;
constexpr double tol = 1e-5;
constexpr double tol_f16_accumulators = 4e-3;

template <int N>
void check_n(uint64_t seed) {
  check_wgmma<SM90_64xNx16_F32F16F16_SS<N>, 1, 64, sw128, sw128>(tol, seed, "N = " + std::to_string(N));
}

TEST(WgmmaSm90, F16SsKMajorEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_n<8>(201);
  check_n<16>(202);
  check_n<32>(203);
  check_n<64>(204);
  check_n<128>(205);
  check_n<192>(206);
  check_n<256>(207);
}

TEST(WgmmaSm90, F16MnMajorAndRegisterA) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx16_F32F16F16_SS<128, MN, MN>, 1, 64, sw128, sw128>(tol, 211, "MN-major");
  check_wgmma<SM90_64xNx16_F32F16F16_RS<128>, 1, 64, sw128, sw128>(tol, 212, "RS");
}

TEST(WgmmaSm90, F16Accumulators) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  constexpr double t = tol_f16_accumulators;
  check_wgmma<SM90_64xNx16_F16F16F16_SS<8>, 1, 64, sw128, sw128>(t, 221, "N = 8");
  check_wgmma<SM90_64xNx16_F16F16F16_SS<64>, 1, 64, sw128, sw128, Start::accumulate>(t, 222, "N = 64, onto C");
  check_wgmma<SM90_64xNx16_F16F16F16_SS<256, MN, MN>, 1, 64, sw128, sw128>(t, 223, "N = 256, MN-major");
  check_wgmma<SM90_64xNx16_F16F16F16_RS<64>, 1, 64, sw128, sw128>(t, 224, "RS, N = 64");
}

}  // namespace
