// Divides and products: documentation examples and generated properties.
#include "layout_generators.hpp"

using namespace strata;
using strata_test::FlatLayout;
using strata_test::Index;
using strata_test::same_function;
using strata_test::str;
using strata_test::unstatic;

namespace {

// ---- divides: worked examples ------------------------------------------------------------------

TEST(LogicalDivide, Documentation1D) {
  // (4,2,3):(2,1,8) / 4:2 == ((2,2),(2,3)):((4,1),(2,8))
  auto a = Layout<Shape<_4, _2, _3>, Stride<_2, _1, _8>>{};
  auto b = Layout<_4, _2>{};
  EXPECT_EQ(str(complement(b, size(a))), "(_2,_3):(_1,_8)");
  auto r = logical_divide(a, b);
  EXPECT_EQ(str(r), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  EXPECT_TRUE(r == composition(a, make_layout(b, complement(b, size(a)))));
  // Dynamic a: the same function.
  auto da = make_layout(make_shape(4, 2, 3), make_stride(2, 1, 8));
  EXPECT_TRUE(same_function(logical_divide(da, b), r));
  EXPECT_TRUE(same_function(logical_divide(da, make_layout(4, 2)), r));
}

// A = (9,(4,8)):(59,(13,1)), tiler <3:3, (2,4):(1,8)> (CuTe docs, 2-D divide).
using DocA = Layout<Shape<_9, Shape<_4, _8>>, Stride<Int<59>, Stride<Int<13>, _1>>>;
inline auto doc_tiler() { return make_tile(Layout<_3, _3>{}, Layout<Shape<_2, _4>, Stride<_1, _8>>{}); }

TEST(LogicalDivide, Documentation2D) {
  auto r = logical_divide(DocA{}, doc_tiler());
  EXPECT_EQ(str(r), "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))");
  // The first mode of each mode is the composition with the tiler.
  EXPECT_EQ(str(composition(DocA{}, doc_tiler())), "(_3,(_2,_4)):(_177,(_13,_2))");
}

TEST(ZippedTiledFlatDivide, Documentation2D) {
  auto a = DocA{};
  auto t = doc_tiler();
  EXPECT_EQ(str(zipped_divide(a, t)), "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))");
  EXPECT_EQ(str(tiled_divide(a, t)), "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))");
  EXPECT_EQ(str(flat_divide(a, t)), "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))");
  // layout<0>(zipped_divide(a, b)) == composition(a, b)
  EXPECT_TRUE(layout<0>(zipped_divide(a, t)) == composition(a, t));
  // The offset of tile (1,2) is zd(0, (1,2)).
  auto zd = zipped_divide(a, t);
  EXPECT_EQ(int(zd(0, make_coord(1, 2))), 59 + 1);  // rest (3,(2,2)):(59,(26,1)); 2 -> (0,1)
  EXPECT_EQ(int(zd(0, make_coord(1, make_coord(0, 1)))), 59 + 1);
  EXPECT_EQ(int(zd(0, 4)), 59 + 26);  // 4 -> (1,(1,0))
}

TEST(ZippedDivide, ShapeAsTiler) {
  // An 8x6 column-major matrix cut into 2x3 tiles.
  auto a = make_layout(make_shape(8, 6));
  auto zd = zipped_divide(a, make_shape(_2{}, _3{}));
  EXPECT_EQ(unstatic(str(zd)), "((2,3),(4,2)):((1,8),(2,24))");
  for (int tile = 0; tile < 8; ++tile)
    for (int e = 0; e < 6; ++e) {
      int m = (tile % 4) * 2 + e % 2, n = (tile / 4) * 3 + e / 2;
      ASSERT_EQ(int(zd(e, tile)), int(a(m, n)));
    }
}

// ---- products: worked examples -----------------------------------------------------------------

TEST(LogicalProduct, Documentation1D) {
  // (2,2):(4,1) x 6:1 == ((2,2),(2,3)):((4,1),(2,8))
  auto a = Layout<Shape<_2, _2>, Stride<_4, _1>>{};
  EXPECT_EQ(str(complement(a, _24{})), "(_2,_3):(_2,_8)");
  EXPECT_EQ(str(logical_product(a, Layout<_6, _1>{})), "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))");
  // (2,2):(4,1) x (4,2):(2,1) == ((2,2),(4,2)):((4,1),(8,2))
  EXPECT_EQ(str(logical_product(a, Layout<Shape<_4, _2>, Stride<_2, _1>>{})), "((_2,_2),(_4,_2)):((_4,_1),(_8,_2))");
  // Dynamic: the same function.
  auto da = make_layout(make_shape(2, 2), make_stride(4, 1));
  EXPECT_TRUE(same_function(logical_product(da, make_layout(6, 1)), logical_product(a, Layout<_6, _1>{})));
}

TEST(BlockedRakedProduct, TwoByTwoOverThreeByFour) {
  auto a = Layout<Shape<_2, _2>, Stride<_1, _2>>{};
  auto b = Layout<Shape<_3, _4>>{};
  auto bp = blocked_product(a, b);
  auto rp = raked_product(a, b);
  EXPECT_EQ(str(bp), "((_2,_3),(_2,_4)):((_1,_4),(_2,_12))");
  EXPECT_EQ(str(rp), "((_3,_2),(_4,_2)):((_4,_1),(_12,_2))");
  // Blocked: element (i,j) of the 6x8 result is in block (i/2, j/2), at (i%2, j%2) within it.
  // Raked: element (i,j) is in block (i%3, j%4), at (i/3, j/4) within it.
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(int(bp(i, j)), int(a(i % 2, j % 2)) + 4 * int(b(i / 2, j / 2)));
      EXPECT_EQ(int(rp(i, j)), int(a(i / 3, j / 4)) + 4 * int(b(i % 3, j % 4)));
    }
}

TEST(BlockedRakedProduct, RowMajorTileOverColumnMajorGrid) {
  // A 2x5 row-major tile over a 3x4 column-major grid (CuTe docs figure): functional check.
  auto a = Layout<Shape<_2, _5>, Stride<_5, _1>>{};
  auto b = Layout<Shape<_3, _4>, Stride<_1, _3>>{};
  auto bp = blocked_product(a, b);
  auto rp = raked_product(a, b);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 20; ++j) {
      EXPECT_EQ(int(bp(i, j)), int(a(i % 2, j % 5)) + 10 * int(b(i / 2, j / 5)));
      EXPECT_EQ(int(rp(i, j)), int(a(i / 3, j / 4)) + 10 * int(b(i % 3, j % 4)));
    }
}

