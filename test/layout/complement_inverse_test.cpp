// complement, right_inverse, left_inverse: documentation examples, generated properties, and
// complement compared with the independent reference of layout_generators.hpp.
#include "layout_generators.hpp"

using namespace strata;
using strata_test::FlatLayout;
using strata_test::Index;
using strata_test::same_function;
using strata_test::str;
using strata_test::unstatic;

namespace {

// ---- complement: worked examples (CuTe docs, 02_layout_algebra, all-static) --------------------

TEST(Complement, DocumentationExamples) {
  EXPECT_EQ(str(complement(Layout<_4, _1>{}, _24{})), "_6:_4");
  EXPECT_EQ(str(complement(Layout<_6, _4>{}, _24{})), "_4:_1");
  EXPECT_EQ(str(complement(Layout<Shape<_4, _6>, Stride<_1, _4>>{}, _24{})), "_1:_0");
  EXPECT_EQ(str(complement(Layout<_4, _2>{}, _24{})), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(complement(Layout<Shape<_2, _4>, Stride<_1, _6>>{}, _24{})), "_3:_2");
  EXPECT_EQ(str(complement(Layout<Shape<_2, _2>, Stride<_1, _6>>{}, _24{})), "(_3,_2):(_2,_12)");
}

TEST(Complement, DefaultCotargetIsCosize) {
  // complement(a) == complement(a, cosize(a))
  EXPECT_EQ(str(complement(Layout<Shape<_2, _2>, Stride<_1, _6>>{})), "_3:_2");  // cosize 8
  EXPECT_EQ(str(complement(Layout<_4, _2>{})), "_2:_1");                         // cosize 7
  EXPECT_EQ(str(complement(Layout<_6, _4>{})), "_4:_1");                         // cosize 21
  EXPECT_EQ(str(complement(Layout<_8, _1>{})), "_1:_0");
}

TEST(Complement, StrideZeroAndSizeOneModesAreIgnored) {
  EXPECT_EQ(str(complement(Layout<Shape<_4, _3>, Stride<_2, _0>>{}, _24{})), "(_2,_3):(_1,_8)");
  EXPECT_EQ(str(complement(Layout<Shape<_1, _4>, Stride<_5, _2>>{}, _24{})), "(_2,_3):(_1,_8)");
  // The all-broadcast layout: the complement is the whole cotarget.
  EXPECT_TRUE(same_function(complement(make_layout(4, 0), 8), Layout<_8, _1>{}));
}

// With static strides, a layout that filters to nothing (all modes of stride 0 or size 1): the
// complement is the whole cotarget.
TEST(Complement, StaticAllBroadcast) {
  EXPECT_EQ(str(complement(Layout<_4, _0>{}, _8{})), "_8:_1");
  EXPECT_EQ(str(complement(Layout<_1, _0>{}, _8{})), "_8:_1");
  EXPECT_EQ(str(complement(Layout<Shape<_2, _1>, Stride<_0, _3>>{}, _8{})), "_8:_1");
}

TEST(Complement, DynamicMatchesStatic) {
  // Dynamic strides: the same function as the static result (padding modes 1:0 allowed).
  EXPECT_TRUE(same_function(complement(make_layout(4, 2), 24), Layout<Shape<_2, _3>, Stride<_1, _8>>{}));
  EXPECT_TRUE(same_function(complement(make_layout(4, 1), 24), Layout<_6, _4>{}));
  EXPECT_TRUE(same_function(complement(make_layout(make_shape(2, 2), make_stride(1, 6)), 24),
                            Layout<Shape<_3, _2>, Stride<_2, _12>>{}));
  EXPECT_TRUE(same_function(complement(make_layout(make_shape(2, 4), make_stride(1, 6)), 24), Layout<_3, _2>{}));
  EXPECT_TRUE(same_function(complement(make_layout(make_shape(4, 6), make_stride(1, 4)), 24), Layout<_1, _0>{}));
  // Static layout, dynamic cotarget.
  EXPECT_TRUE(same_function(complement(Layout<_4, _2>{}, 24), Layout<Shape<_2, _3>, Stride<_1, _8>>{}));
}

// ---- complement: properties --------------------------------------------------------------------

// For a tractable a without broadcast modes and any cotarget c:
//  * c' = complement(a, c) is ordered: c'(i-1) < c'(i);
//  * c'(i) is in a's image only for i == 0;
//  * (a, c') is a bijection onto [0, size(a) * size(c')), and size(a) * size(c') >= c;
//  * when c is a multiple of a's span (largest shape*stride), size(a) * size(c') == c.
template <class L>
::testing::AssertionResult complement_properties(L const& a, FlatLayout const& fa, Index cotarget) {
  auto c = complement(a, int(cotarget));
  auto img_a = strata_test::image(a);
  auto vc = strata_test::values(c);
  for (std::size_t i = 1; i < vc.size(); ++i) {
    if (vc[i - 1] >= vc[i]) return ::testing::AssertionFailure() << str(c) << " is not ordered";
    if (img_a.count(vc[i])) return ::testing::AssertionFailure() << str(c) << " meets the image of " << str(a);
  }
  auto ac = make_layout(a, c);
  Index n = Index(size(ac));
  auto img = strata_test::image(ac);
  if (Index(img.size()) != n || *img.rbegin() != n - 1)
    return ::testing::AssertionFailure() << "(" << str(a) << ", " << str(c) << ") is not a bijection onto [0, " << n
                                         << ")";
  if (n < cotarget) return ::testing::AssertionFailure() << str(c) << " does not reach " << cotarget;
  Index span = 0;
  strata_test::complement_tractable(fa, &span);
  if (cotarget % span == 0 && n != cotarget)
    return ::testing::AssertionFailure() << "(" << str(a) << ", " << str(c) << ") covers " << n << ", not "
                                         << cotarget;
  return ::testing::AssertionSuccess();
}

TEST(Complement, PropertiesOnGeneratedLayouts) {
  int count = 0;
  std::mt19937 pick(5);
  strata_test::for_random_layouts(301, 60, strata_test::ShapeKind::Any, [&](auto a, FlatLayout const& fa) {
    Index span = 0;
    bool has_zero = false;
    for (std::size_t k = 0; k < fa.shape.size(); ++k) has_zero |= fa.stride[k] == 0 && fa.shape[k] > 1;
    if (has_zero || !strata_test::complement_tractable(fa, &span) || span > 1024) return;
    for (Index cotarget : {span, 2 * span, 3 * span, span + 5, Index(1), span * 4 - 1}) {
      EXPECT_TRUE(complement_properties(a, fa, cotarget)) << fa.text() << " cotarget " << cotarget;
      ++count;
    }
  });
  EXPECT_GT(count, 1000);
}

// ---- complement against the reference ----------------------------------------------------------

// complement(a, c) and complement(a) equal strata_test::reference_complement as functions: the same
// size, and the same index at every i in [0, size). Their shapes may differ: the library pads
// run-time results with 1:0 modes and drops a last mode of size 1, the reference keeps it.
template <class C>
::testing::AssertionResult same_as_reference(C const& c, FlatLayout const& ref) {
  if (Index(size(c)) != ref.size())
    return ::testing::AssertionFailure() << str(c) << " has size " << Index(size(c)) << ", the reference "
                                         << ref.text() << " " << ref.size();
  for (Index i = 0; i < ref.size(); ++i)
    if (Index(c(int(i))) != ref(i))
      return ::testing::AssertionFailure() << str(c) << " and the reference " << ref.text() << " differ at " << i
                                           << ": " << Index(c(int(i))) << " vs " << ref(i);
  return ::testing::AssertionSuccess();
}

TEST(Complement, EqualsTheReferenceOnGeneratedLayouts) {
  int count = 0;
  for (auto shape_kind : {strata_test::ShapeKind::Any, strata_test::ShapeKind::PowerOfTwo}) {
    strata_test::for_random_layouts(303, 60, shape_kind, [&](auto a, FlatLayout const& fa) {
      Index span = 0;
      if (!strata_test::complement_tractable(fa, &span) || span > 4096) return;
      Index cosize_a = fa.max_index() + 1;
      EXPECT_TRUE(same_as_reference(complement(a), strata_test::reference_complement(fa, cosize_a)))
          << fa.text() << " without a bound";
      for (Index cotarget : {Index(1), cosize_a, span, 2 * span, span + 5, 3 * span - 1}) {
        EXPECT_TRUE(same_as_reference(complement(a, int(cotarget)), strata_test::reference_complement(fa, cotarget)))
            << fa.text() << " cotarget " << cotarget;
        ++count;
      }
    });
  }
  EXPECT_GT(count, 2000);
}

// The same comparison with static leaves (complement then sorts the modes at compile time), and
// with a static as well as a run-time cotarget. Layouts are drawn in a constant expression: leaves
// in a random order, each starting where the ones before it end times a gap of 1, 2 or 3, some of
// size 1 or stride 0, so every draw is tractable.
namespace static_complements {
struct Drawn {
  int structure = 0;
  std::array<int, 4> s{}, d{};
  int cotarget = 1;
};

constexpr Drawn draw(int i) {
  strata_test::Lcg rng{std::uint64_t(i) * 0x2545F4914F6CDD1Dull + 3};
  constexpr int shapes[] = {1, 2, 3, 4, 8};
  Drawn p;
  p.structure = rng(int(std::tuple_size_v<strata_test::AllStructures>));
  int n = strata_test::leaves_of<strata_test::AllStructures>(p.structure);
  std::array<int, 4> order{0, 1, 2, 3};
  for (int k = n - 1; k > 0; --k) std::swap(order[std::size_t(k)], order[std::size_t(rng(k + 1))]);
  for (int k = 0; k < n; ++k) p.s[std::size_t(k)] = shapes[rng(5)];
  int end = 1;
  for (int k = 0; k < n; ++k) {
    std::size_t leaf = std::size_t(order[std::size_t(k)]);
    end *= 1 + rng(3);
    p.d[leaf] = end;
    end *= p.s[leaf];
  }
  for (int k = 0; k < n; ++k)
    if (rng(4) == 0) p.d[std::size_t(k)] = 0;
  FlatLayout f = strata_test::flat_of(p.s, p.d, n);
  Index span = 0;
  strata_test::complement_tractable(f, &span);
  Index cosize = f.max_index() + 1;
  Index choices[] = {1, cosize, span, 2 * span, span + 3, 3 * span - 1};
  p.cotarget = int(choices[rng(6)]);
  return p;
}

inline constexpr int kLayouts = 120;
inline constexpr auto kDrawn = [] {
  std::array<Drawn, kLayouts> drawn{};
  for (int i = 0; i < kLayouts; ++i) drawn[std::size_t(i)] = draw(i);
  return drawn;
}();
static_assert([] {
  for (auto const& p : kDrawn) {
    int n = strata_test::leaves_of<strata_test::AllStructures>(p.structure);
    if (!strata_test::complement_tractable(strata_test::flat_of(p.s, p.d, n))) return false;
  }
  return true;
}(), "every drawn layout is tractable");

template <int I>
void expect_reference() {
  constexpr Drawn p = kDrawn[I];
  using S = std::tuple_element_t<std::size_t(p.structure), strata_test::AllStructures>;
  auto a = make_layout(strata_test::static_leaves<S, p.s>(), strata_test::static_leaves<S, p.d>());
  FlatLayout fa = strata_test::flat_of(p.s, p.d, S::leaves);
  auto ref = strata_test::reference_complement(fa, p.cotarget);
  static_assert(is_static_v<decltype(complement(a, Int<p.cotarget>{}))>);
  EXPECT_TRUE(same_as_reference(complement(a, Int<p.cotarget>{}), ref)) << fa.text() << " cotarget " << p.cotarget;
  EXPECT_TRUE(same_as_reference(complement(a, p.cotarget), ref)) << fa.text() << " run-time cotarget " << p.cotarget;
  EXPECT_TRUE(same_as_reference(complement(a), strata_test::reference_complement(fa, fa.max_index() + 1)))
      << fa.text() << " without a bound";
}
}  // namespace static_complements

TEST(Complement, StaticEqualsTheReferenceOnGeneratedLayouts) {
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    (static_complements::expect_reference<int(Is)>(), ...);
  }(std::make_index_sequence<static_complements::kLayouts>{});
}

