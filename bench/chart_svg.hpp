// A bar chart of strata against cuBLAS, one group of bars per shape, written as a self-contained
// SVG file: the benches regenerate it on every run so a reader can look instead of reading tables.
// Each bar is a ratio (cuBLAS time / strata time: above 1 strata is faster); a line marks 1.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace strata::bench {

struct ChartRow {
  std::string shape;              // e.g. "m16 n4096 k4096"
  std::string kernel;             // what ran, printed under the shape
  std::vector<double> ratios;     // one per series; NaN or <= 0: not measured
};

// Writes `rows` to `path` (series named by `series`, e.g. {"one launch", "streamed"}); returns
// false if the file cannot be written.
inline bool write_ratio_chart(std::string const& path, std::string const& title,
                              std::vector<std::string> const& series, std::vector<ChartRow> const& rows) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  const char* colors[] = {"#3b6fb6", "#e0892b", "#4a9a5b", "#9a4a8c"};
  // The labels sit right-aligned left of the bars: the margin holds the longest at about 0.6 em a
  // character (7 px at the shapes' 12 px, 6 px at the kernels' 10 px).
  size_t label_px = 0;
  for (auto const& r : rows) label_px = std::max({label_px, 7 * r.shape.size(), 6 * r.kernel.size()});
  const int left = std::max(330, int(label_px) + 18);
  const int row_h = 18 * int(std::max<size_t>(series.size(), 1)) + 22, plot_w = 560, top = 56;
  const int height = top + row_h * int(rows.size()) + 40, width = left + plot_w + 40;
  double max_ratio = 1.5;
  for (auto const& r : rows)
    for (double x : r.ratios)
      if (x == x) max_ratio = std::max(max_ratio, x);
  max_ratio = std::min(max_ratio * 1.05, 4.0);
  auto x_of = [&](double ratio) { return left + int(plot_w * std::min(ratio, max_ratio) / max_ratio); };
  std::fprintf(f,
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
               "font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
               "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
               width, height, title.c_str());
  for (size_t s = 0; s < series.size(); ++s)
    std::fprintf(f, "<rect x=\"%d\" y=\"32\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"43\">%s</text>\n",
                 left + int(s) * 170, colors[s % 4], left + int(s) * 170 + 16, series[s].c_str());
  for (double tick = 0; tick <= max_ratio + 1e-9; tick += 0.25) {
    const int x = x_of(tick);
    std::fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, top - 4, x,
                 height - 36);
    std::fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#555\">%.2f</text>\n", x, height - 22,
                 tick);
  }
  for (size_t i = 0; i < rows.size(); ++i) {
    const int y = top + int(i) * row_h;
    std::fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n", left - 8, y + 13,
                 rows[i].shape.c_str());
    std::fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#777\" font-size=\"10\">%s</text>\n",
                 left - 8, y + 26, rows[i].kernel.c_str());
    for (size_t s = 0; s < rows[i].ratios.size(); ++s) {
      const double r = rows[i].ratios[s];
      if (!(r > 0)) continue;
      const int by = y + int(s) * 18;
      std::fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"15\" fill=\"%s\"/>\n", left, by,
                   x_of(r) - left, colors[s % 4]);
      std::fprintf(f, "<text x=\"%d\" y=\"%d\">%.2fx</text>\n", x_of(r) + 4, by + 12, r);
    }
  }
  const int one = x_of(1.0);
  std::fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\" stroke-dasharray=\"4 3\"/>\n",
               one, top - 6, one, height - 36);
  std::fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\">ratio to cuBLAS (cuBLAS time / strata time; right of "
                  "the dashed line strata is faster)</text>\n</svg>\n",
               left, height - 6);
  return std::fclose(f) == 0;
}

}  // namespace strata::bench
