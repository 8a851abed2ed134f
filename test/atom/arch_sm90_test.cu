// GPU tests of the raw sm_90a wrappers of atom/arch/sm90.hpp that TMA tests do not already cover
// (skipped without a compute-capability 9.0 GPU):
//
//   - mbarrier phases over many stages: a producer/consumer ring of 4 stages and 1000 iterations,
//     the producer (one elected lane) filling each stage with a TMA load on its "full" barrier
//     (arrive.expect_tx), 128 consumer threads waiting on it, copying the stage out and releasing
//     it on its "empty" barrier (one arrival each); every element of every iteration checked;
//   - cluster-scope arrivals: in 2-CTA clusters each thread arrives on its own CTA's barrier and on
//     the peer's (mapa + arrive.release.cluster), 500 phases, waits with acquire.cluster;
//   - cluster special registers of a 2 x 2 x 1 cluster in a 3-D grid; elect.sync;
//   - griddepcontrol: a dependent kernel launched with programmatic stream serialization reads a
//     primary's results after griddepcontrol.wait, although the primary lets it start early;
//   - setmaxnreg: a 384-thread kernel whose producer warpgroup gives registers back (dec 40) and
//     whose consumer warpgroups take them (inc 232) runs to completion.
//   - TMA multicast to 2- and 4-CTA clusters (cluster launch): each CTA loads one slice and every
//     CTA of the cluster receives all slices (the last cluster's tile hangs over the tensor's edge),
//     and each CTA's cluster registers are as its launch says.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../common/gpu_test.hpp"
#include "atom/arch/sm90.hpp"
#include "atom/arch/sm90_tma.hpp"
#include "atom/tma.hpp"

namespace {

using namespace strata;
using strata::test::DeviceBuffer;

bool cluster_launch_supported() {
  int device = 0, supported = 0;
  return cudaGetDevice(&device) == cudaSuccess &&
         cudaDeviceGetAttribute(&supported, cudaDevAttrClusterLaunch, device) == cudaSuccess && supported != 0;
}

// ------------------------------------------------------------------------------------------------
// A producer/consumer ring
// ------------------------------------------------------------------------------------------------

constexpr int kStages = 4, kIterations = 1000;
constexpr int kTileCols = 32, kTileRows = 4, kTileElements = kTileCols * kTileRows;  // 512-byte boxes
constexpr int kConsumers = kTileElements;                                            // one element each
constexpr int kRingCtas = 4;

__global__ void __launch_bounds__(32 + kConsumers) ring_kernel(const __grid_constant__ CUtensorMap map, float* out) {
  __shared__ alignas(128) float stage[kStages][kTileElements];
  __shared__ uint64_t full[kStages], empty[kStages];
  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      arch::mbarrier_init(&full[s], 1);            // the producer's arrive.expect_tx
      arch::mbarrier_init(&empty[s], kConsumers);  // every consumer releases the stage
    }
    arch::fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x < 32) {
    if (arch::elect_one_sync()) {
      for (int i = 0; i < kIterations; ++i) {
        const int s = i % kStages;
        const uint32_t round = uint32_t(i / kStages);
        arch::mbarrier_wait_parity(&empty[s], (round & 1) ^ 1);  // round 0 passes: the stage starts empty
        arch::mbarrier_arrive_expect_tx(&full[s], kTileElements * sizeof(float));
        arch::tma_load(&map, &full[s], stage[s], 0, i * kTileRows);
      }
    }
  } else {
    const int t = threadIdx.x - 32;
    for (int i = 0; i < kIterations; ++i) {
      const int s = i % kStages;
      arch::mbarrier_wait_parity(&full[s], uint32_t(i / kStages) & 1);
      out[(size_t(blockIdx.x) * kIterations + i) * kTileElements + t] = stage[s][t];
      arch::mbarrier_arrive(&empty[s]);
    }
  }
}

