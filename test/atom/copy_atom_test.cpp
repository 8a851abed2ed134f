// Host tests of copy atoms and TiledCopy: layouts only, no GPU needed.
//
//   - every ldmatrix atom's source and destination TV layouts reproduce the PTX ISA's description
//     for every (thread, value), with the ISA's formulas written out again here;
//   - TiledCopy partitions cover a tile, and a tensor of several tiles, exactly once;
//   - one-thread copies (UniversalCopy) run on the host through TiledCopy and copy();
//   - make_tiled_copy_A/B of ldmatrix feeds exactly the MMA fragment: ldmatrix is simulated from
//     the ISA (whose row each matrix row is, which lane gets which element) over the copy's own
//     partitions, and every register of every thread must receive the element the MMA's
//     partition says it holds, in plain and swizzled shared-memory tiles;
//   - make_tiled_copy_C + retile_S stores an accumulator fragment where the MMA's C layout says.
#include <gtest/gtest.h>

#include <cuda_fp16.h>

#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include "atom/copy_atom.hpp"
#include "atom/copy_sm80.hpp"
#include "atom/mma_sm80.hpp"
#include "atom/tiled_copy.hpp"
#include "atom/tiled_mma.hpp"
#include "layout/swizzle.hpp"

namespace {

using namespace strata;

// ------------------------------------------------------------------------------------------------
// ldmatrix atoms against the ISA
// ------------------------------------------------------------------------------------------------

// The footprint of ldmatrix .xN in elements of `bits` bits: N matrices of 8 rows of 128 bits,
// row after row. Element (matrix j, row r, element c) is at j * 8 * per_row + r * per_row + c.
struct LdsmFootprint {
  int per_row;  // elements per 128-bit row
  int at(int j, int r, int c) const { return (j * 8 + r) * per_row + c; }
};

// ISA: lanes 8j..8j+7 give the addresses of rows 0..7 of matrix j; with fewer matrices than four
// the upper lanes' addresses are unused (the atom repeats the rows of lanes t mod 8N).
int isa_ldsm_src(LdsmFootprint f, int matrices, int lane, int value) {
  int provider = lane % (8 * matrices);
  return f.at(provider / 8, provider % 8, value);
}

// ISA: lane t receives in register j row t/4 of matrix j, the 32 bits starting at element
// (t%4) * (32 / bits); non-transposed.
int isa_ldsm_dst(LdsmFootprint f, int lane, int value) {
  int per_reg = f.per_row / 4;  // elements of one 32-bit register
  int j = value / per_reg, e = value % per_reg;
  return f.at(j, lane / 4, (lane % 4) * per_reg + e);
}

// ISA, .trans (16-bit only): lane t receives column t/4, rows 2(t%4) and 2(t%4)+1 of matrix j.
int isa_ldsm_trans_dst(LdsmFootprint f, int lane, int value) {
  int j = value / 2, e = value % 2;
  return f.at(j, 2 * (lane % 4) + e, lane / 4);
}

template <class Op, class Value>
void check_ldsm_atom(int matrices, bool transposed) {
  using Atom = CopyAtom<Op, Value>;
  const LdsmFootprint f{int(128 / (8 * sizeof(Value)))};
  SCOPED_TRACE("ldmatrix .x" + std::to_string(matrices) + (transposed ? ".trans" : "") + ", " +
               std::to_string(8 * sizeof(Value)) + "-bit values");
  ASSERT_EQ(Atom::num_threads, 32);
  ASSERT_EQ(Atom::num_values_src, f.per_row);
  ASSERT_EQ(Atom::num_values_dst, matrices * f.per_row / 4);
  typename Atom::ValLayoutSrc src;
  typename Atom::ValLayoutDst dst;
  std::vector<int> received(8 * matrices * f.per_row, 0);
  for (int lane = 0; lane < 32; ++lane) {
    for (int v = 0; v < Atom::num_values_src; ++v) {
      EXPECT_EQ(int(src(lane, v)), isa_ldsm_src(f, matrices, lane, v)) << "source, lane " << lane << " value " << v;
    }
    for (int v = 0; v < Atom::num_values_dst; ++v) {
      int expected = transposed ? isa_ldsm_trans_dst(f, lane, v) : isa_ldsm_dst(f, lane, v);
      EXPECT_EQ(int(dst(lane, v)), expected) << "destination, lane " << lane << " value " << v;
      ++received[expected];
    }
  }
  for (int i = 0; i < int(received.size()); ++i) EXPECT_EQ(received[i], 1) << "footprint element " << i;
}

TEST(CopyAtomLdsm, LayoutsMatchThePtxIsaForEveryLaneAndValue) {
  check_ldsm_atom<arch::Ldsm_x1, __half>(1, false);
  check_ldsm_atom<arch::Ldsm_x2, __half>(2, false);
  check_ldsm_atom<arch::Ldsm_x4, __half>(4, false);
  check_ldsm_atom<arch::Ldsm_x1_trans, __half>(1, true);
  check_ldsm_atom<arch::Ldsm_x2_trans, __half>(2, true);
  check_ldsm_atom<arch::Ldsm_x4_trans, __half>(4, true);
  // Non-transposed ldmatrix moves bits: 8-bit values (int8 MMA fragments) come four to a register.
  check_ldsm_atom<arch::Ldsm_x4, std::int8_t>(4, false);
  check_ldsm_atom<arch::Ldsm_x2, std::int8_t>(2, false);
}

TEST(CopyAtomOneThread, LayoutsAreTheThreadsBytesInOrder) {
  using U16 = CopyAtom<arch::UniversalCopy<16>, __half>;
  static_assert(U16::num_threads == 1 && U16::num_values_src == 8 && U16::num_values_dst == 8);
  using U16f = CopyAtom<arch::UniversalCopy<16>, float>;
  static_assert(U16f::num_values_src == 4);
  using U1 = CopyAtom<arch::UniversalCopy<1>, std::uint8_t>;
  static_assert(U1::num_values_src == 1);
  using Cp4 = CopyAtom<arch::CpAsync4_ca, float>;
  static_assert(Cp4::num_values_src == 1 && Cp4::num_values_dst == 1);
  using Cp8 = CopyAtom<arch::CpAsync8_ca, __half>;
  static_assert(Cp8::num_values_src == 4);
  using Z16 = CopyAtom<arch::CpAsyncZfill16_cg, double>;
  static_assert(Z16::num_values_src == 2);
  typename U16::ValLayoutSrc s;
  typename U16::ValLayoutDst d;
  for (int v = 0; v < 8; ++v) {
    EXPECT_EQ(int(s(0, v)), v);
    EXPECT_EQ(int(d(0, v)), v);
  }
}

// ------------------------------------------------------------------------------------------------
// TiledCopy partitions cover a tensor exactly once
// ------------------------------------------------------------------------------------------------

// For every thread, partition the column-major index tensor of `shape` (element i holds i) and
// count how often each element is reached, on the source and on the destination side. Also
// checks that each atom call's source values are a contiguous run of the given memory layout.
template <class TiledCopy_, class Shape_, class MemLayout>
void check_coverage(TiledCopy_ const& tiled, Shape_ const& shape, MemLayout const& mem, int vector) {
  const int n = int(size(shape));
  std::vector<int> ids(n);
  std::iota(ids.begin(), ids.end(), 0);
  auto index_tensor = make_tensor(ids.data(), make_layout(shape));
  std::vector<int> hits_s(n, 0), hits_d(n, 0);
  for (int t = 0; t < TiledCopy_::num_threads; ++t) {
    auto thr = tiled.get_slice(t);
    auto s = thr.partition_S(index_tensor);
    auto d = thr.partition_D(index_tensor);
    ASSERT_EQ(int(size(s.layout())), int(size(d.layout())));
    for (int i = 0; i < int(size(s.layout())); ++i) {
      ++hits_s[s(i)];
      ++hits_d[d(i)];
    }
    // Each call's values lie in one contiguous run of memory, in order.
    auto coord_of = [&](int id) { return idx2crd(id, shape); };
    for (int i = 0; i < int(size(s.layout())); i += vector) {
      int base = int(mem(coord_of(s(i))));
      for (int e = 1; e < vector; ++e) EXPECT_EQ(int(mem(coord_of(s(i + e)))), base + e) << "thread " << t;
    }
  }
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(hits_s[i], 1) << "source element " << i;
    EXPECT_EQ(hits_d[i], 1) << "destination element " << i;
  }
}

