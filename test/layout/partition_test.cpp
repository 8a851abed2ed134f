// Partitioning: local_tile, local_partition, inner/outer_partition, projections — and that a CTA
// tiling plus a thread partition covers a matrix exactly once.
#include <gtest/gtest.h>

#include <vector>

#include "layout/partition.hpp"

using namespace strata;

namespace {

// Every element of an M x N matrix belongs to exactly one (tile, thread, value): walk all of them
// through the identity tensor, count the in-bounds coordinates, and check that the data tensor
// partitioned the same way addresses the element those coordinates name.
template <class ThrLayout, class Tiler>
void expect_exact_cover(int M, int N, int ld, ThrLayout thr, Tiler tiler) {
  std::vector<float> data(std::size_t(ld) * N);
  auto A = make_tensor(make_gmem_ptr(data.data()), make_shape(M, N), make_stride(_1{}, ld));
  auto coords = make_identity_tensor(shape(A));
  std::vector<int> count(std::size_t(M) * N, 0);
  int tiles_m = (M + size<0>(tiler) - 1) / size<0>(tiler);
  int tiles_n = (N + size<1>(tiler) - 1) / size<1>(tiler);
  for (int tm = 0; tm < tiles_m; ++tm)
    for (int tn = 0; tn < tiles_n; ++tn) {
      auto tile = local_tile(A, tiler, make_coord(tm, tn));
      auto tile_c = local_tile(coords, tiler, make_coord(tm, tn));
      ASSERT_EQ(shape(tile), shape(tile_c));
      for (int t = 0; t < size(thr); ++t) {
        auto mine = local_partition(tile, thr, t);
        auto mine_c = local_partition(tile_c, thr, t);
        ASSERT_EQ(size(mine), size(tiler) / size(thr));
        for (int v = 0; v < size(mine); ++v) {
          auto c = mine_c(v);
          if (!elem_less(c, shape(A))) continue;  // the part of an edge tile past the matrix
          int m = get<0>(c), n = get<1>(c);
          ++count[std::size_t(m) + std::size_t(n) * M];
          ASSERT_EQ(&mine(v), &A(m, n)) << "tile " << tm << "," << tn << " thread " << t << " value " << v;
        }
      }
    }
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) ASSERT_EQ(count[std::size_t(m) + std::size_t(n) * M], 1) << "element " << m << "," << n;
}

TEST(PartitionCover, EveryElementOnceColumnMajorThreads) {
  expect_exact_cover(100, 70, 100, make_layout(make_shape(_4{}, _8{})), make_shape(_32{}, _16{}));
}

TEST(PartitionCover, EveryElementOnceRowMajorThreadsPaddedMatrix) {
  expect_exact_cover(100, 70, 103, make_layout(make_shape(_4{}, _8{}), LayoutRight{}), make_shape(_32{}, _16{}));
}

TEST(PartitionCover, SmallerThanOneTile) {
  expect_exact_cover(7, 1, 7, make_layout(make_shape(_4{}, _8{})), make_shape(_32{}, _16{}));
}

TEST(LocalTile, PicksTheTile) {
  std::vector<int> v(64 * 48);
  for (int i = 0; i < int(v.size()); ++i) v[i] = i;
  auto A = make_tensor(v.data(), make_shape(64, 48));
  auto t = local_tile(A, make_shape(_16{}, _8{}), make_coord(2, 3));
  EXPECT_EQ(shape(t), make_shape(_16{}, _8{}));
  EXPECT_EQ(t(0, 0), A(32, 24));
  EXPECT_EQ(t(5, 7), A(37, 31));
  // inner_partition is the same thing.
  EXPECT_EQ(&inner_partition(A, make_shape(_16{}, _8{}), make_coord(2, 3))(5, 7), &t(5, 7));
}

TEST(LocalTile, UnderscoreKeepsTheTilesOfAMode) {
  std::vector<int> v(64 * 48);
  auto A = make_tensor(v.data(), make_shape(64, 48));
  auto row_of_tiles = local_tile(A, make_shape(_16{}, _8{}), make_coord(1, _));  // (16, 8, 6)
  EXPECT_EQ(int(rank(row_of_tiles)), 3);
  EXPECT_EQ(size<2>(row_of_tiles), 6);
  EXPECT_EQ(&row_of_tiles(3, 4, 5), &A(16 + 3, 40 + 4));
}