TEST(ArchSm90Mbarrier, RingOfFourStagesFlipsPhasesOverAThousandIterations) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  std::mt19937 rng(51);
  std::uniform_real_distribution<float> value(1.0f, 2.0f);
  std::vector<float> in(size_t(kIterations) * kTileElements);
  for (auto& v : in) v = value(rng);
  DeviceBuffer<float> d_in(in);
  CUtensorMap map;
  const auto global = make_layout(make_shape(kTileCols, kIterations * kTileRows), make_stride(_1{}, kTileCols));
  const Status s = make_tma_descriptor(map, d_in.get(), global, Layout<Shape<Int<kTileCols>, Int<kTileRows>>>{});
  ASSERT_TRUE(s.ok()) << s.message();
  DeviceBuffer<float> d_out(size_t(kRingCtas) * in.size());
  d_out.fill_bytes(0xFF);
  ring_kernel<<<kRingCtas, 32 + kConsumers>>>(map, d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto out = d_out.download();
  for (int b = 0; b < kRingCtas; ++b) {
    int wrong = 0, first = -1;
    for (size_t i = 0; i < in.size(); ++i) {
      if (out[b * in.size() + i] != in[i]) {
        ++wrong;
        if (first < 0) first = int(i);
      }
    }
    EXPECT_EQ(wrong, 0) << "CTA " << b << ": first wrong element " << first << " (iteration "
                        << first / kTileElements << ")";
  }
}

// ------------------------------------------------------------------------------------------------
// Cluster-scope arrivals
// ------------------------------------------------------------------------------------------------

constexpr int kArriveRounds = 500;

// Each phase of each CTA's barrier needs 32 arrivals of its own warp and 32 of the peer's. A thread
// arrives locally, then on the peer (release at cluster scope), then waits (acquire at cluster
// scope): the peer cannot reach the next round before this phase is complete.
__global__ void cluster_arrive_kernel(uint32_t* rounds_done) {
  __shared__ uint64_t bar;
  const uint32_t peer = arch::cluster_cta_rank() ^ 1u;
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 64);
    arch::fence_mbarrier_init();
  }
  arch::cluster_sync();
  uint32_t done = 0;
  for (int r = 0; r < kArriveRounds; ++r) {
    arch::mbarrier_arrive(&bar);
    arch::mbarrier_arrive_cluster(&bar, peer);
    arch::mbarrier_wait_parity<arch::WaitScope::cluster>(&bar, uint32_t(r) & 1);
    ++done;
  }
  rounds_done[blockIdx.x * 32 + threadIdx.x] = done;
  arch::cluster_sync();  // no CTA leaves while its peer may still arrive on its barrier
}

cudaLaunchAttribute cluster_attribute(dim3 shape) {
  cudaLaunchAttribute a{};
  a.id = cudaLaunchAttributeClusterDimension;
  a.val.clusterDim.x = shape.x;
  a.val.clusterDim.y = shape.y;
  a.val.clusterDim.z = shape.z;
  return a;
}

TEST(ArchSm90Mbarrier, ArrivalsOnThePeerCtaCompleteItsPhases) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  if (!cluster_launch_supported()) GTEST_SKIP() << "the device does not support cluster launch";
  constexpr int ctas = 4;
  DeviceBuffer<uint32_t> d_done(ctas * 32);
  d_done.fill_bytes(0);
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(ctas);
  config.blockDim = dim3(32);
  cudaLaunchAttribute attribute = cluster_attribute(dim3(2, 1, 1));
  config.attrs = &attribute;
  config.numAttrs = 1;
  STRATA_CUDA_CHECK(cudaLaunchKernelEx(&config, cluster_arrive_kernel, d_done.get()));
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  for (uint32_t d : d_done.download()) ASSERT_EQ(d, uint32_t(kArriveRounds));
}

// ------------------------------------------------------------------------------------------------
// Cluster registers, elect.sync
// ------------------------------------------------------------------------------------------------

constexpr int kClusterInfo = 11;

