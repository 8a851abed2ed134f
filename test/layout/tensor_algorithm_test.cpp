// Algorithms on tensors: copy (and the vector width it picks), copy_if with identity-tensor
// predicates on a tile hanging over the matrix edge, fill, clear, gemm on register fragments.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "layout/partition.hpp"
#include "layout/tensor_algorithm.hpp"

using namespace strata;

namespace {

std::vector<float> ramp(int n, float start = 0.f) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = start + float(i);
  return v;
}

template <class Src, class Dst>
void expect_same_elements(Src const& src, Dst const& dst) {
  ASSERT_EQ(int(size(src)), int(size(dst)));
  for (int i = 0; i < int(size(src)); ++i) EXPECT_EQ(dst(i), src(i)) << "element " << i;
}

// ---- copy: the vector width -------------------------------------------------------------------

TEST(CopyVectorWidth, ContiguousFloatsMoveFourAtATime) {
  alignas(16) float a[64], b[64];
  auto s = make_tensor(a, make_shape(_8{}, _8{}));
  auto d = make_tensor(b, make_shape(_8{}, _8{}));
  static_assert(decltype(copy_vector_width(s, d))::value == 4);
  EXPECT_TRUE(copy_is_vectorized(s, d));
}

TEST(CopyVectorWidth, ByElementSize) {
  alignas(16) std::uint16_t h[64];
  alignas(16) double x[64];
  alignas(16) char c[64];
  auto th = make_tensor(h, make_shape(_64{}));
  auto tx = make_tensor(x, make_shape(_64{}));
  auto tc = make_tensor(c, make_shape(_64{}));
  static_assert(decltype(copy_vector_width(th, th))::value == 8);   // 8 x 2 bytes
  static_assert(decltype(copy_vector_width(tx, tx))::value == 2);   // 2 x 8 bytes
  static_assert(decltype(copy_vector_width(tc, tc))::value == 16);  // 16 x 1 byte
}

TEST(CopyVectorWidth, LimitedByTheLayouts) {
  alignas(16) float a[256], b[256];
  auto col = make_tensor(a, make_shape(_8{}, _8{}));
  auto row = make_tensor(b, make_shape(_8{}, _8{}), LayoutRight{});
  auto strided = make_tensor(b, make_shape(_8{}, _4{}), make_stride(_2{}, _16{}));
  auto pairs = make_tensor(a, make_shape(_2{}, _16{}), make_stride(_1{}, _4{}));
  auto six = make_tensor(a, make_shape(_6{}, _4{}));  // contiguous, but columns of 6 split vectors of 4
  static_assert(decltype(copy_vector_width(col, row))::value == 1);  // transposed: no common run
  static_assert(decltype(copy_vector_width(strided, strided))::value == 1);
  static_assert(decltype(copy_vector_width(pairs, make_fragment_like(pairs)))::value == 2);
  static_assert(decltype(copy_vector_width(six, six))::value == 2);
  // Different element types convert one by one.
  std::vector<int> ints(64);
  static_assert(decltype(copy_vector_width(make_tensor(ints.data(), make_shape(_8{}, _8{})), col))::value == 1);
  // An identity tensor is not memory.
  static_assert(decltype(copy_vector_width(make_identity_tensor(make_shape(_8{})), make_identity_tensor(make_shape(_8{}))))::value == 1);
}

TEST(CopyVectorWidth, DynamicLeadingDimensionIsCheckedAtRunTime) {
  // A (32,16) tile of a column-major matrix with leading dimension ld, into a static shared tile.
  std::vector<float> g(64 * 16 + 4);
  alignas(16) float s[32 * 16];
  auto dst = make_tensor(make_smem_ptr(s), make_shape(_32{}, _16{}));
  float* base = g.data();
  while (reinterpret_cast<std::uintptr_t>(base) % 16 != 0) ++base;
  for (int ld : {64, 33, 36}) {
    for (int shift : {0, 1}) {
      auto src = make_tensor(make_gmem_ptr(base + shift), make_shape(_32{}, _16{}), make_stride(_1{}, ld));
      static_assert(decltype(copy_vector_width(src, dst))::value == 4);
      bool expect = ld % 4 == 0 && shift == 0;
      EXPECT_EQ(copy_is_vectorized(src, dst), expect) << "ld " << ld << " shift " << shift;
      for (int i = 0; i < int(g.size()); ++i) g[i] = float(i);
      for (float& x : s) x = -1.f;
      copy(src, dst);
      expect_same_elements(src, dst);
    }
  }
}

