// Strata: layouts whose values are coordinates, not offsets — the machinery of identity tensors.
//
// Predication needs, for every element a thread touches, the element's coordinate in the whole
// matrix, so it can ask "is it inside (M, N)?". Partitioning a tensor of coordinates exactly like
// the data gives each thread those coordinates. A layout with integer strides cannot hold them: it
// folds (m, n) into one integer m + n*M, and a tile that hangs past row M would decode to a wrong
// (m - M, n + 1). So, as in CuTe, the strides of an identity layout are basis vectors: `E<i>` is
// the unit vector of mode i, `v * E<i>` a `ScaledBasis`, and sums of them an `ArithmeticTuple`,
// one integer per mode that never spills into its neighbour. The layout algebra only multiplies
// strides by integers and adds the products, so it runs on these strides unchanged.
#pragma once

#include <ostream>

#include "io.hpp"
#include "layout_base.hpp"

namespace strata {

// ScaledBasis<V, I>: the value v in mode I, 0 in every other mode. Empty when V is static.
template <class V, int I>
struct ScaledBasis {
  V v;
  STRATA_HD V value() const { return v; }
};
template <class V, int I>
  requires std::is_empty_v<V>
struct ScaledBasis<V, I> {
  ScaledBasis() = default;
  STRATA_HD ScaledBasis(V) {}
  STRATA_HD V value() const { return V{}; }
};

// E<I>: the unit vector of mode I.
template <int I>
using E = ScaledBasis<Int<1>, I>;

// A basis vector is a stride leaf: the algebra may build layouts with it.
template <class V, int I>
struct is_int_tuple<ScaledBasis<V, I>> : std::true_type {};

// ArithmeticTuple<Ts...>: a coordinate that adds element by element (missing trailing modes are 0).
template <class... Ts>
struct ArithmeticTuple {
  tuple<Ts...> values;
};

template <class T>
struct is_coord_vector : std::false_type {};
template <class V, int I>
struct is_coord_vector<ScaledBasis<V, I>> : std::true_type {};
template <class... Ts>
struct is_coord_vector<ArithmeticTuple<Ts...>> : std::true_type {};
template <class T>
concept CoordVector = is_coord_vector<std::remove_cvref_t<T>>::value;

namespace detail {
template <class V, int I>
STRATA_HD auto as_tuple(ScaledBasis<V, I> const& b) {
  return tuple_cat(repeat<I>(Int<0>{}), make_tuple(b.value()));
}
template <class... Ts>
STRATA_HD auto as_tuple(ArithmeticTuple<Ts...> const& a) {
  return a.values;
}
template <int N, Tuple T>
STRATA_HD auto pad_zeros(T const& t) {
  static_assert(rank_v<T> <= N, "coordinate sum: a basis vector names a mode the coordinate lacks");
  return tuple_cat(t, repeat<N - rank_v<T>>(Int<0>{}));
}
// (a + b) element by element over the longer of the two ranks.
template <Tuple A, Tuple B>
STRATA_HD auto add_padded(A const& a, B const& b) {
  constexpr int N = rank_v<A> > rank_v<B> ? rank_v<A> : rank_v<B>;
  return transform(pad_zeros<N>(a), pad_zeros<N>(b), [](auto const& x, auto const& y) { return x + y; });
}
template <class... Ts>
STRATA_HD auto make_arithmetic_tuple(tuple<Ts...> const& t) {
  return ArithmeticTuple<Ts...>{t};
}
}  // namespace detail

// ---- arithmetic: integer * basis, and sums -----------------------------------------------------

template <Integer N, class V, int I>
STRATA_HD auto operator*(N const& n, ScaledBasis<V, I> const& b) {
  return ScaledBasis<decltype(n * b.value()), I>{n * b.value()};
}
template <Integer N, class V, int I>
STRATA_HD auto operator*(ScaledBasis<V, I> const& b, N const& n) {
  return ScaledBasis<decltype(b.value() * n), I>{b.value() * n};
}
// A static zero times anything stays a static zero, so offsets of slices at `_` stay static.
template <class V, int I>
STRATA_HD Int<0> operator*(Int<0>, ScaledBasis<V, I> const&) { return {}; }
template <class V, int I>
STRATA_HD Int<0> operator*(ScaledBasis<V, I> const&, Int<0>) { return {}; }

template <CoordVector A, CoordVector B>
STRATA_HD auto operator+(A const& a, B const& b) {
  return detail::make_arithmetic_tuple(detail::add_padded(detail::as_tuple(a), detail::as_tuple(b)));
}
template <CoordVector A>
STRATA_HD A operator+(Int<0>, A const& a) { return a; }
template <CoordVector A>
STRATA_HD A operator+(A const& a, Int<0>) { return a; }

// ---- identity layouts --------------------------------------------------------------------------

namespace detail {
template <int I, class D>
STRATA_HD auto scale_leaves(D const& d) {
  if constexpr (Tuple<D>) {
    return transform(d, [](auto const& x) { return scale_leaves<I>(x); });
  } else {
    return d * E<I>{};
  }
}
}  // namespace detail

// make_identity_layout(shape): result(c) == the coordinate of c, one integer per top-level mode
// (a hierarchical mode i yields its colexicographic 1-D coordinate, times E<i>).
template <IntTuple S>
STRATA_HD auto make_identity_layout(S const& shape) {
  if constexpr (Tuple<S>) {
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_layout(shape, make_tuple(detail::scale_leaves<int(Is)>(compact_col_major(get<Is>(shape)))...));
    }(std::make_index_sequence<rank_v<S>>{});
  } else {
    return make_layout(shape, detail::scale_leaves<0>(compact_col_major(shape)));
  }
}