TEST(Complement, BroadcastModesDoNotChangeTheResult) {
  // A stride-0 mode of a contributes nothing to the image, so complement ignores it.
  std::mt19937 rng(302);
  for (int n = 0; n < 100; ++n) {
    FlatLayout f = strata_test::random_flat(rng, 2, strata_test::StrideKind::PermutedGaps, strata_test::ShapeKind::Any);
    Index span = 0;
    strata_test::complement_tractable(f, &span);
    int b = std::uniform_int_distribution<int>(1, 5)(rng);
    auto a = make_layout(make_shape(int(f.shape[0]), int(f.shape[1])), make_stride(int(f.stride[0]), int(f.stride[1])));
    auto az = make_layout(make_shape(int(f.shape[0]), b, int(f.shape[1])),
                          make_stride(int(f.stride[0]), 0, int(f.stride[1])));
    EXPECT_TRUE(same_function(complement(a, int(2 * span)), complement(az, int(2 * span)))) << f.text();
  }
}

// ---- right_inverse -----------------------------------------------------------------------------

TEST(RightInverse, Examples) {
  EXPECT_EQ(str(right_inverse(Layout<_8, _1>{})), "_8:_1");
  // (4,2):(2,1): index 1 is mode 1 (coordinate 4), index 2 is mode 0 (coordinate 1).
  auto a = Layout<Shape<_4, _2>, Stride<_2, _1>>{};
  auto ri = right_inverse(a);
  EXPECT_EQ(str(ri), "(_2,_4):(_4,_1)");
  for (int i = 0; i < 8; ++i) EXPECT_EQ(int(a(ri(i))), i);
  // Nothing maps to 1: only the trivial inverse.
  EXPECT_EQ(int(size(right_inverse(Layout<_4, _2>{}))), 1);
  // Transposed 8x4.
  auto t = Layout<Shape<_8, _4>, Stride<_4, _1>>{};
  EXPECT_EQ(str(right_inverse(t)), "(_4,_8):(_8,_1)");
  // Stride 1 only as far as index 4: (4,3):(1,5) reaches 0..3 contiguously.
  EXPECT_EQ(str(right_inverse(Layout<Shape<_4, _3>, Stride<_1, _5>>{})), "_4:_1");
}

