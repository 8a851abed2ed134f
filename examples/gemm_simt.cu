// Strata example: run the tensor-built SIMT GEMM of gemm_simt.cuh on a problem whose sizes are
// not multiples of the tile, and check every element against a double-precision reference.
// Exits 0 when correct, 1 when not, 77 (skipped) when there is no GPU.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "gemm_simt.cuh"

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("gemm_simt: no CUDA GPU present, nothing to run\n");
    return 77;
  }

  const int M = 1000, N = 700, K = 300;  // none a multiple of the 64x64x8 tile
  const int lda = M, ldb = K, ldc = M;
  const float alpha = 1.f, beta = 0.f;
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> A(std::size_t(lda) * K), B(std::size_t(ldb) * N), C(std::size_t(ldc) * N);
  for (float& x : A) x = dist(rng);
  for (float& x : B) x = dist(rng);

  float *dA = nullptr, *dB = nullptr, *dC = nullptr;
  cudaMalloc(&dA, A.size() * sizeof(float));
  cudaMalloc(&dB, B.size() * sizeof(float));
  cudaMalloc(&dC, C.size() * sizeof(float));
  cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(dC, 0xFF, C.size() * sizeof(float));  // NaN: an element never written shows up

  cudaError_t err = gemm_simt::gemm(M, N, K, alpha, dA, lda, dB, ldb, beta, dC, ldc);
  if (err == cudaSuccess) err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    std::printf("gemm_simt: CUDA error: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(C.data(), dC, C.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);

  // fp32 with K-term sums: allow K * 2^-23 of the sum of |products| (a forward error bound).
  int bad = 0;
  double worst = 0.0;
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) {
      double ref = 0.0, mag = 0.0;
      for (int k = 0; k < K; ++k) {
        double p = double(A[m + std::size_t(k) * lda]) * double(B[k + std::size_t(n) * ldb]);
        ref += p;
        mag += std::fabs(p);
      }
      double got = C[m + std::size_t(n) * ldc];
      double err_mn = std::fabs(got - alpha * ref);
      worst = std::fmax(worst, err_mn / (mag + 1e-30));
      if (!(err_mn <= K * 0x1p-23 * mag + 1e-30)) ++bad;
    }
  std::printf("gemm_simt: %dx%dx%d, %d of %d elements outside tolerance, worst relative error %.3g\n", M, N,
              K, bad, M * N, worst);
  return bad == 0 ? 0 : 1;
}
