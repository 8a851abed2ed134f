// Tests of stmatrix (sm_90): the copy atoms' thread-value layouts against the PTX ISA on the host,
// and the instruction itself on a compute-capability 9.0 GPU (skipped elsewhere).
//
// PTX ISA, "stmatrix" (the fragment and address tables are ldmatrix's): for .xN the warp stores N
// 8x8 matrices of 16-bit elements; lanes 8j..8j+7 give the row addresses of matrix j (for .x1 and
// .x2 only lanes 0-7 / 0-15 are read); register j of lane l holds row l/4, columns 2(l%4) and
// 2(l%4)+1 of matrix j, low half first; with .trans it holds column l/4, rows 2(l%4) and 2(l%4)+1.
//
//   - host: every (lane, value) of CopyAtom<Stsm_xN[_trans], uint16_t> against those formulas;
//     make_tiled_copy_C(stmatrix atom, 2x2-warp MMA) simulated instruction by instruction from the
//     ISA over the copy's own partitions puts every accumulator where the MMA's C layout says;
//   - GPU: the raw instruction (x1, x2, x4, .trans) with rows spread apart in shared memory, every
//     element checked and every other element untouched; the tiled copy of an accumulator tile
//     into row-major, swizzled and (with .trans) column-major shared memory, every element checked.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../common/gpu_test.hpp"
#include "atom/arch/sm90.hpp"
#include "atom/copy_sm90.hpp"
#include "atom/mma_sm80.hpp"
#include "atom/tiled_copy.hpp"
#include "atom/tiled_mma.hpp"
#include "layout/swizzle.hpp"

namespace {

using namespace strata;
using strata::test::DeviceBuffer;

// Element (matrix j, row r, column c) of the footprint: N matrices of 8 rows of 8 16-bit elements.
int footprint(int j, int r, int c) { return (j * 8 + r) * 8 + c; }

// ISA: value v = 2j + e of lane l is half e of register j.
int isa_stsm_src(int lane, int value, bool trans) {
  const int j = value / 2, e = value % 2;
  return trans ? footprint(j, 2 * (lane % 4) + e, lane / 4) : footprint(j, lane / 4, 2 * (lane % 4) + e);
}
// ISA: lane l addresses row (l mod 8N) % 8 of matrix (l mod 8N) / 8.
int isa_stsm_dst(int matrices, int lane, int value) {
  const int p = lane % (8 * matrices);
  return footprint(p / 8, p % 8, value);
}

template <class Op>
void check_stsm_atom() {
  using Atom = CopyAtom<Op, uint16_t>;
  constexpr int n = Op::Matrices;
  constexpr bool trans = Op::Transposed;
  SCOPED_TRACE("stmatrix .x" + std::to_string(n) + (trans ? ".trans" : ""));
  ASSERT_EQ(Atom::num_threads, 32);
  ASSERT_EQ(Atom::num_values_src, 2 * n);
  ASSERT_EQ(Atom::num_values_dst, 8);
  typename Atom::ValLayoutSrc src;
  typename Atom::ValLayoutDst dst;
  static_assert(std::is_same_v<typename Atom::ValLayoutRef, typename Atom::ValLayoutSrc>,
                "stmatrix is described by its register side");
  std::vector<int> supplied(64 * n, 0);
  for (int lane = 0; lane < 32; ++lane) {
    for (int v = 0; v < 2 * n; ++v) {
      EXPECT_EQ(int(src(lane, v)), isa_stsm_src(lane, v, trans)) << "source, lane " << lane << " value " << v;
      ++supplied[isa_stsm_src(lane, v, trans)];
    }
    for (int v = 0; v < 8; ++v) {
      EXPECT_EQ(int(dst(lane, v)), isa_stsm_dst(n, lane, v)) << "destination, lane " << lane << " value " << v;
    }
  }
  for (int i = 0; i < 64 * n; ++i) EXPECT_EQ(supplied[i], 1) << "footprint element " << i;
}

TEST(StmatrixAtom, ThreadValueLayoutsMatchTheIsa) {
  check_stsm_atom<arch::Stsm_x1>();
  check_stsm_atom<arch::Stsm_x2>();
  check_stsm_atom<arch::Stsm_x4>();
  check_stsm_atom<arch::Stsm_x1_trans>();
  check_stsm_atom<arch::Stsm_x2_trans>();
  check_stsm_atom<arch::Stsm_x4_trans>();
}

// ------------------------------------------------------------------------------------------------
// make_tiled_copy_C with stmatrix, simulated from the ISA
// ------------------------------------------------------------------------------------------------

constexpr int kTile = 64;  // the 64 x 64 C tile of a 2 x 2-warp m16n8k16 TiledMMA

__host__ __device__ inline auto c_tile_mma() {
  return make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_64, _64, _32>{});
}

// Accumulator id of C element (m, n): what each thread's fragment holds before the store.
constexpr uint16_t c_id(int m, int n) { return uint16_t(m + kTile * n); }