TEST(BlockedRakedProduct, CoalescesEachModeLikeCuTe) {
  // CuTe's blocked_product coalesces each result mode ("blocked_product went ahead and coalesced
  // mode-0 for us"): mode 0 (2,3):(5,10) becomes 6:5.
  auto a = Layout<Shape<_2, _5>, Stride<_5, _1>>{};
  auto b = Layout<Shape<_3, _4>, Stride<_1, _3>>{};
  EXPECT_EQ(str(blocked_product(a, b)), "(_6,(_5,_4)):(_5,(_1,_30))");
  EXPECT_EQ(str(raked_product(a, b)), "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))");
}

TEST(TileToShape, Examples) {
  auto block = Layout<Shape<_2, _2>, Stride<_1, _2>>{};
  auto r = tile_to_shape(block, Shape<_4, _6>{});
  EXPECT_EQ(str(r), "((_2,_2),(_2,_3)):((_1,_4),(_2,_8))");
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) EXPECT_EQ(int(r(i, j)), int(block(i % 2, j % 2)) + 4 * ((i / 2) + 2 * (j / 2)));
  // A row-major 8x8 block tiled to 32x16 (a typical shared-memory tile).
  auto rm = Layout<Shape<_8, _8>, Stride<_8, _1>>{};
  auto t = tile_to_shape(rm, make_shape(_32{}, _16{}));
  EXPECT_EQ(int(size<0>(t)), 32);
  EXPECT_EQ(int(size<1>(t)), 16);
  EXPECT_TRUE(strata_test::is_injective(t));
  EXPECT_EQ(int(cosize(t)), 512);
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j) EXPECT_EQ(int(t(i, j)), int(rm(i, j)));
  // Dynamic target: the same function.
  EXPECT_TRUE(same_function(tile_to_shape(block, make_shape(4, 6)), r));
}

