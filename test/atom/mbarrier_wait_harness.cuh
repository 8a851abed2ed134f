// Shared by the units that test the mbarrier waits' bound and diagnosis
// (arch_sm90_wait_bound_test.cu, arch_sm90_slow_wait_test.cu). Each unit defines its own
// STRATA_MBARRIER_TIMEOUT_NS (and STRATA_MBARRIER_SLOW_WAIT_NS) before including this, so the
// kernel below waits with that unit's settings.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "../common/gpu_test.hpp"
#include "atom/arch/sm90.hpp"

namespace strata::test {

enum class WaitVariant { report, trap };

namespace {  // each unit its own kernel, compiled with that unit's wait settings
// Thread 0 arrives once on a barrier expecting two arrivals; thread 32 brings the second after
// `late_ns` of sleeping, or never when late_ns is 0. Every thread of warp 0 waits for the phase
// with the variant asked for, then counts itself in `passed`.
__global__ void late_arrival_kernel(WaitVariant variant, unsigned long long late_ns, int* passed) {
  __shared__ uint64_t bar;
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 2);
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) arch::mbarrier_arrive(&bar);
  if (threadIdx.x == 32) {
    if (late_ns == 0) return;
    const uint64_t start = arch::detail::global_timer_ns();
    while (arch::detail::global_timer_ns() - start < late_ns) __nanosleep(100000);
    arch::mbarrier_arrive(&bar);
    return;
  }
  if (threadIdx.x >= 32) return;
  if (variant == WaitVariant::report)
    arch::mbarrier_wait_parity(&bar, 0);
  else
    arch::mbarrier_wait_parity_or_trap(&bar, 0);
  atomicAdd(passed, 1);
}

// In a death test's process: the kernel on one block of 64 threads; how it ended and how many
// waiting threads passed (-1 where it failed). Exits 2 where the set-up fails.
struct LateArrivalRun {
  cudaError_t error;
  int passed;
};
LateArrivalRun run_late_arrival(WaitVariant variant, unsigned long long late_ns) {
  int* passed = nullptr;
  if (cudaMalloc(&passed, sizeof(int)) != cudaSuccess || cudaMemset(passed, 0, sizeof(int)) != cudaSuccess) std::exit(2);
  late_arrival_kernel<<<1, 64>>>(variant, late_ns, passed);
  const cudaError_t e = cudaDeviceSynchronize();
  int host = -1;
  if (e == cudaSuccess && cudaMemcpy(&host, passed, sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess) std::exit(2);
  return {e, host};
}
}  // namespace

// Each waiting kernel runs in a death test's own process (a trap leaves the CUDA context unusable).
class MbarrierDeathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
    GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process: no CUDA state inherited
  }
};

}  // namespace strata::test