template <class Op, class SmemLayout>
void check_tiled_stmatrix_on_host(SmemLayout const& smem_layout) {
  constexpr int n = Op::Matrices;
  constexpr bool trans = Op::Transposed;
  SCOPED_TRACE("stmatrix .x" + std::to_string(n) + (trans ? ".trans" : ""));
  auto mma = c_tile_mma();
  auto s2s = make_tiled_copy_C(CopyAtom<Op, uint16_t>{}, mma);
  using Tiled = decltype(s2s);
  std::vector<uint16_t> smem(kTile * kTile, 0xFFFF);
  auto sC = make_tensor(make_smem_ptr(smem.data()), smem_layout);
  auto coords = make_identity_tensor(make_shape(Int<kTile>{}, Int<kTile>{}));

  // Per lane of each warp: the source values and destination row of every call.
  constexpr int calls = 32 / (2 * n);  // 32 accumulators per thread
  std::vector<uint16_t> values(128 * calls * 2 * n);
  std::vector<uint16_t*> rows(128 * calls);
  for (int t = 0; t < 128; ++t) {
    auto thr_mma = mma.get_slice(t);
    auto acc = thr_mma.partition_fragment_C(sC);
    auto frag = make_tensor<uint16_t>(acc.layout());
    auto ids = thr_mma.partition_C(coords);
    for (int i = 0; i < int(size(frag.layout())); ++i) frag(i) = c_id(get<0>(ids(i)), get<1>(ids(i)));
    auto thr = s2s.get_slice(t);
    auto src = thr.retile_S(frag);
    auto dst = thr.partition_D(sC);
    static_assert(decltype(size(src.layout()))::value == calls * Tiled::atom_num_values);
    for (int c = 0; c < calls; ++c) {
      for (int v = 0; v < 2 * n; ++v) values[(t * calls + c) * 2 * n + v] = src(c * 2 * n + v);
      rows[t * calls + c] = &dst(c * 8);
    }
  }
  // Each call of each warp, as the ISA executes it.
  for (int warp = 0; warp < 4; ++warp) {
    for (int c = 0; c < calls; ++c) {
      for (int j = 0; j < n; ++j) {
        for (int r = 0; r < 8; ++r) {
          uint16_t* row = rows[(warp * 32 + 8 * j + r) * calls + c];
          for (int col = 0; col < 8; ++col) {
            const int lane = trans ? 4 * col + r / 2 : 4 * r + col / 2;
            const int value = 2 * j + (trans ? r % 2 : col % 2);
            row[col] = values[((warp * 32 + lane) * calls + c) * 2 * n + value];
          }
        }
      }
    }
  }
  int wrong = 0;
  for (int m = 0; m < kTile; ++m)
    for (int nn = 0; nn < kTile; ++nn) wrong += smem[smem_layout(m, nn)] != c_id(m, nn);
  EXPECT_EQ(wrong, 0) << "C elements stored where the MMA does not hold them";
}

auto row_major_c() { return make_layout(make_shape(Int<kTile>{}, Int<kTile>{}), LayoutRight{}); }
auto swizzled_row_major_c() { return composition(Swizzle<3, 3, 3>{}, row_major_c()); }
auto column_major_c() { return make_layout(make_shape(Int<kTile>{}, Int<kTile>{})); }

TEST(StmatrixTiledCopy, StoresTheAccumulatorTileWhereTheMmaHoldsIt) {
  check_tiled_stmatrix_on_host<arch::Stsm_x4>(row_major_c());
  check_tiled_stmatrix_on_host<arch::Stsm_x2>(row_major_c());
  check_tiled_stmatrix_on_host<arch::Stsm_x1>(row_major_c());
  check_tiled_stmatrix_on_host<arch::Stsm_x4>(swizzled_row_major_c());
  check_tiled_stmatrix_on_host<arch::Stsm_x4_trans>(column_major_c());
}

// ------------------------------------------------------------------------------------------------
// GPU: the raw instruction
// ------------------------------------------------------------------------------------------------

constexpr int kPitch = 24;      // halves between rows: rows are 48 bytes apart, not contiguous
constexpr int kRowOffset = 8;   // each row starts 16 bytes into its 48
constexpr int kRawElements = 4 * 8 * kPitch;
constexpr uint16_t kUntouched = 0xFFFF;

__host__ __device__ constexpr uint16_t lane_code(int lane, int reg, int half) {
  return uint16_t(1 + lane * 8 + reg * 2 + half);
}

template <int N, bool Trans>
__global__ void stmatrix_raw_kernel(uint16_t* out) {
  __shared__ alignas(16) uint16_t smem[kRawElements];
  const int lane = threadIdx.x;
  for (int i = lane; i < kRawElements; i += 32) smem[i] = kUntouched;
  __syncwarp();
  uint32_t regs[N];
  for (int j = 0; j < N; ++j) regs[j] = uint32_t(lane_code(lane, j, 0)) | uint32_t(lane_code(lane, j, 1)) << 16;
  const int p = lane % (8 * N);  // lanes past 8N repeat a valid row; the ISA ignores them
  uint16_t* row = smem + (p / 8) * 8 * kPitch + (p % 8) * kPitch + kRowOffset;
  if constexpr (Trans) {
    arch::stmatrix_trans<N>(row, regs);
  } else {
    arch::stmatrix<N>(row, regs);
  }
  __syncwarp();
  for (int i = lane; i < kRawElements; i += 32) out[i] = smem[i];
}