TEST(TiledCopy, MakeTiledCopyTileAndTvLayout) {
  // 128 threads, 8 to a row of a K-major tile, 8 halves (16 bytes) each: a 16 x 64 tile.
  [[maybe_unused]] auto g2s = make_tiled_copy(CopyAtom<arch::CpAsync16_cg, __half>{},
                                              Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  static_assert(decltype(g2s)::num_threads == 128 && decltype(g2s)::num_values == 8);
  EXPECT_EQ(to_string(g2s.get_tile_shape()), "(_16,_64)");
  auto tv = g2s.get_layoutS_TV();
  for (int t = 0; t < 128; ++t) {
    for (int v = 0; v < 8; ++v) {
      int m = t / 8, n = (t % 8) * 8 + v;
      EXPECT_EQ(int(tv(t, v)), m + 16 * n) << "thread " << t << " value " << v;
    }
  }
  EXPECT_EQ(to_string(g2s.get_layoutD_TV()), to_string(tv));
}

TEST(TiledCopy, PartitionsCoverEveryElementOnceAndCallsAreContiguous) {
  // K-major (row-major) 64 x 64 tensor, 4 tiles of 16 x 64 rows.
  auto g2s = make_tiled_copy(CopyAtom<arch::CpAsync16_cg, __half>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                             Layout<Shape<_1, _8>>{});
  check_coverage(g2s, make_shape(_64{}, _64{}), make_layout(make_shape(_64{}, _64{}), LayoutRight{}), 8);
  // M-major (column-major) 64 x 32 tensor: threads down the columns, 4 floats each.
  auto mmajor = make_tiled_copy(CopyAtom<arch::UniversalCopy<16>, float>{}, Layout<Shape<_8, _32>>{},
                                Layout<Shape<_4, _1>>{});
  check_coverage(mmajor, make_shape(_64{}, _32{}, _2{}), make_layout(make_shape(_64{}, _32{}, _2{})), 4);
  // One element per thread, a thread layout of 32 x 4 over a 96 x 8 tensor (3 x 2 tiles).
  auto scalar = make_tiled_copy(CopyAtom<arch::UniversalCopy<4>, float>{}, Layout<Shape<_32, _4>>{});
  check_coverage(scalar, make_shape(_96{}, _8{}), make_layout(make_shape(_96{}, _8{})), 1);
  // Two 8-byte calls per thread per tile: values (1, 4) of 2 halves per call.
  auto two_calls = make_tiled_copy(CopyAtom<arch::UniversalCopy<4>, __half>{}, Layout<Shape<_8, _4>, Stride<_4, _1>>{},
                                   Layout<Shape<_1, _4>>{});
  check_coverage(two_calls, make_shape(_16{}, _32{}), make_layout(make_shape(_16{}, _32{}), LayoutRight{}), 2);
}

// ------------------------------------------------------------------------------------------------
// copy() through a TiledCopy on the host: UniversalCopy runs anywhere
// ------------------------------------------------------------------------------------------------

TEST(TiledCopy, HostRoundTripThroughRegistersWithUniversalCopy) {
  // gmem (row-major 32 x 64 floats) -> registers -> another gmem tensor (column-major), 16 bytes
  // at a time on the load, 4 at a time on the store, each thread in turn.
  constexpr int M = 32, N = 64;
  std::vector<float> src(M * N), dst(M * N, -1.0f);
  for (int i = 0; i < M * N; ++i) src[i] = 0.5f * float(i) + 1.0f;
  auto gsrc = make_tensor(make_gmem_ptr(src.data()), make_layout(make_shape(Int<M>{}, Int<N>{}), LayoutRight{}));
  auto gdst = make_tensor(make_gmem_ptr(dst.data()), make_layout(make_shape(Int<M>{}, Int<N>{})));
  auto load = make_tiled_copy(CopyAtom<arch::UniversalCopy<16>, float>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                              Layout<Shape<_1, _4>>{});
  auto store = make_tiled_copy(CopyAtom<arch::UniversalCopy<4>, float>{}, Layout<Shape<_16, _8>, Stride<_8, _1>>{},
                               Layout<Shape<_1, _4>>{});
  for (int t = 0; t < 128; ++t) {
    auto thr_load = load.get_slice(t);
    auto thr_store = store.get_slice(t);
    auto part_src = thr_load.partition_S(gsrc);
    auto frag = make_fragment_like<float>(thr_load.partition_D(gsrc));
    copy(load, part_src, frag);
    copy(store, thr_store.retile_S(frag), thr_store.partition_D(gdst));
  }
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) EXPECT_EQ(dst[m + M * n], src[m * N + n]) << "(" << m << ", " << n << ")";
}

