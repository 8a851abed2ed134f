// Strata floor 2: TMA descriptors — the CUtensorMap that tells Hopper's tensor memory accelerator
// how a global tensor is laid out and what box of it one TMA instruction moves to or from shared
// memory, built from Strata layouts.
//
//   CUtensorMap map;            // a __grid_constant__ kernel parameter (cuda.h gives it its alignment)
//   auto box = composition(Swizzle<3, 3, 3>{}, Layout<Shape<_64, _64>, Stride<_64, _1>>{});
//   Status s = make_tma_descriptor(map, A, make_layout(make_shape(m, k), make_stride(lda, _1{})), box);
//
// Conventions:
//   - The global tensor is a pointer and a flat layout of rank 1..5, strides in elements. The box is
//     the shared-memory layout of one box, static, with one mode per global mode: box mode i tiles
//     global mode i, and its extent is how many elements of that mode one TMA moves.
//   - TMA writes a box into shared memory densely, its dimension 0 fastest. So the box layout must
//     be compact: ordering its modes by shared-memory stride gives TMA's dimensions 0, 1, ..., and
//     each stride is the product of the extents before it. TMA has no stride for dimension 0, so the
//     box's stride-1 mode must also have global stride 1. A row-major (m, k) box with layout
//     (BM, BK):(BK, 1) thus makes k TMA's dimension 0, whatever the order of the modes.
//   - The swizzle is read off the box: a plain layout is unswizzled; composition(Swizzle<B, M, S>,
//     layout) is TMA's 32-, 64- or 128-byte swizzle when, on byte offsets, it is Swizzle<1|2|3, 4, 3>
//     (Swizzle<3, 3, 3> for 16-bit elements is the 128-byte one). It is never passed separately.
//   - Out-of-bounds elements of a load are zeros (CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE); a store
//     writes only the in-bounds part of its box.
//
// Every rule the driver (cuTensorMapEncodeTiled) would reject, or would accept and then mishandle,
// is checked before the driver is reached and refused with a Status that names it; the checks need
// no GPU. The driver is reached through cudaGetDriverEntryPointByVersion, so nothing links libcuda.
#pragma once

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>

#include "../layout/layout.hpp"
#include "../layout/swizzle.hpp"
#include "../layout/tensor.hpp"
#include "status.hpp"

namespace strata {

// ---- element types -----------------------------------------------------------------------------

struct TmaDataType {
  bool supported;
  CUtensorMapDataType type;
};

// The TMA data type that moves T. Types without arithmetic in TMA (8- and 16-bit integers, fp8)
// move as unsigned integers of their width: a load or store copies bits, and an out-of-bounds zero
// is all-zero bits in every one of them.
template <class T>
constexpr TmaDataType tma_data_type() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, __half>) return {true, CU_TENSOR_MAP_DATA_TYPE_FLOAT16};
  else if constexpr (std::is_same_v<U, __nv_bfloat16>) return {true, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16};
  else if constexpr (std::is_same_v<U, float>) return {true, CU_TENSOR_MAP_DATA_TYPE_FLOAT32};
  else if constexpr (std::is_same_v<U, double>) return {true, CU_TENSOR_MAP_DATA_TYPE_FLOAT64};
  else if constexpr (std::is_same_v<U, __nv_fp8_e4m3> || std::is_same_v<U, __nv_fp8_e5m2>)
    return {true, CU_TENSOR_MAP_DATA_TYPE_UINT8};
  else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool> && sizeof(U) == 1)
    return {true, CU_TENSOR_MAP_DATA_TYPE_UINT8};
  else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool> && sizeof(U) == 2)
    return {true, CU_TENSOR_MAP_DATA_TYPE_UINT16};
  else if constexpr (std::is_same_v<U, int32_t>) return {true, CU_TENSOR_MAP_DATA_TYPE_INT32};
  else if constexpr (std::is_same_v<U, uint32_t>) return {true, CU_TENSOR_MAP_DATA_TYPE_UINT32};
  else if constexpr (std::is_same_v<U, int64_t>) return {true, CU_TENSOR_MAP_DATA_TYPE_INT64};
  else if constexpr (std::is_same_v<U, uint64_t>) return {true, CU_TENSOR_MAP_DATA_TYPE_UINT64};
  else return {false, CU_TENSOR_MAP_DATA_TYPE_UINT8};
}

