// GPU tests of TMA on sm_90a (skipped without a compute-capability 9.0 GPU): descriptors from
// atom/tma.hpp, instructions from atom/arch/sm90.hpp, atoms from atom/copy_sm90.hpp.
//
//   - loads of 2-D to 5-D boxes, row- and column-major, that hang over the far edge of the tensor
//     in every dimension, from origins TMA accepts (never negative, and the contiguous dimension's
//     a multiple of 16 bytes: otherwise the H200 raises an illegal instruction, docs/atoms_sm90.md):
//     every element of shared memory is compared with the global element it
//     must hold, or with zero where the box leaves the tensor; shared memory is poisoned first;
//   - swizzled boxes (32, 64 and 128 bytes, rows of the whole swizzle span): the shared
//     memory image must be the box layout's — the Strata swizzle evaluated on the host says where
//     each element lands;
//   - the same through the TMA atom and its TiledCopy, from a coordinate tensor;
//   - stores that hang over the edges: exactly the in-bounds part is written (in the contiguous
//     dimension up to the next 16 bytes: the H200 clips rows at that granularity), every other global
//     element (padding between rows, guard cells past the end) keeps its guard value; the second
//     store reuses the shared box after bulk_wait_group_read.
// Multicast to clusters is tested in arch_sm90_test.cu.
// Global data is fresh random values that are never zero and never the poison pattern.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "../common/gpu_test.hpp"
#include "atom/arch/sm90.hpp"
#include "atom/arch/sm90_tma.hpp"
#include "atom/copy_sm90.hpp"
#include "atom/tma.hpp"
#include "layout/swizzle.hpp"

namespace {

using namespace strata;
using strata::test::DeviceBuffer;

constexpr int kMaxBoxBytes = 8192;
constexpr unsigned char kPoison = 0xEE;  // shared memory before a load; 0xEEEE / 0xEEEEEEEE never occurs in data
constexpr unsigned char kGuard = 0xCD;   // global memory a store must not touch

struct Coords {
  int32_t c[5];
};

// ------------------------------------------------------------------------------------------------
// Kernels
// ------------------------------------------------------------------------------------------------

// The shared box: dynamic shared memory whose start is rounded up (as a .shared::cta address, which
// is what TMA sees) to 1024 bytes, the 128-byte swizzle's repeat; launches ask for the box's bytes
// plus kSmemAlignSlack. Static `__shared__ alignas(1024)` arrays are not relied on: only the
// variable's offset in the static segment is aligned, not necessarily the address TMA receives.
constexpr int kSmemAlign = 1024;
constexpr int kSmemAlignSlack = kSmemAlign;
constexpr size_t kBoxSmemBytes = size_t(kMaxBoxBytes) + kSmemAlignSlack;

__device__ unsigned char* aligned_box_smem() {
  extern __shared__ unsigned char tma_test_dynamic_smem[];
  const uint32_t raw = uint32_t(__cvta_generic_to_shared(tma_test_dynamic_smem));
  return tma_test_dynamic_smem + (uint32_t(kSmemAlign) - raw % uint32_t(kSmemAlign)) % uint32_t(kSmemAlign);
}

template <int Rank>
__device__ void issue_load(const CUtensorMap* map, uint64_t* bar, void* dst, Coords const& o) {
  [&]<int... Ds>(std::integer_sequence<int, Ds...>) { arch::tma_load(map, bar, dst, o.c[Ds]...); }(
      std::make_integer_sequence<int, Rank>{});
}
template <int Rank>
__device__ void issue_store(const CUtensorMap* map, const void* src, Coords const& o) {
  [&]<int... Ds>(std::integer_sequence<int, Ds...>) { arch::tma_store(map, src, o.c[Ds]...); }(
      std::make_integer_sequence<int, Rank>{});
}

// One box at `origin` (TMA coordinates) into poisoned shared memory, then all of it to `out`.
// The barrier's bytes are expected separately from its one arrival (expect_tx, then arrive).
template <int Rank>
__global__ void tma_load_kernel(const __grid_constant__ CUtensorMap map, Coords origin, int box_bytes,
                                unsigned char* out) {
  unsigned char* box = aligned_box_smem();  // kMaxBoxBytes
  __shared__ uint64_t bar;
  for (int i = threadIdx.x; i < box_bytes; i += blockDim.x) box[i] = kPoison;
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_mbarrier_init();
  }
  arch::fence_proxy_async_shared();  // the poison (generic proxy) before TMA's writes (async proxy)
  __syncthreads();
  if (threadIdx.x == 0) {
    arch::prefetch_tensormap(&map);
    arch::mbarrier_expect_tx(&bar, box_bytes);
    issue_load<Rank>(&map, &bar, box, origin);
    arch::mbarrier_arrive(&bar);
  }
  arch::mbarrier_wait_parity(&bar, 0);
  for (int i = threadIdx.x; i < box_bytes; i += blockDim.x) out[i] = box[i];
}

