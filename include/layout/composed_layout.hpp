// Strata: composed layouts — a function applied to a layout's index after an offset,
// f(c) = A(offset + B(c)).
//
// B is a plain layout and owns the domain: shape, size, rank and every reshaping or tiling of the
// domain are B's, so the algebra that rearranges a domain (composition with a tiler, divides,
// products, tile_to_shape) is applied to B and keeps A and the offset. A is any function of an
// index, in practice a swizzle (swizzle.hpp) or a layout. A is not additive, A(o + x) !=
// A(o) + A(x), which is why it cannot be folded into B and why the origin of a slice has to stay
// inside the composed layout (see slice_and_offset).
//
// What A must offer, found by argument-dependent lookup: `a(x)` on an integer index; for cosize,
// `image_bound(a, n)`; for slicing, optionally `translation_period(a)`; for upcast/downcast,
// `upcast<N>(a)` / `downcast<N>(a)`; for composition from the left, `composition(layout, a)`.
#pragma once

#include "layout.hpp"

namespace strata {

template <class A, class Offset, class B>
struct ComposedLayout;

// translation_period(f): a static power of two P with f(x + k*P) == f(x) + k*P whenever x >= 0 and
// x + k*P >= 0, or _0 when none is known (the default; swizzle.hpp gives a swizzle's).
template <class F>
STRATA_HD Int<0> translation_period(F const&) {
  return {};
}

namespace detail {
template <int P, class T>
constexpr bool is_static_multiple() {
  if constexpr (StaticInt<T>) {
    return T::value % P == 0;
  } else {
    return false;
  }
}
template <int P, class Flat>
struct all_static_multiples;
template <int P, class... Ts>
struct all_static_multiples<P, tuple<Ts...>> : Bool<(is_static_multiple<P, Ts>() && ...)> {};

// (lo, hi) with lo + hi == x, 0 <= lo < P and hi a multiple of P, for a static x; P a power of two.
template <int P, StaticInt X>
STRATA_HD auto split_at_multiple(X const&) {
  static_assert(P > 0 && (P & (P - 1)) == 0, "slice_and_offset: a translation period must be a power of two");
  constexpr int lo = int(X::value) & (P - 1);
  return make_tuple(Int<lo>{}, Int<int(X::value) - lo>{});
}

// crd2idx_split<P>(coord, shape, stride) == (lo, hi): lo + hi == crd2idx(coord, shape, stride) and hi
// a multiple of P, with as much as can be known moved into hi without run-time work. Per term: a
// static term is split statically, a term whose stride is a static multiple of P goes to hi whole,
// any other dynamic term stays in lo. A function with translation period P then evaluates as
// A(o + lo) + hi: the address of one element of a swizzled tile becomes one swizzled base per
// distinct static remainder plus constants, which the compiler folds into immediate offsets.
template <int P, class C, class S, class D>
STRATA_HD auto crd2idx_split(C const& coord, S const& shape, D const& stride) {
  if constexpr (Tuple<C>) {
    static_assert(Tuple<S> && Tuple<D> && rank_v<C> == rank_v<S>,
                  "crd2idx: the coordinate must have the rank of the shape");
    return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      auto parts = make_tuple(crd2idx_split<P>(get<Is>(coord), get<Is>(shape), get<Is>(stride))...);
      return make_tuple((Int<0>{} + ... + get<0>(get<Is>(parts))), (Int<0>{} + ... + get<1>(get<Is>(parts))));
    }(std::make_index_sequence<rank_v<C>>{});
  } else {
    auto x = crd2idx(coord, shape, stride);
    if constexpr (StaticInt<decltype(x)>) {
      return split_at_multiple<P>(x);
    } else if constexpr (all_static_multiples<P, decltype(flatten_to_tuple(stride))>::value) {
      return make_tuple(Int<0>{}, x);
    } else {
      return make_tuple(x, Int<0>{});
    }
  }
}
}  // namespace detail


template <class T>
struct is_composed_layout : std::false_type {};
template <class A, class O, class B>
struct is_composed_layout<ComposedLayout<A, O, B>> : std::true_type {};
template <class T>
inline constexpr bool is_composed_layout_v = is_composed_layout<std::remove_cvref_t<T>>::value;

template <class T>
concept ComposedLayoutType = is_composed_layout_v<T>;

// AnyLayout: what a tensor may be laid out by. Both kinds offer shape(), evaluation l(c) and l(i),
// slicing l(c with `_`), size, size<I>, rank, cosize, shape<I>, layout<I> and slice_and_offset.
template <class T>
concept AnyLayout = PlainLayout<T> || ComposedLayoutType<T>;

