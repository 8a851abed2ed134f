// ComposedLayout: evaluation as A(offset + B(c)), static composed layouts, and the algebra on
// composed layouts (composition, divides, products, tile_to_shape, re-typing, slicing, cosize)
// checked value by value against the definitions.
#include <layout/swizzle.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace strata;

namespace {

using Index = long long;

template <class T>
std::string text(T const& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

using HalfTile = Layout<Shape<_8, _64>, Stride<_64, _1>>;
using Sw128 = Swizzle<3, 3, 3>;  // the 128-byte swizzle on half-precision element offsets

constexpr auto swizzle_atom() { return composition(Sw128{}, HalfTile{}); }

// l(i) == a(o + b(i)) for every linear index and every natural coordinate of b's domain.
template <class L, class A, class O, class B>
::testing::AssertionResult evaluates_as(L const& l, A const& a, O const& o, B const& b) {
  if (Index(size(l)) != Index(size(b))) return ::testing::AssertionFailure() << "sizes differ";
  for (long long i = 0; i < Index(size(b)); ++i) {
    long long const want = a(o + b(int(i)));
    if (Index(l(int(i))) != want)
      return ::testing::AssertionFailure() << text(l) << " at index " << i << ": " << l(int(i)) << " vs " << want;
    auto c = idx2crd(int(i), b.shape());
    if (Index(l(c)) != want)
      return ::testing::AssertionFailure() << text(l) << " at coordinate " << text(c);
  }
  return ::testing::AssertionSuccess();
}

// Same size and the same index at every linear index.
template <class X, class Y>
::testing::AssertionResult same_function(X const& x, Y const& y) {
  if (Index(size(x)) != Index(size(y))) return ::testing::AssertionFailure() << "sizes differ";
  for (int i = 0; i < int(size(x)); ++i) {
    if (Index(x(i)) != Index(y(i)))
      return ::testing::AssertionFailure() << text(x) << " vs " << text(y) << " at " << i;
  }
  return ::testing::AssertionSuccess();
}

template <class L>
long long max_value(L const& l) {
  long long m = 0;
  for (int i = 0; i < int(size(l)); ++i) m = std::max(m, (long long)l(i));
  return m;
}

// ---- construction and evaluation ---------------------------------------------------------------

TEST(ComposedLayout, EvaluatesAsAOfOffsetPlusB) {
  auto atom = swizzle_atom();
  EXPECT_TRUE(evaluates_as(atom, Sw128{}, 0, HalfTile{}));

  // Dynamic inner layout, dynamic offset, hierarchical shape.
  auto b = make_layout(make_shape(make_shape(4, 2), 16), make_stride(make_stride(64, 256), 1));
  Swizzle<2, 2, 4> sw;
  auto l = make_composed_layout(sw, 40, b);
  EXPECT_TRUE(evaluates_as(l, sw, 40, b));
  EXPECT_EQ(l(make_coord(make_coord(3, 1), 5)), sw(40 + 3 * 64 + 256 + 5));
  EXPECT_EQ(l(make_coord(7, 5)), l(make_coord(make_coord(3, 1), 5)));

  // The outer function may be a layout.
  auto outer = make_layout(make_shape(16, 16), make_stride(16, 1));
  auto inner = make_layout(make_shape(4, 8), make_stride(8, 1));
  auto lay = make_composed_layout(outer, 3, inner);
  EXPECT_TRUE(evaluates_as(lay, outer, 3, inner));
}

TEST(ComposedLayout, StaticIsEmptyAndUsableInStaticAssert) {
  constexpr auto atom = swizzle_atom();
  static_assert(std::is_empty_v<decltype(atom)>);
  static_assert(std::is_same_v<decltype(atom), ComposedLayout<Sw128, _0, HalfTile> const>);
  // Static coordinates give static indices; dynamic ones are constant expressions.
  static_assert(std::is_same_v<decltype(atom(_1{}, _8{})), Int<64>>);
  static_assert(atom(1, 8) == 64 && atom(1, 0) == 64 + 8 && atom(7, 63) == 7 * 64 + (63 ^ 56));
  static_assert(atom(72) == Sw128{}(HalfTile{}(72)));
  static_assert(decltype(size(atom))::value == 512 && decltype(cosize(atom))::value == 512);
  static_assert(decltype(size<1>(atom))::value == 64 && decltype(rank(atom))::value == 2);
  static_assert(decltype(atom)::rank == 2 && decltype(depth(atom))::value == 1);
  static_assert(std::is_empty_v<decltype(tile_to_shape(atom, make_shape(_128{}, _64{})))>);
  static_assert(std::is_empty_v<decltype(atom(_3{}, _))>);
}

TEST(ComposedLayout, TraitsAndConcepts) {
  using Atom = decltype(swizzle_atom());
  static_assert(ComposedLayoutType<Atom> && is_composed_layout_v<Atom const&>);
  static_assert(AnyLayout<Atom> && AnyLayout<HalfTile>);
  static_assert(!ComposedLayoutType<HalfTile> && !AnyLayout<int> && !AnyLayout<Sw128>);
  static_assert(!PlainLayout<Atom>);
  // An identity swizzle at offset 0 is no swizzle at all.
  static_assert(std::is_same_v<decltype(composition(Swizzle<0, 4, 3>{}, HalfTile{})), HalfTile>);
}

TEST(ComposedLayout, Accessors) {
  auto atom = swizzle_atom();
  EXPECT_EQ(text(atom), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(text(atom.shape()), "(_8,_64)");
  EXPECT_EQ(text(shape<0>(atom)), "_8");
  EXPECT_EQ(text(layout<1>(atom)), "Sw<3,3,3> o _0 o _64:_1");
  EXPECT_EQ(text(atom.layout_b()), "(_8,_64):(_64,_1)");
  EXPECT_EQ(text(atom.layout_a()), "Sw<3,3,3>");
  EXPECT_EQ(text(atom.offset()), "_0");
  EXPECT_EQ(int(size<0>(atom)), 8);
  EXPECT_EQ(crd2idx(make_coord(1, 8), atom), 64);
  EXPECT_TRUE(atom == swizzle_atom());
  EXPECT_FALSE(atom == make_composed_layout(Sw128{}, 1, HalfTile{}));
  auto dyn = make_composed_layout(Swizzle<2, 0, 2>{}, 7, make_layout(make_shape(4, 4)));
  EXPECT_EQ(text(dyn), "Sw<2,0,2> o 7 o (4,4):(_1,4)");
  // Restructuring keeps the function.
  EXPECT_TRUE(same_function(flatten(dyn), dyn));
  EXPECT_TRUE(same_function(coalesce(dyn), dyn));
  EXPECT_EQ(text(coalesce(atom)), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
  EXPECT_EQ(text(select<1, 0>(atom)), "Sw<3,3,3> o _0 o (_64,_8):(_1,_64)");
  EXPECT_EQ(text(take<1, 2>(atom)), "Sw<3,3,3> o _0 o (_64):(_1)");
  EXPECT_EQ(text(group<0, 2>(atom)), "Sw<3,3,3> o _0 o ((_8,_64)):((_64,_1))");
  for (int c = 0; c < 64; ++c) ASSERT_EQ(layout<1>(atom)(c), atom(0, c));
}

// ---- slicing -----------------------------------------------------------------------------------

TEST(ComposedLayout, SlicingWithUnderscoreIsExact) {
  auto smem = tile_to_shape(swizzle_atom(), make_shape(_128{}, _64{}));
  for (int r = 0; r < 128; r += 5) {
    auto row = smem(r, _);
    for (int c = 0; c < 64; ++c) ASSERT_EQ(row(c), smem(r, c)) << r << ',' << c;
  }
  for (int c = 0; c < 64; c += 3) {
    auto col = smem(_, c);
    for (int r = 0; r < 128; ++r) ASSERT_EQ(col(r), smem(r, c));
  }
  auto all = smem(_, _);
  EXPECT_TRUE(same_function(all, smem));
}

// For a row (r, _) or a column (_, c) of l: s(x) + k == l(r, x), resp. l(x, c), for every x.
template <bool ColumnSlice, class C, class L>
void expect_slice_and_offset(C const& c, L const& l) {
  auto so = slice_and_offset(c, l);
  auto s = get<0>(so);
  Index const k = get<1>(so);
  for (int x = 0; x < int(size(s)); ++x) {
    Index want;
    if constexpr (ColumnSlice) {
      want = l(x, get<1>(c));
    } else {
      want = l(get<0>(c), x);
    }
    ASSERT_EQ(s(x) + k, want) << text(s) << " + " << k << " at " << x;
  }
}

TEST(ComposedLayout, SliceAndOffset) {
  auto smem = tile_to_shape(swizzle_atom(), make_shape(_128{}, _64{}));
  for (int r = 0; r < 128; ++r) expect_slice_and_offset<false>(make_coord(r, _), smem);
  for (int c = 0; c < 64; ++c) expect_slice_and_offset<true>(make_coord(_, c), smem);

  // A dynamic row (stride 64, not a multiple of the 512-element period) stays inside whole, where the
  // swizzle sees it: splitting it would cost run-time work on every slice.
  auto so = slice_and_offset(make_coord(19, _), smem);  // 19 * 64 = 2 * 512 + 192
  EXPECT_EQ(text(get<0>(so)), "Sw<3,3,3> o 1216 o (_64):(_1)");
  EXPECT_EQ(get<1>(so), 0);

  // Static coordinates: static split, the sliced layout still an empty type.
  auto so_static = slice_and_offset(make_coord(Int<19>{}, _), smem);
  EXPECT_EQ(text(get<0>(so_static)), "Sw<3,3,3> o _192 o (_64):(_1)");
  static_assert(std::is_same_v<decltype(get<1>(so_static)), Int<1024>>);

  // Pipeline stages: every sliced-off stride a multiple of the period, so the whole origin commutes
  // with the swizzle and the slice keeps the static offset _0 even for a dynamic stage index.
  auto stages = tile_to_shape(swizzle_atom(), make_shape(_128{}, _64{}, _3{}));
  for (int k = 0; k < 3; ++k) {
    auto st = slice_and_offset(make_coord(_, _, k), stages);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<0>(st).offset())>, _0>);
    EXPECT_EQ(get<1>(st), k * 8192);
    auto stage = get<0>(st);
    for (int r = 0; r < 128; r += 7)
      for (int c = 0; c < 64; ++c) ASSERT_EQ(stage(r, c) + get<1>(st), stages(r, c, k));
  }

  // Mixed: a static row is split statically, a dynamic stage moves out whole; nothing is computed
  // at run time to split the origin.
  for (int k = 0; k < 3; ++k) {
    auto mixed = slice_and_offset(make_coord(Int<19>{}, _, k), stages);
    static_assert(std::is_same_v<std::remove_cvref_t<decltype(get<0>(mixed).offset())>, Int<192>>);
    EXPECT_EQ(get<1>(mixed), 1024 + k * 8192);
    for (int c = 0; c < 64; ++c) ASSERT_EQ(get<0>(mixed)(c) + get<1>(mixed), stages(19, c, k));
  }

  // Evaluation splits the same way: elements a whole number of periods apart share one swizzled
  // base, and every element still lands where the unsplit function puts it.
  auto thread_slice = get<0>(slice_and_offset(make_coord(_, _, 1), stages));
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 64; ++c)
      ASSERT_EQ(thread_slice(r, c), swizzle_atom().layout_a()(thread_slice.layout_b()(r, c)));
  static_assert(std::is_same_v<decltype(thread_slice(Int<8>{}, Int<0>{})), Int<512>>);

  // All `_`: the layout itself, nothing to pull out.
  auto whole = slice_and_offset(make_coord(_, _), smem);
  static_assert(std::is_same_v<decltype(get<1>(whole)), _0>);
  EXPECT_TRUE(same_function(get<0>(whole), smem));

  // An outer function without a known period: the whole origin is folded in.
  auto lay = make_composed_layout(make_layout(make_shape(16, 16), make_stride(16, 1)), 3,
                                  make_layout(make_shape(4, 8), make_stride(8, 1)));
  auto folded = slice_and_offset(make_coord(2, _), lay);
  static_assert(std::is_same_v<decltype(get<1>(folded)), _0>);
  for (int c = 0; c < 8; ++c) ASSERT_EQ(get<0>(folded)(c), lay(2, c));
}

// ---- composition -------------------------------------------------------------------------------

TEST(ComposedLayout, CompositionWithATiler) {
  auto smem = tile_to_shape(swizzle_atom(), make_shape(_128{}, _64{}));
  // A layout tiler: result(i) == smem(tiler(i)).
  auto tiler = make_layout(make_shape(_16{}, _4{}), make_stride(_2{}, _1024{}));
  auto c = composition(smem, tiler);
  for (int i = 0; i < int(size(tiler)); ++i) ASSERT_EQ(c(i), smem(tiler(i)));
  // A tuple tiler, mode by mode: ((rows 8..15 stride 1), (columns 0, 2, ..., 30)).
  auto by_mode = composition(smem, make_tile(make_layout(_8{}, _1{}), make_layout(_16{}, _2{})));
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 16; ++k) ASSERT_EQ(by_mode(r, k), smem(r, 2 * k));
  EXPECT_TRUE(evaluates_as(by_mode, Sw128{}, 0,
                           composition(smem.layout_b(), make_tile(make_layout(_8{}, _1{}), make_layout(_16{}, _2{})))));
}

