// Strata floor 2: the copy atom — one copy instruction seen through the layout algebra.
//
// A copy instruction moves a fixed footprint of bits: one thread's 16 bytes for a vector load or
// cp.async, four 8x8 matrices spread over a warp for ldmatrix.x4, a whole box issued by one thread
// for Hopper's TMA. Which thread supplies which part of the source and receives which part of the
// destination is stated as thread–value (TV) layouts over that footprint,
//
//   SrcLayout: (thread, value) -> footprint index the thread supplies
//   DstLayout: (thread, value) -> footprint index the thread receives
//
// so that TiledCopy (tiled_copy.hpp) can tile any instruction over any tile with the algebra and
// never again look at the instruction. ThrID maps the atom's logical thread to the thread within
// the group that issues it: Layout<_1> for one thread (vector copies, cp.async, TMA),
// Layout<_32> for a warp (ldmatrix).
//
// An instruction moves bits whatever the element type, so CopyTraits state the layouts in bits
// and CopyAtom<Op, Value> re-expresses them in elements of Value: the same 16-byte cp.async is 8
// halves or 4 floats per thread.
//
// Room for Hopper: a CopyTraits may carry run-time state (a TMA descriptor), its `copy` may take
// extra arguments after source and destination (`atom.call(src, dst, mbarrier)`), and `with(...)`
// turns an atom into one armed with such state (TMA armed with its mbarrier), as in CuTe.
#pragma once

#include <cstring>
#include <type_traits>

#include "../layout/layout.hpp"
#include "../layout/tensor.hpp"

namespace strata {

// CopyTraits<Op>: specialised once per instruction (copy_sm80.hpp). It provides
//   ThrID       logical thread -> thread within the issuing group
//   SrcLayout   (thread, bit) -> bit of the footprint the thread supplies
//   DstLayout   (thread, bit) -> bit of the footprint the thread receives
//   RefLayout   the one of the two that a TiledCopy's TV layout describes: the destination for
//               ldmatrix (what matters is which registers each thread ends up with, i.e. the MMA
//               fragment), either for a one-thread copy (they are equal)
//   copy(src, dst[, extra...])   runs the instruction on one call's operands (CopyOperand below)
// and optionally copy(src, dst, bool) for a predicated form (cp.async zero-fill), and
// with(args...) returning armed traits: a CopyTraits<ArmedOp> with `using Operation = ArmedOp`.
template <class Op>
struct CopyTraits;

namespace detail {

// The instruction must move whole values: bit b of value v of a thread is bit b of one value of
// the footprint, i.e. tv_bits(t, v * W + b) == W * tv_values(t, v) + b for W the value's width.
// Checked for every (thread, value) at b = 0 and b = each power of two below W, which decides it
// for layouts whose shapes are powers of two (those of every copy instruction).
template <int W, class BitTV, class ValueTV>
constexpr bool moves_whole_values() {
  constexpr int threads = decltype(size<0>(BitTV{}))::value;
  constexpr int bits = decltype(size<1>(BitTV{}))::value;
  if (bits % W != 0) return false;
  if (decltype(size<0>(ValueTV{}))::value != threads || decltype(size<1>(ValueTV{}))::value * W != bits) return false;
  for (int t = 0; t < threads; ++t) {
    for (int v = 0; v < bits / W; ++v) {
      const int first = W * int(ValueTV{}(t, v));
      if (int(BitTV{}(t, v * W)) != first) return false;
      for (int b = 1; b < W; b *= 2) {
        if (int(BitTV{}(t, v * W + b)) != first + b) return false;
      }
    }
  }
  return true;
}

template <class Value, class BitTV>
STRATA_HD auto bits_to_values(BitTV const& tv) {
  constexpr int W = sizeof_bits_v<Value>;
  return upcast<W>(tv);
}

}  // namespace detail

// CopyOperand: the values of one tensor that one atom call moves — indices [first, first + N)
// of the tensor's domain, in colexicographic order. A thread's partition holds several calls
// (copy() walks them), so an operand is a window into it rather than a tensor of its own; this
// also lets a swizzled tensor be addressed through its own layout, one call at a time.
template <class Tn, int N, class First = int>
struct CopyOperand {
  using tensor_type = std::remove_cvref_t<Tn>;
  using value_type = typename tensor_type::value_type;
  static constexpr int size = N;
  // Registers are staged through the instruction's own register; anything else is memory and is
  // addressed by pointer.
  static constexpr bool in_registers = is_rmem_v<std::remove_cvref_t<typename tensor_type::iterator>>;

