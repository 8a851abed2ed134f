// Strata floor 2: the shared-memory matrix descriptor of wgmma (the "GMMA descriptor"), built
// from a Strata layout, and the canonical shared-memory layouts it can describe.
//
// A wgmma operand tile in shared memory is made of core matrices: 8 rows of 16 contiguous bytes.
// The descriptor says where the tile starts and how its core matrices are spaced:
//
//   bits  0-13  start address >> 4        (the .shared::cta address of the tile, unswizzled)
//   bits 16-29  leading byte offset >> 4  (LBO)
//   bits 32-45  stride byte offset >> 4   (SBO)
//   bits 49-51  base offset               (0: the swizzle pattern starts at an aligned address)
//   bits 62-63  swizzle mode              (0 none, 1 128B, 2 64B, 3 32B)
//
// In elements of T, with E = 16 / sizeof(T) elements in 16 bytes and W = swizzle bytes / 16 (1 for
// none), the layouts a descriptor describes are, for an (MN, K) tile (PTX ISA, "Shared Memory
// Matrix Layout" and "Matrix Descriptor"):
//
//   K-major,  none:     (mn, k) -> (mn % 8) E  + (mn / 8) SBO + k % E + (k / E) LBO
//   K-major,  swizzled: (mn, k) -> (mn % 8) WE + (mn / 8) SBO + k                (LBO unused)
//   MN-major, none:     (mn, k) -> mn % E  + (mn / E) SBO  + (k % 8) E  + (k / 8) LBO
//   MN-major, swizzled: (mn, k) -> mn % WE + (mn / WE) LBO + (k % 8) WE + (k / 8) SBO
//
// composed with Swizzle<log2 W, log2 E, 3> of the index (the 16-byte chunks of each row of W
// chunks XORed with the row within each group of 8: Swizzle<3,4,3> on bytes for 128B). The
// hardware swizzles the address bits themselves, so a swizzled tile must start at a multiple of
// the swizzle pattern (8 W 16 bytes: 1024 for 128B, 512 for 64B, 256 for 32B); a Strata swizzled
// layout swizzles the index from the tensor's pointer, and the two agree when that pointer is so
// aligned. make_gmma_desc refuses, at compile time and in words, any other layout.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "../layout/layout.hpp"
#include "../layout/swizzle.hpp"
#include "../layout/tensor.hpp"
#include "arch/sm90_wgmma.hpp"

namespace strata {

using arch::GmmaMajor;

// The swizzle modes, by their descriptor code.
enum class GmmaSwizzle : uint32_t { none = 0, sw128 = 1, sw64 = 2, sw32 = 3 };

// Bytes in one row of the swizzle pattern: 16 (one chunk, no swizzle), 32, 64 or 128.
STRATA_HD int gmma_swizzle_bytes(GmmaSwizzle s) {
  return s == GmmaSwizzle::none ? 16 : s == GmmaSwizzle::sw32 ? 32 : s == GmmaSwizzle::sw64 ? 64 : 128;
}

// ---- the descriptor ---------------------------------------------------------------------------

struct GmmaDescriptor {
  uint64_t desc = 0;

  // The ISA's matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4: byte values in 16-byte units.
  STRATA_HD static uint64_t encode(uint32_t bytes) { return (bytes & 0x3FFFFu) >> 4; }

  STRATA_HD uint32_t start_address() const { return uint32_t(desc & 0x3FFFu) << 4; }
  STRATA_HD uint32_t leading_byte_offset() const { return uint32_t((desc >> 16) & 0x3FFFu) << 4; }
  STRATA_HD uint32_t stride_byte_offset() const { return uint32_t((desc >> 32) & 0x3FFFu) << 4; }
  STRATA_HD uint32_t base_offset() const { return uint32_t((desc >> 49) & 0x7u); }
  STRATA_HD GmmaSwizzle swizzle() const { return GmmaSwizzle(uint32_t(desc >> 62)); }