// ---- divides: generated properties -------------------------------------------------------------

// Static tilers with power-of-two shapes and strides; `span` is their largest shape*stride.
template <class F>
void for_each_static_tiler(F&& f) {
  f(Layout<_2, _1>{}, 2);
  f(Layout<_4, _1>{}, 4);
  f(Layout<_4, _2>{}, 8);
  f(Layout<_2, _4>{}, 8);
  f(Layout<Shape<_2, _2>, Stride<_1, _4>>{}, 8);
  f(Layout<Shape<_2, _2>, Stride<_4, _1>>{}, 8);
  f(Layout<Shape<_2, _4>, Stride<_8, _1>>{}, 16);
  f(Layout<Shape<_2, Shape<_2, _2>>, Stride<_2, Stride<_1, _8>>>{}, 16);
}

TEST(LogicalDivide, PropertiesOnGeneratedLayouts) {
  int count = 0;
  strata_test::for_random_layouts(401, 24, strata_test::ShapeKind::PowerOfTwo, [&](auto a, FlatLayout const& fa) {
    for_each_static_tiler([&](auto b, int span) {
      if (fa.size() < span) return;
      auto bb = make_layout(b, complement(b, size(a)));
      auto ld = logical_divide(a, b);
      ASSERT_EQ(int(size<0>(ld)), int(size(b))) << str(a) << " / " << str(b) << " = " << str(ld);
      ASSERT_EQ(int(size(ld)), int(size(bb)));
      ASSERT_EQ(int(size(ld)), int(fa.size()));
      for (int i = 0; i < int(size(ld)); ++i)
        ASSERT_EQ(Index(ld(i)), fa(Index(bb(i)))) << str(a) << " / " << str(b) << " = " << str(ld) << " at " << i;
      ASSERT_TRUE(same_function(ld, composition(a, bb)));
      ASSERT_TRUE(same_function(layout<0>(ld), composition(a, b)));
      ++count;
    });
  });
  EXPECT_GT(count, 1000);
}

