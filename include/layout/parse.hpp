// Strata: layouts read from text at run time, e.g. from a command line: `(4,(2,3)):(2,(1,8))`.
//
// parse_layout(text) gives a RuntimeLayout: the function of the Layout that operator<< prints as
// that text, its structure and integers known only at run time (a static `_4` reads as 4). It
// evaluates, has a size and modes, prints back in the same notation, and the printers of
// print.hpp and svg.hpp draw it. Text that is not a layout throws LayoutParseError, whose message
// names what was expected and the column where the input went wrong.
#pragma once

#include <climits>
#include <cstddef>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strata {

// An integer or a tuple of them, nested to any depth.
struct RuntimeIntTuple {
  long long value = 0;                 // a leaf's integer
  std::vector<RuntimeIntTuple> modes;  // a tuple's elements
  bool is_tuple = false;

  int rank() const { return is_tuple ? int(modes.size()) : 1; }

  // The product of the leaves.
  long long product() const {
    if (!is_tuple) return value;
    long long p = 1;
    for (auto const& m : modes) p *= m.product();
    return p;
  }

  // The index of the colexicographic coordinate i of this shape, with `stride` congruent to it: the
  // last mode is not reduced, as in crd2idx, so i >= product() runs on along it.
  long long index(long long i, RuntimeIntTuple const& stride) const {
    if (!is_tuple) return i * stride.value;
    long long result = 0;
    for (std::size_t k = 0; k < modes.size(); ++k) {
      if (k + 1 == modes.size()) return result + modes[k].index(i, stride.modes[k]);
      long long extent = modes[k].product();
      result += modes[k].index(i % extent, stride.modes[k]);
      i /= extent;
    }
    return result;
  }

  friend bool operator==(RuntimeIntTuple const&, RuntimeIntTuple const&) = default;

  friend std::ostream& operator<<(std::ostream& os, RuntimeIntTuple const& t) {
    if (!t.is_tuple) return os << t.value;
    os << '(';
    for (std::size_t k = 0; k < t.modes.size(); ++k) os << (k == 0 ? "" : ",") << t.modes[k];
    return os << ')';
  }
};

// A layout whose shape and stride are RuntimeIntTuples, congruent with each other.
struct RuntimeLayout {
  RuntimeIntTuple shape;
  RuntimeIntTuple stride;

  int rank() const { return shape.rank(); }
  long long size() const { return shape.product(); }

  // layout<i>(l): mode i as a layout of its own.
  RuntimeLayout mode(int i) const {
    if (i < 0 || i >= rank()) {
      throw std::out_of_range("RuntimeLayout: mode " + std::to_string(i) + " of a layout of rank " +
                              std::to_string(rank()));
    }
    if (!shape.is_tuple) return *this;
    return {shape.modes[std::size_t(i)], stride.modes[std::size_t(i)]};
  }

  // l(i): the index of the colexicographic coordinate i.
  long long operator()(long long i) const { return shape.index(i, stride); }

  // l(m, n): the index of coordinate (m, n) of a rank-2 layout, m and n each indexing their mode.
  long long operator()(long long m, long long n) const {
    if (rank() != 2) {
      throw std::invalid_argument("RuntimeLayout: a coordinate (m, n) needs a layout of rank 2, this one has rank " +
                                  std::to_string(rank()));
    }
    return mode(0)(m) + mode(1)(n);
  }

  friend bool operator==(RuntimeLayout const&, RuntimeLayout const&) = default;

  friend std::ostream& operator<<(std::ostream& os, RuntimeLayout const& l) {
    return os << l.shape << ':' << l.stride;
  }
};

// size(l), size<I>(l), size<I, J>(l): as for a Layout.
template <int... Is>
long long size(RuntimeLayout const& l) {
  RuntimeLayout sub = l;
  ((sub = sub.mode(Is)), ...);
  return sub.size();
}

// group(l, begin, end): modes [begin, end) of l gathered into one mode, the others unchanged; how a
// layout of rank 3 or more is made drawable in 2-D (group(l, 1, rank)).
inline RuntimeLayout group(RuntimeLayout const& l, int begin, int end) {
  if (!(0 <= begin && begin < end && end <= l.rank())) {
    throw std::out_of_range("group: need 0 <= begin < end <= rank, got [" + std::to_string(begin) + ", " +
                            std::to_string(end) + ") for rank " + std::to_string(l.rank()));
  }
  if (!l.shape.is_tuple) return l;
  auto regroup = [&](RuntimeIntTuple const& t) {
    RuntimeIntTuple inner{0, {t.modes.begin() + begin, t.modes.begin() + end}, true};
    RuntimeIntTuple out{0, {t.modes.begin(), t.modes.begin() + begin}, true};
    out.modes.push_back(std::move(inner));
    out.modes.insert(out.modes.end(), t.modes.begin() + end, t.modes.end());
    return out;
  };
  return {regroup(l.shape), regroup(l.stride)};
}

// What is wrong with a layout's text, and where: column() counts from 1. The message reads
// "<problem> at column <c><detail>", e.g. "expected ':' after the shape at column 6, found 'x'".
class LayoutParseError : public std::invalid_argument {
 public:
  LayoutParseError(std::string const& problem, std::size_t column, std::string const& detail = "")
      : std::invalid_argument(problem + " at column " + std::to_string(column) + detail), column_(column) {}
  std::size_t column() const { return column_; }

 private:
  std::size_t column_;
};