// The same box through the TMA atom's TiledCopy: coordinates from an identity tensor over the box
// shape starting at (o0, o1) (mode order), shared memory laid out by Box.
template <class T, class Box>
__global__ void tma_atom_load_kernel(const __grid_constant__ CUtensorMap map, int o0, int o1, T* out) {
  constexpr int n = int(TmaBox<T, Box>::num_elements);
  static_assert(n * sizeof(T) <= kMaxBoxBytes);
  T* box_mem = reinterpret_cast<T*>(aligned_box_smem());  // n elements
  __shared__ uint64_t bar;
  auto* bytes = reinterpret_cast<unsigned char*>(box_mem);
  for (int i = threadIdx.x; i < n * int(sizeof(T)); i += blockDim.x) bytes[i] = kPoison;
  if (threadIdx.x == 0) {
    arch::mbarrier_init(&bar, 1);
    arch::fence_mbarrier_init();
  }
  arch::fence_proxy_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) {
    auto atom = make_tma_load_atom<T>(&map, Box{});
    auto tiled = make_tma_tiled_copy(atom);
    auto thr = tiled.get_slice(0);
    auto shape = product_each(Box{}.shape());
    auto coords = make_tensor(CoordIterator<tuple<int, int>>{make_tuple(o0, o1)}, make_identity_layout(shape));
    auto sbox = make_tensor(make_smem_ptr(box_mem), Box{});
    arch::mbarrier_arrive_expect_tx(&bar, tma_transaction_bytes(atom));
    copy(tiled.with(&bar), thr.partition_S(coords), thr.partition_D(sbox));
  }
  arch::mbarrier_wait_parity(&bar, 0);
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = box_mem[i];
}

// Two stores of one shared box: `first` from image1, then — once the first has read shared memory —
// `second` from image2. The origins' in-bounds parts must not overlap (two bulk writes race).
template <int Rank>
__global__ void tma_store_kernel(const __grid_constant__ CUtensorMap map, Coords first, Coords second,
                                 const unsigned char* image1, const unsigned char* image2, int box_bytes) {
  unsigned char* box = aligned_box_smem();  // kMaxBoxBytes
  for (int i = threadIdx.x; i < box_bytes; i += blockDim.x) box[i] = image1[i];
  arch::fence_proxy_async_shared();  // the threads' writes before TMA reads them
  __syncthreads();
  if (threadIdx.x == 0) {
    issue_store<Rank>(&map, box, first);
    arch::bulk_commit_group();
    arch::bulk_wait_group_read<0>();
  }
  __syncthreads();
  for (int i = threadIdx.x; i < box_bytes; i += blockDim.x) box[i] = image2[i];
  arch::fence_proxy_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) {
    issue_store<Rank>(&map, box, second);
    arch::bulk_commit_group();
    arch::bulk_wait_group<0>();
  }
}