__global__ void cluster_registers_kernel(uint32_t* info) {
  if (threadIdx.x != 0) return;
  const int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  uint32_t* mine = info + kClusterInfo * block;
  const dim3 id = arch::cluster_cta_id(), shape = arch::cluster_shape(), cluster = arch::cluster_id();
  const uint32_t values[kClusterInfo] = {arch::cluster_cta_rank(), arch::cluster_num_ctas(), id.x, id.y, id.z,
                                         shape.x, shape.y, shape.z, cluster.x, cluster.y, cluster.z};
  for (int i = 0; i < kClusterInfo; ++i) mine[i] = values[i];
}

TEST(ArchSm90Cluster, SpecialRegistersOfATwoByTwoCluster) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  if (!cluster_launch_supported()) GTEST_SKIP() << "the device does not support cluster launch";
  const dim3 grid(4, 4, 2);
  const int blocks = 4 * 4 * 2;
  DeviceBuffer<uint32_t> d_info(size_t(blocks) * kClusterInfo);
  d_info.fill_bytes(0xFF);
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = dim3(32);
  cudaLaunchAttribute attribute = cluster_attribute(dim3(2, 2, 1));
  config.attrs = &attribute;
  config.numAttrs = 1;
  STRATA_CUDA_CHECK(cudaLaunchKernelEx(&config, cluster_registers_kernel, d_info.get()));
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto info = d_info.download();
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        SCOPED_TRACE("block (" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")");
        const uint32_t* mine = info.data() + kClusterInfo * (x + 4 * (y + 4 * z));
        const uint32_t expected[kClusterInfo] = {uint32_t(x % 2 + 2 * (y % 2)), 4, uint32_t(x % 2), uint32_t(y % 2), 0,
                                                 2, 2, 1, uint32_t(x / 2), uint32_t(y / 2), uint32_t(z)};
        const char* names[kClusterInfo] = {"%cluster_ctarank", "%cluster_nctarank", "%cluster_ctaid.x",
                                           "%cluster_ctaid.y", "%cluster_ctaid.z", "%cluster_nctaid.x",
                                           "%cluster_nctaid.y", "%cluster_nctaid.z", "%clusterid.x",
                                           "%clusterid.y", "%clusterid.z"};
        for (int i = 0; i < kClusterInfo; ++i) EXPECT_EQ(mine[i], expected[i]) << names[i];
      }
}

__global__ void elect_kernel(uint32_t* elected) { elected[threadIdx.x] = arch::elect_one_sync() ? 1u : 0u; }

TEST(ArchSm90Cluster, ElectSyncPicksExactlyOneLanePerWarp) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  DeviceBuffer<uint32_t> d_elected(256);
  d_elected.fill_bytes(0xFF);
  elect_kernel<<<1, 256>>>(d_elected.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto elected = d_elected.download();
  for (int w = 0; w < 8; ++w) {
    int count = 0;
    for (int l = 0; l < 32; ++l) {
      ASSERT_LE(elected[w * 32 + l], 1u);
      count += int(elected[w * 32 + l]);
    }
    EXPECT_EQ(count, 1) << "warp " << w;
  }
}

// ------------------------------------------------------------------------------------------------
// Programmatic dependent launch
// ------------------------------------------------------------------------------------------------

constexpr int kDependentElements = 1 << 16;

// Lets its dependent start at once, then takes a while before writing what the dependent reads.
__global__ void primary_kernel(uint32_t* data) {
  arch::griddepcontrol_launch_dependents();
  const uint64_t start = arch::detail::global_timer_ns();
  while (arch::detail::global_timer_ns() - start < 200000) __nanosleep(1000);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < kDependentElements; i += gridDim.x * blockDim.x)
    data[i] = 3u * uint32_t(i) + 1u;
}

__global__ void dependent_kernel(const uint32_t* data, uint32_t* out) {
  arch::griddepcontrol_wait();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < kDependentElements; i += gridDim.x * blockDim.x)
    out[i] = data[i];
}

