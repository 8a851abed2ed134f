// Strata floor 2: the raw Hopper (sm_90 / sm_90a) instructions a warp-specialized GEMM is made of,
// one inline-PTX wrapper each, named after the PTX ISA instruction in the comment above it:
// fences, cluster registers and barriers, elect.sync, stmatrix, setmaxnreg and programmatic
// dependent launch; mbarriers (the producer/consumer handshake) are in sm90_mbarrier.hpp and named
// barriers in sm90_named_barrier.hpp, both included here. TMA (cp.async.bulk.tensor) is in
// sm90_tma.hpp, which includes this file; the atom layer (copy_sm90.hpp) gives TMA and stmatrix
// thread-value layouts.
//
// Addresses: a shared-memory pointer is a generic pointer into this CTA's shared memory; the
// wrappers convert it to the 32-bit .shared::cta window the instructions name (the CTA's own
// window is part of the .shared::cluster window, so the same value serves both).
#pragma once

#include <cstdint>
#include <cstdio>

#include "../../layout/config.hpp"

#include "sm90_guards.hpp"  // STRATA_ARCH_SM90_ENABLED, STRATA_ARCH_SM90A_ENABLED, STRATA_ARCH_SM90_UNSUPPORTED
#include "sm90_named_barrier.hpp"  // named_barrier_sync / _or / _arrive
#include "sm90_mbarrier.hpp"       // mbarrier_init / _arrive / _wait_parity, cta_shared_address

namespace strata::arch {

// ---------------------------------------------------------------------------------------------
// Fences
// ---------------------------------------------------------------------------------------------

// fence.proxy.async.shared::cta: orders this thread's ordinary (generic-proxy) shared-memory
// accesses before later async-proxy accesses (TMA, wgmma). A thread that wrote shared memory
// with st.shared or stmatrix runs it before the barrier after which TMA stores that memory.
STRATA_DEVICE __forceinline__ void fence_proxy_async_shared() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// ---------------------------------------------------------------------------------------------
// Clusters: CTAs launched together on one GPC, each able to address the others' shared memory.
// ---------------------------------------------------------------------------------------------

// %cluster_ctarank: this CTA's rank in its cluster, 0 .. cluster_num_ctas() - 1.
STRATA_DEVICE __forceinline__ uint32_t cluster_cta_rank() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(r));
  return r;
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return 0;
#endif
}

// %cluster_nctarank: the number of CTAs in this cluster.
STRATA_DEVICE __forceinline__ uint32_t cluster_num_ctas() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t n;
  asm volatile("mov.u32 %0, %%cluster_nctarank;\n" : "=r"(n));
  return n;
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return 1;
#endif
}

// %cluster_ctaid.{x,y,z}: this CTA's position in its cluster.
STRATA_DEVICE __forceinline__ dim3 cluster_cta_id() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t x, y, z;
  asm volatile("mov.u32 %0, %%cluster_ctaid.x;\n" : "=r"(x));
  asm volatile("mov.u32 %0, %%cluster_ctaid.y;\n" : "=r"(y));
  asm volatile("mov.u32 %0, %%cluster_ctaid.z;\n" : "=r"(z));
  return {x, y, z};
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return {0, 0, 0};
#endif
}

// %cluster_nctaid.{x,y,z}: the cluster's shape in CTAs.
STRATA_DEVICE __forceinline__ dim3 cluster_shape() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t x, y, z;
  asm volatile("mov.u32 %0, %%cluster_nctaid.x;\n" : "=r"(x));
  asm volatile("mov.u32 %0, %%cluster_nctaid.y;\n" : "=r"(y));
  asm volatile("mov.u32 %0, %%cluster_nctaid.z;\n" : "=r"(z));
  return {x, y, z};
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return {1, 1, 1};
#endif
}

// %clusterid.{x,y,z}: this cluster's position in the grid of clusters.
STRATA_DEVICE __forceinline__ dim3 cluster_id() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t x, y, z;
  asm volatile("mov.u32 %0, %%clusterid.x;\n" : "=r"(x));
  asm volatile("mov.u32 %0, %%clusterid.y;\n" : "=r"(y));
  asm volatile("mov.u32 %0, %%clusterid.z;\n" : "=r"(z));
  return {x, y, z};
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return {0, 0, 0};
#endif
}

