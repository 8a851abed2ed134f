// The 112-column candidate tiles (test/kernel/sm90_gemm_wave_test.cu, bench/tools/sm90_tile_probe.cu)
// and the probe's 2 x 1 cluster tiles: ptxas must not serialize their wgmma. Compiled, never run:
// the ptxas check (cmake/StrataPtxasCheck.cmake).
#include <cuda_bf16.h>

#include <kernel/gemm.hpp>
#include <kernel/sm90_gemm.hpp>

namespace {
using namespace strata;
using T = __nv_bfloat16;
template <int BM, int BN, int Stages, Sm90Schedule S, int ClusterM = 1>
using Config = Sm90GemmConfig<T, RowMajor, ColumnMajor, BM, BN, 64, Stages, S, ClusterM>;
}  // namespace

template class strata::Gemm<
    Sm90GemmKernel<Config<64, 112, 8, Sm90Schedule::pingpong>, T, LinearCombination, Sm90Store::plain>>;
template class strata::Gemm<
    Sm90GemmKernel<Config<128, 112, 6, Sm90Schedule::cooperative>, T, LinearCombination, Sm90Store::plain>>;
template class strata::Gemm<Sm90GemmKernel<Config<64, 64, 12, Sm90Schedule::pingpong, 2>, T, LinearCombination>>;
template class strata::Gemm<Sm90GemmKernel<Config<64, 128, 8, Sm90Schedule::pingpong, 2>, T, LinearCombination>>;