// ---- the box: what the shared-memory layout says, at compile time --------------------------------

namespace detail {
// A box layout split into its swizzle (B, M, S in elements; B == 0: none) and its plain layout.
template <class L>
struct TmaBoxParts {
  static_assert(PlainLayout<L>, "TMA: the box must be a Layout or a ComposedLayout of a Swizzle with a Layout");
  using Inner = L;
  static constexpr bool known_function = true, offset_zero = true;
  static constexpr int bits = 0, base = 0, shift = 0;
};
template <class A, class O, class L>
struct TmaBoxParts<ComposedLayout<A, O, L>> {
  using Inner = L;
  static constexpr bool known_function = is_swizzle_v<A>;
  static constexpr bool offset_zero = is_constant_v<0, O>;
  static constexpr int bits = [] { if constexpr (is_swizzle_v<A>) return A::num_bits; else return 0; }();
  static constexpr int base = [] { if constexpr (is_swizzle_v<A>) return A::num_base; else return 0; }();
  static constexpr int shift = [] { if constexpr (is_swizzle_v<A>) return A::num_shft; else return 0; }();
};

constexpr int log2_exact(long long v) {
  int k = 0;
  while ((1LL << k) < v) ++k;
  return (1LL << k) == v ? k : -1;
}

template <int R>
struct TmaBoxAnalysis {
  std::array<long long, R> extent{}, stride{};
  std::array<int, R> mode_of_dim{};
  bool single_runs = true, compact = true;
  int first_split_mode = -1;
};

// Mode I of a static layout as (extent, stride) when it is one run: its leaves of extent > 1 chain
// column-major (stride_{j+1} == s_j * d_j); otherwise the first such mode is recorded.
template <class L, int I, int R>
constexpr void analyse_box_mode(TmaBoxAnalysis<R>& a) {
  constexpr auto mode = [](auto x) {
    if constexpr (Tuple<decltype(x)>) {
      return to_array<long long>(get<I>(x));
    } else {
      return to_array<long long>(x);
    }
  };
  constexpr auto s = mode(L{}.shape());
  constexpr auto d = mode(L{}.stride());
  long long extent = 1, stride = 0, next = 0;
  bool first = true, run = true;
  for (std::size_t j = 0; j < s.size(); ++j) {
    if (s[j] == 1) continue;
    if (first) {
      stride = d[j];
      first = false;
    } else if (d[j] != next) {
      run = false;
    }
    extent *= s[j];
    next = d[j] * s[j];
  }
  a.extent[I] = extent;
  a.stride[I] = stride;
  if (!run && a.single_runs) {
    a.single_runs = false;
    a.first_split_mode = I;
  }
}

template <class L, int R>
constexpr TmaBoxAnalysis<R> analyse_box() {
  TmaBoxAnalysis<R> a;
  [&]<std::size_t... Is>(std::index_sequence<Is...>) { (analyse_box_mode<L, int(Is), R>(a), ...); }(
      std::make_index_sequence<R>{});
  // TMA's dimensions: the modes of extent > 1 by increasing stride (stable), then those of extent 1.
  int n = 0;
  for (int pass = 0; pass < 2; ++pass) {
    for (int m = 0; m < R; ++m) {
      if ((a.extent[m] > 1) != (pass == 0)) continue;
      int at = n++;
      while (pass == 0 && at > 0 && a.stride[a.mode_of_dim[at - 1]] > a.stride[m]) {
        a.mode_of_dim[at] = a.mode_of_dim[at - 1];
        --at;
      }
      a.mode_of_dim[at] = m;
    }
  }
  long long dense = 1;
  for (int dim = 0; dim < R; ++dim) {
    const int m = a.mode_of_dim[dim];
    if (a.extent[m] > 1 && a.stride[m] != dense) a.compact = false;
    dense *= a.extent[m];
  }
  return a;
}
}  // namespace detail