TEST(ArchSm90GridDependency, DependentReadsThePrimarysResultsAfterTheWait) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  DeviceBuffer<uint32_t> d_data(kDependentElements), d_out(kDependentElements);
  for (bool programmatic : {true, false}) {
    SCOPED_TRACE(programmatic ? "programmatic stream serialization" : "ordinary stream order");
    d_data.fill_bytes(0);
    d_out.fill_bytes(0xFF);
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
    primary_kernel<<<8, 256>>>(d_data.get());
    STRATA_CUDA_CHECK(cudaGetLastError());
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(8);
    config.blockDim = dim3(256);
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    config.attrs = &attribute;
    config.numAttrs = programmatic ? 1 : 0;
    STRATA_CUDA_CHECK(cudaLaunchKernelEx(&config, dependent_kernel, static_cast<const uint32_t*>(d_data.get()),
                                         d_out.get()));
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
    const auto out = d_out.download();
    int wrong = 0;
    for (int i = 0; i < kDependentElements; ++i) wrong += out[i] != 3u * uint32_t(i) + 1u;
    EXPECT_EQ(wrong, 0) << "elements read before the primary wrote them";
  }
}

// ------------------------------------------------------------------------------------------------
// setmaxnreg
// ------------------------------------------------------------------------------------------------

// 384 threads capped at 168 registers: 128 x 40 + 256 x 232 = 64,512 registers, the CTA's pool.
__global__ void __launch_bounds__(384, 1) setmaxnreg_kernel(uint32_t* out) {
  const int warpgroup = threadIdx.x / 128;
  if (warpgroup == 0) {
    arch::setmaxnreg_dec<40>();
    out[threadIdx.x] = 40u;
  } else {
    arch::setmaxnreg_inc<232>();
    out[threadIdx.x] = 232u + uint32_t(warpgroup);
  }
}

TEST(ArchSm90Registers, WarpgroupsTradeRegistersAndRunToCompletion) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  DeviceBuffer<uint32_t> d_out(384);
  d_out.fill_bytes(0);
  setmaxnreg_kernel<<<2, 384>>>(d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto out = d_out.download();
  for (int t = 0; t < 384; ++t) EXPECT_EQ(out[t], t < 128 ? 40u : 232u + uint32_t(t / 128)) << "thread " << t;
}

// ------------------------------------------------------------------------------------------------
// TMA multicast
// ------------------------------------------------------------------------------------------------

constexpr int kSliceRows = 8, kSliceCols = 32;  // one CTA's slice: 8 rows of 32 floats (1 KiB)
using SliceBox = Layout<Shape<Int<kSliceCols>, Int<kSliceRows>>>;

// Cluster c loads the tile of ClusterSize slices starting at row c * ClusterSize * kSliceRows: CTA r
// of the cluster loads slice r and multicasts it to every CTA of the cluster, so each receives the
// whole tile; its barrier expects all of it. `info` gets each CTA's cluster registers.
template <int ClusterSize>
__global__ void tma_multicast_kernel(const __grid_constant__ CUtensorMap map, float* out, uint32_t* info) {
  constexpr int slice = kSliceRows * kSliceCols;
  __shared__ alignas(1024) float tile[ClusterSize * slice];
  __shared__ uint64_t bar;
  const uint32_t rank = arch::cluster_cta_rank();
  auto* bytes = reinterpret_cast<unsigned char*>(tile);
  for (int i = threadIdx.x; i < int(sizeof(tile)); i += blockDim.x) bytes[i] = 0xEE;  // poison
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_mbarrier_init();
  }
  arch::fence_proxy_async_shared();
  arch::cluster_sync();  // every CTA's barrier and poison are in place before any multicast lands
  if (threadIdx.x == 0) {
    arch::mbarrier_arrive_expect_tx(&bar, uint32_t(sizeof(tile)));
    const int row = int(arch::cluster_id().x) * ClusterSize * kSliceRows + int(rank) * kSliceRows;
    arch::tma_load_multicast(&map, &bar, uint16_t((1u << ClusterSize) - 1), tile + rank * slice, 0, row);
  }
  arch::mbarrier_wait_parity(&bar, 0);
  for (int i = threadIdx.x; i < ClusterSize * slice; i += blockDim.x) out[blockIdx.x * ClusterSize * slice + i] = tile[i];
  if (threadIdx.x == 0) {
    uint32_t* mine = info + 6 * blockIdx.x;
    mine[0] = rank;
    mine[1] = arch::cluster_num_ctas();
    mine[2] = arch::cluster_cta_id().x;
    mine[3] = arch::cluster_shape().x;
    mine[4] = arch::cluster_id().x;
    mine[5] = arch::cluster_shape().y * arch::cluster_shape().z;
  }
  arch::cluster_sync();  // no CTA leaves while a peer's multicast may still target its shared memory
}

