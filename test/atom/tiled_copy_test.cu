// GPU tests of the sm80 copy atoms driven through TiledCopy, on fresh random data. Every output
// buffer is poisoned with 0xFF bytes before the launch, so an element a copy forgot can never pass
// as a correct zero, and every element is compared bit for bit.
//
//   - round trips global -> shared -> global: cp.async (.cg 16 B, .ca 16/8/4 B) or UniversalCopy
//     (1/2/4/8/16 B) in, 16-byte (or element-wide) UniversalCopy out, into plain and swizzled
//     shared tiles, K-major and M-major;
//   - predicated loads of hanging tiles: cp.async zero-fill writes zeros past the matrix's edge,
//     plain cp.async under copy_if leaves the (poisoned) shared memory untouched there;
//   - ldmatrix .x1/.x2/.x4, with and without .trans, into the registers of an MMA fragment via
//     make_tiled_copy_A/B + retile_D; the fragment is written out through the MMA's partition and
//     must reproduce the tile.
// Without a GPU (or below sm_80) every test skips, saying why.
#include <gtest/gtest.h>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "atom/copy_atom.hpp"
#include "atom/copy_sm80.hpp"
#include "atom/mma_sm80.hpp"
#include "atom/tiled_copy.hpp"
#include "atom/tiled_mma.hpp"
#include "common/gpu_test.hpp"
#include "layout/partition.hpp"
#include "layout/swizzle.hpp"

namespace {

using namespace strata;
using strata::test::DeviceBuffer;

// Random bit patterns, none of them the poison 0xFF...: every element of the output is either the
// input's or a bug.
template <class T>
std::vector<T> random_elements(std::size_t count, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 0xFE);
  std::vector<T> v(count);
  auto* bytes = reinterpret_cast<unsigned char*>(v.data());
  for (std::size_t i = 0; i < count * sizeof(T); ++i) bytes[i] = static_cast<unsigned char>(byte(rng));
  return v;
}