TEST(LocalTile, ProjectionOfAGemmTiler) {
  // (M, N, K) = (100, 90, 70); CTA tiler (32, 16, 8); CTA (1, 2) walks all its k-tiles.
  std::vector<float> a(100 * 70), b(90 * 70), c(100 * 90);
  auto A = make_tensor(a.data(), make_shape(100, 70));  // (M, K)
  auto B = make_tensor(b.data(), make_shape(90, 70));   // (N, K)
  auto C = make_tensor(c.data(), make_shape(100, 90));  // (M, N)
  auto tiler = make_shape(_32{}, _16{}, _8{});
  auto coord = make_coord(1, 2, _);
  auto gA = local_tile(A, tiler, coord, Step<_1, X, _1>{});  // (32, 8, k-tiles)
  auto gB = local_tile(B, tiler, coord, Step<X, _1, _1>{});  // (16, 8, k-tiles)
  auto gC = local_tile(C, tiler, coord, Step<_1, _1, X>{});  // (32, 16)
  EXPECT_EQ(size<0>(gA), 32);
  EXPECT_EQ(size<1>(gA), 8);
  EXPECT_EQ(size<2>(gA), 9);  // ceil(70 / 8)
  EXPECT_EQ(size<0>(gB), 16);
  EXPECT_EQ(size<2>(gB), 9);
  EXPECT_EQ(shape(gC), make_shape(_32{}, _16{}));
  EXPECT_EQ(&gA(4, 5, 2), &A(32 + 4, 16 + 5));
  EXPECT_EQ(&gB(4, 5, 2), &B(32 + 4, 16 + 5));
  EXPECT_EQ(&gC(4, 5), &C(32 + 4, 32 + 5));
}

TEST(LocalPartition, StridedShareOfATile) {
  std::vector<int> v(16 * 64);
  for (int i = 0; i < int(v.size()); ++i) v[i] = i;
  auto tile = make_tensor(v.data(), make_shape(_16{}, _64{}));
  auto thr = make_layout(make_shape(_2{}, _16{}));  // 32 threads, thread t at (t % 2, t / 2)
  auto mine = local_partition(tile, thr, 13);       // thread (1, 6)
  EXPECT_EQ(shape(mine), make_shape(_8{}, _4{}));
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(mine(i, j), tile(1 + 2 * i, 6 + 16 * j));
  // outer_partition with the same tiler and the thread's coordinate is the same view.
  auto same = outer_partition(tile, make_shape(_2{}, _16{}), make_coord(1, 6));
  EXPECT_EQ(same.layout(), mine.layout());
  EXPECT_EQ(same.data(), mine.data());
}

TEST(LocalPartition, ThreadCoordinateFollowsTheThreadLayout) {
  auto row_major = make_layout(make_shape(_4{}, _8{}), LayoutRight{});  // (4,8):(8,1)
  EXPECT_EQ(flat_coord(row_major, 13), make_coord(1, 5));
  auto col_major = make_layout(make_shape(_4{}, _8{}));
  EXPECT_EQ(flat_coord(col_major, 13), make_coord(1, 3));
  auto nested = make_layout(make_shape(make_shape(_2{}, _2{}), _8{}), make_stride(make_stride(_1{}, _16{}), _2{}));
  EXPECT_EQ(flat_coord(nested, 16 + 2 * 5 + 1), make_coord(3, 5));
}

TEST(LocalPartition, ProjectionOfAThreadLayout) {
  // A (BM, BK) tile of A is split by the M mode of a (16, 16) thread layout, a (BN, BK) tile of B by
  // its N mode: thread t reads rows t % 16 (+16, +32, ...) of A and rows t / 16 (...) of B.
  std::vector<int> v(64 * 8);
  for (int i = 0; i < int(v.size()); ++i) v[i] = i;
  auto sA = make_tensor(v.data(), make_shape(_64{}, _8{}));
  auto thr = make_layout(make_shape(_16{}, _16{}));
  auto tA = local_partition(sA, thr, 37, Step<_1, X>{});
  auto tB = local_partition(sA, thr, 37, Step<X, _1>{});
  EXPECT_EQ(shape(tA), make_shape(_4{}, _8{}));
  for (int i = 0; i < 4; ++i)
    for (int k = 0; k < 8; ++k) {
      EXPECT_EQ(tA(i, k), sA(5 + 16 * i, k));
      EXPECT_EQ(tB(i, k), sA(2 + 16 * i, k));
    }
}

TEST(OuterPartition, OneDimensionalIndexIntoTheTileMode) {
  std::vector<int> v(16 * 64);
  auto data = make_tensor(v.data(), make_shape(_16{}, _64{}));
  // CuTe's example: the (2,16) tiler, thread 13 given as a 1-D index into the tile.
  auto thr_data = outer_partition(data, make_shape(_2{}, _16{}), 13);
  EXPECT_EQ(shape(thr_data), make_shape(_8{}, _4{}));
  EXPECT_EQ(&thr_data(0, 0), &data(1, 6));
}

}  // namespace