template <int ClusterSize>
void check_multicast(uint32_t seed) {
  constexpr int clusters = 3, slice = kSliceRows * kSliceCols, tile = ClusterSize * slice;
  const long long rows = clusters * ClusterSize * kSliceRows - 5;  // the last tile hangs over the edge
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(1.0f, 2.0f);  // never zero, never the poison pattern
  std::vector<float> global(size_t(rows) * kSliceCols);
  for (float& v : global) v = value(rng);
  DeviceBuffer<float> d_global(global);
  CUtensorMap map;
  const auto layout = make_layout(make_shape(kSliceCols, rows), make_stride(_1{}, kSliceCols));
  const Status s = make_tma_descriptor(map, d_global.get(), layout, SliceBox{});
  ASSERT_TRUE(s.ok()) << s.message();
  const int ctas = clusters * ClusterSize;
  DeviceBuffer<float> d_out(size_t(ctas) * tile);
  DeviceBuffer<uint32_t> d_info(size_t(ctas) * 6);
  d_out.fill_bytes(0);
  d_info.fill_bytes(0xFF);

  cudaLaunchConfig_t config{};
  config.gridDim = dim3(ctas);
  config.blockDim = dim3(128);
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeClusterDimension;
  attribute.val.clusterDim.x = ClusterSize;
  attribute.val.clusterDim.y = 1;
  attribute.val.clusterDim.z = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  STRATA_CUDA_CHECK(cudaLaunchKernelEx(&config, tma_multicast_kernel<ClusterSize>, map, d_out.get(), d_info.get()));
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());

  const auto out = d_out.download();
  const auto info = d_info.download();
  for (int b = 0; b < ctas; ++b) {
    SCOPED_TRACE("CTA " + std::to_string(b));
    const uint32_t* mine = info.data() + 6 * b;
    EXPECT_EQ(mine[0], uint32_t(b % ClusterSize)) << "%cluster_ctarank";
    EXPECT_EQ(mine[1], uint32_t(ClusterSize)) << "%cluster_nctarank";
    EXPECT_EQ(mine[2], uint32_t(b % ClusterSize)) << "%cluster_ctaid.x";
    EXPECT_EQ(mine[3], uint32_t(ClusterSize)) << "%cluster_nctaid.x";
    EXPECT_EQ(mine[4], uint32_t(b / ClusterSize)) << "%clusterid.x";
    EXPECT_EQ(mine[5], 1u) << "%cluster_nctaid.y * .z";
    const long long row0 = (b / ClusterSize) * ClusterSize * kSliceRows;
    int wrong = 0;
    for (int i = 0; i < tile; ++i) {
      const long long row = row0 + i / kSliceCols;  // rows past the tensor arrive as zeros
      const float expected = row < rows ? global[size_t(row * kSliceCols + i % kSliceCols)] : 0.0f;
      wrong += std::memcmp(&out[size_t(b) * tile + i], &expected, sizeof(float)) != 0;
    }
    EXPECT_EQ(wrong, 0) << "wrong elements of the multicast tile";
  }
}

TEST(TmaMulticast, TwoCtaClusterEveryCtaReceivesEverySlice) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  if (!cluster_launch_supported()) GTEST_SKIP() << "the device does not support cluster launch";
  check_multicast<2>(41);
}

TEST(TmaMulticast, FourCtaClusterEveryCtaReceivesEverySlice) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  if (!cluster_launch_supported()) GTEST_SKIP() << "the device does not support cluster launch";
  check_multicast<4>(42);
}

}  // namespace
