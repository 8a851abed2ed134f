// Strata floor 4: the host-side face of a GEMM kernel, the same for every kernel.
//
//   using Kernel = strata::Sm80GemmKernel<Config, __nv_bfloat16, strata::LinearCombination>;
//   strata::Gemm<Kernel> gemm;
//   Kernel-independent arguments: sizes, pointers, leading dimensions, epilogue, batch, split-K
//   if (strata::Status s = gemm.can_implement(args); !s) { report(s.message()); }
//   gemm.initialize(args, workspace, workspace_bytes, stream);   // workspace_size(args) bytes
//   gemm.run(stream);                                            // as often as needed
//
// Matrices: A is m × k and B is k × n in the majorness of the kernel's Config; C and D are m × n
// row-major. Refused input launches nothing and writes nothing.
//
// The kernel owns everything about its launch (the kernel contract, ../shared/DESIGN.md): it
// answers can_implement, workspace_size, initialize_workspace, to_params, grid, block,
// smem_bytes, cluster and launch. Gemm<Kernel> only calls them in order and reports their Status.
#pragma once

#include <cuda_runtime.h>

#include <concepts>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gemm_arguments.hpp"
#include "sm80_gemm.hpp"
#include "status.hpp"

namespace strata {

// What Gemm<Kernel> needs of a kernel type.
template <class Kernel>
concept GemmKernel = requires(typename Kernel::Arguments const& a, typename Kernel::Params const& p, void* ws,
                              cudaStream_t stream) {
  { Kernel::can_implement(a) } -> std::same_as<Status>;
  { Kernel::workspace_size(a) } -> std::convertible_to<size_t>;
  { Kernel::initialize_workspace(a, ws, size_t(0), stream) } -> std::same_as<Status>;
  { Kernel::to_params(a, ws) } -> std::same_as<typename Kernel::Params>;
  { Kernel::grid(p) } -> std::same_as<dim3>;
  { Kernel::block() } -> std::same_as<dim3>;
  { Kernel::cluster(p) } -> std::same_as<dim3>;
  { Kernel::smem_bytes } -> std::convertible_to<int>;
  { Kernel::launch(p, stream, LaunchOptions{}) } -> std::same_as<Status>;
};

template <GemmKernel Kernel>
class Gemm {
 public:
  using Config = typename Kernel::Config;
  using ElementA = typename Kernel::ElementA;
  using ElementB = typename Kernel::ElementB;
  using ElementC = typename Kernel::ElementC;
  using ElementD = typename Kernel::ElementD;
  using Functor = typename Kernel::Functor;

  // The same type for every kernel with these element types and epilogue, so one Arguments
  // value can go to any of them (Sm80AutoGemm picks among several).
  using Arguments = GemmArguments<ElementA, ElementB, ElementC, ElementD, Functor>;
  static_assert(std::is_same_v<Arguments, typename Kernel::Arguments>,
                "Gemm: the kernel must take GemmArguments of its element types and epilogue");

  // Whether this kernel can compute `args`, and if not, why.
  static Status can_implement(Arguments const& a) { return Kernel::can_implement(a); }

  // Bytes of device workspace initialize() needs for `args` (0 unless K is split or Stream-K
  // runs; work_plan.hpp says what they hold). One initialize() serves any number of runs, one at
  // a time; after another GEMM has run on the same workspace, initialize() again before running
  // this one.
  static size_t workspace_size(Arguments const& a) { return Kernel::workspace_size(a); }

  // Checks `args` and prepares the launch (the kernel zeroes what its workspace must start as, on
  // `stream`). Nothing is launched or written on refusal.
  Status initialize(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    initialized_ = false;
    if (Status s = Kernel::can_implement(a); !s) return s;
    if (Status s = Kernel::initialize_workspace(a, workspace, workspace_bytes, stream); !s) return s;
    params_ = Kernel::to_params(a, workspace);
    initialized_ = true;
    return Status::success();
  }

  // Runs the prepared GEMM on `stream`.
  Status run(cudaStream_t stream = nullptr, LaunchOptions const& options = {}) const {
    if (!initialized_) return {StatusCode::not_initialized, "run() before a successful initialize()"};
    return Kernel::launch(params_, stream, options);
  }

  // The launch shape of the prepared GEMM (for logs and benches: which CTAs run it).
  dim3 grid() const { return Kernel::grid(params_); }
  dim3 cluster() const { return Kernel::cluster(params_); }

  // initialize + run.
  Status operator()(Arguments const& a, void* workspace = nullptr, size_t workspace_bytes = 0,
                    cudaStream_t stream = nullptr) {
    if (Status s = initialize(a, workspace, workspace_bytes, stream); !s) return s;
    return run(stream);
  }

  // The kernel's answers about how it shares out `args` (where it gives them): the split count
  // run() uses, whether Stream-K runs, whether K pairs do and the whole plan (Hopper), Stream-K's
  // partition (Ampere), output tiles of one batch, and the CTAs its entries hold at once.
  static int effective_splits(Arguments const& a) requires requires { Kernel::effective_splits(a); }
  { return Kernel::effective_splits(a); }
  static bool uses_stream_k(Arguments const& a) requires requires { Kernel::uses_stream_k(a); }
  { return Kernel::uses_stream_k(a); }
  static bool uses_pairs(Arguments const& a) requires requires { Kernel::uses_pairs(a); }
  { return Kernel::uses_pairs(a); }
  static auto work_plan(Arguments const& a) requires requires { Kernel::work_plan(a); }
  { return Kernel::work_plan(a); }
  static auto stream_k_partition(Arguments const& a) requires requires { Kernel::stream_k_partition(a); }
  { return Kernel::stream_k_partition(a); }
  static long long tile_count(Arguments const& a) requires requires { Kernel::tile_count(a); }
  { return Kernel::tile_count(a); }
  static int wave() requires requires { Kernel::wave(); }
  { return Kernel::wave(); }
  static int split_k_wave() requires requires { Kernel::split_k_wave(); }
  { return Kernel::split_k_wave(); }

 private:
  typename Kernel::Params params_{};
  bool initialized_ = false;
};

namespace detail {
// For a tile set's dispatch (Sm80AutoGemm, Sm90AutoGemm): f(pointer to element I of the tuple of
// Gemms): into `gemms` when given, else a null pointer of its type (for the static members).
template <class Gemms, size_t I, class F, class Tuple>
auto visit_gemm(F&& f, Tuple&& gemms) {
  using G = std::tuple_element_t<I, Gemms>;
  if constexpr (std::is_same_v<std::decay_t<Tuple>, std::nullptr_t>)
    return f(static_cast<G*>(nullptr));
  else
    return f(&std::get<I>(gemms));
}
}  // namespace detail

}  // namespace strata