// TmaBox<Element, Box>: the box layout read as TMA sees it.
//   rank, extent[i]                 modes and their extents (elements moved along each)
//   mode_of_dim[d]                  which box (and global) mode is TMA's dimension d
//   single_runs, first_split_mode   whether every mode is one run of shared memory (else which is not)
//   compact                         whether the modes, by stride, tile shared memory densely
//   swizzle_bytes                   0, 32, 64 or 128; -1 when the box's function is not TMA's swizzle
//   transaction_bytes               bytes one box moves: what a load's mbarrier must expect
template <class Element, class Box>
struct TmaBox {
  using Parts = detail::TmaBoxParts<Box>;
  using Inner = typename Parts::Inner;
  static_assert(is_static_v<Inner>, "TMA: the box's shared-memory layout must be known at compile time");

  static constexpr int rank = rank_v<decltype(Inner{}.shape())>;
  static constexpr int element_bytes = int(sizeof(Element));

  static constexpr detail::TmaBoxAnalysis<rank> info = detail::analyse_box<Inner, rank>();

  static constexpr std::array<long long, rank> extent = info.extent;
  static constexpr std::array<int, rank> mode_of_dim = info.mode_of_dim;
  static constexpr bool single_runs = info.single_runs;
  static constexpr int first_split_mode = info.first_split_mode;
  static constexpr bool compact = info.compact;

  static constexpr bool swizzle_known_function = Parts::known_function;
  static constexpr bool swizzle_offset_zero = Parts::offset_zero;
  static constexpr int swizzle_bits = Parts::bits, swizzle_base = Parts::base, swizzle_shift = Parts::shift;
  // On byte offsets TMA's swizzles are Swizzle<1|2|3, 4, 3>: 16-byte chunks, rows of the span.
  static constexpr int swizzle_bytes = [] {
    if (!Parts::known_function || !Parts::offset_zero) return -1;
    if (Parts::bits == 0) return 0;
    const int e = detail::log2_exact(element_bytes);
    if (e < 0 || Parts::base + e != 4 || Parts::shift != 3 || Parts::bits > 3) return -1;
    return 16 << Parts::bits;
  }();

  static constexpr long long num_elements = decltype(size(Inner{}))::value;
  static constexpr long long transaction_bytes = num_elements * element_bytes;
};

// ---- what the driver is given -------------------------------------------------------------------

// The arguments of cuTensorMapEncodeTiled, in TMA's dimension order, plus where each came from.
// Signed where the layout may carry a negative or oversized value, so the checks can name it.
struct TmaEncodeArgs {
  TmaDataType data_type{false, CU_TENSOR_MAP_DATA_TYPE_UINT8};
  int element_bytes = 0;
  int rank = 0;
  const void* global_address = nullptr;
  std::array<long long, 5> global_dims{};     // elements
  std::array<long long, 5> global_strides{};  // bytes; [0] is the element size (implied), [1..] given
  std::array<long long, 5> box_dims{};        // elements traversed (extent times element stride)
  std::array<long long, 5> element_strides{1, 1, 1, 1, 1};
  std::array<int, 5> mode_of_dim{0, 1, 2, 3, 4};
  int swizzle_bytes = 0;  // 0 (none), 32, 64 or 128
  CUtensorMapL2promotion l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
};

// Per mode of the global tensor (in its own mode order).
struct TmaOptions {
  std::array<long long, 5> element_strides{1, 1, 1, 1, 1};  // load every k-th element; 1 .. 8
  CUtensorMapL2promotion l2_promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
};

namespace detail {
inline std::string tma_dim_name(TmaEncodeArgs const& a, int dim) {
  return "dimension " + std::to_string(dim) + " (mode " + std::to_string(a.mode_of_dim[dim]) + ")";
}
inline Status tma_rank_rule(int rank) {
  if (rank < 1 || rank > 5)
    return {StatusCode::unsupported, "TMA: the tensor's rank must be 1 to 5, got " + std::to_string(rank)};
  return {};
}
}  // namespace detail