// ComposedLayout<A, Offset, B>: maps a coordinate c of B's domain to A(offset + B(c)). Members
// that are static take no storage, so an all-static composed layout is an empty class.
template <class A, class Offset, class B>
struct ComposedLayout : private detail::TupleBase<std::index_sequence<0, 1, 2>, A, Offset, B> {
  static_assert(PlainLayout<B>, "ComposedLayout: the inner layout B must be a plain Layout");
  static_assert(Integer<Offset>, "ComposedLayout: the offset must be an integer");
  using LayoutA = A;
  using OffsetType = Offset;
  using LayoutB = B;
  using Base = detail::TupleBase<std::index_sequence<0, 1, 2>, A, Offset, B>;

  ComposedLayout() = default;
  STRATA_HD ComposedLayout(A const& a, Offset const& offset, B const& b) : Base(a, offset, b) {}

  STRATA_HD decltype(auto) layout_a() const { return static_cast<detail::TupleLeaf<0, A> const&>(*this).get(); }
  STRATA_HD decltype(auto) offset() const { return static_cast<detail::TupleLeaf<1, Offset> const&>(*this).get(); }
  STRATA_HD decltype(auto) layout_b() const { return static_cast<detail::TupleLeaf<2, B> const&>(*this).get(); }
  STRATA_HD decltype(auto) shape() const { return layout_b().shape(); }

  static constexpr int rank = B::rank;

  // l(c) == A(offset + B(c)). A coordinate holding `_` slices: the result is the composed layout
  // of the `_` modes, result(x) == l(c with its `_` replaced by x). Unlike a plain layout's slice,
  // which drops its origin (a tensor adds it to its pointer), this one keeps the origin in its
  // offset, since A must see the whole index; slice_and_offset pulls out what can be pulled out.
  template <class Coord>
  STRATA_HD auto operator()(Coord const& c) const {
    if constexpr (has_underscore_v<Coord>) {
      auto sub = slice_and_offset(c, layout_b());
      auto o = offset() + get<1>(sub);
      return ComposedLayout<A, decltype(o), decltype(get<0>(sub))>(layout_a(), o, get<0>(sub));
    } else {
      constexpr int P = decltype(translation_period(layout_a()))::value;
      if constexpr (P == 0) {
        return layout_a()(offset() + layout_b()(c));
      } else {
        // A(offset + lo + hi) == A(offset + lo) + hi: only what the period does not cover goes
        // through A, so elements a whole number of periods apart share one evaluation of A.
        auto lo_hi = detail::crd2idx_split<P>(c, layout_b().shape(), layout_b().stride());
        return layout_a()(offset() + get<0>(lo_hi)) + get<1>(lo_hi);
      }
    }
  }
  template <class C0, class C1, class... Cs>
  STRATA_HD auto operator()(C0 const& c0, C1 const& c1, Cs const&... cs) const {
    return (*this)(make_tuple(c0, c1, cs...));
  }
};

// make_composed_layout(a, o, b)(c) == a(o + b(c)) for every c in b's domain.
template <class A, Integer O, PlainLayout B>
STRATA_HD auto make_composed_layout(A const& a, O const& offset, B const& b) {
  return ComposedLayout<A, O, B>(a, offset, b);
}

// composition(a, o, b)(c) == a(o + b(c)) for every c in b's domain (swizzle.hpp drops an identity
// swizzle at offset 0 and returns b).
template <class A, Integer O, class S, class D>
STRATA_HD auto composition(A const& a, O const& offset, Layout<S, D> const& b) {
  return make_composed_layout(a, offset, b);
}

// Composed layouts are equal when their functions, offsets and inner layouts are equal.
template <class A0, class O0, class B0, class A1, class O1, class B1>
STRATA_HD bool operator==(ComposedLayout<A0, O0, B0> const& x, ComposedLayout<A1, O1, B1> const& y) {
  return bool(x.layout_a() == y.layout_a()) && bool(x.offset() == y.offset()) && x.layout_b() == y.layout_b();
}

// ---- accessors: the domain is B's ---------------------------------------------------------------

// shape, size, rank and depth of l (of its mode I...) == those of B.
template <int... Is, class A, class O, class B>
STRATA_HD decltype(auto) shape(ComposedLayout<A, O, B> const& l) {
  return shape<Is...>(l.layout_b());
}
template <int... Is, class A, class O, class B>
STRATA_HD auto size(ComposedLayout<A, O, B> const& l) {
  return size<Is...>(l.layout_b());
}
template <int... Is, class A, class O, class B>
STRATA_HD auto rank(ComposedLayout<A, O, B> const& l) {
  return rank<Is...>(l.layout_b());
}
template <int... Is, class A, class O, class B>
STRATA_HD auto depth(ComposedLayout<A, O, B> const& l) {
  return depth<Is...>(l.layout_b());
}

