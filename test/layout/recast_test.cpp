// upcast, downcast, recast_layout: re-expressing a layout in larger or smaller element units.
#include "layout_generators.hpp"

#include <cstdint>

using namespace strata;
using strata_test::Index;
using strata_test::same_function;
using strata_test::str;

namespace {

TEST(Upcast, Examples) {
  // Two halves make one float: the unit-stride mode halves, other strides halve.
  EXPECT_EQ(str(upcast<2>(Layout<Shape<_8, _4>, Stride<_1, _8>>{})), "(_4,_4):(_1,_4)");
  EXPECT_EQ(str(upcast<4>(Layout<_16, _1>{})), "_4:_1");
  EXPECT_EQ(str(upcast<2>(Layout<Shape<_4, _8>, Stride<_8, _1>>{})), "(_4,_4):(_4,_1)");
  // A broadcast mode is unchanged.
  EXPECT_EQ(str(upcast<2>(Layout<Shape<_8, _4>, Stride<_1, _0>>{})), "(_4,_4):(_1,_0)");
}

TEST(Downcast, Examples) {
  EXPECT_EQ(str(downcast<4>(Layout<_4, _1>{})), "_16:_1");
  // One float is two halves: the unit-stride mode doubles, the other stride doubles (CuTe).
  EXPECT_EQ(str(downcast<2>(Layout<Shape<_4, _4>, Stride<_1, _4>>{})), "(_8,_4):(_1,_8)");
  EXPECT_EQ(str(downcast<2>(Layout<Shape<_4, _4>, Stride<_4, _1>>{})), "(_4,_8):(_8,_1)");
}

TEST(RecastLayout, ByElementSize) {
  auto bytes = Layout<_16, _1>{};
  EXPECT_EQ(str(recast_layout<uint8_t, uint32_t>(bytes)), "_4:_1");
  EXPECT_EQ(str(recast_layout<uint32_t, uint8_t>(Layout<_4, _1>{})), "_16:_1");
  EXPECT_EQ(str(recast_layout<uint16_t, float>(Layout<Shape<_8, _4>, Stride<_1, _8>>{})), "(_4,_4):(_1,_4)");
  EXPECT_TRUE((recast_layout<float, int32_t>(bytes) == bytes));
  // Dynamic: the same function.
  EXPECT_TRUE(same_function(recast_layout<uint16_t, float>(make_layout(make_shape(8, 4), make_stride(1, 8))),
                            Layout<Shape<_4, _4>, Stride<_1, _4>>{}));
}

// For a layout with a static unit-stride mode, downcast<N> addresses every sub-element exactly
// once: size N*size(l), and its image is {N*x + h : x in image(l), h < N}.
template <int N, class L>
void check_downcast(L l) {
  auto d = downcast<N>(l);
  EXPECT_EQ(Index(size(d)), N * Index(size(l))) << str(l) << " -> " << str(d);
  std::set<Index> want;
  for (Index x : strata_test::values(l))
    for (Index h = 0; h < N; ++h) want.insert(N * x + h);
  EXPECT_EQ(strata_test::image(d), want) << str(l) << " -> " << str(d);
  if (strata_test::is_injective(l)) {
    EXPECT_TRUE(strata_test::is_injective(d)) << str(l) << " -> " << str(d);
  }
  // Round trip: upcast undoes downcast (as a function).
  EXPECT_TRUE(same_function(upcast<N>(d), l)) << str(l) << " -> " << str(d) << " -> " << str(upcast<N>(d));
}

// For a layout whose unit-stride mode is a multiple of N and whose other strides are multiples of
// N, upcast<N> keeps exactly the indices that start a group of N, divided by N.
template <int N, class L>
void check_upcast(L l) {
  auto u = upcast<N>(l);
  EXPECT_EQ(Index(size(u)) * N, Index(size(l))) << str(l) << " -> " << str(u);
  std::set<Index> want;
  for (Index x : strata_test::values(l))
    if (x % N == 0) want.insert(x / N);
  EXPECT_EQ(strata_test::image(u), want) << str(l) << " -> " << str(u);
  EXPECT_TRUE(same_function(downcast<N>(u), coalesce(l)) || strata_test::image(downcast<N>(u)) == strata_test::image(l))
      << str(l) << " -> " << str(u) << " -> " << str(downcast<N>(u));
}

TEST(UpcastDowncast, StaticLayoutsWithUnitStrideMode) {
  check_downcast<2>(Layout<_8, _1>{});
  check_downcast<2>(Layout<Shape<_4, _4>, Stride<_1, _4>>{});
  check_downcast<2>(Layout<Shape<_4, _4>, Stride<_1, _8>>{});
  check_downcast<4>(Layout<Shape<_4, _2>, Stride<_2, _1>>{});
  check_downcast<2>(Layout<Shape<_2, Shape<_2, _4>>, Stride<_4, Stride<_1, _8>>>{});
  check_downcast<8>(Layout<Shape<_8, _8>, Stride<_8, _1>>{});

  check_upcast<2>(Layout<_8, _1>{});
  check_upcast<2>(Layout<Shape<_4, _4>, Stride<_1, _4>>{});
  check_upcast<2>(Layout<Shape<_4, _4>, Stride<_1, _8>>{});
  check_upcast<4>(Layout<Shape<_4, _8>, Stride<_8, _1>>{});
  check_upcast<2>(Layout<Shape<_2, Shape<_2, _4>>, Stride<_4, Stride<_1, _8>>>{});
}

TEST(UpcastDowncast, RoundTripOnGeneratedLayouts) {
  // Random dynamic layouts with one static unit-stride leading mode of size 4 or 8 and other
  // strides multiples of 4: upcast<2>(downcast<2>(l)) and downcast<2>(upcast<2>(l)) keep l.
  std::mt19937 rng(501);
  for (int n = 0; n < 100; ++n) {
    int s1 = std::uniform_int_distribution<int>(1, 6)(rng), s2 = std::uniform_int_distribution<int>(1, 4)(rng);
    int d1 = 4 * std::uniform_int_distribution<int>(1, 8)(rng), d2 = 4 * std::uniform_int_distribution<int>(1, 40)(rng);
    auto l = make_layout(make_shape(_4{}, s1, s2), make_stride(_1{}, d1, d2));
    auto d = downcast<2>(l);
    EXPECT_TRUE(same_function(upcast<2>(d), l)) << str(l) << " -> " << str(d);
    auto u = upcast<2>(l);
    EXPECT_EQ(Index(size(u)) * 2, Index(size(l))) << str(l) << " -> " << str(u);
    for (int i = 0; i < int(size(u)); ++i) {
      // Element i of u is the pair starting at l's element 2*i (i.e. coordinate (2*(i%2), ...)).
      int m0 = i % 2, rest = i / 2;
      EXPECT_EQ(2 * Index(u(i)), Index(l(2 * m0 + 4 * rest))) << str(l) << " -> " << str(u);
    }
    EXPECT_TRUE(same_function(downcast<2>(u), l)) << str(l) << " -> " << str(u) << " -> " << str(downcast<2>(u));
  }
}

}  // namespace
