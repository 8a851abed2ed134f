// Shared helpers for the layout tests: text form, value-by-value comparison of layouts as
// functions, an independent flat reference evaluator, and deterministic generators of random
// dynamic layouts over a fixed set of hierarchical structures.
#pragma once

#include <layout/layout.hpp>
#if __has_include(<layout/io.hpp>)
#include <layout/io.hpp>
#endif
#if __has_include(<layout/print.hpp>)
#include <layout/print.hpp>
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <numeric>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace strata_test {

// ---- text --------------------------------------------------------------------------------------

template <class T>
std::string str(T const& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

// The text with static markers removed: `(_2,4):(_1,_2)` -> `(2,4):(1,2)`. Lets a test state the
// structure and values of a result without fixing which leaves are static.
inline std::string unstatic(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  return s;
}

// ---- layouts as functions ----------------------------------------------------------------------

using Index = long long;

template <class L>
std::vector<Index> values(L const& l) {
  std::vector<Index> v;
  Index n = Index(strata::size(l));
  v.reserve(std::size_t(n));
  for (Index i = 0; i < n; ++i) v.push_back(Index(l(int(i))));
  return v;
}

// Same size and the same index for every linear coordinate.
template <class A, class B>
::testing::AssertionResult same_function(A const& a, B const& b) {
  Index na = Index(strata::size(a)), nb = Index(strata::size(b));
  if (na != nb) {
    return ::testing::AssertionFailure() << "sizes differ: " << str(a) << " has " << na << ", " << str(b)
                                         << " has " << nb;
  }
  for (Index i = 0; i < na; ++i) {
    Index x = Index(a(int(i))), y = Index(b(int(i)));
    if (x != y) {
      return ::testing::AssertionFailure() << str(a) << " and " << str(b) << " differ at " << i << ": " << x
                                           << " vs " << y;
    }
  }
  return ::testing::AssertionSuccess();
}

template <class L>
bool is_injective(L const& l) {
  auto v = values(l);
  std::set<Index> s(v.begin(), v.end());
  return s.size() == v.size();
}

template <class L>
std::set<Index> image(L const& l) {
  auto v = values(l);
  return std::set<Index>(v.begin(), v.end());
}

// The leaves of an IntTuple, in order.
template <class T>
std::vector<Index> flat_values(T const& t) {
  std::vector<Index> v;
  strata::for_each(strata::wrap(strata::flatten(t)), [&](auto x) { v.push_back(Index(x)); });
  return v;
}

// ---- flat reference ----------------------------------------------------------------------------

// A layout given by its leaves in colexicographic order; evaluated without the library (also in
// constant expressions, for the static generators).
struct FlatLayout {
  std::vector<Index> shape, stride;

  constexpr Index size() const {
    Index n = 1;
    for (Index s : shape) n *= s;
    return n;
  }
  // The layout extended past its size: the last leaf takes the whole quotient, as if its shape were
  // infinite, so for i >= size() it goes on with the last leaf's stride (even for a last leaf of
  // size 1). Within [0, size()) this is the layout itself.
  constexpr Index operator()(Index i) const {
    Index r = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) {
      Index c = (k + 1 == shape.size()) ? i : i % shape[k];
      r += c * stride[k];
      i /= shape[k];
    }
    return r;
  }
  constexpr Index max_index() const {
    Index m = 0;
    for (std::size_t k = 0; k < shape.size(); ++k) m += (shape[k] - 1) * std::max<Index>(stride[k], 0);
    return m;
  }
  bool injective() const {
    std::set<Index> seen;
    for (Index i = 0; i < size(); ++i)
      if (!seen.insert((*this)(i)).second) return false;
    return true;
  }
  // Whether the leaves of stride != 0 alone are injective: the leaves of stride 0 only repeat what
  // the others reach.
  constexpr bool injective_but_broadcast() const {
    FlatLayout rest;
    for (std::size_t k = 0; k < shape.size(); ++k)
      if (stride[k] != 0) { rest.shape.push_back(shape[k]); rest.stride.push_back(stride[k]); }
    std::vector<Index> v;
    for (Index i = 0; i < rest.size(); ++i) v.push_back(rest(i));
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) == v.end();
  }
  std::string text() const {
    std::ostringstream os;
    os << "flat(";
    for (std::size_t k = 0; k < shape.size(); ++k) os << (k ? "," : "") << shape[k];
    os << "):(";
    for (std::size_t k = 0; k < stride.size(); ++k) os << (k ? "," : "") << stride[k];
    os << ")";
    return os.str();
  }
};

