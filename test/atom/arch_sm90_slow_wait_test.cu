// The waits' diagnosis (atom/arch/sm90_mbarrier.hpp, STRATA_MBARRIER_SLOW_WAIT_NS): a wait that
// polls longer than the threshold prints one line per waiting thread once its phase completes, with
// the barrier, the parity and the time; a wait under the threshold prints nothing. This unit sets
// the threshold to 20 ms and the bound to 2 s. Each kernel runs in a death test's own process, whose
// stdout (where device printf goes) is a file the process counts the report lines of.
#undef STRATA_MBARRIER_TIMEOUT_NS
#define STRATA_MBARRIER_TIMEOUT_NS 2000000000ull
#define STRATA_MBARRIER_SLOW_WAIT_NS 20000000ull

#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "mbarrier_wait_harness.cuh"

namespace {

using namespace strata;
using namespace strata::test;
using Variant = WaitVariant;

static_assert(STRATA_MBARRIER_DIAGNOSE_WAITS == 1, "defining STRATA_MBARRIER_SLOW_WAIT_NS turns the diagnosis on");

// In the death test's process: device printf into a file, the kernel, then on stderr CUDA's verdict
// and how many slow-wait lines the file holds (whole lines naming parity 0 and a thread of warp 0).
void run_late(Variant variant, unsigned long long late_ns) {
  char path[] = "/tmp/strata_slow_wait_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) std::exit(4);
  std::fflush(stdout);
  if (dup2(fd, STDOUT_FILENO) < 0) std::exit(5);
  const LateArrivalRun r = run_late_arrival(variant, late_ns);
  std::fflush(stdout);
  std::ifstream file(path);
  int lines = 0, well_formed = 0;
  for (std::string line; std::getline(file, line);) {
    if (line.find("strata: slow mbarrier wait: ") != 0) continue;
    ++lines;
    well_formed += line.find("phase of parity 0; block (0, 0, 0), thread (") != std::string::npos &&
                   line.find(" ns of wall time: barrier at shared::cta address 0x") != std::string::npos;
  }
  unlink(path);
  std::fprintf(stderr, "kernel ended: %s, %d waiting threads passed, %d slow-wait lines, %d well formed\n",
               cudaGetErrorName(r.error), r.passed, lines, well_formed);
  std::exit(0);
}

class MbarrierSlowWait : public MbarrierDeathTest {};

// 100 ms late, five times the threshold: each of the 32 waiting threads reports once.
TEST_F(MbarrierSlowWait, ReportingWaitNamesAWaitPastTheThreshold) {
  EXPECT_EXIT(run_late(Variant::report, 100000000ull), ::testing::ExitedWithCode(0),
              "kernel ended: cudaSuccess, 32 waiting threads passed, 32 slow-wait lines, 32 well formed");
}
TEST_F(MbarrierSlowWait, TrappingWaitNamesAWaitPastTheThreshold) {
  EXPECT_EXIT(run_late(Variant::trap, 100000000ull), ::testing::ExitedWithCode(0),
              "kernel ended: cudaSuccess, 32 waiting threads passed, 32 slow-wait lines, 32 well formed");
}
// 1 ms late, a twentieth of the threshold: nothing printed.
TEST_F(MbarrierSlowWait, QuietUnderTheThreshold) {
  EXPECT_EXIT(run_late(Variant::report, 1000000ull), ::testing::ExitedWithCode(0),
              "kernel ended: cudaSuccess, 32 waiting threads passed, 0 slow-wait lines, 0 well formed");
}

}  // namespace
