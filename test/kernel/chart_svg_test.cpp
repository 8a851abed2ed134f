// Host tests of the benches' ratio chart (bench/chart_svg.hpp): one bar per measured ratio (none
// for NaN), bar lengths proportional to the ratio, and every right-aligned label inside the
// picture however long the kernel's name (AutoGemm's names with their work plans run past 100
// characters).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "../../bench/chart_svg.hpp"

namespace {

using strata::bench::ChartRow;
using strata::bench::write_ratio_chart;

std::string read_all(std::string const& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The integer attribute `name` of every element of kind `tag` whose text matches `filter`.
std::vector<int> attribute_of(std::string const& svg, std::string const& tag, std::string const& name,
                              std::string const& filter = "") {
  std::vector<int> values;
  const std::regex element("<" + tag + " [^>]*>");
  const std::regex attribute(" " + name + "=\"(-?[0-9]+)\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element); it != std::sregex_iterator(); ++it) {
    const std::string e = it->str();
    std::smatch m;
    if (e.find(filter) != std::string::npos && std::regex_search(e, m, attribute)) values.push_back(std::stoi(m[1]));
  }
  return values;
}

TEST(RatioChart, BarsFollowTheRatiosAndLabelsStayInside) {
  const std::string long_kernel =
      "sm90 decode: A and B swapped, ping-pong 64x16x128, 8 stages, cluster 1x1, K pairs, D stored transposed; "
      "K pairs";
  const std::vector<ChartRow> rows = {
      {"m1 n4096 k4096", long_kernel, {1.2, 1.0}},
      {"m128 n8192 k8192", "sm90 small: ping-pong 64x128x64", {0.5, std::nan("")}},
  };
  const std::string path = ::testing::TempDir() + "strata_chart_test.svg";
  ASSERT_TRUE(write_ratio_chart(path, "test", {"one", "two"}, rows));
  const std::string svg = read_all(path);
  std::remove(path.c_str());

  // Three bars (the NaN has none), the series' legend squares beside them (width 12).
  std::vector<int> bars;
  for (int w : attribute_of(svg, "rect", "width", "height=\"15\"")) bars.push_back(w);
  ASSERT_EQ(bars.size(), 3u);
  EXPECT_EQ(bars[0] * 10, bars[1] * 12) << "1.2 against 1.0";
  EXPECT_NEAR(bars[2] * 2.0, bars[1], 1.0) << "0.5 against 1.0";

  // Right-aligned labels end at x and run leftwards: at 6 px a character (the chart's own
  // estimate is 7 and 6 px) the longest must still start inside.
  const std::vector<int> ends = attribute_of(svg, "text", "x", "text-anchor=\"end\"");
  ASSERT_EQ(ends.size(), 4u) << "a shape and a kernel label per row";
  for (int x : ends) EXPECT_GE(x - 6 * int(long_kernel.size()), 0) << "label cut off at the left edge";
  const std::vector<int> widths = attribute_of(svg, "svg", "width");
  ASSERT_EQ(widths.size(), 1u);
  EXPECT_GT(widths[0], ends[0] + 560) << "the plot fits right of the labels";
}

TEST(RatioChart, ReportsAFileItCannotWrite) {
  EXPECT_FALSE(write_ratio_chart("/nonexistent-dir/chart.svg", "t", {"one"}, {{"s", "k", {1.0}}}));
}

}  // namespace