// The leaves of a layout, read back through the public API (flatten + evaluation of unit coords
// would need a coordinate type per structure; the generators keep their own FlatLayout instead).

// CuTe's composition admissibility for one mode s:d of b against the flat shape of a (not
// coalesced first, which only makes the check stricter): the stride d must be divided out of the
// leading modes of a, each mode dividing or being divided by what is left of d, and then s must be
// modded out the same way. The last mode of a is unbounded.
constexpr bool composition_admissible_mode(std::vector<Index> const& a_shape, Index s, Index d) {
  if (d <= 0) return false;
  std::vector<Index> rest_shape;
  Index rd = d;
  for (std::size_t k = 0; k + 1 < a_shape.size(); ++k) {
    Index ak = a_shape[k];
    if (rd % ak == 0) {
      rest_shape.push_back(1);
      rd /= ak;
    } else if (ak % rd == 0) {
      rest_shape.push_back(ak / rd);
      rd = 1;
    } else {
      return false;
    }
  }
  Index rs = s;
  for (Index m : rest_shape) {
    if (rs % m == 0) {
      rs /= m;
    } else if (m % rs == 0) {
      rs = 1;
    } else {
      return false;
    }
  }
  return true;
}

// Per-mode admissibility is what the algebra checks; it gives result(i) == a(b(i)) when b is
// also injective (then the modes of b use disjoint digits of a and their sum never carries), or
// injective but for modes of stride 0 (those add 0 to every index). Modes of size 1 or stride 0
// compose with any a.
constexpr bool composition_admissible(FlatLayout const& a, FlatLayout const& b) {
  for (std::size_t k = 0; k < b.shape.size(); ++k) {
    if (b.shape[k] == 1 || b.stride[k] == 0) continue;
    if (!composition_admissible_mode(a.shape, b.shape[k], b.stride[k])) return false;
  }
  return true;
}

// "Tractable" for complement: after dropping size-1 and stride-0 leaves and sorting by stride,
// every stride is a multiple of the previous leaf's shape*stride. Then (a, complement(a, c)) for
// c a multiple of the last shape*stride is a bijection onto [0, c).
constexpr bool complement_tractable(FlatLayout const& a, Index* span = nullptr) {
  std::vector<std::pair<Index, Index>> modes;  // (stride, shape)
  for (std::size_t k = 0; k < a.shape.size(); ++k)
    if (a.shape[k] != 1 && a.stride[k] != 0) modes.push_back({a.stride[k], a.shape[k]});
  std::sort(modes.begin(), modes.end());
  Index cur = 1;
  for (auto [d, s] : modes) {
    if (d <= 0 || d % cur != 0) return false;
    cur = d * s;
  }
  if (span) *span = cur;
  return true;
}

// CuTe's complement of a tractable layout, computed independently: the gaps between the sorted
// modes, then the repetition up to cotarget; size-1 modes dropped. The last mode is the
// repetition, so a later composition may run past it (CuTe's unbounded last mode).
constexpr FlatLayout reference_complement(FlatLayout const& a, Index cotarget) {
  std::vector<std::pair<Index, Index>> modes;  // (stride, shape)
  for (std::size_t k = 0; k < a.shape.size(); ++k)
    if (a.shape[k] != 1 && a.stride[k] != 0) modes.push_back({a.stride[k], a.shape[k]});
  std::sort(modes.begin(), modes.end());
  FlatLayout r;
  Index cur = 1;
  for (auto [d, s] : modes) {
    if (d / cur != 1) {
      r.shape.push_back(d / cur);
      r.stride.push_back(cur);
    }
    cur = d * s;
  }
  r.shape.push_back((cotarget + cur - 1) / cur);
  r.stride.push_back(cur);
  return r;
}

// ---- structures --------------------------------------------------------------------------------

