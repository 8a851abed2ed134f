// The tensor-core ceiling of wgmma on the GPU at hand: m64n256k16 bf16 -> f32 with both operands
// read from shared memory (SS), in a loop with no global-memory traffic, on every SM. A Hopper
// GEMM (TMA + wgmma) is judged against this rather than against the datasheet number. Google
// Benchmark counter: TFLOPs (2 * 64 * 256 * 16 per wgmma, median of timed runs after warm-up).
// sm_90a code: it runs only on a GPU of compute capability 9.0 and skips (exit 77) elsewhere.
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "atom/arch/sm90_wgmma.hpp"
#include "atom/gmma_desc_sm90.hpp"

namespace {

using namespace strata;
using bf16 = __nv_bfloat16;
using Wgmma = arch::Wgmma_m64nNk16_f32_16bit_SS<256, bf16>;

constexpr int kWarpgroups = 2;        // two warpgroups per CTA keep the tensor cores fed
constexpr int kThreads = 128 * kWarpgroups;
constexpr int kKBlocks = 4;           // one batch: a 64-deep K tile, four wgmma into one accumulator
constexpr int kIterations = 4096;
constexpr int kWarmupRuns = 3;
constexpr int kTimedRuns = 11;

using LayoutA = decltype(make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_64, _64>{}));
using LayoutB = decltype(make_gmma_smem_layout<bf16, GmmaMajor::K, GmmaSwizzle::sw128>(Shape<_256, _64>{}));

// Keeps one batch in flight (wait_group 1) while the next is issued, as a mainloop does; the
// accumulators are read only after the last wait. The one store is guarded by a run-time flag the
// compiler cannot see through, so no wgmma is dead.
__global__ void __launch_bounds__(kThreads, 1) wgmma_ceiling_kernel(int iterations, int store_results, float* results) {
  __shared__ alignas(1024) bf16 smem_a[64 * 64];
  __shared__ alignas(1024) bf16 smem_b[256 * 64];
  for (int i = threadIdx.x; i < 64 * 64; i += kThreads) smem_a[i] = __float2bfloat16(1.0f / 1024 * (1 + i % 7));
  for (int i = threadIdx.x; i < 256 * 64; i += kThreads) smem_b[i] = __float2bfloat16(-1.0f / 1024 * (1 + i % 5));
#if defined(__CUDA_ARCH__)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");  // element stores, then wgmma reads
#endif
  __syncthreads();

  auto tile_a = make_tensor(make_smem_ptr(smem_a), gmma_tile_layout<64, 16>(LayoutA{}));
  auto tile_b = make_tensor(make_smem_ptr(smem_b), gmma_tile_layout<256, 16>(LayoutB{}));
  const GmmaDescriptor desc_a = make_gmma_desc<GmmaMajor::K>(tile_a);
  const GmmaDescriptor desc_b = make_gmma_desc<GmmaMajor::K>(tile_b);
  constexpr int step_a = gmma_offset_bytes<bf16>(LayoutA{}, make_coord(0, 16));
  constexpr int step_b = gmma_offset_bytes<bf16>(LayoutB{}, make_coord(0, 16));

  float acc[128];
  for (float& x : acc) x = 0.0f;
  for (float& x : acc) arch::wgmma_fence_operand(x);
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
    arch::wgmma_fence();  // as a mainloop fences each batch
#pragma unroll
    for (int k = 0; k < kKBlocks; ++k) {
      Wgmma::fma(acc, (desc_a + k * step_a).desc, (desc_b + k * step_b).desc, arch::WgmmaScaleD::accumulate);
    }
    arch::wgmma_commit_group();
    arch::wgmma_wait_group<1>();
  }
  arch::wgmma_wait_group<0>();
  for (float& x : acc) arch::wgmma_fence_operand(x);

  if (store_results) {
    float sum = 0.0f;
    for (float x : acc) sum += x;
    results[blockIdx.x * kThreads + threadIdx.x] = sum;
  }
}

void wgmma_ceiling(benchmark::State& state) {
  int device = 0, sm_count = 0, blocks_per_sm = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device);
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, wgmma_ceiling_kernel, kThreads, 0) != cudaSuccess ||
      blocks_per_sm == 0) {
    state.SkipWithError("occupancy query failed");
    return;
  }
  const int blocks = sm_count * blocks_per_sm;
  float* results = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  cudaMalloc(&results, size_t(blocks) * kThreads * sizeof(float));
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (auto _ : state) {
    std::vector<float> ms;
    for (int run = 0; run < kWarmupRuns + kTimedRuns; ++run) {
      cudaEventRecord(start);
      wgmma_ceiling_kernel<<<blocks, kThreads>>>(kIterations, 1, results);
      cudaEventRecord(stop);
      cudaEventSynchronize(stop);
      float t = 0.0f;
      cudaEventElapsedTime(&t, start, stop);
      if (run >= kWarmupRuns) ms.push_back(t);
    }
    if (cudaError_t err = cudaGetLastError(); err != cudaSuccess) {
      state.SkipWithError(cudaGetErrorString(err));
      break;
    }
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    const double seconds = ms[ms.size() / 2] * 1e-3;
    const double flops = double(blocks) * kWarpgroups * kIterations * kKBlocks * 2.0 * 64 * 256 * 16;
    state.SetIterationTime(seconds);
    state.counters["TFLOPs"] = flops / seconds * 1e-12;
    state.counters["CTAs"] = blocks;
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(results);
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0, major = 0, minor = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("wgmma_ceiling_sm90: no CUDA GPU present, nothing to measure\n");
    return 77;
  }
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  if (major != 9 || minor != 0) {
    std::printf("wgmma_ceiling_sm90: sm_90a code needs compute capability 9.0, this GPU is %d.%d: skipped\n", major,
                minor);
    return 77;
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("GPU: %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  benchmark::RegisterBenchmark("wgmma_ceiling/m64n256k16_bf16_ss", wgmma_ceiling)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