  // The same tile moved by `bytes` (a multiple of 16, the result inside shared memory): how a
  // mainloop steps from one k-block or stage to the next. Shared memory ends below 2^18 bytes, so
  // the start address never carries out of its 14 bits.
  STRATA_HD GmmaDescriptor operator+(int32_t bytes) const { return {desc + uint64_t(int64_t(bytes) >> 4)}; }
  bool operator==(GmmaDescriptor const&) const = default;  // defaulted: host and device alike
};

// A descriptor from its fields, each in bytes (multiples of 16).
STRATA_HD GmmaDescriptor make_gmma_descriptor(uint32_t start_address, uint32_t leading_byte_offset,
                                              uint32_t stride_byte_offset, GmmaSwizzle swizzle,
                                              uint32_t base_offset = 0) {
  return {GmmaDescriptor::encode(start_address) | GmmaDescriptor::encode(leading_byte_offset) << 16 |
          GmmaDescriptor::encode(stride_byte_offset) << 32 | uint64_t(base_offset & 0x7u) << 49 |
          uint64_t(swizzle) << 62};
}

// ---- canonical layouts ------------------------------------------------------------------------

namespace detail {
constexpr int gmma_log2(int v) {
  int k = 0;
  while ((1 << k) < v) ++k;
  return k;
}
template <class T, GmmaSwizzle S>
struct GmmaAtomShape {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "gmma layouts: the element type must be 1, 2 or 4 bytes wide (a wgmma operand type)");
  static constexpr int E = 16 / int(sizeof(T));                     // elements per 16 bytes
  static constexpr int W = gmma_swizzle_bytes(S) / 16;              // 16-byte chunks per swizzle row
  using Sw = Swizzle<gmma_log2(W), gmma_log2(E), 3>;                // in elements of T
};
}  // namespace detail

// The swizzle of mode S in elements of T: Swizzle<log2(S bytes / 16), log2(16 / sizeof(T)), 3>.
template <class T, GmmaSwizzle S>
using gmma_swizzle_t = typename detail::GmmaAtomShape<T, S>::Sw;

// The smallest tile of a canonical layout (in elements of T): one row of the swizzle pattern by 8
// rows, K-major (8, W*E):(W*E, 1) or MN-major (W*E, 8):(1, W*E), composed with the swizzle (a
// plain layout for none). tile_to_shape repeats it over a CTA tile, MN first.
template <class T, GmmaMajor Major, GmmaSwizzle S>
STRATA_HD auto gmma_layout_atom() {
  using A = detail::GmmaAtomShape<T, S>;
  constexpr int row = A::W * A::E;
  auto block = [] {
    if constexpr (Major == GmmaMajor::K) {
      return Layout<Shape<_8, Int<row>>, Stride<Int<row>, _1>>{};
    } else {
      return Layout<Shape<Int<row>, _8>, Stride<_1, Int<row>>>{};
    }
  }();
  if constexpr (S == GmmaSwizzle::none) {
    return block;
  } else {
    return composition(typename A::Sw{}, block);
  }
}

// The canonical shared-memory layout of a CTA tile: the atom tiled to `shape` ((MN, K) or
// (MN, K, stages)), MN first. Each mode must be a multiple of the atom's.
template <class T, GmmaMajor Major, GmmaSwizzle S, class TileShape>
STRATA_HD auto make_gmma_smem_layout(TileShape const& shape) {
  return tile_to_shape(gmma_layout_atom<T, Major, S>(), shape);
}

// ---- reading a layout's descriptor fields ------------------------------------------------------

