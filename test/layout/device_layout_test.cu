// The layout algebra in device code: layouts and algebra results evaluated in a kernel, for every
// index, must match host evaluation. Then the tensor-built SIMT GEMM (examples/gemm_simt.cuh) on
// the GPU: every shape, not only tile multiples, every output element checked against a
// double-precision reference on fresh random data. Skips cleanly where no CUDA GPU is present.
// (One translation unit: each costs CI ~13 s before its first kernel.)
#include <layout/layout.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "../../examples/gemm_simt.cuh"
#include "common/gpu_test.hpp"

namespace {

namespace device_layout {
using namespace strata;

// out[i] = l(i) for i < n.
template <class L>
__global__ void eval_kernel(L l, int n, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = int(l(i));
}

// Evaluates l on the device for every index of its domain and compares with the host.
template <class L>
void expect_device_matches_host(L const& l) {
  int n = int(size(l));
  strata::test::DeviceBuffer<int> out(static_cast<std::size_t>(n));
  eval_kernel<<<(n + 127) / 128, 128>>>(l, n, out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> got = out.download();
  for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], int(l(i))) << "at " << i;
}

// The algebra computed in the kernel itself, from a dynamic layout passed as an argument.
template <class A>
__global__ void algebra_kernel(A a, int n, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  auto composed = composition(a, Layout<Shape<_2, _4>, Stride<_4, _1>>{});
  auto divided = logical_divide(a, Layout<_4, _2>{});
  auto coalesced = coalesce(a);
  auto crd = idx2crd(i, make_shape(_4{}, make_shape(2, _4{})));
  out[5 * i + 0] = i < int(size(composed)) ? int(composed(i)) : -1;
  out[5 * i + 1] = int(divided(i));
  out[5 * i + 2] = int(coalesced(i));
  out[5 * i + 3] = int(get<0>(crd)) + 10 * int(get<1, 0>(crd)) + 100 * int(get<1, 1>(crd));
  out[5 * i + 4] = int(a(crd));
}

TEST(DeviceLayout, EvaluationMatchesHost) {
  STRATA_REQUIRE_GPU();
  expect_device_matches_host(Layout<Shape<_4, Shape<_2, _3>>, Stride<_2, Stride<_1, _8>>>{});
  expect_device_matches_host(make_layout(make_shape(4, make_shape(2, 3)), make_stride(2, make_stride(1, 8))));
  expect_device_matches_host(make_layout(make_shape(_8{}, 16), make_stride(16, _1{})));
}

TEST(DeviceLayout, HostAlgebraResultsEvaluateOnDevice) {
  STRATA_REQUIRE_GPU();
  auto a = make_layout(make_shape(8, make_shape(2, 2)), make_stride(4, make_stride(1, 2)));
  expect_device_matches_host(composition(a, Layout<Shape<_2, _4>, Stride<_4, _1>>{}));
  expect_device_matches_host(logical_divide(a, Layout<_4, _2>{}));
  expect_device_matches_host(coalesce(Layout<Shape<_2, Shape<_1, _6>>, Stride<_1, Stride<_6, _2>>>{}));
  expect_device_matches_host(blocked_product(Layout<Shape<_2, _2>>{}, Layout<Shape<_3, _4>>{}));
  expect_device_matches_host(zipped_divide(make_layout(make_shape(8, 6)), make_shape(_2{}, _3{})));
}

TEST(DeviceLayout, AlgebraInsideKernelMatchesHost) {
  STRATA_REQUIRE_GPU();
  auto a = make_layout(make_shape(4, make_shape(2, 4)), make_stride(1, make_stride(4, 8)));
  int n = int(size(a));
  strata::test::DeviceBuffer<int> out(static_cast<std::size_t>(5 * n));
  algebra_kernel<<<1, 64>>>(a, n, out.get());
  STRATA_CUDA_CHECK(cudaGetLastError());
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<int> got = out.download();
  auto composed = composition(a, Layout<Shape<_2, _4>, Stride<_4, _1>>{});
  auto divided = logical_divide(a, Layout<_4, _2>{});
  auto coalesced = coalesce(a);
  for (int i = 0; i < n; ++i) {
    auto crd = idx2crd(i, make_shape(_4{}, make_shape(2, _4{})));
    EXPECT_EQ(got[5 * i + 0], i < int(size(composed)) ? int(composed(i)) : -1) << i;
    EXPECT_EQ(got[5 * i + 1], int(divided(i))) << i;
    EXPECT_EQ(got[5 * i + 2], int(coalesced(i))) << i;
    EXPECT_EQ(got[5 * i + 3], int(get<0>(crd)) + 10 * int(get<1, 0>(crd)) + 100 * int(get<1, 1>(crd))) << i;
    EXPECT_EQ(got[5 * i + 4], int(a(crd))) << i;
  }
}

}  // namespace device_layout

