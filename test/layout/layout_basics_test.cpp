// Layout construction, accessors, evaluation and restructuring (no algebra).
#include "layout_generators.hpp"

using namespace strata;
using strata_test::str;
using strata_test::unstatic;

namespace {

TEST(LayoutBasics, MakeLayoutWithStride) {
  auto l = make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  EXPECT_TRUE(shape(l) == make_shape(4, make_shape(2, 3)));
  EXPECT_TRUE(stride(l) == make_stride(2, make_stride(1, 8)));
  EXPECT_EQ(int(size(l)), 24);
  EXPECT_EQ(int(size<0>(l)), 4);
  EXPECT_EQ(int(size<1>(l)), 6);
  EXPECT_EQ(int(shape<0>(l)), 4);
  EXPECT_TRUE(shape<1>(l) == make_shape(2, 3));
  EXPECT_EQ(int(rank(l)), 2);
  EXPECT_EQ(int(depth(l)), 2);
  EXPECT_EQ(int(cosize(l)), 24);  // l(23) + 1 = 3*2 + 1*1 + 2*8 + 1
  EXPECT_EQ(str(layout<1>(l)), "(2,3):(1,8)");
  EXPECT_EQ(str(layout<0>(l)), "4:2");
}

TEST(LayoutBasics, RankIsStatic) {
  auto l = make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  static_assert(decltype(rank(l))::value == 2);
  static_assert(decltype(rank(make_layout(8, 1)))::value == 1);
  static_assert(decltype(rank(make_layout(make_shape(2, 3, 4))))::value == 3);
  static_assert(decltype(depth(Layout<Shape<_2, Shape<_2, Shape<_2, _2>>>>{}))::value == 3);
  EXPECT_EQ(int(depth(make_layout(8, 1))), 0);
}

TEST(LayoutBasics, MakeLayoutIsColumnMajor) {
  auto l = make_layout(make_shape(4, make_shape(2, 3)));
  EXPECT_TRUE(stride(l) == make_stride(1, make_stride(4, 8)));
  auto s = make_layout(Shape<_2, _4>{});
  EXPECT_EQ(str(s), "(_2,_4):(_1,_2)");
  // Compact strides of a mixed shape stay static as far as the shape is static.
  auto m = make_layout(make_shape(_2{}, 4, 3));
  EXPECT_EQ(unstatic(str(m)), "(2,4,3):(1,2,8)");
  EXPECT_TRUE(is_static_v<std::remove_cvref_t<decltype(get<0>(stride(m)))>>);
  EXPECT_TRUE(is_static_v<std::remove_cvref_t<decltype(get<1>(stride(m)))>>);
  for (int i = 0; i < 24; ++i) EXPECT_EQ(int(m(i)), i);
}

TEST(LayoutBasics, EvaluationLinearNaturalHierarchical) {
  auto l = make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  EXPECT_EQ(int(l(0)), 0);
  EXPECT_EQ(int(l(1)), 2);
  EXPECT_EQ(int(l(4)), 1);
  EXPECT_EQ(int(l(8)), 8);
  EXPECT_EQ(int(l(21)), 19);
  EXPECT_EQ(int(l(make_coord(1, make_coord(1, 2)))), 19);  // hierarchical
  EXPECT_EQ(int(l(make_coord(1, 5))), 19);                  // natural in mode 1
  EXPECT_EQ(int(l(1, 5)), 19);                              // multi-argument
  EXPECT_EQ(int(l(3, make_coord(1, 2))), 6 + 1 + 16);

  auto rm = make_layout(make_shape(2, 3), make_stride(3, 1));
  EXPECT_EQ(int(rm(1, 2)), 5);
  EXPECT_EQ(int(rm(make_coord(1, 2))), 5);
  EXPECT_EQ(int(rm(3)), 4);  // 3 -> (1,1)
}

TEST(LayoutBasics, EvaluationMatchesFlatReference) {
  int checked = 0;
  strata_test::for_random_layouts(11, 30, strata_test::ShapeKind::Any, [&](auto l, auto const& flat) {
    ASSERT_EQ(int(size(l)), flat.size()) << str(l);
    for (int i = 0; i < int(size(l)); ++i) {
      ASSERT_EQ(int(l(i)), flat(i)) << str(l) << " at " << i;
      ASSERT_EQ(int(crd2idx(i, shape(l), stride(l))), flat(i));
      ASSERT_EQ(int(l(idx2crd(i, shape(l)))), flat(i));
    }
    // cosize == l(size-1) + 1 for non-negative strides.
    ASSERT_EQ(int(cosize(l)), int(l(int(size(l)) - 1)) + 1);
    ++checked;
  });
  EXPECT_EQ(checked, 11 * 30);
}

TEST(LayoutBasics, Int64Leaves) {
  auto l = make_layout(make_shape(int64_t(1) << 20, int64_t(4)), make_stride(int64_t(4), int64_t(1) << 22));
  EXPECT_EQ(int64_t(size(l)), int64_t(1) << 22);
  EXPECT_EQ(int64_t(l(int64_t(3) + (int64_t(1) << 20) * 3)), int64_t(12) + (int64_t(3) << 22));
}

TEST(LayoutBasics, ConcatenateLayouts) {
  auto a = make_layout(4, 2);
  auto b = make_layout(make_shape(2, 3), make_stride(1, 8));
  auto ab = make_layout(a, b);
  EXPECT_EQ(str(ab), "(4,(2,3)):(2,(1,8))");
  auto abc = make_layout(a, b, make_layout(5, 24));
  EXPECT_EQ(str(abc), "(4,(2,3),5):(2,(1,8),24)");
  EXPECT_EQ(int(rank(abc)), 3);
}

TEST(LayoutBasics, Equality) {
  auto a = make_layout(make_shape(2, 4), make_stride(1, 2));
  EXPECT_TRUE(a == (Layout<Shape<_2, _4>, Stride<_1, _2>>{}));
  EXPECT_TRUE(a == make_layout(make_shape(2, 4)));
  EXPECT_FALSE(a == make_layout(make_shape(2, 4), make_stride(4, 1)));
  EXPECT_FALSE(a == make_layout(make_shape(4, 2), make_stride(1, 4)));
  // Same function, different structure: not equal as layouts.
  EXPECT_FALSE(a == make_layout(8, 1));
}

TEST(LayoutBasics, Flatten) {
  auto l = make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  EXPECT_EQ(str(flatten(l)), "(4,2,3):(2,1,8)");
  EXPECT_TRUE(strata_test::same_function(l, flatten(l)));
  auto deep = Layout<Shape<_2, Shape<_2, Shape<_2, _2>>>, Stride<_1, Stride<_2, Stride<_4, _8>>>>{};
  EXPECT_EQ(str(flatten(deep)), "(_2,_2,_2,_2):(_1,_2,_4,_8)");
  EXPECT_EQ(int(depth(flatten(deep))), 1);
}

TEST(LayoutBasics, AppendPrepend) {
  auto a = make_layout(4, 1);
  EXPECT_EQ(str(append(a, make_layout(3, 4))), "(4,3):(1,4)");
  EXPECT_EQ(str(prepend(a, make_layout(3, 4))), "(3,4):(4,1)");
  auto b = make_layout(make_shape(2, 3), make_stride(1, 2));
  EXPECT_EQ(str(append(b, make_layout(5, 6))), "(2,3,5):(1,2,6)");
  EXPECT_EQ(str(prepend(b, make_layout(5, 6))), "(5,2,3):(6,1,2)");
}

TEST(LayoutBasics, SelectAndGroup) {
  auto l = make_layout(make_shape(4, 2, 3), make_stride(2, 1, 8));
  EXPECT_EQ(str(select<2, 0>(l)), "(3,4):(8,2)");
  EXPECT_EQ(str(select<1>(l)), "(2):(1)");
  EXPECT_EQ(str(group<0, 2>(l)), "((4,2),3):((2,1),8)");
  EXPECT_EQ(str(group<1, 3>(l)), "(4,(2,3)):(2,(1,8))");
  EXPECT_TRUE(strata_test::same_function(l, group<0, 2>(l)));
  EXPECT_TRUE(strata_test::same_function(l, group<1, 3>(l)));
}

TEST(LayoutBasics, SubLayoutsAddUp) {
  // l(c0, c1) == layout<0>(l)(c0) + layout<1>(l)(c1) for every coordinate.
  strata_test::for_random_layouts(12, 12, strata_test::ShapeKind::Any, [&](auto l, auto const&) {
    if constexpr (decltype(rank(l))::value == 2) {
      for (int i = 0; i < int(size<0>(l)); ++i)
        for (int j = 0; j < int(size<1>(l)); ++j)
          ASSERT_EQ(int(l(i, j)), int(layout<0>(l)(i)) + int(layout<1>(l)(j))) << str(l);
    }
  });
}

}  // namespace