TEST(RightInverse, PropertiesOnGeneratedLayouts) {
  // a(right_inverse(a)(i)) == i for i < size(right_inverse(a)); for injective a the inverse reaches
  // as far as a does contiguously: n = size(right_inverse(a)) is not in a's image.
  int nontrivial = 0;
  strata_test::for_random_layouts(311, 60, strata_test::ShapeKind::Any, [&](auto a, FlatLayout const& fa) {
    auto ri = right_inverse(a);
    Index n = Index(size(ri));
    for (int i = 0; i < int(n); ++i) ASSERT_EQ(Index(a(int(ri(i)))), Index(i)) << str(a) << " with " << str(ri);
    if (fa.injective()) {
      auto img = strata_test::image(a);
      EXPECT_EQ(img.count(n), 0u) << str(a) << " has right inverse " << str(ri) << " but reaches " << n;
      // Compact layouts (a bijection onto [0, size)) are inverted completely.
      if (*img.rbegin() == Index(img.size()) - 1) {
        EXPECT_EQ(n, Index(size(a))) << str(a) << " -> " << str(ri);
      }
    }
    nontrivial += n > 1;
  });
  EXPECT_GT(nontrivial, 200);
}

// ---- left_inverse ------------------------------------------------------------------------------

TEST(LeftInverse, Examples) {
  auto a = Layout<Shape<_4, _2>, Stride<_2, _1>>{};
  auto li = left_inverse(a);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(int(li(a(i))), i);
  auto g = Layout<_4, _2>{};  // with gaps: image {0,2,4,6}
  auto lg = left_inverse(g);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(int(lg(g(i))), i) << str(lg);
  auto h = Layout<Shape<_2, _2>, Stride<_1, _6>>{};
  auto lh = left_inverse(h);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(int(lh(h(i))), i) << str(lh);
}