TEST(TiledCopy, HostCopyIfSkipsCallsWhosePredicateIsFalse) {
  constexpr int M = 16, N = 32;
  std::vector<float> src(M * N), dst(M * N, -1.0f);
  for (int i = 0; i < M * N; ++i) src[i] = float(i);
  auto gsrc = make_tensor(src.data(), make_layout(make_shape(Int<M>{}, Int<N>{}), LayoutRight{}));
  auto gdst = make_tensor(dst.data(), make_layout(make_shape(Int<M>{}, Int<N>{}), LayoutRight{}));
  auto tiled = make_tiled_copy(CopyAtom<arch::UniversalCopy<16>, float>{}, Layout<Shape<_8, _4>, Stride<_4, _1>>{},
                               Layout<Shape<_1, _4>>{});
  auto coords = make_identity_tensor(make_shape(Int<M>{}, Int<N>{}));
  const int rows = 11;  // only rows below 11 are "inside"
  for (int t = 0; t < 32; ++t) {
    auto thr = tiled.get_slice(t);
    auto s = thr.partition_S(gsrc);
    auto c = thr.partition_S(coords);  // (CPY, CPY_M, CPY_N) coordinates
    auto pred = [&](int call) { return get<0>(c(call * 4)) < rows; };
    copy_if(tiled, pred, s, thr.partition_D(gdst));
  }
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) EXPECT_EQ(dst[m * N + n], m < rows ? src[m * N + n] : -1.0f);
}

