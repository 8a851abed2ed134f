// Static and dynamic integers, tuples, and the coordinate functions on them.
#include "layout_generators.hpp"

#include <type_traits>

using namespace strata;
using strata_test::str;

namespace {

// ---- static integers ---------------------------------------------------------------------------

static_assert(Int<4>::value == 4);
static_assert(_0::value == 0 && _1::value == 1 && _16::value == 16);
static_assert(_32::value == 32 && _64::value == 64 && _128::value == 128 && _256::value == 256);
static_assert(std::is_empty_v<Int<7>>);

// Arithmetic on two static integers stays static.
static_assert(std::is_same_v<decltype(_3{} + _4{}), Int<7>>);
static_assert(std::is_same_v<decltype(_3{} * _4{}), Int<12>>);
static_assert(std::is_same_v<decltype(_8{} - _3{}), Int<5>>);
static_assert(std::is_same_v<decltype(_12{} / _4{}), Int<3>>);
static_assert(std::is_same_v<decltype(_12{} % _5{}), Int<2>>);

// Converts to int implicitly; mixing with a dynamic integer gives a dynamic one of the right value.
constexpr int as_int = _5{};
static_assert(as_int == 5);
static_assert(!std::is_empty_v<decltype(_3{} + 4)>);
static_assert(_3{} + 4 == 7);
static_assert(4 * _3{} == 12);

static_assert(is_static_v<Int<3>>);
static_assert(!is_static_v<int>);
static_assert(!is_static_v<int64_t>);
static_assert(is_static_v<Shape<_2, _4>>);
static_assert(is_static_v<decltype(make_shape(_2{}, make_shape(_4{}, _8{})))>);
static_assert(!is_static_v<decltype(make_shape(_2{}, make_shape(4, _8{})))>);
static_assert(!is_static_v<decltype(make_shape(2, 4))>);

TEST(Integer, StaticAndDynamicAgree) {
  int x = _7{};
  EXPECT_EQ(x, 7);
  EXPECT_EQ(_6{} * 7, 42);
  EXPECT_EQ(int(_6{} * _7{}), 42);
  EXPECT_TRUE(bool(_2{} == 2));
  EXPECT_TRUE(bool(2 == _2{}));
  int64_t big = int64_t(1) << 40;
  EXPECT_EQ(big * _2{}, int64_t(1) << 41);
}

// ---- tuples ------------------------------------------------------------------------------------

TEST(Tuple, MakeAndGet) {
  auto t = make_tuple(1, _2{}, 3);
  EXPECT_EQ(get<0>(t), 1);
  EXPECT_EQ(int(get<1>(t)), 2);
  EXPECT_EQ(get<2>(t), 3);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<1>(t))>, _2>);

  auto nested = make_shape(4, make_shape(2, _3{}));
  EXPECT_EQ(get<0>(nested), 4);
  EXPECT_EQ((get<1, 0>(nested)), 2);
  EXPECT_EQ(int(get<1, 1>(nested)), 3);
}

TEST(Tuple, AliasesAndMakers) {
  Shape<_2, _4> s{};
  Stride<_1, _2> d{};
  Coord<int, int> c{1, 2};
  EXPECT_EQ(int(get<1>(s)), 4);
  EXPECT_EQ(int(get<1>(d)), 2);
  EXPECT_EQ(get<1>(c), 2);
  EXPECT_TRUE(make_shape(2, 4) == make_shape(_2{}, _4{}));
  EXPECT_TRUE(make_stride(1, 2) == d);
  EXPECT_TRUE(make_coord(1, 2) == c);
  auto tile = make_tile(Layout<_3, _1>{}, Layout<_4, _2>{});
  EXPECT_EQ(str(get<1>(tile)), "_4:_2");
}

TEST(Tuple, EqualityByValue) {
  EXPECT_TRUE(make_tuple(_2{}, 3) == make_tuple(2, 3));
  EXPECT_FALSE(make_tuple(2, 3) == make_tuple(2, 4));
  EXPECT_TRUE(make_tuple(1, make_tuple(2, 3)) == make_tuple(_1{}, make_tuple(2, _3{})));
  EXPECT_FALSE(make_tuple(1, make_tuple(2, 3)) == make_tuple(1, make_tuple(2, 4)));
  EXPECT_FALSE(make_tuple(1, 2) == make_tuple(1, 2, 3));
}

TEST(Tuple, StaticTuplesAreEmpty) {
  static_assert(std::is_empty_v<decltype(make_tuple(_1{}, _2{}, make_tuple(_3{})))>);
  EXPECT_EQ((sizeof(make_tuple(1, _2{}))), sizeof(int));
}

// ---- coordinates -------------------------------------------------------------------------------

TEST(Coordinates, Idx2CrdIsColexicographic) {
  EXPECT_TRUE(idx2crd(5, make_shape(2, 3)) == make_coord(1, 2));
  EXPECT_TRUE(idx2crd(0, make_shape(2, 3)) == make_coord(0, 0));
  EXPECT_TRUE(idx2crd(1, make_shape(2, 3)) == make_coord(1, 0));
  EXPECT_TRUE(idx2crd(2, make_shape(2, 3)) == make_coord(0, 1));
  // Nested: 7 in (2,(2,3)) -> (1, 3 in (2,3)) -> (1,(1,1)).
  EXPECT_TRUE(idx2crd(7, make_shape(2, make_shape(2, 3))) == make_coord(1, make_coord(1, 1)));
  EXPECT_TRUE(idx2crd(23, make_shape(4, make_shape(2, 3))) == make_coord(3, make_coord(1, 2)));
  // Static shapes give the same coordinates.
  EXPECT_TRUE(idx2crd(23, Shape<_4, Shape<_2, _3>>{}) == make_coord(3, make_coord(1, 2)));
}

TEST(Coordinates, Crd2IdxIsInnerProduct) {
  EXPECT_EQ(int(crd2idx(make_coord(1, 2), make_shape(2, 3), make_stride(3, 1))), 5);
  EXPECT_EQ(int(crd2idx(5, make_shape(2, 3), make_stride(3, 1))), 5);
  EXPECT_EQ(int(crd2idx(make_coord(1, make_coord(1, 2)), make_shape(4, make_shape(2, 3)),
                        make_stride(2, make_stride(1, 8)))),
            19);
  // A mode given an integer coordinate unfolds it colexicographically.
  EXPECT_EQ(int(crd2idx(make_coord(1, 5), make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)))),
            19);
  EXPECT_EQ(int(crd2idx(21, make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)))), 19);
}

TEST(Coordinates, Idx2CrdRoundTripsThroughCrd2IdxForCompactStrides) {
  std::mt19937 rng(7);
  strata_test::for_each_structure([&](auto st) {
    using S = decltype(st);
    for (int n = 0; n < 20; ++n) {
      auto flat = strata_test::random_flat(rng, S::leaves, strata_test::StrideKind::Compact,
                                           strata_test::ShapeKind::Any);
      auto l = strata_test::to_layout<S>(flat);
      for (int i = 0; i < int(size(l)); ++i) {
        auto c = idx2crd(i, shape(l));
        ASSERT_EQ(int(crd2idx(c, shape(l), stride(l))), i) << strata_test::str(l) << " at " << i;
        ASSERT_EQ(int(l(c)), i);
      }
    }
  });
}

}  // namespace