// barrier.cluster.arrive.release.aligned: this thread arrives at the cluster barrier, releasing
// its prior memory accesses to the cluster. Every thread of a warp executes it together.
STRATA_DEVICE __forceinline__ void cluster_arrive() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("barrier.cluster.arrive.release.aligned;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// barrier.cluster.arrive.relaxed.aligned: arrives without ordering memory (for a barrier that only
// says "every CTA has started", e.g. before a later cluster_wait).
STRATA_DEVICE __forceinline__ void cluster_arrive_relaxed() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// barrier.cluster.wait.acquire.aligned: waits until every thread of every CTA of the cluster
// has arrived, acquiring what they released. Every thread of a warp executes it together.
STRATA_DEVICE __forceinline__ void cluster_wait() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// cluster_arrive() then cluster_wait(): every thread of the cluster meets here.
STRATA_DEVICE __forceinline__ void cluster_sync() {
  cluster_arrive();
  cluster_wait();
}

// mapa.shared::cluster.u32: the .shared::cluster address of `smem_ptr` (this CTA's shared memory)
// as the same offset in CTA `cta_rank` of the cluster.
STRATA_DEVICE __forceinline__ uint32_t cluster_map_shared(const void* smem_ptr, uint32_t cta_rank) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n"
               : "=r"(remote)
               : "r"(static_cast<uint32_t>(__cvta_generic_to_shared(smem_ptr))), "r"(cta_rank));
  return remote;
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return 0;
#endif
}

// st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32: four floats into another CTA's
// shared memory at the .shared::cluster address `remote` (16-byte aligned), completing 16
// transaction bytes on the mbarrier at `remote_barrier` (of that CTA, also from
// cluster_map_shared). Asynchronous: the receiver learns of the data only through that barrier.
STRATA_DEVICE __forceinline__ void st_async_v4(uint32_t remote, float a, float b, float c, float d,
                                               uint32_t remote_barrier) {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.f32 [%0], {%1, %2, %3, %4}, [%5];\n" ::"r"(
                   remote),
               "f"(a), "f"(b), "f"(c), "f"(d), "r"(remote_barrier)
               : "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// elect.sync (full mask): true in exactly one active lane of the warp, the same lane for all of
// them; every lane of the warp executes it together. The way one thread of a warp issues TMA.
STRATA_DEVICE __forceinline__ bool elect_one_sync() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  uint32_t elected;
  asm volatile(
      "{\n"
      "  .reg .pred p;\n"
      "  elect.sync _|p, 0xffffffff;\n"
      "  selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(elected));
  return elected != 0;
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
  return false;
#endif
}

// ---------------------------------------------------------------------------------------------
// stmatrix: the warp stores 1, 2 or 4 8x8 matrices of 16-bit elements to shared memory, the
// mirror image of ldmatrix. Register j of lane l holds row l/4, columns 2*(l%4) and 2*(l%4)+1 of
// matrix j (low half first) -- an mma/wgmma accumulator fragment once converted to 16 bits. Lane
// 8*j + r passes the address of row r of matrix j (16 contiguous, 16-byte aligned bytes); for .x1
// and .x2 only lanes 0-7 and 0-15 are read. With .trans register j of lane l goes to column l/4,
// rows 2*(l%4) and 2*(l%4)+1 instead.
// ---------------------------------------------------------------------------------------------

namespace detail {
// stmatrix.sync.aligned.m8n8.{x1,x2,x4}{,.trans}.shared.b16
template <int NumMatrices, bool Transpose>
STRATA_DEVICE __forceinline__ void stmatrix_impl(void* smem_row, const uint32_t (&src)[NumMatrices]) {
  static_assert(NumMatrices == 1 || NumMatrices == 2 || NumMatrices == 4,
                "stmatrix: the number of 8x8 matrices must be 1, 2 or 4");
#if defined(STRATA_ARCH_SM90_ENABLED)
  const uint32_t row = detail::cta_shared_address(smem_row);
  if constexpr (NumMatrices == 1 && !Transpose) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" ::"r"(row), "r"(src[0]) : "memory");
  } else if constexpr (NumMatrices == 1 && Transpose) {
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n" ::"r"(row), "r"(src[0]) : "memory");
  } else if constexpr (NumMatrices == 2 && !Transpose) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" ::"r"(row), "r"(src[0]), "r"(src[1])
                 : "memory");
  } else if constexpr (NumMatrices == 2 && Transpose) {
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" ::"r"(row), "r"(src[0]),
                 "r"(src[1])
                 : "memory");
  } else if constexpr (NumMatrices == 4 && !Transpose) {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(row), "r"(src[0]),
                 "r"(src[1]), "r"(src[2]), "r"(src[3])
                 : "memory");
  } else {
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n" ::"r"(row), "r"(src[0]),
                 "r"(src[1]), "r"(src[2]), "r"(src[3])
                 : "memory");
  }
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}
}  // namespace detail