namespace detail {

enum class GmmaLayoutStatus {
  ok,
  not_static,
  not_rank_2,
  wrong_swizzle,
  wrong_k_depth,
  wrong_mn_extent,
  not_canonical,
  offset_out_of_range
};

struct GmmaLayoutFields {
  GmmaLayoutStatus status = GmmaLayoutStatus::ok;
  GmmaSwizzle swizzle = GmmaSwizzle::none;
  uint32_t leading_byte_offset = 0;
  uint32_t stride_byte_offset = 0;
};

template <class L>
struct gmma_swizzle_of {  // a plain layout: no swizzle
  using type = Swizzle<0, 4, 3>;
  using inner = L;
};
template <int B, int M, int S, class O, class L>
struct gmma_swizzle_of<ComposedLayout<Swizzle<B, M, S>, O, L>> {
  using type = Swizzle<B, M, S>;
  using inner = L;
};

// One mode of a static layout as leaves: evaluates it at a colexicographic index.
template <int R>
struct FlatMode {
  std::array<long long, R> shape{};
  std::array<long long, R> stride{};
  constexpr long long operator()(long long i) const {
    long long v = 0;
    for (int j = 0; j < R; ++j) {
      v += (i % shape[j]) * stride[j];
      i /= shape[j];
    }
    return v;
  }
};
template <class Mode>
constexpr auto flat_mode() {
  constexpr auto s = to_array<long long>(Mode{}.shape());
  constexpr auto d = to_array<long long>(Mode{}.stride());
  FlatMode<int(s.size())> f;
  for (std::size_t j = 0; j < s.size(); ++j) {
    f.shape[j] = s[j];
    f.stride[j] = d[j];
  }
  return f;
}

// The fields of the descriptor of an (MN, K) operand tile laid out by L (a plain layout, or a
// swizzle composed with one), elements `bytes` wide; or why there is none.
template <GmmaMajor Major, int Bytes, class L>
constexpr GmmaLayoutFields gmma_layout_fields() {
  using Swz = typename gmma_swizzle_of<L>::type;
  using Inner = typename gmma_swizzle_of<L>::inner;
  GmmaLayoutFields f;
  if constexpr (!is_static_v<Inner>) {
    f.status = GmmaLayoutStatus::not_static;
    return f;
  } else if constexpr (decltype(rank(Inner{}))::value != 2) {
    f.status = GmmaLayoutStatus::not_rank_2;
    return f;
  } else {
    constexpr int E = 16 / Bytes;
    constexpr int B = Swz::num_bits;
    if (B != 0 && (Swz::num_base != gmma_log2(E) || Swz::num_shft != 3 || B > 3)) {
      f.status = GmmaLayoutStatus::wrong_swizzle;
      return f;
    }
    constexpr int W = 1 << B;
    f.swizzle = B == 0 ? GmmaSwizzle::none : B == 1 ? GmmaSwizzle::sw32 : B == 2 ? GmmaSwizzle::sw64 : GmmaSwizzle::sw128;
    constexpr auto mn_of = flat_mode<decltype(layout<0>(Inner{}))>();
    constexpr auto k_of = flat_mode<decltype(layout<1>(Inner{}))>();
    constexpr long long MN = decltype(size<0>(Inner{}))::value;
    constexpr long long K = decltype(size<1>(Inner{}))::value;
    auto at = [&](long long mn, long long k) { return mn_of(mn) + k_of(k); };
    // The two strides the descriptor carries, in elements: read off the layout where the tile is
    // large enough to have them, else what a layout tiled from the atom would have.
    long long lbo = 0, sbo = 0;
    if constexpr (Major == GmmaMajor::K) {
      if (K * Bytes != 32) { f.status = GmmaLayoutStatus::wrong_k_depth; return f; }
      if (MN % 8 != 0) { f.status = GmmaLayoutStatus::wrong_mn_extent; return f; }
      sbo = MN > 8 ? at(8, 0) : 8 * W * E;
      lbo = W == 1 ? at(0, E) : E;  // swizzled: unused, and the ISA assumes 1 (16 bytes)
      for (long long mn = 0; mn < MN; ++mn)
        for (long long k = 0; k < K; ++k) {
          long long want = W == 1 ? (mn % 8) * E + (mn / 8) * sbo + k % E + (k / E) * lbo
                                  : (mn % 8) * W * E + (mn / 8) * sbo + k;
          if (at(mn, k) != want) { f.status = GmmaLayoutStatus::not_canonical; return f; }
        }
    } else {
      if (K % 8 != 0) { f.status = GmmaLayoutStatus::wrong_k_depth; return f; }
      if (MN % (W * E) != 0) { f.status = GmmaLayoutStatus::wrong_mn_extent; return f; }
      if (W == 1) {
        sbo = MN > E ? at(E, 0) : 8 * E;
        lbo = K > 8 ? at(0, 8) : 8 * E;
      } else {
        lbo = MN > W * E ? at(W * E, 0) : 8 * W * E;
        sbo = K > 8 ? at(0, 8) : 8 * W * E;
      }
      for (long long mn = 0; mn < MN; ++mn)
        for (long long k = 0; k < K; ++k) {
          long long want = W == 1 ? mn % E + (mn / E) * sbo + (k % 8) * E + (k / 8) * lbo
                                  : mn % (W * E) + (mn / (W * E)) * lbo + (k % 8) * W * E + (k / 8) * sbo;
          if (at(mn, k) != want) { f.status = GmmaLayoutStatus::not_canonical; return f; }
        }
    }
    long long lbo_bytes = lbo * Bytes, sbo_bytes = sbo * Bytes;
    if (lbo_bytes < 0 || sbo_bytes < 0 || lbo_bytes >= (1 << 18) || sbo_bytes >= (1 << 18) || lbo_bytes % 16 != 0 ||
        sbo_bytes % 16 != 0) {
      f.status = GmmaLayoutStatus::offset_out_of_range;
      return f;
    }
    f.leading_byte_offset = uint32_t(lbo_bytes);
    f.stride_byte_offset = uint32_t(sbo_bytes);
    return f;
  }
}

// The unswizzled element offset, from the tensor's pointer, of coordinate c of layout l: where
// the descriptor's start address must point (the hardware applies the swizzle itself).
template <class L, class C>
STRATA_HD auto unswizzled_offset(L const& l, C const& c) {
  if constexpr (is_composed_layout_v<L>) {
    return l.offset() + l.layout_b()(c);
  } else {
    return l(c);
  }
}

}  // namespace detail