// The driver's rules, checked on the arguments alone (no GPU, no driver call).
inline Status check_tma_args(TmaEncodeArgs const& a) {
  using std::to_string;
  if (Status s = detail::tma_rank_rule(a.rank); !s) return s;
  if (!a.data_type.supported)
    return {StatusCode::unsupported, "TMA: the element type is not one TMA moves (8-, 16-, 32- or 64-bit integers, "
                                     "half, bfloat16, float, double or fp8); got a " +
                                         to_string(a.element_bytes) + "-byte type"};
  if (a.global_address == nullptr) return {StatusCode::null_pointer, "TMA: the global address is null"};
  if (reinterpret_cast<std::uintptr_t>(a.global_address) % 16 != 0)
    return {StatusCode::misaligned_pointer, "TMA: the global address must be 16-byte aligned, it is " +
                                                to_string(reinterpret_cast<std::uintptr_t>(a.global_address) % 16) +
                                                " bytes past a multiple of 16"};
  for (int d = 0; d < a.rank; ++d) {
    const std::string dim = detail::tma_dim_name(a, d);
    if (a.global_dims[d] < 1)
      return {StatusCode::invalid_problem,
              "TMA: global " + dim + " must have an extent of 1 to 2^32, got " + to_string(a.global_dims[d])};
    if (a.global_dims[d] > (1LL << 32))
      return {StatusCode::problem_too_large,
              "TMA: global " + dim + " must have an extent of 1 to 2^32, got " + to_string(a.global_dims[d])};
  }
  for (int d = 1; d < a.rank; ++d) {
    const std::string dim = detail::tma_dim_name(a, d);
    const long long s = a.global_strides[d];
    if (s <= 0)
      return {StatusCode::invalid_leading_dim,
              "TMA: the global stride of " + dim + " must be positive, got " + to_string(s) + " bytes"};
    if (s % 16 != 0)
      return {StatusCode::misaligned_leading_dim,
              "TMA: the global stride of " + dim + " must be a multiple of 16 bytes, got " + to_string(s) + " bytes"};
    if (s >= (1LL << 40))
      return {StatusCode::problem_too_large,
              "TMA: the global stride of " + dim + " must be below 2^40 bytes, got " + to_string(s) + " bytes"};
  }
  for (int d = 0; d < a.rank; ++d) {
    if (a.element_strides[d] < 1 || a.element_strides[d] > 8)
      return {StatusCode::unsupported, "TMA: the element stride of " + detail::tma_dim_name(a, d) +
                                           " must be 1 to 8, got " + to_string(a.element_strides[d])};
  }
  if (a.element_strides[0] != 1)
    return {StatusCode::unsupported, "TMA: the element stride of dimension 0 (the contiguous one) must be 1: TMA "
                                     "ignores it there, got " +
                                         to_string(a.element_strides[0])};
  for (int d = 0; d < a.rank; ++d) {
    if (a.box_dims[d] < 1 || a.box_dims[d] > 256)
      return {StatusCode::unsupported, "TMA: the box extent of " + detail::tma_dim_name(a, d) +
                                           " must be 1 to 256 elements, got " + to_string(a.box_dims[d])};
  }
  const long long inner_bytes = a.box_dims[0] * a.element_bytes;
  if (inner_bytes % 16 != 0)
    return {StatusCode::unsupported, "TMA: the box's inner extent (" + detail::tma_dim_name(a, 0) +
                                         ") times the element size must be a multiple of 16 bytes, got " +
                                         to_string(a.box_dims[0]) + " x " + to_string(a.element_bytes) + " = " +
                                         to_string(inner_bytes) + " bytes"};
  if (a.swizzle_bytes != 0 && a.swizzle_bytes != 32 && a.swizzle_bytes != 64 && a.swizzle_bytes != 128)
    return {StatusCode::unsupported,
            "TMA: the swizzle must be none, 32, 64 or 128 bytes, got " + to_string(a.swizzle_bytes)};
  // A shorter row is laid out by TMA otherwise than the box's swizzle says (seen on the H200).
  if (a.swizzle_bytes != 0 && inner_bytes != a.swizzle_bytes)
    return {StatusCode::unsupported, "TMA: with a " + to_string(a.swizzle_bytes) +
                                         "-byte swizzle the box's inner extent must be exactly " +
                                         to_string(a.swizzle_bytes) + " bytes (the swizzle span), got " +
                                         to_string(inner_bytes) + " bytes"};
  return {};
}

