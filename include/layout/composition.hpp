// Strata: coalesce, filter and composition.
#pragma once

#include "layout_base.hpp"

namespace strata {

namespace detail {
// Whether the flat modes (ps, pd) then (s, d) are statically known to be contiguous: ps*pd == d.
template <class PS, class PD, class D>
constexpr bool static_contiguous() {
  if constexpr (StaticInt<PS> && StaticInt<PD> && StaticInt<D>) {
    return PS::value * PD::value == D::value;
  } else {
    return false;
  }
}

// Appends the flat mode (s, d) to the flat layout (shapes, strides), merging it into the last mode
// when that is provably contiguous with it and dropping it when its size is statically 1 (kept
// with `KeepUnit`: a layout's last mode says where it continues past its size, even at size 1).
template <bool KeepUnit = false, class Shapes, class Strides, class S, class D>
STRATA_HD auto coalesce_push(Shapes const& shapes, Strides const& strides, S const& s, D const& d) {
  constexpr int R = rank_v<Shapes>;
  if constexpr (!KeepUnit && is_constant_v<1, S>) {
    return make_tuple(shapes, strides);
  } else if constexpr (R == 0) {
    return make_tuple(make_tuple(s), make_tuple(d));
  } else {
    using PS = std::remove_cvref_t<decltype(get<R - 1>(shapes))>;
    using PD = std::remove_cvref_t<decltype(get<R - 1>(strides))>;
    if constexpr (static_contiguous<PS, PD, D>()) {
      return make_tuple(replace<R - 1>(shapes, get<R - 1>(shapes) * s), strides);
    } else {
      return make_tuple(tuple_cat(shapes, make_tuple(s)), tuple_cat(strides, make_tuple(d)));
    }
  }
}

template <class Shapes, class Strides>
STRATA_HD auto make_flat_layout(Shapes const& shapes, Strides const& strides) {
  if constexpr (rank_v<Shapes> == 0) {
    return Layout<Int<1>, Int<0>>{};
  } else if constexpr (rank_v<Shapes> == 1) {
    return make_layout(get<0>(shapes), get<0>(strides));
  } else {
    return make_layout(shapes, strides);
  }
}

// coalesce_flat<KeepLast>(l): coalesce(l), but with KeepLast the last flat mode of l stays even at
// static size 1 (merged only when contiguous), so result(i) == l(i) for every i >= 0, past size(l)
// too: composition extends a layout along that mode.
template <bool KeepLast, class S, class D>
STRATA_HD auto coalesce_flat(Layout<S, D> const& l) {
  auto fs = flatten_to_tuple(l.shape());
  auto fd = flatten_to_tuple(l.stride());
  constexpr int R = rank_v<decltype(fs)>;
  auto acc = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return fold(make_tuple(Int<int(Is)>{}...), make_tuple(make_tuple(), make_tuple()),
                [&](auto const& a, auto i) {
                  constexpr int I = decltype(i)::value;
                  return coalesce_push<KeepLast && I == R - 1>(get<0>(a), get<1>(a), get<I>(fs), get<I>(fd));
                });
  }(std::make_index_sequence<R>{});
  return make_flat_layout(get<0>(acc), get<1>(acc));
}
}  // namespace detail

// coalesce(l): result(i) == l(i) for every i < size(l); result is flat, has no mode of static size
// 1, and no two adjacent modes whose contiguity is statically known (shape_i * stride_i ==
// stride_{i+1}) remain unmerged. Modes whose merge depends on dynamic values stay apart.
template <class S, class D>
STRATA_HD auto coalesce(Layout<S, D> const& l) {
  return detail::coalesce_flat<false>(l);
}

// coalesce(l, profile): for a tuple profile, mode i of the result is coalesce(mode i of l,
// profile_i) for i < rank(profile), later modes unchanged; for an integer profile, coalesce(l).
template <class S, class D, class P>
STRATA_HD auto coalesce(Layout<S, D> const& l, P const& profile) {
  if constexpr (Tuple<P>) {
    constexpr int R = rank_v<S>;
    constexpr int RP = rank_v<P>;
    static_assert(RP <= R, "coalesce: the profile must not have more modes than the layout");
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      return make_layout(coalesce(layout<Is>(l), get<Is>(profile))..., layout<RP + Js>(l)...);
    }(std::make_index_sequence<RP>{}, std::make_index_sequence<R - RP>{});
  } else {
    return coalesce(l);
  }
}

// filter_zeros(l): l with the shape of every mode of static stride 0 set to 1.
template <class S, class D>
STRATA_HD auto filter_zeros(Layout<S, D> const& l) {
  auto zero_free = [](auto const& self, auto const& s, auto const& d) {
    if constexpr (Tuple<decltype(s)>) {
      return transform(s, d, [&](auto const& x, auto const& y) { return self(self, x, y); });
    } else if constexpr (is_constant_v<0, decltype(d)>) {
      return Int<1>{};
    } else {
      return s;
    }
  };
  return make_layout(zero_free(zero_free, l.shape(), l.stride()), l.stride());
}

// filter(l): coalesce(l) without the modes of static stride 0: the same image, each index once.
template <class S, class D>
STRATA_HD auto filter(Layout<S, D> const& l) {
  return coalesce(filter_zeros(l));
}

// ---- composition -------------------------------------------------------------------------------