TEST(LeftInverse, PropertiesOnGeneratedLayouts) {
  // left_inverse(a)(a(i)) == i for tractable injective a (dynamic strides: run-time inverse).
  int count = 0;
  strata_test::for_random_layouts(321, 60, strata_test::ShapeKind::Any, [&](auto a, FlatLayout const& fa) {
    if (!fa.injective() || !strata_test::complement_tractable(fa)) return;
    auto li = left_inverse(a);
    for (int i = 0; i < int(size(a)); ++i)
      ASSERT_EQ(Index(li(int(a(i)))), Index(i)) << str(a) << " with left inverse " << str(li);
    ++count;
  });
  EXPECT_GT(count, 200);
}

// ---- static inverses ---------------------------------------------------------------------------

template <class L>
void check_static_inverses() {
  L a{};
  auto ri = right_inverse(a);
  static_assert(is_static_v<decltype(ri)>);
  for (int i = 0; i < int(size(ri)); ++i) ASSERT_EQ(int(a(ri(i))), i) << str(a);
  auto li = left_inverse(a);
  static_assert(is_static_v<decltype(li)>);
  for (int i = 0; i < int(size(a)); ++i) ASSERT_EQ(int(li(a(i))), i) << str(a);
  auto c = complement(a);
  static_assert(is_static_v<decltype(c)>);
  EXPECT_TRUE(strata_test::is_injective(make_layout(a, c))) << str(a) << " " << str(c);
}

TEST(StaticInverses, InjectiveLayouts) {
  check_static_inverses<Layout<_8, _1>>();
  check_static_inverses<Layout<_8, _3>>();
  check_static_inverses<Layout<Shape<_2, _4>, Stride<_4, _1>>>();
  check_static_inverses<Layout<Shape<_2, _4>, Stride<_1, _4>>>();
  check_static_inverses<Layout<Shape<_3, _5>, Stride<_5, _1>>>();
  check_static_inverses<Layout<Shape<_4, Shape<_2, _3>>, Stride<_2, Stride<_1, _8>>>>();
  check_static_inverses<Layout<Shape<_2, Shape<_2, Shape<_2, _2>>>, Stride<_8, Stride<_4, Stride<_2, _1>>>>>();
  check_static_inverses<Layout<Shape<Shape<_2, _2>, Shape<_2, _2>>, Stride<Stride<_1, _4>, Stride<_2, _8>>>>();
  check_static_inverses<Layout<Shape<_2, _3, _4>, Stride<_12, _4, _1>>>();
  check_static_inverses<Layout<Shape<_2, _2>, Stride<_1, _6>>>();
}

}  // namespace
