// Strata test helpers on the host: seeded random data and the relative error of a result.
// Usable from g++ alone; from nvcc (or after including cuda_fp16.h / cuda_bf16.h) it also
// handles __half and __nv_bfloat16 through CUDA's own conversions.
#pragma once

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <ranges>
#include <vector>

namespace strata::test {

// Conversions between an element type and float/double; CUDA's 16-bit types have no
// usable static_cast on the host, so they get their own overloads.
template <class T>
T from_float(float x) {
  return static_cast<T>(x);
}
template <class T>
double to_double(T x) {
  return static_cast<double>(x);
}

#if defined(__CUDA_FP16_H__)
template <>
inline __half from_float<__half>(float x) {
  return __float2half(x);
}
inline double to_double(__half x) { return static_cast<double>(__half2float(x)); }
#endif
#if defined(__CUDA_BF16_H__)
template <>
inline __nv_bfloat16 from_float<__nv_bfloat16>(float x) {
  return __float2bfloat16(x);
}
inline double to_double(__nv_bfloat16 x) { return static_cast<double>(__bfloat162float(x)); }
#endif

// Fills `data` with values uniform in [-1, 1], the same ones for the same seed.
template <class T>
void fill_random(std::vector<T>& data, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  for (T& x : data) x = from_float<T>(uniform(engine));
}

template <class T>
std::vector<T> random_vector(std::size_t count, std::uint64_t seed) {
  std::vector<T> data(count);
  fill_random(data, seed);
  return data;
}

// ||out - ref|| / ||ref|| (Euclidean norms, in double). +inf if any element of either is NaN or
// the sizes differ; 0 when both are all zero.
template <std::ranges::sized_range Out, std::ranges::sized_range Ref>
double relative_error(const Out& out, const Ref& ref) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (std::ranges::size(out) != std::ranges::size(ref)) return inf;
  double diff2 = 0.0, ref2 = 0.0;
  auto o = std::ranges::begin(out);
  for (const auto& r : ref) {
    const double a = to_double(*o++), b = to_double(r);
    if (std::isnan(a) || std::isnan(b)) return inf;
    diff2 += (a - b) * (a - b);
    ref2 += b * b;
  }
  if (ref2 == 0.0) return diff2 == 0.0 ? 0.0 : inf;
  const double error = std::sqrt(diff2 / ref2);
  return std::isnan(error) ? inf : error;  // inf - inf in an element gives NaN
}

}  // namespace strata::test