  // Whether the N values are provably one run of consecutive elements (plain layout, stride _1).
  static constexpr bool contiguous = [] {
    using L = typename tensor_type::layout_type;
    if constexpr (N > 1 && PlainLayout<L>) {
      using Run = decltype(coalesce(composition(std::declval<L>(), Layout<Int<N>, Int<1>>{})));
      return std::is_same_v<Run, Layout<Int<N>, Int<1>>>;
    } else {
      return N == 1;
    }
  }();

  Tn& tensor;
  First first;  // a static integer when copy() walks the calls (see there), else an int

  STRATA_HD decltype(auto) operator()(int i) const { return tensor(first + i); }

  // The address of value 0. The instruction reads or writes the N values as one run of memory,
  // so for a plain layout they must provably be contiguous; for a swizzled layout the swizzle
  // must keep such runs together (its M >= log2 N), which is the caller's precondition.
  STRATA_HD auto address() const {
    static_assert(contiguous || !PlainLayout<typename tensor_type::layout_type>,
                  "copy atom: the values one instruction moves must be contiguous in memory, with a "
                  "stride of _1 known at compile time (partition the contiguous mode, or use a narrower atom)");
    return &tensor(first);
  }
};

namespace detail {

// Register staging for one-thread copies whose source or destination is a register fragment:
// the values are packed into (or unpacked from) the instruction's register, byte for byte. On
// register-resident fragments the compiler turns this into moves.
template <class Reg, class Operand>
STRATA_HOST_DEVICE void pack_values(Reg& reg, Operand const& op) {
  using V = typename Operand::value_type;
  static_assert(sizeof(Reg) == Operand::size * sizeof(V),
                "copy atom: the values of one call must fill the instruction's register exactly");
  if constexpr (Operand::contiguous) {
    // One move of the whole register: value-by-value moves of 16-bit values would leave the
    // compiler splicing half registers (PRMT) around every ldmatrix.
    std::memcpy(&reg, &op(0), sizeof(Reg));
  } else {
    STRATA_UNROLL
    for (int i = 0; i < Operand::size; ++i) {
      V v = op(i);
      std::memcpy(reinterpret_cast<unsigned char*>(&reg) + i * sizeof(V), &v, sizeof(V));
    }
  }
}
template <class Reg, class Operand>
STRATA_HOST_DEVICE void unpack_values(Operand const& op, Reg const& reg) {
  using V = typename Operand::value_type;
  static_assert(sizeof(Reg) == Operand::size * sizeof(V),
                "copy atom: the values of one call must fill the instruction's register exactly");
  if constexpr (Operand::contiguous) {
    std::memcpy(&op(0), &reg, sizeof(Reg));
  } else {
    STRATA_UNROLL
    for (int i = 0; i < Operand::size; ++i) {
      V v;
      std::memcpy(&v, reinterpret_cast<unsigned char const*>(&reg) + i * sizeof(V), sizeof(V));
      op(i) = v;
    }
  }
}

// Where an instruction that takes pointers reads its source: the operand's memory, or `staging`
// filled from its registers.
template <class Reg, class Operand>
STRATA_HOST_DEVICE void const* source_address(Operand const& op, Reg& staging) {
  if constexpr (Operand::in_registers) {
    pack_values(staging, op);
    return &staging;
  } else {
    return op.address();
  }
}
// Where it writes its destination: the operand's memory, or `staging` (then finish_destination).
template <class Reg, class Operand>
STRATA_HOST_DEVICE void* destination_address(Operand const& op, Reg& staging) {
  if constexpr (Operand::in_registers) {
    return &staging;
  } else {
    return op.address();
  }
}
template <class Reg, class Operand>
STRATA_HOST_DEVICE void finish_destination(Operand const& op, Reg const& staging) {
  if constexpr (Operand::in_registers) unpack_values(op, staging);
}

struct CopyAtomTag {};

}  // namespace detail

// CopyAtom<Op, Value>: the instruction Op moving elements of type Value.
//   ValLayoutSrc/Dst/Ref: the traits' layouts in elements: (thread, value) -> element of the footprint
//   num_threads, num_values_src, num_values_dst, num_values_ref
//   call(src, dst[, extra...]): one instruction on operands of exactly one call's values
template <class Op, class Value>
struct CopyAtom : CopyTraits<Op>, detail::CopyAtomTag {
  using Operation = Op;
  using Traits = CopyTraits<Op>;
  using ValueType = Value;
  using ThrID = typename Traits::ThrID;

