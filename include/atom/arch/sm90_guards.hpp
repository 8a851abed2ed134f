// Strata floor 2: which Hopper instructions the current compilation pass may emit, for every
// Hopper wrapper (sm90.hpp, sm90_tma.hpp, sm90_wgmma.hpp). Device passes below sm_90 still compile
// the wrappers (a fat binary may carry Ampere code next to the Hopper one); reaching one there is
// a bug, so it traps. wgmma and setmaxnreg exist only on the arch-specific target sm_90a, which
// defines __CUDA_ARCH_FEAT_SM90_ALL.
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(STRATA_ARCH_SM90_ENABLED)
#define STRATA_ARCH_SM90_ENABLED 1
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) && !defined(STRATA_ARCH_SM90A_ENABLED)
#define STRATA_ARCH_SM90A_ENABLED 1
#endif
#if !defined(STRATA_ARCH_SM90_UNSUPPORTED)
#if defined(__CUDA_ARCH__)
#define STRATA_ARCH_SM90_UNSUPPORTED() __trap()
#else
#define STRATA_ARCH_SM90_UNSUPPORTED() ((void)0)
#endif
#endif