// CoordIterator<C>: the "pointer" of an identity tensor. It points at coordinate c; adding a layout
// value (a basis vector, a sum of them, or a static 0) moves it; dereferencing yields the coordinate.
template <class C>
struct CoordIterator {
  using value_type = C;
  C coord;

  STRATA_HD C operator*() const { return coord; }
  template <class Off>
  STRATA_HD auto operator+(Off const& off) const {
    if constexpr (is_constant_v<0, Off>) {
      return *this;
    } else {
      static_assert(CoordVector<Off>, "identity tensor: an offset must be a sum of basis vectors E<i>");
      if constexpr (Tuple<C>) {
        auto sum = detail::add_padded(coord, detail::as_tuple(off));
        static_assert(rank_v<decltype(sum)> == rank_v<C>, "identity tensor: an offset names a mode the coordinate lacks");
        return CoordIterator<decltype(sum)>{sum};
      } else {
        auto t = detail::as_tuple(off);
        static_assert(rank_v<decltype(t)> == 1, "identity tensor: a rank-1 coordinate has only mode 0");
        auto sum = coord + get<0>(t);
        return CoordIterator<decltype(sum)>{sum};
      }
    }
  }
  template <class Off>
  STRATA_HD auto operator[](Off const& off) const {
    return *(*this + off);
  }
};

// elem_less(a, b): a_i < b_i in every mode (recursively) — "coordinate a lies inside shape b".
template <class A, class B>
STRATA_HD bool elem_less(A const& a, B const& b) {
  if constexpr (Tuple<A> || Tuple<B>) {
    static_assert(Tuple<A> && Tuple<B> && rank_v<A> == rank_v<B>,
                  "elem_less: the coordinate and the shape must have the same rank");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return (true && ... && elem_less(get<Is>(a), get<Is>(b)));
    }(std::make_index_sequence<rank_v<A>>{});
  } else {
    return a < b;
  }
}

// Text form, as CuTe writes it: `v@i` for v * E<i>.
template <class V, int I>
std::ostream& operator<<(std::ostream& os, ScaledBasis<V, I> const& b) {
  return os << b.value() << '@' << I;
}
template <class... Ts>
std::ostream& operator<<(std::ostream& os, ArithmeticTuple<Ts...> const& a) {
  os << '(';
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    ((os << (Is == 0 ? "" : ",") << get<Is>(a.values)), ...);
  }(std::index_sequence_for<Ts...>{});
  return os << ')';
}

}  // namespace strata
