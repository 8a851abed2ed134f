// print_svg and print_svg_tv: each picture is well-formed XML with one cell per element, labelled
// and coloured as documented. A small XML reader below checks the documents; it accepts the
// subset of XML the printers write (a declaration, elements, attributes, text, entities).
#include <layout/layout.hpp>
#include <layout/parse.hpp>
#include <layout/svg.hpp>
#include <layout/swizzle.hpp>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace strata;

namespace {

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::string text;        // character data directly inside, entities decoded
  std::string group_class; // class of the nearest enclosing <g class="...">
};

struct Document {
  std::vector<Element> elements;  // in document order
  std::size_t count(std::string const& name) const {
    std::size_t n = 0;
    for (auto const& e : elements) n += e.name == name;
    return n;
  }
  std::vector<Element> cells(std::string const& name) const {
    std::vector<Element> out;
    for (auto const& e : elements)
      if (e.name == name && e.group_class == "cells") out.push_back(e);
    return out;
  }
};

// Reads a document or throws std::runtime_error saying what is malformed: unbalanced or crossed
// tags, unquoted or repeated attributes, a raw '&' or '<', more than one root, trailing content.
class XmlReader {
 public:
  explicit XmlReader(std::string text) : s_(std::move(text)) {}

  Document read() {
    if (s_.rfind("<?xml", 0) == 0) {
      auto end = s_.find("?>");
      if (end == std::string::npos) fail("unterminated XML declaration");
      pos_ = end + 2;
    }
    skip_space();
    if (!starts_with("<")) fail("no root element");
    element();
    skip_space();
    if (pos_ != s_.size()) fail("content after the root element");
    return std::move(doc_);
  }

 private:
  [[noreturn]] void fail(std::string const& what) const {
    throw std::runtime_error(what + " at offset " + std::to_string(pos_));
  }
  bool starts_with(char const* p) const { return s_.compare(pos_, std::string(p).size(), p) == 0; }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  std::string name() {
    std::size_t b = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '-' ||
                                s_[pos_] == '_' || s_[pos_] == ':'))
      ++pos_;
    if (b == pos_) fail("expected a name");
    return s_.substr(b, pos_ - b);
  }
  // Character data up to `stop`, with the five predefined entities decoded.
  std::string chars(char stop) {
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != stop) {
      char c = s_[pos_];
      if (c == '<') fail("raw '<' in character data");
      if (c == '&') {
        static const std::pair<char const*, char> entities[] = {
            {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
        bool known = false;
        for (auto [entity, ch] : entities) {
          if (starts_with(entity)) {
            out += ch;
            pos_ += std::string(entity).size();
            known = true;
            break;
          }
        }
        if (!known) fail("raw '&' (not an entity)");
        continue;
      }
      out += c;
      ++pos_;
    }
    return out;
  }

  void element() {
    ++pos_;  // '<'
    Element e;
    e.name = name();
    e.group_class = groups_.empty() ? "" : groups_.back();
    for (;;) {
      skip_space();
      if (starts_with("/>") || starts_with(">")) break;
      std::string key = name();
      if (e.attrs.count(key)) fail("attribute " + key + " given twice");
      skip_space();
      if (!starts_with("=\"")) fail("attribute " + key + " is not quoted");
      pos_ += 2;
      e.attrs[key] = chars('"');
      if (pos_ >= s_.size()) fail("unterminated attribute value");
      ++pos_;
    }
    std::size_t index = doc_.elements.size();
    doc_.elements.push_back(e);
    if (starts_with("/>")) {
      pos_ += 2;
      return;
    }
    ++pos_;  // '>'
    bool is_group = e.name == "g";
    if (is_group) groups_.push_back(e.attrs.count("class") ? e.attrs.at("class") : groups_.empty() ? "" : groups_.back());
    for (;;) {
      std::string text = chars('<');
      doc_.elements[index].text += text;
      if (pos_ >= s_.size()) fail("element <" + e.name + "> is not closed");
      if (starts_with("</")) {
        pos_ += 2;
        std::string closing = name();
        if (closing != e.name) fail("<" + e.name + "> closed by </" + closing + ">");
        skip_space();
        if (!starts_with(">")) fail("expected '>'");
        ++pos_;
        if (is_group) groups_.pop_back();
        return;
      }
      element();
    }
  }

  std::string s_;
  std::size_t pos_ = 0;
  Document doc_;
  std::vector<std::string> groups_;
};

