// Strata example: a SIMT GEMM built only from tensors — how the pieces of floor 1 fit together.
//
//   C = alpha * A * B + beta * C,  fp32, column-major A (M x K), B (K x N), C (M x N), any M, N, K.
//
// Every level of the classic GEMM hierarchy is one line of layout algebra:
//   thread block  local_tile:      the CTA's 64x64 block of C, and the rows of A / columns of B it needs
//   shared memory local_partition: each thread's share of copying one 8-wide k-slice into smem
//   warp          local_tile:      the CTA's 8 warps split its block 2x4 into 32x16 warp tiles
//   thread        local_partition: a warp's 32 threads split its tile 4x8, 8x2 elements each
//   math          copy + gemm:     smem -> register fragments, then plain FMA (MMA atoms replace it)
// Edges: the same partitions of identity tensors give each element's (m, n, k) coordinate, and
// copy_if / the epilogue skip the ones outside the matrix. It is not meant to be fast.
#pragma once

#include <cuda_runtime.h>

#include "layout/partition.hpp"
#include "layout/tensor_algorithm.hpp"

namespace gemm_simt {
using namespace strata;

using CtaTiler = Shape<_64, _64, _8>;  // (BM, BN, BK): C block and k-slice of one CTA
using WarpLayout = Layout<Shape<_2, _4>>;  // 8 warps over the CTA's C block
using WarpTile = Shape<_32, _16>;          // one warp's part of the C block
using LaneLayout = Layout<Shape<_4, _8>>;  // 32 lanes over a warp tile
// Threads for the global -> shared copies: A's tile (BM, BK) is contiguous along M; B's (BN, BK)
// view of the K x N matrix is contiguous along K, so there neighbouring threads take neighbouring k.
using CopyLayoutA = Layout<Shape<_64, _4>>;
using CopyLayoutB = decltype(make_layout(Shape<_32, _8>{}, LayoutRight{}));
inline constexpr int kThreads = 256;

static_assert(size(WarpLayout{}) * 32 == kThreads && size(CopyLayoutA{}) == kThreads && size(CopyLayoutB{}) == kThreads,
              "gemm_simt: every thread layout must hold exactly the CTA's threads");
static_assert(size<0>(WarpLayout{}) * size<0>(WarpTile{}) == size<0>(CtaTiler{}) &&
                  size<1>(WarpLayout{}) * size<1>(WarpTile{}) == size<1>(CtaTiler{}),
              "gemm_simt: the warp tiles must cover the CTA's block of C exactly");

// pred(i) == "element i of the partitioned coordinate tensor lies inside shape": the copy_if predicate.
template <class Coords, class Shape>
__device__ auto inside(Coords const& coords, Shape const& shape) {
  return [=](int i) { return elem_less(coords(i), shape); };
}

__global__ void __launch_bounds__(kThreads)
gemm_kernel(int M, int N, int K, float alpha, float const* A, int lda, float const* B, int ldb, float beta,
            float* C, int ldc) {
  // The whole problem as tensors. B is K x N column-major; seen as (N, K) it is A's partner in
  // CuTe's convention C(m, n) += A(m, k) * B(n, k): the transposition is only a stride.
  auto mA = make_tensor(make_gmem_ptr(A), make_shape(M, K), make_stride(_1{}, lda));  // (M, K)
  auto mB = make_tensor(make_gmem_ptr(B), make_shape(N, K), make_stride(ldb, _1{}));  // (N, K)
  auto mC = make_tensor(make_gmem_ptr(C), make_shape(M, N), make_stride(_1{}, ldc));  // (M, N)
  // The coordinates of every element, to be partitioned exactly like the data.
  auto cA = make_identity_tensor(shape(mA));
  auto cB = make_identity_tensor(shape(mB));
  auto cC = make_identity_tensor(shape(mC));

  // Thread block: this CTA's tiles. A and B keep all their k-tiles in a third mode.
  auto cta = make_coord(int(blockIdx.x), int(blockIdx.y), _);
  auto gA = local_tile(mA, CtaTiler{}, cta, Step<_1, X, _1>{});  // (BM, BK, k-tiles)
  auto gB = local_tile(mB, CtaTiler{}, cta, Step<X, _1, _1>{});  // (BN, BK, k-tiles)
  auto gC = local_tile(mC, CtaTiler{}, cta, Step<_1, _1, X>{});  // (BM, BN)
  auto gcA = local_tile(cA, CtaTiler{}, cta, Step<_1, X, _1>{});
  auto gcB = local_tile(cB, CtaTiler{}, cta, Step<X, _1, _1>{});
  auto gcC = local_tile(cC, CtaTiler{}, cta, Step<_1, _1, X>{});

  // Shared memory: one k-slice of A and of B, and each thread's share of filling it.
  __shared__ float smem_a[size(select<0, 2>(CtaTiler{}))];
  __shared__ float smem_b[size(select<1, 2>(CtaTiler{}))];
  auto sA = make_tensor(make_smem_ptr(smem_a), select<0, 2>(CtaTiler{}));  // (BM, BK)
  auto sB = make_tensor(make_smem_ptr(smem_b), select<1, 2>(CtaTiler{}));  // (BN, BK)
  auto tAgA = local_partition(gA, CopyLayoutA{}, threadIdx.x);  // (., ., k-tiles)
  auto tAcA = local_partition(gcA, CopyLayoutA{}, threadIdx.x);
  auto tAsA = local_partition(sA, CopyLayoutA{}, threadIdx.x);
  auto tBgB = local_partition(gB, CopyLayoutB{}, threadIdx.x);
  auto tBcB = local_partition(gcB, CopyLayoutB{}, threadIdx.x);
  auto tBsB = local_partition(sB, CopyLayoutB{}, threadIdx.x);

  // Warp: this warp's rows of sA, columns of sB (rows of the (N, K) view) and block of C.
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  auto wc = flat_coord(WarpLayout{}, warp);
  auto wsA = local_tile(sA, make_shape(size<0>(WarpTile{}), size<2>(CtaTiler{})), make_coord(get<0>(wc), 0));
  auto wsB = local_tile(sB, make_shape(size<1>(WarpTile{}), size<2>(CtaTiler{})), make_coord(get<1>(wc), 0));
  auto wgC = local_tile(gC, WarpTile{}, wc);
  auto wcC = local_tile(gcC, WarpTile{}, wc);

  // Thread: this lane's rows of the warp's A, columns of its B, and elements of its C.
  auto tCsA = local_partition(wsA, LaneLayout{}, lane, Step<_1, X>{});  // (8, BK)
  auto tCsB = local_partition(wsB, LaneLayout{}, lane, Step<X, _1>{});  // (2, BK)
  auto tCgC = local_partition(wgC, LaneLayout{}, lane);                 // (8, 2)
  auto tCcC = local_partition(wcC, LaneLayout{}, lane);

  // Registers: this thread's column of A, row of B and accumulators.
  auto rA = make_fragment_like(tCsA(_, 0));
  auto rB = make_fragment_like(tCsB(_, 0));
  auto rC = make_fragment_like(tCgC);
  clear(rC);

  for (int k_tile = 0; k_tile < int(size<2>(gA)); ++k_tile) {
    // Global -> shared. What lies past the matrix is zero, so it adds nothing to the products.
    clear(tAsA);
    clear(tBsB);
    copy_if(inside(tAcA(_, _, k_tile), shape(mA)), tAgA(_, _, k_tile), tAsA);
    copy_if(inside(tBcB(_, _, k_tile), shape(mB)), tBgB(_, _, k_tile), tBsB);
    __syncthreads();

    // Shared -> registers -> FMA, one k at a time.
    for (int k = 0; k < int(size<1>(tCsA)); ++k) {
      copy(tCsA(_, k), rA);
      copy(tCsB(_, k), rB);
      gemm(rA, rB, rC);  // (8) x (2) => (8, 2)
    }
    __syncthreads();
  }

  // Epilogue: C = alpha * acc + beta * C, inside the matrix only. beta == 0 never reads C.
  for (int i = 0; i < int(size(rC)); ++i) {
    if (elem_less(tCcC(i), shape(mC))) {
      tCgC(i) = beta == 0.f ? alpha * rC(i) : alpha * rC(i) + beta * tCgC(i);
    }
  }
}

// Launches the kernel: one CTA per 64x64 block of C. Leading dimensions are in elements and at
// least the number of rows (lda >= M, ldb >= K, ldc >= M).
inline cudaError_t gemm(int M, int N, int K, float alpha, float const* A, int lda, float const* B, int ldb,
                        float beta, float* C, int ldc, cudaStream_t stream = nullptr) {
  if (M <= 0 || N <= 0) return cudaSuccess;
  dim3 grid(unsigned(ceil_div(M, int(size<0>(CtaTiler{})))), unsigned(ceil_div(N, int(size<1>(CtaTiler{})))));
  gemm_kernel<<<grid, kThreads, 0, stream>>>(M, N, K, alpha, A, lda, B, ldb, beta, C, ldc);
  return cudaGetLastError();
}

}  // namespace gemm_simt
