// How the benches run a strata GEMM (automatic split-K unless told, one GEMM per input set sharing one
// workspace): bench/sm80_gemm.cu and bench/tools/sm80_power.cu use it, so both measure the same.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <kernel/gemm.hpp>

#include "gemm_bench.cuh"

namespace strata::bench {

// Runs one strata kernel on input set `i`; returns false (and says why) if refused. Each input set
// has its own GEMM, initialized once (as a model layer would hold it) and run many times.
template <class G, class T, class TD>
struct StrataRunner {
  std::vector<G> gemms;
  std::unique_ptr<DeviceArray<char>> workspace;
  Schedule schedule = Schedule::automatic;
  SplitKMode split_k_mode = SplitKMode::automatic;
  int split_k = 0;  // 0: automatic, split K when the tiles alone do not fill the GPU
  L2Hints l2_hints = L2Hints::automatic;  // the Hopper kernel's TMA cache hints (Arguments::l2_hints)
  LaunchOptions options{};  // e.g. programmatic dependent launch, where run() takes options

  bool prepare(int m, int n, int k, std::vector<T*> const& a, std::vector<T*> const& b, TD* d, std::string& why) {
    std::vector<typename G::Arguments> args;
    for (size_t i = 0; i < a.size(); ++i) {
      typename G::Arguments x;
      x.m = m; x.n = n; x.k = k;
      x.A = a[i]; x.lda = k; x.B = b[i]; x.ldb = k; x.D = d; x.ldd = n;
      x.epilogue = {{1.f, 0.f}};
      x.split_k = split_k;
      x.schedule = schedule;
      x.split_k_mode = split_k_mode;
      x.l2_hints = l2_hints;
      args.push_back(x);
    }
    const size_t ws = G::workspace_size(args[0]);
    workspace = std::make_unique<DeviceArray<char>>(int64_t(ws));
    gemms.resize(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      Status s = gemms[i].initialize(args[i], workspace->ptr, size_t(workspace->count));
      if (!s) { why = s.message(); return false; }
    }
    return true;
  }
  void launch(int i) {
    G const& g = gemms[size_t(i) % gemms.size()];
    Status s = Status::success();
    if constexpr (requires { g.run(cudaStream_t{}, options); })
      s = g.run(nullptr, options);
    else
      s = g.run();
    if (!s) throw std::runtime_error("strata GEMM: " + s.message());
  }
};

// Runs `runner` on input sets 0 and the last one into D (poisoned first) and `cublas` on the same
// sets into d_ref, and compares (compare_outputs, `rel_tol`); empty when they agree, else what
// differs.
template <class Runner, class Cublas, class TD>
std::string differs_from_cublas(Runner& runner, Cublas&& cublas, TD* d, TD const* d_ref, int64_t count, int sets,
                                double rel_tol) {
  for (int set : {0, sets - 1}) {
    check(cudaMemset(d, 0xFF, size_t(count) * sizeof(TD)), "poison D");
    runner.launch(set);
    cublas(set);
    check(cudaDeviceSynchronize(), "strata and cuBLAS outputs");
    const OutputComparison c = compare_outputs(d, d_ref, count, rel_tol, 1e-2);
    if (c.relative_error > 1e-2 || c.far_elements > 0)
      return "differs from cuBLAS: relative error " + std::to_string(c.relative_error) + ", " +
             std::to_string(c.far_elements) + " elements off";
  }
  return {};
}

}  // namespace strata::bench