Document read_svg(std::string const& text) {
  Document d = XmlReader(text).read();
  if (d.elements.empty() || d.elements[0].name != "svg" ||
      d.elements[0].attrs["xmlns"] != "http://www.w3.org/2000/svg")
    throw std::runtime_error("the root is not an <svg> element in the SVG namespace");
  return d;
}

template <class L>
std::string svg_of(L const& l) {
  std::ostringstream os;
  print_svg(os, l);
  return os.str();
}

template <class L>
std::string svg_of_modulo(L const& l, int modulus) {
  std::ostringstream os;
  print_svg(os, l, modulus);
  return os.str();
}

template <class TV, class Tile>
std::string svg_tv_of(TV const& tv, Tile const& tile) {
  std::ostringstream os;
  print_svg_tv(os, tv, tile);
  return os.str();
}

std::vector<std::string> labels(Document const& d) {
  std::vector<std::string> out;
  for (auto const& t : d.cells("text")) out.push_back(t.text);
  return out;
}

TEST(SvgReader, RejectsMalformedDocuments) {
  EXPECT_NO_THROW(read_svg("<svg xmlns=\"http://www.w3.org/2000/svg\"><g><rect/></g></svg>"));
  EXPECT_THROW(read_svg("<svg xmlns=\"http://www.w3.org/2000/svg\"><g></svg>"), std::runtime_error);
  EXPECT_THROW(read_svg("<svg xmlns=\"http://www.w3.org/2000/svg\"><text>a & b</text></svg>"), std::runtime_error);
  EXPECT_THROW(read_svg("<svg xmlns=\"http://www.w3.org/2000/svg\" width=3></svg>"), std::runtime_error);
  EXPECT_THROW(read_svg("<svg xmlns=\"http://www.w3.org/2000/svg\"></svg><svg/>"), std::runtime_error);
}

TEST(Svg, OneLabelledCellPerCoordinate) {
  auto l = make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  Document d = read_svg(svg_of(l));
  EXPECT_EQ(d.count("rect"), std::size_t(size(l)));
  EXPECT_EQ(d.elements[1].name, "title");
  EXPECT_EQ(d.elements[1].text, "(4,(2,3)):(2,(1,8))");
  // Cells come row by row; each is labelled with its index and sits at its own grid position.
  std::vector<std::string> expected;
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 6; ++n) expected.push_back(std::to_string(int(l(m, n))));
  EXPECT_EQ(labels(d), expected);
  std::set<std::string> xs, ys;
  std::set<std::pair<std::string, std::string>> positions;
  for (auto const& r : d.cells("rect")) {
    xs.insert(r.attrs.at("x"));
    ys.insert(r.attrs.at("y"));
    positions.insert({r.attrs.at("x"), r.attrs.at("y")});
  }
  EXPECT_EQ(xs.size(), 6u);
  EXPECT_EQ(ys.size(), 4u);
  EXPECT_EQ(positions.size(), 24u);
}

TEST(Svg, ShadedByIndex) {
  // Stride 0 along mode 1: every row repeats one index, so every row has one colour.
  Document d = read_svg(svg_of(make_layout(make_shape(3, 4), make_stride(1, 0))));
  auto rects = d.cells("rect");
  ASSERT_EQ(rects.size(), 12u);
  std::set<std::string> fills;
  for (int m = 0; m < 3; ++m) {
    for (int n = 0; n < 4; ++n) EXPECT_EQ(rects[std::size_t(m * 4 + n)].attrs.at("fill"), rects[std::size_t(m * 4)].attrs.at("fill"));
    fills.insert(rects[std::size_t(m * 4)].attrs.at("fill"));
  }
  EXPECT_EQ(fills.size(), 3u);
}

