// Text form of integers, tuples and layouts: `shape:stride`, static integers as `_N`.
#include "layout_generators.hpp"

using namespace strata;
using strata_test::str;

namespace {

TEST(Printing, Integers) {
  EXPECT_EQ(str(_4{}), "_4");
  EXPECT_EQ(str(Int<128>{}), "_128");
  EXPECT_EQ(str(7), "7");
}

TEST(Printing, Tuples) {
  EXPECT_EQ(str(make_shape(4, make_shape(2, 3))), "(4,(2,3))");
  EXPECT_EQ(str(make_shape(_4{}, make_shape(2, _3{}))), "(_4,(2,_3))");
  EXPECT_EQ(str(make_coord(1)), "(1)");
}

TEST(Printing, DynamicLayouts) {
  EXPECT_EQ(str(make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)))),
            "(4,(2,3)):(2,(1,8))");
  EXPECT_EQ(str(make_layout(8, 1)), "8:1");
  EXPECT_EQ(str(make_layout(make_shape(2, 3), make_stride(3, 1))), "(2,3):(3,1)");
  EXPECT_EQ(str(make_layout(make_shape(2, 3))), "(2,3):(_1,2)");  // compact strides start at a static 1
}

TEST(Printing, StaticLayouts) {
  EXPECT_EQ(str(Layout<_8, _1>{}), "_8:_1");
  EXPECT_EQ(str(Layout<Shape<_2, _4>, Stride<_1, _2>>{}), "(_2,_4):(_1,_2)");
  EXPECT_EQ(str(Layout<Shape<_4, Shape<_2, _3>>, Stride<_2, Stride<_1, _8>>>{}), "(_4,(_2,_3)):(_2,(_1,_8))");
  EXPECT_EQ(str(make_layout(Shape<_2, _4>{})), "(_2,_4):(_1,_2)");
  EXPECT_EQ(str(make_layout(Shape<_2, _4>{}, LayoutRight{})), "(_2,_4):(_4,_1)");
  // A static size-1 mode gets stride _0 in a compact layout.
  EXPECT_EQ(str(make_layout(Shape<_1, _4>{})), "(_1,_4):(_0,_1)");
}

TEST(Printing, MixedLayouts) {
  EXPECT_EQ(str(make_layout(make_shape(_2{}, 4, 3))), "(_2,4,3):(_1,_2,8)");
  EXPECT_EQ(str(make_layout(make_shape(4, _2{}), make_stride(_2{}, 1))), "(4,_2):(_2,1)");
}

TEST(Printing, AlgebraResults) {
  EXPECT_EQ(str(coalesce(Layout<Shape<_2, Shape<_1, _6>>, Stride<_1, Stride<_6, _2>>>{})), "_12:_1");
  EXPECT_EQ(str(complement(Layout<_4, _2>{}, _24{})), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(logical_divide(Layout<Shape<_4, _2, _3>, Stride<_2, _1, _8>>{}, Layout<_4, _2>{})),
            "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
}

}  // namespace
