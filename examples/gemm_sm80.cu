// The shortest useful Strata program: D = A · B in bf16 with fp32 accumulation on the Ampere path
// (mma.sync; also runs on Hopper), checked against a CPU reference on a few rows.
//
//   A: m × k row-major, B: k × n column-major (both "K-major"), D: m × n row-major.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <kernel/gemm.hpp>

using T = __nv_bfloat16;
// 128 × 256 × 64 tiles, 2 × 4 warps (64 × 64 each), 3 stages in shared memory.
using Config = strata::Sm80GemmConfig<T, T, strata::RowMajor, strata::ColumnMajor, 128, 256, 64, 2, 4, 3>;
using Kernel = strata::Sm80GemmKernel<Config, T, strata::LinearCombination>;

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gemm_sm80: no CUDA GPU present, nothing to run\n");
    return 77;
  }
  const int m = 1000, n = 1000, k = 4096;
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::vector<T> a(size_t(m) * k), b(size_t(k) * n);
  for (auto& x : a) x = __float2bfloat16(uniform(rng));
  for (auto& x : b) x = __float2bfloat16(uniform(rng));

  T *dA, *dB, *dD;
  cudaMalloc(&dA, a.size() * sizeof(T));
  cudaMalloc(&dB, b.size() * sizeof(T));
  cudaMalloc(&dD, size_t(m) * n * sizeof(T));
  cudaMemcpy(dA, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);

  strata::Gemm<Kernel> gemm;
  strata::Gemm<Kernel>::Arguments args;
  args.m = m; args.n = n; args.k = k;
  args.A = dA; args.lda = k;   // row-major A: rows of k
  args.B = dB; args.ldb = k;   // column-major B: columns of k
  args.D = dD; args.ldd = n;   // row-major D (n = 1000 is a multiple of 8 elements: 16 bytes)
  args.epilogue = {{1.f, 0.f}};  // alpha = 1, beta = 0: C is not read
  if (strata::Status s = gemm(args); !s) {
    std::printf("gemm_sm80: refused: %s\n", s.message().c_str());
    return 1;
  }
  std::vector<T> d(size_t(m) * n);
  cudaMemcpy(d.data(), dD, d.size() * sizeof(T), cudaMemcpyDeviceToHost);  // synchronizes
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::printf("gemm_sm80: CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }

  double worst = 0;
  for (int i = 0; i < m; i += 97) {
    for (int j = 0; j < n; ++j) {
      double ref = 0;
      for (int p = 0; p < k; ++p) ref += double(__bfloat162float(a[size_t(i) * k + p])) * __bfloat162float(b[size_t(j) * k + p]);
      worst = std::fmax(worst, std::fabs(__bfloat162float(d[size_t(i) * n + j]) - ref) / (std::fabs(ref) + 1.0));
    }
  }
  std::printf("gemm_sm80: %d x %d x %d bf16, worst relative error on sampled rows %.2e\n", m, n, k, worst);
  cudaFree(dA); cudaFree(dB); cudaFree(dD);
  return worst < 2e-2 ? 0 : 1;
}
