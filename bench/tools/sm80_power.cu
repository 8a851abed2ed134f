// What the GPU's power limit leaves to an Ampere-path GEMM: each workload below runs back to back
// for a few seconds, as the bench's sustained loop does, while NVML reports the energy used, the
// SM clock and whether the software power cap was holding the clock down. Each step adds one part
// of a real mainloop to the one before, so the energy each part costs, and the rate the power
// limit leaves once it is there, can be read off:
//
//   1. mma.sync alone: the register-only loop of bench/mma_ceiling.cuh (no memory traffic).
//   2. + ldmatrix: the mainloop of the large tile (256 × 128 × 64, 8 warps of 64 × 64, 3 stages in
//      shared memory, one barrier per K tile) with its operands already in shared memory: every
//      warp reads its A and B fragments with ldmatrix.x4 and issues 32 mma.sync per 16-deep slice,
//      as the kernel does. Nothing is read from global memory.
//   3. + cp.async: the same, and each K tile also refills a stage from global memory (48 KB per
//      CTA, 16 bytes per thread per copy), from a buffer that stays in L2.
//   4. strata's GEMM (Sm80AutoGemm, as the bench runs it) on each shape given, and 5. cuBLAS on the
//      same buffers.
//
// Step 2 is the least any mma.sync kernel with 64 × 64 warp tiles (the largest whose accumulators
// fit the registers) must do per FLOP; if the power limit holds it below a rate, no such kernel
// sustains more. Not a benchmark of record (bench/sm80_gemm is).
//
//   sm80_power [seconds per workload = 4] [m,n,k ...]   (default 8192,8192,8192)
//
// NVML is opened at run time (libnvidia-ml.so.1 comes with the driver), so no header or import
// library is needed to build this; without it the tool still prints rates and clocks stay "-".
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../gemm_bench.cuh"
#include "../mma_ceiling.cuh"
#include "../strata_runner.cuh"
#include "atom/arch/sm80.hpp"
#include "kernel/sm80_auto_gemm.hpp"

namespace {
using T = __nv_bfloat16;
using Mma = strata::arch::Mma_m16n8k16_f32_bf16_bf16_f32;
using strata::bench::check;

// ---- NVML, opened with dlopen: the few entry points used, with their C signatures -------------
struct Nvml {
  using Device = void*;
  void* library = nullptr;
  Device device = nullptr;
  int (*get_energy)(Device, unsigned long long*) = nullptr;  // mJ since the driver loaded
  int (*get_clock)(Device, int, unsigned*) = nullptr;        // MHz; type 1 = SM
  int (*get_reasons)(Device, unsigned long long*) = nullptr; // clock event reasons (bit 2: SW power cap)
  int (*get_temperature)(Device, int, unsigned*) = nullptr;   // °C; sensor 0 = GPU
  unsigned limit_mw = 0;

  Nvml() {
    library = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!library) return;
    auto sym = [&](const char* name) { return dlsym(library, name); };
    auto init = reinterpret_cast<int (*)()>(sym("nvmlInit_v2"));
    auto by_bus = reinterpret_cast<int (*)(const char*, Device*)>(sym("nvmlDeviceGetHandleByPciBusId_v2"));
    auto limit = reinterpret_cast<int (*)(Device, unsigned*)>(sym("nvmlDeviceGetEnforcedPowerLimit"));
    get_energy = reinterpret_cast<decltype(get_energy)>(sym("nvmlDeviceGetTotalEnergyConsumption"));
    get_clock = reinterpret_cast<decltype(get_clock)>(sym("nvmlDeviceGetClockInfo"));
    get_reasons = reinterpret_cast<decltype(get_reasons)>(sym("nvmlDeviceGetCurrentClocksEventReasons"));
    get_temperature = reinterpret_cast<decltype(get_temperature)>(sym("nvmlDeviceGetTemperature"));
    if (!get_reasons)
      get_reasons = reinterpret_cast<decltype(get_reasons)>(sym("nvmlDeviceGetCurrentClocksThrottleReasons"));
    char bus[32] = {};
    if (!init || !by_bus || !get_energy || !get_clock || init() != 0 ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, 0) != cudaSuccess || by_bus(bus, &device) != 0) {
      device = nullptr;
      return;
    }
    if (limit) limit(device, &limit_mw);
  }
  bool ok() const { return device != nullptr; }
  unsigned long long energy_mj() const {
    unsigned long long e = 0;
    if (ok()) get_energy(device, &e);
    return e;
  }
};

