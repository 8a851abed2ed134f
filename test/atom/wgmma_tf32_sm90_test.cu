// GPU tests (H200; skipped elsewhere) of the tf32 -> f32 wgmma atoms (m64nNk8, K-major only):
// every N of the test set (SS, 128B swizzle), the other swizzles once, and A from registers (RS).
// Inputs are rounded to tf32 on the host, so the products are exact. Harness and tolerances:
// wgmma_sm90_harness.cuh.
#include "wgmma_sm90_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test::wgmma;
constexpr auto none = GmmaSwizzle::none;
constexpr auto sw32 = GmmaSwizzle::sw32;
constexpr auto sw64 = GmmaSwizzle::sw64;
constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr double tol = 1e-5;

template <int N>
void check_n(uint64_t seed) {
  check_wgmma<SM90_64xNx8_F32TF32TF32_SS<N>, 1, 32, sw128, sw128>(tol, seed, "N = " + std::to_string(N));
}

TEST(WgmmaSm90, Tf32SsEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_n<8>(301);
  check_n<16>(302);
  check_n<32>(303);
  check_n<64>(304);
  check_n<128>(305);
  check_n<192>(306);
  check_n<256>(307);
}

TEST(WgmmaSm90, Tf32SwizzlesAndRegisterA) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx8_F32TF32TF32_SS<64>, 1, 32, none, sw32>(tol, 311, "A no swizzle, B 32B");
  check_wgmma<SM90_64xNx8_F32TF32TF32_SS<64>, 1, 32, sw64, sw64>(tol, 312, "64B");
  check_wgmma<SM90_64xNx8_F32TF32TF32_RS<8>, 1, 32, sw128, sw128>(tol, 313, "RS, N = 8");
  check_wgmma<SM90_64xNx8_F32TF32TF32_RS<256>, 1, 32, sw128, sw128>(tol, 314, "RS, N = 256");
}

}  // namespace
