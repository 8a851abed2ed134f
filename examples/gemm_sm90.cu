// The Hopper GEMM in one page: D = A · B in bf16 with fp32 accumulation on an H100/H200 (TMA
// loads, wgmma, warp-specialized, persistent), checked against a CPU reference on a few rows.
// The same Arguments go to the Ampere kernel of gemm_sm80.cu unchanged.
//
//   A: m × k row-major, B: k × n column-major (both "K-major"), D: m × n row-major.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <kernel/gemm.hpp>
#include <kernel/sm90_gemm.hpp>

using T = __nv_bfloat16;
// 128 × 256 × 64 tiles, 4 stages, two consumer warpgroups on each tile (cooperative), clusters
// of 2 CTAs along M that share (multicast) their B tiles.
using Config = strata::Sm90GemmConfig<T, strata::RowMajor, strata::ColumnMajor, 128, 256, 64, 4,
                                      strata::Sm90Schedule::cooperative, 2, 1>;
using Kernel = strata::Sm90GemmKernel<Config, T, strata::LinearCombination>;

int main() {
  int devices = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0 ||
      cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0) != cudaSuccess || major != 9 || minor != 0) {
    std::printf("gemm_sm90: no compute capability 9.0 GPU present (sm_90a code), nothing to run\n");
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
  args.A = dA; args.lda = k;   // TMA reads A and B: 16-byte aligned rows (k a multiple of 8)
  args.B = dB; args.ldb = k;
  args.D = dD; args.ldd = n;
  args.epilogue = {{1.f, 0.f}};  // alpha = 1, beta = 0: C is not read
  if (strata::Status s = gemm(args); !s) {
    std::printf("gemm_sm90: refused: %s\n", s.message().c_str());
    return 1;
  }
  std::vector<T> d(size_t(m) * n);
  cudaMemcpy(d.data(), dD, d.size() * sizeof(T), cudaMemcpyDeviceToHost);  // synchronizes
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::printf("gemm_sm90: CUDA error: %s\n", cudaGetErrorString(e));
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
  std::printf("gemm_sm90: %d x %d x %d bf16 on %u CTAs (clusters of %u), worst relative error on sampled rows %.2e\n",
              m, n, k, gemm.grid().x, gemm.cluster().x, worst);
  cudaFree(dA); cudaFree(dB); cudaFree(dD);
  return worst < 2e-2 ? 0 : 1;
}