template <class T>
bool same_bits(T const& a, T const& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
DeviceBuffer<T> poisoned(std::size_t count) {
  DeviceBuffer<T> b(count);
  b.fill_bytes(0xFF);
  return b;
}

// ------------------------------------------------------------------------------------------------
// global -> shared -> global round trips
// ------------------------------------------------------------------------------------------------

template <class G2S, class S2G, class GLayout, class SLayout, class T>
__global__ void round_trip_kernel(T const* in, T* out) {
  __shared__ alignas(128) T smem[decltype(cosize(SLayout{}))::value];
  auto g_in = make_tensor(make_gmem_ptr(in), GLayout{});
  auto g_out = make_tensor(make_gmem_ptr(out), GLayout{});
  auto s = make_tensor(make_smem_ptr(smem), SLayout{});

  G2S g2s;
  auto load = g2s.get_slice(threadIdx.x);
  copy(g2s, load.partition_S(g_in), load.partition_D(s));
  arch::cp_async_commit();  // cp.async completes here; for plain loads these are no-ops
  arch::cp_async_wait<0>();
  __syncthreads();

  S2G s2g;
  auto store = s2g.get_slice(threadIdx.x);
  copy(s2g, store.partition_S(s), store.partition_D(g_out));
}

template <class G2S, class S2G, class GLayout, class SLayout, class T>
void check_round_trip(std::string const& what, std::uint32_t seed) {
  SCOPED_TRACE(what);
  constexpr int n = decltype(size(GLayout{}))::value;
  static_assert(decltype(cosize(GLayout{}))::value == n, "the test's global layouts are compact");
  auto host_in = random_elements<T>(n, seed);
  DeviceBuffer<T> d_in(host_in);
  auto d_out = poisoned<T>(n);
  round_trip_kernel<G2S, S2G, GLayout, SLayout><<<1, int(size(G2S{}))>>>(d_in.get(), d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  auto host_out = d_out.download();
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += !same_bits(host_out[i], host_in[i]);
  EXPECT_EQ(wrong, 0) << wrong << " of " << n << " elements differ";
}

using KMajor64 = Layout<Shape<_64, _64>, Stride<_64, _1>>;
using Swizzled64 = decltype(composition(Swizzle<3, 3, 3>{}, KMajor64{}));
using Threads16x8 = Layout<Shape<_16, _8>, Stride<_8, _1>>;  // 128 threads, 8 to a row

template <class Op, class T, class ThrLayout, class ValLayout>
using Tiled = decltype(make_tiled_copy(CopyAtom<Op, T>{}, ThrLayout{}, ValLayout{}));

TEST(TiledCopyGpu, CpAsync16ByteRoundTripsIntoSwizzledAndPlainSharedMemory) {
  STRATA_REQUIRE_SM(8, 0);
  using Store = Tiled<arch::UniversalCopy<16>, __half, Threads16x8, Layout<Shape<_1, _8>>>;
  check_round_trip<Tiled<arch::CpAsync16_cg, __half, Threads16x8, Layout<Shape<_1, _8>>>, Store, KMajor64,
                   Swizzled64, __half>("cp.async.cg 16 B, swizzled", 1);
  check_round_trip<Tiled<arch::CpAsync16_ca, __half, Threads16x8, Layout<Shape<_1, _8>>>, Store, KMajor64, KMajor64,
                   __half>("cp.async.ca 16 B, plain", 2);
  check_round_trip<Tiled<arch::CpAsyncZfill16_cg, __half, Threads16x8, Layout<Shape<_1, _8>>>, Store, KMajor64,
                   Swizzled64, __half>("cp.async.cg zfill 16 B, unpredicated", 3);
  // M-major (column-major) tiles of floats: threads down the columns, 4 floats each.
  using MMajor = Layout<Shape<_64, _32>>;
  using ThreadsDown = Layout<Shape<_16, _8>>;
  check_round_trip<Tiled<arch::CpAsync16_cg, float, ThreadsDown, Layout<Shape<_4, _1>>>,
                   Tiled<arch::UniversalCopy<16>, float, ThreadsDown, Layout<Shape<_4, _1>>>, MMajor, MMajor, float>(
      "cp.async.cg 16 B, M-major floats", 4);
}

TEST(TiledCopyGpu, CpAsyncNarrowCopiesRoundTrip) {
  STRATA_REQUIRE_SM(8, 0);
  using G = Layout<Shape<_32, _32>, Stride<_32, _1>>;
  using ThreadsRow = Layout<Shape<_32, _4>, Stride<_4, _1>>;
  check_round_trip<Tiled<arch::CpAsync8_ca, __half, ThreadsRow, Layout<Shape<_1, _4>>>,
                   Tiled<arch::UniversalCopy<8>, __half, ThreadsRow, Layout<Shape<_1, _4>>>, G, G, __half>(
      "cp.async.ca 8 B", 5);
  check_round_trip<Tiled<arch::CpAsync4_ca, float, ThreadsRow, Layout<Shape<_1, _1>>>,
                   Tiled<arch::UniversalCopy<4>, float, ThreadsRow, Layout<Shape<_1, _1>>>, G, G, float>(
      "cp.async.ca 4 B", 6);
  check_round_trip<Tiled<arch::CpAsyncZfill4_ca, float, ThreadsRow, Layout<Shape<_1, _1>>>,
                   Tiled<arch::UniversalCopy<4>, float, ThreadsRow, Layout<Shape<_1, _1>>>, G, G, float>(
      "cp.async.ca zfill 4 B, unpredicated", 7);
}

TEST(TiledCopyGpu, UniversalCopiesOfEveryWidthRoundTrip) {
  STRATA_REQUIRE_SM(8, 0);
  using G = Layout<Shape<_32, _64>, Stride<_64, _1>>;
  using ThreadsRow = Layout<Shape<_32, _4>, Stride<_4, _1>>;  // 128 threads
  using Sw = decltype(composition(Swizzle<3, 4, 3>{}, G{}));  // keeps 16-byte runs of bytes together
  check_round_trip<Tiled<arch::UniversalCopy<1>, std::uint8_t, ThreadsRow, Layout<Shape<_1, _1>>>,
                   Tiled<arch::UniversalCopy<1>, std::uint8_t, ThreadsRow, Layout<Shape<_1, _1>>>, G, G,
                   std::uint8_t>("1 B", 8);
  check_round_trip<Tiled<arch::UniversalCopy<2>, std::uint16_t, ThreadsRow, Layout<Shape<_1, _2>>>,
                   Tiled<arch::UniversalCopy<2>, std::uint16_t, ThreadsRow, Layout<Shape<_1, _2>>>, G, G,
                   std::uint16_t>("2 B", 9);
  check_round_trip<Tiled<arch::UniversalCopy<4>, __half, ThreadsRow, Layout<Shape<_1, _8>>>,
                   Tiled<arch::UniversalCopy<4>, __half, ThreadsRow, Layout<Shape<_1, _8>>>, G, G, __half>("4 B",
                                                                                                          10);
  check_round_trip<Tiled<arch::UniversalCopy<8>, double, ThreadsRow, Layout<Shape<_1, _1>>>,
                   Tiled<arch::UniversalCopy<8>, double, ThreadsRow, Layout<Shape<_1, _1>>>, G, G, double>("8 B",
                                                                                                          11);
  // The vectorized path: 16 bytes of bytes, into a byte-swizzled tile and back.
  check_round_trip<Tiled<arch::UniversalCopy<16>, std::uint8_t, ThreadsRow, Layout<Shape<_1, _16>>>,
                   Tiled<arch::UniversalCopy<16>, std::uint8_t, ThreadsRow, Layout<Shape<_1, _16>>>, G, Sw,
                   std::uint8_t>("16 B bytes, swizzled", 12);
}

// ------------------------------------------------------------------------------------------------
// hanging tiles: zero-fill vs skip
// ------------------------------------------------------------------------------------------------

constexpr int kTile = 64;

// Loads tile blockIdx.x of an M x K row-major matrix into shared memory (poisoned first), with
// one predicate per 16-byte call: inside the matrix or not. Then writes the whole tile out.
template <class G2S, class T>
__global__ void hanging_tile_kernel(T const* a, int m_total, int k_total, T* out) {
  __shared__ alignas(128) T smem[kTile * kTile];
  using KMajorTile = Layout<Shape<Int<kTile>, Int<kTile>>, Stride<Int<kTile>, _1>>;
  using STile = decltype(composition(Swizzle<3, 3, 3>{}, KMajorTile{}));
  auto s = make_tensor(make_smem_ptr(smem), STile{});
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x) {
    unsigned short poison = 0xFFFF;
    std::memcpy(&smem[i], &poison, sizeof(T));
  }
  __syncthreads();

  auto shape = make_shape(m_total, k_total);
  auto g = make_tensor(make_gmem_ptr(a), make_layout(shape, make_stride(k_total, _1{})));
  auto tile = make_tile(Int<kTile>{}, Int<kTile>{});
  auto g_tile = local_tile(g, tile, make_coord(int(blockIdx.x), 0));
  auto c_tile = local_tile(make_identity_tensor(shape), tile, make_coord(int(blockIdx.x), 0));

  G2S g2s;
  auto thr = g2s.get_slice(threadIdx.x);
  auto coords = thr.partition_S(c_tile);  // (CPY, CPY_M, CPY_K): each value's (m, k)
  constexpr int per_call = G2S::atom_num_values;
  auto inside = [&](int call) { return elem_less(coords(call * per_call), shape); };
  copy_if(g2s, inside, thr.partition_S(g_tile), thr.partition_D(s));
  arch::cp_async_commit();
  arch::cp_async_wait<0>();
  __syncthreads();

  auto o = make_tensor(make_gmem_ptr(out + blockIdx.x * kTile * kTile),
                       Layout<Shape<Int<kTile>, Int<kTile>>, Stride<Int<kTile>, _1>>{});
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x) o(i) = s(i);
}