// ---- copy: correctness ------------------------------------------------------------------------

TEST(Copy, ContiguousStridedAndTransposed) {
  auto a = ramp(128);
  std::vector<float> b(320, -1.f);  // cosize of the strided destination: 2*7 + 20*15 + 1
  auto src = make_tensor(a.data(), make_shape(_8{}, _16{}));
  // contiguous
  auto d0 = make_tensor(b.data(), make_shape(_8{}, _16{}));
  copy(src, d0);
  expect_same_elements(src, d0);
  // strided destination: every other element, columns 20 apart
  std::fill(b.begin(), b.end(), -1.f);
  auto d1 = make_tensor(b.data(), make_shape(_8{}, _16{}), make_stride(_2{}, Int<20>{}));
  copy(src, d1);
  expect_same_elements(src, d1);
  EXPECT_EQ(b[1], -1.f);  // the gaps are untouched
  // transposed destination: row-major
  std::fill(b.begin(), b.end(), -1.f);
  auto d2 = make_tensor(b.data(), make_shape(_8{}, _16{}), LayoutRight{});
  copy(src, d2);
  expect_same_elements(src, d2);
  EXPECT_EQ(b[1], src(0, 1));
}

TEST(Copy, IntoAndOutOfRegisterFragments) {
  auto a = ramp(64, 10.f);
  auto g = make_tensor(make_gmem_ptr(a.data()), make_shape(_4{}, _16{}));
  auto f = make_fragment_like(g);
  static_assert(decltype(copy_vector_width(g, f))::value == 4);
  copy(g, f);
  expect_same_elements(g, f);
  std::vector<float> out(64, 0.f);
  auto o = make_tensor(make_gmem_ptr(out.data()), make_shape(_4{}, _16{}));
  copy(f, o);
  EXPECT_EQ(out, a);
}

TEST(Copy, ConvertsElementTypes) {
  std::vector<int> a = {1, 2, 3, 4};
  std::vector<double> b(4);
  copy(make_tensor(a.data(), make_shape(4)), make_tensor(b.data(), make_shape(4)));
  EXPECT_EQ(b, (std::vector<double>{1, 2, 3, 4}));
}

// ---- copy_if: predication with an identity tensor ---------------------------------------------

TEST(CopyIf, HangingTileCopiesOnlyWhatExists) {
  // A 10 x 7 column-major matrix (ld == 10), tiles of 8 x 4. Tile (1, 1) covers rows 8..15 and
  // columns 4..7: only rows 8, 9 and columns 4, 5, 6 exist. Past row 9 the addresses wrap into the
  // next column, so an unguarded copy would overwrite real elements.
  const int M = 10, N = 7;
  auto a = ramp(M * N);
  auto A = make_tensor(a.data(), make_shape(M, N));
  auto cA = make_identity_tensor(shape(A));
  auto tile = local_tile(A, make_shape(_8{}, _4{}), make_coord(1, 1));
  auto tile_c = local_tile(cA, make_shape(_8{}, _4{}), make_coord(1, 1));
  auto inside = [&](int i) { return elem_less(tile_c(i), shape(A)); };

  // Load: the fragment receives the existing elements, the rest keeps its sentinel.
  auto frag = make_fragment_like(tile);
  fill(frag, -7.f);
  copy_if(inside, tile, frag);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 8; ++i) {
      bool exists = 8 + i < M && 4 + j < N;
      EXPECT_EQ(frag(i, j), exists ? A(8 + i, 4 + j) : -7.f) << i << "," << j;
    }

  // Store: only the existing elements of the matrix change.
  fill(frag, 1000.f);
  auto before = a;
  copy_if(inside, frag, tile);
  for (int n = 0; n < N; ++n)
    for (int m = 0; m < M; ++m) {
      bool in_tile = m >= 8 && n >= 4;
      EXPECT_EQ(A(m, n), in_tile ? 1000.f : before[m + n * M]) << m << "," << n;
    }
}