// A store through the TMA store atom, from a shared box filled from `image`, to the box at (o0, o1).
template <class T, class Box>
__global__ void tma_atom_store_kernel(const __grid_constant__ CUtensorMap map, int o0, int o1, const T* image) {
  constexpr int n = int(TmaBox<T, Box>::num_elements);
  static_assert(n * sizeof(T) <= kMaxBoxBytes);
  T* box_mem = reinterpret_cast<T*>(aligned_box_smem());  // n elements
  for (int i = threadIdx.x; i < n; i += blockDim.x) box_mem[i] = image[i];
  arch::fence_proxy_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) {
    auto shape = product_each(Box{}.shape());
    auto coords = make_tensor(CoordIterator<tuple<int, int>>{make_tuple(o0, o1)}, make_identity_layout(shape));
    auto sbox = make_tensor(make_smem_ptr(box_mem), Box{});
    copy(make_tma_store_atom<T>(&map, Box{}), sbox, coords);
    arch::bulk_commit_group();
    arch::bulk_wait_group<0>();
  }
}

// ------------------------------------------------------------------------------------------------
// Host side: a global tensor, random data, expected images
// ------------------------------------------------------------------------------------------------

template <class T>
T random_value(std::mt19937& rng) {
  if constexpr (std::is_same_v<T, float>) {
    return std::uniform_real_distribution<float>(1.0f, 2.0f)(rng);
  } else {
    return T(std::uniform_int_distribution<int>(1, 0xEEED)(rng));
  }
}

