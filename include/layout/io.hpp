// Strata: text form of integers, tuples and layouts: `shape:stride` with nested parentheses,
// e.g. `(4,(2,3)):(2,(1,8))`. Static integers print with a leading underscore (`_4`).
#pragma once

#include <ostream>
#include <sstream>
#include <string>

#include "layout_base.hpp"

namespace strata {

template <int N>
std::ostream& operator<<(std::ostream& os, Int<N>) {
  return os << '_' << N;
}

inline std::ostream& operator<<(std::ostream& os, Underscore) { return os << '_'; }

template <class... Ts>
std::ostream& operator<<(std::ostream& os, tuple<Ts...> const& t) {
  os << '(';
  [&]<std::size_t... Is>(std::index_sequence<Is...>) {
    ((os << (Is == 0 ? "" : ",") << get<Is>(t)), ...);
  }(std::index_sequence_for<Ts...>{});
  return os << ')';
}

template <class S, class D>
std::ostream& operator<<(std::ostream& os, Layout<S, D> const& l) {
  return os << l.shape() << ':' << l.stride();
}

// to_string(x): what operator<< writes.
template <class T>
std::string to_string(T const& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

}  // namespace strata