TEST(ComposedLayout, LayoutComposedWithSwizzle) {
  // A layout that only moves bits: the swizzle passes through it, a(sw(i)) == sw'(a(i)).
  auto a = Layout<Shape<Shape<_8, _8>, _8>, Stride<Stride<_8, _1>, _64>>{};
  auto moved = composition(a, Sw128{});
  EXPECT_EQ(text(moved), "Sw<3,0,6> o _0 o ((_8,_8),_8):((_8,_1),_64)");
  for (int i = 0; i < 512; ++i) ASSERT_EQ(moved(i), a(Sw128{}(i)));

  // Flipped bits the layout drops: nothing is left to swizzle.
  auto drops = Layout<Shape<_8, _8, _8>, Stride<_1, _0, _8>>{};
  static_assert(std::is_same_v<decltype(composition(drops, Sw128{})), decltype(drops)>);
  for (int i = 0; i < 512; ++i) ASSERT_EQ(composition(drops, Sw128{})(i), drops(Sw128{}(i)));

  // a o (sw o _0 o b) == (a o sw) o b.
  auto atom = swizzle_atom();
  auto outer = Layout<Shape<_64, _8>, Stride<_8, _1>>{};  // transposes the 512 indices
  auto c = composition(outer, atom);
  for (int r = 0; r < 8; ++r)
    for (int k = 0; k < 64; ++k) ASSERT_EQ(c(r, k), outer(atom(r, k)));
}