// layout<I...>(l)(c) == l(c placed in mode I, 0 elsewhere): the composed layout of one mode.
template <int... Is, class A, class O, class B>
STRATA_HD auto layout(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), layout<Is...>(l.layout_b()));
}

// crd2idx(c, l) == l(c).
template <class C, class A, class O, class B>
STRATA_HD auto crd2idx(C const& c, ComposedLayout<A, O, B> const& l) {
  return l(c);
}

// image_bound(a, n) for a layout a: 0 <= a(x) < result for every 0 <= x < n <= size(a), strides
// non-negative.
template <class S, class D, class N>
STRATA_HD auto image_bound(Layout<S, D> const& a, N const&) {
  return cosize(a);
}

// cosize(l) > l(c) >= 0 for every c in the domain (of mode I): a buffer of cosize(l) elements holds
// everything l reaches. Exact where A leaves the indices below O + cosize(B) in place, or where B
// fills whole periods of a swizzle; an upper bound otherwise. B's strides must be non-negative.
template <int... Is, class A, class O, class B>
STRATA_HD auto cosize(ComposedLayout<A, O, B> const& l) {
  auto sub = layout<Is...>(l.layout_b());
  static_assert(requires { image_bound(l.layout_a(), l.offset() + cosize(sub)); },
                "cosize: the outer function of a composed layout must say how far it reaches "
                "(image_bound): a swizzle or a layout");
  return image_bound(l.layout_a(), l.offset() + cosize(sub));
}

// ---- restructuring: each keeps the function and changes only B ---------------------------------

// flatten(l)(i) == l(i), every mode of the result a leaf.
template <class A, class O, class B>
STRATA_HD auto flatten(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), flatten(l.layout_b()));
}
// coalesce(l)(i) == l(i) for every i < size(l); B coalesced as coalesce(B) says.
template <class A, class O, class B>
STRATA_HD auto coalesce(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), coalesce(l.layout_b()));
}
// take<Begin, End>(l): modes [Begin, End) of l, same function on them.
template <int Begin, int End, class A, class O, class B>
STRATA_HD auto take(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), take<Begin, End>(l.layout_b()));
}
// select<I...>(l): modes I... of l, in that order.
template <int... Is, class A, class O, class B>
STRATA_HD auto select(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), select<Is...>(l.layout_b()));
}
// group<Begin, End>(l): modes [Begin, End) of l gathered into one mode.
template <int Begin, int End, class A, class O, class B>
STRATA_HD auto group(ComposedLayout<A, O, B> const& l) {
  return make_composed_layout(l.layout_a(), l.offset(), group<Begin, End>(l.layout_b()));
}

// ---- slicing ------------------------------------------------------------------------------------


// slice_and_offset(c, l) == (s, k) with s(x) + k == l(c with its `_` replaced by x) for every x.
// k is the part of the slice's origin that provably commutes with A, found term by term
// (crd2idx_split): static terms split statically, terms whose stride is a static multiple of A's
// translation period move out whole (all of the origin when every sliced-off stride is one), the
// rest stays inside A in s's offset. Nothing (k == _0) when A has no known period.
template <class C, class A, class O, class B>
STRATA_HD auto slice_and_offset(C const& c, ComposedLayout<A, O, B> const& l) {
  auto sub_and_origin = slice_and_offset(c, l.layout_b());
  auto sub = get<0>(sub_and_origin);
  constexpr int P = decltype(translation_period(l.layout_a()))::value;
  if constexpr (P == 0) {
    return make_tuple(make_composed_layout(l.layout_a(), l.offset() + get<1>(sub_and_origin), sub), Int<0>{});
  } else {
    auto lo_hi = detail::crd2idx_split<P>(underscore_to_zero(c), l.layout_b().shape(), l.layout_b().stride());
    return make_tuple(make_composed_layout(l.layout_a(), l.offset() + get<0>(lo_hi), sub), get<1>(lo_hi));
  }
}

// ---- composition --------------------------------------------------------------------------------

// composition(l, tiler)(c) == l(composition(B, tiler)(c)): the tiler rearranges B's domain.
template <class A, class O, class B, class T>
STRATA_HD auto composition(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), composition(l.layout_b(), tiler));
}