// For rank-2 a and a tile <b0, b1>: zipped, tiled and flat divides are logical_divide with its modes
// regrouped: ((t0,r0),(t1,r1)) -> ((t0,t1),(r0,r1)) -> ((t0,t1),r0,r1) -> (t0,t1,r0,r1).
TEST(ZippedTiledFlatDivide, RegroupLogicalDivideOnGeneratedLayouts) {
  int count = 0;
  strata_test::for_random_layouts(402, 24, strata_test::ShapeKind::PowerOfTwo, [&](auto a, FlatLayout const&) {
    if constexpr (decltype(rank(a))::value == 2) {
      auto check = [&](auto b0, auto b1) {
        if (int(size<0>(a)) < int(cosize(b0)) || int(size<1>(a)) < int(cosize(b1))) return;
        auto tile = make_tile(b0, b1);
        auto ld = logical_divide(a, tile);
        auto zd = zipped_divide(a, tile);
        auto td = tiled_divide(a, tile);
        auto fd = flat_divide(a, tile);
        static_assert(decltype(rank(zd))::value == 2);
        static_assert(decltype(rank(td))::value == 3);
        static_assert(decltype(rank(fd))::value == 4);
        int T0 = int(size(b0)), T1 = int(size(b1));
        int R0 = int(size<0>(a)) / T0, R1 = int(size<1>(a)) / T1;
        ASSERT_EQ(int(size<0, 1>(ld)), R0);
        ASSERT_EQ(int(size<1, 1>(ld)), R1);
        ASSERT_TRUE(same_function(layout<0, 0>(ld), composition(layout<0>(a), b0)));
        for (int t0 = 0; t0 < T0; ++t0)
          for (int t1 = 0; t1 < T1; ++t1)
            for (int r0 = 0; r0 < R0; ++r0)
              for (int r1 = 0; r1 < R1; ++r1) {
                int v = int(ld(make_coord(make_coord(t0, r0), make_coord(t1, r1))));
                ASSERT_EQ(int(zd(make_coord(make_coord(t0, t1), make_coord(r0, r1)))), v) << str(zd);
                ASSERT_EQ(int(zd(t0 + T0 * t1, r0 + R0 * r1)), v) << str(zd);
                ASSERT_EQ(int(td(make_coord(t0, t1), r0, r1)), v) << str(td);
                ASSERT_EQ(int(fd(t0, t1, r0, r1)), v) << str(fd);
              }
        ++count;
      };
      check(Layout<_2, _1>{}, Layout<_2, _1>{});
      check(Layout<_4, _1>{}, Layout<_2, _2>{});
      check(Layout<_2, _2>{}, Layout<Shape<_2, _2>, Stride<_4, _1>>{});
    }
  });
  EXPECT_GT(count, 100);
}

// ---- products: generated properties ------------------------------------------------------------

// logical_product(a, b) == make_layout(a, composition(complement(a, size(a)*cosize(b)), b)):
// mode 0 is a, mode 1 has b's size, and for injective a and b the product is injective with
// mode 1 never meeting a's image except at 0.
TEST(LogicalProduct, PropertiesOnGeneratedLayouts) {
  int count = 0, reported = 0;
  strata_test::for_random_layouts(411, 30, strata_test::ShapeKind::PowerOfTwo, [&](auto a, FlatLayout const& fa) {
    if (!fa.injective() || !strata_test::complement_tractable(fa) || fa.max_index() > 256) return;
    if (::testing::Test::HasFailure() && ++reported > 6) return;  // a few failures tell the story
    for_each_static_tiler([&](auto b, int) {
      // Only where CuTe's own complement composes with b (the divisibility conditions hold).
      FlatLayout fb{strata_test::flat_values(shape(b)), strata_test::flat_values(stride(b))};
      auto ref = strata_test::reference_complement(fa, fa.size() * (fb.max_index() + 1));
      if (!strata_test::composition_admissible(ref, fb)) return;
      auto lp = logical_product(a, b);
      ASSERT_TRUE(same_function(layout<0>(lp), a)) << str(lp);
      ASSERT_EQ(int(size<1>(lp)), int(size(b))) << str(a) << " x " << str(b) << " = " << str(lp);
      auto rest = composition(complement(a, size(a) * cosize(b)), b);
      ASSERT_TRUE(same_function(layout<1>(lp), rest)) << str(a) << " x " << str(b) << " = " << str(lp);
      ASSERT_TRUE(strata_test::is_injective(lp)) << str(a) << " x " << str(b) << " = " << str(lp);
      auto img = strata_test::image(a);
      for (int j = 1; j < int(size(b)); ++j) ASSERT_EQ(img.count(Index(layout<1>(lp)(j))), 0u) << str(lp);
      ++count;
    });
  });
  EXPECT_GT(count, 400);
}