// ---- divides -----------------------------------------------------------------------------------

TEST(ComposedLayout, DividesFollowTheirDefinitions) {
  auto smem = tile_to_shape(swizzle_atom(), make_shape(_128{}, _64{}));
  auto t0 = make_layout(_16{}, _1{});
  auto t1 = make_layout(_8{}, _2{});
  auto tiler = make_tile(t0, t1);
  // Mode i of the result is (tile_i, rest_i) = make_layout(t_i, complement(t_i, size<i>(l))).
  auto m0 = make_layout(t0, complement(t0, size<0>(smem)));
  auto m1 = make_layout(t1, complement(t1, size<1>(smem)));

  auto ld = logical_divide(smem, tiler);
  auto zd = zipped_divide(smem, tiler);
  auto td = tiled_divide(smem, tiler);
  auto fd = flat_divide(smem, tiler);
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 8; ++j)
      for (int p = 0; p < 8; ++p)
        for (int q = 0; q < 4; ++q) {
          long long const want = smem(m0(i, p), m1(j, q));
          ASSERT_EQ(ld(make_coord(make_coord(i, p), make_coord(j, q))), want);
          ASSERT_EQ(zd(make_coord(make_coord(i, j), make_coord(p, q))), want);
          ASSERT_EQ(td(make_coord(make_coord(i, j), p, q)), want);
          ASSERT_EQ(fd(make_coord(i, j, p, q)), want);
        }

  // A 1-D tiler on a 1-D composed layout: logical_divide(l, t) == composition(l, (t, t*)).
  auto run = make_composed_layout(Sw128{}, _0{}, Layout<Int<2048>, _1>{});
  auto t = make_layout(make_shape(_4{}, _8{}), make_stride(_1{}, _64{}));
  auto by_definition = composition(run, make_layout(t, complement(t, size(run))));
  EXPECT_TRUE(same_function(logical_divide(run, t), by_definition));
  EXPECT_TRUE(same_function(logical_divide(run, 128), composition(run, make_layout(Layout<_128, _1>{}, Layout<_16, _128>{}))));
}

