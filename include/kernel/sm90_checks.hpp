// Strata floor 4: the Hopper kernel's own rules for its operands and outputs (can_implement in
// kernel/sm90_gemm.hpp): the work splits it takes, TMA's alignment and extent rules for A and B,
// element alignment and extent for what plain stores write. Each refusal names the operand or
// field and the rule it breaks.
#pragma once

#include <cstdint>
#include <string>

#include "../atom/tma.hpp"
#include "gemm_arguments.hpp"
#include "status.hpp"

namespace strata::detail {

// The work splits the Hopper kernel takes: serial split-K or Stream-K, not both, and Stream-K only
// without clusters (a cluster's CTAs walk the same K ranges; split-K takes clusters).
template <class Args>
Status sm90_check_work_split(Args const& a, int cluster_size) {
  if (a.split_k < 0) return {StatusCode::invalid_problem, "split_k must not be negative"};
  if (a.split_k > 1 && a.schedule == Schedule::stream_k)
    return {StatusCode::invalid_problem, "split_k > 1 and the Stream-K schedule exclude each other"};
  if (a.split_k > 1 && a.split_k_mode == SplitKMode::parallel)
    return {StatusCode::unsupported, "the Hopper kernel adds split-K partial tiles inside the GEMM (serial); "
                                     "SplitKMode::parallel is not supported"};
  if (cluster_size > 1 && a.schedule == Schedule::stream_k)
    return {StatusCode::unsupported, "Stream-K needs a configuration without clusters (ClusterM = ClusterN = 1): "
                                     "a cluster's CTAs walk the same K ranges; split-K takes clusters"};
  return Status::success();
}

// Batches an operand's TMA tensor has: one when every batch reads the same matrix (stride 0).
inline int sm90_operand_batches(int batches, int64_t batch_stride) { return batch_stride == 0 ? 1 : batches; }

// TMA's rules for an operand: the pointer and every stride but the contiguous one's 16-byte
// aligned, the leading dimension covering the contiguous extent.
template <class Operand, class T>
Status sm90_check_tma_operand(const char* name, T const* ptr, int64_t ld, int64_t batch_stride, int rows, int k,
                              int batches) {
  const std::string n(name), ld_name = "ld" + std::string(1, char(name[0] + 32));
  if (ptr == nullptr) return {StatusCode::null_pointer, n + " is null while k > 0"};
  if (reinterpret_cast<uintptr_t>(ptr) % 16 != 0)
    return {StatusCode::misaligned_pointer, n + " must be 16-byte aligned (TMA reads it)"};
  const int64_t extent = Operand::contiguous_extent(rows, k);
  if (ld < extent)
    return {StatusCode::invalid_leading_dim, ld_name + " (" + std::to_string(ld) +
                                                 ") is smaller than the contiguous extent of " + n + " (" +
                                                 std::to_string(extent) + ")"};
  if ((ld * int64_t(sizeof(T))) % 16 != 0)
    return {StatusCode::misaligned_leading_dim, ld_name + " (" + std::to_string(ld) + ") must be a multiple of " +
                                                    std::to_string(16 / sizeof(T)) + " elements (16 bytes: TMA)"};
  batches = sm90_operand_batches(batches, batch_stride);
  if (batches > 1 && (batch_stride * int64_t(sizeof(T))) % 16 != 0)
    return {StatusCode::misaligned_leading_dim, "the batch stride of " + n + " must be a multiple of " +
                                                    std::to_string(16 / sizeof(T)) + " elements (16 bytes: TMA)"};
  // The box against TMA's own rules (no GPU needed).
  TmaEncodeArgs args;
  if (Status s = make_tma_args(args, ptr, Operand::global_layout(rows, k, ld, batch_stride, batches),
                               typename Operand::TmaBox{});
      !s)
    return {s.code(), n + ": " + s.message()};
  return Status::success();
}

// C and D go through plain stores: element alignment and a leading dimension of at least n.
template <class T>
Status sm90_check_output(const char* name, T const* ptr, int64_t ld, int n) {
  const std::string nm(name), ld_name = "ld" + std::string(1, char(name[0] + 32));
  if (reinterpret_cast<uintptr_t>(ptr) % alignof(T) != 0)
    return {StatusCode::misaligned_pointer, nm + " must be aligned to its element size"};
  if (ld < (n > 1 ? n : 1))
    return {StatusCode::invalid_leading_dim, ld_name + " (" + std::to_string(ld) +
                                                 ") is smaller than the contiguous extent of " + nm + " (" +
                                                 std::to_string(n) + ")"};
  return Status::success();
}

}  // namespace strata::detail
