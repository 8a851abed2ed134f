// Every kernel Sm90AutoGemm runs for bf16 (Sm90Tiles: large, medium, small, decode and wide decode
// in K pairs, huge; their stages fitted beside the epilogue): ptxas must not serialize their wgmma.
// Compiled, never run: the ptxas check (cmake/StrataPtxasCheck.cmake).
#include <cuda_bf16.h>

#include <kernel/sm90_auto_gemm.hpp>

template class strata::Sm90AutoGemm<strata::Sm90Tiles<__nv_bfloat16>, __nv_bfloat16>;
