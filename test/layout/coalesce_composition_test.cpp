// coalesce, filter and composition: worked examples from the CuTe documentation and properties over
// generated layouts.
#include "layout_generators.hpp"

using namespace strata;
using strata_test::FlatLayout;
using strata_test::Index;
using strata_test::same_function;
using strata_test::str;
using strata_test::unstatic;

namespace {

// ---- coalesce: worked examples -----------------------------------------------------------------

TEST(Coalesce, DocumentationExample) {
  // CuTe docs, 02_layout_algebra: coalesce((2,(1,6)):(1,(6,2))) == 12:1.
  auto l = Layout<Shape<_2, Shape<_1, _6>>, Stride<_1, Stride<_6, _2>>>{};
  EXPECT_EQ(str(coalesce(l)), "_12:_1");
  static_assert(std::is_empty_v<decltype(coalesce(l))>);
  static_assert(decltype(size(coalesce(l)))::value == 12);
}

TEST(Coalesce, ByModeDocumentationExample) {
  auto l = Layout<Shape<_2, Shape<_1, _6>>, Stride<_1, Stride<_6, _2>>>{};
  // coalesce(l, Step<_1,_1>) == (_2,_6):(_1,_2) == make_layout(coalesce(layout<0>), coalesce(layout<1>))
  EXPECT_EQ(str(coalesce(l, Step<_1, _1>{})), "(_2,_6):(_1,_2)");
  EXPECT_EQ(str(make_layout(coalesce(layout<0>(l)), coalesce(layout<1>(l)))), "(_2,_6):(_1,_2)");
  // The profile's values are flags only.
  EXPECT_EQ(str(coalesce(l, make_tuple(7, 9))), "(_2,_6):(_1,_2)");
}

TEST(Coalesce, FourCasesOfTwoModes) {
  // s0:d0 ++ _1:d1 => s0:d0
  EXPECT_EQ(str(coalesce(Layout<Shape<_4, _1>, Stride<_3, _5>>{})), "_4:_3");
  // _1:d0 ++ s1:d1 => s1:d1
  EXPECT_EQ(str(coalesce(Layout<Shape<_1, _4>, Stride<_5, _3>>{})), "_4:_3");
  // s0:d0 ++ s1:s0*d0 => s0*s1:d0
  EXPECT_EQ(str(coalesce(Layout<Shape<_2, _4>, Stride<_3, _6>>{})), "_8:_3");
  // otherwise unchanged
  EXPECT_EQ(str(coalesce(Layout<Shape<_2, _4>, Stride<_4, _1>>{})), "(_2,_4):(_4,_1)");
}

TEST(Coalesce, MoreStaticCases) {
  EXPECT_EQ(str(coalesce(Layout<Shape<_2, _4>, Stride<_1, _2>>{})), "_8:_1");
  EXPECT_EQ(str(coalesce(Layout<Shape<_2, _1, _4>, Stride<_1, _7, _2>>{})), "_8:_1");
  EXPECT_EQ(str(coalesce(Layout<Shape<_4, _2>, Stride<_0, _0>>{})), "_8:_0");
  EXPECT_EQ(str(coalesce(Layout<_1, _1>{})), "_1:_0");
  EXPECT_EQ(str(coalesce(Layout<Shape<_1, _1>, Stride<_3, _5>>{})), "_1:_0");
  EXPECT_EQ(str(coalesce(Layout<Shape<_2, Shape<_2, _2>>, Stride<_1, Stride<_2, _8>>>{})), "(_4,_2):(_1,_8)");
  EXPECT_EQ(str(coalesce(Layout<Shape<Shape<_2, _2>, Shape<_2, _2>>, Stride<Stride<_1, _2>, Stride<_4, _8>>>{})),
            "_16:_1");
}

TEST(Coalesce, DynamicKeepsTheFunction) {
  auto l = make_layout(make_shape(2, make_shape(1, 6)), make_stride(1, make_stride(6, 2)));
  auto c = coalesce(l);
  EXPECT_TRUE(same_function(l, c));
  EXPECT_LE(int(depth(c)), 1);
}

TEST(Coalesce, MixedMergesStaticallyKnownModes) {
  // (_2,_4,n):(_1,_2,8): the first two modes are provably contiguous.
  auto l = make_layout(make_shape(_2{}, _4{}, 3), make_stride(_1{}, _2{}, 8));
  auto c = coalesce(l);
  EXPECT_EQ(unstatic(str(c)), "(8,3):(1,8)");
  EXPECT_TRUE(same_function(l, c));
}

// ---- coalesce: properties ----------------------------------------------------------------------

TEST(Coalesce, PropertiesOnGeneratedLayouts) {
  int n = 0;
  strata_test::for_random_layouts(101, 40, strata_test::ShapeKind::Any, [&](auto l, FlatLayout const&) {
    auto c = coalesce(l);
    ASSERT_TRUE(same_function(l, c));
    ASSERT_LE(int(depth(c)), 1) << str(c);
    ++n;
  });
  EXPECT_EQ(n, 11 * 40);
}

TEST(Coalesce, ByModeKeepsEachModesFunction) {
  strata_test::for_random_layouts(102, 20, strata_test::ShapeKind::Any, [&](auto l, FlatLayout const&) {
    if constexpr (decltype(rank(l))::value == 2) {
      auto c = coalesce(l, Step<_1, _1>{});
      static_assert(decltype(rank(c))::value == 2);
      ASSERT_TRUE(same_function(layout<0>(l), layout<0>(c)));
      ASSERT_TRUE(same_function(layout<1>(l), layout<1>(c)));
      ASSERT_TRUE(same_function(l, c));
    }
  });
}

// ---- filter ------------------------------------------------------------------------------------

TEST(Filter, StaticExamples) {
  // Stride-0 and size-1 modes go, then coalesce.
  EXPECT_EQ(str(filter(Layout<Shape<_2, _4>, Stride<_0, _1>>{})), "_4:_1");
  EXPECT_EQ(str(filter(Layout<Shape<_3, _1, _4, _2>, Stride<_1, _5, _0, _3>>{})), "_6:_1");
  EXPECT_EQ(str(filter(Layout<Shape<_2, _2, _3>, Stride<_0, _4, _8>>{})), "_6:_4");
  EXPECT_EQ(str(filter(Layout<Shape<_2, _2, _3>, Stride<_0, _4, _9>>{})), "(_2,_3):(_4,_9)");
  EXPECT_EQ(str(filter(Layout<Shape<_4, _4>, Stride<_0, _0>>{})), "_1:_0");
  EXPECT_EQ(str(filter(Layout<_8, _3>{})), "_8:_3");
}

TEST(Filter, SameImageOnGeneratedLayouts) {
  strata_test::for_random_layouts(103, 30, strata_test::ShapeKind::Any, [&](auto l, FlatLayout const&) {
    auto f = filter(l);
    ASSERT_EQ(strata_test::image(f), strata_test::image(l)) << str(l) << " -> " << str(f);
    ASSERT_LE(int(size(f)), int(size(l)));
  });
}

// ---- composition: worked examples --------------------------------------------------------------

TEST(Composition, DocumentationExample1) {
  // (6,2):(8,2) o (4,3):(3,1) == ((2,2),3):((24,2),8)
  auto a = Layout<Shape<_6, _2>, Stride<_8, _2>>{};
  auto b = Layout<Shape<_4, _3>, Stride<_3, _1>>{};
  auto r = composition(a, b);
  EXPECT_EQ(str(r), "((_2,_2),_3):((_24,_2),_8)");
  const int expected[12] = {0, 24, 2, 26, 8, 32, 10, 34, 16, 40, 18, 42};  // R(0..11) from the docs
  for (int i = 0; i < 12; ++i) EXPECT_EQ(int(r(i)), expected[i]) << i;
}

TEST(Composition, DocumentationExample2ReshapeRowMajor) {
  // 20:2 o (5,4):(4,1) == (5,4):(8,2)
  auto r = composition(Layout<Int<20>, _2>{}, Layout<Shape<_5, _4>, Stride<_4, _1>>{});
  EXPECT_EQ(str(r), "(_5,_4):(_8,_2)");
  auto d = composition(make_layout(20, 2), make_layout(make_shape(5, 4), make_stride(4, 1)));
  EXPECT_EQ(str(d), "(5,4):(8,2)");
}

TEST(Composition, DocumentationExample3ReshapeColMajor) {
  // (10,2):(16,4) o (5,4):(1,5) == (5,(2,2)):(16,(80,4)) with static integers.
  auto a = make_layout(make_shape(Int<10>{}, _2{}), make_stride(_16{}, _4{}));
  auto b = make_layout(make_shape(_5{}, _4{}), make_stride(_1{}, _5{}));
  EXPECT_EQ(str(composition(a, b)), "(_5,(_2,_2)):(_16,(_80,_4))");
  // Dynamic: the same function (CuTe keeps size-1 modes here: ((5,1),(2,2)):((16,4),(80,4))).
  auto da = make_layout(make_shape(10, 2), make_stride(16, 4));
  auto db = make_layout(make_shape(5, 4), make_stride(1, 5));
  auto dr = composition(da, db);
  EXPECT_TRUE(same_function(dr, composition(a, b)));
  EXPECT_TRUE(same_function(coalesce(layout<0>(dr)), make_layout(5, 16)));
  EXPECT_TRUE(same_function(layout<1>(dr), make_layout(make_shape(2, 2), make_stride(80, 4))));
}

TEST(Composition, DividingOutAStride) {
  // (3,6,2,8):(w,x,y,z) o 16:9 == (1,2,2,4):(9w,3x,y,z); w,x,y,z = 1,5,50,200.
  auto a = Layout<Shape<_3, _6, _2, _8>, Stride<_1, _5, Int<50>, Int<200>>>{};
  auto r = composition(a, Layout<_16, _9>{});
  EXPECT_EQ(str(r), "(_2,_2,_4):(_15,_50,_200)");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(int(r(i)), int(a(9 * i))) << i;
}

TEST(Composition, ByModeTiler) {
  // (12,(4,8)):(59,(13,1)) o <3:4, 8:2> == (_3,(2,4)):(236,(26,1))
  auto a = make_layout(make_shape(12, make_shape(4, 8)), make_stride(59, make_stride(13, 1)));
  auto tiler = make_tile(Layout<_3, _4>{}, Layout<_8, _2>{});
  auto r = composition(a, tiler);
  EXPECT_EQ(unstatic(str(r)), "(3,(2,4)):(236,(26,1))");
  auto same = make_layout(composition(layout<0>(a), get<0>(tiler)), composition(layout<1>(a), get<1>(tiler)));
  EXPECT_TRUE(r == same);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(int(r(i, j)), int(a(4 * i, 2 * j)));
}

TEST(Composition, ShapeAsTiler) {
  // (12,(4,8)):(59,(13,1)) o (3,8) == (_3,(4,2)):(59,(13,1))
  auto a = make_layout(make_shape(12, make_shape(4, 8)), make_stride(59, make_stride(13, 1)));
  auto r = composition(a, make_shape(_3{}, _8{}));
  EXPECT_EQ(unstatic(str(r)), "(3,(4,2)):(59,(13,1))");
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(int(r(i, j)), int(a(i, j)));
}

TEST(Composition, IntegerAsTiler) {
  // An integer n is the layout n:1: the first n elements of a.
  auto a = make_layout(make_shape(4, 6), make_stride(6, 1));
  auto r = composition(a, 8);
  EXPECT_EQ(int(size(r)), 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(int(r(i)), int(a(i)));
  auto s = composition(Layout<Shape<_4, _6>, Stride<_6, _1>>{}, _8{});
  EXPECT_EQ(str(s), "(_4,_2):(_6,_1)");
}

TEST(Composition, StaticResultsAreStaticAndConstexpr) {
  using A = Layout<Shape<_6, _2>, Stride<_8, _2>>;
  using B = Layout<Shape<_4, _3>, Stride<_3, _1>>;
  constexpr auto r = composition(A{}, B{});
  static_assert(std::is_empty_v<decltype(composition(A{}, B{}))>);
  static_assert(is_static_v<decltype(r)>);
  static_assert(decltype(size(r))::value == 12);
  static_assert(r(1) == 24 && r(11) == 42);
  static_assert(size(composition(Layout<Int<20>, _2>{}, Layout<Shape<_5, _4>, Stride<_4, _1>>{})) == 20);
  static_assert(composition(Layout<Int<20>, _2>{}, Layout<Shape<_5, _4>, Stride<_4, _1>>{}) ==
                Layout<Shape<_5, _4>, Stride<_8, _2>>{});
  SUCCEED();
}

TEST(Composition, StaticStrideZeroInB) {
  // A stride-0 mode of b broadcasts a(0).
  auto a = make_layout(make_shape(4, 3), make_stride(3, 1));
  auto b = Layout<Shape<_4, _3>, Stride<_1, _0>>{};
  auto r = composition(a, b);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(int(r(i)), int(a(b(i))));
}

// ---- composition: properties -------------------------------------------------------------------

// Checks result(i) == a(b(i)) over b's domain, and that b's coordinates are coordinates of result.
template <class LA, class LB>
::testing::AssertionResult composes(LA const& a, LB const& b, FlatLayout const& fa, FlatLayout const& fb) {
  auto r = composition(a, b);
  if (Index(size(r)) != Index(size(b)))
    return ::testing::AssertionFailure() << "size of " << str(a) << " o " << str(b) << " = " << str(r);
  for (int i = 0; i < int(size(b)); ++i) {
    Index expect = fa(fb(i));
    if (Index(a(int(b(i)))) != expect || Index(r(i)) != expect)
      return ::testing::AssertionFailure() << str(a) << " o " << str(b) << " = " << str(r) << " at " << i
                                           << ": got " << Index(r(i)) << ", want " << expect;
    if (Index(r(idx2crd(i, shape(b)))) != expect)
      return ::testing::AssertionFailure() << str(a) << " o " << str(b) << " = " << str(r)
                                           << " rejects b's coordinate of " << i;
  }
  return ::testing::AssertionSuccess();
}

template <class BS, class F>
void for_composable_pairs(unsigned seed, int per_pair, strata_test::ShapeKind kind, F&& f) {
  std::mt19937 rng(seed);
  strata_test::for_each_structure([&](auto sa) {
    using SA = decltype(sa);
    for (int n = 0; n < per_pair; ++n) {
      auto kind_a = strata_test::kAllStrideKinds[std::size_t(n) % 6];
      FlatLayout fa = strata_test::random_flat(rng, SA::leaves, kind_a, kind);
      // b: a random injective layout whose image lies in a's domain and that satisfies the
      // divisibility conditions; tries a few draws.
      for (int attempt = 0; attempt < 20; ++attempt) {
        auto kind_b = strata_test::kAllStrideKinds[std::size_t(rng() % 5)];  // no stride-0 kind
        FlatLayout fb = strata_test::random_flat(rng, BS::leaves, kind_b, kind, 4);
        if (fb.max_index() >= fa.size()) continue;
        if (!fb.injective() || !strata_test::composition_admissible(fa, fb)) continue;
        f(strata_test::to_layout<SA>(fa), strata_test::to_layout<BS>(fb), fa, fb);
        break;
      }
    }
  });
}

template <class BS>
int check_generated_compositions(unsigned seed, strata_test::ShapeKind kind) {
  int count = 0;
  for_composable_pairs<BS>(seed, 25, kind, [&](auto a, auto b, FlatLayout const& fa, FlatLayout const& fb) {
    EXPECT_TRUE(composes(a, b, fa, fb)) << fa.text() << " o " << fb.text();
    ++count;
  });
  return count;
}

TEST(Composition, PowerOfTwoGeneratedLayouts) {
  using namespace strata_test::structure;
  int n = check_generated_compositions<Int1>(201, strata_test::ShapeKind::PowerOfTwo) +
          check_generated_compositions<Tup2>(202, strata_test::ShapeKind::PowerOfTwo) +
          check_generated_compositions<R_2>(203, strata_test::ShapeKind::PowerOfTwo) +
          check_generated_compositions<Tup3>(204, strata_test::ShapeKind::PowerOfTwo);
  EXPECT_GT(n, 600);
}

TEST(Composition, AnyShapeGeneratedLayouts) {
  using namespace strata_test::structure;
  int n = check_generated_compositions<Int1>(211, strata_test::ShapeKind::Any) +
          check_generated_compositions<Tup2>(212, strata_test::ShapeKind::Any) +
          check_generated_compositions<L_2>(213, strata_test::ShapeKind::Any);
  EXPECT_GT(n, 300);
}

TEST(Composition, StaticTilerOnGeneratedLayouts) {
  // Static b (a tile of the first 4 elements, strided by 2), dynamic a with power-of-two shapes.
  strata_test::for_random_layouts(221, 30, strata_test::ShapeKind::PowerOfTwo, [&](auto a, FlatLayout const& fa) {
    FlatLayout fb{{2, 2}, {2, 1}};
    if (fa.size() < 4 || !strata_test::composition_admissible(fa, fb)) return;
    auto b = Layout<Shape<_2, _2>, Stride<_2, _1>>{};
    EXPECT_TRUE(composes(a, b, fa, fb));
  });
}

TEST(Composition, AssociativeOnGeneratedLayouts) {
  // (a o b) o c == a o (b o c) as functions, when both sides are admissible.
  int count = 0;
  for_composable_pairs<strata_test::structure::Tup2>(
      231, 20, strata_test::ShapeKind::PowerOfTwo, [&](auto a, auto b, FlatLayout const& fa, FlatLayout const& fb) {
        auto c = make_layout(make_shape(2, 2), make_stride(2, 1));
        if (int(size(b)) < 4) return;
        auto ab = composition(a, b);
        auto lhs = composition(ab, c);
        auto rhs = composition(a, composition(b, c));
        for (int i = 0; i < 4; ++i) ASSERT_EQ(int(lhs(i)), int(fa(fb(c(i))))) << str(a) << " " << str(b);
        EXPECT_TRUE(same_function(lhs, rhs));
        ++count;
      });
  EXPECT_GT(count, 50);
}

}  // namespace