TEST(CopyIf, PredicateTensor) {
  auto a = ramp(8);
  std::vector<float> b(8, 0.f);
  auto pred = make_tensor<bool>(make_shape(_8{}));
  for (int i = 0; i < 8; ++i) pred(i) = i % 3 == 0;
  copy_if(pred, make_tensor(a.data(), make_shape(_8{})), make_tensor(b.data(), make_shape(_8{})));
  EXPECT_EQ(b, (std::vector<float>{0, 0, 0, 3, 0, 0, 6, 0}));
}

// ---- fill, clear ------------------------------------------------------------------------------

TEST(FillClear, EveryElement) {
  std::vector<float> v(40, 5.f);
  auto t = make_tensor(v.data(), make_shape(_4{}, _5{}), make_stride(_2{}, _8{}));  // every other one
  fill(t, 3.f);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(v[i], (i % 2 == 0) ? 3.f : 5.f);
  clear(t);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(v[i], (i % 2 == 0) ? 0.f : 5.f);
  auto f = make_tensor<int>(make_shape(_3{}, _3{}));
  fill(f, 9);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(f(i), 9);
  clear(f);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(f(i), 0);
}

// ---- gemm on fragments ------------------------------------------------------------------------

TEST(GemmFragments, MatchesANaiveLoop) {
  auto a = make_tensor<float>(make_shape(_4{}, _3{}));                // (M, K)
  auto b = make_tensor<float>(make_shape(_5{}, _3{}), LayoutRight{});  // (N, K), any layout
  auto c = make_tensor<float>(make_shape(_4{}, _5{}));                // (M, N)
  for (int i = 0; i < size(a); ++i) a(i) = float(i % 7) - 2.f;
  for (int i = 0; i < size(b); ++i) b(i) = float(i % 5) * 0.5f;
  for (int i = 0; i < size(c); ++i) c(i) = float(i);  // gemm accumulates into c
  float want[4][5];
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 5; ++n) {
      want[m][n] = c(m, n);
      for (int k = 0; k < 3; ++k) want[m][n] += a(m, k) * b(n, k);
    }
  gemm(a, b, c);
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 5; ++n) EXPECT_FLOAT_EQ(c(m, n), want[m][n]) << m << "," << n;
}

TEST(GemmFragments, OuterProductAndValueMode) {
  auto a = make_tensor<float>(make_shape(_3{}));
  auto b = make_tensor<float>(make_shape(_2{}));
  auto c = make_tensor<float>(make_shape(_3{}, _2{}));
  for (int i = 0; i < 3; ++i) a(i) = float(i + 1);
  for (int i = 0; i < 2; ++i) b(i) = float(10 * (i + 1));
  clear(c);
  gemm(a, b, c);
  for (int m = 0; m < 3; ++m)
    for (int n = 0; n < 2; ++n) EXPECT_EQ(c(m, n), float((m + 1) * 10 * (n + 1)));

  auto va = make_tensor<float>(make_shape(_2{}, _3{}, _4{}));  // (V, M, K)
  auto vb = make_tensor<float>(make_shape(_2{}, _2{}, _4{}));  // (V, N, K)
  auto vc = make_tensor<float>(make_shape(_2{}, _3{}, _2{}));  // (V, M, N)
  for (int i = 0; i < size(va); ++i) va(i) = float(i % 5);
  for (int i = 0; i < size(vb); ++i) vb(i) = float(i % 3) - 1.f;
  clear(vc);
  gemm(va, vb, vc);
  for (int v = 0; v < 2; ++v)
    for (int m = 0; m < 3; ++m)
      for (int n = 0; n < 2; ++n) {
        float want = 0.f;
        for (int k = 0; k < 4; ++k) want += va(v, m, k) * vb(v, n, k);
        EXPECT_EQ(vc(v, m, n), want);
      }
}

}  // namespace