struct Sample {
  unsigned sm_mhz = 0, memory_mhz = 0, celsius = 0;
  unsigned long long reasons = 0;  // NVML clock event reasons
  bool power_capped() const { return reasons & 0x4ULL; }  // the software power cap
};

struct Measured {
  double tflops = 0, seconds = 0, joules = 0;
  std::vector<Sample> samples;
};

// Runs `launch` back to back for `seconds` (after a second of the same, not counted), sampling
// NVML every 10 ms from another thread. `flops` is per launch. Launches go in batches of about
// 10 ms between synchronizations, so short kernels also run back to back.
Measured sustain(Nvml const& nvml, double seconds, double flops, std::function<void()> const& launch) {
  using clock = std::chrono::steady_clock;
  auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  launch();  // the first launch also loads the module
  check(cudaDeviceSynchronize(), "first launch");
  const auto probe = clock::now();
  for (int i = 0; i < 3; ++i) launch();
  check(cudaDeviceSynchronize(), "probe launches");
  const int batch = int(std::clamp(0.03 / std::max(since(probe), 1e-6), 4.0, 4096.0));
  auto run_for = [&](double s) {
    long launches = 0;
    const auto start = clock::now();
    while (since(start) < s) {
      for (int i = 0; i < batch; ++i, ++launches) launch();
      check(cudaDeviceSynchronize(), "sustained launches");
    }
    return std::pair{launches, since(start)};
  };
  run_for(1.0);

  Measured m;
  std::atomic<bool> done{false};
  std::thread sampler([&] {
    while (!done.load()) {
      Sample s;
      if (nvml.ok()) {
        nvml.get_clock(nvml.device, 1, &s.sm_mhz);
        nvml.get_clock(nvml.device, 2, &s.memory_mhz);
        if (nvml.get_temperature) nvml.get_temperature(nvml.device, 0, &s.celsius);
        if (nvml.get_reasons) nvml.get_reasons(nvml.device, &s.reasons);
      }
      m.samples.push_back(s);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
  const unsigned long long e0 = nvml.energy_mj();
  const auto [launches, elapsed] = run_for(seconds);
  const unsigned long long e1 = nvml.energy_mj();
  done = true;
  sampler.join();
  m.seconds = elapsed;
  m.tflops = double(launches) * flops / elapsed * 1e-12;
  m.joules = double(e1 - e0) * 1e-3;
  return m;
}

void print_header(Nvml const& nvml) {
  std::printf("power limit (enforced): %s\n",
              nvml.limit_mw ? (std::to_string(nvml.limit_mw / 1000) + " W").c_str() : "unknown (no NVML)");
  std::printf("%-34s %8s %6s %7s %9s %9s %8s %10s %7s %8s %5s %s\n", "workload", "TFLOP/s", "TB/s", "watts",
              "SM MHz", "MHz min", "pJ/FLOP", "TFLOP/GHz", "capped", "mem MHz", "°C", "reasons seen");
}

// `bytes_per_flop`: A + B + D moved per FLOP, for the TB/s column of GEMM rows (0: not a GEMM).
void print_row(std::string const& name, Measured const& m, double bytes_per_flop = 0) {
  double mhz = 0, capped = 0, memory_mhz = 0;
  unsigned mhz_min = ~0u, celsius = 0;
  unsigned long long reasons = 0;
  for (auto const& s : m.samples) {
    mhz += s.sm_mhz, capped += s.power_capped(), mhz_min = std::min(mhz_min, s.sm_mhz);
    memory_mhz += s.memory_mhz, celsius = std::max(celsius, s.celsius), reasons |= s.reasons;
  }
  const double n = std::max<double>(double(m.samples.size()), 1);
  mhz /= n, memory_mhz /= n;
  const double watts = m.joules / m.seconds;
  const double pj = m.tflops > 0 ? watts / (m.tflops * 1e12) * 1e12 : 0;
  char tbs[16] = "-";
  if (bytes_per_flop > 0) std::snprintf(tbs, sizeof tbs, "%.2f", m.tflops * bytes_per_flop);
  if (m.joules > 0)
    std::printf("%-34s %8.1f %6s %7.0f %9.0f %9u %8.2f %10.1f %6.0f%% %8.0f %5u %#llx\n", name.c_str(), m.tflops, tbs,
                watts, mhz, mhz_min, pj, m.tflops / (mhz * 1e-3), 100 * capped / n, memory_mhz, celsius, reasons);
  else
    std::printf("%-34s %8.1f %6s %7s %9s %9s %8s %10s %7s\n", name.c_str(), m.tflops, tbs, "-", "-", "-", "-", "-",
                "-");
  std::fflush(stdout);
}

// ---- Steps 2 and 3: the large tile's mainloop with its operands in shared memory ----------------
constexpr int kThreads = 256;                       // 8 warps: 4 along M × 2 along N, 64 × 64 each
constexpr int kTileM = 256, kTileN = 128, kTileK = 64;
constexpr int kStages = 3;
constexpr int kRowChunks = kTileK * 2 / 16;         // 16-byte chunks per 64-element row: 8
constexpr int kStageChunks = (kTileM + kTileN) * kRowChunks;  // 3072 chunks = 48 KB
constexpr int kCopiesPerThread = kStageChunks / kThreads;     // 12
constexpr size_t kSmemBytes = size_t(kStages) * kStageChunks * 16;

// Chunk c of row r of a stage sits at chunk c ^ (r % 8): the 8 rows one ldmatrix matrix reads
// fall on 8 different 16-byte bank groups.
__device__ __forceinline__ const uint4* chunk_at(const uint4* stage, int row, int chunk) {
  return stage + row * kRowChunks + (chunk ^ (row & 7));
}

// `src` holds `src_tiles` stage images (random bf16); CTA b starts at image b and walks them.
template <bool Copy>
__global__ void __launch_bounds__(kThreads, 1)
    smem_mainloop_kernel(const uint4* __restrict__ src, int src_tiles, int k_tiles, int store, float* out) {
  extern __shared__ uint4 smem[];
  for (int i = threadIdx.x; i < kStages * kStageChunks; i += kThreads)
    smem[i] = src[(size_t(blockIdx.x) * kStages * kStageChunks + i) % (size_t(src_tiles) * kStageChunks)];
  __syncthreads();

  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int warp_m = warp % 4, warp_n = warp / 4;
  // ldmatrix.x4 rows: A takes a 16 × 16 block (matrices: rows 0-7/8-15 × k 0-7/8-15, k-major
  // order of a 16-bit A fragment); B takes 16 n × 16 k (two n8 fragments).
  const int a_row = warp_m * 64 + lane % 16, a_chunk = lane / 16;
  const int b_row = kTileM + warp_n * 64 + lane % 8 + 8 * (lane / 16), b_chunk = (lane / 8) % 2;

  float acc[4][8][4] = {};
  int tile = blockIdx.x;
#pragma unroll 1
  for (int t = 0; t < k_tiles; ++t) {
    if constexpr (Copy) strata::arch::cp_async_wait<kStages - 2>();
    __syncthreads();
    if constexpr (Copy) {
      // Refill the stage consumed in the previous iteration, as the kernel's pipeline does.
      uint4* dst = smem + ((t + kStages - 1) % kStages) * kStageChunks;
      tile = tile + 1 == src_tiles ? 0 : tile + 1;
      const uint4* from = src + size_t(tile) * kStageChunks;
#pragma unroll
      for (int j = 0; j < kCopiesPerThread; ++j)
        strata::arch::cp_async<16, strata::arch::CacheLevel::Global>(dst + threadIdx.x + j * kThreads,
                                                                   from + threadIdx.x + j * kThreads);
      strata::arch::cp_async_commit();
    }
    const uint4* stage = smem + (t % kStages) * kStageChunks;
#pragma unroll
    for (int kb = 0; kb < kTileK / 16; ++kb) {
      uint32_t a[4][4], b[8][2];
#pragma unroll
      for (int i = 0; i < 4; ++i) strata::arch::ldmatrix<4>(chunk_at(stage, a_row + 16 * i, 2 * kb + a_chunk), a[i]);
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        uint32_t r[4];
        strata::arch::ldmatrix<4>(chunk_at(stage, b_row + 16 * j, 2 * kb + b_chunk), r);
        b[2 * j][0] = r[0], b[2 * j][1] = r[1], b[2 * j + 1][0] = r[2], b[2 * j + 1][1] = r[3];
      }
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int jj = 0; jj < 8; ++jj) {
          const int j = i % 2 ? 7 - jj : jj;  // serpentine: consecutive mma.sync share an operand
          Mma::fma(acc[i][j], a[i], b[j], acc[i][j]);
        }
    }
  }
  if constexpr (Copy) strata::arch::cp_async_wait_all();
  if (store) {
    float sum = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
      for (int j = 0; j < 8; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) sum += acc[i][j][e];
    out[blockIdx.x * kThreads + threadIdx.x] = sum;
  }
}

}  // namespace

