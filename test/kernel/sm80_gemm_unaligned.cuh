// The sweep of the Ampere GEMM under an Alignment below 16 bytes (Sm80GemmConfig's last
// parameter, what Sm80AutoGemm falls back to): leading dimensions, batch strides and so batch base
// pointers that are odd numbers of elements, so the rows of one matrix start at every alignment (2,
// 4, 8 and 16 bytes for 16-bit elements) and each 16-byte chunk takes a different copy. Every
// element is checked against a double reference, D poisoned before, padding and gaps checked
// untouched.
//
// A header so that the bf16 element-aligned configurations, which Sm80AutoGemm's tests already
// instantiate (sm80_gemm_tiles_test.cu, sm80_gemm_tiles_mn_major_test.cu), run this sweep in the
// same translation units instead of compiling those kernels once more (each configuration costs
// seconds of nvcc; a kernel is instantiated once per translation unit). The other element types
// run it in sm80_gemm_unaligned_test.cu.
#pragma once

#include <string>
#include <type_traits>

#include "sm80_gemm_harness.cuh"

namespace strata::test {

// Odd pads and gaps: no row or batch of any operand keeps the 16-byte rule by construction.
inline constexpr ProblemLayout kOddLayout{.batches = 2, .pad_a = 1, .pad_b = 3, .pad_c = 5, .pad_d = 1,
                                          .gap_a = 3, .gap_b = 1, .gap_c = 7, .gap_d = 3, .with_c = true};

inline constexpr Shape3 kUnalignedShapes[] = {{1, 1, 1}, {7, 13, 9}, {129, 257, 129}, {300, 77, 1000}, {64, 1000, 4097}};

// D = alpha A·B + beta C for each shape, then serial and parallel split-K and Stream-K on one.
// Integer outputs get integer alpha and beta, so the exact result is an integer too.
template <class Kernel>
void unaligned_sweep(uint64_t seed, const char* what) {
  STRATA_REQUIRE_SM(8, 0);
  constexpr bool integer = std::is_integral_v<typename Kernel::ElementD>;
  const float alpha = integer ? 2.f : 0.5f, beta = integer ? -3.f : -1.25f;
  auto run_case = [&](Shape3 s, const char* how, auto&& tweak) {
    GemmProblem<Kernel> p(s, seed += 11, kOddLayout);
    auto args = p.arguments();
    args.epilogue = LinearCombination{{alpha, beta}};
    tweak(args);
    const std::string label = std::string(what) + how;
    const Status st = Gemm<Kernel>::can_implement(args);
    ASSERT_TRUE(bool(st)) << label << " " << describe(s) << ": " << st.message();
    ASSERT_TRUE(bool(p.run(args))) << label << " " << describe(s);
    p.check([&](int i, int j, int bt, double ref) { return alpha * ref + beta * p.source(i, j, bt); }, label, alpha);
  };
  for (Shape3 s : kUnalignedShapes) run_case(s, "", [](auto&) {});
  const Shape3 split{100, 300, 2000};
  run_case(split, ", split-K 3 serial", [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::serial; });
  run_case(split, ", split-K 3 parallel", [](auto& a) { a.split_k = 3, a.split_k_mode = SplitKMode::parallel; });
  run_case({1000, 1000, 300}, ", Stream-K", [](auto& a) { a.schedule = Schedule::stream_k; });
}

}  // namespace strata::test