// ---- products and tile_to_shape ----------------------------------------------------------------

TEST(ComposedLayout, ProductsFollowTheirDefinitions) {
  auto atom = swizzle_atom();
  auto grid = make_layout(make_shape(_2{}, _3{}));
  // logical_product(l, b) == (l, copies of B placed by complement(B, size(B) * cosize(b)) o b),
  // seen through the swizzle; the swizzle is periodic in 512, so copy g is the atom moved by 512 g.
  auto lp = logical_product(atom, grid);
  auto place = composition(complement(atom.layout_b(), size(atom) * cosize(grid)), grid);
  for (int i = 0; i < 512; ++i)
    for (int g = 0; g < 6; ++g) {
      ASSERT_EQ(lp(i, g), Sw128{}(atom.layout_b()(i) + place(g)));
      ASSERT_EQ(lp(i, g), atom(i) + 512 * g);
    }
  auto zp = zipped_product(atom, make_tile(Layout<_2>{}, Layout<_3>{}));
  auto tp = tiled_product(atom, make_tile(Layout<_2>{}, Layout<_3>{}));
  auto fp = flat_product(atom, make_tile(Layout<_2>{}, Layout<_3>{}));
  auto bp = blocked_product(atom, grid);
  // Mode by mode, each mode of B is multiplied by its own tiler (plain definition), then swizzled.
  auto lp0 = logical_product(layout<0>(atom.layout_b()), Layout<_2>{});
  auto lp1 = logical_product(layout<1>(atom.layout_b()), Layout<_3>{});
  auto rp = raked_product(atom, grid);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c)
      for (int gr = 0; gr < 2; ++gr)
        for (int gc = 0; gc < 3; ++gc) {
          Index const by_mode = Sw128{}(lp0(r, gr) + lp1(c, gc));
          ASSERT_EQ(zp(make_coord(make_coord(r, c), make_coord(gr, gc))), by_mode);
          ASSERT_EQ(tp(make_coord(make_coord(r, c), gr, gc)), by_mode);
          ASSERT_EQ(fp(make_coord(r, c, gr, gc)), by_mode);
          // blocked: mode i is (atom_i, grid_i), indexed colexicographically (each mode may be
          // coalesced, as CuTe does): the atom at block (gr, gc) of a column-major grid.
          ASSERT_EQ(bp(make_coord(r + 8 * gr, c + 64 * gc)), atom(r, c) + 512 * grid(gr, gc));
          ASSERT_EQ(rp(make_coord(gr + 2 * r, gc + 3 * c)), atom(r, c) + 512 * grid(gr, gc));
        }
  EXPECT_TRUE(evaluates_as(bp, Sw128{}, 0, blocked_product(atom.layout_b(), grid)));
}

