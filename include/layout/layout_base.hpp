// Strata: the Layout type — a function from coordinates to indices given by a Shape and a Stride —
// and its construction, accessors and evaluation. The algebra on layouts lives beside this file.
#pragma once

#include "int_tuple.hpp"

namespace strata {

template <class Shape_, class Stride_>
struct Layout;

template <class T>
struct is_layout : std::false_type {};
template <class S, class D>
struct is_layout<Layout<S, D>> : std::true_type {};
template <class T>
concept PlainLayout = is_layout<std::remove_cvref_t<T>>::value;

// Layout<Shape, Stride>: maps a coordinate c in Shape to the index inner_product(natural(c), Stride).
// Both members take no storage when static, so an all-static layout is an empty class.
template <class Shape_, class Stride_ = decltype(compact_col_major(Shape_{}))>
struct Layout : private detail::TupleBase<std::index_sequence<0, 1>, Shape_, Stride_> {
  static_assert(congruent_v<Shape_, Stride_>, "Layout: the shape and the stride must be congruent");
  using Shape = Shape_;
  using Stride = Stride_;
  using Base = detail::TupleBase<std::index_sequence<0, 1>, Shape_, Stride_>;

  Layout() = default;
  STRATA_HD Layout(Shape const& shape, Stride const& stride) : Base(shape, stride) {}
  STRATA_HD explicit Layout(Shape const& shape) : Base(shape, compact_col_major(shape)) {}

  STRATA_HD decltype(auto) shape() const {
    return static_cast<detail::TupleLeaf<0, Shape> const&>(*this).get();
  }
  STRATA_HD decltype(auto) stride() const {
    return static_cast<detail::TupleLeaf<1, Stride> const&>(*this).get();
  }

  static constexpr int rank = rank_v<Shape>;

  // l(c): the index of coordinate c (an integer, a natural or a hierarchical coordinate).
  // A coordinate holding `_` slices instead: the result is the sub-layout of the `_` modes.
  template <class Coord>
  STRATA_HD auto operator()(Coord const& c) const {
    if constexpr (has_underscore_v<Coord>) {
      return make_layout_from(slice(c, shape()), slice(c, stride()));
    } else {
      return crd2idx(c, shape(), stride());
    }
  }
  template <class C0, class C1, class... Cs>
  STRATA_HD auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_tuple(c0, c1, cs...));
  }

 private:
  template <class S, class D>
  STRATA_HD static auto make_layout_from(S const& s, D const& d) {
    return Layout<S, D>(s, d);
  }
};

// Layouts are equal when their shapes and strides are equal value by value.
template <class S0, class D0, class S1, class D1>
STRATA_HD bool operator==(Layout<S0, D0> const& a, Layout<S1, D1> const& b) {
  return congruent_v<S0, S1> && wrap(a.shape()) == wrap(b.shape()) && wrap(a.stride()) == wrap(b.stride());
}

// Tags for the compact orders of make_layout(shape, order).
struct LayoutLeft {};   // column-major: mode 0 fastest
struct LayoutRight {};  // row-major: last mode fastest

// ---- construction ------------------------------------------------------------------------------

template <class S, class D>
  requires(IntTuple<S> && IntTuple<D>)
STRATA_HD auto make_layout(S const& shape, D const& stride) {
  return Layout<S, D>(shape, stride);
}
template <class S>
  requires IntTuple<S>
STRATA_HD auto make_layout(S const& shape) {
  return make_layout(shape, compact_col_major(shape));
}
template <class S>
  requires IntTuple<S>
STRATA_HD auto make_layout(S const& shape, LayoutLeft) {
  return make_layout(shape, compact_col_major(shape));
}
template <class S>
  requires IntTuple<S>
STRATA_HD auto make_layout(S const& shape, LayoutRight) {
  return make_layout(shape, compact_row_major(shape));
}
// make_layout(l0, l1, ...): the layout whose mode i is li.
template <PlainLayout L0, PlainLayout... Ls>
STRATA_HD auto make_layout(L0 const& l0, Ls const&... ls) {
  return make_layout(make_tuple(l0.shape(), ls.shape()...), make_tuple(l0.stride(), ls.stride()...));
}

// ---- accessors ---------------------------------------------------------------------------------

template <int... Is, class S, class D>
STRATA_HD decltype(auto) shape(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) { return l.shape(); } else { return get<Is...>(l.shape()); }
}
template <int... Is, class S, class D>
STRATA_HD decltype(auto) stride(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) { return l.stride(); } else { return get<Is...>(l.stride()); }
}
template <int... Is, IntTuple T>
STRATA_HD decltype(auto) shape(T const& s) {
  if constexpr (sizeof...(Is) == 0) { return s; } else { return get<Is...>(s); }
}

// layout<I...>(l): the sub-layout of mode I (of mode J of mode I, ...).
template <int... Is, class S, class D>
STRATA_HD auto layout(Layout<S, D> const& l) {
  if constexpr (sizeof...(Is) == 0) {
    return l;
  } else {
    return make_layout(get<Is...>(l.shape()), get<Is...>(l.stride()));
  }
}