TEST(Svg, ColouredByIndexModulo) {
  // Row-major 4x8 coloured by index % 8: each column is one colour, the eight columns all differ.
  Document d = read_svg(svg_of_modulo(make_layout(make_shape(4, 8), make_stride(8, 1)), 8));
  auto rects = d.cells("rect");
  ASSERT_EQ(rects.size(), 32u);
  std::set<std::string> fills;
  for (std::size_t n = 0; n < 8; ++n) {
    for (std::size_t m = 1; m < 4; ++m) EXPECT_EQ(rects[m * 8 + n].attrs.at("fill"), rects[n].attrs.at("fill"));
    fills.insert(rects[n].attrs.at("fill"));
  }
  EXPECT_EQ(fills.size(), 8u);
}

TEST(Svg, SwizzleSpreadsEveryColumnOverAllBanks) {
  // 8x8 chunks row by row, coloured by chunk % 8: unswizzled each column is one colour; with
  // Swizzle<3,0,3> every row and every column holds all eight.
  auto rows = make_layout(Shape<_8, _8>{}, LayoutRight{});
  auto distinct_fills = [](Document const& d, bool by_column) {
    auto rects = d.cells("rect");
    std::set<std::size_t> counts;
    for (std::size_t a = 0; a < 8; ++a) {
      std::set<std::string> fills;
      for (std::size_t b = 0; b < 8; ++b) fills.insert(rects[by_column ? b * 8 + a : a * 8 + b].attrs.at("fill"));
      counts.insert(fills.size());
    }
    return counts;
  };
  Document plain = read_svg(svg_of_modulo(rows, 8));
  EXPECT_EQ(distinct_fills(plain, true), std::set<std::size_t>{1});
  Document swizzled = read_svg(svg_of_modulo(composition(Swizzle<3, 0, 3>{}, rows), 8));
  EXPECT_EQ(swizzled.count("rect"), 64u);
  EXPECT_EQ(swizzled.elements[1].text, "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)");
  EXPECT_EQ(distinct_fills(swizzled, true), std::set<std::size_t>{8});
  EXPECT_EQ(distinct_fills(swizzled, false), std::set<std::size_t>{8});
}

TEST(Svg, RankOneIsOneRowAndStaticLayoutsWork) {
  Document d = read_svg(svg_of(Layout<_8, _2>{}));
  EXPECT_EQ(d.count("rect"), 8u);
  std::set<std::string> ys;
  for (auto const& r : d.cells("rect")) ys.insert(r.attrs.at("y"));
  EXPECT_EQ(ys.size(), 1u);
  EXPECT_EQ(labels(d), (std::vector<std::string>{"0", "2", "4", "6", "8", "10", "12", "14"}));
}

TEST(Svg, ParsedLayoutDrawsAsTheLayoutItSpells) {
  auto l = make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  EXPECT_EQ(svg_of(parse_layout("(4,(2,3)):(2,(1,8))")), svg_of(l));
  EXPECT_EQ(read_svg(svg_of(parse_layout("16:1"))).count("rect"), 16u);
  EXPECT_THROW(svg_of(parse_layout("(2,3,4):(1,2,6)")), std::invalid_argument);
}

// A layout-like type whose text needs escaping in XML.
struct Diagonal {
  int operator()(int m, int n) const { return m == n ? 1 : 0; }
  friend std::ostream& operator<<(std::ostream& os, Diagonal) { return os << "a<b & \"c\""; }
};
template <int I>
int size(Diagonal const&) {
  return 3;
}

TEST(Svg, CaptionIsEscaped) {
  Document d = read_svg(svg_of(Diagonal{}));
  EXPECT_EQ(d.elements[1].text, "a<b & \"c\"");
  EXPECT_EQ(d.count("rect"), 9u);
}

