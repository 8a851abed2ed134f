// Strata floor 2: fixed-width unsigned register types that copy wrappers move as a single unit.
#pragma once

#include <cstdint>

#include "../../layout/config.hpp"

namespace strata::arch {

// A 16-byte value aligned to 16 bytes, so that one load or store of it is a single 128-bit memory
// instruction (LDG.128 / LDS.128 / STS.128). The standard library has no such type, and
// `unsigned __int128` is neither portable nor guaranteed to be usable in device code.
struct alignas(16) uint128_t {
  uint64_t lo;
  uint64_t hi;
};
static_assert(sizeof(uint128_t) == 16 && alignof(uint128_t) == 16,
              "uint128_t: must be exactly 16 bytes with 16-byte alignment to map to 128-bit accesses");

// The unsigned integer type that is exactly `Bytes` wide; only the widths a GPU can move in one
// access exist, so asking for any other width fails to compile at the use site.
template <int Bytes>
struct unsigned_of_bytes;
template <>
struct unsigned_of_bytes<1> { using type = uint8_t; };
template <>
struct unsigned_of_bytes<2> { using type = uint16_t; };
template <>
struct unsigned_of_bytes<4> { using type = uint32_t; };
template <>
struct unsigned_of_bytes<8> { using type = uint64_t; };
template <>
struct unsigned_of_bytes<16> { using type = uint128_t; };

template <int Bytes>
using uint_bytes_t = typename unsigned_of_bytes<Bytes>::type;

}  // namespace strata::arch
