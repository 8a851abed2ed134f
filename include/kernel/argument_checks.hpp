// Strata floor 4: the rules of GemmArguments that every kernel shares, refused in the same words
// whichever kernel is asked: sizes and counts that make no sense, D's batches overlapping, an
// epilogue that says it cannot run, a C the epilogue reads but was not given. Each kernel's
// can_implement adds its own rules (alignment, grid and shared-memory limits) around these.
#pragma once

#include <string>

#include "status.hpp"

namespace strata::detail {

// Sizes, batches and the raster group.
template <class Args>
Status check_problem_shape(Args const& a) {
  if (a.m < 0 || a.n < 0 || a.k < 0) return {StatusCode::invalid_problem, "m, n and k must not be negative"};
  if (a.batch_count < 1) return {StatusCode::invalid_problem, "batch_count must be at least 1"};
  if (a.raster_group < 1) return {StatusCode::invalid_problem, "raster_group must be at least 1"};
  return Status::success();
}

// D's batches apart, the epilogue's own rule, C present when read (m, n > 0 and D checked).
template <class Args>
Status check_output_and_epilogue(Args const& a) {
  if (a.batch_count > 1 && a.batch_stride_d < a.ldd * (a.m - 1) + a.n)
    return {StatusCode::invalid_leading_dim, "the batches of D overlap: batch_stride_d (" +
                                                 std::to_string(a.batch_stride_d) + ") < ldd * (m - 1) + n"};
  if constexpr (requires { a.epilogue.invalid_reason(); }) {
    if (const char* why = a.epilogue.invalid_reason()) return {StatusCode::invalid_problem, why};
  }
  if (a.epilogue.reads_source() && a.C == nullptr)
    return {StatusCode::null_pointer, "C is null but the epilogue reads it (beta != 0)"};
  return Status::success();
}

}  // namespace strata::detail