// composition(a, l)(c) == a(l(c)) for every c in l's domain. Needs l's offset statically 0: a is not
// additive, so a(o + x) cannot be split; a is moved through l's function A instead.
template <class SA, class DA, class A, class O, class B>
STRATA_HD auto composition(Layout<SA, DA> const& a, ComposedLayout<A, O, B> const& l) {
  static_assert(is_constant_v<0, O>,
                "composition: a layout composes with a composed layout only when its offset is statically 0");
  return composition(composition(a, l.layout_a()), l.layout_b());
}

// ---- divides and products: applied to B ----------------------------------------------------------
// Each is the plain operation on B seen through A: the same tiles, the same coordinates. For the
// divides this is the plain definition applied to l itself (logical_divide(l, t) ==
// composition(l, make_layout(t, complement(t, size(l))))). For the products A covers the whole
// product: the copies of B are laid out as the plain definition says and A is applied over them.
// That is what repeating a swizzle atom means: where the copies start at multiples of the swizzle's
// period (B fills whole periods), each copy is the atom moved by its start.

// logical_divide(l, t)(c) == A(offset + logical_divide(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto logical_divide(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), logical_divide(l.layout_b(), tiler));
}
// zipped_divide(l, t)(c) == A(offset + zipped_divide(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto zipped_divide(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), zipped_divide(l.layout_b(), tiler));
}
// tiled_divide(l, t)(c) == A(offset + tiled_divide(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto tiled_divide(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), tiled_divide(l.layout_b(), tiler));
}
// flat_divide(l, t)(c) == A(offset + flat_divide(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto flat_divide(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), flat_divide(l.layout_b(), tiler));
}
// logical_product(l, t)(c) == A(offset + logical_product(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto logical_product(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), logical_product(l.layout_b(), tiler));
}
// zipped_product(l, t)(c) == A(offset + zipped_product(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto zipped_product(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), zipped_product(l.layout_b(), tiler));
}
// tiled_product(l, t)(c) == A(offset + tiled_product(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto tiled_product(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), tiled_product(l.layout_b(), tiler));
}
// flat_product(l, t)(c) == A(offset + flat_product(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto flat_product(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), flat_product(l.layout_b(), tiler));
}
// blocked_product(l, t)(c) == A(offset + blocked_product(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto blocked_product(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), blocked_product(l.layout_b(), tiler));
}
// raked_product(l, t)(c) == A(offset + raked_product(B, t)(c))
template <class A, class O, class B, class T>
STRATA_HD auto raked_product(ComposedLayout<A, O, B> const& l, T const& tiler) {
  return make_composed_layout(l.layout_a(), l.offset(), raked_product(l.layout_b(), tiler));
}
// tile_to_shape(l, shape)(c) == A(offset + tile_to_shape(B, shape)(c)): how a kernel builds its
// swizzled shared-memory tile from a swizzle atom.
template <class A, class O, class B, class TS>
STRATA_HD auto tile_to_shape(ComposedLayout<A, O, B> const& l, TS const& target) {
  return make_composed_layout(l.layout_a(), l.offset(), tile_to_shape(l.layout_b(), target));
}

// ---- re-typing ----------------------------------------------------------------------------------

namespace detail {
template <int N, class O>
STRATA_HD auto upcast_offset(O const& o) {
  if constexpr (StaticInt<O>) {
    static_assert(O::value % N == 0, "upcast: the offset of a composed layout must be a multiple of N");
    return Int<O::value / N>{};
  } else {
    return O(o / N);
  }
}
}  // namespace detail

// upcast<N>(l): l in units N times larger: result(c) == l(c') / N where c' is the coordinate of the
// first old element of new element c; A is re-expressed in the new units (a swizzle's M drops by
// log2 N). The offset must be a multiple of N.
template <int N, class A, class O, class B>
STRATA_HD auto upcast(ComposedLayout<A, O, B> const& l) {
  return composition(upcast<N>(l.layout_a()), detail::upcast_offset<N>(l.offset()), upcast<N>(l.layout_b()));
}

// downcast<N>(l): l in units N times smaller: result(c') == N * l(c) for the first new element c' of
// old element c; a swizzle's M grows by log2 N.
template <int N, class A, class O, class B>
STRATA_HD auto downcast(ComposedLayout<A, O, B> const& l) {
  return composition(downcast<N>(l.layout_a()), l.offset() * Int<N>{}, downcast<N>(l.layout_b()));
}

// ---- text ---------------------------------------------------------------------------------------

// `A o offset o B`, e.g. `Sw<3,3,3> o _0 o (_8,_64):(_64,_1)`.
template <class A, class O, class B>
std::ostream& operator<<(std::ostream& os, ComposedLayout<A, O, B> const& l) {
  return os << l.layout_a() << " o " << l.offset() << " o " << l.layout_b();
}

}  // namespace strata