// The layout-dependent fields of the descriptor of one wgmma operand tile: `L` lays out the
// (MN, K) tile in elements of T, K- or MN-major. A layout no descriptor describes is refused.
template <class T, GmmaMajor Major, class L>
STRATA_HD GmmaDescriptor make_gmma_desc_fields(L const&) {
  using detail::GmmaLayoutStatus;
  constexpr auto f = detail::gmma_layout_fields<Major, int(sizeof(T)), L>();
  static_assert(f.status != GmmaLayoutStatus::not_static,
                "make_gmma_desc: the shared-memory layout must be static (known at compile time)");
  static_assert(f.status != GmmaLayoutStatus::not_rank_2,
                "make_gmma_desc: the layout of one operand tile must have two modes, (MN, K)");
  static_assert(f.status != GmmaLayoutStatus::wrong_swizzle,
                "make_gmma_desc: the swizzle must be a wgmma swizzle in elements of T: "
                "Swizzle<B, log2(16 / sizeof(T)), 3> with B = 1 (32B), 2 (64B) or 3 (128B), or none");
  static_assert(f.status != GmmaLayoutStatus::wrong_k_depth,
                "make_gmma_desc: a K-major operand tile must be 32 bytes deep in K (k16 of 16-bit, k8 of "
                "tf32, k32 of 8-bit types), an MN-major one a multiple of 8 deep");
  static_assert(f.status != GmmaLayoutStatus::wrong_mn_extent,
                "make_gmma_desc: the MN extent must be a multiple of 8 rows (K-major) or of one swizzle "
                "row of elements (MN-major)");
  static_assert(f.status != GmmaLayoutStatus::not_canonical,
                "make_gmma_desc: no descriptor describes this layout: its core matrices (8 rows of 16 "
                "contiguous bytes) are not spaced as a canonical wgmma layout of this majorness and "
                "swizzle; build it with make_gmma_smem_layout");
  static_assert(f.status != GmmaLayoutStatus::offset_out_of_range,
                "make_gmma_desc: the leading and stride byte offsets must be multiples of 16 below 2^18");
  return make_gmma_descriptor(0, f.leading_byte_offset, f.stride_byte_offset, f.swizzle);
}

// The descriptor of the tile whose tensor pointer has shared-memory address `smem_address`
// (aligned to the swizzle pattern when swizzled) and whose layout is `l`, (MN, K) from that
// pointer. Usable on the host, where the address is only a number.
template <class T, GmmaMajor Major, class L>
STRATA_HD GmmaDescriptor make_gmma_desc(L const& l, uint32_t smem_address) {
  uint32_t start = smem_address + uint32_t(detail::unswizzled_offset(l, _0{})) * uint32_t(sizeof(T));
  return {make_gmma_desc_fields<T, Major>(l).desc | GmmaDescriptor::encode(start)};
}

#if defined(__CUDACC__)
// The descriptor of a shared-memory tensor of one wgmma operand tile, (MN, K).
template <GmmaMajor Major, class Engine, class L>
STRATA_DEVICE GmmaDescriptor make_gmma_desc(Tensor<Engine, L> const& tile) {
  using T = typename Tensor<Engine, L>::value_type;
  static_assert(is_smem_v<std::remove_cvref_t<decltype(tile.data())>>,
                "make_gmma_desc: the tensor must point into shared memory (make_smem_ptr)");
  const void* p = raw_pointer_cast(tile.data());
  return make_gmma_desc<T, Major>(tile.layout(), static_cast<uint32_t>(__cvta_generic_to_shared(p)));
}
#endif

// gmma_tile_layout<X, Y>(l): the layout of the first X x Y operand tile (one wgmma's MN x K) of
// a shared-memory layout l whose modes 0 and 1 are MN and K, with l's swizzle. By linearity every
// other tile of l has this layout, moved: the descriptors of all tiles share their fields.
template <int X, int Y, class L>
STRATA_HD auto gmma_tile_layout(L const& l) {
  auto plain = [&] {
    if constexpr (is_composed_layout_v<L>) {
      return l.layout_b();
    } else {
      return l;
    }
  }();
  auto mn_k = make_layout(layout<0>(plain), layout<1>(plain));
  auto tile = layout<0>(zipped_divide(mn_k, make_tile(Int<X>{}, Int<Y>{})));
  if constexpr (is_composed_layout_v<L>) {
    return make_composed_layout(l.layout_a(), _0{}, tile);
  } else {
    return tile;
  }
}

// Bytes from the tile's origin to coordinate c of a shared-memory layout, unswizzled: what a
// descriptor advances by to reach the tile that starts there (the next k-block: c = (0, AtomK)).
template <class T, class L, class C>
STRATA_HD int32_t gmma_offset_bytes(L const& l, C const& c) {
  return int32_t(detail::unswizzled_offset(l, c) - detail::unswizzled_offset(l, _0{})) *
         int32_t(sizeof(T));
}

}  // namespace strata
