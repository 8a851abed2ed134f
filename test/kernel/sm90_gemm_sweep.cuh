// The shape sweep every Hopper GEMM configuration runs (test/kernel/sm90_gemm_*_test.cu): 1, 7,
// 129, 1000 and 4097 in each dimension, K = 0, each shape alone and again with alpha, beta and C
// over two batches (some with every batch reading the same B, some the same C); fresh random
// operands, D poisoned, every element against the double reference, padding and batch gaps
// checked untouched.
#pragma once

#include <kernel/gemm.hpp>
#include <kernel/sm90_gemm.hpp>

#include <span>
#include <string>

#include "sm80_gemm_harness.cuh"

namespace strata::test {

inline constexpr Shape3 kSm90Shapes[] = {{1, 1, 1},       {7, 7, 7},       {129, 257, 129}, {1000, 1000, 1000},
                                         {4097, 129, 77}, {1, 4097, 1000}, {300, 300, 4096}, {129, 1, 0}};
// Decode and few-tile problems: fewer output tiles than SMs, deep K.
inline constexpr Shape3 kSm90FewTileShapes[] = {{1, 4096, 4096}, {16, 1000, 4097}, {64, 2048, 1000},
                                                {128, 4096, 2048}, {300, 300, 4096}, {7, 7, 7}, {129, 1, 0}};

// `tweak` may change the arguments (split, schedule) before each run.
template <class Kernel, class Tweak = void (*)(typename Gemm<Kernel>::Arguments&)>
void sm90_sweep(uint64_t seed, const char* what, Tweak tweak = [](typename Gemm<Kernel>::Arguments&) {},
                std::span<const Shape3> shapes = kSm90Shapes) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  int variant = 0;
  for (Shape3 s : shapes) {
    for (bool with_c : {false, true}) {
      const bool shared_b = with_c && (variant % 4 == 1);
      const bool shared_c = with_c && (variant++ % 4 == 3);  // one C for every batch (batch_stride_c 0)
      ProblemLayout layout{.batches = with_c ? 2 : 1, .pad_d = 8, .gap_d = 8, .shared_b = shared_b, .with_c = with_c};
      GemmProblem<Kernel> p(s, seed += 7, layout);
      auto args = p.arguments();
      const float alpha = with_c ? 0.75f : 1.f, beta = with_c ? -1.5f : 0.f;
      args.epilogue = LinearCombination{{alpha, beta}};
      tweak(args);
      if (shared_c) args.batch_stride_c = 0;
      const std::string label = std::string(what) + (with_c ? ", beta, 2 batches" : "") +
                                (shared_b ? ", one B for both" : "") + (shared_c ? ", one C for both" : "");
      const Status st = Gemm<Kernel>::can_implement(args);
      ASSERT_TRUE(bool(st)) << label << " " << describe(s) << ": " << st.message();
      ASSERT_TRUE(bool(p.run(args))) << label << " " << describe(s);
      p.check([&](int i, int j, int bt, double ref) {
                return alpha * ref + (with_c ? beta * p.source(i, j, shared_c ? 0 : bt) : 0.0);
              },
              label, alpha);
    }
  }
}

// Run three times on one initialization: the counters each run leaves must let the next add up.
template <class Kernel>
inline void rerun_without_initializing(uint64_t seed, void (*tweak)(typename Gemm<Kernel>::Arguments&)) {
  if (std::string why = compute_capability_mismatch(9, 0, true); !why.empty()) GTEST_SKIP() << why;
  GemmProblem<Kernel> p({64, 1000, 4096}, seed);
  auto args = p.arguments();
  tweak(args);
  Gemm<Kernel> gemm;
  const size_t bytes = Gemm<Kernel>::workspace_size(args);
  ASSERT_GT(bytes, 0u);
  DeviceBuffer<char> ws(bytes);
  ASSERT_TRUE(bool(gemm.initialize(args, ws.get(), bytes)));
  for (int run = 0; run < 3; ++run) {
    p.poison();
    ASSERT_TRUE(bool(gemm.run()));
    throw_on_error(cudaDeviceSynchronize(), "GEMM");
    p.check([](int, int, int, double ref) { return ref; }, "rerun " + std::to_string(run));
  }
}
template <class T, class LA, class LB, int BM, int BN, Sm90Schedule S = Sm90Schedule::cooperative, int CM = 1,
          int CN = 1>
using Sm90TestConfig = Sm90GemmConfig<T, LA, LB, BM, BN, 128 / int(sizeof(T)), 4, S, CM, CN>;

}  // namespace strata::test