template <class T>
uint64_t bits_of(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

template <class T, int R>
struct GlobalTensor {
  std::array<long long, R> dims, strides;
  std::vector<T> host;

  GlobalTensor(std::array<long long, R> d, std::array<long long, R> s) : dims(d), strides(s) {
    long long span = 1;
    for (int m = 0; m < R; ++m) span += (dims[m] - 1) * strides[m];
    host.resize(size_t(span));
  }
  void fill_random(std::mt19937& rng) {
    for (auto& v : host) v = random_value<T>(rng);
  }
  auto layout() const {
    return [&]<std::size_t... Ms>(std::index_sequence<Ms...>) {
      return make_layout(make_shape(dims[Ms]...), make_stride(strides[Ms]...));
    }(std::make_index_sequence<R>{});
  }
  bool inside(std::array<long long, R> const& g) const {
    for (int m = 0; m < R; ++m)
      if (g[m] < 0 || g[m] >= dims[m]) return false;
    return true;
  }
  long long offset(std::array<long long, R> const& g) const {
    long long o = 0;
    for (int m = 0; m < R; ++m) o += g[m] * strides[m];
    return o;
  }
};

// The global coordinate (mode order) of box element i (column-major over the box's extents).
template <int R>
std::array<long long, R> box_element(std::array<long long, R> const& extent, std::array<long long, R> const& origin,
                                     long long i) {
  std::array<long long, R> g{};
  for (int m = 0; m < R; ++m) {
    g[m] = origin[m] + i % extent[m];
    i /= extent[m];
  }
  return g;
}

template <int R, class B>
Coords tma_coords(std::array<long long, R> const& origin) {
  Coords c{};
  for (int d = 0; d < R; ++d) c.c[d] = int32_t(origin[B::mode_of_dim[d]]);
  return c;
}

template <int R>
std::string origin_text(std::array<long long, R> const& o) {
  std::string s = "(";
  for (int m = 0; m < R; ++m) s += (m ? ", " : "") + std::to_string(o[m]);
  return s + ")";
}

// Loads the box at each origin (mode order) and checks every element of shared memory.
template <class T, int R, class Box>
void check_loads(GlobalTensor<T, R> const& g, Box const& box,
                 std::type_identity_t<std::vector<std::array<long long, R>>> const& origins) {
  using B = TmaBox<T, Box>;
  static_assert(B::rank == R);
  constexpr long long n = B::num_elements;
  static_assert(n * sizeof(T) <= kMaxBoxBytes);
  DeviceBuffer<T> d_global(g.host);
  CUtensorMap map;
  const Status s = make_tma_descriptor(map, d_global.get(), g.layout(), box);
  ASSERT_TRUE(s.ok()) << s.message();
  DeviceBuffer<unsigned char> d_out(n * sizeof(T));
  for (auto const& origin : origins) {
    SCOPED_TRACE("box origin " + origin_text<R>(origin));
    d_out.fill_bytes(0);
    tma_load_kernel<R><<<1, 128, kBoxSmemBytes>>>(map, tma_coords<R, B>(origin), int(n * sizeof(T)), d_out.get());
    STRATA_CUDA_CHECK(cudaGetLastError());
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
    const auto raw = d_out.download();
    std::vector<T> smem(n);
    std::memcpy(smem.data(), raw.data(), raw.size());
    std::vector<int> hits(n, 0);
    int wrong = 0;
    for (long long i = 0; i < n; ++i) {
      const auto e = box_element<R>(B::extent, origin, i);
      const long long at = box(i);
      ASSERT_TRUE(at >= 0 && at < n) << "box layout leaves the box at element " << i;
      ++hits[at];
      const T expected = g.inside(e) ? g.host[g.offset(e)] : T(0);
      if (bits_of(smem[at]) != bits_of(expected) && ++wrong <= 10) {
        ADD_FAILURE() << "element " << origin_text<R>(e) << " (shared element " << at << "): got bits 0x" << std::hex
                      << bits_of(smem[at]) << ", expected 0x" << bits_of(expected) << std::dec
                      << (g.inside(e) ? "" : " (out of bounds: zero)");
      }
    }
    EXPECT_EQ(wrong, 0) << "wrong elements";
    for (long long i = 0; i < n; ++i) ASSERT_EQ(hits[i], 1) << "the box layout must reach each element once";
  }
}

// Whether a TMA store writes the element at global coordinate e (mode order): inside the tensor, or
// in the contiguous dimension (mode `contiguous`) past its end up to the next 16-byte boundary: the
// H200 clips a store's rows at 16-byte granularity (the epilogue keeps its D boxes off that edge).
template <class T, int R>
bool stored_by_tma(GlobalTensor<T, R> const& g, std::type_identity_t<std::array<long long, R>> const& e, int contiguous) {
  constexpr long long granule = 16 / sizeof(T);
  for (int m = 0; m < R; ++m) {
    const long long end = m == contiguous ? (g.dims[m] + granule - 1) / granule * granule : g.dims[m];
    if (e[m] < 0 || e[m] >= end) return false;
  }
  return true;
}

// Stores image1 at `first` and image2 at `second` (mode order) and checks all of global memory.
template <class T, int R, class Box>
void check_stores(std::array<long long, R> dims, std::array<long long, R> strides, Box const& box,
                  std::array<long long, R> const& first, std::array<long long, R> const& second, uint32_t seed) {
  using B = TmaBox<T, Box>;
  static_assert(B::rank == R);
  constexpr long long n = B::num_elements;
  static_assert(n * sizeof(T) <= kMaxBoxBytes);
  std::mt19937 rng(seed);
  GlobalTensor<T, R> g(dims, strides);
  const size_t guard_after = 64;
  std::vector<T> expected(g.host.size() + guard_after);
  std::memset(expected.data(), kGuard, expected.size() * sizeof(T));
  DeviceBuffer<T> d_global(expected.size());
  d_global.fill_bytes(kGuard);
  std::vector<T> image1(n), image2(n);
  for (auto& v : image1) v = random_value<T>(rng);
  for (auto& v : image2) v = random_value<T>(rng);
  for (auto const& [origin, image] : {std::pair{first, &image1}, std::pair{second, &image2}}) {
    for (long long i = 0; i < n; ++i) {
      const auto e = box_element<R>(B::extent, origin, i);
      if (stored_by_tma(g, e, B::mode_of_dim[0])) expected[g.offset(e)] = (*image)[box(i)];
    }
  }
  CUtensorMap map;
  const Status s = make_tma_descriptor(map, d_global.get(), g.layout(), box);
  ASSERT_TRUE(s.ok()) << s.message();
  DeviceBuffer<T> d_image1(image1), d_image2(image2);
  tma_store_kernel<R><<<1, 128, kBoxSmemBytes>>>(map, tma_coords<R, B>(first), tma_coords<R, B>(second),
                                  reinterpret_cast<const unsigned char*>(d_image1.get()),
                                  reinterpret_cast<const unsigned char*>(d_image2.get()), int(n * sizeof(T)));
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto got = d_global.download();
  int wrong = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    if (bits_of(got[i]) != bits_of(expected[i]) && ++wrong <= 10) {
      ADD_FAILURE() << "global element " << i << ": got bits 0x" << std::hex << bits_of(got[i]) << ", expected 0x"
                    << bits_of(expected[i]) << std::dec;
    }
  }
  EXPECT_EQ(wrong, 0) << "wrong global elements (stores " << origin_text<R>(first) << " and "
                      << origin_text<R>(second) << ")";
}

