// The bound on mbarrier waits (atom/arch/sm90.hpp): a wait whose phase never completes traps after
// STRATA_MBARRIER_TIMEOUT_NS of polling, in both wait variants, instead of hanging the GPU; a wait
// that completes before the bound does not trap. This unit sets the bound to 0.2 s. A trap leaves
// the CUDA context unusable, so each waiting kernel runs in a death test's own process.
// Not in gpu-check.sh's sanitizer filter: the traps are what these tests expect. (The other test
// units compile with a 120 s bound, test/CMakeLists.txt: this one replaces it.)
#undef STRATA_MBARRIER_TIMEOUT_NS
#define STRATA_MBARRIER_TIMEOUT_NS 200000000ull

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "mbarrier_wait_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test;
using Variant = WaitVariant;

// In the death test's process: runs the kernel and exits 0 with CUDA's error name on stderr.
void run_wait(Variant variant, unsigned long long late_ns) {
  const LateArrivalRun r = run_late_arrival(variant, late_ns);
  std::fprintf(stderr, "kernel ended: %s, %d waiting threads passed\n", cudaGetErrorName(r.error), r.passed);
  std::exit(0);
}

class MbarrierWaitBound : public MbarrierDeathTest {
 protected:
  static void expect_trap(Variant variant) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EXIT(run_wait(variant, 0), ::testing::ExitedWithCode(0), "kernel ended: cudaErrorLaunchFailure");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 30.0) << "the 0.2 s bound took " << seconds << " s to end the kernel (process start included)";
  }
  static void expect_pass(Variant variant) {
    // 50 ms late: a quarter of the bound.
    EXPECT_EXIT(run_wait(variant, 50000000ull), ::testing::ExitedWithCode(0),
                "kernel ended: cudaSuccess, 32 waiting threads passed");
  }
};

TEST_F(MbarrierWaitBound, ReportingWaitTrapsOnAPhaseThatNeverCompletes) { expect_trap(Variant::report); }
TEST_F(MbarrierWaitBound, TrappingWaitTrapsOnAPhaseThatNeverCompletes) { expect_trap(Variant::trap); }
TEST_F(MbarrierWaitBound, ReportingWaitPassesAPhaseCompletedWithinTheBound) { expect_pass(Variant::report); }
TEST_F(MbarrierWaitBound, TrappingWaitPassesAPhaseCompletedWithinTheBound) { expect_pass(Variant::trap); }

}  // namespace
