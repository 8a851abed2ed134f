// Strata: complement, right_inverse and left_inverse.
//
// These sort or chain a layout's modes by stride. With static strides that happens at compile time
// and the result is exact and minimal. With dynamic strides it happens at run time; the result then
// has a fixed number of modes: padding modes 1:0 first, then the meaningful ones.
#pragma once

#include <array>

#include "composition.hpp"

namespace strata {

namespace detail {

// The leaves of an IntTuple as a run-time array of one integer type.
template <class T, class X>
STRATA_HD auto to_array(X const& x) {
  auto flat = flatten_to_tuple(x);
  return apply(flat, [](auto const&... v) { return std::array<T, sizeof...(v)>{T(v)...}; });
}

template <class... Ts>
using common_int_t = std::common_type_t<int, decltype(std::declval<Ts>() + 0)...>;

template <class X>
struct flat_int;
template <class... Ts>
struct flat_int<tuple<Ts...>> {
  using type = common_int_t<Ts...>;
};
template <class X>
using flat_int_t = typename flat_int<decltype(flatten_to_tuple(std::declval<X>()))>::type;

// An array of N integers as a tuple of N integers of type T.
template <class T, std::size_t N>
STRATA_HD auto array_to_tuple(std::array<T, N> const& a) {
  return [&]<std::size_t... Is>(std::index_sequence<Is...>) { return make_tuple(a[Is]...); }(
      std::make_index_sequence<N>{});
}

// The first n entries of a moved to the back, the front filled with `pad`: run-time results keep
// their meaningful modes last, so the last mode, which a composition may extend, is a real one.
template <class T, std::size_t N>
STRATA_HD std::array<T, N> pad_front(std::array<T, N> const& a, std::size_t n, T pad) {
  std::array<T, N> r{};
  for (std::size_t i = 0; i < N - n; ++i) r[i] = pad;
  for (std::size_t i = 0; i < n; ++i) r[N - n + i] = a[i];
  return r;
}

// Sorting permutation of N strides (insertion sort: N is small and it runs in constexpr).
template <class T, std::size_t N>
STRATA_HD std::array<int, N> stride_order(std::array<T, N> const& d) {
  std::array<int, N> p{};
  for (std::size_t i = 0; i < N; ++i) p[i] = int(i);
  for (std::size_t i = 1; i < N; ++i) {
    for (std::size_t j = i; j > 0 && d[p[j]] < d[p[j - 1]]; --j) {
      int t = p[j]; p[j] = p[j - 1]; p[j - 1] = t;
    }
  }
  return p;
}

enum class ComplementCheck { ok, overlapping, not_divisible };

// Whether the flat modes (s, d), stride-0 and size-1 modes ignored, can be complemented: sorted by
// stride, each mode must start at or after the end of the ones below it, at a multiple of that end.
// A stride-0 mode of size > 1 counts as overlapping only when `zero_overlaps` (injectivity);
// complement itself ignores such modes, as it ignores the ones of size 1.
template <class T, std::size_t N>
STRATA_HD ComplementCheck check_complement(std::array<T, N> const& s, std::array<T, N> const& d,
                                           bool zero_overlaps) {
  std::array<T, N> ds = d;
  for (std::size_t i = 0; i < N; ++i) if (s[i] == 1) ds[i] = 0;
  auto p = stride_order(ds);
  T curr = 1;
  for (std::size_t k = 0; k < N; ++k) {
    int i = p[k];
    if (s[i] == 1) continue;
    if (d[i] == 0) {
      if (zero_overlaps) return ComplementCheck::overlapping;
      continue;
    }
    if (d[i] < curr) return ComplementCheck::overlapping;
    if (d[i] % curr != 0) return ComplementCheck::not_divisible;
    curr = s[i] * d[i];
  }
  return ComplementCheck::ok;
}

// Static form of check_complement for a layout type whose leaves are all static.
template <class L, bool ZeroOverlaps>
constexpr ComplementCheck static_complement_check() {
  if constexpr (is_static_v<L>) {
    constexpr auto s = to_array<long long>(L{}.shape());
    constexpr auto d = to_array<long long>(L{}.stride());
    return check_complement(s, d, ZeroOverlaps);
  } else {
    return ComplementCheck::ok;
  }
}

}  // namespace detail

// complement(a, cotarget): a layout c, ordered by increasing stride, such that (a, c) maps its domain
// one-to-one onto [0, size(a) * size(c)) and that range covers [0, cotarget); c(i) is never in the
// image of a except c(0) == 0. Precondition: a is injective and each of its sorted modes starts at a
// multiple of the extent of those below it.
template <class S, class D, class C>
STRATA_HD auto complement(Layout<S, D> const& a, C const& cotarget) {
  using L = Layout<S, D>;
  static_assert(detail::static_complement_check<L, false>() != detail::ComplementCheck::overlapping,
                "complement: the layout must be injective (its modes must not overlap)");
  static_assert(detail::static_complement_check<L, false>() != detail::ComplementCheck::not_divisible,
                "complement: each stride must be a multiple of the extent of the smaller modes");
  auto f = filter(a);
  auto fs = wrap(f.shape());
  auto fd = wrap(f.stride());
  using FD = std::remove_cvref_t<decltype(fd)>;
  if constexpr (is_constant_v<1, decltype(size(f))>) {
    // Nothing of a is left after filtering (all broadcast or empty): the complement is all of it.
    return make_layout(cotarget, Int<1>{});
  } else if constexpr (is_static_v<FD> && is_static_v<decltype(fs)>) {
    constexpr auto order = detail::stride_order(detail::to_array<long long>(FD{}));
    constexpr int R = rank_v<FD>;
    // Walk the modes by increasing stride; each gap between them becomes a mode of the complement.
    auto acc = [&]<std::size_t... Ks>(std::index_sequence<Ks...>) {
      return fold(make_tuple(Int<order[Ks]>{}...), make_tuple(make_tuple(), make_tuple(), Int<1>{}),
                  [&](auto const& st, auto i) {
                    constexpr int I = decltype(i)::value;
                    auto curr = get<2>(st);
                    auto p = detail::coalesce_push(get<0>(st), get<1>(st), get<I>(fd) / curr, curr);
                    return make_tuple(get<0>(p), get<1>(p), get<I>(fs) * get<I>(fd));
                  });
    }(std::make_index_sequence<R>{});
    auto curr = get<2>(acc);
    auto last = detail::coalesce_push(get<0>(acc), get<1>(acc), ceil_div(cotarget, curr), curr);
    return coalesce(detail::make_flat_layout(get<0>(last), get<1>(last)));
  } else {
    // Run time: same walk over arrays, meaningful modes first, then padding 1:0.
    using T = detail::common_int_t<detail::flat_int_t<decltype(fs)>, detail::flat_int_t<FD>, C>;
    constexpr std::size_t N = rank_v<decltype(flatten_to_tuple(fs))>;
    auto s = detail::to_array<T>(fs);
    auto d = detail::to_array<T>(fd);
    std::array<T, N> ds = d;
    for (std::size_t i = 0; i < N; ++i) if (s[i] == 1 || d[i] == 0) ds[i] = 0;
    auto order = detail::stride_order(ds);
    std::array<T, N + 1> rs{}, rd{};
    std::size_t n = 0;
    T curr = 1;
    for (std::size_t k = 0; k < N; ++k) {
      int i = order[k];
      if (s[i] == 1 || d[i] == 0) continue;
      if (d[i] / curr != 1) { rs[n] = d[i] / curr; rd[n] = curr; ++n; }
      curr = s[i] * d[i];
    }
    if (T rest = (T(cotarget) + curr - 1) / curr; rest != 1 || n == 0) {
      rs[n] = rest;
      rd[n] = rest == 1 ? 0 : curr;
      ++n;
    }
    return detail::make_flat_layout(detail::array_to_tuple(detail::pad_front(rs, n, T(1))),
                                    detail::array_to_tuple(detail::pad_front(rd, n, T(0))));
  }
}

// complement(a) == complement(a, cosize(a))
template <class S, class D>
STRATA_HD auto complement(Layout<S, D> const& a) {
  return complement(a, cosize(a));
}

// right_inverse(a): a(result(i)) == i for every i < size(result); result is as large as possible
// (it covers the longest prefix [0, n) of indices that a reaches contiguously from 0).
template <class S, class D>
STRATA_HD auto right_inverse(Layout<S, D> const& a) {
  auto f = coalesce(a);
  auto fs = wrap(f.shape());
  auto fd = wrap(f.stride());
  auto fp = compact_col_major(fs);
  constexpr int R = rank_v<decltype(fs)>;
  if constexpr (is_static_v<decltype(fs)> && is_static_v<decltype(fd)>) {
    // Follow the chain: the mode of stride 1, then the mode whose stride is where that one ends...
    constexpr auto chain = [] {
      auto s = detail::to_array<long long>(decltype(fs){});
      auto d = detail::to_array<long long>(decltype(fd){});
      std::array<int, R + 1> c{};  // c[0] = chain length, then mode indices
      long long next = 1;
      for (bool found = true; found;) {
        found = false;
        for (int i = 0; i < R; ++i) {
          if (s[i] != 1 && d[i] == next) { c[++c[0]] = i; next = s[i] * d[i]; found = true; break; }
        }
      }
      return c;
    }();
    return [&]<std::size_t... Ks>(std::index_sequence<Ks...>) {
      return coalesce(detail::make_flat_layout(make_tuple(get<chain[Ks + 1]>(fs)...),
                                               make_tuple(get<chain[Ks + 1]>(fp)...)));
    }(std::make_index_sequence<chain[0]>{});
  } else {
    using T = detail::common_int_t<detail::flat_int_t<decltype(fs)>, detail::flat_int_t<decltype(fd)>>;
    auto s = detail::to_array<T>(fs);
    auto d = detail::to_array<T>(fd);
    auto p = detail::to_array<T>(fp);
    std::array<T, R> rs{}, rd{};
    int n = 0;
    T next = 1;
    for (bool found = true; found && n < R;) {
      found = false;
      for (int i = 0; i < R; ++i) {
        if (s[i] != 1 && d[i] == next) { rs[n] = s[i]; rd[n] = p[i]; ++n; next = s[i] * d[i]; found = true; break; }
      }
    }
    return detail::make_flat_layout(detail::array_to_tuple(detail::pad_front(rs, n, T(1))),
                                    detail::array_to_tuple(detail::pad_front(rd, n, T(0))));
  }
}

// left_inverse(a): result(a(i)) == i for every i < size(a). Precondition: a is injective.
template <class S, class D>
STRATA_HD auto left_inverse(Layout<S, D> const& a) {
  static_assert(detail::static_complement_check<Layout<S, D>, true>() != detail::ComplementCheck::overlapping,
                "left_inverse: the layout must be injective (its modes must not overlap)");
  return right_inverse(make_layout(a, complement(a)));
}

}  // namespace strata