namespace detail {
// Composes the flat layout (fs, fd) with the rank-1 layout s:d (integer s, d != 0): walk the modes
// of a but the last, skipping `d` elements of the domain (dividing the stride out), then taking up
// to `s` elements from what remains of each mode; the last mode takes whatever is left.
template <class FS, class FD, class S, class D>
STRATA_HD auto compose_walk(FS const& fs, FD const& fd, S const& s, D const& d) {
  constexpr int R = rank_v<FS>;
  auto walk = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    return fold(make_tuple(Int<int(Is)>{}...),
                make_tuple(make_tuple(), make_tuple(), d, s),  // result shapes, strides, rest stride, rest shape
                [&](auto const& acc, auto i) {
                  constexpr int I = decltype(i)::value;
                  auto ai_s = get<I>(fs);
                  auto ai_d = get<I>(fd);
                  auto rest_d = get<2>(acc);
                  auto rest_s = get<3>(acc);
                  static_assert(divides_either<decltype(ai_s), decltype(rest_d)>(),
                                "composition: the stride of b must divide or be divided by the shape of a");
                  auto new_s = shape_div(ai_s, rest_d);
                  auto new_d = ai_d * shape_div(ai_s, new_s);
                  auto next_rest_d = shape_div(rest_d, ai_s);
                  auto take_s = min(new_s, rest_s);
                  static_assert(divides_either<decltype(take_s), decltype(rest_s)>(),
                                "composition: the shape of b must divide or be divided by the shapes of a it spans");
                  auto next_rest_s = shape_div(rest_s, take_s);
                  auto pushed = detail::coalesce_push(get<0>(acc), get<1>(acc), take_s, new_d);
                  return make_tuple(get<0>(pushed), get<1>(pushed), next_rest_d, next_rest_s);
                });
  }(std::make_index_sequence<R - 1>{});
  auto last = detail::coalesce_push(get<0>(walk), get<1>(walk), get<3>(walk), get<R - 1>(fd) * get<2>(walk));
  return make_flat_layout(get<0>(last), get<1>(last));
}

template <class FS, class FD, class S, class D>
STRATA_HD auto compose_flat(FS const& fs, FD const& fd, S const& s, D const& d) {
  if constexpr (is_constant_v<1, S>) {
    // One element, b(0) == 0 and a(0) == 0: nothing of a is walked, so no divisibility applies.
    return Layout<Int<1>, Int<0>>{};
  } else if constexpr (is_constant_v<0, D>) {
    return make_layout(s, d);
  } else if constexpr (DynamicInt<D>) {
    // A run-time stride of 0 is a broadcast, s:0, but a run-time value cannot choose the result's
    // type: that of the walk (for stride 1 then), holding s in its first mode and 1 in the others
    // (the walk's split of s need not multiply to s when s is not admissible for stride 1).
    auto walked = compose_walk(fs, fd, s, d == 0 ? D(1) : d);
    auto ws = wrap(walked.shape());
    auto pick = [&]<std::size_t I>(std::integral_constant<std::size_t, I>) {
      using W = std::remove_cvref_t<decltype(get<I>(ws))>;
      if constexpr (StaticInt<W>) {
        return W{};  // only a walk over one mode gives a static shape, and then it is s itself
      } else {
        return d != 0 ? get<I>(ws) : W(I == 0 ? s : 1);
      }
    };
    auto shapes = [&]<std::size_t... Is>(std::index_sequence<Is...>) {
      return make_tuple(pick(std::integral_constant<std::size_t, Is>{})...);
    }(std::make_index_sequence<rank_v<decltype(ws)>>{});
    auto strides = transform(wrap(walked.stride()), [&](auto const& x) { return D(x) * D(d != 0); });
    return make_flat_layout(shapes, strides);
  } else {
    return compose_walk(fs, fd, s, d);
  }
}
}  // namespace detail

// composition(a, b): result(i) == a(b(i)) for every i in b's domain (a extended past size(a) along
// its last mode, flattened, as a(i) evaluates for i >= size(a)); result is compatible with b (same
// shape as b, for a layout b). b may be a layout, an integer n (the layout n:1), or a tuple (a tiler) whose element i is
// composed with mode i of a (extended along its own last mode), later modes of a unchanged.
template <class SA, class DA, class B>
STRATA_HD auto composition(Layout<SA, DA> const& a, B const& b) {
  if constexpr (PlainLayout<B>) {
    using SB = std::remove_cvref_t<decltype(b.shape())>;
    if constexpr (Tuple<SB>) {
      // b has several modes: compose each with a, keep b's structure.
      return [&]<std::size_t... Is>(std::index_sequence<Is...>) {
        return make_layout(composition(a, layout<Is>(b))...);
      }(std::make_index_sequence<rank_v<SB>>{});
    } else {
      // Not coalesce(a): its last mode, even of size 1, carries the stride of the extension.
      auto ca = detail::coalesce_flat<true>(a);
      return detail::compose_flat(wrap(ca.shape()), wrap(ca.stride()), b.shape(), b.stride());
    }
  } else if constexpr (Tuple<B>) {
    constexpr int R = rank_v<SA>;
    constexpr int RB = rank_v<B>;
    static_assert(RB <= R, "composition: a tiler must not have more modes than the layout");
    return [&]<std::size_t... Is, std::size_t... Js>(std::index_sequence<Is...>, std::index_sequence<Js...>) {
      return make_layout(composition(layout<Is>(a), get<Is>(b))..., layout<RB + Js>(a)...);
    }(std::make_index_sequence<RB>{}, std::make_index_sequence<R - RB>{});
  } else if constexpr (std::is_same_v<B, Underscore>) {
    return a;
  } else {
    static_assert(Integer<B>, "composition: b must be a layout, an integer or a tuple of them");
    return composition(a, make_layout(b, Int<1>{}));
  }
}

}  // namespace strata