namespace detail {

// Recursive descent over  layout := int_tuple ':' int_tuple
//                         int_tuple := integer | '(' int_tuple (',' int_tuple)* ')'
//                         integer := ['_'] ['-'] digits
// with blanks allowed between tokens. Each node remembers its column for the congruence message.
class LayoutParser {
 public:
  explicit LayoutParser(std::string_view text) : text_(text) {}

  RuntimeLayout parse() {
    skip_blanks();
    if (at_end()) fail_expected("a layout such as (4,2):(1,4)");
    Node shape = int_tuple();
    skip_blanks();
    if (at_end() || peek() != ':') fail_expected("':' after the shape");
    ++pos_;
    Node stride = int_tuple();
    skip_blanks();
    if (!at_end()) fail("unexpected '" + std::string(1, peek()) + "' after the layout");
    check_shape(shape);
    check_congruent(shape, stride);
    return {shape.value, stride.value};
  }

 private:
  struct Node {
    RuntimeIntTuple value;
    std::size_t column;
    std::vector<Node> children;
  };

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  std::size_t column() const { return pos_ + 1; }
  static bool is_digit(char c) { return c >= '0' && c <= '9'; }

  void skip_blanks() {
    while (!at_end() && (peek() == ' ' || peek() == '\t')) ++pos_;
  }

  [[noreturn]] void fail(std::string const& problem) const { throw LayoutParseError(problem, column()); }
  // "expected <what> at column c, found 'x'" (or "found the end of the input").
  [[noreturn]] void fail_expected(std::string const& what) const {
    throw LayoutParseError("expected " + what, column(),
                           at_end() ? ", found the end of the input" : ", found '" + std::string(1, peek()) + "'");
  }
  [[noreturn]] static void fail_at(std::string const& problem, std::size_t column, std::string const& detail = "") {
    throw LayoutParseError(problem, column, detail);
  }

  Node int_tuple() {
    skip_blanks();
    std::size_t start = column();
    if (!at_end() && peek() == '(') {
      ++pos_;
      Node node{{0, {}, true}, start, {}};
      for (;;) {
        node.children.push_back(int_tuple());
        node.value.modes.push_back(node.children.back().value);
        skip_blanks();
        if (!at_end() && peek() == ',') { ++pos_; continue; }
        if (!at_end() && peek() == ')') { ++pos_; return node; }
        fail_expected("',' or ')'");
      }
    }
    if (!at_end() && (peek() == '_' || peek() == '-' || is_digit(peek()))) return Node{{integer(), {}, false}, start, {}};
    fail_expected("an integer or '('");
  }

  long long integer() {
    std::size_t start = column();
    if (peek() == '_') ++pos_;  // a static integer as operator<< prints it: `_4` is 4
    bool negative = !at_end() && peek() == '-';
    if (negative) ++pos_;
    if (at_end() || !is_digit(peek())) fail_expected("digits");
    long long v = 0;
    while (!at_end() && is_digit(peek())) {
      v = v * 10 + (peek() - '0');
      if (v > INT_MAX) fail_at("an integer must be at most " + std::to_string(INT_MAX), start);
      ++pos_;
    }
    return negative ? -v : v;
  }

  // Extents are positive and a layout's size fits the 32-bit indexing Layout uses.
  static void check_shape(Node const& shape) {
    auto check_leaves = [](auto const& self, Node const& n) -> void {
      if (!n.value.is_tuple && n.value.value < 1) {
        fail_at("a shape's extent must be positive", n.column, ", found " + std::to_string(n.value.value));
      }
      for (auto const& c : n.children) self(self, c);
    };
    check_leaves(check_leaves, shape);
    long long size = 1;
    auto multiply = [&](auto const& self, Node const& n) -> void {
      if (!n.value.is_tuple) {
        size *= n.value.value;
        if (size > INT_MAX) fail_at("a layout must have at most " + std::to_string(INT_MAX) + " elements", n.column);
      }
      for (auto const& c : n.children) self(self, c);
    };
    multiply(multiply, shape);
  }

  static std::string text_of(RuntimeIntTuple const& t) {
    std::string s;
    if (!t.is_tuple) return std::to_string(t.value);
    s += '(';
    for (std::size_t k = 0; k < t.modes.size(); ++k) s += (k == 0 ? "" : ",") + text_of(t.modes[k]);
    return s + ')';
  }

  // Shape and stride must have the same nesting: the first place they differ is reported, at
  // the stride's column.
  static void check_congruent(Node const& shape, Node const& stride) {
    std::string const problem = "the stride is not congruent with the shape";
    if (shape.value.is_tuple != stride.value.is_tuple) {
      fail_at(problem, stride.column, ": the shape has " + describe(shape) + " where the stride has " + describe(stride));
    }
    if (shape.children.size() != stride.children.size()) {
      fail_at(problem, stride.column,
              ": the shape's " + text_of(shape.value) + " has " + std::to_string(shape.children.size()) +
                  " modes, the stride's " + text_of(stride.value) + " has " + std::to_string(stride.children.size()));
    }
    for (std::size_t k = 0; k < shape.children.size(); ++k) check_congruent(shape.children[k], stride.children[k]);
  }

  static std::string describe(Node const& n) {
    return (n.value.is_tuple ? "the tuple " : "the integer ") + text_of(n.value);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace detail

// parse_layout(text): the layout written as `shape:stride` in the notation operator<< prints,
// e.g. `(4,(2,3)):(2,(1,8))` or `(_8,_4):(_1,_8)`. Throws LayoutParseError for anything else.
inline RuntimeLayout parse_layout(std::string_view text) { return detail::LayoutParser(text).parse(); }

}  // namespace strata
