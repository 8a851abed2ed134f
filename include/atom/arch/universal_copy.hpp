// Strata floor 2: the copy every architecture has, one aligned load and one aligned store.
#pragma once

#include "../../layout/config.hpp"
#include "numeric_types.hpp"

namespace strata::arch {

// Moves `Bytes` bytes as one register: the widest such copy (16 bytes) is what vectorized
// global/shared memory traffic is made of on GPUs without cp.async or TMA, and the narrow ones
// are the fallback when alignment or the tile shape does not allow more.
// Precondition: `src` and `dst` are aligned to `Bytes`; a misaligned wide access faults on the GPU.
template <int Bytes>
struct UniversalCopy {
  static_assert(Bytes == 1 || Bytes == 2 || Bytes == 4 || Bytes == 8 || Bytes == 16,
                "UniversalCopy: the width must be 1, 2, 4, 8 or 16 bytes");

  using Register = uint_bytes_t<Bytes>;
  using SRegisters = Register[1];
  using DRegisters = Register[1];
  static constexpr int CopyBytes = Bytes;

  STRATA_HOST_DEVICE static void copy(const void* src, void* dst) {
    *static_cast<Register*>(dst) = *static_cast<const Register*>(src);
  }
};

}  // namespace strata::arch