int main(int argc, char** argv) try {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 4.0;
  const char* usage = "[seconds per workload > 0] [m,n,k ...]   (default 8192,8192,8192)";
  std::vector<std::array<int, 3>> shapes;
  if (!strata::bench::shapes_from_args(argc, argv, 2, {{8192, 8192, 8192}}, usage, shapes)) return 2;
  if (!(seconds > 0)) {
    std::fprintf(stderr, "usage: %s %s\n", argv[0], usage);
    return 2;
  }
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const int sms = prop.multiProcessorCount;
  Nvml nvml;
  std::printf("GPU: %s, %d SMs; NVML %s; %.1f s per workload\n", prop.name, sms,
              nvml.ok() ? "open" : "not available", seconds);
  print_header(nvml);

  // Idle: what the board draws doing nothing (static power and memory refresh).
  {
    const double idle_seconds = std::min(seconds, 2.0);
    check(cudaDeviceSynchronize(), "sync");
    const unsigned long long e0 = nvml.energy_mj();
    std::this_thread::sleep_for(std::chrono::duration<double>(idle_seconds));
    const unsigned long long e1 = nvml.energy_mj();
    if (nvml.ok()) std::printf("%-34s %8s %6s %7.0f\n", "idle", "-", "-", double(e1 - e0) * 1e-3 / idle_seconds);
  }

  // 1. The register-only loop: grid and iteration count as in bench/mma_ceiling.cuh.
  {
    constexpr int chains = strata::bench::kMmaCeilingChains, threads = strata::bench::kMmaCeilingThreadsPerBlock;
    const auto kernel = strata::bench::detail::mma_sync_ceiling_kernel<Mma, chains, threads>;
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0), "occupancy");
    const int blocks = sms * per_sm, iterations = strata::bench::kMmaCeilingIterations;
    strata::bench::DeviceArray<float> out(int64_t(blocks) * threads);
    const double flops = double(blocks) * threads / 32 * iterations * chains * 2.0 * Mma::M * Mma::N * Mma::K;
    print_row("1. mma.sync, registers only", sustain(nvml, seconds, flops, [&] {
                kernel<<<blocks, threads>>>(iterations, 1, out.ptr);
              }));
  }

  // 2 and 3. The mainloop from shared memory, without and with the cp.async refills. The source
  // holds 256 stage images (12 MB: L2-resident) of random bf16.
  {
    constexpr int src_tiles = 256;
    strata::bench::DeviceArray<T> src(int64_t(src_tiles) * kStageChunks * 8);
    strata::bench::fill_random(src.ptr, src.count, 7);
    strata::bench::DeviceArray<float> out(int64_t(sms) * kThreads);
    const int k_tiles = 4096;
    const double flops = double(sms) * k_tiles * 2.0 * kTileM * kTileN * kTileK;
    auto run = [&](auto kernel, const char* name) {
      check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmemBytes)),
            "shared memory size");
      print_row(name, sustain(nvml, seconds, flops, [&] {
                  kernel<<<sms, kThreads, kSmemBytes>>>(reinterpret_cast<const uint4*>(src.ptr), src_tiles, k_tiles,
                                                      1, out.ptr);
                }));
    };
    run(smem_mainloop_kernel<false>, "2. + ldmatrix (operands in smem)");
    run(smem_mainloop_kernel<true>, "3. + cp.async refills from L2");
  }

  // 4 and 5, per shape: the GEMM itself, as the bench runs it (several input sets rotated), and
  // cuBLAS on the same buffers.
  cublasHandle_t handle;
  check(cublasCreate(&handle), "cublasCreate");
  for (auto const& [m, n, k] : shapes) {
    using Auto = strata::Sm80AutoGemm<strata::Sm80Tiles<T>, T>;
    const int64_t a_elems = int64_t(m) * k, b_elems = int64_t(k) * n;
    const int sets = strata::bench::input_sets_for((a_elems + b_elems) * int64_t(sizeof(T)));
    strata::bench::DeviceArray<T> a(a_elems * sets), b(b_elems * sets), d(int64_t(m) * n);
    strata::bench::fill_random(a.ptr, a.count, 11);
    strata::bench::fill_random(b.ptr, b.count, 12);
    std::vector<T*> a_sets, b_sets;
    for (int s = 0; s < sets; ++s) a_sets.push_back(a.ptr + s * a_elems), b_sets.push_back(b.ptr + s * b_elems);
    strata::bench::StrataRunner<Auto, T, T> runner;  // as the bench runs it
    std::string why;
    if (!runner.prepare(m, n, k, a_sets, b_sets, d.ptr, why)) throw std::runtime_error("strata refused: " + why);
    Auto::Arguments x;
    x.m = m, x.n = n, x.k = k;
    const double flops = 2.0 * m * double(n) * k;
    const double bytes_per_flop = double(a_elems + b_elems + int64_t(m) * n) * sizeof(T) / flops;
    const std::string shape = "m" + std::to_string(m) + " n" + std::to_string(n) + " k" + std::to_string(k);
    int next = 0;
    print_row("4. strata " + shape + " (" + strata::sm80_tile_class_name(Auto::tile_class(x)) + ")",
              sustain(nvml, seconds, flops, [&] { runner.launch(next++); }),
              bytes_per_flop);
    print_row("5. cuBLAS " + shape, sustain(nvml, seconds, flops, [&] {
                const int s = next++ % sets;
                strata::bench::cublas_gemm(handle, m, n, k, a.ptr + s * a_elems, true, k, b.ptr + s * b_elems, false,
                                           k, d.ptr, n);
              }),
              bytes_per_flop);
  }
  cublasDestroy(handle);
  return 0;
} catch (std::exception const& e) {
  std::fprintf(stderr, "sm80_power: %s\n", e.what());
  return 1;
}