template <class Op>
void check_hanging_tiles(bool zero_fill) {
  using G2S = Tiled<Op, __half, Threads16x8, Layout<Shape<_1, _8>>>;
  const int m_total = 100, k_total = 40;  // tile 1 hangs past row 100, both tiles past column 40
  const int tiles = 2;
  auto host = random_elements<__half>(m_total * k_total, 21);
  DeviceBuffer<__half> d_a(host);
  auto d_out = poisoned<__half>(tiles * kTile * kTile);
  hanging_tile_kernel<G2S><<<tiles, 128>>>(d_a.get(), m_total, k_total, d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  auto out = d_out.download();
  const __half zero = __float2half(0.0f);
  __half poison;
  unsigned short poison_bits = 0xFFFF;
  std::memcpy(&poison, &poison_bits, sizeof(poison));
  int wrong = 0;
  for (int t = 0; t < tiles; ++t) {
    for (int r = 0; r < kTile; ++r) {
      for (int c = 0; c < kTile; ++c) {
        const int m = t * kTile + r;
        const __half got = out[(t * kTile + r) * kTile + c];
        const bool in = m < m_total && c < k_total;
        const __half want = in ? host[m * k_total + c] : (zero_fill ? zero : poison);
        if (!same_bits(got, want)) {
          if (++wrong <= 5) {
            ADD_FAILURE() << "tile " << t << " (" << r << ", " << c << ") " << (in ? "inside" : "outside");
          }
        }
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

TEST(TiledCopyGpu, CopyIfZeroFillsOutOfBoundsWithCpAsyncZfill) {
  STRATA_REQUIRE_SM(8, 0);
  check_hanging_tiles<arch::CpAsyncZfill16_cg>(true);
}

TEST(TiledCopyGpu, CopyIfSkipsOutOfBoundsWithPlainCpAsync) {
  STRATA_REQUIRE_SM(8, 0);
  check_hanging_tiles<arch::CpAsync16_cg>(false);
}

// ------------------------------------------------------------------------------------------------
// ldmatrix into MMA fragments
// ------------------------------------------------------------------------------------------------

// The (TileX, TileK) operand tile is loaded into shared memory as `SLayout` says, ldmatrix'ed
// into the MMA's fragment through make_tiled_copy_A/B + retile_D, and the fragment is written to
// `out` (column-major (TileX, TileK)) through the MMA's own partition of it.
template <class Mma, class S2R, bool OperandA, class SLayout, class T>
__global__ void ldsm_fragment_kernel(T const* in, T* out) {
  constexpr int TX = decltype(Mma::template tile_size_mnk<OperandA ? 0 : 1>())::value;
  constexpr int TK = decltype(Mma::template tile_size_mnk<2>())::value;
  using Tile = Layout<Shape<Int<TX>, Int<TK>>>;
  __shared__ alignas(128) T smem[decltype(cosize(SLayout{}))::value];
  auto s = make_tensor(make_smem_ptr(smem), SLayout{});
  auto g_in = make_tensor(make_gmem_ptr(in), Tile{});
  for (int i = threadIdx.x; i < TX * TK; i += blockDim.x) s(i) = g_in(i);
  __syncthreads();

  Mma mma;
  auto thr_mma = mma.get_slice(threadIdx.x);
  auto g_out = make_tensor(make_gmem_ptr(out), Tile{});
  S2R s2r;
  auto thr = s2r.get_slice(threadIdx.x);
  if constexpr (OperandA) {
    auto frag = thr_mma.partition_fragment_A(s);
    copy(s2r, thr.partition_S(s), thr.retile_D(frag));
    auto o = thr_mma.partition_A(g_out);
    for (int i = 0; i < int(size(frag.layout())); ++i) o(i) = frag(i);
  } else {
    auto frag = thr_mma.partition_fragment_B(s);
    copy(s2r, thr.partition_S(s), thr.retile_D(frag));
    auto o = thr_mma.partition_B(g_out);
    for (int i = 0; i < int(size(frag.layout())); ++i) o(i) = frag(i);
  }
}

template <class Mma, class Op, bool OperandA, class SLayout>
void check_ldsm(std::string const& what, std::uint32_t seed) {
  SCOPED_TRACE(what);
  using T = __half;
  using S2R = std::conditional_t<OperandA, decltype(make_tiled_copy_A(CopyAtom<Op, T>{}, Mma{})),
                                 decltype(make_tiled_copy_B(CopyAtom<Op, T>{}, Mma{}))>;
  constexpr int TX = decltype(Mma::template tile_size_mnk<OperandA ? 0 : 1>())::value;
  constexpr int TK = decltype(Mma::template tile_size_mnk<2>())::value;
  auto host = random_elements<T>(TX * TK, seed);
  DeviceBuffer<T> d_in(host);
  auto d_out = poisoned<T>(TX * TK);
  ldsm_fragment_kernel<Mma, S2R, OperandA, SLayout><<<1, int(size(Mma{}))>>>(d_in.get(), d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  auto out = d_out.download();
  int wrong = 0;
  for (int i = 0; i < TX * TK; ++i) wrong += !same_bits(out[i], host[i]);
  EXPECT_EQ(wrong, 0) << wrong << " of " << TX * TK << " fragment elements differ";
}

using OneWarp = decltype(make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_1, _1, _1>>{},
                                        Tile<_16, _16, _16>{}));
using KMajor16 = Layout<Shape<_16, _16>, Stride<_16, _1>>;
using MNMajor16 = Layout<Shape<_16, _16>>;

TEST(TiledCopyGpu, LdmatrixFillsMmaFragmentsFromKMajorTiles) {
  STRATA_REQUIRE_SM(8, 0);
  check_ldsm<OneWarp, arch::Ldsm_x4, true, KMajor16>("A, ldmatrix.x4", 31);
  check_ldsm<OneWarp, arch::Ldsm_x2, true, KMajor16>("A, ldmatrix.x2", 32);
  check_ldsm<OneWarp, arch::Ldsm_x1, true, KMajor16>("A, ldmatrix.x1", 33);
  check_ldsm<OneWarp, arch::Ldsm_x4, false, KMajor16>("B, ldmatrix.x4", 34);
  check_ldsm<OneWarp, arch::Ldsm_x2, false, KMajor16>("B, ldmatrix.x2", 35);
  check_ldsm<OneWarp, arch::Ldsm_x1, false, KMajor16>("B, ldmatrix.x1", 36);
}

TEST(TiledCopyGpu, LdmatrixTransFillsMmaFragmentsFromMnMajorTiles) {
  STRATA_REQUIRE_SM(8, 0);
  check_ldsm<OneWarp, arch::Ldsm_x4_trans, true, MNMajor16>("A, ldmatrix.x4.trans", 41);
  check_ldsm<OneWarp, arch::Ldsm_x2_trans, true, MNMajor16>("A, ldmatrix.x2.trans", 42);
  check_ldsm<OneWarp, arch::Ldsm_x1_trans, true, MNMajor16>("A, ldmatrix.x1.trans", 43);
  check_ldsm<OneWarp, arch::Ldsm_x4_trans, false, MNMajor16>("B, ldmatrix.x4.trans", 44);
  check_ldsm<OneWarp, arch::Ldsm_x2_trans, false, MNMajor16>("B, ldmatrix.x2.trans", 45);
  check_ldsm<OneWarp, arch::Ldsm_x1_trans, false, MNMajor16>("B, ldmatrix.x1.trans", 46);
}

}  // namespace