// ------------------------------------------------------------------------------------------------
// make_tiled_copy_A/B: ldmatrix delivers exactly the MMA's fragments
// ------------------------------------------------------------------------------------------------

// Shared memory holding, at each address, the column-major tile index of the element stored there.
template <class SmemLayout>
std::vector<int> memory_of_ids(SmemLayout const& smem, int rows, int cols) {
  std::vector<int> mem(size_t(cosize(smem)), -1);
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < rows; ++r) mem[size_t(smem(r, c))] = r + rows * c;
  return mem;
}

// Simulates copy(s2r, partition_S(smem), retile_D(fragment)) for all threads as the ISA defines
// ldmatrix, and checks every fragment slot of every thread against the MMA's own partition of the
// tile (`mma_partition(thread)` gives the tile index slot i of the thread's fragment must hold).
template <int Matrices, bool Transposed, class S2R, class SmemLayout, class MmaPartition, class FragLayout>
void check_ldsm_feeds_mma(S2R const& s2r, SmemLayout const& smem, int rows, int cols, MmaPartition const& mma_partition,
                          FragLayout const& frag_layout) {
  std::vector<int> mem = memory_of_ids(smem, rows, cols);
  auto smem_tensor = make_tensor(make_smem_ptr(mem.data()), smem);
  constexpr int threads = S2R::num_threads;
  constexpr int values = Matrices * 2;  // 16-bit values per lane per call
  const int frag_size = int(size(frag_layout));
  // Row addresses: the address of value 0 of each call, per lane.
  std::vector<std::vector<int const*>> row_of(threads);
  int calls = 0;
  for (int t = 0; t < threads; ++t) {
    auto src = s2r.get_slice(t).partition_S(smem_tensor);
    calls = int(size(src.layout())) / 8;
    for (int c = 0; c < calls; ++c) row_of[t].push_back(&src(c * 8));
  }
  for (int t = 0; t < threads; ++t) {
    std::vector<int> slot_ids(size_t(cosize(frag_layout)));
    std::iota(slot_ids.begin(), slot_ids.end(), 0);
    auto frag = make_tensor(slot_ids.data(), frag_layout);
    auto dst = s2r.get_slice(t).retile_D(frag);
    ASSERT_EQ(int(size(dst.layout())), calls * values) << "thread " << t;
    std::vector<int> got(size_t(frag_size), -1);
    const int warp_base = t - t % 32, lane = t % 32;
    for (int c = 0; c < calls; ++c) {
      for (int v = 0; v < values; ++v) {
        const int j = v / 2, e = v % 2;
        // The ISA: matrix j's row r comes from lane 8j + r of the same warp.
        int element;
        if (!Transposed) {
          element = row_of[warp_base + 8 * j + lane / 4][c][2 * (lane % 4) + e];
        } else {
          element = row_of[warp_base + 8 * j + 2 * (lane % 4) + e][c][lane / 4];
        }
        int slot = dst(c * values + v);
        ASSERT_TRUE(slot >= 0 && slot < frag_size) << "thread " << t;
        EXPECT_EQ(got[slot], -1) << "thread " << t << ": fragment slot " << slot << " written twice";
        got[slot] = element;
      }
    }
    auto expected = mma_partition(t);
    for (int i = 0; i < frag_size; ++i) {
      EXPECT_EQ(got[i], expected[i]) << "thread " << t << ", fragment value " << i << " (call value order "
                                     << "broken or wrong row)";
    }
  }
}

