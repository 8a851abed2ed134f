// GPU tests (H200; skipped elsewhere) of the 16-bit wgmma atoms. bf16 -> f32, A and B from
// shared memory (SS), K-major with the 128-byte swizzle: every N of the test set, the three ways
// the accumulators can start (overwritten by scale-d false, accumulated into, cleared for the
// generic gemm(tiled_mma, ...)), two warpgroups along M. f16 -> f32 for every N, MN-major and RS
// once; f16 -> f16 accumulators (two halves per register) SS and RS, overwritten and accumulated
// into. Every shared-memory layout a descriptor describes, with bf16 -> f32: K-major and MN-major
// A and B, each swizzle mode (none, 32B, 64B, 128B) at least once per majorness, A from registers
// with K- and MN-major B, on one and two warpgroups. Harness and tolerances:
// wgmma_sm90_harness.cuh. (One translation unit: each costs CI ~13 s before its first kernel.)
#include "wgmma_sm90_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test::wgmma;

namespace bf16_atoms {

constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr double tol = 1e-5;

TEST(WgmmaSm90, Bf16SsKMajorEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_every_n<SM90_64xNx16_F32BF16BF16_SS, 64>(tol, 1);
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

}  // namespace bf16_atoms

namespace f16_atoms {

constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr auto MN = GmmaMajor::MN;
constexpr double tol = 1e-5;
constexpr double tol_f16_accumulators = 4e-3;

TEST(WgmmaSm90, F16SsKMajorEveryN) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_every_n<SM90_64xNx16_F32F16F16_SS, 64>(tol, 201);
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

}  // namespace f16_atoms

namespace layouts_atoms {

constexpr auto none = GmmaSwizzle::none;
constexpr auto sw32 = GmmaSwizzle::sw32;
constexpr auto sw64 = GmmaSwizzle::sw64;
constexpr auto sw128 = GmmaSwizzle::sw128;
constexpr auto K = GmmaMajor::K;
constexpr auto MN = GmmaMajor::MN;
constexpr double tol = 1e-5;

TEST(WgmmaSm90, KMajorEverySwizzle) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  using Atom = SM90_64xNx16_F32BF16BF16_SS<64>;
  check_wgmma<Atom, 1, 64, none, none>(tol, 101, "K-major, no swizzle");
  check_wgmma<Atom, 1, 64, sw32, sw32>(tol, 102, "K-major, 32B");
  check_wgmma<Atom, 1, 64, sw64, sw64>(tol, 103, "K-major, 64B");
}

TEST(WgmmaSm90, MnMajorEverySwizzle) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  // A and B both MN-major; small N need narrow swizzles (a 128B row holds 64 elements of N).
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<8, MN, MN>, 1, 64, none, none>(tol, 111, "MN-major, no swizzle, N = 8");
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<16, MN, MN>, 1, 64, sw32, sw32>(tol, 112, "MN-major, 32B, N = 16");
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<32, MN, MN>, 1, 64, sw64, sw64>(tol, 113, "MN-major, 64B, N = 32");
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<64, MN, MN>, 1, 64, sw128, sw128>(tol, 114, "MN-major, 128B, N = 64");
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<256, MN, MN>, 1, 64, sw128, sw128>(tol, 115, "MN-major, 128B, N = 256");
}

TEST(WgmmaSm90, MixedMajorness) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<128, K, MN>, 1, 64, sw128, sw128>(tol, 121, "A K-major, B MN-major");
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<32, MN, K>, 1, 64, sw64, sw32>(tol, 122, "A MN-major 64B, B K-major 32B");
  check_wgmma<SM90_64xNx16_F32BF16BF16_SS<192, MN, MN>, 2, 64, sw128, sw128>(tol, 123,
                                                                            "MN-major, two warpgroups, 128 x 192");
}

TEST(WgmmaSm90, Bf16RegisterA) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_wgmma<SM90_64xNx16_F32BF16BF16_RS<8>, 1, 64, sw128, sw128>(tol, 131, "RS, N = 8");
  check_wgmma<SM90_64xNx16_F32BF16BF16_RS<64>, 1, 64, sw128, sw128>(tol, 132, "RS, N = 64");
  check_wgmma<SM90_64xNx16_F32BF16BF16_RS<256>, 1, 64, sw128, sw128>(tol, 133, "RS, N = 256");
  check_wgmma<SM90_64xNx16_F32BF16BF16_RS<128, MN>, 1, 64, sw128, sw128>(tol, 134, "RS, B MN-major");
  check_wgmma<SM90_64xNx16_F32BF16BF16_RS<64>, 2, 64, sw64, sw128>(tol, 135, "RS, two warpgroups");
}

}  // namespace layouts_atoms

}  // namespace
