// Strata: layouts and tensors as text tables.
//
//   print_layout(os, l)  draws a rank-2 layout as a 2-D table of indices: rows are mode 0,
//                        columns are mode 1, under a header with the layout's `shape:stride`.
//   print_tensor(os, t)  prints a tensor's values in the same arrangement.
//
// Both work on anything "grid-like", not only on `Layout`: a swizzled (composed) layout, a
// layout parsed at run time (parse.hpp), or any type with `size<0>`, `size<1>` and `l(m, n)`.
// A rank-1 layout is drawn as one row. SVG pictures of the same grids are in svg.hpp.
#pragma once

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "io.hpp"

namespace strata {

namespace detail {

// A layout-like object seen as rows x columns of indices: what every printer draws.
template <class Cell>
struct Grid {
  long long rows;
  long long cols;
  Cell cell;  // (m, n) -> the index drawn in row m, column n
  long long operator()(long long m, long long n) const { return cell(m, n); }
};
template <class Cell>
Grid(long long, long long, Cell) -> Grid<Cell>;

// Plain and composed layouts carry their rank in their type (a static member `rank`); other
// layout-like types either tell it at run time through a `rank()` member (parsed layouts) or are
// taken to be rank 2. A rank-1 layout is one row: cell (0, n) holds l(n).
template <class L>
auto grid_view(L const& l) {
  // Generic lambdas: a body is only instantiated where it is used, so a rank-1 layout is never
  // asked for l(m, n).
  auto one_row = [&l](auto, auto n) { return static_cast<long long>(l(n)); };
  auto two_d = [&l](auto m, auto n) { return static_cast<long long>(l(m, n)); };
  if constexpr (requires { std::integral_constant<int, L::rank>{}; }) {
    constexpr int R = L::rank;
    static_assert(R == 1 || R == 2,
                  "printing: a layout is drawn in 2-D, so its rank must be 1 or 2 "
                  "(gather modes first, e.g. group<1, rank>(l))");
    if constexpr (R == 1) {
      return Grid{1, static_cast<long long>(size(l)), one_row};
    } else {
      return Grid{static_cast<long long>(size<0>(l)), static_cast<long long>(size<1>(l)), two_d};
    }
  } else if constexpr (requires { l.rank(); }) {
    auto r = l.rank();
    if (r != 1 && r != 2) {
      throw std::invalid_argument("printing: a layout of rank " + std::to_string(r) +
                                  " cannot be drawn in 2-D; gather its modes into two first");
    }
    bool is_row = r == 1;
    auto cell = [=](long long m, long long n) { return is_row ? one_row(m, n) : two_d(m, n); };
    return is_row ? Grid{1, static_cast<long long>(size(l)), cell}
                  : Grid{static_cast<long long>(size<0>(l)), static_cast<long long>(size<1>(l)), cell};
  } else {
    return Grid{static_cast<long long>(size<0>(l)), static_cast<long long>(size<1>(l)), two_d};
  }
}

// The `shape:stride` header line, for the layout-like types that can say it.
template <class L>
void print_header(std::ostream& os, L const& l) {
  if constexpr (requires { os << l; }) os << l << '\n';
}

inline int text_width(long long x) { return static_cast<int>(std::to_string(x).size()); }

}  // namespace detail

// print_layout(os, l): the header `shape:stride`, then one row per coordinate of mode 0 and one
// column per coordinate of mode 1, each cell holding l(m, n), in a ruled grid like CuTe's.
template <class L>
void print_layout(std::ostream& os, L const& l) {
  auto grid = detail::grid_view(l);
  // Cells are as wide as the widest index or column number, so the grid stays aligned.
  int cell = detail::text_width(std::max<long long>(grid.cols - 1, 0));
  for (long long m = 0; m < grid.rows; ++m)
    for (long long n = 0; n < grid.cols; ++n) cell = std::max(cell, detail::text_width(grid(m, n)));
  int label = std::max(2, detail::text_width(std::max<long long>(grid.rows - 1, 0)));
  std::string margin(std::size_t(label) + 2, ' ');
  std::string rule = margin;
  for (long long n = 0; n < grid.cols; ++n) rule += '+' + std::string(std::size_t(cell) + 2, '-');
  rule += "+\n";

  detail::print_header(os, l);
  os << margin;
  for (long long n = 0; n < grid.cols; ++n) os << (n == 0 ? "  " : "   ") << std::setw(cell) << n;
  os << '\n';
  for (long long m = 0; m < grid.rows; ++m) {
    os << rule << std::setw(label) << m << "  ";
    for (long long n = 0; n < grid.cols; ++n) os << "| " << std::setw(cell) << grid(m, n) << ' ';
    os << "|\n";
  }
  os << rule;
}

template <class L>
void print_layout(L const& l) {
  print_layout(std::cout, l);
}

// A tensor-like object: it has a layout and its elements are read with t(i), i the
// colexicographic (first mode fastest) index into the layout's domain.
template <class T>
concept TensorLike = requires(T const& t) {
  t.layout();
  t(0);
};

// print_tensor(os, t): the layout's header, then the values t(m, n) arranged as print_layout
// arranges the indices (a rank-1 tensor is one row), right-aligned in columns.
template <TensorLike T>
void print_tensor(std::ostream& os, T const& t) {
  auto const& layout = t.layout();
  auto grid = detail::grid_view(layout);
  // Format every value first: the column width is the widest of them.
  std::vector<std::string> text;
  text.reserve(std::size_t(grid.rows * grid.cols));
  int width = 0;
  for (long long m = 0; m < grid.rows; ++m) {
    for (long long n = 0; n < grid.cols; ++n) {
      std::ostringstream cell;
      cell.flags(os.flags());
      cell.precision(os.precision());
      cell << t(static_cast<int>(m + n * grid.rows));
      text.push_back(cell.str());
      width = std::max(width, static_cast<int>(text.back().size()));
    }
  }
  detail::print_header(os, layout);
  for (long long m = 0; m < grid.rows; ++m) {
    for (long long n = 0; n < grid.cols; ++n) {
      os << "  " << std::setw(width) << text[std::size_t(m * grid.cols + n)];
    }
    os << '\n';
  }
}

template <TensorLike T>
void print_tensor(T const& t) {
  print_tensor(std::cout, t);
}

}  // namespace strata
