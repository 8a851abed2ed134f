// A fused bias + leaky ReLU epilogue on the Ampere kernel: the functor and the program are in
// fused_bias_relu.cuh; fused_bias_relu_sm90.cu runs the same functor on the Hopper kernel.
#include "fused_bias_relu.cuh"

using T = __nv_bfloat16;
using Config = strata::Sm80GemmConfig<T, T, strata::RowMajor, strata::ColumnMajor, 128, 256, 32, 2, 4, 4>;
using Kernel = strata::Sm80GemmKernel<Config, T, BiasLeakyReLU>;

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("fused_bias_relu: no CUDA GPU present, nothing to run\n");
    return 77;
  }
  return run_fused_bias_relu<Kernel>("fused_bias_relu");
}