// ---- from layouts to arguments --------------------------------------------------------------------

// Fills `out` from a global tensor (pointer + flat layout, strides in elements) and a box layout;
// refuses, naming the rule, what TMA cannot do. Needs no GPU.
template <class T, class GlobalLayout, class Box>
Status make_tma_args(TmaEncodeArgs& out, T const* gmem, GlobalLayout const& global, Box const&,
                     TmaOptions const& options = {}) {
  using std::to_string;
  using B = TmaBox<T, Box>;
  static_assert(PlainLayout<GlobalLayout>, "TMA: the global tensor's layout must be a plain Layout");
  constexpr int R = B::rank;
  constexpr int RG = rank_v<decltype(global.shape())>;
  static_assert(rank_v<decltype(flatten_to_tuple(global.shape()))> == RG,
                "TMA: the global tensor's layout must be flat: one integer extent and stride per mode");
  if (RG != R)
    return {StatusCode::unsupported, "TMA: the box has " + to_string(R) + " modes but the global tensor has " +
                                         to_string(RG) + "; box mode i tiles global mode i"};
  if constexpr (R < 1 || R > 5) {
    return detail::tma_rank_rule(R);
  } else {
    if (!B::single_runs)
      return {StatusCode::unsupported, "TMA: box mode " + to_string(B::first_split_mode) +
                                           " must be one run of shared memory (its sub-modes must coalesce to a "
                                           "single stride)"};
    if (!B::compact)
      return {StatusCode::unsupported, "TMA: the box's shared-memory layout must be compact: TMA writes a box "
                                       "densely, so its modes ordered by stride must each have the product of "
                                       "the extents before them as stride"};
    if (B::swizzle_bytes < 0)
      return {StatusCode::unsupported,
              "TMA: the box's swizzle Sw<" + to_string(B::swizzle_bits) + "," + to_string(B::swizzle_base) + "," +
                  to_string(B::swizzle_shift) + "> on " + to_string(B::element_bytes) +
                  "-byte elements is not one of TMA's (at offset 0, on byte offsets Sw<1,4,3>, Sw<2,4,3> or "
                  "Sw<3,4,3>: 32, 64 or 128 bytes)"};
    const auto dims = detail::to_array<long long>(global.shape());
    const auto strides = detail::to_array<long long>(global.stride());
    out = TmaEncodeArgs{};
    out.data_type = tma_data_type<T>();
    out.element_bytes = int(sizeof(T));
    out.rank = R;
    out.global_address = gmem;
    out.swizzle_bytes = B::swizzle_bytes;
    out.l2_promotion = options.l2_promotion;
    for (int d = 0; d < R; ++d) {
      const int m = B::mode_of_dim[d];
      out.mode_of_dim[d] = m;
      out.global_dims[d] = dims[m];
      out.element_strides[d] = options.element_strides[m];
      out.box_dims[d] = B::extent[m] * options.element_strides[m];
      out.global_strides[d] = d == 0 ? out.element_bytes : strides[m] * out.element_bytes;
      // A mode of extent 1 is never stepped along, so any stride the driver accepts serves: the span
      // of the dimensions before it, rounded up to 16 bytes (16 if that is too large).
      if (d > 0 && dims[m] == 1) {
        const long long span = (out.global_strides[d - 1] * out.global_dims[d - 1] + 15) / 16 * 16;
        out.global_strides[d] = span > 0 && span < (1LL << 40) ? span : 16;
      }
    }
    const int inner = B::mode_of_dim[0];
    if (strides[inner] != 1 && dims[inner] != 1)
      return {StatusCode::unsupported, "TMA: the box's contiguous mode " + to_string(inner) +
                                           " (shared-memory stride 1, TMA's dimension 0) must have global stride "
                                           "1, got " +
                                           to_string(strides[inner])};
    return check_tma_args(out);
  }
}