// size: the number of coordinates of the domain (the product of the shape).
template <int... Is, class T>
STRATA_HD auto size(T const& t) {
  if constexpr (PlainLayout<T>) {
    return product(shape<Is...>(t));
  } else if constexpr (IntTuple<T>) {
    if constexpr (sizeof...(Is) == 0) { return product(t); } else { return product(get<Is...>(t)); }
  } else {
    return size<Is...>(t.layout());  // tensors and composed layouts expose layout()
  }
}

// rank: the number of top-level modes, as a static integer.
template <int... Is, class T>
STRATA_HD auto rank(T const& t) {
  if constexpr (PlainLayout<T>) {
    return Int<rank_v<std::remove_cvref_t<decltype(shape<Is...>(t))>>>{};
  } else if constexpr (IntTuple<T>) {
    return Int<rank_v<std::remove_cvref_t<decltype(shape<Is...>(t))>>>{};
  } else {
    return rank<Is...>(t.layout());
  }
}

template <int... Is, class S, class D>
STRATA_HD auto depth(Layout<S, D> const& l) {
  return depth(shape<Is...>(l));
}

// cosize(l) == l(size(l) - 1) + 1: one past the largest index, for non-negative strides.
template <int... Is, class S, class D>
STRATA_HD auto cosize(Layout<S, D> const& l) {
  auto sub = layout<Is...>(l);
  return sub(size(sub) - Int<1>{}) + Int<1>{};
}

// crd2idx/idx2crd with a layout.
template <class C, class S, class D>
STRATA_HD auto crd2idx(C const& coord, Layout<S, D> const& l) {
  return crd2idx(coord, l.shape(), l.stride());
}

// ---- restructuring -----------------------------------------------------------------------------

// flatten(l): same function, every leaf mode at the top level.
template <class S, class D>
STRATA_HD auto flatten(Layout<S, D> const& l) {
  return make_layout(flatten(l.shape()), flatten(l.stride()));
}

// append(l, x): l with x (a layout, default 1:0) as a new last mode; append<N>(l, x) pads to rank N.
template <class S, class D, class X = Layout<Int<1>, Int<0>>>
STRATA_HD auto append(Layout<S, D> const& l, X const& x = {}) {
  return make_layout(tuple_cat(wrap(l.shape()), make_tuple(x.shape())),
                     tuple_cat(wrap(l.stride()), make_tuple(x.stride())));
}
template <int N, class S, class D, class X = Layout<Int<1>, Int<0>>>
STRATA_HD auto append(Layout<S, D> const& l, X const& x = {}) {
  constexpr int R = rank_v<S>;
  static_assert(N >= R, "append<N>: N must not be smaller than the rank of the layout");
  if constexpr (N == R) {
    return make_layout(wrap(l.shape()), wrap(l.stride()));
  } else {
    return append<N>(append(l, x), x);
  }
}
// prepend(l, x): l with x as a new first mode.
template <class S, class D, class X = Layout<Int<1>, Int<0>>>
STRATA_HD auto prepend(Layout<S, D> const& l, X const& x = {}) {
  return make_layout(tuple_cat(make_tuple(x.shape()), wrap(l.shape())),
                     tuple_cat(make_tuple(x.stride()), wrap(l.stride())));
}

// select<I...>(l): the layout of modes I..., in that order.
template <int... Is, class S, class D>
STRATA_HD auto select(Layout<S, D> const& l) {
  return make_layout(make_tuple(get<Is>(wrap(l.shape()))...), make_tuple(get<Is>(wrap(l.stride()))...));
}

// take<B, E>(l): modes [B, E) of l.
template <int B, int E, class S, class D>
STRATA_HD auto take(Layout<S, D> const& l) {
  return make_layout(take<B, E>(wrap(l.shape())), take<B, E>(wrap(l.stride())));
}

// group<B, E>(l): modes [B, E) of l gathered into one mode; the others unchanged.
template <int B, int E, class S, class D>
STRATA_HD auto group(Layout<S, D> const& l) {
  constexpr int R = rank_v<S>;
  static_assert(0 <= B && B < E && E <= R, "group: need 0 <= B < E <= rank");
  auto s = wrap(l.shape());
  auto d = wrap(l.stride());
  return make_layout(tuple_cat(take<0, B>(s), make_tuple(take<B, E>(s)), take<E, R>(s)),
                     tuple_cat(take<0, B>(d), make_tuple(take<B, E>(d)), take<E, R>(d)));
}

// zip_layouts(a, b): mode i of the result is (a_i, b_i); a and b of equal rank.
template <class SA, class DA, class SB, class DB>
STRATA_HD auto zip_layouts(Layout<SA, DA> const& a, Layout<SB, DB> const& b) {
  static_assert(rank_v<SA> == rank_v<SB>, "zip: both layouts must have the same rank");
  return make_layout(transform(wrap(a.shape()), wrap(b.shape()), [](auto x, auto y) { return make_tuple(x, y); }),
                     transform(wrap(a.stride()), wrap(b.stride()), [](auto x, auto y) { return make_tuple(x, y); }));
}

// slice_and_offset(c, l): the sub-layout l(c) for a coordinate with `_`, and the index of its origin.
template <class C, class S, class D>
STRATA_HD auto slice_and_offset(C const& c, Layout<S, D> const& l) {
  return make_tuple(make_layout(slice(c, l.shape()), slice(c, l.stride())),
                    crd2idx(underscore_to_zero(c), l.shape(), l.stride()));
}

}  // namespace strata
