// The split-tail kernels (Sm90GemmConfig's SplitTail): ptxas serialized every wgmma of such a
// kernel whenever a wait had the whole accumulator's batch in flight beside a half's, or the
// stage's addresses were computed before the fence (collective/sm90_mainloop.hpp), and with plain
// stores. Compiled, never run: the ptxas check (cmake/StrataPtxasCheck.cmake).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <kernel/gemm.hpp>
#include <kernel/sm90_gemm.hpp>

namespace {
using namespace strata;
template <class T, class LA, class LB, int BN, int Tail, class TD = T>
using TailKernel = Sm90GemmKernel<
    typename Sm90GemmConfig<T, LA, LB, 128, BN, 128 / int(sizeof(T)), 4>::template WithSplitTail<Tail>, TD,
    LinearCombination>;
}  // namespace

template class strata::Gemm<TailKernel<__nv_bfloat16, RowMajor, ColumnMajor, 256, 1>>;
template class strata::Gemm<TailKernel<__nv_bfloat16, RowMajor, ColumnMajor, 256, 2>>;
template class strata::Gemm<TailKernel<__nv_bfloat16, RowMajor, ColumnMajor, 256, 3>>;
template class strata::Gemm<TailKernel<__half, RowMajor, ColumnMajor, 256, 2>>;
template class strata::Gemm<TailKernel<__nv_bfloat16, ColumnMajor, RowMajor, 256, 3>>;
template class strata::Gemm<TailKernel<float, RowMajor, ColumnMajor, 128, 2>>;
