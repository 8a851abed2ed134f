// composition past the domain of a: a is extended along its last flat mode (as a(i) evaluates for
// i >= size(a)), also when that mode, or all of a, has size 1. Worked examples, then the
// postcondition result(i) == a_ext(b(i)) over generated pairs, dynamic and static.
#include "layout_generators.hpp"

using namespace strata;
using strata_test::FlatLayout;
using strata_test::Index;
using strata_test::same_function;
using strata_test::str;

namespace {

// ---- worked examples ---------------------------------------------------------------------------

TEST(CompositionExtension, SizeOneLayoutContinuesWithItsStride) {
  // 1:8 extended is i -> 8i, so its first two elements are 2:8 (not a broadcast 2:0).
  EXPECT_EQ(str(composition(Layout<_1, _8>{}, Layout<_2, _1>{})), "_2:_8");
  EXPECT_EQ(str(composition(make_layout(1, 8), make_layout(2, 1))), "2:8");
  EXPECT_EQ(str(composition(Layout<_1, _8>{}, _2{})), "_2:_8");
  EXPECT_EQ(str(composition(Layout<_1, _8>{}, Layout<_3, _2>{})), "_3:_16");
}

TEST(CompositionExtension, SizeOneLastModeCarriesTheExtension) {
  // (4,1):(1,8) extended: i -> i % 4 + (i / 4) * 8.
  auto a = Layout<Shape<_4, _1>, Stride<_1, _8>>{};
  EXPECT_EQ(int(a(5)), 9);
  auto r = composition(a, Layout<_8, _1>{});
  EXPECT_EQ(str(r), "(_4,_2):(_1,_8)");
  auto da = make_layout(make_shape(4, 1), make_stride(1, 8));
  EXPECT_EQ(str(composition(da, make_layout(8, 1))), "(4,2):(1,8)");
  // A stride landing past the domain: 2:4 takes a(0) and a(4) == 8.
  EXPECT_EQ(str(composition(a, Layout<_2, _4>{})), "_2:_8");
  EXPECT_EQ(str(composition(a, Layout<_2, _8>{})), "_2:_16");
  // A last mode of size 1 contiguous with the one before merges into it: (4,1):(2,8) is i -> 2i.
  EXPECT_EQ(str(composition(Layout<Shape<_4, _1>, Stride<_2, _8>>{}, Layout<_8, _1>{})), "_8:_2");
  // A last mode of size 1 and stride 0: the extension repeats the first four indices.
  EXPECT_EQ(str(composition(Layout<Shape<_4, _1>, Stride<_1, _0>>{}, Layout<_8, _1>{})), "(_4,_2):(_1,_0)");
}

TEST(CompositionExtension, NestedLastModeOfSizeOne) {
  // (4,(2,1)):(2,(1,16)): the last flat mode is the innermost 1:16.
  auto a = Layout<Shape<_4, Shape<_2, _1>>, Stride<_2, Stride<_1, _16>>>{};
  auto r = composition(a, Layout<_16, _1>{});
  EXPECT_EQ(str(r), "(_4,_2,_2):(_2,_1,_16)");
  for (int i = 0; i < 16; ++i) EXPECT_EQ(int(r(i)), (i % 4) * 2 + (i / 4) % 2 + (i / 8) * 16) << i;
  auto da = make_layout(make_shape(4, make_shape(2, 1)), make_stride(2, make_stride(1, 16)));
  EXPECT_TRUE(same_function(composition(da, make_layout(16, 1)), r));
}

TEST(CompositionExtension, TilerExtendsEachModeAlongItsOwnLastMode) {
  // Mode 0 is 4:1 (extends to i -> i), mode 1 is 1:8 (extends to j -> 8j).
  auto a = make_layout(Layout<_4, _1>{}, Layout<_1, _8>{});
  EXPECT_EQ(str(composition(a, make_tile(_8{}, _2{}))), "(_8,_2):(_1,_8)");
  auto aa = Layout<Shape<_4, Shape<_2, _1>>, Stride<_1, Stride<_4, _32>>>{};
  EXPECT_EQ(str(composition(aa, make_tile(_4{}, _4{}))), "(_4,(_2,_2)):(_1,(_4,_32))");
}

// ---- the postcondition over generated pairs ----------------------------------------------------

// result(i) == a_ext(b(i)) for every i in b's domain, where a_ext is FlatLayout's evaluation of a's
// leaves (the last leaf unbounded); also through b's own coordinates, and a(b(i)) evaluated by the
// library agrees with the reference, past size(a) too.
template <class LA, class LB>
::testing::AssertionResult composes_extended(LA const& a, LB const& b, FlatLayout const& fa, FlatLayout const& fb) {
  auto r = composition(a, b);
  if (Index(size(r)) != Index(size(b)))
    return ::testing::AssertionFailure() << "size of " << str(a) << " o " << str(b) << " = " << str(r);
  for (int i = 0; i < int(size(b)); ++i) {
    Index expect = fa(fb(i));
    if (Index(a(int(fb(i)))) != expect)
      return ::testing::AssertionFailure() << str(a) << " evaluates to " << Index(a(int(fb(i)))) << " at "
                                           << fb(i) << ", the reference to " << expect;
    if (Index(r(i)) != expect || Index(r(idx2crd(i, shape(b)))) != expect)
      return ::testing::AssertionFailure() << str(a) << " o " << str(b) << " = " << str(r) << " at " << i
                                           << ": got " << Index(r(i)) << ", want " << expect;
  }
  return ::testing::AssertionSuccess();
}

struct PairCounts {
  int pairs = 0, past = 0, unit_last = 0;
};

// Generated pairs: a of every structure and stride kind (stride-0 leaves included) with size-1
// leaves sprinkled in; b of structure BS, injective but for stride-0 modes, admissible, and in
// about half the draws with one mode's stride a multiple of the period of a before its last leaf,
// so that b's image reaches past size(a).
template <class BS>
PairCounts check_extending_pairs(unsigned seed, int per_structure, strata_test::ShapeKind kind) {
  std::mt19937 rng(seed);
  PairCounts n;
  strata_test::for_each_structure([&](auto sa) {
    using SA = decltype(sa);
    for (int k = 0; k < per_structure; ++k) {
      FlatLayout fa = strata_test::random_flat(rng, SA::leaves, strata_test::kAllStrideKinds[std::size_t(k) % 6], kind, 4);
      strata_test::sprinkle_unit_leaves(rng, fa);
      Index period = fa.size() / fa.shape.back();
      for (int attempt = 0; attempt < 30; ++attempt) {
        auto kind_b = strata_test::kAllStrideKinds[rng() % 6];
        FlatLayout fb = strata_test::random_flat(rng, BS::leaves, kind_b, kind, 4);
        if (rng() % 2) fb.stride[rng() % fb.stride.size()] *= period * Index(1 + rng() % 3);
        if (!fb.injective_but_broadcast() || !strata_test::composition_admissible(fa, fb)) continue;
        auto a = strata_test::to_layout<SA>(fa);
        auto b = strata_test::to_layout<BS>(fb);
        EXPECT_TRUE(composes_extended(a, b, fa, fb)) << fa.text() << " o " << fb.text();
        ++n.pairs;
        n.past += fb.max_index() >= fa.size();
        n.unit_last += fa.shape.back() == 1;
        break;
      }
    }
  });
  return n;
}

TEST(CompositionExtension, PowerOfTwoGeneratedPairs) {
  using namespace strata_test::structure;
  for (auto n : {check_extending_pairs<Int1>(401, 60, strata_test::ShapeKind::PowerOfTwo),
                 check_extending_pairs<Tup2>(402, 60, strata_test::ShapeKind::PowerOfTwo),
                 check_extending_pairs<R_2>(403, 60, strata_test::ShapeKind::PowerOfTwo),
                 check_extending_pairs<Tup3>(404, 60, strata_test::ShapeKind::PowerOfTwo)}) {
    EXPECT_GT(n.pairs, 400);
    EXPECT_GT(n.past, n.pairs / 4);
    EXPECT_GT(n.unit_last, n.pairs / 4);
  }
}

TEST(CompositionExtension, AnyShapeGeneratedPairs) {
  using namespace strata_test::structure;
  for (auto n : {check_extending_pairs<Int1>(411, 60, strata_test::ShapeKind::Any),
                 check_extending_pairs<Tup2>(412, 60, strata_test::ShapeKind::Any),
                 check_extending_pairs<L_2>(413, 60, strata_test::ShapeKind::Any)}) {
    EXPECT_GT(n.pairs, 300);
    EXPECT_GT(n.past, n.pairs / 4);
    EXPECT_GT(n.unit_last, n.pairs / 4);
  }
}

// ---- static pairs ------------------------------------------------------------------------------

// The same postcondition with every leaf a static integer, where size-1 modes are known at compile
// time. The pairs are drawn in a constant expression (a linear congruential generator) and kept
// only when admissible, so a generated pair never trips a static_assert of the algebra.
namespace static_pairs {
using namespace strata_test::structure;
using strata_test::flat_of;
using strata_test::leaves_of;
using strata_test::static_leaves;
using AStructures = strata_test::AllStructures;
using BStructures = std::tuple<Int1, Tup2, R_2>;

struct Pair {
  int a_structure = 0, b_structure = 0;
  std::array<int, 4> as{}, ad{}, bs{}, bd{};
};

// Pair i: a with size-1 leaves (the last one in half the draws) and stride-0 leaves; b reaching past
// size(a) for every even i.
constexpr Pair draw(int i) {
  strata_test::Lcg rng{std::uint64_t(i) * 0x9E3779B97F4A7C15ull + 17};
  constexpr int a_shapes[] = {2, 2, 4, 4, 8, 3, 6};
  constexpr int a_strides[] = {0, 1, 2, 4, 8, 16, 32, 3};
  constexpr int b_shapes[] = {1, 2, 2, 3, 4};
  constexpr int b_strides[] = {0, 1, 1, 2, 3, 4, 8};
  for (;;) {
    Pair p;
    p.a_structure = rng(int(std::tuple_size_v<AStructures>));
    p.b_structure = rng(int(std::tuple_size_v<BStructures>));
    int na = leaves_of<AStructures>(p.a_structure), nb = leaves_of<BStructures>(p.b_structure);
    int compact = 1;
    for (int k = 0; k < na; ++k) {
      bool unit = rng(k + 1 == na ? 2 : 4) == 0;
      p.as[std::size_t(k)] = unit ? 1 : a_shapes[rng(7)];
      p.ad[std::size_t(k)] = rng(3) == 0 ? compact : a_strides[rng(8)];
      compact *= p.as[std::size_t(k)];
    }
    FlatLayout fa = flat_of(p.as, p.ad, na);
    int period = int(fa.size() / fa.shape.back());
    for (int k = 0; k < nb; ++k) {
      p.bs[std::size_t(k)] = b_shapes[rng(5)];
      p.bd[std::size_t(k)] = rng(3) == 0 ? period * (1 + rng(2)) : b_strides[rng(7)];
    }
    FlatLayout fb = flat_of(p.bs, p.bd, nb);
    if (!fb.injective_but_broadcast() || !strata_test::composition_admissible(fa, fb)) continue;
    if (i % 2 == 0 && fb.max_index() < fa.size()) continue;
    return p;
  }
}

inline constexpr int kPairs = 160;
inline constexpr auto kDrawn = [] {
  std::array<Pair, kPairs> pairs{};
  for (int i = 0; i < kPairs; ++i) pairs[std::size_t(i)] = draw(i);
  return pairs;
}();

template <int I>
::testing::AssertionResult check() {
  constexpr Pair p = kDrawn[I];
  using SA = std::tuple_element_t<std::size_t(p.a_structure), AStructures>;
  using SB = std::tuple_element_t<std::size_t(p.b_structure), BStructures>;
  auto a = make_layout(static_leaves<SA, p.as>(), static_leaves<SA, p.ad>());
  auto b = make_layout(static_leaves<SB, p.bs>(), static_leaves<SB, p.bd>());
  static_assert(is_static_v<decltype(composition(a, b))>);
  return composes_extended(a, b, flat_of(p.as, p.ad, SA::leaves), flat_of(p.bs, p.bd, SB::leaves));
}

template <int I>
void expect_composes() {
  EXPECT_TRUE(check<I>()) << "static pair " << I;
}
}  // namespace static_pairs

TEST(CompositionExtension, StaticGeneratedPairs) {
  int past = 0, unit_last = 0;
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    (static_pairs::expect_composes<int(Is)>(), ...);
  }(std::make_index_sequence<static_pairs::kPairs>{});
  for (auto const& p : static_pairs::kDrawn) {
    int na = strata_test::leaves_of<static_pairs::AStructures>(p.a_structure);
    int nb = strata_test::leaves_of<static_pairs::BStructures>(p.b_structure);
    FlatLayout fa = strata_test::flat_of(p.as, p.ad, na), fb = strata_test::flat_of(p.bs, p.bd, nb);
    past += fb.max_index() >= fa.size();
    unit_last += fa.shape.back() == 1;
  }
  EXPECT_GE(past, static_pairs::kPairs / 2);
  EXPECT_GT(unit_last, static_pairs::kPairs / 4);
}

}  // namespace
