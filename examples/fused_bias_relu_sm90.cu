// The fused bias + leaky ReLU epilogue of fused_bias_relu.cuh on the Hopper kernel, unchanged: the
// kernel applies it to the accumulators in registers, then stores D through shared memory and TMA.
#include <kernel/sm90_gemm.hpp>

#include "fused_bias_relu.cuh"

using T = __nv_bfloat16;
// 64 × 128 × 64 tiles, 6 stages, each consumer warpgroup its own tile (ping-pong): one
// warpgroup's epilogue runs while the other's mainloop does.
using Config = strata::Sm90GemmConfig<T, strata::RowMajor, strata::ColumnMajor, 64, 128, 64, 6,
                                      strata::Sm90Schedule::pingpong>;
using Kernel = strata::Sm90GemmKernel<Config, T, BiasLeakyReLU>;

int main() {
  int devices = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) != cudaSuccess || major != 9 || minor != 0) {
    std::printf("fused_bias_relu_sm90: no compute capability 9.0 GPU present (sm_90a code), nothing to run\n");
    return 77;
  }
  return run_fused_bias_relu<Kernel>("fused_bias_relu_sm90");
}