template <int NumMatrices>
STRATA_DEVICE __forceinline__ void stmatrix(void* smem_row, const uint32_t (&src)[NumMatrices]) {
  detail::stmatrix_impl<NumMatrices, false>(smem_row, src);
}

template <int NumMatrices>
STRATA_DEVICE __forceinline__ void stmatrix_trans(void* smem_row, const uint32_t (&src)[NumMatrices]) {
  detail::stmatrix_impl<NumMatrices, true>(smem_row, src);
}

// The copy operation for the atom layer, in Strata's (source, destination) order.
template <int NumMatrices, bool Transpose>
struct Stsm {
  static constexpr int Matrices = NumMatrices;
  static constexpr bool Transposed = Transpose;
  static constexpr int ElementBits = 16;
  using SRegisters = uint32_t[NumMatrices];
  // `smem_row`: this lane's row address, as described above.
  STRATA_DEVICE static __forceinline__ void copy(const SRegisters& src, void* smem_row) {
    detail::stmatrix_impl<NumMatrices, Transpose>(smem_row, src);
  }
};

using Stsm_x1 = Stsm<1, false>;
using Stsm_x2 = Stsm<2, false>;
using Stsm_x4 = Stsm<4, false>;
using Stsm_x1_trans = Stsm<1, true>;
using Stsm_x2_trans = Stsm<2, true>;
using Stsm_x4_trans = Stsm<4, true>;

// ---------------------------------------------------------------------------------------------
// setmaxnreg (sm_90a): a warpgroup gives registers back to the CTA's pool (dec) or takes more
// from it (inc, waiting until they are free), so producer warps can run on few registers while
// consumer warps hold large accumulator tiles. Every thread of the warpgroup executes it
// together, and it only takes effect when the kernel's register count is capped at launch
// (__launch_bounds__ with a minimum of blocks, or -maxrregcount); otherwise ptxas drops it with
// warning C7508.
// ---------------------------------------------------------------------------------------------

template <int Registers>
inline constexpr bool valid_register_count_v = Registers >= 24 && Registers <= 256 && Registers % 8 == 0;

// setmaxnreg.inc.sync.aligned.u32: raises this warp's per-thread register count to `Registers`.
template <int Registers>
STRATA_DEVICE __forceinline__ void setmaxnreg_inc() {
  static_assert(valid_register_count_v<Registers>,
                "setmaxnreg_inc: the register count must be a multiple of 8 between 24 and 256");
#if defined(STRATA_ARCH_SM90A_ENABLED)
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(Registers));
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// setmaxnreg.dec.sync.aligned.u32: lowers this warp's per-thread register count to `Registers`.
template <int Registers>
STRATA_DEVICE __forceinline__ void setmaxnreg_dec() {
  static_assert(valid_register_count_v<Registers>,
                "setmaxnreg_dec: the register count must be a multiple of 8 between 24 and 256");
#if defined(STRATA_ARCH_SM90A_ENABLED)
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(Registers));
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// ---------------------------------------------------------------------------------------------
// Programmatic dependent launch: a kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start while the previous kernel in the
// stream still runs; it must not read that kernel's results before griddepcontrol.wait.
// ---------------------------------------------------------------------------------------------

// griddepcontrol.wait: blocks until the grids this one depends on have completed and their
// memory operations are visible. A no-op when the kernel was launched without the attribute.
STRATA_DEVICE __forceinline__ void griddepcontrol_wait() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("griddepcontrol.wait;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

// griddepcontrol.launch_dependents: lets the next kernel of the stream start once every CTA of
// this grid has executed it (or exited); what this grid writes afterwards is still seen by the
// dependent's griddepcontrol.wait.
STRATA_DEVICE __forceinline__ void griddepcontrol_launch_dependents() {
#if defined(STRATA_ARCH_SM90_ENABLED)
  asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#else
  STRATA_ARCH_SM90_UNSUPPORTED();
#endif
}

}  // namespace strata::arch