// Minimal repro of a dynamic/static mismatch: a compact dynamic layout times a tiler whose cosize is
// not a multiple of its strides. CuTe (and the static path) give (8,2):(1,32).
TEST(LogicalProduct, DynamicLayoutByGappedTiler) {
  auto s = logical_product(Layout<_8, _1>{}, Layout<_2, _4>{});
  EXPECT_EQ(str(s), "(_8,_2):(_1,_32)");
  auto d = logical_product(make_layout(8, 1), Layout<_2, _4>{});
  EXPECT_TRUE(same_function(d, s)) << str(d);
  EXPECT_TRUE(same_function(logical_product(make_layout(4, 1), Layout<_4, _2>{}),
                            logical_product(Layout<_4, _1>{}, Layout<_4, _2>{})));
  // The composition inside it: b's image {0, 4} lies inside the complement's domain [0, 5).
  auto c = complement(make_layout(8, 1), 40);
  EXPECT_TRUE(same_function(c, make_layout(5, 8)));
  EXPECT_TRUE(same_function(composition(c, Layout<_2, _4>{}), make_layout(2, 32))) << str(composition(c, Layout<_2, _4>{}));
}

// blocked_product: mode k is (a_k, p_k) and raked_product: mode k is (p_k, a_k), where
// (a, p) == logical_product(a, b) for rank-2 a and b.
TEST(BlockedRakedProduct, PropertiesOnGeneratedLayouts) {
  int count = 0;
  strata_test::for_random_layouts(412, 30, strata_test::ShapeKind::PowerOfTwo, [&](auto a, FlatLayout const& fa) {
    if constexpr (decltype(rank(a))::value == 2) {
      if (!fa.injective() || !strata_test::complement_tractable(fa) || fa.max_index() > 256) return;
      auto check = [&](auto b) {
        FlatLayout fb{strata_test::flat_values(shape(b)), strata_test::flat_values(stride(b))};
        auto ref = strata_test::reference_complement(fa, fa.size() * (fb.max_index() + 1));
        if (!strata_test::composition_admissible(ref, fb)) return;
        auto lp = logical_product(a, b);
        auto p = layout<1>(lp);
        auto bp = blocked_product(a, b);
        auto rp = raked_product(a, b);
        int A0 = int(size<0>(a)), A1 = int(size<1>(a)), B0 = int(size<0>(b)), B1 = int(size<1>(b));
        ASSERT_EQ(int(size<0>(bp)), A0 * B0);
        ASSERT_EQ(int(size<1>(bp)), A1 * B1) << str(a) << " x " << str(b) << " = " << str(bp);
        ASSERT_EQ(int(size<0>(rp)), A0 * B0);
        for (int x0 = 0; x0 < A0; ++x0)
          for (int x1 = 0; x1 < A1; ++x1)
            for (int y0 = 0; y0 < B0; ++y0)
              for (int y1 = 0; y1 < B1; ++y1) {
                int v = int(a(x0, x1)) + int(p(y0, y1));
                ASSERT_EQ(int(bp(x0 + A0 * y0, x1 + A1 * y1)), v) << str(bp);
                ASSERT_EQ(int(rp(y0 + B0 * x0, y1 + B1 * x1)), v) << str(rp);
              }
        ++count;
      };
      check(Layout<Shape<_2, _3>>{});
      check(Layout<Shape<_2, _2>, Stride<_2, _1>>{});
      check(Layout<Shape<_4, _1>>{});
    }
  });
  EXPECT_GT(count, 60);
}

TEST(ZippedTiledFlatProduct, RegroupLogicalProduct) {
  // Tile-of-layouts product on a rank-2 layout: ((a0,p0),(a1,p1)) regrouped.
  auto a = make_layout(make_shape(2, 4), make_stride(4, 1));
  auto t = make_tile(Layout<_3, _1>{}, Layout<_2, _1>{});
  auto lp = logical_product(a, t);
  auto zp = zipped_product(a, t);
  auto tp = tiled_product(a, t);
  auto fp = flat_product(a, t);
  static_assert(decltype(rank(zp))::value == 2);
  static_assert(decltype(rank(tp))::value == 3);
  static_assert(decltype(rank(fp))::value == 4);
  for (int x0 = 0; x0 < 2; ++x0)
    for (int x1 = 0; x1 < 4; ++x1)
      for (int y0 = 0; y0 < 3; ++y0)
        for (int y1 = 0; y1 < 2; ++y1) {
          int v = int(lp(make_coord(make_coord(x0, y0), make_coord(x1, y1))));
          EXPECT_EQ(int(zp(make_coord(make_coord(x0, x1), make_coord(y0, y1)))), v);
          EXPECT_EQ(int(tp(make_coord(x0, x1), y0, y1)), v);
          EXPECT_EQ(int(fp(x0, x1, y0, y1)), v);
        }
  EXPECT_TRUE(same_function(layout<0>(lp), logical_product(layout<0>(a), Layout<_3, _1>{})));
}

