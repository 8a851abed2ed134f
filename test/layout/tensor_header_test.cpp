// <layout/tensor.hpp> alone is the whole tensor vocabulary of DESIGN.md: this file includes nothing
// else of Strata and uses every name of that list, checking what each one gives.
#include <layout/tensor.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>

using namespace strata;

namespace {

template <std::size_t N>
std::array<int, N> ramp() {
  std::array<int, N> v{};
  for (std::size_t i = 0; i < N; ++i) v[i] = int(i);
  return v;
}

TEST(TensorHeader, MakeTensorAccessorsAndSlicing) {
  auto mem = ramp<24>();
  auto t = make_tensor(mem.data(), make_shape(_4{}, _6{}));  // column-major
  static_assert(decltype(rank(t))::value == 2);
  static_assert(decltype(size(t))::value == 24 && decltype(size<1>(t))::value == 6);
  EXPECT_TRUE(shape(t) == make_shape(_4{}, _6{}));
  EXPECT_TRUE(layout(t) == make_layout(make_shape(_4{}, _6{})));
  EXPECT_EQ(t(9), 9);
  EXPECT_EQ(t(1, 2), 9);
  EXPECT_EQ(t(make_coord(3, 5)), 23);
  auto column = t(_, 2);
  static_assert(decltype(rank(column))::value == 1);
  EXPECT_EQ(int(size(column)), 4);
  EXPECT_EQ(column(1), 9);
  auto row = t(1, _);
  EXPECT_EQ(int(size(row)), 6);
  EXPECT_EQ(row(3), 13);
  // A pointer tagged as global memory, a run-time row-major layout.
  auto g = make_tensor(make_gmem_ptr(mem.data()), make_layout(make_shape(4, 6), make_stride(6, 1)));
  EXPECT_EQ(g(1, 2), 8);
  g(1, 2) = 100;
  EXPECT_EQ(mem[8], 100);
}

TEST(TensorHeader, OwningTensorsFillClearCopy) {
  auto r = make_tensor<float>(Layout<Shape<_2, _4>>{});
  fill(r, 1.5f);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r(i), 1.5f);
  clear(r);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(r(i), 0.f);

  auto mem = ramp<24>();
  auto t = make_tensor(mem.data(), make_shape(_4{}, _6{}), LayoutRight{});
  auto frag = make_fragment_like(t);  // owning, compact column-major, same shape and element type
  static_assert(std::is_same_v<decltype(frag)::value_type, int>);
  EXPECT_TRUE(shape(frag) == shape(t));
  copy(t, frag);
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 6; ++n) EXPECT_EQ(frag(m, n), 6 * m + n);
  auto as_float = make_fragment_like<float>(t);
  copy(t, as_float);
  EXPECT_EQ(as_float(3, 5), 23.f);
}

TEST(TensorHeader, Partitioning) {
  auto mem = ramp<64>();
  auto t = make_tensor(mem.data(), make_shape(_8{}, _8{}));  // t(m, n) == m + 8n
  auto tiler = make_shape(_4{}, _2{});

  // Tile (1, 2): t(4 + i, 4 + j).
  auto tile = local_tile(t, tiler, make_coord(1, 2));
  auto inner = inner_partition(t, tiler, make_coord(1, 2));
  EXPECT_TRUE(shape(tile) == tiler);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 2; ++j) {
      EXPECT_EQ(tile(i, j), (4 + i) + 8 * (4 + j));
      EXPECT_EQ(inner(i, j), tile(i, j));
    }

  // Element (1, 0) of every tile: a 2 x 4 grid, t(1 + 4a, 2b).
  auto outer = outer_partition(t, tiler, make_coord(1, 0));
  EXPECT_TRUE(shape(outer) == make_shape(_2{}, _4{}));
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 4; ++b) EXPECT_EQ(outer(a, b), (1 + 4 * a) + 8 * (2 * b));

  // Thread 5 of a column-major 2 x 4 thread layout sits at (1, 2): t(1 + 2j, 2 + 4k).
  auto mine = local_partition(t, Layout<Shape<_2, _4>>{}, 5);
  EXPECT_TRUE(shape(mine) == make_shape(_4{}, _2{}));
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 2; ++k) EXPECT_EQ(mine(j, k), (1 + 2 * j) + 8 * (2 + 4 * k));
}

TEST(TensorHeader, IdentityTensorGuardsCopyIf) {
  // A 5 x 3 matrix and its second 4 x 4 tile, which hangs over the edge: rows 4..7 of which only
  // row 4 exists, columns 0..3 of which only 0..2 exist.
  auto mem = ramp<15>();
  auto shape_mn = make_shape(5, 3);
  auto g = make_tensor(mem.data(), shape_mn);
  auto coords = make_identity_tensor(shape_mn);
  EXPECT_TRUE(coords(2, 1) == make_coord(2, 1));
  auto gtile = local_tile(g, make_shape(_4{}, _4{}), make_coord(1, 0));
  auto ctile = local_tile(coords, make_shape(_4{}, _4{}), make_coord(1, 0));
  auto frag = make_tensor<int>(Layout<Shape<_4, _4>>{});
  fill(frag, -1);
  copy_if([&](int i) { return elem_less(ctile(i), shape_mn); }, gtile, frag);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(frag(i, j), (i == 0 && j < 3) ? 4 + 5 * j : -1) << i << "," << j;
}

TEST(TensorHeader, RecastSeesTheSameBytes) {
  alignas(16) std::array<std::uint16_t, 8> half{};
  for (std::size_t i = 0; i < 8; ++i) half[i] = std::uint16_t(0x100 * i + 1);
  auto t = make_tensor(half.data(), make_shape(_8{}));
  auto words = recast<std::uint32_t>(t);
  static_assert(decltype(size(words))::value == 4);
  for (int i = 0; i < 4; ++i) {
    std::uint32_t expect;
    std::memcpy(&expect, half.data() + 2 * i, sizeof expect);
    EXPECT_EQ(words(i), expect) << i;
  }
}

TEST(TensorHeader, Gemm) {
  // c(m, n) += a(m, k) * b(n, k): a is 2 x 3, b is 2 x 3, c is 2 x 2.
  auto a = make_tensor<float>(Layout<Shape<_2, _3>>{});
  auto b = make_tensor<float>(Layout<Shape<_2, _3>>{});
  auto c = make_tensor<float>(Layout<Shape<_2, _2>>{});
  for (int m = 0; m < 2; ++m)
    for (int k = 0; k < 3; ++k) {
      a(m, k) = float(1 + m + 2 * k);
      b(m, k) = float(3 - m + k);
    }
  fill(c, 10.f);
  gemm(a, b, c);
  for (int m = 0; m < 2; ++m)
    for (int n = 0; n < 2; ++n) {
      float expect = 10.f;
      for (int k = 0; k < 3; ++k) expect += float(1 + m + 2 * k) * float(3 - n + k);
      EXPECT_EQ(c(m, n), expect) << m << "," << n;
    }
}

}  // namespace