// ------------------------------------------------------------------------------------------------
// Loads
// ------------------------------------------------------------------------------------------------

TEST(TmaLoad, TwoDimensionalColumnMajorBoxesZeroFillOutsideTheTensor) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  std::mt19937 rng(17);
  GlobalTensor<float, 2> g({50, 37}, {1, 52});
  g.fill_random(rng);
  check_loads(g, Layout<Shape<_16, _8>>{}, {{{8, 4}}, {{40, 33}}, {{48, 0}}, {{0, 30}}, {{0, 0}}, {{48, 36}}});
}

TEST(TmaLoad, TwoDimensionalRowMajorBoxIsReorderedIntoTmaDimensions) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  std::mt19937 rng(18);
  GlobalTensor<float, 2> g({37, 50}, {52, 1});
  g.fill_random(rng);
  check_loads(g, Layout<Shape<_8, _16>, Stride<_16, _1>>{}, {{{4, 8}}, {{33, 40}}, {{0, 48}}, {{36, 0}}});
}

TEST(TmaLoad, ThreeDimensionalBoxes) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  std::mt19937 rng(19);
  GlobalTensor<float, 3> g({13, 7, 5}, {1, 16, 144});
  g.fill_random(rng);
  check_loads(g, Layout<Shape<_8, _4, _2>>{}, {{{4, 1, 1}}, {{8, 5, 4}}, {{0, 0, 0}}, {{12, 0, 3}}});
}

TEST(TmaLoad, FourDimensionalBoxes) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  std::mt19937 rng(20);
  GlobalTensor<float, 4> g({12, 5, 4, 3}, {1, 12, 64, 272});
  g.fill_random(rng);
  check_loads(g, Layout<Shape<_4, _2, _3, _2>>{}, {{{4, 1, 0, 1}}, {{8, 4, 2, 2}}, {{0, 0, 0, 0}}});
}

TEST(TmaLoad, FiveDimensionalBoxes) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  std::mt19937 rng(21);
  GlobalTensor<float, 5> g({8, 3, 4, 3, 2}, {1, 8, 32, 136, 420});
  g.fill_random(rng);
  check_loads(g, Layout<Shape<_4, _2, _2, _2, _2>>{},
              {{{4, 1, 1, 1, 0}}, {{4, 2, 3, 2, 1}}, {{0, 2, 3, 2, 1}}, {{0, 0, 0, 0, 0}}});
}

TEST(TmaLoad, SwizzledBoxesLandAsTheBoxLayoutSays) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  std::mt19937 rng(22);
  GlobalTensor<uint16_t, 2> g({70, 100}, {104, 1});
  g.fill_random(rng);
  const std::vector<std::array<long long, 2>> origins = {{{8, 16}}, {{62, 64}}, {{0, 0}}};
  {
    SCOPED_TRACE("128-byte swizzle");
    check_loads(g, composition(Swizzle<3, 3, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}), origins);
  }
  {
    SCOPED_TRACE("64-byte swizzle");
    check_loads(g, composition(Swizzle<2, 3, 3>{}, Layout<Shape<_16, _32>, Stride<_32, _1>>{}), origins);
  }
  {
    SCOPED_TRACE("32-byte swizzle");
    check_loads(g, composition(Swizzle<1, 3, 3>{}, Layout<Shape<_16, _16>, Stride<_16, _1>>{}), origins);
  }
  GlobalTensor<float, 2> gf({70, 100}, {104, 1});
  gf.fill_random(rng);
  {
    SCOPED_TRACE("128-byte swizzle of floats");
    check_loads(gf, composition(Swizzle<3, 2, 3>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}), origins);
  }
}