  using ValLayoutSrc = decltype(detail::bits_to_values<Value>(typename Traits::SrcLayout{}));
  using ValLayoutDst = decltype(detail::bits_to_values<Value>(typename Traits::DstLayout{}));
  using ValLayoutRef = decltype(detail::bits_to_values<Value>(typename Traits::RefLayout{}));

  static_assert(detail::moves_whole_values<sizeof_bits_v<Value>, typename Traits::SrcLayout, ValLayoutSrc>() &&
                    detail::moves_whole_values<sizeof_bits_v<Value>, typename Traits::DstLayout, ValLayoutDst>(),
                "CopyAtom: the instruction must move whole values of this type: each thread's share must be "
                "a multiple of the value's width and no value may be split between threads (e.g. "
                "ldmatrix.trans moves 16-bit pieces, so its values must be 16 bits wide)");

  static constexpr int num_threads = decltype(size(ThrID{}))::value;
  static constexpr int num_values_src = decltype(size<1>(ValLayoutSrc{}))::value;
  static constexpr int num_values_dst = decltype(size<1>(ValLayoutDst{}))::value;
  static constexpr int num_values_ref = decltype(size<1>(ValLayoutRef{}))::value;

  static_assert(decltype(size<0>(ValLayoutSrc{}))::value == num_threads &&
                    decltype(size<0>(ValLayoutDst{}))::value == num_threads,
                "CopyAtom: mode 0 (threads) of the source and destination layouts must have the size of ThrID");

  CopyAtom() = default;
  STRATA_HD explicit CopyAtom(Traits const& traits) : Traits(traits) {}

  STRATA_HD Traits const& traits() const { return *this; }

  // One instruction. src and dst are CopyOperands of num_values_src / num_values_dst values;
  // extra arguments (a TMA's mbarrier, say) go to the traits unchanged.
  template <class Src, class Dst, class... Extra>
  STRATA_HOST_DEVICE void call(Src const& src, Dst const& dst, Extra&&... extra) const {
    static_assert(Src::size == num_values_src && Dst::size == num_values_dst,
                  "CopyAtom::call: the operands must hold exactly one instruction's values");
    traits().copy(src, dst, static_cast<Extra&&>(extra)...);
  }