// 4 threads x 2 values over a 2 x 4 tile: (t, v) -> 2t + v, so thread t holds column t.
TEST(SvgTv, EachCellNamesItsThreadAndValue) {
  auto tv = make_layout(make_shape(4, 2), make_stride(2, 1));
  Document d = read_svg(svg_tv_of(tv, make_shape(2, 4)));
  EXPECT_EQ(d.count("rect"), 8u);
  EXPECT_EQ(labels(d), (std::vector<std::string>{"T0V0", "T1V0", "T2V0", "T3V0",    // row m = 0
                                                 "T0V1", "T1V1", "T2V1", "T3V1"}));  // row m = 1
  // One colour per thread: the two cells of a column match, the four columns differ.
  auto rects = d.cells("rect");
  std::set<std::string> fills;
  for (std::size_t n = 0; n < 4; ++n) {
    EXPECT_EQ(rects[n].attrs.at("fill"), rects[4 + n].attrs.at("fill"));
    fills.insert(rects[n].attrs.at("fill"));
  }
  EXPECT_EQ(fills.size(), 4u);
}

TEST(SvgTv, TileMayBeGivenAsALayout) {
  auto tv = make_layout(make_shape(4, 2), make_stride(2, 1));
  EXPECT_EQ(svg_tv_of(tv, make_layout(make_shape(2, 4))), svg_tv_of(tv, make_shape(2, 4)));
}

TEST(SvgTv, NestedThreadAndValueModes) {
  // The accumulator layout of the sm80 16x8 MMA: 32 threads x 4 values over a 16 x 8 tile.
  auto tv = Layout<Shape<Shape<_4, _8>, Shape<_2, _2>>, Stride<Stride<_32, _1>, Stride<_16, _8>>>{};
  Document d = read_svg(svg_tv_of(tv, Shape<_16, _8>{}));
  EXPECT_EQ(d.count("rect"), 128u);
  auto l = labels(d);
  std::set<std::string> distinct(l.begin(), l.end());
  EXPECT_EQ(distinct.size(), 128u);
  for (int t = 0; t < 32; ++t)
    for (int v = 0; v < 4; ++v) {
      std::string label = "T";  // appended piece by piece: g++ 12 warns (falsely) on "T" + ...
      label += std::to_string(t) + 'V' + std::to_string(v);
      EXPECT_TRUE(distinct.count(label)) << label;
    }
  EXPECT_EQ(l[0], "T0V0");        // (m, n) = (0, 0)
  EXPECT_EQ(l[1], "T0V1");        // (0, 1)
  EXPECT_EQ(l[8 * 8 + 0], "T0V2");  // (8, 0)
  EXPECT_EQ(l[1 * 8 + 0], "T4V0");  // (1, 0)
}

TEST(SvgTv, UncoveredCellsAreBlankAndBroadcastsShowTheFirstThread) {
  // Two threads of two values cover columns 0 and 1 of a 2 x 4 tile; columns 2 and 3 stay blank.
  Document half = read_svg(svg_tv_of(make_layout(make_shape(2, 2), make_stride(1, 2)), make_shape(2, 4)));
  EXPECT_EQ(half.count("rect"), 8u);
  EXPECT_EQ(labels(half), (std::vector<std::string>{"T0V0", "T0V1", "T1V0", "T1V1"}));
  EXPECT_EQ(half.cells("rect")[2].attrs.at("fill"), "#ffffff");
  // Both threads hold the same two elements (stride 0 across threads).
  Document broadcast = read_svg(svg_tv_of(make_layout(make_shape(2, 2), make_stride(0, 1)), make_shape(2, 1)));
  EXPECT_EQ(labels(broadcast), (std::vector<std::string>{"T0V0", "T0V1"}));
}

TEST(SvgTv, RefusesALayoutThatLeavesTheTile) {
  auto tv = make_layout(make_shape(4, 2), make_stride(2, 1));
  try {
    svg_tv_of(tv, make_shape(2, 3));
    FAIL() << "expected std::out_of_range";
  } catch (std::out_of_range const& e) {
    EXPECT_EQ(std::string(e.what()), "print_svg_tv: thread 3, value 0 maps to index 6, outside the 2 x 3 tile");
  }
}

}  // namespace
