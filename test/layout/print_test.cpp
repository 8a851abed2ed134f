// print_layout and print_tensor: the exact text of the tables.
#include <layout/layout.hpp>
#include <layout/print.hpp>
#include <layout/swizzle.hpp>
#include <layout/tensor.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace strata;

namespace {

template <class L>
std::string layout_table(L const& l) {
  std::ostringstream os;
  print_layout(os, l);
  return os.str();
}

template <class T>
std::string tensor_table(T const& t) {
  std::ostringstream os;
  print_tensor(os, t);
  return os.str();
}

TEST(PrintLayout, RowMajorTable) {
  EXPECT_EQ(layout_table(make_layout(make_shape(4, 2), make_stride(2, 1))),
            "(4,2):(2,1)\n"
            "      0   1\n"
            "    +---+---+\n"
            " 0  | 0 | 1 |\n"
            "    +---+---+\n"
            " 1  | 2 | 3 |\n"
            "    +---+---+\n"
            " 2  | 4 | 5 |\n"
            "    +---+---+\n"
            " 3  | 6 | 7 |\n"
            "    +---+---+\n");
}

TEST(PrintLayout, StaticColumnMajorHeaderKeepsTheUnderscores) {
  EXPECT_EQ(layout_table(Layout<Shape<_2, _3>>{}),
            "(_2,_3):(_1,_2)\n"
            "      0   1   2\n"
            "    +---+---+---+\n"
            " 0  | 0 | 2 | 4 |\n"
            "    +---+---+---+\n"
            " 1  | 1 | 3 | 5 |\n"
            "    +---+---+---+\n");
}

TEST(PrintLayout, HierarchicalColumnModeIsIndexedColexicographically) {
  auto l = make_layout(make_shape(2, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  EXPECT_EQ(layout_table(l),
            "(2,(2,3)):(2,(1,8))\n"
            "       0    1    2    3    4    5\n"
            "    +----+----+----+----+----+----+\n"
            " 0  |  0 |  1 |  8 |  9 | 16 | 17 |\n"
            "    +----+----+----+----+----+----+\n"
            " 1  |  2 |  3 | 10 | 11 | 18 | 19 |\n"
            "    +----+----+----+----+----+----+\n");
}

TEST(PrintLayout, RankOneIsOneRow) {
  EXPECT_EQ(layout_table(make_layout(4, 3)),
            "4:3\n"
            "      0   1   2   3\n"
            "    +---+---+---+---+\n"
            " 0  | 0 | 3 | 6 | 9 |\n"
            "    +---+---+---+---+\n");
}

TEST(PrintLayout, WideRowNumbersAndNegativeIndicesStayAligned) {
  // Twelve rows need two-digit row numbers; a negative stride widens the cells.
  auto tall = layout_table(make_layout(make_shape(12, 1), make_stride(1, 0)));
  EXPECT_NE(tall.find("\n 9  |  9 |\n"), std::string::npos) << tall;
  EXPECT_NE(tall.find("\n11  | 11 |\n"), std::string::npos) << tall;
  EXPECT_EQ(layout_table(make_layout(make_shape(2, 2), make_stride(-1, 4))),
            "(2,2):(-1,4)\n"
            "       0    1\n"
            "    +----+----+\n"
            " 0  |  0 |  4 |\n"
            "    +----+----+\n"
            " 1  | -1 |  3 |\n"
            "    +----+----+\n");
}

TEST(PrintLayout, AlgebraResultsPrint) {
  // blocked_product of a 2x2 tile over a 1x2 grid: a 2x4 table.
  auto l = blocked_product(Layout<Shape<_2, _2>>{}, Layout<Shape<_1, _2>>{});
  auto text = layout_table(l);
  EXPECT_NE(text.find(" 0  | 0 | 2 | 4 | 6 |"), std::string::npos) << text;
  EXPECT_NE(text.find(" 1  | 1 | 3 | 5 | 7 |"), std::string::npos) << text;
}

TEST(PrintLayout, SwizzledLayouts) {
  // Swizzle<2,0,2> XORs bits 2..3 (the row of a 4x4 row-major tile) into bits 0..1 (the column).
  auto swizzled = composition(Swizzle<2, 0, 2>{}, make_layout(Shape<_4, _4>{}, LayoutRight{}));
  EXPECT_EQ(layout_table(swizzled),
            "Sw<2,0,2> o _0 o (_4,_4):(_4,_1)\n"
            "       0    1    2    3\n"
            "    +----+----+----+----+\n"
            " 0  |  0 |  1 |  2 |  3 |\n"
            "    +----+----+----+----+\n"
            " 1  |  5 |  4 |  7 |  6 |\n"
            "    +----+----+----+----+\n"
            " 2  | 10 | 11 |  8 |  9 |\n"
            "    +----+----+----+----+\n"
            " 3  | 15 | 14 | 13 | 12 |\n"
            "    +----+----+----+----+\n");
  // Rank 1: one row.
  EXPECT_EQ(layout_table(composition(Swizzle<1, 0, 1>{}, Layout<_4, _1>{})),
            "Sw<1,0,1> o _0 o _4:_1\n"
            "      0   1   2   3\n"
            "    +---+---+---+---+\n"
            " 0  | 0 | 1 | 3 | 2 |\n"
            "    +---+---+---+---+\n");
}

// A layout-like type that is neither a Layout nor printable: only size<0>, size<1> and l(m, n).
struct Checkerboard {
  int operator()(int m, int n) const { return (m + n) % 2; }
};
template <int I>
int size(Checkerboard const&) {
  return I == 0 ? 2 : 3;
}

TEST(PrintLayout, AnythingWithSizesAndTwoDimensionalAccess) {
  EXPECT_EQ(layout_table(Checkerboard{}),
            "      0   1   2\n"
            "    +---+---+---+\n"
            " 0  | 0 | 1 | 0 |\n"
            "    +---+---+---+\n"
            " 1  | 1 | 0 | 1 |\n"
            "    +---+---+---+\n");
}

// The least a tensor must offer print_tensor: a layout and element access by linear index.
template <class T, class L>
struct FakeTensor {
  std::vector<T> data;
  L layout_;
  L const& layout() const { return layout_; }
  T const& operator()(int i) const { return data[std::size_t(layout_(i))]; }
};
template <class T, class L>
FakeTensor(std::vector<T>, L) -> FakeTensor<T, L>;

TEST(PrintTensor, ValuesInTheLayoutsArrangement) {
  // Row-major storage of 0.5, 1.5, ...: value(m, n) = data[m * 3 + n].
  FakeTensor t{std::vector<double>{0.5, 1.5, 2.5, 3.5, 4.5, 5.5}, make_layout(make_shape(2, 3), make_stride(3, 1))};
  EXPECT_EQ(tensor_table(t),
            "(2,3):(3,1)\n"
            "  0.5  1.5  2.5\n"
            "  3.5  4.5  5.5\n");
}

TEST(PrintTensor, RankOneIsOneRowAndColumnsAlignToTheWidestValue) {
  FakeTensor t{std::vector<int>{7, -12, 100}, make_layout(3, 1)};
  EXPECT_EQ(tensor_table(t),
            "3:1\n"
            "    7  -12  100\n");
}

TEST(PrintTensor, StrataTensorsViewsSlicesAndIdentityTensors) {
  std::vector<int> buffer(12);
  for (int i = 0; i < 12; ++i) buffer[std::size_t(i)] = 10 * i;
  auto t = make_tensor(make_gmem_ptr(buffer.data()), make_shape(_3{}, _4{}));
  EXPECT_EQ(tensor_table(t),
            "(_3,_4):(_1,_3)\n"
            "    0   30   60   90\n"
            "   10   40   70  100\n"
            "   20   50   80  110\n");
  EXPECT_EQ(tensor_table(t(1, _)), "(_4):(_3)\n   10   40   70  100\n");
  // An identity tensor holds coordinates, and they print as tuples.
  EXPECT_EQ(tensor_table(make_identity_tensor(make_shape(2, 2))),
            "(2,2):(_1@0,_1@1)\n"
            "  (0,0)  (0,1)\n"
            "  (1,0)  (1,1)\n");
  auto fragment = make_tensor<float>(Shape<_2, _1>{});
  fragment(0) = 0.5f;
  fragment(1) = -1.25f;
  EXPECT_EQ(tensor_table(fragment), "(_2,_1):(_1,_0)\n    0.5\n  -1.25\n");
}

TEST(PrintTensor, RequiresALayoutAndElementAccess) {
  static_assert(TensorLike<FakeTensor<int, Layout<int, int>>>);
  static_assert(!TensorLike<Layout<int, int>>, "a layout is not a tensor: it has no layout()");
  static_assert(!TensorLike<std::vector<int>>);
}

}  // namespace
