// Strata test helpers for bad-input tests: a Status that refuses with the expected code and a
// message naming what is wrong (every one of a list of words), as a GoogleTest assertion; and a
// table of such cases, each breaking a valid problem one way.
//
//   EXPECT_TRUE(refused(G::can_implement(a), StatusCode::misaligned_pointer, {"A must be 16-byte aligned"}));
//   expect_each_refused(cases, valid(), [](Args const& a) { return G::can_implement(a); });
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include <atom/status.hpp>

namespace strata::test {

// `s` is a refusal with `code` whose message holds every one of `words`.
inline testing::AssertionResult refused(Status const& s, StatusCode code, std::vector<std::string> const& words) {
  if (s.ok()) return testing::AssertionFailure() << "accepted";
  if (s.code() != code)
    return testing::AssertionFailure() << "refused with code " << int(s.code()) << " instead of " << int(code)
                                       << ": " << s.message();
  for (std::string const& w : words)
    if (s.message().find(w) == std::string::npos)
      return testing::AssertionFailure() << "message \"" << s.message() << "\" does not mention \"" << w << "\"";
  return testing::AssertionSuccess();
}

// One kind of bad input: how it breaks a valid problem, and how the refusal must read.
template <class Args>
struct RefusalCase {
  const char* name;
  std::function<void(Args&)> mutate;
  StatusCode code;
  std::vector<std::string> words;
};

// Each case applied to `valid` is refused by `check` (a can_implement) with its code and words.
template <class Args, class Check>
void expect_each_refused(std::vector<RefusalCase<Args>> const& cases, Args const& valid, Check&& check) {
  for (RefusalCase<Args> const& c : cases) {
    Args a = valid;
    c.mutate(a);
    EXPECT_TRUE(refused(check(a), c.code, c.words)) << c.name;
  }
}

}  // namespace strata::test
