// Strata: SVG pictures of layouts and of thread–value layouts, for looking at them in a browser.
//
//   print_svg(os, l)               the grid of print_layout: one cell per coordinate (m, n) of a
//                                  rank-2 (or rank-1) layout, labelled with its index l(m, n) and
//                                  shaded by it, light for the smallest index, dark for the largest
//   print_svg(os, l, k)            the same, coloured by l(m, n) % k instead: with k = 8, say, the
//                                  cells that fall in the same one of 8 banks or chunks match, which
//                                  is how a swizzle shows it spreads every column over all of them
//   print_svg_tv(os, tv, tile_mn)  an M x N tile of which a thread–value layout tv hands each thread
//                                  its values: cell (m, n) is labelled T<t>V<v> for the (t, v) with
//                                  tv(t, v) == m + n * M, and coloured by thread t
//
// Each output is one standalone, well-formed SVG document with exactly one <rect> per cell, so a
// test can count cells and a user can open it directly. The layout-like types accepted are those
// of print_layout (plain, composed and parsed layouts).
#pragma once

#include <algorithm>
#include <array>
#include <iostream>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "print.hpp"

namespace strata {

namespace detail {

// Pixel geometry shared by both pictures. Text is monospace at 12px, about 7.2px a glyph: 8px a
// glyph leaves a margin.
struct SvgGrid {
  long long rows;
  long long cols;
  int cell_w;
  int cell_h = 24;
  int left = 0;  // x of column 0: room for the row numbers
  int top = 0;   // y of row 0: room for the caption and the column numbers

