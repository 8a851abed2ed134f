// GPU tests (H200; skipped elsewhere) of the 8-bit float and the tf32 wgmma atoms. fp8
// (m64nNk32 -> f32, K-major only): e4m3 x e4m3 and e5m2 x e5m2 for every N of the test set (SS,
// 128B swizzle), the two mixed pairs, another swizzle, and A from registers (RS). tf32 -> f32
// (m64nNk8, K-major only): every N (SS, 128B swizzle), the other swizzles once, and RS; its inputs
// are rounded to tf32 on the host, so the products are exact. Harness and tolerances:
// wgmma_sm90_harness.cuh. (One translation unit: each costs CI ~13 s before its first kernel.)
#include "wgmma_sm90_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test::wgmma;

namespace fp8_atoms {

constexpr auto sw32 = GmmaSwizzle::sw32;
constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr double tol = 1e-3;

TEST(WgmmaSm90, E4m3SsEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_every_n<SM90_64xNx32_F32E4M3E4M3_SS, 128>(tol, 401);
}

TEST(WgmmaSm90, E5m2SsEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_every_n<SM90_64xNx32_F32E5M2E5M2_SS, 128>(tol, 411);
}

TEST(WgmmaSm90, Fp8MixedPairsAndRegisterA) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx32_F32E4M3E5M2_SS<64>, 1, 128, sw128, sw128>(tol, 421, "e4m3 x e5m2");
  check_wgmma<SM90_64xNx32_F32E5M2E4M3_SS<128>, 1, 128, sw128, sw32>(tol, 422, "e5m2 x e4m3, B 32B");
  check_wgmma<SM90_64xNx32_F32E4M3E4M3_RS<64>, 1, 128, sw128, sw128>(tol, 423, "RS e4m3 x e4m3");
  check_wgmma<SM90_64xNx32_F32E5M2E4M3_RS<256>, 1, 128, sw128, sw128>(tol, 424, "RS e5m2 x e4m3");
}

}  // namespace fp8_atoms

namespace tf32_atoms {

constexpr auto none = GmmaSwizzle::none;
constexpr auto sw32 = GmmaSwizzle::sw32;
constexpr auto sw64 = GmmaSwizzle::sw64;
constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr double tol = 1e-5;

TEST(WgmmaSm90, Tf32SsEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_every_n<SM90_64xNx8_F32TF32TF32_SS, 32>(tol, 301);
}

TEST(WgmmaSm90, Tf32SwizzlesAndRegisterA) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx8_F32TF32TF32_SS<64>, 1, 32, none, sw32>(tol, 311, "A no swizzle, B 32B");
  check_wgmma<SM90_64xNx8_F32TF32TF32_SS<64>, 1, 32, sw64, sw64>(tol, 312, "64B");
  check_wgmma<SM90_64xNx8_F32TF32TF32_RS<8>, 1, 32, sw128, sw128>(tol, 313, "RS, N = 8");
  check_wgmma<SM90_64xNx8_F32TF32TF32_RS<256>, 1, 32, sw128, sw128>(tol, 314, "RS, N = 256");
}

}  // namespace tf32_atoms

}  // namespace