// ---- max_common_vector / max_common_layout -----------------------------------------------------

TEST(MaxCommon, Examples) {
  using C = Layout<Shape<_8, _4>, Stride<_1, _8>>;   // column-major 8x4
  using R = Layout<Shape<_8, _4>, Stride<_4, _1>>;   // row-major 8x4
  EXPECT_EQ(int(max_common_vector(C{}, C{})), 32);
  EXPECT_EQ(int(max_common_vector(C{}, R{})), 1);
  EXPECT_EQ(int(max_common_vector(Layout<Shape<_4, _2>, Stride<_1, _8>>{}, Layout<_8, _1>{})), 4);
  static_assert(decltype(max_common_vector(C{}, C{}))::value == 32);
  // Two layouts whose first 4 coordinates agree contiguously, then diverge.
  using A = Layout<Shape<_4, _2, _2>, Stride<_1, _4, _8>>;
  using B = Layout<Shape<_4, _2, _2>, Stride<_1, _8, _4>>;
  EXPECT_EQ(int(max_common_vector(A{}, B{})), 4);
  auto mcl = max_common_layout(A{}, B{});
  EXPECT_EQ(int(size(mcl)), 4);
  for (int i = 0; i < int(size(mcl)); ++i) {
    EXPECT_EQ(int(A{}(mcl(i))), i);
    EXPECT_EQ(int(B{}(mcl(i))), i);
  }
}

// n = max_common_vector(a, b): for k < n the coordinate b sends to offset k, a sends there too,
// and n is maximal (the next offset differs, unless b is exhausted).
template <class A, class B>
void check_max_common() {
  A a{};
  B b{};
  int n = int(max_common_vector(a, b));
  auto ib = right_inverse(b);
  ASSERT_LE(n, int(size(ib))) << str(a) << " " << str(b);
  for (int k = 0; k < n; ++k) {
    ASSERT_EQ(int(b(ib(k))), k);
    ASSERT_EQ(int(a(ib(k))), k) << str(a) << " vs " << str(b) << " n=" << n;
  }
  if (n < int(size(ib))) {
    EXPECT_NE(int(a(ib(n))), n) << str(a) << " vs " << str(b) << " n=" << n;
  }
  auto mcl = max_common_layout(a, b);
  for (int k = 0; k < int(size(mcl)); ++k) {
    ASSERT_EQ(int(a(mcl(k))), k);
    ASSERT_EQ(int(b(mcl(k))), k);
  }
  EXPECT_GE(int(size(mcl)), n);
}

TEST(MaxCommon, StaticPairs) {
  using S1 = Layout<Shape<_2, _4, _2>, Stride<_1, _2, _8>>;
  using S2 = Layout<Shape<_2, _4, _2>, Stride<_1, _4, _2>>;
  using S3 = Layout<Shape<_2, _4, _2>, Stride<_8, _1, _4>>;
  using S4 = Layout<Shape<_2, _4, _2>, Stride<_4, _2, _1>>;
  using S5 = Layout<Shape<_2, _4, _2>, Stride<_1, _4, _2>>;
  check_max_common<S1, S1>();
  check_max_common<S1, S2>();
  check_max_common<S2, S1>();
  check_max_common<S1, S3>();
  check_max_common<S3, S1>();
  check_max_common<S2, S4>();
  check_max_common<S4, S4>();
  check_max_common<S2, S5>();
  check_max_common<S3, S4>();
}

}  // namespace