template <int N, bool Trans>
void check_stmatrix_raw() {
  SCOPED_TRACE("stmatrix .x" + std::to_string(N) + (Trans ? ".trans" : ""));
  DeviceBuffer<uint16_t> d_out(kRawElements);
  d_out.fill_bytes(0);
  stmatrix_raw_kernel<N, Trans><<<1, 32>>>(d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto out = d_out.download();
  std::vector<uint16_t> expected(kRawElements, kUntouched);
  for (int j = 0; j < N; ++j)
    for (int r = 0; r < 8; ++r)
      for (int c = 0; c < 8; ++c) {
        const uint16_t code = Trans ? lane_code(4 * c + r / 2, j, r % 2) : lane_code(4 * r + c / 2, j, c % 2);
        expected[(j * 8 + r) * kPitch + kRowOffset + c] = code;
      }
  int wrong = 0;
  for (int i = 0; i < kRawElements; ++i) {
    if (out[i] != expected[i] && ++wrong <= 10)
      ADD_FAILURE() << "shared element " << i << " (matrix " << i / (8 * kPitch) << ", row " << (i / kPitch) % 8
                    << ", column " << i % kPitch - kRowOffset << "): got " << out[i] << ", expected " << expected[i];
  }
  EXPECT_EQ(wrong, 0);
}

TEST(StmatrixGpu, RawInstructionStoresEveryElementWhereTheIsaSays) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_stmatrix_raw<1, false>();
  check_stmatrix_raw<2, false>();
  check_stmatrix_raw<4, false>();
  check_stmatrix_raw<1, true>();
  check_stmatrix_raw<2, true>();
  check_stmatrix_raw<4, true>();
}

// ------------------------------------------------------------------------------------------------
// GPU: the tiled copy of an accumulator tile
// ------------------------------------------------------------------------------------------------

template <class Op, class SmemLayout>
__global__ void stmatrix_tiled_kernel(uint16_t* out) {
  __shared__ alignas(1024) uint16_t smem[kTile * kTile];
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x) smem[i] = kUntouched;
  __syncthreads();
  auto mma = c_tile_mma();
  auto s2s = make_tiled_copy_C(CopyAtom<Op, uint16_t>{}, mma);
  auto sC = make_tensor(make_smem_ptr(smem), SmemLayout{});
  auto thr_mma = mma.get_slice(threadIdx.x);
  auto frag = make_tensor<uint16_t>(thr_mma.partition_fragment_C(sC).layout());
  auto ids = thr_mma.partition_C(make_identity_tensor(make_shape(Int<kTile>{}, Int<kTile>{})));
  STRATA_UNROLL
  for (int i = 0; i < int(size(frag.layout())); ++i) frag(i) = c_id(get<0>(ids(i)), get<1>(ids(i)));
  auto thr = s2s.get_slice(threadIdx.x);
  copy(s2s, thr.retile_S(frag), thr.partition_D(sC));
  __syncthreads();
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x) out[i] = smem[i];
}

template <class Op, class SmemLayout>
void check_stmatrix_tiled(char const* what) {
  SCOPED_TRACE(what);
  DeviceBuffer<uint16_t> d_out(kTile * kTile);
  d_out.fill_bytes(0);
  stmatrix_tiled_kernel<Op, SmemLayout><<<1, 128>>>(d_out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  const auto out = d_out.download();
  int wrong = 0;
  for (int m = 0; m < kTile; ++m)
    for (int n = 0; n < kTile; ++n) {
      const int at = SmemLayout{}(m, n);
      if (out[at] != c_id(m, n) && ++wrong <= 10)
        ADD_FAILURE() << "C(" << m << ", " << n << ") at shared element " << at << ": got " << out[at]
                      << ", expected " << c_id(m, n);
    }
  EXPECT_EQ(wrong, 0);
}

TEST(StmatrixGpu, TiledCopyStoresAnAccumulatorTileElementByElement) {
  STRATA_REQUIRE_SM_EXACT(9, 0);
  check_stmatrix_tiled<arch::Stsm_x4, decltype(row_major_c())>("x4, row-major");
  check_stmatrix_tiled<arch::Stsm_x4, decltype(swizzled_row_major_c())>("x4, 128-byte swizzled row-major");
  check_stmatrix_tiled<arch::Stsm_x2, decltype(row_major_c())>("x2, row-major");
  check_stmatrix_tiled<arch::Stsm_x4_trans, decltype(column_major_c())>("x4.trans, column-major");
}

}  // namespace