TEST(ComposedLayout, TileToShapeBuildsTheSharedMemoryTile) {
  auto atom = swizzle_atom();
  auto smem = tile_to_shape(atom, make_shape(_128{}, _64{}));
  EXPECT_EQ(text(smem), "Sw<3,3,3> o _0 o (_128,_64):(_64,_1)");
  static_assert(decltype(cosize(smem))::value == 8192);
  std::vector<bool> hit(8192, false);
  for (int r = 0; r < 128; ++r)
    for (int c = 0; c < 64; ++c) {
      long long const v = smem(r, c);
      ASSERT_EQ(v, atom(r % 8, c) + 512 * (r / 8));
      ASSERT_FALSE(hit[std::size_t(v)]);
      hit[std::size_t(v)] = true;
    }
  EXPECT_TRUE(evaluates_as(smem, Sw128{}, 0, tile_to_shape(atom.layout_b(), make_shape(_128{}, _64{}))));

  // Wider than the atom: blocks go down the rows first, then across (column-major).
  auto wide = tile_to_shape(atom, make_shape(_64{}, _128{}));
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 128; ++c) ASSERT_EQ(wide(r, c), atom(r % 8, c % 64) + 512 * (r / 8 + 8 * (c / 64)));

  // A dynamic target shape.
  auto dyn = tile_to_shape(atom, make_shape(32, 64));
  for (int r = 0; r < 32; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(dyn(r, c), smem(r, c));
}

