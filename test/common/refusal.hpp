// Strata test helpers for bad-input tests: a Status that refuses with the expected code and a
// message naming what is wrong (every one of a list of words), as a GoogleTest assertion; and a
// table of such cases, each breaking a valid problem one way.
//
//   EXPECT_TRUE(refused(G::can_implement(a), StatusCode::misaligned_pointer, {"A must be 16-byte aligned"}));
//   expect_each_refused(cases, valid(), [](Args const& a) { return G::can_implement(a); });
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <type_traits>
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

// A 16-byte-aligned address that is never dereferenced (the checks only look at it).
template <class P>
P* fake(uintptr_t address) {
  return reinterpret_cast<P*>(address);
}

// A legal 1000 × 1000 × 512 problem on fake pointers: A row-major (lda = k), B column-major
// (ldb = k), C and D row-major (ldd = ldc = n), beta 0.
template <class Args>
Args legal_problem() {
  using TA = std::remove_cv_t<std::remove_pointer_t<decltype(Args::A)>>;
  using TB = std::remove_cv_t<std::remove_pointer_t<decltype(Args::B)>>;
  using TC = std::remove_cv_t<std::remove_pointer_t<decltype(Args::C)>>;
  using TD = std::remove_cv_t<std::remove_pointer_t<decltype(Args::D)>>;
  Args a;
  a.m = 1000, a.n = 1000, a.k = 512;
  a.A = fake<const TA>(0x100000), a.lda = 512;
  a.B = fake<const TB>(0x200000), a.ldb = 512;
  a.C = fake<const TC>(0x300000), a.ldc = 1000;
  a.D = fake<TD>(0x400000), a.ldd = 1000;
  a.epilogue = {{1.f, 0.f}};
  return a;
}

// Two batches at the smallest strides that keep them apart (for a case to break one of them).
template <class Args>
void two_batches(Args& a) {
  a.batch_count = 2;
  a.batch_stride_a = int64_t(a.lda) * a.m;
  a.batch_stride_b = int64_t(a.ldb) * a.n;
  a.batch_stride_c = int64_t(a.ldc) * a.m;
  a.batch_stride_d = int64_t(a.ldd) * a.m;
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