  int x(long long n) const { return left + int(n) * cell_w; }
  int y(long long m) const { return top + int(m) * cell_h; }
  int width() const { return x(cols) + 8; }
  int height() const { return y(rows) + 8; }
};

inline SvgGrid make_svg_grid(long long rows, long long cols, std::size_t longest_label) {
  SvgGrid g{rows, cols, std::max(32, int(longest_label) * 8 + 12)};
  g.left = int(std::to_string(std::max<long long>(rows - 1, 0)).size()) * 8 + 16;
  g.top = 48;
  return g;
}

// The few characters that may not appear as themselves in XML text or attribute values.
inline std::string xml_escape(std::string const& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

inline std::string hex_colour(std::array<int, 3> rgb) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s = "#";
  for (int c : rgb) {
    s += digits[(c >> 4) & 15];
    s += digits[c & 15];
  }
  return s;
}

// Light to dark blue as t goes from 0 to 1: the order in which a layout walks its grid shows as a
// gradient, and cells of equal index (stride 0) show as equal colours.
inline std::array<int, 3> index_shade(double t) {
  constexpr std::array<int, 3> light{239, 246, 255}, dark{33, 102, 172};
  std::array<int, 3> c{};
  for (std::size_t k = 0; k < 3; ++k) c[k] = int(light[k] + t * (dark[k] - light[k]) + 0.5);
  return c;
}

inline std::string tv_label(long long t, long long v) {
  // Appending to one string (rather than "T" + to_string(...)) also keeps g++ 12 from a false
  // -Wrestrict warning inside std::string.
  std::string label = "T";
  label += std::to_string(t);
  label += 'V';
  label += std::to_string(v);
  return label;
}

// Eight light colours, those of CuTe's print_latex so the pictures match, used in turn: one per
// thread in print_svg_tv, one per residue in print_svg with a colour modulus.
inline std::string palette_colour(long long k) {
  static constexpr std::array<std::array<int, 3>, 8> palette{{{175, 175, 255}, {175, 255, 175},
                                                             {255, 255, 175}, {255, 175, 175},
                                                             {210, 210, 255}, {210, 255, 210},
                                                             {255, 255, 210}, {255, 210, 210}}};
  return hex_colour(palette[std::size_t(k % 8)]);
}

// The document around the cells: caption, column and row numbers. `draw_cells` writes the cells.
template <class DrawCells>
void write_svg(std::ostream& os, SvgGrid const& g, std::string const& caption, DrawCells&& draw_cells) {
  int width = std::max(g.width(), g.left + int(caption.size()) * 8 + 8);  // a long caption widens it
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << g.height()
     << "\" viewBox=\"0 0 " << width << ' ' << g.height()
     << "\" font-family=\"monospace\" font-size=\"12\">\n"
     << "<title>" << xml_escape(caption) << "</title>\n"
     << "<text x=\"" << g.left << "\" y=\"18\">" << xml_escape(caption) << "</text>\n"
     << "<g text-anchor=\"middle\" dominant-baseline=\"central\">\n"
     << "<g class=\"axis\" fill=\"#808080\">\n";
  for (long long n = 0; n < g.cols; ++n)
    os << "<text x=\"" << g.x(n) + g.cell_w / 2 << "\" y=\"" << g.top - 10 << "\">" << n << "</text>\n";
  for (long long m = 0; m < g.rows; ++m)
    os << "<text x=\"" << g.left / 2 << "\" y=\"" << g.y(m) + g.cell_h / 2 << "\">" << m << "</text>\n";
  os << "</g>\n<g class=\"cells\" stroke-width=\"1\">\n";
  draw_cells();
  os << "</g>\n</g>\n</svg>\n";
}

inline void write_svg_cell(std::ostream& os, SvgGrid const& g, long long m, long long n,
                           std::string const& fill, std::string const& label, bool dark) {
  os << "<rect x=\"" << g.x(n) << "\" y=\"" << g.y(m) << "\" width=\"" << g.cell_w << "\" height=\""
     << g.cell_h << "\" fill=\"" << fill << "\" stroke=\"#000000\"/>";
  if (!label.empty()) {
    os << "<text x=\"" << g.x(n) + g.cell_w / 2 << "\" y=\"" << g.y(m) + g.cell_h / 2 << "\""
       << (dark ? " fill=\"#ffffff\"" : "") << ">" << xml_escape(label) << "</text>";
  }
  os << '\n';
}

template <class L>
std::string caption_of(L const& l) {
  if constexpr (requires(std::ostream& os) { os << l; }) {
    return to_string(l);
  } else {
    return "layout";
  }
}

}  // namespace detail

// print_svg(os, l, colour_modulus): an SVG document with one cell per coordinate (m, n) of l, at
// row m and column n as in print_layout, labelled l(m, n). With colour_modulus 0 the cells are
// shaded from light (smallest index) to dark (largest); with k > 0 a cell gets colour l(m, n) % k of
// the eight-colour palette of print_svg_tv (for k > 8, residues 8 apart share a colour).
template <class L>
void print_svg(std::ostream& os, L const& l, int colour_modulus = 0) {
  auto cells = detail::grid_view(l);
  long long lo = 0, hi = 0;
  std::size_t longest = 1;
  for (long long m = 0; m < cells.rows; ++m) {
    for (long long n = 0; n < cells.cols; ++n) {
      long long idx = cells(m, n);
      if ((m == 0 && n == 0) || idx < lo) lo = idx;
      if ((m == 0 && n == 0) || idx > hi) hi = idx;
      longest = std::max(longest, std::to_string(idx).size());
    }
  }
  auto g = detail::make_svg_grid(cells.rows, cells.cols, longest);
  detail::write_svg(os, g, detail::caption_of(l), [&] {
    for (long long m = 0; m < cells.rows; ++m) {
      for (long long n = 0; n < cells.cols; ++n) {
        long long idx = cells(m, n);
        if (colour_modulus > 0) {
          long long residue = ((idx % colour_modulus) + colour_modulus) % colour_modulus;
          detail::write_svg_cell(os, g, m, n, detail::palette_colour(residue), std::to_string(idx), false);
        } else {
          double t = hi == lo ? 0.0 : double(idx - lo) / double(hi - lo);
          detail::write_svg_cell(os, g, m, n, detail::hex_colour(detail::index_shade(t)), std::to_string(idx),
                                 t > 0.55);
        }
      }
    }
  });
}

template <class L>
void print_svg(L const& l, int colour_modulus = 0) {
  print_svg(std::cout, l, colour_modulus);
}

// print_svg_tv(os, tv, tile_mn): the M x N tile (tile_mn a shape (M, N), or a layout whose shape
// it is) with cell (m, n) labelled T<t>V<v> and filled with thread t's colour, for the thread t
// (mode 0 of tv) and value v (mode 1) with tv(t, v) == m + n * M. Modes may be nested; t and v
// are then their colexicographic indices. A cell no (t, v) reaches stays white and unlabelled; a
// cell several reach (a broadcast) shows the first in thread-major order. Throws
// std::out_of_range when tv leaves the tile.
template <class TV, class TileMN>
void print_svg_tv(std::ostream& os, TV const& tv, TileMN const& tile_mn) {
  auto tile_shape = [&] {
    if constexpr (PlainLayout<TileMN>) {
      return tile_mn.shape();
    } else {
      return tile_mn;
    }
  }();
  static_assert(rank_v<decltype(tile_shape)> == 2, "print_svg_tv: the tile must be a shape (M, N) of rank 2");
  long long tile_m = static_cast<long long>(size<0>(tile_shape));
  long long tile_n = static_cast<long long>(size<1>(tile_shape));

  auto thread_value = detail::grid_view(tv);  // rows: threads, columns: values
  struct Owner {
    long long thread = -1;
    long long value = -1;
  };
  std::vector<Owner> owner(std::size_t(tile_m * tile_n));
  std::size_t longest = 1;
  for (long long t = 0; t < thread_value.rows; ++t) {
    for (long long v = 0; v < thread_value.cols; ++v) {
      long long idx = thread_value(t, v);
      if (idx < 0 || idx >= tile_m * tile_n) {
        throw std::out_of_range("print_svg_tv: thread " + std::to_string(t) + ", value " + std::to_string(v) +
                                " maps to index " + std::to_string(idx) + ", outside the " +
                                std::to_string(tile_m) + " x " + std::to_string(tile_n) + " tile");
      }
      Owner& o = owner[std::size_t(idx)];
      if (o.thread < 0) o = {t, v};
      longest = std::max(longest, detail::tv_label(t, v).size());
    }
  }

  auto g = detail::make_svg_grid(tile_m, tile_n, longest);
  std::string caption = detail::caption_of(tv) + " on a " + std::to_string(tile_m) + " x " +
                        std::to_string(tile_n) + " tile";
  detail::write_svg(os, g, caption, [&] {
    for (long long m = 0; m < tile_m; ++m) {
      for (long long n = 0; n < tile_n; ++n) {
        Owner const& o = owner[std::size_t(m + n * tile_m)];
        if (o.thread < 0) {
          detail::write_svg_cell(os, g, m, n, "#ffffff", "", false);
        } else {
          detail::write_svg_cell(os, g, m, n, detail::palette_colour(o.thread), detail::tv_label(o.thread, o.value),
                                 false);
        }
      }
    }
  });
}

template <class TV, class TileMN>
void print_svg_tv(TV const& tv, TileMN const& tile_mn) {
  print_svg_tv(std::cout, tv, tile_mn);
}

}  // namespace strata