// ---- re-typing ---------------------------------------------------------------------------------

TEST(ComposedLayout, UpcastDowncastBetweenHalvesAndBytes) {
  auto halves = tile_to_shape(swizzle_atom(), make_shape(_64{}, _64{}));
  auto bytes = tile_to_shape(composition(Swizzle<3, 4, 3>{}, Layout<Shape<_8, _128>, Stride<_128, _1>>{}),
                             make_shape(_64{}, _128{}));
  // Byte offset of the first byte of each half == 2 * its element offset.
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(bytes(r, 2 * c), 2 * halves(r, c));
  auto up = upcast<2>(bytes);
  static_assert(std::is_same_v<decltype(up.layout_a()), Sw128>);
  EXPECT_TRUE(same_function(up, halves));
  // Down and back up: the same function.
  auto round_trip = upcast<2>(downcast<2>(halves));
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(round_trip(r, c), halves(r, c));
  // An offset moves with the unit.
  auto shifted = make_composed_layout(Sw128{}, _512{}, HalfTile{});
  auto shifted_bytes = downcast<2>(shifted);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(shifted_bytes.offset())>, _1024>);
  auto back = upcast<2>(shifted_bytes);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(back.offset())>, _512>);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 64; ++c) ASSERT_EQ(back(r, c), shifted(r, c));
  auto dyn = upcast<2>(make_composed_layout(Swizzle<3, 4, 3>{}, 2048, Layout<Shape<_8, _128>, Stride<_128, _1>>{}));
  EXPECT_EQ(dyn.offset(), 1024);
}

// ---- cosize ------------------------------------------------------------------------------------

TEST(ComposedLayout, CosizeBoundsEveryIndex) {
  auto atom = swizzle_atom();
  EXPECT_EQ(int(cosize(atom)), 512);
  // A sparse sub-tile (8 rows, first 8 columns): the swizzle sends it up to index 511.
  auto sub = composition(Sw128{}, Layout<Shape<_8, _8>, Stride<_64, _1>>{});
  EXPECT_EQ(max_value(sub), 511);
  EXPECT_EQ(int(cosize(sub)), 512);
  // Below the first bit the swizzle reads, it is the identity and cosize is exact.
  auto low = composition(Sw128{}, Layout<Shape<_4, _8>, Stride<_8, _1>>{});
  EXPECT_EQ(int(cosize(low)), 32);
  EXPECT_EQ(max_value(low), 31);
  // With an offset, per mode, and dynamic.
  auto off = make_composed_layout(Sw128{}, 100, HalfTile{});
  EXPECT_GT(cosize(off), max_value(off));
  EXPECT_EQ(int(cosize<1>(atom)), 64);
  auto dyn = make_composed_layout(Sw128{}, 0, make_layout(make_shape(24, 64), make_stride(64, 1)));
  EXPECT_EQ(cosize(dyn), 24 * 64);
  EXPECT_EQ(max_value(dyn) + 1, 24 * 64);
  auto lay = make_composed_layout(make_layout(make_shape(16, 16), make_stride(16, 1)), 3,
                                  make_layout(make_shape(4, 8), make_stride(8, 1)));
  EXPECT_GT(cosize(lay), max_value(lay));
}

}  // namespace