// ---- the SIMT GEMM ----
//
// Tolerance (fp32 inputs, fp32 accumulation over K terms): |C - ref| <= K * 2^-23 * |alpha| *
// sum_k |A(m,k) B(k,n)| + 2^-22 * |beta C0(m,n)|, a forward error bound for the sum.
namespace simt_gemm {

struct Problem {
  int M, N, K;
  int lda_pad = 0, ldb_pad = 0, ldc_pad = 0;  // leading dimension = rows + pad
  float alpha = 1.f, beta = 0.f;
};

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// Runs one problem and checks every element of C, padding included (reports the first few misses).
void run_and_check(Problem const& p, unsigned seed) {
  const int lda = p.M + p.lda_pad, ldb = p.K + p.ldb_pad, ldc = p.M + p.ldc_pad;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<float> A(std::size_t(lda) * p.K), B(std::size_t(ldb) * p.N), C0(std::size_t(ldc) * p.N);
  for (float& x : A) x = dist(rng);
  for (float& x : B) x = dist(rng);
  const float poison = [] {
    float f;
    std::uint32_t u = 0xFFFFFFFFu;  // a NaN: an element left unwritten, or written from NaN, shows
    std::memcpy(&f, &u, sizeof f);
    return f;
  }();
  for (int n = 0; n < p.N; ++n)
    for (int m = 0; m < ldc; ++m)
      C0[m + std::size_t(n) * ldc] = (p.beta != 0.f && m < p.M) ? dist(rng) : poison;

  strata::test::DeviceBuffer<float> dA(A), dB(B), dC(C0);
  ASSERT_EQ(gemm_simt::gemm(p.M, p.N, p.K, p.alpha, dA.get(), lda, dB.get(), ldb, p.beta, dC.get(), ldc),
            cudaSuccess);
  STRATA_CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<float> C = dC.download();

  // Reference in double, k outermost so the inner loop runs down a column.
  std::vector<double> ref(std::size_t(p.M) * p.N, 0.0), mag(std::size_t(p.M) * p.N, 0.0);
  for (int n = 0; n < p.N; ++n)
    for (int k = 0; k < p.K; ++k) {
      const double b = B[k + std::size_t(n) * ldb];
      for (int m = 0; m < p.M; ++m) {
        const double prod = double(A[m + std::size_t(k) * lda]) * b;
        ref[m + std::size_t(n) * p.M] += prod;
        mag[m + std::size_t(n) * p.M] += std::fabs(prod);
      }
    }

  int bad = 0;
  for (int n = 0; n < p.N; ++n)
    for (int m = 0; m < ldc; ++m) {
      const float got = C[m + std::size_t(n) * ldc];
      if (m >= p.M) {  // padding between columns: never touched
        if (bits(got) != bits(poison) && ++bad <= 5)
          ADD_FAILURE() << "padding element (" << m << "," << n << ") was written: " << got;
        continue;
      }
      const double c0 = p.beta != 0.f ? double(C0[m + std::size_t(n) * ldc]) : 0.0;
      const std::size_t i = m + std::size_t(n) * p.M;
      const double want = double(p.alpha) * ref[i] + double(p.beta) * c0;
      const double tol = p.K * 0x1p-23 * std::fabs(p.alpha) * mag[i] + 0x1p-22 * std::fabs(p.beta * c0) + 1e-30;
      if (!(std::fabs(double(got) - want) <= tol) && ++bad <= 5)
        ADD_FAILURE() << "C(" << m << "," << n << ") = " << got << ", reference " << want << ", tolerance " << tol;
    }
  EXPECT_EQ(bad, 0) << "elements outside tolerance";
}

TEST(GemmSimt, EveryShapeCombination) {
  STRATA_REQUIRE_GPU();
  const int sizes[] = {1, 7, 129, 1000};
  unsigned seed = 1;
  for (int M : sizes)
    for (int N : sizes)
      for (int K : sizes) {
        SCOPED_TRACE(::testing::Message() << "M=" << M << " N=" << N << " K=" << K);
        run_and_check({M, N, K}, seed++);
        if (HasFatalFailure()) return;
      }
}

TEST(GemmSimt, PaddedLeadingDimensionsAlphaBeta) {
  STRATA_REQUIRE_GPU();
  const Problem problems[] = {
      {129, 7, 1000, 3, 5, 2, 0.5f, -2.f},
      {1000, 129, 7, 1, 0, 7, -1.f, 0.25f},
      {65, 63, 9, 64, 1, 1, 2.f, 1.f},
      {1, 1000, 129, 0, 2, 3, 1.f, 0.f},
  };
  unsigned seed = 1000;
  for (Problem const& p : problems) {
    SCOPED_TRACE(::testing::Message() << "M=" << p.M << " N=" << p.N << " K=" << p.K << " alpha=" << p.alpha
                                      << " beta=" << p.beta);
    run_and_check(p, seed++);
    if (HasFatalFailure()) return;
  }
}

}  // namespace simt_gemm

}  // namespace