// Each structure builds a shape (or stride) of a fixed hierarchy from its leaves, given in
// colexicographic order as a std::array (dynamic leaves) or a std::tuple of static integers.
namespace structure {
using strata::make_shape;
struct Int1 {  // s
  static constexpr int leaves = 1;
  template <class V> static auto build(V const& v) { return std::get<0>(v); }
};
struct Tup1 {  // (s)
  static constexpr int leaves = 1;
  template <class V> static auto build(V const& v) { return make_shape(std::get<0>(v)); }
};
struct Tup2 {  // (s,s)
  static constexpr int leaves = 2;
  template <class V> static auto build(V const& v) { return make_shape(std::get<0>(v), std::get<1>(v)); }
};
struct Tup3 {  // (s,s,s)
  static constexpr int leaves = 3;
  template <class V> static auto build(V const& v) { return make_shape(std::get<0>(v), std::get<1>(v), std::get<2>(v)); }
};
struct Tup4 {  // (s,s,s,s)
  static constexpr int leaves = 4;
  template <class V> static auto build(V const& v) { return make_shape(std::get<0>(v), std::get<1>(v), std::get<2>(v), std::get<3>(v)); }
};
struct R_2 {  // (s,(s,s))
  static constexpr int leaves = 3;
  template <class V> static auto build(V const& v) { return make_shape(std::get<0>(v), make_shape(std::get<1>(v), std::get<2>(v))); }
};
struct L_2 {  // ((s,s),s)
  static constexpr int leaves = 3;
  template <class V> static auto build(V const& v) { return make_shape(make_shape(std::get<0>(v), std::get<1>(v)), std::get<2>(v)); }
};
struct LR {  // ((s,s),(s,s))
  static constexpr int leaves = 4;
  template <class V> static auto build(V const& v) {
    return make_shape(make_shape(std::get<0>(v), std::get<1>(v)), make_shape(std::get<2>(v), std::get<3>(v)));
  }
};
struct Deep3 {  // (s,(s,(s,s)))
  static constexpr int leaves = 4;
  template <class V> static auto build(V const& v) {
    return make_shape(std::get<0>(v), make_shape(std::get<1>(v), make_shape(std::get<2>(v), std::get<3>(v))));
  }
};
struct Deep3L {  // ((s,(s,s)),s)
  static constexpr int leaves = 4;
  template <class V> static auto build(V const& v) {
    return make_shape(make_shape(std::get<0>(v), make_shape(std::get<1>(v), std::get<2>(v))), std::get<3>(v));
  }
};
struct Mid {  // (s,(s,s),s)
  static constexpr int leaves = 4;
  template <class V> static auto build(V const& v) {
    return make_shape(std::get<0>(v), make_shape(std::get<1>(v), std::get<2>(v)), std::get<3>(v));
  }
};
}  // namespace structure

template <class F>
void for_each_structure(F&& f) {
  f(structure::Int1{});
  f(structure::Tup1{});
  f(structure::Tup2{});
  f(structure::Tup3{});
  f(structure::Tup4{});
  f(structure::R_2{});
  f(structure::L_2{});
  f(structure::LR{});
  f(structure::Deep3{});
  f(structure::Deep3L{});
  f(structure::Mid{});
}

// ---- random flat layouts -----------------------------------------------------------------------

enum class StrideKind { Compact, CompactGaps, Permuted, PermutedGaps, Random, WithZeros };
inline constexpr StrideKind kAllStrideKinds[] = {StrideKind::Compact,      StrideKind::CompactGaps,
                                                 StrideKind::Permuted,     StrideKind::PermutedGaps,
                                                 StrideKind::Random,       StrideKind::WithZeros};

enum class ShapeKind { Any, PowerOfTwo };

inline std::vector<Index> random_shape(std::mt19937& rng, int leaves, ShapeKind kind, int max_extent = 8) {
  std::vector<Index> s(std::size_t(leaves), 1);
  for (auto& x : s) {
    if (kind == ShapeKind::PowerOfTwo) {
      int e = std::uniform_int_distribution<int>(0, 3)(rng);
      x = Index(1) << e;
      while (x > max_extent) x /= 2;
    } else {
      x = std::uniform_int_distribution<int>(1, max_extent)(rng);
    }
  }
  return s;
}

