// Prints the register-only mma.sync ceiling of the GPU present (bf16 and f16 inputs, fp32 accumulate).
// Exit code 77 ("skipped") where no CUDA GPU is present.
#include <cmath>
#include <cstdio>

#include "mma_ceiling.cuh"

int main() {
  int device_count = 0;
  if (cudaGetDeviceCount(&device_count) != cudaSuccess || device_count == 0) {
    std::printf("mma_ceiling: no CUDA GPU present, nothing to measure\n");
    return 77;
  }
  cudaDeviceProp properties{};
  cudaGetDeviceProperties(&properties, 0);
  std::printf("GPU: %s, %d SMs\n", properties.name, properties.multiProcessorCount);

  const double bf16 = strata::bench::measure_mma_sync_ceiling_tflops();
  const double f16 = strata::bench::measure_mma_sync_ceiling_tflops_f16();
  std::printf("mma.sync m16n8k16 bf16*bf16+f32 register-only ceiling: %8.1f TFLOP/s\n", bf16);
  std::printf("mma.sync m16n8k16 f16*f16+f32   register-only ceiling: %8.1f TFLOP/s\n", f16);
  return std::isnan(bf16) || std::isnan(f16) ? 1 : 0;
}
