// A fused epilogue you write yourself: D = leaky_relu(A·B + bias), bias per column of D, in one
// pass (no extra kernel, no round trip of A·B through memory). An epilogue is a small struct the
// kernel calls once per output element, in float, with the element's row and column (the contract
// is at the top of collective/epilogue_functors.hpp). The same struct plugs into the Ampere kernel
// (fused_bias_relu.cu) and the Hopper one (fused_bias_relu_sm90.cu); this header holds it and the
// program both run.
//
//   A: m × k row-major bf16, B: k × n column-major bf16, bias: n floats, D: m × n row-major bf16.
#pragma once

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <kernel/gemm.hpp>

// x = acc + bias[col], then x for x > 0 and slope·x below (slope 0 is plain ReLU).
struct BiasLeakyReLU {
  struct Params {
    const float* bias = nullptr;  // device memory, one value per column of D
    float slope = 0.f;
  };
  Params params;

  // Whether the kernel must load C: never, this epilogue has no source term.
  STRATA_HOST_DEVICE bool reads_source() const { return false; }
  STRATA_HOST_DEVICE float operator()(float acc, float /*c*/, int /*row*/, int col) const {
    const float x = acc + params.bias[col];
    return x > 0.f ? x : params.slope * x;
  }
};

// Runs D = leaky_relu(A·B + bias) on Kernel (a kernel type over bf16 with BiasLeakyReLU) and checks
// sampled rows against the CPU; 0 when they match.
template <class Kernel>
int run_fused_bias_relu(const char* name) {
  using T = __nv_bfloat16;
  const int m = 1000, n = 776, k = 1000;  // not tile multiples: the kernel handles the edges
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::vector<T> a(size_t(m) * k), b(size_t(k) * n);
  std::vector<float> bias(n);
  for (auto& x : a) x = __float2bfloat16(uniform(rng));
  for (auto& x : b) x = __float2bfloat16(uniform(rng));
  for (auto& x : bias) x = 4.f * uniform(rng);

  T *dA, *dB, *dD;
  float* dBias;
  cudaMalloc(&dA, a.size() * sizeof(T));
  cudaMalloc(&dB, b.size() * sizeof(T));
  cudaMalloc(&dD, size_t(m) * n * sizeof(T));
  cudaMalloc(&dBias, n * sizeof(float));
  cudaMemcpy(dA, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dBias, bias.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  strata::Gemm<Kernel> gemm;
  typename strata::Gemm<Kernel>::Arguments args;
  args.m = m; args.n = n; args.k = k;
  args.A = dA; args.lda = k;
  args.B = dB; args.ldb = k;
  args.D = dD; args.ldd = n;                      // C stays null: reads_source() is false
  args.epilogue = BiasLeakyReLU{{dBias, 0.1f}};  // the functor travels to the GPU by value
  if (strata::Status s = gemm(args); !s) {
    std::printf("%s: refused: %s\n", name, s.message().c_str());
    return 1;
  }
  std::vector<T> d(size_t(m) * n);
  cudaMemcpy(d.data(), dD, d.size() * sizeof(T), cudaMemcpyDeviceToHost);  // synchronizes
  if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
    std::printf("%s: CUDA error: %s\n", name, cudaGetErrorString(e));
    return 1;
  }

  // The same computation on the CPU, in double, for every 97th row.
  double worst = 0;
  for (int i = 0; i < m; i += 97) {
    for (int j = 0; j < n; ++j) {
      double x = bias[j];
      for (int p = 0; p < k; ++p) x += double(__bfloat162float(a[size_t(i) * k + p])) * __bfloat162float(b[size_t(j) * k + p]);
      const double want = x > 0 ? x : 0.1 * x;
      worst = std::fmax(worst, std::fabs(__bfloat162float(d[size_t(i) * n + j]) - want) / (std::fabs(want) + 1.0));
    }
  }
  std::printf("%s: %d x %d x %d, D = leaky_relu(A*B + bias), worst relative error on sampled rows %.2e\n", name, m,
              n, k, worst);
  cudaFree(dA); cudaFree(dB); cudaFree(dD); cudaFree(dBias);
  return worst < 2e-2 ? 0 : 1;
}
