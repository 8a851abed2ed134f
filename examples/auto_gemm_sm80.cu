// One weight matrix, the shapes a model layer sees: a decode step (16 tokens) and a prefill (2048
// tokens) through one Sm80AutoGemm, which picks the tile per problem (flat decode tiles with
// split-K where it helps, the large tile for the prefill) and sizes the workspace each needs.
// Each result is checked against a CPU reference on a few rows.
//
//   X: tokens × k row-major (activations), W: k × n column-major (weights), Y: tokens × n row-major.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <kernel/sm80_auto_gemm.hpp>

using T = __nv_bfloat16;
using Auto = strata::Sm80AutoGemm<strata::Sm80Tiles<T, strata::RowMajor, strata::ColumnMajor>, T>;

namespace {
std::vector<T> random_bf16(size_t count, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> uniform(-1.f, 1.f);
  std::vector<T> v(count);
  for (auto& x : v) x = __float2bfloat16(uniform(rng));
  return v;
}

// Y = X · W for `tokens` rows; returns the worst relative error on sampled rows, or -1 on refusal.
double layer(int tokens, int n, int k, T const* dW, std::vector<T> const& w) {
  const std::vector<T> x = random_bf16(size_t(tokens) * k, 7 + tokens);
  T *dX, *dY;
  cudaMalloc(&dX, x.size() * sizeof(T));
  cudaMalloc(&dY, size_t(tokens) * n * sizeof(T));
  cudaMemcpy(dX, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice);

  Auto::Arguments args;
  args.m = tokens, args.n = n, args.k = k;
  args.A = dX, args.lda = k;
  args.B = dW, args.ldb = k;
  args.D = dY, args.ldd = n;
  args.epilogue = {{1.f, 0.f}};
  args.split_k = 0;                              // split K when the tiles alone do not fill the GPU
  args.schedule = strata::Schedule::automatic;   // Stream-K on problems of many waves
  const size_t bytes = Auto::workspace_size(args);
  void* workspace = nullptr;
  if (bytes > 0) cudaMalloc(&workspace, bytes);
  Auto gemm;
  double worst = -1;
  if (strata::Status s = gemm(args, workspace, bytes); !s) {
    std::printf("auto_gemm_sm80: %d tokens refused: %s\n", tokens, s.message().c_str());
  } else {
    std::vector<T> y(size_t(tokens) * n);
    cudaMemcpy(y.data(), dY, y.size() * sizeof(T), cudaMemcpyDeviceToHost);  // synchronizes
    if (cudaError_t e = cudaGetLastError(); e != cudaSuccess) {
      std::printf("auto_gemm_sm80: CUDA error: %s\n", cudaGetErrorString(e));
    } else {
      worst = 0;
      for (int i = 0; i < tokens; i += tokens > 16 ? 211 : 5) {
        for (int j = 0; j < n; j += 3) {
          double ref = 0;
          for (int p = 0; p < k; ++p)
            ref += double(__bfloat162float(x[size_t(i) * k + p])) * __bfloat162float(w[size_t(j) * k + p]);
          worst = std::fmax(worst, std::fabs(__bfloat162float(y[size_t(i) * n + j]) - ref) / (std::fabs(ref) + 1.0));
        }
      }
      std::printf("auto_gemm_sm80: %5d x %d x %d on the %s tile, %zu bytes of workspace, worst relative error %.2e\n",
                  tokens, n, k, strata::sm80_tile_class_name(Auto::tile_class(args)), bytes, worst);
    }
  }
  cudaFree(workspace);
  cudaFree(dX);
  cudaFree(dY);
  return worst;
}
}  // namespace

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("auto_gemm_sm80: no CUDA GPU present, nothing to run\n");
    return 77;
  }
  const int n = 4096, k = 4096;
  const std::vector<T> w = random_bf16(size_t(k) * n, 1);
  T* dW;
  cudaMalloc(&dW, w.size() * sizeof(T));
  cudaMemcpy(dW, w.data(), w.size() * sizeof(T), cudaMemcpyHostToDevice);
  bool ok = true;
  for (int tokens : {16, 2048}) {
    const double worst = layer(tokens, n, k, dW, w);
    ok = ok && worst >= 0 && worst < 2e-2;
  }
  cudaFree(dW);
  return ok ? 0 : 1;
}
