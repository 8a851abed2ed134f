// The tensor-core ceiling of warp-level mma.sync on the GPU at hand: a register-only loop with no
// memory traffic, so an Ampere-style kernel (cp.async + ldmatrix + mma.sync) can be judged against
// what the instruction itself can do on this GPU rather than against the datasheet number (on
// Hopper that belongs to wgmma, which mma.sync does not reach).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "atom/arch/sm80.hpp"

namespace strata::bench {

// Independent accumulator chains per warp: each mma.sync depends on the previous one of its chain,
// so several chains are needed to cover the instruction's latency. Even with the SMs full of warps
// more chains per warp still help; on an H200 (bf16, 256 threads) 4/8/12/16/24 chains gave
// 544/589/605/613/608 TFLOP/s, so 16 it is (75 registers, 3 blocks per SM, no spills).
inline constexpr int kMmaCeilingChains = 16;
inline constexpr int kMmaCeilingThreadsPerBlock = 256;
inline constexpr int kMmaCeilingIterations = 8192;

namespace detail {

// Two copies of `value` packed as the 16-bit element type of Mma's A/B registers.
template <class Element>
__device__ inline uint32_t pack_pair(float value) {
  const Element half = Element(value);
  const uint16_t bits = *reinterpret_cast<const uint16_t*>(&half);
  return uint32_t(bits) | uint32_t(bits) << 16;
}

// Operands come from threadIdx so the compiler cannot fold the products; they are small so the
// accumulators stay finite for any iteration count used here (finite or not, the speed is equal).
// The one store is guarded by a run-time flag the compiler cannot see through, so no chain is dead.
template <class Mma, int Chains, int ThreadsPerBlock>
__global__ void __launch_bounds__(ThreadsPerBlock)
    mma_sync_ceiling_kernel(int iterations, int store_results, float* results) {
  using Element = typename Mma::ElementA;
  typename Mma::ARegisters a;
  typename Mma::BRegisters b;
  const float seed = 1.0f / 1024.0f * float(1 + (threadIdx.x & 7));
  for (auto& r : a) r = pack_pair<Element>(seed);
  for (auto& r : b) r = pack_pair<Element>(-seed);

  typename Mma::CRegisters accumulators[Chains] = {};
#pragma unroll 1
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int chain = 0; chain < Chains; ++chain) Mma::fma(accumulators[chain], a, b, accumulators[chain]);
  }

  if (store_results) {
    float sum = 0.0f;
#pragma unroll
    for (int chain = 0; chain < Chains; ++chain)
      for (float v : accumulators[chain]) sum += v;
    results[blockIdx.x * blockDim.x + threadIdx.x] = sum;
  }
}

}  // namespace detail

// Median TFLOP/s (2*M*N*K per mma.sync) of the register-only loop with `Mma`, over several timed
// runs after warm-up, the grid exactly filling every SM once. NaN if a CUDA call fails (printed).
// Chains, ThreadsPerBlock and iterations are parameters so the shape of the loop can be swept.
template <class Mma, int Chains = kMmaCeilingChains, int ThreadsPerBlock = kMmaCeilingThreadsPerBlock>
double measure_mma_sync_tflops(cudaStream_t stream = 0, int iterations = kMmaCeilingIterations) {
  constexpr int kWarmupRuns = 3;
  constexpr int kTimedRuns = 11;
  const double failed = std::numeric_limits<double>::quiet_NaN();
  auto ok = [](cudaError_t status, const char* what) {
    if (status == cudaSuccess) return true;
    std::fprintf(stderr, "mma ceiling: %s failed: %s\n", what, cudaGetErrorString(status));
    return false;
  };

  const auto kernel = detail::mma_sync_ceiling_kernel<Mma, Chains, ThreadsPerBlock>;
  int device = 0, sm_count = 0, blocks_per_sm = 0;
  if (!ok(cudaGetDevice(&device), "cudaGetDevice") ||
      !ok(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device), "SM count") ||
      !ok(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, ThreadsPerBlock, 0), "occupancy query"))
    return failed;
  const int blocks = sm_count * blocks_per_sm;

  float* results = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  if (!ok(cudaMalloc(&results, size_t(blocks) * ThreadsPerBlock * sizeof(float)), "cudaMalloc") ||
      !ok(cudaEventCreate(&start), "cudaEventCreate") || !ok(cudaEventCreate(&stop), "cudaEventCreate")) {
    cudaFree(results);
    return failed;
  }

  std::vector<float> milliseconds;
  bool all_ok = true;
  for (int run = 0; run < kWarmupRuns + kTimedRuns && all_ok; ++run) {
    cudaEventRecord(start, stream);
    kernel<<<blocks, ThreadsPerBlock, 0, stream>>>(iterations, 1, results);
    cudaEventRecord(stop, stream);
    all_ok = ok(cudaGetLastError(), "kernel launch") && ok(cudaEventSynchronize(stop), "kernel");
    float ms = 0.0f;
    if (all_ok && run >= kWarmupRuns) {
      cudaEventElapsedTime(&ms, start, stop);
      milliseconds.push_back(ms);
    }
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaFree(results);
  if (!all_ok) return failed;

  std::nth_element(milliseconds.begin(), milliseconds.begin() + milliseconds.size() / 2, milliseconds.end());
  const double median_seconds = milliseconds[milliseconds.size() / 2] * 1e-3;
  const double warps = double(blocks) * ThreadsPerBlock / 32;
  const double flops = warps * iterations * Chains * 2.0 * Mma::M * Mma::N * Mma::K;
  return flops / median_seconds * 1e-12;
}

// The bf16 -> fp32 m16n8k16 ceiling: what an Ampere-path bf16 GEMM is measured against.
inline double measure_mma_sync_ceiling_tflops(cudaStream_t stream = 0) {
  return measure_mma_sync_tflops<arch::Mma_m16n8k16_f32_bf16_bf16_f32>(stream);
}

// The same for f16 -> fp32.
inline double measure_mma_sync_ceiling_tflops_f16(cudaStream_t stream = 0) {
  return measure_mma_sync_tflops<arch::Mma_m16n8k16_f32_f16_f16_f32>(stream);
}

}  // namespace strata::bench
