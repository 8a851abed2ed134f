// Strata: compiler portability macros shared by every floor.
#pragma once

#if defined(__CUDACC__) || defined(__CUDA_ARCH__)
#define STRATA_HOST_DEVICE __host__ __device__
#define STRATA_DEVICE __device__
#define STRATA_HOST __host__
#else
#define STRATA_HOST_DEVICE
#define STRATA_DEVICE
#define STRATA_HOST
#endif

// Inline, host+device: the default decoration of every algebra function.
#define STRATA_HD inline STRATA_HOST_DEVICE constexpr

#if defined(__CUDA_ARCH__)
#define STRATA_UNROLL _Pragma("unroll")
#else
#define STRATA_UNROLL
#endif