  // The same atom with its traits armed with run-time state, e.g. tma_atom.with(mbarrier).
  template <class... Args>
  STRATA_HD auto with(Args&&... args) const {
    auto armed = traits().with(static_cast<Args&&>(args)...);
    return CopyAtom<typename decltype(armed)::Operation, Value>(armed);
  }
};

template <class T>
concept CopyAtomLike = std::is_base_of_v<detail::CopyAtomTag, std::remove_cvref_t<T>>;

// Whether an atom's traits take a predicate themselves (copy(src, dst, bool)): cp.async with
// zero-fill does, and writes zeros where the predicate is false instead of skipping the copy.
template <class Atom, class Src, class Dst>
inline constexpr bool copy_takes_predicate_v = requires(typename std::remove_cvref_t<Atom>::Traits const& t,
                                                        Src const& s, Dst const& d) { t.copy(s, d, true); };

namespace detail {
template <class Atom, class Src, class Dst>
STRATA_HD int copy_calls() {
  using A = std::remove_cvref_t<Atom>;
  constexpr int src_size = decltype(size(std::declval<Src const&>().layout()))::value;
  constexpr int dst_size = decltype(size(std::declval<Dst const&>().layout()))::value;
  static_assert(src_size % A::num_values_src == 0 && dst_size % A::num_values_dst == 0,
                "copy(atom, src, dst): the tensors must hold a whole number of the atom's values "
                "(partition them with the TiledCopy of this atom)");
  static_assert(src_size / A::num_values_src == dst_size / A::num_values_dst,
                "copy(atom, src, dst): the source and the destination must take the same number of atom calls");
  return src_size / A::num_values_src;
}
}  // namespace detail

namespace detail {
// f(Int<0>{}), ..., f(Int<Calls - 1>{}): copy() walks the calls at compile time so every operand is
// addressed with a static index. A swizzled tensor then splits each address into one swizzled
// base per distinct in-period remainder plus constants (ComposedLayout's evaluation), which the
// compiler folds into the instructions' immediate offsets.
template <int Calls, class F>
STRATA_HOST_DEVICE void for_each_call(F&& f) {
  [&]<int... Cs>(std::integer_sequence<int, Cs...>) { (f(Int<Cs>{}), ...); }(std::make_integer_sequence<int, Calls>{});
}
}  // namespace detail

// copy(atom, src, dst): the atom's instruction over a thread's partitions (or over one call's
// values). Call c moves source values [c * num_values_src, (c + 1) * num_values_src) to the
// destination values likewise, in colexicographic order: for a TiledCopy partition, mode 0 (the
// values of one tile) first, then the tiles. Sizes must be static. Extra arguments go to each call.
template <CopyAtomLike Atom, AnyTensor Src, AnyTensor Dst, class... Extra>
STRATA_HOST_DEVICE void copy(Atom const& atom, Src&& src, Dst&& dst, Extra&&... extra) {
  using A = std::remove_cvref_t<Atom>;
  constexpr int calls = detail::copy_calls<Atom, std::remove_cvref_t<Src>, std::remove_cvref_t<Dst>>();
  detail::for_each_call<calls>([&](auto c) {
    CopyOperand<std::remove_reference_t<Src>, A::num_values_src, Int<c * A::num_values_src>> s{src, {}};
    CopyOperand<std::remove_reference_t<Dst>, A::num_values_dst, Int<c * A::num_values_dst>> d{dst, {}};
    atom.call(s, d, extra...);
  });
}

// copy_if(atom, pred, src, dst): as copy, with one predicate per atom call: pred(c) for call c
// (pred a tensor of booleans of the calls' shape, indexed colexicographically, or anything
// callable as pred(c)). Where pred(c) is false, an atom with a predicated form (cp.async
// zero-fill) writes zeros to the destination without reading the source; any other atom skips
// the call and leaves the destination as it was.
template <CopyAtomLike Atom, class Pred, AnyTensor Src, AnyTensor Dst>
STRATA_HOST_DEVICE void copy_if(Atom const& atom, Pred const& pred, Src&& src, Dst&& dst) {
  using A = std::remove_cvref_t<Atom>;
  constexpr int calls = detail::copy_calls<Atom, std::remove_cvref_t<Src>, std::remove_cvref_t<Dst>>();
  if constexpr (AnyTensor<Pred>) {
    static_assert(decltype(size(std::declval<Pred const&>().layout()))::value == calls,
                  "copy_if(atom, pred, src, dst): pred must hold one predicate per atom call "
                  "(the shape of the partition without its mode 0)");
  }
  detail::for_each_call<calls>([&](auto c) {
    using S = CopyOperand<std::remove_reference_t<Src>, A::num_values_src, Int<c * A::num_values_src>>;
    using D = CopyOperand<std::remove_reference_t<Dst>, A::num_values_dst, Int<c * A::num_values_dst>>;
    S s{src, {}};
    D d{dst, {}};
    if constexpr (copy_takes_predicate_v<Atom, S, D>) {
      atom.traits().copy(s, d, bool(pred(int(c))));
    } else if (pred(int(c))) {
      atom.call(s, d);
    }
  });
}

// copy_bytes(atom, bytes_of, src, dst): as copy, for atoms that copy a byte count and zero-fill
// the rest of their footprint (cp.async with src-size): call c reads bytes_of(c) bytes (0 reads
// nothing, so its source address need not be readable) and writes the whole footprint.
template <CopyAtomLike Atom, class BytesOf, AnyTensor Src, AnyTensor Dst>
STRATA_HOST_DEVICE void copy_bytes(Atom const& atom, BytesOf const& bytes_of, Src&& src, Dst&& dst) {
  using A = std::remove_cvref_t<Atom>;
  constexpr int calls = detail::copy_calls<Atom, std::remove_cvref_t<Src>, std::remove_cvref_t<Dst>>();
  detail::for_each_call<calls>([&](auto c) {
    CopyOperand<std::remove_reference_t<Src>, A::num_values_src, Int<c * A::num_values_src>> s{src, {}};
    CopyOperand<std::remove_reference_t<Dst>, A::num_values_dst, Int<c * A::num_values_dst>> d{dst, {}};
    atom.call(s, d, int(bytes_of(int(c))));
  });
}

}  // namespace strata
