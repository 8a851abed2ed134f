// Strata: the result of a check or a request: a code and, when it refuses, why, in words.
// It sits on floor 2 so that atoms (the TMA descriptor builder) can refuse in the same words as
// kernels; include/kernel/status.hpp re-exports it for floor 4.
#pragma once

#include <string>
#include <utility>

namespace strata {

enum class StatusCode {
  success,
  invalid_problem,        // a size, batch or split count that makes no sense
  null_pointer,           // a pointer the problem needs is null
  misaligned_pointer,     // a pointer is not aligned as the kernel's vector accesses need
  misaligned_leading_dim, // a leading dimension or batch stride breaks that alignment
  invalid_leading_dim,    // a leading dimension or batch stride too small: rows or batches overlap
  unsupported,            // a layout, type or option this kernel does not implement
  workspace_too_small,    // the caller's workspace is smaller than workspace_size()
  problem_too_large,      // an index would overflow the kernel's index type
  not_initialized,        // run() before a successful initialize()
  cuda_error,             // the CUDA runtime refused (launch or attribute failure)
};

// A Status says success, or what is wrong and why. It is cheap to return and test:
//   if (Status s = gemm.can_implement(args); !s) std::cerr << s.message() << '\n';
class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status success() { return {}; }

  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  bool ok() const { return code_ == StatusCode::success; }
  explicit operator bool() const { return ok(); }

 private:
  StatusCode code_ = StatusCode::success;
  std::string message_;
};

}  // namespace strata
