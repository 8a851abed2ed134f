// Strata test helper for bad-input tests: a Status that refuses with the expected code and a
// message naming what is wrong (every one of a list of words), as a GoogleTest assertion.
//
//   EXPECT_TRUE(refused(G::can_implement(a), StatusCode::misaligned_pointer, {"A must be 16-byte aligned"}));
#pragma once

#include <gtest/gtest.h>

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

}  // namespace strata::test
