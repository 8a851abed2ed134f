// One call for every GPU: strata::AutoGemm runs D = A · B on the Hopper kernels on an H100/H200 and
// on the Ampere kernels elsewhere, choosing at run time, from one binary built for both (this file's
// name contains "allarch": compute_80 -> sm_80 and sm_90, compute_90a -> sm_90a). Two problems: one
// whose rows keep TMA's 16-byte rule, one whose A rows do not (lda odd), which the Ampere path's
// narrow-copy configuration takes on any GPU. Prints the path and kernel each ran on, and checks a
// few rows against a CPU reference.
//
//   A: m × k row-major (activations), B: k × n column-major (weights), D: m × n row-major.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <kernel/auto_gemm.hpp>

using T = __nv_bfloat16;
using Auto = strata::AutoGemm<T, strata::RowMajor, strata::ColumnMajor, T>;

namespace {
std::vector<T> random_bf16(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::vector<T> v(count);
  for (auto& x : v) x = __float2bfloat16(uniform(rng));
  return v;
}

// D = A · B with A's rows `lda` apart; returns the path it ran on, or -1 on refusal, a CUDA error or
// a wrong element among the rows checked.
int multiply(int m, int n, int k, int64_t lda, const char* what) {
  const std::vector<T> a = random_bf16(size_t(m) * lda, 1), b = random_bf16(size_t(n) * k, 2);
  T *dA, *dB, *dD;
  cudaMalloc(&dA, a.size() * sizeof(T));
  cudaMalloc(&dB, b.size() * sizeof(T));
  cudaMalloc(&dD, size_t(m) * n * sizeof(T));
  cudaMemcpy(dA, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, b.data(), b.size() * sizeof(T), cudaMemcpyHostToDevice);

  Auto::Arguments args;
  args.m = m, args.n = n, args.k = k;
  args.A = dA, args.lda = lda;
  args.B = dB, args.ldb = k;
  args.D = dD, args.ldd = n;
  args.epilogue = {{1.f, 0.f}};
  const size_t bytes = Auto::workspace_size(args);
  void* workspace = nullptr;
  if (bytes > 0) cudaMalloc(&workspace, bytes);
  Auto gemm;
  int path = -1;
  if (strata::Status s = gemm(args, workspace, bytes); !s) {
    std::printf("auto_gemm_allarch: %s refused: %s\n", what, s.message().c_str());
  } else {
    std::vector<T> d(size_t(m) * n);
    cudaMemcpy(d.data(), dD, d.size() * sizeof(T), cudaMemcpyDeviceToHost);  // synchronizes
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
      std::printf("auto_gemm_allarch: CUDA error: %s\n", cudaGetErrorString(e));
    } else {
      double worst = 0;
      for (int i = 0; i < m; i += 97) {
        for (int j = 0; j < n; j += 7) {
          double ref = 0;
          for (int p = 0; p < k; ++p)
            ref += double(__bfloat162float(a[size_t(i) * lda + p])) * __bfloat162float(b[size_t(j) * k + p]);
          worst = std::fmax(worst, std::fabs(__bfloat162float(d[size_t(i) * n + j]) - ref) / (std::fabs(ref) + 1.0));
        }
      }
      std::printf("auto_gemm_allarch: %s %d x %d x %d (lda %lld) on %s, worst relative error %.2e\n", what, m, n, k,
                  static_cast<long long>(lda), gemm.kernel_name().c_str(), worst);
      if (worst < 2e-2) path = static_cast<int>(gemm.path());
    }
  }
  cudaFree(workspace);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dD);
  return path;
}
}  // namespace

int main() {
  int devices = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("auto_gemm_allarch: no CUDA GPU present, nothing to run\n");
    return 77;
  }
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  const int m = 4096, n = 4096, k = 4096;
  const int aligned = multiply(m, n, k, k, "aligned");
  const int misaligned = multiply(m, n, k, k + 1, "misaligned");
  // An H100/H200 must run the aligned problem on the Hopper kernels: this binary holds them.
  using strata::AutoGemmPath;
  const AutoGemmPath hopper = major == 9 && minor == 0 ? AutoGemmPath::sm90 : AutoGemmPath::sm80;
  const bool ok = aligned == int(hopper) && misaligned == int(AutoGemmPath::sm80);
  if (!ok) std::printf("auto_gemm_allarch: a problem failed or ran on the wrong path\n");
  return ok ? 0 : 1;
}
