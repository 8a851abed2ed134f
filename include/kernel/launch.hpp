// Strata floor 4: what a kernel's host side asks of the GPU it is about to run on: its SM count,
// the shared memory a CTA may take, how many CTAs of a kernel one SM holds. Each answer has a
// stated fallback for a machine without a GPU, so host code (and host tests) still decide.
#pragma once

#include <cuda_runtime.h>

#include <mutex>
#include <set>
#include <string>
#include <utility>

#include "status.hpp"

namespace strata::detail {

// Raises a kernel's dynamic shared-memory limit to `bytes`, once per function and device.
inline cudaError_t allow_dynamic_smem(const void* kernel, int bytes) {
  static std::mutex mutex;
  static std::set<std::pair<const void*, int>> done;  // (kernel, device)
  int device = 0;
  if (cudaError_t e = cudaGetDevice(&device); e != cudaSuccess) return e;
  std::lock_guard<std::mutex> lock(mutex);
  if (done.count({kernel, device})) return cudaSuccess;
  if (cudaError_t e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
      e != cudaSuccess)
    return e;
  done.insert({kernel, device});
  return cudaSuccess;
}

// The shared memory one CTA may use on the current GPU (its opt-in limit: 227 KB on an H100 or
// H200, 163 KB on an A100), or 0 when it cannot say (no GPU).
inline int max_shared_memory_per_block() {
  int device = 0, bytes = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess) {
    cudaGetLastError();  // clear it: no GPU is not an error here
    return 0;
  }
  return bytes;
}

// Refuses a kernel whose CTA needs `needed` bytes of shared memory where the GPU grants
// `available` (0: unknown, not refused), instead of letting the launch fail.
inline Status check_shared_memory(int needed, int available) {
  if (available <= 0 || needed <= available) return Status::success();
  return {StatusCode::unsupported, "the kernel's tile needs " + std::to_string(needed) +
                                       " bytes of shared memory per CTA, and this GPU grants at most " +
                                       std::to_string(available) + " (take fewer stages or a smaller tile)"};
}

// SMs of the current GPU; 132 if it cannot say (no GPU).
inline int sm_count() {
  int device = 0, sms = 0;
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms <= 0) {
    cudaGetLastError();  // clear it: the launch reports real errors
    return 132;
  }
  return sms;
}

// SMs × the CTAs of `kernel` (with `threads` threads and `smem_bytes` of dynamic shared memory)
// one SM holds; 132 if the GPU cannot say.
inline int wave_of(const void* kernel, int threads, int smem_bytes) {
  int per_sm = 0;
  if (allow_dynamic_smem(kernel, smem_bytes) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem_bytes) != cudaSuccess ||
      per_sm <= 0) {
    cudaGetLastError();  // clear it: the launch reports real errors
    return 132;
  }
  return sm_count() * per_sm;
}

// Placement study knob (bench/tools/sm90_trace.cu sets it; 1, as asked, unless set): a launch of a
// kernel that asks for no cluster goes out in clusters of `study_cluster` CTAs where that divides
// the grid and all of them fit on the GPU at once (a persistent kernel's CTAs wait for each
// other's partial sums). The kernel does not use them; only where the GPU places its CTAs moves. A
// variable, not a macro: every translation unit must agree on what LaunchAttributes does.
inline int study_cluster = 1;
inline int study_cluster_used = 1;  // while the knob is set: the last launch's cluster size by it (1: none)

template <class... Params>
int resident_clusters_of(void (*kernel)(Params...), int threads, int smem_bytes, int cluster_size);

// The attributes of a cudaLaunchKernelEx launch: a cluster of `cluster_size` CTAs along x (when
// more than one) and programmatic stream serialization (when `programmatic`). apply() points the
// config at this object's array, so it must outlive the launch call.
struct LaunchAttributes {
  cudaLaunchAttribute list[2]{};
  unsigned count = 0;
  LaunchAttributes(int cluster_size, bool programmatic) {
    if (cluster_size > 1) add_cluster(unsigned(cluster_size));
    if (programmatic) {
      list[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      list[count].val.programmaticStreamSerializationAllowed = 1;
      ++count;
    }
  }
  void apply(cudaLaunchConfig_t& config) {
    config.attrs = list;
    config.numAttrs = count;
  }
  // The same for a launch of `kernel` (grid, block and shared memory already in `config`), which
  // the placement knob may put in clusters. How many fit is asked once per kernel and knob value
  // (a kernel's block and shared memory are fixed), not on every launch a benchmark times.
  template <class... Params>
  void apply(cudaLaunchConfig_t& config, void (*kernel)(Params...)) {
    const bool clustered = count > 0 && list[0].id == cudaLaunchAttributeClusterDimension;
    if (study_cluster <= 1) return apply(config);
    const unsigned study = unsigned(study_cluster);
    bool placed = false;
    if (!clustered && config.gridDim.x % study == 0) {
      static void (*asked_kernel)(Params...) = nullptr;
      static int asked_study = 0, resident = 0;
      if (asked_kernel != kernel || asked_study != study_cluster) {
        resident = resident_clusters_of(kernel, int(config.blockDim.x), int(config.dynamicSmemBytes), study_cluster);
        asked_kernel = kernel, asked_study = study_cluster;
      }
      placed = unsigned(resident) * study >= config.gridDim.x;
    }
    if (placed) add_cluster(study);
    study_cluster_used = placed ? study_cluster : 1;
    apply(config);
  }

 private:
  void add_cluster(unsigned size) {
    list[count].id = cudaLaunchAttributeClusterDimension;
    list[count].val.clusterDim.x = size;
    list[count].val.clusterDim.y = 1;
    list[count].val.clusterDim.z = 1;
    ++count;
  }
};

// Clusters of `cluster_size` CTAs of `kernel` (`threads` threads, `smem_bytes` of dynamic shared
// memory each) the current GPU runs at once; the SM count / cluster_size when it cannot say.
template <class... Params>
int resident_clusters_of(void (*kernel)(Params...), int threads, int smem_bytes, int cluster_size) {
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(unsigned(cluster_size));
  config.blockDim = dim3(unsigned(threads));
  config.dynamicSmemBytes = size_t(smem_bytes);
  LaunchAttributes attributes(cluster_size, false);
  attributes.apply(config);
  int n = 0;
  if (allow_dynamic_smem(reinterpret_cast<const void*>(kernel), smem_bytes) != cudaSuccess ||
      cudaOccupancyMaxActiveClusters(&n, kernel, &config) != cudaSuccess || n <= 0) {
    cudaGetLastError();  // clear it: the launch reports real errors
    return sm_count() / cluster_size;
  }
  return n;
}

}  // namespace strata::detail
