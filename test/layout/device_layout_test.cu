// The layout algebra in device code: layouts and algebra results evaluated in a kernel, for every
// index, must match host evaluation. Skips cleanly where no CUDA GPU is present.
#include <layout/layout.hpp>

#include <gtest/gtest.h>

#include <vector>

#include "../common/gpu_test.hpp"

using namespace strata;

namespace {

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

}  // namespace