// ---- the descriptor ------------------------------------------------------------------------------

// The driver's cuTensorMapEncodeTiled, or why it cannot be had.
inline Status tma_encode_function(PFN_cuTensorMapEncodeTiled_v12000& fn) {
  void* entry = nullptr;
  cudaDriverEntryPointQueryResult query = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t err =
      cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &entry, 12000, cudaEnableDefault, &query);
  if (err != cudaSuccess)
    return {StatusCode::cuda_error,
            std::string("TMA: cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled): ") + cudaGetErrorString(err)};
  if (query != cudaDriverEntryPointSuccess || entry == nullptr)
    return {StatusCode::cuda_error, "TMA: the driver has no cuTensorMapEncodeTiled (query result " +
                                        std::to_string(int(query)) + "); a CUDA 12 or newer driver is needed"};
  fn = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(entry);
  return {};
}

// Checks `a` and encodes it into `map`; `map` is written only on success.
inline Status encode_tma_descriptor(CUtensorMap& map, TmaEncodeArgs const& a) {
  if (Status s = check_tma_args(a); !s) return s;
  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  if (Status s = tma_encode_function(encode); !s) return s;
  cuuint64_t dims[5], strides[4];
  cuuint32_t box[5], element_strides[5];
  for (int d = 0; d < a.rank; ++d) {
    dims[d] = cuuint64_t(a.global_dims[d]);
    box[d] = cuuint32_t(a.box_dims[d]);
    element_strides[d] = cuuint32_t(a.element_strides[d]);
    if (d > 0) strides[d - 1] = cuuint64_t(a.global_strides[d]);
  }
  const CUtensorMapSwizzle swizzle = a.swizzle_bytes == 128  ? CU_TENSOR_MAP_SWIZZLE_128B
                                     : a.swizzle_bytes == 64 ? CU_TENSOR_MAP_SWIZZLE_64B
                                     : a.swizzle_bytes == 32 ? CU_TENSOR_MAP_SWIZZLE_32B
                                                             : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUtensorMap encoded;
  const CUresult r = encode(&encoded, a.data_type.type, cuuint32_t(a.rank), const_cast<void*>(a.global_address), dims,
                            strides, box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, a.l2_promotion,
                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    return {StatusCode::cuda_error, "TMA: cuTensorMapEncodeTiled refused the descriptor (CUresult " +
                                        std::to_string(int(r)) + ") although Strata's checks passed"};
  map = encoded;
  return {};
}

// make_tma_descriptor(map, gmem, global_layout, box[, options]): the descriptor for boxes of the
// `box` layout over the tensor at `gmem`, or the rule it breaks.
template <class T, class GlobalLayout, class Box>
Status make_tma_descriptor(CUtensorMap& map, T const* gmem, GlobalLayout const& global, Box const& box,
                           TmaOptions const& options = {}) {
  TmaEncodeArgs args;
  if (Status s = make_tma_args(args, gmem, global, box, options); !s) return s;
  return encode_tma_descriptor(map, args);
}

// make_tma_descriptor(map, gmem_tensor, box[, options]): the same for a global-memory tensor.
template <AnyTensor Tn, class Box>
Status make_tma_descriptor(CUtensorMap& map, Tn const& gmem_tensor, Box const& box, TmaOptions const& options = {}) {
  static_assert(Pointer<typename Tn::iterator>, "TMA: the tensor must be a view of memory");
  return make_tma_descriptor(map, raw_pointer_cast(gmem_tensor.data()), gmem_tensor.layout(), box, options);
}

}  // namespace strata
