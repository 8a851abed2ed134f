// Strata floor 4: which operand the Hopper kernel's TMA loads ask the L2 to keep, from the problem's
// shape and the CTA tile (host arithmetic; the producer turns it into cache policies).
#pragma once

#include <optional>

#include "../collective/sm90_mainloop.hpp"  // Sm90L2HintPair
#include "gemm_arguments.hpp"                // L2Hints

namespace strata {

// A BM-row block of A is read by each CTA of its tile row, ceil(n / BN) of them; a BN-column block
// of B by ceil(m / BM). Where one operand's blocks are each read by a single CTA and the other's by
// at least kSm90L2ReusedMin, over at least kSm90L2ReusedMinRows rows (m for A, n for B), the first
// streams past the L2 (evict_first) and the second stays (evict_last), either operand order.
// Elsewhere no hint: blocks read by two CTAs ran slower with evict_first (likely their second read
// missed), and with a re-read operand of fewer rows the hints gained nothing or cost time (the
// measurements: bench/RESULTS.md).
inline constexpr long long kSm90L2ReusedMin = 8;
inline constexpr long long kSm90L2ReusedMinRows = 128;

namespace detail {
// Study knob (bench/tools/sm90_tile_probe.cu's PROBE_L2_PAIRS sets it): when set, the pair every
// Hopper kernel initialized meanwhile takes instead of the rule's, unless its hints are off.
inline std::optional<Sm90L2HintPair> study_l2_hints;
}  // namespace detail

inline Sm90L2HintPair sm90_l2_hints(L2Hints mode, long long m, long long n, int bm, int bn) {
  if (mode == L2Hints::off || m <= 0 || n <= 0) return {};
  if (detail::study_l2_hints) return *detail::study_l2_hints;
  const long long reads_of_a = (n + bn - 1) / bn, reads_of_b = (m + bm - 1) / bm;
  // Whether an operand read `once` streams past the other, read `reused` times over `rows` rows.
  const auto streams = [](long long once, long long reused, long long rows) {
    return once == 1 && reused >= kSm90L2ReusedMin && rows >= kSm90L2ReusedMinRows;
  };
  if (streams(reads_of_b, reads_of_a, m)) return {arch::L2Hint::evict_last, arch::L2Hint::evict_first};
  if (streams(reads_of_a, reads_of_b, n)) return {arch::L2Hint::evict_first, arch::L2Hint::evict_last};
  return {};
}

}  // namespace strata