// Strides for a shape. Compact kinds use exclusive prefix products (in identity or permuted
// order); the gap kinds multiply the running product by a factor in {1, 2, 3} (or {1, 2} for
// power-of-two layouts) before each leaf.
inline std::vector<Index> random_stride(std::mt19937& rng, std::vector<Index> const& shape, StrideKind kind,
                                        ShapeKind shape_kind = ShapeKind::Any) {
  std::size_t n = shape.size();
  std::vector<Index> d(n, 0);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  bool permute = kind == StrideKind::Permuted || kind == StrideKind::PermutedGaps;
  bool gaps = kind == StrideKind::CompactGaps || kind == StrideKind::PermutedGaps;
  if (kind == StrideKind::Random || kind == StrideKind::WithZeros) {
    for (std::size_t k = 0; k < n; ++k) {
      if (shape_kind == ShapeKind::PowerOfTwo)
        d[k] = Index(1) << std::uniform_int_distribution<int>(0, 5)(rng);
      else
        d[k] = std::uniform_int_distribution<int>(1, 24)(rng);
      if (kind == StrideKind::WithZeros && std::uniform_int_distribution<int>(0, 2)(rng) == 0) d[k] = 0;
    }
    return d;
  }
  if (permute) std::shuffle(order.begin(), order.end(), rng);
  Index cur = 1;
  for (std::size_t k : order) {
    if (gaps) cur *= std::uniform_int_distribution<int>(1, shape_kind == ShapeKind::PowerOfTwo ? 2 : 3)(rng);
    d[k] = cur;
    cur *= shape[k];
  }
  return d;
}

inline FlatLayout random_flat(std::mt19937& rng, int leaves, StrideKind kind, ShapeKind shape_kind,
                              int max_extent = 8) {
  FlatLayout f;
  f.shape = random_shape(rng, leaves, shape_kind, max_extent);
  f.stride = random_stride(rng, f.shape, kind, shape_kind);
  return f;
}

// Sets leaves of f to size 1, each with chance 1/4 and the last one with chance 1/2 (strides
// kept): a layout continues past its size along its last leaf, even one of size 1.
inline void sprinkle_unit_leaves(std::mt19937& rng, FlatLayout& f) {
  for (std::size_t k = 0; k < f.shape.size(); ++k) {
    int chance = k + 1 == f.shape.size() ? 2 : 4;
    if (std::uniform_int_distribution<int>(0, chance - 1)(rng) == 0) f.shape[k] = 1;
  }
}

// The library layout of structure S holding the leaves of f, with leaves of type T.
template <class S, class T = int>
auto to_layout(FlatLayout const& f) {
  std::array<T, 8> s{}, d{};
  for (std::size_t k = 0; k < f.shape.size(); ++k) {
    s[k] = T(f.shape[k]);
    d[k] = T(f.stride[k]);
  }
  return strata::make_layout(S::build(s), S::build(d));
}

// Calls f(layout, flat) for `per_structure` random layouts of every structure and stride kind.
template <class F>
void for_random_layouts(unsigned seed, int per_structure, ShapeKind shape_kind, F&& f) {
  std::mt19937 rng(seed);
  for_each_structure([&](auto st) {
    using S = decltype(st);
    for (int n = 0; n < per_structure; ++n) {
      StrideKind kind = kAllStrideKinds[std::size_t(n) % std::size(kAllStrideKinds)];
      FlatLayout flat = random_flat(rng, S::leaves, kind, shape_kind);
      f(to_layout<S>(flat), flat);
    }
  });
}

// ---- static layouts ----------------------------------------------------------------------------

// Static generators draw their layouts in a constant expression and build the types from them.
using AllStructures = std::tuple<structure::Int1, structure::Tup1, structure::Tup2, structure::Tup3,
                                 structure::Tup4, structure::R_2, structure::L_2, structure::LR,
                                 structure::Deep3, structure::Deep3L, structure::Mid>;

// The number of leaves of structure i of the type list Structures.
template <class Structures>
constexpr int leaves_of(int i) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    constexpr int leaves[] = {std::tuple_element_t<Is, Structures>::leaves...};
    return leaves[i];
  }(std::make_index_sequence<std::tuple_size_v<Structures>>{});
}

// A linear congruential generator usable in constant expressions: r(n) is in [0, n).
struct Lcg {
  std::uint64_t x;
  constexpr int operator()(int n) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return int((x >> 33) % std::uint64_t(n));
  }
};

// The first `leaves` entries of s and d as a FlatLayout.
constexpr FlatLayout flat_of(std::array<int, 4> const& s, std::array<int, 4> const& d, int leaves) {
  FlatLayout f;
  for (int k = 0; k < leaves; ++k) {
    f.shape.push_back(s[std::size_t(k)]);
    f.stride.push_back(d[std::size_t(k)]);
  }
  return f;
}

// The IntTuple of structure S whose leaves are the static integers V[0], V[1], ...
template <class S, std::array<int, 4> V>
auto static_leaves() {
  return [&]<std::size_t... Ks>(std::index_sequence<Ks...>) { return S::build(std::tuple<strata::Int<V[Ks]>...>{}); }(
      std::make_index_sequence<S::leaves>{});
}

}  // namespace strata_test