// Thread t's partition of operand A or B of the column-major tile of indices (element i holds i):
// slot i of its fragment must receive the tile element p(i). One instantiation per tile shape
// serves both the indices and the fragment's layout, which keeps this file quick to compile.
template <bool OperandA, class Mma, class TileShape>
auto mma_partition(Mma const& mma, int t, std::vector<int>& ids, TileShape const& tile_shape) {
  ids.resize(size_t(size(tile_shape)));
  std::iota(ids.begin(), ids.end(), 0);
  auto tile = make_tensor(ids.data(), make_layout(tile_shape));
  if constexpr (OperandA) {
    return mma.get_slice(t).partition_A(tile);
  } else {
    return mma.get_slice(t).partition_B(tile);
  }
}

template <bool OperandA, int Matrices, bool Transposed, class Mma, class SmemLayout>
void check_copy(Mma const& mma, SmemLayout const& smem) {
  using Op = arch::Ldsm<Matrices, Transposed>;
  auto s2r = [&] {
    if constexpr (OperandA) {
      return make_tiled_copy_A(CopyAtom<Op, __half>{}, mma);
    } else {
      return make_tiled_copy_B(CopyAtom<Op, __half>{}, mma);
    }
  }();
  constexpr int TX = decltype(Mma::template tile_size_mnk<OperandA ? 0 : 1>())::value;
  constexpr int TK = decltype(Mma::template tile_size_mnk<2>())::value;
  auto tile_shape = make_shape(Int<TX>{}, Int<TK>{});
  std::vector<int> ids;
  auto frag_layout = make_layout(mma_partition<OperandA>(mma, 0, ids, tile_shape).layout().shape());
  auto expected = [&](int t) {
    std::vector<int> ids_t, out;
    auto p = mma_partition<OperandA>(mma, t, ids_t, tile_shape);
    for (int i = 0; i < int(size(p.layout())); ++i) out.push_back(p(i));
    return out;
  };
  SCOPED_TRACE(std::string(OperandA ? "A " : "B ") + std::to_string(TX) + "x" + std::to_string(TK) +
               " ldmatrix.x" + std::to_string(Matrices) + (Transposed ? ".trans" : ""));
  check_ldsm_feeds_mma<Matrices, Transposed>(s2r, smem, TX, TK, expected, frag_layout);
}