TEST(TmaLoad, TmaAtomTiledCopyLoadsTheBoxAtItsCoordinates) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  using Box = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}));
  constexpr int n = 16 * 64;
  std::mt19937 rng(23);
  GlobalTensor<uint16_t, 2> g({70, 100}, {104, 1});
  g.fill_random(rng);
  DeviceBuffer<uint16_t> d_global(g.host);
  CUtensorMap map;
  const Status s = make_tma_descriptor(map, make_tensor(make_gmem_ptr(d_global.get()), g.layout()), Box{});
  ASSERT_TRUE(s.ok()) << s.message();
  DeviceBuffer<uint16_t> d_out(n);
  for (auto const& origin : std::vector<std::array<long long, 2>>{{{16, 0}}, {{60, 48}}, {{69, 96}}}) {
    SCOPED_TRACE("box origin " + origin_text<2>(origin));
    tma_atom_load_kernel<uint16_t, Box><<<1, 128, kBoxSmemBytes>>>(map, int(origin[0]), int(origin[1]), d_out.get());
    STRATA_CUDA_CHECK(cudaGetLastError());
    STRATA_CUDA_CHECK(cudaDeviceSynchronize());
    const auto smem = d_out.download();
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      const auto e = box_element<2>({16, 64}, origin, i);
      const uint16_t expected = g.inside(e) ? g.host[g.offset(e)] : 0;
      if (smem[Box{}(i)] != expected) ++wrong;
    }
    EXPECT_EQ(wrong, 0) << "wrong elements";
  }
}

// ------------------------------------------------------------------------------------------------
// Stores
// ------------------------------------------------------------------------------------------------

TEST(TmaStore, TwoDimensionalStoresClipAtTheEdges) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_stores<float, 2>({50, 37}, {1, 52}, Layout<Shape<_16, _8>>{}, {{40, 33}}, {{0, 0}}, 31);
  check_stores<float, 2>({37, 50}, {52, 1}, Layout<Shape<_8, _16>, Stride<_16, _1>>{}, {{33, 0}}, {{10, 40}}, 32);
}

TEST(TmaStore, SwizzledBoxStoresClipAtTheEdges) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_stores<uint16_t, 2>({70, 100}, {104, 1}, composition(Swizzle<3, 3, 3>{}, Layout<Shape<_16, _64>, Stride<_64, _1>>{}),
                            {{62, 64}}, {{0, 0}}, 33);
}

TEST(TmaStore, ThreeDimensionalStoresClipAtTheEdges) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_stores<float, 3>({13, 7, 5}, {1, 16, 144}, Layout<Shape<_8, _4, _2>>{}, {{8, 5, 4}}, {{0, 0, 0}}, 34);
}

TEST(TmaStore, TmaStoreAtomWritesTheInBoundsPart) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  using Box = Layout<Shape<_8, _16>, Stride<_16, _1>>;
  constexpr int n = 8 * 16;
  std::mt19937 rng(35);
  GlobalTensor<float, 2> g({37, 50}, {52, 1});
  std::vector<float> expected(g.host.size() + 64);  // guard cells past the end: the last row's granule reaches them
  std::memset(expected.data(), kGuard, expected.size() * sizeof(float));
  DeviceBuffer<float> d_global(expected.size());
  d_global.fill_bytes(kGuard);
  std::vector<float> image(n);
  for (auto& v : image) v = random_value<float>(rng);
  const std::array<long long, 2> origin{{31, 40}};
  for (int i = 0; i < n; ++i) {
    const auto e = box_element<2>({8, 16}, origin, i);
    if (stored_by_tma(g, e, 1)) expected[g.offset(e)] = image[Box{}(i)];
  }
  CUtensorMap map;
  const Status s = make_tma_descriptor(map, d_global.get(), g.layout(), Box{});
  ASSERT_TRUE(s.ok()) << s.message();
  DeviceBuffer<float> d_image(image);
  tma_atom_store_kernel<float, Box><<<1, 128, kBoxSmemBytes>>>(map, int(origin[0]), int(origin[1]), d_image.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto got = d_global.download();
  int wrong = 0;
  for (size_t i = 0; i < got.size(); ++i) wrong += bits_of(got[i]) != bits_of(expected[i]);
  EXPECT_EQ(wrong, 0) << "wrong global elements";
}

}  // namespace
