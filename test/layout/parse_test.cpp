// parse_layout: text in operator<<'s notation reads back as the same function; anything else is
// refused with a message naming the problem and its column.
#include <layout/layout.hpp>
#include <layout/parse.hpp>

#include <gtest/gtest.h>

#include <sstream>
#include <string>

using namespace strata;

namespace {

template <class T>
std::string str(T const& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

// Same size, and the same index at every linear coordinate.
template <class L>
::testing::AssertionResult same_function(RuntimeLayout const& parsed, L const& expected) {
  long long n = static_cast<long long>(size(expected));
  if (parsed.size() != n) {
    return ::testing::AssertionFailure() << str(parsed) << " has size " << parsed.size() << ", " << str(expected)
                                         << " has " << n;
  }
  for (long long i = 0; i < n; ++i) {
    long long want = static_cast<long long>(expected(int(i)));
    if (parsed(i) != want) {
      return ::testing::AssertionFailure() << str(parsed) << " gives " << parsed(i) << " at " << i << ", "
                                           << str(expected) << " gives " << want;
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(ParseLayout, EvaluatesAsTheEquivalentMakeLayout) {
  EXPECT_TRUE(same_function(parse_layout("8:1"), make_layout(8, 1)));
  EXPECT_TRUE(same_function(parse_layout("(4,2):(2,1)"), make_layout(make_shape(4, 2), make_stride(2, 1))));
  EXPECT_TRUE(same_function(parse_layout("(4,(2,3)):(2,(1,8))"),
                            make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)))));
  EXPECT_TRUE(same_function(parse_layout("((2,2),(2,(3,2))):((1,12),(2,(4,24)))"),
                            make_layout(make_shape(make_shape(2, 2), make_shape(2, make_shape(3, 2))),
                                        make_stride(make_stride(1, 12), make_stride(2, make_stride(4, 24))))));
  EXPECT_TRUE(same_function(parse_layout("(3,4):(0,-3)"), make_layout(make_shape(3, 4), make_stride(0, -3))));
}

TEST(ParseLayout, ReadsWhatOperatorPrintsIncludingStaticIntegers) {
  auto l = make_layout(make_shape(_8{}, make_shape(4, _2{})), make_stride(_1{}, make_stride(_8{}, 32)));
  ASSERT_EQ(str(l), "(_8,(4,_2)):(_1,(_8,32))");
  RuntimeLayout parsed = parse_layout(str(l));
  EXPECT_TRUE(same_function(parsed, l));
  EXPECT_EQ(str(parsed), "(8,(4,2)):(1,(8,32))");  // every integer is dynamic once parsed
  EXPECT_EQ(str(parse_layout("(4,2):(_-1,-4)")), "(4,2):(-1,-4)");
}

TEST(ParseLayout, BlanksBetweenTokensAreAllowed) {
  EXPECT_EQ(parse_layout("  ( 4 , ( 2,3 ) ) : ( 2 ,(1, 8) )  "), parse_layout("(4,(2,3)):(2,(1,8))"));
}

TEST(ParseLayout, SizesModesAndTwoDimensionalAccess) {
  RuntimeLayout l = parse_layout("(4,(2,3)):(2,(1,8))");
  EXPECT_EQ(l.rank(), 2);
  EXPECT_EQ(size(l), 24);
  EXPECT_EQ(size<0>(l), 4);
  EXPECT_EQ(size<1>(l), 6);
  EXPECT_EQ((size<1, 1>(l)), 3);
  EXPECT_EQ(str(l.mode(1)), "(2,3):(1,8)");
  auto expected = make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8)));
  for (int m = 0; m < 4; ++m)
    for (int n = 0; n < 6; ++n) EXPECT_EQ(l(m, n), int(expected(m, n))) << m << "," << n;
  EXPECT_THROW(parse_layout("8:1")(0, 0), std::invalid_argument);
  EXPECT_THROW(l.mode(2), std::out_of_range);
}

TEST(ParseLayout, GroupGathersModes) {
  RuntimeLayout l = parse_layout("(2,3,4):(1,2,6)");
  RuntimeLayout g = group(l, 1, 3);
  EXPECT_EQ(str(g), "(2,(3,4)):(1,(2,6))");
  for (long long i = 0; i < 24; ++i) EXPECT_EQ(g(i), l(i));
  EXPECT_THROW(group(l, 2, 2), std::out_of_range);
}

// The message of the error parse_layout throws for `text`, and its column.
std::pair<std::string, std::size_t> error_of(std::string const& text) {
  try {
    parse_layout(text);
  } catch (LayoutParseError const& e) {
    return {e.what(), e.column()};
  }
  return {"(no error)", 0};
}

TEST(ParseLayout, MalformedInputNamesTheProblemAndTheColumn) {
  using Error = std::pair<std::string, std::size_t>;
  EXPECT_EQ(error_of("(4,2"), Error("expected ',' or ')' at column 5, found the end of the input", 5));
  EXPECT_EQ(error_of("4:"), Error("expected an integer or '(' at column 3, found the end of the input", 3));
  EXPECT_EQ(error_of("(4,2):(1)"),
            Error("the stride is not congruent with the shape at column 7: the shape's (4,2) has 2 modes, "
                  "the stride's (1) has 1",
                  7));
  EXPECT_EQ(error_of("(4,2):((1,2),3)"),
            Error("the stride is not congruent with the shape at column 8: the shape has the integer 4 where "
                  "the stride has the tuple (1,2)",
                  8));
  EXPECT_EQ(error_of("abc"), Error("expected an integer or '(' at column 1, found 'a'", 1));
  EXPECT_EQ(error_of(""), Error("expected a layout such as (4,2):(1,4) at column 1, found the end of the input", 1));
  EXPECT_EQ(error_of("   "), Error("expected a layout such as (4,2):(1,4) at column 4, found the end of the input", 4));
  EXPECT_EQ(error_of("(4,(2,3))"), Error("expected ':' after the shape at column 10, found the end of the input", 10));
  EXPECT_EQ(error_of("(4,2)x(1,4)"), Error("expected ':' after the shape at column 6, found 'x'", 6));
  EXPECT_EQ(error_of("(4,2):(2,1))"), Error("unexpected ')' after the layout at column 12", 12));
  EXPECT_EQ(error_of("()"), Error("expected an integer or '(' at column 2, found ')'", 2));
  EXPECT_EQ(error_of("(4,_):(1,4)"), Error("expected digits at column 5, found ')'", 5));
  EXPECT_EQ(error_of("(4,0):(1,4)"), Error("a shape's extent must be positive at column 4, found 0", 4));
  EXPECT_EQ(error_of("99999999999:1"), Error("an integer must be at most 2147483647 at column 1", 1));
  EXPECT_EQ(error_of("(65536,65536):(1,65536)"), Error("a layout must have at most 2147483647 elements at column 8", 8));
}

TEST(ParseLayout, ErrorsAreInvalidArguments) {
  EXPECT_THROW(parse_layout("(4,2"), std::invalid_argument);
}

}  // namespace