template <int Matrices, bool Transposed, class Mma, class SmemLayout>
void check_copy_a(Mma const& mma, SmemLayout const& smem) {
  check_copy<true, Matrices, Transposed>(mma, smem);
}
template <int Matrices, bool Transposed, class Mma, class SmemLayout>
void check_copy_b(Mma const& mma, SmemLayout const& smem) {
  check_copy<false, Matrices, Transposed>(mma, smem);
}

TEST(TiledCopyLdsm, OneWarpAtomFragmentsFromKMajorAndMnMajorTiles) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_1, _1, _1>>{}, Tile<_16, _16, _16>{});
  // K-major (rows of K contiguous): plain ldmatrix. A 16 x 16, B 16 x 16 (two atoms in N).
  auto kmajor = make_layout(make_shape(_16{}, _16{}), LayoutRight{});
  check_copy_a<4, false>(mma, kmajor);
  check_copy_a<2, false>(mma, kmajor);
  check_copy_a<1, false>(mma, kmajor);
  check_copy_b<4, false>(mma, kmajor);
  check_copy_b<2, false>(mma, kmajor);
  check_copy_b<1, false>(mma, kmajor);
  // M/N-major (columns contiguous): ldmatrix.trans.
  auto mnmajor = make_layout(make_shape(_16{}, _16{}));
  check_copy_a<4, true>(mma, mnmajor);
  check_copy_a<2, true>(mma, mnmajor);
  check_copy_a<1, true>(mma, mnmajor);
  check_copy_b<4, true>(mma, mnmajor);
  check_copy_b<2, true>(mma, mnmajor);
  check_copy_b<1, true>(mma, mnmajor);
}

TEST(TiledCopyLdsm, FourWarps64x64x32FromSwizzledTiles) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_64, _64, _32>{});
  // The swizzled K-major tile of the integration test, and an N-major one for .trans.
  auto kmajor = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, _32{}), LayoutRight{}));
  auto mnmajor = composition(Swizzle<3, 3, 3>{}, make_layout(make_shape(_64{}, _32{})));
  check_copy_a<4, false>(mma, kmajor);
  check_copy_b<4, false>(mma, kmajor);
  check_copy_a<4, true>(mma, mnmajor);
  check_copy_b<2, true>(mma, mnmajor);
  // And a plain (unswizzled) tile.
  check_copy_b<4, true>(mma, make_layout(make_shape(_64{}, _32{})));
}

// ------------------------------------------------------------------------------------------------
// make_tiled_copy_C: an accumulator fragment stored where the MMA's C layout says
// ------------------------------------------------------------------------------------------------

TEST(TiledCopy, MakeTiledCopyCStoresAccumulatorsWhereTheMmaHoldsThem) {
  auto mma = make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_64, _64, _32>{});
  constexpr int M = 64, N = 64;
  // Row-major C: the pairs of adjacent n a thread holds are 8 contiguous bytes.
  auto r2g = make_tiled_copy_C(CopyAtom<arch::UniversalCopy<8>, float>{}, mma);
  std::vector<float> out(M * N, -1.0f);
  auto gC = make_tensor(make_gmem_ptr(out.data()), make_layout(make_shape(Int<M>{}, Int<N>{}), LayoutRight{}));
  // The tile's column-major indices, laid out like C so that one partition_C serves both.
  std::vector<float> ids(M * N);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) ids[m * N + n] = float(m + M * n);
  auto id_tile = make_tensor(make_gmem_ptr(ids.data()), gC.layout());
  for (int t = 0; t < 128; ++t) {
    auto thr_mma = mma.get_slice(t);
    auto frag = thr_mma.partition_fragment_C(gC);  // floats
    auto ids_of_frag = thr_mma.partition_C(id_tile);
    for (int i = 0; i < int(size(frag.layout())); ++i) frag(i) = ids_of_frag(i);
    auto thr = r2g.get_slice(t);
    copy(r2g, thr.retile_S(frag), thr.partition_D(gC));
  }
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) EXPECT_EQ(out[m * N + n], float(m + M * n)) << "(" << m << ", " << n << ")";
}

}  // namespace
